"""Moves at the API: applying one, and explaining why a move is or is not legal (the
enumeration itself is in enumeration.py, one layer down, where compiled code can reach it)."""

from __future__ import annotations

import attrs

from ..language.nodes import Best, Comprehension, Name, Pattern, Quant
from ..language.source import Span
from ..machine.enumeration import enumerate_moves, legal_moves, listing
from ..machine.program import Move, find_move, render_move_value, render_value
from ..machine.runtime import run
from .choices import why_not_offered
from .knowledge import move_knowers
from .plain_words import plain_verdict
from .verdicts import calls_in, read_trace, verdict

__all__ = ["Expansion", "Explanation", "Move", "RuleResult", "apply_move", "enumerate_moves", "explain",
           "legal_moves", "listing"]

MAX_EXPANSION_DEPTH = 6  # definitions cannot call themselves, but a chain can be long


@attrs.frozen
class Expansion:
    """A definition's body evaluated with the arguments of one call (`why MOVE --expand NAME`).

    Attributes:
        call: the call as written (`holds_suit(p)`); args: (parameter, value text) pairs.
        value: the call's value; verdict: the part of the body that decided it.
        values, witnesses, expansions: as in RuleResult, for the body.
    """

    name: str
    call: str
    args: tuple
    span: Span
    value: str
    verdict: str
    values: tuple
    witnesses: tuple = ()
    expansions: tuple = ()


@attrs.frozen
class RuleResult:
    """How one named rule judged a move.

    Attributes:
        status: "pass", "fail" or "not applicable" (its `when` was false).
        values: (expression text, value text) pairs the rule looked at, in evaluation order.
        verdict: the part of the deciding expression (the `require`, or the `when` of a rule that
            did not apply) that decided it: `c.suit == led is C == D = false`.
        where: the span of that expression (its file:line ends an explanation's summary).
        witnesses: (quantifier text, phrase) pairs: the item an `any`, `all` or `no` stopped at.
        expansions: the definitions asked to be expanded, one Expansion per call.
        plain: the verdict as players say it ("6H does not beat 8H"), or "" (plain_words.py).
    """

    name: str
    doc: str
    span: Span
    status: str
    values: tuple
    verdict: str = ""
    where: Span | None = None
    witnesses: tuple = ()
    expansions: tuple = ()
    plain: str = ""

    @property
    def summary(self) -> str:
        """`RULE fails at FILE:LINE: c.suit == led is C == D = false`: name, word, where, verdict."""
        at = f" at {self.where.path}:{self.where.line}" if self.where is not None else ""
        word = {"pass": "passes", "fail": "fails"}.get(self.status, "does not apply")
        return f"{self.name} {word}{at}: {self.verdict}" if self.verdict else f"{self.name} {word}{at}"


@attrs.frozen
class Explanation:
    """Why a move is legal or not: `str()` reads like the REPL's `why` summary."""

    move: str
    legal: bool
    reason: str
    rules: tuple  # RuleResult

    @property
    def failing(self) -> list[RuleResult]:
        return [r for r in self.rules if r.status == "fail"]

    @property
    def verdict(self) -> str:
        """One line: legal or illegal, and the rules that decided it with how."""
        if self.legal is None:  # refused: the viewer may not know
            return self.reason
        if not self.rules:
            return f"{'legal' if self.legal else 'illegal'}: {self.reason}"
        deciding = self.rules if self.legal else self.failing
        return f"{'legal' if self.legal else 'illegal'}: " + "; ".join(r.summary for r in deciding)

    def __str__(self) -> str:
        if self.legal is None:  # not judged: the reason says what the judgement would have read
            return f"`{self.move}` is not judged: {self.reason}"
        return f"`{self.move}` is {self.verdict}"


def apply_move(st, move: Move, codes: list | None = None) -> None:
    """Apply a move already known to be legal, then run the game to its next decision (with
    `codes`, see runtime.run; the playouts' operations do all of this themselves, inline, at
    the decisions they make: codegen.Gen.playout_decision)."""
    decision = st.waiting
    fr = st.stack[-1]
    st.history.append(move.text)
    st.decisions += 1
    game_work = st.game_work = st.game_work + st.legal_work  # listing this decision's moves
    if st.tracer is None:
        st.waiting = st.legal_cache = st.actor = None
    else:
        actor = st.actor
        st.waiting = st.legal_cache = st.actor = None
        st.emit("decision", actor=actor, move=move.text, span=decision.span, hidden=decision.hidden,
                knowers=move_knowers(st, decision, fr[2]) if decision.hidden else frozenset(),
                move_obj=move, decision=decision)
    pc, slot = decision.sets[move.alt]
    if slot is not None:  # one binder
        fr[2][slot] = move.values[0]
        fr[1] = pc
    elif pc is None:  # a simultaneous decision: the move is collected, the next seat asked
        L = fr[2]
        var, pos, collected, ask = decision.frame_slots
        L[collected] = L[collected] + ((L[var], move.alt, move.values),)
        L[pos] += 1
        fr[1] = ask.pc
    else:
        if move.values:  # several
            L = fr[2]
            for slot, value in zip(decision.binds[move.alt][1], move.values):
                L[slot] = value
        fr[1] = pc
    # the move's stretch of work (st.begin_work(), written out: a game with a decision has moves)
    per_move, per_game = st.budget
    st.work = 0
    left = per_game - game_work
    st.work_limit = per_move if per_move < left else left  # min(), which costs several times more
    run(st, False, codes)


