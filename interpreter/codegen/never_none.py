"""Values the script's own text says can never be none, so generated code need not test them.

A frame slot belongs to one declaration (the checker never reuses a slot), and scoping lets it
be read only after its declaration has written it.  Some declarations can only write a value:
a decision's binder (every listing skips none candidates, a range gives numbers, `several`
a list), a `for` variable or a simultaneous round's player walking items that are never none.
Unless a `set` in the same frame writes the slot again, every read of it finds a value, so its
none checks are dead.  A global variable is the same where its starting value is a plain
constant and every `set` of it writes a value (variables_never_none); a saved game is the only
other way to give it one, and restoring refuses none there.  Only the fast code uses this;
traced code keeps every check.
"""

from __future__ import annotations

from ..language import nodes as n
from ..language.types import ZONE
from .memo_reads import script_nodes


def items_never_none(t, e, seen: frozenset = frozenset()) -> bool:
    """Whether every item of the list (or zone) `e` evaluates to is a value, never none:
    a zone's cards, `players`, `players_from(...)`, `range(...)`, a list of values, a
    comprehension keeping its own variable over such items, a choice between two such lists,
    or a definition whose body is one of these."""
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
            return e.func in ("players_from", "range")
        case n.Comprehension():
            return not e.flat and _is_variable_of(t, e.expr, e) and items_never_none(t, e.source, seen)
        case n.IfExpr():
            return items_never_none(t, e.then, seen) and items_never_none(t, e.orelse, seen)
        case n.ListLit():
            return all(_writes_value(t, x, frozenset()) for x in e.items)
    return False


def _define_items(t, name: str, seen: frozenset) -> bool:
    return name not in seen and items_never_none(t, t.defines[name].body, seen | {name})


def items_distinct(t, e, seen: frozenset = frozenset()) -> bool:
    """Whether the items of the list `e` evaluates to are all different: `players`,
    `players_from(...)`, `range(...)`, a list of one item, a comprehension keeping its own
    variable over such items (a part of them, in order), a choice between two such lists, or
    a definition whose body is one of these.  (A listing then needs no texts to drop repeats.)"""
    match e:
        case n.Name():
            kind, detail = t.resolved.get(id(e), (None, None))
            if kind == "constant":
                return detail == "players"
            return kind == "define" and detail not in seen and items_distinct(t, t.defines[detail].body, seen | {detail})
        case n.Call() if e.func in t.defines:
            return e.func not in seen and items_distinct(t, t.defines[e.func].body, seen | {e.func})
        case n.Call():
            return e.func in ("players_from", "range")
        case n.Comprehension():
            return not e.flat and _is_variable_of(t, e.expr, e) and items_distinct(t, e.source, seen)
        case n.IfExpr():
            return items_distinct(t, e.then, seen) and items_distinct(t, e.orelse, seen)
        case n.ListLit():
            return len(e.items) <= 1
    return False


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


def variables_never_none(t) -> frozenset:
    """The names of the global variables (plain, per player, per team) that hold a value at
    every read: a starting value that is one, and every `set` of them writing one.  The
    starting values are given in declaration order, and one that reads the state may find a
    later variable unset, one that faults leaves the later ones unset: only the variables
    before the first starting value that is not a plain constant are considered."""
    order = list(t.vars)
    first_risky = next((i for i, name in enumerate(order) if not _plain(t, t.vars[name][0].init)), len(order))
    found = {name for name in order[:first_risky]
             if t.vars[name][0].written_init and _writes_value(t, t.vars[name][0].init, set())}
    sets = [x for x in script_nodes(t) if isinstance(x, n.Set)]
    changed = True
    while changed:  # a set from another variable keeps it only while that one is kept
        changed = False
        for s in sets:
            kind, name = t.resolved.get(id(s.target), (None, None))
            if kind == "global" and name in found and not _set_writes_value(t, s, found):
                found.discard(name)
                changed = True
    return frozenset(found)


def _set_writes_value(t, s, found) -> bool:
    """Whether `set` writes a value: `+=`/`-=` make a number or fault; `=` writes its value's."""
    if s.target.index is not None and not t.vars[t.resolved[id(s.target)][1]][0].indexed:
        return True  # one item of a list: the list itself stays a list
    return s.op != "=" or _writes_value(t, s.value, found)


def _writes_value(t, e, found) -> bool:
    """Whether `e` evaluates to a value (or faults), never to none; `found`: variables known
    to hold one."""
    match e:
        case n.Literal():
            return e.kind != "none"
        case n.Binary() if e.op in ("and", "or"):
            return _writes_value(t, e.left, found) and _writes_value(t, e.right, found)
        case n.Binary() | n.Unary() | n.Quant() | n.ListLit() | n.Comprehension():
            return True  # numbers, truth values and lists, or a fault
        case n.IfExpr():
            return _writes_value(t, e.then, found) and _writes_value(t, e.orelse, found)
        case n.Name():
            kind, detail = t.resolved.get(id(e), (None, None))
            return kind in ("symbol", "card") or (kind == "global" and detail in found)
        case n.Index():
            kind, detail = t.resolved.get(id(e.obj), (None, None))
            return kind == "global" and detail in found and t.vars[detail][0].indexed
        case n.Call():
            return e.func in VALUE_BUILTINS and e.func not in t.defines
    return False


VALUE_BUILTINS = ("count", "empty", "abs", "sum", "seat", "left_of", "right_of")  # a value, or a fault


def _plain(t, e) -> bool:
    """Whether `e` is a constant that reads nothing and cannot fault: a literal, a negative
    number, a symbol, a card, `seat` of a number (which counts no work), a list of these."""
    match e:
        case n.Literal():
            return True
        case n.ListLit():
            return all(_plain(t, x) for x in e.items)
        case n.Unary(op="neg", operand=n.Literal(kind="int")):
            return True
        case n.Name():
            return t.resolved.get(id(e), (None,))[0] in ("symbol", "card")
        case n.Call(func="seat", args=(n.Literal(kind="int"),)):
            return e.func not in t.defines
    return False
