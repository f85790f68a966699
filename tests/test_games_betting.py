"""Betting games of tests/scripts/, each rule in a scenario: Blackjack (an ace as eleven or one,
the house drawing to 17) and limit Hold'em (hand values, a bet and three raises, the best five of
seven cards).  tests/test_codegen.py, tests/test_playout.py and tests/test_stepping.py play them
too."""

from __future__ import annotations

from cardgame import interpreter
from helpers import arrange, load_script, moves, play_out


def test_blackjack_an_ace_counts_eleven_or_one_whichever_keeps_the_hand_at_21():
    state = load_script("blackjack.cardgame").new_game(seed=1)
    totals = {"[AS, KD]": 21, "[AS, AD, 9C]": 21, "[AS, KD, 5H]": 16, "[AS, AD, AH, AC]": 14, "[KS, QD, 2C]": 22}
    assert {hand: int(state.evaluate(f"total({hand})")[0]) for hand in totals} == totals
    assert moves(state) == {f"wager {n}" for n in range(1, 11)}


def test_blackjack_the_house_draws_to_17_and_pays_the_better_hand():
    state = load_script("blackjack.cardgame").new_game(seed=1)
    state.apply("wager 5")
    state.apply("wager 3")
    # the shoe's top cards are then AH, AD (the cards not placed, in deck order): the house's 5S
    # draws AH (16), then AD (27, one ace counted as 1: 17) and stops
    state = arrange(state, {"hand": {0: ["AS", "KD"], 1: ["9C", "7H"]}, "dealer_hand": ["5S"]}, "shoe")
    hit = state.clone()
    for move in ["stand", "stand"]:
        state.apply(move)
    assert state.view("all")["vars"]["chips"] == {"P0": 105, "P1": 97}  # 21 beats 17, 16 loses to it
    hit.apply("stand")
    hit.apply("hit")  # P1 draws AH: 9 + 7 + 1 = 17, still under 21, so asked again
    assert hit.view("all")["zones"]["hand"]["P1"] == ["9C", "7H", "AH"]
    assert hit.current_player == 1 and moves(hit) == {"hit", "stand"}


def test_holdem_hand_values_rank_the_nine_categories_and_the_wheel_is_the_lowest_straight():
    state = load_script("holdem.cardgame").new_game(seed=1)
    hands = ["[AS, KS, QS, JS, 10S]", "[AH, 2H, 3H, 4H, 5H]", "[9C, 9D, 9H, 9S, 2C]", "[3C, 3D, 3H, KS, KC]",
             "[2D, 7D, 9D, JD, KD]", "[6C, 7D, 8H, 9S, 10C]", "[AC, 2D, 3H, 4S, 5C]", "[QC, QD, QH, 2S, 7C]",
             "[JC, JD, 4H, 4S, AC]", "[8C, 8D, AH, KS, 2C]", "[AC, JD, 9H, 5S, 3C]"]
    values = [int(state.evaluate(f"hand_value({h})")[0]) for h in hands]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    assert [state.evaluate(f"category({h})")[0] for h in hands] == [str(c) for c in [8, 8, 7, 6, 5, 4, 4, 3, 2, 1, 0]]
    same = [state.evaluate(f"hand_value({h})")[0] for h in ["[6C, 7D, 8H, 9S, 10C]", "[10D, 9D, 8D, 7D, 6S]"]]
    assert same[0] == same[1]  # suits never break a tie


def test_holdem_limit_betting_allows_a_bet_and_three_raises():
    state = load_script("holdem.cardgame").new_game(seed=1, players=3)
    assert (state.current_player, state.prompt) == (0, "2 to call, 3 in the pot")  # blinds 1 and 2 posted
    assert moves(state) == {"call", "raise", "fold"}
    for move in ["raise", "raise", "raise"]:
        state.apply(move)
    assert (state.current_player, moves(state)) == (0, {"call", "fold"})  # the cap: 8 to match
    state.apply("call")
    state.apply("call")
    assert state.view("all")["zones"]["board"] == ["QC", "7S", "5C"] and state.view("all")["vars"]["pot"] == 24
    assert (state.current_player, moves(state)) == (1, {"check", "bet"})  # the flop: nothing bet yet


def test_holdem_the_best_five_of_seven_cards_takes_the_pot():
    game = load_script("holdem.cardgame")
    board = ["3S", "2S", "QD", "JH", "10H"]  # the stock's top cards: the flop 10H JH QD, then 2S, 3S
    for p2, scores in ((["8D", "9C"], [98, 98, 104]), (["7C", "8D"], [104, 98, 98])):
        state = game.new_game(seed=1, players=3, options={"hands": 1})
        state = arrange(state, {"hand": {0: ["2C", "3D"], 1: ["4H", "5S"], 2: p2}, "stock": board}, "mucked")
        for move in ["call", "call"] + ["check"] * 10:
            state.apply(move)
        # 8D 9C makes a straight to the queen; 7C 8D nothing, and P0's two pair (threes, twos) wins
        assert state.is_over and state.scores == scores
    played = play_out(game.new_game(seed=1, players=4), interpreter.RandomAgent(1), 20_000)
    assert played.is_over and played.scores == [100, 99, 74, 127] and played.decisions == 222
