"""What a player count needs, where the script says it plainly (W0440).

A variant that allows more players (`replace players 2..6`) checks clean even where the original
was written for fewer; the game then breaks at run time, far from the cause.  Two cases are
decidable from the text and reported at the `players` line (the variant's, if it replaced it):

- a list of a fixed length indexed by a seat's number, `colours[number(q)]` with `define colours
  = [r, b, y, p, o]`: a sixth seat reads `none` there;
- a deal of a fixed number of cards to every player from the zone a deck starts in, more than the
  deck holds at the largest count (`deal 13 from stock to hand of players` with 6 players).

What depends on play (cards moved out before a deal, counts computed from the state) is not
decidable here: `cardgame lint` plays the game at each player count and names the fault.
"""

from __future__ import annotations

import attrs

from . import nodes as n
from .source import Diagnostic, Span


def seat_warnings(tables, items: list) -> list[Diagnostic]:
    """W0440 for each thing the largest player count lacks."""
    if tables is None:
        return []
    most = tables.max_players
    players = next((i for i in items if isinstance(i, n.PlayersDecl)), None)
    if players is None or most <= 1:
        return []
    where = _players_span(players, tables)
    out, seen = [], set()
    for item in items:
        for node in _nodes(item):
            found = _short_list(node, tables, most) or _short_deal(node, tables, most)
            if found is None or found[0] in seen:
                continue
            seen.add(found[0])
            message, label, hint = found[1:]
            out.append(Diagnostic("W0440", message, where, label, hint, "warning"))
    return out


def _players_span(players: n.PlayersDecl, tables) -> Span:
    """The `players` line: the variant's `replace players ...` when it replaced it."""
    r = next((r for r in tables.replacements.values() if r.decl is players), None)
    if r is not None:
        k = r.keyword
        return Span(k.path, k.line, k.column, players.span.end_line, players.span.end_column)
    return players.span


def seat_label(names: tuple, k: int) -> str:
    """How people read seat k: its name from `players 4 named N, E, S, W`, else `P{k}`."""
    return names[k] if 0 <= k < len(names) else f"P{k}"


def seat_from_text(names: tuple, text: str, n: int) -> int | None:
    """The seat a person typed: `P2` (or `p2`) always, or a seat's name in any case; None for no seat
    of a table of n."""
    if text[:1] in ("P", "p") and text[1:].isdigit() and text[1:].isascii():
        k = int(text[1:])
        return k if k < n else None
    folded = text.casefold()
    return next((k for k, name in enumerate(names[:n]) if name.casefold() == folded), None)


def seat_list(names: tuple, n: int) -> str:
    """The seats of a table of n, as a person would type them: `P0 to P3` or `N, E, S, W`."""
    if names:
        return ", ".join(names[:n])
    return f"P0 to P{n - 1}" if n > 1 else "P0 only"


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def _short_list(node, tables, most: int):
    """`L[number(q)]` with L a list of fixed length shorter than the largest player count."""
    if not (isinstance(node, n.Index) and isinstance(node.index, n.Call) and node.index.func == "number"):
        return None
    items, named = _fixed_list(node.obj, tables)
    if items is None or len(items) >= most:
        return None
    length = len(items)
    what = f"`{named}`" if named else "the list"
    seats = (f"the {_ordinal(length + 1)} seat ({seat_label(tables.seat_names, length)})" if length == most - 1
             else f"the seats {seat_label(tables.seat_names, length)} to {seat_label(tables.seat_names, most - 1)}")
    fix = (f"give `{named}` an item for each seat (`replace define {named} = [...]`), or " if named else "")
    return (("list", named or node.span), f"with {most} players, {seats} {'has' if length == most - 1 else 'have'} "
            f"no item of {what}, which has {length}",
            f"{seat_label(tables.seat_names, length)}{'' if length == most - 1 else ' on'} has no item of {what}",
            f"{node.span.short} reads {what} at a seat's number, so {'that seat reads' if length == most - 1 else 'those seats read'} "
            f"`none` there: {fix}allow at most {length} players")


def _fixed_list(e, tables):
    """(the items, the definition's name) of a list written out, directly or as a constant."""
    if isinstance(e, n.ListLit):
        return e.items, None
    if isinstance(e, n.Name) and tables.resolved.get(id(e), ("",))[0] == "define":
        decl = tables.defines.get(e.name)
        if decl is not None and decl.params is None and isinstance(decl.body, n.ListLit):
            return decl.body.items, e.name
    return None, None


def _short_deal(node, tables, most: int):
    """`deal N from Z to H of players` (all players) needing more cards than Z's deck holds."""
    if not isinstance(node, n.Deal):
        return None
    each = _constant_int(node.count, tables)
    if each is None or not _everyone(node.players):
        return None
    zone = node.source.name if isinstance(node.source, n.Name) else None
    held = sum(1 for c in tables.cards if _deck_zone(tables, c.deck) == zone) if zone else 0
    if not held or each * most <= held:
        return None
    return (("deal", id(node)), f"with {most} players, a deal of {each} cards each needs {each * most}; "
            f"`{zone}` starts with {held}", "not enough cards",
            f"{node.span.short} deals {each} to every player from `{zone}`, whose deck holds {held} cards: deal "
            f"fewer (name the number: `define hand_size = ...`), or allow at most {held // each} players")


def _deck_zone(tables, deck: str) -> str | None:
    decl = next((d for d in tables.decks if d.name == deck), None)
    return decl.zone if decl is not None else None


def _everyone(e) -> bool:
    """`players`, or `players_from(...)`: every seat."""
    if isinstance(e, n.Name):
        return e.name == "players"
    return isinstance(e, n.Call) and e.func == "players_from"


def _constant_int(e, tables, depth: int = 0) -> int | None:
    if depth > 20:
        return None
    if isinstance(e, n.Literal) and e.kind == "int":
        return e.value
    if isinstance(e, n.Name) and e.name in tables.defines and tables.defines[e.name].params is None:
        return _constant_int(tables.defines[e.name].body, tables, depth + 1)
    if isinstance(e, n.Binary) and e.op in ("+", "-", "*"):
        a, b = _constant_int(e.left, tables, depth + 1), _constant_int(e.right, tables, depth + 1)
        if a is None or b is None:
            return None
        return a + b if e.op == "+" else a - b if e.op == "-" else a * b
    return None


def _nodes(x):
    stack = [x]
    while stack:
        y = stack.pop()
        if isinstance(y, (tuple, list)):
            stack.extend(y)
        elif attrs.has(type(y)) and not isinstance(y, Span):
            yield y
            stack.extend(getattr(y, f.name) for f in attrs.fields(type(y)))
