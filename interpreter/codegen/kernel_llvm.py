"""Kernel source -> LLVM IR: a small compiler for the restricted Python the kernel mode of the
generator writes (docs/internals.md, "Compiled playouts").

The kernel language is Python's syntax with one type: every value is a 64-bit integer.  A module
holds integer constants (`NONE = -9223372036854775808`), constant tables (`AT_rank = (0, 1, 2)`)
and functions (`def f(a, b):`) whose parameters, locals and result are integers.  The state of a
game is one array of integers, the context, which every function receives without naming it:
its regions are named arrays (`S[WORK]`, `Z[slot * 52 + k]`), each at a fixed offset, and every
index into one is checked against its length (a region's length may be read from a slot of the
context: the heap grows with the batch).  Statements: assignment to a name or an item,
`+=`-style assignment, `if`/`elif`/`else`, `while`, `for NAME in range(LOW, HIGH)`, `break`,
`continue`, `return`, a call, `pass`.  Expressions: integers, `True`/`False`, names, items,
`+ - * // % & | ^ << >>` (wrapping 64-bit arithmetic, `//` and `%` rounding down as Python's
do), unary `-`, `~`, `not`, one comparison, `and`/`or`, `A if C else B`, calls.  Intrinsics:
`bail(code)` (a statement: records why the game cannot go on and returns), `lshr(a, k)`,
`umulhi(a, b)` (the high 64 bits of the unsigned 128-bit product), `mul_checked(a, b)` (the
product, or the most negative integer when it overflows).

Nothing a script writes can reach memory outside the context: every index is checked, a
division by zero is refused, shifts are masked, and a fault (an index out of range, `bail`)
stops the whole call: at the top of every loop and after each call of a function that may run
long (`translate`'s `checked`) the status slot is read, and a set status returns at once
(functions named `top_` keep going after their callees' faults: they are where a batch of games
catches one game's fault).  Code after a fault may run on to the next check: every index is still
checked, and what it computes is thrown away with the game.  A local set once, first, and used
only as `REGION[name + constant]` (a frame's base) is checked once, for every such constant.

The same text is plain Python: with the regions as lists it runs in CPython, which the tests use
to read a kernel's behaviour step by step.
"""

from __future__ import annotations

import ast

import attrs

STATUS = 1  # the context's slot of the status: 0 while running, else why a game stopped
BOUNDS = 1  # the status of an index out of its region (a generator bug: never a script's doing)
ZERO_DIVISION = 2
MIN_I64 = -(1 << 63)


class KernelSyntaxError(Exception):
    """Kernel source outside the language (a bug of the generator that wrote it)."""


@attrs.frozen
class Region:
    """A named array in the context: `base` its first slot, `length` its size or, when
    `dynamic`, the slot of the context that holds its size."""

    base: int
    length: int
    dynamic: bool = False


def translate(source: str, regions: dict[str, Region], checked=lambda name: True) -> str:
    """The LLVM IR module of a kernel source; functions named `entry_*` are exported.  After a
    call of a function `checked(name)` says may run long (one that may call itself, or a chain
    that calls each other a power of two times) the status is read; after any other, the next
    loop's top or checked call reads it."""
    tree = ast.parse(source)
    module = _Module(regions, checked)
    for node in tree.body:
        module.declare(node)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            module.function(node)
    return module.text()


