"""The benchmark's configurations: one row per shipped game and setting.

A row names the script (relative to the repository), the hand-written baselines (idiomatic
and tuned) and how to call them.  A row whose script or named baseline is missing is skipped
with a note.  Rows without baselines (the new-author scripts) show the engine's own figures
only.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Config:
    name: str  # shown in the table and used by --only
    script: str  # path from the repository root
    baseline: str | None  # idiomatic module with play_game(seed, options[, players]) -> (scores, decisions)
    tuned: str | None = None  # the same rules tuned for speed (bench/baseline/*_tuned.py)
    players: int | None = None  # None: the script's minimum
    options: dict = attrs.Factory(dict)  # typed option values, given to the engine and the baseline
    games: int = 300  # games per measured run (scaled by --scale)


BOUNCER, BOUNCER_TUNED = "bench.baseline.bouncer", "bench.baseline.bouncer_tuned"
BOORAY, BOORAY_TUNED = "bench.baseline.booray", "bench.baseline.booray_tuned"
BOSSPOKER, BOSSPOKER_TUNED = "bench.baseline.bosspoker", "bench.baseline.bosspoker_tuned"
BOHEI, BOHEI_TUNED = "bench.baseline.bohei", "bench.baseline.bohei_tuned"

CONFIGS = [
    Config("bouncer", "games/bouncer.cardgame", BOUNCER, BOUNCER_TUNED),
    Config("bouncer special", "games/bouncer.cardgame", BOUNCER, BOUNCER_TUNED, options={"special_bouncers": True}),
    Config("bouncer upcoming", "games/bouncer.cardgame", BOUNCER, BOUNCER_TUNED, options={"show_upcoming": True}),
    # Boo Ray games end when every player votes to stop, so their lengths vary a lot: more games.
    Config("booray 4p", "games/booray.cardgame", BOORAY, BOORAY_TUNED, players=4, games=600),
    Config("booray 5p", "games/booray.cardgame", BOORAY, BOORAY_TUNED, players=5, games=300),
    Config("booray 6p", "games/booray.cardgame", BOORAY, BOORAY_TUNED, players=6, games=120),
    # Boss Poker: with the seed's raises (any amount) random players go all in within a few
    # rounds (about 32 decisions a game); with raises by the ante they play all 8 rounds (about 131).
    # The tuned side runs a row in milliseconds, so these rows play more games than their length
    # alone would ask for: a run of a few milliseconds on a shared machine is mostly noise.
    Config("bosspoker 4p", "games/bosspoker.cardgame", BOSSPOKER, BOSSPOKER_TUNED, players=4, games=600),
    Config("bosspoker 4p by_ante", "games/bosspoker.cardgame", BOSSPOKER, BOSSPOKER_TUNED, players=4,
           options={"raises": "by_ante"}, games=200),
    # Bohei: game lengths vary a lot (100 to 1,000 decisions), so many games per run.
    Config("bohei 4p", "games/bohei.cardgame", BOHEI, BOHEI_TUNED, players=4, games=200),
    # Scripts written the way a new author would (bench/scripts/): no speed-up may depend on
    # how the shipped games happen to be written.
    Config("new author: pass", "bench/scripts/pass_and_take.cardgame", None, players=4, games=60),
    Config("new author: eights", "bench/scripts/eights.cardgame", None, players=4, games=400),
    # A partnership game (teams, per-team scores, nil bids): tests/scripts/partnership.cardgame.
    Config("new author: partnership", "tests/scripts/partnership.cardgame", None, players=4, games=100),
]

NEW_AUTHOR_PREFIX = "new author"

# explain() of one move: this script after this many random moves, every legal move explained.
EXPLAIN_SCRIPT, EXPLAIN_MOVES = "games/bouncer.cardgame", 21


# Listing the moves of a three-card pass (issue 10): the binder choosing several cards against
# three binders ordered by hand position; the first pass of each seed's first deal.
CHOOSE_SCRIPTS = {"choose": "bench/scripts/pass_choose.cardgame", "positional": "bench/scripts/pass_positional.cardgame"}
CHOOSE_SEEDS = 200


# The state measured for memory and clone(): this script, after this many random moves.
STATE_SCRIPT, STATE_MOVES = "games/bouncer.cardgame", 20

# `--workers 2` against `--workers 1`: this configuration, with enough games for about this many
# seconds in one process (starting a worker process costs a fraction of a second).
WORKERS_CONFIG, WORKERS_SECONDS = "bouncer", 5.0
