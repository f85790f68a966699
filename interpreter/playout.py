"""Random playouts without the API: a whole game of uniformly random moves in one loop.

`simulate` plays thousands of games whose moves nobody looks at.  Through the API each
decision costs a `legal_moves()` call, the agent's `choose`, an `apply()` that finds the move
in the legal list, and the checks around `apply_move`; here the loop reads the generated
enumerator's list (its moves are made once per script, so enumerating builds no objects),
draws the index with the agent's own generator (the arithmetic of `Random.below`, inline) and
hands the move straight to `moves.apply_move`, the one implementation of applying a move.  The moves, the states and the agent's generator go
exactly as through the API (tests/test_playout.py compares them on every script); anything
unusual (no legal move, a failing enumeration, a tracer) stops the loop and is left to the
public calls, which report it the usual way.
"""

from __future__ import annotations

from . import limits
from .enumeration import enumerate_moves
from .rng import GAMMA, MASK, MIX1, MIX2, Random
from .moves import apply_move
from .runtime import RUNTIME_FAULTS, ScriptRuntimeError, as_fault, too_many_decisions


def play_random(st, rng: Random, max_decisions: int, tally: list | None = None) -> ScriptRuntimeError | None:
    """Apply uniformly random legal moves, drawn from `rng` as `RandomAgent.choose` draws them,
    until the game ends, `max_decisions` is reached, or something needs the public path.
    Returns the error that ended the game in a fault (for the caller to record), else None.
    `tally`, if given, is [decisions asked, moves offered in all, decisions with one move]: the
    cheap design metrics, added to as each chosen move is applied (playtest.py reads them)."""
    if st.tracer is not None:
        return None  # someone is listening: every decision goes through the public calls
    stack = st.stack
    state = rng.state
    asked = offered = forced = 0
    per_move, per_game = st.budget
    cap = limits.MAX_DECISIONS
    try:
        while st.waiting is not None and st.decisions < max_decisions:
            decision = st.waiting
            pick = decision.pick
            try:
                if pick is not None:  # st.begin_work(), written out (the listing zeroes st.work)
                    st.work_limit = min(per_move, per_game - st.game_work)
                    moves = pick(st, stack[-1][2])
                else:
                    st.begin_work()
                    moves = enumerate_moves(st, True)
            except RUNTIME_FAULTS:
                return None  # the public legal_moves() faults the state exactly as it should
            if not moves:
                return None  # a dead end, or a listing over budget: left to the public legal_moves()
            count = len(moves)
            state = (state + GAMMA) & MASK
            if count == 1:
                move = moves[0]
                forced += 1
            else:
                z = ((state ^ (state >> 30)) * MIX1) & MASK
                z = ((z ^ (z >> 27)) * MIX2) & MASK
                move = moves[((z ^ (z >> 31)) * count) >> 64]
            asked += 1
            offered += count
            st.legal_work = st.work  # the listing's cost, charged to the game with the move
            try:
                apply_move(st, move)
            except RUNTIME_FAULTS as exc:
                return as_fault(st, exc)
            if st.decisions >= cap and not st.over:
                return too_many_decisions()
    finally:
        rng.state = state
        if tally is not None:
            tally[0] += asked
            tally[1] += offered
            tally[2] += forced
    return None