class _Module:
    def __init__(self, regions, checked):
        self.regions, self.checked = regions, checked
        self.scalars: dict[str, int] = {}
        self.tables: dict[str, tuple] = {}
        self.functions: dict[str, int] = {}  # name -> number of parameters
        self.out: list[str] = []

    def declare(self, node):
        if isinstance(node, ast.FunctionDef):
            self.functions[node.name] = len(node.args.args)
            return
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name, value = node.targets[0].id, node.value
            if isinstance(value, ast.Tuple):
                self.tables[name] = tuple(_constant(x) for x in value.elts)
                return
            self.scalars[name] = _constant(value)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)) or (isinstance(node, ast.Expr) and
                                                              isinstance(node.value, ast.Constant)):
            return  # the shim's imports and docstrings: nothing for the machine
        raise KernelSyntaxError(f"line {node.lineno}: not a constant or a function")

    def function(self, node: ast.FunctionDef):
        self.out.append(_Function(self, node).text())

    def text(self) -> str:
        head = ["declare {i64, i1} @llvm.smul.with.overflow.i64(i64, i64)"]
        for name, values in self.tables.items():
            items = ", ".join(f"i64 {v}" for v in values) if values else ""
            head.append(f"@{name} = internal unnamed_addr constant [{len(values)} x i64] [{items}]")
        tail = '!0 = !{!"branch_weights", i32 1, i32 100000}'
        return "\n".join(head) + "\n\n" + "\n\n".join(self.out) + "\n\n" + tail + "\n"


def _constant(node) -> int:
    if isinstance(node, ast.Constant) and type(node.value) in (int, bool):
        return int(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_constant(node.operand)
    raise KernelSyntaxError(f"line {node.lineno}: not an integer constant")


_ARITH = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.BitAnd: "and", ast.BitOr: "or",
          ast.BitXor: "xor", ast.LShift: "shl", ast.RShift: "ashr"}
_COMPARE = {ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "slt", ast.LtE: "sle", ast.Gt: "sgt", ast.GtE: "sge"}


