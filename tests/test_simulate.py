"""`cardgame simulate`: every game is accounted for (won, drawn, capped, faulted, stopped by
the limit), faults are shown with the command that replays them and make the exit code 1, a
report or chart it cannot write is said so, the script's measures are exact, and a game without
a score reports no scores or leads."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, strategies as st

from cardgame import interpreter
from cardgame.interpreter.language.rng import derive
from cardgame.interpreter.studies.stats import proportion, yes_no_summary
from cardgame.repl.cli import main

from helpers import BOHEI_SHORT, ROOT, faulty_script

SCRIPTS = ROOT / "tests" / "scripts"
LINT = ROOT / "tests" / "lint"


def _json(capsys, *args):
    code = main(["simulate", *map(str, args), "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_script_that_always_faults_exits_1_and_shows_the_fault(capsys):
    assert main(["simulate", str(LINT / "always_faults.cardgame"), "-n", "20"]) == 1
    out = capsys.readouterr().out
    assert "faulted 20" in out
    assert "first of 20 game(s) with this fault: game 0" in out
    assert "error[R0001]: division by zero" in out and "always_faults.cardgame:10:23" in out


def test_the_json_shows_the_fault_and_its_diagnostic(capsys):
    code, stats = _json(capsys, LINT / "always_faults.cardgame", "-n", "4")
    assert code == 1 and stats["outcomes"]["faulted"] == 4 and stats["unfinished"] == 4
    (fault,) = stats["faults"]
    assert (fault["count"], fault["first_game"], fault["seed"]) == (4, 0, derive(0, 0))
    assert fault["diagnostic"]["code"] == "R0001" and fault["diagnostic"]["line"] == 10
    assert stats["p_faulted"]["value"] == 1.0 and stats["p_won"]["value"] == 0.0


def test_a_capped_game_is_counted_as_capped_not_as_finished(capsys):
    code, stats = _json(capsys, SCRIPTS / "capped.cardgame", "-n", "200", "--seed", "2")
    o = stats["outcomes"]
    assert code == 0 and o["capped"] > 0 and o["faulted"] == o["limit"] == 0
    assert o["won"] + o["capped"] == 200 and stats["unfinished"] == o["capped"]
    assert stats["p_capped"]["value"] == round(o["capped"] / 200, 4)
    assert sum(stats["wins_by_seat"]) == o["won"]


def test_draws_have_a_probability_with_an_interval(capsys):
    code, stats = _json(capsys, SCRIPTS / "draws.cardgame", "-n", "300")
    p = stats["p_draw"]
    drawn = stats["outcomes"]["drawn"]
    assert drawn > 0 and p["value"] == round(drawn / 300, 4)
    assert p["ci95"][0] < p["value"] < p["ci95"][1]
    # A draw is nobody's win: sole-win rates, draws and unfinished games make up every game.
    assert sum(stats["wins_by_seat"]) + drawn + stats["unfinished"] == 300


@given(script=st.sampled_from(["capped", "draws", "commit_reveal"]),
       seed=st.integers(0, 2 ** 32), games=st.integers(1, 25), policy=st.sampled_from(interpreter.POLICIES))
def test_wins_draws_and_unfinished_account_for_every_game(script, seed, games, policy):
    game = interpreter.load(str(SCRIPTS / f"{script}.cardgame"))
    stats = interpreter.simulate(game, games, game.min_players, seed, {}, policy=policy)
    o = stats["outcomes"]
    assert sum(o.values()) == games
    assert sum(stats["wins_by_seat"]) == o["won"]
    assert sum(stats["wins_by_seat"]) + o["drawn"] + stats["unfinished"] == games
    assert stats["unfinished"] == o["capped"] + o["faulted"] + o["limit"]
    assert stats["length"]["n"] == o["won"] + o["drawn"]


def test_measures_match_the_same_quantities_read_through_the_api():
    """The script's measures, summarised by simulate, equal what a plain API loop over the same
    seeds computes: same games (seed derive(S, i), agent RandomAgent.for_game), same values."""
    path = str(SCRIPTS / "draws.cardgame")
    game = interpreter.load(path)
    n, seed = 120, 9
    stats = interpreter.simulate(game, n, 2, seed, {})
    rounds, named, threes = [], [], []
    for i in range(n):
        state = game.new_game(players=2, seed=derive(seed, i))
        agent = interpreter.RandomAgent.for_game(derive(seed, i))
        while not state.is_over:
            state.apply(agent.choose(state.legal_moves()))
        rounds.append(int(state.evaluate("rounds")[0]))
        named += [int(state.evaluate(f"named[P{p}]")[0]) for p in range(2)]
        threes.append(1 if state.evaluate("named[P0] == 3")[0] == "true" else 0)
    m = stats["measures"]
    for entry, values in ((m["rounds"], rounds), (m["named"], named), (m["first_named_three"], threes)):
        assert entry["n"] == len(values)
        assert entry["mean"] == round(sum(values) / len(values), 4)
        assert (entry["min"], entry["max"]) == (min(values), max(values))
        assert sum(b["count"] for b in entry["histogram"]) == len(values)
    assert [b["count"] for b in m["rounds"]["histogram"]] == [rounds.count(k) for k in (1, 2, 3)]
    assert m["named"]["by_seat"][0]["mean"] == round(sum(named[0::2]) / n, 4)
    assert m["rounds"]["doc"].startswith("Rounds played") and m["rounds"]["line"] == 8


def test_alternative_first_picks_the_alternative_before_its_amount(capsys):
    path = SCRIPTS / "raise_or_fold.cardgame"
    _, uniform = _json(capsys, path, "-n", "200", "--seed", "1")
    _, alt = _json(capsys, path, "-n", "200", "--seed", "1", "--policy", "alternative-first")
    assert uniform["policy"] == "uniform" and alt["policy"] == "alternative-first"
    # uniform: 150 of the 152 moves raise; alternative-first: one alternative in three.
    assert uniform["measures"]["raises"]["mean"] > 9.7
    assert 2.8 < alt["measures"]["raises"]["mean"] < 3.9


def test_an_unknown_policy_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", str(SCRIPTS / "draws.cardgame"), "--policy", "clever"])
    assert exit_.value.code == 2
    assert "invalid choice: 'clever'" in capsys.readouterr().err


def test_simulate_says_when_it_cannot_write_its_charts_or_report(tmp_path, capsys):
    # a report path that is a folder, or in no folder, and a plot folder that is a file: these were
    # tracebacks (IsADirectoryError, FileNotFoundError, FileExistsError) after the whole simulation
    script = tmp_path / "calm.cardgame"
    script.write_text('game "Calm"\nplayers 2\nphase main {\n    decide seat(0) {\n        a\n        b\n    }\n'
                      '    end game\n}\n')
    assert main(["simulate", str(script), "-n", "2"]) == 0
    capsys.readouterr()
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    for flag, target, reason in [("--report", tmp_path, "Is a directory"),
                                 ("--report", tmp_path / "no" / "such" / "r.html", "No such file"),
                                 ("--plot", a_file, "exists")]:
        assert main(["simulate", str(script), "-n", "2", flag, str(target)]) == 1
        out, err = capsys.readouterr()
        assert "Calm: 2 games" in out  # the statistics are still printed
        assert err.startswith("error: cannot write") and reason in err and "Traceback" not in err


def test_a_fault_in_a_measure_says_how_to_replay_it(tmp_path, capsys):
    # `cardgame play --seed S`, the replay simulate and lint offered, never reads the measures,
    # so it ended cleanly; the hint now says to save the game and `eval` the measure
    script = tmp_path / "measured.cardgame"
    script.write_text('game "Measured"\nplayers 2\nvar n: int = 0\nmeasure ratio: 10 / n\n'
                      'phase main {\n    decide seat(0) {\n        a\n        b\n    }\n    end game\n}\n')
    assert main(["simulate", str(script), "-n", "2"]) == 1
    out = capsys.readouterr().out
    assert "replay it with `cardgame play" in out and "does not read measures" in out and "`eval`" in out
    assert main(["lint", str(script), "-n", "2"]) == 1
    captured = capsys.readouterr()
    assert "does not read measures" in captured.out + captured.err
    # a fault elsewhere keeps the plain replay command
    assert main(["simulate", faulty_script(tmp_path), "-n", "3"]) == 1
    out = capsys.readouterr().out
    assert "replay it with `cardgame play" in out and "measures" not in out


def test_simulate_does_not_report_scores_or_leads_of_a_game_without_a_score(capsys):
    assert main(["simulate", BOHEI_SHORT, "-n", "20", "--metrics", "full", "--json", "--no-progress"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["scored"] is False
    assert stats["metrics"]["lead_changes"]["n"] == 0 and stats["metrics"]["decided_at"]["n"] == 0
    assert main(["simulate", BOHEI_SHORT, "-n", "20", "--metrics", "full", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "lead changes: not measured (the script has no `score`: nobody leads)" in out
    assert "P0     " in out and "none (the script has no `score`)" in out and "0.00 ± 0.00" not in out



YES_NO = ('game "Yes or no"\nplayers 2\nvar picked: int = 0\n'
          'measure never: picked == 5 "Never true"\nmeasure threes: picked == 3\nmeasure picked_per p: picked == 2\n'
          'phase main {\n    decide seat(0) {\n        pick(n in 1..3) {\n            set picked = n\n'
          '        }\n    }\n    end game\n}\n')


def test_a_yes_no_measure_gets_the_wilson_interval_of_a_rate(tmp_path, capsys):
    """docs/simulate.md promises every rate a Wilson interval: a yes/no measure had a normal one,
    [0, 0] at 0 of n (and below 0 just above it), where `p_capped` at 0 of n has [0, 3.84/(n+3.84)]."""
    script = tmp_path / "yes_no.cardgame"
    script.write_text(YES_NO)
    code, stats = _json(capsys, script, "-n", "200", "--seed", "4")
    m = stats["measures"]
    assert code == 0 and [m[k]["yes_no"] for k in ("never", "threes", "picked_per")] == [True, True, True]
    assert (m["never"]["mean"], m["never"]["ci95"], stats["p_capped"]["ci95"]) == (0, [0, 0.0188], [0, 0.0188])
    assert (m["threes"]["mean"], m["threes"]["ci95"]) == (0.355, [0.292, 0.4235])  # 71 of 200
    assert (m["picked_per"]["n"], m["picked_per"]["ci95"]) == (400, [0.3001, 0.3929])  # 138 of 400
    assert m["picked_per"]["by_seat"][0]["ci95"] == [0.2826, 0.4132]  # 69 of 200
    assert main(["simulate", str(script), "-n", "200", "--seed", "4"]) == 0
    assert [line for line in capsys.readouterr().out.splitlines() if line.startswith("measure")] == [
        "measure never (yes/no): yes in 0.0% [0.0%–1.9%] of 200 games",
        "measure threes (yes/no): yes in 35.5% [29.2%–42.4%] of 200 games",
        "measure picked_per (per player, yes/no): yes in 34.5% [30.0%–39.3%] of 400 values (one per seat and game)"]
    # the case: 0 of 5,000 was [0, 0]; now what `p_draw` at 0 of 5,000 has
    assert yes_no_summary([0] * 5000)["ci95"] == proportion(0, 5000)["ci95"] == [0, 0.0008]
