"""Shedding games of tests/scripts/, each rule in a scenario: a climbing game of several-card plays,
Cheat (claims public, cards hidden, a doubt that catches a lie or not), President (a play matching
the count and rising, a bomb out of turn, the scum's two highest cards given), Palace (equal or
higher, twos and tens, the face-up cards then the blind ones) and an Uno-like game of action cards.
tests/test_codegen.py, tests/test_playout.py and tests/test_stepping.py play them too."""

from __future__ import annotations

from cardgame import interpreter
from helpers import arrange, load_script, moves, play_out, value_of
from cardgame.interpreter.studies.simulate import simulate


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


def _palace(layout: dict):
    from helpers import arrange
    state = load_script("shithead").new_game(players=2, seed=1)
    assert state.phase == "take_turn" and state.current_player == 0
    return arrange(state, layout, "burnt")


PALACE = {"hand": {0: ["5C", "9C", "9D", "2C", "10C", "KC"], 1: ["3C"]},
          "table_up": {0: ["JC"], 1: ["JD"]}, "table_down": {0: ["QC"], 1: ["QD"]}, "pile": ["9H"]}


def test_palace_plays_equal_or_higher_a_two_or_a_ten_on_anything_or_picks_up():
    from helpers import moves
    assert moves(_palace(PALACE)) == {"play 9 1", "play 9 2", "play 2 1", "play 10 1", "play K 1", "pick_up"}


def test_palace_a_ten_burns_the_pile_and_the_same_player_plays_again():
    state = _palace(PALACE)
    state.apply("play 10 1")
    assert state.current_player == 0
    assert state.evaluate("[count(pile), count(burnt) > 2]")[0] == "[0, true]"


def test_palace_plays_from_the_face_up_cards_once_the_hand_is_empty_then_blind():
    from helpers import moves
    layout = dict(PALACE, hand={0: [], 1: ["3C"]}, table_up={0: ["JC", "4C"], 1: ["JD"]})
    assert moves(_palace(layout)) == {"play J 1", "pick_up"}
    layout = dict(PALACE, hand={0: ["KC", "5C"], 1: []}, table_up={0: [], 1: []}, table_down={0: [], 1: ["QD", "4D"]})
    state = _palace(layout)
    state.apply("play K 1")
    assert state.current_player == 1 and moves(state) == {"blind 0", "blind 1"}
    state.apply("blind 1")  # the 4 cannot go on the king: picked up with the pile
    assert state.evaluate("cards(hand[P1])")[0] == "[9H, KC, 4D]"


def test_palace_every_game_ends_or_is_capped():
    stats = simulate(load_script("shithead"), 20, 3, 0, {})
    assert stats["outcomes"]["faulted"] == 0 and stats["outcomes"]["limit"] == 0
    assert stats["drawn_with_one_loser"] == stats["outcomes"]["drawn"] > 0


def _uno(players: int, hands: dict):
    from helpers import arrange
    state = load_script("uno").new_game(players=players, seed=1)
    assert state.current_player == 0 and state.phase == "take_turn"
    state = arrange(state, {"hand": hands, "discard": ["R5a"]}, "draw_pile")
    return state


def test_uno_plays_the_colour_asked_the_same_face_or_a_wild_card():
    from helpers import moves
    state = _uno(3, {0: ["R7a", "G5a", "B9a", "W.1", "Yskipa"], 1: ["G1a"], 2: ["G2a"]})
    state = _with_asked(state, "R")
    assert moves(state) == {"play R7a", "play G5a", "play W.1", "draw"}


def _with_asked(state, colour: str):
    from helpers import with_vars
    return with_vars(state, asked=colour)


def test_uno_a_draw_two_makes_the_next_player_draw_and_miss_the_turn():
    state = _with_asked(_uno(3, {0: ["Rdraw2a", "G5a"], 1: ["G1a"], 2: ["G2a"]}), "R")
    state.apply("play Rdraw2a")
    assert state.current_player == 2 and state.evaluate("count(hand[P1])")[0] == "3"


def test_uno_a_wild_names_the_colour_and_a_reverse_between_two_is_a_skip():
    from helpers import moves
    state = _with_asked(_uno(2, {0: ["W.1", "Rreversea", "G5a"], 1: ["G1a", "B1a"]}), "R")
    state.apply("play W.1")
    assert moves(state) == {"name_colour R", "name_colour Y", "name_colour G", "name_colour B"}
    state.apply("name_colour B")
    assert state.current_player == 1 and state.evaluate("asked")[0] == "B"
    state = _with_asked(_uno(2, {0: ["Rreversea", "G5a"], 1: ["G1a", "B1a"]}), "R")
    state.apply("play Rreversea")
    assert state.current_player == 0


def test_uno_every_game_ends_with_one_winner():
    stats = simulate(load_script("uno"), 20, 3, 0, {})
    assert stats["outcomes"]["won"] == 20
