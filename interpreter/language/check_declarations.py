"""Each declaration on its own: collected into the tables (pass 1), then records, options, teams and events checked."""

from __future__ import annotations

import math
import re

import attrs

from . import limits, nodes as n, orders, replacing, teams
from .check_expressions import NOT_PLAIN, int_constant, records_in
from .check_hints import as_written
from .check_names import Frame, Scope
from .nodes import STATEMENT_WORDS
from .shadowing import shadow_warning
from .source import Span, did_you_mean
from .tables import CardInfo
from .types import ANY, INT, PLAYER, SYMBOL, TEXT, TYPE_NAMES, fits, list_of


def _write_replace(what: str) -> str:
    """The end of E0301's hint for a declaration that an included file declares too."""
    return (f"; a variant replaces an included declaration by writing `replace` before its own: `replace {what} ...` "
            "(docs/language.md §20)")


class Declarations:
    """Checking declarations: a part of Checker (checker.py), whose methods use the state
    Checker.__init__ sets up and the other parts' methods, as one object."""

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
                if isinstance(node, n.Param) and (said := shadow_warning(name, "params")):
                    self.warn("W0411", said[0], node.span, said[1], said[2])
                if name in STRICTLY_RESERVED:
                    self.error("E0651", f"`{name}` is a reserved word, so it cannot be a name", node.span,
                               "a reserved word", f"`{name}` always reads as the language's own word, so this "
                               f"name could never be read: choose another (`{name}_value`, say)")
                elif isinstance(node, n.ProcDecl) and name in STATEMENT_WORDS:
                    self.error("E0652", f"a procedure cannot be named `{name}`, a statement word", node.span,
                               "a statement word", f"a call `{name}(...)` would read as the `{name}` statement: "
                               f"rename the procedure where it is declared and where it is called "
                               f"(`{name}_cards`, say)")

    def _seat_names(self, p: n.PlayersDecl) -> None:
        """`players 4 named N, E, S, W`: one name a seat, each once, none that reads as another seat
        or a word the tools take for a viewer (E0408)."""
        t = self.t
        if not p.names:
            return
        if len(p.names) != p.high:
            seats = f"{p.high} seats" if p.low == p.high else f"up to {p.high} seats"
            self.error("E0408", f"`named` gives {len(p.names)} name{'s' if len(p.names) != 1 else ''} for {seats}",
                       p.name_spans[min(len(p.names), p.high) - 1] if len(p.names) > p.high else p.span,
                       "one name a seat", f"give one name for each of the {p.high} seats, in seat order from P0; "
                       "a range of player counts names its largest table")
            return
        seen = {}
        for name, span in zip(p.names, p.name_spans):
            folded = name.casefold()
            if folded in seen:
                self.error("E0408", f"seat name `{name}` is given twice", span, "named again here",
                           f"the first is at {seen[folded]}; seats are typed by these names (in any case), so each "
                           "must be different")
                return
            seen[folded] = span
            if folded in ("table", "spectator", "all", "none") or \
                    (folded[:1] in ("p", "t") and folded[1:].isdigit()):
                self.error("E0408", f"`{name}` cannot name a seat", span, "reads as something else",
                           "P0, P1... always name the seats and T0, T1... the teams, and `table`, `spectator`, `all` "
                           "and `none` are words of the tools: choose another name")
                return
        t.seat_names = tuple(p.names)

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
            self._seat_names(p)
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
            if kind == "records" and name in TYPE_NAMES + ("list",):
                self.error("E0302", f"`{name}` is the name of a type", item.span, "reserved name",
                           "choose another name")
                self._refused.add(name)
                continue
            if (said := shadow_warning(name, kind)) is not None:  # old scripts keep working (shadowing.py)
                self.warn("W0411", said[0], item.span, said[1], said[2])
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
                if item.at is not None and item.at not in t.phases:  # `at end of PHASE`
                    self.error("E0207", f"unknown phase `{item.at}`", item.at_span, "not declared",
                               did_you_mean(item.at, t.phases) or "a measure is read at the end of one of the game's phases")
            elif isinstance(item, n.SymbolsDecl):
                orders.collect_symbols(t, item, self.error)
            elif isinstance(item, n.EndWhen):
                if t.end_when is not None:
                    self.error("E0301", "`end game when` is declared twice", item.span, "declared again here",
                               f"the first declaration is at {t.end_when.span}; a game has one: join the conditions "
                               "with `or`")
                else:
                    t.end_when = item
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
        for name, opt in list(t.options.items()):  # `option trump: strain = S`: a choice of the set's words
            if opt.kind in t.symbol_sets:
                t.option_sets[name] = opt.kind
                t.options[name] = attrs.evolve(opt, kind="choice", choices=tuple(t.symbol_sets[opt.kind].values))
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
        again = [as_written(v) for v in kept if values.count(v) > 1]
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
                label = "".join(as_written(combo.get(p)) for p in parts)
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

    # ---- pass 2: each declaration's own checks (Checker._check_bodies calls them)
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
                inner = next(iter(records_in(ft)), None)
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
            frame = Frame()
            scope = Scope(frame, context=frozenset({"pure", "teams"}))
            t.slots[id(decl)] = scope.declare(decl.var, PLAYER)
            known = len(self.diags)
            self._expect(decl.expr, INT, scope)
            t.frames[id(decl)] = frame.size
            constant = int_constant(decl.expr)
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
        if value is NOT_PLAIN:
            self.error("E0332", "an option's default must be a plain value", default.span)
            return
        ok = option_value_ok(opt, value)
        if not ok:
            self.error("E0333", f"default `{as_written(value)}` is not allowed for option `{opt.name}`",
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


_DECL_KIND = {
    n.OptionDecl: "options", n.ZoneDecl: "zones", n.VarDecl: "vars", n.DefineDecl: "defines",
    n.RuleDecl: "rules", n.ProcDecl: "procs", n.PhaseDecl: "phases", n.EventDecl: "events",
    n.RecordDecl: "records",
}
# words never read as a name in an expression (language.md §21), and the fields of the nodes
# that make a name
# (the forms' words, `count`, `max`, `groups`, ..., are keywords only in their forms' shape: shadowing.py)
STRICTLY_RESERVED = frozenset(("true", "false", "none", "if", "not"))
_NAME_MADE = {
    **{kind: "name" for kind in _DECL_KIND}, n.Let: "name", n.LetExpr: "name", n.Param: "name", n.Binder: "name",
    n.RecordField: "name", n.For: "var", n.Quant: "var", n.Best: "var", n.Pattern: "var", n.Comprehension: "var",
    n.Simultaneous: "var", n.ReactionDecl: "var", n.ScoreDecl: "var", n.MeasureDecl: "var", n.TeamsDecl: "var",
}
_KIND_WORD = {"options": "option", "zones": "zone", "vars": "variable", "defines": "definition", "rules": "rule",
              "procs": "procedure", "phases": "phase", "events": "event", "records": "record"}


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


def default_value(opt: n.OptionDecl):
    """The default as a value: a literal, a name (a choice) or a negative number."""
    d = opt.default
    if isinstance(d, n.Literal):
        return d.value
    if isinstance(d, n.Name):
        return d.name
    if isinstance(d, n.Unary) and d.op == "neg" and isinstance(d.operand, n.Literal) and d.operand.kind == "int":
        return -d.operand.value
    return NOT_PLAIN


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
