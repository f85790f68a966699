"""Definitions: each a Python function of (st, arguments...), its value kept in State.memo while
nothing it reads changes (and the lines forgetting it before a change: forget), calls with
constant arguments kept the same way, and small bodies written at their call sites.

Separate from expression lowering (which calls these for every `define` it meets) because it
owns State.memo: what is kept, under which key, and when it is forgotten.
"""

from __future__ import annotations

import contextlib
import itertools

from ..language import limits, nodes as n
from ..language.call_order import callees_first, calls
from .gen_common import ATOM, INT_LITERAL, LOOP, Env, Unsupported, indent
from .gen_runtime import UNSET
from .memo_reads import kept_definitions, memo_reads, script_nodes, sees_cards
from .text_passes import argument_checked_first, written_out

_INLINE_LINES, _INLINE_CHARS = 8, 320
_INLINE_MOST_LINES, _INLINE_MOST_CHARS = 48, 2000  # definitions at most this big are written at their call sites
# ... where fewer loops and branches than these surround the call (as language/nesting.py counts
# them): a body written in place nests in its caller's code, which the checker's limits bound
# without it; the shipped games nest at most 4 loops and 8 branches in all.
_INLINE_LOOPS, _INLINE_BRANCHES = 4, 16
# Written before a change of the zones, the cards' facing or a variable that a definition kept
# in State.memo may read (Gen.forget): the values computed so far (see Gen.define_fn) may no
# longer hold.  (Forgetting only the definitions that read what changes, `st.memo.pop(key)`
# each, was measured: the pops cost what the values kept longer saved.)  The definitions that
# read where cards lie or how they face (through the ones they call) are kept apart, in
# State.zmemo, so a card's move forgets only those: a definition of variables alone (`still_in`,
# a filter of the players by their variables) keeps its value across the moves of a hand.
FORGET = "st.memo = {}"
FORGET_CARDS = "st.zmemo = {}"
# Each definition's function, in every generator (the REPL's evaluations compile their own), has
# a key of its own in State.memo: two generators never number definitions alike.  A program's
# own generator numbers its keys from 0 (Gen's memo_keys), so its code is the same text in every
# process (code_cache.py finds functions by their text); those beside it count from SHARED_KEYS.
SHARED_KEYS = 1 << 32
_MEMO_KEYS = itertools.count(SHARED_KEYS)


