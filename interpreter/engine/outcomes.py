"""What decided a step's outcomes: `why step 18` answers "why did P3 win that trick?".

A step's outcomes are the lines its script logged (`P3 takes the trick with KH`).  Each such line
reads values: a local set by a `let` (`let winner = max q in declared by trick_strength(...)`),
a definition (`{hand_score(p)}`), a binder of the move.  The step is made again on a copy with a
listener, and at each log line the expressions behind its values are evaluated again, traced, on
the position as it was at that moment: a best-of (`max ... by`, `min`, a list's best) shows every
item with its key and the one chosen; anything else, the part that decided its value.
"""

from __future__ import annotations

import attrs

from ..language.nodes import Best, Call, Comprehension, Let, ListLit, Log, Name
from ..language.source import Span
from ..language.types import CARD, ZONE
from ..machine.program import render_value
from ..machine.runtime import RUNTIME_FAULTS
from .knowledge import UnknownRead, masked, refusal_message, sight
from .tracing import evaluate_traced
from .verdicts import read_trace, verdict

_OPENED = 3  # definitions opened inside one another to reach what decided a value


@attrs.frozen
class Row:
    """One item of a best-of: the item, the cards read for it and its key; `chosen`: the one picked."""

    item: str
    cells: tuple
    key: str
    chosen: bool


@attrs.frozen
class Decided:
    """One value a log line reads, and what decided it.

    Attributes:
        name: the local or the call read (`winner`, `hand_score(p)`); value: its value.
        source: the expression that made it; span: where; definition: the definition it came
            from, if it was one's body (`trick_winner`).
        columns: the headings of `rows` (the item's name, the cards read, the key), for a
            best-of; rows: its items; verdict: otherwise, the part of the expression that
            decided the value (or why it could not be evaluated).
    """

    name: str
    value: str
    source: str
    span: Span
    definition: str | None = None
    columns: tuple = ()
    rows: tuple = ()
    verdict: str = ""


@attrs.frozen
class Outcome:
    """A log line of the step (as the all-seeing view reads it), with what decided its values."""

    text: str
    span: Span
    decided: tuple


def explain_outcomes(before, make, viewer) -> list[Outcome]:
    """The Outcomes of a step made again on a copy of `before` by `make(copy)` (which applies its
    move, or steps on from its pause point, as the step did).  Under a seat's view, a value that
    reads what it cannot see says so instead."""
    trial = before.clone_bare()
    seen: list = []

    def listen(kind, data):
        if kind == "log":  # the position at that moment, and the frame the line was written in
            seen.append((data, trial.clone_bare(), list(data["frame"])))
    trial.tracer = listen
    try:
        make(trial)
    finally:
        trial.tracer = None
    return [Outcome(data["text"], data["span"], _decided(at, frame, data["span"], viewer))
            for data, at, frame in seen]


def _decided(st, frame: list, span: Span, viewer) -> tuple:
    """What decided the values the log statement at `span` reads, in position `st` and its `frame`."""
    found = _log_statement(st.prog, span)
    if found is None:
        return ()
    lets, log = found
    on = st if viewer == "all" else masked(st, viewer, sight(st, viewer))
    out = []
    for part in log.parts:
        if isinstance(part, str):
            continue
        for node in _read_by(st.prog, part, lets, log.span):
            decided = _explained(on, node, frame, viewer)
            if decided is not None and decided not in out:
                out.append(decided)
    return tuple(out)


def _log_statement(prog, span: Span):
    """(the `let`s of its declaration, the Log) of the log statement at `span`, or None."""
    index = prog.explain_cache.get("log statements")
    if index is None:
        index = prog.explain_cache["log statements"] = {}
        t = prog.tables
        bodies = [*t.phases.values(), *t.procs.values(), *t.events.values(),
                  *(h for handlers in t.handlers.values() for h in handlers),
                  *(r for reactions in t.reactions.values() for r in reactions)]
        for decl in bodies:
            nodes = list(_walk(decl))
            lets = [n for n in nodes if isinstance(n, Let)]
            for node in nodes:
                if isinstance(node, Log):
                    index[node.span] = (lets, node)
    return index.get(span)


def _read_by(prog, part, lets: list, before: Span) -> list:
    """What a log line's `{part}` reads that something decided: the `let`s of the locals it names
    (the last one before the line), and the definitions it calls."""
    t = prog.tables
    found = []
    for node in _walk(part):
        resolved = t.resolved.get(id(node)) if isinstance(node, Name) else None
        if resolved is not None and resolved[0] == "local":
            made = [let for let in lets if t.slots.get(id(let)) == resolved[1] and _earlier(let.span, before)]
            if made:
                found.append(made[-1])
        elif resolved is not None and resolved[0] == "define" or isinstance(node, Call) and node.func in t.defines:
            found.append(node)
    return found


def _earlier(a: Span, b: Span) -> bool:
    return (a.path, a.line, a.column) < (b.path, b.line, b.column) if a.path == b.path else False


