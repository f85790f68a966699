"""Expressions in the kernel mode of the generator: a checked expression as kernel-language
lines and one integer expression (kernel_layout says how values are integers), `lower(e, env)`
-> (lines to run first, code), as gen_exprs.Expressions does for Python.

Each construct keeps the semantics the Python modes give it, value for value and unit of work
for unit of work: the same items walked and paid for (a quantifier pays its list's length before
its first round), the same none rules (none flows through attributes, indexing, `top`...; arithmetic
on none is a fault), the same built-ins.  A fault, or a value the kernel does not represent (a
text made while playing compared with another), stops the game in the kernel (`bail`): the Python
path then plays that game, and gives its fault's message and span.  What the kernel mode does not
write at all raises KernelUnsupported, which names the construct and where it is: the script then
plays on the Python path.
"""

from __future__ import annotations

from ..language import limits, nodes as n
from ..language.builtins import CHANCE, ORDER_FUNCTIONS
from ..language.orders import places
from ..language.types import (BOOL, CARD, INT, PLAYER, SYMBOL, TEAM, TEXT, ZONE, ZONES, element, is_list, is_ordered,
                              is_record, order_name, record_name)
from .gen_common import CHANCE_MARK, constant_value, indent
from .kernel_layout import COMPUTED

_SCALARS = (INT, BOOL, CARD, PLAYER, ZONE, TEAM, SYMBOL)


class KernelUnsupported(Exception):
    """A construct the kernel mode does not write: the script plays on the Python path."""

    def __init__(self, what: str, span=None):
        super().__init__(what)
        self.what, self.span = what, span

    def where(self) -> str:
        return f"{self.span.path}:{self.span.line}" if self.span is not None else "?"


class KEnv:
    """How kernel code reaches locals: a frame's slots in FL (phases, procedures, events, at the
    frame base `fb`), or named kernel locals (definitions and rules, whose frames nobody sees)."""

    def __init__(self, frame: bool, names=None, depth=None):
        self.frame, self.names, self.depth = frame, dict(names or {}), depth

    def bind(self, slot: int, name: str) -> "KEnv":
        env = KEnv(self.frame, self.names, self.depth)
        env.names[slot] = name
        return env

    def local(self, slot: int) -> str:
        name = self.names.get(slot)
        if name is not None:
            return name
        if self.frame:
            return f"FL[fb + {slot + 2}]"
        raise KernelUnsupported(f"local slot {slot} outside its frame")


def free_slots(t, e) -> frozenset:
    """The local slots `e` reads that it does not bind itself (gen_exprs.Expressions.free_slots)."""
    used, bound = set(), set()
    for x in n.walk(e):
        if isinstance(x, n.Name):
            kind, detail = t.resolved.get(id(x), (None, None))
            if kind == "local":
                used.add(detail)
        elif isinstance(x, (n.Quant, n.Best, n.Comprehension, n.Pattern, n.LetExpr)):
            bound.add(t.slots[id(x)])
    return frozenset(used - bound)


def _atom(code: str) -> bool:
    return code.isidentifier() or code.lstrip("-").isdigit()


