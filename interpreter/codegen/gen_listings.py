"""Listings: each decision's enumerator, fn(st, L) -> its legal moves, looping over the binders
and testing the rules inline, with the moves taken from a cache per alternative; and the
playout listing of the same moves, written for a caller that draws one (work checked once at
the end, rules passed over the candidates in one go, ranges standing for their moves).

Separate from expression lowering (rules and domains are lowered through it) because its
functions answer to enumeration.py: the same moves, in the same order, for the same work.
"""

from __future__ import annotations

import itertools
import operator
import re
from collections import Counter

from ..language import nodes as n
from ..language.nodes import walk as _walk
from ..language.types import CARD, INT, PLAYER, ZONE
from ..machine.program import Several
from .flow import CONSTANT_CHARGE
from .gen_common import ATOM, Env, Hoister, TooComplex, Unsupported, indent
from .gen_runtime import MAX_CACHED_MOVES, distinct, make_move
from .never_none import items_distinct
from .text_passes import (charged_for_each, first_charge_stored, local_reads, shared_values_read_plain, tries,
                          unused_dropped)

_PLAIN_ARG = re.compile(r"^(?:L\[\d+\]|-?\d+|st\.n)$")  # an argument the same wherever a listing reads it
_MIN_BLOCK = 6  # a binder domain at least this long may stand for its moves in a playout (_Blocks)
# A listing nests a test per rule inside a loop per binder, and a rule's own code may nest 32
# branches (language/nesting.py) within Python's 100 levels of indentation: an alternative with
# more rules and binders than this is listed the generic way at once (987 rules were written
# out, indented level by level, before Python refused them).
_MOST_NESTED_TESTS = 40


