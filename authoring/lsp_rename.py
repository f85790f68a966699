"""Rename for the language server: a declared name (option, zone, variable, definition, rule,
procedure, phase, event, deck, record, attribute table) everywhere the open script and the files
it includes name it (the `{...}` of texts included), or a local name in its declaration.

What cannot be renamed is refused with a sentence saying why: a keyword, a built-in, a symbol or
card (named by their deck's values), a card attribute or record field, a name a variant replaces,
and a new name that is not a name, is a reserved word or built-in, or is already used.
"""

from __future__ import annotations

import logging
import re

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.uris import from_fs_path

from cardgame.interpreter.language.builtins import BUILTINS, CONSTANTS
from cardgame.interpreter.language.check_declarations import STRICTLY_RESERVED
from cardgame.interpreter.language.source import Span

from .analysis import BUILTIN_DOCS, KEYWORDS, Analysis, Declaration

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
REQUEST_FAILED = -32803  # LSP's RequestFailed: the request was understood and refused
# The types a parameter or variable declares.
TYPE_WORDS = ("int", "bool", "text", "card", "player", "team", "zone", "symbol", "list", "of")


class Refused(JsonRpcException):
    """A rename the server will not do, with why: the editor shows the message."""

    CODE = REQUEST_FAILED


def target(analysis: Analysis, line: int, column: int) -> Declaration:
    """The declaration a rename at this place would rename (1-based), or Refused saying why not."""
    if analysis.tables is None:
        raise Refused("the script has errors that stop it being read: fix them before renaming")
    found = analysis.name_at(line, column)
    if found is None:
        tok = analysis.token_at(line, column)
        if tok is not None and tok.text.isidentifier():
            raise Refused(f"`{tok.text}` is a keyword of the language: it cannot be renamed")
        raise Refused("there is no name here to rename")
    tok, what = found
    decl = analysis.definition(line, column)
    if decl is None:
        if tok.text in BUILTIN_DOCS or tok.text in BUILTINS:
            raise Refused(f"`{tok.text}` is a built-in: it cannot be renamed")
        if tok.text in analysis.tables.symbols:
            raise Refused(f"`{tok.text}` is a symbol, one of the values a deck or a `one of` option lists: "
                          "change it where it is listed")
        raise Refused(f"`{tok.text}` is not declared in this game: there is nothing to rename")
    if decl.kind in ("card", "card attribute", "attribute"):
        raise Refused(f"`{decl.name}` is named by its deck (cards are named by their attributes' values): "
                      "change the deck's declaration")
    if decl.kind == "field":
        raise Refused(f"`{decl.name}` is a record field: renaming fields is not supported, change it by hand")
    if decl.kind != "local" and any(r.original.name == decl.name for r in analysis.tables.replacements.values()):
        raise Refused(f"`{decl.name}` is replaced by a variant (`replace`): rename it in the included file and "
                      "in the variant by hand")
    return decl


def edits(analysis: Analysis, line: int, column: int, new_name: str) -> dict[str, list[Span]]:
    """path -> the spans to write `new_name` over, or Refused saying why not."""
    decl = target(analysis, line, column)
    if not NAME.match(new_name):
        raise Refused(f"`{new_name}` is not a name: a name is letters, digits and `_`, not starting with a digit")
    if new_name in KEYWORDS or new_name in STRICTLY_RESERVED or new_name in TYPE_WORDS:
        raise Refused(f"`{new_name}` is a word of the language: choose another name")
    if new_name in BUILTINS or new_name in CONSTANTS:
        raise Refused(f"`{new_name}` is a built-in: choose another name")
    tables = analysis.tables
    if new_name in analysis.declarations or new_name in tables.symbols or any(c.name == new_name for c in tables.cards):
        raise Refused(f"`{new_name}` already names something in this game: choose another name")
    if new_name == decl.name:
        return {}
    spans = analysis.references(decl)
    if decl.kind == "local":
        owner = next((i.span for i in analysis.items if _inside(decl.name_span, i.span)), None)
        clash = [t for t, _ in analysis.names if t.text == new_name and owner is not None
                 and _inside(Span(analysis.path, t.line, t.column, t.end_line, t.end_column), owner)]
    else:
        clash = [t for path, names in [(analysis.path, analysis.names), *analysis.included_names().items()]
                 for t, _ in names if t.text == new_name]
    if clash:
        raise Refused(f"`{new_name}` is already a name used here (line {clash[0].line}): choose another name")
    out: dict[str, list[Span]] = {}
    for span in [decl.name_span, *spans]:
        if span not in out.setdefault(span.path, []):
            out[span.path].append(span)
    return out


def _not_a_refusal(record: logging.LogRecord) -> bool:
    """pygls logs every error a handler raises, traceback and all: a refused rename is an
    answer, not a fault, and is left out of the server's log."""
    return not (record.exc_info and isinstance(record.exc_info[1], Refused))


def _inside(span: Span, outer: Span) -> bool:
    return span.path == outer.path and (outer.line, outer.column) <= (span.line, span.column) \
        and (span.end_line, span.end_column) <= (outer.end_line, outer.end_column)


def _range(span: Span) -> lsp.Range:
    return lsp.Range(lsp.Position(span.line - 1, span.column - 1), lsp.Position(span.end_line - 1, span.end_column - 1))


def register(server) -> None:
    protocol_log = logging.getLogger("pygls.protocol.json_rpc")
    if _not_a_refusal not in protocol_log.filters:
        protocol_log.addFilter(_not_a_refusal)

    @server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
    def prepare_rename(ls, params: lsp.PrepareRenameParams):
        pos = params.position
        analysis = ls.analysis(params.text_document.uri)
        decl = target(analysis, pos.line + 1, pos.character + 1)
        tok, _what = analysis.name_at(pos.line + 1, pos.character + 1)
        span = Span(analysis.path, tok.line, tok.column, tok.end_line, tok.end_column)
        return lsp.PrepareRenamePlaceholder(_range(span), decl.name)

    @server.feature(lsp.TEXT_DOCUMENT_RENAME, lsp.RenameOptions(prepare_provider=True))
    def rename(ls, params: lsp.RenameParams):
        pos = params.position
        analysis = ls.analysis(params.text_document.uri)
        found = edits(analysis, pos.line + 1, pos.character + 1, params.new_name)
        return lsp.WorkspaceEdit(changes={
            (params.text_document.uri if path == analysis.path else from_fs_path(path)):
                [lsp.TextEdit(_range(s), params.new_name) for s in sorted(spans, key=lambda s: (s.line, s.column))]
            for path, spans in found.items()})
