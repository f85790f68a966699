"""How deep the code written for an expression nests, counted as the checker reads the script,
so that whatever `check` accepts the code generator compiles (E0140).

Python compiles at most 20 blocks (loops, `try`) inside one another and reads at most 100 levels
of indentation.  The generator writes a loop for each quantifier, comprehension, `max/min/sorted
... by`, `groups` and `runs` (their condition, key or item inside it, with a `try` around the
innermost), a `try` around the arguments of each call of a built-in, and an indented branch for
each side of `if ... then ... else` that has statements to run and for the right side of `and`
and `or`; an `else if` chain is written flat, its links one after the other.  Statements do not
nest in Python (a block of statements is jumps between operations), and a definition is a
function of its own unless it is small enough to be written in place, which the generator does
only where little nesting surrounds the call (gen_defines._inline_define).  So an expression's
nesting is its own, counted here along each path from the declaration down.
"""

from __future__ import annotations

import attrs

from . import nodes as n
from .builtins import BUILTINS, CHANCE, ORDER_FUNCTIONS
from .limits import MAX_BRANCH_NESTING, MAX_LOOP_NESTING
from .source import Diagnostic

_LOOPS = (n.Quant, n.Best, n.Comprehension, n.Pattern)
_BEFORE_THE_LOOP = ("source", "least")  # computed before a loop starts: `x in SOURCE`, `runs ... least N`


def weighted_children(node, defines, coerced, link: bool = False):
    """(child, loops it adds, branches it adds, whether it is a link of an `else if` chain) for
    each syntax node directly inside `node`: what the generator nests, as the module says.
    `coerced`: the ids of the nodes read as a zone's cards (an `else if` taking one is nested)."""
    if isinstance(node, _LOOPS):
        for field in attrs.fields(type(node)):
            value = getattr(node, field.name)
            if attrs.has(type(value)):
                yield (value, 0, 0, False) if field.name in _BEFORE_THE_LOOP else (value, 1, 2, False)
        return
    if isinstance(node, n.IfExpr):
        yield node.cond, 0, int(link), False
        yield node.then, 0, 1 + int(link), False
        chained = isinstance(node.orelse, n.IfExpr) and id(node.orelse) not in coerced
        yield node.orelse, 0, 0 if chained else 1, chained
        return
    if isinstance(node, n.Binary) and node.op in ("and", "or"):
        yield node.left, 0, 0, False
        yield node.right, 0, 1, False
        return
    if isinstance(node, n.Call) and node.func not in defines and node.func in BUILTINS and \
            node.func not in ORDER_FUNCTIONS and node.func not in CHANCE:
        for arg in node.args:
            yield arg, 1, 1, False
        return
    for child in n.children(node):
        yield child, 0, 0, False


def too_deep(items, defines, coerced) -> list[Diagnostic]:
    """E0140 for each declaration whose code would nest past a limit: at the first construct
    whose code goes a level too deep (the loop, call or branch that opens the level), one
    diagnostic per declaration (without recursion: a declaration may be nested 150 levels,
    E0111's limit)."""
    out = []
    for item in items:
        stack = [(item, 0, 0, False)]
        while stack:
            node, loops, branches, link = stack.pop()
            for child, more_loops, more_branches, chained in weighted_children(node, defines, coerced, link):
                inner = (child, loops + more_loops, branches + more_branches, chained)
                if inner[1] > MAX_LOOP_NESTING or inner[2] > MAX_BRANCH_NESTING:
                    out.append(_refused(node, inner[1] > MAX_LOOP_NESTING))
                    stack.clear()
                    break
                stack.append(inner)
    return out


def _refused(node, loops: bool) -> Diagnostic:
    if loops:
        return Diagnostic("E0140", f"this nests loops and calls of built-ins more than {MAX_LOOP_NESTING} deep",
                          node.span, "one too many",
                          "each quantifier, comprehension, `max`/`min`/`sorted ... by`, `groups` and `runs` "
                          "is a loop over the one around it, and each built-in's call is checked apart: name an "
                          "inner part with `define` (or compute it first with `let`)")
    return Diagnostic("E0140", f"this nests branches more than {MAX_BRANCH_NESTING} deep", node.span,
                      "one too many",
                      "each `if ... then ... else` inside another's `then` (an `else if` chain is flat), the right "
                      "side of `and`/`or`, and each loop is a branch: name an inner part with `define` (or "
                      "compute it first with `let`)")
