"""What every part of the code generator shares: the marks compiler.py and the generator write
into an operation's lines, the patterns that tell a plain name or number in generated text,
names for temporaries (Fn), how code reaches a frame's locals (Env), a loop being written
(Hoister), and compiling a source with Python's own limits turned into a fault (TooComplex).

Separate so that the generator's modules (gen_exprs, gen_stmts, gen_defines, gen_listings,
gen_assembly, and codegen, which puts them together) take these from one place below them all.
"""

from __future__ import annotations

import re

from ..language import nodes as n
from ..machine.runtime import ScriptRuntimeError


class Unsupported(Exception):
    """An optimisation does not apply here (a definition too big to inline, a decision the
    specialised enumerator does not cover); the plain way is taken instead."""


# Generated text that is a `for` loop; a plain name, slot or number (safe to repeat); a whole number.
LOOP = re.compile(r"(?:^|\s)for\s")
ATOM = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]*|L\[\d+\]|-?\d+|st\.n)$")
INT_LITERAL = re.compile(r"^-?\d+$")

# A line the draws write beside their code: it marks the operation as a chance point, where
# a game may pause (compiler._Assembler keeps such a statement at an operation's start).
CHANCE_MARK = "@CHANCE"
# A comment line before each statement's lines (`#@span index`, an index into
# Program.statement_spans): a value fault finds the statement it happened in from the line
# Python reports (runtime.statement_span), since one operation runs many statements.
SPAN_MARK = "#@span"
# Written where an operation leaves a decision pending (`@DECIDE index`): the program's own
# operations skip it; the playouts' operations make the decision there (Gen.playout_decision).
DECIDE_MARK = "@DECIDE "
# Written where `next` enters a phase (`@NEXT code size`, before the lines that do it): a
# playout's operation enters the phase in place (Gen._expand).
NEXT_MARK = "@NEXT "
# Written where an operation calls a procedure or signals an event (`@CALL code pc frame`: the
# callee's code, the caller's next program counter, the callee's new locals), before the lines
# that push its frame: a playout's operation runs the callee's first operation itself
# (Gen._call_in_place).
CALL_MARK = "@CALL "


class TooComplex(ScriptRuntimeError):
    """Python refuses to compile the code written for the script: blocks nested past its limit
    of 20 (each built-in call is a `try`), or an expression nested past its parser's.  A fault
    when it happens while playing (code compiled on first use); engine.load reports E0608."""


def too_complex() -> TooComplex:
    return TooComplex("the script's expressions are nested too deeply to be compiled", None,
                      "split deeply nested expressions with `let` or `define`")


def compile_source(src: str, name: str):
    try:
        return compile(src, name, "exec")
    except (SyntaxError, RecursionError, MemoryError):
        raise too_complex() from None


def indent(lines, depth=1):
    pad = "    " * depth
    return [pad + line for line in lines]


class Fn:
    """Names for one generated function's temporaries."""

    def __init__(self):
        self.count = 0

    def tmp(self, prefix="t") -> str:
        self.count += 1
        return f"{prefix}{self.count}"


class Env:
    """How generated code reaches the locals of the frame it runs in.

    l_mode: locals without a Python name live in the frame list `L` (phases, procedures, events);
    otherwise every local has a Python name (definitions and rules, whose frames nobody sees).
    writeback: a quantifier's variable is copied to its slot in L when the loop ends, as the
    plain evaluation leaves it.
    """

    def __init__(self, l_mode: bool, names=None, nonnull=(), depth=None):
        self.l_mode = l_mode
        self.names = dict(names or {})
        self.nonnull = set(nonnull)
        self.depth = depth  # inside a recursive definition: the name holding its call depth

    def bind(self, slot: int, pyname: str, nonnull: bool) -> "Env":
        env = Env(self.l_mode, self.names, self.nonnull, self.depth)
        env.names[slot] = pyname
        if nonnull:
            env.nonnull.add(pyname)
        return env

    def local(self, slot: int) -> str:
        name = self.names.get(slot)
        if name is not None:
            return name
        if self.l_mode:
            return f"L[{slot}]"
        raise Unsupported(f"local slot {slot} outside its frame")


class Hoister:
    """A loop being written (a quantifier, a comprehension, or a decision's candidates): the
    local slots that change from one round to the next, and the lines run before the loop,
    where slots for values computed once per loop are declared."""

    def __init__(self, variant_slots, pre):
        self.variant, self.pre = frozenset(variant_slots), pre
        self.names = {}  # code -> names of its slot, so the same computation shares one
        self.met_only = False  # only definition calls already given a slot share it (Gen._rule_part)

    def met(self) -> "Hoister":
        """The same loop, computing once only the definition calls it has met already."""
        other = Hoister(self.variant, self.pre)
        other.names, other.met_only = self.names, True
        return other

    def independent(self, gen, e, env) -> bool:
        # A chance draw is never computed once for several rounds (the checker keeps it out of
        # rules and listings; a comprehension in a statement may still hold one).
        return not (gen.free_slots(e) & self.variant) and not gen.draws(e)


def times_n(k: int) -> str:
    """`k * st.n + ` (the start of the k-th per-player zone's slots, past the shared ones), short."""
    return "" if k == 0 else "st.n + " if k == 1 else f"{k} * st.n + "


def constant_value(tables, e, unset):
    """The value of a constant expression (a literal, a symbol or card, a parameterless
    definition of one, a list of them), or `unset`: one rule for every mode of the generator."""
    match e:
        case n.Literal():
            return e.value
        case n.Name():
            kind, detail = tables.resolved.get(id(e), (None, None))
            if kind in ("symbol", "card"):
                return detail
            if kind == "define" and not tables.defines[detail].params:
                return constant_value(tables, tables.defines[detail].body, unset)
            return unset
        case n.ListLit():
            values = tuple(constant_value(tables, i, unset) for i in e.items)
            return unset if any(v is unset for v in values) else values
    return unset
