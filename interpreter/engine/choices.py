"""Why a typed move is not among a decision's choices, in terms of the binder that left it out.

`discard AS`, where the dealer may discard any card but the one picked up
(`discard(c from [x for x in hand[p] where x != picked])`), is no candidate: AS is in the hand,
and the binder's `where` left it out.  Saying "AS is not in P1's hand" would be false; this
says which condition refused it, evaluated for that very card: `x != picked is AS != AS = false`.
"""

from __future__ import annotations

from ..language.nodes import Comprehension, Name
from ..language.types import ZONE
from ..machine.program import render_move_value
from ..machine.runtime import RUNTIME_FAULTS
from .knowledge import UnknownRead
from .tracing import evaluate_traced
from .verdicts import verdict


def why_not_offered(st, spec, words: list[str]) -> str | None:
    """Why the move `spec.name WORDS...` is not offered: the first binder whose list leaves its
    value out by a `where`, as a phrase (`` `[x for x in hand[p] where x != picked]` leaves AS
    out: for x = AS, x != picked is AS != AS = false``); None when no binder tells (a value of
    several words, a binder over a range, a value that is not in the list at all)."""
    if len(words) != len(spec.bindings) or any(b.several or b.domain is None for b in spec.bindings):
        return None
    frame = list(st.stack[-1][2])
    prog = st.prog
    for binding, binder, word in zip(spec.bindings, spec.node.binders, words):
        try:
            st.begin_work(query=True)
            domain = binding.domain(st, frame)
        except (UnknownRead, *RUNTIME_FAULTS):  # under a seat's view, what it cannot see tells nothing
            return None
        offered = {render_move_value(prog, binding.type, v, st.n): v for v in domain if v is not None}
        if word in offered:
            frame[binding.slot] = offered[word]
            continue
        return _left_out(st, binder.source, word, frame)
    return None


def _left_out(st, source, word: str, frame: list) -> str | None:
    """Why `word` is not among the values of `source`, a binder's list in `frame`: the condition
    of a `[x for x in LIST where COND]` false for it, when LIST holds it; None otherwise (where
    the value lies, if anywhere, is for the caller to say)."""
    if not (isinstance(source, Comprehension) and source.cond is not None and not source.flat
            and isinstance(source.expr, Name) and source.expr.name == source.var):
        return None
    prog = st.prog
    text = prog.source_text
    try:
        items, _, _ = evaluate_traced(st, source.source, list(frame))
        if prog.tables.types.get(id(source.source)) == ZONE and type(items) is int:
            items = st.zones[items]  # a zone is walked as its cards
        typ = prog.tables.types.get(id(source.expr))
        item = next((v for v in (items or ()) if render_move_value(prog, typ, v, st.n) == word), None)
        if item is None:
            return None
        inner = list(frame)
        inner[prog.tables.slots[id(source)]] = item
        _, _, reading = evaluate_traced(st, source.cond, inner)
    except (UnknownRead, *RUNTIME_FAULTS):
        return None
    return (f"`{text(source.span)}` leaves {word} out: for {source.var} = {word}, "
            f"{verdict(source.cond, reading, lambda node: text(node.span))}")
