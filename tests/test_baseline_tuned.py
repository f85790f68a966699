"""The tuned baselines (bench/baseline/*_tuned.py) play the same rules as the engine's scripts:
their card rules allow exactly the cards the engine allows along real games, their scoring
agrees with the idiomatic baselines, and they use nothing outside the standard library."""

from __future__ import annotations

import ast
import random

import pytest

from bench.baseline import booray, booray_tuned, bouncer, bouncer_tuned
from helpers import load_game
from interpreter.agents import RandomAgent


def _ints(module, size):
    return {module.card_name(c): c for c in range(size)}


def test_tuned_bouncer_offers_exactly_the_engines_cards():
    game, by_name = load_game("bouncer.cardgame"), _ints(bouncer_tuned, 39)
    for seed in range(4):
        state = game.new_game(seed=seed, options={"special_bouncers": seed % 2 == 1})
        agent = RandomAgent(seed)
        checked = 0
        while not state.is_over and checked < 400:
            legal = state.legal_moves()
            if state.prompt == "Play a card":
                view = state.view("all")
                led = view["vars"]["led"]
                hand = [by_name[c] for c in view["zones"]["hand"][f"P{state.current_player}"]]
                expected = bouncer_tuned.legal_cards(hand, None if led is None else bouncer_tuned.SUITS.index(led))
                assert sorted(by_name[str(m).split()[1]] for m in legal) == sorted(expected)
                checked += 1
            state.apply(agent.choose(legal))
        assert checked


@pytest.mark.parametrize("special", [False, True])
def test_tuned_bouncer_scores_like_the_idiomatic_one(special):
    rng = random.Random(3)
    for _ in range(3000):
        won = rng.sample(range(2, 15), rng.randrange(0, 14))
        assert bouncer_tuned.score(won, special) == bouncer.score_hand(won, special)


def test_tuned_booray_offers_exactly_the_engines_cards():
    game, by_name = load_game("booray.cardgame"), _ints(booray_tuned, 52)
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
                expected = booray_tuned.legal_cards([by_name[c] for c in hand], [by_name[c] for c in trick],
                                                    booray_tuned.SUITS.index(v["trump"]))
                assert sorted(by_name[str(m).split()[1]] for m in legal) == sorted(expected)
            state.apply(agent.choose(legal))


def test_tuned_booray_card_rule_is_the_idiomatic_one():
    rng = random.Random(5)
    for _ in range(3000):
        deck = list(range(52))
        rng.shuffle(deck)
        hand, trick, trump = deck[:5], deck[5:5 + rng.randrange(0, 6)], rng.randrange(4)

        def idiomatic(c):
            return booray_tuned.SUITS[c // 13], c % 13 + 2
        expected = booray.legal_cards([idiomatic(c) for c in hand], [idiomatic(c) for c in trick],
                                      booray_tuned.SUITS[trump])
        assert sorted(idiomatic(c) for c in booray_tuned.legal_cards(hand, trick, trump)) == sorted(expected)


@pytest.mark.parametrize("players", [4, 5, 6])
@pytest.mark.parametrize("options", [{}, {"conventions": True}, {"hands": 2}])
def test_tuned_booray_keeps_the_money_and_ends(players, options):
    for seed in range(40):
        money, decisions = booray_tuned.play_game(seed, options, players)
        assert sum(money) <= 0 and sum(money) % 5 == 0 and decisions >= players  # the rest is in the pot


@pytest.mark.parametrize("special", [False, True])
def test_tuned_bouncer_games_end(special):
    for seed in range(30):
        totals, decisions = bouncer_tuned.play_game(seed, {"special_bouncers": special})
        assert min(totals) <= -100 and decisions % 39 == 0


@pytest.mark.parametrize("module", [bouncer_tuned, booray_tuned])
def test_tuned_baselines_use_only_the_standard_library(module):
    tree = ast.parse(open(module.__file__).read())
    names = {a.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    names |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert names <= {"random", "sys", "time"}
