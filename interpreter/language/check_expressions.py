"""The type of every expression: calls, operators, records, keys and orders, and values of several types joined."""

from __future__ import annotations

from . import nodes as n, orders
from .builtins import BUILTINS, CHANCE, ORDER_FUNCTIONS, TEAM_NAMES, BuiltinTypeError
from .check_hints import OTHER_LANGUAGES_FUNCTIONS, function_for_attribute, mismatch_hint
from .check_names import Scope
from .shadowing import FORM_WORDS
from .source import did_you_mean
from .tables import Tables
from .types import (ANY, BOOL, CARD, INT, NONE, PLAYER, SYMBOL, TEAM, TEXT, TYPE_NAMES, ZONE, ZONES, base_of, describe,
                    element, fits, is_list, is_listlike, is_ordered, is_record, join, list_of, order_name, record_name,
                    record_type)


class Expressions:
    """Typing expressions: a part of Checker (checker.py), whose methods use the state
    Checker.__init__ sets up and the other parts' methods, as one object."""

    # ---- types
    def _mismatch(self, node, expected, actual):
        self.error("E0210", f"expected {describe(expected)}, found {describe(actual)}", node.span,
                   f"this is {describe(actual)}", self._symbol_and_card(node) or mismatch_hint(node, expected, actual))

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
            if typ != SYMBOL and identity(typ) not in (CARD, PLAYER, TEAM) and self._local_hiding_symbol(item):
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
        kept = identity(joined)
        kinds = [identity(x) for x in types]
        # the first value of each kind, in order: what a value is told it was joined with (kept
        # apart so a list literal of 40,000 items is checked in one pass, not one per item)
        firsts = {}
        for kind, typ in zip(kinds, types):
            if kind not in (NONE, ANY):
                firsts.setdefault(kind, typ)
        for node, typ, kind in zip(nodes, types, kinds):
            if kind not in (CARD, PLAYER, TEAM) or kind == kept:
                continue
            # only a kind known to differ: a value of unknown type (a recursive definition's
            # call, checked before its own type is known) joins as before
            other = next((x for k, x in firsts.items() if k != kind), None)
            if other is not None:
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
        if "record:" in "".join(types) and records_in(joined) != set().union(*map(records_in, types)):
            node, typ = next((nd, x) for nd, x in zip(nodes, types) if not records_in(x) <= records_in(joined))
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

    # ---- expressions
    def expr(self, e, scope: Scope) -> str:
        typ = self._expr(e, scope)
        self.t.types[id(e)] = typ
        return typ

    def _expr(self, e, scope: Scope) -> str:
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
                               f"this is {describe(obj)}", function_for_attribute(e.name, is_listlike(obj)))
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
        if isinstance(e.obj, n.Name) and (e.obj.name in self._refused or (resolved and resolved[0] == "error")):
            return ANY  # refused by E0302, or unknown (E0201): what it holds, and by what it is indexed, is unknown
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
                           mismatch_hint(arg, want, actual) or self._param_hint(param, name, want, actual, arg))
        for arg in args[len(params):]:
            self.expr(arg, scope)

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
            elif not is_ordered(types[0]) and types[0] != ANY:  # ANY: an error already said (E0202, E0201)
                self.error("E0230", f"`{e.func}` needs a value of an ordered attribute, found {describe(types[0])}",
                           e.args[0].span, "no declared order", "declare the attribute `ordered` in its deck "
                           "(`ordered rank: 2, 3, ..., A`) and pass one of its values (`place(c.rank)`)")
            return INT
        if e.func in CHANCE and not {"pure", "offer", "logged"}.isdisjoint(scope.context):
            self.error("E0218", f"`{e.func}` draws by chance, which only a statement may do", e.func_span,
                       "not in an expression asked of the game (`eval`, `watch`, `break when`)"
                       if "asked" in scope.context else
                       "not in a log line, whose parts each seat reads again"
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
                           mismatch_hint(arg, PLAYER if err.expected == "a player" else ANY, types[err.index]))
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
        elif e.func in FORM_WORDS:  # `runs(h)` with no definition of the script's own named `runs`
            self.error("E0121", f"`{e.func}` is a form with a name for each item, not a function", e.func_span,
                       "not a function", f"write `{FORM_WORDS[e.func]}`" + (" or `runs x in L by KEY least N`"
                                                                             if e.func == "runs" else "")
                       + f"; a script may define its own `{e.func}(...)` (docs/language.md §21)")
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
        if constant is NOT_PLAIN or constant is None or not held or constant in held:
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
            if value is not NOT_PLAIN and value not in values:
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


def identity(t: str) -> str:
    """The kind of the innermost items of a type (`list:list:card`: card)."""
    while is_list(t):
        t = element(t)
    return t


def settled(t: str) -> str:
    """A variable that starts as `none` (or `[]`, a list of nothing yet) may later hold anything
    (a list of anything)."""
    if t == NONE:
        return ANY
    return list_of(settled(element(t))) if is_list(t) else t


def records_in(t: str) -> set:
    """The record types a type holds (`list:record:meld` holds `meld`)."""
    parts = t.split(":")
    return {parts[i + 1] for i, x in enumerate(parts[:-1]) if x == "record"}


# what default_value and _order_constant give for an expression that is no plain value
NOT_PLAIN = object()


def _order_constant(t: Tables, e):
    """The value of a constant that may be compared with an ordered attribute, or NOT_PLAIN."""
    if isinstance(e, n.Name) and t.resolved.get(id(e), (None,))[0] == "symbol":
        return e.name
    if isinstance(e, n.Literal) and e.kind in ("int", "text"):
        return e.value
    value = int_constant(e)
    return NOT_PLAIN if value is None else value


def int_constant(e) -> int | None:
    """The value of an integer literal, or of a minus sign before one; None otherwise."""
    if isinstance(e, n.Literal) and e.kind == "int":
        return e.value
    if isinstance(e, n.Unary) and e.op == "neg" and isinstance(e.operand, n.Literal) and e.operand.kind == "int":
        return -e.operand.value
    return None
