"""What a script's parameterless definitions read, so a change of anything else keeps State.memo.

State.memo holds the values of parameterless definitions while nothing they read changes
(codegen.Gen.define_fn).  A definition reads variables and options by name, zones named in it
or in the definitions it calls, and, through `owner`, `zone_of` and `face_up`, where any card
lies and how it faces.  Everything else it sees (cards' attributes, the players, the teams)
is fixed for the game.  A statement that changes none of what some parameterless definition
reads (a turn counter, a card moving between hands no definition looks at) leaves the memo
as it is; every other change empties it first (codegen.Gen.forget).
"""

from __future__ import annotations

import attrs

from . import nodes as n
from .builtins import READS_WHERE
from .types import ANY, ZONE


@attrs.frozen
class Reads:
    """What the parameterless definitions of a script may read, all together."""
    variables: frozenset  # names of variables and options
    zones: frozenset | None  # slots of shared zones; None: any zone (per-player, or found at run time)
    facing: bool  # how cards face, who has seen them

    def within(self, other: "Reads") -> bool:
        """Whether every change that could touch these reads touches `other`'s too."""
        zones = other.zones is None or (self.zones is not None and self.zones <= other.zones)
        return self.variables <= other.variables and zones and (other.facing or not self.facing)


def _may_hold_zone(typ: str) -> bool:
    """A value of this type can be, or hold, a zone (a record or an unknown type might)."""
    return ZONE in typ or ANY in typ or "record:" in typ


def memo_reads(t, zone_index, kept) -> Reads:
    """What the definitions named in `kept` read (checked tables `t`), through the definitions
    each calls.  The kept ones take no parameters, so every argument of a call below them is
    written inside the walk, and so is every value a parameter receives."""
    todo = list(kept)
    seen = set(todo)
    variables, zones, facing = set(), set(), False
    while todo:
        for e in n.walk(t.defines[todo.pop()].body):
            called = None
            if isinstance(e, n.Name):
                kind, detail = t.resolved.get(id(e), (None, None))
                if kind in ("global", "option"):
                    variables.add(detail)
                    if _may_hold_zone(t.types.get(id(e), ANY)):
                        zones = None  # a zone held in a variable: which one is known only at run time
                elif kind == "zone" and zones is not None:
                    zones.add(zone_index[detail][1])
                elif kind == "zones":
                    zones = None  # a per-player zone: its slot depends on the player count
                elif kind == "define":
                    called = detail
            elif isinstance(e, n.Call):
                if e.func in t.defines:
                    called = e.func
                elif e.func in READS_WHERE:
                    zones, facing = None, True
            if called is not None and called not in seen:
                seen.add(called)
                todo.append(called)
    return Reads(frozenset(variables), None if zones is None else frozenset(zones), facing)
