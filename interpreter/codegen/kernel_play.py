"""Decisions and whole games in the kernel mode: each decision's listing of its moves (the
generic enumeration's order and work: machine/enumeration.enumerate_moves), the random choice
(studies/agents.RandomAgent's draws), applying it (engine/moves.apply_move), the run loop
(machine/runtime.run), a game's set-up (engine/game.Game._started), its end (scores, winners
and measures as studies/playtest._record reads them), and a batch of games.

Python's `State` fields map onto the context's scalars: `waiting` S[WAITING] (a decision's index,
-1 for none), `stack` the frames up to S[DEPTH], `work` and `work_limit` S[WORK] and S[LIMIT].
"""

from __future__ import annotations

from ..language import limits
from ..language.types import BOOL, CARD, INT, PLAYER, SYMBOL, TEAM, ZONE, element
from ..machine.program import Several
from .gen_common import indent
from .kernel_exprs import KernelUnsupported, free_slots
from .kernel_layout import RESULT, RESULT_FIELDS
from .never_none import items_distinct, items_never_none

SCALAR_TYPES = (INT, CARD, PLAYER, TEAM, SYMBOL, BOOL, ZONE)


class KernelPlay:
    """Listings, moves and the game loop of the kernel mode: a part of KernelGen."""

    @property
    def frame_size(self) -> int:
        sizes = [info.size for info in self.p.code_info] + [int(self.t.frames.get("globals", 0)), 1]
        return 2 + max(sizes)

    @property
    def move_width(self) -> int:
        return 1 + max([len(spec.bindings) for d in self.p.decisions for spec in d.alts] + [0])

    # ---- a decision's moves
    def enumerator(self, d):
        """The function listing decision `d`'s legal moves into MV (a row each: alternative,
        binders' values), their number its result; and the one applying a row."""
        name = f"list_d{d.index}"
        slots = sorted({b.slot for spec in d.alts for b in spec.bindings})
        body = ["fb = S[DEPTH] * FS", "begin_work()", "count = 0", "rows = 0", "blocks = 0", "tried = 0"]
        body += [f"saved{slot} = FL[fb + {slot + 2}]" for slot in slots]
        if d.kind == "reaction":
            askers, pos = d.frame_slots[0], d.frame_slots[1]
            body.append(f"offers = item(FL[fb + {askers + 2}], FL[fb + {pos + 2}] - 1)")
        names = [spec.name for spec in d.alts]
        self._hoisted = []
        alts = []
        for spec in d.alts:
            lines = self._binders(d, spec, 0, names.count(spec.name) > 1)
            if spec.reaction is not None:
                lines = [f"if offered(offers, {spec.reaction}):"] + indent(lines)
            alts += lines
        body += self._hoisted + alts + [f"FL[fb + {slot + 2}] = saved{slot}" for slot in slots] + \
            ["S[BLOCKS] = blocks", "return count"]
        self.function(f"{name}()", body)
        self.listings[d.index] = (name, self._apply(d))
        return name

    def _binders(self, d, spec, j: int, shared_name: bool) -> list[str]:
        """The loops over binders j.. of `spec` (enumeration._combos), each value written to its
        slot before the next binder's domain is read, then the candidate."""
        if j == len(spec.bindings):
            return self._candidate(d, spec, shared_name)
        b, node = spec.bindings[j], spec.node.binders[j]
        if getattr(node, "key", None) is not None or getattr(node, "repeats", False):
            raise KernelUnsupported("a choice `distinct by` a key or `with repeats`", node.span)
        slot = f"FL[fb + {b.slot + 2}]"
        if j == 0 and len(spec.bindings) == 1 and not spec.rules and not shared_name and not b.several \
                and b.domain is not None and self._plain_items(node.source):
            return self._block(spec, b, node)
        inner = self._binders(d, spec, j + 1, shared_name)
        if b.several or type(b.type) is Several:
            return self._several(b, node, slot, inner, last=j == len(spec.bindings) - 1)
        if b.domain is None:  # `n in LOW..HIGH`
            lo, hi, v = self.tmp("lo"), self.tmp("hi"), self.tmp("v")
            return [f"{lo} = {b.low}(fb)", f"{hi} = {b.high}(fb)",
                    f"if {lo} != NONE and {hi} != NONE and {hi} >= {lo}:",
                    f"    if {hi} > {lo} + 1099511627776:", "        bail(OVER_BUDGET)",  # past any budget
                    f"    charge({hi} - {lo} + 1)", f"    for {v} in range({lo}, {hi} + 1):",
                    f"        {slot} = {v}"] + indent(inner, 2)
        dom, count, i, v = self.tmp("dom"), self.tmp("n"), self.tmp("i"), self.tmp("v")
        zone = self.t.types.get(id(node.source)) == ZONE and id(node.source) not in self.t.coerced
        if zone:
            head = [f"{dom} = {b.domain}(fb)", f"if {dom} == NONE:", "    bail(FAULT)", f"{count} = ZN[{dom}]"]
            value = f"Z[{dom} * NC + {i}]"
        else:
            head = [f"{dom} = {b.domain}(fb)", f"{count} = length({dom})"]
            value = f"item({dom}, {i})"
        return head + [f"charge({count})", f"for {i} in range({count}):", f"    {v} = {value}",
                       f"    if {v} == NONE:", "        continue", f"    {slot} = {v}"] + indent(inner)

    def _plain_items(self, source) -> bool:
        """Whether a binder's domain holds different values, none of them none: a zone's
        cards, or a list items_distinct and items_never_none vouch for."""
        if self.t.types.get(id(source)) == ZONE and id(source) not in self.t.coerced:
            return True
        return items_distinct(self.t, source) and items_never_none(self.t, source)

    def _block(self, spec, b, node) -> list[str]:
        """An alternative whose one binder walks plain items and which no rule judges: its moves
        are its domain's items in order, so the listing keeps the domain as one block of moves
        (a bet of any amount offers a hundred raises: gen_runtime._Blocks), each move made only
        when drawn (resolve).  The same moves, the same work, and the cap counted alike."""
        dom, n = self.tmp("dom"), self.tmp("n")
        zone = self.t.types.get(id(node.source)) == ZONE and id(node.source) not in self.t.coerced
        head = [f"{dom} = {b.domain}(fb)"]
        head += [f"if {dom} == NONE:", "    bail(FAULT)", f"{n} = ZN[{dom}]"] if zone else [f"{n} = length({dom})"]
        return head + [f"charge({n})", f"tried += {n}", f"if tried > {limits.MAX_MOVES_PER_DECISION}:",
                       "    bail(TOO_MANY_MOVES)", f"if {n} > 0:", "    BK[blocks * 5] = count", f"    BK[blocks * 5 + 1] = {n}",
                       f"    BK[blocks * 5 + 2] = {spec.index}", f"    BK[blocks * 5 + 3] = {dom}",
                       f"    BK[blocks * 5 + 4] = {int(zone)}", "    blocks += 1", f"    count += {n}"]

    def _several(self, b, node, slot, inner, last: bool) -> list[str]:
        """`xs from J..K of SOURCE` (enumeration._combos): the source paid per item, its
        different items in canonical order, every subset of J to K of them (smaller first, then
        in order of positions) paid for before the first is made, each bound in turn."""
        if element(str(b.type)) not in SCALAR_TYPES:
            raise KernelUnsupported("a binder choosing several lists", node.span)
        dom, items, m, lo, hi, sets, k, at, value, i = (self.tmp(x) for x in (
            "dom", "h", "n", "lo", "hi", "n", "k", "b", "b", "i"))
        zone = self.t.types.get(id(node.source)) == ZONE and id(node.source) not in self.t.coerced
        lines = [f"{dom} = {b.domain}(fb)"]
        if zone:
            lines += [f"if {dom} == NONE:", "    bail(FAULT)", f"{dom} = zone_list({dom})"]
        lines += [f"charge(length({dom}))", f"{items} = distinct_sorted({dom})", f"{m} = length({items})",
                  f"{hi} = {b.high}(fb)", f"{lo} = {b.low + '(fb)' if b.low is not None else hi}",
                  f"{sets} = count_subsets({m}, {lo}, {hi}, {limits.MAX_MOVES_PER_DECISION})"]
        if last:  # its sets are moves: more than a decision may offer is a fault at once
            lines += [f"if {sets} > {limits.MAX_MOVES_PER_DECISION}:", "    bail(TOO_MANY_MOVES)"]
        lines += [f"charge({sets})", f"if {lo} != NONE and {hi} != NONE:",
                  f"    for {k} in range({lo} if {lo} > 0 else 0, ({hi} if {hi} < {m} else {m}) + 1):",
                  f"        {at} = alloc({k})", f"        for {i} in range({k}):", f"            H[{at} + {i}] = {i}",
                  "        while True:", f"            {value} = alloc({k})", f"            for {i} in range({k}):",
                  f"                H[{value} + {i}] = item({items}, H[{at} + {i}])",
                  f"            {slot} = handle({value}, {k})"] + indent(inner, 3) + [
                  f"            {i} = {k} - 1", f"            while {i} >= 0 and H[{at} + {i}] == {m} - {k} + {i}:",
                  f"                {i} -= 1", f"            if {i} < 0:", "                break",
                  f"            H[{at} + {i}] += 1", f"            for j_ in range({i} + 1, {k}):",
                  f"                H[{at} + j_] = H[{at} + j_ - 1] + 1"]
        return lines

    def _candidate(self, d, spec, shared_name: bool) -> list[str]:
        """One assignment of the binders: counted against the decision's cap, judged by the
        alternative's rules in order (each rule's arguments computed only when the rules before
        it passed), and kept unless a move of the same name and values is listed already.

        Nothing changes while a listing runs, so a rule's `when` whose arguments do not depend
        on the binders has the same value, and costs the same work, for every candidate: it is
        computed for the first one and its work charged again for the others (`_hoisted`)."""
        add = self._add_move(d, spec, shared_name)
        binders = frozenset(b.slot for b in spec.bindings)
        for use in reversed(spec.rules):
            args = [self.tmp("ra") for _ in use.args]
            check, head = use.rule.check, ", ".join(args)
            rule = use.rule.node
            reads = free_slots(self.t, rule.when) if rule.when is not None else frozenset()
            fixed = rule.when is not None and all(
                not (free_slots(self.t, arg) & binders)
                for param, arg in zip(rule.params, use.call.args) if self.t.slots[id(param)] in reads)
            if fixed:
                value, work, w0 = self.tmp("wv"), self.tmp("ww"), self.tmp("w")
                self._hoisted.append(f"{value} = -1")
                test = [f"if {value} < 0:", f"    {w0} = S[WORK]", f"    {value} = {check}_when({head})",
                        f"    {work} = S[WORK] - {w0}", "else:", f"    charge({work})",
                        f"if not {value} or {check}_require({head}):"]
            else:
                test = [f"if {check}({head}):"]
            add = [f"{a} = {fn}(fb)" for a, fn in zip(args, use.args)] + test + indent(add)
        return ["tried += 1", f"if tried > {limits.MAX_MOVES_PER_DECISION}:", "    bail(TOO_MANY_MOVES)"] + add

    def _add_move(self, d, spec, shared_name: bool) -> list[str]:
        values = [f"FL[fb + {b.slot + 2}]" for b in spec.bindings]
        write = [f"MV[rows * MW] = {spec.index}"] + [f"MV[rows * MW + {1 + j}] = {v}" for j, v in enumerate(values)] + \
            ["rows += 1", "count += 1"]
        repeats = shared_name or any(b.domain is not None and not items_distinct(self.t, node.source)
                                     and self.t.types.get(id(node.source)) != ZONE
                                     for b, node in zip(spec.bindings, spec.node.binders))
        if not repeats:
            return write
        same_alts = [s.index for s in d.alts if s.name == spec.name]
        r, dup = self.tmp("r"), self.tmp("dup")
        test = [f"MV[{r} * MW] == {k}" for k in same_alts]
        for j, b in enumerate(spec.bindings):
            _, same = self.equal(f"MV[{r} * MW + {1 + j}]", values[j], str(b.type), str(b.type), None, charged=False)
            test.append(same)
        alts, rest = " or ".join(test[:len(same_alts)]), test[len(same_alts):]
        cond = " and ".join([f"({alts})"] + rest)
        return [f"{dup} = 0", f"for {r} in range(rows):", f"    if {cond}:", f"        {dup} = 1", "        break",
                f"if not {dup}:"] + indent(write)

    def _apply(self, d) -> str:
        """The function applying move `row` of MV (moves.apply_move's writes to the frame)."""
        name = f"apply_d{d.index}"
        body = ["fb = S[DEPTH] * FS", "at = row * MW", "alt = MV[at]"]
        if d.kind == "deferred":
            var, pos, collected, ask = d.frame_slots
            width = self.move_width + 1
            body += [f"e = alloc({width})", f"H[e] = FL[fb + {var + 2}]", "H[e + 1] = alt"]
            body += [f"H[e + {2 + j}] = MV[at + {1 + j}]" for j in range(self.move_width - 1)]
            body += [f"FL[fb + {collected + 2}] = concat_one(FL[fb + {collected + 2}], handle(e, {width}))",
                     f"FL[fb + {pos + 2}] += 1", f"FL[fb + 1] = {ask.pc}"]
        else:
            for spec in d.alts:
                bind = [f"FL[fb + {b.slot + 2}] = MV[at + {1 + j}]" for j, b in enumerate(spec.bindings)]
                body += [f"if alt == {spec.index}:"] + indent(bind + [f"FL[fb + 1] = {spec.body_pc}", "return 0"])
            body.append("bail(BOUNDS)")
        self.function(f"{name}(row)", body)
        return name

    # ---- the game
    def play_functions(self):
        """Everything after the script's own code: the run loop, the decisions loop, a game's
        set-up and end, a batch."""
        if self.most_players > 62:
            raise KernelUnsupported("more than 62 players")
        chain = []
        for k, (code, name) in enumerate(sorted(self._codes.items())):
            chain += [f"    {'if' if k == 0 else 'elif'} c == {code}:", f"        {name}()"]
        self.function("run()", ["while S[WAITING] < 0 and S[DEPTH] >= 0 and S[PAUSED] == 0:",
                                "    c = FL[S[DEPTH] * FS]"] + chain +
                      ["    else:" if chain else "    if True:", "        bail(BOUNDS)",
                       "if S[PAUSED] == 0:", "    S[GAME_WORK] += S[WORK]",  # a paused stretch goes on later
                       "if S[DEPTH] < 0:", "    S[OVER] = 1", "return 0"])
        lists, applies = [], []
        for k, (i, (listing, apply)) in enumerate(sorted(self.listings.items())):
            head = "if" if k == 0 else "elif"
            lists += [f"{head} d == {i}:", f"    return {listing}()"]
            applies += [f"{head} d == {i}:", f"    return {apply}(row)"]
        self.function("list_any(d)", lists + ["bail(BOUNDS)", "return 0"])
        self.function("apply_any(d, row)", applies + ["bail(BOUNDS)", "return 0"])
        self.function("play()", [
            "while S[WAITING] >= 0 and S[DECISIONS] < S[STOP]:",
            "    d = S[WAITING]", "    count = list_any(d)", "    if count == 0:", "        bail(DEAD_END)",
            "    legal = S[WORK]", "    row = resolve(choose(count))", "    S[OFFERED] += count", "    if count == 1:",
            "        S[FORCED] += 1", "    if S[LOGGING]:", "        log_move(d, row)", "    S[DECISIONS] += 1",
            "    S[GAME_WORK] += legal", "    S[WAITING] = -1", "    S[ACTOR] = NONE", "    apply_any(d, row)",
            "    begin_work()", "    run()", f"    if S[DECISIONS] >= {limits.MAX_DECISIONS} and S[OVER] == 0:",
            "        bail(TOO_MANY_DECISIONS)", "return 0"])
        self.function("choose(count)", [
            "if S[POLICY] == 0:", "    return below(AGENT, count)",
            # alternative-first: an alternative with a move, uniformly, then one of its moves
            "alts = alloc(count)", "m = 0", "for r in range(count):", "    a = move_alt(r)", "    seen = 0",
            "    for j in range(m):", "        if H[alts + j] == a:", "            seen = 1", "            break",
            "    if not seen:", "        H[alts + m] = a", "        m += 1",
            "a = H[alts + below(AGENT, m)]", "if m == 1:", "    return below(AGENT, count)",
            "mine = 0", "for r in range(count):", "    if move_alt(r) == a:", "        mine += 1",
            "k = below(AGENT, mine)", "for r in range(count):", "    if move_alt(r) == a:", "        if k == 0:",
            "            return r", "        k -= 1", "bail(BOUNDS)", "return 0"])
        spare = limits.MAX_MOVES_PER_DECISION
        self.function("resolve(i)", [  # move i of the listing: its row of MV (a block's, made in the spare row)
            "skipped = 0", "for b in range(S[BLOCKS]):", "    start = BK[b * 5]", "    n = BK[b * 5 + 1]",
            "    if i < start:", "        break", "    if i < start + n:", f"        MV[{spare} * MW] = BK[b * 5 + 2]",
            "        dom = BK[b * 5 + 3]", "        if BK[b * 5 + 4]:",
            f"            MV[{spare} * MW + 1] = Z[dom * NC + i - start]", "        else:",
            f"            MV[{spare} * MW + 1] = item(dom, i - start)", f"        return {spare}", "    skipped += n",
            "return i - skipped"])
        self.function("move_alt(i)", [
            "skipped = 0", "for b in range(S[BLOCKS]):", "    start = BK[b * 5]", "    n = BK[b * 5 + 1]",
            "    if i < start:", "        break", "    if i < start + n:", "        return BK[b * 5 + 2]", "    skipped += n",
            "return MV[(i - skipped) * MW]"])
        self.function("log_move(d, row)", [
            "if S[LOG_TOP] >= S[LOG_CAP]:", "    bail(LOG_FULL)", "at = S[LOG_TOP] * (MW + 1)", "LOG[at] = d",
            "for j in range(MW):", "    LOG[at + 1 + j] = MV[row * MW + j]", "S[LOG_TOP] += 1", "return 0"])
        self._reset()
        self._setup()
        self._finish()
        self._batch()

    def _reset(self):
        p = self.p
        body = [f"for k in range({p.shared_zone_count} + {len(p.per_player_names)} * S[N]):", "    ZN[k] = 0",
                "for c in range(NC):", "    VIS[c] = 0"]
        for k, (zone, cards) in enumerate(p.deck_zones):
            if not cards:
                continue
            slot = p.zone_index[zone][1]
            deck = self.table(f"DECK_{k}", tuple(str(c) for c in cards))
            body += [f"for i in range({len(cards)}):", f"    LOC[{deck}[i]] = {slot}",
                     f"    zone_append({slot}, {deck}[i])"]
        body += [f"for k in range({self.var_size}):", "    V[k] = VINIT[k]"]
        for field, value in (("WORK", 0), ("GAME_WORK", 0), ("DEPTH", -1), ("WAITING", -1), ("ACTOR", "NONE"),
                             ("OVER", 0), ("CAPPED", 0), ("DECISIONS", 0), ("OFFERED", 0), ("FORCED", 0),
                             ("LOG_TOP", 0), ("MEMO", 0)):
            body.append(f"S[{field}] = {value}")
        self.function("reset()", body + ["S[HTOP] = S[HBASE]", "return 0"])

    def _clear_frame(self, size: int) -> list[str]:
        return [f"for k in range({size}):", "    FL[2 + k] = NONE"]

    def _setup(self):
        """Game._started: the variables' starting values (one stretch), then the first phase."""
        t = self.t
        body = ["begin_work()"]
        for slot, fn, rows in self.inits:
            body += self._clear_frame(int(t.frames.get("globals", 0))) + [f"v = {fn}(0)", "S[MEMO] = 0"]
            base = self.var_base(slot)
            if rows is None:
                body.append(f"V[{base}] = v")
            else:
                count = "S[N]" if rows == "player" else "S[TEAM_COUNT]"
                body += [f"for k in range({count}):", f"    V[{base} + k] = v"]
        first = self.p.code_info[0].size if self.p.code_info else 0
        body += ["S[GAME_WORK] += S[WORK]", "S[DEPTH] = 0", "FL[0] = 0", "FL[1] = 0"] + self._clear_frame(first)
        self.function("setup()", body + ["begin_work()", "run()", "return 0"])

    def _finish(self):
        """The end of a finished game (studies/playtest._record): each seat's score, the winners,
        the measures; written to result row `at`."""
        t = self.t
        teamed = t.teams is not None
        count = "S[TEAM_COUNT]" if teamed else "S[N]"
        body = [f"count = {count}", "ts = alloc(count)", "begin_query()", "for who in range(count):"]
        score = self.seat_fns.get("score")
        if score is None:
            body += ["    H[ts + who] = 0"]
        else:
            fn, size, slot = score
            body += indent(self._clear_frame(size) + [f"FL[{2 + slot}] = who", f"v = {fn}(0)", "if v == NONE:",
                                                       "    v = 0", "if not is_number(v):", "    bail(UNREPRESENTED)",
                                                       "H[ts + who] = v"])
        body.append("wq = S[WORK]")
        body.append("mask = 0")
        winners = self.seat_fns.get("winners")
        if winners is not None:
            fn, size, _ = winners
            body += ["begin_query()"] + self._clear_frame(size) + [
                f"h = {fn}(0)", "for k in range(length(h)):", "    w = item(h, k)",
                "    if w != NONE and w >= 0 and w < count:", "        mask = mask | (1 << w)", "wq = S[WORK]"]
        else:
            lowest = t.winners is not None and t.winners.mode == "lowest"
            body += ["best = H[ts]", "for who in range(1, count):",
                     f"    if H[ts + who] {'<' if lowest else '>'} best:", "        best = H[ts + who]",
                     "for who in range(count):", "    if H[ts + who] == best:", "        mask = mask | (1 << who)"]
        scores = len(RESULT_FIELDS)
        if teamed:
            body += ["seats = 0", "for s in range(S[N]):", "    if mask & (1 << TM[s]):", "        seats = seats | (1 << s)",
                     f"    RES[at + {scores} + s] = H[ts + TM[s]]",
                     f"RES[at + {RESULT['WINNERS']}] = seats", f"RES[at + {RESULT['WINNING_TEAMS']}] = mask"]
        else:
            body += ["for s in range(S[N]):", f"    RES[at + {scores} + s] = H[ts + s]",
                     f"RES[at + {RESULT['WINNERS']}] = mask"]
        body.append("S[WORK] = wq")  # the measures go on from the last query's work, as playtest reads them
        column = scores + self.most_players
        for fn, size, slot, per_player in self.measures:
            read = [f"v = {fn}(0)", "if v == NONE:", "    v = 0", "if not is_number(v):", "    bail(UNREPRESENTED)"]
            if per_player:
                body += ["for s in range(S[N]):"] + indent(self._clear_frame(size) + [f"FL[{2 + slot}] = s"] + read +
                                                            [f"RES[at + {column} + s] = v"])
                column += self.most_players
            else:
                body += self._clear_frame(size) + read + [f"RES[at + {column}] = v"]
                column += 1
        self.function("finish(at)", body + ["return 0"])

    def _batch(self):
        """A batch of games (entry_batch): shared lists made once, then each game in turn, its
        result in its row of RES; a game the kernel cannot finish keeps its status there."""
        teamed = self.t.teams is not None
        width = len(RESULT_FIELDS) + self.most_players + len(self._measure_columns())
        setup = ["for k in range(CONST_HEAP):", "    H[k] = HEAP_CONSTANTS[k]", "S[HTOP] = CONST_HEAP", "n = S[N]",
                 "b = alloc(n)", "for k in range(n):", "    H[b + k] = k", "S[PLAYERS] = handle(b, n)",
                 "pf = alloc(n)", "for p in range(n):", "    b = alloc(n)", "    for k in range(n):",
                 "        H[b + k] = (p + k) % n", "    H[pf + p] = handle(b, n)", "S[PLAYERS_FROM] = handle(pf, n)"]
        if teamed:
            setup += ["tc = S[TEAM_COUNT]", "b = alloc(tc)", "for k in range(tc):", "    H[b + k] = k",
                      "S[TEAMS] = handle(b, tc)", "ms = alloc(tc)", "for t in range(tc):", "    b = alloc(n)", "    m = 0",
                      "    for s in range(n):", "        if TM[s] == t:", "            H[b + m] = s", "            m += 1",
                      "    H[ms + t] = handle(b, m)", "S[MEMBERS] = handle(ms, tc)", "ps = alloc(n)",
                      "for s in range(n):", "    b = alloc(n)", "    m = 0", "    for i in range(1, n):",
                      "        q = (s + i) % n", "        if TM[q] == TM[s]:", "            H[b + m] = q", "            m += 1",
                      "    H[ps + s] = handle(b, m)", "S[PARTNERS] = handle(ps, n)"]
        self.function("shared_setup()", setup + ["return 0"])
        # the opening (Game._from_opening): a game run once to its first draw, which nothing before
        # depends on the seed; every game of the batch starts as a copy of it
        self.function("batch_setup()", [
            "shared_setup()", "S[HBASE] = S[HTOP]", "reset()", "S[RNG] = 0", "S[AGENT] = 0", "S[PAUSING] = 1",
            "S[PAUSED] = 0", "setup()", "S[PAUSING] = 0", "S[HBASE] = S[HTOP]", "snapshot()", "return 0"])
        self._snapshots()
        self.function("one_game(g)", [f"at = g * {width}",
            "restore()", "seed = derive(S[RUN_SEED], S[FIRST_GAME] + g)", "S[RNG] = seed", "S[AGENT] = derive(seed, 1)",
            "if S[PAUSED]:", "    S[PAUSED] = 0", "    w = S[WORK]", "    begin_work()", "    S[WORK] = w", "    run()",
            "if S[STATUS] == 0:", "    play()",
            "if S[STATUS] == 0 and S[OVER] != 0:", "    finish(at)",
            f"RES[at + {RESULT['STATUS']}] = S[STATUS]", f"RES[at + {RESULT['OVER']}] = S[OVER]",
            f"RES[at + {RESULT['CAPPED']}] = S[CAPPED]", f"RES[at + {RESULT['DECISIONS']}] = S[DECISIONS]",
            f"RES[at + {RESULT['OFFERED']}] = S[OFFERED]", f"RES[at + {RESULT['FORCED']}] = S[FORCED]",
            f"RES[at + {RESULT['GAME_WORK']}] = S[GAME_WORK]", f"RES[at + {RESULT['RNG']}] = S[RNG]",
            f"RES[at + {RESULT['AGENT']}] = S[AGENT]", f"RES[at + {RESULT['HEAP']}] = S[HTOP] - S[HBASE]",
            "return 0"])
        # a game stopped half way may have written anywhere in its own regions: the batch's
        # shared lists are made again
        self.function("top_game(g)", ["one_game(g)", "if S[STATUS] != 0:", "    S[STATUS] = 0", "    batch_setup()",
                                      "return 0"])
        self.function("entry_batch(first, count)", [
            "batch_setup()", "S[FIRST_GAME] = first", "for g in range(count):", "    top_game(g)", "return 0"])
        # rollouts from a position made in Python (studies/compiled.Kernel.rollouts): the shared
        # lists, then the driver writes the position (its lists in the heap above them) and keeps
        # it; each game starts as a copy of it, and the first one the kernel stops ends the call
        self.function("entry_shared()", ["shared_setup()", "return 0"])
        self.function("entry_keep()", ["S[HBASE] = S[HTOP]", "snapshot()", "return 0"])
        self.function("entry_from(first, count)", [
            "S[FIRST_GAME] = first", "for g in range(count):", "    one_game(g)", "    if S[STATUS] != 0:",
            "        return g", "return count"])

    _KEPT = ("WORK", "LIMIT", "GAME_WORK", "DEPTH", "WAITING", "ACTOR", "OVER", "CAPPED", "DECISIONS", "PAUSED")

    def _snapshots(self):
        """snapshot() keeps the position (SNAP: the scalars of _KEPT, each zone's cards, the
        cards' places and facing, the variables, the frames); restore() makes it the game's."""
        kept = self._KEPT
        slots = f"({self.p.shared_zone_count} + {len(self.p.per_player_names)} * S[N])"
        v = self.var_size
        save = [f"SNAP[{i}] = S[{name}]" for i, name in enumerate(kept)] + [f"at = {len(kept)}",
                f"for k in range({slots}):", "    SNAP[at] = ZN[k]", "    at += 1", "    for i in range(ZN[k]):",
                "        SNAP[at] = Z[k * NC + i]", "        at += 1", "for c in range(NC):", "    SNAP[at] = LOC[c]",
                "    SNAP[at + 1] = VIS[c]", "    at += 2", f"for k in range({v}):", "    SNAP[at + k] = V[k]",
                f"at += {v}", "for k in range((S[DEPTH] + 1) * FS):", "    SNAP[at + k] = FL[k]"]
        self.function("snapshot()", save + ["return 0"])
        load = [f"S[{name}] = SNAP[{i}]" for i, name in enumerate(kept)] + [f"at = {len(kept)}",
                f"for k in range({slots}):", "    ZN[k] = SNAP[at]", "    at += 1", "    for i in range(ZN[k]):",
                "        Z[k * NC + i] = SNAP[at]", "        at += 1", "for c in range(NC):", "    LOC[c] = SNAP[at]",
                "    VIS[c] = SNAP[at + 1]", "    at += 2", f"for k in range({v}):", "    V[k] = SNAP[at + k]",
                f"at += {v}", "for k in range((S[DEPTH] + 1) * FS):", "    FL[k] = SNAP[at + k]"]
        self.function("restore()", load + ["S[OFFERED] = 0", "S[FORCED] = 0", "S[LOG_TOP] = 0", "S[HTOP] = S[HBASE]",
                                          "S[MEMO] = 0", "return 0"])

    @property
    def var_size(self) -> int:
        size = len(self.p.var_slots)
        return self.var_base(size - 1) + (self.most_players if size - 1 in self.p.row_var_slots else 1) if size else 0

    def _measure_columns(self) -> list:
        return [c for _, _, _, per in self.measures for c in range(self.most_players if per else 1)]
