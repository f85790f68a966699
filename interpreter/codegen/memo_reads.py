"""What the definitions State.memo keeps read, so a change of anything else keeps their values.

State.memo holds the values of definitions while nothing they read changes (codegen.Gen.define_fn):
parameterless ones, and ones whose parameters are plain values, per argument (kept_definitions).
A definition reads variables and options by name, zones named in it or in the definitions it
calls, and, through `owner`, `zone_of` and `face_up`, where any card lies and how it faces.
Everything else it sees (cards' attributes, the players, the teams, its arguments) is fixed
for the game or for the call.  A statement that changes none of what a kept definition reads (a
turn counter, a card moving between hands no definition looks at) leaves its values as they
are; a change of what it reads forgets them first (codegen.Gen.forget).
"""

from __future__ import annotations

import attrs

from ..language import nodes as n
from ..language.builtins import READS_WHERE
from ..language.types import ANY, TYPE_NAMES, ZONE


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
    each calls.  A kept one's parameters hold no zone (kept_definitions; a kept call's arguments
    are constants), so every zone it reads is named inside the walk, as is every argument of a
    call below it."""
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


def sees_cards(t, zone_index, name: str) -> bool:
    """Whether definition `name` may see where a card lies or how cards face: a zone read in it
    or in what it calls, `owner`/`zone_of`/`face_up`, or a parameter that might be given a zone
    (a call kept with constant arguments, Gen._kept_call).  State.zmemo keeps the values of those;
    State.memo those of the others, which read variables and options only (so a card's move
    forgets the first alone)."""
    reads = memo_reads(t, zone_index, [name])
    return reads.zones is None or bool(reads.zones) or reads.facing or \
        not all(_plain_value(t, p.type) for p in t.defines[name].params or ())


def kept_definitions(t, constant_args) -> list[str]:
    """The definitions State.memo may keep the values of: not recursive (a call's depth is its
    own), computing something (a walk or a call somewhere in its body), and either without
    parameters or with parameters that are plain values (numbers, cards, players, symbols,
    texts, true/false: hashed and compared by value, never a zone) and called from more than
    one place inside definitions (where one definition's value is made of another's, the same
    call comes back) with arguments not all constant (`constant_args(call)`: those calls are
    kept on their own, Gen._kept_call).  Gen.define_fn keeps those of them whose code is worth
    a lookup."""
    inside = (e for d in t.defines.values() for e in n.walk(d.body) if not (isinstance(e, n.Call) and constant_args(e)))
    sites, inner = _call_sites(t, script_nodes(t)), _call_sites(t, inside)
    return [name for name, d in t.defines.items()
            if name not in t.recursive and sites[name] and computes(t, d.body)
            and (not d.params or (inner[name] > 1 and all(_plain_value(t, p.type) for p in d.params)))]


def _plain_value(t, ref) -> bool:
    """A parameter's type whose values a memo can key: a scalar other than a zone, or what a card
    attribute holds; not a list or a record."""
    return not ref.is_list and ref.name not in t.records and ref.name != ZONE and \
        (ref.name in TYPE_NAMES or ref.name in t.card_attrs)


def computes(t, body) -> bool:
    """Whether a definition's body does enough to be worth keeping: a walk or a call somewhere."""
    return any(isinstance(e, (n.Call, n.Quant, n.Best, n.Comprehension, n.Pattern)) or
               (isinstance(e, n.Name) and t.resolved.get(id(e), (None,))[0] == "define") for e in n.walk(body))


def script_nodes(t):
    """Every syntax node of the checked script `t`: its declarations' insides."""
    roots = [*t.defines.values(), *t.rules.values(), *t.procs.values(), *t.phases.values(),
             *t.events.values(), *t.measures.values(), *(v for v, _ in t.vars.values()), t.score, t.winners]
    roots += [x for group in (*t.handlers.values(), *t.reactions.values()) for x in group]
    for root in roots:
        if root is not None:
            yield from n.walk(root)


def _call_sites(t, nodes) -> dict:
    """Definition name -> how many of `nodes` call it or read it by name."""
    sites = dict.fromkeys(t.defines, 0)
    for e in nodes:
        if isinstance(e, n.Call) and e.func in sites:
            sites[e.func] += 1
        elif isinstance(e, n.Name) and t.resolved.get(id(e), (None,))[0] == "define":
            sites[t.resolved[id(e)][1]] += 1
    return sites
