"""The language server's rename, quick fixes, signature help and semantic tokens, driven over
its JSON-RPC streams as tests/test_lsp.py drives it (and, for the catalogue of quick fixes, the
analysis it answers from): every edit the server offers is applied and the result checked again."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
import test_docs_examples as docs
from helpers import GAMES
from lsprotocol import types as lsp
from pygls.uris import from_fs_path, to_fs_path
from test_lsp import _Editor, _position, _run

from cardgame.authoring.analysis import Analysis
from cardgame.authoring.lsp_actions import FIXES, apply, fixes
from cardgame.authoring.lsp_signatures import call_at, help_at, signatures
from cardgame.authoring.lsp_tokens import TOKEN_MODIFIERS, TOKEN_TYPES, classify
from cardgame.interpreter.language.source import Span

BOUNCER = GAMES / "bouncer.cardgame"
GOLDEN_TOKENS = Path(__file__).parent / "golden" / "semantic_tokens" / "bouncer.txt"


def _copy_bouncer(tmp_path: Path) -> Path:
    """Bouncer and the deck it includes, where a rename may write."""
    (tmp_path / "lib").mkdir()
    shutil.copy(GAMES / "lib" / "standard_deck.cardgame", tmp_path / "lib")
    return Path(shutil.copy(BOUNCER, tmp_path / "bouncer.cardgame"))


def _apply_workspace_edit(edit: lsp.WorkspaceEdit) -> dict[str, str]:
    """uri -> the file's text with the edit made (read from disk)."""
    out = {}
    for uri, text_edits in edit.changes.items():
        path = to_fs_path(uri)
        spans = [(Span(path, e.range.start.line + 1, e.range.start.character + 1, e.range.end.line + 1,
                       e.range.end.character + 1), e.new_text) for e in text_edits]
        out[uri] = apply(Path(path).read_text(), spans)
    return out


def _words(text: str, word: str) -> int:
    return len(re.findall(rf"(?<![A-Za-z0-9_#]){word}(?![A-Za-z0-9_])", "\n".join(
        line.split("# ")[0] for line in text.split("\n"))))


# ---- rename

@pytest.mark.parametrize("line_start, word, new, what", [
    ("define hand_score", "hand_score", "hand_points", "a definition"),
    ("var leader", "leader", "lead_seat", "a variable"),
    ("zone played", "played", "on_table", "a zone"),
    ("let winner", "winner", "taker", "a local name"),
    ("option special_bouncers", "special_bouncers", "special_faces", "an option"),
])
def test_rename_changes_every_use_and_the_script_still_checks(tmp_path, line_start, word, new, what):
    path = _copy_bouncer(tmp_path)
    text = path.read_text()

    async def scenario():
        async with _Editor() as editor:
            uri = editor.open(path)
            assert await editor.diagnostics(uri) == []
            doc = lsp.TextDocumentIdentifier(uri)
            at = _position(text, line_start, word)
            prepared = await editor.client.text_document_prepare_rename_async(
                lsp.PrepareRenameParams(doc, at))
            assert prepared.placeholder == word
            edit = await editor.client.text_document_rename_async(lsp.RenameParams(doc, at, new))
            return edit
    edit = _run(scenario())
    assert list(edit.changes) == [from_fs_path(str(path))]
    assert all(e.new_text == new for e in edit.changes[from_fs_path(str(path))])
    renamed = _apply_workspace_edit(edit)[from_fs_path(str(path))]
    if what != "a local name":  # every use in the file, `{...}` of texts included
        assert len(edit.changes[from_fs_path(str(path))]) == _words(text, word) > 1
        assert _words(renamed, word) == 0 and _words(renamed, new) == _words(text, word)
    analysis = Analysis(str(path), renamed)
    assert analysis.diagnostics == []
    assert renamed.replace(new, word) == text


def test_rename_reaches_into_an_included_file(tmp_path):
    path = _copy_bouncer(tmp_path)
    text = path.read_text()
    lib = tmp_path / "lib" / "standard_deck.cardgame"

    async def scenario():
        async with _Editor() as editor:
            uri = editor.open(path)
            await editor.diagnostics(uri)
            at = _position(text, "define card_strength", "strength", nth=1)
            return await editor.client.text_document_rename_async(
                lsp.RenameParams(lsp.TextDocumentIdentifier(uri), at, "power"))
    edit = _run(scenario())
    assert set(edit.changes) == {from_fs_path(str(path)), from_fs_path(str(lib))}
    changed = _apply_workspace_edit(edit)
    for uri, new_text in changed.items():
        Path(to_fs_path(uri)).write_text(new_text)
    assert "define power(c: card)" in lib.read_text() and "= power(top(played[q]))" in path.read_text()
    assert Analysis(str(path), path.read_text()).diagnostics == []


