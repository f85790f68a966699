"""Semantic tokens for the language server: what each word of the script is, as the checker
resolved it, so an editor colours a zone, a variable, a definition, a card, a symbol, an
option and a local name apart however they are spelled (a TextMate grammar sees only words).

The legend's types are LSP's standard ones, and three of this language's own (`zone`, `card`,
`option`), which editors/vscode/package.json declares with a standard type they fall back to.
"""

from __future__ import annotations

import re

import attrs
from lsprotocol import types as lsp

from cardgame.interpreter.language import nodes as n
from cardgame.interpreter.language.builtins import BUILTINS, CONSTANTS
from cardgame.interpreter.language.concrete import tokens

from .analysis import KEYWORDS, ZONE_WORDS, Analysis

TOKEN_TYPES = ["keyword", "comment", "string", "number", "function", "method", "variable", "parameter",
               "property", "enumMember", "class", "event", "struct", "type", "zone", "card", "option"]
TOKEN_MODIFIERS = ["declaration", "defaultLibrary"]
LEGEND = lsp.SemanticTokensLegend(TOKEN_TYPES, TOKEN_MODIFIERS)

# A declared name's kind -> its token type.
KIND_TYPE = {"option": "option", "zone": "zone", "variable": "variable", "definition": "function",
             "rule": "function", "procedure": "method", "phase": "class", "event": "event", "deck": "struct",
             "record": "struct", "attribute": "property", "local": "parameter"}
TYPE_NAMES = frozenset(("int", "bool", "text", "card", "player", "team", "zone", "symbol"))
_COMMENT = re.compile(r"#[^\n]*")
# A script that cannot be read still gets its comments, texts, numbers and keywords.
_LEXEME = re.compile(r'(?P<comment>#[^\n]*)|(?P<string>"(?:[^"\\\n]|\\.)*"?)|(?P<number>\b[0-9]+\b)|(?P<word>[A-Za-z_]\w*)')


def classify(analysis: Analysis) -> list[tuple[int, int, int, str, tuple]]:
    """(line, column, end column, type, modifiers) of every token worth colouring (1-based,
    one line each, in order, none overlapping)."""
    if analysis.tree is None:
        return _lexical(analysis.text)
    out = []
    names = {(t.line, t.column): (t, what) for t, what in analysis.names}
    cards = _card_literals(analysis)
    declared = {(d.name_span.line, d.name_span.column) for d in analysis.declarations.values()
                if d.name_span.path == analysis.path}
    declared |= {(d.name_span.line, d.name_span.column) for d, _uses in analysis.locals.values()}
    symbols = analysis.tables.symbols if analysis.tables is not None else set()
    end = 0
    text = analysis.text
    for tok in tokens(analysis.tree):
        for m in _COMMENT.finditer(text, end, tok.start):
            out.append(_span_of(text, m.start(), m.end(), "comment"))
        end = tok.end
        where = (tok.line, tok.column)
        if tok.type == "STRING":  # cut around the names of its `{...}`, each coloured as what it is
            inside = [(t, w) for (line, _c), (t, w) in names.items()
                      if line == tok.line and tok.column < t.column < tok.end_column]
            out += _string(tok, [t for t, _w in inside])
            out += [(t.line, t.column, t.end_column, *kind) for t, w in inside
                    if (kind := _name_kind(analysis, t, w, declared, cards, symbols)) is not None]
            out.sort(key=lambda x: (x[0], x[1]))
            continue
        if tok.type == "INT":
            out.append((tok.line, tok.column, tok.end_column, "number", ()))
            continue
        if tok.type == "CARD_NAME":
            out.append((tok.line, tok.column, tok.end_column, "card", ()))
            continue
        if tok.type != "NAME":
            if re.fullmatch(r"[a-z][a-z_ -]*", tok.text) and tok.end_line == tok.line:
                out.append((tok.line, tok.column, tok.end_column, "keyword", ()))
            continue
        found = names.get(where)
        kind = _name_kind(analysis, tok, found[1] if found is not None else "other", declared, cards, symbols)
        if kind is not None:
            out.append((tok.line, tok.column, tok.end_column, *kind))
    for m in _COMMENT.finditer(text, end):
        out.append(_span_of(text, m.start(), m.end(), "comment"))
    return out


