"""Tests for the hand-written Bouncer baseline (bench/baseline/bouncer.py)."""

import random

import pytest

from bench.baseline import bouncer
from bench.baseline.bouncer import (
                                    ACE, JACK, KING, QUEEN,
                                    legal_moves, play_game, play_hand, score_hand, score_plain, score_special,
                                    trick_winner,
                                    )


# ---- scoring: special variant --------------------------------------------

def test_special_example_from_rules():
    # Q targets 5, K targets 5 too (already bounced) -> -3 - 25
    assert score_special([3, 5, QUEEN, KING]) == -28
    assert score_hand([3, 5, QUEEN, KING], special_bouncers=True) == -28


@pytest.mark.parametrize("collected, expected", [
    ([], 0),
    ([KING], -25),
    ([QUEEN], -25),                       # Q collected first: no target
    ([4, JACK, QUEEN], -25),              # J bounces 4; Q follows a bouncer
    ([2, 9, KING], -2),                   # K bounces the highest
    ([2, 9, JACK], -9),                   # J bounces the lowest
    ([JACK, 2, 9], -9),                   # targets include later cards
    ([ACE, 3, KING], -3),                 # heart ace is worth 11
    ([7, 7, KING, QUEEN], -7 - 25),       # tie -> K takes the earliest 7; Q has a bouncer before it
    ([7, 7, KING, 4, QUEEN], -7),         # K -> first 7, Q -> 4
    ([5, JACK, KING], -25),               # both target the only card
])
def test_special_cases(collected, expected):
    assert score_special(collected) == expected


# ---- scoring: plain variant ----------------------------------------------

@pytest.mark.parametrize("collected, expected", [
    ([], 0),
    ([3, KING], 0),
    ([KING], -25),
    ([10, 4, JACK], -4),
    ([3, 5, QUEEN, KING], 0),
    ([ACE, 2], -13),
    ([JACK, QUEEN, KING, 6], -50),
    ([2, 3, 4, 5, 6, 7, 8, 9, 10, ACE], -65),
])
def test_plain_cases(collected, expected):
    assert score_plain(collected) == expected
    assert score_hand(collected) == expected


# ---- legal moves and trick resolution ------------------------------------

def test_must_follow_suit():
    hand = [("D", 5), ("S", 14), ("D", 12), ("C", 2)]
    assert sorted(legal_moves(hand, "D")) == [("D", 5), ("D", 12)]
    assert legal_moves(hand, "S") == [("S", 14)]


def test_void_in_led_suit_allows_anything():
    hand = [("D", 5), ("C", 2)]
    assert sorted(legal_moves(hand, "S")) == sorted(hand)


def test_leader_may_play_anything():
    hand = [("D", 5), ("S", 14), ("C", 2)]
    assert sorted(legal_moves(hand, None)) == sorted(hand)


def test_legal_moves_does_not_alias_hand():
    hand = [("D", 5), ("C", 2)]
    moves = legal_moves(hand, None)
    moves.pop()
    assert len(hand) == 2


def test_trick_winner_highest_rank_any_suit():
    plays = [(1, ("D", 5)), (2, ("S", 13)), (0, ("D", 12))]
    assert trick_winner(plays) == 2


def test_trick_winner_tie_goes_to_last_played():
    plays = [(2, ("C", 14)), (0, ("D", 14)), (1, ("S", 3))]
    assert trick_winner(plays) == 0
    plays = [(0, ("C", 9)), (1, ("D", 9)), (2, ("S", 9))]
    assert trick_winner(plays) == 2


# ---- whole hands and games -----------------------------------------------

@pytest.mark.parametrize("special", [False, True])
def test_hand_plays_all_39_cards(special, monkeypatch):
    played = []
    real_trick_winner = bouncer.trick_winner

    def spy(plays):
        played.append(plays)
        return real_trick_winner(plays)

    monkeypatch.setattr(bouncer, "trick_winner", spy)
    scores, decisions = play_hand(random.Random(7), 1, special)
    assert decisions == 39
    assert len(played) == 13
    assert all(len(p) == 3 for p in played)
    cards = [card for trick in played for _seat, card in trick]
    assert sorted(cards) == sorted(bouncer.new_hand_deck())
    assert played[0][0][0] == 1            # seat 1 led the first trick
    assert len(scores) == 3


def test_tricks_follow_suit_in_real_play(monkeypatch):
    # Replay every hand with knowledge of who held what: a player who
    # did not follow suit must have been void in the led suit.
    hands_seen = []
    real_legal = bouncer.legal_moves

    def spy(hand, led_suit):
        moves = real_legal(hand, led_suit)
        if led_suit is not None and any(c[0] == led_suit for c in hand):
            assert all(c[0] == led_suit for c in moves)
        hands_seen.append(len(hand))
        return moves

    monkeypatch.setattr(bouncer, "legal_moves", spy)
    play_game(3)
    assert hands_seen


@pytest.mark.parametrize("special", [False, True])
def test_games_end(special):
    for seed in range(50):
        totals, decisions = play_game(seed, {"special_bouncers": special})
        assert len(totals) == 3
        assert min(totals) <= -100
        assert decisions > 0 and decisions % 39 == 0


def test_same_seed_same_result():
    for seed in (0, 1, 12345):
        for opts in (None, {"special_bouncers": True}):
            assert play_game(seed, opts) == play_game(seed, opts)


def test_show_upcoming_is_ignored():
    for seed in range(10):
        assert (play_game(seed, {"show_upcoming": True})
                == play_game(seed, {"show_upcoming": False}))