class Definitions:
    """Definitions and State.memo (see the module's docstring): a part of Gen (codegen.py), whose
    methods use the state Gen.__init__ sets up and the other parts' methods, as one object."""

    def define_fn(self, name: str) -> str:
        """The Python name of a definition as a function of (st, arguments...), written (with
        those it calls, callees first) the first time it is asked for."""
        if name not in self._defines:
            if self._calls is None:
                self._calls = calls(self.t.defines)
            self._define_in_order(callees_first(self._calls, [name], self._defines.__contains__))
        found = self._defines[name]
        if found is None:
            raise Unsupported(f"definition {name}")
        return found

    def _define_in_order(self, groups) -> None:
        """The functions of the definitions in `groups` (call_order.callees_first: callees first,
        definitions calling each other round together), each written once those it calls are:
        so writing one never writes another inside it, however long the chain of calls.  The
        members of a group are all named before any is written: their calls of each other need
        only the name (a recursive definition is never written in place)."""
        for group in groups:
            named = [(name, self._define_name(name)) for name in group if name not in self._defines]
            for name, pyname in named:
                try:
                    self._write_define(name, pyname)
                except Unsupported:  # remembered as None: its callers are unsupported alike
                    pass

    def _define_name(self, name: str) -> str:
        pyname = f"D_{name}_{len(self._defines)}"
        self._defines[name] = pyname  # before its body: a recursive one calls itself by it
        return pyname

    def _write_define(self, name: str, pyname: str) -> str:
        define = self.t.defines[name]
        params = [self.t.slots[id(p)] for p in define.params or ()]
        outer, self._hoist = self._hoist, None  # another function: nothing of the caller's loop
        # Explanations show a definition's arguments and result, not the inside of its body:
        # one body serves calls with different arguments, so its inner values would mislead.
        traced, self.traced = self.traced, False
        optimistic, self._optimistic = self._optimistic, False  # shared with the exact code
        deferred, self._deferred = self._deferred, False
        small_only, self._small_only = self._small_only, True
        # a function of its own: nothing of the caller's code is around its body
        heights, nesting, self._heights, self._nesting = self._heights, self._nesting, [], [0, 0]
        chain = self.t.recursive.get(name)
        # Computed once while nothing changes (see _memoized); never in traced mode, the
        # reference the fast code is compared with, nor a recursive one (kept_definitions).
        key = self._memo_keys().get(name)
        memo = not traced and key is not None
        try:
            # A recursive definition takes its call depth as an argument: a limit with no state.
            env = Env(False, {slot: f"a{slot}" for slot in params}, depth="dd" if chain else None)
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
            memo = memo and any(LOOP.search(x) or "D_" in x for x in lines + [code])
            if memo:
                self._kept_defines.add(name)
            plain = lines + [f"return {code}"]
            body = written_out(self._memoized(key, lines, code, fn, sig[1:], self._memo_store([name])) if memo else
                               plain if self._reference else argument_checked_first(plain))
            src = f"def {pyname}({', '.join(sig)}):\n" + "\n".join(indent(body)) + "\n"
            exec(self.compiled(src, pyname), self.ns)
            self.sources.append(src)
        except Unsupported:
            self._defines[name] = None
            raise
        finally:
            self._hoist, self.traced, self._optimistic, self._deferred = outer, traced, optimistic, deferred
            self._small_only, self._heights, self._nesting = small_only, heights, nesting
        return pyname

    @staticmethod
    def _memoized(key: int, lines, code, fn, args=(), store="st.memo"):
        """A definition's body computing its value at most once while what it reads does not
        change: expressions change nothing, and every statement that changes a zone, the
        facing or a variable the definition may read forgets its values first (Gen.forget).
        A later use charges the work the computation took, or computes it again when that
        would pass the limit, so the budget runs out exactly where, and with the span where,
        it would have.  With parameters (`args`, plain values: kept_definitions) the key holds
        a dict of the values per argument.  `store`: State.memo, or State.zmemo for a definition
        that reads where cards lie or how they face (_memo_store)."""
        h, w0, v = fn.tmp("h"), fn.tmp("w"), fn.tmp("v")
        if not args:
            return [f"{h} = {store}.get({key})",
                    f"if {h} is not None and ({w0} := st.work + {h}[1]) <= st.work_limit:",
                    f"    st.work = {w0}", f"    return {h}[0]",
                    f"{w0} = st.work"] + lines + [f"{v} = {code}", f"{store}[{key}] = ({v}, st.work - {w0})",
                                                  f"return {v}"]
        per, arg = fn.tmp("g"), args[0] if len(args) == 1 else f"({', '.join(args)})"
        return [f"{per} = {store}.get({key})",
                f"if {per} is None:", f"    {per} = {store}[{key}] = {{}}",
                f"elif ({h} := {per}.get({arg})) is not None and ({w0} := st.work + {h}[1]) <= st.work_limit:",
                f"    st.work = {w0}", f"    return {h}[0]",
                f"{w0} = st.work"] + lines + [f"{v} = {code}", f"{per}[{arg}] = ({v}, st.work - {w0})",
                                              f"return {v}"]

    def forget(self, variable=None, zones=(), facing=False, anywhere=False) -> list[str]:
        """Lines emptying State.memo before a change, where a definition it keeps may read
        what changes (memo_reads.py): the global `variable`, the cards of `zones` (slot
        numbers or names holding them), how cards face, or (`anywhere`) cards taken from
        zones known only card by card.  No lines where none reads it.  State.memo holds the
        definitions that read variables only, State.zmemo the others (_memo_store)."""
        plain, reads = self._memo_reads()
        lines = [FORGET] if variable is not None and variable in plain.variables else []
        touched = zones or anywhere
        if variable in reads.variables or (facing and reads.facing) or (touched and reads.zones is None):
            return lines + [FORGET_CARDS]
        if not reads.zones:
            return lines
        if anywhere or any(int(z) in reads.zones for z in zones if INT_LITERAL.match(z)):
            return lines + [FORGET_CARDS]
        found = [z for z in zones if not INT_LITERAL.match(z)]
        if not found:
            return lines
        read = self.const(reads.zones, "MZ")
        return lines + [f"if {' or '.join(f'{z} in {read}' for z in found)}:", f"    {FORGET_CARDS}"]

    def _memo_store(self, names) -> str:
        """Where State keeps the values of the definitions `names` (one, or a call's): State.zmemo
        when they read where any card lies or how cards face (through what they call), else
        State.memo, which a card's move leaves as it is (see FORGET_CARDS)."""
        return "st.zmemo" if any(sees_cards(self.t, self.p.zone_index, name) for name in names) else "st.memo"

    def _new_memo_key(self) -> int:
        return next(self._memo_key_count or _MEMO_KEYS)

    def _memo_keys(self) -> dict:
        """Definition name -> its key in State.memo, for each one define_fn may keep
        (kept_definitions); and, in `_called`, the definitions some call with constant
        arguments names whose reads are among those (_kept_call keeps those calls' values
        under keys of their own: forgetting them empties State.memo no more often)."""
        if self._memo_keys_ is None:
            t, zones = self.t, self.p.zone_index
            kept = kept_definitions(t, lambda e: all(self._constant(a) is not UNSET for a in e.args))
            self._memo_keys_ = {name: self._new_memo_key() for name in kept}
            funcs = {e.func for e in script_nodes(t) if isinstance(e, n.Call) and e.func in t.defines
                     and e.func not in t.recursive and t.defines[e.func].params
                     and all(self._constant(a) is not UNSET for a in e.args)}
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
            t, zones = self.t, self.p.zone_index
            names = names + sorted(self._called)
            cards = [name for name in names if sees_cards(t, zones, name)]
            self._reads = (memo_reads(t, zones, [name for name in names if name not in cards]),
                           memo_reads(t, zones, cards))
        return self._reads

    def _kept_call(self, e, pyname: str, codes) -> str | None:
        """A function of (st) keeping the value of call `e` in State.memo, for a call whose
        arguments are all constants (`in_force(doubling)`): its value and its work then depend
        on the state alone, as a parameterless definition's do, and forget watches what the
        definition reads (_memo_reads).  None otherwise (and in traced mode, the reference)."""
        self._memo_keys()  # finds the definitions called so, whose reads forget watches
        if self.traced or e.func not in self._called or any(self._constant(a) is UNSET for a in e.args):
            return None
        key = (e.func, tuple(codes))
        if key not in self._kept_calls:
            body = self._memoized(self._new_memo_key(), [], f"{pyname}(st, {', '.join(codes)})", self._temps, (),
                                  self._memo_store([e.func]))
            self._kept_calls[key] = self.build(f"{pyname}_kept", "st", body).__name__
        return self._kept_calls[key]

    @contextlib.contextmanager
    def small_definitions(self):
        """Writing where a definition is written at its call site only when small (_inline_define)."""
        outer, self._small_only = self._small_only, True
        try:
            yield
        finally:
            self._small_only = outer

    def _inline_define(self, define, codes, env, fn):
        """A small definition's body written at the call site: (lines, code) or None.

        The arguments are computed first, into fresh names, exactly as for a call."""
        if self.traced or define.name in self._too_big or define.name in self.t.recursive:
            return None  # the call is what an explanation shows; a recursive body never ends
        if self._small_only and define.name in self._not_small:
            return None
        if self._nesting[0] >= _INLINE_LOOPS or self._nesting[1] >= _INLINE_BRANCHES:
            return None
        params = [self.t.slots[id(p)] for p in define.params or ()]
        names, lines, nonnull = {}, [], set()
        for slot, code in zip(params, codes):
            if ATOM.match(code):
                names[slot] = code
                if self._nonnull(code, env):
                    nonnull.add(code)
            else:
                tmp = fn.tmp("a")
                lines.append(f"{tmp} = {code}")
                names[slot] = tmp
        outer, self._hoist = self._hoist, None  # the body's slots are not the caller's
        small_only, self._small_only = self._small_only, True
        try:
            body_lines, body = self.lower(define.body, Env(False, names, nonnull), fn)
        except Unsupported:
            return None
        finally:
            self._hoist, self._small_only = outer, small_only
        if not self._reference:  # an argument tested once, where the result tests it first
            checked = argument_checked_first(body_lines + [f"return {body}"], [names[slot] for slot in params])
            body_lines, body = checked[:-1], checked[-1][len("return "):]
        if len(body_lines) <= _INLINE_LINES and len(body) <= _INLINE_CHARS:
            return lines + body_lines, body
        # Remembered: its callers then call it, so inlining a chain of definitions that
        # each call the next twice costs time in proportion to the chain, not 2^length.
        kept = define.name in self._kept_defines or define.name in self._called  # shared through State.memo
        if kept or len(body_lines) > _INLINE_MOST_LINES or len(body) > _INLINE_MOST_CHARS:
            self._too_big.add(define.name)
            return None
        self._not_small.add(define.name)
        if small_only:  # another definition's body then stays small enough to be written in place,
            return None  # a value computed once is shared as the call (Expressions._cached)
        return lines + body_lines, body

