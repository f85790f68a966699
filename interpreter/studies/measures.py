"""The script's `measure` declarations, compiled once per game object and read at the end of a
game.  They go through the same checked-expression path as `score`, so a measure sees exactly
what a rule or the score sees."""

from __future__ import annotations

import weakref

import attrs

from ..codegen.compiler import compile_expression
from ..language.source import Span
from ..language.types import BOOL
from ..machine.runtime import VALUE_FAULTS, ScriptRuntimeError, value_fault


@attrs.frozen
class Measure:
    """One `measure NAME [p]: EXPR "doc"`; `read(state)` gives a number, or one per seat.
    `yes_no`: the expression is a `bool`, so its values are 0 and 1 and their mean is a rate."""

    name: str
    per_player: bool
    yes_no: bool
    doc: str
    span: Span
    _fn: object
    _size: int
    _slot: int | None
    at: str | None = None  # `at end of PHASE`: a reading each time the game leaves PHASE (PointReadings)

    def read(self, st):
        """The measure's value on a state (bools count as 0 or 1); raises ScriptRuntimeError.
        A query, like a score: within the budget of one move, whatever the game last did."""
        st.begin_work(query=True)
        try:
            if not self.per_player:
                return _number(self._fn(st, [None] * self._size))
            values = []
            for seat in range(st.n):
                frame = [None] * self._size
                frame[self._slot] = seat
                values.append(_number(self._fn(st, frame)))
            return tuple(values)
        except VALUE_FAULTS as exc:
            raise value_fault(st, exc) from None


def _number(value) -> int:
    return 0 if value is None else int(value)


_compiled: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def compile_measures(game) -> tuple[Measure, ...]:
    """The game's measures, in declaration order (compiled on first use, then kept)."""
    cached = _compiled.get(game)
    if cached is not None:
        return cached
    t = game.program.tables
    out = []
    for decl in t.measures.values():
        fn = compile_expression(game.program, t, decl.expr)
        yes_no = t.types.get(id(decl.expr)) == BOOL
        out.append(Measure(decl.name, decl.var is not None, yes_no, decl.doc, decl.span, fn,
                           max(1, t.frames[id(decl)]), t.slots.get(id(decl)), decl.at))
    _compiled[game] = tuple(out)
    return _compiled[game]


def in_measure(game, path: str | None, line: int | None) -> bool:
    """Whether a fault at `path:line` lies in a `measure` declaration: such a fault happens when a
    game ends, where simulate and lint read the measures and `cardgame play` does not."""
    return path is not None and any(d.span.path == path and d.span.line <= line <= d.span.end_line
                                    for d in game.program.tables.measures.values())


MEASURE_REPLAY = ("; `cardgame play` does not read measures, so add `--save FILE`, then `open FILE` in "
                  "`cardgame repl` and `eval` the measure")


def read_all(measures, st, points=None) -> dict:
    """name -> value for every measure read at the end (a point measure: the tuple of its readings,
    `points`' PointReadings, with one more if the game ended in its phase); a failing measure
    raises ScriptRuntimeError with its span."""
    out = {}
    if points is not None and st.over:
        points.take(st, points.left)  # the phase the game ended in: it was left too
        if points.error is not None:
            raise points.error
    for m in measures:
        try:
            if m.at is not None:
                out[m.name] = tuple(points.readings[m.name]) if points is not None else ()
                continue
            out[m.name] = m.read(st)
        except ScriptRuntimeError as err:
            if err.span is None:
                err.span = m.span
            raise
    return out


class PointReadings:
    """The readings of the measures taken at a point of the flow (`measure NAME at end of PHASE`):
    the game is asked to pause at each phase's start, where the phase before has just ended; each
    measure of that phase is read there, on a copy (a query: the game's work is untouched, and a
    game paused and resumed is the game run straight through)."""

    def __init__(self, measures):
        self.measures = [m for m in measures if m.at is not None]
        self.readings = {m.name: [] for m in self.measures}
        self.left = None  # the phase the game is in, to be left at the next phase's start
        self.error = None  # the first reading that failed: the game's fault

    def take(self, st, phase) -> None:
        for m in self.measures:
            if m.at == phase and self.error is None:
                try:
                    self.readings[m.name].append(m.read(st.clone_bare()))
                except ScriptRuntimeError as err:
                    if err.span is None:
                        err.span = m.span
                    self.error = err

    def settle(self, st, on_fault) -> None:
        """Go on through every phase start the game paused at, reading what ends there."""
        while st.paused == "phase":
            self.take(st, self.left)
            self.left = st.phase
            try:
                st.step(until=("phase",))
            except on_fault:
                return


def value_list(m, value) -> tuple:
    """A measure's values in one game as a tuple of numbers (one per seat for a per-player one):
    the end measure's one value, a point measure's readings."""
    return tuple(value) if m.at is not None else (value,)


__all__ = ["Measure", "MEASURE_REPLAY", "PointReadings", "compile_measures", "in_measure", "read_all",
           "ScriptRuntimeError", "value_list"]
