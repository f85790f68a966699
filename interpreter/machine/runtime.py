"""The running game as plain data, and the loop that advances it to the next decision.

A frame is `[code index, program counter, locals]`; the stack of frames, the zones, the
variables and the generator's integer state are the whole position.  No Python generator or
closure holds progress, so a state copies, saves and restores exactly.
"""

from __future__ import annotations

from ..language import limits
from ..language.limits import STEP_COST
from ..language.source import Diagnostic, ScriptError, Span
from ..language.teams import Teams, fixed as teams_fixed, numbered as teams_numbered

PAUSES = ("chance", "phase")  # where a game may pause, when asked: before a draw, at a phase's start
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
                 "rng", "history", "decisions", "tracer", "fault", "legal_cache", "seed", "options", "work", "capped",
                 "work_limit", "game_work", "budget", "legal_work", "teams", "pause_at", "pause_point", "memo",
                 "zmemo", "playout")  # playout: while playout.play_random runs, what its generated decisions share
    FACE_UP = FACE_UP

    def copy_into(self, other: "State") -> "State":
        other.prog, other.n, other.seed, other.options = self.prog, self.n, self.seed, self.options
        other.teams = self.teams  # fixed for the game (teams.Teams, or None without teams)
        other.zones = list(map(list.copy, self.zones))  # no Python loop: a game is copied per playout
        other.loc = self.loc[:]
        other.vis = self.vis[:]
        pp = self.prog.row_var_slots
        v = self.vars[:]
        for i in pp:
            v[i] = v[i][:]
        other.vars = v
        other.stack = [[f[0], f[1], f[2][:]] for f in self.stack]
        other.waiting, other.actor, other.over, other.capped = self.waiting, self.actor, self.over, self.capped
        other.rng, other.history, other.decisions = self.rng, self.history.copy(), self.decisions  # a SharedLog
        other.tracer, other.fault, other.legal_cache, other.legal_work = None, self.fault, self.legal_cache, self.legal_work
        other.work, other.work_limit, other.game_work, other.budget = 0, self.work_limit, self.game_work, self.budget
        other.pause_at, other.pause_point = self.pause_at, self.pause_point
        other.memo, other.zmemo = {}, {}  # a copy is changed in place by its makers (knowledge.masked, determinize)
        return other

    # ---- the work budget (docs/language.md §22)
    def begin_work(self, query: bool = False):
        """Start counting one stretch of work: a move run to the next decision, or the listing
        of a decision's moves.  Each may use the per-move budget, and the moves of a game
        together the per-game budget: `work_limit` is whichever runs out first.  A game whose
        script asks for no decision has no moves: it is one stretch, under the per-game budget
        only.  A `query` (scores, a prompt, an evaluation) changes nothing, so only the
        per-move budget holds."""
        per_move, per_game = self.budget
        self.work = 0
        if query:
            self.work_limit = per_move
        else:
            own = per_move if self.prog.decisions else per_game
            left = per_game - self.game_work
            self.work_limit = own if own < left else left  # min(), which costs several times more

    def end_work(self):
        self.game_work += self.work

    def charge(self, units: int):
        """Add `units` of work; a fault once the stretch is over its limit."""
        self.work += units
        if self.work > self.work_limit:
            raise over_budget(self, None)

    # ---- helpers used by compiled code
    def owner_of_slot(self, slot):
        first = self.prog.shared_zone_count
        if slot is None or slot < first:
            return None
        return (slot - first) % self.n

    def number(self, value: int) -> int:
        """`value`, if within the limit every number obeys; a fault otherwise."""
        if -limits.MAX_INT <= value <= limits.MAX_INT:
            return value
        raise ScriptRuntimeError(f"a number grew beyond the limit of {limits.MAX_INT}", None)

    def refuse(self, message: str, hint: str = ""):
        """A built-in's fault, in the language's words, at the statement that called it."""
        raise ScriptRuntimeError(message, None, hint)

    def check_length(self, length: int):
        """A list about to be made (`range`, list `+`): within the length limit, and paid for."""
        if length > limits.MAX_LIST_LENGTH:
            raise ScriptRuntimeError(f"a list would hold {length} values, over the limit of "
                                     f"{limits.MAX_LIST_LENGTH}", None)
        self.work += length if length > 0 else 0  # charge(), written out: every range pays it
        if self.work > self.work_limit:
            raise over_budget(self, None)

    def move_card(self, card: int, dest: int, bottom: bool, facing: str | None):
        self.work += 1  # checked by the next statement: one statement moves at most every card
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
            self.memo, self.zmemo = {}, {}  # a listener may evaluate mid-statement, between two changes


