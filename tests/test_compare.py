"""`cardgame compare`: the same seeds on both sides; a real change shows, a script against
itself shows nothing."""

from __future__ import annotations

import json

import pytest

from cardgame.repl.cli import main

from helpers import GAMES

BOUNCER = str(GAMES / "bouncer.cardgame")


def _rows(capsys, *args):
    assert main(["compare", *args, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    return result, {row["figure"]: row for row in result["rows"]}


def test_special_bouncers_make_the_game_significantly_shorter(capsys):
    result, rows = _rows(capsys, BOUNCER, "--option", "special_bouncers=false", "--option", "special_bouncers=true",
                         "-n", "150", "--seed", "3")
    assert result["a"]["options"] == {"special_bouncers": False} and result["b"]["options"] == {"special_bouncers": True}
    length = rows["length (decisions)"]
    assert length["significant"] and length["test"] == "paired"
    assert length["difference"] < 0 and length["ci95"][1] < 0  # fewer decisions with special bouncers


def test_a_script_against_itself_shows_nothing_significant(capsys):
    result, rows = _rows(capsys, BOUNCER, BOUNCER, "-n", "40", "--option", "special_bouncers=true")
    assert result["a"]["options"] == result["b"]["options"] == {"special_bouncers": True}
    assert not any(row["significant"] for row in rows.values())
    assert all(row["difference"] in (0, None) for row in rows.values())


def test_compare_text_lists_each_figure(capsys):
    assert main(["compare", BOUNCER, "--option", "special_bouncers=false", "--option", "special_bouncers=true",
                 "-n", "30"]) == 0
    out = capsys.readouterr().out
    assert "A: " in out and "special_bouncers=true" in out
    assert any(line.startswith("length (decisions)") for line in out.splitlines())


@pytest.mark.parametrize("args, message", [
    ([BOUNCER], "nothing to compare"),
    ([BOUNCER, "--option", "special_bouncers=true", "--option", "special_bouncers=false",
      "--option", "special_bouncers=true"], "more than twice"),
    ([BOUNCER, BOUNCER, BOUNCER], "one script"),
])
def test_bad_comparisons_are_usage_errors(capsys, args, message):
    with pytest.raises(SystemExit) as exit_:
        main(["compare", *args, "-n", "2"])
    assert exit_.value.code == 2 and message in capsys.readouterr().err


def test_compare_calls_a_difference_of_the_same_amount_in_every_game_significant():
    from cardgame.interpreter.studies.stats import paired_difference
    # Hanabi's ruin_on_third_fuse: every game ruined on one side, none on the other
    assert paired_difference([1] * 50, [0] * 50) == {"difference": -1, "ci95": [-1, -1], "significant": True,
                                                     "p": 0.0}
    assert paired_difference([3] * 50, [3] * 50)["significant"] is False
    assert paired_difference([1], [0])["significant"] is False  # one game tells nothing
