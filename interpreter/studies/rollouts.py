"""Rollouts: N random playouts from any state (a determinized one too), each game's scores and
length; the building block of search players (docs/api.md, "Rollouts").

Rollout i plays on a copy of the state with its own chance stream, `derive(seed, i)` (the
shuffles and `random(...)` still to come), and a random player seeded `derive(derive(seed, i),
1)`, as game i of a `simulate` run is played; so the same state, seed and policy give the same
rollouts.  They run on the Python path's playout loop (studies/playtest.play_out; the API loop
for the alternative-first policy, as simulate's Python path does): the compiled
playouts start every game from its set-up and do not yet take a position mid-game (see
docs/performance.md, "Compiled playouts").
"""

from __future__ import annotations

import attrs

from ..engine.game import GameFault
from ..language import limits
from ..language.rng import derive, seed_state
from .agents import POLICIES, RandomAgent
from .playout import play_out


@attrs.frozen
class Rollout:
    """One playout: `scores` (None unless the game ended without a fault), `length` (the
    decisions made from the given state), `outcome` ("won", "drawn", "capped", "limit" or
    "faulted"), `winners` (the winning seats, as `GameState.winners`; None where scores are) and
    `standing` (the scores where it stopped, a game cut at `max_decisions` too; None if faulted):
    a search player cutting its playouts short judges them by it."""

    scores: tuple | None
    length: int
    outcome: str
    winners: tuple | None = None
    standing: tuple | None = None


def rollouts(state, n: int, seed: int = 0, policy: str = "uniform",
             max_decisions: int = limits.MAX_DECISIONS) -> list[Rollout]:
    """`n` random playouts from `state` (left unchanged), each at most `max_decisions` long."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; the policies are: {', '.join(POLICIES)}")
    if n < 0:
        raise ValueError("n must be 0 or more")
    out = []
    for i in range(n):
        game_seed = derive(seed, i)
        copy = state.clone_bare()
        copy.rng = seed_state(game_seed)
        agent, most = RandomAgent.for_game(game_seed, policy), state.decisions + max_decisions
        if policy == "uniform":  # the playout loop plays the API's games for this policy
            play_out(copy, agent, most)
        else:
            _api_loop(copy, agent, most)
        out.append(_result(copy, copy.decisions - state.decisions))
    return out


def _api_loop(state, agent, most: int) -> None:
    while not state.is_over and state.fault is None and state.decisions < most:
        moves = state.legal_moves()
        if not moves:
            return
        try:
            state.apply(agent.choose(moves))
        except GameFault:
            return


def _result(state, length: int) -> Rollout:
    if state.fault is not None:
        return Rollout(None, length, "faulted")
    if not state.over:
        try:
            standing = tuple(state.scores)
        except GameFault:
            standing = None
        return Rollout(None, length, "limit", None, standing)
    try:
        scores, winners = tuple(state.scores), state.winners
        teams = state.winning_teams if state.teams is not None else None
    except GameFault:
        return Rollout(None, length, "faulted")
    if state.capped:
        return Rollout(scores, length, "capped", tuple(winners), scores)
    return Rollout(scores, length, "won" if len(teams if teams is not None else winners) == 1 else "drawn",
                   tuple(winners), scores)
