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
"""

from __future__ import annotations

import builtins
import itertools
import operator
import re
from collections import Counter

from . import choosing, limits
from . import nodes as n
from .nodes import walk as _walk
from .builtins import BUILTINS, CHANCE, CONSTANTS, ORDER_FUNCTIONS, REFUSING, by_pattern
from .enumeration import enumerate_moves
from .flow import merge_step_charges, steps_over
from .memo_reads import kept_definitions, memo_reads, script_nodes
from .never_none import frame_slots as never_none_slots, items_never_none
from .slot_locals import slots_in_locals
from .program import Move, Several, move_text, render_value
from .rng import GAMMA, MASK, MIX1, MIX2
from .rng import shuffle as _shuffle
from .runtime import CALLS_ON, FACE_UP, FUSED_STEPS, RUNTIME_FAULTS, TABLE, ScriptRuntimeError
from .runtime import over_budget as runtime_over_budget
from .orders import places
from .unseen_pcs import unseen_pcs_dropped
from .types import CARD, INT, PLAYER, TEXT, ZONE, ZONES, is_list, is_ordered, is_record, order_name, record_name
from .work_locals import held_in_locals


class Unsupported(Exception):
    """An optimisation does not apply here (a definition too big to inline, a decision the
    specialised enumerator does not cover); the plain way is taken instead."""


_UNSET = object()  # "not computed yet" / "loop never ran"
_CONSTANT_CHARGE = re.compile(r"^st\.work \+= \d+$")
_CHARGING = {"sum", "sorted", "max", "min", "reverse", "players_from"}  # builtins.py charges their work
_SLOT = re.compile(r"^L\[\d+\]$")
_LOOP = re.compile(r"(?:^|\s)for\s")
_ATOM = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]*|L\[\d+\]|-?\d+|st\.n)$")
_INT = re.compile(r"^-?\d+$")
_PLAIN_ARG = re.compile(r"^(?:L\[\d+\]|-?\d+|st\.n)$")  # an argument the same wherever a listing reads it
_MAX_CACHED_MOVES = 20_000  # per alternative; beyond it, moves are built each time
_INLINE_LINES, _INLINE_CHARS = 8, 320  # definitions at most this big are written at their call sites
_INLINE_OPS = 16  # operations one generated operation may inline (see Gen.assemble)
# Lines all inlined operations may add to a program: fusing copies each operation into the ones
# before it, which multiplies a long script's code (a 125 KB phase compiled for minutes); past
# this, operations run unfused (the same game, only slower).  The shipped games use under 20,000.
_FUSED_LINES = 100_000
# A line the draws write beside their code: it marks the operation as a chance point, where
# a game may pause (compiler._Assembler keeps such a statement at an operation's start).
CHANCE_MARK = "@CHANCE"
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
# Procedure calls a playout's operations run nested in one another (each one Python call);
# deeper ones go through runtime.run, which keeps Python's own stack short.
_CALLS_IN_PLACE = 32
# Written before a change of the zones, the cards' facing or a variable that a definition kept
# in State.memo may read (Gen.forget): the values computed so far (see Gen.define_fn) may no
# longer hold.  (Forgetting only the definitions that read what changes, `st.memo.pop(key)`
# each, was measured: the pops cost what the values kept longer saved.)
FORGET = "st.memo = {}"
# Each definition's function, in every generator (the REPL's evaluations compile their own), has
# a key of its own in State.memo: two generators never number definitions alike.
_MEMO_KEYS = itertools.count()


class TooComplex(ScriptRuntimeError):
    """Python refuses to compile the code written for the script: blocks nested past its limit
    of 20 (each built-in call is a `try`), or an expression nested past its parser's.  A fault
    when it happens while playing (code compiled on first use); engine.load reports E0608."""


def _compile(src: str, name: str):
    try:
        return compile(src, name, "exec")
    except (SyntaxError, RecursionError, MemoryError):
        raise TooComplex("the script's expressions are nested too deeply to be compiled", None,
                         "split deeply nested expressions with `let` or `define`") from None


# ---- helpers the generated code calls -------------------------------------------------------

def fail(message: str, span, hint: str = ""):
    raise ScriptRuntimeError(message, span, hint)


def over_budget(st, span):
    raise runtime_over_budget(st, span)


def render_text(st, typ, value, span):
    """A value written into a text (a log line, a prompt, text `+`): refused before it is made
    when it would pass the text limit, and charged for its length."""
    if isinstance(value, tuple) and _items_over(value, limits.MAX_TEXT_LENGTH // 2):
        raise ScriptRuntimeError(f"a text grew beyond {limits.MAX_TEXT_LENGTH} characters", span,
                                 "a list this long cannot be shown; show its count or a part")
    text = render_value(st.prog, typ, value, st.n)
    if len(text) > limits.MAX_TEXT_LENGTH:
        raise ScriptRuntimeError(f"a text grew beyond {limits.MAX_TEXT_LENGTH} characters", span)
    st.work += len(text)
    if st.work > st.work_limit:
        over_budget(st, span)
    return text


def _items_over(value, most: int) -> bool:
    """Whether nested tuples hold more than `most` items in all (each takes a character or more
    to show), found without walking more than `most` of them."""
    stack, seen = [value], 0
    while stack:
        for item in stack.pop():
            seen += 1
            if seen > most:
                return True
            if isinstance(item, tuple):
                stack.append(item)
    return False


def op_end(st, fr):
    """`end game` (and the end of a phase that forgot its `next`)."""
    st.over = True
    st.stack.clear()
    st.actor = None
    if st.tracer is not None:
        st.emit("end")


def _cards(st, typ_is_card, value):
    """The cards a `reveal`, `hide` or `show` names: one card, a list, or none."""
    if typ_is_card:
        return () if value is None else (value,)
    return tuple(c for c in value if c is not None) if value is not None else ()


def _no_trace(node, typ, value):
    """The traced code's sink when no explanation is listening."""


def _seq_any(st, v):
    return st.zones[v] if type(v) is int else (v or ())


def _item(s, i):
    if i is None or not -len(s) <= i < len(s):
        return None
    return s[i]


def _offers(st, decision):
    askers, pos = decision.frame_slots[0], decision.frame_slots[1]
    L = st.stack[-1][2]
    return set(L[askers][L[pos] - 1][1])


def _enumerate_generic(st):
    return enumerate_moves(st, legal_only=True)


def _make_move(prog, spec, types, values, n_players=None):
    return Move(move_text(prog, spec.name, types, values, n_players), spec.index, values)


_MIN_BLOCK = 6  # a binder domain at least this long may stand for its moves in a playout (_Blocks)


def _distinct(values) -> bool:
    """Whether a binder's values are all different and none is none: then each gives a move of
    its own, in order (what the listing would make of them one by one)."""
    if type(values) is range:
        return True
    seen = set(values)
    return len(seen) == len(values) and None not in seen


class _Blocks:
    """A playout's listing in which a binder over a plain range, with no rule to pass, stands as
    the range itself (a bet of any amount offers a hundred raises): the same moves in the same
    order as the full listing, each made only when drawn.  `blocks`: (index of the range's first
    move in the whole listing, the range, (cache, program, alternative, types))."""

    __slots__ = ("moves", "blocks", "count", "n")

    def __init__(self, moves, blocks, extra, st):
        self.moves, self.blocks, self.count, self.n = moves, blocks, len(moves) + extra, st.n

    def __len__(self):
        return self.count

    def __getitem__(self, i):
        listed = i  # the index in `moves`, once the ranges before it are taken off
        for start, values, (cache, prog, spec, types) in self.blocks:
            if i < start:
                break
            if i < start + len(values):
                value = values[i - start]
                move = cache.get(value)
                if move is None:
                    move = _make_move(prog, spec, types, (value,), self.n)
                    if len(cache) < _MAX_CACHED_MOVES and type(value) is int:
                        cache[value] = move
                return move
            listed -= len(values)
        return self.moves[listed]


_CHARGE = re.compile(r"^st\.work \+= (\d+)$")
_REPLAY = re.compile(r"^    st\.work \+= hw\d+$")  # _cached's charge for a value computed before


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


def _indent(lines, depth=1):
    pad = "    " * depth
    return [pad + line for line in lines]


class _Fn:
    """Names for one generated function's temporaries."""

    def __init__(self):
        self.count = 0

    def tmp(self, prefix="t") -> str:
        self.count += 1
        return f"{prefix}{self.count}"


class _Env:
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

    def bind(self, slot: int, pyname: str, nonnull: bool) -> "_Env":
        env = _Env(self.l_mode, self.names, self.nonnull, self.depth)
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


class _Hoister:
    """A loop being written (a quantifier, a comprehension, or a decision's candidates): the
    local slots that change from one round to the next, and the lines run before the loop,
    where slots for values computed once per loop are declared."""

    def __init__(self, variant_slots, pre):
        self.variant, self.pre = frozenset(variant_slots), pre
        self.names = {}  # code -> names of its slot, so the same computation shares one
        self.met_only = False  # only definition calls already given a slot share it (Gen._rule_part)

    def met(self) -> "_Hoister":
        """The same loop, computing once only the definition calls it has met already."""
        other = _Hoister(self.variant, self.pre)
        other.names, other.met_only = self.names, True
        return other

    def independent(self, gen, e, env) -> bool:
        # A chance draw is never computed once for several rounds (the checker keeps it out of
        # rules and listings; a comprehension in a statement may still hold one).
        return not (gen.free_slots(e) & self.variant) and not gen.draws(e)


