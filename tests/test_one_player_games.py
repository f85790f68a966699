"""Games of one player (a patience): counted in the singular by `simulate`, `play`, `lint` and
the rulebook, refused for another player count (the API, the REPL), and without a first-seat
advantage or a seat balance to report."""

from __future__ import annotations

import json

import pytest

from cardgame import interpreter
from cardgame.repl.cli import main
from cardgame.repl.session import Session

from helpers import PATIENCE, SCRIPTS, load_script


def test_a_one_player_game_is_counted_in_the_singular(tmp_path, capsys):
    from cardgame.repl.cli import main

    path = tmp_path / "patience.cardgame"
    path.write_text(PATIENCE)
    # simulate said "Golf: 1 games, 1 players", play "1 players", lint "1 games (1 setups"
    main(["simulate", str(path), "-n", "1", "--no-progress"])
    assert capsys.readouterr().out.startswith("Patience: 1 game, 1 player, seed 0")
    main(["play", str(path), "--seed", "1"])
    assert capsys.readouterr().out.startswith("Patience: 1 player, seed 1")
    main(["lint", str(path), "-n", "1"])
    assert "played 1 game (1 setup, " in capsys.readouterr().out
    assert main(["play", str(path), "--view", "P2"]) == 2
    assert "this game has 1 player, P0 only" in capsys.readouterr().err


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
    out = capsys.readouterr().out
    assert "first-seat advantage: n/a (one player)" in out
    assert "seat balance: n/a (one player)" in out  # it said 'no game was won' beside a won game


def test_a_one_player_game_takes_1_player_not_1_players():
    with pytest.raises(interpreter.ScriptError, match=r"this game takes 1 player, not 2\n"):
        load_script("klondike").new_game(players=2)
    s = Session()
    s.execute(f"load {SCRIPTS / 'klondike.cardgame'}")
    assert s.execute("new players=2").startswith("error: this game takes 1 player, not 2")


def test_the_rulebook_of_a_one_player_game_has_no_seats_around_a_table(capsys):
    # It read "1 players. The seats are numbered P0, P1, ... in order around the table; ...".
    assert main(["rules", str(SCRIPTS / "klondike.cardgame"), "--detailed"]) == 0
    assert "## Players\n\n1 player, P0, who plays alone.\n" in capsys.readouterr().out
    assert main(["rules", str(SCRIPTS / "klondike.cardgame")]) == 0
    assert "\n\nOne player, who plays alone.\n\n## Cards\n" in capsys.readouterr().out
