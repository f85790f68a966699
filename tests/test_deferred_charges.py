"""Playout operations check their constant step charges only where they hand the position on
(flow.deferred_step_charges): a budget crossed at a statement whose own check was left out is
found at the next return or round of the loop, and the playout is played again the API's way
(runtime.Redo), so it ends with the API's fault, at the same statement, with the same work."""

from __future__ import annotations

import re

from cardgame import interpreter
from cardgame.interpreter.codegen.flow import deferred_step_charges
from cardgame.interpreter.codegen.text_passes import first_charge_stored

from test_playout import _ends_alike
from cardgame.interpreter.studies import playout as playout_module

_STEP = ["st.work += 5", "if st.work > st.work_limit:", "    _over_budget(st, None)"]


def test_constant_charges_are_added_up_and_checked_where_the_operation_leaves():
    lines = (["fr[1] = 3"] + _STEP + ["L[1] = 2", "fr[1] = 4"] + _STEP
             + ["if h < 16:", "    fr[1] = 5"] + ["    " + x for x in _STEP] + ["    return CODES9[5](st, fr, h + 1)",
                                                                           "fr[1] = 5", "return"])
    assert deferred_step_charges(lines) == [
        "fr[1] = 3", "L[1] = 2", "fr[1] = 4",
        "if h < 16:", "    fr[1] = 5", "    st.work += 15", "    return CODES9[5](st, fr, h + 1)",  # it checks on
        "fr[1] = 5", "st.work += 10", "if st.work > st.work_limit:", "    raise _Redo", "return"]


def test_a_charge_is_written_before_what_reads_the_work_and_a_varying_one_keeps_its_check():
    lines = (_STEP + ["t1 = B7(st, L[0])"] + _STEP + ["st.work += len(t1)", "if st.work > st.work_limit:",
                                                    "    _over_budget(st, S3)", "L[2] = t1"] + _STEP
             + ["if t1:"] + ["    " + x for x in _STEP] + ["    continue", "else:", "    L[3] = 1"] + _STEP[:1])
    assert deferred_step_charges(lines) == [
        "st.work += 5", "t1 = B7(st, L[0])",  # the callee sees the count
        "st.work += 5", "st.work += len(t1)", "if st.work > st.work_limit:", "    _over_budget(st, S3)", "L[2] = t1",
        "if t1:", "    st.work += 10", "    if st.work > st.work_limit:", "        raise _Redo", "    continue",
        "else:", "    L[3] = 1", "    st.work += 5", "st.work += 5", "if st.work > st.work_limit:", "    raise _Redo"]


def test_a_try_and_a_loop_are_kept_as_written():
    body = ["try:", "    st.work += 5", "    if st.work > st.work_limit:", "        _over_budget(st, None)",
            "    t2 = 1 // L[0]", "except ZeroDivisionError:", "    t2 = 0",
            "for q in L[1]:", "    st.work += 1", "    if st.work > st.work_limit:", "        _over_budget(st, S2)"]
    assert deferred_step_charges(_STEP + body + ["return"]) == ["st.work += 5"] + body + [
        "if st.work > st.work_limit:", "    raise _Redo", "return"]


# A move of many statements (one round of the loop), branches and a loop whose length grows:
# per-move budgets from 1 up run out at every statement of it in turn, in a built-in that charges too,
# and before a division that faults (x is 6 in some games).
STRAIGHT = """game "Straight"
players 2
var x: int = 0
var y: int = 0
var n: int = 0
phase main {
    loop {
        decide seat(0) "go" {
            go
            hop { set x += 1 }
        }
        set x += 1
        set y += x
        set y += sum(range(0, x))
        set y += 12 / (6 - x)
        if x > 3 {
            set y += 2
        } else {
            set x += 1
        }
        set n = 0
        while n < x {
            set n += 1
        }
        set y += n
        if y > 60 {
            end game
        }
    }
}
"""

RUNAWAY = """game "Runaway"
players 2
var n: int = 0
phase main {
    decide seat(0) "go" { go }
    set n = 1
    while n > 0 {
        set n += 1
        set n -= 1
    }
    end game
}
"""


