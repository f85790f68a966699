"""The tuned baselines (bench/baseline/*_tuned.py) play the same rules as the engine's scripts:
their card rules allow exactly the cards the engine allows along real games, their scoring
agrees with the idiomatic baselines, and they use nothing outside the standard library."""

from __future__ import annotations

import ast
import functools
import random

import pytest

from bench.baseline import (bohei, bohei_tuned, booray, booray_tuned, bosspoker, bosspoker_tuned, bouncer,
                            bouncer_tuned)
from helpers import load_game
from cardgame.interpreter.language import rng as engine_rng
from cardgame.interpreter.studies.agents import RandomAgent


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


@pytest.mark.parametrize("module", [bouncer_tuned, booray_tuned, bosspoker, bosspoker_tuned, bohei, bohei_tuned])
def test_tuned_baselines_use_only_the_standard_library(module):
    tree = ast.parse(open(module.__file__).read())
    names = {a.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    names |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert names <= {"collections", "random", "sys", "time"}


def _poker_rank(name):
    rank = name[:-1]
    return {"A": 1, "J": "J", "Q": "Q", "K": "K"}.get(rank) or int(rank)


@pytest.mark.parametrize("by_ante", [False, True])
def test_boss_poker_baselines_offer_exactly_the_engines_moves(by_ante):
    """Betting, face cards and King targets, along real games: the idiomatic rule functions give
    the engine's legal moves, and the tuned count/index pair gives the same betting moves."""
    game = load_game("bosspoker.cardgame")
    options = {"raises": "by_ante"} if by_ante else {}
    kinds = set()
    for seed in range(6):
        players = 2 + seed % 4
        state = game.new_game(players=players, seed=seed, options=options)
        agent = RandomAgent(seed)
        while not state.is_over:
            legal = state.legal_moves()
            got = sorted(str(m) for m in legal)
            view = state.view("all")
            v, zones = view["vars"], view["zones"]
            p = f"P{state.current_player}"
            if "betting" in state.prompt:
                args = (v["bet"], v["put"][p], v["tokens"][p], 4 + v["round"], by_ante)
                expected = sorted(" ".join(map(str, m)) for m in bosspoker.bet_moves(*args))
                tuned = sorted(" ".join(str(x) for x in bosspoker_tuned.bet_move_at(i, *args) if x is not None)
                               for i in range(bosspoker_tuned.bet_move_count(*args)))
                assert got == expected == tuned
                kinds.add("bet")
            elif state.prompt == "Play a face card face down":
                faces = {_poker_rank(c): c for c in zones["faces"][p]}
                expected = sorted(f"face {faces[f]}" for f in bosspoker.face_moves(faces, v["green"][p]))
                assert got == expected
                kinds.add("face")
            elif state.prompt.startswith("Whose number card"):
                seats = [f"P{(int(v['interim'][1:]) + i) % players}" for i in range(players)]
                order = [q for q in seats if not v["folded"][q] and not v["out"][q]]
                faces = {q: _poker_rank(zones["face_card"][q][0]) for q in order}
                revealed = order[:order.index(p)]
                assert got == sorted(f"look_at {q}" for q in bosspoker.king_targets(order, p, faces, revealed))
                kinds.add("king")
            state.apply(agent.choose(legal))
    assert kinds == {"bet", "face", "king"}


def test_boss_poker_showdown_winner():
    # the Ace is high only with a 10 shown; equal cards go to the first from the (interim) Boss
    assert bosspoker.showdown_winner([2, 0, 1], {0: 1, 1: 9, 2: 3}) == 1
    assert bosspoker.showdown_winner([2, 0, 1], {0: 1, 1: 10, 2: 3}) == 0
    assert bosspoker.showdown_winner([2, 0, 1], {0: 7, 1: 9, 2: 9}) == 2
    assert bosspoker.showdown_winner([1, 2, 0], {0: 9, 1: 9, 2: 9}) == 1


@pytest.mark.parametrize("module", ["bosspoker", "bosspoker_tuned"])
@pytest.mark.parametrize("by_ante", [False, True])
def test_boss_poker_baselines_keep_the_tokens(module, by_ante):
    play_game = {"bosspoker": bosspoker, "bosspoker_tuned": bosspoker_tuned}[module].play_game
    for players in range(2, 6):
        for seed in range(30):
            tokens, decisions = play_game(seed, {"raises": "by_ante"} if by_ante else {}, players)
            assert sum(tokens) == 150 * players and min(tokens) >= 0 and decisions >= 2 * players


def test_boss_poker_baselines_play_games_like_the_engine():
    """Same rules, different random draws: the mean decisions per game of 400 4-player games
    agree within a few percent between the idiomatic and the tuned baseline."""
    for options in ({}, {"raises": "by_ante"}):
        means = [sum(m.play_game(s, options, 4)[1] for s in range(400)) / 400 for m in (bosspoker, bosspoker_tuned)]
        assert abs(means[0] - means[1]) < 0.06 * means[0]


@functools.cache
def _bohei():
    """Loaded once for all the games these tests drive."""
    return load_game("bohei.cardgame")


class _EngineDriver:
    """Plays the engine's Bohei beside a baseline: the baseline shuffles with the engine's own
    generator (the same piles in the same order come out the same), and at each decision the
    engine's random player chooses, the baseline following that choice."""

    def __init__(self, seed, players):
        self.state = _bohei().new_game(players=players, seed=seed)
        self.agent = RandomAgent(seed)
        self.generator = engine_rng.seed_state(seed)
        self.shuffles = 0

    def shuffle(self, pile):
        self.generator = engine_rng.shuffle(self.generator, pile)
        self.shuffles += 1

    def choose(self):
        """(the engine's legal moves, the index of the one chosen and applied)."""
        legal = self.state.legal_moves()
        chosen = self.agent.choose(legal)
        self.state.apply(chosen)
        return legal, legal.index(chosen)


BOHEI_GAMES = [(seed, 3 + seed % 4) for seed in range(24)]  # 3 to 6 players


def test_bohei_baseline_offers_the_engines_moves_at_every_decision():
    """The idiomatic baseline, driven by the engine's choices and shuffles, lists exactly the
    engine's legal moves, in its order, at every decision of whole games, and ends them alike."""
    kinds, shuffles = set(), 0
    for seed, players in BOHEI_GAMES:
        engine = _EngineDriver(seed, players)

        def choose(moves):
            texts = [bohei.move_text(m) for m in moves]
            prompt = engine.state.prompt
            legal, i = engine.choose()
            assert texts == [str(m) for m in legal], prompt
            kinds.add(moves[i][0])
            return moves[i]
        table = bohei.Table(players, choose, engine.shuffle)
        table.setup()
        while table.turn():
            pass
        state = engine.state
        assert state.is_over and state.decisions == table.decisions
        assert state.winners == ([] if table.champion is None else [table.champion])
        hands = state.view("all")["zones"]["hand"]
        assert [[c.name for c in hand] for hand in table.hands] == [hands[f"P{q}"] for q in range(players)]
        shuffles += engine.shuffles - 1  # the first is the set-up's
    assert shuffles, "no game reshuffled the discard pile"
    assert kinds >= {"activate", "close", "cover", "play_no", "play_opposite", "judge", "out", "broke", "agreed",
                     "did_not", "give", "discard", "draw", "no_draw", "replay", "again"}


def test_tuned_bohei_counts_the_engines_moves_at_every_decision():
    """The tuned baseline never lists moves: driven the same way, the number of moves it draws
    from is the engine's at every decision, and following the engine's choices by index it
    plays the engine's whole games (same length, same winner)."""
    for seed, players in BOHEI_GAMES:
        engine = _EngineDriver(seed, players)

        def pick(k):
            prompt = engine.state.prompt
            legal, i = engine.choose()
            assert k == len(legal), prompt
            return i
        winners = bohei_tuned.play(players, pick, engine.shuffle)
        assert engine.state.is_over and engine.state.winners == winners


def test_bohei_baselines_play_games_of_the_same_length():
    """With their own random draws, both baselines finish their games; the mean decisions per
    4-player game agree (means near 390, standard error about 20 over 300 games)."""
    means = []
    for module in (bohei, bohei_tuned):
        games = [module.play_game(seed, {}, 4) for seed in range(300)]
        assert all(len(winners) == 1 for winners, _ in games)
        means.append(sum(decisions for _, decisions in games) / len(games))
    assert abs(means[0] - means[1]) < 0.15 * means[0]
