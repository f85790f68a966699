"""Boo Ray (games/booray.cardgame): trump legality, settlement of the pot, the deal and whole games.

Scenario positions are built by starting a game, driving it with moves to the wanted decision,
then placing cards (and, for the pot, setting variables) through saved-state JSON.
"""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import GAMES, arrange, load_game, moves, with_vars
from cardgame.interpreter.studies.agents import RandomAgent

GAME = load_game("booray.cardgame")
SOURCE = (GAMES / "booray.cardgame").read_text().splitlines()


def rule_line(name: str) -> int:
    return next(i for i, line in enumerate(SOURCE, 1) if line.startswith(f"rule {name}("))


def vars_of(state) -> dict:
    return state.view("all")["vars"]


def seat(text: str) -> int:
    return int(text[1:])


def convention_hand(trump="S", players=4, seed=5):
    """A new game whose dealer called a convention naming `trump`: everyone plays, first trick."""
    state = GAME.new_game(players=players, seed=seed, options={"conventions": True})
    dealer = seat(vars_of(state)["dealer"])
    assert state.current_player == dealer
    state.apply(f"convention {trump}")
    return state


def trick(hands, trump="S", players=4):
    """The first trick of a convention hand, `hands` listed in order of play from the leader."""
    state = convention_hand(trump, players)
    leader = state.current_player
    layout = {(leader + i) % players: cards for i, cards in enumerate(hands)}
    return arrange(state, {"hand": layout}, rest="discard"), leader


def play(state, *cards):
    for card in cards:
        state.apply(f"play {card}")


# ---- legality ---------------------------------------------------------------------------------

def test_the_leader_may_lead_any_card():
    state, _ = trick([["9D", "KC", "2S"], ["3D"], ["4D"], ["5D"]])
    assert moves(state) == {"play 9D", "play KC", "play 2S"}


def test_must_follow_suit_when_able():
    state, _ = trick([["9D"], ["2D", "5D", "9S", "KC"], ["4D"], ["6D"]])
    play(state, "9D")
    assert moves(state) == {"play 2D", "play 5D"}


def test_void_in_the_led_suit_with_trumps_must_trump():
    state, _ = trick([["9D"], ["3S", "QS", "KC", "4H"], ["4D"], ["5D"]])
    play(state, "9D")
    assert moves(state) == {"play 3S", "play QS"}


def test_a_trump_in_the_trick_that_can_be_beaten_allows_only_higher_trumps():
    state, _ = trick([["9D"], ["7S"], ["5S", "8S", "AS", "2C"], ["5D"]])
    play(state, "9D", "7S")
    assert moves(state) == {"play 8S", "play AS"}


def test_a_trump_in_the_trick_that_cannot_be_beaten_allows_any_trump():
    state, _ = trick([["9D"], ["AS"], ["5S", "8S", "2C", "KH"], ["5D"]])
    play(state, "9D", "AS")
    assert moves(state) == {"play 5S", "play 8S"}


def test_beat_the_highest_trump_in_the_trick_not_just_any():
    state, _ = trick([["9D"], ["7S"], ["JS"], ["8S", "QS", "KS", "2H"]])
    play(state, "9D", "7S", "JS")
    assert moves(state) == {"play QS", "play KS"}


def test_no_led_suit_and_no_trump_allows_any_card():
    state, _ = trick([["9D"], ["2C", "3H", "4C"], ["4D"], ["5D"]])
    play(state, "9D")
    assert moves(state) == {"play 2C", "play 3H", "play 4C"}


def test_trumps_led_must_be_followed_and_beaten_if_possible():
    state, _ = trick([["9S"], ["5S", "JS", "AS", "2D"], ["4D"], ["5D"]])
    play(state, "9S")
    assert moves(state) == {"play JS", "play AS"}


