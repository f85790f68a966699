"""Static checks: resolve every name, type every expression, check the flow.

The checker reports every problem it can find (it never stops at the first) and leaves behind
the tables the compiler needs: what each name refers to, the type of each expression and the
local slot of each declared name.  Nothing here runs the game.
"""

from __future__ import annotations

import difflib
import math
import re
from collections import ChainMap

import attrs

from . import limits, nodes as n, orders, replacing, teams
from .builtins import BUILTINS, CHANCE, CONSTANTS, ORDER_FUNCTIONS, TEAM_NAMES, BuiltinTypeError
from .nodes import STATEMENT_WORDS
from .source import AT_POSITION_HINT, Diagnostic, Span, did_you_mean
from .types import (ANY, BOOL, CARD, INT, NONE, PLAYER, SYMBOL, TEAM, TEXT, TYPE_NAMES, ZONE, ZONES, base_of, describe,
                    element, fits, is_list, is_listlike, is_ordered, is_record, join, list_of, order_name, record_name,
                    record_type, spelled)

# Who sees a zone's cards, by visibility (E0320's hint, the editor's hover and completion).
VISIBILITIES = {
    "public": "everyone sees the cards, the spectator included",
    "owner": "the zone's player sees the cards (for a shared zone: nobody)",
    "team": "the zone's player and their partners see the cards (per-player zones in a game with teams)",
    "others": "every player but the zone's own sees the cards, as in a Hanabi hand (per-player zones)",
    "hidden": "nobody sees the cards",
}

# Functions other languages have, and how this one says them (E0209's hint).
OTHER_LANGUAGES_FUNCTIONS = {
    "len": "the number of items is `count(L)`", "length": "the number of items is `count(L)`",
    "size": "the number of items is `count(L)`", "print": "`log \"text {value}\"` is a statement",
    "sort": "`sorted(L)` sorts numbers; `sorted x in L by KEY` sorts cards", "distinct": "did you mean `unique`?",
    "contains": "write `x in L`", "shuffled": "`shuffle ZONE` is a statement",
    "append": "`move CARD to ZONE` adds a card; `L + [x]` makes a longer list",
}



def _write_replace(what: str) -> str:
    """The end of E0301's hint for a declaration that an included file declares too."""
    return (f"; a variant replaces an included declaration by writing `replace` before its own: `replace {what} ...` "
            "(docs/language.md §20)")


@attrs.define
class CardInfo:
    name: str
    deck: str
    attrs: dict
    span: Span


@attrs.define
class Tables:
    """Everything the compiler needs to know about a checked script.

    Attributes:
        resolved: id(Name or Target node) -> (kind, detail) where kind is one of local,
            global, option, zone, zones, symbol, constant, define.
        types: id(expression node) -> static type.
        slots: id(declaring node) -> local slot (let, for, binder, quantifier, ...).
        frames: id(body owner) -> number of local slots it needs.
        recursive: name of a definition that may call itself -> the chain it does it through
            (`best -> pick -> best`); such definitions are called with a depth limit.
        coerced: id(expression node) -> True for a zone read as the list of its cards there,
            because a list is expected at that place (docs/language.md, "Zones and lists").
        records: record name -> RecordDecl; record_fields: record name -> ((field, type), ...)
            in declaration order, which is the order of a record value's tuple.
        replacements: id(declaration) -> replacing.Replacement, for each declaration of the
            game that a `replace` put in the place of an included one (docs/language.md §20).
    """

    title: str = ""
    min_players: int = 2
    max_players: int = 2
    options: dict = attrs.Factory(dict)  # name -> OptionDecl
    zones: dict = attrs.Factory(dict)  # name -> ZoneDecl
    vars: dict = attrs.Factory(dict)  # name -> (VarDecl, type)
    defines: dict = attrs.Factory(dict)
    rules: dict = attrs.Factory(dict)
    procs: dict = attrs.Factory(dict)
    phases: dict = attrs.Factory(dict)  # in declaration order; the first starts the game
    events: dict = attrs.Factory(dict)
    reactions: dict = attrs.Factory(dict)  # event name -> [ReactionDecl]
    handlers: dict = attrs.Factory(dict)  # event name -> [HandlerDecl]
    decks: list = attrs.Factory(list)
    cards: list = attrs.Factory(list)  # CardInfo, in id order
    card_attrs: dict = attrs.Factory(dict)  # attribute -> type
    orders: dict = attrs.Factory(dict)  # attribute declared `ordered` -> its values, in order
    number_attributes: dict = attrs.Factory(dict)  # name -> AttributeDecl (`attribute points from rank`)
    symbols: set = attrs.Factory(set)
    score: n.ScoreDecl | None = None
    winners: n.WinnersDecl | None = None
    teams: n.TeamsDecl | None = None  # the partnerships, in a game with teams
    heading: dict = attrs.Factory(dict)  # "game", "players" -> the declaration read (its first one)
    limits: dict = attrs.Factory(dict)  # budget name (work_per_move, work_per_game) -> the game's own value
    measures: dict = attrs.Factory(dict)  # name -> MeasureDecl (their own namespace)
    resolved: dict = attrs.Factory(dict)
    types: dict = attrs.Factory(dict)
    slots: dict = attrs.Factory(dict)
    frames: dict = attrs.Factory(dict)
    coerced: dict = attrs.Factory(dict)
    recursive: dict = attrs.Factory(dict)
    records: dict = attrs.Factory(dict)
    record_fields: dict = attrs.Factory(dict)
    replacements: dict = attrs.Factory(dict)


class _Frame:
    """Slot allocation for one activation (a phase, procedure, event, rule or define)."""

    def __init__(self):
        self.size = 0

    def new_slot(self) -> int:
        self.size += 1
        return self.size - 1


class _Scope:
    def __init__(self, frame: _Frame, parent: "_Scope | None" = None, context: frozenset = frozenset()):
        self.frame, self.parent, self.names = frame, parent, {}
        self.context = context | (parent.context if parent else frozenset())

    def child(self, *context: str) -> "_Scope":
        return _Scope(self.frame, self, frozenset(context))

    def lookup(self, name: str):
        scope = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def all_names(self):
        scope, out = self, set()
        while scope is not None:
            out |= set(scope.names)
            scope = scope.parent
        return out

    def declare(self, name: str, type_: str) -> int:
        slot = self.frame.new_slot()
        self.names[name] = (slot, type_)
        return slot


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
    frame = _Frame()
    scope = _Scope(frame, context=frozenset({"pure", "asked"}))  # asked of a state: eval, watch, ...
    slots = {name: scope.declare(name, typ) for name, typ in names.items()}
    typ = checker.expr(node, scope)
    if expect is not None and not checker._fits_at(node, expect, typ):
        checker._mismatch(node, expect, typ)
    return CheckedExpression(overlay, typ, frame.size, slots, checker.diags)


