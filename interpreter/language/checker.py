"""Static checks: resolve every name, type every expression, check the flow.

The checker reports every problem it can find (it never stops at the first) and leaves behind
the tables the compiler needs: what each name refers to, the type of each expression and the
local slot of each declared name.  Nothing here runs the game.

The checker is one object, Checker, made of parts with one job each (mixins sharing the state
Checker.__init__ sets up): check_declarations (collecting the declarations, and each one's own
checks), check_names (frames, scopes, what a name means), check_expressions (typing
expressions), check_statements (statements and the flow) and check_hints (the wording of
hints); tables holds what it leaves behind.  This module puts them together and holds the
passes in order, the walk over every body, the checks of the game as a whole, and
check_expression for the REPL.
"""

from __future__ import annotations

import difflib
from collections import ChainMap

import attrs

from . import nesting, nodes as n
from .call_order import callees_first
from .check_declarations import Declarations, default_value, option_allowed, option_value, option_value_ok
from .check_expressions import Expressions, settled
from .check_hints import Hints
from .check_names import Frame, Names, Scope
from .check_statements import Statements, leaving_phase, terminates
from .ending import Ending
from .source import Diagnostic, Span, did_you_mean
from .tables import CardInfo, Tables
from .types import BOOL, INT, PLAYER, TEAM, fits, list_of

# The checker's public face: what the loader, the compiler, the engine and the tools import from here.
__all__ = ["CardInfo", "CheckedExpression", "Checker", "Tables", "VISIBILITIES", "check_expression", "default_value",
           "option_allowed", "option_value", "option_value_ok"]


# Who sees a zone's cards, by visibility (E0320's hint, the editor's hover and completion).
VISIBILITIES = {
    "public": "everyone sees the cards, the spectator included",
    "owner": "the zone's player sees the cards (for a shared zone: nobody)",
    "team": "the zone's player and their partners see the cards (per-player zones in a game with teams)",
    "others": "every player but the zone's own sees the cards, as in a Hanabi hand (per-player zones)",
    "hidden": "nobody sees the cards",
}

VISIBILITY_HINT = ("use public (everyone sees the cards), owner (only its player), team (its player and "
                   "partners), others (everyone but its player, as a Hanabi hand) or hidden (nobody)")


@attrs.frozen
class CheckedExpression:
    """One expression checked on its own against a script's tables (the REPL's `eval`).

    Attributes:
        tables: an overlay of the script's tables holding this expression's entries; the
            script's own tables are untouched.
        type: the expression's type.
        frame_size: how many local slots it needs.
        names: slot of each extra name it was given (name -> slot).
        diagnostics: what the check found.
    """

    tables: Tables
    type: str
    frame_size: int
    names: dict
    diagnostics: list


def check_expression(tables: Tables, node, names: dict, expect: str | None = None) -> CheckedExpression:
    """Check `node` as a rule would see it, with `names` (name -> type) as extra locals; the
    entries made for it go into an overlay, so `tables` stays as it was."""
    overlay = attrs.evolve(tables, resolved=ChainMap({}, tables.resolved), types=ChainMap({}, tables.types),
                           slots=ChainMap({}, tables.slots), frames=ChainMap({}, tables.frames),
                           coerced=ChainMap({}, tables.coerced))
    checker = Checker()
    checker.t = overlay
    frame = Frame()
    scope = Scope(frame, context=frozenset({"pure", "asked"}))  # asked of a state: eval, watch, ...
    slots = {name: scope.declare(name, typ) for name, typ in names.items()}
    typ = checker.expr(node, scope)
    if expect is not None and not checker._fits_at(node, expect, typ):
        checker._mismatch(node, expect, typ)
    return CheckedExpression(overlay, typ, frame.size, slots, checker.diags)