def test_trumps_led_that_cannot_be_beaten_still_need_a_trump():
    state, _ = trick([["QS"], ["5S", "7S", "2D"], ["4D"], ["5D"]])
    play(state, "QS")
    assert moves(state) == {"play 5S", "play 7S"}


def test_trumps_led_with_no_trump_in_hand_allows_any_card():
    state, _ = trick([["QS"], ["2D", "3H"], ["4D"], ["5D"]])
    play(state, "QS")
    assert moves(state) == {"play 2D", "play 3H"}


def test_a_higher_trump_does_not_excuse_following_suit():
    state, _ = trick([["9D"], ["7S"], ["2D", "AS"], ["5D"]])
    play(state, "9D", "7S")
    assert moves(state) == {"play 2D"}


@pytest.mark.parametrize("hands, before, card, rule", [
    ([["9D"], ["2D", "9S"], ["4D"], ["5D"]], [], "9S", "follow_suit"),
    ([["9D"], ["3S", "KC"], ["4D"], ["5D"]], [], "KC", "must_trump"),
    ([["9D"], ["7S"], ["5S", "8S"], ["5D"]], ["7S"], "5S", "must_overtrump"),
    ([["9S"], ["5S", "JS"], ["4D"], ["5D"]], [], "5S", "must_overtrump"),
])
def test_an_illegal_card_is_explained_by_the_rule_and_its_line(hands, before, card, rule):
    state, _ = trick(hands)
    play(state, hands[0][0], *before)
    why = state.explain(f"play {card}")
    assert not why.legal
    assert [r.name for r in why.failing] == [rule]
    assert why.failing[0].span.line == rule_line(rule)
    assert rule in why.reason


def test_the_highest_trump_takes_the_trick_and_leads_the_next():
    state, leader = trick([["9D", "2H"], ["7S", "3H"], ["AD", "4H"], ["8S", "5H"]])
    play(state, "9D", "7S", "AD", "8S")
    assert vars_of(state)["tricks"] == {f"P{(leader + i) % 4}": t for i, t in enumerate([0, 0, 0, 1])}
    assert state.current_player == (leader + 3) % 4


def test_without_trumps_the_highest_card_of_the_led_suit_takes_the_trick():
    state, leader = trick([["9D", "2H"], ["AC", "3H"], ["JD", "4H"], ["2D", "5H"]])
    play(state, "9D", "AC", "JD", "2D")
    assert state.current_player == (leader + 2) % 4


# ---- settlement -------------------------------------------------------------------------------

# Trump S; nobody holds a spade.  The leader wins two hearts tricks, the second player two
# diamond tricks, the third the last (club) trick, the fourth nothing: 2-2-1-0.
TIE = [["AH", "KH", "2D", "3D", "4D"], ["KD", "QD", "2C", "5C", "6C"],
       ["AC", "KC", "QC", "JC", "10C"], ["3H", "4H", "5H", "6H", "7H"]]
TIE_PLAY = ["AH", "2C", "AC", "3H", "KH", "5C", "KC", "4H", "2D", "KD", "QC", "5H",
            "QD", "JC", "6H", "3D", "6C", "10C", "7H", "4D"]

# The leader holds the five top trumps and takes every trick.
SWEEP = [["AS", "KS", "QS", "JS", "10S"], ["2D", "3D", "4D", "5D", "6D"],
         ["2C", "3C", "4C", "5C", "6C"], ["2H", "3H", "4H", "5H", "6H"]]


def sweep_play():
    out = []
    for i, lead in enumerate(SWEEP[0]):
        out += [lead] + [SWEEP[k][i] for k in (1, 2, 3)]
    return out


def money_and_pot(state):
    v = vars_of(state)
    return {seat(k): m for k, m in v["money"].items()}, v["pot"]


def test_antes_are_paid_every_hand():
    state = GAME.new_game(players=5, seed=2, options={"hands": 3})
    money, pot = money_and_pot(state)
    assert pot == 25 and set(money.values()) == {-5}