@pytest.mark.parametrize("line_start, word, new, message", [
    ("if empty(points)", "empty", "x", "`empty` is a built-in: it cannot be renamed"),
    ("define trick_winner", "players_from", "x", "`players_from` is a built-in: it cannot be renamed"),
    ("phase trick", "phase", "x", "`phase` is a keyword of the language: it cannot be renamed"),
    ("define is_point_card", "H", "x", "`H` is a symbol"),
    ("var leader", "leader", "count", "`count` is a built-in: choose another name"),  # a form only by its shape (§21)
    ("var leader", "leader", "players_from", "`players_from` is a built-in: choose another name"),
    ("var leader", "leader", "where", "`where` is a word of the language: choose another name"),
    ("var leader", "leader", "hand", "`hand` already names something in this game: choose another name"),
    ("var leader", "leader", "2nd", "`2nd` is not a name"),
    ("play(c from hand[p])", "c", "p", "`p` is already a name used here"),
])
def test_rename_refuses_with_a_clear_error(line_start, word, new, message):
    text = BOUNCER.read_text()

    async def scenario():
        async with _Editor() as editor:
            uri = editor.open(BOUNCER)
            await editor.diagnostics(uri)
            doc = lsp.TextDocumentIdentifier(uri)
            at = _position(text, line_start, word)
            with pytest.raises(Exception) as refused:
                if new == "x":
                    await editor.client.text_document_prepare_rename_async(lsp.PrepareRenameParams(doc, at))
                else:
                    await editor.client.text_document_rename_async(lsp.RenameParams(doc, at, new))
            return refused.value
    error = _run(scenario())
    assert message in str(error) and getattr(error, "code", None) == -32803


# ---- quick fixes

def _catalogue():
    """(code, source, diagnostic's index) of each example of docs/diagnostics.md whose
    diagnostic has a fix or a `did you mean`."""
    prelude = docs._prelude()
    cases = []
    for line, block in docs._blocks("diagnostics.md", "cardgame"):
        directive = docs._directive(block)
        if not directive or directive[0] not in ("error", "warning"):
            continue
        code, alone = directive[1], "alone" in directive[2:]
        kind = docs._fragment_kind(block)
        sources = [block if k is None else docs._in_prelude(prelude, block, k)
                   for k in ([None] if alone else ([kind] if kind else ["items", "statements"]))]
        cases.append(pytest.param(code, sources, id=f"{code}:{line}"))
    return cases


def _reported(tmp_path: Path, code: str, sources: list[str]):
    """(path, source, analysis) of the reading of an example that reports `code` (as
    test_docs_examples reads it: as items, or as statements in a phase)."""
    path = tmp_path / "example.cardgame"
    for source in sources:
        path.write_text(source)
        analysis = Analysis(str(path), source)
        if any(d.code == code for d in analysis.diagnostics):
            return path, source, analysis
    raise AssertionError(f"{code} is not reported by its example")


CATALOGUE = _catalogue()


@pytest.mark.parametrize("code, sources", CATALOGUE)
def test_each_fix_of_the_catalogue_makes_its_diagnostic_go_away(tmp_path, code, sources):
    path, source, analysis = _reported(tmp_path, code, sources)
    diag = next(d for d in analysis.diagnostics if d.code == code)
    offered = fixes(analysis, diag)
    if code in FIXES or "did you mean `" in diag.hint:
        assert offered, f"{code} has a fix but none was offered ({diag.hint})"
    for title, edit in offered:
        fixed = apply(source, edit)
        after = Analysis(str(path), fixed)
        assert not [d for d in after.diagnostics if d.code == code], f"{title}: {code} still reported"
        errors = [d.code for d in after.diagnostics if d.severity == "error"]
        assert errors == [] or code == "E0139", f"{title}: left {errors}"  # E0139's example: `count` alone


def test_every_fix_and_did_you_mean_of_the_catalogue_is_exercised(tmp_path):
    """Each FIXES entry has an example in docs/diagnostics.md it applies to (E0113's invisible
    character cannot be written in the docs: tested below), and so do the `did you mean`s."""
    fixed, meant = set(), set()
    for param in CATALOGUE:
        code, sources = param.values
        _path, _source, analysis = _reported(tmp_path, code, sources)
        for d in analysis.diagnostics:
            if d.code == code and fixes(analysis, d):
                (meant if "did you mean `" in d.hint else fixed).add(code)
    assert set(FIXES) - fixed == {"E0113"}
    assert {"E0203", "E0205", "E0207", "E0208", "E0209", "E0217", "E0221", "E0611"} <= meant