# Python errors that a checked script can still provoke with values of mixed kinds (an
# attribute holding both numbers and symbols compared with `<`, say).  They become diagnostics.
VALUE_FAULTS = (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError, OverflowError)


def too_many_decisions() -> ScriptRuntimeError:
    """The fault of a game that reached limits.MAX_DECISIONS without ending."""
    return ScriptRuntimeError(f"the game reached {limits.MAX_DECISIONS:,} decisions without ending", None,
                              "an end condition may never be met")


def statement_span(st: State, exc: BaseException | None = None) -> Span | None:
    """The statement running when `exc` was raised: the innermost generated line Python
    reports, read back through the statement marks before it (gen_common.SPAN_MARK), since an
    operation runs many statements; else the statement that starts the operation on top."""
    marked = _marked_statement(st, exc) if exc is not None else None
    if marked is not None:
        return marked
    if not st.stack:
        return None
    code, pc, _ = st.stack[-1]
    spans = st.prog.op_spans.get(code, ())
    return spans[pc] if 0 <= pc < len(spans) else st.prog.code_info[code].span


def _marked_statement(st: State, exc: BaseException) -> Span | None:
    marked, spans = st.prog.marked_lines, st.prog.statement_spans
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno))
        tb = tb.tb_next
    for filename, line in reversed(frames):
        marks = marked.get(filename)
        before = [index for number, index in marks or () if number <= line]
        if before:
            return spans[before[-1]]
    return None


def value_fault(st: State, exc: Exception) -> ScriptRuntimeError:
    return ScriptRuntimeError(f"a value of the wrong kind reached this statement ({fault_words(exc)})",
                              statement_span(st, exc), "a value may be none, or an attribute may mix numbers and symbols")


RUNTIME_FAULTS = (ScriptRuntimeError, *VALUE_FAULTS)  # what running script code may raise


class Redo(BaseException):
    """Raised by playout code (Program.playout_codes) on a path it does not keep exact: a work
    limit crossed where the crossing was not checked, a fault while frame slots are held in
    locals.  playout.play_random then replays the same call with the checked operations (the
    API path's), so only the playouts' usual paths need their bookkeeping.  A BaseException, so
    that `except Exception` in generated code does not swallow it."""


def as_fault(st: State, exc: Exception) -> ScriptRuntimeError:
    """Either kind of RUNTIME_FAULTS as the script's fault, in the language's words."""
    return exc if isinstance(exc, ScriptRuntimeError) else value_fault(st, exc)


def fault_words(exc: Exception) -> str:
    """What went wrong in the language's words; Python's own message is never shown."""
    text = str(exc)
    if "NoneType" in text or "None" in text:
        return "a value is none"
    if "not supported between" in text or "unsupported operand" in text or "can only concatenate" in text:
        return "a number and a name cannot be ordered or counted together"
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    return "these values cannot be combined"


# A generated operation may run up to this many steps of the machine in one call (codegen.py).
FUSED_STEPS = 8
# Where its steps end, a generated operation calls the one they lead to itself, up to this many
# calls in a row (its argument `h` counts them; Python's stack grows by one each) before it goes
# back to the run loop; the loop that pauses passes this, so that each operation returns to it.
CALLS_ON = 16


def over_budget(st: State, span: Span | None) -> ScriptRuntimeError:
    """The fault for a stretch of work over its limit, naming the budget that ran out."""
    per_move, per_game = st.budget
    if not st.prog.decisions and st.work_limit == per_game - st.game_work:  # a game of no moves
        return ScriptRuntimeError(f"the game used up its work budget of {per_game:,} units", span,
                                  "a game without decisions has only the game's budget: `limit work_per_game "
                                  "N` or `--max-game-work N` raises it (docs/language.md §22); a loop may "
                                  "also never end")
    if st.work_limit < per_move:
        return ScriptRuntimeError(f"the game used up its work budget of {per_game:,} units",
                                  span, "a game this long may raise it: `limit work_per_game N` "
                                  "or `--max-game-work N` (docs/language.md §22)")
    if st.waiting is not None:  # listing a decision's moves, or a query on a waiting position
        return ScriptRuntimeError(f"this needed more than {per_move:,} units of work, the budget of one move",
                                  span, "wide binder ranges and loops over long lists multiply; "
                                  "`limit work_per_move N` raises the budget (docs/language.md §22)")
    if not st.history:  # the set-up, run to the first decision, is the first move's stretch
        return ScriptRuntimeError(f"the game did more than {per_move:,} units of work before its first decision "
                                  "(the budget of one move)", span,
                                  "the set-up runs to the first decision under the budget of one move: "
                                  "`limit work_per_move N` raises it (docs/language.md §22); a loop may also "
                                  "never end")
    return ScriptRuntimeError(f"this move did more than {per_move:,} units of work without asking for a "
                              "decision", span, "a loop may never end, or loops over long lists multiply; "
                              "`limit work_per_move N` raises the budget (docs/language.md §22)")