def test_a_clear_winner_takes_the_pot_and_the_trickless_pay_it():
    state, leader = trick(SWEEP)
    _, pot = money_and_pot(state)
    assert pot == 20
    play(state, *sweep_play())
    money, pot = money_and_pot(state)
    assert money[leader] == -5 + 20
    assert all(money[(leader + i) % 4] == -5 - 20 for i in (1, 2, 3))
    assert pot == 60  # three matches of the 20-cent pot, for the next hand


def test_the_match_is_capped_at_one_dollar():
    state, leader = trick(SWEEP)
    state = with_vars(state, pot=350, stake=350)
    play(state, *sweep_play())
    money, pot = money_and_pot(state)
    assert money[leader] == -5 + 350
    assert all(money[(leader + i) % 4] == -5 - 100 for i in (1, 2, 3))
    assert pot == 300


def test_a_tie_for_most_tricks_carries_the_pot():
    state, leader = trick(TIE)
    play(state, *TIE_PLAY)
    order = [(leader + i) % 4 for i in range(4)]
    assert [vars_of(state)["tricks"][f"P{s}"] for s in order] == [2, 2, 1, 0]
    money, pot = money_and_pot(state)
    assert [money[s] for s in order] == [-5, -5, -5, -25]
    assert pot == 20 + 20  # the pot stays, and the trickless player's match joins it


def test_a_passer_is_not_charged_and_may_play_the_next_hand():
    state = GAME.new_game(players=4, seed=11, options={"hands": 2})
    assert state.prompt.startswith("Play this hand")
    first = state.current_player
    state.apply("pass")  # the first player passes; the rest play
    for _ in range(3):
        state.apply("play_hand")
    assert vars_of(state)["playing"][f"P{first}"] is False
    agent = RandomAgent(3)
    while state.prompt != "Go on to another hand, or stop?":
        state.apply(agent.choose(state.legal_moves()))
    money, _ = money_and_pot(state)
    assert money[first] == -5
    for _ in range(4):
        state.apply("go_on")
    assert state.prompt.startswith("Play this hand")
    assert {str(m) for m in state.legal_moves()} == {"play_hand", "pass"}


def test_a_lone_declarer_takes_the_pot_without_play():
    state = GAME.new_game(players=4, seed=11)
    order = []
    for move in ("pass", "pass", "play_hand", "pass"):
        order.append(state.current_player)
        state.apply(move)
    money, pot = money_and_pot(state)
    assert pot == 0 and money[order[2]] == 15
    assert state.prompt == "Go on to another hand, or stop?"


def test_when_nobody_declares_the_pot_stays():
    state = GAME.new_game(players=4, seed=11)
    for _ in range(4):
        state.apply("pass")
    money, pot = money_and_pot(state)
    assert pot == 20 and set(money.values()) == {-5}
    for _ in range(4):
        state.apply("go_on")
    assert money_and_pot(state)[1] == 40


def test_a_convention_forces_everyone_to_play():
    state = GAME.new_game(players=5, seed=4, options={"conventions": True})
    dealer = seat(vars_of(state)["dealer"])
    assert moves(state) == {"turn_up", "convention C", "convention D", "convention H", "convention S"}
    state.apply("convention H")
    v = vars_of(state)
    assert v["trump"] == "H"
    assert all(v["playing"].values())
    assert state.prompt == "Play a card"  # no declarations
    assert state.current_player == (dealer + 1) % 5
    assert len(state.view("all")["zones"]["hand"][f"P{dealer}"]) == 5


def test_without_a_convention_players_declare():
    state = GAME.new_game(players=4, seed=4, options={"conventions": True})
    state.apply("turn_up")
    assert moves(state) == {"play_hand", "pass"}


def test_conventions_are_not_offered_unless_the_option_allows_them():
    state = GAME.new_game(players=4, seed=4)
    assert moves(state) == {"play_hand", "pass"}


