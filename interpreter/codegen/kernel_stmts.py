"""Statements in the kernel mode of the generator: the plain statements (gen_stmts.py's) and the
control flow's own lines compiler.py asks for (gen_assembly.py's), as kernel-language lines run
in a code's function with its frame at `fb` (FL[fb] the code, FL[fb + 1] the program counter,
FL[fb + 2 + k] local k).

An operation's lines end every path in `@GOTO pc` or `@RETURN`, as in Python mode; the kernel
mode's assembly (KernelGen.assemble) writes each as the step's charge and a jump.  `st.stack` is
FL up to S[DEPTH] (-1: empty), `st.waiting` S[WAITING] (-1: none), `st.actor` S[ACTOR].
"""

from __future__ import annotations

from ..language import limits, nodes as n
from ..language.types import CARD, PLAYER, ZONE, is_list
from ..machine.runtime import TABLE
from .gen_common import CHANCE_MARK, indent
from .kernel_exprs import KEnv, KernelUnsupported

DECIDE = "@DECIDE "  # `@DECIDE index`: the decision the operation leaves pending (KernelGen.assemble)


class KernelStatements:
    """Plain statements and control-flow lines of the kernel mode: a part of KernelGen."""

    def stmt_lines(self, s):
        """The kernel lines of a plain statement, or None for one that changes the control flow."""
        env = KEnv(True)
        match s:
            case n.Let():
                lines, value = self.lower(s.value, env)
                return lines + [f"FL[fb + {self.t.slots[id(s)] + 2}] = {value}"]
            case n.Set():
                return self._set(s, env)
            case n.Move():
                return self._move(s, env)
            case n.Deal():
                return self._deal(s, env)
            case n.Log():  # nobody reads a kernel's game, but its parts are work and may fault
                return self.text_lines(s.parts)
            case n.Reveal() | n.Hide() | n.ShowTo():
                return self._visibility(s, env)
            case n.Shuffle():
                lines, zone = self.held(*self.lower(s.zone, env))
                return lines + [CHANCE_MARK, f"charge(ZN[{zone}])"] + self.forget_zones(zone) + [f"shuffle_zone({zone})"]
        return None

    def _set(self, s, env):
        t, p = self.t, self.p
        target = s.target
        kind, detail = t.resolved[id(target)]
        indexed_var = kind == "global" and t.vars[detail][0].indexed
        if target.index is not None and not indexed_var:
            return self._set_item(s, env, kind, detail)
        if kind == "local":
            where = f"FL[fb + {detail + 2}]"
            lines = []
        elif target.index is None:
            where, lines = f"V[{self.var_base(p.var_slots[detail])}]", self.forget_variable(detail)
        else:
            var = t.vars[detail][0]
            il, idx = self.held(*self.lower(target.index, env))
            count = "S[N]" if var.per_player else "S[TEAM_COUNT]"
            lines = il + [f"if {idx} == NONE or {idx} < 0 or {idx} >= {count}:", "    bail(FAULT)"] + \
                self.forget_variable(detail)
            where = f"V[{self.var_base(p.var_slots[detail])} + {idx}]"
        if s.op == "=":
            vl, value = self.lower(s.value, env)
            return lines + vl + [f"{where} = {value}"]
        old = self.tmp("o")
        vl, value = self.held(*self.lower(s.value, env))
        return lines + [f"{old} = {where}"] + vl + self._combined(s.op, old, value) + [f"{where} = {old}"]

    @staticmethod
    def _combined(op: str, old: str, value: str) -> list[str]:
        """`+=` / `-=`: none on either side is a fault, and so is a number past the limit; the
        result is left in `old`."""
        sign = "+" if op == "+=" else "-"
        return [f"if {old} == NONE or {value} == NONE:", "    bail(FAULT)",
                f"if not (is_number({old}) and is_number({value})):", "    bail(FAULT)",
                f"{old} = {old} {sign} {value}", f"if {old} < -MAX_INT or {old} > MAX_INT:", "    bail(FAULT)"]

    def _set_item(self, s, env, kind, detail):
        """`set xs[i] = v`: the list copied, its item changed, stored back (gen_stmts._set)."""
        where = f"FL[fb + {detail + 2}]" if kind == "local" else f"V[{self.var_base(self.p.var_slots[detail])}]"
        seq, i, copy, m = self.tmp("h"), self.tmp("i"), self.tmp("b"), self.tmp("n")
        il, idx = self.lower(s.target.index, env)
        lines = [f"{seq} = {where}", f"{m} = length({seq})"] + il + [
            f"{i} = {idx}", f"if {i} == NONE or {i} < -{m} or {i} >= {m}:", "    bail(FAULT)",
            f"if {i} < 0:", f"    {i} += {m}", f"{copy} = alloc({m})", f"for k_ in range({m}):",
            f"    H[{copy} + k_] = item({seq}, k_)"]
        vl, value = self.held(*self.lower(s.value, env))
        if s.op == "=":
            lines += vl + [f"H[{copy} + {i}] = {value}"]
        else:
            old = self.tmp("o")
            lines += [f"{old} = H[{copy} + {i}]"] + vl + self._combined(s.op, old, value) + [f"H[{copy} + {i}] = {old}"]
        forget = [] if kind == "local" else self.forget_variable(detail)
        return lines + forget + [f"{where} = handle({copy}, {m})"]

    def _move(self, s, env):
        dl, dest = self.held(*self.lower(s.dest, env))
        lines = dl + [f"if {dest} == NONE:", "    bail(FAULT)"]
        typ = self.t.types[id(s.what)]
        wl, what = self.held(*self.lower(s.what, env))
        bottom, up = int(s.position == "bottom"), int(s.facing == "up")
        if typ == CARD:
            return lines + wl + [f"if {what} != NONE:"] + indent(self.forget_zones(f"LOC[{what}]", dest)) + \
                [f"    move_card({what}, {dest}, {bottom}, {up})"]
        if typ == ZONE:
            return lines + wl + [f"charge(ZN[{what}])"] + self.forget_zones(what, dest) + \
                [f"move_zone({what}, {dest}, {bottom}, {up})"]
        if not is_list(typ):
            raise KernelUnsupported(f"`move` of a value of type {typ}", s.span)
        i, card, count = self.tmp("i"), self.tmp("c"), self.tmp("n")
        order = f"{count} - 1 - {i}" if bottom else i  # under a pile, the list keeps its order
        return lines + wl + [f"if {what} != NONE:", f"    {count} = length({what})", f"    charge({count})"] + \
            indent(self.forget_zones(anywhere=True)) + [
                             f"    for {i} in range({count}):", f"        {card} = item({what}, {order})",
                             f"        if {card} != NONE:", f"            move_card({card}, {dest}, {bottom}, {up})"]

    def _deal(self, s, env):
        p = self.p
        kind, k = p.zone_index[s.zone]
        if kind != "per_player":
            raise KernelUnsupported("`deal` into a shared zone", s.span)
        lines, (seats, src, rounds) = self.lower_all((s.players, s.source, s.count), env)
        lines, seats = self.held(lines, seats)
        lines, src = self.held(lines, src)
        lines, rounds = self.held(lines, rounds)
        m, r, i, seat, dest, card, cost = (self.tmp(x) for x in ("n", "r", "i", "p", "z", "c", "w"))
        up = "VIS[{0}] | FACE_UP" if s.facing == "up" else "VIS[{0}] & ~FACE_UP"
        return lines + [
            f"if {rounds} == NONE or {rounds} < 0:", "    bail(FAULT)",
            f"{m} = length({seats})",
            # paid up front: every round, even one that deals to nobody
            f"{cost} = mul_checked({rounds}, {m} if {m} > 1 else 1)",
            f"if {cost} < 0 or {cost} > MAX_INT:", "    bail(OVER_BUDGET)",
            f"charge({cost})", *self.forget_zones(src, anywhere=True),
            f"for {r} in range({rounds}):",
            f"    for {i} in range({m}):",
            f"        {seat} = item({seats}, {i})",
            f"        if ZN[{src}] == 0 or {seat} == NONE or {seat} < 0 or {seat} >= S[N]:", "            bail(FAULT)",
            f"        {card} = zone_top({src})", f"        ZN[{src}] -= 1",
            f"        {dest} = {self.shared_zones} + {k} * S[N] + {seat}",
            f"        zone_append({dest}, {card})", f"        LOC[{card}] = {dest}",
            f"        VIS[{card}] = {up.format(card)}"]

    def _visibility(self, s, env):
        """`reveal` (everyone sees), `hide` (nobody), `show ... to` (one more player knows)."""
        typ = self.t.types[id(s.what)]
        lines = []
        bit = None
        if isinstance(s, n.ShowTo):
            pl, player = self.held(*self.lower(s.player, env))
            lines = pl + [f"if {player} == NONE:", "    bail(FAULT)"]
            bit = f"(1 << {player})"
        wl, what = self.held(*self.lower(s.what, env))
        lines += wl + self.forget_facing()
        card = self.tmp("c")
        change = f"VIS[{card}] = VIS[{card}] | FACE_UP" if isinstance(s, n.Reveal) else \
            f"VIS[{card}] = 0" if isinstance(s, n.Hide) else f"VIS[{card}] = VIS[{card}] | {bit}"
        if typ == CARD:
            return lines + [f"{card} = {what}", f"if {card} != NONE:", f"    {change}"]
        i = self.tmp("i")
        if typ == ZONE:
            return lines + [f"for {i} in range(ZN[{what}]):", f"    {card} = Z[{what} * NC + {i}]", f"    {change}"]
        if not is_list(typ):
            raise KernelUnsupported(f"showing a value of type {typ}", s.span)
        return lines + [f"for {i} in range(length({what})):", f"    {card} = item({what}, {i})",
                        f"    if {card} != NONE:", f"        {change}"]

    # ---- the control flow's own lines (gen_assembly.py writes Python mode's)
    def lower_in_frame(self, e):
        return self.lower(e, KEnv(True))

    def lower_all_in_frame(self, exprs):
        return self.lower_all(exprs, KEnv(True))

    def branch_source(self, e, next_pc: int, target: int):
        lines, code = self.held(*self.lower_in_frame(e))
        test = self.truth(code, self.t.types.get(id(e), "any"), getattr(e, "span", None))
        return lines + [f"if {test}:", f"    @GOTO {next_pc}", "else:", f"    @GOTO {target}"]

    def for_init(self, s, items: int, pos: int):
        """A `for` loop's items fixed when it starts (a zone's cards copied), not paid for."""
        typ = self.t.types[id(s.source)]
        lines, code = self.lower_in_frame(s.source)
        if typ == ZONE and id(s.source) not in self.t.coerced:
            code = f"zone_list({code})"
        elif not is_list(typ) and typ != ZONE:
            raise KernelUnsupported(f"`for` over a value of type {typ}", s.span)
        return lines + [f"FL[fb + {items + 2}] = {code}", f"FL[fb + {pos + 2}] = 0"]

    def for_next_source(self, var: int, items: int, pos: int, next_pc: int, end_pc: int):
        i, seq = self.tmp("i"), self.tmp("h")
        return [f"{i} = FL[fb + {pos + 2}]", f"{seq} = FL[fb + {items + 2}]", f"if {i} < length({seq}):",
                f"    FL[fb + {var + 2}] = item({seq}, {i})", f"    FL[fb + {pos + 2}] = {i} + 1",
                f"    @GOTO {next_pc}", "else:", f"    @GOTO {end_pc}"]

    def decide_source(self, s, decision):
        wait = self.prompt_lines(s.prompt) + [f"{DECIDE}{decision.index}", f"S[WAITING] = {decision.index}", "@RETURN"]
        if s.actor is None:
            return [f"S[ACTOR] = {TABLE}"] + wait
        lines, code = self.held(*self.lower_in_frame(s.actor))
        return lines + [f"if {code} == NONE:", "    bail(FAULT)", f"S[ACTOR] = {code}"] + wait

    def next_source(self, s, code: int, size: int):
        return ["S[DEPTH] = 0", f"FL[0] = {code}", "FL[1] = 0", f"for k_ in range({size}):", "    FL[2 + k_] = NONE",
                "@RETURN"]

    def end_source(self):
        return ["S[OVER] = 1", "S[DEPTH] = -1", "S[ACTOR] = NONE", "@RETURN"]

    def end_when_test(self, decl):
        """The function giving 1 when `end game when CONDITION` holds (its locals are the
        condition's own binders: named kernel locals, as a definition's)."""
        lines, code = self.held(*self.lower(decl.cond, KEnv(False)))
        self.function("end_when()", lines + [f"return 1 if {self.truth(code, self.typ(decl.cond), decl.span)} else 0"])
        return "end_when"

    def end_when_source(self, test: str, decl, s):
        """gen_assembly's: one unit of work and the condition's own, then the game ends there when
        the condition holds."""
        return lambda pc: ["charge(1)", f"if {test}():"] + indent(self.end_source()) + [f"@GOTO {pc + 1}"]

    def return_source(self):
        return ["S[DEPTH] -= 1", "@RETURN"]

    def end_capped_source(self, s):
        return ["S[CAPPED] = 1", "S[OVER] = 1", "S[ACTOR] = NONE", "S[DEPTH] = -1", "@RETURN"]

    def cancel_source(self, s, flag: int, target: int):
        return [f"FL[fb + {flag + 2}] = 1", f"@GOTO {target}"]

    def repeat_init(self, s, slot: int):
        lines, count = self.held(*self.lower_in_frame(s.count))
        return lines + [f"if {count} == NONE:", "    bail(FAULT)", f"FL[fb + {slot + 2}] = {count}"]

    def repeat_test_source(self, slot: int, next_pc: int, end_pc: int):
        at = f"FL[fb + {slot + 2}]"
        return [f"if {at} > 0:", f"    {at} -= 1", f"    @GOTO {next_pc}", "else:", f"    @GOTO {end_pc}"]

    def call_source(self, code: int, info, args, span):
        def source(pc):
            lines, codes = self.lower_all_in_frame(args)
            d, nb = self.tmp("d"), self.tmp("fb")
            return lines + [f"FL[fb + 1] = {pc + 1}",
                            f"if S[DEPTH] + 1 > {limits.MAX_CALL_DEPTH}:", "    bail(FAULT)",
                            f"{d} = S[DEPTH] + 1", f"{nb} = {d} * FS", f"FL[{nb}] = {code}", f"FL[{nb} + 1] = 0"] + \
                [f"FL[{nb} + {2 + i}] = {c}" for i, c in enumerate(codes)] + \
                [f"FL[{nb} + {2 + i}] = NONE" for i in range(len(codes), info.size)] + [f"S[DEPTH] = {d}", "@RETURN"]
        return source

    def simultaneous_init(self, s, players: int, pos: int, collected: int):
        lines, source = self.lower_in_frame(s.source)
        if self.t.types.get(id(s.source)) != "list:" + PLAYER:
            raise KernelUnsupported("`simultaneously for` over a value that is not a list of players", s.span)
        return lines + [f"FL[fb + {players + 2}] = unique_scalars({source})", f"FL[fb + {pos + 2}] = 0",
                        f"FL[fb + {collected + 2}] = 0"]

    def simultaneous_ask_source(self, var: int, players: int, pos: int, next_pc: int, dispatch_pc: int):
        seq = f"FL[fb + {players + 2}]"
        return [f"if FL[fb + {pos + 2}] < length({seq}):", f"    FL[fb + {var + 2}] = item({seq}, FL[fb + {pos + 2}])",
                f"    @GOTO {next_pc}", "else:", f"    @GOTO {dispatch_pc}"]

    def simultaneous_dispatch_source(self, specs, var: int, collected: int, end_pc: int):
        """The collected moves in order: each a record [seat, alternative, values...]."""
        c, entry, alt = f"FL[fb + {collected + 2}]", self.tmp("e"), self.tmp("a")
        lines = [f"if length({c}) == 0:", f"    @GOTO {end_pc}", f"{entry} = base_of(item({c}, 0))",
                 f"{c} = handle(base_of({c}) + 1, length({c}) - 1)", f"FL[fb + {var + 2}] = H[{entry}]",
                 f"{alt} = H[{entry} + 1]"]
        for spec in specs:
            bind = [f"FL[fb + {b.slot + 2}] = H[{entry} + {2 + i}]" for i, b in enumerate(spec.bindings)]
            lines += [f"if {alt} == {spec.index}:"] + indent(bind + [f"@GOTO {spec.body_pc}"])
        return lines + ["bail(BOUNDS)"]

    def event_init(self, reactions, flag: int, askers: int, pos: int):
        """The seats an event asks, in order, each with the reactions it is offered: a list of
        records [seat, reaction, ...] (gen_assembly._askers)."""
        t = self.t
        seats, offers, m, found = self.tmp("b"), self.tmp("b"), self.tmp("n"), self.tmp("j")
        width = len(reactions) + 1
        lines = [f"FL[fb + {flag + 2}] = 0", f"{seats} = alloc(MP)", f"{offers} = alloc(MP * {width})", f"{m} = 0"]
        for k, r in enumerate(reactions):
            bl, by = self.held(*self.lower_in_frame(r.by))
            seat, i = self.tmp("p"), self.tmp("i")
            one = t.types[id(r.by)] == PLAYER
            walk = [f"{seat} = {by}"] if one else [f"for {i} in range(length({by})):", f"    {seat} = item({by}, {i})"]
            add = [f"if {seat} != NONE:", f"    {found} = -1",
                   f"    for j_ in range({m}):", f"        if H[{seats} + j_] == {seat}:", f"            {found} = j_",
                   f"    if {found} < 0:", f"        if {m} >= MP:", "            bail(FAULT)",
                   f"        {found} = {m}", f"        H[{seats} + {m}] = {seat}", f"        H[{offers} + {m} * {width}] = 0",
                   f"        {m} += 1",
                   f"    H[{offers} + {found} * {width} + 1 + H[{offers} + {found} * {width}]] = {k}",
                   f"    H[{offers} + {found} * {width}] += 1"]
            lines += bl + walk + (indent(add) if not one else add)
        out, j, e, c = self.tmp("b"), self.tmp("i"), self.tmp("b"), self.tmp("n")
        return lines + [f"{out} = alloc({m})", f"for {j} in range({m}):",
                        f"    {c} = H[{offers} + {j} * {width}]", f"    {e} = alloc({c} + 1)",
                        f"    H[{e}] = H[{seats} + {j}]", f"    for k_ in range({c}):",
                        f"        H[{e} + 1 + k_] = H[{offers} + {j} * {width} + 1 + k_]",
                        f"    H[{out} + {j}] = handle({e}, {c} + 1)",
                        f"FL[fb + {askers + 2}] = handle({out}, {m})", f"FL[fb + {pos + 2}] = 0"]

    def reaction_ask_source(self, decision, var_slots, askers: int, pos: int, effect_pc: int, prompt):
        entry, seat = self.tmp("e"), self.tmp("p")
        table = self.table(f"VS_{decision.index}", tuple(str(v + 2) for v in var_slots))
        a, p = f"FL[fb + {askers + 2}]", f"FL[fb + {pos + 2}]"
        return [f"if {p} < length({a}):", f"    {entry} = item({a}, {p})", f"    {p} += 1",
                f"    {seat} = item({entry}, 0)", f"    for k_ in range(1, length({entry})):",
                f"        FL[fb + {table}[item({entry}, k_)]] = {seat}",
                *indent(self.prompt_lines(prompt or ())), f"    S[ACTOR] = {seat}", f"    {DECIDE}{decision.index}", f"    S[WAITING] = {decision.index}",
                "    @RETURN", "S[ACTOR] = NONE", f"@GOTO {effect_pc}"]

    def cancelled_source(self, flag: int, next_pc: int, end_pc: int):
        return [f"if not FL[fb + {flag + 2}]:", f"    @GOTO {next_pc}", "else:", f"    @GOTO {end_pc}"]