def explain(st, text: str, expand=(), move: Move | None = None, seen=None) -> Explanation:
    """Re-evaluate every rule behind `text` (or `move`, a move of this decision, its values as
    given) with tracing on: the slow path, never used in play.  `expand` names definitions whose
    calls are evaluated again inside, with their arguments; `seen(use, args)`: the arguments as
    the seat asking may read them (knowledge.rule_args_as_seen)."""
    decision = st.waiting
    st.begin_work(query=True)  # a query: the budget of one move, whatever the listing used
    if decision is None:
        pending = "no decision is pending" if st.pause_point is None else \
            f"the game is paused ({st.pause_point[0]}): step it on to its next decision first"
        return Explanation(text, False, "the game is over" if st.over else pending, ())
    # A legal move already listed is a candidate: no need to list every candidate to find it.
    if move is None:
        move = find_move(st.prog, decision, st.legal_cache or (), text, st.n)
    candidates = None
    if move is None:
        listed = enumerate_moves(st, legal_only=False)
        candidates = {m.text: m for m in listed}
        move = find_move(st.prog, decision, listed, text, st.n)
    if move is None:
        return Explanation(text, False, _not_an_option(st, decision, text, candidates), ())
    results = _with_binders(st, move, lambda L, use: _judge(st, L, use, frozenset(expand), seen))
    legal = all(r.status != "fail" for r in results)
    if legal:
        reason = "allowed by every rule" if results else "no rule restricts this option"
    else:
        reason = "forbidden by " + ", ".join(f"`{r.name}`" for r in results if r.status == "fail")
    return Explanation(move.text, legal, reason, tuple(results))


def rule_statuses(st, move: Move) -> list[tuple[str, str]]:
    """(rule, status) for each rule `move` (of the decision waiting) names: the statuses
    `explain` gives, without the values it shows, for a lint that judges thousands of moves."""
    st.begin_work(query=True)
    return _with_binders(st, move, lambda L, use: (use.rule.node.name, _status(st, L, use)[0]))


def _with_binders(st, move: Move, judge) -> list:
    """`judge(frame, use)` for each rule use of `move`'s alternative, with its binders set to the
    move's values in the decision's frame (and put back after)."""
    spec = st.waiting.alts[move.alt]
    L = st.stack[-1][2]
    slots = [b.slot for b in spec.bindings]
    saved = [L[s] for s in slots]
    try:
        for b, v in zip(spec.bindings, move.values):
            L[b.slot] = v
        return [judge(L, use) for use in spec.rules]
    finally:
        for s, v in zip(slots, saved):
            L[s] = v


def _status(st, L, use, seen=None) -> tuple[str, list, list]:
    """(status, arguments, trace) of one rule use, evaluated by its traced code: the trace holds
    what it read, for `_judge`; `seen` as for `explain`."""
    when, require, trace = st.prog.compiler.traced_rule(use.rule.node.name)
    args = [a(st, L) for a in use.args]
    if seen is not None:
        args = seen(use, args)
    args.extend([None] * (use.rule.size - len(args)))
    if when is not None and not when(st, args):
        return "not applicable", args, trace
    return ("pass" if require(st, args) else "fail"), args, trace


def _judge(st, L, use, expand, seen=None) -> RuleResult:
    prog = st.prog
    rule = use.rule.node
    status, args, trace = _status(st, L, use, seen)
    applies = status != "not applicable"
    params = tuple((p.name, _param_type(prog, p), v) for p, v in zip(rule.params, args))
    values, witnesses, reading, raw = _looked_at(st, trace, _sources(prog, rule.name, (rule.when, rule.require)),
                                                 [(name, render_move_value(prog, typ, v, st.n)) for name, typ, v in params])
    deciding = rule.require if applies else rule.when
    text = lambda node: prog.source_text(node.span)  # noqa: E731
    expansions = _expansions(st, (rule.when, rule.require), raw, reading, expand, 0)
    plain = plain_verdict(st, deciding, reading, raw) if applies else ""
    return RuleResult(rule.name, rule.doc, rule.span, status, values, verdict(deciding, reading, text),
                      deciding.span, witnesses, expansions, plain)


