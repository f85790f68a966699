"""Random playouts without the API: a whole game of uniformly random moves in one loop.

`simulate` plays thousands of games whose moves nobody looks at.  Through the API each
decision costs a `legal_moves()` call, the agent's `choose`, an `apply()` that finds the move
in the legal list, and the checks around `apply_move`.  A playout runs the program's second
table of operations (Program.playout_codes), in which a decision is made where it is reached,
inside the generated code (codegen.Gen.playout_decision): the generated listing of its moves
(made once per script, so listing builds no objects), the index drawn with the agent's own
generator (the arithmetic of `Random.below`, inline), the bookkeeping of `moves.apply_move`,
and the chosen alternative's body run on in the same function.  What those operations hand
back (the first decision, reached by the set-up; a decision at the playout's stop; a listing
that gives up) this loop makes the same way, in Python, and `moves.apply_move` applies.  The
moves, the states and the agent's generator go exactly as through the API
(tests/test_playout.py compares them on every script); anything unusual (no legal move, a
failing enumeration, a tracer, pause points) stops the loop and is left to the public calls,
which report it the usual way.
"""

from __future__ import annotations

from ..engine.game import GameFault
from ..engine.moves import apply_move, legal_moves
from ..language import limits
from ..language.rng import GAMMA, MASK, MIX1, MIX2, Random
from ..machine.enumeration import enumerate_moves
from ..machine.runtime import (RUNTIME_FAULTS, VALUE_FAULTS, Redo, ScriptRuntimeError, State, as_fault,
                               too_many_decisions)
from ..machine.shared_log import SharedLog


class Playout:
    """What the decisions made inside the playouts' operations share (State.playout): the
    agent's generator state, the decision count they stop at, the game's work up to which both
    a decision's listing and the stretch after it have the per-move budget for their limit
    (`far`: the game's budget less two moves'), and the tally (the decisions asked are the
    decisions made: play_random counts them)."""

    __slots__ = ("state", "stop", "far", "offered", "forced")

    def __init__(self, state: int, stop: int, far: int):
        self.state, self.stop, self.far = state, stop, far
        self.offered = self.forced = 0


def play_random(st, rng: Random, max_decisions: int, tally: list | None = None) -> ScriptRuntimeError | None:
    """Apply uniformly random legal moves, drawn from `rng` as `RandomAgent.choose` draws them,
    until the game ends, `max_decisions` is reached, or something needs the public path.
    Returns the error that ended the game in a fault (for the caller to record), else None.
    `tally`, if given, is [decisions asked, moves offered in all, decisions with one move]: the
    cheap design metrics, added to as each chosen move is applied (playtest.py reads them).
    Playout code that raises Redo (a path it does not keep exact) is undone: the state, the
    generator and the tally go back to where this call found them, and the call is played again
    with the program's own operations, every decision returned to this loop, as the API plays it.
    So is a playout whose operations fault: their checks of the budget are not where the API's
    are (flow.deferred_step_charges), and the fault is the API's."""
    if st.tracer is not None or st.pause_at:
        return None  # someone is listening, or the game stops between decisions: the public calls
    # The history, appended to at every decision, is a plain list meanwhile (its append is C
    # code; a SharedLog's, which copies share, is Python), and a SharedLog again after.
    st.history = list(st.history)
    start, drawn, counted = st.copy_into(State()), rng.state, tally[:] if tally is not None else None
    try:
        return _play(st, rng, max_decisions, tally, st.prog.playout_codes)
    except Redo:
        start.copy_into(st)
        rng.state = drawn
        if tally is not None:
            tally[:] = counted
        return _play(st, rng, max_decisions, tally, None)
    finally:
        st.history = SharedLog(st.history)


def _play(st, rng: Random, max_decisions: int, tally: list | None, codes: list | None) -> ScriptRuntimeError | None:
    """play_random's loop, running `codes` (the playouts' operations), or with None the program's
    own and every listing the public one's (no playout code runs, so nothing raises Redo)."""
    stack = st.stack
    cap = limits.MAX_DECISIONS
    start = st.decisions
    # the generated decisions stop where the API loop would stop or check the cap after a move
    per_move, per_game = st.budget
    po = st.playout = Playout(rng.state, min(max_decisions, cap - 1), per_game - 2 * per_move)
    try:
        while st.waiting is not None and st.decisions < max_decisions:
            decision = st.waiting
            pick = decision.pick if codes is not None else None
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
            state = po.state = (po.state + GAMMA) & MASK
            if count == 1:
                move = moves[0]
                po.forced += 1
            else:
                z = ((state ^ (state >> 30)) * MIX1) & MASK
                z = ((z ^ (z >> 27)) * MIX2) & MASK
                move = moves[((z ^ (z >> 31)) * count) >> 64]
            po.offered += count
            st.legal_work = st.work  # the listing's cost, charged to the game with the move
            try:
                apply_move(st, move, codes)
            except RUNTIME_FAULTS as exc:
                if codes is not None:
                    raise Redo from None  # the playouts' operations need not fault exactly: the API's way does
                return as_fault(st, exc)
            if st.decisions >= cap and not st.over:
                return too_many_decisions()
    finally:
        rng.state = po.state
        st.playout = None
        if tally is not None:
            tally[0] += st.decisions - start
            tally[1] += po.offered
            tally[2] += po.forced
    return None


def public_moves(state):
    """The legal moves as the public `legal_moves()` gives them (a failing listing faults the
    state exactly as the public call does, and gives no move)."""
    try:
        moves = legal_moves(state)
    except (ScriptRuntimeError, *VALUE_FAULTS):
        moves = None
    return moves or state.legal_moves()


def play_out(state, agent, max_decisions: int, tally: list | None = None) -> None:
    """Play the game to its end with the playout loop (the same game as
    `state.apply(agent.choose(state.legal_moves()))` at every decision, for the uniform policy),
    counting into `tally` if given (see playout.play_random); whatever the loop leaves to the
    public path (a fault, a dead end) is played one decision at a time as the API loop plays it."""
    while not state.over and state.fault is None and state.decisions < max_decisions:
        err = play_random(state, agent.rng, max_decisions, tally)
        if err is not None:
            state._fault(err)
            return
        if state.over or state.decisions >= max_decisions:
            return
        moves = public_moves(state)
        if not moves:
            return
        if tally is not None:
            tally[0] += 1
            tally[1] += len(moves)
            tally[2] += len(moves) == 1
        try:
            state._apply_chosen(agent.choose(moves), trace_rules=False)
        except GameFault:
            return