class KernelExpressions:
    """Expression lowering of the kernel mode: a part of KernelGen (kernel_gen.py)."""

    # ---- the entry point
    def lower(self, e, env: KEnv):
        method = getattr(self, "_k_" + type(e).__name__, None)
        if method is None:
            raise KernelUnsupported(f"the expression `{type(e).__name__}`", getattr(e, "span", None))
        lines, code = method(e, env)
        if id(e) in self.t.coerced:  # a zone where a list is expected: its cards, read now
            lines, code = lines, f"zone_cards({code})"
        return lines, code

    def lower_all(self, exprs, env):
        """Several expressions left to right, each value held before the next is computed."""
        parts = [self.lower(x, env) for x in exprs]
        lines, codes = [], []
        for i, (ls, code) in enumerate(parts):
            lines.extend(ls)
            if not _atom(code) and any(p[0] for p in parts[i + 1:]) or "(" in code:
                tmp = self.tmp()
                lines.append(f"{tmp} = {code}")
                code = tmp
            codes.append(code)
        return lines, codes

    def held(self, lines, code, prefix="t"):
        """(lines, a name) holding `code`'s value, to read it more than once."""
        if _atom(code):
            return lines, code
        tmp = self.tmp(prefix)
        return lines + [f"{tmp} = {code}"], tmp

    def typ(self, e) -> str:
        return self.t.types.get(id(e), "any")

    def truth(self, code: str, typ: str, span=None) -> str:
        """A K condition: whether a value of type `typ` counts as true, as Python's `bool`."""
        if typ in (BOOL, INT) or is_ordered(typ) and typ.endswith(":int"):
            return f"({code} != 0 and {code} != NONE)"
        raise KernelUnsupported(f"a condition of type {typ}", span)

    # ---- values
    def string(self, text: str) -> str:
        """The K constant naming a text or symbol (numbered in sorted order when the module is made)."""
        name = self._strings.get(text)
        if name is None:
            name = self._strings[text] = f"STR_{len(self._strings)}"
        return name

    def value(self, v, span=None) -> str:
        """A constant Python value as K code (a list: a constant handle in the heap's first slots)."""
        if v is None:
            return "NONE"
        if type(v) is bool:
            return "1" if v else "0"
        if type(v) is int:
            if not -limits.MAX_INT <= v <= limits.MAX_INT:
                raise KernelUnsupported("a number past the limit", span)
            return str(v)
        if type(v) is str:
            return self.string(v)
        if isinstance(v, tuple):
            return self.constant_list(tuple(self.value(x, span) for x in v))
        raise KernelUnsupported(f"a constant {type(v).__name__}", span)

    def _k_Literal(self, e, env):
        if e.kind not in ("int", "text", "bool", "none"):
            raise KernelUnsupported("a literal", e.span)
        return [], self.value(e.value, e.span)

    def _k_Name(self, e, env):
        t, p = self.t, self.p
        kind, detail = t.resolved[id(e)]
        if kind == "local":
            return [], env.local(detail)
        if kind in ("global", "option"):
            slot = p.var_slots[detail]
            if kind == "global" and t.vars[detail][0].indexed:
                count = "S[N]" if t.vars[detail][0].per_player else "S[TEAM_COUNT]"
                return [], f"row_list({self.var_base(slot)}, {count})"
            return [], f"V[{self.var_base(slot)}]"
        if kind in ("zone", "zones"):
            return [], str(p.zone_index[detail][1])
        if kind in ("symbol", "card"):
            return [], self.value(detail, e.span)
        if kind == "constant":
            return [], {"players": "S[PLAYERS]", "player_count": "S[N]", "teams": "S[TEAMS]",
                        "team_count": "S[TEAM_COUNT]"}[detail]
        if kind == "define":
            value = self._constant(e)
            if value is not _UNSET:
                return [], self.value(value, e.span)
            return ["charge(1)"], f"{self.kept_call(detail, ())}()"
        raise KernelUnsupported(f"a name of kind {kind}", e.span)

    def _constant(self, e):
        """The value of a constant expression, or _UNSET (gen_exprs.Expressions._constant)."""
        return constant_value(self.t, e, _UNSET)

    def _k_Attr(self, e, env):
        obj_type = self.typ(e.obj)
        lines, obj = self.lower(e.obj, env)
        lines, obj = self.held(lines, obj)
        if is_record(obj_type):
            k = [f for f, _ in self.t.record_fields[record_name(obj_type)]].index(e.name)
            return lines, f"(NONE if {obj} == NONE else item({obj}, {k}))"
        table = self.attr_table(e.name)
        return lines, f"(NONE if {obj} == NONE else {table}[{obj}])"

    def attr_table(self, attr: str) -> str:
        values = self.p.attr_tables.get(attr)
        if values is None:
            raise KernelUnsupported(f"the attribute `{attr}`")
        return self.table(f"AT_{attr}", tuple(self.value(v) for v in values))

    def _k_Index(self, e, env):
        t, p = self.t, self.p
        obj_type = t.types[id(e.obj)]
        if obj_type == ZONES:
            k = p.zone_index[t.resolved[id(e.obj)][1]][1]
            lines, idx = self.held(*self.lower(e.index, env))
            return lines + [f"if {idx} == NONE or {idx} < 0 or {idx} >= S[N]:", "    bail(FAULT)"], \
                f"({self.shared_zones} + {k} * S[N] + {idx})"
        resolved = t.resolved.get(id(e.obj))
        if resolved and resolved[0] == "global" and t.vars[resolved[1]][0].indexed:
            var = t.vars[resolved[1]][0]
            lines, idx = self.held(*self.lower(e.index, env))
            count = "S[N]" if var.per_player else "S[TEAM_COUNT]"
            base = self.var_base(p.var_slots[resolved[1]])
            return lines + [f"if {idx} < 0 or {idx} >= {count}:", "    bail(FAULT)"], f"V[{base} + {idx}]"
        lines, seq = self.held(*self.lower(e.obj, env))
        il, idx = self.lower(e.index, env)
        lines, idx = self.held(lines + il, idx)
        if obj_type == ZONE:
            return lines + [f"charge(ZN[{seq}])"], f"zone_item({seq}, {idx})"
        if not is_list(obj_type):
            raise KernelUnsupported(f"indexing a value of type {obj_type}", e.span)
        return lines + [f"charge(length({seq}))"], f"(NONE if {idx} == NONE else list_item({seq}, {idx}))"

    def _k_Unary(self, e, env):
        lines, code = self.held(*self.lower(e.operand, env))
        if e.op == "not":
            return lines, f"(not {self.truth(code, self.typ(e.operand), e.span)})"
        return lines + [f"if not is_number({code}):", "    bail(FAULT)"], f"(-{code})"

    def _k_IfExpr(self, e, env):
        cl, cond = self.held(*self.lower(e.cond, env))
        tl, then = self.lower(e.then, env)
        el, other = self.lower(e.orelse, env)
        test = self.truth(cond, self.typ(e.cond), e.span)
        if not tl and not el:
            return cl, f"({then} if {test} else {other})"
        tmp = self.tmp()
        return cl + [f"if {test}:"] + indent(tl + [f"{tmp} = {then}"]) + ["else:"] + \
            indent(el + [f"{tmp} = {other}"]), tmp

    def _k_LetExpr(self, e, env):
        lines, value = self.lower(e.value, env)
        var = self.tmp("l")
        lines = lines + [f"{var} = {value}"]
        return self._then(lines, self.lower(e.body, env.bind(self.t.slots[id(e)], var)))

    @staticmethod
    def _then(lines, lowered):
        more, code = lowered
        return lines + more, code

    def _k_ListLit(self, e, env):
        value = self._constant(e)
        if value is not _UNSET:
            return [], self.value(value, e.span)
        lines, codes = self.lower_all(e.items, env)
        out = self.tmp("b")
        lines = lines + [f"{out} = alloc({len(codes)})"] + [f"H[{out} + {i}] = {c}" for i, c in enumerate(codes)]
        return lines, f"handle({out}, {len(codes)})"

    def _k_RecordLit(self, e, env):
        names = [f for f, _ in self.t.record_fields[e.name]]
        lines, codes = self.lower_all([f.value for f in e.fields], env)
        given = dict(zip((f.name for f in e.fields), codes))
        out = self.tmp("b")
        lines = lines + [f"charge({len(names)})", f"{out} = alloc({len(names)})"]
        lines += [f"H[{out} + {i}] = {given[name]}" for i, name in enumerate(names)]
        return lines, f"handle({out}, {len(names)})"

    # ---- sequences
    def sequence(self, e, env, charge: bool):
        """(lines, kind, name) of a list or zone being walked: kind "zone" (name holds its slot)
        or "list" (a handle; none walks as an empty list), its length paid for when `charge`."""
        typ = self.typ(e)
        lines, code = self.held(*self.lower(e, env), prefix="q")
        if typ == ZONE and id(e) not in self.t.coerced:
            return lines + ([f"charge(ZN[{code}])"] if charge else []), "zone", code
        if not is_list(typ) and typ != ZONE:
            raise KernelUnsupported(f"walking a value of type {typ}", e.span)
        return lines + ([f"charge(length({code}))"] if charge else []), "list", code

    @staticmethod
    def seq_length(kind, seq) -> str:
        return f"ZN[{seq}]" if kind == "zone" else f"length({seq})"

    @staticmethod
    def seq_item(kind, seq, i) -> str:
        return f"Z[{seq} * NC + {i}]" if kind == "zone" else f"item({seq}, {i})"

    def _walk(self, e, env, body, before=(), after=()):
        """A loop over e.source with its variable bound: lines of `body(inner env, item name)`
        (which may `break`), the source paid for first."""
        lines, kind, seq = self.sequence(e.source, env, charge=True)
        i, count, var = self.tmp("i"), self.tmp("n"), self.tmp("x")
        inner = env.bind(self.t.slots[id(e)], var)
        return lines + list(before) + [f"{count} = {self.seq_length(kind, seq)}", f"{i} = 0", f"while {i} < {count}:",
                                       f"    {var} = {self.seq_item(kind, seq, i)}", f"    {i} += 1"] + \
            indent(body(inner, var)) + list(after), (kind, seq, count)

    def _k_Quant(self, e, env):
        result = self.tmp("r")
        init = {"any": "0", "all": "1", "no": "1", "count": "0"}[e.kind]

        def body(inner, var):
            cl, cond = self.held(*self.lower(e.cond, inner))
            test = self.truth(cond, self.typ(e.cond), e.span)
            if e.kind == "any":
                return cl + [f"if {test}:", f"    {result} = 1", "    break"]
            if e.kind == "all":
                return cl + [f"if not {test}:", f"    {result} = 0", "    break"]
            if e.kind == "no":
                return cl + [f"if {test}:", f"    {result} = 0", "    break"]
            return cl + [f"if {test}:", f"    {result} += 1"]
        lines, _ = self._walk(e, env, body, before=[f"{result} = {init}"])
        return lines, result

    def _keys(self, e, inner):
        """(lines, [K name of each key]) for `by KEY` or `by [KEY, ...]`: numbers, or places in
        an order; a key that is neither stops the game (Python's comparison would fail)."""
        parts = e.key.items if isinstance(e.key, n.ListLit) and e.key.items else (e.key,)
        lines, names = [], []
        for part in parts:
            typ = self.typ(part)
            if is_ordered(typ):
                ls, code = self.place(part, order_name(typ), inner)
            else:
                ls, code = self.lower(part, inner)
            name = self.tmp("k")
            lines += ls + [f"{name} = {code}", f"if {name} != NONE and not is_number({name}):", "    bail(UNREPRESENTED)"]
            names.append(name)
        return lines, names

    def _k_Best(self, e, env):
        if e.kind == "sorted":
            return self._sorted_by(e, env)
        width = len(e.key.items) if isinstance(e.key, n.ListLit) and e.key.items else 1
        found, best = self.tmp("f"), [self.tmp("fk") for _ in range(width)]

        def body(inner, var):
            kl, keys = self._keys(e, inner)
            skip = [f"if {' or '.join(f'{k} == NONE' for k in keys)}:", "    continue"]
            better = self._lexically(keys, best, ">" if e.kind == "max" else "<")
            return kl + skip + [f"if {best[0]} == NONE or {better}:", f"    {found} = {var}"] + \
                [f"    {b} = {k}" for b, k in zip(best, keys)]
        lines, _ = self._walk(e, env, body, before=[f"{found} = NONE"] + [f"{b} = NONE" for b in best])
        return lines, found

    @staticmethod
    def _lexically(keys, best, op) -> str:
        """The K condition that the tuple `keys` compares `op` (> or <) the tuple `best`."""
        if len(keys) == 1:
            return f"{keys[0]} {op} {best[0]}"
        terms = []
        for i in range(len(keys)):
            same = [f"{keys[j]} == {best[j]}" for j in range(i)]
            terms.append("(" + " and ".join(same + [f"{keys[i]} {op} {best[i]}"]) + ")")
        return "(" + " or ".join(terms) + ")"

    def _sorted_by(self, e, env):
        """`sorted x in L by KEYS`: stable, a none key after every value; n log n paid after
        the keys are computed (gen_exprs._sorted_by)."""
        width = len(e.key.items) if isinstance(e.key, n.ListLit) and e.key.items else 1
        items, keys, m = self.tmp("b"), self.tmp("b"), self.tmp("m")

        def body(inner, var):
            kl, names = self._keys(e, inner)
            out = [f"H[{items} + {m}] = {var}"]
            for j, k in enumerate(names):
                at = f"({m} * {width} + {j}) * 2"
                out += [f"H[{keys} + {at}] = 1 if {k} == NONE else 0", f"H[{keys} + {at} + 1] = 0 if {k} == NONE else {k}"]
            return kl + out + [f"{m} += 1"]
        lines, kind, seq = self.sequence(e.source, env, charge=True)
        count = self.tmp("n")
        lines += [f"{count} = {self.seq_length(kind, seq)}", f"{items} = alloc({count})",
                  f"{keys} = alloc({count} * {2 * width})", f"{m} = 0"]
        i, var = self.tmp("i"), self.tmp("x")
        inner = env.bind(self.t.slots[id(e)], var)
        lines += [f"{i} = 0", f"while {i} < {count}:", f"    {var} = {self.seq_item(kind, seq, i)}", f"    {i} += 1"]
        lines += indent(body(inner, var))
        out = self.tmp()
        return lines + [f"charge(sort_cost({m}))", f"{out} = sort_by_keys({items}, {keys}, {m}, {width})"], out

    def _k_Comprehension(self, e, env):
        out, m = self.tmp("b"), self.tmp("m")

        def body(inner, var):
            il, value = self.lower(e.expr, inner)
            add = il + [f"H[{out} + {m}] = {value}", f"{m} += 1"]
            if e.cond is None:
                return add
            cl, cond = self.held(*self.lower(e.cond, inner))
            return cl + [f"if {self.truth(cond, self.typ(e.cond), e.span)}:"] + indent(add)
        lines, kind, seq = self.sequence(e.source, env, charge=True)
        count, i, var = self.tmp("n"), self.tmp("i"), self.tmp("x")
        inner = env.bind(self.t.slots[id(e)], var)
        lines += [f"{count} = {self.seq_length(kind, seq)}", f"{out} = alloc({count})", f"{m} = 0",
                  f"{i} = 0", f"while {i} < {count}:", f"    {var} = {self.seq_item(kind, seq, i)}", f"    {i} += 1"]
        lines += indent(body(inner, var))
        if not e.flat:
            return lines, f"handle({out}, {m})"
        total, j, k, flat, part = self.tmp("n"), self.tmp("i"), self.tmp("i"), self.tmp("b"), self.tmp("h")
        return lines + [f"{total} = 0", f"for {j} in range({m}):", f"    {total} += length(H[{out} + {j}])",
                        f"{flat} = alloc({total})", f"{total} = 0", f"for {j} in range({m}):",
                        f"    {part} = H[{out} + {j}]", f"    for {k} in range(length({part})):",
                        f"        H[{flat} + {total}] = item({part}, {k})", f"        {total} += 1"], \
            f"handle({flat}, {total})"

    def _k_Pattern(self, e, env):
        """`groups`/`runs ... by KEY`: the items and their keys (places, for an ordered key of
        `runs`) gathered by one walk, then the lists made as patterns.py makes them."""
        lines, least = self.held(*self.lower(e.least, env)) if e.least is not None else ([], "1")
        items, keys, m = self.tmp("b"), self.tmp("b"), self.tmp("m")
        key_type = self.typ(e.key)

        def body(inner, var):
            if e.kind == "runs" and is_ordered(key_type):
                kl, key = self.place(e.key, order_name(key_type), inner)
            else:
                kl, key = self.lower(e.key, inner)
            return kl + [f"H[{items} + {m}] = {var}", f"H[{keys} + {m}] = {key}", f"{m} += 1"]
        walk, (kind, seq, count) = self._walk(e, env, body)
        count_line = [f"{items} = alloc({self.seq_length(kind, seq)})", f"{keys} = alloc({self.seq_length(kind, seq)})",
                      f"{m} = 0"]
        head = walk.index(next(x for x in walk if x.startswith(f"{count} = ")))
        walk = walk[:head] + count_line + walk[head:]
        made = f"groups_of(handle({items}, {m}), handle({keys}, {m}))" if e.kind == "groups" else \
            f"runs_of(handle({items}, {m}), handle({keys}, {m}), {least})"
        return lines + walk, made

    # ---- operators
    def _k_Binary(self, e, env):
        op = e.op
        if op in ("and", "or"):  # the value of the side that decided, as Python's `and`/`or`
            ll, left = self.held(*self.lower(e.left, env))
            rl, right = self.lower(e.right, env)
            tmp = self.tmp()
            test = self.truth(left, self.typ(e.left), e.span)
            return ll + [f"{tmp} = {left}", f"if {'' if op == 'and' else 'not '}{test}:"] + \
                indent(rl + [f"{tmp} = {right}"]), tmp
        if op in ("==", "!="):
            lines, (left, right) = self.lower_all((e.left, e.right), env)
            more, same = self.equal(left, right, self.typ(e.left), self.typ(e.right), e)
            return lines + more, same if op == "==" else f"(not {same})"
        if op in ("in", "notin"):
            return self._member(e, env)
        ltype, rtype = self.typ(e.left), self.typ(e.right)
        order = next((order_name(x) for x in (ltype, rtype) if is_ordered(x)), None)
        if order is not None and op in ("<", "<=", ">", ">="):
            ll, a = self.held(*self.place(e.left, order, env))
            rl, b = self.held(*self.place(e.right, order, env))
            return ll + rl + [f"if {a} == NONE or {b} == NONE:", "    bail(FAULT)"], f"({a} {op} {b})"
        if op == "+" and TEXT in (ltype, rtype):
            return self._text_plus(e, env)
        if op == "+" and (is_list(ltype) or is_list(rtype)):
            lines, (left, right) = self.lower_all((e.left, e.right), env)
            return lines, f"concat({left}, {right})"
        lines, (a, b) = self.lower_all((e.left, e.right), env)
        lines, a = self.held(lines, a)
        lines, b = self.held(lines, b)
        lines += [f"if not (is_number({a}) and is_number({b})):", "    bail(FAULT)"]
        if op in ("<", "<=", ">", ">="):
            return lines, f"({a} {op} {b})"
        r = self.tmp()
        if op in ("/", "%"):
            lines += [f"if {b} == 0:", "    bail(FAULT)"]
            return lines + [f"{r} = {a} {'//' if op == '/' else '%'} {b}"], r
        if op == "^":  # gen_runtime.power: a unit of work a multiplication, within the number limit
            return lines + [f"{r} = power({a}, {b})"], r
        if op == "*":
            lines += [f"{r} = mul_checked({a}, {b})"]
        else:
            lines += [f"{r} = {a} {op} {b}"]
        return lines + [f"if {r} < -MAX_INT or {r} > MAX_INT:", "    bail(FAULT)"], r

    def equal(self, a: str, b: str, ta: str, tb: str, e, charged: bool = True):
        """(lines, K condition) that a == b, as Python compares the values (tuples item by item;
        `==` on records pays one unit a field, `in` does not)."""
        if a == "NONE" or b == "NONE":
            return [], f"({a} == {b})"
        typ = next((x for x in (ta, tb) if x not in ("any", "none")), "any")
        if ta in (TEXT, "any") or tb in (TEXT, "any"):
            if typ in (TEXT, "any", SYMBOL) or (is_ordered(typ) and not typ.endswith(":int")):
                return [], f"text_equal({a}, {b})"
        if typ in _SCALARS or is_ordered(typ):
            return [], f"({a} == {b})"
        if is_record(typ):
            fields = self.t.record_fields[record_name(typ)]
            return [f"charge({len(fields)})"] if charged else [], f"{self.equality_fn(typ)}({a}, {b})"
        if is_list(typ):
            return [], f"{self.equality_fn(typ)}({a}, {b})"
        raise KernelUnsupported(f"`==` on values of type {typ}", e.span)

    def _member(self, e, env):
        lines, (left, right) = self.lower_all((e.left, e.right), env)
        lines, left = self.held(lines, left)
        rtype = self.typ(e.right)
        found = self.tmp("r")
        word = "" if e.op == "in" else "not "
        if rtype == ZONE:
            lines += [f"charge(ZN[{right}])", f"{found} = {left} != NONE and {left} >= 0 and {left} < NC and "
                                                f"LOC[{left}] == {right}"]
            return lines, f"({word}{found})"
        if not is_list(rtype):
            raise KernelUnsupported(f"`in` a value of type {rtype}", e.span)
        lines, right = self.held(lines, right)
        elem = element(rtype)
        x, i = self.tmp("x"), self.tmp("i")
        _, same = self.equal(left, x, self.typ(e.left), elem, e, charged=False)
        lines += [f"charge(length({right}))", f"{found} = 0", f"for {i} in range(length({right})):",
                  f"    {x} = item({right}, {i})", f"    if {same}:", f"        {found} = 1", "        break"]
        return lines, f"({word}{found})"

    def _text_plus(self, e, env):
        """Text `+` (gen_runtime.text_plus): each side written as people read it, refused past
        the text limit, and paid per character; the text itself is kept as its length."""
        lines, codes = self.lower_all((e.left, e.right), env)
        sizes = []
        for code, part in zip(codes, (e.left, e.right)):
            lines, code = self.held(lines, code)
            size = self.tmp("w")
            lines += [f"{size} = {self.rendered_length(code, self.typ(part), e.span)}",
                      f"if {size} > MAX_TEXT:", "    bail(FAULT)", f"charge({size})"]
            sizes.append(size)
        lines += [f"if {sizes[0]} + {sizes[1]} > MAX_TEXT:", "    bail(FAULT)"]
        return lines, f"({COMPUTED} + {sizes[0]} + {sizes[1]})"

    def rendered_length(self, code: str, typ: str, span) -> str:
        """The K expression of how many characters a value has as render_value writes it."""
        if not _atom(code):
            raise KernelUnsupported("a text of a computed value", span)
        if typ in (TEXT, SYMBOL) or (is_ordered(typ) and not typ.endswith(":int")):
            return f"text_length({code})"
        if typ == INT or (is_ordered(typ) and typ.endswith(":int")):
            return f"(4 if {code} == NONE else digits({code}))"
        if typ in (PLAYER, TEAM):
            return f"(4 if {code} == NONE else 1 + digits({code}))"
        if typ == BOOL:
            return f"(4 if {code} == NONE or {code} == 1 else 5)"
        if typ == CARD:
            return f"(4 if {code} == NONE else {self.card_name_lengths()}[{code}])"
        if typ == ZONE or is_list(typ) or is_record(typ):
            return f"{self.render_length_fn(typ, span)}({code})"
        raise KernelUnsupported(f"a text of a value of type {typ}", span)

    def place(self, e, order: str, env):
        """(lines, code) of the place of e's value in the declared order of `order` (none for none;
        a value with no place there is a fault)."""
        positions = places(self.t.orders[order])
        value = self._constant(e)
        if value is not _UNSET:
            return [], "NONE" if value is None else str(positions[value])
        if isinstance(e, n.Attr) and e.name == order and not is_record(self.typ(e.obj)):
            lines, card = self.held(*self.lower(e.obj, env))
            table = self.table(f"PL_{order}", tuple("NONE" if v is None else str(positions[v])
                                                     for v in self.p.attr_tables[order]))
            return lines, f"(NONE if {card} == NONE else {table}[{card}])"
        lines, code = self.held(*self.lower(e, env))
        return lines, f"{self.place_fn(order, positions)}({code})"

    # ---- calls
    def _k_Call(self, e, env):
        t = self.t
        if e.func in t.defines:
            values = tuple(self._constant(a) for a in e.args)
            if e.args and e.func not in t.recursive and \
                    all(v is not _UNSET and not isinstance(v, tuple) for v in values):  # kept (kernel_memo)
                return ["charge(1)"], f"{self.kept_call(e.func, tuple(self.value(v, e.span) for v in values))}()"
            lines, codes = self.lower_all(e.args, env)
            if e.func in t.recursive:
                codes = [f"{env.depth} + 1" if env.depth else "1"] + codes
            return lines + ["charge(1)"], f"{self.define_fn(e.func)}({', '.join(codes)})"
        if e.func in ORDER_FUNCTIONS:
            return self.place(e.args[0], order_name(self.typ(e.args[0])), env)
        if e.func in CHANCE:
            return self._chance(e, env)
        return self.builtin(e, env)

    def _chance(self, e, env):
        """`random(LIST)` / `random(LOW, HIGH)`: one draw from the game's generator."""
        lines, codes = self.lower_all(e.args, env)
        lines = lines + [CHANCE_MARK]  # a chance point: an operation of its own (compiler._Assembler)
        out = self.tmp()
        if len(codes) == 1:
            typ = self.typ(e.args[0])
            lines, seq = self.held(lines, codes[0])
            if typ == ZONE:
                return lines + [f"if ZN[{seq}] == 0:", "    bail(FAULT)", "charge(1)",
                                f"{out} = Z[{seq} * NC + below(RNG, ZN[{seq}])]"], out
            return lines + [f"if length({seq}) == 0:", "    bail(FAULT)", "charge(1)",
                            f"{out} = item({seq}, below(RNG, length({seq})))"], out
        lines, low = self.held(lines, codes[0])
        lines, high = self.held(lines, codes[1])
        return lines + [f"if {low} == NONE or {high} == NONE or {high} < {low}:", "    bail(FAULT)", "charge(1)",
                        f"{out} = {low} + below(RNG, {high} - {low} + 1)"], out


class _Unset:
    def __repr__(self):
        return "UNSET"


_UNSET = _Unset()
