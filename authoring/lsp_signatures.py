"""Signature help for the language server: inside the brackets of a call, the callee's
parameters with the one being written marked: a script's definitions, rules, procedures,
events (`signal e(...)`) and records (`meld(cards: ..., points: ...)`), and the built-ins
(their forms as docs/language.md §11 writes them, `top(Z), top(Z, n)` as two signatures).
"""

from __future__ import annotations

import re

from lsprotocol import types as lsp

from cardgame.interpreter.language import nodes as n

from .analysis import BUILTIN_DOCS, Analysis

# What the text before the cursor is read as: texts and comments are skipped whole (a text's
# `{...}` holds expressions, but a call there is short), names, brackets and commas counted.
_LEXEME = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*|[A-Za-z_][A-Za-z0-9_]*|[()\[\]{},]|\s+|.')


def _spelled(t: n.TypeRef) -> str:
    return "list of " * (t.depth if t.is_list else 0) + t.name


def call_at(text: str, offset: int) -> tuple[str, int] | None:
    """(callee, index of the argument being written) of the innermost call open at `offset`."""
    stack: list[list] = []  # [bracket, callee or None, commas]
    last = None
    for m in _LEXEME.finditer(text, 0, offset):
        lexeme = m.group()
        if lexeme in "([{" and lexeme:
            stack.append([lexeme, last if lexeme == "(" else None, 0])
        elif lexeme in ")]}" and lexeme:
            if stack:
                stack.pop()
        elif lexeme == ",":
            if stack:
                stack[-1][2] += 1
        if lexeme.strip() and not lexeme.startswith("#"):
            last = lexeme if lexeme[0].isalpha() or lexeme[0] == "_" else None
    for bracket, callee, commas in reversed(stack):
        if bracket == "(" and callee is not None:
            return callee, commas
        if bracket == "(":
            return None
    return None


def signatures(analysis: Analysis, name: str) -> list[tuple[str, list[str], str]]:
    """(label, parameter labels, documentation) of each form of `name`."""
    decl = analysis.declarations.get(name)
    if decl is not None:
        node = decl.node
        if isinstance(node, n.RecordDecl):
            params = [f"{f.name}: {_spelled(f.type)}" for f in node.fields]
            return [(f"{name}({', '.join(params)})", params, f"record `{name}`")]
        if isinstance(node, (n.DefineDecl, n.RuleDecl, n.ProcDecl, n.EventDecl)) and node.params:
            params = [f"{p.name}: {_spelled(p.type)}" for p in node.params]
            return [(f"{name}({', '.join(params)})", params, f"{decl.kind} `{name}`" +
                     (f": {node.doc}" if getattr(node, "doc", "") else ""))]
        return []
    if name in BUILTIN_DOCS:
        forms, doc = BUILTIN_DOCS[name]
        out = []
        for form in re.findall(r"[a-z_]+\([^)]*\)", forms):
            params = [p.strip() for p in form[form.index("(") + 1:-1].split(",") if p.strip() and p.strip() != "..."]
            out.append((form, params, f"built-in: {doc}"))
        return out
    return []


def help_at(analysis: Analysis, line: int, column: int, readable: Analysis | None = None) -> tuple | None:
    """(signatures, the one that fits the arguments written, active parameter) at this place
    (1-based).  A call half written seldom parses: the declarations are then those of
    `readable`, the document's last version that did."""
    lines = analysis.text.split("\n")
    offset = sum(len(x) + 1 for x in lines[:line - 1]) + column - 1
    found = call_at(analysis.text, offset)
    if found is None:
        return None
    name, index = found
    forms = signatures(readable if readable is not None and analysis.tables is None else analysis, name)
    if not forms:
        return None
    active = next((i for i, (_l, params, _d) in enumerate(forms) if index < len(params)), len(forms) - 1)
    return forms, active, index


def register(server) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_SIGNATURE_HELP,
                    lsp.SignatureHelpOptions(trigger_characters=["(", ","], retrigger_characters=[","]))
    def signature_help(ls, params: lsp.SignatureHelpParams):
        pos = params.position
        uri = params.text_document.uri
        found = help_at(ls.analysis(uri), pos.line + 1, pos.character + 1, ls.readable.get(uri))
        if found is None:
            return None
        forms, active, index = found
        return lsp.SignatureHelp(
            [lsp.SignatureInformation(label, documentation=doc,
                                      parameters=[lsp.ParameterInformation(p) for p in params_],
                                      active_parameter=min(index, max(len(params_) - 1, 0)))
             for label, params_, doc in forms],
            active_signature=active, active_parameter=index)
