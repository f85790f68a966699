"""Games of tests/scripts/ whose play is not one seat after another, each rule in a scenario:
Slapjack (a jack asks every player at once and the first slap takes the pile)."""

from __future__ import annotations

from helpers import arrange, load_script, moves


def test_slapjack_a_jack_asks_every_player_and_a_slap_takes_the_pile():
    state = load_script("slapjack.cardgame").new_game(seed=1)
    state = arrange(state, {"hand": {0: ["2C", "JS"], 1: ["3C", "4C"], 2: ["5C"]}}, "stock")
    state.apply("flip")  # JS shows: P0, P1, P2 are asked in turn
    assert (state.current_player, moves(state)) == (0, {"slap_it", "pass"})
    state.apply("pass")
    assert (state.current_player, moves(state)) == (1, {"slap_it", "pass"})
    state.apply("slap_it")  # the first slap takes the pile and closes the window
    view = state.view("all")
    assert view["zones"]["pile"] == [] and view["zones"]["hand"]["P1"].count("JS") == 1
    assert state.current_player == 1 and moves(state) == {"flip"}  # then P1 turns a card as usual
