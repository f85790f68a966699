"""Hostile scripts refused when they are read or checked: each ends in its diagnostic, at once."""

from __future__ import annotations

import pytest

from cardgame import interpreter
from conftest import SCRIPTS
from helpers import GAMES
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