class Checker:
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
        self._cyclic: set[str] = set()  # records already reported as holding themselves
        self._leaving: dict[str, tuple] = {}  # procedure -> (a `next` it runs, where it is written)

    # ---- reporting
    def _visibility_condition(self, zone: n.ZoneDecl) -> None:
        """E0730 for a visibility condition that reads the game or does work that grows: it is
        read whenever a view is made, outside any move and its work budget, so it may use
        options, constants, operators and `if ... then ... else` only."""
        t, stack = self.t, [zone.condition]
        while stack:
            e = stack.pop()
            if isinstance(e, n.Name) and (e.name in t.vars or e.name in t.zones or e.name in t.defines):
                what = "variable" if e.name in t.vars else "zone" if e.name in t.zones else "definition"
                return self.error("E0730", f"the visibility of zone `{zone.name}` depends on the {what} "
                                  f"`{e.name}`", e.span, "read whenever a view is made",
                                  _VISIBILITY_CONDITION_HINT)
            if not isinstance(e, _VISIBILITY_CONDITION_NODES):
                return self.error("E0730", f"the visibility of zone `{zone.name}` depends on more than options",
                                  e.span, "read whenever a view is made", _VISIBILITY_CONDITION_HINT)
            stack.extend(child for field in attrs.fields(type(e)) for child in _children(getattr(e, field.name)))

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
        if replaced:
            self.diags = [self._blamed(d, items) for d in self.diags]
        return self.t, self.diags

    # ---- pass 1: declarations
    def _reserved_names(self, items):
        """E0651 for a name that is a strictly reserved word (`let count = 1`, a parameter `none`):
        the parser takes it where a name is made, but every use reads as the word, so the name
        could never be read; E0652 for a procedure named after a statement word (`move`), whose
        call would read as that statement."""
        for item in items:
            for node in n.walk(item):
                field = _NAME_MADE.get(type(node))
                name = getattr(node, field, None) if field else None
                if name in STRICTLY_RESERVED and not (type(node) in _DECL_KIND and name in BUILTINS):  # E0302 says so
                    self.error("E0651", f"`{name}` is a reserved word, so it cannot be a name", node.span,
                               "a reserved word", f"`{name}` always reads as the language's own word, so this "
                               f"name could never be read: choose another (`{name}_value`, say)")
                elif isinstance(node, n.ProcDecl) and name in STATEMENT_WORDS:
                    self.error("E0652", f"a procedure cannot be named `{name}`, a statement word", node.span,
                               "a statement word", f"a call `{name}(...)` would read as the `{name}` statement: "
                               f"rename the procedure where it is declared and where it is called "
                               f"(`{name}_cards`, say)")

    def _collect(self, items):
        t = self.t
        seen: dict[str, n.Span] = {}
        seen_kind: dict[str, str] = {}
        game = [i for i in items if isinstance(i, n.GameDecl)]
        t.title = game[0].title if game else ""
        t.heading.update({"game": decl[0] for decl in [game] if decl})
        for extra in game[1:]:
            self.warn("W0425", f"`game` is declared twice: the title is the first one, \"{t.title}\"", extra.span,
                      "this title is not used", f"the first is at {game[0].span}"
                      + ("; a variant names itself with `replace game \"...\"` (docs/language.md §20)"
                         if extra.span.path != game[0].span.path else ": keep one"))
        players = [i for i in items if isinstance(i, n.PlayersDecl)]
        if not players:
            self.error("E0401", "the script does not say how many players the game takes", None,
                       hint="add `players 3` or a range such as `players 2..5`")
        for extra in players[1:]:
            self._twice("players", extra, players[0])
        if players:
            p = t.heading["players"] = players[0]
            t.min_players, t.max_players = p.low, p.high
            if p.low < 1 or p.high < p.low or p.high > 64:
                written = f"{p.low}" if p.low == p.high else f"{p.low}..{p.high}"
                self.error("E0402", f"player count {written} is not a valid "
                           f"{'count' if p.low == p.high else 'range'}", p.span,
                           hint="counts run from 1 to 64, the low end first")
        for item in items:
            name = getattr(item, "name", None)
            kind = _DECL_KIND.get(type(item))
            if kind is None or name is None:
                continue
            if name in seen:
                hint = f"the first declaration is at {seen[name]}"
                if seen_kind[name] != kind:
                    self._clashing.add((kind, name))
                    hint += (f" (a {_KIND_WORD[seen_kind[name]]}); a {_KIND_WORD[kind]} cannot share its name: rename "
                             f"one (the uses of this {_KIND_WORD[kind]} are not reported again)")
                elif seen[name].path != item.span.path:
                    hint += _write_replace(f"{replacing.KEYWORD[replacing.kind_of(item)]} {name}")
                self.error("E0301", f"`{name}` is declared twice", item.span, "declared again here", hint)
                continue
            if name in BUILTINS or name in CONSTANTS or (kind == "records" and name in TYPE_NAMES + ("list",)):
                what = "a built-in" if name in BUILTINS or name in CONSTANTS else "a type"
                hint = ("choose another name" if what == "a type" else
                        f"`{name}` is a built-in {'function' if name in BUILTINS else 'constant'}: choose another "
                        "name (its uses are not reported again)")
                self.error("E0302", f"`{name}` is the name of {what}", item.span, "reserved name", hint)
                self._refused.add(name)
                if kind == "zones":
                    self._refused_zones[name] = item
                continue
            seen[name], seen_kind[name] = item.span, kind
            getattr(t, kind)[name] = item
        for item in items:
            if isinstance(item, n.ReactionDecl):
                t.reactions.setdefault(item.event, []).append(item)
            elif isinstance(item, n.HandlerDecl):
                t.handlers.setdefault(item.event, []).append(item)
            elif isinstance(item, n.ScoreDecl):
                if t.score is not None:
                    self._twice("score", item, t.score)
                t.score = item
            elif isinstance(item, n.MeasureDecl):
                if item.name in t.measures:
                    self._twice(f"measure {item.name}", item, t.measures[item.name], f"measure `{item.name}`")
                else:
                    t.measures[item.name] = item
            elif isinstance(item, n.TeamsDecl):
                if t.teams is not None:
                    self._twice("teams", item, t.teams)
                else:
                    t.teams = item
            elif isinstance(item, n.WinnersDecl):
                if t.winners is not None:
                    self._twice("winners", item, t.winners)
                t.winners = item
            elif isinstance(item, n.DeckDecl):
                self._collect_deck(item)
            elif isinstance(item, n.LimitDecl):
                self._collect_limit(item)
        named_attributes = set()
        for item in items:
            if isinstance(item, n.AttributeDecl):
                if item.name in named_attributes:
                    self.error("E0301", f"attribute `{item.name}` is declared twice", item.span)
                    continue
                named_attributes.add(item.name)
                t.number_attributes[item.name] = item
                orders.collect_attribute(t, item, self.error)
        orders.settle_orders(t, self.error)
        for opt in t.options.values():
            for choice in opt.choices:
                t.symbols.add(choice)
        for kind in (n.DeckDecl, n.ReactionDecl):
            named: dict[str, Span] = {}
            for item in items:
                if isinstance(item, kind):
                    if item.name in named:
                        self.error("E0301", f"`{item.name}` is declared twice", item.span, "declared again here",
                                   f"the first declaration is at {named[item.name]}")
                    named.setdefault(item.name, item.span)
        for name, span in seen.items():
            if name in t.symbols and self._hides_symbol(seen_kind[name], name):
                self.warn("W0408", f"`{name}` is also a symbol (a card attribute or option value)", span,
                          "this name wins", f"in expressions `{name}` now means this declaration, never the symbol; "
                          "rename one of them")
        for name, var in list(t.vars.items()):
            t.vars[name] = (var, None)

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

    def _hides_symbol(self, kind: str, name: str) -> bool:
        """Whether a bare name in an expression means this declaration rather than the symbol:
        variables, options, zones and definitions without parameters come before symbols in the
        lookup; a definition with parameters, a rule, a phase and the rest are never read bare."""
        if kind == "defines":
            return self.t.defines[name].params is None
        return kind in ("vars", "options", "zones")

    def _twice(self, what: str, item, first, named: str = "") -> None:
        """E0301 for a declaration a game has once (`players`, `score`, `winners`, `teams`) or a
        measure (`named`: how the message names it), saying where the first one is."""
        hint = f"the first declaration is at {first.span}" + (_write_replace(what) if first.span.path != item.span.path
                                                               else "")
        self.error("E0301", f"{named or '`' + what + '`'} is declared twice", item.span, "declared again here", hint)

    def _collect_limit(self, item: n.LimitDecl):
        caps = limits.BUDGET_CAPS
        if item.name not in caps:
            self.error("E0316", f"unknown limit `{item.name}`", item.name_span, "not a limit",
                       did_you_mean(item.name, caps) or "the limits a game sets: " + ", ".join(caps))
        elif item.name in self.t.limits:
            self.error("E0301", f"`limit {item.name}` is declared twice", item.span)
        elif item.value < 1:  # a budget of nothing would stop the game at its first statement
            self.error("E0316", f"`limit {item.name}` is at least 1, not {item.value}", item.span,
                       "no work at all", f"a budget is a whole number of units from 1 to {caps[item.name]:,}")
        elif item.value > caps[item.name]:
            self.error("E0316", f"`limit {item.name}` may be at most {caps[item.name]:,}", item.span,
                       "over the hard cap", "the hard caps bound what any script may ask for")
        else:
            self.t.limits[item.name] = item.value

    def _once_each(self, deck: n.DeckDecl, attr: str, values: tuple) -> list:
        """A dimension's values, each once: one listed again (copies of a card, as `number: 1,
        1, 1, 2, ...`) would make cards of one name; it is reported once, at its line."""
        kept = list(dict.fromkeys(values))
        again = [_value_text(v) for v in kept if values.count(v) > 1]
        if again:
            listed = ", ".join(f"`{v}`" for v in again)
            self.error("E0350", f"dimension `{attr}` lists {listed} more than once", dict(deck.dimension_lines).get(
                attr, deck.span), "a value listed again", "each combination of values makes one card, named by its "
                "values: for copies of a card, add a dimension that tells them apart (`copy: a, b, c`) or list the "
                f"cards one by one (`card \"X\" x 3 {{ {attr}: {again[0]}, ... }}`)")
        return kept

    def _left_out_of_names(self, deck: n.DeckDecl, parts: tuple) -> list:
        """The dimensions of several values a deck's `name:` leaves out: the cards differing only
        in them would share every name, which is said once, at the first one's line (E0312)."""
        left_out = [a for a, values in deck.dimensions if a not in parts and len(set(values)) > 1]
        if deck.name_parts and left_out:
            attr = left_out[0]
            shown = " ".join(deck.name_parts)
            self.error("E0312", f"cards of deck `{deck.name}` share their names: `name: {shown}` leaves out "
                       + ", ".join(f"`{a}`" for a in left_out), dict(deck.dimension_lines).get(attr, deck.span),
                       "not part of the card names", f"cards are named by the values `name:` lists, and they must "
                       f"differ: add it, as `name: {shown} {' '.join(left_out)}`, or drop the dimension")
        return left_out

    def _collect_deck(self, deck: n.DeckDecl):
        t = self.t
        t.decks.append(deck)
        names = {c.name for c in t.cards}
        made = []
        if not deck.dimensions and not deck.cards:
            self.error("E0178", f"deck `{deck.name}` makes no cards", deck.span, "an empty deck",
                       "list its attributes and their values (`rank: 2, 3, 4` and `suit: C, D`: one card for "
                       "each combination) or its cards one by one (`card \"Wild\" x 4 { kind: wild }`)")
        if deck.dimensions and deck.cards:
            self.error("E0310", f"deck `{deck.name}` mixes attribute dimensions and explicit cards",
                       deck.span, hint="declare two decks instead")
        size = len(t.cards)
        if deck.dimensions:
            size += math.prod(len(values) for _, values in deck.dimensions)
        size += sum(spec.copies for spec in deck.cards)
        if size > limits.MAX_CARDS:  # counted before any card is made: `card "A" x 10000000`
            self.error("E0314", f"the decks would hold {size:,} cards; the limit is {limits.MAX_CARDS:,}",
                       deck.span, "too many cards", "every card is a value moves name and shuffles move")
            return
        if deck.dimensions:
            combos = [{}]
            for attr, values in deck.dimensions:
                values = self._once_each(deck, attr, values)
                combos = [dict(c, **{attr: v}) for c in combos for v in values]
            parts = deck.name_parts or tuple(a for a, _ in deck.dimensions)
            for part in parts:
                if part not in dict(deck.dimensions):
                    self.error("E0311", f"card names use `{part}`, which is not an attribute of deck `{deck.name}`",
                               deck.span, hint=did_you_mean(part, dict(deck.dimensions)))
            left_out, labels = self._left_out_of_names(deck, parts), set()
            for combo in combos:
                label = "".join(_value_text(combo.get(p)) for p in parts)
                if left_out and label in labels:
                    continue  # said once, for the deck, by _left_out_of_names
                labels.add(label)
                made.append((label, combo, deck.span))
        for spec in deck.cards:
            attrs_ = dict(spec.attrs)
            if spec.copies < 1:
                self.error("E0175", f"`card \"{spec.label}\" x {spec.copies}` makes no card", spec.span,
                           "no copies", "write `x 1` or more, or leave the card's line out")
                # its symbols stay known, so their uses are not reported as unknown names too
                t.symbols.update(v for v in attrs_.values() if isinstance(v, str))
            for i in range(spec.copies):
                label = spec.label if spec.copies == 1 else f"{spec.label}.{i + 1}"
                made.append((label, attrs_, spec.span))
        for label, attrs_, span in made:
            if label in names:
                self.error("E0312", f"two cards are named `{label}`", span,
                           hint="card names must be unique across all decks; they are how moves name cards")
                continue
            names.add(label)
            values = {}
            for attr, value in attrs_.items():
                if attr == "name":
                    self.error("E0313", "`name` is the card's own name and cannot be an attribute", span)
                    continue
                typ = INT if isinstance(value, int) else TEXT if isinstance(value, tuple) else SYMBOL
                if isinstance(value, tuple):
                    value = value[1]
                if typ == SYMBOL:
                    t.symbols.add(value)
                old = t.card_attrs.get(attr)
                t.card_attrs[attr] = typ if old in (None, typ) else ANY
                values[attr] = value
            t.cards.append(CardInfo(label, deck.name, values, span))
        orders.collect_order(t, deck, self.error)

    # ---- pass 2: bodies
    def _check_bodies(self, items):
        t = self.t
        self._leaving = _leaving_phase(t.procs)
        globals_frame = _Frame()
        top = _Scope(globals_frame)
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
            t.vars[name] = (var, declared or _settled(actual))
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
            frame = _Frame()
            self.block(phase.body, _Scope(frame, context=frozenset({"phase"})))
            t.frames[id(phase)] = frame.size
            if not _terminates(phase.body):
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
            frame = _Frame()
            scope = _Scope(frame, context=frozenset({"pure"}))
            t.slots[id(t.score)] = scope.declare(t.score.var, TEAM if t.teams is not None else PLAYER)
            self._expect(t.score.expr, INT, scope)
            t.frames[id(t.score)] = frame.size
        for measure in t.measures.values():
            frame = _Frame()
            scope = _Scope(frame, context=frozenset({"pure"}))
            if measure.var is not None:
                t.slots[id(measure)] = scope.declare(measure.var, PLAYER)
            actual = self.expr(measure.expr, scope)
            if not fits(INT, actual) and not fits(BOOL, actual):
                self._mismatch(measure.expr, INT, actual)
            t.frames[id(measure)] = frame.size
        if t.winners is not None and t.winners.mode is not None and t.score is None:
            self.warn("W0175", f"`winners: {t.winners.mode} score` but the script has no `score`", t.winners.span,
                      "every score is 0",
                      f"without a `score` every {'team' if t.teams is not None else 'player'} scores 0, so all of "
                      "them tie and every game is a draw: declare `score p: EXPRESSION`, or say who wins with a "
                      "list: `winners: [q for q in players where empty(hand[q])]`")
        if t.winners is not None and t.winners.expr is not None:
            frame = _Frame()
            self._expect(t.winners.expr, list_of(TEAM if t.teams is not None else PLAYER),
                         _Scope(frame, context=frozenset({"pure"})))
            t.frames[id(t.winners)] = frame.size

    def _check_record(self, record: n.RecordDecl):
        fields, seen = [], {}
        for f in record.fields:
            if f.name in seen:
                self.error("E0301", f"field `{f.name}` of `{record.name}` is declared twice", f.span,
                           "declared again here", f"the first declaration is at {seen[f.name]}")
                continue
            seen[f.name] = f.span
            fields.append((f.name, self._type_ref(f.type)))
        self.t.record_fields[record.name] = tuple(fields)

    def _record_cycle(self, record: n.RecordDecl):
        """E0225: a record that holds itself (through lists or other records) could nest without
        end, and a value nests only as deep as its type says."""
        fields = self.t.record_fields
        if record.name in self._cyclic:
            return  # reported with the record that closes the same cycle
        path, stack = {}, [(record.name, None)]
        while stack:
            name, via = stack.pop()
            for _f, ft in fields.get(name, ()):
                inner = next(iter(_records_in(ft)), None)
                if inner == record.name:
                    chain = [record.name]
                    step = name
                    while step != record.name:
                        chain.insert(1, step)
                        step = path[step]
                    self._cyclic.update(chain)
                    chain = " -> ".join(chain + [record.name])
                    self.error("E0225", f"record `{record.name}` holds itself ({chain})", record.span,
                               "a value of it would never end",
                               "records nest only as deep as their types say: give the inner value a record type of its own")
                    return
                if inner is not None and inner not in path and inner != record.name:
                    path[inner] = name
                    stack.append((inner, name))

    # ---- teams (docs/language.md, "Teams")
    def _check_teams(self, decl: n.TeamsDecl):
        t = self.t
        if decl.expr is not None:  # `teams p: EXPR`: read at set-up, before the variables
            frame = _Frame()
            scope = _Scope(frame, context=frozenset({"pure", "teams"}))
            t.slots[id(decl)] = scope.declare(decl.var, PLAYER)
            known = len(self.diags)
            self._expect(decl.expr, INT, scope)
            t.frames[id(decl)] = frame.size
            constant = _constant(decl.expr)
            if constant is not None:  # the same number for every seat: one team, or none at all
                self.error("E0345", "a game with teams needs at least two teams", decl.expr.span,
                           f"every seat gets {constant}",
                           f"compute each seat's team from the seat, numbered from 0: `teams {decl.var}: "
                           f"number({decl.var}) % 2` makes partners across the table")
            elif len(self.diags) == known:  # a layout that checks: work it out where it can be
                self._computed_teams(decl)
            return
        placed: dict[int, int] = {}
        spans = iter(decl.seat_spans)
        for number, team in enumerate(decl.seats):
            for seat in team:
                span = next(spans)
                if seat in placed:
                    self.error("E0340", f"seat {seat} is in two teams (T{placed[seat]} and T{number})", span,
                               "listed again", "each seat plays in exactly one team")
                    continue
                placed[seat] = number
                if seat >= t.max_players:
                    self.error("E0342", f"there is no seat {seat} at a table of {t.max_players}", span,
                               "no such seat", f"seats are numbered 0 to {t.max_players - 1}")
        if t.min_players != t.max_players or len(placed) != t.max_players:
            takes = f"{t.min_players}" if t.min_players == t.max_players else f"{t.min_players} to {t.max_players}"
            if len(placed) != t.max_players and t.min_players == t.max_players:
                for seat in sorted(set(range(t.max_players)) - set(placed)):
                    self.error("E0341", f"seat {seat} is in no team", decl.span, "every seat needs a team",
                               f"add {seat} to one of the teams")
            else:
                self.error("E0342", f"these teams seat {len(placed)} players, but the game takes {takes}",
                           decl.span, "fixed for one player count",
                           "teams fixed by seat need `players N` with N their seats; for a game of several "
                           "sizes compute them: `teams p: number(p) % 2`")
        if len(decl.seats) < 2:
            self.error("E0345", "a game with teams needs at least two teams", decl.span, "one team",
                       "list each team's seats: `teams: [0, 2], [1, 3]`")

    def _computed_teams(self, decl: n.TeamsDecl):
        """E0347 for a player count the layout can never seat, when it reads only the seat and the
        player count (otherwise new_game judges it for the options it is given: E0708)."""
        for players in range(self.t.min_players, self.t.max_players + 1):
            numbers = seat_numbers(decl.expr, decl.var, players)
            if numbers is None:
                return
            found = teams.numbered(numbers)
            if isinstance(found, str):
                shown = ", ".join(f"seat {seat}: {number}" for seat, number in enumerate(numbers))
                self.error("E0347", f"the teams do not work out for {players} players: {found}", decl.expr.span,
                           f"gives {shown}", "every seat needs a team number 0, 1, ..., each team a seat, "
                           f"for every player count of `players`: `teams {decl.var}: number({decl.var}) % 2` "
                           "makes partners across the table")
                return

    def _team_visibility(self, zone: n.ZoneDecl):
        """`team`: the zone's owner and their partners see it; so it needs teams and an owner."""
        if self.t.teams is None:
            self._no_teams(f"zone `{zone.name}` is seen by a team", zone.span)
        elif not zone.per_player:
            self.error("E0344", f"zone `{zone.name}` is shared, so no team owns it", zone.span,
                       "`team` needs a per-player zone",
                       "make it `per player team` (each seat and its partners see that seat's zone), "
                       "or `public`")

    def _teams_not_made(self, name: str, span):
        self.error("E0346", f"the teams are being made here, so they cannot read `{name}`", span, "not made yet",
                   "compute the teams from the seat, `player_count` and the options")

    def _no_teams(self, what: str, span):
        self.error("E0343", f"{what}, but the game declares no teams", span, "needs teams",
                   "declare the partnerships: `teams: [0, 2], [1, 3]` (by seat) or `teams p: number(p) % 2`")

    def _activation(self, params, context: str) -> tuple[_Frame, _Scope]:
        """A fresh frame whose first slots are the parameters."""
        frame = _Frame()
        scope = _Scope(frame, context=frozenset({context}))
        for p in params:
            self.t.slots[id(p)] = scope.declare(p.name, self._type_ref(p.type))
        return frame, scope

    def _check_option(self, opt: n.OptionDecl):
        kind = opt.kind
        if kind not in ("bool", "int", "choice"):
            self.error("E0330", f"an option is `bool`, `int in LOW..HIGH` or `one of (...)`, not `{kind}`",
                       opt.type_span, "unknown option type", did_you_mean(kind, ("bool", "int")))
            return
        if kind == "int" and opt.low is None:
            self.error("E0331", f"option `{opt.name}` needs its allowed range", opt.type_span,
                       hint="write `int in LOW..HIGH`")
            return
        if kind == "bool" and opt.low is not None:
            self.error("E0331", "a `bool` option takes no range", opt.type_span)
        if kind == "int" and opt.low > opt.high:
            self.error("E0331", f"option `{opt.name}` allows no value: {opt.low}..{opt.high} is empty",
                       opt.type_span, "an empty range", f"write the smaller bound first: `int in {opt.high}..{opt.low}`")
            return
        twice = sorted({c for c in opt.choices if opt.choices.count(c) > 1})
        if kind == "choice" and twice:
            self.error("E0331", f"option `{opt.name}` lists the choice `{twice[0]}` twice", opt.type_span,
                       "a choice listed twice", "list each choice once")
        default = opt.default
        value = default_value(opt)
        if value is _NOT_PLAIN:
            self.error("E0332", "an option's default must be a plain value", default.span)
            return
        ok = option_value_ok(opt, value)
        if not ok:
            self.error("E0333", f"default `{_value_text(value)}` is not allowed for option `{opt.name}`",
                       default.span, "not an allowed value", f"allowed: {option_allowed(opt)}")

    def _check_event(self, event: n.EventDecl):
        t = self.t
        frame, scope = self._activation(event.params, "event")
        # Reserved slots for the reaction window, in this order: cancelled flag, askers, position.
        t.slots[id(event)] = frame.new_slot()
        frame.new_slot()
        frame.new_slot()
        for part in event.prompt:
            if not isinstance(part, str):
                self.expr(part, scope.child("offer"))
        self.block(event.body, scope.child())
        for reaction in t.reactions.get(event.name, []):
            inner = scope.child("reaction")
            by = self.expr(reaction.by, scope.child("offer"))
            if not (fits(PLAYER, by) or fits(list_of(PLAYER), by)):
                self._mismatch(reaction.by, list_of(PLAYER), by)
            t.slots[id(reaction)] = inner.declare(reaction.var, PLAYER)
            self._alternatives(reaction.alternatives, inner, reserved={"pass"})
        for handler in t.handlers.get(event.name, []):
            self.block(handler.body, scope.child())
        t.frames[id(event)] = frame.size

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
        nothing changes between its calls: E0405."""
        graph = self._define_calls
        for name in sorted(graph):
            chain = _cycle(graph, name)
            if chain is None:
                continue
            self.t.recursive[name] = " -> ".join(chain)
            plain = [x for x in chain if self.t.defines[x].params is None]
            if plain and plain[0] == name:
                self.error("E0405", f"`{name}` calls itself through {' -> '.join(chain)}", self.t.defines[name].span,
                           "never ends", f"`{name}` has no parameters, so every call computes the same thing: "
                           "give it a parameter that changes, or use a procedure with a loop")

    # ---- types
    def _type_ref(self, ref: n.TypeRef) -> str:
        if ref.name in self.t.records:
            typ = record_type(ref.name)
        elif ref.name in TYPE_NAMES:
            typ = ref.name
        elif ref.name in self.t.card_attrs:  # `var trump: suit`: what the cards' `suit` holds
            typ = self.t.card_attrs[ref.name]
        else:
            self.error("E0205", f"unknown type `{ref.name}`", ref.span, "not a type", self._known_types(ref.name))
            return ANY
        for _ in range(ref.depth if ref.is_list else 0):
            typ = list_of(typ)
        return typ

    def _known_types(self, name: str) -> str:
        """E0205's hint: the closest type, else the types there are, records and card attributes
        (`var trump: suit`) named apart so that a long deck does not hide the built-in ones."""
        groups = {"types": set(TYPE_NAMES), "records": set(self.t.records),
                  "card attributes": set(self.t.card_attrs)}
        close = did_you_mean(name, set().union(*groups.values()))
        if close.startswith("did you mean"):
            return close
        return "; ".join(f"{label}: {', '.join(sorted(names))}" for label, names in groups.items() if names)

    def _mismatch(self, node, expected, actual):
        self.error("E0210", f"expected {describe(expected)}, found {describe(actual)}", node.span,
                   f"this is {describe(actual)}", self._symbol_and_card(node) or _mismatch_hint(node, expected, actual))

    def _symbol_and_card(self, node) -> str:
        """The hint for a name that is both a symbol and a card: it reads as the symbol."""
        if isinstance(node, n.Name) and self.t.resolved.get(id(node), (None,))[0] == "symbol" \
                and node.name in self._card_ids():
            return (f"`{node.name}` is both a card's name and an attribute value; a bare name reads as the value, "
                    f"so this card has no literal: find it by its attributes, or give its deck a `name:` that "
                    f"makes card names differ from attribute values")
        return ""

    _HIDING = {"global": "variable", "option": "option", "zone": "zone", "zones": "zone", "define": "definition"}

    def _symbol_hidden(self, node) -> str:
        """The hint for a name that reads as a declaration hiding the symbol of that name (W0408)."""
        kind = self.t.resolved.get(id(node), (None,))[0] if isinstance(node, n.Name) else None
        if kind not in self._HIDING or node.name not in self.t.symbols:
            return ""
        what = self._HIDING[kind]
        return (f"`{node.name}` here is the {what} of that name, which hides the symbol `{node.name}` (W0408): "
                f"rename the {what} to compare with the symbol")

    def _binder_range(self, b: n.Binder):
        """E0315 for `n in LOW..HIGH` with constant bounds wider than a decision may offer (the
        enumerator counts the values of other ranges as it walks them)."""
        low, high = _constant(b.low), _constant(b.high)
        if low is not None and high is not None and high - low + 1 > limits.MAX_BINDER_RANGE:
            self.error("E0315", f"`{b.name}` would take {high - low + 1:,} values; a decision offers at most "
                       f"{limits.MAX_BINDER_RANGE:,} moves", b.span, "range too wide",
                       "narrow the range, or ask in two decisions")

    def _several(self, b: n.Binder, source: str, item: str, scope) -> str:
        """`xs from J..K of SOURCE`: counts are numbers; E0323 for a count no domain can meet,
        E0324 for items without the order a move's text lists them in.  The binder's type."""
        for count in (b.fewest, b.most):
            if count is not None:
                self._expect(count, INT, scope)
        if not is_listlike(source):
            return list_of(ANY)  # already reported: not a list
        if item not in CHOOSABLE:
            self.error("E0324", f"`{b.name}` would choose several items at once, each {describe(item)}; only cards, players, numbers, symbols, texts and zones can be chosen together",
                       b.source.span, f"this is {describe(source)}",
                       "choose one item at a time (`x from LIST`), or build a list of cards, players or numbers")
            return list_of(item)
        most, fewest = _constant(b.most), _constant(b.fewest) if b.fewest is not None else None
        room = len(b.source.items) if isinstance(b.source, n.ListLit) else \
            len(self.t.cards) if source == ZONE or (is_list(source) and item == CARD) else None
        where = b.most.span if b.fewest is None else attrs.evolve(b.fewest.span, end_line=b.most.span.end_line,
                                                                      end_column=b.most.span.end_column)
        if most is not None and most < 0 or fewest is not None and fewest < 0:
            self.error("E0323", f"`{b.name}` cannot choose a negative number of items", where, "a negative count",
                       "write how many items to choose: `xs from 3 of hand[p]`, or `xs from 0..3 of hand[p]`")
        elif most is not None and fewest is not None and fewest > most:
            self.error("E0323", f"`{b.name}` would choose between {fewest} and {most} items, which is no count",
                       where, "the fewest is larger than the most", f"write the smaller count first: `{most}..{fewest}`")
        elif room is not None and (fewest if fewest is not None else most) is not None \
                and (fewest if fewest is not None else most) > room:
            what = "this list holds" if isinstance(b.source, n.ListLit) else "the game has"
            self.error("E0323", f"`{b.name}` would choose {fewest if fewest is not None else most} distinct items, "
                       f"but {what} only {room}", where, "more than there can be",
                       f"the alternative could never be offered; choose at most {room}")
        return list_of(item)

    def _expect(self, node, expected, scope) -> str:
        actual = self.expr(node, scope)
        if not self._fits_at(node, expected, actual):
            self._mismatch(node, expected, actual)
        elif expected == INT:
            self._names_for_a_number(node, actual)
        return actual

    def _names_for_numbers(self, e: n.Call, typer, types) -> None:
        """_names_for_a_number for each argument a built-in counts with (`abs(c.rank)`,
        `range(1, c.rank)`, `sum([c.rank for c in L])`): one where the built-in would refuse
        names, found by asking its typer about symbols (or a list of them) in that place."""
        for i, (arg, typ) in enumerate(zip(e.args, types)):
            names = list_of(SYMBOL) if is_list(typ) else SYMBOL
            try:
                typer(types[:i] + [names] + types[i + 1:])
            except BuiltinTypeError as err:
                if err.index == i:
                    self._names_for_a_number(arg, element(typ) if is_list(typ) else typ)

    def _names_for_a_number(self, node, actual) -> None:
        """E0230 where a number is needed (`repeat c.rank times`, `-c.rank`, `set total = c.rank`)
        and `node` reads a card attribute whose values include names: fits() lets it pass, since
        some of its values are numbers, and the first name would fault at run time."""
        if is_ordered(actual) and base_of(actual) != INT:
            attr = order_name(actual)
        elif isinstance(node, n.Attr) and self.t.card_attrs.get(node.name) == ANY:
            attr = node.name
        else:
            return
        self.error("E0230", f"`{attr}` mixes numbers and names, so it cannot stand for a number here", node.span,
                   "some values are names", self._mixed_hint(attr, "+", ordered=is_ordered(actual)))

    # ---- zones and lists: a zone stands for the list of its cards exactly where a list is
    # expected (docs/language.md, "Zones and lists"); constructs that walk cards (`for`,
    # quantifiers, `in`, indexing, built-ins, `move`) read a zone themselves.
    def _fits_at(self, node, expected, actual) -> bool:
        """fits(), and where a list is expected of a zone, the zone is read as its cards there."""
        if not fits(expected, actual):
            return False
        if actual == ZONE and is_list(expected):
            self._as_cards(node)
        return True

    def _as_cards(self, node):
        self.t.coerced[id(node)] = True
        self.t.types[id(node)] = list_of(CARD)

    def _symbol_hidden_among_symbols(self, items, types):
        """W0410 for `[a, b, c]` where `c` is a local name (a parameter `c: int`) but the other
        items are symbols: the author meant the symbol `c`, which the local hides (a card, player
        or team there is E0240, whose hint says the same)."""
        if SYMBOL not in types:
            return
        for item, typ in zip(items, types):
            if typ != SYMBOL and _identity(typ) not in (CARD, PLAYER, TEAM) and self._local_hiding_symbol(item):
                self.warn("W0410", f"`{item.name}` here is a local name, not the symbol `{item.name}`", item.span,
                          f"{describe(typ)}, among symbols", f"the local `{item.name}` (a parameter, `let` or "
                          "loop name) hides the symbol of that name; rename the local to write the symbol")

    def _local_hiding_symbol(self, node) -> bool:
        """`node` is a local name (parameter, `let`, loop name) spelt like a symbol of the game."""
        return isinstance(node, n.Name) and node.name in self.t.symbols and \
            self.t.resolved.get(id(node), ("",))[0] == "local"

    def _join_all(self, nodes, types, what: str) -> str:
        """The type of one value out of several (if/else branches, list items): zones among
        lists are read as their cards; a zone among other kinds of value would lose its name."""
        if ZONE in types and any(is_list(x) for x in types):
            for node, typ in zip(nodes, types):
                if typ == ZONE:
                    self._as_cards(node)
            types = [list_of(CARD) if x == ZONE else x for x in types]
        typ = NONE
        for x in types:
            typ = join(typ, x)
        typ = self._zones_kept(nodes, types, typ, what)
        if any(ZONE in x.split(":") for x in types):  # said by E0220
            return typ
        return self._kinds_kept(nodes, types, typ, what)

    def _kinds_kept(self, nodes, types, joined: str, what: str) -> str:
        """E0240 when a card, player or team (or a list of them) is joined with another kind of
        value (`[c, 3]`, `if x then seat(1) else 2`): a card is kept as a number, so it would then
        show and compare as one (`[17, 3]`)."""
        kept = _identity(joined)
        for node, typ in zip(nodes, types):
            kind = _identity(typ)
            # only a kind known to differ: a value of unknown type (a recursive definition's
            # call, checked before its own type is known) joins as before
            other = next((x for x in types if _identity(x) not in (kind, NONE, ANY)), None)
            if kind in (CARD, PLAYER, TEAM) and kind != kept and other is not None:
                hint = (f"a value keeps its kind only among values of that kind: {describe(typ)} here would "
                        "show and compare as a number; keep the kinds apart (a record with a field for each), "
                        f"or use what you need of it ({_PART_OF[kind]})")
                if other == SYMBOL and self._local_hiding_symbol(node):
                    hint = (f"`{node.name}` here is a local name (a parameter, `let` or loop name), which hides the "
                            f"symbol `{node.name}`: rename the local to write the symbol")
                self.error("E0240", f"{describe(typ)} and {describe(other)} in one {what}", node.span, describe(typ),
                           hint)
                return ANY
        return joined

    def _zones_kept(self, nodes, types, joined: str, what: str) -> str:
        """E0220 when joining values of different kinds would turn a zone into `any value`
        (`[stock, 3]`, `[[stock], [AS]]`): it would then show and compare as a number.
        E0224 likewise for a record, which would show as a list without its field names."""
        if "record:" in "".join(types) and _records_in(joined) != set().union(*map(_records_in, types)):
            node, typ = next((nd, x) for nd, x in zip(nodes, types) if not _records_in(x) <= _records_in(joined))
            other = next((x for x in types if x != typ and x != NONE), ANY)
            self.error("E0224", f"{describe(typ)} and {describe(other)} in one {what}", node.span, describe(typ),
                       "a value keeps its record type only among values of that type: make them all records, "
                       "or use one field of each (`m.points`)")
            return ANY
        if ZONE in joined.split(":") or not any(ZONE in x.split(":") for x in types):
            return joined
        node, typ = next((nd, x) for nd, x in zip(nodes, types) if ZONE in x.split(":"))
        other = next((x for x in types if x != typ and x != NONE), ANY)
        self.error("E0220", f"{describe(typ)} and {describe(other)} in one {what}", node.span, describe(typ),
                   "a value is either a zone or something else: to use a zone's cards write "
                   "`[c for c in ZONE]`, to use its size `count(ZONE)`")
        return ANY

    # ---- statements
    def block(self, stmts, scope):
        for s in stmts:
            self.stmt(s, scope)

    def stmt(self, s, scope: _Scope):
        t = self.t
        match s:
            case n.Let():
                typ = _settled(self.expr(s.value, scope))
                if s.name in scope.names:
                    self.error("E0303", f"`{s.name}` is already a local name here", s.span,
                               "declared again", f"use `set {s.name} = ...` to change it")
                t.slots[id(s)] = scope.declare(s.name, typ)
            case n.Set():
                self._set(s, scope)
            case n.Move():
                what = self.expr(s.what, scope)
                if not (fits(CARD, what) or fits(list_of(CARD), what)):
                    self._mismatch(s.what, CARD, what)
                self._expect(s.dest, ZONE, scope)
            case n.Deal():
                self._expect(s.count, INT, scope)
                if (rounds := _constant(s.count)) is not None and rounds < 0:
                    self.error("E0325", f"`deal` cannot deal a negative number of cards ({rounds})", s.count.span,
                               "expected a count of 0 or more",
                               "write how many cards each player gets: `deal 5 from stock to hand of players`")
                self._expect(s.source, ZONE, scope)
                zone = t.zones.get(s.zone) or self._refused_zones.get(s.zone)
                if zone is None:
                    self.error("E0203", f"unknown zone `{s.zone}`", s.zone_span, "not declared",
                               did_you_mean(s.zone, t.zones))
                elif not zone.per_player:
                    self.error("E0322", f"`deal` needs a per-player zone; `{s.zone}` is shared", s.zone_span,
                               hint="use `move top(SOURCE, N) to ZONE` for a shared zone")
                self._expect(s.players, list_of(PLAYER), scope)
            case n.Shuffle():
                self._expect(s.zone, ZONE, scope)
            case n.Reveal() | n.Hide():
                what = self.expr(s.what, scope)
                if not (fits(CARD, what) or fits(list_of(CARD), what)):
                    self._mismatch(s.what, CARD, what)
            case n.ShowTo():
                what = self.expr(s.what, scope)
                if not (fits(CARD, what) or fits(list_of(CARD), what)):
                    self._mismatch(s.what, CARD, what)
                whom = self.expr(s.player, scope)
                if whom == list_of(PLAYER):
                    self.error("E0210", f"expected a player, found {describe(whom)}", s.player.span,
                               f"this is {describe(whom)}", "`show` lets one player see: `for q in ... "
                               "{ show X to q }`; `reveal X` shows the whole table")
                elif not self._fits_at(s.player, PLAYER, whom):
                    self._mismatch(s.player, PLAYER, whom)
            case n.If():
                for cond, body in s.branches:
                    self._expect(cond, BOOL, scope)
                    self.block(body, scope.child())
                if s.orelse is not None:
                    self.block(s.orelse, scope.child())
            case n.For():
                source = self.expr(s.source, scope)
                if not is_listlike(source):
                    self._mismatch(s.source, list_of(ANY), source)
                inner = scope.child("loop")
                t.slots[id(s)] = inner.declare(s.var, element(source))
                inner.frame.new_slot()  # the list being walked
                inner.frame.new_slot()  # the position in it
                self.block(s.body, inner)
            case n.While():
                self._expect(s.cond, BOOL, scope)
                self.block(s.body, scope.child("loop"))
            case n.RepeatTimes():
                self._expect(s.count, INT, scope)
                t.slots[id(s)] = scope.frame.new_slot()
                self.block(s.body, scope.child("loop"))
            case n.RepeatUntil():
                inner = scope.child("loop")
                self.block(s.body, inner)
                self._expect(s.cond, BOOL, inner)
            case n.Loop():
                self.block(s.body, scope.child("loop"))
            case n.Break():
                if "loop" not in scope.context and "loop around" in scope.context:
                    self._leaves_simultaneous(s, "break", "`break` after it (`if done { break }`)")
                elif "loop" not in scope.context:
                    self.error("E0502", "`break` outside a loop", s.span)
            case n.Decide():
                self._decide(s, scope)
            case n.Simultaneous():
                source = self._expect(s.source, list_of(PLAYER), scope)
                inner = scope.child("simultaneous", *(["loop around"] if "loop" in scope.context else []))
                inner.context -= {"loop"}  # a body cannot leave a loop around the decision (E0560)
                t.slots[id(s)] = inner.declare(s.var, PLAYER)
                for _ in range(3):  # the players, the position, the collected choices
                    inner.frame.new_slot()
                actor = s.decide.actor
                if not (isinstance(actor, n.Name) and actor.name == s.var):
                    self.error("E0348", f"each player of `simultaneously for {s.var} in ...` decides for "
                               f"themselves: the decision is `decide {s.var}`", (actor or s.decide).span,
                               "another chooser" if actor is not None else "a table decision",
                               f"write `decide {s.var} \"...\" {{ ... }}`; one player deciding several times "
                               "in a row is a `for` loop of decisions")
                self._decide(s.decide, inner)
            case n.CallStmt():
                proc = t.procs.get(s.name)
                if proc is None and ("procs", s.name) in self._clashing:
                    for a in s.args:
                        self.expr(a, scope)
                elif proc is None:
                    hint = did_you_mean(s.name, t.procs)
                    if s.name in t.defines or s.name in BUILTINS:
                        hint = f"`{s.name}` computes a value; use it in an expression, e.g. `let x = {s.name}(...)`"
                    elif s.name in t.events:
                        hint = f"`{s.name}` is an event: it happens by `signal {s.name}(...)`"
                    elif s.name in t.phases:
                        hint = f"`{s.name}` is a phase: `next {s.name}` goes on to it"
                    elif s.name == "at":
                        hint = f"if this is the end of a `move`: {AT_POSITION_HINT}"
                    self.error("E0206", f"unknown procedure `{s.name}`", s.name_span, "not declared", hint)
                    for a in s.args:
                        self.expr(a, scope)
                else:
                    self._args(s, proc.params, s.args, scope, s.name)
                    leaves = self._leaving.get(s.name)
                    if leaves is not None and "event" in scope.context:
                        step, written_in = leaves
                        where = "" if written_in == s.name else f" in `{written_in}`"
                        self.error("E0503", f"`{s.name}` leaves the phase (`next {step.phase}` at line "
                                   f"{step.span.line}{where}), which an event cannot do", s.name_span,
                                   "called from an event",
                                   "an event returns to the phase it interrupted: set a variable in the event "
                                   "and act on it in the phase, or call a procedure without `next`")
            case n.Next():
                self._next_targets.add(s.phase)
                if s.phase not in t.phases and ("phases", s.phase) not in self._clashing:
                    self.error("E0207", f"unknown phase `{s.phase}`", s.span, "not declared",
                               did_you_mean(s.phase, t.phases))
                if "event" in scope.context:
                    self.error("E0503", "`next` cannot leave a phase from inside an event", s.span,
                               hint="set a variable in the event and act on it in the phase")
                elif "simultaneous" in scope.context:
                    self._leaves_simultaneous(s, "next", f"`if ... {{ next {s.phase} }}` after it")
            case n.EndGame():
                self._has_end = True
            case n.Signal():
                event = t.events.get(s.event)
                if event is None:
                    if ("events", s.event) not in self._clashing:
                        self.error("E0204", f"unknown event `{s.event}`", s.span, "not declared",
                                   did_you_mean(s.event, t.events))
                    for a in s.args:
                        self.expr(a, scope)
                else:
                    self._args(s, event.params, s.args, scope, s.event)
            case n.Cancel():
                if "reaction" not in scope.context:
                    self.error("E0504", "`cancel` is only allowed in a reaction", s.span,
                               hint="a reaction cancels the event it answers")
            case n.Return():
                if "procedure" not in scope.context:
                    self.error("E0505", "`return` is only allowed in a procedure", s.span)
                elif "simultaneous" in scope.context:
                    self._leaves_simultaneous(s, "return", "`if ... { return }` after it")
            case n.Log():
                for part in s.parts:
                    if not isinstance(part, str):
                        self.expr(part, scope.child("logged"))  # made only when someone reads it: no chance
            case _:
                raise AssertionError(f"unhandled statement {s!r}")

    def _leaves_simultaneous(self, s, word: str, instead: str):
        """E0560: the chosen bodies of a simultaneous decision run one after another once everyone
        has chosen; leaving in one would silently drop the moves the later players chose."""
        self.error("E0560", f"`{word}` inside a move of a simultaneous decision", s.span,
                   "the later players' moves would never run",
                   "every player's chosen move runs after all have chosen, one after another: set a variable "
                   f"in the move and act on it once all have run, with {instead}")

    def _set(self, s: n.Set, scope):
        t = self.t
        target = s.target
        local = scope.lookup(target.name)
        if local is not None:
            slot, typ = local
            t.resolved[id(target)] = ("local", slot)
        elif target.name in t.vars:
            var, typ = t.vars[target.name]
            t.resolved[id(target)] = ("global", target.name)
            if var.indexed and target.index is None:
                who = "player" if var.per_player else "team"
                self.error("E0211", f"`{target.name}` holds a value per {who}; say whose", target.span,
                           hint=f"write `set {target.name}[{'p' if var.per_player else 't'}] = ...`")
        elif target.name in t.options:
            self.error("E0507", f"option `{target.name}` cannot be changed during the game", target.span,
                       hint="copy it into a `var` first")
            return
        else:
            if target.name not in self._refused:
                self.error("E0201", f"unknown variable `{target.name}`", target.span, "not declared",
                           did_you_mean(target.name, set(t.vars) | scope.all_names()) or
                           f"declare it with `var {target.name} = ...`, or use `let` for a local")
            self.expr(s.value, scope)
            return
        if target.index is not None:
            index_type = self.expr(target.index, scope)
            var = t.vars[target.name][0] if target.name in t.vars and local is None else None
            if var is not None and var.indexed:
                self._row_index(var, target.index, index_type)
            elif is_list(typ):
                if not fits(INT, index_type):
                    self._mismatch(target.index, INT, index_type)
                typ = element(typ)
            else:
                self.error("E0212", f"`{target.name}` cannot be indexed", target.span)
        value = self.expr(s.value, scope)
        if s.op != "=":
            if not fits(INT, typ):
                joined = f"`set {target.name} = {target.name} {s.op[0]} ...`" + (
                    " (`+` joins two lists)" if is_list(typ) else "")
                self.error("E0210", f"`{s.op}` needs a number, and `{target.name}` is {describe(typ)}", s.span,
                           "not a number", f"write {joined}" if is_list(typ) or typ == TEXT else "")
            else:
                self._counted(s.value, value, s.op)
        elif typ == ANY and value == ZONE:
            self.error("E0220", f"a zone stored in `{target.name}`, which may hold any value", s.value.span, "a zone",
                       f"declare the variable's type, e.g. `var {target.name}: zone = none`, so the zone keeps its name")
        elif _identity(typ) == ANY and _identity(value) in (CARD, PLAYER, TEAM):
            kind = (f"declare the variable's type, e.g. `var {target.name}: {spelled(value)}`" if local is None else
                    f"a local takes the kind of its first value: start `{target.name}` with one, not `none`")
            self.error("E0240", f"{describe(value)} stored in `{target.name}`, which may hold any value", s.value.span,
                       describe(value), f"{kind}, so it keeps its kind (it would show and compare as a number)")
        elif typ == ANY and _records_in(value):
            self.error("E0224", f"{describe(value)} stored in `{target.name}`, which may hold any value", s.value.span,
                       describe(value), f"declare the variable's type, e.g. `var {target.name}: "
                       f"{spelled(value)}`, so the record keeps its field names")
        elif not self._fits_at(s.value, typ, value) and typ != ANY:
            self._mismatch(s.value, typ, value)
        elif typ == INT:
            self._names_for_a_number(s.value, value)
        elif local is None and target.name in t.vars and (target.index is None or t.vars[target.name][0].indexed) \
                and (attr := self._held_attribute(t.vars[target.name][0])) is not None:
            self._card_value(attr, s.value, f": `{target.name}` holds a {attr}")

    def _decide(self, s: n.Decide, scope: _Scope):
        offer = scope.child("offer")  # read whenever the moves are listed: no chance here
        if s.actor is not None:
            self._expect(s.actor, PLAYER, offer)
        for part in s.prompt:
            if not isinstance(part, str):
                self.expr(part, offer)
        self._alternatives(s.alternatives, scope, reserved=set())

    def _alternatives(self, alternatives, scope, reserved):
        names = set(reserved)
        for alt in alternatives:
            if alt.name in names:
                self.error("E0304", f"alternative `{alt.name}` appears twice in this decision", alt.span,
                           hint="`pass` is added to every reaction for you" if alt.name == "pass" else "")
            names.add(alt.name)
            inner = scope.child("offer")
            for b in alt.binders:
                if b.source is not None:
                    source = self.expr(b.source, inner)
                    if not is_listlike(source):
                        self._mismatch(b.source, list_of(ANY), source)
                    typ = element(source)
                    if b.several:
                        typ = self._several(b, source, typ, inner)
                else:
                    self._expect(b.low, INT, inner)
                    self._expect(b.high, INT, inner)
                    self._binder_range(b)
                    typ = INT
                if b.name in inner.names:  # the earlier binder could never be read
                    self.error("E0303", f"`{b.name}` is already a binder of `{alt.name}`", b.span,
                               "chosen again", "give each binder its own name, as in `give(q from players, c from hand[p])`")
                self.t.slots[id(b)] = inner.declare(b.name, typ)
            for call in alt.requires:
                self._used_rules.add(call.name)
                rule = self.t.rules.get(call.name)
                if rule is None:
                    self.error("E0208", f"unknown rule `{call.name}`", call.span, "not declared",
                               did_you_mean(call.name, self.t.rules))
                    # the rule it is a misspelling of is named here: not also "never used" (W0406)
                    self._used_rules.update(difflib.get_close_matches(call.name, sorted(self.t.rules), n=1,
                                                                      cutoff=0.6))
                    for a in call.args:
                        self.expr(a, inner)
                    continue
                self._args(call, rule.params, call.args, inner, call.name)
            body = inner.child()
            body.context = inner.context - {"offer"}  # a move's effects run once, when it is made
            self.block(alt.body, body)

    def _args(self, node, params, args, scope, name):
        """A call's arguments against the parameters of `name`; a mismatch names the parameter."""
        if len(params) != len(args):
            self.error("E0213", f"`{name}` takes {len(params)} argument(s), {len(args)} given", node.span)
        for param, arg in zip(params, args):
            want = self._type_ref(param.type)
            actual = self.expr(arg, scope)
            if not self._fits_at(arg, want, actual):
                self.error("E0210", f"expected {describe(want)}, found {describe(actual)}", arg.span,
                           f"this is {describe(actual)}", self._symbol_and_card(arg) or
                           _mismatch_hint(arg, want, actual) or self._param_hint(param, name, want, actual, arg))
        for arg in args[len(params):]:
            self.expr(arg, scope)

    def _param_hint(self, param: n.Param, name: str, want: str, actual: str, arg) -> str:
        """Which parameter wanted the value, as declared; for a value of a card attribute that mixes
        numbers and names (`rank`: 9, 10, J, ...), the attribute's own name as the type."""
        ref = param.type
        written = "list of " * (ref.depth if ref.is_list else 0) + ref.name
        where = f"line {param.span.line}" if param.span.path == arg.span.path else param.span.short
        said = f"the parameter `{param.name}` of `{name}` is declared `{written}` ({where})"
        if {want, actual} != {INT, SYMBOL}:
            return said
        value = arg.value if isinstance(arg, n.Literal) and arg.kind == "int" else \
            arg.name if isinstance(arg, n.Name) and self.t.resolved.get(id(arg), ("",))[0] == "symbol" else None
        mixed = [a for a in self.t.card_attrs if _mixes_numbers_and_names(self.t, a) and
                 any(c.attrs.get(a) == value for c in self.t.cards)]
        if value is None or not mixed:
            return said
        return (f"{said}; `{mixed[0]}` values mix numbers and names, so a parameter that takes them is declared "
                f"`{param.name}: {mixed[0]}`")

    # ---- expressions
    def expr(self, e, scope: _Scope) -> str:
        typ = self._expr(e, scope)
        self.t.types[id(e)] = typ
        return typ

    def _expr(self, e, scope: _Scope) -> str:
        t = self.t
        match e:
            case n.Literal():
                return {"int": INT, "text": TEXT, "bool": BOOL, "none": NONE}[e.kind]
            case n.Name():
                return self._name(e, scope)
            case n.Attr():
                obj = self.expr(e.obj, scope)
                if is_record(obj):
                    return self._field(e, record_name(obj))
                if not fits(CARD, obj):
                    self.error("E0210", f"only cards have attributes; this is {describe(obj)}", e.obj.span,
                               f"this is {describe(obj)}", _function_for_attribute(e.name, is_listlike(obj)))
                    return ANY
                if e.name == "name":
                    return TEXT
                if e.name not in t.card_attrs:
                    self.error("E0202", f"no card has an attribute `{e.name}`", e.name_span, "unknown attribute",
                               did_you_mean(e.name, set(t.card_attrs) | {"name"}))
                    return ANY
                return t.card_attrs[e.name]
            case n.Index():
                return self._index(e, scope)
            case n.Call():
                return self._call(e, scope)
            case n.Unary():
                if e.op == "not":
                    self._expect(e.operand, BOOL, scope)
                    return BOOL
                self._expect(e.operand, INT, scope)
                return INT
            case n.Binary():
                return self._binary(e, scope)
            case n.IfExpr():
                self._expect(e.cond, BOOL, scope)
                branches = (e.then, e.orelse)
                return self._join_all(branches, [self.expr(b, scope) for b in branches], "`if` expression")
            case n.Quant() | n.Best() | n.Comprehension() | n.Pattern():
                if isinstance(e, n.Pattern) and e.least is not None:
                    self._expect(e.least, INT, scope)  # read once, before the items
                source = self.expr(e.source, scope)
                if not is_listlike(source):
                    self._mismatch(e.source, list_of(ANY), source)
                inner = scope.child()
                t.slots[id(e)] = inner.declare(e.var, element(source))
                if isinstance(e, n.Quant):
                    self._expect(e.cond, BOOL, inner)
                    return INT if e.kind == "count" else BOOL
                if isinstance(e, n.Best):
                    self.t.types[id(e.key)] = self._keys(e.key, inner, f"`{e.kind} ... by`")
                    return list_of(element(source)) if e.kind == "sorted" else element(source)
                if isinstance(e, n.Pattern):
                    if e.kind == "runs":
                        self._key(e.key, inner, "`runs ... by`")
                    else:
                        self.expr(e.key, inner)
                    return list_of(list_of(element(source)))
                if e.cond is not None:
                    self._expect(e.cond, BOOL, inner)
                made = self.expr(e.expr, inner)
                return made if e.flat else list_of(made)
            case n.LetExpr():
                value = self.expr(e.value, scope)  # never set again: `none` stays none (it joins)
                inner = scope.child()
                t.slots[id(e)] = inner.declare(e.name, value)
                return self.expr(e.body, inner)
            case n.ListLit():
                # `[]` is a list of nothing yet: beside a list of melds it is one (`if .. then [] else [m]`)
                types = [self.expr(item, scope) for item in e.items]
                self._symbol_hidden_among_symbols(e.items, types)
                return list_of(self._join_all(e.items, types, "list"))
            case n.RecordLit():
                return self._record_lit(e, scope)
            case _:
                raise AssertionError(f"unhandled expression {e!r}")

    def _field(self, e: n.Attr, record: str) -> str:
        """`m.points`: the type of a field of a record value."""
        fields = dict(self.t.record_fields.get(record, ()))
        if e.name not in fields:
            self.error("E0221", f"`{record}` has no field `{e.name}`", e.name_span, "unknown field",
                       did_you_mean(e.name, fields) or f"the fields of `{record}`: " + ", ".join(fields))
            return ANY
        return fields[e.name]

    def _record_lit(self, e: n.RecordLit, scope) -> str:
        """`meld(cards: ..., points: ...)`: every field given once, each value of its field's type."""
        t = self.t
        if e.name not in t.records:
            for f in e.fields:
                self.expr(f.value, scope)
            if e.name in t.defines or e.name in BUILTINS:
                hint = f"`{e.name}` takes its arguments in order: drop the names before them"
            else:
                hint = did_you_mean(e.name, t.records) or "declare it first: `record NAME { FIELD: TYPE, ... }`"
            self.error("E0223", f"`{e.name}` is not a record, so its arguments cannot be named", e.name_span,
                       "values named by field", hint)
            return ANY
        fields = dict(t.record_fields.get(e.name, ()))
        given = {}
        for f in e.fields:
            actual = self.expr(f.value, scope)
            if f.name in given:
                self.error("E0223", f"field `{f.name}` is given twice", f.name_span, "given again",
                           f"the first value is at {given[f.name]}")
                continue
            given[f.name] = f.span
            if f.name not in fields:
                self.error("E0221", f"`{e.name}` has no field `{f.name}`", f.name_span, "unknown field",
                           did_you_mean(f.name, fields) or f"the fields of `{e.name}`: " + ", ".join(fields))
                continue
            want = fields[f.name]
            if not self._fits_at(f.value, want, actual):
                self.error("E0210", f"field `{f.name}` of `{e.name}` is {describe(want)}, found {describe(actual)}",
                           f.value.span, f"this is {describe(actual)}", self._symbol_and_card(f.value))
        missing = [name for name in fields if name not in given]
        if missing and set(given) <= set(fields):  # a misspelt field is reported once, as unknown
            listed = ", ".join(f"`{x}`" for x in missing)
            self.error("E0222", f"`{e.name}` needs {'a value' if len(missing) == 1 else 'values'} for {listed}",
                       e.name_span, "fields missing",
                       f"write every field: `{e.name}(" + ", ".join(f"{x}: ..." for x in fields) +
                       ")`; a field with no value yet can be `none`")
        return record_type(e.name)

    def _name(self, e: n.Name, scope) -> str:
        t = self.t
        local = scope.lookup(e.name)
        if local is not None:
            t.resolved[id(e)] = ("local", local[0])
            return local[1]
        if e.name in t.vars:
            var, typ = t.vars[e.name]
            t.resolved[id(e)] = ("global", e.name)
            if "teams" in scope.context:
                self.error("E0346", f"the teams are made before variables get their values, so they cannot read "
                           f"`{e.name}`", e.span, "not set yet",
                           "compute the teams from the seat, `player_count` and the options")
                return ANY
            if typ is None:
                self.error("E0214", f"variable `{e.name}` is used before it is declared", e.span,
                           hint="a variable's starting value may only use options and earlier variables")
                return ANY
            return list_of(typ) if var.indexed else typ
        if e.name in t.options:
            opt = t.options[e.name]
            t.resolved[id(e)] = ("option", e.name)
            return {"bool": BOOL, "int": INT}.get(opt.kind, SYMBOL)
        if e.name in t.zones:
            zone = t.zones[e.name]
            t.resolved[id(e)] = ("zones" if zone.per_player else "zone", e.name)
            return ZONES if zone.per_player else ZONE
        if e.name in self._refused_zones:
            t.resolved[id(e)] = ("error", e.name)
            return ZONES if self._refused_zones[e.name].per_player else ZONE
        if e.name in CONSTANTS:
            if e.name in TEAM_NAMES and t.teams is None:
                self._no_teams(f"`{e.name}` reads the teams", e.span)
            elif e.name in TEAM_NAMES and "teams" in scope.context:
                self._teams_not_made(e.name, e.span)
            t.resolved[id(e)] = ("constant", e.name)
            return CONSTANTS[e.name][0]
        if e.name in t.defines and t.defines[e.name].params is None:
            t.resolved[id(e)] = ("define", e.name)
            return self._define_type(e.name)
        if e.name in t.symbols:
            t.resolved[id(e)] = ("symbol", e.name)
            return SYMBOL
        card = self._card_ids().get(e.name)
        if card is not None:
            t.resolved[id(e)] = ("card", card)
            return CARD
        copies = _copies_hint(e.name, t)
        if e.name[0].isdigit() and _NUMBER_ELSEWHERE.match(e.name) and not copies:
            self.error("E0217", f"`{e.name}` is neither a card nor a number", e.span, "not a number of this language",
                       f"a number is written in decimal digits alone (`{_plain_number(e.name)}`): no `_` between "
                       "digits, no `0x`, `0o` or `0b`, no exponent")
            t.resolved[id(e)] = ("error", e.name)
            return ANY
        if e.name[0].isdigit():  # only a card literal starts with a digit
            self.error("E0217", f"`{e.name}` is not a card", e.span, "no card has this name",
                       copies or did_you_mean(e.name, self._card_ids()) or _card_examples(t))
            t.resolved[id(e)] = ("error", e.name)
            return ANY
        constants = {c for c in CONSTANTS if t.teams is not None or c not in TEAM_NAMES}
        candidates = scope.all_names() | set(t.vars) | set(t.options) | set(t.zones) | t.symbols \
            | set(t.defines) | constants
        hint = _seat_hint(e.name) or _winners_hint(e.name) or _spelling_of_constants(e.name) or \
            did_you_mean(e.name, candidates)
        if e.name in t.defines:
            hint = f"`{e.name}` takes arguments: `{e.name}(...)`"
        elif copies:
            hint = copies
        elif not hint:
            hint = did_you_mean(e.name, self._card_ids())
        if not copies and (not hint or hint.startswith("known:") or _weak_match(e.name, hint) or
                           _suggests_symbol(hint, t.symbols)):  # a new author's word for a kind of thing
            symbols = "a bare word is a symbol only when a deck attribute or a `one of` option lists it"
            hint = f"{hint} ({symbols})" if hint.startswith("did you mean") else \
                symbols + (f"; {hint}" if hint else "")
        if e.name not in self._refused:
            self.error("E0201", f"unknown name `{e.name}`", e.span, "not declared here", hint)
        t.resolved[id(e)] = ("error", e.name)
        return ANY

    def _card_ids(self) -> dict:
        """Card name -> card id, for card literals (`QS`, `2C`); built once all decks are read."""
        ids = getattr(self, "_card_id_table", None)
        if ids is None or len(ids) != len(self.t.cards):
            ids = self._card_id_table = {c.name: i for i, c in enumerate(self.t.cards)}
        return ids

    def _define_type(self, name: str) -> str:
        if self._current_define is not None:
            self._define_calls.setdefault(self._current_define, set()).add(name)
        define = self.t.defines[name]
        cached = self.t.types.get(id(define.body))
        if cached is not None:
            return cached
        guesses = self.__dict__.setdefault("_guesses", {})
        if getattr(self, "_typing", set()) and name in self._typing:
            # a recursive call: the type found so far; at first `none`, which joins with whatever the
            # other branch gives (`if empty(ms) then plan(...) else better(skip, ...)` is a plan)
            guesses.setdefault(name, NONE)
            return guesses[name]
        self._typing = getattr(self, "_typing", set()) | {name}
        outer, self._current_define = self._current_define, name
        mark = len(self.diags)
        for _ in range(3):  # a recursive definition: again, with its own type as found, until it settles
            # a fresh frame each time, so its local names get the same slots as in every other check
            _frame, scope = self._activation(define.params or (), "pure")
            typ = self.expr(define.body, scope)
            if name not in guesses or guesses[name] == typ:
                break
            guesses[name] = typ
        del self.diags[mark:]  # reported once, when the definition itself is checked
        self._current_define = outer
        self._typing = self._typing - {name}
        return typ

    def _index(self, e: n.Index, scope) -> str:
        obj = self.expr(e.obj, scope)
        idx = self.expr(e.index, scope)
        if obj == ZONES:
            if not fits(PLAYER, idx):
                self._mismatch(e.index, PLAYER, idx)
            return ZONE
        resolved = self.t.resolved.get(id(e.obj))
        if resolved and resolved[0] == "global" and self.t.vars[resolved[1]][0].indexed:
            self._row_index(self.t.vars[resolved[1]][0], e.index, idx)
            return element(obj)
        if isinstance(e.obj, n.Name) and e.obj.name in self._refused:
            return ANY  # refused by E0302: what it holds, and by what it is indexed, is unknown
        if is_list(obj) or obj in (ZONE, ANY):
            if not fits(INT, idx):
                self._mismatch(e.index, INT, idx)
            return element(obj)
        self.error("E0212", f"{describe(obj)} cannot be indexed", e.obj.span, f"this is {describe(obj)}")
        return ANY

    def _row_index(self, var: n.VarDecl, index, index_type: str):
        """A per-player variable is indexed by a player, a per-team one by a team."""
        want = PLAYER if var.per_player else TEAM
        if fits(want, index_type):
            return
        hint = ""
        if want == TEAM and index_type == PLAYER:
            hint = f"`{var.name}` holds a value per team: write `{var.name}[team(...)]` for a player's team"
        elif want == PLAYER and index_type == TEAM:
            hint = f"`{var.name}` holds a value per player: walk the team's seats with `members(...)`"
        self.error("E0210", f"expected {describe(want)}, found {describe(index_type)}", index.span,
                   f"this is {describe(index_type)}", hint)

    def _call(self, e: n.Call, scope) -> str:
        t = self.t
        if e.func in t.defines:
            define = t.defines[e.func]
            params = define.params or ()
            if define.params is None:
                self.error("E0213", f"`{e.func}` takes no arguments; write it without parentheses", e.span)
            self._args(e, params, e.args, scope, e.func)
            return self._define_type(e.func)
        if e.func in ORDER_FUNCTIONS:
            types = [self.expr(a, scope) for a in e.args]
            if len(types) != 1:
                self.error("E0213", f"`{e.func}` takes 1 argument(s), {len(types)} given", e.span)
            elif not is_ordered(types[0]):
                self.error("E0230", f"`{e.func}` needs a value of an ordered attribute, found {describe(types[0])}",
                           e.args[0].span, "no declared order", "declare the attribute `ordered` in its deck "
                           "(`ordered rank: 2, 3, ..., A`) and pass one of its values (`place(c.rank)`)")
            return INT
        if e.func in CHANCE and not {"pure", "offer", "logged"}.isdisjoint(scope.context):
            self.error("E0218", f"`{e.func}` draws by chance, which only a statement may do", e.func_span,
                       "not in an expression asked of the game (`eval`, `watch`, `break when`)"
                       if "asked" in scope.context else
                       "not in a log line, which is written only when someone reads the log"
                       if "logged" in scope.context else
                       "not in a rule, definition, score or the listing of a decision's moves",
                       "draw it into a variable first: `let x = random(...)` in a phase, procedure or move body")
        if e.func in TEAM_NAMES and t.teams is None:
            self._no_teams(f"`{e.func}` reads the teams", e.func_span)
        elif e.func in TEAM_NAMES and "teams" in scope.context:
            self._teams_not_made(e.func, e.func_span)
        if e.func in BUILTINS:
            low, high, typer, _ = BUILTINS[e.func]
            types = [self.expr(a, scope) for a in e.args]
            if not low <= len(types) <= high:
                count = f"{low}" if low == high else f"{low} to {high}"
                self.error("E0213", f"`{e.func}` takes {count} argument(s), {len(types)} given", e.span)
                return ANY
            if e.func in ("max", "min", "sorted") and len(types) == 1 and is_ordered(element(types[0])) \
                    and base_of(element(types[0])) != INT:
                attr = order_name(element(types[0]))
                self.error("E0230", f"`{e.func}(L)` orders numbers; these are `{attr}` values", e.args[0].span,
                           "values in an order", f"order the cards by it: `{e.func} x in L by x.{attr}`")
                return ANY
            try:
                typed = typer(types)
                self._names_for_numbers(e, typer, types)
                return typed
            except BuiltinTypeError as err:
                arg = e.args[err.index]
                sort_cards = e.func in ("sorted", "max", "min") and element(types[err.index]) == CARD
                self.error("E0210", f"`{e.func}` expects {err.expected}, found {describe(types[err.index])}",
                           arg.span, f"this is {describe(types[err.index])}",
                           f"to order cards, give a key: `{e.func} x in ... by x.rank` (by an `ordered` attribute "
                           "or a number)" if sort_cards else err.hint or
                           _mismatch_hint(arg, PLAYER if err.expected == "a player" else ANY, types[err.index]))
                return ANY
        if e.func in t.records:
            fields = [x for x, _ in t.record_fields.get(e.func, ())]
            self.error("E0223", f"a `{e.func}` is made by naming its fields", e.func_span, "values without field names",
                       f"write `{e.func}(" + ", ".join(f"{x}: ..." for x in fields) + ")`")
            for a in e.args:
                self.expr(a, scope)
            return record_type(e.func)
        if e.func in t.rules:
            self.error("E0215", f"`{e.func}` is a rule; rules are named in a decision's `requires`", e.func_span,
                       hint="to reuse the condition as a value, write it as a `define`")
        elif e.func in t.procs:
            self.error("E0215", f"`{e.func}` is a procedure and gives no value", e.func_span,
                       hint="call it as a statement of its own")
        elif e.func in t.zones or e.func in t.vars or e.func in t.options:
            kind = "a zone" if e.func in t.zones else "a variable" if e.func in t.vars else "an option"
            self.error("E0215", f"`{e.func}` is {kind}, not a function", e.func_span, "cannot be called",
                       f"index it with `{e.func}[...]`" if kind != "an option" else "use it without parentheses")
        else:
            self.error("E0209", f"unknown function `{e.func}`", e.func_span, "not declared",
                       OTHER_LANGUAGES_FUNCTIONS.get(e.func) or did_you_mean(e.func, set(t.defines) | set(BUILTINS)))
        for a in e.args:
            self.expr(a, scope)
        return ANY

    def _binary(self, e: n.Binary, scope) -> str:
        op = e.op
        if op in ("and", "or"):
            self._expect(e.left, BOOL, scope)
            self._expect(e.right, BOOL, scope)
            return BOOL
        left = self.expr(e.left, scope)
        right = self.expr(e.right, scope)
        if op in ("in", "notin"):
            if not is_listlike(right):
                self._mismatch(e.right, list_of(left), right)
            elif not (fits(element(right), left) or fits(left, element(right))):
                self._mismatch(e.left, element(right), left)
            elif isinstance(e.right, n.ListLit):
                for item in e.right.items:
                    self._value_no_card_has(e.left, item, None)
            return BOOL
        if op in ("==", "!="):
            for node, typ, other in ((e.left, left, right), (e.right, right, left)):
                if typ == ZONE and is_list(other):
                    self._as_cards(node)
                    left, right = (list_of(CARD), right) if node is e.left else (left, list_of(CARD))
            if not (fits(left, right) or fits(right, left)):
                self.error("E0216", f"comparing {describe(left)} with {describe(right)} is always "
                           f"{'false' if op == '==' else 'true'}", e.span, "different kinds of value",
                           self._symbol_and_card(e.left) or self._symbol_and_card(e.right)
                           or self._symbol_hidden(e.left) or self._symbol_hidden(e.right))
            else:
                self._value_no_card_has(e.left, e.right, op == "==")
                self._value_no_card_has(e.right, e.left, op == "==")
            return BOOL
        if op in ("<", "<=", ">", ">="):
            if is_ordered(left) or is_ordered(right):
                self._in_one_order(((e.left, left), (e.right, right)), f"`{op}`")
                return BOOL
            for side, typ in ((e.left, left), (e.right, right)):
                if not fits(INT, typ):
                    self._mismatch(side, INT, typ)
                else:
                    self._mixed_attribute(side, op)
            return BOOL
        if op == "+" and TEXT in (left, right):
            return TEXT
        if op == "+" and (is_list(left) or is_list(right) or left == right == ZONE):
            sides = [(e.left, left), (e.right, right)]
            if not all(is_list(x) or x in (ZONE, NONE, ANY) for _, x in sides):  # none: no list (a recursive guess)
                self.error("E0210", "`+` joins two lists; put a single value in brackets", e.span)
                return ANY
            for node, typ in sides:
                if typ == ZONE:
                    self._as_cards(node)
            types = [list_of(CARD) if x == ZONE else x for _, x in sides]
            return self._zones_kept((e.left, e.right), types, join(*types), "`+`")
        for side, typ in ((e.left, left), (e.right, right)):
            self._counted(side, typ, op)
        return INT

    def _counted(self, side, typ, op: str) -> None:
        """E0210/E0230 unless `side` is a number `op` can count with: an ordered name or an
        attribute mixing numbers and names would fault at run time."""
        if not fits(INT, typ):
            self._mismatch(side, INT, typ)
        elif is_ordered(typ) and base_of(typ) != INT:
            attr = order_name(typ)
            self.error("E0230", f"`{attr}` values are ordered, not counted, so `{op}` cannot use them",
                       side.span, "some values are names", self._mixed_hint(attr, op, ordered=True))
        else:
            self._mixed_attribute(side, op)

    def _value_no_card_has(self, attr, value, equal: bool | None) -> None:
        """W0409: `c.suit == K` or `c.rank in [1, J]` names a value no card has (a typo, or the
        wrong attribute), so the test never holds for it; `equal` None is an item of `in [...]`."""
        if isinstance(attr, n.Attr) and self.t.types.get(id(attr.obj)) == CARD:
            always = "" if equal is None else f": this test is always {'false' if equal else 'true'}"
            self._card_value(attr.name, value, always)

    def _held_attribute(self, var) -> str | None:
        """The card attribute a variable is declared to hold (`var trump: suit`), if any."""
        ref = var.type
        if ref is None or ref.is_list or ref.name in self.t.records or ref.name in TYPE_NAMES:
            return None
        return ref.name if ref.name in self.t.card_attrs else None

    def _card_value(self, attr: str, value, said: str) -> None:
        """W0409 when `value` is a constant that no card has as its `attr`."""
        constant = _order_constant(self.t, value)
        held = [c.attrs[attr] for c in self.t.cards if c.attrs.get(attr) is not None]
        if constant is _NOT_PLAIN or constant is None or not held or constant in held:
            return
        present = list(dict.fromkeys(held))
        shown = ", ".join(orders.value_text(v) for v in present[:20]) + (", ..." if len(present) > 20 else "")
        self.warn("W0409", f"no card has {attr} {orders.value_text(constant)}{said}", value.span,
                  f"not a {attr}", f"the {attr} values are {shown}")

    def _mixed_attribute(self, side, op):
        """E0230: `c.rank > 10` where `rank` mixes numbers and names would fault at run time."""
        if isinstance(side, n.Attr) and self.t.card_attrs.get(side.name) == ANY:
            self.error("E0230", f"`{side.name}` mixes numbers and names, so `{op}` cannot use it", side.span,
                       "some cards' values are names", self._mixed_hint(side.name, op))

    def _mixed_hint(self, attr: str, op: str, ordered: bool = False) -> str:
        """An order lets `<` compare names, never `+` count them: arithmetic needs numbers, the
        ones an `attribute ... from` already gives when the script has one."""
        if op in ("+", "-", "*", "/", "%", "+=", "-=", "*=", "/=", "%="):
            counted = [a.name for a in self.t.number_attributes.values() if a.source == attr]
            if counted:
                return f"count `c.{counted[0]}` instead, the numbers `attribute {counted[0]} from {attr}` gives"
            numbers = f"give them numbers beside the deck (`attribute points from {attr}: J = 10, ...`) and count " \
                      "those (`c.points`)"
            if ordered:
                return f"count places in the order, `place(c.{attr})` (0 for the lowest), or {numbers}"
            return f"{numbers}, or test the names first (`if c.{attr} == A then 11 else c.{attr}`)"
        return (f"declare its order in the deck (`ordered {attr}: 2, 3, ..., A`), or test the "
                f"names first (`if c.{attr} == A then 11 else c.{attr}`)")

    def _in_one_order(self, sides, what: str) -> None:
        """E0230 unless every ordered side follows the same order and every other side is a value
        of it (a constant is looked up now: `c.rank > 11` with ranks 2..A is caught here)."""
        kinds = [typ for _, typ in sides if is_ordered(typ)]
        attr = order_name(kinds[0])
        other = next((typ for typ in kinds if order_name(typ) != attr), None)
        if other is not None:
            self.error("E0230", f"{what} compares `{attr}` with `{order_name(other)}`, which follow different "
                       "orders", sides[0][0].span, "two orders",
                       f"compare values of one attribute (`c.{attr} > d.{attr}`)")
            return
        values = self.t.orders[attr]
        kinds_of_values = {INT if type(v) is int else SYMBOL for v in values} | {ANY, NONE}
        for node, typ in sides:
            if is_ordered(typ):
                continue
            if isinstance(node, n.Attr) and node.name != attr and node.name in self.t.card_attrs \
                    and not is_record(self.t.types.get(id(node.obj), ANY)):
                self.error("E0230", f"{what} compares `{attr}` with `{node.name}`, which has no place in its "
                           "order", node.span, "another attribute", f"compare values of one attribute "
                           f"(`c.{attr} > d.{attr}`)")
                continue
            if typ not in kinds_of_values:
                self._mismatch(node, kinds[0], typ)
                continue
            value = _order_constant(self.t, node)
            if value is not _NOT_PLAIN and value not in values:
                self.error("E0230", f"{orders.value_text(value)} has no place in the order of `{attr}`", node.span,
                           f"not a {attr}", "the order is " + ", ".join(orders.value_text(v) for v in values))

    def _display_key(self, attr: str, span) -> None:
        """`shown by suit, rank`: each a card attribute with an order (declared, or numbers)."""
        typ = self.t.card_attrs.get(attr)
        if typ is None:
            placed = "`shown as placed` keeps the zone's own order" if attr == "placed" else ""
            self.error("E0202", f"no card has an attribute `{attr}`", span, "unknown attribute",
                       placed or did_you_mean(attr, set(self.t.card_attrs)))
        elif typ != INT and not is_ordered(typ):
            self.error("E0230", f"`shown by {attr}`: the values of `{attr}` have no order", span, "no order",
                       self._order_hint(attr, span))

    def _order_hint(self, attr: str, span, use: str = "") -> str:
        """How to give `attr` an order: `ordered` in its deck, or, written here (the deck may be an
        included library's), a number attribute listing its values."""
        values = list(dict.fromkeys(c.attrs[attr] for c in self.t.cards if c.attrs.get(attr) is not None))
        names = [v for v in values if type(v) is not int]
        numbered = ", ".join(f"{orders.value_text(v)} = {i}" for i, v in enumerate(names, 1))
        deck = next((d for d in self.t.decks if any(a == attr for a, _ in d.dimensions)), None)
        own = deck is None or deck.span.path == span.path
        where = "its deck" if own else f"its deck (in the included {deck.span.short})"
        return (f"declare it `ordered {attr}: ...` in {where}, or number its values{'' if own else ' here'}: "
                f"`attribute {attr}_order from {attr}: {numbered}` and `{use or 'shown by ' + attr + '_order'}`")

    def _keys(self, key, scope, what: str) -> str:
        """`by KEY`, or several keys written as a list (`by [x.suit, x.rank]`), the first deciding first."""
        if isinstance(key, n.ListLit) and key.items:
            for item in key.items:
                self._key(item, scope, what)
            return list_of(ANY)
        return self._key(key, scope, what)

    def _key(self, key, scope, what: str) -> str:
        """A key to order by (`max x in L by KEY`): a number or a value of an ordered attribute."""
        typ = self.expr(key, scope)
        if is_ordered(typ):
            return typ
        if not fits(INT, typ):
            if typ == SYMBOL:
                attr = key.name if isinstance(key, n.Attr) and key.name in self.t.card_attrs else None
                self.error("E0230", f"{what} orders by {describe(typ)}, which has no order", key.span,
                           "no order", self._order_hint(attr, key.span, f"by {key.obj.name if isinstance(key.obj, n.Name) else 'x'}.{attr}_order") if attr else
                           "declare the attribute `ordered` in its deck, or order by a number")
            elif typ == BOOL:
                self.error("E0210", f"expected a number, found {describe(typ)}", key.span,
                           f"this is {describe(typ)}", "true/false has no order: to put what passes first, "
                           "order by a number, e.g. `(if CONDITION then 0 else 1)`")
            elif is_list(typ):
                self.error("E0210", f"expected a number, found {describe(typ)}", key.span,
                           f"this is {describe(typ)}", "several keys are written as a list right after `by`: "
                           "`by [x.suit, x.rank]`")
            else:
                self._mismatch(key, INT, typ)
        else:
            self._mixed_attribute(key, what)
        return typ