def start(st: State) -> None:
    """Run a new game from the start of its first phase, which is a pause point too."""
    st.begin_work()
    if "phase" in st.pause_at:
        st.pause_point = ("phase", 0)
        return
    run(st)


def resume(st: State) -> None:
    """Go on from a pause point: the paused stretch of work continues where it stopped, with
    the same budget, so a game stepped pause by pause is the game run straight through."""
    _, used = st.pause_point
    st.pause_point = None
    st.begin_work()  # the stretch's limit again: nothing was charged to the game while paused
    st.work = used
    run(st, True)


def run(st: State, resumed: bool = False, codes: list | None = None) -> None:
    """Execute statements until the game waits for a decision, is over, or reaches a pause
    point it was asked to stop at (`st.pause_at`), in the stretch of work already begun (a
    move's: moves.apply_move; the set-up's: start; a paused one's: resume).  `resumed`: the
    position is the pause point just left, which does not stop it again.  `codes`: the
    operations to run, the program's own by default (playout.play_random runs
    Program.playout_codes); they are only run where nothing pauses.

    Every statement costs STEP_COST units of the stretch's work budget, which the
    expressions, built-ins and card moves inside the statements draw on too."""
    stack = st.stack
    try:
        if st.pause_at:
            _advance_pausing(st, resumed)
        else:
            # A fused operation (codegen.assemble) charges and checks each step it runs but the
            # last, which is charged here: the budget runs out at the same step either way.
            codes = codes or st.prog.codes
            while st.waiting is None and stack:
                fr = stack[-1]
                codes[fr[0]][fr[1]](st, fr)
                st.work += STEP_COST
                if st.work > st.work_limit:
                    raise over_budget(st, statement_span(st))
    except VALUE_FAULTS as exc:
        raise value_fault(st, exc) from None
    except ScriptRuntimeError as err:
        if err.span is None:  # raised by a helper that does not know the statement
            err.span = statement_span(st)
        raise
    finally:
        if st.pause_point is None:
            st.game_work += st.work  # st.end_work()
    if not stack and not st.over:
        st.over = True


def _advance_pausing(st: State, resumed: bool) -> None:
    """run's loop, stopping before a chance point or after entering a phase when asked.

    The operations are the very ones run's own loop runs, fused the same way (no operation
    inlines a chance point, and `next` ends one), so pausing changes nothing in the game; each
    is told it has made CALLS_ON calls already, so it comes back here at its last step."""
    prog = st.prog
    stack = st.stack
    cost = limits.STEP_COST
    codes, chance = prog.codes, prog.chance_points
    at_chance, at_phase = "chance" in st.pause_at, "phase" in st.pause_at
    while st.waiting is None and stack:
        fr = stack[-1]
        if at_chance and not resumed and fr[1] in chance[fr[0]]:
            st.pause_point = ("chance", st.work)
            return
        resumed = False
        bottom = stack[0]
        codes[fr[0]][fr[1]](st, fr, CALLS_ON)
        st.work += cost
        if st.work > st.work_limit:
            raise over_budget(st, statement_span(st))
        if at_phase and stack and stack[0] is not bottom and st.waiting is None:
            st.pause_point = ("phase", st.work)  # `next` has just entered a phase
            return


def team_layout(st) -> Teams | None:
    """The game's teams for this player count and these options (None without `teams`);
    ScriptError E0708 when a computed layout does not make whole teams of them."""
    decl = st.prog.tables.teams
    if decl is None:
        return None
    if decl.expr is None:
        return teams_fixed(decl.seats)
    try:
        numbers = [st.prog.teams_fn(st, seat) for seat in range(st.n)]
    except ScriptRuntimeError as err:
        found = err.message
    except VALUE_FAULTS as exc:
        found = fault_words(exc)
    else:
        found = teams_numbered(numbers)
        if not isinstance(found, str):
            return found
    setting = ", ".join(f"{k}={v}" for k, v in sorted(st.options.items()))
    raise ScriptError([Diagnostic("E0708", f"the teams do not work out for {st.n} players"
                                  + (f" with {setting}" if setting else "") + f": {found}", decl.span,
                                  "these teams", "give every seat a team number 0, 1, ... so that each "
                                  "team has a seat, for every player count and option the game allows")],
                      st.game.sources)
