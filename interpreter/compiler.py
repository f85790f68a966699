"""Checked syntax tree -> state machine.

Each phase, procedure and event becomes a code object: a flat list of operations (the states)
whose program counters and jumps are the transitions.  Operations and expressions are Python
closures built once per script; consecutive plain statements are fused into one operation.
The traced compilation of rule expressions (used by `explain`) records every sub-value; the
fast path never pays for it.
"""

from __future__ import annotations


from . import limits
from . import nodes as n
from .builtins import BUILTINS, CONSTANTS
from . import codegen
from .codegen import Gen, Unsupported
from .checker import Tables
from .program import AltSpec, Binding, CodeInfo, CompiledRule, Decision, Program, RuleUse, render_value
from .runtime import FACE_UP, TABLE, ScriptRuntimeError
from .types import CARD, INT, PLAYER, TEXT, ZONE, ZONES, is_list


def _fail(message: str, span, hint: str = ""):
    raise ScriptRuntimeError(message, span, hint)


def _int_checked(value, span):
    if -limits.MAX_INT <= value <= limits.MAX_INT:
        return value
    _fail(f"a number grew beyond the limit of {limits.MAX_INT}", span)


class _Label:
    __slots__ = ("pc",)

    def __init__(self):
        self.pc = None


class _Assembler:
    """Collects operations for one code object; plain statements are fused into one operation."""

    def __init__(self):
        self.items = []  # ("simple", [actions]) or ("op", factory() -> op)
        self.spans = []  # the span of the statement each operation starts
        self.labelled = set()
        self.current_span = None
        self.gen = None  # codegen.Gen: fuses plain statements into one generated function

    def here(self) -> int:
        return len(self.items)

    def label(self, label: _Label):
        label.pc = len(self.items)
        self.labelled.add(label.pc)

    def simple(self, action):
        if self.items and self.items[-1][0] == "simple" and len(self.items) not in self.labelled:
            self.items[-1][1].append(action)
        else:
            self.items.append(("simple", [action]))
            self.spans.append(self.current_span)

    def op(self, factory, source=None):
        """An operation built by factory() once labels are placed; `source(pc)`, when given, writes
        the same operation as lines for codegen (see codegen.Gen.assemble)."""
        self.items.append(("op", (factory, source)))
        self.spans.append(self.current_span)

    def finish(self) -> list:
        """The operations; with codegen, also `self.step_ops`, the same ones a step at a time."""
        if self.gen is not None:
            ops, self.step_ops = self.gen.assemble(self.items)
            return ops
        ops = []
        for kind, payload in self.items:
            if kind == "simple":
                ops.append(_fused(tuple(payload)))
            else:
                ops.append(payload[0]())
        self.step_ops = ops
        return ops


def _fused(actions):
    if len(actions) == 1:
        action = actions[0]

        def op(st, fr):
            action(st, fr[2])
            fr[1] += 1
    else:
        def op(st, fr):
            L = fr[2]
            for action in actions:
                action(st, L)
            fr[1] += 1
    return op


def compile_expression(program: Program, tables: Tables, node):
    """fn(st, L) for one expression checked against an overlay of `program`'s tables (see
    checker.check_expression); the program itself is not changed."""
    compiler = Compiler(tables)
    compiler.p = program
    return compiler.expr(node)


