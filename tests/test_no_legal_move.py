"""A decision with no legal move: the game faults, and its hint says whose decision it was."""

from __future__ import annotations

from helpers import EMPTY_HANDED, load_text


def test_a_decision_without_a_legal_move_says_whose_it_was(tmp_path):
    # It said "this decision has no legal move" at `decide p`, never which of the players.
    state = load_text(tmp_path, EMPTY_HANDED).new_game(players=3, seed=0)
    state.apply(state.legal_moves()[0].text)
    assert state.legal_moves() == []
    assert state.fault.message == "this decision has no legal move, so the game cannot go on"
    assert state.fault.hint.startswith("P1 had nothing to choose here; ")