_PART_OF = {CARD: "`c.rank`, `c.name`", PLAYER: "`number(p)`", TEAM: "`number(t)`"}


def _identity(t: str) -> str:
    """The kind of the innermost items of a type (`list:list:card`: card)."""
    while is_list(t):
        t = element(t)
    return t


_DECL_KIND = {
    n.OptionDecl: "options", n.ZoneDecl: "zones", n.VarDecl: "vars", n.DefineDecl: "defines",
    n.RuleDecl: "rules", n.ProcDecl: "procs", n.PhaseDecl: "phases", n.EventDecl: "events",
    n.RecordDecl: "records",
}
# words never read as a name in an expression (language.md §21), and the fields of the nodes
# that make a name
STRICTLY_RESERVED = frozenset(("true", "false", "none", "if", "not", "any", "all", "no", "count", "max", "min",
                               "sorted", "groups", "runs"))
_NAME_MADE = {
    **{kind: "name" for kind in _DECL_KIND}, n.Let: "name", n.LetExpr: "name", n.Param: "name", n.Binder: "name",
    n.RecordField: "name", n.For: "var", n.Quant: "var", n.Best: "var", n.Pattern: "var", n.Comprehension: "var",
    n.Simultaneous: "var", n.ReactionDecl: "var", n.ScoreDecl: "var", n.MeasureDecl: "var", n.TeamsDecl: "var",
}
_KIND_WORD = {"options": "option", "zones": "zone", "vars": "variable", "defines": "definition", "rules": "rule",
              "procs": "procedure", "phases": "phase", "events": "event", "records": "record"}


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


