"""`cardgame compare`: the same seeds on both sides; a real change shows, a script against
itself shows nothing.  Two scripts (a variant and its original): an option only one declares, and
errors that name the script.  Its statistics: differences paired where the same games are known
on both sides and kept within their possible range, Holm's correction over the figures tested,
each side's seat balance, no scores or leads for a game without a score, and a note when both
sides made the same moves."""

from __future__ import annotations

import contextlib
import json

import pytest

from cardgame.repl.cli import main

from helpers import BOHEI_SHORT, BOORAY_HOUSE, BOSSPOKER_HOUSE, BOUNCER_TABLE, GAMES

BOUNCER = str(GAMES / "bouncer.cardgame")
BOSS_SHIPPED = str(GAMES / "bosspoker.cardgame")


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


def _compare(capsys, *args) -> tuple[dict, dict]:
    assert main(["compare", *args, "--json", "--no-progress"]) == 0
    result = json.loads(capsys.readouterr().out)
    return result, {row["figure"]: row for row in result["rows"]}


def test_an_option_only_the_variant_declares_is_set_for_the_variant_alone(capsys):
    result, rows = _compare(capsys, BOUNCER, BOUNCER_TABLE, "--option", "prize_size=2", "-n", "40")
    assert result["a"]["options"] == {} and result["b"]["options"] == {"prize_size": 2}
    length = rows["length (decisions)"]
    # two point cards a trick: a hand has at most 7 tricks instead of 13
    assert length["significant"] and length["ci95"][1] < 0


def test_a_copy_with_its_new_options_at_their_defaults_plays_the_original_games(capsys):
    _result, rows = _compare(capsys, BOUNCER, BOUNCER_TABLE, "-n", "30", "--option", "special_bouncers=true")
    assert all(row["difference"] in (0, None) and not row["significant"] for row in rows.values())


@pytest.mark.parametrize("args, message", [
    (["--option", "prize_siz=2"],
     "unknown option `prize_siz`: neither {a} nor {b} declares it"),
    (["--option", "prize_size=2", "--option", "prize_size=3"],
     "`--option prize_size` is given twice (for A, then B), but only {b} declares it"),
    (["--players", "4"], "this game takes 3 players, not 4 (in {a})"),
])
def test_two_script_errors_name_the_script(capsys, args, message):
    with pytest.raises(SystemExit) if "twice" in message else contextlib.nullcontext():
        status = main(["compare", BOUNCER, BOUNCER_TABLE, "-n", "2", *args])
        assert status == 1
    assert message.format(a=BOUNCER, b=BOUNCER_TABLE) in capsys.readouterr().err


def test_a_value_one_script_refuses_names_that_script(capsys):
    assert main(["compare", BOSS_SHIPPED, BOSSPOKER_HOUSE, "--option", "raises=pot_limit", "-n", "2"]) == 1
    assert f"`pot_limit` is not allowed for option `raises` (in {BOSS_SHIPPED})" in capsys.readouterr().err


def test_a_difference_too_small_to_show_is_zero_not_minus_zero():
    from cardgame.interpreter.studies.stats import paired_difference
    result = paired_difference([0.5, 0.25], [0.5, 0.24999])
    assert result["difference"] == 0 and str(result["difference"]) == "0.0"


def test_a_difference_of_rates_stays_between_minus_one_and_one():
    from cardgame.interpreter.studies.stats import paired_difference, unpaired_difference
    assert paired_difference([0] * 9 + [1], [1] * 10)["ci95"][1] == 1  # the normal interval reaches 1.09
    assert unpaired_difference([0] * 40 + [1], [1] * 39 + [0])["ci95"][1] <= 1


def test_a_rate_an_option_fixes_is_compared_within_its_possible_range(capsys):
    _result, rows = _compare(capsys, BOSSPOKER_HOUSE, "--option", "raises=pot_limit", "--option", "raises=by_ante",
                             "--players", "4", "-n", "200")
    last = rows["measure last_round"]
    assert last["b"] == 1 and last["significant"] and last["ci95"][1] == 1


