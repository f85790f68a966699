"""Tests for the hand-written Boo Ray baseline (bench/baseline/booray.py), including a check
that it allows exactly the cards the engine's script allows."""

import random

import pytest

from bench.baseline import booray
from bench.baseline.booray import legal_cards, play_game, play_hand, pull_for_deal, trick_winner
from helpers import load_game
from cardgame.interpreter.studies.agents import RandomAgent

RANK = {"J": 11, "Q": 12, "K": 13, "A": 14}


def card(name):
    rank, suit = name[:-1], name[-1]
    return suit, RANK.get(rank) or int(rank)


def cards(*names):
    return [card(n) for n in names]


# ---- legality and tricks ------------------------------------------------------------------

@pytest.mark.parametrize("hand, trick, expected", [
    (["9D", "KC", "2S"], [], ["9D", "KC", "2S"]),                  # the lead: anything
    (["2D", "5D", "9S", "KC"], ["9D"], ["2D", "5D"]),              # follow suit
    (["3S", "QS", "KC", "4H"], ["9D"], ["3S", "QS"]),              # void: must trump
    (["5S", "8S", "AS", "2C"], ["9D", "7S"], ["8S", "AS"]),        # beat the trump if able
    (["5S", "8S", "2C"], ["9D", "AS"], ["5S", "8S"]),              # cannot beat: any trump
    (["8S", "QS", "KS"], ["9D", "7S", "JS"], ["QS", "KS"]),        # beat the highest trump
    (["2C", "3H", "4C"], ["9D"], ["2C", "3H", "4C"]),              # no suit, no trump
    (["5S", "JS", "AS", "2D"], ["9S"], ["JS", "AS"]),              # trumps led
    (["5S", "7S", "2D"], ["QS"], ["5S", "7S"]),                    # trumps led, cannot beat
    (["2D", "AS"], ["9D", "7S"], ["2D"]),                          # following beats trumping
])
def test_legal_cards(hand, trick, expected):
    assert legal_cards(cards(*hand), cards(*trick), "S") == cards(*expected)


def test_trick_winner():
    assert trick_winner([(1, card("9D")), (2, card("AC")), (3, card("JD"))], "S") == 3
    assert trick_winner([(1, card("9D")), (2, card("2S")), (3, card("AD")), (0, card("3S"))], "S") == 0


@pytest.mark.parametrize("high", [True, False])
def test_pull_for_deal_picks_a_seat(high):
    seats = {pull_for_deal(random.Random(s), 5, high) for s in range(200)}
    assert seats == set(range(5))


# ---- hands and games ---------------------------------------------------------------------------

@pytest.mark.parametrize("players", [4, 5, 6])
@pytest.mark.parametrize("conventions", [False, True])
def test_money_is_conserved_hand_by_hand(players, conventions):
    rng = random.Random(players)
    money, pot = [0] * players, 0
    for hand in range(300):
        pot, decisions = play_hand(rng, players, hand % players, money, pot, conventions)
        assert sum(money) + pot == 0
        assert decisions <= 1 + players + 5 * players


def test_matches_are_capped():
    rng = random.Random(0)
    for _ in range(200):
        money, pot = [0] * 4, 10_000
        pot, _ = play_hand(rng, 4, 0, money, pot, True)
        assert all(m >= -5 - 100 for m in money)


def test_same_seed_same_result_and_hands_limit():
    for seed in range(30):
        for opts in (None, {"conventions": True}, {"hands": 3, "first_dealer": "low"}):
            assert play_game(seed, opts, 5) == play_game(seed, opts, 5)
    scores, decisions = play_game(4, {"hands": 1}, 4)
    assert len(scores) == 4 and 4 <= decisions <= 1 + 4 + 20


def test_player_count_is_checked():
    with pytest.raises(ValueError):
        play_game(0, None, 3)


def test_the_engine_offers_exactly_the_baselines_cards():
    game = load_game("booray.cardgame")
    for seed in range(6):
        state = game.new_game(players=4 + seed % 3, seed=seed, options={"hands": 3, "conventions": True})
        agent = RandomAgent(seed)
        while not state.is_over:
            legal = state.legal_moves()
            if state.prompt == "Play a card":
                view = state.view("all")
                v, zones = view["vars"], view["zones"]
                leader = v["leader"]
                trick = zones["played"][leader] + [c for p, z in zones["played"].items() if p != leader for c in z]
                hand = zones["hand"][f"P{state.current_player}"]
                expected = legal_cards(cards(*hand), cards(*trick), v["trump"])
                assert sorted(card(str(m).split()[1]) for m in legal) == sorted(expected)
            state.apply(agent.choose(legal))


def test_module_has_no_dependencies_outside_the_standard_library():
    import ast
    tree = ast.parse(open(booray.__file__).read())
    names = {a.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    names |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert names <= {"random", "sys", "time"}