class Gen:
    """Generated code for one compiler; every function shares one namespace."""

    def __init__(self, compiler, traced: bool = False):
        self.c = compiler
        self.traced = traced
        self.ns = {"__builtins__": builtins, "_fail": fail, "_over_budget": over_budget,
                   "_steps_over": steps_over,
                   "_UNSET": _UNSET, "_seq": _seq_any, "_item": _item, "_offers": _offers, "_mk": _make_move,
                   "_generic": _enumerate_generic, "ScriptRuntimeError": ScriptRuntimeError, "_limits": limits,
                   "_shuffle": _shuffle, "_op_end": op_end, "_cards": _cards,
                   "_rv": render_text, "_trace": _no_trace, "_Blocks": _Blocks,
                   "_choose_distinct": choosing.distinct, "_choose_count": choosing.count,
                   "_choose_subsets": choosing.subsets, "_combinations": itertools.combinations,
                   "_pattern": by_pattern, "_RUNTIME_FAULTS": RUNTIME_FAULTS}
        self._const_names: dict[int, str] = {}
        self._keep: list = []  # constants stay alive, so their ids stay unique
        self._nonnull_consts: set[str] = set()
        self._nonnull_codes: set[str] = set()  # generated expressions that never give none (zone slots)
        self._defines: dict[str, str | None] = {}
        self._too_big: set[str] = set()  # definitions too big to write at their call sites
        self._count = 0
        self._temps = _Fn()  # one counter for all code, so inlined operations never share a temporary
        self.sources: list[str] = []
        self._players_table = None
        self._hoist = None  # _Hoister while writing a rule's condition inside an enumerator
        self._optimistic = False  # writing a playout listing: work added, its limit checked at the end
        self._deferred = False  # writing a loop's body whose constant charges are checked after it (_deferring)
        self._deferrals = 0  # checks left out so far by _deferred
        self._move_caches: dict[int, str] = {}  # id(AltSpec) -> its cache of moves (_spec)
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

    @property
    def t(self):
        return self.c.t

    @property
    def p(self):
        return self.c.p

    # ---- namespace and compilation
    def const(self, value, prefix="K") -> str:
        key = id(value)
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
        if not self.traced:  # traced code stays as written: the reference
            body = slots_in_locals(_written_out(_state_lists_read_once(body)))
            held = held_in_locals(body)
            if held is not body:
                try:
                    return self._defined(name, params, held)
                except TooComplex:  # one more `try` was one block too many: kept as written
                    pass
        return self._defined(name, params, body)

    def _defined(self, name: str, params: str, body: list[str]):
        src = f"def {name}({params}):\n" + "\n".join(_indent(body)) + "\n"
        code = _compile(src, f"<cardgame generated {name}>")
        exec(code, self.ns)
        self.sources.append(src)
        return self.ns[name]

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

    def _frame_env(self) -> _Env:
        """The locals of the frame being written: L[k], some known never to be none."""
        return _Env(True, nonnull=self._frame_nonnull)

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

    def define_fn(self, name: str) -> str:
        """The Python name of a definition as a function of (st, arguments...)."""
        if name in self._defines:
            found = self._defines[name]
            if found is None:
                raise Unsupported(f"definition {name}")
            return found
        define = self.t.defines[name]
        params = [self.t.slots[id(p)] for p in define.params or ()]
        pyname = f"D_{name}_{len(self._defines)}"
        self._defines[name] = pyname  # definitions are checked not to call themselves
        outer, self._hoist = self._hoist, None  # another function: nothing of the caller's loop
        # Explanations show a definition's arguments and result, not the inside of its body:
        # one body serves calls with different arguments, so its inner values would mislead.
        traced, self.traced = self.traced, False
        optimistic, self._optimistic = self._optimistic, False  # shared with the exact code
        deferred, self._deferred = self._deferred, False
        chain = self.t.recursive.get(name)
        # Computed once while nothing changes (see _memoized); never in traced mode, the
        # reference the fast code is compared with, nor a recursive one (kept_definitions).
        key = self._memo_keys().get(name)
        memo = not traced and key is not None
        try:
            # A recursive definition takes its call depth as an argument: a limit with no state.
            env = _Env(False, {slot: f"a{slot}" for slot in params}, depth="dd" if chain else None)
            fn = self._temps
            lines, code = self.lower(define.body, env, fn)
            if chain:
                msg = self.const(f"`{name}` called itself more than {limits.MAX_DEFINE_DEPTH} deep ({chain} ...)")
                hint = self.const("each call should come closer to an end: a shorter list, a smaller number")
                lines = [f"if dd > {limits.MAX_DEFINE_DEPTH}:",
                         f"    _fail({msg}, {self.const(self.t.defines[name].span, 'S')}, {hint})"] + lines
            sig = ["st"] + (["dd"] if chain else []) + [f"a{slot}" for slot in params]
            # worth a lookup where the body walks a list or calls another definition (a lookup
            # costs about what reading a card's attribute does)
            memo = memo and any(_LOOP.search(x) or "D_" in x for x in lines + [code])
            if memo:
                self._kept_defines.add(name)
            body = _written_out(self._memoized(key, lines, code, fn, sig[1:]) if memo else lines + [f"return {code}"])
            src = f"def {pyname}({', '.join(sig)}):\n" + "\n".join(_indent(body)) + "\n"
            exec(_compile(src, f"<cardgame generated {pyname}>"), self.ns)
            self.sources.append(src)
        except Unsupported:
            self._defines[name] = None
            raise
        finally:
            self._hoist, self.traced, self._optimistic, self._deferred = outer, traced, optimistic, deferred
        return pyname

    @staticmethod
    def _memoized(key: int, lines, code, fn, args=()):
        """A definition's body computing its value at most once while what it reads does not
        change: expressions change nothing, and every statement that changes a zone, the
        facing or a variable the definition may read forgets its values first (Gen.forget).
        A later use charges the work the computation took, or computes it again when that
        would pass the limit, so the budget runs out exactly where, and with the span where,
        it would have.  With parameters (`args`, plain values: kept_definitions) the key holds
        a dict of the values per argument."""
        h, w0, v = fn.tmp("h"), fn.tmp("w"), fn.tmp("v")
        if not args:
            return [f"{h} = st.memo.get({key})",
                    f"if {h} is not None and ({w0} := st.work + {h}[1]) <= st.work_limit:",
                    f"    st.work = {w0}", f"    return {h}[0]",
                    f"{w0} = st.work"] + lines + [f"{v} = {code}", f"st.memo[{key}] = ({v}, st.work - {w0})",
                                                  f"return {v}"]
        per, arg = fn.tmp("g"), args[0] if len(args) == 1 else f"({', '.join(args)})"
        return [f"{per} = st.memo.get({key})",
                f"if {per} is None:", f"    {per} = st.memo[{key}] = {{}}",
                f"elif ({h} := {per}.get({arg})) is not None and ({w0} := st.work + {h}[1]) <= st.work_limit:",
                f"    st.work = {w0}", f"    return {h}[0]",
                f"{w0} = st.work"] + lines + [f"{v} = {code}", f"{per}[{arg}] = ({v}, st.work - {w0})",
                                              f"return {v}"]

    def forget(self, variable=None, zones=(), facing=False, anywhere=False) -> list[str]:
        """Lines emptying State.memo before a change, where a definition it keeps may read
        what changes (memo_reads.py): the global `variable`, the cards of `zones` (slot
        numbers or names holding them), how cards face, or (`anywhere`) cards taken from
        zones known only card by card.  No lines where none reads it."""
        reads = self._memo_reads()
        touched = zones or anywhere
        if variable in reads.variables or (facing and reads.facing) or (touched and reads.zones is None):
            return [FORGET]
        if not reads.zones:
            return []
        if anywhere or any(int(z) in reads.zones for z in zones if _INT.match(z)):
            return [FORGET]
        found = [z for z in zones if not _INT.match(z)]
        if not found:
            return []
        read = self.const(reads.zones, "MZ")
        return [f"if {' or '.join(f'{z} in {read}' for z in found)}:", f"    {FORGET}"]

    def _memo_keys(self) -> dict:
        """Definition name -> its key in State.memo, for each one define_fn may keep
        (kept_definitions); and, in `_called`, the definitions some call with constant
        arguments names whose reads are among those (_kept_call keeps those calls' values
        under keys of their own: forgetting them empties State.memo no more often)."""
        if self._memo_keys_ is None:
            t, zones = self.t, self.p.zone_index
            kept = kept_definitions(t, lambda e: all(self._constant(a) is not _UNSET for a in e.args))
            self._memo_keys_ = {name: next(_MEMO_KEYS) for name in kept}
            funcs = {e.func for e in script_nodes(t) if isinstance(e, n.Call) and e.func in t.defines
                     and e.func not in t.recursive and t.defines[e.func].params
                     and all(self._constant(a) is not _UNSET for a in e.args)}
            watched = memo_reads(t, zones, kept)
            self._called = {f for f in funcs if memo_reads(t, zones, [f]).within(watched)}
        return self._memo_keys_

    def _memo_reads(self):
        """What Gen.forget watches: the reads of the definitions State.memo keeps and of those
        whose calls _kept_call keeps.  Each definition define_fn may keep is made first, so
        none is kept unwatched (traced, none is kept: all are watched, as forgetting goes)."""
        if self._reads is None:
            names = list(self._memo_keys())
            if not self.traced:
                for name in names:
                    try:
                        self.define_fn(name)
                    except Unsupported:
                        pass
                names = [name for name in names if name in self._kept_defines]
            self._reads = memo_reads(self.t, self.p.zone_index, names + sorted(self._called))
        return self._reads

    def _kept_call(self, e, pyname: str, codes) -> str | None:
        """A function of (st) keeping the value of call `e` in State.memo, for a call whose
        arguments are all constants (`in_force(doubling)`): its value and its work then depend
        on the state alone, as a parameterless definition's do, and forget watches what the
        definition reads (_memo_reads).  None otherwise (and in traced mode, the reference)."""
        self._memo_keys()  # finds the definitions called so, whose reads forget watches
        if self.traced or e.func not in self._called or any(self._constant(a) is _UNSET for a in e.args):
            return None
        key = (e.func, tuple(codes))
        if key not in self._kept_calls:
            body = self._memoized(next(_MEMO_KEYS), [], f"{pyname}(st, {', '.join(codes)})", self._temps)
            self._kept_calls[key] = self.build(f"{pyname}_kept", "st", body).__name__
        return self._kept_calls[key]

    def _inline_define(self, define, codes, env, fn):
        """A small definition's body written at the call site: (lines, code) or None.

        The arguments are computed first, into fresh names, exactly as for a call."""
        if self.traced or define.name in self._too_big or define.name in self.t.recursive:
            return None  # the call is what an explanation shows; a recursive body never ends
        params = [self.t.slots[id(p)] for p in define.params or ()]
        names, lines, nonnull = {}, [], set()
        for slot, code in zip(params, codes):
            if _ATOM.match(code):
                names[slot] = code
                if self._nonnull(code, env):
                    nonnull.add(code)
            else:
                tmp = fn.tmp("a")
                lines.append(f"{tmp} = {code}")
                names[slot] = tmp
        outer, self._hoist = self._hoist, None  # the body's slots are not the caller's
        try:
            body_lines, body = self.lower(define.body, _Env(False, names, nonnull), fn)
        except Unsupported:
            return None
        finally:
            self._hoist = outer
        if len(body_lines) > _INLINE_LINES or len(body) > _INLINE_CHARS:
            # Remembered: its callers then call it, so inlining a chain of definitions that
            # each call the next twice costs time in proportion to the chain, not 2^length.
            self._too_big.add(define.name)
            return None
        return lines + body_lines, body

    def _shared_call(self, func, codes, code) -> str:
        """A playout listing's value of a definition call written in place as one expression
        (`to_call(p)` in several rules): where the listing makes the same call, on arguments
        the same wherever it reads them, more than once, the value is computed at the first
        use and read at the others (its work, the call's charge, stays at each).  A listing
        changes nothing, so the value is the one each use would compute; a fault is the first
        use's, and faults the listing (the public path then lists the exact way)."""
        if not all(_PLAIN_ARG.match(c) for c in codes):
            return code
        key = (func, tuple(codes))
        if isinstance(self._listing_calls, Counter):
            self._listing_calls[key] += 1
            return code
        name = self._listing_calls.get(key)
        if name is None:
            return code
        return f"({name} if {name} is not _UNSET else ({name} := {code}))"

    def stmt_lines(self, s):
        """The lines of a plain statement (one that does not change the control flow), or None."""
        return self._stmt(s, self._temps)

    # ---- operations of the state machine
    #
    # An operation is written as lines that run with `st`, the frame `fr` and its locals `L`, and
    # leave by `@GOTO pc` (continue at that operation) or `@RETURN` (back to runtime.run: a
    # decision is pending, or the stack changed).  assemble() turns each into a function, and
    # inlines the operations a `@GOTO` leads to, up to FUSED_STEPS operations per call, so a
    # typical turn takes a few calls instead of a dozen.  Each step but the last is charged to
    # the step budget and checked where it ends, as runtime.run charges and checks the last,
    # so a runaway loop stops at the same step however the operations are fused.

    def assemble(self, items, code: int):
        """(functions, chance points) for an assembler's items (see compiler._Assembler).  A
        chance point is an operation that draws (`random`, `shuffle`): a place the game can
        pause before (runtime.run), so no operation inlines one.  The lines are kept as `code`'s
        for playout_codes."""
        bodies = []
        for pc, (kind, payload) in enumerate(items):
            if kind == "simple":
                bodies.append([line for lines in payload for line in lines] + [f"@GOTO {pc + 1}"])
            else:
                bodies.append(payload(pc))
        self._bodies[code] = bodies
        chance = frozenset(pc for pc, body in enumerate(bodies) if any(x.strip() == CHANCE_MARK for x in body))
        row = self._rows[code] = []  # the operations call on into it (_step), so it is named before they are made
        row.extend(self._fused(code, pc, chance, False) for pc in range(len(bodies)))
        return row, chance

    def playout_codes(self) -> list:
        """The operations of playouts (Program.playout_codes; playout.play_random runs them):
        the same lines as the program's operations, expanded again for a game that nobody
        listens to and that never pauses.  A decision is made where the program's operation
        would wait for it (playout_decision), the chosen alternative's body fused in after it;
        draws are fused like any other step; the lines for a tracer are left out.  Each one is
        made when it first runs (make_playout_op): a playout enters a third to a half of them,
        the others only run fused into those."""
        assert sorted(self._bodies) == list(range(len(self.c.p.codes))) and not self._playout_table
        table: list = self._playout_table
        for code, bodies in sorted(self._bodies.items()):
            table.append([self._made_on_first_call(table, code, pc) for pc in range(len(bodies))])
        return table

    def _made_on_first_call(self, table, code: int, pc: int):
        def first_call(st, fr, h=0):
            return self.make_playout_op(table, code, pc)(st, fr, h)
        first_call.unmade = True
        return first_call

    def make_playout_op(self, table, code: int, pc: int):
        """The playout operation at (code, pc), made and put in its place in `table`."""
        op = table[code][pc] = self._fused(code, pc, frozenset(), True)
        return op

    def _fused(self, code: int, pc: int, chance, playout: bool):
        """The function of the operation at (code, pc): the program's, or a playout's."""
        entry = (code, pc) if playout else None
        looped = [False]
        fused = self._expand(self._bodies[code][pc], code, 0, [_INLINE_OPS], chance, entry, looped)
        if playout:
            fused = _untraced(fused)
        if not self.traced:  # traced code is the reference the merged charges are tested against
            fused = unseen_pcs_dropped(merge_step_charges(fused))
        fused = _drop_dead_stores(fused)
        if looped[0]:
            fused = ["while True:"] + _indent(fused)
        return self.build(f"{'playout' if playout else 'op'}{pc}", "st, fr, h=0", ["L = fr[2]"] + fused)

    def _expand(self, lines, code, done, budget, chance, entry, looped):
        """`lines` (of code `code`) with each `@GOTO pc` written out as the operation at pc,
        while the budget lasts (`@ENTER pc`, written by playout_decision: the same, at the
        start of a stretch).  In a playout's operation (`entry`: the (code, pc) it starts at),
        a step back to its start goes round a loop (`looped`) instead of back to runtime.run,
        which would only call it again (where nothing pauses, nothing runs between two of
        runtime.run's steps), and a `next` phase is entered in place like a step."""
        out = []
        for line in lines:
            text = line.lstrip()
            pad = line[:len(line) - len(text)]
            if text == CHANCE_MARK:
                continue
            if text.startswith(DECIDE_MARK):
                if entry is not None:
                    made = self.playout_decision(self.c.p.decisions[int(text[len(DECIDE_MARK):])])
                    out.extend(pad + x for x in self._expand(made, code, done, budget, chance, entry, looped))
            elif text.startswith(NEXT_MARK):
                if entry is not None:  # the rest of the lines are runtime.run's way of entering the phase
                    phase, size = map(int, text[len(NEXT_MARK):].split())
                    frame = [f"{pad}fr = [{phase}, 0, [None] * {size}]", f"{pad}st.stack[:] = [fr]", f"{pad}L = fr[2]"]
                    return out + frame + self._step(pad, phase, 0, False, done, budget, chance, entry, looped,
                                                    at_target=True)
            elif text.startswith(CALL_MARK):
                if entry is not None:
                    callee, after, frame = text[len(CALL_MARK):].split()
                    out += self._call_in_place(pad, code, int(callee), int(after), frame, done, budget, chance,
                                               entry, looped)
            elif text.startswith(("@GOTO ", "@ENTER ")):
                out += self._step(pad, code, int(text.split()[1]), text.startswith("@ENTER "), done, budget, chance,
                                  entry, looped)
            elif text == "@RETURN":
                out.append(f"{pad}return")
            else:
                out.append(line)
        return out

    def _step(self, pad, code, target, fresh, done, budget, chance, entry, looped, at_target=False):
        """The lines of a step to (code, target) (see _expand); `at_target`: the frame is there.

        The step just run is charged as runtime.run charges a step, and checked the same way,
        so a fused operation stops at the very step a one-step one would; a stretch begun by a
        decision has run no step yet.  Where the fusing budget ends, the operation (but a traced
        one: the reference) calls the operation of the step itself, charged the same way,
        unless `h`, the calls in a row so far, is runtime.CALLS_ON: then runtime.run takes it."""
        step = ([] if at_target else [f"{pad}fr[1] = {target}"]) + ([f"{pad}st.work = 0"] if fresh else [
            f"{pad}st.work += {limits.STEP_COST}", f"{pad}if st.work > st.work_limit:", f"{pad}    _over_budget(st, None)"])
        if (code, target) == entry:
            looped[0] = True
            return step + [f"{pad}continue"]
        body = self._bodies[code][target]
        if budget[0] > 0 and done + 2 <= FUSED_STEPS and target not in chance and len(body) + 4 <= self._fusing_left:
            budget[0] -= 1
            self._fusing_left -= len(body) + 4  # its lines and the step's charge
            return step + [pad + x for x in self._expand(body, code, done + 1, budget, chance, entry, looped)]
        # runtime.run charges the step it takes to have just run: none yet, in a fresh stretch
        back = ([] if at_target else [f"{pad}fr[1] = {target}"]) + \
            ([f"{pad}st.work = -{limits.STEP_COST}"] if fresh else []) + [f"{pad}return"]
        if self.traced or self._fusing_left < 6:
            return back
        # the operation calls the next one itself, `h` calls in a row so far (runtime.run's
        # loop that pauses passes CALLS_ON: it stops between operations)
        step = ([] if at_target else [f"fr[1] = {target}"]) + (["st.work = 0"] if fresh else [
            f"st.work += {limits.STEP_COST}", "if st.work > st.work_limit:", "    _over_budget(st, None)"])
        row = self.const(self._playout_table[code] if entry is not None else self._rows[code], "CODES")
        call = [f"{pad}if h < {CALLS_ON}:"] + [f"{pad}    {x}" for x in step] + \
            [f"{pad}    return {row}[{target}](st, fr, h + 1)"]
        self._fusing_left -= len(call)  # code for speed, like a fused step's
        return call + back

    def _call_in_place(self, pad, code, callee, after, frame, done, budget, chance, entry, looped):
        """A playout's call of code `callee` (see _expand), made without going back to
        runtime.run: the frame is pushed and the call step charged as runtime.run pushes and
        charges it, and the callee's first operation is called from here.  It hands back the
        frame it popped when it returns (a procedure's `return st.stack.pop()`): if that is
        the frame pushed here, this operation's frame is the stack's top again and its next
        step (`after`) is taken here, charged as runtime.run would charge the callee's last;
        else (a decision left pending, a step out of the fusing budget, the game over, `next`)
        the stack is as runtime.run goes on from.  The lines that follow these (the depth
        check, the push) run when the calls nested are too many."""
        f = self._temps.tmp("f")
        run = f"{self.const(self._playout_table[callee], 'CODES')}[0](st, {f}, h)"
        lines = [f"if len(st.stack) < {_CALLS_IN_PLACE}:", f"    {f} = [{callee}, 0, {frame}]",
                 f"    st.stack.append({f})", f"    st.work += {limits.STEP_COST}",
                 "    if st.work > st.work_limit:", "        _over_budget(st, None)",
                 f"    if {run} is not {f}:", "        return"]
        lines += self._step("    ", code, after, False, done, budget, chance, entry, looped)
        return [pad + x for x in lines]

    def playout_decision(self, decision) -> list[str]:
        """The lines that make `decision` in a playout where the program's operation leaves it
        pending (its lines follow these, and run when these give up).  They do what
        playout.play_random and moves.apply_move do for it: the step that reached the decision
        is charged and the stretch of work ends; the playout listing (`decision.pick`) gives
        the moves; the move is drawn with the agent's generator (playout.Playout) as
        RandomAgent.choose draws it; the move is recorded, the listing's work charged to the
        game, the binders written, a new stretch begun, and the alternative's body follows.
        (`st.waiting`, `st.actor` and `st.legal_cache` are None while operations run, and the
        decision is never pending here: apply_move's resets have nothing to reset; the
        listing's work is not kept in `st.legal_work`, which only counts beside a kept listing.)
        Anything unusual gives up, with the position as the program's operation leaves it: a
        step over budget, the decision count at the playout's stop (max_decisions, or the
        limit on decisions close), a listing that gives up or faults, no move."""
        if decision.pick is None:
            return []
        tmp = self._temps.tmp
        po, w0, per_move, per_game, g, left, ms, count, s, z, m = (
            tmp("po"), tmp("w"), tmp("pm"), tmp("pg"), tmp("g"), tmp("left"), tmp("ms"), tmp("n"), tmp("s"),
            tmp("z"), tmp("m"))
        stretch = [f"{left} = {per_game} - {g}", f"st.work_limit = {per_move} if {per_move} < {left} else {left}"]
        lines = [
            f"{po} = st.playout", f"{w0} = st.work",
            f"if {w0} + {limits.STEP_COST} <= st.work_limit and st.decisions < {po}.stop:",
            f"    {per_move}, {per_game} = st.budget", f"    {g} = st.game_work + {w0} + {limits.STEP_COST}"] \
            + _indent(stretch) + [
            "    try:", f"        {ms} = {self.const(decision.pick, 'PICK')}(st, L)",
            "    except _RUNTIME_FAULTS:", f"        {ms} = None",
            f"    if {ms}:"]
        made = [
            f"{count} = len({ms})", f"{s} = ({po}.state + {GAMMA}) & {MASK}", f"{po}.state = {s}",
            f"if {count} == 1:", f"    {m} = {ms}[0]", f"    {po}.forced = {po}.forced + 1", "else:",
            f"    {z} = (({s} ^ ({s} >> 30)) * {MIX1}) & {MASK}", f"    {z} = (({z} ^ ({z} >> 27)) * {MIX2}) & {MASK}",
            f"    {m} = {ms}[(({z} ^ ({z} >> 31)) * {count}) >> 64]",
            f"{po}.offered = {po}.offered + {count}", f"st.history.append({m}.text)",
            "st.decisions = st.decisions + 1",
            f"{g} += st.work", f"st.game_work = {g}"] + stretch
        lines += _indent(made + self._taken(decision, m), 2)
        # given up: the stretch goes on as it was (its limit is the one runtime.run set)
        return lines + [f"    st.work = {w0}", f"    {left} = {per_game} - st.game_work",
                        f"    st.work_limit = {per_move} if {per_move} < {left} else {left}"]

    def _taken(self, decision, m: str) -> list[str]:
        """The lines after a playout draws move `m`: what moves.apply_move writes for it, then
        `@ENTER` where the game goes on."""
        if decision.kind == "deferred":
            var, pos, collected, ask = decision.frame_slots
            return [f"L[{collected}] = L[{collected}] + ((L[{var}], {m}.alt, {m}.values),)", f"L[{pos}] += 1",
                    f"@ENTER {ask.pc}"]
        assert decision.binds, "Program.plan_moves runs before the playouts' operations are made"
        taken = []
        for pc, slots in decision.binds:
            if len(slots) == 1:
                bind = [f"L[{slots[0]}] = {m}.values[0]"]
            else:
                values = self._temps.tmp("v")
                bind = [f"{values} = {m}.values"] + [f"L[{slot}] = {values}[{i}]" for i, slot in enumerate(slots)] \
                    if slots else []
            taken.append(bind + [f"@ENTER {pc}"])
        if len(taken) == 1:
            return taken[0]
        alt = self._temps.tmp("a")
        lines = [f"{alt} = {m}.alt"]
        for k, branch in enumerate(taken):
            head = "if" if k == 0 else "elif"
            lines += (["else:"] if k == len(taken) - 1 else [f"{head} {alt} == {k}:"]) + _indent(branch)
        return lines

    def branch_source(self, e, next_pc: int, target: int):
        lines, code = self.lower(e, self._frame_env(), self._temps)
        return lines + [f"if {code}:", f"    @GOTO {next_pc}", "else:", f"    @GOTO {target}"]

    def for_init(self, s, items: int, pos: int):
        """The lines of a `for` loop's start: the items are fixed when the loop starts."""
        lines, seq, _ = self._iter(s.source, self._frame_env(), self._temps)
        return lines + [f"L[{items}] = tuple({seq})", f"L[{pos}] = 0"]

    def for_next_source(self, var: int, items: int, pos: int, next_pc: int, end_pc: int):
        i, seq = self._temps.tmp(), self._temps.tmp()
        return [f"{i} = L[{pos}]", f"{seq} = L[{items}]", f"if {i} < len({seq}):",
                f"    L[{var}] = {seq}[{i}]", f"    L[{pos}] = {i} + 1", f"    @GOTO {next_pc}",
                "else:", f"    @GOTO {end_pc}"]

    def decide_source(self, s, decision):
        wait = [f"st.waiting = {self.const(decision, 'DEC')}", "st.legal_cache = None", "@RETURN"]
        if s.actor is None:
            return [f"{DECIDE_MARK}{decision.index}", f"st.actor = {TABLE}"] + wait
        env = self._frame_env()
        lines, code = self.lower(s.actor, env, self._temps)
        if not lines and _SLOT.match(code) and decision.kind == "normal":
            self._seated[id(decision)] = code  # a frame slot, never none while its listing runs
        seat = self._temps.tmp()
        msg = self.const("this decision has no player to make it (the actor is none)")
        check = [] if self._nonnull(code, env) and not self.traced else \
            [f"if {seat} is None:", f"    _fail({msg}, {self.const(s.span, 'S')})"]
        return lines + [f"{seat} = {code}"] + check + [f"{DECIDE_MARK}{decision.index}", f"st.actor = {seat}"] + wait

    def next_source(self, s, code: int, size: int):
        return [f"{NEXT_MARK}{code} {size}", f"st.stack[:] = [[{code}, 0, [None] * {size}]]", "if st.tracer is not None:",
                f"    st.emit('phase', phase={self.const(s.phase)}, span={self.const(s.span, 'S')})", "@RETURN"]

    # ---- expressions: lower(e) -> (statements to run first, Python expression)
    def lower(self, e, env: _Env, fn: _Fn):
        hoister = self._hoist
        if hoister is not None and not self.traced and self._worth_hoisting(e) and hoister.independent(self, e, env) \
                and (not hoister.met_only or isinstance(e, n.Call)):
            self._hoist = None
            try:
                lines, code = self.lower(e, env, fn)
            finally:
                self._hoist = hoister
            if not lines and _ATOM.match(code):
                return lines, code
            if hoister.met_only and self._shared_key(lines, code) not in hoister.names:
                return lines, code
            return self._cached(lines, code, fn, hoister)
        lines, code = getattr(self, "_x_" + type(e).__name__)(e, env, fn)
        if id(e) in self.t.coerced:  # a zone where a list is expected: its cards, read now
            code = f"{self.const(_zone_cards, 'H')}(st, {code})"
        if self.traced and not isinstance(e, n.Literal):
            tmp = fn.tmp("v")
            typ = self._value(self.t.types.get(id(e), "any"))
            lines = lines + [f"{tmp} = {code}", f"_trace({self.const(e, 'N')}, {typ}, {tmp})"]
            code = tmp
        return lines, code

    def lower_all(self, exprs, env, fn):
        """Several expressions evaluated left to right, as plain evaluation does."""
        parts = [self.lower(x, env, fn) for x in exprs]
        lines, codes = [], []
        for i, (ls, code) in enumerate(parts):
            lines.extend(ls)
            if not _ATOM.match(code) and any(p[0] for p in parts[i + 1:]):
                tmp = fn.tmp()
                lines.append(f"{tmp} = {code}")
                code = tmp
            codes.append(code)
        return lines, codes

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
            return kind == "define" and self._constant(e) is _UNSET
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

    def _nonnull(self, code: str, env: _Env) -> bool:
        return bool(_INT.match(code)) or code in env.nonnull or code in self._nonnull_consts or \
            code in ("True", "False", "st.n") or code in self._nonnull_codes

    def _constant(self, e):
        """The value of a constant expression, or _UNSET."""
        match e:
            case n.Literal():
                return e.value
            case n.Name():
                kind, detail = self.t.resolved.get(id(e), (None, None))
                if kind in ("symbol", "card"):
                    return detail
                if kind == "define" and not self.t.defines[detail].params:
                    return self._constant(self.t.defines[detail].body)
                return _UNSET
            case n.ListLit():
                values = tuple(self._constant(i) for i in e.items)
                return _UNSET if any(v is _UNSET for v in values) else values
        return _UNSET

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
            return [], f"st.vars[{slot}]"
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
            if value is not _UNSET:
                return [], self._value(value)
            define = t.defines[detail]
            if define.params:
                raise AssertionError("definition with parameters named without arguments")  # the checker rejects it
            pyname = self.define_fn(detail)
            charge = self.charge("1", e.span)  # every use, inlined or not
            inline = self._inline_define(define, [], env, fn)
            # written here where define_fn keeps no value of it (a body walking no list, calling
            # no definition: see _memoized), else read through its call and State.memo
            if inline is not None and not any(_LOOP.search(x) or "D_" in x for x in inline[0] + [inline[1]]):
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
        if _ATOM.match(obj):
            return lines, f"({tname}[{obj}] if {obj} is not None else None)"
        tmp = fn.tmp()
        return lines, f"({tname}[{tmp}] if ({tmp} := {obj}) is not None else None)"

    def _checked(self, code, env, fn):
        """(name or expression holding code's value, condition that it is not None or "")."""
        if self._nonnull(code, env):
            return code, ""
        if _ATOM.match(code):
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
            base = f"{first} + {_times_n(k)}{value}"
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
                return lines, f"st.vars[{slot}][{value}]"
            whose = "a player" if t.vars[resolved[1]][0].per_player else "a team"
            msg = self.const(f"`{resolved[1]}[...]` needs {whose}, found none")
            return lines, f"(st.vars[{slot}][{value}] if {cond} else _fail({msg}, {span}))"
        seq_lines, seq, _ = self._iter(e.obj, env, fn, charge=True)
        idx_lines, idx = self.lower(e.index, env, fn)
        if _ATOM.match(seq) and _ATOM.match(idx) and not self.traced:  # _item, written out
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
        if self._optimistic or (self._deferred and _INT.match(units)):
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
                return lines, f"len(st.zones[{z}])"
            if e.func == "empty":
                return lines, f"(not st.zones[{z}])"
            if e.func == "top":
                tmp = fn.tmp()
                return lines, f"({tmp}[-1] if ({tmp} := st.zones[{z}]) else None)"
        word = "this value" if len(args) == 1 else "these values"
        msg = self.const(f"`{e.func}` cannot use {word} (none?)")
        span = self.const(e.span, "S")
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
        if e.func in REFUSING:  # its own faults point at the call
            caught += ["except ScriptRuntimeError as _refused:", "    if _refused.span is None:",
                       f"        _refused.span = {span}", "    raise"]
        return ["try:"] + _indent(lines + [f"{result} = {call}"]) + caught, result

    def _chance(self, e, env, fn):
        """`random(LIST)` / `random(LOW, HIGH)`: one draw from the game's generator, traced as a
        chance event; never hoisted or folded (see _Hoister.independent)."""
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
            return lines, f"(not {code})"
        if e.op == "neg" and _INT.match(code) and not lines:
            return [], str(-int(code))
        if e.op != "neg":
            raise AssertionError("unary")  # the checker rejects it
        msg, span = self.const("cannot negate none"), self.const(e.span, "S")
        value, cond = self._checked(code, env, fn)
        if not cond:
            return lines, f"(-{value})"
        return lines, f"(-{value} if {cond} else _fail({msg}, {span}))"

    def _x_IfExpr(self, e, env, fn):
        cl, cond = self.lower(e.cond, env, fn)
        tl, then = self.lower(e.then, env, fn)
        el, other = self.lower(e.orelse, env, fn)
        if not tl and not el:
            return cl, f"({then} if {cond} else {other})"
        tmp = fn.tmp()
        return cl + [f"if {cond}:"] + _indent(tl + [f"{tmp} = {then}"]) + \
            ["else:"] + _indent(el + [f"{tmp} = {other}"]), tmp

    def _x_ListLit(self, e, env, fn):
        value = self._constant(e) if not self.traced else _UNSET  # traced: its items are shown
        if value is not _UNSET:
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
                if not _ATOM.match(given[f.name]):
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
            rl, right = self.lower(e.right, env, fn)
            if not rl:
                return ll, f"({left} {op} {right})"
            tmp = fn.tmp()
            test = f"if {tmp}:" if op == "and" else f"if not {tmp}:"
            return ll + [f"{tmp} = {left}", test] + _indent(rl + [f"{tmp} = {right}"]), tmp
        if op in ("==", "!="):
            lines, (left, right) = self.lower_all((e.left, e.right), env, fn)
            if right == "None" or left == "None":  # values are ints, texts, tuples and none
                word = "is" if op == "==" else "is not"
                return lines, f"({left} {word} {right})"
            record = next((x for x in (t.types.get(id(e.left)), t.types.get(id(e.right))) if x and is_record(x)), None)
            if record is not None:  # records compare field by field: one unit per field
                lines = lines + self.charge(str(len(t.record_fields[record_name(record)])), e.span)
            return lines, f"({left} {op} {right})"
        if op in ("in", "notin"):
            lines, (left, right) = self.lower_all((e.left, e.right), env, fn)
            word = "in" if op == "in" else "not in"
            seq = fn.tmp("s")
            whole = f"st.zones[{right}]" if t.types[id(e.right)] == ZONE else f"({right} or ())"
            if not _ATOM.match(left):
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
            if rl and not _ATOM.match(a):
                tmp = fn.tmp()
                ll, a = ll + [f"{tmp} = {a}"], tmp
            none_msg = self.const(f"`{op}` compares `{order}` values, but one side is none")
            x, y = fn.tmp(), fn.tmp()
            return ll + rl, f"(({x} {op} {y}) if ({x} := {a}) is not None and ({y} := {b}) is not None " \
                            f"else _fail({none_msg}, {span}))"
        if op == "+" and TEXT in (ltype, rtype):  # before lists: `"Beat " + cards` shows the cards
            lines, (left, right) = self.lower_all((e.left, e.right), env, fn)
            if ltype == rtype == TEXT and not self.traced:
                return lines, f"{self.const(_texts_plus, 'H')}(st, {left}, {right}, {span})"
            return lines, f"{self.const(_text_plus, 'H')}(st, {self._value(ltype)}, {self._value(rtype)}, " \
                          f"{left}, {right}, {span})"
        if op == "+" and (is_list(ltype) or is_list(rtype)):
            lines, (left, right) = self.lower_all((e.left, e.right), env, fn)
            return lines, f"{self.const(_concat, 'H')}(st, {left}, {right})"
        if op not in ("+", "-", "*", "/", "%", "<", "<=", ">", ">="):
            raise AssertionError(f"operator {op}")  # the checker rejects it
        lines, (left, right) = self.lower_all((e.left, e.right), env, fn)
        a, acond = self._checked(left, env, fn)
        b, bcond = self._checked(right, env, fn)
        conds = [c for c in (acond, bcond) if c]
        none_msg = self.const(f"`{op}` needs two numbers, but one side is none")
        hint = self.const("check that the values exist (an empty zone's top card is none)")
        if op in ("<", "<=", ">", ">="):
            value = f"({a} {op} {b})"
        else:
            py = {"+": "+", "-": "-", "*": "*", "/": "//", "%": "%"}[op]
            big = self.const(f"a number grew beyond the limit of {limits.MAX_INT}")
            r = fn.tmp()
            value = f"({r} if {-limits.MAX_INT} <= ({r} := {a} {py} {b}) <= {limits.MAX_INT} " \
                    f"else _fail({big}, {span}))"
            if op in ("/", "%"):
                zero = self.const("division by zero")
                value = f"({value} if {b} != 0 else _fail({zero}, {span}))"
        if not conds:
            return lines, value
        if len(conds) == 1:
            test = conds[0]
        else:  # both sides are evaluated before either is looked at
            test = "not (" + " | ".join(f"(not ({c}))" for c in conds) + ")"
        return lines, f"({value} if {test} else _fail({none_msg}, {span}, {hint}))"

    def place(self, e, order: str, env, fn):
        """(lines, code) for the place of e's value in the declared order of attribute `order`,
        none for none: a constant's place is written in, `c.rank` reads a per-card table of
        places (fast mode; traced mode shows the value itself, then looks it up)."""
        value = self._constant(e)
        positions = self._order_places(order)
        if value is not _UNSET:
            return [], repr(positions.get(value))  # the checker found it in the order
        if isinstance(e, n.Attr) and e.name == order and not self.traced \
                and not is_record(self.t.types.get(id(e.obj), "any")):
            return self._x_Attr(e, env, fn, self._card_places(order))
        lines, code = self.lower(e, env, fn)
        lookup = self.const(_OrderPlaces(order, positions), "OP")
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
        outer, self._hoist = self._hoist, (None if self.traced else _Hoister({self.t.slots[id(loop)]}, before))
        try:
            return (lower or self.lower)(part, env, fn)
        finally:
            self._hoist = outer

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
        if self.traced or self._optimistic or self._deferred or self.draws(e):
            return head + _indent(exact)
        self._deferred, deferrals = True, self._deferrals
        try:
            fast = body()
        finally:
            self._deferred = False
        if self._deferrals == deferrals or not _every_round_charges(fast) or \
                any(x.lstrip().startswith("for ") or "st.emit" in x for x in exact):
            return head + _indent(exact)  # nothing saved at every round: the check after would cost more
        w = self.tmp("w")
        summed = _charges_of_every_round(fast, every) if every is not None else None
        if summed is not None:
            redo = self.tmp()
            fast, total = summed
            return [f"{w} = st.work", "try:"] + _indent(head + _indent(_merge_charges(fast)) + total + [
                f"{redo} = st.work > st.work_limit"]) + ["except Exception:", f"    {redo} = True",
                                                         f"if {redo}:", f"    st.work = {w}"] + \
                _indent(head + _indent(exact))
        return [f"{w} = st.work", "try:"] + _indent(head + _indent(_merge_charges(fast))) + \
            ["except Exception:", "    if st.work <= st.work_limit:", "        raise",  # else the exact run faults
             "if st.work > st.work_limit:", f"    st.work = {w}"] + _indent(head + _indent(exact))

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
        return before + [f"{pairs} = []", header] + _indent(kl + [f"{pairs}.append(({key}, {var}))"]) + after + \
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
        return lines + before + [f"{items} = []", f"{keys} = []", header] + _indent(body) + after + made, result

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
            return cl + [f"if {cond}:"] + _indent(append)
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
            lines += cl + [f"{out} = ()", f"if {cond}:"] + _indent(bl + [f"{out} = ({value},)"])
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

    # ---- plain statements
    def _stmt(self, s, fn):
        env = self._frame_env()
        t = self.t
        match s:
            case n.Let():
                lines, value = self.lower(s.value, env, fn)
                return lines + [f"L[{t.slots[id(s)]}] = {value}"]
            case n.Set():
                return self._set(s, env, fn)
            case n.Move():
                return self._move(s, env, fn)
            case n.Deal():
                return self._deal(s, env, fn)
            case n.Log():
                # The text is made only for someone listening, so the game is neither charged for
                # it nor stopped by it: a part that fails (a none, the text limit, the budget) leaves
                # the line as written, as a prompt that fails is shown, and the game goes on as unwatched.
                lines, text = self.text_lines(s.parts)
                work, line = fn.tmp("w"), fn.tmp("t")
                written = self.const("".join(p if isinstance(p, str) else "{...}" for p in s.parts))
                return ["if st.tracer is not None:"] + _indent(
                    [f"{work} = st.work", "try:"] + _indent(lines + [f"{line} = {text}"]) +
                    ["except _RUNTIME_FAULTS:", f"    {line} = {written}", f"st.work = {work}",
                     f"st.emit('log', text={line}, span={self.span(s.span)})"])
            case n.Reveal() | n.Hide() | n.ShowTo():
                return self._visibility(s, env, fn)
            case n.Shuffle():
                lines, zone = self.lower(s.zone, env, fn)
                slot, cards, c = fn.tmp(), fn.tmp(), fn.tmp("c")
                return lines + [CHANCE_MARK, f"{slot} = {zone}", f"{cards} = st.zones[{slot}]"] + \
                    self.charge(f"len({cards})", s.span) + [
                                *self.forget(zones=[slot], facing=True),
                                f"st.rng = _shuffle(st.rng, {cards})", "vis = st.vis",
                                f"for {c} in {cards}:", f"    vis[{c}] = 0", "if st.tracer is not None:",
                                f"    st.emit('chance', what='shuffle', zone={slot}, span={self.const(s.span, 'S')})"]
        return None

    def _visibility(self, s, env, fn):
        """`reveal` (everyone sees), `hide` (nobody), `show ... to` (one more player knows)."""
        typ = self.t.types[id(s.what)]
        lines, what = self.lower(s.what, env, fn)
        cards, c = fn.tmp(), fn.tmp("c")
        span = self.span(s.span)
        if typ == ZONE:
            lines += [f"{cards} = tuple(st.zones[{what}])"]
        else:
            lines += [f"{cards} = _cards(st, {typ == CARD}, {what})"]
        lines += self.forget(facing=True)
        if isinstance(s, n.Reveal):
            return lines + [f"for {c} in {cards}:", f"    st.vis[{c}] |= {FACE_UP}",
                            f"    st.emit('reveal', card={c}, span={span})"]
        if isinstance(s, n.Hide):
            return lines + [f"for {c} in {cards}:", f"    st.vis[{c}] = 0", "    if st.tracer is not None:",
                            f"        st.emit('hide', card={c}, span={span})"]
        pl, player = self.lower(s.player, env, fn)
        seat = fn.tmp()
        msg = self.const("`show ... to` needs a player, found none")
        return pl + [f"{seat} = {player}", f"if {seat} is None:", f"    _fail({msg}, {span})"] + lines + \
            [f"for {c} in {cards}:", f"    st.vis[{c}] |= 1 << {seat}",
             f"    st.emit('peek', card={c}, player={seat}, span={span})"]

    def _set(self, s, env, fn):
        t, p = self.t, self.p
        target = s.target
        kind, detail = t.resolved[id(target)]
        op, span = s.op, self.const(s.span, "S")
        assert op in ("=", "+=", "-=") and kind in ("local", "global"), (op, kind)
        lines = []

        def combine(old: str, new: str, value_nonnull: bool = False) -> list[str]:
            """Lines leaving the combined value in `res`."""
            if op == "=":
                return [f"{res} = {new}"]
            msg = self.const(f"`{op}` on a variable that holds none")
            hint = self.const("give the variable a starting number")
            big = self.const(f"a number grew beyond the limit of {limits.MAX_INT}")
            sign = "+" if op == "+=" else "-"
            either = f"{o} is None" if value_nonnull and not self.traced else f"{o} is None or {v} is None"
            return [f"{o} = {old}", f"{v} = {new}",
                    f"if {either}:", f"    _fail({msg}, {span}, {hint})",
                    f"{res} = {o} {sign} {v}",
                    f"if not {-limits.MAX_INT} <= {res} <= {limits.MAX_INT}:", f"    _fail({big}, {span})"]

        res, o, v = fn.tmp(), fn.tmp(), fn.tmp()
        trace = ["if st.tracer is not None:",
                 f"    st.emit('set', name={self._value(detail)}, value={{shown}}, index={{index}}, span={span})"]
        if target.index is not None and not (kind == "global" and t.vars[detail][0].indexed):
            # one element of a list: the list is copied, changed and stored back
            where = f"L[{detail}]" if kind == "local" else f"st.vars[{p.var_slots[detail]}]"
            seq, i = fn.tmp(), fn.tmp()
            il, idx = self.lower(target.index, env, fn)
            vl, value = self.lower(s.value, env, fn)
            outside = self.const("position {} is outside the list (length {})")
            lines = [f"{seq} = list({where})"] + il + [
                f"{i} = {idx}", f"if {i} is None or not 0 <= {i} < len({seq}):",
                f"    _fail({outside}.format({i}, len({seq})), {span})"]
            if op == "=":
                lines += vl + [f"{seq}[{i}] = {value}"]
            else:
                lines += [f"{o} = {seq}[{i}]"] + vl + [f"{v} = {value}"] + combine(o, v)[2:] + [f"{seq}[{i}] = {res}"]
            lines += ([] if kind == "local" else self.forget(detail)) + [f"{where} = tuple({seq})"]
            return lines if kind == "local" else lines + [trace[0], trace[1].format(shown=f"{seq}[{i}]", index=i)]
        if kind == "local":
            vl, value = self.lower(s.value, env, fn)
            if op == "=":
                return vl + [f"L[{detail}] = {value}"]
            # the old value is read before the new one is computed
            return [f"{o} = L[{detail}]"] + vl + [f"{v} = {value}"] + \
                combine(o, v, self._nonnull(value, env))[2:] + [f"L[{detail}] = {res}"]
        slot = p.var_slots[detail]
        name = detail
        if target.index is None:
            vl, value = self.lower(s.value, env, fn)
            if op == "=":
                lines = vl + self.forget(name) + [f"st.vars[{slot}] = {value}"]
            else:
                lines = [f"{o} = st.vars[{slot}]"] + vl + [f"{v} = {value}"] + \
                    combine(o, v, self._nonnull(value, env))[2:] + self.forget(name) + [f"st.vars[{slot}] = {res}"]
            return lines + [trace[0], trace[1].format(shown=f"st.vars[{slot}]", index=None)]
        # per-player variable
        il, idx = self.lower(target.index, env, fn)
        seat = fn.tmp()
        msg = self.const(f"`{name}[...]` needs {'a player' if t.vars[name][0].per_player else 'a team'}, found none")
        row = fn.tmp()
        check = [] if self._nonnull(idx, env) and not self.traced else [f"if {seat} is None:", f"    _fail({msg}, {span})"]
        lines = il + [f"{seat} = {idx}"] + check + [f"{row} = st.vars[{slot}]"]
        vl, value = self.lower(s.value, env, fn)
        if op == "=":
            lines += vl + self.forget(name) + [f"{row}[{seat}] = {value}"]
        else:
            lines += [f"{o} = {row}[{seat}]"] + vl + [f"{v} = {value}"] + combine(o, v, self._nonnull(value, env))[2:] + \
                self.forget(name) + [f"{row}[{seat}] = {res}"]
        return lines + [trace[0], trace[1].format(shown=f"{row}[{seat}]", index=seat)]

    def _move_card(self, card: str, dest: str, bottom: bool, facing, fn) -> list[str]:
        """State.move_card written inline (each card is in exactly one zone, once)."""
        src = fn.tmp("z")
        lines = [f"{src} = zones[loc[{card}]]",
                 f"if {src}[-1] == {card}:", f"    {src}.pop()", "else:", f"    {src}.remove({card})",
                 f"zones[{dest}].insert(0, {card})" if bottom else f"zones[{dest}].append({card})",
                 f"loc[{card}] = {dest}"]
        lines.append(f"vis[{card}] |= {FACE_UP}" if facing == "up" else f"vis[{card}] &= {~FACE_UP}")
        return lines

    def _move(self, s, env, fn):
        t = self.t
        span = self.const(s.span, "S")
        dl, dest = self.lower(s.dest, env, fn)
        d = fn.tmp()
        msg = self.const("`move` needs a zone to move to, found none")
        if (_INT.match(dest) or dest in self._nonnull_codes) and not dl:
            if _ATOM.match(dest):
                d, lines = dest, []
            else:
                lines = [f"{d} = {dest}"]
        else:
            lines = dl + [f"{d} = {dest}", f"if {d} is None:", f"    _fail({msg}, {span})"]
        typ = t.types[id(s.what)]
        wl, what = self.lower(s.what, env, fn)
        card = fn.tmp("c")
        bottom = s.position == "bottom"
        order = "reversed" if bottom else ""  # under a pile, the list keeps its order
        lines.append(_STATE_LISTS)
        move = self._move_card(card, d, bottom, s.facing, fn) + \
            ["if st.tracer is not None:", f"    st.emit('move', card={card}, to={d}, span={span})"]
        if typ == CARD:
            forget = self.forget(zones=[d, f"loc[{card}]"], facing=True)  # where it goes, where it was
            if self._nonnull(what, env) and not self.traced:
                return lines + wl + [f"{card} = {what}"] + forget + move
            return lines + wl + [f"{card} = {what}", f"if {card} is not None:"] + _indent(forget + move)
        if typ == ZONE:
            # Untraced, a whole zone moves at once: same final zones, locations and facing.
            src, moved = fn.tmp(), fn.tmp()
            place = f"zones[{d}][0:0] = {moved}" if bottom else f"zones[{d}].extend({moved})"
            vis = f"vis[{card}] |= {FACE_UP}" if s.facing == "up" else f"vis[{card}] &= {~FACE_UP}"
            return lines + wl + [f"{src} = {what}"] + self.charge(f"len(zones[{src}])", s.span) + \
                self.forget(zones=[src, d], facing=True) + [
                    "if st.tracer is None:",
                    f"    {moved} = tuple(zones[{src}])",
                    f"    if {src} != {d}:", f"        {place}", f"        zones[{src}].clear()",
                    f"        for {card} in {moved}:", f"            loc[{card}] = {d}",
                    f"            {vis}",
                    "    else:", f"        for {card} in {moved}:", f"            {vis}",
                    "else:", f"    for {card} in {order}(tuple(zones[{src}])):"] + _indent(move, 2)
        cards = fn.tmp()
        # a list is a tuple (a value: moving its cards does not change it); its nones are skipped
        return lines + wl + [f"{cards} = {what}", f"if {cards} is not None:"] + \
            _indent(self.charge(f"len({cards})", s.span) + self.forget(zones=[d], facing=True, anywhere=True)) + [
                             f"    if type({cards}) is not tuple or None in {cards}:",
                             f"        {cards} = tuple([x for x in {cards} if x is not None])",
                             "    if st.tracer is None:",  # asked once, not at every card
                             f"        for {card} in {order}({cards}):"] + _indent(move[:-2], 3) + [
                             "    else:", f"        for {card} in {order}({cards}):"] + _indent(move[:-2] + [move[-1].strip()], 3)

    def _deal(self, s, env, fn):
        p = self.p
        kind, k = p.zone_index[s.zone]
        if kind != "per_player":
            raise AssertionError("deal into a shared zone")  # the checker rejects it
        first, span = p.shared_zone_count, self.const(s.span, "S")
        lines, (players, source, count) = self.lower_all((s.players, s.source, s.count), env, fn)
        seats, src, pile, seat, dest, card, rounds = (fn.tmp() for _ in range(7))
        msg = self.const("`deal` ran out of cards in `{}`")
        hint = self.const("deal fewer cards, or refill the zone first")
        names = self.const(_zone_name, "H")
        vis = f"vis[{card}] |= {FACE_UP}" if s.facing == "up" else f"vis[{card}] &= {~FACE_UP}"
        return lines + [
            f"{seats} = {players}", f"{src} = {source}", f"{rounds} = {count} or 0",
            # paid up front: every round, even one that deals to nobody
        ] + self.charge(f"max(0, {rounds}) * max(1, len({seats}))", s.span) + [
            # the cards go to per-player zones: read only where any zone might be (memo_reads.py)
            *self.forget(zones=[src], facing=True), _STATE_LISTS] + self._deal_at_once(s, seats, src, rounds, vis, card, fn, [
            f"for _ in range({rounds}):",
            f"    for {seat} in {seats}:",
            f"        {pile} = zones[{src}]",
            f"        if not {pile}:",
            f"            _fail({msg}.format({names}(st, {src})), {span}, {hint})",
            f"        {dest} = {first} + {_times_n(k)}{seat}",
            f"        {card} = {pile}.pop()",
            f"        zones[{dest}].append({card})",
            f"        loc[{card}] = {dest}",
            f"        {vis}",
            "        if st.tracer is not None:",
            f"            st.emit('move', card={card}, to={dest}, span={span})",
        ])

    def _deal_at_once(self, s, seats, src, rounds, vis, card, fn, one_by_one):
        """A deal's lines: fast code with no tracer listening takes all the cards at once when
        the pile holds them and each seat is dealt to once a round (seat i gets the i-th card
        of each round from the top, in order, as dealing card by card gives it); otherwise, and
        in traced code, card by card (`one_by_one`)."""
        if self.traced:
            return one_by_one
        first, k = self.p.shared_zone_count, self.p.zone_index[s.zone][1]
        count, need, pile, dealt, i, seat, dest, got = (fn.tmp() for _ in range(8))
        return [
            f"{count} = len({seats})", f"{need} = {rounds} * {count}", f"{pile} = zones[{src}]",
            f"if st.tracer is None and 0 < {need} <= len({pile}) and None not in {seats} and "
            f"len(set({seats})) == {count} and {src} - {first} - {_times_n(k)}0 not in {seats}:",
            f"    {dealt} = {pile}[-{need}:]", f"    {dealt}.reverse()", f"    del {pile}[-{need}:]",
            f"    for {i}, {seat} in enumerate({seats}):",
            f"        {dest} = {first} + {_times_n(k)}{seat}", f"        {got} = {dealt}[{i}::{count}]",
            f"        zones[{dest}].extend({got})",
            f"        for {card} in {got}:", f"            loc[{card}] = {dest}", f"            {vis}",
            "else:"] + _indent(one_by_one)

    # ---- decisions
    def enumerator(self, decision):
        """fn(st, L) -> the legal moves of `decision`, or None to use the generic enumeration
        (always, in traced mode: it is the reference the specialised enumerators must match)."""
        if self.traced:
            return None
        try:
            return self._enumerator(decision)
        except Unsupported:
            return None

    def playout_enumerator(self, decision):
        """fn(st, L) -> the legal moves of `decision` for a playout (playout.py), or None when
        the listing must go the public way (a fault, the move cap, a budget run out).

        The same listing as `enumerator`, written for a caller that only draws one move: the
        work is added as it is done but its limit is checked once, at the end (the listing
        changes nothing, so a listing over budget is simply done again the exact way, by the
        public path, and faults where it faults); a binder over a plain range with no rule is
        not listed move by move (see _Blocks).  None in traced mode, like `enumerator`."""
        if self.traced:
            return None
        self._optimistic = True
        try:
            return self._enumerator(decision, playout=True)
        except Unsupported:
            return None
        finally:
            self._optimistic = False
            self._eager.clear()

    def _enumerator(self, d, playout=False):
        self._frame_nonnull = self._nonnull_by_code.get(d.code, frozenset())
        try:
            return self._enumerator_in_frame(d, playout)
        finally:
            self.leave_frame()

    def _enumerator_in_frame(self, d, playout):
        if playout:  # written once to count the definition calls to share (_shared_call), then again
            self._listing_calls = Counter()
            try:
                self._listing_lines(d, playout)
                counted = self._listing_calls
            finally:
                self._listing_calls = None
                self._eager.clear()
            self._listing_calls = {key: self._temps.tmp("dc") for key, uses in counted.items() if uses > 1}
        try:
            lines = self._listing_lines(d, playout)
            if self._listing_calls:
                lines = [f"{name} = _UNSET" for name in self._listing_calls.values()] + lines
        finally:
            self._listing_calls = None
        return self.build(f"{'pick' if playout else 'moves'}_{d.index}", "st, L", _local_reads(lines))

    def _listing_lines(self, d, playout):
        fn = self._temps
        names = Counter(spec.name for spec in d.alts)
        lines = ["st.work = 0", "out = []", "tried = 0"] + (["extra = 0", "blocks = None"] if playout else [])
        self._tried_static = 0
        self._rule_results = {}
        uses_seen = False
        if d.kind == "reaction":
            lines.append(f"offers = _offers(st, {self.const(d, 'DEC')})")
        for spec in d.alts:
            spec_lines, dedup = self._spec(spec, fn, shared=names[spec.name] > 1, playout=playout,
                                           seated=self._seated.get(id(d)), at_top=d.kind != "reaction")
            uses_seen |= dedup
            if d.kind == "reaction" and spec.reaction is not None:
                spec_lines = [f"if {spec.reaction} in offers:"] + _indent(spec_lines)
            lines.extend(spec_lines)
        if uses_seen:
            lines.insert(1, "seen = set()")
        unshared = {x for result, work, w0, uses in self._rule_results.values() if not uses
                    for x in (f"{w0} = st.work", f"{work} = st.work - {w0}")}
        lines = [line for line in lines if line.strip() not in unshared]
        if playout:
            lines += ["if st.work > st.work_limit:", "    return None",
                      "if blocks is not None:", "    return _Blocks(out, blocks, extra, st)"]
            lines = _charged_for_each(_unused_dropped(_tries(lines, self._tried_static)))
        return lines + ["return out"]

    def _several_loop(self, b, env, fn, var, dom, count, give_up):
        """(head, loop) over the sets `xs from LOW..HIGH of SOURCE` offers (choosing.py): the
        domain's distinct items sorted once, each subset made by position; the domain, then
        every subset, paid for before the first is made, as the generic enumeration does."""
        dl, seq, _ = self._iter(b.source, env, fn)
        items, fewest, most, total = fn.tmp("i"), fn.tmp(), fn.tmp(), fn.tmp("n")
        head = dl + [f"{items} = {seq}", f"st.work += len({items})", "if st.work > st.work_limit:", give_up,
                     f"{dom} = _choose_distinct({items})"]
        if b.fewest is not None:
            fl, code = self.lower(b.fewest, env, fn)
            head += fl + [f"{fewest} = {code}"]
        ml, code = self.lower(b.most, env, fn)
        head += ml + [f"{most} = {code}"]
        if b.fewest is None:
            fewest = most
        # `count` (the caller's lines) charges a domain's length: here, the number of subsets
        head += [f"{total} = _choose_count(len({dom}), {fewest}, {most})"]
        head += [line.replace(_domain_size(dom), total).replace(f"len({dom})", total) for line in count]
        if b.fewest is None:
            return head, [f"for {var} in (_combinations({dom}, {most}) if {most} is not None and {most} >= 0 else ()):"]
        return head, [f"for {var} in _choose_subsets({dom}, {fewest}, {most}):"]

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
                block = [f"if {h} is _UNSET:", f"    {w0} = st.work"] + _indent(lines) + \
                    [f"    {h} = {code}", f"    {hw} = st.work - {w0}", "else:", f"    st.work += {hw}"]
                self._eager[id(block)] = (block, block, None)  # computed once even where the first use ran
                return block, h
        else:
            h, hw, hl, w0 = fn.tmp("h"), fn.tmp("hw"), fn.tmp("hl"), fn.tmp()
            hoister.pre.append(f"{h} = _UNSET")
            if key is not None:
                hoister.names[key] = (h, hw, hl, w0)
        if not any("st.work" in line or "D_" in line for line in lines) and "D_" not in code:
            block = [f"if {h} is _UNSET:"] + _indent(lines + [f"{h} = {code}"])  # charges no work
            if self._optimistic:
                self._eager[id(block)] = (block, lines + [f"{h} = {code}"], None)
            return block, h
        if self._optimistic or self._deferred:  # the limit is checked at the end of the listing or loop
            block = [f"if {h} is _UNSET:", f"    {w0} = st.work"] + _indent(lines) + \
                [f"    {h} = {code}", f"    {hw} = st.work - {w0}", "else:", f"    st.work += {hw}"]
            if self._optimistic:
                self._eager[id(block)] = (block, [f"{w0} = st.work"] + lines + [f"{h} = {code}", f"{hw} = st.work - {w0}"], hw)
            return block, h
        return ([f"if {h} is _UNSET:", f"    {w0} = st.work"] + _indent(lines) +
                [f"    {h} = {code}", f"    {hw} = st.work - {w0}", f"    {hl} = st.work_limit - {hw}",
                 f"elif {hw}:", f"    if st.work > {hl}:"] + _indent(lines + [f"{h} = {code}"], 2) +
                ["    else:", f"        st.work += {hw}"]), h

    def _shared_key(self, lines, code):
        """What identifies a computation whose slot later uses may share (see _cached), or None."""
        if not lines:
            return code
        if self._optimistic and all(_CONSTANT_CHARGE.match(line) for line in lines):
            return tuple(lines), code
        return None

    def _rule_part(self, e, env, fn, hoister, hoisting=True):
        """A rule's `when` or `require` inside an enumerator: computed once when it does not
        depend on the candidate, else with its candidate-independent parts computed once.
        (`hoisting` false: an alternative without binders, whose rules run once as written.)"""
        if not hoisting:
            return self.lower(e, env, fn)
        if hoister.independent(self, e, env):
            outer = self._hoist
            if self._optimistic and not self._worth_hoisting(e):
                self._hoist = hoister.met()  # its definition calls share the slots of earlier rules' (_cached)
            try:
                lines, code = self.lower(e, env, fn)
            finally:
                self._hoist = outer
            if not lines and _ATOM.match(code):
                return lines, code
            return self._cached(lines, code, fn, hoister)
        outer, self._hoist = self._hoist, hoister
        try:
            return self.lower(e, env, fn)
        finally:
            self._hoist = outer

    def _spec(self, spec, fn, shared: bool, playout: bool = False, seated=None, at_top: bool = False):
        t, p = self.t, self.p
        alt = spec.node
        if len(alt.binders) != len(spec.bindings) or len(alt.requires) != len(spec.rules):
            raise Unsupported("alternative shape")
        # the decision's actor, read from a frame slot, was checked not none when it began
        env = _Env(True, nonnull=self._frame_nonnull | ({seated} if seated else set()))
        binder_slots = {t.slots[id(b)] for b in alt.binders}
        pre, loops, names, unique = [], [], [], True
        depth_env = env
        # Every combination tried counts towards the decision's cap; when a domain would pass
        # it, the generic enumeration runs instead and stops at exactly the same point.
        # (A playout's listing leaves all of that to the public path: see playout_enumerator.)
        give_up = "    return None" if playout else "    return _generic(st)"
        cap = ["if tried > _limits.MAX_MOVES_PER_DECISION:", give_up]
        for depth, (b, binding) in enumerate(zip(alt.binders, spec.bindings)):
            var, dom = fn.tmp("b"), fn.tmp("d")
            tries = [f"tried += len({dom})"] + cap if depth == len(alt.binders) - 1 else []
            # each domain walked is paid for first, as the generic enumeration does; a domain
            # that would pass the budget hands over to it, so the fault is the same
            count = [f"st.work += {_domain_size(dom)}", "if st.work > st.work_limit:", give_up] + tries
            if b.several:
                head, loop = self._several_loop(b, depth_env, fn, var, dom, count, give_up)
                unique &= binding.type[5:] in (PLAYER, INT) or \
                    binding.type[5:] == CARD and len(set(p.card_names)) == len(p.card_names)
            elif b.source is not None:
                dl, seq, nonnull = self._iter(b.source, depth_env, fn)
                typ = t.types.get(id(b.source))
                unique &= typ == ZONE and binding.type == CARD and len(set(p.card_names)) == len(p.card_names)
                if typ == ZONE and seq.startswith("st.zones["):  # a list of the deck's cards, at most
                    if playout and len(alt.binders) == 1:  # counted as a whole deck (see _tries)
                        self._tried_static += len(p.card_names)
                        tries = []
                    count = [f"st.work += len({dom})"] + \
                        ([] if playout else ["if st.work > st.work_limit:", give_up]) + tries
                head = dl + [f"{dom} = {seq}"] + count
                loop = [f"for {var} in {dom}:"] + ([] if nonnull else [f"    if {var} is None:", "        continue"])
            else:
                lines, (low, high) = self.lower_all((b.low, b.high), depth_env, fn)
                lo, hi = fn.tmp(), fn.tmp()
                head = lines + [f"{lo} = {low}", f"{hi} = {high}",
                                f"{dom} = range({lo}, {hi} + 1) if {lo} is not None and {hi} is not None else ()"] + \
                    count
                loop = [f"for {var} in {dom}:"]
            loops.append((head, loop, dom))
            names.append(var)
            depth_env = depth_env.bind(t.slots[id(b)], var, True)
        if len(alt.binders) > 1:
            unique = False  # several binders over lists may repeat a combination's text
        if len(alt.binders) == 1 and alt.binders[0].source is None:
            unique = True  # a range of whole numbers
        dedup = shared or not unique
        # the rules, in order, each cutting the candidates it forbids
        body_depth = []
        passes = []  # per rule, for a playout listing's passes (_rule_passes): (segments, when, check lines, check)
        spec_hoister = _Hoister((), pre)
        hoisting = bool(alt.binders)  # with no binder everything is computed once anyway
        for u, (use, call) in enumerate(zip(spec.rules, alt.requires)):
            rule = use.rule.node
            if len(call.args) != len(rule.params):
                raise Unsupported("rule argument count")
            param_slots = [t.slots[id(prm)] for prm in rule.params]
            variant = [any(isinstance(x, n.Name) and t.resolved.get(id(x), (None,))[0] == "local"
                           and t.resolved[id(x)][1] in binder_slots for x in _walk(a)) for a in call.args]
            rule_names, rule_nonnull = {}, set()
            segs = []  # what each candidate computes before the test: (lines, its _eager entry or None)
            for i, (a, var_dep) in enumerate(zip(call.args, variant)):
                al, code = self.lower(a, depth_env, fn)
                if not al and _ATOM.match(code):
                    name = code  # a plain read: cannot fail, so reading it early changes nothing
                elif not var_dep and hoisting:
                    cached, name = self._cached(al, code, fn, spec_hoister)
                    segs.append((cached, self._eager.get(id(cached))))
                else:
                    name = fn.tmp("r")
                    segs.append((al + [f"{name} = {code}"], None))
                if self._nonnull(code, depth_env):
                    rule_nonnull.add(name)
                rule_names[param_slots[i]] = name
            renv = _Env(False, rule_names, rule_nonnull)
            hoister = _Hoister({param_slots[i] for i, v in enumerate(variant) if v} if hoisting else (), pre)
            hoister.names = spec_hoister.names  # one slot for a computation met in several rules
            rl, require = self._rule_part(rule.require, renv, fn, hoister, hoisting)
            independent_when = None  # the `when`, where it does not depend on the candidate
            if rule.when is None:
                check_lines, check = rl, require
            else:
                wl, when = self._rule_part(rule.when, renv, fn, hoister, hoisting)
                segs.append((wl, self._eager.get(id(wl)) if wl else None))
                if hoister.independent(self, rule.when, renv) and (not wl or segs[-1][1] is not None):
                    independent_when = when
                if not rl:
                    check_lines, check = [], f"(not {when} or {require})"
                else:
                    ok = fn.tmp("ok")
                    check_lines = [f"{ok} = True", f"if {when}:"] + _indent(rl + [f"{ok} = {require}"])
                    check = ok
            if playout and not alt.binders and not segs:
                check_lines, check = self._shared_rule(rule.name, rule_names, check_lines, check, at_top and u == 0, fn)
            passes.append((segs, independent_when, rl, require, check_lines, check))
            body_depth.append([x for lines, _ in segs for x in lines] + check_lines + [f"if {check}:"])
        # the move itself, from a cache of moves already built for this alternative
        types = tuple(bd.type for bd in spec.bindings)
        values = "(" + "".join(v + ", " for v in names) + ")"
        spec_c = self.const(spec, "SPEC")
        types_c = self.const(types, "TY")
        prog_c = self.const(p, "PROG")
        m = fn.tmp("m")
        made = None  # the move as one expression, where it is one
        if not names:
            move = _make_move(p, spec, types, ())
            make = [f"{m} = {self.const(move, 'MV')}"]
        elif len(names) == 1 and types[0] == CARD:
            # every card's move, made once: a card-valued binder only ever holds card numbers
            cache = self._move_cache(spec, lambda: tuple(_make_move(p, spec, types, (c,))
                                                         for c in range(len(p.card_names))))
            make = [f"{m} = {cache}[{names[0]}]"]
            made = f"{cache}[{names[0]}]"
        elif len(names) == 1 and type(types[0]) is Several and types[0][5:] in (CARD, PLAYER, INT):
            # a set of cards, players or numbers: its items are ints, in canonical order
            cache = self._move_cache(spec, dict)
            make = [f"{m} = {cache}.get({names[0]})",
                    f"if {m} is None:",
                    f"    {m} = _mk({prog_c}, {spec_c}, {types_c}, {values}, st.n)",
                    f"    if len({cache}) < {_MAX_CACHED_MOVES}:",
                    f"        {cache}[{names[0]}] = {m}"]
        elif all(ty in (CARD, PLAYER, INT) for ty in types):
            cache = self._move_cache(spec, dict)
            key = names[0] if len(names) == 1 else values
            make = [f"{m} = {cache}.get({key}) if type({names[0]}) is int else None",
                    f"if {m} is None:",
                    f"    {m} = _mk({prog_c}, {spec_c}, {types_c}, {values}, st.n)",
                    f"    if len({cache}) < {_MAX_CACHED_MOVES} and " +
                    " and ".join(f"type({v}) is int" for v in names) + ":",
                    f"        {cache}[{key}] = {m}"]
        else:
            make = [f"{m} = _mk({prog_c}, {spec_c}, {types_c}, {values}, st.n)"]
        if dedup:
            add = make + [f"if {m}.text not in seen:", f"    seen.add({m}.text)", f"    out.append({m})"]
        else:
            add = make + [f"out.append({m})"]
        # nest: binder loops, then each rule's test, then the move
        if not loops:
            if playout:
                self._tried_static += 1  # counted when the listing is written (_tries)
            else:
                pre += ["tried += 1"] + cap
        block = add
        for step in reversed(body_depth):
            block = step + _indent(block)
        if playout and len(loops) == 1 and not spec.rules and not shared and types == (INT,):
            # Numbers all different, with no rule to pass: the moves stand as the numbers (_Blocks).
            (head, loop, dom), = loops
            made = self.const((self.ns[cache], p, spec, types), "BK")
            return pre + head + [f"if {_MIN_BLOCK} <= len({dom}) and {self.const(_distinct, 'H')}({dom}):",
                                 "    if blocks is None:", "        blocks = []",
                                 f"    blocks.append((len(out) + extra, {dom}, {made}))",
                                 f"    extra += len({dom})", "else:"] + _indent(loop + _indent(block)), dedup
        if playout and len(loops) == 1 and not dedup and made is not None:
            return pre + self._rule_passes(loops[0], names[0], cache, passes, fn), dedup
        for head, loop, _ in reversed(loops):
            block = head + loop + _indent(block)
        return pre + block, dedup

    def _shared_rule(self, name, args, check_lines, check, first_runs_always, fn):
        """A playout listing's rule test of an alternative without binders, shared with the
        other alternatives that test the same rule on the same arguments (`owes_chips(p)`
        for three alternatives without binders): computed where it is met first, if every listing runs that
        test, and at each later use the work it took charged again.  A listing changes
        nothing, so the value is the one a fresh test would give; its work only grows and its
        limit is checked at the end (playout_enumerator), so the listing's work is the exact
        one; a fault of the first test faults the listing, which the public path then lists.
        (_enumerator drops the measuring of a test nobody shares.)"""
        plain = all(_PLAIN_ARG.match(code) for code in args.values())
        key = (name, tuple(sorted(args.items())))
        if plain and key in self._rule_results:
            shared = self._rule_results[key]
            shared[3] += 1
            return [f"st.work += {shared[1]}"], shared[0]
        if not plain or not first_runs_always:
            return check_lines, check
        result, work, w0 = fn.tmp("rr"), fn.tmp("rw"), fn.tmp()
        self._rule_results[key] = [result, work, w0, 0]
        return [f"{w0} = st.work"] + check_lines + [f"{result} = {check}", f"{work} = st.work - {w0}"], result

    def _rule_passes(self, loop, var, cache, passes, fn):
        """A playout listing's one card binder as one pass over the candidates per rule, each
        keeping those the rule allows, then their moves read off the cache in one go.

        What every candidate reaching a rule computes before its test without depending on the
        candidate (its arguments, a `when` that does not read it: `_cached`'s blocks) is computed
        once, when some candidate reaches the rule, and the work of the others charged at once;
        a `when` that is false leaves the candidates as they are, without a pass.  A rule whose
        test still computes something per candidate is a loop as in the exact listing.  Work only
        grows and the limit is checked at the end, so the listing's moves and work are those of
        the exact loop; what could fault in between only faults the listing, which the public
        path then lists the exact way."""
        head, for_lines, dom = loop
        c = fn.tmp("c")
        lines = head + [f"{c} = {dom}" if len(for_lines) == 1 else f"{c} = [{var} for {var} in {dom} if {var} is not None]"]
        made = f"{cache}[{var}]"

        def keep(tests, cond, last):
            """The candidates of `c` passing `cond` (after `tests`), into `c`, or as moves into `out`."""
            if not tests:
                return [f"out += [{made} for {var} in {c} if {cond}]" if last else f"{c} = [{var} for {var} in {c} if {cond}]"]
            if last:
                return [f"for {var} in {c}:"] + _indent(tests + [f"if {cond}:", f"    out.append({made})"])
            kept = fn.tmp("c")
            return [f"{kept} = []", f"for {var} in {c}:"] + _indent(tests + [f"if {cond}:", f"    {kept}.append({var})"]) + \
                [f"{c} = {kept}"]

        # every candidate's move: looked up all at once where there are several (a comprehension
        # runs about ten instructions a candidate, itemgetter none; it takes one argument apart)
        every = [f"out += {self.const(operator.itemgetter, 'H')}(*{c})({cache}) if len({c}) > 1 "
                 f"else [{made} for {var} in {c}]"]
        if not passes:
            return lines + every
        for u, (segs, when, rl, require, check_lines, check) in enumerate(passes):
            last = u == len(passes) - 1
            computed = [(seg, entry) for seg, entry in segs if seg]
            if any(entry is None for _, entry in computed):
                lines += keep([x for seg, _ in segs for x in seg] + check_lines, check, last)  # per candidate
                continue
            if when is None:
                test = keep(check_lines, check, last)
            else:
                test = [f"if {when}:"] + _indent(keep(rl, require, last)) + (["else:"] + _indent(every) if last else [])
            once = [x for _, (_, lines_once, _) in computed for x in lines_once]
            if not once:
                lines += test
                continue
            works = [work for _, (_, _, work) in computed if work]
            charge = [f"st.work += {' + '.join(works) if len(works) == 1 else '(' + ' + '.join(works) + ')'} * (len({c}) - 1)"] \
                if works else []
            lines += [f"if {c}:"] + _indent(once + charge + test)
        return lines

    def _move_cache(self, spec, make):
        """The name of the cache of `spec`'s moves, one per alternative: the API's listing and
        the playouts' hand out the same Move objects."""
        name = self._move_caches.get(id(spec))
        if name is None:
            name = self._move_caches[id(spec)] = self.const(make(), "MC")
        return name