def _name_kind(analysis: Analysis, tok, what: str, declared: set, cards: set, symbols) -> tuple | None:
    """(type, modifiers) of a name, as the analysis read it."""
    where = (tok.line, tok.column)
    mods = ("declaration",) if where in declared else ()
    if what == "global":
        kind = KIND_TYPE.get(analysis.declarations[tok.text].kind)
    elif what == "local":
        kind = "parameter"
    elif what in ("attribute", "field"):
        kind = "property"
    elif where in cards:
        kind = "card"
    elif tok.text in symbols:
        kind = "enumMember"
    elif tok.text in BUILTINS or tok.text in CONSTANTS:
        kind, mods = "function", ("defaultLibrary",)
    elif tok.text in TYPE_NAMES:
        kind = "type"
    elif tok.text in ZONE_WORDS or tok.text in KEYWORDS:
        kind = "keyword"
    else:
        return None
    return kind, mods


def _span_of(text: str, start: int, end: int, kind: str):
    line = text.count("\n", 0, start) + 1
    column = start - (text.rfind("\n", 0, start) + 1) + 1
    return line, column, column + (end - start), kind, ()


def _string(tok, inside) -> list:
    """A text's token cut around the names of its `{...}`, each coloured as what it is (by the caller)."""
    out, column = [], tok.column
    for name in sorted(inside, key=lambda t: t.column):
        if name.column > column:
            out.append((tok.line, column, name.column, "string", ()))
        column = name.end_column
    out.append((tok.line, column, tok.end_column, "string", ()))
    return [t for t in out if t[2] > t[1]]


def _card_literals(analysis: Analysis) -> set:
    """(line, column) of each name the checker read as a card (`AS`, `QH`)."""
    if analysis.tables is None:
        return set()
    out, resolved = set(), analysis.tables.resolved
    stack = [i for i in analysis.items if i.span.path == analysis.path]
    while stack:
        node = stack.pop()
        if isinstance(node, (n.Name, n.Call)) and resolved.get(id(node), ("",))[0] == "card":
            out.add((node.span.line, node.span.column))
        for field in attrs.fields(type(node)):
            value = getattr(node, field.name)
            values = list(value) if isinstance(value, tuple) else [value]
            while values:
                v = values.pop()
                if isinstance(v, tuple):
                    values.extend(v)
                elif attrs.has(type(v)) and type(v).__name__ != "Span":
                    stack.append(v)
    return out


def _lexical(text: str) -> list:
    out = []
    for m in _LEXEME.finditer(text):
        kind = m.lastgroup
        if kind == "word":
            if m.group() not in KEYWORDS:
                continue
            kind = "keyword"
        out.append(_span_of(text, m.start(), m.end(), kind))
    return out


def encode(analysis: Analysis, found: list) -> list[int]:
    """LSP's relative encoding: five integers a token, columns in UTF-16 code units."""
    lines = analysis.text.split("\n")
    data, prev_line, prev_start = [], 0, 0
    for line, column, end, kind, mods in found:
        text = lines[line - 1] if line - 1 < len(lines) else ""
        start = _utf16(text[:column - 1])
        length = _utf16(text[column - 1:end - 1])
        row = line - 1
        data += [row - prev_line, start - prev_start if row == prev_line else start, length,
                 TOKEN_TYPES.index(kind), sum(1 << TOKEN_MODIFIERS.index(m) for m in mods)]
        prev_line, prev_start = row, start
    return data


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def register(server) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)
    def semantic_tokens(ls, params: lsp.SemanticTokensParams):
        analysis = ls.analysis(params.text_document.uri)
        return lsp.SemanticTokens(data=encode(analysis, classify(analysis)))
