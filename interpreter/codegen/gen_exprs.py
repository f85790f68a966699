"""Expression lowering: a checked expression as Python, `lower(e, env, fn)` -> (lines to run
first, one Python expression).  Locals are Python names or the frame list's `L[k]`, `and`/
`or`/`if` are Python's own, quantifiers and comprehensions are `for` loops (their constant
charges checked once after the loop where that is exact: _deferring), builtins are written
inline where their argument types allow, and what does not depend on a loop's variable is
computed once per loop (Hoister, _cached).

Separate from statements, definitions, listings and assembly: every one of those lowers its
expressions through this, and this writes no statement, function or operation itself.
"""

from __future__ import annotations

import contextlib
import re

from ..language import limits, nodes as n
from ..language.builtins import BUILTINS, CHANCE, CONSTANTS, ORDER_FUNCTIONS, REFUSING
from ..language.nodes import walk as _walk
from ..language.orders import places
from ..language.types import INT, TEXT, ZONE, ZONES, is_list, is_ordered, is_record, order_name, record_name
from .flow import CONSTANT_CHARGE
from .gen_common import ATOM, CHANCE_MARK, INT_LITERAL, LOOP, Env, Fn, Hoister, constant_value, indent, times_n
from .gen_runtime import UNSET, OrderPlaces, concat, power, text_plus, texts_plus, zone_cards
from .never_none import VALUE_BUILTINS, items_never_none

_CHARGING = {"sum", "sorted", "max", "min", "reverse", "players_from"}  # builtins.py charges their work


_CHARGE = re.compile(r"^st\.work \+= (\d+)$")
_REPLAY = re.compile(r"^    st\.work \+= hw\d+$")  # _cached's charge for a value computed before


# An expression's code holds its operands' code inside brackets: past this many levels whose code
# is one expression, the value is held in a name first (Expressions.lower).
_SPILL_HEIGHT = 12


def _loop_seq(header: str, var: str) -> str:
    """The sequence of `for VAR in SEQ:`."""
    return header[len(f"for {var} in "):-1]


def _every_round_charges(body) -> bool:
    """Whether a loop body adds work at every round, not only under a condition: a constant
    charge, or a value computed once and charged again (_cached), at the body's own level."""
    return any(_CHARGE.match(line) or (line == "else:" and i + 1 < len(body) and _REPLAY.match(body[i + 1]))
               for i, line in enumerate(body))


def _charges_of_every_round(body, seq):
    """(body without the charges it makes at every round, lines adding them for all rounds after
    the loop over `seq`), or None if there are none.  Every round makes a charge at the body's
    own level written before any `continue`, and a replay of a value computed once (_cached)
    at every round but the first."""
    kept, constant, replays, skipping = [], 0, [], False
    i = 0
    while i < len(body):
        line = body[i]
        skipping = skipping or line.strip() in ("continue", "break")
        m = _CHARGE.match(line)
        if m and not skipping:
            constant += int(m.group(1))
        elif line == "else:" and not skipping and i + 1 < len(body) and _REPLAY.match(body[i + 1]) and \
                (i + 2 == len(body) or not body[i + 2].startswith(" ")):
            block = next(x for x in reversed(kept) if not x.startswith(" "))  # `if h is _UNSET:`
            if sum(x.strip() == block for x in body) != 1:
                return None  # the value is also computed elsewhere: its first round may be a replay
            replays.append(body[i + 1].split("+= ")[1])
            i += 1
        else:
            kept.append(line)
        i += 1
    if not constant and not replays:
        return None
    total = [f"st.work += {constant} * len({seq})"] if constant else []
    if replays:
        total += [f"if {seq}:"] + [f"    st.work += {hw} * (len({seq}) - 1)" for hw in replays]
    return kept, total


def _merge_charges(lines):
    """Constant charges in a row with no check between them (see Gen._deferring) as one."""
    out = []
    for line in lines:
        text = line.lstrip()
        pad = line[:len(line) - len(text)]
        m, last = _CHARGE.match(text), (out[-1].lstrip() if out else "")
        prev = _CHARGE.match(last)
        if m and prev and out[-1].startswith(pad) and len(out[-1]) - len(last) == len(pad):
            out[-1] = f"{pad}st.work += {int(prev.group(1)) + int(m.group(1))}"
        else:
            out.append(line)
    return out


