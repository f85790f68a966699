"""The code generator: checked expressions, plain statements, operations and move enumerators
written as Python source and compiled once per script.

Locals are Python variables, `and`/`or`/`if` are Python's own, quantifiers and comprehensions
are `for` loops, definitions are Python functions with positional parameters (small ones are
written at their call sites), and each decision gets an enumerator that loops over its binders
and evaluates its rules inline.  What does not depend on a loop's variable (a decision's
candidate, a quantifier's item) and costs a call or a loop is computed once per loop.  The
state machine's operations (written by compiler.py) are compiled here too, and each inlines
the operations it leads to (see Gen.assemble).

This is the only implementation of the language's expressions and effects.  It has two modes:
fast, and traced, where every sub-expression's value is also passed, as it is computed, to the
sink `_trace(node, type, value)` of the generated namespace (explanations read it).  Traced
mode turns off what only speeds things up (hoisting, inlining definitions, folding constant
lists, builtins written inline, specialised enumerators), so a program compiled traced is a plain reference for the
fast one: tests/test_codegen.py plays every script both ways and compares everything.

The fast code keeps the plain semantics exactly: the same values, the same errors with the
same messages and spans, in the same order; it leaves the frame of locals as plain evaluation
leaves it (a quantifier's variable keeps its last value in a phase's frame); and the work and
step budgets run out at the same place.

The generator is one object, Gen, made of parts with one job each (mixins sharing the state
Gen.__init__ sets up): gen_exprs (expressions), gen_stmts (plain statements), gen_defines
(definitions and State.memo), gen_listings (decisions' listings of moves), gen_assembly
(operations and playouts' operations); gen_common holds what they share, gen_runtime what
the generated code calls while it runs, and text_passes the passes over finished functions.
This module puts them together and holds what the compiler calls: the namespace, building
and compiling functions, the frame being written, and the entry points for expressions.
"""

from __future__ import annotations

import re
from types import CodeType

from ..language import nodes as n
from ..language.source import Span
from ..machine.program import Decision, holds_cards
from .code_cache import digest
from .frame_locals import frame_reads_of
from .gen_assembly import Assembly
from .gen_common import CHANCE_MARK, SPAN_MARK, Env, Fn, TooComplex, compile_source, indent, too_complex
from .gen_defines import Definitions
from .gen_exprs import Expressions
from .gen_listings import Listings
from .gen_runtime import namespace
from .gen_stmts import Statements
from .never_none import frame_slots as never_none_slots
from .slot_locals import slots_in_locals
from .text_passes import state_lists_read_once, written_out
from .work_locals import held_in_locals

# Lines all inlined operations may add to a program: fusing copies each operation into the ones
# before it, which multiplies a long script's code (a 125 KB phase compiled for minutes); past
# this, operations run unfused (the same game, only slower).  The shipped games use under 20,000.
_FUSED_LINES = 100_000

# What a text's piece may be made of and still read the frame's locals only.
_FRAME_ONLY = (n.Name, n.Literal, n.Attr, n.Unary, n.Binary, n.IfExpr, Span)
_PLAIN = (str, int, bool, type(None))  # constants named by value: immutable, equal means the same


