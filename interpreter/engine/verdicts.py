"""Reading a traced evaluation: the one-line verdict of a rule, and the witness of a quantifier.

A traced evaluation records (node, type, value) for every non-literal sub-expression, in the
order evaluated, the items of a quantifier included.  From those records:

- the *verdict* follows the value down to the part that decided it: the false conjunct of an
  `and`, the true disjunct of an `or`, and a comparison with both sides' values
  (`strength(c) > highest_trump is 4 > 6 = false`);
- the *witness* of a quantifier is the item it stopped at: for `any` that is true and `no` that
  is false the item that matched, for `all` that is false the item that failed.  The item is the
  last value recorded for the bound variable before the quantifier's own record.
"""

from __future__ import annotations

import attrs

from ..language.nodes import Binary, Call, Literal, Name, Quant, Unary
from ..language.source import Span

_COMPARISONS = {"==", "!=", "<", "<=", ">", ">=", "in", "notin"}


@attrs.frozen
class Reading:
    """What one traced evaluation showed.

    Attributes:
        values: id(node) -> value text, each node's last value outside quantifier items.
        witnesses: id(quantifier node) -> a phrase: `for x = JD` (any), `x = JD matches` (no),
            `fails for x = 7C` (all).
    """

    values: dict
    witnesses: dict


def read_trace(trace, per_item: set, render) -> Reading:
    """`render(type, value)` turns a recorded value into text; `per_item` are the nodes evaluated
    once per item of a quantifier or comprehension (their values say nothing alone)."""
    values, witnesses, order = {}, {}, []
    for i, (node, typ, value) in enumerate(trace):
        order.append(node)
        if isinstance(node, Quant) and id(node) not in per_item:
            phrase = _witness(node, value, trace, i, render)
            if phrase:
                witnesses[id(node)] = phrase
        if id(node) not in per_item:
            values[id(node)] = render(typ, value)
    return Reading(values, witnesses)


def _witness(q: Quant, value, trace, end: int, render) -> str | None:
    stop = {"any": True, "no": False, "all": False}.get(q.kind)
    if stop is None or bool(value) != stop:
        return None  # `count`, or every item was looked at: no single item decided it
    binders = _uses_of(q.cond, q.var)
    for node, typ, item in reversed(trace[:end]):
        if id(node) == id(q.source):
            return None  # the walk began here and no item was looked at
        if id(node) in binders:
            shown = f"{q.var} = {render(typ, item)}"
            return {"any": f"for {shown}", "no": f"{shown} matches", "all": f"fails for {shown}"}[q.kind]
    return None


def _uses_of(node, var: str) -> set[int]:
    """The ids of the Name nodes reading `var` in `node` (a quantifier's condition)."""
    found, stack = set(), [node]
    while stack:
        here = stack.pop()
        if isinstance(here, Name) and here.name == var:
            found.add(id(here))
        if isinstance(here, Quant) and here.var == var:
            continue  # an inner quantifier over the same name hides this one
        if attrs.has(type(here)) and not isinstance(here, Span):
            for field in attrs.fields(type(here)):
                value = getattr(here, field.name)
                stack.extend(v for v in (value if isinstance(value, tuple) else (value,)) if attrs.has(type(v)))
    return found


def verdict(node, reading: Reading, text) -> str:
    """The part of `node` that decided its value, as a sentence; `text(node)` is its source."""
    value = reading.values.get(id(node))
    if isinstance(node, Binary) and node.op in ("and", "or") and value is not None:
        deciding = "false" if node.op == "and" else "true"
        for side in (node.left, node.right):
            if _shown(side, reading, text) == deciding:
                return verdict(side, reading, text)
    if isinstance(node, Unary) and node.op == "not" and value is not None:
        inner = verdict(node.operand, reading, text)
        return f"{text(node)} = {value}, as {inner}"
    if isinstance(node, Binary) and node.op in _COMPARISONS and value is not None:
        left, right = _shown(node.left, reading, text), _shown(node.right, reading, text)
        op = "not in" if node.op == "notin" else node.op
        if left is not None and right is not None and (left != text(node.left) or right != text(node.right)):
            return f"{text(node)} is {left} {op} {right} = {value}"
    witness = reading.witnesses.get(id(node))
    if witness:
        return f"{text(node)} = {value} ({witness})"
    return f"{text(node)} = {value if value is not None else '?'}"


def _shown(node, reading: Reading, text) -> str | None:
    """A node's value text; a literal is its own source."""
    if isinstance(node, Literal):
        return text(node)
    return reading.values.get(id(node))


def calls_in(node, defines) -> list:
    """The calls of definitions in `node`, outermost first (for expanding them)."""
    found, stack = [], [node]
    while stack:
        here = stack.pop(0)
        if isinstance(here, Call) and here.func in defines:
            found.append(here)
        if attrs.has(type(here)) and not isinstance(here, Span):
            for field in attrs.fields(type(here)):
                value = getattr(here, field.name)
                stack.extend(v for v in (value if isinstance(value, tuple) else (value,)) if attrs.has(type(v)))
    return found
