"""Whether the seats are balanced: a chi-square test of every seat's wins (pot-limit Boss Poker
favours the first Bosses, not only P0); in games all but one seat win (Old Maid, drawn with one
loser) simulate and compare count each seat's losses and sole losses and test the loser balance
alike; a game with a sole winner counts every other seat as losing, and without games of one
loser no loser line is printed."""

from __future__ import annotations

import json

from cardgame import interpreter
from cardgame.interpreter.studies.compare import compare
from cardgame.interpreter.studies.simulate import simulate
from cardgame.repl.cli import main

from helpers import BOSSPOKER_HOUSE, ROOT, SCRIPTS, load_script


def test_old_maid_ends_every_game_with_exactly_one_loser():
    stats = simulate(load_script("old_maid"), 60, 4, 0, {})
    assert stats["outcomes"]["drawn"] == 60 and stats["unfinished"] == 0
    assert stats["drawn_with_one_loser"] == 60
    assert sum(stats["sole_losses_by_seat"]) == 60 == sum(stats["losses_by_seat"])


def test_a_game_all_but_one_seat_win_reports_its_loser_not_only_a_draw(capsys):
    """Before: simulate called every Old Maid game a draw and had nothing to say about who lost
    ('seat balance: n/a (no game was won)'); now each seat's losses and a loser balance."""
    assert main(["simulate", str(SCRIPTS / "old_maid.cardgame"), "-n", "40", "--players", "3",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "drawn 40 (40 of them with one loser, all the others winning)" in out
    assert "sole losses by seat: P0 " in out and "loser balance: chi-square" in out
    assert main(["simulate", str(SCRIPTS / "old_maid.cardgame"), "-n", "40", "--players", "3",
                 "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    lost = [r["value"] for r in stats["loss_rate_by_seat"]]
    assert sum(lost) == 1 and stats["sole_losses_by_seat"] == stats["losses_by_seat"]
    assert stats["metrics"]["loser_balance"]["df"] == 2


def test_a_game_with_a_sole_winner_counts_every_other_seat_as_losing(capsys):
    assert main(["simulate", str(ROOT / "games" / "bouncer.cardgame"), "-n", "6", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["drawn_with_one_loser"] == 0 and stats["outcomes"]["won"] == 6
    assert sum(stats["losses_by_seat"]) == 12  # two losers in each 3-seat game
    assert sum(stats["sole_losses_by_seat"]) == 0
    assert main(["simulate", str(ROOT / "games" / "bouncer.cardgame"), "-n", "3"]) == 0
    assert "loser balance" not in capsys.readouterr().out  # nothing to say without such games


def test_compare_adds_sole_losses_when_a_side_has_games_with_one_loser():
    game = load_script("old_maid")
    result = compare(game, {}, game, {}, 10, 3)
    figures = {row["figure"]: row for row in result["rows"]}
    assert figures["drawn with one loser"]["a"] == 1
    assert sum(figures[f"P{s} sole losses"]["a"] for s in range(3)) == 1
    bouncer = interpreter.load(str(ROOT / "games" / "bouncer.cardgame"))
    assert "drawn with one loser" not in {row["figure"] for row in compare(bouncer, {}, bouncer, {}, 2, 3)["rows"]}


def test_compare_tests_the_loser_balance_of_games_with_one_loser_as_simulate_does(capsys):
    """Before: compare's last line tested only the seat balance of won games, "n/a (no game was
    won)" for Old Maid, whose games all end drawn with one loser."""
    from cardgame.interpreter.studies.compare import compare
    from cardgame.interpreter.studies.simulate import simulate
    from cardgame.repl.cli import main
    game = interpreter.load(str(SCRIPTS / "old_maid.cardgame"))
    result = compare(game, {}, game, {}, 30, 4, 0)
    expected = simulate(game, 30, 4, 0, {})["metrics"]["loser_balance"]
    assert result["drawn_with_one_loser"] and result["balance"]["a"]["p_value"] is None
    assert result["loser_balance"]["a"] == dict(expected, teams=False) == result["loser_balance"]["b"]
    path = str(SCRIPTS / "old_maid.cardgame")
    assert main(["compare", path, path, "-n", "30", "--players", "4", "--no-progress"]) == 0
    last = capsys.readouterr().out.rstrip("\n").split("\n")[-1]
    chi2 = f"chi-square {expected['chi2']:.2f} ({expected['df']} df)"
    assert last.startswith("seat loser balance (do they lose equal shares of the games with one loser?): A " + chi2)


def test_compare_of_games_without_one_loser_prints_no_loser_line(capsys):
    from cardgame.repl.cli import main
    path = str(SCRIPTS / "old_maid.cardgame")
    assert main(["compare", path, path, "-n", "10", "--players", "2", "--no-progress"]) == 0
    assert "loser balance" not in capsys.readouterr().out


def test_balance_is_a_chi_square_test_of_every_seats_wins():
    from cardgame.interpreter.studies.stats import balance
    assert balance([291, 271, 244, 194]) == {"chi2": 21.176, "df": 3, "p_value": 0.0001}
    assert balance([349, 304, 328])["p_value"] == 0.2122
    assert balance([0, 0]) == {"chi2": None, "df": None, "p_value": None}


def test_pot_limit_boss_poker_is_unbalanced_though_p0_is_not_the_seat_that_suffers(capsys):
    """Pot-limit raises end most games by the third round, so the seats that are Boss first
    (P0, P1, P2) gain; P3 wins least.  The balance test sees it over every seat."""
    assert main(["simulate", BOSSPOKER_HOUSE, "-n", "1000", "--players", "4", "--option", "raises=pot_limit", "--json",
                 "--no-progress"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["wins_by_seat"] == [291, 271, 244, 194]
    assert stats["metrics"]["seat_balance"] == {"chi2": 21.176, "df": 3, "p_value": 0.0001}
    assert main(["simulate", BOSSPOKER_HOUSE, "-n", "20", "--players", "4", "--no-progress"]) == 0
    assert any(line.startswith("seat balance: chi-square ") for line in capsys.readouterr().out.splitlines())