# A statement moving cards reads the state's lists into locals first.  They are the same lists
# for the whole game (only a new game or a restored one makes others), so where an earlier read
# has surely run (it dominates: every line between is indented at least as deep as it) the read
# is not repeated, and the lines after it use the locals.
_STATE_LISTS = "zones, loc, vis = st.zones, st.loc, st.vis"


def _state_lists_read_once(lines):
    """The fast code's reads of the state's lists, each done once on its way (see above)."""
    out, read_at = [], None  # the depth of the read in force, if any
    for line in lines:
        depth = len(line) - len(line.lstrip())
        if read_at is not None and depth < read_at:
            read_at = None
        if line.strip() == _STATE_LISTS:
            if read_at is not None:
                continue
            read_at = depth
        elif read_at is not None:
            line = line.replace("st.zones[", "zones[").replace("st.loc[", "loc[").replace("st.vis[", "vis[")
        out.append(line)
    return out


# An augmented assignment to an attribute or an item duplicates its target on the stack (COPY,
# SWAP): `st.work += x` is one instruction more than `st.work = st.work + (x)`, `vis[c] &= k` two
# more than `vis[c] = vis[c] & k`.  Both read the target before evaluating the right side, so
# they are the same statement; only targets that hold a number are rewritten (`+=` on a list
# extends it in place).
_AUGMENTED = re.compile(r"^(\s*)(st\.work (\+)|L\[\d+\] ([-+])(?== \d+$)|(?:st\.)?vis\[\w+\] ([&|]))= (.+)$")
_SIMPLE = re.compile(r"^(?:-?\d+|[\w.]+(?:\[\w+\])?)$")


