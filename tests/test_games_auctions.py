"""Games of an auction and a contract in tests/scripts/, each rule in a scenario: contract bridge
(bids that rise, doubles, the declarer playing dummy's cards, the score of a contract made or
set), Skat (the bidding, the skat laid away, matadors, jacks as trumps) and partnership pinochle
(meld, identical cards, trumping when void); what the skat, the crib and the meld tell each seat;
and every game ends at its fewest and most players, cribbage and President with them (their rules
are in tests/test_games_melds_and_captures.py and tests/test_games_shedding.py)."""

from __future__ import annotations

import pytest

from helpers import arrange, ends_at_the_fewest_and_the_most_players, load_script, moves, value_of, with_vars


AUCTION_GAMES = ["bridge", "skat", "pinochle", "cribbage", "president"]


@pytest.mark.parametrize("name", AUCTION_GAMES)
def test_every_game_ends_at_the_fewest_and_the_most_players(name):
    ends_at_the_fewest_and_the_most_players(load_script(name))


def test_bridge_bids_must_rise_and_doubles_answer_the_opponents():
    state = load_script("bridge").new_game(seed=1)
    state.apply("bid 1 H")
    offered = moves(state)
    assert {"bid 1 C", "bid 1 D", "bid 1 H", "redouble"}.isdisjoint(offered)
    assert {"bid 1 S", "notrump 1", "bid 7 S", "notrump 7", "pass", "double"} <= offered and len(offered) == 34
    state.apply("double")
    assert "redouble" in moves(state) and "double" not in moves(state)  # P2: partner of the bidder
    state.apply("pass")
    assert {"double", "redouble"}.isdisjoint(moves(state))  # P3: the bid is already doubled by its side


def test_bridge_four_passes_pass_the_deal_out():
    state = load_script("bridge").new_game(seed=1)
    for move in ("pass", "pass", "pass", "pass"):
        state.apply(move)
    assert state.is_over and state.scores == [0, 0, 0, 0]


def test_bridge_the_declarer_named_the_strain_first_and_plays_dummys_cards():
    state = load_script("bridge").new_game(seed=1)
    for move in ("bid 1 H", "pass", "bid 2 H", "pass", "pass", "pass"):
        state.apply(move)
    assert value_of(state, "[declarer, dummy, leader]") == "[P0, P2, P1]"
    state = arrange(state, {"hand": {1: ["5S", "9D", "2C"], 2: ["QS", "3S", "4H"], 3: ["KD", "7C", "8C"],
                                     0: ["AS", "2H", "6D"]}}, "stock")
    assert state.view(1)["zones"]["hand"]["P2"] == ["??", "??", "??"]  # dummy is not down yet
    state.apply("play 5S")
    # dummy's hand lies face up; the declarer, P0, follows suit from it
    assert state.view(1)["zones"]["hand"]["P2"] == ["QS", "3S", "4H"]
    assert (state.current_player, state.prompt, moves(state)) == (0, "Play a card from P2's hand",
                                                                   {"play QS", "play 3S"})
    state.apply("play 3S")
    assert moves(state) == {"play KD", "play 7C", "play 8C"}  # P3 has no spade
    state.apply("play 7C")
    assert moves(state) == {"play AS"}
    state.apply("play AS")
    assert (value_of(state, "leader"), value_of(state, "tricks")) == ("P0", "[1, 0]")


def test_bridge_scores_the_contract_made_or_set():
    state = load_script("bridge").new_game(seed=1)
    assert value_of(with_vars(state, bid_level=4, bid_strain=2, doubled=0), "contract_points + bonus") == "420"
    assert value_of(with_vars(state, bid_level=3, bid_strain=4, doubled=0), "contract_points + bonus") == "400"
    doubled_slam = with_vars(state, bid_level=6, bid_strain=0, doubled=1)
    assert value_of(doubled_slam, "[contract_points + bonus, undertrick_cost(3)]") == "[1090, 500]"
    assert value_of(with_vars(state, bid_level=6, bid_strain=0, doubled=2), "undertrick_cost(4)") == "1600"


def _skat_declarer_p2():
    """Middlehand says 18, forehand holds, middlehand passes; rearhand says 20, forehand passes."""
    state = load_script("skat").new_game(seed=3)
    assert state.current_player == 1 and len(moves(state)) == 21  # say 18 to 60, or pass
    state.apply("say 18")
    assert moves(state) == {"hold", "pass"}
    for move in ("hold", "pass", "say 20", "pass"):
        state.apply(move)
    assert (value_of(state, "declarer"), value_of(state, "high_bid")) == ("P2", "20")
    return state


def test_skat_the_declarer_lays_away_two_cards_that_only_it_knows():
    state = _skat_declarer_p2()
    assert state.prompt == "Lay away two cards" and len(moves(state)) == 66
    state.apply(sorted(moves(state))[0])
    laid = state.view("all")["zones"]["skat"]
    assert state.view(2)["zones"]["skat"] == laid and "??" not in laid
    assert state.view(0)["zones"]["skat"] == state.view(1)["zones"]["skat"] == ["??", "??"]


SKAT_HANDS = {2: ["JC", "JS", "AH", "10H", "KH", "7D", "8D", "9D", "10D", "QD", "7C", "8C"],
              0: ["JH", "JD", "QH", "9H", "8H", "7H", "AC", "10C", "KC", "QC"],
              1: ["AS", "10S", "KS", "QS", "9S", "8S", "7S", "AD", "KD", "9C"]}


