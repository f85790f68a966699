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
                           max(1, t.frames[id(decl)]), t.slots.get(id(decl))))
    _compiled[game] = tuple(out)
    return _compiled[game]


def in_measure(game, path: str | None, line: int | None) -> bool:
    """Whether a fault at `path:line` lies in a `measure` declaration: such a fault happens when a
    game ends, where simulate and lint read the measures and `cardgame play` does not."""
    return path is not None and any(d.span.path == path and d.span.line <= line <= d.span.end_line
                                    for d in game.program.tables.measures.values())


MEASURE_REPLAY = ("; `cardgame play` does not read measures, so add `--save FILE`, then `open FILE` in "
                  "`cardgame repl` and `eval` the measure")


def read_all(measures, st) -> dict:
    """name -> value for every measure; a failing measure raises ScriptRuntimeError with its span."""
    out = {}
    for m in measures:
        try:
            out[m.name] = m.read(st)
        except ScriptRuntimeError as err:
            if err.span is None:
                err.span = m.span
            raise
    return out


__all__ = ["Measure", "MEASURE_REPLAY", "compile_measures", "in_measure", "read_all", "ScriptRuntimeError"]