def _written_out(lines):
    """The fast code's augmented assignments to numbers, each as the plain assignment."""
    out = []
    for line in lines:
        m = _AUGMENTED.match(line)
        if m is None:
            out.append(line)
            continue
        pad, target, op, value = m.group(1), m.group(2)[:-2], m.group(3) or m.group(4) or m.group(5), m.group(6)
        out.append(f"{pad}{target} = {target} {op} {value if _SIMPLE.match(value) else f'({value})'}")
    return out


_STATE_READ = re.compile(r"st\.vars\[(\d+)\](?!\s*=[^=])|st\.zones(?![\[\w]*\s*=[^=])")


def _local_reads(lines):
    """An enumerator changes nothing, so the variables and zones it reads are read once, into
    locals, at its start (`st.vars[k]` -> `V_k`, `st.zones` -> `Z_`)."""
    found, out = set(), []
    for line in lines:
        def local(m):
            name = f"V_{m.group(1)}" if m.group(1) else "Z_"
            found.add((name, m.group(0)))
            return name
        out.append(_STATE_READ.sub(local, line))
    return [f"{name} = {read}" for name, read in sorted(found)] + out


def _tries(lines, static: int):
    """A playout listing's count of the moves tried, against the decision's cap.  Alternatives
    without binders add one each, known when it is written (`static`); the count only grows, so
    it passes the cap iff the final count does, and a listing that gives up at a domain's check
    instead of at the end gives the same answer (None).  With one domain counted, outside any
    loop, the count is that domain's length.  A zone's cards are counted as the whole deck:
    a listing that gives up for a count past the cap that is not so is only listed again by
    the public path, the exact way."""
    adds = [i for i, line in enumerate(lines) if line.lstrip().startswith("tried += ")]
    if len(adds) > 1 or adds and _inside_loop(lines, adds[0]):
        return [f"tried = {static}" if line == "tried = 0" else line for line in lines]
    lines = [line for line in lines if line != "tried = 0"]
    if not adds:
        return (["return None"] if static > limits.MAX_MOVES_PER_DECISION else []) + lines
    i, = (i for i, line in enumerate(lines) if line.lstrip().startswith("tried += "))
    pad, counted = lines[i][:len(lines[i]) - len(lines[i].lstrip())], lines[i].lstrip()[len("tried += "):]
    assert lines[i + 1] == pad + "if tried > _limits.MAX_MOVES_PER_DECISION:"
    return lines[:i] + [f"{pad}if {counted} > {limits.MAX_MOVES_PER_DECISION - static}:"] + lines[i + 2:]


