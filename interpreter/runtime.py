"""The running game as plain data, and the loop that advances it to the next decision.

A frame is `[code index, program counter, locals]`; the stack of frames, the zones, the
variables and the generator's integer state are the whole position.  No Python generator or
closure holds progress, so a state copies, saves and restores exactly.
"""

from __future__ import annotations

from . import limits
from .source import Span

FACE_UP = 1 << 62  # in a card's visibility mask: everyone sees it; lower bits: seats that know it
TABLE = -1  # the actor of a table decision (asked of the people at the table)


class ScriptRuntimeError(Exception):
    """The script did something impossible at run time (a limit, a division by zero, ...)."""

    def __init__(self, message: str, span: Span | None, hint: str = ""):
        super().__init__(message)
        self.message, self.span, self.hint = message, span, hint


class State:
    """The mutable position of one game; see engine.GameState for the public API."""

    __slots__ = ("prog", "n", "zones", "loc", "vis", "vars", "stack", "waiting", "actor", "over",
                 "rng", "history", "decisions", "tracer", "fault", "legal_cache", "seed", "options", "work", "capped")
    FACE_UP = FACE_UP

    def copy_into(self, other: "State") -> "State":
        other.prog, other.n, other.seed, other.options = self.prog, self.n, self.seed, self.options
        other.zones = [z[:] for z in self.zones]
        other.loc = self.loc[:]
        other.vis = self.vis[:]
        pp = self.prog.per_player_var_slots
        v = self.vars[:]
        for i in pp:
            v[i] = v[i][:]
        other.vars = v
        other.stack = [[f[0], f[1], f[2][:]] for f in self.stack]
        other.waiting, other.actor, other.over, other.capped = self.waiting, self.actor, self.over, self.capped
        other.rng, other.history, other.decisions = self.rng, self.history[:], self.decisions
        other.tracer, other.fault, other.legal_cache = None, self.fault, self.legal_cache
        other.work = 0
        return other

    # ---- helpers used by compiled code
    def owner_of_slot(self, slot):
        first = self.prog.shared_zone_count
        if slot is None or slot < first:
            return None
        return (slot - first) % self.n

    def check_length(self, length: int):
        if length > limits.MAX_LIST_LENGTH:
            raise ScriptRuntimeError(f"a list would hold {length} values, over the limit of "
                                     f"{limits.MAX_LIST_LENGTH}", None)

    def move_card(self, card: int, dest: int, bottom: bool, facing: str | None):
        src = self.loc[card]
        self.zones[src].remove(card)
        if bottom:
            self.zones[dest].insert(0, card)
        else:
            self.zones[dest].append(card)
        self.loc[card] = dest
        if facing == "up":
            self.vis[card] |= FACE_UP
        else:
            self.vis[card] &= ~FACE_UP

    def emit(self, kind: str, **data):
        if self.tracer is not None:
            self.tracer(kind, data)


# Python errors that a checked script can still provoke with values of mixed kinds (an
# attribute holding both numbers and symbols compared with `<`, say).  They become diagnostics.
VALUE_FAULTS = (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError, OverflowError)


def too_many_decisions() -> ScriptRuntimeError:
    """The fault of a game that reached limits.MAX_DECISIONS without ending."""
    return ScriptRuntimeError(f"the game reached {limits.MAX_DECISIONS:,} decisions without ending", None,
                              "an end condition may never be met")


def statement_span(st: State) -> Span | None:
    if not st.stack:
        return None
    code, pc, _ = st.stack[-1]
    spans = st.prog.op_spans.get(code, ())
    return spans[pc] if 0 <= pc < len(spans) else st.prog.code_info[code].span


def value_fault(st: State, exc: Exception) -> ScriptRuntimeError:
    return ScriptRuntimeError(f"a value of the wrong kind reached this statement ({exc})", statement_span(st),
                              "a value may be none, or an attribute may mix numbers and symbols")


# A generated operation may run up to this many steps of the machine in one call (codegen.py).
FUSED_STEPS = 8


def run(st: State) -> None:
    """Execute statements until the game waits for a decision or is over."""
    prog = st.prog
    stack = st.stack
    budget = limits.MAX_STEPS_PER_MOVE
    st.work = 0
    try:
        # Operations return how many steps they ran (None: one).  Close to the end of the
        # budget, the one-step operations take over so the budget runs out at the same step.
        codes = prog.codes
        while st.waiting is None and stack and budget > FUSED_STEPS:
            fr = stack[-1]
            budget -= codes[fr[0]][fr[1]](st, fr) or 1
        codes = prog.step_codes or codes
        while st.waiting is None and stack:
            fr = stack[-1]
            codes[fr[0]][fr[1]](st, fr)
            budget -= 1
            if not budget:
                raise ScriptRuntimeError(
                    f"the script ran {limits.MAX_STEPS_PER_MOVE:,} steps without asking for a decision",
                    statement_span(st), "a loop probably never ends; check its condition")
    except VALUE_FAULTS as exc:
        raise value_fault(st, exc) from None
    except ScriptRuntimeError as err:
        if err.span is None:  # raised by a helper that does not know the statement
            err.span = statement_span(st)
        raise
    if not stack and not st.over:
        st.over = True