class Expressions:
    """Lowering of expressions (see the module's docstring): a part of Gen (codegen.py), whose
    methods use the state Gen.__init__ sets up and the other parts' methods, as one object."""

    # ---- expressions: lower(e) -> (statements to run first, Python expression)
    def lower(self, e, env: Env, fn: Fn):
        hoister = self._hoist
        if hoister is not None and not self.traced and self._worth_hoisting(e) and hoister.independent(self, e, env) \
                and (not hoister.met_only or isinstance(e, n.Call)):
            self._hoist = None
            try:
                lines, code = self.lower(e, env, fn)
            finally:
                self._hoist = hoister
            if not lines and ATOM.match(code):
                return lines, code
            if hoister.met_only and self._shared_key(lines, code) not in hoister.names:
                return lines, code
            return self._cached(lines, code, fn, hoister)
        self._heights.append(0)
        try:
            lines, code = getattr(self, "_x_" + type(e).__name__)(e, env, fn)
        finally:
            height = self._heights.pop() + 1
        if id(e) in self.t.coerced:  # a zone where a list is expected: its cards, read now
            code = f"{self.const(zone_cards, 'H')}(st, {code})"
        if self.traced and not isinstance(e, n.Literal):
            tmp = fn.tmp("v")
            typ = self._value(self.t.types.get(id(e), "any"))
            lines = lines + [f"{tmp} = {code}", f"_trace({self.const(e, 'N')}, {typ}, {tmp})"]
            code = tmp
        elif height >= _SPILL_HEIGHT and not ATOM.match(code):
            # Python parses at most 200 brackets deep, and each level of an expression writes
            # a few around its operands: every so many levels the value is held in a name
            # (a sum of 140 terms compiled to 280 brackets)
            tmp = fn.tmp()
            lines = lines + [f"{tmp} = {code}"]
            if self._nonnull(code, env) and not self._reference:
                self._nonnull_codes.add(tmp)
            code = tmp
        if ATOM.match(code):
            height = 0
        if self._heights:
            self._heights[-1] = max(self._heights[-1], height)
        return lines, code

    def lower_all(self, exprs, env, fn):
        """Several expressions evaluated left to right, as plain evaluation does."""
        parts = [self.lower(x, env, fn) for x in exprs]
        lines, codes = [], []
        for i, (ls, code) in enumerate(parts):
            lines.extend(ls)
            if not ATOM.match(code) and any(p[0] for p in parts[i + 1:]):
                tmp = fn.tmp()
                lines.append(f"{tmp} = {code}")
                if self._nonnull(code, env) and not self._reference:
                    self._nonnull_codes.add(tmp)  # written once: it holds what code held
                code = tmp
            codes.append(code)
        return lines, codes

    @contextlib.contextmanager
    def _nested_in(self, loops: int, branches: int):
        """What is lowered inside runs inside `loops` more blocks and `branches` more indented
        branches: as language/nesting.py counts them, so a definition is written in place only
        where little surrounds the call (gen_defines._inline_define)."""
        self._nesting[0] += loops
        self._nesting[1] += branches
        try:
            yield
        finally:
            self._nesting[0] -= loops
            self._nesting[1] -= branches

    def _worth_hoisting(self, e) -> bool:
        """Quantifiers, comprehensions and definitions: enough work to compute only once."""
        if isinstance(e, (n.Quant, n.Best, n.Comprehension, n.Pattern)):
            return True
        if isinstance(e, n.Index):  # an item of a list, which walks the list (not a zone slot or a row)
            resolved = self.t.resolved.get(id(e.obj))
            row = resolved and resolved[0] == "global" and self.t.vars[resolved[1]][0].indexed
            return is_list(self.t.types.get(id(e.obj), "any")) and not row
        if isinstance(e, n.Call):
            return e.func in self.t.defines
        if isinstance(e, n.Name):
            kind, _ = self.t.resolved.get(id(e), (None, None))
            return kind == "define" and self._constant(e) is UNSET
        return False

    def draws(self, e) -> bool:
        """Whether `e` holds a chance draw."""
        return any(isinstance(x, n.Call) and x.func in CHANCE for x in _walk(e))

    def free_slots(self, e) -> frozenset:
        """Local slots `e` reads that it does not bind itself."""
        found = self._free.get(id(e))
        if found is None:
            used, bound = set(), set()
            for x in _walk(e):
                if isinstance(x, n.Name):
                    kind, detail = self.t.resolved.get(id(x), (None, None))
                    if kind == "local":
                        used.add(detail)
                elif isinstance(x, (n.Quant, n.Best, n.Comprehension, n.Pattern, n.LetExpr)):
                    bound.add(self.t.slots[id(x)])
            found = self._free[id(e)] = frozenset(used - bound)
        return found

    def _nonnull(self, code: str, env: Env) -> bool:
        return bool(INT_LITERAL.match(code)) or code in env.nonnull or code in self._nonnull_consts or \
            code in ("True", "False", "st.n") or code in self._nonnull_codes

    def _constant(self, e):
        """The value of a constant expression, or UNSET."""
        return constant_value(self.t, e, UNSET)

    def _value(self, value) -> str:
        if value is None or type(value) in (bool, int):
            return repr(value)
        return self.const(value)

    def _x_Literal(self, e, env, fn):
        if e.kind not in ("int", "text", "bool", "none"):
            raise AssertionError("literal")  # the checker rejects it
        return [], self._value(e.value)

    def _x_Name(self, e, env, fn):
        t, p = self.t, self.p
        kind, detail = t.resolved[id(e)]
        if kind == "local":
            return [], env.local(detail)
        if kind in ("global", "option"):
            slot = p.var_slots[detail]
            if kind == "global" and t.vars[detail][0].indexed:
                return [], f"tuple(st.vars[{slot}])"
            return [], self._var_read(f"st.vars[{slot}]", slot)
        if kind == "zone":
            return [], str(p.zone_index[detail][1])
        if kind == "zones":
            return [], str(p.zone_index[detail][1])
        if kind in ("symbol", "card"):  # a card literal is its card's id
            return [], self._value(detail)
        if kind == "constant":
            if detail == "players":
                return [], f"{self._players()}[st.n]"
            if detail == "player_count":
                return [], "st.n"
            return [], f"{self.const(CONSTANTS[detail][1])}(st)"
        if kind == "define":
            value = self._constant(e)
            if value is not UNSET:
                return [], self._value(value)
            define = t.defines[detail]
            if define.params:
                raise AssertionError("definition with parameters named without arguments")  # the checker rejects it
            pyname = self.define_fn(detail)
            charge = self.charge("1", e.span)  # every use, inlined or not
            inline = self._inline_define(define, [], env, fn)
            # written here where define_fn keeps no value of it (a body walking no list, calling
            # no definition: see _memoized), else read through its call and State.memo
            if inline is not None and not any(LOOP.search(x) or "D_" in x for x in inline[0] + [inline[1]]):
                return charge + inline[0], inline[1]
            return charge, f"{pyname}(st)"
        raise AssertionError(f"name kind {kind}")  # the checker rejects it

    def _x_Attr(self, e, env, fn, table=None):
        obj_type = self.t.types.get(id(e.obj), "any")
        if is_record(obj_type):  # a field: its place in the record's tuple
            names = [f for f, _ in self.t.record_fields[record_name(obj_type)]]
            lines, obj = self.lower(e.obj, env, fn)
            k = names.index(e.name)
            if self._nonnull(obj, env):
                return lines, f"{obj}[{k}]"
            value, cond = self._checked(obj, env, fn)
            return lines, f"({value}[{k}] if {cond} else None)"
        table = self.p.attr_tables.get(e.name) if table is None else table
        if table is None:
            raise AssertionError("attribute")  # the checker rejects it
        tname = self.const(table, "AT")
        lines, obj = self.lower(e.obj, env, fn)
        if self._nonnull(obj, env):
            return lines, f"{tname}[{obj}]"
        if ATOM.match(obj):
            return lines, f"({tname}[{obj}] if {obj} is not None else None)"
        tmp = fn.tmp()
        return lines, f"({tname}[{tmp}] if ({tmp} := {obj}) is not None else None)"

    def _var_read(self, code: str, slot: int) -> str:
        """`code`, reading variable `slot`, known never none in fast code where never_none.py
        found the variable always holds a value."""
        return self._never_none(code) if self._var_kept(slot) else code

    def _var_kept(self, slot: int) -> bool:
        """Whether the fast code may count on variable `slot` holding a value (never_none.py)."""
        return slot in self.p.never_none_var_slots and not self._reference

    def _never_none(self, code: str) -> str:
        """`code`, known in fast code to give a value (a number, true or false) or fault."""
        if not self._reference:
            self._nonnull_codes.add(code)
        return code

    def _checked(self, code, env, fn):
        """(name or expression holding code's value, condition that it is not None or "")."""
        if self._nonnull(code, env):
            return code, ""
        if ATOM.match(code):
            return code, f"{code} is not None"
        tmp = fn.tmp()
        return tmp, f"({tmp} := {code}) is not None"

    def _x_Index(self, e, env, fn):
        t, p = self.t, self.p
        obj_type = t.types[id(e.obj)]
        span = self.const(e.span, "S")
        if obj_type == ZONES:
            k = p.zone_index[t.resolved[id(e.obj)][1]][1]
            first = p.shared_zone_count
            lines, idx = self.lower(e.index, env, fn)
            value, cond = self._checked(idx, env, fn)
            base = f"{first} + {times_n(k)}{value}"
            if not cond:
                code = f"({base})"
            else:
                msg = self.const("a per-player zone needs a player, found none")
                code = f"(({base}) if {cond} else _fail({msg}, {span}))"
            self._nonnull_codes.add(code)  # a slot number, or the expression fails
            return lines, code
        resolved = t.resolved.get(id(e.obj))
        if resolved and resolved[0] == "global" and t.vars[resolved[1]][0].indexed:
            slot = p.var_slots[resolved[1]]
            lines, idx = self.lower(e.index, env, fn)
            value, cond = self._checked(idx, env, fn)
            if not cond:
                return lines, self._var_read(f"st.vars[{slot}][{value}]", slot)
            whose = "a player" if t.vars[resolved[1]][0].per_player else "a team"
            msg = self.const(f"`{resolved[1]}[...]` needs {whose}, found none")
            return lines, self._var_read(f"(st.vars[{slot}][{value}] if {cond} else _fail({msg}, {span}))", slot)
        seq_lines, seq, _ = self._iter(e.obj, env, fn, charge=True)
        idx_lines, idx = self.lower(e.index, env, fn)
        if ATOM.match(seq) and ATOM.match(idx) and not self.traced:  # _item, written out
            present = "" if self._nonnull(idx, env) else f"{idx} is not None and "
            return seq_lines + idx_lines, f"({seq}[{idx}] if {present}-len({seq}) <= {idx} < len({seq}) else None)"
        return seq_lines + idx_lines, f"_item({seq}, {idx})"

    def _iter(self, e, env, fn, charge=False):
        """(lines, sequence expression, items never none) for a zone or list being read.

        With `charge`, the walk is charged to the move's work budget,."""
        lines, code = self.lower(e, env, fn)
        typ = self.t.types[id(e)]
        nonnull = False
        if charge and not lines and isinstance(self.ns.get(code), tuple) and code in self._nonnull_consts:
            # a constant list (`[J, Q, K]`): its length is known, so is its charge
            return self.charge(str(len(self.ns[code])), e.span), code, None not in self.ns[code]
        if typ == ZONE:
            seq, nonnull = f"st.zones[{code}]", True
        elif is_list(typ):
            if code == f"{self._players_table}[st.n]":
                seq, nonnull = code, True
            else:
                seq, nonnull = f"({code} or ())", not self.traced and items_never_none(self.t, e)
        else:
            seq = f"_seq(st, {code})"
        if charge:
            tmp = fn.tmp("s")
            lines = lines + [f"{tmp} = {seq}"] + self.charge(f"len({tmp})", e.span)
            seq = tmp
        return lines, seq, nonnull

    def charge(self, units: str, span) -> list[str]:
        """Lines adding `units` (an expression) to the move's work, faulting past its limit.
        In a playout listing (see Gen.playout_enumerator) the limit is checked once, at the end."""
        if self._optimistic or (self._deferred and INT_LITERAL.match(units)):
            self._deferrals += self._deferred
            return [f"st.work += {units}"]
        return [f"st.work += {units}", "if st.work > st.work_limit:", f"    _over_budget(st, {self.span(span)})"]

    def _x_Call(self, e, env, fn):
        t = self.t
        if e.func in t.defines:
            define = t.defines[e.func]
            if len(e.args) != len(define.params or ()):
                raise AssertionError("argument count")  # the checker rejects it
            pyname = self.define_fn(e.func)
            lines, codes = self.lower_all(e.args, env, fn)
            lines = lines + self.charge("1", e.span)  # every call, inlined or not
            inline = self._inline_define(define, codes, env, fn)
            if inline is not None and not inline[0] and self._listing_calls is not None:
                return lines, self._shared_call(e.func, codes, inline[1])
            if inline is not None:
                return lines + inline[0], inline[1]
            if e.func in t.recursive:
                codes = [f"{env.depth} + 1" if env.depth else "1"] + codes
            elif (kept := self._kept_call(e, pyname, codes)) is not None:
                return lines, f"{kept}(st)"
            return lines, f"{pyname}(st{''.join(', ' + c for c in codes)})"
        if e.func in ORDER_FUNCTIONS:
            return self.place(e.args[0], order_name(t.types[id(e.args[0])]), env, fn)
        if e.func not in BUILTINS:
            raise AssertionError(f"function {e.func}")  # the checker rejects it
        if e.func in CHANCE:
            return self._chance(e, env, fn)
        impl = BUILTINS[e.func][3]
        args = e.args
        types = [t.types.get(id(a)) for a in args]
        # Zone readers whose argument cannot fail are written inline.
        if len(args) == 1 and types[0] == ZONE and self._plain_zone(args[0]) and not self.traced:
            lines, (z,) = self.lower_all(args, env, fn)
            if e.func == "count" and impl is BUILTINS["count"][3]:
                return lines, self._never_none(f"len(st.zones[{z}])")
            if e.func == "empty":
                return lines, self._never_none(f"(not st.zones[{z}])")
            if e.func == "top":
                tmp = fn.tmp()
                return lines, f"({tmp}[-1] if ({tmp} := st.zones[{z}]) else None)"
        word = "this value" if len(args) == 1 else "these values"
        msg = self.const(f"`{e.func}` cannot use {word} (none?)")
        span = self.const(e.span, "S")
        with self._nested_in(1, 1):  # the arguments are computed inside the call's `try`
            lines, codes = self.lower_all(args, env, fn)
        result = fn.tmp()
        call = self._inline_builtin(e.func, impl, types, codes, fn) or \
            f"{self.const(impl, 'B')}(st{''.join(', ' + c for c in codes)})"
        if e.func == "players_from" and len(codes) == 1 and impl is BUILTINS[e.func][3] and not self.traced:
            # builtins.py's own charge (a fault without a span, as st.charge raises), then a table
            lines = lines + ["st.work += st.n", "if st.work > st.work_limit:", "    _over_budget(st, None)"]
            call = f"{self._players_from()}[st.n][{codes[0]} % st.n]"
        if e.func == "index" and len(args) == 2 and not self.traced:
            table = self._constant(args[0])
            if isinstance(table, tuple):
                positions = {}
                for i, v in enumerate(table):
                    try:
                        positions.setdefault(v, i)
                    except TypeError:
                        positions = None
                        break
                if positions is not None:  # builtins.py's own charge, then a table
                    lines = lines + [f"st.work += {len(table)}", "if st.work > st.work_limit:",
                                     "    _over_budget(st, None)"]
                    call = f"{self.const(positions, 'IX')}.get({codes[1]})"
        caught = ["except (TypeError, IndexError):", f"    _fail({msg}, {span})"]
        if e.func == "range" and impl is BUILTINS[e.func][3] and not self.traced:
            return self._range_written_out(lines, codes, caught, fn)
        if e.func in REFUSING:  # its own faults point at the call
            caught += ["except ScriptRuntimeError as _refused:", "    if _refused.span is None:",
                       f"        _refused.span = {span}", "    raise"]
        result = self._never_none(result) if e.func in VALUE_BUILTINS else result  # written once
        return ["try:"] + indent(lines + [f"{result} = {call}"]) + caught, result

    def _range_written_out(self, lines, codes, caught, fn):
        """builtins._range written out: its length checked and paid for as State.check_length
        does (called only past the length limit, to raise its fault), then the numbers."""
        low, high, size, result = fn.tmp(), fn.tmp(), fn.tmp(), fn.tmp()
        head = ["try:"] + indent(lines + [f"{low} = {codes[0]}", f"{high} = {codes[1]}", f"{size} = {high} - {low} + 1"]) + caught
        pay = [f"st.work += {size} if {size} > 0 else 0"]
        if not self._optimistic:  # a playout listing checks its limit at the end
            pay += ["if st.work > st.work_limit:", "    _over_budget(st, None)"]
        return head + [f"if {size} > {limits.MAX_LIST_LENGTH}:", f"    st.check_length({size})"] + pay + \
            [f"{result} = tuple(range({low}, {high} + 1))"], result

    def _chance(self, e, env, fn):
        """`random(LIST)` / `random(LOW, HIGH)`: one draw from the game's generator, traced as a
        chance event; never hoisted or folded (see Hoister.independent)."""
        span = self.const(e.span, "S")
        lines, codes = self.lower_all(e.args, env, fn)
        args = [fn.tmp() for _ in codes]
        lines = lines + [f"{a} = {c}" for a, c in zip(args, codes)]
        if len(args) == 1:
            items = fn.tmp()
            lines.append(f"{items} = _seq(st, {args[0]})")
            bad = self.const("`random` of an empty list: there is nothing to draw")
            lines += [f"if not {items}:", f"    _fail({bad}, {span})"]
        else:
            low, high = args
            none = self.const("`random` needs two numbers, found none")
            empty = self.const("`random(LOW, HIGH)` needs LOW <= HIGH")
            lines += [f"if {low} is None or {high} is None:", f"    _fail({none}, {span})",
                      f"if {high} < {low}:", f"    _fail({empty}, {span})"]
        result = fn.tmp()
        typ = self._value(self.t.types.get(id(e), "any"))
        lines += [CHANCE_MARK, f"{result} = {self.const(BUILTINS[e.func][3], 'B')}(st, {', '.join(args)})",
                  "if st.tracer is not None:",
                  f"    st.emit('chance', what='draw', value={result}, type={typ}, span={span})"]
        return lines, result

    def _inline_builtin(self, func, impl, types, codes, fn):
        """The builtin's computation written out (inside the same try as the call), or None.

        Each is exactly the implementation in builtins.py for arguments of these static types;
        a none argument raises the same TypeError there as here."""
        if impl is not BUILTINS[func][3] or self.traced:  # traced: builtins.py's own, the reference
            return None
        if func in _CHARGING:
            return None  # called: builtins.py charges the work they do
        one = codes[0] if len(codes) == 1 else None
        t0 = types[0] if types else None
        if func == "players_from" and one:
            return f"{self._players_from()}[st.n][{one} % st.n]"
        if func == "left_of" and one:
            return f"({one} + 1) % st.n"
        if func == "right_of" and one:
            return f"({one} - 1) % st.n"
        if func == "seat" and one:
            return f"{one} % st.n"
        if func == "number" and one:
            return one
        if one and t0 and is_list(t0):
            if func == "reverse":
                return f"tuple(reversed({one}))"
            if func == "count":
                return f"len({one})"
            if func == "empty":
                return f"(not {one})"
        if one and t0 == ZONE and func == "reverse":
            return f"tuple(reversed(st.zones[{one}]))"
        generic = self.const(impl, "B")
        if one and t0 and is_list(t0) and func in ("sum", "sorted", "max", "min"):
            # Without a none among the values, the builtin's filtering changes nothing.
            x = fn.tmp()
            if func == "sum":
                return f"(sum({x}) if None not in ({x} := {one}) else {generic}(st, {x}))"
            if func == "sorted":
                return f"(tuple(sorted({x})) if None not in ({x} := {one}) else {generic}(st, {x}))"
            return f"({func}({x}) if ({x} := {one}) and None not in {x} else {generic}(st, {x}))"
        if func in ("max", "min") and len(codes) == 2 and all(ty == INT for ty in types):
            x = fn.tmp()
            return f"({func}({x}) if None not in ({x} := ({codes[0]}, {codes[1]})) else {generic}(st, *{x}))"
        return None

    def _players_from(self) -> str:
        if getattr(self, "_players_from_table", None) is None:
            top = max(int(self.t.max_players or 0), 1)
            table = tuple(tuple(tuple((p + i) % n for i in range(n)) for p in range(n)) if n else ()
                          for n in range(top + 1))
            self._players_from_table = self.const(table, "PF")
        return self._players_from_table

    def _plain_zone(self, e) -> bool:
        """A zone named directly or by `zone[player]` with a plain player expression."""
        if isinstance(e, n.Name):
            return True
        if isinstance(e, n.Index) and self.t.types.get(id(e.obj)) == ZONES:
            return isinstance(e.index, (n.Name, n.Literal))
        return False

    def _x_Unary(self, e, env, fn):
        lines, code = self.lower(e.operand, env, fn)
        if e.op == "not":
            return lines, self._never_none(f"(not {code})")
        if e.op == "neg" and INT_LITERAL.match(code) and not lines:
            return [], str(-int(code))
        if e.op != "neg":
            raise AssertionError("unary")  # the checker rejects it
        msg, span = self.const("cannot negate none"), self.const(e.span, "S")
        value, cond = self._checked(code, env, fn)
        if not cond:
            return lines, f"(-{value})"
        return lines, f"(-{value} if {cond} else _fail({msg}, {span}))"

    def _x_IfExpr(self, e, env, fn):
        if isinstance(e.orelse, n.IfExpr) and id(e.orelse) not in self.t.coerced:
            return self._else_if_chain(e, env, fn)
        cl, cond = self.lower(e.cond, env, fn)
        with self._nested_in(0, 1):
            tl, then = self.lower(e.then, env, fn)
            el, other = self.lower(e.orelse, env, fn)
        if not tl and not el:
            return cl, f"({then} if {cond} else {other})"
        tmp = fn.tmp()
        return cl + [f"if {cond}:"] + indent(tl + [f"{tmp} = {then}"]) + \
            ["else:"] + indent(el + [f"{tmp} = {other}"]), tmp

    def _else_if_chain(self, e, env, fn):
        """`if A then a else if B then b ... else z`: each test written after the one before, run
        only while none has held (a flag), so a chain of any length indents its code twice at
        most; nested, a chain of 100 links passed Python's 100 levels of indentation.  In traced
        code each inner `if`'s value is traced, innermost first, as nesting would have it."""
        links, last = [], e
        while isinstance(last, n.IfExpr) and (last is e or id(last) not in self.t.coerced):
            links.append(last)
            last = last.orelse
        parts = []
        with self._nested_in(0, 2):  # each test after the first under `if not done:`, its value under it
            for link in links:  # lowered in the order of the nested form: each test, then its value
                parts.append((*self.lower(link.cond, env, fn), *self.lower(link.then, env, fn)))
            el, other = self.lower(last, env, fn)
        if not self.traced and not el and len(links) < _SPILL_HEIGHT and not any(cl or tl for cl, _, tl, _ in parts):
            return [], "(" + "".join(f"{then} if {cond} else " for _, cond, _, then in parts) + f"{other})"
        tmp, done, reached = fn.tmp(), fn.tmp("d"), fn.tmp("r")
        lines = [f"{done} = False"] + ([f"{reached} = 0"] if self.traced else [])
        for k, (cl, cond, tl, then) in enumerate(parts):
            test = cl + [f"if {cond}:"] + indent(tl + [f"{tmp} = {then}", f"{done} = True"])
            lines += test if k == 0 else [f"if not {done}:"] + indent(([f"{reached} = {k}"] if self.traced else []) + test)
        lines += [f"if not {done}:"] + indent(el + [f"{tmp} = {other}"])
        if self.traced:  # the head's own value is traced by lower, as any expression's
            for k in range(len(links) - 1, 0, -1):
                typ = self._value(self.t.types.get(id(links[k]), "any"))
                lines += [f"if {reached} >= {k}:", f"    _trace({self.const(links[k], 'N')}, {typ}, {tmp})"]
        return lines, tmp

    def _x_ListLit(self, e, env, fn):
        value = self._constant(e) if not self.traced else UNSET  # traced: its items are shown
        if value is not UNSET:
            return [], self._value(value)
        lines, codes = self.lower_all(e.items, env, fn)
        return lines, "(" + "".join(c + ", " for c in codes) + ")"

    def _x_RecordLit(self, e, env, fn):
        """A record: its fields computed in the order written, kept in the order declared,
        one unit of work per field."""
        names = [f for f, _ in self.t.record_fields[e.name]]
        lines, codes = self.lower_all([f.value for f in e.fields], env, fn)
        given = dict(zip((f.name for f in e.fields), codes))
        if [f.name for f in e.fields] != names:  # written in another order: computed first, as written
            for f in e.fields:
                if not ATOM.match(given[f.name]):
                    tmp = fn.tmp()
                    lines.append(f"{tmp} = {given[f.name]}")
                    given[f.name] = tmp
        lines = lines + self.charge(str(len(names)), e.span)
        code = "(" + "".join(given[x] + ", " for x in names) + ")"
        self._nonnull_codes.add(code)
        return lines, code

    def _x_Binary(self, e, env, fn):
        op = e.op
        t = self.t
        if op in ("and", "or"):
            ll, left = self.lower(e.left, env, fn)
            with self._nested_in(0, 1):
                rl, right = self.lower(e.right, env, fn)
            if not rl:
                return ll, f"({left} {op} {right})"
            tmp = fn.tmp()
            test = f"if {tmp}:" if op == "and" else f"if not {tmp}:"
            return ll + [f"{tmp} = {left}", test] + indent(rl + [f"{tmp} = {right}"]), tmp
        if op in ("==", "!="):
            lines, (left, right) = self.lower_all((e.left, e.right), env, fn)
            if right == "None" or left == "None":  # values are ints, texts, tuples and none
                word = "is" if op == "==" else "is not"
                return lines, self._never_none(f"({left} {word} {right})")
            record = next((x for x in (t.types.get(id(e.left)), t.types.get(id(e.right))) if x and is_record(x)), None)
            if record is not None:  # records compare field by field: one unit per field
                lines = lines + self.charge(str(len(t.record_fields[record_name(record)])), e.span)
            return lines, self._never_none(f"({left} {op} {right})")
        if op in ("in", "notin"):
            lines, (left, right) = self.lower_all((e.left, e.right), env, fn)
            word = "in" if op == "in" else "not in"
            seq = fn.tmp("s")
            whole = f"st.zones[{right}]" if t.types[id(e.right)] == ZONE else f"({right} or ())"
            if not ATOM.match(left):
                tmp = fn.tmp()
                lines, left = lines + [f"{tmp} = {left}"], tmp
            if isinstance(self.ns.get(right), tuple) and right in self._nonnull_consts:  # `in [J, Q, K]`
                return lines + self.charge(str(len(self.ns[right])), e.span), f"({left} {word} {right})"
            return lines + [f"{seq} = {whole}"] + self.charge(f"len({seq})", e.span), f"({left} {word} {seq})"
        ltype, rtype = t.types[id(e.left)], t.types[id(e.right)]
        span = self.const(e.span, "S")
        order = next((order_name(x) for x in (ltype, rtype) if is_ordered(x)), None)
        if order is not None and op in ("<", "<=", ">", ">="):  # by the places in the declared order
            ll, a = self.place(e.left, order, env, fn)
            rl, b = self.place(e.right, order, env, fn)
            if rl and not ATOM.match(a):
                tmp = fn.tmp()
                ll, a = ll + [f"{tmp} = {a}"], tmp
            none_msg = self.const(f"`{op}` compares `{order}` values, but one side is none")
            x, y = fn.tmp(), fn.tmp()
            return ll + rl, f"(({x} {op} {y}) if ({x} := {a}) is not None and ({y} := {b}) is not None " \
                            f"else _fail({none_msg}, {span}))"
        if op == "+" and TEXT in (ltype, rtype):  # before lists: `"Beat " + cards` shows the cards
            lines, (left, right) = self.lower_all((e.left, e.right), env, fn)
            if ltype == rtype == TEXT and not self.traced:
                return lines, f"{self.const(texts_plus, 'H')}(st, {left}, {right}, {span})"
            return lines, f"{self.const(text_plus, 'H')}(st, {self._value(ltype)}, {self._value(rtype)}, " \
                          f"{left}, {right}, {span})"
        if op == "+" and (is_list(ltype) or is_list(rtype)):
            lines, (left, right) = self.lower_all((e.left, e.right), env, fn)
            return lines, f"{self.const(concat, 'H')}(st, {left}, {right})"
        if op not in ("+", "-", "*", "/", "%", "^", "<", "<=", ">", ">="):
            raise AssertionError(f"operator {op}")  # the checker rejects it
        lines, (left, right) = self.lower_all((e.left, e.right), env, fn)
        a, acond = self._checked(left, env, fn)
        b, bcond = self._checked(right, env, fn)
        conds = [c for c in (acond, bcond) if c]
        none_msg = self.const(f"`{op}` needs two numbers, but one side is none")
        hint = self.const("check that the values exist (an empty zone's top card is none)")
        if op in ("<", "<=", ">", ">="):
            value = f"({a} {op} {b})"
        elif op == "^":  # gen_runtime.power: charged a unit a multiplication, within the number limit
            value = f"{self.const(power, 'H')}(st, {a}, {b}, {span})"
        else:
            py = {"+": "+", "-": "-", "*": "*", "/": "//", "%": "%"}[op]
            big = self.const(f"a number grew beyond the limit of {limits.MAX_INT}")
            r = fn.tmp()
            # two comparisons joined by `and`: two instructions fewer than a chained one
            value = f"({r} if ({r} := {a} {py} {b}) <= {limits.MAX_INT} and {r} >= {-limits.MAX_INT} " \
                    f"else _fail({big}, {span}))"
            if op in ("/", "%"):
                zero = self.const("division by zero")
                value = f"({value} if {b} != 0 else _fail({zero}, {span}))"
        if not conds:
            return lines, self._never_none(value)
        if len(conds) == 1:
            test = conds[0]
        else:  # both sides are evaluated before either is looked at
            test = "not (" + " | ".join(f"(not ({c}))" for c in conds) + ")"
        return lines, self._never_none(f"({value} if {test} else _fail({none_msg}, {span}, {hint}))")

    def place(self, e, order: str, env, fn):
        """(lines, code) for the place of e's value in the declared order of attribute `order`,
        none for none: a constant's place is written in, `c.rank` reads a per-card table of
        places (fast mode; traced mode shows the value itself, then looks it up)."""
        value = self._constant(e)
        positions = self._order_places(order)
        if value is not UNSET:
            return [], repr(positions.get(value))  # the checker found it in the order
        if isinstance(e, n.Attr) and e.name == order and not self.traced \
                and not is_record(self.t.types.get(id(e.obj), "any")):
            return self._x_Attr(e, env, fn, self._card_places(order))
        lines, code = self.lower(e, env, fn)
        lookup = self.const(OrderPlaces(order, positions), "OP")
        return lines, f"{lookup}({code}, {self.const(e.span, 'S')})"

    def _order_places(self, order: str) -> dict:
        found = self._places.get(order)
        if found is None:
            found = self._places[order] = places(self.t.orders[order])
        return found

    def _card_places(self, order: str) -> list:
        """Card id -> the place of its value in the order (none for a card without the attribute)."""
        key = "cards:" + order
        if key not in self._places:
            positions = self._order_places(order)
            self._places[key] = [None if v is None else positions[v] for v in self.p.attr_tables[order]]
        return self._places[key]

    def _loop(self, e, env, fn, var_prefix="q"):
        """Start of a loop over e.source: (lines before, loop header, env inside, var, writeback lines)."""
        slot = self.t.slots[id(e)]
        src_lines, seq, nonnull = self._iter(e.source, env, fn, charge=True)
        var = fn.tmp(var_prefix)
        inner = env.bind(slot, var, nonnull)
        before, after = list(src_lines), []
        if env.l_mode:
            before.append(f"{var} = _UNSET")
            after = [f"if {var} is not _UNSET:", f"    L[{slot}] = {var}"]
        return before, f"for {var} in {seq}:", inner, var, after

    def _loop_part(self, loop, part, env, fn, before, lower=None):
        """A quantifier's condition (or key, or item): what in it does not depend on the loop
        variable is computed once per loop, declared in the lines before it."""
        outer, self._hoist = self._hoist, (None if self.traced else Hoister({self.t.slots[id(loop)]}, before))
        try:
            with self._nested_in(1, 2):  # in the loop, itself in a `try` when it is the innermost
                return (lower or self.lower)(part, env, fn)
        finally:
            self._hoist = outer

    def _cached(self, lines, code, fn, hoister):
        """Lines computing an expression that does not depend on the candidate at most once per
        enumeration, and the name holding it.  Each later use charges the work the computation
        took, or, when that would pass the work budget, computes it again so the budget runs
        out exactly where it would have.

        The same computation met again shares the slot: one without lines, or, in a playout
        listing, one whose lines only charge constants (a definition's call: its value and its
        work are the same at every use, as nothing changes while a listing runs); a later use
        of a computed slot charges its work again."""
        key = self._shared_key(lines, code)
        if key is not None and key in hoister.names:  # the same computation met again: one slot
            h, hw, hl, w0 = hoister.names[key]
            if lines:
                block = [f"if {h} is _UNSET:", f"    {w0} = st.work"] + indent(lines) + \
                    [f"    {h} = {code}", f"    {hw} = st.work - {w0}", "else:", f"    st.work += {hw}"]
                self._eager[id(block)] = (block, block, None)  # computed once even where the first use ran
                return block, h
        else:
            h, hw, hl, w0 = fn.tmp("h"), fn.tmp("hw"), fn.tmp("hl"), fn.tmp()
            hoister.pre.append(f"{h} = _UNSET")
            if key is not None:
                hoister.names[key] = (h, hw, hl, w0)
        if not any("st.work" in line or "D_" in line for line in lines) and "D_" not in code:
            block = [f"if {h} is _UNSET:"] + indent(lines + [f"{h} = {code}"])  # charges no work
            if self._optimistic:
                self._eager[id(block)] = (block, lines + [f"{h} = {code}"], None)
            return block, h
        if self._optimistic or self._deferred:  # the limit is checked at the end of the listing or loop
            block = [f"if {h} is _UNSET:", f"    {w0} = st.work"] + indent(lines) + \
                [f"    {h} = {code}", f"    {hw} = st.work - {w0}", "else:", f"    st.work += {hw}"]
            if self._optimistic:
                self._eager[id(block)] = (block, [f"{w0} = st.work"] + lines + [f"{h} = {code}", f"{hw} = st.work - {w0}"], hw)
            return block, h
        # One copy of the lines, computing the value the first time and again where charging its
        # work would pass the limit: two copies would double the code at each loop a hoisted
        # computation sits in (ten nested quantifiers took minutes and gigabytes to load).
        return ([f"if {h} is _UNSET or {hw} and st.work > {hl}:", f"    {w0} = st.work"] + indent(lines) +
                [f"    {h} = {code}", f"    {hw} = st.work - {w0}", f"    {hl} = st.work_limit - {hw}",
                 "else:", f"    st.work += {hw}"]), h

    def _shared_key(self, lines, code):
        """What identifies a computation whose slot later uses may share (see _cached), or None."""
        if not lines:
            return code
        if self._optimistic and all(CONSTANT_CHARGE.match(line) for line in lines):
            return tuple(lines), code
        return None

    def _deferring(self, e, head, body, every=None):
        """A loop (`head`: its first lines and its `for` line; body(): the lines of its body)
        whose constant charges are added as they come but checked once, after it: the same
        additions in the same order, so a total within the limit means every check would have
        passed.  Past the limit (at the end, or at a fault), the work goes back to where it was
        and the loop runs again with every check in place, so it faults where it would have.
        Only a loop with no loop inside (each round's unchecked work is a constant) and no
        chance draw (it may run twice).

        `every`: the sequence, when the loop visits each of its items (no `break`): then the
        charges every round makes are added once, for all rounds, after the loop, and any
        fault reruns the exact loop (the work at the fault is then the exact one)."""
        exact = body()
        # a loop inside gains nothing (checked below), and writing its body twice would double
        # the code at each level of nested loops: only the innermost loop is written twice
        if self.traced or self._optimistic or self._deferred or self.draws(e) or \
                any(x.lstrip().startswith("for ") or "st.emit" in x for x in exact):
            return head + indent(exact)
        self._deferred, deferrals = True, self._deferrals
        try:
            fast = body()
        finally:
            self._deferred = False
        if self._deferrals == deferrals or not _every_round_charges(fast):
            return head + indent(exact)  # nothing saved at every round: the check after would cost more
        w = self.tmp("w")
        summed = _charges_of_every_round(fast, every) if every is not None else None
        if summed is not None:
            redo = self.tmp()
            fast, total = summed
            return [f"{w} = st.work", "try:"] + indent(head + indent(_merge_charges(fast)) + total + [
                f"{redo} = st.work > st.work_limit"]) + ["except Exception:", f"    {redo} = True",
                                                         f"if {redo}:", f"    st.work = {w}"] + \
                indent(head + indent(exact))
        return [f"{w} = st.work", "try:"] + indent(head + indent(_merge_charges(fast))) + \
            ["except Exception:", "    if st.work <= st.work_limit:", "        raise",  # else the exact run faults
             "if st.work > st.work_limit:", f"    st.work = {w}"] + indent(head + indent(exact))

    def _x_Quant(self, e, env, fn):
        before, header, inner, var, after = self._loop(e, env, fn)
        result = fn.tmp()
        init = {"any": "False", "all": "True", "no": "True", "count": "0"}.get(e.kind)
        if init is None:
            raise AssertionError("quantifier")  # the checker rejects it

        def body():
            cl, cond = self._loop_part(e, e.cond, inner, fn, before)
            if e.kind == "any":
                return cl + [f"if {cond}:", f"    {result} = True", "    break"]
            if e.kind == "all":
                return cl + [f"if not {cond}:", f"    {result} = False", "    break"]
            if e.kind == "no":
                return cl + [f"if {cond}:", f"    {result} = False", "    break"]
            return cl + [f"if {cond}:", f"    {result} += 1"]
        every = _loop_seq(header, var) if e.kind == "count" else None  # the others stop at an answer
        return before + self._deferring(e, [f"{result} = {init}", header], body, every) + after, result

    def _x_Best(self, e, env, fn):
        if e.kind not in ("max", "min", "sorted"):
            raise AssertionError("best")  # the checker rejects it
        before, header, inner, var, after = self._loop(e, env, fn)
        if e.kind == "sorted":
            kl, keys = self._keys(e, inner, fn, before)
            return self._sorted_by(e, before, header, kl, keys, var, after, fn)
        found, found_key, k = fn.tmp(), fn.tmp(), fn.tmp()
        cmp = ">" if e.kind == "max" else "<"

        def body():
            kl, keys = self._keys(e, inner, fn, before)
            if len(keys) == 1:
                kl = kl + [f"{k} = {keys[0]}"]
            else:  # several keys: compared in turn; an item is skipped if any of them is none
                kl = kl + [f"{k} = ({''.join(x + ', ' for x in keys)}) if {' and '.join(x + ' is not None' for x in keys)}"
                           " else None"]
            return kl + [f"if {k} is None:", "    continue",
                         f"if {found_key} is None or {k} {cmp} {found_key}:",
                         f"    {found} = {var}", f"    {found_key} = {k}"]
        return before + self._deferring(e, [f"{found} = None", f"{found_key} = None", header], body,
                                        _loop_seq(header, var)) + after, found

    def _keys(self, e, inner, fn, before):
        """(lines, [name holding each key]) for `by KEY` or `by [KEY, KEY, ...]`: a number as it
        is, a value of an ordered attribute as its place in the order."""
        parts = e.key.items if isinstance(e.key, n.ListLit) and e.key.items else (e.key,)
        lines, names = [], []
        for part in parts:
            typ = self.t.types[id(part)]
            lower = (lambda x, en, f, order=order_name(typ): self.place(x, order, en, f)) if is_ordered(typ) else None
            ls, code = self._loop_part(e, part, inner, fn, before, lower)
            if len(parts) == 1 and e.kind != "sorted":
                return ls, [code]
            name = fn.tmp("k")
            lines += ls + [f"{name} = {code}"]
            names.append(name)
        return lines, names

    def _sorted_by(self, e, before, header, kl, keys, var, after, fn):
        """`sorted x in L by KEYS`: stable (L's order on equal keys); a none key sorts after every
        value; sorting n items costs n log n units, as `sorted(L)` does."""
        pairs, out = fn.tmp(), fn.tmp()
        key = "(" + "".join(f"{k} is None, {k} if {k} is not None else 0, " for k in keys) + ")"
        sort = [f"{out} = tuple(x for _, x in sorted({pairs}, key=lambda kx: kx[0]))"]
        return before + [f"{pairs} = []", header] + indent(kl + [f"{pairs}.append(({key}, {var}))"]) + after + \
            self.charge(f"len({pairs}) * max(1, len({pairs}).bit_length())", e.span) + sort, out

    def _x_Pattern(self, e, env, fn):
        """`groups`/`runs ... by KEY`: the items and their keys (places, for an ordered key)
        collected by one loop, then patterns.py makes the lists, charging what it makes."""
        lines, least = self.lower(e.least, env, fn) if e.least is not None else ([], "1")
        before, header, inner, var, after = self._loop(e, env, fn)
        key_type = self.t.types[id(e.key)]
        if e.kind == "runs" and is_ordered(key_type):
            order = order_name(key_type)
            kl, key = self._loop_part(e, e.key, inner, fn, before, lambda x, en, f: self.place(x, order, en, f))
        else:
            kl, key = self._loop_part(e, e.key, inner, fn, before)
        items, keys, result = fn.tmp(), fn.tmp(), fn.tmp()
        body = kl + [f"{items}.append({var})", f"{keys}.append({key})"]
        span = self.const(e.span, "S")
        wrong = self.const(f"`{e.kind} ... by` cannot use these keys" + (" (numbers?)" if e.kind == "runs" else ""))
        made = ["try:", f"    {result} = _pattern(st, {e.kind!r}, {items}, {keys}, {least})",
                "except TypeError:", f"    _fail({wrong}, {span})",
                "except ScriptRuntimeError as _refused:", "    if _refused.span is None:",
                f"        _refused.span = {span}", "    raise"]
        return lines + before + [f"{items} = []", f"{keys} = []", header] + indent(body) + after + made, result

    def _x_Comprehension(self, e, env, fn):
        if isinstance(e.source, n.ListLit) and len(e.source.items) == 1 and not e.flat and not self.traced:
            return self._one_item(e, env, fn)
        before, header, inner, var, after = self._loop(e, env, fn)
        out = fn.tmp()

        def body():
            bl, item = self._loop_part(e, e.expr, inner, fn, before)
            # several `for` clauses: the inner comprehension's list is joined on (its items were charged)
            append = bl + ([f"{out}.extend({item})"] if e.flat else [f"{out}.append({item})"])
            if e.cond is None:
                return append
            cl, cond = self._loop_part(e, e.cond, inner, fn, before)
            return cl + [f"if {cond}:"] + indent(append)
        return before + self._deferring(e, [f"{out} = []", header], body, _loop_seq(header, var)) + after + \
            [f"{out} = tuple({out})"], out

    def _one_item(self, e, env, fn):
        """`[f(x) for x in [v] where P(x)]`: a let and an if, not a walk.  The same work in the
        same order as the walk of a one-item list: the item, then the walk (1), then the
        rest; the list made is a tuple of one item or none."""
        (item,) = e.source.items
        lines, code = self.lower(item, env, fn)
        var, out = fn.tmp("q"), fn.tmp()
        inner = env.bind(self.t.slots[id(e)], var, self._nonnull(code, env))
        lines = lines + [f"{var} = {code}"] + self.charge("1", e.source.span)
        bl, value = self.lower(e.expr, inner, fn)
        if e.cond is None:
            lines += bl + [f"{out} = ({value},)"]
        else:
            cl, cond = self.lower(e.cond, inner, fn)
            lines += cl + [f"{out} = ()", f"if {cond}:"] + indent(bl + [f"{out} = ({value},)"])
        if env.l_mode:
            lines.append(f"L[{self.t.slots[id(e)]}] = {var}")
        return lines, out

    def _x_LetExpr(self, e, env, fn):
        slot = self.t.slots[id(e)]
        lines, value = self.lower(e.value, env, fn)
        var = fn.tmp("l")
        lines = lines + [f"{var} = {value}"]
        if env.l_mode:  # as a `let` statement leaves its slot
            lines.append(f"L[{slot}] = {var}")
        inner = env.bind(slot, var, self._nonnull(value, env))
        hoister = self._hoist
        if hoister is not None:  # inside a loop, the name changes with the loop's round
            outer_variant, hoister.variant = hoister.variant, hoister.variant | {slot}
        try:
            body_lines, body = self.lower(e.body, inner, fn)
        finally:
            if hoister is not None:
                hoister.variant = outer_variant
        return lines + body_lines, body
