"""`cardgame lsp`: the language server editors talk to (LSP over standard input and output, on
pygls).  Each open document is re-checked on every change (authoring/analysis.py) and the
server answers from that: diagnostics with codes and hints, hover, go to definition, find
references, completion, document symbols and formatting through `cardgame fmt`.

LSP positions are 0-based lines and UTF-16 columns; scripts are ASCII outside their texts and
comments, so columns are counted in characters.
"""

from __future__ import annotations

from urllib.parse import unquote

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from cardgame.interpreter.language.limits import MAX_SCRIPT_BYTES
from cardgame.interpreter.language.reading import FileRefused, read_text
from cardgame.interpreter.language.source import Span

from .analysis import Analysis
from .fmt import format_source
from .lsp_actions import register as register_actions
from .lsp_rename import register as register_rename
from .lsp_signatures import register as register_signatures
from .lsp_tokens import register as register_tokens

SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}
SYMBOL_KIND = {"option": lsp.SymbolKind.Enum, "zone": lsp.SymbolKind.Array, "variable": lsp.SymbolKind.Variable,
               "definition": lsp.SymbolKind.Function, "rule": lsp.SymbolKind.Boolean,
               "procedure": lsp.SymbolKind.Method, "phase": lsp.SymbolKind.Class, "event": lsp.SymbolKind.Event,
               "deck": lsp.SymbolKind.Struct, "decision": lsp.SymbolKind.Key, "record": lsp.SymbolKind.Struct,
               "attribute": lsp.SymbolKind.Property}
COMPLETION_KIND = {"option": lsp.CompletionItemKind.Enum, "zone": lsp.CompletionItemKind.Field,
                   "variable": lsp.CompletionItemKind.Variable, "definition": lsp.CompletionItemKind.Function,
                   "rule": lsp.CompletionItemKind.Interface, "procedure": lsp.CompletionItemKind.Method,
                   "phase": lsp.CompletionItemKind.Class, "event": lsp.CompletionItemKind.Event,
                   "deck": lsp.CompletionItemKind.Struct, "built-in": lsp.CompletionItemKind.Function,
                   "symbol": lsp.CompletionItemKind.EnumMember, "card": lsp.CompletionItemKind.Constant,
                   "attribute": lsp.CompletionItemKind.Property, "keyword": lsp.CompletionItemKind.Keyword,
                   "record": lsp.CompletionItemKind.Struct, "field": lsp.CompletionItemKind.Field,
                   "visibility": lsp.CompletionItemKind.Value}


def to_range(span: Span | None) -> lsp.Range:
    if span is None:
        return lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))
    return lsp.Range(lsp.Position(span.line - 1, span.column - 1), lsp.Position(span.end_line - 1, span.end_column - 1))


def to_location(span: Span) -> lsp.Location:
    return lsp.Location(from_fs_path(span.path), to_range(span))


def diagnostics(analysis: Analysis) -> list[lsp.Diagnostic]:
    """The checker's diagnostics that belong in this document (or have no place)."""
    return [to_diagnostic(d) for d in analysis.diagnostics if d.span is None or d.span.path == analysis.path]


def to_diagnostic(d) -> lsp.Diagnostic:
    message = d.message + (f"\nhelp: {d.hint}" if d.hint else "")
    return lsp.Diagnostic(to_range(d.span), message, severity=SEVERITY.get(d.severity), code=d.code, source="cardgame")


class CardgameServer(LanguageServer):
    """Keeps the analysis of each open document, made fresh on every change."""

    def __init__(self):
        super().__init__("cardgame", "0.1.0")
        self.analyses: dict[str, Analysis] = {}
        self.readable: dict[str, Analysis] = {}  # the last analysis of each document that parsed

    def document(self, uri: str) -> tuple[str, str]:
        """(path, text) of `uri`: as the editor holds it, or, for a document it never opened,
        read from disk as a script is (a regular file, at most a script's length): a request
        may name `/dev/zero` or a FIFO, which pygls alone would read without end."""
        opened = self.workspace.text_documents.get(unquote(uri))
        if opened is not None:
            return opened.path, opened.source
        path = to_fs_path(uri) or uri
        try:
            return path, read_text(path, MAX_SCRIPT_BYTES)
        except FileRefused:
            return path, ""

    def analyse(self, uri: str) -> Analysis:
        path, text = self.document(uri)
        analysis = Analysis(path, text)
        self.analyses[uri] = analysis
        if analysis.tables is not None:
            self.readable[uri] = analysis
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, diagnostics(analysis)))
        return analysis

    def analysis(self, uri: str) -> Analysis:
        return self.analyses.get(uri) or self.analyse(uri)


def build_server() -> CardgameServer:
    server = CardgameServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: CardgameServer, params: lsp.DidOpenTextDocumentParams):
        ls.analyse(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: CardgameServer, params: lsp.DidChangeTextDocumentParams):
        ls.analyse(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: CardgameServer, params: lsp.DidCloseTextDocumentParams):
        ls.analyses.pop(params.text_document.uri, None)
        ls.readable.pop(params.text_document.uri, None)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: CardgameServer, params: lsp.HoverParams):
        pos = params.position
        text = ls.analysis(params.text_document.uri).hover(pos.line + 1, pos.character + 1)
        if text is None:
            return None
        return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, text))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: CardgameServer, params: lsp.DefinitionParams):
        pos = params.position
        decl = ls.analysis(params.text_document.uri).definition(pos.line + 1, pos.character + 1)
        return None if decl is None else to_location(decl.name_span)

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    def references(ls: CardgameServer, params: lsp.ReferenceParams):
        analysis = ls.analysis(params.text_document.uri)
        pos = params.position
        decl = analysis.definition(pos.line + 1, pos.character + 1)
        if decl is None:
            return []
        spans = analysis.references(decl)
        if params.context.include_declaration and decl.name_span not in spans:
            spans.insert(0, decl.name_span)
        if not params.context.include_declaration:
            spans = [s for s in spans if s != decl.name_span]
        return [to_location(s) for s in spans]

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
    def completion(ls: CardgameServer, params: lsp.CompletionParams):
        pos = params.position
        items = ls.analysis(params.text_document.uri).completions(pos.line + 1, pos.character + 1)
        return lsp.CompletionList(False, [lsp.CompletionItem(label, kind=COMPLETION_KIND.get(kind), detail=detail)
                                          for label, kind, detail in items])

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbols(ls: CardgameServer, params: lsp.DocumentSymbolParams):
        def symbol(name, kind, span, children):
            return lsp.DocumentSymbol(name, SYMBOL_KIND[kind], to_range(span), to_range(span),
                                      children=[symbol(*c) for c in children])
        return [symbol(*s) for s in ls.analysis(params.text_document.uri).symbols()]

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: CardgameServer, params: lsp.DocumentFormattingParams):
        path, source = ls.document(params.text_document.uri)
        out, _diags = format_source(source, path)
        if out is None or out == source:
            return []
        lines = source.split("\n")
        end = lsp.Position(len(lines) - 1, len(lines[-1]))
        return [lsp.TextEdit(lsp.Range(lsp.Position(0, 0), end), out)]

    # rename, quick fixes, signature help and semantic tokens: a module each
    register_rename(server)
    register_actions(server, to_range, to_diagnostic)
    register_signatures(server)
    register_tokens(server)
    return server


def serve() -> None:
    build_server().start_io()
