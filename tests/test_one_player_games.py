"""Games of one player (a patience): counted in the singular by `simulate`, `play` and `lint`."""

from __future__ import annotations

from helpers import PATIENCE


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
