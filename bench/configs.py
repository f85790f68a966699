"""The benchmark's configurations: one row per shipped game and setting.

A row names the script (relative to the repository), the hand-written baseline module and how
to call it.  Rows whose script or baseline is missing are skipped with a note, so a game can be
listed here before its baseline is written.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Config:
    name: str  # shown in the table and used by --only
    script: str  # path from the repository root
    baseline: str  # module with play_game(seed, options[, players]) -> (scores, decisions)
    players: int | None = None  # None: the script's minimum
    options: dict = attrs.Factory(dict)  # typed option values, given to the engine and the baseline
    games: int = 300  # games per measured run (scaled by --scale)


CONFIGS = [
    Config("bouncer", "games/bouncer.cardgame", "bench.baseline.bouncer"),
    Config("bouncer special", "games/bouncer.cardgame", "bench.baseline.bouncer",
           options={"special_bouncers": True}),
    Config("bouncer upcoming", "games/bouncer.cardgame", "bench.baseline.bouncer",
           options={"show_upcoming": True}),
    # Boo Ray games end when every player votes to stop, so their lengths vary a lot: more games.
    Config("booray 4p", "games/booray.cardgame", "bench.baseline.booray", players=4, games=600),
    Config("booray 5p", "games/booray.cardgame", "bench.baseline.booray", players=5, games=300),
    Config("booray 6p", "games/booray.cardgame", "bench.baseline.booray", players=6, games=120),
]

# The state measured for memory and clone(): this script, after this many random moves.
STATE_SCRIPT, STATE_MOVES = "games/bouncer.cardgame", 20

# `--workers 2` against `--workers 1`: this configuration, with enough games for about this many
# seconds in one process (starting a worker process costs a fraction of a second).
WORKERS_CONFIG, WORKERS_SECONDS = "bouncer", 5.0
