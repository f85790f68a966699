"""Hostile scripts refused when they are read or checked: each ends in its diagnostic, at once;
brackets nested past the limit (for check, fmt, the editor and the REPL), a lone surrogate from
the editor, and hints over thousands of look-alike names sharing one budget."""

from __future__ import annotations

import pytest

from cardgame import interpreter
from cardgame.authoring.analysis import Analysis
from cardgame.authoring.fmt import format_source
from cardgame.interpreter.language import parser
from cardgame.repl.cli import main
from conftest import SCRIPTS
from helpers import GAMES, WAR
from cardgame.interpreter.codegen import gen_assembly, generator as codegen

LOAD_TIME = {
    "huge_literal": "E0114",  # a 5,000-digit number (was lark's VisitError)
    "nested_log": "E0111",  # nesting inside `log "{...}"` (was RecursionError)
    "nested_prompt": "E0111",  # nesting inside a prompt (was RecursionError)
    "huge_deck": "E0314",  # card "A" x 10000000 (was MemoryError)
    "million_deck": "E0314",  # a 1M-card deck (each shuffle cost 0.5 s)
    "binder_range": "E0315",  # pick(a in 1..4*10^18, b in 1..0) (hung)
    "escape_title": "E0113",  # escape sequences in a title (were written raw to the terminal)
    "escape_log": "E0113",  # ... in log text
    "zero_width_card": "E0113",  # `A\u200bS` that reads as `AS`
    "long_list": "E0201",  # 10,000 items, then an unknown name (11.8 s: each item compared with every other)
}


@pytest.mark.parametrize("name", sorted(LOAD_TIME))
@pytest.mark.parametrize("command", ["check", "play"])
def test_refused_at_load(cli, name, command):
    out = cli(command, SCRIPTS / f"{name}.cardgame").diagnosed(LOAD_TIME[name])
    assert "\x1b" not in out.err and "\u200b" not in out.err  # shown escaped, never raw


def _long_phase(tmp_path, statements: int):
    """A script of one long phase whose every statement inlines a definition three deep."""
    head = ['game "Long"', "players 2", "deck d in pile { rank: 1, 2, 3, 4 }", "zone pile: shared public",
            "var x: int = 0", "define f(a: int) = if a > 3 then a - 2 else a + x % 3 + 1", "phase main {"]
    body = ["    if x > 1 { set x = f(f(f(x))) } else { set x = f(f(x)) + 1 }"] * statements
    path = tmp_path / "long.cardgame"
    path.write_text("\n".join(head + body + ["    end game", "}", "score p: x", "winners: highest score"]) + "\n")
    return str(path)


def _generated_lines(path: str) -> int:
    return sum(src.count("\n") for src in interpreter.load(path).program.compiler.gen.sources)


def test_fusing_adds_at_most_its_budget_of_lines(tmp_path, monkeypatch):
    # Fusing copies each operation into those before it: unbounded, a 125 KB script compiled to
    # over a million lines (minutes).  Past the budget, operations are left unfused.
    path = _long_phase(tmp_path, 50)
    monkeypatch.setattr(gen_assembly, "_INLINE_OPS", 0)
    unfused = _generated_lines(path)
    monkeypatch.setattr(gen_assembly, "_INLINE_OPS", 16)
    monkeypatch.setattr(codegen, "_FUSED_LINES", 10 ** 9)
    assert _generated_lines(path) - unfused > 20_000  # what fusing would add
    whole = interpreter.load(path).new_game()
    monkeypatch.setattr(codegen, "_FUSED_LINES", 5_000)
    assert 0 < _generated_lines(path) - unfused <= 5_000
    part = interpreter.load(path).new_game()
    assert part.is_over and part.to_json() == whole.to_json()  # the same game, work included
    assert part.game_work == whole.game_work


@pytest.mark.parametrize("game", ["bouncer", "booray", "bosspoker", "bohei"])
def test_the_shipped_games_are_fused_whole(game):
    gen = interpreter.load(str(GAMES / f"{game}.cardgame")).program.compiler.gen
    assert gen._fusing_left > codegen._FUSED_LINES // 2


def _deep(depth: int, opening="(", closing=")") -> str:
    return "define x = " + opening * depth + "1" + closing * depth + "\n" + WAR.read_text()


@pytest.mark.parametrize("opening, closing", [("(", ")"), ("[", "]")])
def test_brackets_nested_past_the_limit_are_e0111_for_check_fmt_and_the_editor(opening, closing, tmp_path, capsys):
    script = tmp_path / "deep.cardgame"
    script.write_text(_deep(1000, opening, closing))
    assert main(["check", str(script)]) == 1
    assert "[E0111]" in capsys.readouterr().err
    assert main(["fmt", "--check", str(script)]) == 1
    said = capsys.readouterr()
    assert "Traceback" not in said.out + said.err and "[E0111]" in said.err
    out, diags = format_source(script.read_text(), str(script))
    assert out is None and [d.code for d in diags] == ["E0111"]
    assert [d.code for d in Analysis(str(script), script.read_text()).diagnostics] == ["E0111"]


def test_brackets_at_the_limit_still_load_and_the_error_points_at_the_first_one_past_it():
    assert parser.parse_script(_deep(parser.MAX_NESTING - 2), "deep.cardgame")[1] == []
    _script, diags = parser.parse_script(_deep(parser.MAX_NESTING + 5), "deep.cardgame")
    (diag,) = diags
    assert diag.code == "E0111" and (diag.span.line, diag.span.column) == (1, len("define x = ") + parser.MAX_NESTING + 1)


def test_brackets_in_texts_and_comments_are_not_counted():
    text = WAR.read_text() + '# ' + "(" * 400 + '\ndefine y = "' + "[" * 400 + '"\n'
    _script, diags = parser.parse_script(text, "war.cardgame")
    assert diags == []


def test_deep_brackets_in_a_repl_expression_are_an_answer(capsys):
    from cardgame.repl.session import Session
    session = Session()
    session.execute(f"load {WAR}")
    said = session.execute("eval " + "(" * 1000 + "1" + ")" * 1000)
    assert "E0111" in said and "Traceback" not in said


def test_a_lone_surrogate_in_the_editors_text_is_e0113():
    """LSP text arrives as JSON, where `\\ud800` alone is valid: no file can hold it."""
    text = WAR.read_text().replace('"War"', '"W\ud800r"')
    assert [d.code for d in Analysis(str(WAR), text).diagnostics] == ["E0113"]
    assert [d.code for d in format_source(text, str(WAR))[1]] == ["E0113"]


def test_did_you_mean_hints_share_a_budget_per_check():
    """2,500 unknown names among 2,500 look-alike ones: every hint compared the name with every
    declared one (difflib), 152 s for an 88 KB script; now at most SUGGESTION_WORK comparisons."""
    from cardgame.interpreter.language import source
    text = "".join(f"define name_{i:05d}_q = name_{i + 1:05d}_x\n" for i in range(600)) + WAR.read_text()
    compared = []
    real = source.difflib.get_close_matches
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(source.difflib, "get_close_matches",
                      lambda name, candidates, **kw: compared.append(len(candidates)) or real(name, candidates, **kw))
        _tables, _items, _sources, diags = interpreter.check_file(str(WAR), text)
    assert len(diags) == 600 and {d.code for d in diags} == {"E0201"}
    assert sum(compared) <= source.SUGGESTION_WORK < 600 * 600
    assert diags[0].hint.startswith("did you mean")  # the first ones still get their hint