class Compiler:
    def __init__(self, tables: Tables):
        self.t = tables
        self.p = Program(tables)
        self._define_fns = {}
        self._loop_labels = []  # (break label) stack
        self._cancel_target = None
        self.gen = Gen(self) if codegen.enabled() else None  # the fast path; closures cover the rest

    # ---- whole program
    def compile(self) -> Program:
        t, p = self.t, self.p
        shared = [z for z in t.zones.values() if not z.per_player]
        per = [z for z in t.zones.values() if z.per_player]
        p.shared_zone_count = len(shared)
        for i, z in enumerate(shared):
            p.zone_index[z.name] = ("shared", i)
        for k, z in enumerate(per):
            p.zone_index[z.name] = ("per_player", k)
        for card_id, card in enumerate(t.cards):
            p.card_names.append(card.name)
            p.card_by_name[card.name] = card_id
        for attr in t.card_attrs:
            p.attr_tables[attr] = [c.attrs.get(attr) for c in t.cards]
        p.attr_tables["name"] = list(p.card_names)
        by_deck = {}
        for card_id, card in enumerate(t.cards):
            by_deck.setdefault(card.deck, []).append(card_id)
        for deck in t.decks:
            p.deck_zones.append((deck.zone, by_deck.get(deck.name, [])))
        slot = 0
        for name in t.options:
            p.var_slots[name] = slot
            slot += 1
        per_player = []
        for name, (var, _) in t.vars.items():
            p.var_slots[name] = slot
            if var.per_player:
                per_player.append(slot)
            slot += 1
        p.per_player_var_slots = tuple(per_player)
        for z in t.zones.values():
            if z.condition is not None:
                p.zone_conditions[z.name] = self.expr(z.condition)
        for name, (var, _) in t.vars.items():
            p.var_inits.append((p.var_slots[name], self.expr(var.init), var.per_player))
        for name, rule in t.rules.items():
            fast = self._rule_check(rule)
            p.rules[name] = CompiledRule(rule, t.frames[id(rule)], fast, None, None)
        # Phases first so that code index == phase order for the first phase.
        for phase in t.phases.values():
            p.phase_code[phase.name] = len(p.codes)
            p.codes.append(None)
            p.step_codes.append(None)
            p.code_info.append(CodeInfo(phase.name, "phase", phase.span, t.frames[id(phase)], phase.name))
        self._proc_code = {}
        for proc in t.procs.values():
            self._proc_code[proc.name] = len(p.codes)
            p.codes.append(None)
            p.step_codes.append(None)
            p.code_info.append(CodeInfo(proc.name, "procedure", proc.span, t.frames[id(proc)], None))
        self._event_code = {}
        for event in t.events.values():
            self._event_code[event.name] = len(p.codes)
            p.codes.append(None)
            p.step_codes.append(None)
            p.code_info.append(CodeInfo(event.name, "event", event.span, t.frames[id(event)], None))
        for phase in t.phases.values():
            self._code(p.phase_code[phase.name], phase.body, ending=None)
        for proc in t.procs.values():
            self._code(self._proc_code[proc.name], proc.body, ending="return")
        for event in t.events.values():
            self._event(event)
        if t.score is not None:
            body, size, slot = self.expr(t.score.expr), t.frames[id(t.score)], t.slots[id(t.score)]

            def score(st, seat, body=body, size=size, slot=slot):
                L = [None] * size
                L[slot] = seat
                return body(st, L)
            p.score_fn = score
        if t.winners is not None and t.winners.expr is not None:
            body, size = self.expr(t.winners.expr), t.frames[id(t.winners)]
            p.winners_fn = lambda st: body(st, [None] * size)
        for decision in p.decisions:
            decision.fast = self.gen.enumerator(decision) if self.gen is not None else None
        return p

    def _code(self, index: int, body, ending):
        asm = _Assembler()
        asm.gen = self.gen
        self._asm, self._code_index = asm, index
        self.block(body)
        if ending == "return":
            asm.op(lambda: _op_return, _RETURN_SOURCE)
        else:  # phases are checked to end in `next` or `end game`; this is a safety net
            asm.op(lambda: _op_end, _END_SOURCE)
        self.p.codes[index] = asm.finish()
        self.p.step_codes[index] = asm.step_ops
        self.p.op_spans[index] = asm.spans

    # ---- statements
    def block(self, stmts):
        for s in stmts:
            self.stmt(s)

    def stmt(self, s):
        asm, t = self._asm, self.t
        asm.current_span = s.span
        if self.gen is not None and isinstance(s, _GENERATED_STATEMENTS):
            action = self.gen.stmt_action(s)
            if action is not None:
                asm.simple(action)
                return
        match s:
            case n.Let():
                value, slot = self.expr(s.value), t.slots[id(s)]

                def let(st, L):
                    L[slot] = value(st, L)
                asm.simple(let)
            case n.Set():
                asm.simple(self._set(s))
            case n.Move():
                asm.simple(self._move(s))
            case n.Deal():
                asm.simple(self._deal(s))
            case n.Shuffle():
                zone, span = self.expr(s.zone), s.span

                def shuffle(st, L):
                    from .rng import shuffle as rng_shuffle
                    slot = zone(st, L)
                    cards = st.zones[slot]
                    st.rng = rng_shuffle(st.rng, cards)
                    for c in cards:
                        st.vis[c] = 0
                    if st.tracer is not None:
                        st.emit("chance", what="shuffle", zone=slot, span=span)
                asm.simple(shuffle)
            case n.Reveal() | n.Hide() | n.ShowTo():
                asm.simple(self._visibility(s))
            case n.If():
                end = _Label()
                for cond, body in s.branches:
                    nxt = _Label()
                    self._branch_on(cond, nxt)
                    self.block(body)
                    self._jump(end)
                    asm.label(nxt)
                if s.orelse is not None:
                    self.block(s.orelse)
                asm.label(end)
            case n.While():
                self._loop(s.body, while_=s.cond)
            case n.RepeatUntil():
                self._loop(s.body, until=s.cond)
            case n.Loop():
                self._loop(s.body)
            case n.RepeatTimes():
                count, slot, span = self.expr(s.count), t.slots[id(s)], s.span

                def init(st, L):
                    c = count(st, L)
                    if c is None:
                        _fail("`repeat` needs a number of times, found none", span)
                    L[slot] = c
                asm.simple(init)
                top, end = _Label(), _Label()
                asm.label(top)

                def factory(end=end):
                    target = end.pc

                    def op(st, fr):
                        L = fr[2]
                        if L[slot] > 0:
                            L[slot] -= 1
                            fr[1] += 1
                        else:
                            fr[1] = target
                    return op
                asm.op(factory, lambda pc, end=end: [
                    f"if L[{slot}] > 0:", f"    L[{slot}] -= 1", f"    @GOTO {pc + 1}", "else:", f"    @GOTO {end.pc}"])
                self._loop_body(s.body, end)
                self._jump(top)
                asm.label(end)
            case n.For():
                self._for(s)
            case n.Break():
                self._jump(self._loop_labels[-1])
            case n.Decide():
                self._decide(s, kind="normal")
            case n.Simultaneous():
                self._simultaneous(s)
            case n.CallStmt():
                self._call(self._proc_code[s.name], [self.expr(a) for a in s.args], s.span)
            case n.Signal():
                self._call(self._event_code[s.event], [self.expr(a) for a in s.args], s.span)
            case n.Next():
                self.p.transitions.append((self._code_index, s.phase, s.span))
                code = self.p.phase_code[s.phase]
                size = self.p.code_info[code].size

                def factory():
                    def op(st, fr):
                        st.stack[:] = [[code, 0, [None] * size]]
                        if st.tracer is not None:
                            st.emit("phase", phase=s.phase, span=s.span)
                    return op
                asm.op(factory, self.gen and (lambda pc, s=s, code=code, size=size: self.gen.next_source(s, code, size)))
            case n.EndGame() if s.capped:
                asm.op(lambda span=s.span: lambda st, fr: _op_end_capped(st, fr, span))
            case n.EndGame():
                asm.op(lambda: _op_end, _END_SOURCE)
            case n.Cancel():
                flag, target = self._cancel_target

                def cancel_factory():
                    pc = target.pc

                    def op(st, fr):
                        fr[2][flag] = True
                        fr[1] = pc
                        if st.tracer is not None:
                            st.emit("cancel", span=s.span)
                    return op
                asm.op(cancel_factory)
            case n.Return():
                asm.op(lambda: _op_return, _RETURN_SOURCE)
            case n.Log():
                asm.simple(self._log(s))
            case _:
                raise AssertionError(f"unhandled statement {s!r}")

    def _branch_on(self, e, label: _Label):
        """`_branch` on the condition expression `e`, written inline when codegen can."""
        def factory():
            cond, target = self.expr(e), label.pc

            def op(st, fr):
                if cond(st, fr[2]):
                    fr[1] += 1
                else:
                    fr[1] = target
            return op
        self._asm.op(factory, self.gen and (lambda pc: self.gen.branch_source(e, pc + 1, label.pc)))

    def _loop(self, body, while_=None, until=None):
        """`while` tests before the body, `repeat ... until` after it, `loop` never."""
        top, end = _Label(), _Label()
        self._asm.label(top)
        if while_ is not None:
            self._branch_on(while_, end)
        self._loop_body(body, end)
        if until is not None:
            self._branch_on(until, top)  # go round again while the condition is false
        else:
            self._jump(top)
        self._asm.label(end)

    def _loop_body(self, body, end):
        self._loop_labels.append(end)
        self.block(body)
        self._loop_labels.pop()

    def _jump(self, label: _Label):
        def factory():
            target = label.pc

            def op(st, fr):
                fr[1] = target
            return op
        self._asm.op(factory, lambda pc: [f"@GOTO {label.pc}"])

    def _branch(self, cond, label: _Label):
        """Continue when `cond` holds, else go to `label`."""
        def factory():
            target = label.pc

            def op(st, fr):
                if cond(st, fr[2]):
                    fr[1] += 1
                else:
                    fr[1] = target
            return op
        self._asm.op(factory)

    def _call(self, code: int, args, span):
        size = self.p.code_info[code].size
        pad = size - len(args)
        name = self.p.code_info[code].name

        def factory():
            def op(st, fr):
                L = fr[2]
                values = [a(st, L) for a in args]
                values.extend([None] * pad)
                fr[1] += 1
                if len(st.stack) >= limits.MAX_CALL_DEPTH:
                    _fail(f"calls nested deeper than {limits.MAX_CALL_DEPTH} (calling `{name}`)", span,
                          "a procedure probably calls itself without end")
                st.stack.append([code, 0, values])
            return op
        self._asm.op(factory)

    def _for(self, s: n.For):
        t, asm = self.t, self._asm
        var = t.slots[id(s)]
        items, pos = var + 1, var + 2
        source = self._as_sequence(s.source)

        def init(st, L):
            L[items] = tuple(source(st, L))
            L[pos] = 0
        asm.simple((self.gen and self.gen.for_init(s, items, pos)) or init)
        top, end = _Label(), _Label()
        asm.label(top)

        def factory():
            target = end.pc

            def op(st, fr):
                L = fr[2]
                i = L[pos]
                seq = L[items]
                if i < len(seq):
                    L[var] = seq[i]
                    L[pos] = i + 1
                    fr[1] += 1
                else:
                    fr[1] = target
            return op
        asm.op(factory, self.gen and (lambda pc: self.gen.for_next_source(var, items, pos, pc + 1, end.pc)))
        self._loop_body(s.body, end)
        self._jump(top)
        asm.label(end)

    def _set(self, s: n.Set):
        t = self.t
        target = s.target
        kind, detail = t.resolved[id(target)]
        value = self.expr(s.value)
        op, span = s.op, s.span
        index = self.expr(target.index) if target.index is not None else None

        def combine(old, new):
            if op == "=":
                return new
            if old is None or new is None:
                _fail(f"`{op}` on a variable that holds none", span, "give the variable a starting number")
            return _int_checked(old + new if op == "+=" else old - new, span)

        if kind == "local":
            slot = detail
            if index is None:
                if op == "=":
                    def action(st, L):
                        L[slot] = value(st, L)
                else:
                    def action(st, L):
                        L[slot] = combine(L[slot], value(st, L))
            else:
                def action(st, L):
                    seq = list(L[slot])
                    i = index(st, L)
                    if i is None or not 0 <= i < len(seq):
                        _fail(f"position {i} is outside the list (length {len(seq)})", span)
                    seq[i] = combine(seq[i], value(st, L))
                    L[slot] = tuple(seq)
            return action
        slot = self.p.var_slots[detail]
        name = detail
        per_player = t.vars[detail][0].per_player

        def traced(st, shown):
            if st.tracer is not None:
                st.emit("set", name=name, value=shown, span=span)
        if index is None:
            def action(st, L):
                st.vars[slot] = combine(st.vars[slot], value(st, L))
                traced(st, st.vars[slot])
        elif per_player:
            def action(st, L):
                seat = index(st, L)
                if seat is None:
                    _fail(f"`{name}[...]` needs a player, found none", span)
                row = st.vars[slot]
                row[seat] = combine(row[seat], value(st, L))
                traced(st, row[seat])
        else:
            def action(st, L):
                seq = list(st.vars[slot])
                i = index(st, L)
                if i is None or not 0 <= i < len(seq):
                    _fail(f"position {i} is outside the list (length {len(seq)})", span)
                seq[i] = combine(seq[i], value(st, L))
                st.vars[slot] = tuple(seq)
                traced(st, seq[i])
        return action

    def _cards_of(self, e):
        """fn(st, L) -> tuple of card ids, from a card, a list of cards or a zone."""
        typ = self.t.types[id(e)]
        f = self.expr(e)
        if typ == CARD:
            return lambda st, L: (lambda c: () if c is None else (c,))(f(st, L))
        if typ == ZONE:
            return lambda st, L: tuple(st.zones[f(st, L)])
        return lambda st, L: tuple(c for c in f(st, L) if c is not None) if f(st, L) is not None else ()

    def _move(self, s: n.Move):
        what, dest, span = self._cards_of(s.what), self.expr(s.dest), s.span
        bottom, facing = s.position == "bottom", s.facing

        def action(st, L):
            slot = dest(st, L)
            if slot is None:
                _fail("`move` needs a zone to move to, found none", span)
            cards = what(st, L)
            for card in (reversed(cards) if bottom else cards):  # under a pile, the list keeps its order
                st.move_card(card, slot, bottom, facing)
                if st.tracer is not None:
                    st.emit("move", card=card, to=slot, span=span)
        return action

    def _deal(self, s: n.Deal):
        count, source, players, span = self.expr(s.count), self.expr(s.source), self.expr(s.players), s.span
        kind, k = self.p.zone_index[s.zone]
        first, facing = self.p.shared_zone_count, s.facing

        def action(st, L):
            seats = players(st, L)
            src = source(st, L)
            for _ in range(count(st, L) or 0):
                for seat in seats:
                    pile = st.zones[src]
                    if not pile:
                        _fail(f"`deal` ran out of cards in `{self.p.zone_of_slot(src, st.n)[0]}`", span,
                              "deal fewer cards, or refill the zone first")
                    dest = first + k * st.n + seat
                    card = pile[-1]
                    st.move_card(card, dest, False, facing)
                    if st.tracer is not None:
                        st.emit("move", card=card, to=dest, span=span)
        return action

    def _visibility(self, s):
        what, span = self._cards_of(s.what), s.span
        if isinstance(s, n.Reveal):
            def action(st, L):
                for c in what(st, L):
                    st.vis[c] |= FACE_UP
                    st.emit("reveal", card=c, span=span)
        elif isinstance(s, n.Hide):
            def action(st, L):
                for c in what(st, L):
                    st.vis[c] = 0
                    if st.tracer is not None:
                        st.emit("hide", card=c, span=span)
        else:
            player = self.expr(s.player)

            def action(st, L):
                seat = player(st, L)
                if seat is None:
                    _fail("`show ... to` needs a player, found none", span)
                for c in what(st, L):
                    st.vis[c] |= 1 << seat
                    st.emit("peek", card=c, player=seat, span=span)
        return action

    def _text(self, pieces):
        """fn(st, L) -> the text with each `{expr}` rendered."""
        parts = []
        for part in pieces:
            if isinstance(part, str):
                parts.append(lambda st, L, text=part: text)
            else:
                f, typ = self.expr(part), self.t.types[id(part)]
                parts.append(lambda st, L, f=f, typ=typ: render_value(st.prog, typ, f(st, L), st.n))
        return lambda st, L: "".join(p(st, L) for p in parts)

    def _log(self, s: n.Log):
        text, span = self._text(s.parts), s.span

        def action(st, L):
            if st.tracer is not None:
                st.emit("log", text=text(st, L), span=span)
        return action

    # ---- decisions
    def _alt_specs(self, alternatives, reaction_of=None) -> list:
        specs = []
        for i, alt in enumerate(alternatives):
            bindings = []
            for b in alt.binders:
                typ = self.t.types.get(id(b.source)) if b.source is not None else INT
                elem = CARD if typ == ZONE else (typ[5:] if typ and is_list(typ) else "any")
                if b.source is not None:
                    bindings.append(Binding(self.t.slots[id(b)], elem, self._as_sequence(b.source), None, None))
                else:
                    bindings.append(Binding(self.t.slots[id(b)], INT, None, self.expr(b.low), self.expr(b.high)))
            rules = tuple(RuleUse(self.p.rules[c.name], tuple(self.expr(a) for a in c.args), c)
                          for c in alt.requires)
            specs.append(AltSpec(i, alt.name, tuple(bindings), rules, -1, alt,
                                 reaction_of(alt) if reaction_of else None))
        return specs

    def _emit_bodies(self, specs, after: _Label):
        for spec in specs:
            spec.body_pc = self._asm.here()
            self._asm.labelled.add(spec.body_pc)
            self.block(spec.node.body)
            self._jump(after)

    def _decision(self, kind, prompt, specs, span, actor_fn, frame_slots=()) -> Decision:
        d = Decision(len(self.p.decisions), kind, prompt, specs, self._code_index, self._asm.here(), span,
                     actor_fn, frame_slots)
        self.p.decisions.append(d)
        return d

    def _decide(self, s: n.Decide, kind: str, after: _Label | None = None):
        asm = self._asm
        specs = self._alt_specs(s.alternatives)
        actor = self.expr(s.actor) if s.actor is not None else None
        text = "".join(p if isinstance(p, str) else "{...}" for p in s.prompt)
        decision = self._decision(kind, text, specs, s.span, actor)
        decision.prompt_fn = self._text(s.prompt)
        span = s.span

        def factory():
            if actor is None:
                def op(st, fr):
                    st.actor = TABLE
                    st.waiting = decision
                    st.legal_cache = None
            else:
                def op(st, fr):
                    seat = actor(st, fr[2])
                    if seat is None:
                        _fail("this decision has no player to make it (the actor is none)", span)
                    st.actor = seat
                    st.waiting = decision
                    st.legal_cache = None
            return op
        asm.op(factory, self.gen and (lambda pc: self.gen.decide_source(s, decision)))
        end = after or _Label()
        if kind == "normal":
            self._emit_bodies(specs, end)
            asm.label(end)
        return decision, specs

    def _simultaneous(self, s: n.Simultaneous):
        t, asm = self.t, self._asm
        var = t.slots[id(s)]
        players, pos, collected = var + 1, var + 2, var + 3
        source = self.expr(s.source)

        def init(st, L):
            L[players] = tuple(source(st, L))
            L[pos] = 0
            L[collected] = ()
        asm.simple(init)
        ask, dispatch, end = _Label(), _Label(), _Label()
        asm.label(ask)

        def ask_factory():
            target = dispatch.pc

            def op(st, fr):
                L = fr[2]
                if L[pos] < len(L[players]):
                    L[var] = L[players][L[pos]]
                    fr[1] += 1
                else:
                    fr[1] = target
            return op
        asm.op(ask_factory)
        decision, specs = self._decide(s.decide, kind="deferred")
        decision.frame_slots = (var, pos, collected, ask)
        asm.label(dispatch)

        def dispatch_factory():
            target = end.pc

            def op(st, fr):
                L = fr[2]
                if not L[collected]:
                    fr[1] = target
                    return
                (seat, alt_index, values), rest = L[collected][0], L[collected][1:]
                L[collected] = rest
                L[var] = seat
                spec = specs[alt_index]
                for b, v in zip(spec.bindings, values):
                    L[b.slot] = v
                fr[1] = spec.body_pc
            return op
        asm.op(dispatch_factory)
        self._emit_bodies(specs, dispatch)
        asm.label(end)

    def _event(self, event: n.EventDecl):
        t, p = self.t, self.p
        index = self._event_code[event.name]
        asm = _Assembler()
        asm.gen = self.gen
        self._asm, self._code_index = asm, index
        asm.current_span = event.span
        flag = t.slots[id(event)]
        askers, pos = flag + 1, flag + 2
        reactions = t.reactions.get(event.name, [])
        by_fns = [(self.expr(r.by), t.types[id(r.by)] == PLAYER) for r in reactions]
        var_slots = [t.slots[id(r)] for r in reactions]

        def init(st, L):
            L[flag] = False
            order, offers = [], {}
            for k, (by, single) in enumerate(by_fns):
                value = by(st, L)
                for seat in ((value,) if single else value or ()):
                    if seat is None:
                        continue
                    if seat not in offers:
                        order.append(seat)
                        offers[seat] = []
                    offers[seat].append(k)
            L[askers] = tuple((seat, tuple(offers[seat])) for seat in order)
            L[pos] = 0
        asm.simple(init)
        effect = _Label()
        if reactions:
            ask = _Label()
            asm.label(ask)
            all_specs = []
            reaction_of = {}
            for k, r in enumerate(reactions):
                for alt in r.alternatives:
                    reaction_of[id(alt)] = k
            alts = [alt for r in reactions for alt in r.alternatives]
            specs = self._alt_specs(alts, lambda alt: reaction_of[id(alt)])
            specs.append(AltSpec(len(specs), "pass", (), (), -1, n.Alternative(event.span, "pass", (), (), ()), None))
            all_specs = specs
            decision = Decision(len(p.decisions), "reaction", f"react to {event.name}", all_specs, index,
                                -1, event.span, None, (askers, pos, tuple(var_slots)))
            p.decisions.append(decision)

            def ask_factory():
                target = effect.pc

                def op(st, fr):
                    L = fr[2]
                    # Every named seat is asked, even with only `pass` to choose: being asked
                    # must not tell the table who holds a reaction (docs/language.md §18).
                    if L[pos] < len(L[askers]):
                        seat, offered = L[askers][L[pos]]
                        L[pos] += 1
                        for k in offered:
                            L[var_slots[k]] = seat
                        st.actor = seat
                        st.waiting = decision
                        st.legal_cache = None
                        return
                    st.actor = None
                    fr[1] = target
                return op
            asm.op(ask_factory)
            decision.pc = asm.here() - 1
            self._cancel_target = (flag, effect)
            self._emit_bodies(all_specs, ask)
            self._cancel_target = None
        asm.label(effect)
        end = _Label()
        self._branch(lambda st, L: not L[flag], end)
        self.block(event.body)
        for handler in t.handlers.get(event.name, []):
            self.block(handler.body)
        asm.label(end)
        asm.op(lambda: _op_return)
        p.codes[index] = asm.finish()
        p.step_codes[index] = asm.step_ops
        p.op_spans[index] = asm.spans

    # ---- rules
    def _rule_check(self, rule: n.RuleDecl):
        require = self.expr(rule.require)
        if rule.when is None:
            return require
        when = self.expr(rule.when)
        return lambda st, R: not when(st, R) or require(st, R)

    # ---- expressions
    def _as_sequence(self, e):
        f, typ = self.expr(e), self.t.types[id(e)]
        if typ == ZONE:
            return lambda st, L: st.zones[f(st, L)]
        if typ in ("any",):
            return lambda st, L: (lambda v: st.zones[v] if type(v) is int else (v or ()))(f(st, L))
        return lambda st, L: f(st, L) or ()

    def expr(self, e, trace=None):
        """fn(st, L) for expression `e`; with `trace`, every sub-value is also recorded."""
        if trace is None and self.gen is not None:
            try:
                return self.gen.expr_fn(e)
            except Unsupported:
                pass  # this node stays a closure; its parts are still generated
        f = self._expr(e, trace)
        if trace is not None and not isinstance(e, n.Literal):
            typ, inner = self.t.types.get(id(e), "any"), f

            def f(st, L):
                value = inner(st, L)
                trace.append((e, typ, value))
                return value
        return f

    def _expr(self, e, trace):
        t, x = self.t, (lambda sub: self.expr(sub, trace))
        match e:
            case n.Literal():
                v = e.value
                return lambda st, L: v
            case n.Name():
                kind, detail = t.resolved[id(e)]
                if kind == "local":
                    return lambda st, L: L[detail]
                if kind in ("global", "option"):
                    slot = self.p.var_slots[detail]
                    if kind == "global" and t.vars[detail][0].per_player:
                        return lambda st, L: tuple(st.vars[slot])
                    return lambda st, L: st.vars[slot]
                if kind == "zone":
                    slot = self.p.zone_index[detail][1]
                    return lambda st, L: slot
                if kind == "zones":
                    k = self.p.zone_index[detail][1]
                    return lambda st, L: k
                if kind == "symbol":
                    return lambda st, L: detail
                if kind == "constant":
                    impl = CONSTANTS[detail][1]
                    return lambda st, L: impl(st)
                if kind == "define":
                    return self._define_call(detail, (), trace)
                raise AssertionError(kind)
            case n.Attr():
                obj, span = x(e.obj), e.span
                table = self.p.attr_tables.get(e.name)

                def attr(st, L):
                    card = obj(st, L)
                    return None if card is None else table[card]
                return attr
            case n.Index():
                return self._index(e, x)
            case n.Call():
                if e.func in t.defines:
                    return self._define_call(e.func, tuple(x(a) for a in e.args), trace)
                impl = BUILTINS[e.func][3]
                args = tuple(self._builtin_arg(a, x) for a in e.args)
                span = e.span
                if len(args) == 1:
                    a0 = args[0]

                    def call1(st, L):
                        try:
                            return impl(st, a0(st, L))
                        except (TypeError, IndexError):
                            _fail(f"`{e.func}` cannot use this value (none?)", span)
                    return call1

                def call(st, L):
                    try:
                        return impl(st, *[a(st, L) for a in args])
                    except (TypeError, IndexError):
                        _fail(f"`{e.func}` cannot use these values (none?)", span)
                return call
            case n.Unary():
                operand, span = x(e.operand), e.span
                if e.op == "not":
                    return lambda st, L: not operand(st, L)

                def neg(st, L):
                    v = operand(st, L)
                    if v is None:
                        _fail("cannot negate none", span)
                    return -v
                return neg
            case n.Binary():
                return self._binary(e, x)
            case n.IfExpr():
                cond, then, orelse = x(e.cond), x(e.then), x(e.orelse)
                return lambda st, L: then(st, L) if cond(st, L) else orelse(st, L)
            case n.Quant():
                return self._quant(e, x)
            case n.Best():
                source, key, slot = self._seq_traced(e.source, x), x(e.key), t.slots[id(e)]
                span, pick_max = e.span, e.kind == "max"

                def best(st, L):
                    found, found_key = None, None
                    for item in source(st, L):
                        L[slot] = item
                        k = key(st, L)
                        if k is None:
                            continue
                        if found_key is None or (k > found_key if pick_max else k < found_key):
                            found, found_key = item, k
                    return found
                return best
            case n.ListLit():
                items = tuple(x(i) for i in e.items)
                return lambda st, L: tuple(i(st, L) for i in items)
            case n.Comprehension():
                source, body, slot = self._seq_traced(e.source, x), x(e.expr), t.slots[id(e)]
                cond = x(e.cond) if e.cond is not None else None

                def comp(st, L):
                    out = []
                    for item in source(st, L):
                        L[slot] = item
                        if cond is None or cond(st, L):
                            out.append(body(st, L))
                    return tuple(out)
                return comp
            case _:
                raise AssertionError(f"unhandled expression {e!r}")

    def _seq_traced(self, e, x):
        """fn(st, L) -> the sequence to walk; every walk is charged to the work budget."""
        f, typ, span = x(e), self.t.types[id(e)], e.span
        if typ == ZONE:
            def seq(st, L):
                items = st.zones[f(st, L)]
                st.work += len(items)
                if st.work > limits.MAX_WORK_PER_MOVE:
                    _over_budget(span)
                return items
            return seq

        def seq(st, L):
            v = f(st, L)
            items = st.zones[v] if type(v) is int else (v or ())
            st.work += len(items)
            if st.work > limits.MAX_WORK_PER_MOVE:
                _over_budget(span)
            return items
        return seq

    def _builtin_arg(self, a, x):
        return x(a)

    def _define_call(self, name, args, trace):
        define = self.t.defines[name]
        size = self.t.frames.get(id(define), len(args))
        pad = max(0, size - len(args))
        # Explanations show a definition's arguments and result, not the inside of its body:
        # one body serves calls with different arguments, so its inner values would mislead.
        key = name
        if key not in self._define_fns:
            cell = []
            self._define_fns[key] = cell
            cell.append(self.expr(define.body))
        cell = self._define_fns[key]
        if not args:
            return lambda st, L: cell[0](st, [None] * pad)
        if len(args) == 1:
            a0 = args[0]
            return lambda st, L: cell[0](st, [a0(st, L)] + [None] * pad) if pad else cell[0](st, [a0(st, L)])
        return lambda st, L: cell[0](st, [a(st, L) for a in args] + [None] * pad)

    def _index(self, e: n.Index, x):
        t = self.t
        obj_type = t.types[id(e.obj)]
        index, span = x(e.index), e.span
        if obj_type == ZONES:
            k = self.p.zone_index[t.resolved[id(e.obj)][1]][1]
            first = self.p.shared_zone_count

            def zone(st, L):
                seat = index(st, L)
                if seat is None:
                    _fail("a per-player zone needs a player, found none", span)
                return first + k * st.n + seat
            return zone
        resolved = t.resolved.get(id(e.obj))
        if resolved and resolved[0] == "global" and t.vars[resolved[1]][0].per_player:
            slot = self.p.var_slots[resolved[1]]

            def per_player(st, L):
                seat = index(st, L)
                if seat is None:
                    _fail(f"`{resolved[1]}[...]` needs a player, found none", span)
                return st.vars[slot][seat]
            return per_player
        seq = self._seq_traced(e.obj, x)

        def item(st, L):
            s = seq(st, L)
            i = index(st, L)
            if i is None or not -len(s) <= i < len(s):
                return None
            return s[i]
        return item

    def _quant(self, e: n.Quant, x):
        source, cond, slot = self._seq_traced(e.source, x), x(e.cond), self.t.slots[id(e)]
        kind = e.kind
        if kind in ("any", "no"):
            found, not_found = (True, False) if kind == "any" else (False, True)

            def q(st, L):
                for item in source(st, L):
                    L[slot] = item
                    if cond(st, L):
                        return found
                return not_found
        elif kind == "all":
            def q(st, L):
                for item in source(st, L):
                    L[slot] = item
                    if not cond(st, L):
                        return False
                return True
        else:
            def q(st, L):
                total = 0
                for item in source(st, L):
                    L[slot] = item
                    if cond(st, L):
                        total += 1
                return total
        return q

    def _binary(self, e: n.Binary, x):
        op, span = e.op, e.span
        left, right = x(e.left), x(e.right)
        if op == "and":
            return lambda st, L: left(st, L) and right(st, L)
        if op == "or":
            return lambda st, L: left(st, L) or right(st, L)
        if op == "==":
            return lambda st, L: left(st, L) == right(st, L)
        if op == "!=":
            return lambda st, L: left(st, L) != right(st, L)
        if op in ("in", "notin"):
            rtype = self.t.types[id(e.right)]
            seq = (lambda st, L: st.zones[right(st, L)]) if rtype == ZONE else right
            if op == "in":
                return lambda st, L: left(st, L) in (seq(st, L) or ())
            return lambda st, L: left(st, L) not in (seq(st, L) or ())
        ltype, rtype = self.t.types[id(e.left)], self.t.types[id(e.right)]
        if op == "+" and (is_list(ltype) or is_list(rtype)):
            def concat(st, L):
                a, b = left(st, L) or (), right(st, L) or ()
                st.check_length(len(a) + len(b))
                return tuple(a) + tuple(b)
            return concat
        if op == "+" and TEXT in (ltype, rtype):
            def text(st, L):
                a = render_value(st.prog, ltype, left(st, L))
                b = render_value(st.prog, rtype, right(st, L))
                if len(a) + len(b) > limits.MAX_TEXT_LENGTH:
                    _fail(f"a text grew beyond {limits.MAX_TEXT_LENGTH} characters", span)
                return a + b
            return text
        py = _ARITH.get(op) or _COMPARE[op]

        def arith(st, L):
            a, b = left(st, L), right(st, L)
            if a is None or b is None:
                _fail(f"`{op}` needs two numbers, but one side is none", span,
                      "check that the values exist (an empty zone's top card is none)")
            if op in ("/", "%") and b == 0:
                _fail("division by zero", span)
            result = py(a, b)
            return result if type(result) is bool else _int_checked(result, span)
        if op in _COMPARE:
            def compare(st, L):
                a, b = left(st, L), right(st, L)
                if a is None or b is None:
                    _fail(f"`{op}` needs two numbers, but one side is none", span,
                          "check that the values exist (an empty zone's top card is none)")
                return py(a, b)
            return compare
        return arith

    # ---- traced rules, for explanations
    def traced_rule(self, name: str):
        rule = self.p.rules[name]
        trace: list = []
        when = self.expr(rule.node.when, trace) if rule.node.when is not None else None
        require = self.expr(rule.node.require, trace)
        return when, require, trace


_GENERATED_STATEMENTS = (n.Let, n.Set, n.Move, n.Deal, n.Log, n.Shuffle)
_RETURN_SOURCE = lambda pc: ["st.stack.pop()", "@RETURN"]  # noqa: E731
_END_SOURCE = lambda pc: ["_op_end(st, fr)", "@RETURN"]  # noqa: E731

_ARITH = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
          "/": lambda a, b: a // b, "%": lambda a, b: a % b}
_COMPARE = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
            ">=": lambda a, b: a >= b}


def _over_budget(span):
    _fail(f"expressions visited more than {limits.MAX_WORK_PER_MOVE:,} values in one move", span,
          "nested loops over long lists multiply; narrow the lists first")


def _op_return(st, fr):
    st.stack.pop()


def _op_end(st, fr):
    st.over = True
    st.stack.clear()
    st.actor = None
    if st.tracer is not None:
        st.emit("end")


def _op_end_capped(st, fr, span):
    """`end game capped`: the game ends, marked as stopped by the script's own cap."""
    st.capped, st.over, st.actor = True, True, None
    st.stack.clear()
    if st.tracer is not None:
        st.emit("end", span=span, capped=True)

