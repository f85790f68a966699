"""Any checked expression of a script evaluated in traced mode, for explanations beyond a rule's:
why a binder left a value out (`discard AS` refused by its `where`), what decided a step's
outcome (`why step 18`: the trick's winner, with the keys compared).

Rules and definitions have their traced functions in the compiler (`traced_rule`,
`traced_define`); an expression inside a statement or a binder gets one here, compiled once per
program by a traced generator of its own (its own sink, as the compiler's explainer has).
"""

from __future__ import annotations

from ..codegen.generator import Gen
from ..machine.program import render_value
from .verdicts import Reading, read_trace

_GEN = "traced expressions"  # the key of this module's generator in Program.explain_cache


def evaluate_traced(st, node, frame: list, per_item=frozenset()) -> tuple[object, list, Reading]:
    """(value, trace, reading) of expression `node` (checked as part of `st`'s script) in
    `frame`, a copy of the frame it is evaluated in: the trace holds (node, type, value) for
    every sub-expression, in evaluation order; `per_item` are the nodes evaluated once per item
    of a quantifier (their values say nothing alone: read_trace leaves them out of `reading`)."""
    prog = st.prog
    cache = prog.explain_cache
    gen = cache.get(_GEN)
    if gen is None:
        gen = cache[_GEN] = Gen(prog.compiler, traced=True)
    fn = cache.get((_GEN, id(node)))
    if fn is None:
        fn = cache[(_GEN, id(node))] = gen.expr_fn(node)
    trace: list = []
    gen.ns["_trace"] = lambda n, typ, value: trace.append((n, typ, value))
    st.begin_work(query=True)
    value = fn(st, frame)
    return value, trace, read_trace(trace, per_item, lambda typ, v: render_value(prog, typ, v, st.n))
