"""Statements and the flow between them: decisions and their alternatives, and whether a phase always ends."""

from __future__ import annotations

import difflib

import attrs

from . import limits, nodes as n
from .builtins import BUILTINS
from .check_expressions import identity, int_constant, records_in, settled
from .check_names import Scope
from .source import AT_POSITION_HINT, did_you_mean
from .types import (ANY, BOOL, CARD, INT, PLAYER, SYMBOL, TEAM, TEXT, ZONE, describe, element, fits, is_list,
                    is_listlike, list_of, spelled)


class Statements:
    """Checking statements: a part of Checker (checker.py), whose methods use the state
    Checker.__init__ sets up and the other parts' methods, as one object."""

    def block(self, stmts, scope):
        for s in stmts:
            self.stmt(s, scope)

    def stmt(self, s, scope: Scope):
        t = self.t
        match s:
            case n.Let():
                reported = len(self.diags)
                typ = settled(self.expr(s.value, scope))
                if s.name in scope.names:
                    self.error("E0303", f"`{s.name}` is already a local name here", s.span,
                               "declared again", f"use `set {s.name} = ...` to change it")
                t.slots[id(s)] = scope.declare(s.name, typ)
                if typ == ANY and len(self.diags) > reported:  # `let x = typo`: its kind is unknown, not `any`
                    self._unknown_locals.add((id(scope.frame), t.slots[id(s)]))
            case n.Set():
                self._set(s, scope)
            case n.Move():
                what = self.expr(s.what, scope)
                if not (fits(CARD, what) or fits(list_of(CARD), what)):
                    self._mismatch(s.what, CARD, what)
                self._expect(s.dest, ZONE, scope)
            case n.Deal():
                self._expect(s.count, INT, scope)
                if (rounds := int_constant(s.count)) is not None and rounds < 0:
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
                        self._zone_as_cards(part)
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
        elif local is not None and (id(scope.frame), local[0]) in self._unknown_locals:
            pass  # its first value was an error, already reported: what it holds is unknown
        elif typ == ANY and value == ZONE:
            self.error("E0220", f"a zone stored in `{target.name}`, which may hold any value", s.value.span, "a zone",
                       f"declare the variable's type, e.g. `var {target.name}: zone = none`, so the zone keeps its name")
        elif identity(typ) == ANY and identity(value) in (CARD, PLAYER, TEAM):
            kind = (f"declare the variable's type, e.g. `var {target.name}: {spelled(value)}`" if local is None else
                    f"a local takes the kind of its first value: start `{target.name}` with one, not `none`")
            self.error("E0240", f"{describe(value)} stored in `{target.name}`, which may hold any value", s.value.span,
                       describe(value), f"{kind}, so it keeps its kind (it would show and compare as a number)")
        elif typ == ANY and records_in(value):
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

    def _zone_as_cards(self, part) -> None:
        """`{played[p]}` in a text: a zone written by its name prints its cards, as people read
        them (each seat reading only those it knows), not the zone's name; a zone held in a local
        or a variable (`{z}`, chosen among zones) still prints which zone it is."""
        if self.t.types.get(id(part)) != ZONE:
            return
        target = part.obj if isinstance(part, n.Index) else part
        if isinstance(target, n.Name) and self.t.resolved.get(id(target), ("",))[0] in ("zone", "zones"):
            self._as_cards(part)

    def _decide(self, s: n.Decide, scope: Scope):
        offer = scope.child("offer")  # read whenever the moves are listed: no chance here
        if s.actor is not None:
            self._expect(s.actor, PLAYER, offer)
        elif s.secret:
            self.error("E0506", "a table decision cannot be secret", s.span, "no seat makes this choice",
                       "a secret decision is one seat's: `decide p secretly`; a table decision is everyone's to see")
        if s.knowers is not None:  # `secretly with partner(p)`: a seat or a list of seats
            known = self.expr(s.knowers, offer)
            if not (fits(PLAYER, known) or fits(list_of(PLAYER), known)):
                self._mismatch(s.knowers, list_of(PLAYER), known)
        for part in s.prompt:
            if not isinstance(part, str):
                self.expr(part, offer)
                self._zone_as_cards(part)
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
                               _not_a_rule(call, self.t) or did_you_mean(call.name, self.t.rules))
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

    def _binder_range(self, b: n.Binder):
        """E0315 for `n in LOW..HIGH` with constant bounds wider than a decision may offer (the
        enumerator counts the values of other ranges as it walks them)."""
        low, high = int_constant(b.low), int_constant(b.high)
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
        if b.key is not None and (item != CARD or b.key not in self.t.card_attrs or b.key == "name"):
            known = ", ".join(f"`{a}`" for a in self.t.card_attrs) or "none"
            self.error("E0326", f"`distinct by {b.key}` needs cards with a `{b.key}`" if item == CARD else
                       f"`distinct by` tells cards apart by an attribute; these items are each {describe(item)}",
                       b.key_span, "no such card attribute" if item == CARD else "not cards",
                       f"the cards' attributes: {known}" if item == CARD else
                       "choose among cards (`cs from 2 of hand[p] distinct by rank`), or leave `distinct by` out")
        if b.repeats and item == CARD:
            self.error("E0326", f"`{b.name}` would choose a card more than once", b.source.span, "these are cards",
                       "a card is chosen once: leave `with repeats` out, or choose among values (`rs from 3 of "
                       "[2, 3, 4] with repeats`)")
        most, fewest = int_constant(b.most), int_constant(b.fewest) if b.fewest is not None else None
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
        elif room is not None and not b.repeats and (fewest if fewest is not None else most) is not None \
                and (fewest if fewest is not None else most) > room:
            what = "this list holds" if isinstance(b.source, n.ListLit) else "the game has"
            self.error("E0323", f"`{b.name}` would choose {fewest if fewest is not None else most} distinct items, "
                       f"but {what} only {room}", where, "more than there can be",
                       f"the alternative could never be offered; choose at most {room}")
        return list_of(item)


CHOOSABLE = (CARD, PLAYER, INT, SYMBOL, TEXT, ZONE)  # what a binder can choose several of: a move's text sorts them


def terminates(stmts) -> bool:
    """Does every path through these statements end in `next` or `end game`?"""
    for s in stmts:
        if isinstance(s, (n.Next, n.EndGame)):
            return True
        if isinstance(s, n.If) and s.orelse is not None and all(terminates(b) for _, b in s.branches) \
                and terminates(s.orelse):
            return True
        if isinstance(s, n.Loop) and not _breaks(s.body):
            return True
        if isinstance(s, n.Decide) and all(terminates(a.body) for a in s.alternatives):
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


def leaving_phase(procs: dict) -> dict:
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


def _not_a_rule(call: n.RuleCall, t) -> str:
    """E0208's hint when `requires` names a definition or a built-in function: `requires` takes
    named rules, and how to make one of the condition."""
    if call.name in t.defines:
        what = f"`{call.name}` is a definition"
    elif call.name in BUILTINS:
        what = f"`{call.name}` is a built-in function"
    else:
        return ""
    return (f"`requires` takes named rules, and {what}: declare a rule that requires it, as `rule may_{call.name}"
            f"(...) require {call.name}(...)` with typed parameters, and name that rule here")