@pytest.mark.parametrize("old, new, code", [
    ("set leader = winner", "set leader = winer", "E0201"),
    ("set led = c.suit", "set led = c.siut", "E0202"),
    ("define numeric(p: player)", "defin numeric(p: player)", "E0107"),
    ('log "point card: {top(prize)}"', 'log "point card:\u200b {top(prize)}"', "E0113"),
    ("if empty(points) {", "if empty(points) && true {", "E0115"),
])
def test_quick_fixes_of_typos_in_a_shipped_game(old, new, code):
    text = BOUNCER.read_text()
    assert old in text
    broken = text.replace(old, new, 1)
    analysis = Analysis(str(BOUNCER), broken)
    [diag] = [d for d in analysis.diagnostics if d.code == code]
    [(title, edit)] = fixes(analysis, diag)
    assert Analysis(str(BOUNCER), apply(broken, edit)).diagnostics == []


def test_the_server_offers_the_did_you_mean_and_the_edit_clears_the_diagnostic(tmp_path):
    path = _copy_bouncer(tmp_path)
    broken = path.read_text().replace("set leader = winner", "set leader = winer")
    path.write_text(broken)

    async def scenario():
        async with _Editor() as editor:
            uri = editor.open(path)
            [diag] = await editor.diagnostics(uri)
            actions = await editor.client.text_document_code_action_async(lsp.CodeActionParams(
                lsp.TextDocumentIdentifier(uri), diag.range, lsp.CodeActionContext([diag])))
            assert [(a.title, a.kind, a.is_preferred) for a in actions] == [
                ("Change `winer` to `winner`", lsp.CodeActionKind.QuickFix, True)]
            assert actions[0].diagnostics[0].code == "E0201"
            fixed = _apply_workspace_edit(actions[0].edit)[uri]
            editor.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(version=2, uri=uri), [lsp.TextDocumentContentChangeWholeDocument(fixed)]))
            assert await editor.diagnostics(uri) == []
            return fixed
    assert _run(scenario()) == BOUNCER.read_text()


# ---- signature help

def test_signature_help_for_a_rule_a_definition_and_built_ins():
    text = BOUNCER.read_text().replace("play(c from hand[p]) requires follow_suit(p, c)",
                                       "play(c from hand[p]) requires follow_suit(p, )")

    async def scenario():
        async with _Editor() as editor:
            uri = editor.open(BOUNCER)
            assert await editor.diagnostics(uri) == []
            editor.client.text_document_did_change(lsp.DidChangeTextDocumentParams(  # half written: no parse
                lsp.VersionedTextDocumentIdentifier(version=2, uri=uri), [lsp.TextDocumentContentChangeWholeDocument(text)]))
            assert [d.code for d in await editor.diagnostics(uri)] == ["E0101"]
            doc = lsp.TextDocumentIdentifier(uri)

            async def at(line_start, word, nth=0, after=1):
                pos = _position(text, line_start, word, nth)
                return await editor.client.text_document_signature_help_async(lsp.SignatureHelpParams(
                    doc, lsp.Position(pos.line, pos.character - 1 + len(word) + after - 1)))
            rule = await at("play(c from hand[p]) requires", "follow_suit(p, ")
            assert [s.label for s in rule.signatures] == ["follow_suit(p: player, c: card)"]
            assert [p.label for p in rule.signatures[0].parameters] == ["p: player", "c: card"]
            assert rule.active_parameter == 1 and rule.signatures[0].documentation == \
                "rule `follow_suit`: Follow the led suit if you can."
            define = await at("define hand_score", "special_score(")
            assert define.signatures[0].label == "special_score(p: player)" and define.active_parameter == 0
            inner = await at("define card_strength", " strength(")
            assert inner.signatures[0].label == "strength(c: card)"
            builtin = await at("define trick_winner", "players_from(")
            assert builtin.signatures[0].label == "players_from(p)" and builtin.active_parameter == 0
            top = await at("define card_strength", "top(")
            assert [s.label for s in top.signatures] == ["top(Z)", "top(Z, n)"] and top.active_signature == 0
            assert await at("set leader = winner", "winner") is None  # not inside a call
    _run(scenario())


def test_signature_help_counts_the_arguments_written():
    assert call_at("top(stock, max(1, 2), ", 23) == ("top", 2)
    assert call_at('f(a, "x, (y", b', 15) == ("f", 2)  # a text's commas and brackets are not arguments
    assert call_at("f(a, [1, 2", 10) == ("f", 1)  # inside a list given as the second argument
    assert call_at("(a, b", 5) is None  # brackets, not a call
    assert call_at("f(a) + g(", 9) == ("g", 0)


# ---- semantic tokens

