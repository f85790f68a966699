"""Local names in expressions (`let NAME = VALUE in BODY`) and comprehensions with several
`for` clauses (docs/language.md §10): exact values and legal moves, fast and traced alike
(tests/test_codegen.py plays tests/scripts/local_names.cardgame both ways); a variable's starting
value with a quantifier or a comprehension has its locals too."""

from __future__ import annotations

from pathlib import Path

from cardgame import interpreter
from helpers import WAR

SCRIPT = Path(__file__).parent / "scripts" / "local_names.cardgame"


def game():
    return interpreter.load(str(SCRIPT))


def value(s, text):
    out, diags = s.evaluate(text)
    assert not diags, [d.message for d in diags]
    return out


def test_let_names_a_value_inside_an_expression():
    s = game().new_game(seed=6)
    assert value(s, "let a = 2 in let b = a + 1 in a * b") == "6"
    assert value(s, "doubled(3)") == "36"
    assert value(s, "let a = 1 in (let a = 5 in a) + a") == "6"  # an inner name hides an outer one


def test_several_for_clauses_make_one_list():
    s = game().new_game(seed=6)
    assert value(s, "[x * 10 + y for x in [1, 2] for y in [3, 4]]") == "[13, 14, 23, 24]"
    assert value(s, "[x * 10 + y for x in [1, 2] for y in [x, 5] where x != y]") == "[15, 25]"
    assert value(s, "[[x, y] for x in [1, 2] for y in [3]]") == "[[1, 3], [2, 3]]"
    assert value(s, "hand[seat(1)]") == "[2S, 2H, 3H]"
    assert value(s, "pairs(seat(1), 4)") == "[22, 22]"


def test_rules_and_binders_with_local_names_give_exact_moves():
    s = game().new_game(seed=6)
    assert [str(m) for m in s.legal_moves()] == ["play 2S", "play 2H", "sum_to 22", "pass"]
    s = game().new_game(seed=1)
    assert value(s, "hand[seat(1)]") == "[3H, 1H, 2S]"
    assert [str(m) for m in s.legal_moves()] == ["sum_to 31", "sum_to 13", "pass"]


def test_a_let_value_that_is_a_comparison_needs_brackets():
    s = game().new_game(seed=6)
    assert value(s, "let ok = (1 == 1) in ok and true") == "true"
    out, diags = s.evaluate("let ok = 1 == 1 in ok")
    assert out is None and diags and diags[0].code.startswith("E01")


def test_a_starting_value_with_a_quantifier_or_comprehension_has_its_locals(tmp_path):
    """They ran with an empty list of locals: an IndexError traceback at the start of every game."""
    script = tmp_path / "starts.cardgame"
    script.write_text(WAR.read_text().replace(
        "var rounds: int = 0",
        "var rounds: int = 0\nvar flag: bool = all x in range(0, 3) where x >= 0\n"
        "var doubled: list of int = [x * 2 for x in range(0, 3)]\n"
        "var biggest: int = max x in [4, 9, 2] by x"))
    state = interpreter.load(str(script)).new_game(players=2, seed=1)
    assert state.fault is None
    assert [state.evaluate(name)[0] for name in ("flag", "doubled", "biggest")] == ["true", "[0, 2, 4, 6]", "9"]  # range includes its end
