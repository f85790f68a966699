"""The language server, driven over its JSON-RPC streams: `cardgame lsp` runs as a subprocess
and a pygls client talks to it as an editor would; a document the editor never opened is read
as a script is (a FIFO or a huge file reads as empty)."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from cardgame.authoring.analysis import BUILTIN_DOCS
from helpers import GAMES, ROOT, WAR
from cardgame.interpreter.language.builtins import BUILTINS, CONSTANTS

BOUNCER = GAMES / "bouncer.cardgame"


def _position(text: str, line_start: str, word: str, nth: int = 0) -> lsp.Position:
    """The position of `word` on the first line that starts with `line_start` (0-based)."""
    lines = text.split("\n")
    row = next(i for i, line in enumerate(lines) if line.strip().startswith(line_start))
    col = -1
    for _ in range(nth + 1):
        col = lines[row].index(word, col + 1)
    return lsp.Position(row, col + 1)


class _Editor:
    """A pygls client with the server as a subprocess, collecting published diagnostics."""

    def __init__(self):
        self.client = LanguageClient("test-editor", "1")
        self.published: dict[str, asyncio.Queue] = {}

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def publish(params: lsp.PublishDiagnosticsParams):
            self.published.setdefault(params.uri, asyncio.Queue()).put_nowait(params.diagnostics)

    async def __aenter__(self):
        await self.client.start_io(sys.executable, "-m", "cardgame.repl", "lsp", cwd=str(ROOT))
        await self.client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), root_uri=from_fs_path(str(ROOT))))
        self.client.initialized(lsp.InitializedParams())
        return self

    async def __aexit__(self, *exc):
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()

    def open(self, path: Path, text: str | None = None) -> str:
        uri = from_fs_path(str(path))
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri, "cardgame", 1, text if text is not None else path.read_text())))
        return uri

    async def diagnostics(self, uri: str) -> list:
        queue = self.published.setdefault(uri, asyncio.Queue())
        return list(await asyncio.wait_for(queue.get(), 30))


def _run(coro):
    return asyncio.run(asyncio.wait_for(coro, 120))


def test_an_error_is_published_at_its_range_and_clears_when_fixed(tmp_path):
    path = tmp_path / "bad.cardgame"
    broken = BOUNCER.read_text().replace("set leader = winner", "set leader = winer")
    path.write_text(broken)
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "standard_deck.cardgame").write_text((GAMES / "lib" / "standard_deck.cardgame").read_text())

    async def scenario():
        async with _Editor() as editor:
            uri = editor.open(path)
            found = await editor.diagnostics(uri)
            start = _position(broken, "set leader = winer", "winer")
            start = lsp.Position(start.line, start.character - 1)
            assert [(d.code, d.range, d.severity, d.source) for d in found] == [
                ("E0201", lsp.Range(start, lsp.Position(start.line, start.character + 5)),
                 lsp.DiagnosticSeverity.Error, "cardgame")]
            assert found[0].message == "unknown name `winer`\nhelp: did you mean `winner`?"
            editor.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(version=2, uri=uri),
                [lsp.TextDocumentContentChangeWholeDocument(BOUNCER.read_text())]))
            assert await editor.diagnostics(uri) == []
    _run(scenario())


def test_hover_definition_references_completion_symbols_and_formatting_on_bouncer():
    text = BOUNCER.read_text()

    async def scenario():
        async with _Editor() as editor:
            uri = editor.open(BOUNCER)
            assert await editor.diagnostics(uri) == []
            doc = lsp.TextDocumentIdentifier(uri)
            use = _position(text, "play(c from hand[p]) requires", "follow_suit")

            hover = await editor.client.text_document_hover_async(lsp.HoverParams(text_document=doc, position=use))
            assert hover.contents.value == (
                '```cardgame\nrule follow_suit(p: player, c: card) "Follow the led suit if you can."\n```\n\n'
                f"rule `follow_suit`\n\nFollow the led suit if you can.\n\ndeclared at bouncer.cardgame:"
                f"{_position(text, 'rule follow_suit', 'rule').line + 1}")
            var = _position(text, "set leader = winner", "leader")
            hover = await editor.client.text_document_hover_async(lsp.HoverParams(text_document=doc, position=var))
            assert "variable `leader`: player" in hover.contents.value
            builtin = _position(text, "if empty(points)", "empty")
            hover = await editor.client.text_document_hover_async(lsp.HoverParams(text_document=doc, position=builtin))
            assert hover.contents.value.endswith("built-in: true if L has no items")

            found = await editor.client.text_document_definition_async(lsp.DefinitionParams(text_document=doc, position=use))
            decl = _position(text, "rule follow_suit", "follow_suit")
            assert found == lsp.Location(uri, lsp.Range(lsp.Position(decl.line, decl.character - 1),
                                                        lsp.Position(decl.line, decl.character + 10)))
            local = await editor.client.text_document_definition_async(lsp.DefinitionParams(
                text_document=doc, position=_position(text, "set leader = winner", "winner")))
            let = _position(text, "let winner", "winner")
            assert local.range.start == lsp.Position(let.line, let.character - 1)
            refs = await editor.client.text_document_references_async(lsp.ReferenceParams(
                text_document=doc, position=let, context=lsp.ReferenceContext(include_declaration=True)))
            rows = [i for i, line in enumerate(text.split("\n")) for w in _words(line) if w == "winner"]
            assert sorted(r.range.start.line for r in refs) == rows  # `{winner}` in texts included
            hover = await editor.client.text_document_hover_async(lsp.HoverParams(text_document=doc, position=let))
            assert hover.contents.value.startswith("```cardgame\nwinner: player\n```\nlocal name")
            strength = _position(text, "define card_strength", "strength", 1)  # the shared deck's, not card_strength
            found = await editor.client.text_document_definition_async(lsp.DefinitionParams(text_document=doc, position=strength))
            assert found.uri.endswith("games/lib/standard_deck.cardgame")

            refs = await editor.client.text_document_references_async(lsp.ReferenceParams(
                text_document=doc, position=_position(text, "zone prize", "prize"),
                context=lsp.ReferenceContext(include_declaration=True)))
            rows = [i for i, line in enumerate(text.split("\n")) for w in _words(line) if w == "prize"]
            assert sorted(r.range.start.line for r in refs) == rows and len(rows) == 5  # texts' {...} included
            assert all(r.uri == uri for r in refs)

            items = await editor.client.text_document_completion_async(lsp.CompletionParams(
                text_document=doc, position=_position(text, "set leader = winner", "winner")))
            labels = {i.label: i.kind for i in items.items}
            assert labels["follow_suit"] == lsp.CompletionItemKind.Interface
            assert labels["hand"] == lsp.CompletionItemKind.Field
            assert labels["players_from"] == lsp.CompletionItemKind.Function
            assert labels["AS"] == lsp.CompletionItemKind.Constant and labels["H"] == lsp.CompletionItemKind.EnumMember
            dot = _position(text, "set led = c.suit", "suit")
            items = await editor.client.text_document_completion_async(lsp.CompletionParams(text_document=doc, position=dot))
            assert sorted(i.label for i in items.items) == ["name", "rank", "suit"]

            symbols = await editor.client.text_document_document_symbol_async(lsp.DocumentSymbolParams(text_document=doc))
            names = [s.name for s in symbols]
            assert names[:3] == ["show_upcoming", "special_bouncers", "stock"]
            trick = next(s for s in symbols if s.name == "trick")
            assert trick.kind == lsp.SymbolKind.Class and [c.name for c in trick.children] == ["decide: Play a card"]

            edits = await editor.client.text_document_formatting_async(lsp.DocumentFormattingParams(
                text_document=doc, options=lsp.FormattingOptions(tab_size=4, insert_spaces=True)))
            assert not edits  # the shipped game is formatted
            messy = text.replace("set leader = winner", "set   leader=winner")
            editor.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(version=2, uri=uri), [lsp.TextDocumentContentChangeWholeDocument(messy)]))
            await editor.diagnostics(uri)
            edits = await editor.client.text_document_formatting_async(lsp.DocumentFormattingParams(
                text_document=doc, options=lsp.FormattingOptions(tab_size=4, insert_spaces=True)))
            assert len(edits) == 1 and edits[0].new_text == text
            assert edits[0].range.start == lsp.Position(0, 0)
    _run(scenario())


def _words(line: str) -> list[str]:
    import re
    return re.findall(r"[A-Za-z_][A-Za-z0-9_]*", line.split("# ")[0])


def test_every_builtin_has_hover_text():
    assert set(BUILTIN_DOCS) == set(BUILTINS) | set(CONSTANTS)


@pytest.mark.parametrize("path", sorted(GAMES.glob("*.cardgame")), ids=lambda p: p.name)
def test_every_declared_name_of_every_shipped_game_resolves(path):
    from cardgame.authoring.analysis import Analysis
    analysis = Analysis(str(path), path.read_text())
    assert not [d for d in analysis.diagnostics if d.severity == "error"]
    for name, decl in analysis.declarations.items():
        if decl.name_span.path != str(path):
            continue
        line = path.read_text().split("\n")[decl.name_span.line - 1]
        assert line[decl.name_span.column - 1:decl.name_span.end_column - 1] == name
        assert analysis.definition(decl.name_span.line, decl.name_span.column) == decl
        assert analysis.hover(decl.name_span.line, decl.name_span.column) is not None


def test_every_position_and_every_cut_of_a_script_gets_an_answer_not_an_exception():
    """Editors ask about every position of half-written scripts: each question gets an answer."""
    from cardgame.authoring.analysis import Analysis
    from cardgame.interpreter.language.concrete import tokens
    text = BOUNCER.read_text()
    analysis = Analysis(str(BOUNCER), text)
    for tok in tokens(analysis.tree):
        for column in (tok.column, tok.end_column):
            analysis.hover(tok.line, column)
            analysis.definition(tok.line, column)
    for cut in range(0, len(text), 251):
        part = Analysis(str(BOUNCER), text[:cut])
        last = text[:cut].count("\n") + 1
        part.hover(last, 1)
        part.completions(last, 1)
        part.symbols()


def _unopened(server, path) -> tuple[str, str]:
    from pygls.uris import from_fs_path
    return server.document(from_fs_path(str(path)))


def test_a_request_for_a_document_the_editor_never_opened_reads_it_as_a_script(tmp_path):
    """pygls reads such a document whole from disk: a FIFO blocked the server for good and a
    2 GB file was read into memory; now the document is read as a script is, or is empty."""
    from pygls.workspace import Workspace

    from cardgame.authoring.lsp import build_server
    server = build_server()
    server.protocol._workspace = Workspace(None)  # what `initialize` makes
    os.mkfifo(tmp_path / "pipe.cardgame")
    big = tmp_path / "big.cardgame"
    with open(big, "wb") as fh:
        fh.truncate(2 * 1024 ** 3)  # sparse
    assert _unopened(server, tmp_path / "pipe.cardgame")[1] == ""
    assert _unopened(server, big)[1] == ""
    assert _unopened(server, tmp_path / "missing.cardgame")[1] == ""
    assert _unopened(server, WAR) == (str(WAR), WAR.read_text())
    from pygls.uris import from_fs_path
    assert server.analysis(from_fs_path(str(tmp_path / "pipe.cardgame"))).hover(1, 1) is None
