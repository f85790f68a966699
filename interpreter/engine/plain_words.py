"""A rule's verdict as players say it: "6H does not beat 8H", "AC's suit is C, not led (D)".

The verdict of a traced rule (verdicts.verdict) names the deciding comparison with its values:
`strength(c) > highest_trump is 4 > 6 = false`.  A player thinks in cards, not in the numbers a
script ranks them by, so this finds the card behind each number and says the comparison with
those cards: a number computed from one card (`strength(c)`: the card `c`), or the best of a
list of numbers, each from a card (`highest_trump = max([strength(x) for x in in_trick ...])`:
the card whose number it is).  A card's attribute compared with a value reads as a sentence about
the card.  Anything else has no plain words: the verdict itself says it.
"""

from __future__ import annotations

import attrs

from ..language.nodes import Attr, Binary, Call, Comprehension, Literal, Name, Unary
from ..language.source import Span
from ..language.types import CARD, INT
from ..machine.program import render_value
from ..machine.runtime import RUNTIME_FAULTS
from .knowledge import UnknownRead

# (operator, value) -> what the left card does to the right one, higher being better
_BEATS = {(">", True): "beats", (">", False): "does not beat",
          (">=", True): "beats or ties", (">=", False): "neither beats nor ties",
          ("<", True): "is below", ("<", False): "is not below",
          ("<=", True): "does not beat", ("<=", False): "beats",
          ("==", True): "ties", ("==", False): "does not tie",
          ("!=", True): "does not tie", ("!=", False): "ties"}
_DEPTH = 3  # definitions opened to find the card behind a number


def plain_verdict(st, node, reading, raw: dict) -> str:
    """`node` (a rule's deciding expression) as players say it, or "" when there are no plainer
    words; `reading` and `raw` are its traced evaluation's texts and values by node id."""
    node = _deciding(node, reading)
    if not isinstance(node, Binary) or id(node) not in raw:
        return ""
    try:
        return _compared(st, node, bool(raw[id(node)]), raw)
    except (UnknownRead, *RUNTIME_FAULTS):  # opening a definition read what the view cannot see
        return ""


def _deciding(node, reading):
    """The comparison that decided `node`: down `and`, `or` and `not` as verdicts.verdict goes."""
    value = reading.values.get(id(node))
    if isinstance(node, Binary) and node.op in ("and", "or") and value is not None:
        wanted = "false" if node.op == "and" else "true"
        for side in (node.left, node.right):
            if not isinstance(side, Literal) and reading.values.get(id(side)) == wanted:
                return _deciding(side, reading)
    if isinstance(node, Unary) and node.op == "not":
        return _deciding(node.operand, reading)
    return node


def _compared(st, node: Binary, value: bool, raw: dict) -> str:
    prog = st.prog
    names = prog.card_names
    attr = _card_attribute(st, node.left, raw)
    if attr is not None and node.op in ("==", "!=", "in", "notin"):
        return _attribute_sentence(st, node, attr, value, raw)
    types = prog.tables.types
    if (node.op, value) not in _BEATS or types.get(id(node.left)) != INT or types.get(id(node.right)) != INT:
        return ""  # numbers a card stands for are compared, not cards themselves
    left, right = _card_behind(st, node.left, raw, 0), _card_behind(st, node.right, raw, 0)
    if left is None or right is None or left == right:
        return ""
    return f"{names[left]} {_BEATS[(node.op, value)]} {names[right]}"


def _card_attribute(st, node, raw):
    """(card, attribute) when `node` reads an attribute of a card (`c.suit`), else None."""
    if isinstance(node, Attr) and st.prog.tables.types.get(id(node.obj)) == CARD:
        card = raw.get(id(node.obj))
        if type(card) is int:
            return card, node.name
    return None


def _attribute_sentence(st, node: Binary, attr, value: bool, raw: dict) -> str:
    """`AC's suit is C, not led (D)`; `Nope.2's kind is nope, one of [nope, skip]`."""
    prog = st.prog
    card, name = attr
    mine = _rendered(st, node.left, raw)
    other = _rendered(st, node.right, raw)
    if mine is None or other is None:
        return ""
    right = _card_attribute(st, node.right, raw)
    if right is not None:
        theirs = f"{prog.card_names[right[0]]}'s ({other})"
    elif isinstance(node.right, Literal) or other == prog.source_text(node.right.span):
        theirs = other
    else:
        theirs = f"{prog.source_text(node.right.span)} ({other})"
    whose = f"{prog.card_names[card]}'s {name}"
    if node.op in ("in", "notin"):
        inside = value == (node.op == "in")
        return f"{whose} is {mine}, {'one' if inside else 'none'} of {theirs}"
    same = value == (node.op == "==")
    return f"{whose} is {theirs}" if same else f"{whose} is {mine}, not {theirs}"


def _rendered(st, node, raw):
    if isinstance(node, Literal):
        return st.prog.source_text(node.span)
    if id(node) not in raw:
        return None
    return render_value(st.prog, st.prog.tables.types.get(id(node), "any"), raw[id(node)], st.n)


def _card_behind(st, node, raw: dict, depth: int):
    """The card the value of `node` stands for: the card itself, the one card a call reads
    (`strength(c)`), or the card whose number a definition's best-of-a-list chose."""
    prog = st.prog
    types = prog.tables.types
    value = raw.get(id(node))
    if types.get(id(node)) == CARD:
        return value if type(value) is int else None
    if isinstance(node, Call):
        cards = [raw.get(id(arg)) for arg in node.args if types.get(id(arg)) == CARD]
        if len(cards) == 1:
            return cards[0] if type(cards[0]) is int else None
    resolved = prog.tables.resolved.get(id(node))
    if isinstance(node, Name) and resolved is not None and resolved[0] == "define" and depth < _DEPTH:
        return _chosen_in(st, resolved[1], value)
    return None


def _chosen_in(st, name: str, value):
    """The card behind the value of definition `name` (no parameters): the item of a list of
    numbers made from cards (`[strength(x) for x in in_trick]`) whose number it is."""
    prog = st.prog
    define = prog.tables.defines[name]
    lists = [node for node in _walk(define.body) if isinstance(node, Comprehension)]
    if value is None or not lists:
        return None
    fn, size, trace = prog.compiler.traced_define(name)
    st.begin_work(query=True)
    fn(st, [None] * size)
    for comprehension in lists:
        item = None
        for node, typ, seen in trace:
            if isinstance(node, Name) and node.name == comprehension.var and typ == CARD:
                item = seen
            elif node is comprehension.expr and seen == value and type(item) is int:
                return item
    return None


def _walk(node):
    """`node` and every expression inside it."""
    stack = [node]
    while stack:
        here = stack.pop()
        yield here
        for field in attrs.fields(type(here)):
            child = getattr(here, field.name)
            stack.extend(c for c in (child if isinstance(child, tuple) else (child,))
                         if attrs.has(type(c)) and not isinstance(c, Span))
