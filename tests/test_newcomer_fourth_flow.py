"""A fourth newcomer campaign (i14-flow): games that stress the flow of play written from the
docs alone (Sushi Go, 6 nimmt!, Exploding Kittens, Durak, Klondike, Scopa, in tests/scripts/),
then what a newcomer met while writing them: simultaneous choices, reactions at any time,
several cards chosen at once, one-player games. Each test pins one thing found broken or
unhelpful, or one rule of those games."""

from __future__ import annotations

import json

import interpreter
from repl.cli import main

from helpers import ROOT

SCRIPTS = ROOT / "tests" / "scripts"

SUITS_AND_COUNTS = '''game "Coins"
players 2
deck italian in deck {
    rank: 1, 2, 3
    suit: coins, cups
    name: rank suit
}
zone deck: shared hidden
zone taken: per player public
define coins(p: player) = count x in taken[p] where x.suit == coins
define cups() = 3
phase main {
    move [x for x in deck where x.suit == coins] to taken[seat(0)]
    end game
}
score p: coins(p)
'''


def _load_text(tmp_path, text: str, name: str = "game.cardgame") -> interpreter.Game:
    path = tmp_path / name
    path.write_text(text)
    return interpreter.load(str(path))


def test_a_definition_with_parameters_named_like_a_symbol_is_not_warned_about(tmp_path):
    # W0408 said "in expressions `coins` now means this declaration, never the symbol", but a
    # definition with parameters is only ever called: `x.suit == coins` still reads the suit.
    game = _load_text(tmp_path, SUITS_AND_COUNTS)
    assert not [d for d in game.warnings if d.code == "W0408"]
    state = game.new_game(players=2, seed=1)
    assert state.scores == [3, 0]


def test_a_definition_without_parameters_named_like_a_symbol_is_still_warned_about(tmp_path):
    text = SUITS_AND_COUNTS.replace("define cups() = 3", "define cups = 3")
    game = _load_text(tmp_path, text)
    assert [d.message for d in game.warnings if d.code == "W0408"] == \
        ["`cups` is also a symbol (a card attribute or option value)"]


def _simulate_json(capsys, *args) -> dict:
    assert main(["simulate", *args, "--json", "--no-progress"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_one_player_game_has_no_first_seat_advantage(capsys):
    # It reported `+0.0% [-79.4%, +0.0%]`: every won game of patience is P0's, against a fair
    # share of 1, so the figure is 0 by construction and its interval meaningless.
    stats = _simulate_json(capsys, str(SCRIPTS / "klondike.cardgame"), "-n", "12", "--seed", "2")
    assert stats["outcomes"]["won"] > 0
    assert stats["metrics"]["first_seat_advantage"] == {"value": None, "ci95": None}
    assert main(["simulate", str(SCRIPTS / "klondike.cardgame"), "-n", "12", "--seed", "2", "--no-progress"]) == 0
    assert "first-seat advantage: n/a (one player)" in capsys.readouterr().out
