"""Games of tests/scripts/ whose play is not one seat after another, each rule in a scenario:
simultaneous choices (Sushi Go, 6 nimmt!), answers at any time (Exploding Kittens' nopes,
Slapjack's slap), several cards at once (Durak, Scopa), one player alone (Klondike); every game
of the first six ends at its fewest and most players, and a player listed twice in a
simultaneous decision is asked once.  tests/test_codegen.py, tests/test_playout.py and
tests/test_stepping.py play them too."""

from __future__ import annotations

import pytest

from helpers import (EMPTY_HANDED, arrange, ends_at_the_fewest_and_the_most_players, load_script, load_text, moves,
                     with_vars)


FLOW_GAMES = ["sushi_go", "six_nimmt", "exploding_kittens", "durak", "klondike", "scopa"]


def _value(state, expression: str) -> str:
    value, diags = state.evaluate(expression)
    assert value is not None, diags
    return value


@pytest.mark.parametrize("name", FLOW_GAMES)
def test_every_game_ends_at_the_fewest_and_the_most_players(name):
    ends_at_the_fewest_and_the_most_players(load_script(name))


def test_sushi_go_chopsticks_take_two_cards_and_maki_majorities_score():
    state = arrange(load_script("sushi_go").new_game(players=2, seed=1),
                    {"tray": {0: ["maki3.1", "maki2.1", "chopsticks.1"], 1: ["maki3.2"]},
                     "hand": {0: ["tempura.1", "sashimi.1", "egg.1"], 1: ["salmon.1", "squid.1", "pudding.1"]}},
                    "box")
    assert moves(state) == {"pick tempura.1", "pick sashimi.1", "pick egg.1", "two tempura.1 sashimi.1",
                            "two tempura.1 egg.1", "two sashimi.1 egg.1"}
    assert _value(state, "[maki_points(q) for q in players]") == "[6, 3]"
    state.apply("two tempura.1 egg.1")
    state.apply("pick salmon.1")
    # the chopsticks went back into the hand, which was passed on to P1
    assert _value(state, "cards(tray[P0])") == "[maki3.1, maki2.1, tempura.1, egg.1]"
    assert _value(state, "cards(hand[P1])") == "[sashimi.1, chopsticks.1]"


def test_six_nimmt_a_low_card_takes_a_chosen_row_and_the_sixth_card_takes_the_row():
    state = arrange(load_script("six_nimmt").new_game(players=2, seed=1),
                    {"row1": ["10"], "row2": ["20"], "row3": ["30"], "row4": ["40", "41", "42", "43", "44"],
                     "hand": {0: ["5", "60"], 1: ["45", "70"]}}, "box")
    state.apply("play 5")
    state.apply("play 45")
    assert state.current_player == 0 and moves(state) == {"take row1", "take row2", "take row3", "take row4"}
    state.apply("take row1")
    assert [_value(state, e) for e in ("cards(row1)", "cards(row4)", "cards(bulls[P1])", "penalty(P1)")] == \
        ["[5]", "[45]", "[40, 41, 42, 43, 44]", "11"]


def test_exploding_kittens_a_nope_of_a_nope_lets_the_action_happen():
    state = arrange(load_script("exploding_kittens").new_game(players=2, seed=1),
                    {"hand": {0: ["skip.1", "nope.2"], 1: ["nope.1"]}, "stock": ["taco.1", "melon.1"]}, "box")
    assert moves(state) == {"play skip.1", "draw"}
    state.apply("play skip.1")
    assert (state.current_player, moves(state)) == (1, {"nope nope.1", "pass"})
    state.apply("nope nope.1")
    assert (state.current_player, moves(state)) == (0, {"nope nope.2", "pass"})
    state.apply("nope nope.2")
    state.apply("pass")
    # skipped: P1's turn, and P0 drew nothing
    assert state.current_player == 1 and _value(state, "[count(hand[P0]), count(stock)]") == "[0, 2]"