def test_skat_counts_matadors_with_and_without_and_120_card_points():
    state = arrange(_skat_declarer_p2(), {"hand": SKAT_HANDS}, "skat")
    hearts = with_vars(state, trump="H")
    assert value_of(hearts, "[count_matadors(cards(hand[q])) for q in players]") == "[2, 11, 2]"
    assert value_of(with_vars(state, trump="D"), "count_matadors(cards(hand[P1]))") == "4"
    assert value_of(state, "card_points([y for q in players for y in hand[q]])") == "120"


def test_skat_jacks_follow_the_trump_suit_not_their_own():
    state = _skat_declarer_p2()
    state.apply("lay_away 7C 8C" if "lay_away 7C 8C" in moves(state) else sorted(moves(state))[0])
    state.apply("suit_game H")
    state = arrange(state, {"hand": {0: ["JD", "9H", "AC"], 1: ["JH", "AD", "7S"], 2: ["QH", "KD", "8S"]}}, "stock")
    trumps_led = with_vars(state, led="H")
    assert moves(trumps_led) == {"play JD", "play 9H"}  # a jack is a trump
    diamonds_led = with_vars(state, led="D")
    assert moves(diamonds_led) == {"play JD", "play 9H", "play AC"}  # JD is no diamond: void


def _pinochle_after_the_auction():
    state = load_script("pinochle").new_game(seed=1)
    assert len(moves(state)) == 32  # bid 20 to 50, or pass
    for move in ("bid 25", "pass", "pass", "pass"):
        state.apply(move)
    assert moves(state) == {"name_trump C", "name_trump D", "name_trump H", "name_trump S"}
    state.apply("name_trump S")
    return state


def test_pinochle_meld_counts_runs_pinochles_and_arounds():
    state = _pinochle_after_the_auction()
    run_and_pinochle = ["ASa", "10Sa", "KSa", "QSa", "JSa", "9Sa", "QSb", "JDa", "KHa", "QHa", "ACa", "ADa"]
    double_pinochle = ["QSa", "QSb", "JDa", "JDb", "ACa", "ADa", "AHa", "ASa", "KCa", "QCa", "9Ha", "10Ha"]
    # a run 15 (its royal marriage in it), a dix 1, a pinochle 4, a marriage 2; no aces around
    assert value_of(arrange(state, {"hand": {0: run_and_pinochle}}, "stock"), "meld_points(cards(hand[P0]))") == "22"
    # a double pinochle 30, aces around 10, a marriage 2
    assert value_of(arrange(state, {"hand": {1: double_pinochle}}, "stock"), "meld_points(cards(hand[P1]))") == "42"


def test_pinochle_of_two_identical_cards_the_first_played_wins():
    state = _pinochle_after_the_auction()
    same = arrange(state, {"hand": {0: ["KHa", "ACa"], 1: ["KHb", "9Ca"], 2: ["QHa", "ADa"], 3: ["JHa", "10Cb"]}},
                   "stock")
    for move in ("play KHa", "play KHb", "play QHa", "play JHa"):
        same.apply(move)
    assert (value_of(same, "leader"), value_of(same, "counters")) == ("P0", "[2, 0]")


def test_pinochle_a_player_out_of_the_suit_led_must_trump():
    state = _pinochle_after_the_auction()
    state = arrange(state, {"hand": {0: ["KHa", "ACa"], 1: ["KHb", "9Ca"], 2: ["QHa", "ADa"], 3: ["9Sa", "10Cb"]}},
                    "stock")
    state.apply("play KHa")
    assert moves(state) == {"play KHb"}
    state.apply("play KHb")
    state.apply("play QHa")
    assert moves(state) == {"play 9Sa"}
    state.apply("play 9Sa")
    assert (value_of(state, "leader"), value_of(state, "counters")) == ("P3", "[0, 2]")


def test_what_the_skat_the_crib_and_the_meld_tell_each_seat():
    # the skat: nobody sees it before it is taken up; what the declarer lays away, only it knows
    skat = load_script("skat").new_game(seed=3)
    assert [skat.view(q)["zones"]["skat"] for q in range(3)] == [["??", "??"]] * 3
    for move in ("say 18", "hold", "pass", "say 20", "pass"):
        skat.apply(move)
    skat.apply(sorted(moves(skat))[0])
    decision = [e["text"] for e in skat.observation(0)["log"] if e["kind"] == "decision"][-1]
    assert decision.endswith("lay_away ?? ??")
    # the crib: each seat knows its own two cards, not the other's, and not the other's choice
    crib = load_script("cribbage").new_game(seed=3)
    crib.apply(sorted(moves(crib))[0])
    crib.apply(sorted(moves(crib))[0])
    assert [e["text"] for e in crib.observation(1)["log"] if e["kind"] == "decision"][0] == "(a hidden choice)"
    assert crib.view(1)["zones"]["crib"][:2] == ["??", "??"] and "??" not in crib.view(1)["zones"]["crib"][2:]
    assert crib.view(0)["zones"]["crib"][2:] == ["??", "??"] and "??" not in crib.view(0)["zones"]["crib"][:2]
    # the meld: shown to everyone, and remembered once back in the hand
    meld = _pinochle_after_the_auction()
    shown = value_of(meld, "[x for x in hand[P0] where in_meld(cards(hand[P0]), x)]").strip("[]").split(", ")
    seen_by_p1 = [c for c in meld.view(1)["zones"]["hand"]["P0"] if c != "??"]
    assert sorted(seen_by_p1) == sorted(shown) and shown