def test_figures_known_for_the_same_games_on_both_sides_are_paired(capsys):
    """Random players never use what a King sees: without peeking the games are the same, and a
    figure known only for the won games (one game is a draw) is paired, exactly 0."""
    _result, rows = _compare(capsys, BOSSPOKER_HOUSE, "--option", "raises=by_ante", "--option", "peeking=true",
                             "--option", "peeking=false", "--players", "3", "-n", "300")
    assert rows["decided at"]["test"] == "paired" and rows["decided at"]["ci95"] == [0, 0]
    assert rows["drawn"]["a"] > 0  # so `decided at` was not known for every game


def test_holm_keeps_only_what_stays_significant_taken_together():
    from cardgame.interpreter.studies.stats import holm
    assert holm([0.01, 0.04, 0.03, None]) == [True, False, False, False]  # 0.03 is not under 0.05 / 2
    assert holm([0.001, 0.02, None]) == [True, True, False]
    assert holm([0.2, None]) == [False, False]


def test_compare_says_which_significant_figures_may_be_chance(capsys):
    """Boo Ray without the overtrump obligation: P1's win rate looks different on its own, but not
    once the 17 figures tested are taken together (two are the drawn games with one loser, a
    three-way tie of four, and its seats' sole losses); the choice the rule removes is real."""
    assert main(["compare", BOORAY_HOUSE, "--option", "overtrump=true", "--option", "overtrump=false", "-n", "200"]) == 0
    out = capsys.readouterr().out.splitlines()
    note = out.index("4 of 17 figures tested differ significantly, each on its own; taken together "
                     "(Holm's correction for 17), 2 still do: branching factor, forced share.")
    assert out[note + 1].startswith("The others (P1 wins, P1 score) may be chance")
    rows = {line.split("  ")[0]: line for line in out}
    assert rows["P1 wins"].rstrip().endswith("YES")


def test_compare_of_two_scripts_playing_alike_says_nothing_differs(capsys):
    assert main(["compare", BOUNCER, BOUNCER_TABLE, "-n", "10"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "no figure differs: each had the same value on both sides in every game" in out
    assert out[-2].startswith("The two sides made the same moves in all 10 games: the change never changed")


def test_compare_tests_each_sides_balance(capsys):
    result, _rows = _compare(capsys, BOSSPOKER_HOUSE, "--option", "raises=by_ante", "--option", "raises=pot_limit",
                             "--players", "4", "-n", "60")
    assert set(result["balance"]) == {"a", "b"} and result["balance"]["a"]["df"] == 3
    assert result["balance"]["a"]["teams"] is False


def test_compare_refuses_two_player_counts(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["compare", BOUNCER_TABLE, "--players", "3", "--players", "4", "-n", "2"])
    assert exit_.value.code == 2
    assert "`--players` is given more than once: both sides play one player count" in capsys.readouterr().err


def test_compare_leaves_out_scores_and_leads_of_games_without_a_score(capsys):
    _result, rows = _compare(capsys, BOHEI_SHORT, "--option", "win_at=6", "--option", "win_at=7", "-n", "20")
    assert not any(name.endswith(" score") for name in rows)
    assert "lead changes" not in rows and "decided at" not in rows
    assert rows["measure turns_played"]["difference"] > 0  # a hand of 7 takes longer to reach than 6
    assert rows["measure turns_played"]["significant"]


def test_compare_says_when_the_two_sides_made_the_same_moves(capsys):
    """Random players never use what a King sees, and the ante changes no move: the designer is
    told that random play cannot tell such variants apart."""
    result, rows = _compare(capsys, BOSSPOKER_HOUSE, "--option", "raises=by_ante", "--option", "peeking=true",
                            "--option", "peeking=false", "--players", "3", "-n", "40")
    assert result["same_moves"] == 40 and rows["information revealed"]["significant"]
    result, _rows = _compare(capsys, BOORAY_HOUSE, "--option", "overtrump=true", "--option", "overtrump=false", "-n", "40")
    assert 0 < result["same_moves"] < 40  # a game where no trump had to beat a trump plays alike
    assert main(["compare", BOORAY_HOUSE, "--option", "ante=5", "--option", "ante=25", "-n", "20"]) == 0
    assert "The two sides made the same moves in all 20 games" in capsys.readouterr().out