def _cycle(graph: dict, start: str) -> list | None:
    """The shortest chain of calls from `start` back to itself (`[a, b, a]`), or None."""
    parent, queue = {}, [start]
    for name in queue:
        for callee in sorted(graph.get(name, ())):
            if callee == start:
                chain = [name]
                while chain[-1] != start:
                    chain.append(parent[chain[-1]])
                return [start] + chain[::-1][1:] + [start] if name != start else [start, start]
            if callee not in parent and callee != start:
                parent[callee] = name
                queue.append(callee)
    return None


def _weak_match(name: str, hint: str) -> bool:
    """Whether a `did you mean` names a word only loosely like `name` (`heads` -> `teams`): the
    author more likely meant a symbol than mistyped that name."""
    if not hint.startswith("did you mean `"):
        return False
    close = hint[len("did you mean `"):].split("`")[0]
    return difflib.SequenceMatcher(None, name, close).ratio() < 0.7 and not close.startswith(name[:2])


def _suggests_symbol(hint: str, symbols) -> bool:
    """Whether a `did you mean` names a symbol (`assassinate` -> `assassin`): a word meant as
    another symbol is as likely as a typo, so how symbols are made is said too."""
    return hint.startswith("did you mean `") and hint[len("did you mean `"):].split("`")[0] in symbols


