"""What a position or an ended game is worth to a seat, as the agents judge it (players.py,
ismcts.py): win shares, who is ahead, score margins, and the Choice records an agent's analysis gives."""

from __future__ import annotations

import attrs


@attrs.frozen
class Choice:
    """One move as an agent weighed it: its `index` and `text` in the seat's listing, how often
    the search tried it (`visits`) and what it was worth to the seat (`value`: a win share from 0
    to 1 for ismcts, the score margin for greedy)."""

    index: int
    text: str
    visits: int
    value: float


def win_share(winners, seat: int) -> float:
    """What an ended game is worth to `seat`: 1 won alone, 1/k in a k-way win, else 0."""
    return 1.0 / len(winners) if winners and seat in winners else 0.0


def lowest_wins(game) -> bool:
    """Whether the script's winners are the lowest scores."""
    winners = game.program.tables.winners
    return winners is not None and winners.mode == "lowest"


def leaders(state, scores) -> tuple:
    """The seats (with teams: every member of the sides) ahead on `scores`, as if the game ended there."""
    teams = state.teams
    sides = [scores[m[0]] for m in teams.members] if teams is not None else list(scores)
    best = min(sides) if lowest_wins(state.game) else max(sides)
    ahead = [i for i, s in enumerate(sides) if s == best]
    return tuple(sorted(m for i in ahead for m in teams.members[i])) if teams is not None else tuple(ahead)


def margin(state, seat: int) -> float:
    """The seat's score ahead of the best other side (behind it: negative); for a script whose
    winners are the lowest scores, ahead means lower."""
    scores = state.scores
    teams = state.teams
    mine = {seat} if teams is None else set(teams.members[teams.of[seat]])
    others = [s for i, s in enumerate(scores) if i not in mine]
    if not others:
        return 0.0
    if lowest_wins(state.game):
        return float(min(others) - scores[seat])
    return float(scores[seat] - max(others))
