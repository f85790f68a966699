"""The same kernel through numba instead of llvmlite: an experiment behind issue 35's choice of
compiler (docs/performance.md, "Compiled playouts"), not a backend.

    python -m bench.numba_route [games/bouncer.cardgame ...] [-n GAMES]

The kernel mode's module (codegen/kernel_gen.py) is Python's syntax over 64-bit integers, so it
can go through numba as well as through kernel_llvm: this file rewrites its tree (not its text)
into a numba module, written to a real `.py` file (numba's cache refuses code made from a
string) with every function `@njit(cache=True)`: the context becomes a numpy array passed to every
function (`S[k]` -> `ctx[base + k]`), the tables numpy constants, `bail` a store and a return, the
status read at each loop's top and after each call of a function that may run long, as
kernel_llvm does.  It then plays the same batch of games both ways from the same context and
reports each one's compile time (cold: an empty cache folder; warm: loaded from it) and
decisions per second, and whether both gave the same result rows.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import os
import subprocess
import sys
import tempfile
import time

_LIB = '''
import numpy as np
from numba import njit


@njit(cache=True)
def lshr(a, k):
    return np.int64(np.uint64(a) >> np.uint64(k & 63))


@njit(cache=True)
def umulhi(a, b):
    x, y = np.uint64(a), np.uint64(b)
    mask = np.uint64(0xFFFFFFFF)
    s32 = np.uint64(32)
    x0, x1, y0, y1 = x & mask, x >> s32, y & mask, y >> s32
    w0 = x0 * y0
    t = x1 * y0 + (w0 >> s32)
    w1 = (t & mask) + x0 * y1
    return np.int64(x1 * y1 + (t >> s32) + (w1 >> s32))


@njit(cache=True)
def mul_checked(a, b):
    p = a * b
    if a != 0 and (p // a != b or (a == -1 and b == -9223372036854775808)):
        return -9223372036854775808
    return p


@njit(cache=True)
def kdiv(ctx, a, b):
    if b == 0:
        if ctx[1] == 0:
            ctx[1] = 2
        return 0
    if b == -1:
        return -a
    return a // b


@njit(cache=True)
def kmod(ctx, a, b):
    if b == 0:
        if ctx[1] == 0:
            ctx[1] = 2
        return 0
    if b == -1:
        return 0
    return a % b
'''


class _ToNumba(ast.NodeTransformer):
    """One function of the kernel language as a numba function of (ctx, ...)."""

    def __init__(self, regions, tables, functions, checked, catches):
        self.regions, self.tables, self.functions = regions, tables, functions
        self.checked, self.catches = checked, catches

    def _check(self):
        return ast.parse("if ctx[1] != 0:\n    return 0").body[0]

    def _calls_long(self, node) -> bool:
        return any(isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id in self.functions
                   and self.checked(c.func.id) for c in ast.walk(node))

    def body(self, stmts):
        out = []
        for s in stmts:
            new = self.visit(s)
            out.extend(new if isinstance(new, list) else [new])
            if not self.catches and not isinstance(s, (ast.While, ast.For, ast.If)) and self._calls_long(s):
                out.append(self._check())
        return out or [ast.Pass()]

    def visit_FunctionDef(self, node):
        locals_ = sorted({t.id for s in ast.walk(node) for t in _targets(s)} - {a.arg for a in node.args.args})
        node.args.args.insert(0, ast.arg(arg="ctx"))
        node.body = [ast.parse(f"{name} = 0").body[0] for name in locals_] + self.body(node.body)
        node.decorator_list = [ast.parse("njit(cache=True)").body[0].value]
        return node

    def visit_If(self, node):
        node.test = self.visit(node.test)
        node.body, node.orelse = self.body(node.body), self.body(node.orelse) if node.orelse else []
        return node

    def visit_While(self, node):
        node.test = self.visit(node.test)
        node.body = ([] if self.catches else [self._check()]) + self.body(node.body)
        return node

    def visit_For(self, node):
        node.iter = self.visit(node.iter)
        node.body = ([] if self.catches else [self._check()]) + self.body(node.body)
        return node

    def visit_Expr(self, node):
        call = node.value
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "bail":
            code = ast.unparse(self.visit(call.args[0]))
            return ast.parse(f"if ctx[1] == 0:\n    ctx[1] = {code}\nreturn 0").body
        node.value = self.visit(call)
        return node

    def visit_Constant(self, node):
        if type(node.value) is bool:
            return ast.Constant(int(node.value))
        return node

    def visit_Subscript(self, node):
        node.slice = self.visit(node.slice)
        name = node.value.id
        if name in self.tables:
            return node
        base = self.regions[name].base
        return ast.Subscript(ast.Name("ctx", ast.Load()), ast.BinOp(node.slice, ast.Add(), ast.Constant(base)),
                             node.ctx)

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, (ast.LShift, ast.RShift)):
            node.right = ast.BinOp(node.right, ast.BitAnd(), ast.Constant(63))
        if isinstance(node.op, (ast.FloorDiv, ast.Mod)):
            fn = "kdiv" if isinstance(node.op, ast.FloorDiv) else "kmod"
            return ast.Call(ast.Name(fn, ast.Load()), [ast.Name("ctx", ast.Load()), node.left, node.right], [])
        return node

    def visit_AugAssign(self, node):
        import copy
        load = copy.deepcopy(node.target)
        load.ctx = ast.Load()
        target = self.visit(node.target)
        value = self.visit_BinOp(ast.BinOp(load, node.op, node.value))
        return ast.Assign([target], value, lineno=node.lineno)

    def _int(self, node):
        return ast.Call(ast.Name("int", ast.Load()), [node], [])

    def visit_Compare(self, node):
        self.generic_visit(node)
        return self._int(node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return self._int(ast.Compare(node.operand, [ast.Eq()], [ast.Constant(0)]))
        return node

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        node.values = [ast.Compare(v, [ast.NotEq()], [ast.Constant(0)]) for v in node.values]
        return self._int(node)

    def visit_Call(self, node):
        self.generic_visit(node)
        if node.func.id in self.functions:
            node.args.insert(0, ast.Name("ctx", ast.Load()))
        return node


def _targets(stmt):
    if isinstance(stmt, ast.Assign):
        return [t for t in stmt.targets if isinstance(t, ast.Name)]
    if isinstance(stmt, (ast.AugAssign, ast.For)) and isinstance(stmt.target, ast.Name):
        return [stmt.target]
    return []


def numba_module(source: str, regions, checked) -> str:
    """The kernel module rewritten for numba (see the module's docstring)."""
    tree = ast.parse(source)
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    tables = {n.targets[0].id for n in tree.body if isinstance(n, ast.Assign) and isinstance(n.value, ast.Tuple)}
    out = [_LIB]
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.targets[0].id in tables:
            items = ", ".join(ast.unparse(x) for x in node.value.elts) or "0"
            out.append(f"{node.targets[0].id} = np.array([{items}], dtype=np.int64)")
        elif isinstance(node, ast.Assign):
            out.append(ast.unparse(node))
        elif isinstance(node, ast.FunctionDef):
            fn = _ToNumba(regions, tables, functions, checked, node.name.startswith("top_")).visit(node)
            out.append(ast.unparse(ast.fix_missing_locations(fn)))
    return "\n\n".join(out) + "\n"


def _child(script: str, games: int, folder: str) -> None:
    """In a fresh process: compile (or load) the numba route, play `games` games both ways."""
    import numpy as np

    from cardgame import interpreter
    from cardgame.interpreter.codegen import kernel_layout as kl
    from cardgame.interpreter.codegen.kernel_gen import kernel_source
    from cardgame.interpreter.studies.compiled import kernel_for
    game = interpreter.load(script)
    kernel = kernel_for(game)  # the llvmlite route, from the cache folder
    source, program, gen = kernel_source(game.program.tables)
    path = os.path.join(folder, "kernel_numba.py")
    text = numba_module(source, kernel.layout.regions, gen.runs_long)
    if not os.path.exists(path) or open(path).read() != text:
        with open(path, "w") as f:
            f.write(text)
    start = time.perf_counter()
    sys.path.insert(0, folder)
    module = importlib.import_module("kernel_numba")
    imported = time.perf_counter() - start
    players, values, budget = game.min_players, game.read_options({}), game.budget()
    llvm_batch = kernel._batch
    ctx = kernel._context(kernel._heap)
    view = np.ctypeslib.as_array(ctx)
    first_call = time.perf_counter()
    kernel._batch = lambda address, first, count: module.entry_batch(view, first, count)
    kernel.rows(players, 1, values, 0, 1, "uniform", interpreter.limits.MAX_DECISIONS, budget)
    compiled = time.perf_counter() - first_call
    out = {}
    for route, batch in (("numba", kernel._batch), ("llvmlite", llvm_batch)):
        kernel._batch = batch
        best = None
        for _ in range(3):
            t = time.perf_counter()
            rows, _ = kernel.rows(players, 1, values, 0, games, "uniform", interpreter.limits.MAX_DECISIONS, budget)
            best = min(best or 1e9, time.perf_counter() - t)
        out[route] = (best, [tuple(r) for r in rows])
    decisions = sum(r[kl.RESULT["DECISIONS"]] for r in out["llvmlite"][1])
    print(f"numba: import {imported:.2f} s, first call (typing and compiling, or loading) {compiled:.2f} s; "
          f"{decisions / out['numba'][0]:,.0f} decisions/s; llvmlite {decisions / out['llvmlite'][0]:,.0f} "
          f"decisions/s; the same rows: {out['numba'][1] == out['llvmlite'][1]}; "
          f"{len(text.splitlines())} lines, {text.count('@njit')} functions")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scripts", nargs="*", default=["games/bouncer.cardgame"])
    parser.add_argument("-n", type=int, default=5000)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--folder", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.scripts[0], args.n, args.folder)
        return 0
    for script in args.scripts:
        with tempfile.TemporaryDirectory() as folder:
            env = {**os.environ, "NUMBA_CACHE_DIR": os.path.join(folder, "numba")}
            for label in ("cold", "warm"):
                start = time.perf_counter()
                done = subprocess.run([sys.executable, "-m", "bench.numba_route", script, "-n", str(args.n),
                                       "--child", "--folder", folder], env=env, capture_output=True, text=True)
                wall = time.perf_counter() - start
                print(f"{script} {label} ({wall:.1f} s wall): {done.stdout.strip() or done.stderr[-3000:]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
