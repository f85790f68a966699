"""Rollouts: N random playouts from any state (a determinized one too), each game's scores and
length; the building block of search players (docs/api.md, "Rollouts").

Rollout i plays on a copy of the state with its own chance stream, `derive(seed, i)` (the
shuffles and `random(...)` still to come), and a random player seeded `derive(derive(seed, i),
1)`, as game i of a `simulate` run is played; so the same state, seed and policy give the same
rollouts.  They run compiled where the script compiles: the script's kernel starts every
rollout from the position written into it (studies/compiled.Kernel.rollouts), and a rollout it
stops is played again here.  On the Python path they run on the playout loop
(studies/playtest.play_out; the API loop for the alternative-first policy, as simulate's Python
path does); both paths give the same rollouts (tests/test_rollouts.py).
"""

from __future__ import annotations

import attrs

from ..engine.game import GameFault
from ..language import limits
from ..language.rng import derive, seed_state
from .agents import POLICIES, RandomAgent
from .backends import BACKENDS
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
             max_decisions: int = limits.MAX_DECISIONS, backend: str = "auto") -> list[Rollout]:
    """`n` random playouts from `state` (left unchanged), each at most `max_decisions` long.
    `backend`: "auto" plays them compiled where the script and the position can be (else on the
    Python path), "compiled" insists (ValueError saying why when it cannot), "python" never
    compiles; the rollouts are the same either way."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; the policies are: {', '.join(POLICIES)}")
    if n < 0:
        raise ValueError("n must be 0 or more")
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, not {backend!r}")
    found = None
    if backend != "python" and n > 0:
        found = _compiled(state, n, seed, policy, max_decisions, backend == "compiled")
    if found is None:
        return [_python(state, seed, i, policy, max_decisions) for i in range(n)]
    return [Rollout(*row) if row is not None else _python(state, seed, i, policy, max_decisions)
            for i, row in enumerate(found)]


def why_python(state) -> str | None:
    """Why rollouts from `state` would run on the Python path (None: they run compiled)."""
    from .compiled import NoKernel, kernel_for
    try:
        kernel_for(state.game).check_position(state)
    except NoKernel as err:
        return str(err)
    return None


def _compiled(state, n, seed, policy, max_decisions, insist: bool):
    from .compiled import NoKernel, kernel_for
    try:
        return kernel_for(state.game).rollouts(state, n, seed, policy, max_decisions)
    except NoKernel as err:
        if insist:
            raise ValueError(f"these rollouts cannot run compiled: {err}") from None
        return None


def _python(state, seed: int, i: int, policy: str, max_decisions: int) -> Rollout:
    """Rollout i on the Python path: a copy of the state with game i's chance stream and player."""
    game_seed = derive(seed, i)
    copy = state.clone_bare()
    copy.rng = seed_state(game_seed)
    agent, most = RandomAgent.for_game(game_seed, policy), state.decisions + max_decisions
    if policy == "uniform":  # the playout loop plays the API's games for this policy
        play_out(copy, agent, most)
    else:
        _api_loop(copy, agent, most)
    return _result(copy, copy.decisions - state.decisions)


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