class Listings:
    """Decisions' listings of moves (see the module's docstring): a part of Gen (codegen.py), whose
    methods use the state Gen.__init__ sets up and the other parts' methods, as one object."""

    # ---- decisions
    def enumerator(self, decision):
        """fn(st, L) -> the legal moves of `decision`, or None to use the generic enumeration
        (always, in traced mode: it is the reference the specialised enumerators must match)."""
        if self.traced:
            return None
        try:
            return self._enumerator(decision)
        except (Unsupported, TooComplex, RecursionError):  # nested past Python's limits: a loop per binder, an if per rule
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
        except (Unsupported, TooComplex, RecursionError):
            return None
        finally:
            self._optimistic = False
            self._eager.clear()

    def playout_drawer(self, decision):
        """fn(st, L) -> the cards a playout draws `decision`'s move from, or None where it has none.

        For a decision of one alternative with one card binder (each card its own move,
        `MC[card]`), the playout listing written as `playout_enumerator` writes it, but giving
        the cards themselves, in the same order, for the same work, and giving up where it gives
        up: the decision drawn in place (gen_assembly.Gen.playout_decision) looks up the move's
        text for the drawn card only.  The cards may be the zone's own list (no rule cut any):
        nothing runs between the listing and the draw, and the card is read before it moves."""
        if self.traced or decision.kind != "normal" or len(decision.alts) != 1:
            return None
        self._optimistic = True
        try:
            return self._enumerator(decision, playout=True, drawn=True)
        except (Unsupported, TooComplex, RecursionError):
            return None
        finally:
            self._optimistic = False
            self._eager.clear()

    def _enumerator(self, d, playout=False, drawn=False):
        self._frame_nonnull = self._nonnull_by_code.get(d.code, frozenset())
        try:
            return self._enumerator_in_frame(d, playout, drawn)
        finally:
            self.leave_frame()

    def _enumerator_in_frame(self, d, playout, drawn=False):
        if playout:  # written once to count the definition calls to share (_shared_call), then again
            self._listing_calls = Counter()
            try:
                self._listing_lines(d, playout, drawn)
                counted = self._listing_calls
            finally:
                self._listing_calls = None
                self._eager.clear()
            self._listing_calls = {key: self._temps.tmp("dc") for key, uses in counted.items() if uses > 1}
        try:
            lines = self._listing_lines(d, playout, drawn)
            if self._listing_calls:
                names = list(self._listing_calls.values())
                lines = shared_values_read_plain([f"{name} = _UNSET" for name in names] + lines, names)
        finally:
            self._listing_calls = None
        name = "draw" if drawn else "pick" if playout else "moves"
        return self.build(f"{name}_{d.index}", "st, L", local_reads(lines))

    def _listing_lines(self, d, playout, drawn=False):
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
                                           seated=self._seated.get(id(d)), at_top=d.kind != "reaction",
                                           drawn=drawn)
            uses_seen |= dedup
            if d.kind == "reaction" and spec.reaction is not None:
                spec_lines = [f"if {spec.reaction} in offers:"] + indent(spec_lines)
            lines.extend(spec_lines)
        if uses_seen:
            lines.insert(1, "seen = set()")
        unshared = {x for result, work, w0, uses in self._rule_results.values() if not uses
                    for x in (f"{w0} = st.work", f"{work} = st.work - {w0}")}
        lines = [line for line in lines if line.strip() not in unshared]
        if playout:
            lines += ["if st.work > st.work_limit:", "    return None",
                      "if blocks is not None:", "    return _Blocks(out, blocks, extra, st)"]
            lines = first_charge_stored(charged_for_each(unused_dropped(tries(lines, self._tried_static))))
        return lines + ["return out"]

    def _several_loop(self, b, env, fn, var, dom, count, give_up, last):
        """(head, loop) over the sets `xs from LOW..HIGH of SOURCE` offers (choosing.py): the
        domain's distinct items sorted once, each subset made by position; the domain, then
        every subset, paid for before the first is made, as the generic enumeration does."""
        dl, seq, _ = self._iter(b.source, env, fn)
        items, fewest, most, total = fn.tmp("i"), fn.tmp(), fn.tmp(), fn.tmp("n")
        keyed = b.key is not None  # `distinct by ATTR`: the items grouped by it, a set per multiset of keys
        distinct = f"_choose_distinct({items})"
        head = dl + [f"{items} = {seq}", f"st.work += len({items})", "if st.work > st.work_limit:", give_up,
                     f"{dom} = " + (f"_choose_groups({distinct}, {self.const(self.p.attr_tables[b.key], 'AT')})"
                                    if keyed else distinct)]
        if b.fewest is not None:
            fl, code = self.lower(b.fewest, env, fn)
            head += fl + [f"{fewest} = {code}"]
        ml, code = self.lower(b.most, env, fn)
        head += ml + [f"{most} = {code}"]
        if b.fewest is None:
            fewest = most
        # `count` (the caller's lines) charges a domain's length: here, the number of subsets;
        # the last binder's sets are moves, of which the decision's cap stops the walk past it
        counted = f"_choose_count_keyed([len(g) for g in {dom}], {fewest}, {most})" if keyed else \
            f"_choose_count_repeated(len({dom}), {fewest}, {most})" if b.repeats else \
            f"_choose_count(len({dom}), {fewest}, {most})"
        head += [f"{total} = " + (f"min({counted}, _limits.MAX_MOVES_PER_DECISION + 1)" if last else counted)]
        head += [line.replace(_domain_size(dom), total).replace(f"len({dom})", total) for line in count]
        if keyed or b.repeats:
            return head, [f"for {var} in _choose_{'keyed' if keyed else 'repeated'}({dom}, {fewest}, {most}):"]
        if b.fewest is None:
            return head, [f"for {var} in (_combinations({dom}, {most}) if {most} is not None and {most} >= 0 else ()):"]
        return head, [f"for {var} in _choose_subsets({dom}, {fewest}, {most}):"]

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
            if not lines and ATOM.match(code):
                return lines, code
            return self._cached(lines, code, fn, hoister)
        outer, self._hoist = self._hoist, hoister
        try:
            return self.lower(e, env, fn)
        finally:
            self._hoist = outer

    def _spec(self, spec, fn, shared: bool, playout: bool = False, seated=None, at_top: bool = False,
              drawn: bool = False):
        t, p = self.t, self.p
        alt = spec.node
        if len(alt.binders) != len(spec.bindings) or len(alt.requires) != len(spec.rules):
            raise Unsupported("alternative shape")
        if len(alt.binders) + len(alt.requires) > _MOST_NESTED_TESTS:
            raise Unsupported("more rules than a listing nests")
        # the decision's actor, read from a frame slot, was checked not none when it began
        env = Env(True, nonnull=self._frame_nonnull | ({seated} if seated else set()))
        binder_slots = {t.slots[id(b)] for b in alt.binders}
        pre, loops, names, unique = [], [], [], True
        ints = True  # every binder walks whole numbers or players, never none (their moves' keys)
        apart = True  # and (with one binder) numbers all different: each its own move
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
                ints = apart = False
                head, loop = self._several_loop(b, depth_env, fn, var, dom, count, give_up, bool(tries))
                unique &= binding.type[5:] in (PLAYER, INT) or \
                    binding.type[5:] == CARD and len(set(p.card_names)) == len(p.card_names)
            elif b.source is not None:
                dl, seq, nonnull = self._iter(b.source, depth_env, fn)
                typ = t.types.get(id(b.source))
                # numbers or players all different: each gives a move of its own (its text is the value's)
                numbers = typ != ZONE and nonnull and binding.type in (INT, PLAYER) and items_distinct(t, b.source)
                unique &= numbers or typ == ZONE and binding.type == CARD and len(set(p.card_names)) == len(p.card_names)
                ints &= typ != ZONE and nonnull and binding.type in (INT, PLAYER)
                apart &= numbers
                if typ == ZONE and seq.startswith("st.zones["):  # a list of the deck's cards, at most
                    if playout and len(alt.binders) == 1:  # counted as a whole deck (see text_passes.tries)
                        self._tried_static += len(p.card_names)
                        tries = []
                    count = [f"st.work += len({dom})"] + \
                        ([] if playout else ["if st.work > st.work_limit:", give_up]) + tries
                elif typ != ZONE:  # a list is a tuple, never a range: its length is len()
                    count = [f"st.work += len({dom})", "if st.work > st.work_limit:", give_up] + tries
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
        spec_hoister = Hoister((), pre)
        hoisting = bool(alt.binders)  # with no binder everything is computed once anyway
        with self.small_definitions():  # a rule's calls are shared as calls (_cached)
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
                    if not al and ATOM.match(code):
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
                renv = Env(False, rule_names, rule_nonnull)
                hoister = Hoister({param_slots[i] for i, v in enumerate(variant) if v} if hoisting else (), pre)
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
                        check_lines = [f"{ok} = True", f"if {when}:"] + indent(rl + [f"{ok} = {require}"])
                        check = ok
                if playout and not alt.binders and not segs:
                    check_lines, check = self._shared_rule(rule.name, rule_names, check_lines, check, at_top and u == 0, fn)
                passes.append((segs, independent_when, rl, require, check_lines, check, rule.when))
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
            move = make_move(p, spec, types, ())
            make = [f"{m} = {self.const(move, 'MV')}"]
        elif len(names) == 1 and types[0] == CARD:
            # every card's move, made once: a card-valued binder only ever holds card numbers
            cache = self._move_cache(spec, lambda: tuple(make_move(p, spec, types, (c,))
                                                         for c in range(len(p.card_names))))
            make = [f"{m} = {cache}[{names[0]}]"]
            made = f"{cache}[{names[0]}]"
        elif len(names) == 1 and type(types[0]) is Several and types[0][5:] in (CARD, PLAYER, INT):
            # a set of cards, players or numbers: its items are ints, in canonical order
            cache = self._move_cache(spec, dict)
            make = [f"{m} = {cache}.get({names[0]})",
                    f"if {m} is None:",
                    f"    {m} = _mk({prog_c}, {spec_c}, {types_c}, {values}, st.n)",
                    f"    if len({cache}) < {MAX_CACHED_MOVES}:",
                    f"        {cache}[{names[0]}] = {m}"]
        elif all(ty in (CARD, PLAYER, INT) for ty in types):
            cache = self._move_cache(spec, dict)
            key = names[0] if len(names) == 1 else values
            make = [f"{m} = {cache}.get({key})" + ("" if ints else f" if type({names[0]}) is int else None"),
                    f"if {m} is None:",
                    f"    {m} = _mk({prog_c}, {spec_c}, {types_c}, {values}, st.n)",
                    f"    if len({cache}) < {MAX_CACHED_MOVES}" +
                    "".join(f" and type({v}) is int" for v in ([] if ints else names)) + ":",
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
                self._tried_static += 1  # counted when the listing is written (text_passes.tries)
            else:
                pre += ["tried += 1"] + cap
        block = add
        for step in reversed(body_depth):
            block = step + indent(block)
        if playout and len(loops) == 1 and not spec.rules and not shared and types == (INT,) and not drawn:
            # Numbers all different, with no rule to pass: the moves stand as the numbers (_Blocks).
            (head, loop, dom), = loops
            made = self.const((self.ns[cache], p, spec, types), "BK")
            test = "" if apart else f" and {self.const(distinct, 'H')}({dom})"
            return pre + head + [f"if {_MIN_BLOCK} <= len({dom}){test}:",
                                 "    if blocks is None:", "        blocks = []",
                                 f"    blocks.append((len(out) + extra, {dom}, {made}))",
                                 f"    extra += len({dom})", "else:"] + indent(loop + indent(block)), dedup
        if playout and len(loops) == 1 and not dedup and made is not None:
            return pre + self._rule_passes(loops[0], names[0], cache, passes, fn, drawn), dedup
        if drawn:
            raise Unsupported("a listing of cards is one card binder's passes")
        for head, loop, _ in reversed(loops):
            block = head + loop + indent(block)
        return pre + block, dedup

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
        shared = f"({name} if {name} is not _UNSET else ({name} := {code}))"
        return self._never_none(shared) if code in self._nonnull_codes else shared

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
        constant = _constant_work(check_lines, check)
        if constant is not None:  # known when written: nothing to measure
            self._rule_results[key] = [result, str(constant), w0, 0]
            return check_lines + [f"{result} = {check}"], result
        self._rule_results[key] = [result, work, w0, 0]
        return [f"{w0} = st.work"] + check_lines + [f"{result} = {check}", f"{work} = st.work - {w0}"], result

    def _rule_passes(self, loop, var, cache, passes, fn, drawn=False):
        """A playout listing's one card binder as one pass over the candidates per rule, each
        keeping those the rule allows, then their moves read off the cache in one go.

        What every candidate reaching a rule computes before its test without depending on the
        candidate (its arguments, a `when` that does not read it: `_cached`'s blocks) is computed
        once, when some candidate reaches the rule, and the work of the others charged at once;
        a `when` that is false leaves the candidates as they are, without a pass.  A rule whose
        test still computes something per candidate is a loop as in the exact listing.  Work only
        grows and the limit is checked at the end, so the listing's moves and work are those of
        the exact loop; what could fault in between only faults the listing, which the public
        path then lists the exact way.  `drawn` (playout_drawer): the candidates kept are the
        listing (its one alternative's, so `out` is written once on every way), not their moves."""
        head, for_lines, dom = loop
        c = fn.tmp("c")
        lines = head + [f"{c} = {dom}" if len(for_lines) == 1 else f"{c} = [{var} for {var} in {dom} if {var} is not None]"]
        made = var if drawn else f"{cache}[{var}]"

        def keep(tests, cond, last):
            """The candidates of `c` passing `cond` (after `tests`), into `c`, or as moves into `out`."""
            if not tests:
                into = "out =" if drawn else "out +="
                by_attr = self._attr_filter(var, c, cond)
                if by_attr is not None:  # the candidates with (or without) a card attribute's value
                    return [f"{into} {by_attr}" if drawn or not last else
                            f"out += map({cache}.__getitem__, {by_attr})"] if last else [f"{c} = {by_attr}"]
                return [f"{into} [{made} for {var} in {c} if {cond}]" if last else f"{c} = [{var} for {var} in {c} if {cond}]"]
            if last:
                return [f"for {var} in {c}:"] + indent(tests + [f"if {cond}:", f"    out.append({made})"])
            kept = fn.tmp("c")
            return [f"{kept} = []", f"for {var} in {c}:"] + indent(tests + [f"if {cond}:", f"    {kept}.append({var})"]) + \
                [f"{c} = {kept}"]

        # every candidate's move: looked up all at once where there are several (a comprehension
        # runs about ten instructions a candidate, itemgetter none; it takes one argument apart)
        every = [f"out = {c}"] if drawn else \
            [f"out += {self.const(operator.itemgetter, 'H')}(*{c})({cache}) if len({c}) > 1 "
             f"else [{made} for {var} in {c}]"]
        if not passes:
            return lines + every
        cut = lines[-1] != f"{c} = {dom}"  # the candidates are no longer the domain's list itself
        for u, (segs, when, rl, require, check_lines, check, rule_when) in enumerate(passes):
            last = u == len(passes) - 1
            whole, cut = not cut, True  # (each pass may cut them)
            computed = [(seg, entry) for seg, entry in segs if seg]
            if any(entry is None for _, entry in computed):
                lines += keep([x for seg, _ in segs for x in seg] + check_lines, check, last)  # per candidate
                continue
            if when is None:
                test = keep(check_lines, check, last)
            else:
                test = [f"if {when}:"] + indent(keep(rl, require, last)) + (["else:"] + indent(every) if last else [])
            once = [x for _, (_, lines_once, _) in computed for x in lines_once]
            if whole and not rl and _last_any(rule_when):
                found = _any_as_filter(once, head, dom, c, var, require, fn, self._attr_filter(var, c, require))
                if found is not None:  # the candidates the rule keeps, computed by its `when`'s `any`
                    once, kept = found
                    test = [f"if {when}:"] + indent(
                        ([f"out = {kept}" if drawn else f"out += [{made} for {var} in {kept}]"] if last else
                         [f"{c} = {kept}"])) + (["else:"] + indent(every) if last else [])
            if not once:
                lines += test
                continue
            works = [work for _, (_, _, work) in computed if work]
            charge = [f"st.work += {' + '.join(works) if len(works) == 1 else '(' + ' + '.join(works) + ')'} * (len({c}) - 1)"] \
                if works else []
            lines += [f"if {c}:"] + indent(once + charge + test)
        return lines

    def _attr_filter(self, var, c, cond):
        """`[var for var in c if cond]` as a filter run in C, where `cond` compares a card
        attribute of the candidate with a plain value (`AT4[b] == st.vars[5]`, `!=`, a constant):
        the candidates whose attribute is (or is not) that value, in their order, by the set of
        cards with each of the attribute's values (a value no card has: none).  It charges and
        faults as the comprehension does: nothing (a card's attribute is always there; a value
        compared is a symbol, a number or none, hashed like its equals).  Else None."""
        m = _ATTR_TEST.match(cond)
        if m is None or m["var"] != var:
            return None
        table, value = self.ns.get(m["table"]), m["value"]
        if type(table) not in (tuple, list) or any(type(x) not in (str, int, type(None)) for x in table) or \
                value.startswith("K") and type(self.ns.get(value)) not in (str, int):
            return None
        groups = self._attr_groups.get(m["table"])
        if groups is None:
            sets = {}
            for card, x in enumerate(table):
                sets.setdefault(x, set()).add(card)
            groups = self._attr_groups[m["table"]] = self.const({x: frozenset(cards).__contains__ for x, cards in sets.items()}, "IN")
        nothing = self._attr_groups.get(None)
        if nothing is None:
            nothing = self._attr_groups[None] = self.const(frozenset().__contains__, "IN")
        keep = "filter" if m["op"] == "==" else self.const(itertools.filterfalse, "H")
        return f"[*{keep}({groups}.get({value}, {nothing}), {c})]"

    def _move_cache(self, spec, make):
        """The name of the cache of `spec`'s moves, one per alternative: the API's listing and
        the playouts' hand out the same Move objects."""
        name = self._move_caches.get(id(spec))
        if name is None:
            name = self._move_caches[id(spec)] = self.const(make(), "MC")
        return name


def _constant_work(lines, check) -> int | None:
    """The work a rule's test charges when it is only constant charges (`st.work += 1` for each
    definition called; no other line, and nothing in the test that is given `st`, through which
    anything that charges work is charged), else None."""
    charges = [CONSTANT_CHARGE.match(line) for line in lines]
    if not all(charges) or "(st" in check:
        return None
    return sum(int(m.group(1)) for m in charges)


def _last_any(e) -> bool:
    """Whether `e` is true only where an `any` it ends with was computed, and true: `any ...`, or
    `A and ... and any ...`."""
    while isinstance(e, n.Binary) and e.op == "and":
        e = e.right
    return isinstance(e, n.Quant) and e.kind == "any"


_PLAIN_ZONE = re.compile(r"^st\.zones\[(?:[\d\s+()]|L\[\d+\]|st\.n)+\]$")  # the same list wherever a listing reads it
_STATE_VARS = re.compile(r"\bst\.vars\[\d+\]")
_CALL = re.compile(r"[\w\])]\s*\(")


_ATTR_TEST = re.compile(r"^\((?P<table>AT\d+)\[(?P<var>b\d+)\] (?P<op>==|!=) (?P<value>st\.vars\[\d+\]|K\d+|-?\d+)\)$")


def _any_as_filter(once, head, dom, c, var, require, fn, by_attr=None):
    """A rule's pass (Listings._rule_passes) whose `when` ends with `any x in Z where P(x)`, Z
    the candidates' own domain and P(x) the rule's `require` on x (must follow suit): the
    candidates P keeps, computed where the `any` is, and the `any` their being some.  (once
    lines, the name of the kept list), or None where the `when`'s lines are not of that shape.

    Exact: the `any` is charged len(Z) before its loop, P charges nothing and calls nothing
    (only reads of tables, variables and the candidate), so the work is the same; where P
    holds for some x, the pass then tests P on every candidate anyway, and where it holds for
    none, the `any` tested it on all of them: the same tests, in another order, so a fault is
    a fault either way (and faults the listing, which the public path then lists)."""
    zone = next((line[len(f"{dom} = "):] for line in head if line.startswith(f"{dom} = ")), None)
    if zone is None or not _PLAIN_ZONE.match(zone) or any("_UNSET" in line for line in once):
        return None
    loops = [i for i, line in enumerate(once) if line.lstrip().startswith(("for ", "while "))]
    if len(loops) != 1 or loops[0] < 3:
        return None
    i = loops[0]
    pad = once[i][:len(once[i]) - len(once[i].lstrip())]
    m = re.match(rf"^{pad}for (q\d+) in (s\d+):$", once[i])
    if m is None:
        return None
    q, z = m.groups()
    flag = once[i - 1][len(pad):].split(" = ")[0]
    if once[i - 3:i] != [f"{pad}{z} = {zone}", f"{pad}st.work += len({z})", f"{pad}{flag} = False"] or \
            len(once) < i + 5 or not once[i + 1].startswith(f"{pad}    if ") or \
            once[i + 2:i + 4] != [f"{pad}        {flag} = True", f"{pad}        break"] or \
            len(once[i + 4]) - len(once[i + 4].lstrip()) > len(pad) or once[i + 4].lstrip().startswith("else"):
        return None
    cond = once[i + 1][len(pad) + 4:-1][3:]
    if re.sub(rf"\b{q}\b", var, cond) != require or _CALL.search(_STATE_VARS.sub("V", require)) or \
            re.search(r"\bst\b", _STATE_VARS.sub("V", require)) or re.search(r"\b[a-z]+\d+\b", re.sub(rf"\b{var}\b", "", require)):
        return None
    kept = fn.tmp("c")
    listed = by_attr or f"[{var} for {var} in {c} if {require}]"
    return once[:i - 3] + [f"{pad}{z} = {c}"] + once[i - 2:i - 1] + [f"{pad}{kept} = {listed}", f"{pad}{flag} = {kept} != []"] + \
        once[i + 4:], kept


def _domain_size(dom: str) -> str:
    """A binder domain's length without len(), which fails on a range past sys.maxsize."""
    return f"(max(0, {dom}.stop - {dom}.start) if type({dom}) is range else len({dom}))"
