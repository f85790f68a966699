"""Shedding games of tests/scripts/, each rule in a scenario: a climbing game of several-card
plays, Cheat (claims public, cards hidden, a doubt that catches a lie or not) and President (a
play matching the count and rising, a bomb out of turn, the scum's two highest cards given).
tests/test_codegen.py, tests/test_playout.py and tests/test_stepping.py play them too."""

from __future__ import annotations

from cardgame import interpreter
from helpers import arrange, load_script, moves, play_out, value_of


def test_climb_a_pair_is_beaten_by_a_higher_pair_and_twos_are_high():
    state = load_script("climb.cardgame").new_game(seed=1, players=3)
    assert not any(m == "pass" for m in moves(state))  # the leader cannot pass
    assert "play 10D 10H 10S" in moves(state)
    state.apply("play 7D 7H")
    # P1 holds 4C 4D, 5H 5S, 8C 8S, QD QH, 2D 2S: only pairs above sevens, 2 the highest rank
    assert moves(state) == {"play 8C 8S", "play QD QH", "play 2D 2S", "pass"}
    state.apply("play QD QH")
    state.apply("pass")
    state.apply("pass")
    assert state.view("all")["vars"]["to_beat"] == []  # everyone passed: the pile is cleared
    assert state.current_player == 1


def _cheat_table():
    state = load_script("cheat.cardgame").new_game(seed=1)
    return arrange(state, {"hand": {0: ["AS", "AD", "5C"], 1: ["2C", "3C"], 2: ["KH"]}, "pile": ["9C", "9D"]},
                   "stock")


def test_cheat_cards_are_played_one_at_a_time_and_the_claim_is_public_the_cards_are_not():
    state = _cheat_table()
    assert state.prompt == "Play a card as A" and moves(state) == {"play AS", "play AD", "play 5C"}
    state.apply("play AS")
    assert moves(state) == {"add AD", "add 5C", "claim"}
    state.apply("add 5C")
    state.apply("claim")
    assert (state.current_player, state.prompt) == (1, "P0 claims 2 × A: doubt it, or pass?")
    assert moves(state) == {"doubt_it", "pass"}
    assert state.view(1)["zones"]["last_play"]["P0"] == ["??", "??"]
    assert state.view(0)["zones"]["last_play"]["P0"] == ["AS", "5C"]


def test_cheat_a_caught_lie_takes_the_pile_and_an_honest_claim_gives_it_to_the_doubter():
    state = _cheat_table()
    for move in ["play AS", "add 5C", "claim"]:
        state.apply(move)
    caught = state.clone()
    caught.apply("doubt_it")  # 5C is no ace: P0 takes the pile and both cards; P2 is not asked
    zones = caught.view("all")["zones"]
    assert sorted(zones["hand"]["P0"]) == ["5C", "9C", "9D", "AD", "AS"] and zones["pile"] == []
    assert caught.current_player == 1 and caught.prompt == "Play a card as 2"
    honest = _cheat_table()
    for move in ["play AS", "add AD", "claim", "pass", "doubt_it"]:  # P1 passes, P2 doubts two aces
        honest.apply(move)
    zones = honest.view("all")["zones"]
    assert sorted(zones["hand"]["P2"]) == ["9C", "9D", "AD", "AS", "KH"] and zones["hand"]["P0"] == ["5C"]


def test_cheat_going_out_wins_unless_caught():
    state = _cheat_table()
    state = arrange(state, {"hand": {0: ["AS"], 1: ["2C", "3C"], 2: ["KH"]}}, "stock")
    state.apply("play AS")  # the last card: the claim is made at once
    state.apply("pass")
    state.apply("doubt_it")  # the truth: P2 takes the pile, P0 has won
    assert state.is_over and state.scores == [1, 0, 0]
    played = play_out(load_script("cheat.cardgame").new_game(seed=1), interpreter.RandomAgent(1), 20_000)
    assert played.is_over and not played.capped and played.scores == [0, 0, 1] and played.decisions == 248


def test_president_a_play_must_match_the_count_and_rise_and_a_bomb_answers_out_of_turn():
    state = load_script("president").new_game(players=3, seed=2)
    lead = state.current_player
    hands = {lead: ["5C", "5H", "9D"], (lead + 1) % 3: ["4C", "6C", "6D", "KS", "KH", "KD", "KC"],
             (lead + 2) % 3: ["7S", "7H", "2C"]}
    state = arrange(state, {"hand": hands}, "stock")
    assert moves(state) == {"play [5C, 5H]", "play [5C]", "play [5H]", "play [9D]"}  # the leader may not pass
    state.apply("play [5C, 5H]")
    # every other player holding cards is asked, holding a bomb or not
    assert (state.current_player, moves(state)) == ((lead + 2) % 3, {"pass"})
    state.apply("pass")
    assert (state.current_player, moves(state)) == ((lead + 1) % 3, {"bomb K", "pass"})
    after_pass = state.clone()
    after_pass.apply("pass")
    assert moves(after_pass) == {"play [6C, 6D]", "play [KS, KH]", "play [KS, KD]", "play [KS, KC]",
                                 "play [KH, KD]", "play [KH, KC]", "play [KD, KC]", "pass"}
    state.apply("bomb K")
    bomber = (lead + 1) % 3
    assert state.current_player == bomber and value_of(state, "top_count") == "0"  # a new trick, its lead
    assert state.view("all")["zones"]["pile"][-4:] == ["KS", "KH", "KD", "KC"]


def test_president_the_scum_gives_its_two_highest_cards():
    state = load_script("president").new_game(players=3, seed=2, options={"rounds": 2})
    agent = interpreter.RandomAgent(7)
    while state.phase != "exchange":
        state.apply(agent.choose(state.legal_moves()))
    scum = state.current_player
    assert value_of(state, "last_finish[-1]") == f"P{scum}"
    state = arrange(state, {"hand": {scum: ["3D", "AH", "2C", "AS", "9C"]}}, "stock")
    assert moves(state) == {"give AH 2C", "give AS 2C"}
