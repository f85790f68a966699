"""`cardgame graph`: the state machine of a script drawn as a graph.

Nodes: the start, every phase (boxes), procedure (rounded), event (hexagons), reaction and
handler (ellipses), every decision (notes, with who decides, the prompt and the alternatives),
and the end.  Edges: `next` (solid), `end game` (to the end), calls (dashed), signals (dotted),
an event to its reactions and handlers, and a body to its decisions; each labelled with the
conditions on the way, in the script's own words (authoring/flow.py).
"""

from __future__ import annotations

import json
import shutil
import subprocess

from .flow import Script, bodies, decision_label, load_script, statements_of, steps

SHAPES = {"phase": "box", "procedure": "box", "event": "hexagon", "reaction": "ellipse", "handler": "ellipse"}


class GraphvizMissing(Exception):
    """`dot` is not on PATH, so no SVG can be drawn."""


def graph(path: str, fmt: str = "dot", text: str | None = None) -> str:
    """The state machine of the script at `path` (or of `text`, named `path`) drawn in `fmt`."""
    script = load_script(path, text)
    nodes, edges = machine(script)
    if fmt == "mermaid":
        return mermaid(script, nodes, edges)
    if fmt == "json":
        return as_json(script, nodes, edges)
    text = dot(script, nodes, edges)
    if fmt == "svg":
        return render(text, "svg").decode("utf-8")
    return text


def machine(script: Script):
    """(nodes, edges): nodes as (id, kind, label); edges as (from, to, style, label)."""
    nodes = [("start", "start", "start")]
    edges = []
    phases = list(script.tables.phases)
    if phases:
        edges.append(("start", f"phase_{phases[0]}", "next", ""))
    ended = False
    for kind, name, decl in bodies(script):
        me = _node_id(kind, name, decl)
        label = {"phase": f"phase {name}", "procedure": f"procedure {name}", "event": f"event {name}",
                 "handler": f"on {name}"}.get(kind)
        if kind == "reaction":
            label = f"reaction {decl.name}\nby {decl.var} in {script.text(decl.by)}"
            edges.append((f"event_{decl.event}", me, "reaction", ""))
        elif kind == "handler":
            edges.append((f"event_{decl.event}", me, "reaction", ""))
        nodes.append((me, kind, label))
        for k, step in enumerate(steps(script, statements_of(decl))):
            cond = "\n".join(step.conditions)
            if step.kind == "decide":
                d = step.node
                actor = decl.var if kind == "reaction" else None
                did = f"{me}_decide_{d.span.line}_{d.span.column}"
                nodes.append((did, "decide", decision_label(script, d, actor)))
                edges.append((me, did, "decide", cond))
            elif step.kind == "next":
                edges.append((me, f"phase_{step.target}", "next", cond))
            elif step.kind == "end":
                edges.append((me, "end", "end", cond))
                ended = True
            elif step.kind == "call":
                edges.append((me, f"procedure_{step.target}", "call", cond))
            elif step.kind == "signal":
                edges.append((me, f"event_{step.target}", "signal", cond))
    if ended:
        nodes.append(("end", "end", "end of the game"))
    return nodes, _unique(edges)


def _node_id(kind: str, name: str, decl) -> str:
    if kind in ("reaction", "handler"):
        return f"{kind}_{name}_{decl.span.line}"
    return f"{kind}_{name}"


def _unique(edges):
    seen, out = set(), []
    for edge in edges:
        if edge not in seen:
            seen.add(edge)
            out.append(edge)
    return out


