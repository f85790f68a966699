"""Assembly: the state machine's operations (the control-flow lines compiler.py asks for:
branches, `for`, decisions, `next`) turned into functions, each inlining the operations it
leads to; and the playouts' operations, the same lines expanded again for a game nobody
watches, with each decision drawn in place and procedure calls entered in place.

Separate from the lowering of expressions and statements (whose lines it places) because it
works on whole operations: where one ends, what it fuses, how steps are charged between them.
"""

from __future__ import annotations

import re

from ..language import limits, nodes as n
from ..language.rng import GAMMA, MASK, MIX1, MIX2
from ..language.types import PLAYER
from ..machine.runtime import CALLS_ON, FUSED_STEPS, TABLE
from .code_cache import digest
from .flow import deferred_step_charges, merge_step_charges
from .frame_locals import frame_in_locals
from .gen_common import CALL_MARK, CHANCE_MARK, DECIDE_MARK, NEXT_MARK, SPAN_MARK, TooComplex, indent, too_complex
from .text_passes import drop_dead_stores, state_lists_before_loop, untraced
from .unseen_pcs import unseen_pcs_dropped

_SLOT = re.compile(r"^L\[\d+\]$")


def _slots(reads) -> tuple | None:
    """The frame slots a function reads (`frame_reads`) as a code cache keeps them."""
    return None if reads is None else tuple(sorted(reads))


def _still_valid(kept, frame_reads) -> bool:
    """Whether a kept operation body, (the slot sets its passes asked for, the lines), was made
    with the slot sets `frame_reads` gives now."""
    if not (isinstance(kept, tuple) and len(kept) == 2 and isinstance(kept[0], tuple)
            and isinstance(kept[1], tuple) and all(isinstance(line, str) for line in kept[1])):
        return False
    return all(isinstance(asked, tuple) and len(asked) == 2 and isinstance(asked[0], str)
               and _slots(frame_reads(asked[0])) == asked[1]
               for asked in kept[0])
_INLINE_OPS = 16  # operations one generated operation may inline (see Gen.assemble)
# Procedure calls a playout's operations run nested in one another (each one Python call);
# deeper ones go through runtime.run, which keeps Python's own stack short.
_CALLS_IN_PLACE = 32