class Gen(Expressions, Statements, Definitions, Listings, Assembly):
    """Generated code for one compiler; every function shares one namespace."""

    def __init__(self, compiler, traced: bool = False, memo_keys=None):
        self.c = compiler
        self._memo_key_count = memo_keys  # the program's own generator: keys from 0 (gen_defines.SHARED_KEYS)
        self.traced = traced
        self._reference = traced  # a traced program's code, definitions too, keeps every check (_never_none)
        self.ns = namespace()
        self._const_names: dict[int, str] = {}
        self._keep: list = []  # constants stay alive, so their ids stay unique
        self._nonnull_consts: set[str] = set()
        self._nonnull_codes: set[str] = set()  # generated expressions that never give none (zone slots)
        self._defines: dict[str, str | None] = {}
        self._calls = None  # definition -> the definitions it calls (call_order.calls), once asked for
        self._too_big: set[str] = set()  # definitions too big to write at their call sites
        # where a definition is written in place only when small: in a definition's body (its
        # function, or at a call site), or a value computed once and shared (Expressions.lower)
        self._small_only = False
        self._not_small: set[str] = set()  # definitions written at call sites outside definitions only
        self._count = 0
        self._temps = Fn()  # one counter for all code, so inlined operations never share a temporary
        self.sources: list[str] = []
        self._players_table = None
        self._hoist = None  # Hoister while writing a rule's condition inside an enumerator
        self._optimistic = False  # writing a playout listing: work added, its limit checked at the end
        self._deferred = False  # writing a loop's body whose constant charges are checked after it (_deferring)
        self._deferrals = 0  # checks left out so far by _deferred
        self._move_caches: dict[int, str] = {}  # id(AltSpec) -> its cache of moves (_spec)
        self._move_texts: dict[int, str] = {}  # id(AltSpec) -> its card moves' texts (playout_decision)
        self._attr_groups: dict = {}  # a card attribute's table -> its cards by value; None -> no card (_attr_filter)
        self._eager: dict[int, tuple] = {}  # in a playout listing: id(_cached's lines) -> (lines, once, work)
        self._listing_calls = None  # in a playout listing: definition calls counted, or shared (_shared_call)
        self._tried_static = 0  # in a playout listing: the candidates of alternatives without binders
        self._rule_results: dict = {}  # in a playout listing: (rule, arguments) -> [result, work, start, uses] (_shared_rule)
        self._seated: dict[int, str] = {}  # id(Decision) -> the frame slot its actor is read from
        self._free: dict[int, frozenset] = {}
        self._places: dict = {}  # ordered attribute -> value -> place; "cards:" + it -> card -> place
        self._bodies: dict[int, list] = {}  # code index -> its operations' lines (playout_codes expands them again)
        self._memo_keys_ = None  # definition -> its key in State.memo (_memo_keys)
        self._kept_defines: set[str] = set()  # the definitions define_fn keeps in State.memo
        self._reads = None  # memo_reads.Reads of what State.memo keeps, once asked for (see forget)
        self._called: set[str] = set()  # definitions whose calls with constant arguments _kept_call keeps
        self._kept_calls: dict[tuple, str | None] = {}  # (definition, argument codes) -> _kept_call's
        self._fusing_left = _FUSED_LINES  # lines inlined operations may still add (_expand)
        self._frame_nonnull: frozenset = frozenset()  # `L[k]` of the frame being written that is never none
        self._nonnull_by_code: dict[int, frozenset] = {}  # code index -> its frame's _frame_nonnull
        self._playout_table: list = []  # Program.playout_codes: each code's row, filled by playout_codes
        self._rows: dict[int, list] = {}  # code index -> Program.codes' row of its operations (assemble)
        self._heights: list[int] = []  # per expression being lowered: the deepest code of its operands (lower)
        self._nesting = [0, 0]  # loops and branches around what is being lowered (Expressions._nested_in)

    @property
    def t(self):
        return self.c.t

    @property
    def p(self):
        return self.c.p

    # ---- namespace and compilation
    def const(self, value, prefix="K") -> str:
        # a plain value by what it is, so the code is the same whether the script's tree was
        # parsed (equal texts in distinct objects) or read back from the syntax cache (shared)
        key = (type(value), value) if type(value) in _PLAIN else id(value)
        name = self._const_names.get(key)
        if name is None:
            name = f"{prefix}{len(self._const_names)}"
            self._const_names[key] = name
            self._keep.append(value)
            self.ns[name] = value
            if value is not None:
                self._nonnull_consts.add(name)
        return name

    def build(self, hint: str, params: str, body: list[str]):
        self._count += 1
        name = f"{re.sub(r'[^A-Za-z0-9_]', '_', hint)}_{self._count}"
        body = [line for line in body if line.strip() != CHANCE_MARK]
        if self.traced:  # traced code stays as written: the reference
            return self._defined(name, params, body)
        key = digest("passes", name, params, *body)
        kept = self.c.code_cache.get(key) if self.c.code_cache else None
        if isinstance(kept, tuple) and all(isinstance(line, str) for line in kept):
            return self._defined(name, params, list(kept))
        try:
            lines = slots_in_locals(written_out(state_lists_read_once(body)))
            held = held_in_locals(lines)
        except RecursionError:  # the passes follow blocks by recursion: Python refuses code this deep too
            raise too_complex() from None
        fn = None
        if held is not lines:
            try:
                fn, lines = self._defined(name, params, held), held
            except TooComplex:  # one more `try` was one block too many: kept as written
                pass
        if fn is None:
            fn = self._defined(name, params, lines)
        if self.c.code_cache:
            self.c.code_cache.put(key, tuple(lines))
        return fn

    def frame_reads(self, name: str):
        """The frame slots the generated function `name`, given `L`, reads, or those
        `_offers(st, name)` reads of the frame on top of the stack for decision `name` (None:
        not known)."""
        obj = self.ns.get(name)
        if isinstance(obj, Decision):
            return frozenset(obj.frame_slots[:2])
        return getattr(obj, "frame_reads", None)

    def _defined(self, name: str, params: str, body: list[str]):
        src = f"def {name}({params}):\n" + "\n".join(indent(body)) + "\n"
        exec(self.compiled(src, name), self.ns)
        self.sources.append(src)
        self._mark_statements(name, body)
        fn = self.ns[name]
        if params == "st, L":  # a listing, expression, rule or text: what a playout must write out for it
            fn.frame_reads = frame_reads_of(body, self.frame_reads)
        return fn

    def _mark_statements(self, name: str, body: list[str]):
        """Where each statement starts in the function `name` (its SPAN_MARK lines), by line
        number, for runtime.statement_span; line 1 is the `def`."""
        marks = tuple((number + 2, int(line.split()[1])) for number, line in enumerate(body)
                      if line.lstrip().startswith(SPAN_MARK))
        program = getattr(self.c, "p", None)
        if marks and program is not None:
            program.marked_lines[f"<cardgame generated {name}>"] = marks

    def compiled(self, src: str, name: str):
        """The code of a generated function's source, read back from the script's code cache
        when it was compiled before."""
        cache = self.c.code_cache
        key = digest("code", name, src) if cache else None
        code = cache.get(key) if cache else None
        if not isinstance(code, CodeType):
            code = compile_source(src, f"<cardgame generated {name}>")
            if cache:
                cache.put(key, code)
        return code

    def _players(self) -> str:
        if self._players_table is None:
            top = max(int(self.t.max_players or 0), 1)
            self._players_table = self.const(tuple(tuple(range(k)) for k in range(top + 1)), "PL")
        return self._players_table

    # ---- entry points used by the compiler
    def tmp(self, prefix="t") -> str:
        """A fresh name for a temporary, unique over all the generated code."""
        return self._temps.tmp(prefix)

    def span(self, span) -> str:
        return self.const(span, "S")

    def enter_frame(self, code: int, parts):
        """Lines written from here on run in code's frame; `parts`: its statements (see
        never_none.frame_slots), whose slots that always hold a value need no none check."""
        if not self.traced:  # traced code keeps every check: the reference
            self._frame_nonnull = frozenset(f"L[{k}]" for k in never_none_slots(self.t, parts))
            self._nonnull_by_code[code] = self._frame_nonnull

    def leave_frame(self):
        self._frame_nonnull = frozenset()

    def _frame_env(self) -> Env:
        """The locals of the frame being written: L[k], some known never to be none."""
        return Env(True, nonnull=self._frame_nonnull)

    def lower_in_frame(self, e):
        """(lines, code) for `e` evaluated in an operation, with the frame's locals in `L`."""
        return self.lower(e, self._frame_env(), self._temps)

    def lower_all_in_frame(self, exprs):
        return self.lower_all(exprs, self._frame_env(), self._temps)

    def expr_fn(self, e):
        """fn(st, L) for an expression evaluated in a frame list L."""
        lines, code = self.lower_in_frame(e)
        return self.build("expr", "st, L", lines + [f"return {code}"])

    def seq_fn(self, e):
        """fn(st, L) -> the sequence a binder walks (a zone's cards, or a list; none: nothing)."""
        lines, seq, _ = self._iter(e, self._frame_env(), self._temps)
        return self.build("seq", "st, L", lines + [f"return {seq}"])

    def text_lines(self, pieces):
        """(lines, code) for a text with each `{expr}` rendered as values are shown."""
        lines, parts = [], []
        for part in pieces:
            if isinstance(part, str):
                parts.append(self._value(part))
                continue
            pl, code = self.lower_in_frame(part)
            tmp = self.tmp()
            lines += pl + [f"{tmp} = _rv(st, {self._value(self.t.types[id(part)])}, {code}, {self.span(part.span)})"]
            parts.append(tmp)
        return lines, ("''.join((" + "".join(x + ", " for x in parts) + "))") if parts else "''"

    def text_fn(self, pieces):
        """fn(st, L) -> a prompt's text."""
        lines, code = self.text_lines(pieces)
        return self.build("text", "st, L", lines + [f"return {code}"])

    def seat_text(self, pieces) -> tuple:
        """What a seat's reading of a text needs (knowledge.Journal): its pieces, each literal
        text as it is and each `{expr}` as fn(st, L) -> its text, its card_slots, and whether
        any piece reads the position (not only the frame's locals): only then is the position
        masked for the seat, a copy of every zone with its unseen cards hidden."""
        parts = tuple(part if isinstance(part, str) else self.text_fn([part]) for part in pieces)
        return parts, self._card_slots(pieces), self._reads_position(pieces)

    def seat_value(self, expr) -> tuple:
        """What a seat's working out of a value needs (knowledge.seat_value): fn(st, L) -> the
        value, the frame slots of the locals it reads that hold cards, and whether it reads the
        position (see seat_text)."""
        lines, code = self.lower_in_frame(expr)
        fn = self.build("value", "st, L", lines + [f"return {code}"])
        return fn, self._card_slots([expr]), self._reads_position([expr])

    def _reads_position(self, pieces) -> bool:
        """Whether a text's `{expr}` pieces read more than the frame's locals (and what a card
        or record in one holds)."""
        for part in pieces:
            for e in () if isinstance(part, str) else n.walk(part):
                if isinstance(e, n.Name) and self.t.resolved.get(id(e), (None,))[0] != "local":
                    return True
                if not isinstance(e, _FRAME_ONLY):
                    return True
        return False

    def _card_slots(self, pieces) -> tuple:
        """(frame slot, type) of the locals a text's `{expr}` pieces read that may hold cards (a
        card, a list, a record with a card in a field): to be hidden from a seat that does not
        know them before the text is made for it."""
        found = {}
        for part in pieces:
            for e in () if isinstance(part, str) else n.walk(part):
                typ = self.t.types.get(id(e))
                kind, detail = self.t.resolved.get(id(e), (None, None)) if isinstance(e, n.Name) else (None, None)
                if kind == "local" and holds_cards(self.t, typ):
                    found[detail] = typ
        return tuple(sorted(found.items()))

    def rule_fn(self, rule):
        """fn(st, R) -> whether `rule` allows the move, R holding its arguments."""
        rl, require = self.lower_in_frame(rule.require)
        if rule.when is None:
            return self.build(f"rule_{rule.name}", "st, L", rl + [f"return {require}"])
        wl, when = self.lower_in_frame(rule.when)
        return self.build(f"rule_{rule.name}", "st, L",
                          wl + [f"if not {when}:", "    return True"] + rl + [f"return {require}"])

    def traced_rule_fns(self, rule):
        """(when or None, require): fn(st, R) each, passing every sub-value to `_trace`."""
        assert self.traced
        when = self.expr_fn(rule.when) if rule.when is not None else None
        return when, self.expr_fn(rule.require)

    def stmt_lines(self, s):
        """The lines of a plain statement (one that does not change the control flow), or None."""
        return self._stmt(s, self._temps)
