"""Games of tests/scripts/ with trumps, secret partners and answers out of turn, each rule in a
scenario: Sheepshead (the called ace, the secret partner, the buried cards), a Mille Bornes-like
race (a hazard answered by its safety, a coup fourre, or not), Pitch (bids that rise, the stuck
dealer) and Briscola (the turned trump drawn last and known to all); every game ends at its
fewest and most players, or by its own cap."""

from __future__ import annotations

import random

import pytest

from helpers import arrange, ends_at_the_fewest_and_the_most_players, load_script, moves, value_of


TRUMPS_AND_REACTIONS = ["sheepshead", "mille_bornes", "pitch", "briscola"]


@pytest.mark.parametrize("name", TRUMPS_AND_REACTIONS)
def test_every_game_ends_at_the_fewest_and_the_most_players(name):
    ends_at_the_fewest_and_the_most_players(load_script(name), capped_ends=True)


def _sheepshead_called_spades():
    """Seed 3: P0 picks, buries 10S KH and calls the ace of spades; then the hands are set."""
    state = load_script("sheepshead").new_game(seed=3)
    assert moves(state) == {"pick", "pass"}
    state.apply("pick")
    assert len(moves(state)) == 28  # two of eight cards
    state.apply("bury 10S KH")
    assert moves(state) == {"call S", "alone"}
    state.apply("call S")
    hands = {0: ["QC", "8S"], 1: ["7C", "9C"], 2: ["AS", "7S", "8H"], 3: ["AC", "8C"], 4: ["KS", "9H"]}
    return arrange(state, {"hand": hands, "buried": ["10S", "KH"]}, "stock")


def test_sheepshead_the_called_ace_stays_until_its_suit_is_led():
    state = _sheepshead_called_spades()
    assert moves(state) == {"play QC", "play 8S"}
    state.apply("play QC")  # trump led: P2 has none, and may not throw the called ace off
    state.apply("play 7C")
    assert moves(state) == {"play 7S", "play 8H"}


def test_sheepshead_the_partner_plays_the_called_ace_when_its_suit_is_led():
    state = _sheepshead_called_spades()
    state.apply("play 8S")
    state.apply("play 7C")
    assert moves(state) == {"play AS"}


def test_sheepshead_the_partner_is_secret_and_the_buried_cards_are_the_pickers():
    state = _sheepshead_called_spades()
    _answer, diags = state.evaluate("owner(AS)", viewer=1)
    assert [d.code for d in diags] == ["E0710"]
    assert value_of(state, "owner(AS)", viewer=2) == "P2"
    assert state.view(0)["zones"]["buried"] == ["10S", "KH"]
    assert state.view(1)["zones"]["buried"] == ["??", "??"]


def _mille_bornes_attacked():
    state = load_script("mille_bornes").new_game(seed=1)
    hands = {0: ["stop.1", "go.1", "km100.1", "crash.1", "gas.1", "km25.1", "km50.1"],
             1: ["right", "km25.2", "go.2", "ace", "km50.2", "repairs.1"]}
    state = arrange(state, {"hand": hands, "battle": {1: ["go.3"]}}, "stock")
    # P0 is not rolling: only `go` on itself and hazards on rolling P1 are played
    assert moves(state) == {"play go.1 P0", "play stop.1 P1", "play crash.1 P1", "throw stop.1", "throw go.1",
                            "throw km100.1", "throw crash.1", "throw gas.1", "throw km25.1", "throw km50.1"}
    state.apply("play stop.1 P1")
    assert state.current_player == 1
    assert state.prompt == "stop.1 is played on P1: play its safety (coup fourre) or pass?"
    assert moves(state) == {"safety right", "pass"}
    return state


def test_mille_bornes_a_coup_fourre_cancels_the_hazard_and_scores():
    state = _mille_bornes_attacked()
    state.apply("safety right")
    assert value_of(state, "bonus") == "[0, 400]"
    assert value_of(state, "cards(discard)") == "[stop.1]"
    assert value_of(state, "cards(battle[P1])") == "[go.3]"
    assert state.current_player == 1  # play goes on from the player attacked


def test_mille_bornes_a_hazard_not_answered_stops_the_player():
    state = _mille_bornes_attacked()
    state.apply("pass")
    assert value_of(state, "cards(battle[P1])") == "[go.3, stop.1]"
    assert value_of(state, "rolling(P1)") == "false"


def test_pitch_bids_rise_and_the_dealer_is_stuck_when_all_pass():
    game = load_script("pitch")
    state = game.new_game(seed=1, players=3)
    assert state.current_player == 1 and moves(state) == {"raise 2", "raise 3", "raise 4", "pass"}
    state.apply("raise 3")
    assert moves(state) == {"raise 4", "pass"}
    state = game.new_game(seed=1, players=3)
    state.apply("pass")
    state.apply("pass")
    assert (value_of(state, "bidder"), value_of(state, "bid")) == ("P0", "2")
    assert "P0 is stuck with 2" in [e["text"].strip() for e in state.observation(1)["log"]]
    assert state.current_player == 0 and state.prompt == "Play a card"


def test_briscola_a_low_trump_takes_the_ace_and_its_player_draws_first():
    state = load_script("briscola").new_game(seed=3)
    assert value_of(state, "bottom(stock)") == "AS" and value_of(state, "face_up(AS)") == "true"
    assert value_of(state, "trump") == "S" and value_of(state, "bottom(stock)", viewer=1) == "AS"
    state = arrange(state, {"hand": {0: ["AH", "4C", "5C"], 1: ["2S", "6C", "7C"]},
                            "stock": ["AS", "3D", "KD"]}, "box")
    state.apply("play AH")
    assert moves(state) == {"play 2S", "play 6C", "play 7C"}  # no need to follow suit
    state.apply("play 2S")
    assert value_of(state, "cards(won[P1])") == "[AH, 2S]"
    assert (value_of(state, "owner(KD)"), value_of(state, "owner(3D)")) == ("P1", "P0")
    assert state.current_player == 1


def test_briscola_the_turned_trump_is_drawn_last_and_stays_known():
    state = load_script("briscola").new_game(seed=3)
    rng = random.Random(1)
    while value_of(state, "count(stock)") != "0":
        state.apply(rng.choice(state.legal_moves()))
    holder = int(value_of(state, "owner(AS)")[1:])
    other = 1 - holder
    assert "AS" in state.view(other)["zones"]["hand"][f"P{holder}"]
    assert state.view(other)["zones"]["hand"][f"P{holder}"].count("??") == 2
