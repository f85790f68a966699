"""Bouncer, the first complete game: legality, trick-taking, scoring and whole games."""

import pytest

from helpers import GAMES, arrange, load_game, moves

GAME = load_game("bouncer.cardgame")


def first_trick(options=None, **layout):
    """The first trick of a new game (P0 leads) with the hands set as given."""
    start = GAME.new_game(seed=7, options=options or {})
    prize = layout.pop("prize", ["2H"])
    return arrange(start, {"hand": layout.pop("hands"), "prize": prize, **layout}, rest="discard")


def test_the_leader_may_play_any_card():
    state = first_trick(hands={0: ["9D", "KC", "2S"], 1: ["3D"], 2: ["4D"]})
    assert moves(state) == {"play 9D", "play KC", "play 2S"}


def test_must_follow_suit_when_able():
    state = first_trick(hands={0: ["9D"], 1: ["2D", "5D", "9S", "KC"], 2: ["4C"]})
    state.apply("play 9D")
    assert state.current_player == 1
    assert moves(state) == {"play 2D", "play 5D"}


def test_void_in_the_led_suit_means_any_card():
    state = first_trick(hands={0: ["9D"], 1: ["9S", "KC"], 2: ["4C"]})
    state.apply("play 9D")
    assert moves(state) == {"play 9S", "play KC"}


def test_illegal_card_is_explained_by_follow_suit():
    state = first_trick(hands={0: ["9D"], 1: ["2D", "9S"], 2: ["4C"]})
    state.apply("play 9D")
    why = state.explain("play 9S")
    assert not why.legal
    assert [r.name for r in why.failing] == ["follow_suit"]
    source = (GAMES / "bouncer.cardgame").read_text().splitlines()
    rule_line = next(i for i, line in enumerate(source, 1) if line.startswith("rule follow_suit"))
    assert why.failing[0].span.short == f"bouncer.cardgame:{rule_line}"
    assert ("c.suit", "S") in why.failing[0].values


def test_tie_goes_to_the_player_who_played_last():
    # Lead 9D, P1 (void in diamonds) plays 9S, P2 plays 5C: 9S wins, being the later 9.
    state = first_trick(hands={0: ["9D", "2D"], 1: ["9S", "3S"], 2: ["5C", "6C"]},
                        points=["3H"], prize=["2H"])
    for move in ("play 9D", "play 9S", "play 5C"):
        state.apply(move)
    assert state.view("all")["zones"]["won"] == {"P0": [], "P1": ["2H"], "P2": []}
    assert state.current_player == 1  # the winner leads the next trick


def test_highest_rank_wins_regardless_of_suit():
    state = first_trick(hands={0: ["9D", "2D"], 1: ["KS", "3S"], 2: ["AC", "6C"]},
                        points=["3H"], prize=["2H"])
    for move in ("play 9D", "play KS", "play AC"):
        state.apply(move)
    assert state.view("all")["zones"]["won"]["P2"] == ["2H"]


def last_trick_totals(special: bool) -> dict:
    """Play the last trick of a hand whose won piles are set, and read the hand's totals.

    Won so far: P0 3H 5H QH KH (in that order); P1 4H 6H 7H 8H 9H; P2 10H JH AH; P2 then
    wins the last point card, 2H.
    """
    state = first_trick(
        options={"special_bouncers": special},
        hands={0: ["9D"], 1: ["2C"], 2: ["AS"]},
        points=[], prize=["2H"],
        won={0: ["3H", "5H", "QH", "KH"], 1: ["4H", "6H", "7H", "8H", "9H"], 2: ["10H", "JH", "AH"]},
    )
    for move in ("play 9D", "play 2C", "play AS"):
        state.apply(move)
    return state.view("all")["vars"]["total"]


def test_special_bouncers_score_the_seeds_example():
    totals = last_trick_totals(special=True)
    # P0: 3, 5, Q, K -> Q and K both target the 5: one bounces it, the other costs 25.
    assert totals["P0"] == -28
    assert totals["P1"] == -34
    # P2: 10, J, A, 2 -> the J bounces the lowest (2): 10 + 11 remain.
    assert totals["P2"] == -21


def test_plain_bouncers_cancel_the_highest_cards():
    totals = last_trick_totals(special=False)
    assert totals["P0"] == 0  # Q and K cancel 5 and 3
    assert totals["P1"] == -34
    assert totals["P2"] == -12  # the J cancels the ace (11): 10 + 2 remain


def test_a_bouncer_with_nothing_to_cancel_costs_25():
    state = first_trick(
        hands={0: ["9D"], 1: ["2C"], 2: ["AS"]},
        points=[], prize=["2H"],
        won={0: ["KH", "QH", "JH"], 1: ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H"], 2: ["AH"]},
    )
    for move in ("play 9D", "play 2C", "play AS"):
        state.apply(move)
    totals = state.view("all")["vars"]["total"]
    assert totals["P0"] == -75
    assert totals["P2"] == -11 - 2


@pytest.mark.parametrize("special", [False, True])
def test_a_whole_game_ends_with_someone_at_minus_100(special):
    from cardgame.interpreter.studies.simulate import play_one
    state, finished = play_one(GAME, 3, 11, {"special_bouncers": special})
    assert finished
    assert min(state.scores) <= -100
    assert state.winners == [s for s, v in enumerate(state.scores) if v == max(state.scores)]
    assert len(state.history) % 39 == 0


def test_show_upcoming_reveals_the_point_deck_in_every_view():
    hidden = GAME.new_game(seed=3)
    shown = GAME.new_game(seed=3, options={"show_upcoming": True})
    assert set(hidden.view(None)["zones"]["points"]) == {"??"}
    assert "??" not in shown.view(None)["zones"]["points"]
    assert shown.view(1)["zones"]["points"] == shown.view("all")["zones"]["points"]
    assert hidden.view("all")["zones"]["points"] == shown.view("all")["zones"]["points"]


def test_views_hide_other_hands():
    state = GAME.new_game(seed=5)
    view = state.view(0)
    assert "??" not in view["zones"]["hand"]["P0"]
    assert set(view["zones"]["hand"]["P1"]) == {"??"} and len(view["zones"]["hand"]["P1"]) == 13
    assert set(state.view(None)["zones"]["hand"]["P0"]) == {"??"}


def test_more_bouncers_than_numeric_cards_plain():
    # 3 5 J Q K: two bouncers cancel the 5 and the 3, the third costs 25.
    state = first_trick(
        hands={0: ["9D"], 1: ["2C"], 2: ["AS"]},
        points=[], prize=["2H"],
        won={0: ["3H", "5H", "JH", "QH", "KH"], 1: ["4H", "6H", "7H", "8H", "9H", "10H"], 2: ["AH"]},
    )
    for move in ("play 9D", "play 2C", "play AS"):
        state.apply(move)
    assert state.view("all")["vars"]["total"]["P0"] == -25
