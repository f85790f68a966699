"""The designer's variants of the four shipped games (tests/scripts/variants/, written from the docs
alone): each changed rule pinned in a scenario with exact legal moves, and every variant plays
whole games to their end.  How a variant is built (`include` and `replace`) is
tests/test_replace.py's."""

from __future__ import annotations

import json

import pytest

from cardgame import interpreter
from cardgame.repl.cli import main

from helpers import BOHEI_MEASURED, BOHEI_SHORT, BOORAY_HOUSE, BOSSPOKER_HOUSE, BOUNCER_TABLE, moves


def _load(path: str) -> interpreter.Game:
    return interpreter.load(path)


def _play(state, *texts):
    for text in texts:
        state.apply(text)
    return state


def test_bouncer_table_turns_up_two_point_cards_and_the_winner_takes_both():
    state = _load(BOUNCER_TABLE).new_game(players=4, seed=1, options={"prize_size": 2})
    view = state.view("all")
    assert [len(view["zones"]["hand"][f"P{s}"]) for s in range(4)] == [9, 9, 9, 9]
    assert view["zones"]["prize"] == ["QH", "10H"] and len(view["zones"]["points"]) == 11
    _play(state, "play 6S", "play 7S", "play AS", "play 8S")  # P2's ace takes the trick
    view = state.view("all")
    assert view["zones"]["won"]["P2"] == ["QH", "10H"] and len(view["zones"]["points"]) == 9
    assert state.current_player == 2


def test_bouncer_table_hand_ends_when_the_point_deck_runs_out():
    """13 point cards, two a trick: after six tricks one point card and three cards a hand are
    left; the seventh trick takes the last one and ends the hand, two cards unplayed."""
    state = _load(BOUNCER_TABLE).new_game(players=4, seed=1, options={"prize_size": 2})
    for _ in range(6 * 4):
        state.apply(state.legal_moves()[0])
    view = state.view("all")
    assert len(view["zones"]["prize"]) == 1 and view["zones"]["points"] == []
    assert [len(h) for h in view["zones"]["hand"].values()] == [3, 3, 3, 3]
    for _ in range(4):
        state.apply(state.legal_moves()[0])
    view = state.view("all")  # scored, and the next hand dealt
    assert all(won == [] for won in view["zones"]["won"].values()) and state.scores != [0, 0, 0, 0]
    assert [len(h) for h in view["zones"]["hand"].values()] == [9, 9, 9, 9]


def test_booray_overtrump_off_lets_a_lower_trump_be_played():
    """Hearts are trump, P2 led 8H; P0 holds 9H JH 6H JC 4D.  With the obligation P0 must beat
    the 8H; without it any heart will do (following suit still binds)."""
    def moves_at_the_second_card(overtrump: bool) -> set[str]:
        state = _load(BOORAY_HOUSE).new_game(players=4, seed=3, options={"overtrump": overtrump})
        _play(state, "play_hand", "pass", "play_hand", "pass", "play 8H")
        return moves(state)
    assert moves_at_the_second_card(True) == {"play 9H", "play JH"}
    assert moves_at_the_second_card(False) == {"play 9H", "play JH", "play 6H"}


def test_booray_ante_option_fills_the_pot():
    state = _load(BOORAY_HOUSE).new_game(players=5, seed=3, options={"ante": 25})
    assert state.view("all")["vars"]["pot"] == 125
    assert state.scores == [-25] * 5


def test_bosspoker_pot_limit_raises_at_most_the_pot():
    state = _load(BOSSPOKER_HOUSE).new_game(players=2, seed=0, options={"raises": "pot_limit"})
    _play(state, "commit 7r", "commit 9b")  # round 1: antes of 5, pot 10, nothing bet yet
    assert moves(state) == {"check"} | {f"raise {n}" for n in range(1, 11)}
    state.apply("raise 10")  # P1 must put in 10; the pot is then 30: raise to at most 40
    assert moves(state) == {"call", "fold"} | {f"raise {n}" for n in range(11, 41)}


def _peek_at_p2(peeking: bool):
    state = _load(BOSSPOKER_HOUSE).new_game(players=3, seed=0, options={"peeking": peeking})
    return _play(state, "commit 7r", "commit 9b", "commit 10y", "check", "check", "check",
                 "face Kr", "face Jb", "face Jy", "look_at P2")


def test_bosspoker_without_peeking_a_king_names_a_target_but_sees_nothing():
    assert _peek_at_p2(True).view(0)["zones"]["committed"]["P2"] == ["10y"]
    quiet = _peek_at_p2(False)
    assert quiet.view(0)["zones"]["committed"]["P2"] == ["??"]
    assert quiet.view("all")["vars"]["target"] == {"P0": "P2", "P1": None, "P2": None}
    assert quiet.view(0)["vars"]["green"]["P0"] == 2  # the King was paid for all the same


def _bohei_after_setup(options: dict):
    state = _load(BOHEI_SHORT).new_game(players=3, seed=4, options=options)
    while state.phase == "setup":
        state.apply("begins P0" if state.prompt.startswith("Who is") else "does_not")
    return state


def test_bohei_short_deals_more_cards():
    state = _bohei_after_setup({"start_cards": 5})
    assert [len(h) for h in state.view("all")["zones"]["hand"].values()] == [5, 5, 5]
    assert not state.is_over and state.current_player == 0


def test_bohei_short_win_at_five_wins_a_five_card_start_at_once():
    state = _bohei_after_setup({"start_cards": 5, "win_at": 5})
    assert state.is_over and state.winners == [0]


@pytest.mark.parametrize("path, players, options", [
    (BOUNCER_TABLE, 4, {"prize_size": 2, "spare_cost": 10, "special_bouncers": True}),
    (BOORAY_HOUSE, 6, {"hands": 3, "ante": 30, "overtrump": False}),
    (BOSSPOKER_HOUSE, 4, {"raises": "pot_limit", "peeking": False}),
    (BOSSPOKER_HOUSE, 5, {"raises": "by_ante"}),
    (BOHEI_SHORT, 4, {"start_cards": 5, "win_at": 6}),
    (BOHEI_MEASURED, 3, {}),
])
def test_every_simulated_game_of_a_variant_ends(capsys, path, players, options):
    args = [a for name, value in options.items() for a in ("--option", f"{name}={str(value).lower()}")]
    assert main(["simulate", path, "-n", "25", "--players", str(players), "--json", "--no-progress", *args]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["outcomes"]["won"] + result["outcomes"]["drawn"] == 25
