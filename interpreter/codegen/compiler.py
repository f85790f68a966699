"""Checked syntax tree -> state machine.

Each phase, procedure and event becomes a code object: a flat list of operations (the states)
whose program counters and jumps are the transitions.  This module decides the shape of the
machine (which operations, where the labels and decision points are) and writes each
operation as Python source lines; codegen.Gen lowers the expressions and plain statements
inside them and compiles the lines, fusing an operation with the ones it leads to.  There is
one implementation of every construct: a statement's control flow here, its expressions and
effects in codegen.py (see docs/internals.md).

The same generator has two modes: fast (what games run) and traced (every sub-value recorded,
for `explain` and the rule traces).  A program compiled in traced mode plays exactly like the
fast one; tests/test_codegen.py checks that on every script.
"""

from __future__ import annotations

import itertools

from ..language import ending, limits, nodes as n
from ..language.checker import Tables
from ..language.orders import display_keys
from ..language.types import CARD, INT, ZONE, is_list, list_of
from ..machine.program import AltSpec, Binding, CodeInfo, CompiledRule, Decision, Program, RuleUse, Several, holds_cards
from .code_cache import CodeCache
from .gen_common import CHANCE_MARK, SPAN_MARK
from .generator import Gen
from .never_none import variables_never_none


class _Label:
    __slots__ = ("pc",)

    def __init__(self):
        self.pc = None


class _Assembler:
    """Collects operations for one code object; consecutive plain statements share one."""

    def __init__(self, marker):
        self.items = []  # ("simple", [lines of each statement]) or ("op", source(pc) -> lines)
        self.spans = []  # the span of the statement each operation starts
        self.labelled = set()
        self.current_span = None
        self.marker = marker  # span -> the comment line naming it (SPAN_MARK): a fault finds its statement

    def here(self) -> int:
        return len(self.items)

    def label(self, label: _Label):
        label.pc = len(self.items)
        self.labelled.add(label.pc)

    def simple(self, lines: list[str]):
        """A plain statement, joined to the operation before it unless a label or a chance
        draw (gen_common.CHANCE_MARK) starts a new one: the game may pause before each draw."""
        draws = any(line.strip() == CHANCE_MARK for line in lines)
        lines = [self.marker(self.current_span)] + lines
        if self.items and self.items[-1][0] == "simple" and len(self.items) not in self.labelled and not draws:
            self.items[-1][1].append(lines)
        else:
            self.items.append(("simple", [lines]))
            self.spans.append(self.current_span)

    def op(self, source):
        """An operation whose lines `source(pc)` writes once every label is placed (jumps
        `@GOTO pc` and leaves `@RETURN`, see codegen.Gen.assemble)."""
        marked = self.marker(self.current_span)
        self.items.append(("op", lambda pc: [marked] + source(pc)))
        self.spans.append(self.current_span)


def compile_expression(program: Program, tables: Tables, node):
    """fn(st, L) for one expression checked against an overlay of `program`'s tables (see
    checker.check_expression); the program itself is not changed."""
    compiler = Compiler(tables)
    compiler.p = program
    with limits.stack_room():
        return compiler.expr(node)