def test_exploding_kittens_a_defused_kitten_goes_back_where_its_player_says():
    state = arrange(load_script("exploding_kittens").new_game(players=2, seed=1),
                    {"hand": {0: ["defuse.1", "taco.1"], 1: ["melon.1"]}, "stock": ["taco.2", "melon.2", "kitten.1"]},
                    "box")
    state.apply("draw")
    assert moves(state) == {"put 0", "put 1", "put 2"}
    state.apply("put 1")
    assert _value(state, "cards(stock)") == "[taco.2, kitten.1, melon.2]"  # one card above it
    assert state.current_player == 1 and _value(state, "alive[P0]") == "true"


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


def test_durak_the_defender_beats_higher_in_suit_or_with_a_trump_and_ranks_on_the_table_are_thrown_in():
    state = with_vars(arrange(load_script("durak").new_game(players=2, seed=1),
                              {"hand": {0: ["9H", "9C"], 1: ["10H", "6S", "7D", "AC", "8H"]}}, "stock"), trump="D")
    assert moves(state) == {"attack 9 9H", "attack 9 9C", "attack 9 9C 9H"}
    state.apply("attack 9 9H")
    assert moves(state) == {"beat 10H 9H", "beat 7D 9H", "take"}
    state.apply("beat 10H 9H")
    assert (state.current_player, moves(state)) == (0, {"throw 9C", "pass"})


def test_scopa_a_card_of_the_same_value_is_taken_alone_and_a_card_that_can_capture_must():
    state = arrange(load_script("scopa").new_game(players=2, seed=1),
                    {"table": ["3coins", "4cups", "7swords"], "hand": {0: ["7coins", "Kcups", "2clubs"], 1: ["Acups"]}},
                    "deck")
    # not `take 7coins 3coins 4cups` (a seven lies on the table), nor `lay 7coins` or `lay Kcups`
    assert moves(state) == {"take 7coins 7swords", "take Kcups 3coins 7swords", "lay 2clubs"}


def test_klondike_offers_only_useful_moves_and_gives_up_only_when_stuck():
    state = load_script("klondike").new_game(players=1, seed=1)
    assert [m.text for m in state.legal_moves()] == ["draw", "home AD", "shift t7 5D t2", "shift t7 5D t3"]
    # the waste's queen cannot go on the king of its colour; the stock was turned over twice
    position = arrange(state, {"t1": ["KS"], "waste": ["QS"], "stock": []}, "t2")
    assert moves(position) == {"turn"}
    assert moves(with_vars(position, passes=3)) == {"give_up"}


def test_face_up_of_the_top_of_an_empty_pile_is_false_not_a_fault():
    # Klondike's `[top(t) for t in piles where face_up(top(t))]` stopped the game ("`face_up`
    # cannot use this value (none?)") once a pile was empty; none flows through the other card
    # built-ins (an attribute of none is none).
    state = load_script("klondike").new_game(players=1, seed=1)
    assert [_value(state, e) for e in ("face_up(top(waste))", "zone_of(top(waste))", "owner(top(waste))")] == \
        ["false", "none", "none"]


def test_a_player_listed_twice_in_a_simultaneous_decision_is_asked_once(tmp_path):
    # `simultaneously for p in [seat(0), seat(0), seat(1)]` asked P0 twice (both choices made on
    # the same position); a reaction window gathers each player once.
    text = EMPTY_HANDED.replace("deal 1 from stock to hand of [seat(0), seat(2)]",
                                "deal 1 from stock to hand of players").replace(
        "simultaneously for p in players", "simultaneously for p in [seat(0), seat(0), seat(1)]")
    state = load_text(tmp_path, text).new_game(players=3, seed=0)
    state.apply(state.legal_moves()[0].text)
    assert state.current_player == 1
    state.apply(state.legal_moves()[0].text)
    assert state.is_over and _value(state, "count(pile)") == "2"