def _mixes_numbers_and_names(t: Tables, attr: str) -> bool:
    """Do the cards' values of `attr` mix numbers and names (a rank: 2, ..., 10, J, Q, K, A)?"""
    kinds = {isinstance(c.attrs[attr], int) for c in t.cards if attr in c.attrs}
    return kinds == {True, False}


def _copies_hint(name: str, t: Tables) -> str:
    """`QS` in a deck of two copies, `QSa` and `QSb`: the cards named `name` and one more part
    (an attribute's value, or the `.N` of a copied card), and how to test for any of them by the
    attributes they share."""
    found = [c for c in t.cards if c.name.startswith(name) and len(c.name) > len(name) and
             (c.name[len(name):] in {str(v) for v in c.attrs.values()} or
              (c.name[len(name)] == "." and c.name[len(name) + 1:].isdigit()))]
    if not found:
        return ""
    listed = ", ".join(f"`{c.name}`" for c in found[:4]) + (", ..." if len(found) > 4 else "")
    shared = [(a, v) for a, v in found[0].attrs.items() if t.card_attrs.get(a) != TEXT and
              all(c.attrs.get(a) == v for c in found)]
    test = " and ".join(f"x.{a} == {_value_text(v)}" for a, v in shared)
    either = f"; for any of them, test what they share: `any x in hand[p] where {test}`" if test and \
        len(found) > 1 else ""
    return f"no card is named `{name}`, but {listed} {'are' if len(found) > 1 else 'is'}: name one{either}"