_DOT_NODE = {
    "start": 'shape=circle, style=filled, fillcolor=black, fontcolor=white, label="start"',
    "end": "shape=doublecircle",
    "phase": "shape=box, style=bold",
    "procedure": "shape=box, style=rounded",
    "event": "shape=hexagon",
    "reaction": "shape=ellipse",
    "handler": "shape=ellipse",
    "decide": "shape=note, fontsize=10",
}
_DOT_EDGE = {"next": "", "end": "", "call": "style=dashed", "signal": "style=dotted",
             "reaction": "style=dotted, arrowhead=none", "decide": "color=gray40, fontcolor=gray40"}


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def dot(script: Script, nodes, edges) -> str:
    title = script.tables.title or "game"
    out = [f"digraph {_q(title)} {{", f"    label={_q(title)};", "    labelloc=t;", "    rankdir=TB;",
           '    node [fontname="Helvetica"];', '    edge [fontname="Helvetica", fontsize=9];']
    for ident, kind, label in nodes:
        attrs_ = _DOT_NODE[kind]
        if kind != "start":
            attrs_ += f", label={_q(label)}"
        out.append(f"    {ident} [{attrs_}];")
    for frm, to, style, label in edges:
        attrs_ = ", ".join(a for a in (_DOT_EDGE[style], f"label={_q(label)}" if label else "") if a)
        out.append(f"    {frm} -> {to}" + (f" [{attrs_}]" if attrs_ else "") + ";")
    out.append("}")
    return "\n".join(out) + "\n"


_MERMAID_NODE = {"start": ("((", "))"), "end": ("(((", ")))"), "phase": ("[", "]"), "procedure": ("(", ")"),
                 "event": ("{{", "}}"), "reaction": ("([", "])"), "handler": ("([", "])"), "decide": ("[/", "/]")}
_MERMAID_EDGE = {"next": "-->", "end": "-->", "call": "-.->", "signal": "-.->", "reaction": "-.-",
                 "decide": "-->"}


# Mermaid reads a node named `end` as the keyword that closes a subgraph; every other node's id
# starts with its kind (`phase_`, `event_`, ...), which no keyword does.
_MERMAID_IDS = {"start": "game_start", "end": "game_end"}
# Characters a quoted Mermaid label must not hold as they are: `#` starts an entity code, `"` ends
# the label, `|` an edge's label, backquotes make it Markdown, `<` and `>` could be read as HTML.
_MERMAID_ESCAPES = str.maketrans({"#": "#35;", '"': "#quot;", "|": "#124;", "`": "#96;", "<": "#lt;", ">": "#gt;"})


def _m(text: str) -> str:
    return '"' + text.translate(_MERMAID_ESCAPES).replace("\n", "<br/>") + '"'


def mermaid(script: Script, nodes, edges) -> str:
    """A Mermaid flowchart: ids that are no keyword, every label quoted and escaped."""
    def ident(name: str) -> str:
        return _MERMAID_IDS.get(name, name)

    out = ["flowchart TD"]
    for name, kind, label in nodes:
        left, right = _MERMAID_NODE[kind]
        out.append(f"    {ident(name)}{left}{_m(label)}{right}")
    for frm, to, style, label in edges:
        arrow = _MERMAID_EDGE[style]
        out.append(f"    {ident(frm)} {arrow}" + (f"|{_m(label)}|" if label else "") + f" {ident(to)}")
    return "\n".join(out) + "\n"


def as_json(script: Script, nodes, edges) -> str:
    """The graph as data, for tools: {title, nodes: [{id, kind, label}], edges: [{from, to, kind,
    label}]}, an edge's kind being next, end, call, signal, reaction or decide."""
    return json.dumps({"title": script.tables.title,
                       "nodes": [{"id": i, "kind": kind, "label": label} for i, kind, label in nodes],
                       "edges": [{"from": frm, "to": to, "kind": style, "label": label}
                                 for frm, to, style, label in edges]}, indent=2) + "\n"


def render(dot_text: str, fmt: str) -> bytes:
    """Run Graphviz's `dot` on the text; raises GraphvizMissing when it is not installed."""
    exe = shutil.which("dot")
    if exe is None:
        raise GraphvizMissing("Graphviz `dot` is not installed")
    done = subprocess.run([exe, f"-T{fmt}"], input=dot_text.encode("utf-8"), capture_output=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"dot failed: {done.stderr.decode('utf-8', 'replace')}")
    return done.stdout

