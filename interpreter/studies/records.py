"""What a simulated game leaves behind (`GameRecord`), how it can end, and which seed game `index`
of a run plays: shared by the Python path (playtest.py) and the kernel (compiled.py), which give
the same records for the same seeds."""

from __future__ import annotations

import attrs

from ..language.rng import derive
from ..language.source import Diagnostic

OUTCOMES = ("won", "drawn", "capped", "faulted", "limit")
"""How a game can end: `won` (exactly one winner: one seat, or in a game with teams one team),
`drawn` (several seats or teams share the win, or the winners expression names nobody), `capped` (the script's `end game capped`), `faulted` (a run-time
error, R0001), `limit` (no end after the run's decision limit)."""



@attrs.frozen
class GameRecord:
    """What one game gave.  Plain values only, so records travel between processes.

    Attributes:
        index, seed: the game's number in the run and its own seed (`cardgame play --seed`).
        players, options: the set-up it was played with.
        outcome: one of OUTCOMES.
        decisions: moves applied (every decision: players', the table's, reactions).
        scores, winners: at the end (None unless won, drawn or capped).
        measures: name -> number (or one per seat) for won, drawn and capped games.
        fault: the R0001 Diagnostic of a faulted game.
        lead_changes: how often the sole leader (by score) changed hands (None without full metrics,
            or without a `score` in the script).
        decided_at: for a won game, the share of its decisions after which the final winner was
            the sole leader for good (0: from the start, 1: only at the very end).
        choices, offered, forced: decisions asked, legal moves offered in all, decisions with one move.
        seen: mean share of the cards the acting player could name, over sampled decisions (None: none sampled).
        teams: in a game with teams, the team of each seat (None without teams).
        winning_teams: in a game with teams, the winning teams when scores and winners are known.
        moves_digest: a digest of the moves made, in order (with the full metrics only): two
            variants compared on one seed made the same moves when their digests are equal.
    """

    index: int
    seed: int
    players: int
    options: dict
    outcome: str
    decisions: int
    scores: tuple | None
    winners: tuple | None
    measures: dict
    fault: Diagnostic | None
    lead_changes: int
    decided_at: float | None
    choices: int
    offered: int
    forced: int
    seen: float | None
    teams: tuple | None = None
    winning_teams: tuple | None = None
    moves_digest: str | None = None


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game `index` of a run with seed `run_seed`."""
    return derive(run_seed, index)