# how other languages write numbers: `5_000`, `0x10`, `0b101`, `1e3` (no card is named so, or E0217 says
# it is no card as for any other name)
_NUMBER_ELSEWHERE = re.compile(r"^(\d+(_\d+)+|0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|\d+[eE]\d+)$")


def _plain_number(written: str) -> str:
    """`5_000` -> `5000`, `0x10` -> `16`, `1e3` -> `1000`: the number as this language writes it."""
    plain = written.replace("_", "")
    base = {"x": 16, "o": 8, "b": 2}.get(plain[1:2].lower()) if plain[:1] == "0" else None
    if base:
        return str(int(plain[2:], base)) if plain[2:] else "0"
    if "e" in plain.lower():
        mantissa, exponent = plain.lower().split("e")
        return str(int(mantissa) * 10 ** min(int(exponent), 18))
    return plain


def _card_examples(t: Tables) -> str:
    """A hint naming a few cards that do have literals."""
    names = [c.name for c in t.cards if c.name.replace("_", "a").isalnum()][:3]
    if not t.cards:
        return "this game declares no cards"
    if not names:
        return "no deck's cards have names that can be written as literals"
    return "cards are written by their names, e.g. " + ", ".join(f"`{x}`" for x in names)


def _function_for_attribute(name: str, listlike: bool) -> str:
    """`players.count`, `hand[p].length`: what a list or zone is asked is a function of it."""
    if listlike and name in ("count", "length", "len", "size"):
        return "the number of items is a function of the list: `count(L)`"
    if listlike and name in ("first", "last", "top", "bottom", "empty", "sum", "max", "min", "reverse"):
        return f"`{name}` is a function of the list: `{name}(L)`"
    return ""