class _Function:
    """One function's IR: every local an alloca (LLVM's mem2reg makes them registers)."""

    def __init__(self, module: _Module, node: ast.FunctionDef):
        self.m, self.node = module, node
        self.name = node.name
        self.catches = node.name.startswith("top_")
        self.body: list[str] = []
        self.locals: set[str] = set()
        self.count = 0
        self.loops: list[tuple[str, str]] = []  # (continue label, break label)
        self.terminated = False
        self.current = "entry"  # the label of the block being written
        self.bases: dict = {}
        self.exits: dict[str, str] = {}  # bail code -> the one block that records it and returns

    # ---- emission helpers
    def tmp(self) -> str:
        self.count += 1
        return f"%t{self.count}"

    def label(self, hint: str) -> str:
        self.count += 1
        return f"{hint}{self.count}"

    def emit(self, line: str):
        if not self.terminated:
            self.body.append("  " + line)

    def start(self, label: str):
        if not self.terminated:
            self.body.append(f"  br label %{label}")
        self.body.append(f"{label}:")
        self.terminated = False
        self.current = label

    def jump(self, label: str):
        self.emit(f"br label %{label}")
        self.terminated = True

    def ret(self, value: str):
        self.emit(f"ret i64 {value}")
        self.terminated = True

    def fail(self, where, message):
        raise KernelSyntaxError(f"{self.name}, line {getattr(where, 'lineno', '?')}: {message}")

    # ---- the function
    def text(self) -> str:
        node = self.node
        params = [a.arg for a in node.args.args]
        for stmt in ast.walk(node):
            for target in _targets(stmt):
                self.locals.add(target)
        self.locals.update(params)
        for name in self.locals:
            if name in self.m.regions or name in self.m.tables or name in self.m.scalars:
                self.fail(node, f"`{name}` is a region or a constant, not a local")
        for p in params:
            self.emit(f"store i64 %a_{p}, ptr %v_{p}")
        self.bases = self._bases(params)
        body = list(node.body)
        for name, (region, low, high, first) in self.bases.items():
            if not first:  # a parameter: its range is checked at the start
                self._check_base(name, region, low, high)
        if body and any(first for _, _, _, first in self.bases.values()):
            self.stmt(body.pop(0))
            for name, (region, low, high, first) in self.bases.items():
                if first:
                    self._check_base(name, region, low, high)
        self.block(body)
        if not self.terminated:
            self.ret("0")
        for code, label in sorted(self.exits.items()):
            self.start(label)
            if code != "stopped":
                self._record(code)
            self.ret("0")
        linkage = "" if node.name.startswith("entry_") else "internal "
        head = f"define {linkage}i64 @{node.name}(ptr noalias %ctx{''.join(f', i64 %a_{p}' for p in params)}) {{"
        allocas = [f"  %v_{name} = alloca i64" for name in sorted(self.locals)]
        zero = [f"  store i64 0, ptr %v_{name}" for name in sorted(self.locals) if name not in params]
        return "\n".join([head, "entry:"] + allocas + zero + self.body + ["}"])

    def _bases(self, params) -> dict:
        """name -> (region, lowest constant, highest, set by the first statement) for each local
        set once (a parameter never set, or set by the function's first statement alone) that
        indexes only one static region, always as `name + constant`."""
        sets: dict = {}
        for stmt in ast.walk(self.node):
            for target in _targets(stmt):
                sets[target] = sets.get(target, 0) + 1
        first = self.node.body[0] if self.node.body else None
        once = {p for p in params if p not in sets}
        if isinstance(first, ast.Assign) and len(first.targets) == 1 and isinstance(first.targets[0], ast.Name) \
                and sets.get(first.targets[0].id) == 1:
            once.add(first.targets[0].id)
        uses: dict = {}
        for e in ast.walk(self.node):
            if isinstance(e, ast.Name) and e.id in once:
                uses.setdefault(e.id, []).append(e)
        found = {}
        for name in once:
            offsets, regions, plain = [], set(), 0
            for e in ast.walk(self.node):
                if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name) and isinstance(e.slice, ast.BinOp) \
                        and isinstance(e.slice.op, ast.Add) and isinstance(e.slice.left, ast.Name) \
                        and e.slice.left.id == name and isinstance(e.slice.right, ast.Constant) \
                        and type(e.slice.right.value) is int:
                    offsets.append(e.slice.right.value)
                    regions.add(e.value.id)
                    plain += 1
            region = next(iter(regions)) if len(regions) == 1 else None
            if offsets and region in self.m.regions and not self.m.regions[region].dynamic:
                found[name] = (region, min(offsets), max(offsets), name not in params)
        return found

    def _check_base(self, name, region, low, high):
        """One check that `name + low` .. `name + high` lie in `region`."""
        value = self.tmp()
        self.emit(f"{value} = load i64, ptr %v_{name}")
        lo, hi = self.tmp(), self.tmp()
        self.emit(f"{lo} = add i64 {value}, {low}")
        self.emit(f"{hi} = add i64 {value}, {high}")
        self.checked(lo, str(self.m.regions[region].length))
        self.checked(hi, str(self.m.regions[region].length))

    def block(self, stmts):
        for s in stmts:
            self.stmt(s)

    def stmt(self, s):
        if self.terminated:  # code after a return, break or continue never runs
            self.start(self.label("dead"))
        match s:
            case ast.Assign(targets=[target], value=value):
                v = self.value(value)
                self.store(target, v)
            case ast.AugAssign(target=target, op=op, value=value):
                old = self.value(target)
                new = self.binop(op, old, self.value(value), s)
                self.store(target, new)
            case ast.If():
                self.if_(s)
            case ast.While():
                self.while_(s)
            case ast.For():
                self.for_(s)
            case ast.Break():
                if not self.loops:
                    self.fail(s, "break outside a loop")
                self.jump(self.loops[-1][1])
            case ast.Continue():
                if not self.loops:
                    self.fail(s, "continue outside a loop")
                self.jump(self.loops[-1][0])
            case ast.Return(value=value):
                self.ret(self.value(value) if value is not None else "0")
            case ast.Expr(value=ast.Call(func=ast.Name(id="bail"), args=[code])):
                self.bail(self.value(code))
            case ast.Expr(value=ast.Call() as call):
                self.call(call)
            case ast.Expr(value=ast.Constant(value=str())):
                pass  # a docstring
            case ast.Pass():
                pass
            case _:
                self.fail(s, f"statement {type(s).__name__} is not in the kernel language")

    def bail(self, code: str):
        """Record `code` as the status unless one is set already, and return: a constant code's
        block is shared by the whole function."""
        if code.lstrip("-").isdigit():
            label = self.exits.get(code)
            if label is None:
                label = self.exits[code] = f"bail_{code.lstrip('-')}"
            self.jump(label)
            return
        self._record(code)
        self.ret("0")

    def _record(self, code: str):
        slot, old, keep, new = self.tmp(), self.tmp(), self.tmp(), self.tmp()
        self.emit(f"{slot} = getelementptr i64, ptr %ctx, i64 {STATUS}")
        self.emit(f"{old} = load i64, ptr {slot}")
        self.emit(f"{keep} = icmp ne i64 {old}, 0")
        self.emit(f"{new} = select i1 {keep}, i64 {old}, i64 {code}")
        self.emit(f"store i64 {new}, ptr {slot}")

    def store(self, target, value: str):
        if isinstance(target, ast.Name):
            self.emit(f"store i64 {value}, ptr %v_{target.id}")
        elif isinstance(target, ast.Subscript):
            self.emit(f"store i64 {value}, ptr {self.address(target)}")
        else:
            self.fail(target, "assignment to something other than a name or an item")

    def status_check(self):
        """Return at once when a callee (or a fault before this loop's round) set the status."""
        if self.catches:
            return
        slot, status, bad = self.tmp(), self.tmp(), self.tmp()
        go = self.label("ok")
        self.emit(f"{slot} = getelementptr i64, ptr %ctx, i64 {STATUS}")
        self.emit(f"{status} = load i64, ptr {slot}")
        self.emit(f"{bad} = icmp ne i64 {status}, 0")
        self.emit(f"br i1 {bad}, label %stopped, label %{go}, !prof !0")
        self.terminated = True
        self.exits.setdefault("stopped", "stopped")
        self.start(go)

    def if_(self, s: ast.If):
        yes, no, end = self.label("then"), self.label("else"), self.label("endif")
        cond = self.truth(s.test)
        self.emit(f"br i1 {cond}, label %{yes}, label %{no if s.orelse else end}")
        self.terminated = True
        self.start(yes)
        self.block(s.body)
        self.jump(end)
        if s.orelse:
            self.start(no)
            self.block(s.orelse)
            self.jump(end)
        self.start(end)

    def while_(self, s: ast.While):
        if s.orelse:
            self.fail(s, "while ... else")
        top, body, end = self.label("loop"), self.label("body"), self.label("endloop")
        self.jump(top)
        self.start(top)
        self.status_check()
        if isinstance(s.test, ast.Constant) and s.test.value is True:
            self.jump(body)
        else:
            cond = self.truth(s.test)
            self.emit(f"br i1 {cond}, label %{body}, label %{end}")
            self.terminated = True
        self.start(body)
        self.loops.append((top, end))
        self.block(s.body)
        self.loops.pop()
        self.jump(top)
        self.start(end)

    def for_(self, s: ast.For):
        """`for NAME in range(LOW, HIGH)` (or `range(HIGH)`, or a constant step)."""
        call = s.iter
        if not (isinstance(s.target, ast.Name) and isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                and call.func.id == "range" and 1 <= len(call.args) <= 3) or s.orelse:
            self.fail(s, "only `for NAME in range(...)`")
        args = call.args
        low = self.value(args[0]) if len(args) > 1 else "0"
        high_value = self.value(args[1] if len(args) > 1 else args[0])
        step = _constant(args[2]) if len(args) == 3 else 1
        if step == 0:
            self.fail(s, "a range with step 0")
        var = s.target.id
        end_slot = f"%v___end{self.count}"
        self.count += 1
        self.locals.add(end_slot[3:])
        self.emit(f"store i64 {high_value}, ptr {end_slot}")
        self.emit(f"store i64 {low}, ptr %v_{var}")
        top, body, step_label, end = self.label("for"), self.label("forbody"), self.label("forstep"), self.label("endfor")
        self.jump(top)
        self.start(top)
        self.status_check()
        i, high, more = self.tmp(), self.tmp(), self.tmp()
        self.emit(f"{i} = load i64, ptr %v_{var}")
        self.emit(f"{high} = load i64, ptr {end_slot}")
        self.emit(f"{more} = icmp {'slt' if step > 0 else 'sgt'} i64 {i}, {high}")
        self.emit(f"br i1 {more}, label %{body}, label %{end}")
        self.terminated = True
        self.start(body)
        self.loops.append((step_label, end))
        self.block(s.body)
        self.loops.pop()
        self.jump(step_label)
        self.start(step_label)
        now, nxt = self.tmp(), self.tmp()
        self.emit(f"{now} = load i64, ptr %v_{var}")
        self.emit(f"{nxt} = add i64 {now}, {step}")
        self.emit(f"store i64 {nxt}, ptr %v_{var}")
        self.jump(top)
        self.start(end)

    # ---- expressions: value() gives an i64, truth() an i1
    def value(self, e) -> str:
        v, typ = self.expr(e)
        if typ == "i1":
            out = self.tmp()
            self.emit(f"{out} = zext i1 {v} to i64")
            return out
        return v

    def truth(self, e) -> str:
        v, typ = self.expr(e)
        if typ == "i1":
            return v
        out = self.tmp()
        self.emit(f"{out} = icmp ne i64 {v}, 0")
        return out

    def expr(self, e) -> tuple[str, str]:
        match e:
            case ast.Constant(value=bool() | int() as value):
                return str(int(value)), "i64"
            case ast.Name(id=name):
                if name in self.locals:
                    out = self.tmp()
                    self.emit(f"{out} = load i64, ptr %v_{name}")
                    return out, "i64"
                if name in self.m.scalars:
                    return str(self.m.scalars[name]), "i64"
                self.fail(e, f"unknown name `{name}`")
            case ast.Subscript():
                out = self.tmp()
                self.emit(f"{out} = load i64, ptr {self.address(e)}")
                return out, "i64"
            case ast.BinOp(op=op, left=left, right=right):
                return self.binop(op, self.value(left), self.value(right), e), "i64"
            case ast.UnaryOp(op=ast.USub(), operand=x):
                out = self.tmp()
                self.emit(f"{out} = sub i64 0, {self.value(x)}")
                return out, "i64"
            case ast.UnaryOp(op=ast.Invert(), operand=x):
                out = self.tmp()
                self.emit(f"{out} = xor i64 {self.value(x)}, -1")
                return out, "i64"
            case ast.UnaryOp(op=ast.Not(), operand=x):
                out = self.tmp()
                self.emit(f"{out} = xor i1 {self.truth(x)}, true")
                return out, "i1"
            case ast.Compare(left=left, ops=[op], comparators=[right]) if type(op) in _COMPARE:
                a, b = self.value(left), self.value(right)
                out = self.tmp()
                self.emit(f"{out} = icmp {_COMPARE[type(op)]} i64 {a}, {b}")
                return out, "i1"
            case ast.BoolOp(op=op, values=values):
                return self.boolop(isinstance(op, ast.And), values), "i1"
            case ast.IfExp(test=test, body=yes, orelse=no):
                return self.ifexp(test, yes, no), "i64"
            case ast.Call():
                return self.call(e), "i64"
        self.fail(e, f"expression {ast.dump(e)[:60]} is not in the kernel language")

    def boolop(self, conjunction: bool, values) -> str:
        """Short-circuit `and`/`or` of truths, as a phi over the blocks that decided it."""
        end = self.label("bool")
        incoming = []
        for i, part in enumerate(values):
            v = self.truth(part)
            here = self.current
            if i == len(values) - 1:
                incoming.append((v, here))
                self.jump(end)
                break
            nxt = self.label("boolnext")
            decided = "false" if conjunction else "true"
            incoming.append((decided, here))
            if conjunction:
                self.emit(f"br i1 {v}, label %{nxt}, label %{end}")
            else:
                self.emit(f"br i1 {v}, label %{end}, label %{nxt}")
            self.terminated = True
            self.start(nxt)
        self.start(end)
        out = self.tmp()
        self.emit(f"{out} = phi i1 " + ", ".join(f"[{v}, %{b}]" for v, b in incoming))
        return out

    def ifexp(self, test, yes, no) -> str:
        cond = self.truth(test)
        a, b, end = self.label("ya"), self.label("yb"), self.label("yend")
        self.emit(f"br i1 {cond}, label %{a}, label %{b}")
        self.terminated = True
        self.start(a)
        va = self.value(yes)
        from_a = self.current
        self.jump(end)
        self.start(b)
        vb = self.value(no)
        from_b = self.current
        self.jump(end)
        self.start(end)
        out = self.tmp()
        self.emit(f"{out} = phi i64 [{va}, %{from_a}], [{vb}, %{from_b}]")
        return out

    def binop(self, op, a: str, b: str, where) -> str:
        out = self.tmp()
        kind = type(op)
        if kind in (ast.LShift, ast.RShift):
            amount = self.tmp()
            self.emit(f"{amount} = and i64 {b}, 63")
            self.emit(f"{out} = {_ARITH[kind]} i64 {a}, {amount}")
            return out
        if kind in _ARITH:
            self.emit(f"{out} = {_ARITH[kind]} i64 {a}, {b}")
            return out
        if kind in (ast.FloorDiv, ast.Mod):
            zero, ok, bad = self.tmp(), self.label("divok"), self.label("divzero")
            self.emit(f"{zero} = icmp eq i64 {b}, 0")
            self.emit(f"br i1 {zero}, label %{bad}, label %{ok}")
            self.terminated = True
            self.start(bad)
            self.bail(str(ZERO_DIVISION))
            self.start(ok)
            # the most negative integer divided by -1 overflows: the kernel never divides it
            minus1, safe_b = self.tmp(), self.tmp()
            self.emit(f"{minus1} = icmp eq i64 {b}, -1")
            self.emit(f"{safe_b} = select i1 {minus1}, i64 1, i64 {b}")
            q0, r0, q1, r1 = self.tmp(), self.tmp(), self.tmp(), self.tmp()
            self.emit(f"{q0} = sdiv i64 {a}, {safe_b}")
            self.emit(f"{r0} = srem i64 {a}, {safe_b}")
            neg = self.tmp()
            self.emit(f"{neg} = sub i64 0, {a}")
            self.emit(f"{q1} = select i1 {minus1}, i64 {neg}, i64 {q0}")
            self.emit(f"{r1} = select i1 {minus1}, i64 0, i64 {r0}")
            # Python rounds down: a remainder of the divisor's opposite sign moves one step
            nz, sx, sn, fix = self.tmp(), self.tmp(), self.tmp(), self.tmp()
            self.emit(f"{nz} = icmp ne i64 {r1}, 0")
            self.emit(f"{sx} = xor i64 {r1}, {b}")
            self.emit(f"{sn} = icmp slt i64 {sx}, 0")
            self.emit(f"{fix} = and i1 {nz}, {sn}")
            if kind is ast.FloorDiv:
                q2 = self.tmp()
                self.emit(f"{q2} = sub i64 {q1}, 1")
                self.emit(f"{out} = select i1 {fix}, i64 {q2}, i64 {q1}")
            else:
                r2 = self.tmp()
                self.emit(f"{r2} = add i64 {r1}, {b}")
                self.emit(f"{out} = select i1 {fix}, i64 {r2}, i64 {r1}")
            return out
        self.fail(where, f"operator {kind.__name__}")

    def call(self, e: ast.Call) -> str:
        if not isinstance(e.func, ast.Name) or e.keywords:
            self.fail(e, "a call of something other than a function by name")
        name = e.func.id
        args = [self.value(a) for a in e.args]
        out = self.tmp()
        if name == "lshr" and len(args) == 2:
            amount = self.tmp()
            self.emit(f"{amount} = and i64 {args[1]}, 63")
            self.emit(f"{out} = lshr i64 {args[0]}, {amount}")
            return out
        if name == "umulhi" and len(args) == 2:
            a, b, p, h = self.tmp(), self.tmp(), self.tmp(), self.tmp()
            self.emit(f"{a} = zext i64 {args[0]} to i128")
            self.emit(f"{b} = zext i64 {args[1]} to i128")
            self.emit(f"{p} = mul i128 {a}, {b}")
            self.emit(f"{h} = lshr i128 {p}, 64")
            self.emit(f"{out} = trunc i128 {h} to i64")
            return out
        if name == "mul_checked" and len(args) == 2:
            pair, product, over = self.tmp(), self.tmp(), self.tmp()
            self.emit(f"{pair} = call {{i64, i1}} @llvm.smul.with.overflow.i64(i64 {args[0]}, i64 {args[1]})")
            self.emit(f"{product} = extractvalue {{i64, i1}} {pair}, 0")
            self.emit(f"{over} = extractvalue {{i64, i1}} {pair}, 1")
            self.emit(f"{out} = select i1 {over}, i64 {MIN_I64}, i64 {product}")
            return out
        if name not in self.m.functions:
            self.fail(e, f"unknown function `{name}`")
        if self.m.functions[name] != len(args):
            self.fail(e, f"`{name}` takes {self.m.functions[name]} arguments, not {len(args)}")
        self.emit(f"{out} = call i64 @{name}(ptr %ctx{''.join(f', i64 {a}' for a in args)})")
        if self.m.checked(name):
            self.status_check()
        return out

    def address(self, e: ast.Subscript) -> str:
        """A pointer to an item of a region or a table, its index checked."""
        if not isinstance(e.value, ast.Name):
            self.fail(e, "an item of something other than a named region")
        name = e.value.id
        index = self.value(e.slice)
        if name in self.m.tables:
            size = len(self.m.tables[name])
            self.checked(index, str(size))
            out = self.tmp()
            self.emit(f"{out} = getelementptr [{size} x i64], ptr @{name}, i64 0, i64 {index}")
            return out
        region = self.m.regions.get(name)
        if region is None:
            self.fail(e, f"unknown region `{name}`")
        if region.dynamic:
            slot, size = self.tmp(), self.tmp()
            self.emit(f"{slot} = getelementptr i64, ptr %ctx, i64 {region.length}")
            self.emit(f"{size} = load i64, ptr {slot}")
        else:
            size = str(region.length)
        safe = isinstance(e.slice, ast.BinOp) and isinstance(e.slice.left, ast.Name) \
            and self.bases.get(e.slice.left.id, (None,))[0] == name and isinstance(e.slice.right, ast.Constant)
        if not safe and not (index.lstrip("-").isdigit() and not region.dynamic and 0 <= int(index) < region.length):
            self.checked(index, size)
        at, out = self.tmp(), self.tmp()
        self.emit(f"{at} = add i64 {index}, {region.base}")
        self.emit(f"{out} = getelementptr i64, ptr %ctx, i64 {at}")
        return out

    def checked(self, index: str, size: str):
        bad, ok = self.tmp(), self.label("inb")
        fail = self.exits.setdefault(str(BOUNDS), f"bail_{BOUNDS}")
        self.emit(f"{bad} = icmp uge i64 {index}, {size}")
        self.emit(f"br i1 {bad}, label %{fail}, label %{ok}, !prof !0")
        self.terminated = True
        self.start(ok)


def _targets(stmt) -> list[str]:
    """The local names a statement assigns."""
    if isinstance(stmt, ast.Assign):
        return [t.id for t in stmt.targets if isinstance(t, ast.Name)]
    if isinstance(stmt, (ast.AugAssign, ast.For)) and isinstance(stmt.target, ast.Name):
        return [stmt.target.id]
    return []
