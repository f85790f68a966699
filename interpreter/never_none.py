"""Values the script's own text says can never be none, so generated code need not test them.

A frame slot belongs to one declaration (the checker never reuses a slot), and scoping lets it
be read only after its declaration has written it.  Some declarations can only write a value:
a decision's binder (every listing skips none candidates, a range gives numbers, `several`
a list), a `for` variable or a simultaneous round's player walking items that are never none.
Unless a `set` in the same frame writes the slot again, every read of it finds a value, so its
none checks are dead.  Only the fast code uses this; traced code keeps every check.
"""

from __future__ import annotations

from . import nodes as n
from .types import ZONE


def items_never_none(t, e, seen: frozenset = frozenset()) -> bool:
    """Whether every item of the list (or zone) `e` evaluates to is a value, never none:
    a zone's cards, `players`, `players_from(...)`, a comprehension keeping its own variable
    over such items, or a definition whose body is one of these."""
    if t.types.get(id(e)) == ZONE:
        return True
    match e:
        case n.Name():
            kind, detail = t.resolved.get(id(e), (None, None))
            if kind == "constant":
                return detail == "players"
            return kind == "define" and _define_items(t, detail, seen)
        case n.Call() if e.func in t.defines:
            return _define_items(t, e.func, seen)
        case n.Call():
            return e.func == "players_from"
        case n.Comprehension():
            return not e.flat and _is_variable_of(t, e.expr, e) and items_never_none(t, e.source, seen)
    return False


def _define_items(t, name: str, seen: frozenset) -> bool:
    return name not in seen and items_never_none(t, t.defines[name].body, seen | {name})


def _is_variable_of(t, e, loop) -> bool:
    return isinstance(e, n.Name) and t.resolved.get(id(e)) == ("local", t.slots[id(loop)])


def frame_slots(t, parts) -> frozenset:
    """The slots of one frame (a phase's, procedure's or event's; `parts`: its statement lists
    and reaction declarations) that hold a value whenever they are read."""
    found, written = set(), set()
    for x in (node for part in parts for node in _nodes(part)):
        match x:
            case n.Binder():
                found.add(t.slots[id(x)])
            case n.For() | n.Simultaneous() if items_never_none(t, x.source):
                found.add(t.slots[id(x)])
            case n.Set():
                kind, slot = t.resolved.get(id(x.target), (None, None))
                if kind == "local":
                    written.add(slot)
    return frozenset(found - written)


def _nodes(part):
    items = part if isinstance(part, (tuple, list)) else (part,)
    for item in items:
        yield from n.walk(item)