def _decoded(analysis: Analysis, data: list[int]) -> list[str]:
    lines = analysis.text.split("\n")
    out, line, start = [], 0, 0
    for i in range(0, len(data), 5):
        dl, ds, length, kind, mods = data[i:i + 5]
        line, start = line + dl, (start + ds if dl == 0 else ds)
        names = [m for b, m in enumerate(TOKEN_MODIFIERS) if mods & (1 << b)]
        out.append(f"{line + 1}:{start + 1} {lines[line][start:start + length]!r} {TOKEN_TYPES[kind]}"
                   + (f" [{', '.join(names)}]" if names else ""))
    return out


def test_semantic_tokens_of_a_shipped_game_golden():
    """Regenerate on purpose with UPDATE_GOLDEN=1."""
    async def scenario():
        async with _Editor() as editor:
            uri = editor.open(BOUNCER)
            await editor.diagnostics(uri)
            return await editor.client.text_document_semantic_tokens_full_async(
                lsp.SemanticTokensParams(lsp.TextDocumentIdentifier(uri)))
    tokens = _run(scenario())
    listing = "\n".join(_decoded(Analysis(str(BOUNCER), BOUNCER.read_text()), tokens.data)) + "\n"
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN_TOKENS.parent.mkdir(exist_ok=True)
        GOLDEN_TOKENS.write_text(listing)
    assert listing == GOLDEN_TOKENS.read_text()
    for expected in ["22:1 'option' keyword", "22:8 'show_upcoming' option [declaration]", "1:1 '# Bouncer",
                     "30:6 'hand' zone [declaration]", "36:5 'leader' variable [declaration]",
                     "128:8 'hand_score' function [declaration]", "42:43 'H' enumMember", "74:7 'trick' class",
                     "55:40 'players_from' function [defaultLibrary]", "42:22 'c' parameter [declaration]"]:
        assert any(line.startswith(expected) for line in listing.split("\n")), expected


def test_semantic_tokens_tell_cards_and_the_names_in_texts_apart():
    text = BOUNCER.read_text().replace('log "{winner} wins {top(prize)} with {top(played[winner])}"',
                                       'log "{winner} wins {top(prize)} with {top(played[winner])}"\n    let ace = AS')
    analysis = Analysis(str(BOUNCER), text)
    assert analysis.diagnostics == []
    found = {(text.split("\n")[line - 1][col - 1:end - 1], kind) for line, col, end, kind, _mods in classify(analysis)}
    assert ("AS", "card") in found and ('"{', "string") in found and ("winner", "parameter") in found
    assert ("} wins {top(", "string") in found and ("prize", "zone") in found and ("played", "zone") in found
    unreadable = Analysis(str(BOUNCER), text.replace("phase trick {", "phase trick {{"))
    kinds = {kind for *_pos, kind, _mods in classify(unreadable)}
    assert unreadable.tree is None and kinds == {"comment", "string", "number", "keyword"}


# ---- fewer cascades

@pytest.mark.parametrize("old, new", [
    ("define game_over = any p in players where total[p]", "define game_over = any p in players where totl[p]"),
    ("score p: total[p]", "score p: totals[p]"),
    ("move played[q] to discard", "move playd[q] to discard"),
])
def test_a_typo_in_a_name_is_one_diagnostic(old, new):
    text = BOUNCER.read_text()
    assert old in text
    analysis = Analysis(str(BOUNCER), text.replace(old, new, 1))
    assert [d.code for d in analysis.diagnostics] == ["E0201"]


def test_signature_help_for_a_procedure_and_an_event():
    path = GAMES / "bohei.cardgame"
    text = path.read_text()
    analysis = Analysis(str(path), text)
    row = next(i for i, line in enumerate(text.split("\n"), 1) if line.strip() == "give_one(p, left_of(p))")
    column = text.split("\n")[row - 1].index("left_of") + 1
    forms, active, index = help_at(analysis, row, column)
    assert forms == [("give_one(giver: player, taker: player)", ["giver: player", "taker: player"],
                      "procedure `give_one`")] and (active, index) == (0, 1)
    inner = help_at(analysis, row, column + len("left_of("))
    assert inner[0][0][0] == "left_of(p)" and inner[2] == 0
    event = signatures(analysis, "must")
    assert event[0][1] == ["p: player", "what: symbol", "n: int", "source: card"]


def test_a_refused_rename_is_an_answer_not_a_fault_in_the_servers_log(caplog):
    """pygls logs every error a handler raises with its traceback (to standard error, or, on
    a server that forwards its log, to the editor): a refusal is left out, a fault is not."""
    import logging

    from cardgame.authoring.lsp import build_server
    from cardgame.authoring.lsp_rename import Refused
    build_server()
    log = logging.getLogger("pygls.protocol.json_rpc")
    for error in (Refused("`phase` is a keyword"), ValueError("a fault")):
        try:
            raise error
        except Exception:
            log.exception("Failed to handle request")
    assert [r.exc_info[1].__class__.__name__ for r in caplog.records if r.name == log.name] == ["ValueError"]