class Compiler:
    """Compiles one checked script.  `traced=True` compiles every expression in traced mode
    (each sub-value goes to the generated namespace's `_trace` sink): slower, same game.
    `code_cache` keeps the generated functions between runs (code_cache.py)."""

    def __init__(self, tables: Tables, traced: bool = False, code_cache: CodeCache | None = None):
        self.t = tables
        self.code_cache = code_cache
        self.p = Program(tables)
        self.traced = traced
        self._loop_labels = []  # (break label) stack
        self._cancel_target = None
        # a whole program loaded with its code cache numbers its memo keys itself (gen_defines.SHARED_KEYS)
        self.gen = Gen(self, traced=traced, memo_keys=itertools.count() if code_cache is not None else None)
        self._explainer = None  # a traced Gen for explanations, made on the first one
        self._traced_rules = {}
        self._ending = None  # `end game when`: (what its condition reads, the generator's name of its test)

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
        for z in t.zones.values():
            if z.shown_by:
                p.display_keys[z.name] = display_keys(t.orders, p.attr_tables, [a for a, _ in z.shown_by])
        by_deck = {}
        for card_id, card in enumerate(t.cards):
            by_deck.setdefault(card.deck, []).append(card_id)
        for deck in t.decks:
            p.deck_zones.append((deck.zone, by_deck.get(deck.name, [])))
        slot = 0
        for name in t.options:
            p.var_slots[name] = slot
            slot += 1
        per_player, per_team = [], []
        for name, (var, _) in t.vars.items():
            p.var_slots[name] = slot
            if var.per_player:
                per_player.append(slot)
            if var.per_team:
                per_team.append(slot)
            slot += 1
        p.per_player_var_slots, p.per_team_var_slots = tuple(per_player), tuple(per_team)
        p.row_var_slots = p.per_player_var_slots + p.per_team_var_slots
        p.never_none_var_slots = frozenset(p.var_slots[name] for name in variables_never_none(t))
        p.card_var_slots = {p.var_slots[name]: (var, typ) for name, (var, typ) in t.vars.items()
                            if not var.private and holds_cards(t, typ)}
        for z in t.zones.values():
            if z.condition is not None:
                p.zone_conditions[z.name] = self.expr(z.condition)
        for name, (var, _) in t.vars.items():
            rows = "player" if var.per_player else "team" if var.per_team else None
            p.var_inits.append((p.var_slots[name], self.expr(var.init), rows))
        if t.teams is not None and t.teams.expr is not None:
            p.teams_fn = self._seat_fn(t.teams)
        for name, rule in t.rules.items():
            p.rules[name] = CompiledRule(rule, t.frames[id(rule)], self.gen.rule_fn(rule))
        if t.end_when is not None:
            self._ending = (ending.reads(t, t.end_when), self.gen.end_when_test(t.end_when))
        # Phases first so that code index == phase order for the first phase.
        for phase in t.phases.values():
            p.phase_code[phase.name] = self._new_code(phase.name, "phase", phase, phase.name)
        self._proc_code = {proc.name: self._new_code(proc.name, "procedure", proc, None) for proc in t.procs.values()}
        self._event_code = {e.name: self._new_code(e.name, "event", e, None) for e in t.events.values()}
        for phase in t.phases.values():  # a safety net: phases end in next
            self._code(p.phase_code[phase.name], phase.body, ending=self.gen.end_source())
        for proc in t.procs.values():
            self._code(self._proc_code[proc.name], proc.body, ending=self.gen.return_source())
        for event in t.events.values():
            self._event(event)
        if t.score is not None:
            p.score_fn = self._seat_fn(t.score)  # a seat, or a team in a game with teams
        if t.winners is not None and t.winners.expr is not None:
            body, size = self.expr(t.winners.expr), t.frames[id(t.winners)]
            p.winners_fn = lambda st: body(st, [None] * size)
        for decision in p.decisions:
            decision.fast = self.gen.enumerator(decision)
            decision.pick = self.gen.playout_enumerator(decision)
            decision.draw = self.gen.playout_drawer(decision) if decision.pick is not None else None
        return p

    def _seat_fn(self, decl):
        """fn(st, who) for a declaration `NAME: EXPR` read once per seat or team (score, teams)."""
        body, size, slot = self.expr(decl.expr), self.t.frames[id(decl)], self.t.slots[id(decl)]

        def read(st, who, body=body, size=size, slot=slot):
            L = [None] * size
            L[slot] = who
            return body(st, L)
        return read

    def _new_code(self, name, kind, decl, phase) -> int:
        p = self.p
        p.codes.append(None)
        p.chance_points.append(frozenset())
        p.code_info.append(CodeInfo(name, kind, decl.span, self.t.frames[id(decl)], phase))
        return len(p.codes) - 1

    def _start(self, index: int) -> _Assembler:
        self._asm, self._code_index = _Assembler(self._span_marker), index
        return self._asm

    def _span_marker(self, span) -> str:
        """The comment line that names `span` in generated code (see runtime.statement_span)."""
        spans = self.p.statement_spans
        spans.append(span)
        return f"{SPAN_MARK} {len(spans) - 1}"

    def _finish(self, index: int):
        asm = self._asm
        self.p.codes[index], self.p.chance_points[index] = self.gen.assemble(asm.items, index)
        self.p.op_spans[index] = asm.spans
        self.gen.leave_frame()

    def _code(self, index: int, body, ending):
        asm = self._start(index)
        self.gen.enter_frame(index, [body])
        self.block(body)
        asm.op(lambda pc: ending)
        self._finish(index)

    # ---- statements
    def block(self, stmts):
        for s in stmts:
            self.stmt(s)

    def stmt(self, s):
        asm, t = self._asm, self.t
        asm.current_span = s.span
        lines = self.gen.stmt_lines(s)  # plain statements: codegen writes them
        if lines is not None:
            asm.simple(lines)
            if self._ending is not None and ending.changes(t, s, self._ending[0]):
                self._end_check(s)
            return
        match s:
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
                slot = t.slots[id(s)]
                asm.simple(self.gen.repeat_init(s, slot))
                top, end = _Label(), _Label()
                asm.label(top)
                asm.op(lambda pc: self.gen.repeat_test_source(slot, pc + 1, end.pc))
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
                self._call(self._proc_code[s.name], s.args, s.span)
            case n.Signal():
                self._call(self._event_code[s.event], s.args, s.span)
            case n.Next():
                self.p.transitions.append((self._code_index, s.phase, s.span))
                code = self.p.phase_code[s.phase]
                size = self.p.code_info[code].size
                asm.op(lambda pc: self.gen.next_source(s, code, size))
            case n.EndGame() if s.capped:  # the game ends, marked as stopped by the script's own cap
                asm.op(lambda pc: self.gen.end_capped_source(s))
            case n.EndGame():
                asm.op(lambda pc: self.gen.end_source())
            case n.Cancel():
                flag, target = self._cancel_target
                asm.op(lambda pc: self.gen.cancel_source(s, flag, target.pc))
            case n.Return():
                asm.op(lambda pc: self.gen.return_source())
            case _:
                raise AssertionError(f"unhandled statement {s!r}")

    def _end_check(self, s):
        """After a statement that changed what `end game when` reads: test it, and end the game
        there when it holds (the generator's end_when_source)."""
        self._asm.op(self.gen.end_when_source(self._ending[1], self.t.end_when, s))

    def _branch_on(self, e, label: _Label):
        """Continue when `e` holds, else go to `label`."""
        self._asm.op(lambda pc: self.gen.branch_source(e, pc + 1, label.pc))

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
        self._asm.op(lambda pc: [f"@GOTO {label.pc}"])

    def _call(self, code: int, args, span):
        """Enter a procedure or an event with its arguments as the first locals."""
        source = self.gen.call_source(code, self.p.code_info[code], args, span)
        self._asm.op(source)

    def _for(self, s: n.For):
        asm = self._asm
        var = self.t.slots[id(s)]
        items, pos = var + 1, var + 2
        asm.simple(self.gen.for_init(s, items, pos))
        top, end = _Label(), _Label()
        asm.label(top)
        asm.op(lambda pc: self.gen.for_next_source(var, items, pos, pc + 1, end.pc))
        self._loop_body(s.body, end)
        self._jump(top)
        asm.label(end)

    # ---- decisions
    def _alt_specs(self, alternatives, reaction_of=None) -> list:
        specs = []
        for i, alt in enumerate(alternatives):
            bindings = []
            for b in alt.binders:
                typ = self.t.types.get(id(b.source)) if b.source is not None else INT
                elem = CARD if typ == ZONE else (typ[5:] if typ and is_list(typ) else "any")
                if b.several:
                    fewest = self.expr(b.fewest) if b.fewest is not None else None  # None: exactly `most`
                    bindings.append(Binding(self.t.slots[id(b)], Several(list_of(elem)), self.gen.seq_fn(b.source),
                                            fewest, self.expr(b.most), several=True,
                                            key=self.p.attr_tables[b.key] if b.key is not None else None,
                                            repeats=b.repeats))
                elif b.source is not None:
                    bindings.append(Binding(self.t.slots[id(b)], elem, self.gen.seq_fn(b.source), None, None))
                else:
                    bindings.append(Binding(self.t.slots[id(b)], INT, None, self.expr(b.low), self.expr(b.high)))
            rules = tuple(RuleUse(self.p.rules[c.name], tuple(self.expr(a) for a in c.args), c,
                                  tuple(self.t.types.get(id(a)) for a in c.args))
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

    def _decide(self, s: n.Decide, kind: str):
        asm = self._asm
        specs = self._alt_specs(s.alternatives)
        actor = self.expr(s.actor) if s.actor is not None else None
        text = "".join(p if isinstance(p, str) else "{...}" for p in s.prompt)
        decision = self._decision(kind, text, specs, s.span, actor)
        decision.secret = s.secret  # who is told the move: the journal's business (knowledge.move_knowers)
        decision.knowers_fn = self.expr(s.knowers) if s.knowers is not None else None
        decision.prompt_fn, decision.prompt_parts = self.gen.text_fn(s.prompt), self.gen.seat_text(s.prompt)
        asm.op(lambda pc: self.gen.decide_source(s, decision))
        if kind == "normal":
            end = _Label()
            self._emit_bodies(specs, end)
            asm.label(end)
        return decision, specs

    def _simultaneous(self, s: n.Simultaneous):
        """Ask each listed player once, in turn, keeping the choices hidden; then run them in the
        order of the list.  A player listed twice is asked once, as a reaction window asks."""
        asm = self._asm
        var = self.t.slots[id(s)]
        players, pos, collected = var + 1, var + 2, var + 3
        asm.simple(self.gen.simultaneous_init(s, players, pos, collected))
        ask, dispatch, end = _Label(), _Label(), _Label()
        asm.label(ask)
        asm.op(lambda pc: self.gen.simultaneous_ask_source(var, players, pos, pc + 1, dispatch.pc))
        decision, specs = self._decide(s.decide, kind="deferred")
        decision.frame_slots = (var, pos, collected, ask)
        asm.label(dispatch)
        asm.op(lambda pc: self.gen.simultaneous_dispatch_source(specs, var, collected, end.pc))
        self._emit_bodies(specs, dispatch)
        asm.label(end)

    def _event(self, event: n.EventDecl):
        """An event: who may react is fixed when it is signalled; each of them is asked in turn
        (also when they have only `pass`), a `cancel` skips the effect."""
        t, p = self.t, self.p
        index = self._event_code[event.name]
        asm = self._start(index)
        asm.current_span = event.span
        handlers = t.handlers.get(event.name, [])
        self.gen.enter_frame(index, [event.body] + [h.body for h in handlers] +
                             [r.alternatives for r in t.reactions.get(event.name, [])])
        flag = t.slots[id(event)]
        askers, pos = flag + 1, flag + 2
        reactions = t.reactions.get(event.name, [])
        gen = self.gen
        asm.simple(self.gen.event_init(reactions, flag, askers, pos))
        effect = _Label()
        if reactions:
            ask = _Label()
            asm.label(ask)
            var_slots = tuple(t.slots[id(r)] for r in reactions)
            reaction_of = {id(alt): k for k, r in enumerate(reactions) for alt in r.alternatives}
            alts = [alt for r in reactions for alt in r.alternatives]
            specs = self._alt_specs(alts, lambda alt: reaction_of[id(alt)])
            specs.append(AltSpec(len(specs), "pass", (), (), -1, n.Alternative(event.span, "pass", (), (), ()), None))
            text = "".join(x if isinstance(x, str) else "{...}" for x in event.prompt) or f"react to {event.name}"
            decision = Decision(len(p.decisions), "reaction", text, specs, index,
                                -1, event.span, None, (askers, pos, var_slots))
            if event.prompt:
                decision.prompt_fn, decision.prompt_parts = gen.text_fn(event.prompt), gen.seat_text(event.prompt)
            p.decisions.append(decision)

            asm.op(lambda pc, decision=decision, var_slots=var_slots:
                   gen.reaction_ask_source(decision, var_slots, askers, pos, effect.pc, event.prompt))
            decision.pc = asm.here() - 1
            self._cancel_target = (flag, effect)
            self._emit_bodies(specs, ask)
            self._cancel_target = None
        asm.label(effect)
        end = _Label()
        asm.op(lambda pc: gen.cancelled_source(flag, pc + 1, end.pc))
        self.block(event.body)
        for handler in handlers:
            self.block(handler.body)
        asm.label(end)
        asm.op(lambda pc: gen.return_source())
        self._finish(index)

    # ---- expressions
    def expr(self, e):
        """fn(st, L) for expression `e` in a frame list L."""
        return self.gen.expr_fn(e)

    # ---- traced rules, for explanations
    def traced_rule(self, name: str):
        """(when, require, trace) for rule `name`: fn(st, R) each, recording (node, type, value)
        into `trace` for every sub-expression evaluated, in evaluation order."""
        fns = self._traced_rules.get(name)
        if fns is None:
            if self._explainer is None:
                self._explainer = Gen(self, traced=True)  # its own sink, even in a traced program
            rule = self.p.rules[name].node
            fns = self._traced_rules[name] = self._explainer.traced_rule_fns(rule)
        trace: list = []
        self._explainer.ns["_trace"] = lambda node, typ, value: trace.append((node, typ, value))
        return fns[0], fns[1], trace

    def traced_define(self, name: str):
        """(fn, size, trace) for definition `name`'s body, traced like a rule: fn(st, D) with D a
        frame of `size` slots, the arguments first (for `why --expand`)."""
        define = self.t.defines[name]
        fn = self._traced_rules.get(("define", name))
        if fn is None:
            if self._explainer is None:
                self._explainer = Gen(self, traced=True)
            fn = self._traced_rules[("define", name)] = self._explainer.expr_fn(define.body)
        trace: list = []
        self._explainer.ns["_trace"] = lambda node, typ, value: trace.append((node, typ, value))
        return fn, self.t.frames.get(id(define), len(define.params or ())), trace