def _inside_loop(lines, i: int) -> bool:
    depth = len(lines[i]) - len(lines[i].lstrip())
    for line in reversed(lines[:i]):
        d = len(line) - len(line.lstrip())
        if d < depth:
            if line.lstrip().startswith(("for ", "while ")):
                return True
            depth = d
    return False


def _unused_dropped(lines):
    """Without a range standing as its numbers, a playout listing needs no `blocks`/`extra`;
    a candidate-independent value computed before the candidates needs no `_UNSET` mark."""
    text = "\n".join(lines)
    if "blocks.append" not in text:
        lines = [line for line in lines if line not in ("extra = 0", "blocks = None", "if blocks is not None:",
                                                         "    return _Blocks(out, blocks, extra, st)")]
    return [line for line in lines
            if not (line.endswith(" = _UNSET") and f"{line.split(' = ')[0].strip()} is _UNSET" not in text)]


_MEASURED = re.compile(r"^(?P<pad>\s*)(?P<hw>hw\d+) = st\.work - (?P<t>t\d+)$")


def _charged_for_each(lines):
    """A playout listing's work of a `when` measured once and charged for the other candidates
    (_rule_passes: `hw = st.work - t`, `st.work += hw * (len(c) - 1)`) in one line where
    nothing else reads the measure: `st.work = t + (st.work - t) * len(c)`, the same number."""
    text = "\n".join(lines)
    out, skip = [], False
    for i, line in enumerate(lines):
        if skip:
            skip = False
            continue
        m = _MEASURED.match(line)
        if m and i + 1 < len(lines):
            pad, hw, t = m["pad"], m["hw"], m["t"]
            after = lines[i + 1]
            if after.startswith(f"{pad}st.work += {hw} * (len(") and after.endswith(") - 1)") and \
                    len(re.findall(rf"\b{hw}\b", text)) == 2:
                c = after[len(f"{pad}st.work += {hw} * (len("):-len(") - 1)")]
                out.append(f"{pad}st.work = {t} + (st.work - {t}) * len({c})")
                skip = True
                continue
        out.append(line)
    return out