class Checker(Declarations, Names, Expressions, Statements, Hints, Ending):
    """The checks of one script (check), in passes over its declarations."""

    def __init__(self):
        self.t = Tables()
        self.diags: list[Diagnostic] = []
        self._next_targets: set[str] = set()
        self._refused: set[str] = set()  # declared under a built-in's name (E0302): uses not reported again
        self._refused_zones: dict = {}  # such a zone: its uses keep the zone's type, so none is reported
        self._clashing: set[tuple[str, str]] = set()  # (kind, name) refused by E0301: its uses not reported again
        self._has_end = False
        self._define_calls: dict[str, set[str]] = {}
        self._used_rules: set[str] = set()
        self._current_define: str | None = None
        self.typing: list[str] = []  # the definitions being typed, each inside the one before (_define_type)
        self._cyclic: set[str] = set()  # records already reported as holding themselves
        self._leaving: dict[str, tuple] = {}  # procedure -> (a `next` it runs, where it is written)
        self._unknown_locals: set[tuple] = set()  # locals whose first value had an error: their kind is not reported

    # ---- reporting
    def error(self, code, message, span, label="", hint=""):
        self.diags.append(Diagnostic(code, message, span, label, hint))

    def warn(self, code, message, span, label="", hint=""):
        self.diags.append(Diagnostic(code, message, span, label, hint, "warning"))

    # ---- entry point
    def check(self, items: list, replaced=()) -> tuple[Tables, list[Diagnostic]]:
        """Check the game's declarations (`replaced`: the replacing.Replacements the items already
        hold, which the diagnostics they cause in the original's files then name)."""
        self.t.replacements = {id(r.decl): r for r in replaced}
        self._reserved_names(items)
        self._collect(items)
        self._check_bodies(items)
        self._check_program(items)
        self.diags += nesting.too_deep(items, self.t.defines, self.t.coerced)
        if replaced:
            self.diags = [self._blamed(d, items) for d in self.diags]
        return self.t, self.diags

    def _blamed(self, diag: Diagnostic, items) -> Diagnostic:
        """An error in an included declaration that reads a replaced one says which replacement
        it reads: the original's bodies are checked against the variant's replacements (a
        definition that now gives a text where the original's uses add numbers)."""
        by_name = {r.name: r for r in self.t.replacements.values() if r.name is not None}
        if diag.severity != "error" or diag.span is None or not by_name:
            return diag
        owner = next((i for i in items if _inside(diag.span, i.span)), None)
        if owner is None or id(owner) in self.t.replacements:
            return diag
        used = sorted({name for node in n.walk(owner) for name, span in _uses(node)
                       if name in by_name and _inside(span, diag.span)})
        if not used:
            return diag
        notes = "; ".join(f"`{name}` here is the replacement at {by_name[name].decl.span.short}, which replaces "
                          f"{by_name[name].original.span.short}" for name in used)
        return attrs.evolve(diag, hint=f"{diag.hint}; {notes}" if diag.hint else notes)

    # ---- pass 2: bodies
    def _check_bodies(self, items):
        t = self.t
        self._leaving = leaving_phase(t.procs)
        globals_frame = Frame()
        top = Scope(globals_frame)
        for record in t.records.values():
            self._check_record(record)
        for record in t.records.values():
            self._record_cycle(record)
        for opt in t.options.values():
            self._check_option(opt)
        if t.teams is not None:
            self._check_teams(t.teams)
        for zone in t.zones.values():
            for word in (zone.visibility, zone.otherwise):
                if word is not None and word not in VISIBILITIES:
                    close = difflib.get_close_matches(word, list(VISIBILITIES), n=1, cutoff=0.7)
                    hint = f"did you mean `{close[0]}`? " if close else ""
                    self.error("E0320", f"unknown visibility `{word}`", zone.span, hint=hint + VISIBILITY_HINT)
            if "team" in (zone.visibility, zone.otherwise):
                self._team_visibility(zone)
            if "others" in (zone.visibility, zone.otherwise) and not zone.per_player:
                self.error("E0365", f"zone `{zone.name}` is shared, so it has no owner for `others` to leave out",
                           zone.span, "`others` needs a per-player zone",
                           "make it `per player others` (every seat but the zone's own sees its cards), "
                           "or `public`")
            for position, (attr, span) in enumerate(zone.shown_by):
                self._display_key(attr, span)
                if attr in [earlier for earlier, _ in zone.shown_by[:position]]:
                    self.warn("W0177", f"`shown by` names `{attr}` twice", span, "already a key",
                              "a later key only orders cards the earlier ones tie, and this one never breaks a tie: "
                              "remove it, or name the attribute meant (`shown by suit, rank`)")
            if zone.shown_as is not None and zone.shown_as[0] != "placed":
                word, span = zone.shown_as
                self.error("E0366", f"unknown order `shown as {word}`", span, "expected `placed`",
                           "`shown as placed` lists the cards in the zone's own order, never sorted as a hand; "
                           "`shown by ATTR, ...` sorts them by card attributes")
        for deck in t.decks:
            zone = t.zones.get(deck.zone)
            if zone is None:
                self.error("E0203", f"unknown zone `{deck.zone}`", deck.zone_span, "not declared",
                           did_you_mean(deck.zone, t.zones))
            elif zone.per_player:
                self.error("E0321", f"deck `{deck.name}` starts in `{deck.zone}`, a per-player zone",
                           deck.zone_span, hint="start the deck in a shared zone and deal it")
        for name, (var, _) in list(t.vars.items()):
            if var.per_team and t.teams is None:
                self._no_teams(f"`{name}` holds a value per team", var.span)
            declared = self._type_ref(var.type) if var.type else None
            actual = self.expr(var.init, top)
            if declared is None and not var.written_init:
                self.error("E0219", f"variable `{name}` has neither a type nor a starting value", var.span,
                           "what does it hold?", f"write `var {name}: int` (it starts as `none`) or `var {name} = 0`")
            if declared and not self._fits_at(var.init, declared, actual):
                self._mismatch(var.init, declared, actual)
            elif (attr := self._held_attribute(var)) is not None:
                self._card_value(attr, var.init, f": `{name}` holds a {attr}")
            t.vars[name] = (var, declared or settled(actual))
        for zone in t.zones.values():  # checked once variables have their types: one error (E0730) for one
            if zone.condition is not None:
                self._expect(zone.condition, BOOL, top)
                self._visibility_condition(zone)
        t.frames["globals"] = globals_frame.size  # locals of starting values and zone conditions (`all x in ...`)
        for define in t.defines.values():
            frame, scope = self._activation(define.params or (), "pure")
            self._current_define = define.name
            self.expr(define.body, scope)
            self._current_define = None
            t.frames[id(define)] = frame.size
        for rule in t.rules.values():
            frame, scope = self._activation(rule.params, "pure")
            if rule.when is not None:
                self._expect(rule.when, BOOL, scope)
            self._expect(rule.require, BOOL, scope)
            t.frames[id(rule)] = frame.size
        for proc in t.procs.values():
            frame, scope = self._activation(proc.params, "procedure")
            self.block(proc.body, scope)
            t.frames[id(proc)] = frame.size
        for phase in t.phases.values():
            frame = Frame()
            self.block(phase.body, Scope(frame, context=frozenset({"phase"})))
            t.frames[id(phase)] = frame.size
            if not terminates(phase.body):
                self.error("E0501", f"phase `{phase.name}` can reach its end without `next` or `end game`",
                           Span(phase.span.path, phase.span.line, phase.span.column, phase.span.line,
                                phase.span.column + 5), "this phase",
                           "finish every path with `next PHASE` or `end game`")
        for event in t.events.values():
            self._check_event(event)
        for name, handlers in t.handlers.items():
            if name not in t.events:
                for h in handlers:
                    self.error("E0204", f"unknown event `{name}`", h.span, "not declared",
                               did_you_mean(name, t.events))
        for name, reactions in t.reactions.items():
            if name not in t.events:
                for r in reactions:
                    self.error("E0204", f"unknown event `{name}`", r.event_span, "not declared",
                               did_you_mean(name, t.events))
        if t.score is not None:
            frame = Frame()
            scope = Scope(frame, context=frozenset({"pure"}))
            t.slots[id(t.score)] = scope.declare(t.score.var, TEAM if t.teams is not None else PLAYER)
            self._expect(t.score.expr, INT, scope)
            t.frames[id(t.score)] = frame.size
        for measure in t.measures.values():
            frame = Frame()
            scope = Scope(frame, context=frozenset({"pure"}))
            if measure.var is not None:
                t.slots[id(measure)] = scope.declare(measure.var, PLAYER)
            actual = self.expr(measure.expr, scope)
            if not fits(INT, actual) and not fits(BOOL, actual):
                self._mismatch(measure.expr, INT, actual)
            t.frames[id(measure)] = frame.size
        if t.end_when is not None:
            self._check_end_when(t.end_when)
        if t.winners is not None and t.winners.mode is not None and t.score is None:
            self.warn("W0175", f"`winners: {t.winners.mode} score` but the script has no `score`", t.winners.span,
                      "every score is 0",
                      f"without a `score` every {'team' if t.teams is not None else 'player'} scores 0, so all of "
                      "them tie and every game is a draw: declare `score p: EXPRESSION`, or say who wins with a "
                      "list: `winners: [q for q in players where empty(hand[q])]`")
        if t.winners is not None and t.winners.expr is not None:
            frame = Frame()
            self._expect(t.winners.expr, list_of(TEAM if t.teams is not None else PLAYER),
                         Scope(frame, context=frozenset({"pure"})))
            t.frames[id(t.winners)] = frame.size

    def _check_program(self, items):
        t = self.t
        if not t.phases:
            self.error("E0407", "the script has no phase, so the game has nowhere to start", None,
                       hint="add `phase NAME { ... }`; the first phase declared starts the game")
            return
        first = next(iter(t.phases))
        for name, phase in t.phases.items():
            if name != first and name not in self._next_targets:
                self.warn("W0403", f"phase `{name}` is never entered", phase.span,
                          "no `next` leads here", f"the game starts in `{first}`; add `next {name}` somewhere")
        for name, rule in t.rules.items():
            if name not in self._used_rules:
                self.warn("W0406", f"rule `{name}` is never used", rule.span, "no decision requires it",
                          self._unused_rule_hint(name))
        if not self._has_end and not self._clashing:  # an `end game` may lie in a refused declaration
            self.error("E0404", "the game never ends: no `end game` statement", None,
                       hint="add `end game` where the game is over, e.g. after a target score is reached")
        self._check_define_cycles()

    def _unused_rule_hint(self, name: str) -> str:
        """What to do with an unused rule; when a variant's replacement is why (the declaration it
        replaces required the rule, the replacement does not), the hint says which."""
        dropped = [r for r in self.t.replacements.values()
                   if any(used == name for node in n.walk(r.original) for used, _ in _uses(node))]
        if not dropped:
            return f"name it in a decision: `requires {name}(...)`"
        notes = "; ".join(f"the {r.described} replaced at {r.decl.span.short} required it at "
                          f"{r.original.span.short}, the replacement does not" for r in dropped)
        return f"{notes}: require it there too, or leave it if the variant plays without it"

    def _check_define_cycles(self):
        """Definitions with parameters may call themselves (each call is charged and the depth is
        limited at run time); a cycle through a definition without parameters never ends, since
        nothing changes between its calls: E0405.  Only the members of a circle of calls
        (call_order.callees_first) are searched for their chain, each search within its circle
        and bounded: a circle of thousands is named by its length (the search from each member
        walked the whole circle: quadratic)."""
        graph = self._define_calls
        names = sorted(set(graph).union(*graph.values()))
        ordered = {name: sorted(graph.get(name, ())) for name in names}
        for group in callees_first(ordered, list(ordered)):
            members = set(group)
            if len(group) == 1 and group[0] not in ordered[group[0]]:
                continue  # calls nothing that calls it back
            for name in sorted(group):
                chain = _cycle(ordered, name, members)
                self.t.recursive[name] = " -> ".join(chain) if chain else \
                    f"{name} -> ... ({len(group)} definitions calling each other round) -> {name}"
                if self.t.defines[name].params is None:
                    shown = self.t.recursive[name]
                    self.error("E0405", f"`{name}` calls itself through {shown}", self.t.defines[name].span,
                               "never ends", f"`{name}` has no parameters, so every call computes the same thing: "
                               "give it a parameter that changes, or use a procedure with a loop")