def _sources(prog, key, roots):
    """(nodes inside quantifiers, source text by node id) of a rule's or definition's
    expressions, worked out once per program."""
    found = prog.explain_cache.get(key)
    if found is None:
        found = prog.explain_cache[key] = (_inside_quantifiers(*roots), {})
    return found


def _looked_at(st, trace, sources, values):
    """(values, witnesses, reading, raw values by node id) of one traced evaluation."""
    prog = st.prog
    per_item, texts = sources
    reading = read_trace(trace, per_item, lambda typ, v: render_value(prog, typ, v, st.n))
    shown = {name for name, _ in values}
    witnesses, raw = [], {}
    for node, typ, value in trace:
        if id(node) in per_item:
            continue
        raw[id(node)] = value
        source = texts.get(id(node))
        if source is None:
            source = texts[id(node)] = prog.source_text(node.span)
        if source in shown or not source:
            continue
        shown.add(source)
        if type(node) is Name and reading.values[id(node)] == source:
            continue  # a symbol, which reads as itself (`countess = countess` says nothing)
        values.append((source, reading.values[id(node)]))
        if id(node) in reading.witnesses:
            witnesses.append((source, reading.witnesses[id(node)]))
    return tuple(values), tuple(witnesses), reading, raw


def _expansions(st, nodes, raw, reading, expand, depth) -> tuple:
    """An Expansion for each evaluated call, in `nodes`, of a definition named in `expand`."""
    if not expand or depth >= MAX_EXPANSION_DEPTH:
        return ()
    prog = st.prog
    defines = prog.tables.defines
    out = []
    for node in nodes:
        if node is None:
            continue
        for call in calls_in(node, defines):
            if call.func not in expand or id(call) not in raw:
                continue
            define = defines[call.func]
            fn, size, trace = prog.compiler.traced_define(call.func)
            frame = [None] * size
            args = []
            for param, arg in zip(define.params or (), call.args):
                frame[prog.tables.slots[id(param)]] = raw.get(id(arg))
                args.append((param.name, reading.values.get(id(arg), prog.source_text(arg.span))))
            fn(st, frame)
            values, witnesses, inner, inner_raw = _looked_at(
                st, trace, _sources(prog, ("define", call.func), (define.body,)), list(args))
            text = lambda node: prog.source_text(node.span)  # noqa: E731
            out.append(Expansion(call.func, prog.source_text(call.span), tuple(args), define.span,
                                 reading.values.get(id(call), "?"), verdict(define.body, inner, text), values,
                                 witnesses, _expansions(st, (define.body,), inner_raw, inner, expand, depth + 1)))
    return tuple(out)


def _inside_quantifiers(*roots) -> set[int]:
    """Nodes evaluated once per item of a quantifier or comprehension: their last value would
    only describe the last item looked at, so explanations show the quantifier's result instead."""
    inside, stack = set(), [(root, False) for root in roots]
    while stack:
        node, within = stack.pop()
        if node is None or not attrs.has(type(node)):
            continue
        if within:
            inside.add(id(node))
        per_item = {"cond", "key", "expr"} if isinstance(node, (Quant, Best, Comprehension, Pattern)) else set()
        for field in attrs.fields(type(node)):
            value = getattr(node, field.name)
            for child in (value if isinstance(value, tuple) else (value,)):
                if attrs.has(type(child)) and not isinstance(child, Span):
                    stack.append((child, within or field.name in per_item))
    return inside


def _param_type(prog, param):
    ref = param.type
    return "list:" * (ref.depth if ref.is_list else 0) + ref.name


def _not_an_option(st, decision, text, candidates) -> str:
    names = [a.name for a in decision.alts]
    word = text.split()[0] if text.split() else ""
    if word not in names:
        if word[:1] in "[(" and word:  # a value, not a name: `[5H, 5C]`
            return f"`{text}` names no option: a move begins with its option's name, one of " \
                   f"{', '.join(dict.fromkeys(names))}"
        return f"`{word}` is not an option here; the options are: {', '.join(dict.fromkeys(names))}"
    same = [c for c in candidates if c.split()[0] == word]
    if not same:
        return f"`{word}` has no possible values right now"
    refused = next((why for spec in decision.alts if spec.name == word
                    for why in [why_not_offered(st, spec, text.split()[1:])] if why), None)
    if refused is not None:
        return f"`{text}` is not one of the choices: {refused}"
    shown = ", ".join(same[:12]) + (", ..." if len(same) > 12 else "")
    return f"`{text}` is not one of the choices; the `{word}` moves here, legal or not: {shown}"