def _untraced(lines):
    """A playout's lines without the blocks written for a tracer (`if st.tracer is not None:`
    and what is indented under it): playout.play_random leaves a game with a tracer to the
    public path.  A block left empty by it gets a `pass`."""
    out, skip = [], None
    for line in lines:
        depth = len(line) - len(line.lstrip())
        if skip is not None:
            if depth > skip:
                continue
            assert not line.lstrip().startswith(("else:", "elif ")), "a tracer's block has no else"
            skip = None
        if line.lstrip() == "if st.tracer is not None:":
            skip = depth
            continue
        out.append(line)
    kept = []
    for i, line in enumerate(out):
        kept.append(line)
        depth = len(line) - len(line.lstrip())
        if line.endswith(":") and (i + 1 == len(out) or len(out[i + 1]) - len(out[i + 1].lstrip()) <= depth):
            kept.append(line[:depth] + "    pass")
    return kept


def _drop_dead_stores(lines):
    """`fr[1] = a` directly followed by `fr[1] = b` at the same depth: the first is never seen."""
    out = []
    for line in lines:
        if out and line.lstrip().startswith("fr[1] = ") and out[-1].lstrip().startswith("fr[1] = ") \
                and len(line) - len(line.lstrip()) == len(out[-1]) - len(out[-1].lstrip()):
            out[-1] = line
        else:
            out.append(line)
    return out


