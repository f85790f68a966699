"""`cardgame lsp`: the language server editors talk to (LSP over standard input and output, on
pygls).  Each open document is re-checked on every change (authoring/analysis.py) and the
server answers from that: diagnostics with codes and hints, hover, go to definition, find
references, completion, document symbols and formatting through `cardgame fmt`.

LSP positions are 0-based lines and UTF-16 columns; scripts are ASCII outside their texts and
comments, so columns are counted in characters.

The messages are read by lsp_stream (every size bounded, a malformed message answered with a
JSON-RPC error), and whatever the server would log goes to the editor as `window/logMessage`
lines: nothing is ever printed on standard error, where an editor shows a traceback as a crash.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import unquote

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.io_ import StdoutWriter
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
from .lsp_stream import INVALID_PARAMS, Refused, error_response, parse_message, read_frame, skip
from .lsp_tokens import register as register_tokens

logger = logging.getLogger(__name__)

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


def serve(stdin=None, stdout=None) -> None:
    """Serve one editor on standard input and output until it says `exit` or closes the stream."""
    server = build_server()
    reader = stdin or sys.stdin.buffer
    writer = StdoutWriter(stdout or sys.stdout.buffer)
    server.protocol.set_writer(writer)
    to_editor = _ToEditor(server)
    root = logging.getLogger()
    root.addHandler(to_editor)
    try:
        asyncio.run(_serve(server, reader, writer))
    except (SystemExit, KeyboardInterrupt, BrokenPipeError):  # `exit` ends the process, as LSP says
        pass
    finally:
        root.removeHandler(to_editor)
        server.shutdown()


async def _serve(server: CardgameServer, reader, writer) -> None:
    """Read message after message in a thread of its own, and hand each to the server here."""
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(1, thread_name_prefix="lsp-reader") as pool:
        while True:
            frame = await loop.run_in_executor(pool, _next_frame, reader)
            if frame is None:
                return
            if isinstance(frame, Refused):
                writer.write(error_response(frame))
                if frame.skip and not await loop.run_in_executor(pool, skip, reader, frame.skip):
                    return
                continue
            try:
                _take(server, writer, frame)
            except Exception as exc:  # a fault of ours: told to the editor, and the next message read
                logger.error("a message could not be handled: %s: %s", type(exc).__name__, exc)


def _next_frame(reader):
    try:
        return read_frame(reader)
    except (OSError, ValueError):  # the stream closed under the reader
        return None


def _take(server: CardgameServer, writer, body: bytes) -> None:
    """One message's body: refused, or handed to pygls once LSP's types accept its params."""
    message = parse_message(body)
    if isinstance(message, Refused):
        writer.write(error_response(message))
        return
    method = message.get("method")
    try:
        structured = server.protocol.structure_message(message)
    except JsonRpcException:
        if method is not None and "id" in message:
            writer.write(error_response(Refused(INVALID_PARAMS, f"the params of `{method}` are not what LSP "
                                                                "says they are", message["id"])))
        else:  # a notification, which JSON-RPC never answers (or a response nobody waits for)
            logger.warning("ignored `%s`: its params are not what LSP says they are", method or "a response")
        return
    server.protocol.handle_message(structured)


class _ToEditor(logging.Handler):
    """Log records of warnings and errors (the server's, pygls's, asyncio's) sent to the editor
    as one `window/logMessage` line each, their tracebacks left out."""

    def __init__(self, server: CardgameServer):
        super().__init__(logging.WARNING)
        self.server = server
        self.sending = False

    def emit(self, record: logging.LogRecord) -> None:
        if self.sending:  # a failure to send, logged while sending: not sent again
            return
        self.sending = True
        try:
            kind = lsp.MessageType.Error if record.levelno >= logging.ERROR else lsp.MessageType.Warning
            line = record.getMessage().split("\n", 1)[0][:500]
            self.server.window_log_message(lsp.LogMessageParams(kind, line))
        except Exception:  # no writer yet, or the stream closed: the line is dropped
            pass
        finally:
            self.sending = False
