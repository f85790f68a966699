"""The flow of a checked script, shared by the graph and the rulebook: what each phase,
procedure, event, reaction and handler can do next, and under which conditions.

The conditions are the script's own text (its expressions as written, whitespace collapsed), so
neither output can say something the script does not say.
"""

from __future__ import annotations

import attrs

from cardgame.interpreter.language import nodes as n
from cardgame.interpreter.language.loader import check_file
from cardgame.interpreter.language.source import ScriptError, Span


@attrs.frozen
class Step:
    """Something a body can do: go to a phase, end the game, call a procedure, signal an event
    or ask for a decision.

    Attributes:
        kind: "next", "end", "call", "signal" or "decide".
        target: the phase, procedure or event named ("" for end and decide).
        conditions: the conditions on the way there, outermost first, as text.
        node: the statement.
    """

    kind: str
    target: str
    conditions: tuple
    node: object


@attrs.frozen
class Script:
    """A checked script with its source texts, for the authoring tools."""

    tables: object
    items: tuple
    sources: dict

    def text(self, node_or_span) -> str:
        """The source text of a node or span, on one line."""
        span = node_or_span if isinstance(node_or_span, Span) else node_or_span.span
        lines = self.sources[span.path].text.splitlines()
        if span.line == span.end_line:
            text = lines[span.line - 1][span.column - 1:span.end_column - 1]
        else:
            parts = [lines[span.line - 1][span.column - 1:]] + lines[span.line:span.end_line - 1] \
                + [lines[span.end_line - 1][:span.end_column - 1]]
            text = " ".join(parts)
        return " ".join(text.split())


def load_script(path: str, text: str | None = None) -> Script:
    """Check `path` (or `text`, named so); raises ScriptError (every diagnostic) when it has errors."""
    tables, items, sources, diags = check_file(path, text)
    if tables is None or any(d.severity == "error" for d in diags):
        raise ScriptError([d for d in diags if d.severity == "error"], sources)
    return Script(tables, tuple(items), sources)


def bodies(script: Script):
    """(kind, name, declaration) of everything with a body, in declaration order."""
    for item in script.items:
        if isinstance(item, n.PhaseDecl):
            yield "phase", item.name, item
        elif isinstance(item, n.ProcDecl):
            yield "procedure", item.name, item
        elif isinstance(item, n.EventDecl):
            yield "event", item.name, item
        elif isinstance(item, n.ReactionDecl):
            yield "reaction", item.name, item
        elif isinstance(item, n.HandlerDecl):
            yield "handler", item.event, item


def statements_of(decl) -> tuple:
    if isinstance(decl, n.ReactionDecl):
        return (n.Decide(decl.span, None, (), decl.alternatives),)
    return decl.body


def steps(script: Script, stmts, conditions: tuple = ()):
    """Every Step in `stmts`, depth first, with the conditions that lead to it."""
    for s in stmts:
        yield from _steps(script, s, conditions)
        if isinstance(s, n.If) and s.orelse is None and all(_leaves(body) for _, body in s.branches):
            # the statements after it run only when no branch was taken
            conditions = conditions + tuple(f"not ({script.text(c)})" for c, _ in s.branches)


def _steps(script: Script, s, conditions: tuple):
    match s:
        case n.Next():
            yield Step("next", s.phase, conditions, s)
        case n.EndGame():
            yield Step("end", "", conditions, s)
        case n.CallStmt() if s.name in script.tables.procs:
            yield Step("call", s.name, conditions, s)
        case n.Signal():
            yield Step("signal", s.event, conditions, s)
        case n.Decide():
            yield Step("decide", "", conditions, s)
            for alt in s.alternatives:
                yield from steps(script, alt.body, conditions + (f"choice {alt.name}",))
        case n.Simultaneous():
            yield Step("decide", "", conditions, s)
            for alt in s.decide.alternatives:
                yield from steps(script, alt.body, conditions + (f"choice {alt.name}",))
        case n.If():
            earlier = []
            for cond, body in s.branches:
                text = script.text(cond)
                yield from steps(script, body, conditions + tuple(f"not ({e})" for e in earlier) + (text,))
                earlier.append(text)
            if s.orelse is not None:
                yield from steps(script, s.orelse, conditions + tuple(f"not ({e})" for e in earlier))
        case n.For():
            yield from steps(script, s.body, conditions + (f"for {s.var} in {script.text(s.source)}",))
        case n.While():
            yield from steps(script, s.body, conditions + (f"while {script.text(s.cond)}",))
        case n.RepeatTimes():
            yield from steps(script, s.body, conditions + (f"repeat {script.text(s.count)} times",))
        case n.RepeatUntil():
            yield from steps(script, s.body, conditions + (f"until {script.text(s.cond)}",))
        case n.Loop():
            yield from steps(script, s.body, conditions + ("loop",))


def _leaves(body) -> bool:
    """Does this body always leave by `next` or `end game` at its end?"""
    return bool(body) and isinstance(body[-1], (n.Next, n.EndGame))


def decision_label(script: Script, d, actor: str | None = None) -> str:
    """`P decides "prompt": a | b(c from hand[p])` in the script's words (d: a Decide or a
    Simultaneous)."""
    if isinstance(d, n.Simultaneous):
        actor, d = f"each {d.var} in {script.text(d.source)}, at the same time,", d.decide
    who = actor if actor is not None else ("the table" if d.actor is None else script.text(d.actor))
    prompt = "".join(p if isinstance(p, str) else "{" + script.text(p) + "}" for p in d.prompt)
    alts = " | ".join(alternative_label(script, a) for a in d.alternatives)
    return f"{who} decides" + (f' "{prompt}"' if prompt else "") + f": {alts}"


def alternative_label(script: Script, alt: n.Alternative) -> str:
    binders = ", ".join(script.text(b) for b in alt.binders)
    rules = ", ".join(call.name for call in alt.requires)
    return alt.name + (f"({binders})" if binders else "") + (f" requires {rules}" if rules else "")
