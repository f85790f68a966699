"""`end game when CONDITION`: the game ends as soon as CONDITION holds (docs/language.md §14).

The condition is a pure expression of the game's state (variables, zones, options, definitions),
checked here like a score.  What it reads (`Reads`: the variables, and whether it reads where
cards lie or how they face) says after which statements the code generator tests it: after every
`set` of a variable it reads and every `move`, `deal`, `shuffle`, `reveal`, `hide` and `show` when
it reads the cards, wherever the statement is (a phase, a procedure, a decision's move, a handler).
Nothing else changes what it reads, so testing there is the same as testing after every step.
"""

from __future__ import annotations

import attrs

from . import nodes as n
from .builtins import READS_WHERE
from .check_names import Frame, Scope
from .types import BOOL, describe, fits

# The statements that change where cards lie or how they face.
CARD_STATEMENTS = (n.Move, n.Deal, n.Shuffle, n.Reveal, n.Hide, n.ShowTo)


@attrs.frozen
class Reads:
    """What an `end game when` condition reads: variables by name, and the cards' places."""

    vars: frozenset
    cards: bool


class Ending:
    """Checking `end game when`: a part of Checker (checker.py), as the other check_* parts are."""

    def _check_end_when(self, decl: n.EndWhen) -> None:
        frame = Frame()
        typ = self.expr(decl.cond, Scope(frame, context=frozenset({"pure"})))
        if not fits(BOOL, typ):
            self.error("E0210", f"expected true/false, found {describe(typ)}", decl.cond.span, f"this is {describe(typ)}",
                       "`end game when` ends the game as soon as its condition holds: write a condition, as "
                       "`end game when any p in players where points[p] >= 121`")
        self.t.frames[id(decl)] = frame.size
        self._has_end = True


def reads(t, decl: n.EndWhen) -> Reads:
    """What the condition of `decl` reads, through the definitions it calls."""
    names, cards, seen, todo = set(), False, set(), [decl.cond]
    while todo:
        for node in n.walk(todo.pop()):
            kind = t.resolved.get(id(node)) if isinstance(node, n.Name) else None
            if kind is not None and kind[0] == "global":
                names.add(kind[1])
            elif kind is not None and kind[0] in ("zone", "zones"):
                cards = True
            elif kind is not None and kind[0] == "define" and kind[1] not in seen:
                seen.add(kind[1])
                todo.append(t.defines[kind[1]].body)
            elif isinstance(node, n.Call) and node.func in t.defines and node.func not in seen:
                seen.add(node.func)
                todo.append(t.defines[node.func].body)
            elif isinstance(node, n.Call) and node.func in READS_WHERE:
                cards = True
    return Reads(frozenset(names), cards)


def changes(t, stmt, what: Reads) -> bool:
    """Whether the plain statement `stmt` may change what `what` reads."""
    if isinstance(stmt, n.Set):
        kind = t.resolved.get(id(stmt.target))
        return kind is not None and kind[0] == "global" and kind[1] in what.vars
    return what.cards and isinstance(stmt, CARD_STATEMENTS)
