"""The power operator `A ^ B` (docs/language.md §10): its value, binding, work and faults, the
same in fast and traced programs."""

from __future__ import annotations

import pytest

from cardgame import interpreter
from cardgame.authoring.rulebook import rulebook
from cardgame.interpreter.codegen.compiler import Compiler
from cardgame.interpreter.engine.game import Game

SCRIPT = '''game "Stakes"
players 2
var bombs: int = {bombs}
var stake: int = 0
phase main {{
    set stake = {expr}
    end game
}}
'''


def _end(tmp_path, expr: str, bombs: int = 3, traced: bool = False) -> interpreter.GameState:
    path = tmp_path / f"p{len(list(tmp_path.iterdir()))}.cardgame"
    path.write_text(SCRIPT.format(expr=expr, bombs=bombs))
    if not traced:
        return interpreter.load(str(path)).new_game(players=2)
    tables, _items, sources, _diags = interpreter.check_file(str(path))
    compiler = Compiler(tables, traced=True)
    compiler.gen.ns["_trace"] = lambda node, typ, value: None
    return Game(str(path), compiler.compile(), compiler, sources, []).new_game(players=2)


@pytest.mark.parametrize("expr, value", [
    ("5 * 2 ^ bombs", 40), ("-2 ^ 2", -4), ("(-2) ^ 2", 4), ("2 ^ 3 ^ 2", 512), ("(-3) ^ 3", -27),
    ("10 ^ 0", 1), ("0 ^ 0", 1), ("0 ^ 5", 0), ("1 ^ 1000000000", 1), ("(-1) ^ 1000000001", -1),
    ("2 ^ bombs + 1", 9), ("3 * 2 ^ 2", 12),
])
@pytest.mark.parametrize("traced", [False, True])
def test_values_and_binding(tmp_path, expr, value, traced):
    state = _end(tmp_path, expr, traced=traced)
    assert state.fault is None and state.evaluate("stake")[0] == str(value)


@pytest.mark.parametrize("traced", [False, True])
@pytest.mark.parametrize("bombs, message", [(-1, "`^` needs a power of 0 or more, found -1"),
                                            (200, "a number grew beyond the limit")])
def test_a_negative_power_or_a_number_too_big_is_a_fault_at_the_statement(tmp_path, bombs, message, traced):
    state = _end(tmp_path, "2 ^ bombs", bombs=bombs, traced=traced)
    assert state.fault is not None and message in str(state.fault)
    assert state.fault.span.line == 6


def test_each_multiplication_is_a_unit_of_work(tmp_path):
    work = [_end(tmp_path, "2 ^ bombs", bombs=b).game_work for b in (1, 11, 21)]
    assert work[1] - work[0] == work[2] - work[1] == 10


def test_the_rulebook_says_to_the_power(tmp_path):
    path = tmp_path / "stakes.cardgame"
    path.write_text(SCRIPT.format(expr="5 * 2 ^ bombs", bombs=0))
    assert "2 to the power the *bombs*" in rulebook(str(path))  # the players' book, as i39 words it
