"""What each name means: the frames and scopes of local names, and a name, a type or a definition resolved."""

from __future__ import annotations

from . import nodes as n, orders
from .builtins import CONSTANTS, TEAM_NAMES
from .call_order import callees_first, calls
from .check_hints import (NUMBER_ELSEWHERE, card_examples, copies_hint, plain_number, seat_hint, spelling_of_constants,
                          suggests_symbol, weak_match, winners_hint)
from .source import did_you_mean
from .types import ANY, BOOL, CARD, INT, NONE, SYMBOL, TYPE_NAMES, ZONE, ZONES, list_of, record_type


class Frame:
    """Slot allocation for one activation (a phase, procedure, event, rule or define)."""

    def __init__(self):
        self.size = 0

    def new_slot(self) -> int:
        self.size += 1
        return self.size - 1


class Scope:
    def __init__(self, frame: Frame, parent: "Scope | None" = None, context: frozenset = frozenset()):
        self.frame, self.parent, self.names = frame, parent, {}
        self.context = context | (parent.context if parent else frozenset())

    def child(self, *context: str) -> "Scope":
        return Scope(self.frame, self, frozenset(context))

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


class Names:
    """Name resolution: a part of Checker (checker.py), whose methods use the state
    Checker.__init__ sets up and the other parts' methods, as one object."""

    def _activation(self, params, context: str) -> tuple[Frame, Scope]:
        """A fresh frame whose first slots are the parameters."""
        frame = Frame()
        scope = Scope(frame, context=frozenset({context}))
        for p in params:
            self.t.slots[id(p)] = scope.declare(p.name, self._type_ref(p.type))
        return frame, scope

    def _type_ref(self, ref: n.TypeRef) -> str:
        if ref.name in self.t.records:
            typ = record_type(ref.name)
        elif ref.name in TYPE_NAMES:
            typ = ref.name
        elif ref.name in self.t.card_attrs:  # `var trump: suit`: what the cards' `suit` holds
            typ = self.t.card_attrs[ref.name]
        elif ref.name in self.t.symbol_sets:  # `var contract: strain`, of `symbols strain: ...`
            typ = orders.symbols_type(self.t, ref.name)
        else:
            self.error("E0205", f"unknown type `{ref.name}`", ref.span, "not a type", self._known_types(ref.name))
            return ANY
        for _ in range(ref.depth if ref.is_list else 0):
            typ = list_of(typ)
        return typ

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
            if e.name in t.option_sets:
                return orders.symbols_type(t, t.option_sets[e.name])
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
        copies = copies_hint(e.name, t)
        if e.name[0].isdigit() and NUMBER_ELSEWHERE.match(e.name) and not copies:
            self.error("E0217", f"`{e.name}` is neither a card nor a number", e.span, "not a number of this language",
                       f"a number is written in decimal digits alone (`{plain_number(e.name)}`): no `_` between "
                       "digits, no `0x`, `0o` or `0b`, no exponent")
            t.resolved[id(e)] = ("error", e.name)
            return ANY
        if e.name[0].isdigit():  # only a card literal starts with a digit
            self.error("E0217", f"`{e.name}` is not a card", e.span, "no card has this name",
                       copies or did_you_mean(e.name, self._card_ids()) or card_examples(t))
            t.resolved[id(e)] = ("error", e.name)
            return ANY
        constants = {c for c in CONSTANTS if t.teams is not None or c not in TEAM_NAMES}
        candidates = scope.all_names() | set(t.vars) | set(t.options) | set(t.zones) | t.symbols \
            | set(t.defines) | constants
        hint = seat_hint(e.name) or winners_hint(e.name) or spelling_of_constants(e.name) or \
            did_you_mean(e.name, candidates)
        ten = "10" + e.name[1:] if e.name[:1] in "Tt" and len(e.name) > 1 else None
        if e.name in t.defines:
            hint = f"`{e.name}` takes arguments: `{e.name}(...)`"
        elif ten is not None and ten in self._card_ids():  # a ten written as in some card notations
            hint = f"a ten is written with its number here: `{ten}` (cards are named by their values, `10` for a ten)"
            copies = hint
        elif copies:
            hint = copies
        elif not hint:
            hint = did_you_mean(e.name, self._card_ids())
        if not copies and (not hint or hint.startswith("known:") or weak_match(e.name, hint) or
                           suggests_symbol(hint, t.symbols)):  # a new author's word for a kind of thing
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

    def _type_callees(self, name: str) -> None:
        """The definitions `name` calls typed before it, callees first (call_order.py): a
        definition's type is found by checking its body when it is first called, which would
        otherwise check each callee inside its caller's check, as deep as the chain of calls.
        Definitions calling each other round are typed from the first declared of them."""
        graph = self.__dict__.get("_calls")
        if graph is None:
            graph = self._calls = calls(self.t.defines)
        types, defines, typing = self.t.types, self.t.defines, getattr(self, "_typing", ())
        groups = callees_first(graph, [name], lambda d: id(defines[d].body) in types or d in typing)
        outer, self._current_define = self._current_define, None  # these are not calls of the one being checked
        for group in groups[:-1]:  # the last is `name`'s own
            self._define_type(group[0])
        self._current_define = outer

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
        self._type_callees(name)
        self._typing = getattr(self, "_typing", set()) | {name}
        self.typing.append(name)  # left as it is when Python's stack runs out: E0606 names the chain
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
        self.typing.pop()
        return typ