# ---- the deal -----------------------------------------------------------------------------------

def test_the_dealers_last_card_is_turned_up_and_sets_trump():
    state = GAME.new_game(players=4, seed=9)
    v = vars_of(state)
    dealer = seat(v["dealer"])
    other = (dealer + 1) % 4
    seen = state.view(other)["zones"]["hand"][f"P{dealer}"]
    visible = [c for c in seen if c != "??"]
    assert len(seen) == 5 and len(visible) == 1
    assert visible[0][-1] == v["trump"]
    assert state.current_player == other  # declarations start at the dealer's left


RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


@pytest.mark.parametrize("rule", ["high", "low"])
def test_the_first_dealer_is_the_high_or_low_card_and_ties_pull_again(rule):
    pick = max if rule == "high" else min
    for seed in range(40):
        lines = []
        GAME.new_game(players=6, seed=seed, options={"first_dealer": rule},
                      tracer=lambda e: lines.append(e.text) if e.kind == "log" else None)
        rounds, dealer = [{}], None
        for line in lines:
            if m := re.fullmatch(r"P(\d) pulls (\w+)", line):
                p, card = int(m[1]), m[2]
                if p in rounds[-1]:
                    rounds.append({})
                rounds[-1][p] = RANKS.index(card[:-1])
            elif m := re.fullmatch(r"P(\d) deals first", line):
                dealer = int(m[1])
        assert len(rounds[0]) == 6
        for before, after in zip(rounds, rounds[1:]):
            best = pick(before.values())
            assert set(after) == {p for p, r in before.items() if r == best}
        best = pick(rounds[-1].values())
        assert [p for p, r in rounds[-1].items() if r == best] == [dealer]


def test_the_deal_rotates_clockwise():
    state = GAME.new_game(players=4, seed=1, options={"hands": 3})
    agent = RandomAgent(1)
    dealers = [seat(vars_of(state)["dealer"])]
    while not state.is_over:
        hand = vars_of(state)["hand_number"]
        state.apply(agent.choose(state.legal_moves()))
        if not state.is_over and vars_of(state)["hand_number"] != hand:
            dealers.append(seat(vars_of(state)["dealer"]))
    assert dealers == [(dealers[0] + i) % 4 for i in range(len(dealers))]


def test_everyone_stopping_ends_the_game():
    state = GAME.new_game(players=4, seed=11)
    for _ in range(4):
        state.apply("pass")
    for _ in range(4):
        state.apply("stop")
    assert state.is_over


def test_one_go_on_vote_keeps_playing():
    state = GAME.new_game(players=4, seed=11)
    for move in ["pass"] * 4 + ["stop", "stop", "go_on", "stop"]:
        state.apply(move)
    assert not state.is_over and state.prompt.startswith("Play this hand")


# ---- whole games --------------------------------------------------------------------------------

@given(seed=st.integers(0, 2**32), agent_seed=st.integers(0, 2**32), players=st.integers(4, 6),
       conventions=st.booleans(), hands=st.integers(0, 4))
def test_money_is_conserved_and_every_card_accounted_for(seed, agent_seed, players, conventions, hands):
    state = GAME.new_game(players=players, seed=seed, options={"conventions": conventions, "hands": hands})
    agent = RandomAgent(agent_seed)
    steps = 0
    while True:
        v = state.view("all")
        assert sum(v["vars"]["money"].values()) + v["vars"]["pot"] == 0
        assert sorted(c for zone in state.to_json()["zones"] for c in zone) == list(range(52))
        if state.is_over or steps > 3000:
            break
        legal = state.legal_moves()
        assert legal, "a game that is not over must offer a move"
        state.apply(agent.choose(legal))
        steps += 1
    assert state.fault is None
    if hands:
        assert state.is_over and vars_of(state)["hand_number"] <= hands
    assert state.scores == [state.view("all")["vars"]["money"][f"P{p}"] for p in range(players)]
