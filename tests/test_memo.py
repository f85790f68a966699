"""A definition's value is computed once while nothing changes (codegen.Gen.define_fn): every
use sees what a fresh computation would give, and is charged the work it would cost, so the
fast code plays exactly like the traced reference, which computes every use."""

from __future__ import annotations

import pytest

import interpreter
from test_codegen import _load

SCRIPT = '''game "Memo"
players 2
deck d in pile {
    rank: 1, 2, 3
    suit: A
    name: rank suit
}
zone pile: shared public
zone gone: shared public
var x: int = 0
var y: int = 0
define heavy = count a in range(1, 50) where a > x + count(gone)
rule small(n: int) "Small enough."
    require n * 10 <= heavy + heavy
phase main {
    set y = heavy + heavy + heavy + heavy
    set x += 1
    set y += heavy
    move top(pile) to gone
    set y += heavy + count(gone)
    decide seat(0) {
        pick(n in 1..9) requires small(n)
    }
    set y += heavy
    end game
}
'''


@pytest.fixture
def games(tmp_path):
    path = tmp_path / "memo.cardgame"
    path.write_text(SCRIPT)
    return _load(path, traced=True), _load(path, traced=False)


def test_the_fast_code_shares_the_definition(games):
    _, fast = games
    source = next(s for s in fast.program.compiler.gen.sources if s.startswith("def D_heavy"))
    assert "st.memo.get(" in source


def test_a_definition_read_after_a_change_sees_the_new_value(games):
    for game in games:
        state = game.new_game()
        # range(1, 50) holds 50 numbers; x = 0, nothing gone: 50 four times; x = 1: 49; a card gone: 48 + 1
        assert state.vars[game.program.var_slots["y"]] == 4 * 50 + 49 + 49
        assert sorted(m.text for m in state.legal_moves()) == [f"pick {n}" for n in range(1, 10)]
        state.apply("pick 9")
        assert state.vars[game.program.var_slots["y"]] == 4 * 50 + 49 + 49 + 48


def test_a_shared_definition_runs_out_of_work_where_each_computation_would(games):
    # every budget from too small for one computation to enough for all: same fault, same span,
    # same variables (a reuse that would pass the limit computes again and faults inside)
    seen = set()
    for budget in range(1, 700, 3):
        results = []
        for game in games:
            state = game.new_game(max_game_work=budget)
            fault = state.fault
            results.append((state.vars, fault and (fault.message, fault.span)))
        assert results[0] == results[1], budget
        seen.add(results[0][1] and results[0][1][1].line)
    # faults inside the definition (line 12: its first computation, or a reuse computed again),
    # at the statements that use it, and none
    assert {12, 16, 20, None} <= seen


def test_a_listing_that_shares_a_definition_runs_out_where_it_would(games):
    seen = set()
    for budget in range(600, 2000, 9):  # the set-up takes 616 units, the listing 1,827
        results = []
        for game in games:
            state = game.new_game(max_work=budget, max_game_work=100_000)
            moves = state.legal_moves() if state.fault is None else None
            fault = state.fault
            results.append((moves and [m.text for m in moves], fault and (fault.message, fault.span)))
        assert results[0] == results[1], budget
        seen.add(results[0][1] is None)
    assert seen == {True, False}


def test_a_definition_cannot_draw_so_a_shared_value_is_never_a_draw(tmp_path):
    # chance is refused in a definition (E0218): a shared definition's value never stands for a draw
    path = tmp_path / "draw.cardgame"
    path.write_text(SCRIPT.replace("define heavy = ", "define heavy = random(1, 6) + "))
    with pytest.raises(interpreter.ScriptError) as refused:
        interpreter.load(str(path))
    assert "E0218" in {d.code for d in refused.value.diagnostics}


def test_an_evaluation_compiles_its_own_definitions_beside_the_games(games):
    # the REPL's evaluate() compiles the expression with a generator of its own, over the same
    # state: its definitions never take the places of the game's in State.memo
    _, fast = games
    state = fast.new_game()
    state.legal_moves()  # the listing computed `heavy` into the memo
    assert state.evaluate("heavy")[0] == "48"
    assert state.evaluate("[heavy, x]")[0] == "[48, 1]"
    state.apply("pick 9")
    assert state.vars[fast.program.var_slots["y"]] == 4 * 50 + 49 + 49 + 48