def _explained(st, node, frame: list, viewer) -> Decided | None:
    """A Decided for a `let` or a definition's call, evaluated traced in `frame`."""
    prog = st.prog
    text = prog.source_text
    name = node.name if isinstance(node, Let) else text(node.span)
    expression = node.value if isinstance(node, Let) else node
    try:
        value, trace, reading = evaluate_traced(st, expression, list(frame))
        typ = prog.tables.types.get(id(expression), "any")
        shown = render_value(prog, typ, value, st.n)
        body, inner, definition = expression, trace, None
        for _ in range(_OPENED):  # a definition's body decides its value: open it
            called = _definition_of(prog, body)
            if called is None:
                break
            args = _arguments(body, inner)
            fn, size, inner = prog.compiler.traced_define(called)
            definition_frame = [None] * size
            define = prog.tables.defines[called]
            for param, arg in zip(define.params or (), args):
                definition_frame[prog.tables.slots[id(param)]] = arg
            st.begin_work(query=True)
            fn(st, definition_frame)
            body, definition = define.body, called
        return _described(st, name, shown, body, inner, value, definition, node.span)
    except UnknownRead as unknown:
        return Decided(name, "??", text(expression.span), node.span,
                       verdict=refusal_message(unknown.what, viewer, prog=st.prog))
    except RUNTIME_FAULTS:
        return None


def _definition_of(prog, node) -> str | None:
    """The definition `node` calls, when it is one call (`trick_winner`, `hand_score(p)`)."""
    resolved = prog.tables.resolved.get(id(node)) if isinstance(node, Name) else None
    if resolved is not None and resolved[0] == "define":
        return resolved[1]
    if isinstance(node, Call) and node.func in prog.tables.defines:
        return node.func
    return None


def _arguments(call, trace) -> list:
    """The values of a call's arguments, as its traced evaluation recorded them."""
    if not isinstance(call, Call):
        return []
    last = {id(node): value for node, _, value in trace}
    return [last.get(id(arg)) for arg in call.args]


def _described(st, name, shown, body, trace, value, definition, span) -> Decided | None:
    prog = st.prog
    text = prog.source_text
    best = next((n for n in _walk(body) if isinstance(n, (Best, Comprehension))), None)
    if best is not None:
        columns, rows = _rows(st, best, trace, value)
        if rows:
            return Decided(name, shown, text(body.span), body.span if definition else span, definition,
                           columns, tuple(rows))
    reading = read_trace(trace, set(), lambda typ, v: render_value(prog, typ, v, st.n))
    if id(body) not in reading.values:
        return None  # a constant (`define limit = 100`): nothing decided it
    return Decided(name, shown, text(body.span), body.span if definition else span, definition,
                   verdict=verdict(body, reading, lambda node: text(node.span)))


def _rows(st, best, trace, value) -> tuple[tuple, list[Row]]:
    """The columns and rows of a best-of's items: each item, the cards read in its key, its key."""
    prog = st.prog
    types = prog.tables.types
    key = best.key if isinstance(best, Best) else best.expr
    filtering = isinstance(best, Comprehension) and best.cond is not None and \
        isinstance(key, Name) and key.name == best.var
    if filtering:  # `[q for q in L where COND]`: each item is kept or not by its condition
        key = best.cond
    inside = {id(n) for n in _walk(key)}
    read = {id(n): prog.source_text(n.span) for n in _walk(key) if types.get(id(n)) == CARD and not isinstance(n, Name)}
    cells_of = list(dict.fromkeys(read.values()))  # the cards the key reads, each written once
    columns = [best.var] + cells_of + [prog.source_text(key.span)]
    render = lambda node, v: render_value(prog, types.get(id(node), "any"), v, st.n)  # noqa: E731
    # a list literal as the key is several keys, each recorded, the list itself not
    parts = key.items if isinstance(key, ListLit) and isinstance(best, Best) else (key,)
    rows, item, cells, keys = [], None, {}, {}
    for node, _, seen in trace:
        if id(node) not in inside:
            continue
        if isinstance(node, Name) and node.name == best.var:
            item = seen
        if any(node is part for part in parts):
            keys[id(node)] = seen
            if node is parts[-1]:
                shown_item = render_value(prog, _item_type(prog, best), item, st.n)
                values = [keys.get(id(part)) for part in parts]
                shown_key = render(key, values[0]) if len(parts) == 1 else \
                    "[" + ", ".join(render(part, v) for part, v in zip(parts, values)) + "]"
                rows.append([shown_item, tuple(cells.get(c, "") for c in cells_of), shown_key, item, values[0]])
                cells, keys = {}, {}
        elif id(node) in read:
            cells[read[id(node)]] = render(node, seen)
    if filtering:
        return tuple(columns), [Row(r[0], r[1], r[2], r[4] is True) for r in rows]
    chosen = _chosen(best, rows, value)
    return tuple(columns), [Row(r[0], r[1], r[2], i == chosen) for i, r in enumerate(rows)]


def _item_type(prog, best):
    source_type = prog.tables.types.get(id(best.source), "any")
    if source_type == ZONE:
        return CARD
    return source_type[5:] if isinstance(source_type, str) and source_type.startswith("list:") else "any"


def _chosen(best, rows, value) -> int | None:
    """Which row the best-of chose: the first whose item is the value (a `max`/`min ... by`), or
    the first whose key is (a list's best: `max([strength(x) for x in ...])`)."""
    for i, row in enumerate(rows):
        if isinstance(best, Best) and row[3] == value or not isinstance(best, Best) and row[4] == value:
            return i
    return None


def _walk(node):
    """`node` and every node inside it, in source order (an `if`'s branches are pairs in a tuple)."""
    stack = [node]
    while stack:
        here = stack.pop(0)
        if isinstance(here, tuple):
            stack[:0] = list(here)
            continue
        yield here
        for field in attrs.fields(type(here)):
            child = getattr(here, field.name)
            stack.extend(c for c in (child if isinstance(child, tuple) else (child,))
                         if isinstance(c, tuple) or attrs.has(type(c)) and not isinstance(c, Span))