class Assembly:
    """Operations (see the module's docstring): a part of Gen (codegen.py), whose
    methods use the state Gen.__init__ sets up and the other parts' methods, as one object."""

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
        # named before its operations are made: they call on into it (_step), callers call it (_call_in_place)
        row = self._rows.setdefault(code, [])
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
        name = f"{'playout' if playout else 'op'}{pc}"
        for inlined in (_INLINE_OPS, 0):  # the operations after it copied in, or (nested past Python's limits) not
            looped, left = [False], self._fusing_left
            fused = self._expand(self._bodies[code][pc], code, 0, [inlined], chance, entry, looped)
            try:
                return self.build(name, "st, fr, h=0", self._passed(fused, pc, playout, looped[0]))
            except (TooComplex, RecursionError):  # RecursionError: the passes, which follow blocks by recursion
                if not inlined:
                    raise too_complex() from None
                self._fusing_left = left

    def _passed(self, fused: list[str], pc: int, playout: bool, looped: bool) -> list[str]:
        """The body of an operation from its expanded lines, after the passes over whole
        operations; read back from the code cache when the same lines went through them before
        and every slot set frame_in_locals asked for (`frame_reads`) is still the same."""
        cache = None if self.traced else self.c.code_cache
        key = digest("operation", str(pc), str(playout), str(looped), *fused) if cache else None
        kept = cache.get(key) if cache else None
        if _still_valid(kept, self.frame_reads):
            return list(kept[1])
        asked: list = []

        def frame_reads(name: str):
            reads = self.frame_reads(name)
            asked.append((name, _slots(reads)))
            return reads

        if playout:
            fused = untraced(fused)
        if not self.traced:  # traced code is the reference the merged charges are tested against
            fused = unseen_pcs_dropped(deferred_step_charges(fused) if playout else merge_step_charges(fused))
        fused = drop_dead_stores(fused)
        if looped:
            fused = ["while True:"] + indent(fused)
            if playout:
                fused = state_lists_before_loop(fused)
        body = ["L = fr[2]"] + fused
        if playout and not self.traced:
            body = frame_in_locals(body, frame_reads, pc)
        if cache:
            cache.put(key, (tuple(asked), tuple(body)))
        return body

    def _expand(self, lines, code, done, budget, chance, entry, looped):
        """`lines` (of code `code`) with each `@GOTO pc` written out as the operation at pc,
        while the budget lasts (`@ENTER pc`, written by playout_decision: the same, at the
        start of a stretch).  In a playout's operation (`entry`: the (code, pc) it starts at),
        a step back to its start goes round a loop (`looped`) instead of back to runtime.run,
        which would only call it again (where nothing pauses, nothing runs between two of
        runtime.run's steps), and a `next` phase is entered in place like a step.  A call
        (`@CALL`) runs the callee's first operation from here in both (_call_in_place), but in
        traced code (the reference)."""
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
                if entry is not None or not self.traced:
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
        size = sum(1 for line in body if not line.lstrip().startswith(SPAN_MARK))  # comments cost nothing
        if budget[0] > 0 and done + 2 <= FUSED_STEPS and target not in chance and size + 4 <= self._fusing_left:
            budget[0] -= 1
            self._fusing_left -= size + 4  # its lines and the step's charge
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
        """A call of code `callee` (see _expand) in a playout's or the program's (untraced)
        operation, made without going back to runtime.run: the frame is pushed and the call
        step charged as runtime.run pushes and charges it, and the callee's first operation is
        called from here.  It hands back the
        frame it popped when it returns (a procedure's `return st.stack.pop()`): if that is
        the frame pushed here, this operation's frame is the stack's top again and its next
        step (`after`) is taken here, charged as runtime.run would charge the callee's last;
        else (a decision left pending, a step out of the fusing budget, the game over, `next`)
        the stack is as runtime.run goes on from.  The lines that follow these (the depth
        check, the push) run when the calls nested are too many, and in the program's
        operations when runtime.run's loop that pauses passed CALLS_ON (it gets each back)."""
        f = self._temps.tmp("f")
        row = self._playout_table[callee] if entry is not None else self._rows.setdefault(callee, [])
        run = f"{self.const(row, 'CODES')}[0](st, {f}, h)"
        room = f"len(st.stack) < {_CALLS_IN_PLACE}" if entry is not None else \
            f"h < {CALLS_ON} and len(st.stack) < {_CALLS_IN_PLACE}"
        lines = [f"if {room}:", f"    {f} = [{callee}, 0, {frame}]",
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
        The limits need no arithmetic: while the game's work with this step is at most
        `Playout.far` (the game's budget less two moves'), the stretch's limit, the listing's
        and the next stretch's (the listing uses at most one move's budget) are all the
        per-move budget, which `st.work_limit` already holds.
        Anything unusual gives up, with the position as the program's operation leaves it: a
        step over budget, the decision count at the playout's stop (max_decisions, or the
        limit on decisions close), the game's work near its budget, a listing that gives up
        or faults, no move."""
        if decision.pick is None:
            return []
        # a listing of the cards standing for their moves (Gen.playout_drawer): the move's text
        # looked up for the card drawn, which is bound as it is
        drawn = decision.draw is not None
        if drawn:
            spec = decision.alts[0]
            texts = self._move_texts.get(id(spec))
            if texts is None:
                moves = self.ns[self._move_caches[id(spec)]]
                texts = self._move_texts[id(spec)] = self.const(tuple(move.text for move in moves), "TX")
        tmp = self._temps.tmp
        po, w0, g, ms, count, s, z, m = (
            tmp("po"), tmp("w"), tmp("g"), tmp("ms"), tmp("n"), tmp("s"), tmp("z"), tmp("m"))
        lines = [
            f"{po} = st.playout", f"{w0} = st.work",
            f"if {w0} + {limits.STEP_COST} <= st.work_limit and st.decisions < {po}.stop and "
            f"({g} := st.game_work + {w0} + {limits.STEP_COST}) <= {po}.far:",
            "    try:", f"        {ms} = {self.const(decision.draw if drawn else decision.pick, 'PICK')}(st, L)",
            "    except _RUNTIME_FAULTS:", f"        {ms} = None",
            f"    if {ms}:"]
        made = [
            f"{count} = len({ms})", f"{s} = ({po}.state + {GAMMA}) & {MASK}", f"{po}.state = {s}",
            f"if {count} == 1:", f"    {m} = {ms}[0]", f"    {po}.forced = {po}.forced + 1", "else:",
            f"    {z} = (({s} ^ ({s} >> 30)) * {MIX1}) & {MASK}", f"    {z} = (({z} ^ ({z} >> 27)) * {MIX2}) & {MASK}",
            f"    {m} = {ms}[(({z} ^ ({z} >> 31)) * {count}) >> 64]",
            f"{po}.offered = {po}.offered + {count}", f"st.history.append({f'{texts}[{m}]' if drawn else f'{m}.text'})",
            "st.decisions = st.decisions + 1", f"st.game_work = {g} + st.work"]
        lines += indent(made + self._taken(decision, m, drawn), 2)
        return lines + [f"    st.work = {w0}"]  # given up: the stretch goes on as it was

    def _taken(self, decision, m: str, drawn: bool = False) -> list[str]:
        """The lines after a playout draws move `m` (`drawn`: the card that stands for it, the
        value of its one binder): what moves.apply_move writes for it, then `@ENTER` where the
        game goes on."""
        if decision.kind == "deferred":
            var, pos, collected, ask = decision.frame_slots
            return [f"L[{collected}] = L[{collected}] + ((L[{var}], {m}.alt, {m}.values),)", f"L[{pos}] += 1",
                    f"@ENTER {ask.pc}"]
        assert decision.binds, "Program.plan_moves runs before the playouts' operations are made"
        taken = []
        for pc, slots in decision.binds:
            if len(slots) == 1:
                bind = [f"L[{slots[0]}] = {m}" if drawn else f"L[{slots[0]}] = {m}.values[0]"]
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
            lines += (["else:"] if k == len(taken) - 1 else [f"{head} {alt} == {k}:"]) + indent(branch)
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

    def prompt_lines(self, pieces) -> list[str]:
        """The lines making a decision's prompt as the decision is reached: its `{...}` parts
        are the game's work and faults, on every path, like a log line's (the text itself is
        made again when someone asks for it, GameState.prompt)."""
        return self.text_lines(pieces)[0]

    def decide_source(self, s, decision):
        wait = [f"st.waiting = {self.const(decision, 'DEC')}", "st.legal_cache = None", "@RETURN"]
        prompt = self.prompt_lines(s.prompt)
        if s.actor is None:
            return prompt + [f"{DECIDE_MARK}{decision.index}", f"st.actor = {TABLE}"] + wait
        env = self._frame_env()
        lines, code = self.lower(s.actor, env, self._temps)
        if not lines and _SLOT.match(code) and decision.kind == "normal":
            self._seated[id(decision)] = code  # a frame slot, never none while its listing runs
        seat = self._temps.tmp()
        msg = self.const("this decision has no player to make it (the actor is none)")
        check = [] if self._nonnull(code, env) and not self.traced else \
            [f"if {seat} is None:", f"    _fail({msg}, {self.const(s.span, 'S')})"]
        return lines + [f"{seat} = {code}"] + check + prompt + [f"{DECIDE_MARK}{decision.index}",
                                                                f"st.actor = {seat}"] + wait

    def next_source(self, s, code: int, size: int):
        return [f"{NEXT_MARK}{code} {size}", f"st.stack[:] = [[{code}, 0, [None] * {size}]]", "if st.tracer is not None:",
                f"    st.emit('phase', phase={self.const(s.phase)}, span={self.const(s.span, 'S')})", "@RETURN"]

    # ---- the control flow's own lines (compiler.py places them; each mode writes its own)
    def end_source(self):
        """`end game`, and the end of a phase that forgot its `next`."""
        return ["_op_end(st, fr)", "@RETURN"]

    def end_when_test(self, decl):
        """The const naming fn(st): whether the game is over by `end game when CONDITION`."""
        body, size = self.c.expr(decl.cond), self.t.frames[id(decl)]
        return self.const(lambda st: body(st, [None] * size), "END")

    def end_when_source(self, test: str, decl, s):
        """source(pc) of the check after statement `s`, which changed what `end game when` reads:
        one unit of work and the condition's own; when it holds, the game ends there as `end game`
        does."""
        charge = self.charge("1", decl.span)

        def source(pc):
            return charge + [f"if {test}(st):", "    st.over, st.actor = True, None", "    st.stack.clear()",
                             "    if st.tracer is not None:",
                             f"        st.emit('end', span={self.span(decl.span)}, after={self.span(s.span)})",
                             "    @RETURN", f"@GOTO {pc + 1}"]
        return source

    def return_source(self):
        """A procedure's or an event's end: the frame left (a playout's caller goes on when it is
        its own, Gen._call_in_place)."""
        return ["return st.stack.pop()"]

    def end_capped_source(self, s):
        """`end game capped`: the game ends, marked as stopped by the script's own cap."""
        return ["st.capped, st.over, st.actor = True, True, None", "st.stack.clear()", "if st.tracer is not None:",
                f"    st.emit('end', span={self.span(s.span)}, capped=True)", "@RETURN"]

    def cancel_source(self, s, flag: int, target: int):
        return [f"L[{flag}] = True", "if st.tracer is not None:", f"    st.emit('cancel', span={self.span(s.span)})",
                f"@GOTO {target}"]

    def repeat_init(self, s, slot: int):
        """`repeat N times`: the count, read once."""
        cl, count = self.lower_in_frame(s.count)
        c = self.tmp()
        return cl + [f"{c} = {count}", f"if {c} is None:",
                     f"    _fail({self.const('`repeat` needs a number of times, found none')}, "
                     f"{self.span(s.span)})", f"L[{slot}] = {c}"]

    def repeat_test_source(self, slot: int, next_pc: int, end_pc: int):
        return [f"if L[{slot}] > 0:", f"    L[{slot}] -= 1", f"    @GOTO {next_pc}", "else:", f"    @GOTO {end_pc}"]

    def call_source(self, code: int, info, args, span):
        """source(pc) of a call of procedure or event `code` with its arguments as its first locals."""
        pad = info.size - len(args)
        msg = self.const(f"calls nested deeper than {limits.MAX_CALL_DEPTH} (calling `{info.name}`)")
        hint = self.const("a procedure probably calls itself without end")

        def source(pc):
            lines, codes = self.lower_all_in_frame(args)
            values = "[" + "".join(c + ", " for c in codes) + "]" + (f" + [None] * {pad}" if pad > 0 else "")
            v = self.tmp()
            return lines + [f"{v} = {values}", f"fr[1] = {pc + 1}", f"{CALL_MARK}{code} {pc + 1} {v}",
                            f"if len(st.stack) > {limits.MAX_CALL_DEPTH}:",  # the phase's frame, then the calls
                            f"    _fail({msg}, {self.span(span)}, {hint})",
                            f"st.stack.append([{code}, 0, {v}])", "@RETURN"]
        return source

    def simultaneous_init(self, s, players: int, pos: int, collected: int):
        """The players asked, each once in the order listed; none asked yet, nothing collected."""
        sl, source = self.lower_in_frame(s.source)
        return sl + [f"L[{players}] = tuple(dict.fromkeys({source}))", f"L[{pos}] = 0", f"L[{collected}] = ()"]

    def simultaneous_ask_source(self, var: int, players: int, pos: int, next_pc: int, dispatch_pc: int):
        return [f"if L[{pos}] < len(L[{players}]):", f"    L[{var}] = L[{players}][L[{pos}]]",
                f"    @GOTO {next_pc}", "else:", f"    @GOTO {dispatch_pc}"]

    def simultaneous_dispatch_source(self, specs, var: int, collected: int, end_pc: int):
        """The collected moves run in the order of the list: each seat's alternative's body."""
        seat, alt, values = self.tmp(), self.tmp(), self.tmp()
        lines = [f"if not L[{collected}]:", f"    @GOTO {end_pc}",
                 f"({seat}, {alt}, {values}) = L[{collected}][0]",
                 f"L[{collected}] = L[{collected}][1:]", f"L[{var}] = {seat}"]
        for spec in specs:
            bind = [f"L[{b.slot}] = {values}[{i}]" for i, b in enumerate(spec.bindings)]
            lines += [f"if {alt} == {spec.index}:"] + ["    " + x for x in bind + [f"@GOTO {spec.body_pc}"]]
        return lines + ["raise AssertionError('a committed move of no alternative')"]

    def event_init(self, reactions, flag: int, askers: int, pos: int):
        """An event's start: not cancelled, the seats it asks fixed, none asked yet."""
        return [f"L[{flag}] = False"] + self._askers(reactions, askers) + [f"L[{pos}] = 0"]

    def _askers(self, reactions, askers: int) -> list[str]:
        """The lines that set L[askers] to the seats an event asks, in order, each with the
        reactions it is offered: every seat named by a reaction's `by`, once, none left out.
        One reaction by one seat is that seat alone, in fast code (traced code records the
        list it is named in)."""
        t, gen = self.t, self
        lone = reactions[0].by if len(reactions) == 1 else None
        if isinstance(lone, n.ListLit) and len(lone.items) == 1:
            lone = lone.items[0]
        if lone is not None and t.types.get(id(lone)) == PLAYER and not self.traced:  # `by q in [p]`
            bl, by = gen.lower_in_frame(lone)
            seat = gen.tmp()
            return bl + [f"{seat} = {by}", f"L[{askers}] = () if {seat} is None else (({seat}, (0,)),)"]
        order, offers = gen.tmp("order"), gen.tmp("offers")
        lines = [f"{order}, {offers} = [], {{}}"]
        for k, r in enumerate(reactions):
            bl, by = gen.lower_in_frame(r.by)
            seats = f"({by},)" if t.types[id(r.by)] == PLAYER else f"({by} or ())"
            seat = gen.tmp()
            lines += bl + [f"for {seat} in {seats}:", f"    if {seat} is None:", "        continue",
                           f"    if {seat} not in {offers}:", f"        {order}.append({seat})",
                           f"        {offers}[{seat}] = []", f"    {offers}[{seat}].append({k})"]
        return lines + [f"L[{askers}] = tuple((s, tuple({offers}[s])) for s in {order})"]

    def reaction_ask_source(self, decision, var_slots, askers: int, pos: int, effect_pc: int, prompt):
        """The next seat an event asks, its reactions' variables set to it, its prompt's parts
        made (prompt_lines), or on to the effect.  Every named seat is asked, even with only
        `pass` to choose: being asked must not tell the table who holds a reaction
        (docs/language.md §18)."""
        seat, offered, k = self.tmp(), self.tmp(), self.tmp()
        return [f"if L[{pos}] < len(L[{askers}]):",
                f"    {seat}, {offered} = L[{askers}][L[{pos}]]", f"    L[{pos}] += 1",
                f"    for {k} in {offered}:", f"        L[{self.const(var_slots, 'VS')}[{k}]] = {seat}",
                *(["    " + line for line in self.prompt_lines(prompt or ())]),
                f"    {DECIDE_MARK}{decision.index}", f"    st.actor = {seat}",
                f"    st.waiting = {self.const(decision, 'DEC')}",
                "    st.legal_cache = None", "    @RETURN",
                "st.actor = None", f"@GOTO {effect_pc}"]

    def cancelled_source(self, flag: int, next_pc: int, end_pc: int):
        """After the reactions: the effect and handlers, unless one cancelled them."""
        return [f"if not L[{flag}]:", f"    @GOTO {next_pc}", "else:", f"    @GOTO {end_pc}"]