def _spelling_of_constants(name: str) -> str:
    """`True`, `None`, `null`: the language's `true`, `false` and `none` are written in lower case."""
    meant = {"true": "true", "false": "false", "none": "none", "null": "none", "nil": "none"}.get(name.lower())
    return f"write `{meant}`" if meant and name != meant else ""


def _seat_hint(name: str) -> str:
    """`P0`..`P63` are how seats are shown, not names a script can use."""
    if len(name) > 1 and name[0] == "P" and name[1:].isdigit():
        return f"seats are shown as {name} but written `seat({name[1:]})` in a script"
    return ""


def _winners_hint(name: str) -> str:
    """`winners: lowest` means `winners: lowest score`."""
    if name in ("lowest", "highest"):
        return f"to rank players by their scores write `winners: {name} score`"
    return ""


def _settled(t: str) -> str:
    """A variable that starts as `none` (or `[]`, a list of nothing yet) may later hold anything
    (a list of anything)."""
    if t == NONE:
        return ANY
    return list_of(_settled(element(t))) if is_list(t) else t


def _records_in(t: str) -> set:
    """The record types a type holds (`list:record:meld` holds `meld`)."""
    parts = t.split(":")
    return {parts[i + 1] for i, x in enumerate(parts[:-1]) if x == "record"}



