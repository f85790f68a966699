"""Moves at the API: applying one, and explaining why a move is or is not legal (the
enumeration itself is in enumeration.py, one layer down, where compiled code can reach it)."""

from __future__ import annotations

import attrs

from .enumeration import enumerate_moves, legal_moves
from .program import Move, render_move_value, render_value
from .runtime import run
from .nodes import Best, Comprehension, Quant
from .source import Span

__all__ = ["Explanation", "Move", "RuleResult", "apply_move", "enumerate_moves", "explain", "legal_moves"]


@attrs.frozen
class RuleResult:
    """How one named rule judged a move.

    Attributes:
        status: "pass", "fail" or "not applicable" (its `when` was false).
        values: (expression text, value text) pairs the rule looked at, in evaluation order.
    """

    name: str
    doc: str
    span: Span
    status: str
    values: tuple


@attrs.frozen
class Explanation:
    move: str
    legal: bool
    reason: str
    rules: tuple  # RuleResult

    @property
    def failing(self) -> list[RuleResult]:
        return [r for r in self.rules if r.status == "fail"]


def apply_move(st, move: Move) -> None:
    """Apply a move already known to be legal."""
    decision = st.waiting
    fr = st.stack[-1]
    L = fr[2]
    spec = decision.alts[move.alt]
    actor = st.actor
    st.history.append(move.text)
    st.decisions += 1
    st.game_work += st.legal_work  # listing this decision's moves (enumeration.legal_moves)
    st.waiting = None
    st.legal_cache = None
    st.actor = None
    if st.tracer is not None:
        st.emit("decision", actor=actor, move=move.text, span=decision.span, hidden=decision.kind == "deferred",
                move_obj=move, decision=decision)
    if decision.kind == "deferred":
        var, pos, collected, ask = decision.frame_slots
        L[collected] = L[collected] + ((L[var], move.alt, move.values),)
        L[pos] += 1
        fr[1] = ask.pc
    else:
        bindings = spec.bindings
        if len(bindings) == 1:
            L[bindings[0].slot] = move.values[0]
        else:
            for b, v in zip(bindings, move.values):
                L[b.slot] = v
        fr[1] = spec.body_pc
    run(st)


def explain(st, text: str) -> Explanation:
    """Re-evaluate every rule behind `text` with tracing on: the slow path, never used in play."""
    decision = st.waiting
    if decision is None:
        return Explanation(text, False, "the game is over" if st.over else "no decision is pending", ())
    # A legal move already listed is a candidate: no need to list every candidate to find it.
    move = next((m for m in st.legal_cache or () if m.text == text), None)
    candidates = None
    if move is None:
        candidates = {m.text: m for m in enumerate_moves(st, legal_only=False)}
        move = candidates.get(text)
    if move is None:
        return Explanation(text, False, _not_an_option(st, decision, text, candidates), ())
    spec = decision.alts[move.alt]
    L = st.stack[-1][2]
    slots = [b.slot for b in spec.bindings]
    saved = [L[s] for s in slots]
    results = []
    try:
        for b, v in zip(spec.bindings, move.values):
            L[b.slot] = v
        for use in spec.rules:
            results.append(_judge(st, L, use))
    finally:
        for s, v in zip(slots, saved):
            L[s] = v
    legal = all(r.status != "fail" for r in results)
    if legal:
        reason = "allowed by every rule" if results else "no rule restricts this option"
    else:
        reason = "forbidden by " + ", ".join(f"`{r.name}`" for r in results if r.status == "fail")
    return Explanation(text, legal, reason, tuple(results))


def _judge(st, L, use) -> RuleResult:
    prog = st.prog
    rule = use.rule.node
    when, require, trace = prog.compiler.traced_rule(rule.name)
    args = [a(st, L) for a in use.args]
    args.extend([None] * (use.rule.size - len(args)))
    applies = True if when is None else bool(when(st, args))
    if applies:
        status = "pass" if require(st, args) else "fail"
    else:
        status = "not applicable"
    params = tuple((p.name, _param_type(prog, p), v) for p, v in zip(rule.params, args))
    values = [(name, render_move_value(prog, typ, v)) for name, typ, v in params]
    shown = {name for name, _ in values}
    per_item, sources = _rule_sources(prog, rule)
    for node, typ, value in trace:
        source = sources.get(id(node))
        if source is None:
            source = sources[id(node)] = prog.source_text(node.span)
        if source in shown or not source or id(node) in per_item:
            continue
        shown.add(source)
        values.append((source, render_value(prog, typ, value, st.n)))
    return RuleResult(rule.name, rule.doc, rule.span, status, tuple(values))


def _rule_sources(prog, rule):
    """(nodes inside quantifiers, source text by node id) of a rule, worked out once per program."""
    found = prog.explain_cache.get(rule.name)
    if found is None:
        found = prog.explain_cache[rule.name] = (_inside_quantifiers(rule), {})
    return found


def _inside_quantifiers(rule) -> set[int]:
    """Nodes evaluated once per item of a quantifier or comprehension: their last value would
    only describe the last item looked at, so explanations show the quantifier's result instead."""
    inside, stack = set(), [(rule.when, False), (rule.require, False)]
    while stack:
        node, within = stack.pop()
        if node is None or not attrs.has(type(node)):
            continue
        if within:
            inside.add(id(node))
        per_item = {"cond", "key", "expr"} if isinstance(node, (Quant, Best, Comprehension)) else set()
        for field in attrs.fields(type(node)):
            value = getattr(node, field.name)
            for child in (value if isinstance(value, tuple) else (value,)):
                if attrs.has(type(child)) and not isinstance(child, Span):
                    stack.append((child, within or field.name in per_item))
    return inside


def _param_type(prog, param):
    ref = param.type
    return ("list:" + ref.name) if ref.is_list else ref.name


def _not_an_option(st, decision, text, candidates) -> str:
    names = [a.name for a in decision.alts]
    word = text.split()[0] if text.split() else ""
    if word not in names:
        return f"`{word}` is not an option here; the options are: {', '.join(dict.fromkeys(names))}"
    same = [c for c in candidates if c.split()[0] == word]
    if not same:
        return f"`{word}` has no possible values right now"
    shown = ", ".join(same[:12]) + (", ..." if len(same) > 12 else "")
    return f"`{text}` is not one of the choices; possible: {shown}"