def _game(tmp_path, name, text):
    (tmp_path / name).write_text(text)
    return interpreter.load(str(tmp_path / name))


def _replays(monkeypatch) -> list:
    """The playouts played again the API's way (play_random's second run, with codes None)."""
    again = []
    real = playout_module._play

    def play(st, rng, max_decisions, tally, codes):
        again.extend([] if codes is not None else [st.decisions])
        return real(st, rng, max_decisions, tally, codes)
    monkeypatch.setattr(playout_module, "_play", play)
    return again


def test_a_budget_crossed_at_a_statement_not_checked_faults_as_in_the_api(tmp_path, monkeypatch):
    game = _game(tmp_path, "straight.cardgame", STRAIGHT)
    game.program.make_playout_codes()
    playouts = "\n".join(s for s in game.program.compiler.gen.sources if s.startswith("def playout"))
    assert "_steps_over" not in playouts and "raise _Redo" in playouts
    again = _replays(monkeypatch)
    faults = set()
    for per_move in range(1, 200):
        faults.add(_ends_alike(game, 2, per_move % 3, budget=(per_move, None)))
    assert {None, "this move did more than", "division by zero"} <= {f and f[:23] for f in faults}, faults
    assert again, "no playout ran past a crossing it had not checked"


def test_a_runaway_loop_is_still_stopped_by_the_budget(tmp_path, monkeypatch):
    game = _game(tmp_path, "runaway.cardgame", RUNAWAY)
    again = _replays(monkeypatch)
    for per_move in (50, 1_000, 20_000):
        fault = _ends_alike(game, 2, 0, budget=(per_move, None))
        assert re.match(rf"this move did more than {per_move:,} units", fault), fault
    assert len(again) == 3


def test_near_the_games_budget_a_decision_is_handed_back_to_the_loop(tmp_path, monkeypatch):
    """Playout.far: once the game's work is within two moves' budgets of its own, a decision
    is no longer drawn in place (its limits need arithmetic there) but left to play_random's
    loop, which plays it the API's way; the games are the API's, to the game's budget."""
    game = _game(tmp_path, "straight.cardgame", STRAIGHT)
    applied = []
    real = playout_module.apply_move
    monkeypatch.setattr(playout_module, "apply_move", lambda st, move, *rest: (applied.append(st.decisions),
                                                                                    real(st, move, *rest)))
    again = _replays(monkeypatch)
    for per_game, handed_back in ((500, True), (600, True), (900, False)):  # the game uses 434 units
        applied.clear()
        assert _ends_alike(game, 2, 1, budget=(200, per_game)) is None  # its moves use 106 to 176
        assert (len(applied) > 1) == handed_back and applied[0] == 0, (per_game, applied)
    assert not again


def test_a_round_that_starts_with_a_check_of_its_own_goes_round_unchecked():
    top = ["t1 = L[0]", "st.work += len(t1)", "if st.work > st.work_limit:", "    _over_budget(st, S1)"]
    out = deferred_step_charges(top + _STEP + ["continue"])
    assert out == top + ["st.work += 5", "continue"]
    drawn = ["w4 = st.work", "if w4 + 5 <= st.work_limit and st.decisions < po3.stop:", "    L[1] = 1"]
    assert deferred_step_charges(drawn + _STEP + ["continue"])[-2:] == ["st.work += 5", "continue"]
    assert deferred_step_charges(["L[1] = 1"] + _STEP + ["continue"])[-3:] == [
        "if st.work > st.work_limit:", "    raise _Redo", "continue"]


def test_a_playout_listings_first_charge_is_stored_as_the_count():
    lines = ["st.work = 0", "out = []", "d1 = st.zones[(4 + L[0])]", "st.work += len(d1)", "if d1:",
             "    st.work += 1"]
    assert first_charge_stored(lines) == ["out = []", "d1 = st.zones[(4 + L[0])]", "st.work = len(d1)", "if d1:",
                                          "    st.work += 1"]
    handed = ["st.work = 0", "offers = _offers(st, DEC1)", "st.work += 2"]
    assert first_charge_stored(handed) == handed