def _terminates(stmts) -> bool:
    """Does every path through these statements end in `next` or `end game`?"""
    for s in stmts:
        if isinstance(s, (n.Next, n.EndGame)):
            return True
        if isinstance(s, n.If) and s.orelse is not None and all(_terminates(b) for _, b in s.branches) \
                and _terminates(s.orelse):
            return True
        if isinstance(s, n.Loop) and not _breaks(s.body):
            return True
        if isinstance(s, n.Decide) and all(_terminates(a.body) for a in s.alternatives):
            return True
    return False


def _breaks(stmts) -> bool:
    for s in stmts:
        if isinstance(s, n.Break):
            return True
        for body in _nested_bodies(s, into_loops=False):
            if _breaks(body):
                return True
    return False


def _statements(stmts):
    """Every statement of a block, those nested in branches, alternatives and loops included."""
    for s in stmts:
        yield s
        for body in _nested_bodies(s, into_loops=True):
            yield from _statements(body)


def _leaving_phase(procs: dict) -> dict:
    """Procedure name -> (a `next` that a call of it runs, the procedure it is written in: itself
    or one it calls); an event may not call these (E0503)."""
    leaving = {name: next(((s, name) for s in _statements(p.body) if isinstance(s, n.Next)), None)
               for name, p in procs.items()}
    calls = {name: [s.name for s in _statements(p.body) if isinstance(s, n.CallStmt) and s.name in procs]
             for name, p in procs.items()}
    changed = True
    while changed:
        changed = False
        for name in procs:
            if leaving[name] is None:
                leaving[name] = next((leaving[c] for c in calls[name] if leaving[c] is not None), None)
                changed = changed or leaving[name] is not None
    return {name: s for name, s in leaving.items() if s is not None}


def _nested_bodies(s, into_loops: bool):
    if isinstance(s, n.If):
        yield from (b for _, b in s.branches)
        if s.orelse is not None:
            yield s.orelse
    elif isinstance(s, n.Decide):
        yield from (a.body for a in s.alternatives)
    elif isinstance(s, n.Simultaneous):
        yield from (a.body for a in s.decide.alternatives)
    elif into_loops and isinstance(s, (n.For, n.While, n.RepeatTimes, n.RepeatUntil, n.Loop)):
        yield s.body


VISIBILITY_HINT = ("use public (everyone sees the cards), owner (only its player), team (its player and "
                   "partners), others (everyone but its player, as a Hanabi hand) or hidden (nobody)")


def _value_text(value) -> str:
    if isinstance(value, tuple):
        return value[1]
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def option_allowed(opt: n.OptionDecl) -> str:
    if opt.kind == "bool":
        return "true, false"
    if opt.kind == "int":
        return f"{opt.low}..{opt.high}"
    return ", ".join(opt.choices)


def option_value_ok(opt: n.OptionDecl, value) -> bool:
    if opt.kind == "bool":
        return isinstance(value, bool)
    if opt.kind == "int":
        return isinstance(value, int) and not isinstance(value, bool) and opt.low <= value <= opt.high
    return value in opt.choices


def option_value(opt: n.OptionDecl, text: str):
    """Read an option's value from the command line; None when it is not allowed."""
    if opt.kind == "bool":
        return {"true": True, "false": False, "yes": True, "no": False, "on": True, "off": False}.get(text.lower())
    if opt.kind == "int":
        # as a script writes a number: ASCII digits only (int() also reads `5_0`, `٣` and `１０`)
        if not _OPTION_NUMBER.fullmatch(text.strip()):
            return None
        value = int(text)
        return value if opt.low <= value <= opt.high else None
    return text if text in opt.choices else None


_OPTION_NUMBER = re.compile(r"[+-]?[0-9]{1,19}")

# What a zone's `VISIBILITY if CONDITION else VISIBILITY` may be made of (E0730).
_VISIBILITY_CONDITION_NODES = (n.Literal, n.Name, n.Unary, n.Binary, n.IfExpr, n.ListLit)
_VISIBILITY_CONDITION_HINT = ("who sees a zone is fixed by the options the game starts with: write the condition with "
                              "options (`public if open_hands else owner`); to show cards as the game goes, `reveal` "
                              "them or move them to a public zone")


def _children(value):
    """The syntax nodes in one field of a node (a tuple field holds several)."""
    if isinstance(value, tuple):
        return [v for v in value if attrs.has(type(v)) and not isinstance(v, Span)]
    return [value] if attrs.has(type(value)) and not isinstance(value, Span) else []


_NOT_PLAIN = object()


def default_value(opt: n.OptionDecl):
    """The default as a value: a literal, a name (a choice) or a negative number."""
    d = opt.default
    if isinstance(d, n.Literal):
        return d.value
    if isinstance(d, n.Name):
        return d.name
    if isinstance(d, n.Unary) and d.op == "neg" and isinstance(d.operand, n.Literal) and d.operand.kind == "int":
        return -d.operand.value
    return _NOT_PLAIN


def _order_constant(t: Tables, e):
    """The value of a constant that may be compared with an ordered attribute, or _NOT_PLAIN."""
    if isinstance(e, n.Name) and t.resolved.get(id(e), (None,))[0] == "symbol":
        return e.name
    if isinstance(e, n.Literal) and e.kind in ("int", "text"):
        return e.value
    value = _constant(e)
    return _NOT_PLAIN if value is None else value


CHOOSABLE = (CARD, PLAYER, INT, SYMBOL, TEXT, ZONE)  # what a binder can choose several of: a move's text sorts them


_ARITHMETIC = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
               "/": lambda a, b: a // b, "%": lambda a, b: a % b, "==": lambda a, b: a == b,
               "!=": lambda a, b: a != b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
               ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def seat_numbers(expr, var: str, players: int) -> list | None:
    """The team number `teams VAR: EXPR` gives each seat of `players`, when EXPR reads only the
    seat (`number(VAR)`), `player_count` and numbers (so the checker can judge the layout of
    every player count); None when it reads anything else, which only a game can compute."""
    def value(e, seat):
        if isinstance(e, n.Literal) and e.kind in ("int", "bool"):
            return e.value
        if isinstance(e, n.Name) and e.name == "player_count":
            return players
        if isinstance(e, n.Call) and e.func == "number" and len(e.args) == 1 and \
                isinstance(e.args[0], n.Name) and e.args[0].name == var:
            return seat
        if isinstance(e, n.Unary):
            x = value(e.operand, seat)
            return -x if e.op == "neg" else not x
        if isinstance(e, n.IfExpr):
            return value(e.then if value(e.cond, seat) else e.orelse, seat)
        if isinstance(e, n.Binary) and e.op in ("and", "or"):
            left = value(e.left, seat)
            return (left and value(e.right, seat)) if e.op == "and" else (left or value(e.right, seat))
        if isinstance(e, n.Binary) and e.op in _ARITHMETIC:
            a, b = value(e.left, seat), value(e.right, seat)
            if e.op in "/%" and b == 0:
                raise _Unknown  # the game reports a division by zero where it happens
            return _ARITHMETIC[e.op](a, b)
        raise _Unknown

    try:
        return [value(expr, seat) for seat in range(players)]
    except _Unknown:
        return None


class _Unknown(Exception):
    """The teams expression reads something only a started game knows."""


def _mismatch_hint(node, expected: str, actual: str) -> str:
    """What a newcomer meant by the usual mix-ups of players, seats and zones."""
    if actual == ZONES and isinstance(node, n.Name):
        return f"`{node.name}` is one zone per player: name one, `{node.name}[p]`"
    if expected == PLAYER and actual == INT:
        return "a seat's number is not a player: `seat(0)` is the player at seat 0"
    if expected == list_of(PLAYER) and actual == PLAYER:
        return "a list of one player is written in brackets: `[p]`"
    return ""


def _constant(e) -> int | None:
    """The value of an integer literal, or of a minus sign before one; None otherwise."""
    if isinstance(e, n.Literal) and e.kind == "int":
        return e.value
    if isinstance(e, n.Unary) and e.op == "neg" and isinstance(e.operand, n.Literal) and e.operand.kind == "int":
        return -e.operand.value
    return None