def _inside(inner: Span, outer: Span) -> bool:
    return inner.path == outer.path and (outer.line, outer.column) <= (inner.line, inner.column) \
        and (inner.end_line, inner.end_column) <= (outer.end_line, outer.end_column)


def _uses(node):
    """(name, span) of the declared name a node reads or calls, if it names one."""
    if isinstance(node, (n.Name, n.Target)):
        yield node.name, node.span
    elif isinstance(node, n.Call):
        yield node.func, node.func_span
    elif isinstance(node, n.CallStmt):
        yield node.name, node.name_span
    elif isinstance(node, n.RuleCall):
        yield node.name, node.span
    elif isinstance(node, n.Next):
        yield node.phase, node.span
    elif isinstance(node, n.Signal):
        yield node.event, node.span


_CHAIN_SEARCH = 64  # definitions a search for a chain back to its start visits at most


def _cycle(graph: dict, start: str, members) -> list | None:
    """The shortest chain of calls from `start` back to itself (`[a, b, a]`) through `members`
    (`start`'s circle), or None when it is longer than _CHAIN_SEARCH visits find."""
    parent, queue = {}, [start]
    for name in queue:
        if len(queue) > _CHAIN_SEARCH:
            return None
        for callee in graph.get(name, ()):
            if callee == start:
                chain = [name]
                while chain[-1] != start:
                    chain.append(parent[chain[-1]])
                return [start] + chain[::-1][1:] + [start] if name != start else [start, start]
            if callee in members and callee not in parent and callee != start:
                parent[callee] = name
                queue.append(callee)
    return None