def _times_n(k: int) -> str:
    """`k * st.n + ` (the start of the k-th per-player zone's slots, past the shared ones), short."""
    return "" if k == 0 else "st.n + " if k == 1 else f"{k} * st.n + "


def _domain_size(dom: str) -> str:
    """A binder domain's length without len(), which fails on a range past sys.maxsize."""
    return f"(max(0, {dom}.stop - {dom}.start) if type({dom}) is range else len({dom}))"


class _OrderPlaces:
    """The place of a value in a declared order, for values only known while running (a
    variable, a list item); a value outside the order faults in the language's words."""

    def __init__(self, order: str, positions: dict):
        self.order, self.positions = order, positions

    def __call__(self, value, span):
        if value is None:
            return None
        place = self.positions.get(value)
        if place is None:
            fail(f"{render_value(None, 'any', value)} has no place in the order of `{self.order}`", span)
        return place


def _zone_cards(st, slot):
    """A zone read as the list of its cards (a copy: later moves do not change it)."""
    if slot is None:
        return None
    cards = st.zones[slot]
    st.charge(len(cards))
    return tuple(cards)


def _concat(st, a, b):
    a, b = a or (), b or ()
    st.check_length(len(a) + len(b))
    return tuple(a) + tuple(b)


def _text_plus(st, ltype, rtype, left, right, span):
    a = render_text(st, ltype, left, span)
    b = render_text(st, rtype, right, span)
    if len(a) + len(b) > limits.MAX_TEXT_LENGTH:
        raise ScriptRuntimeError(f"a text grew beyond {limits.MAX_TEXT_LENGTH} characters", span)
    return a + b


def _texts_plus(st, left, right, span):
    """`_text_plus(st, TEXT, TEXT, ...)` as it goes for two texts, each of which renders as
    itself (a text variable built in a playout, a question put together); a none, or a side
    already past the limit, goes the general way, which faults where it would."""
    most = limits.MAX_TEXT_LENGTH
    if type(left) is not str or type(right) is not str or len(left) > most or len(right) > most:
        return _text_plus(st, TEXT, TEXT, left, right, span)
    st.work += len(left)
    if st.work > st.work_limit:
        over_budget(st, span)
    st.work += len(right)
    if st.work > st.work_limit:
        over_budget(st, span)
    if len(left) + len(right) > most:
        raise ScriptRuntimeError(f"a text grew beyond {most} characters", span)
    return left + right


def _zone_name(st, slot):
    return st.prog.zone_of_slot(slot, st.n)[0]
