"""`cardgame compare`: the same seeds on both sides; a real change shows, a script against
itself shows nothing.  Two scripts (a variant and its original): an option only one declares, and
errors that name the script.  Its statistics: differences paired where the same games are known
on both sides and kept within their possible range, Holm's correction over the figures tested,
each side's seat balance, no scores or leads for a game without a score, and a note when both
sides made the same moves.  A figure only one side has shown with the other absent, two player
counts, and notes on figures that follow from the components."""

from __future__ import annotations

import contextlib
import json

import pytest
from helpers import BOHEI_SHORT, BOORAY_HOUSE, BOSSPOKER_HOUSE, BOUNCER_TABLE, GAMES

from cardgame.repl.cli import main

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
    once the 18 figures tested are taken together (two are the drawn games with one loser, a
    three-way tie of four, and its seats' sole losses); the choice the rule removes is real."""
    assert main(["compare", BOORAY_HOUSE, "--option", "overtrump=true", "--option", "overtrump=false", "-n", "200"]) == 0
    out = capsys.readouterr().out.splitlines()
    note = out.index("4 of 18 figures tested differ significantly, each on its own; taken together "
                     "(Holm's correction for 18), 2 still do: branching factor, forced share.")
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


def test_compare_plays_two_player_counts_unpaired_with_the_first_seat_advantage(capsys):
    result, rows = _rows(capsys, BOSS_SHIPPED, "--players", "3", "--players", "4", "--option", "raises=by_ante",
                         "-n", "20")
    assert (result["players"], result["players_b"]) == (3, 4)
    assert {row["test"] for row in result["rows"] if row["test"] != "absent"} == {"unpaired"}
    assert rows["P3 wins"]["test"] == "absent" and rows["P3 wins"]["absent"] == "a" and rows["P3 wins"]["a"] is None
    first = rows["first seat advantage"]
    assert round(first["a"], 4) == round(rows["P0 wins"]["a"] - rows["won"]["a"] / 3, 4)
    assert round(first["b"], 4) == round(rows["P0 wins"]["b"] - rows["won"]["b"] / 4, 4)
    assert any("A seats 3 players and B 4" in note for note in result["notes"])


def test_compare_refuses_three_player_counts(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["compare", BOUNCER_TABLE, "--players", "3", "--players", "4", "--players", "5", "-n", "2"])
    assert exit_.value.code == 2
    assert "`--players` is given more than twice" in capsys.readouterr().err


def test_a_measure_only_the_variant_declares_is_shown_with_the_original_absent(capsys):
    variant = str(GAMES.parent / "tests" / "variants" / "booray_sweep.cardgame")
    result, rows = _rows(capsys, str(GAMES / "booray.cardgame"), variant, "--players", "4", "--option", "hands=3",
                         "-n", "20")
    row = rows["measure sweeps"]
    assert row["test"] == "absent" and row["absent"] == "a" and row["a"] is None and row["b"] is not None
    assert row["p"] is None and row["significant"] is False and row["significant_together"] is False
    main(["compare", str(GAMES / "booray.cardgame"), variant, "--players", "4", "--option", "hands=3", "-n", "20"])
    line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("measure sweeps"))
    assert line.split()[2] == "absent" and line.endswith("n/a (only B has it)")


TAKING = """game "Taking"
players 2
deck cards in stock {
    rank: 1, 2, 3, 4
    suit: C, D
    name: rank suit
}
zone stock: shared hidden
zone hand: per player public
var points: int per player = 0

phase turn {
    for p in players {
        decide p "Take the top card, or pass" {
            take {
                move top(stock) to hand[p] face up
                set points[p] += top(hand[p]).rank
            }
            pass { }
        }
        if empty(stock) {
            end game
        }
    }
    next turn
}

score p: points[p]
winners: highest score
"""

MORE_TAKING = """include "taking.cardgame"
replace game "Taking, more cards"
deck more in stock {
    rank: 5, 6
    suit: C, D
    name: rank suit
}
replace phase turn {
    for p in players {
        decide p "Take the top card, or pass" {
            take {
                move top(stock) to hand[p] face up
                set points[p] += top(hand[p]).rank
            }
            take_two {
                move top(stock) to hand[p] face up
                set points[p] += top(hand[p]).rank
                if not empty(stock) {
                    move top(stock) to hand[p] face up
                }
            }
            pass { }
        }
        if empty(stock) {
            end game
        }
    }
    next turn
}
"""


def test_compare_says_which_figures_follow_from_other_components(capsys, tmp_path):
    """A variant with four more cards (a second deck) and a move more: the information revealed
    and the branching factor change with them, and the notes say so."""
    (tmp_path / "taking.cardgame").write_text(TAKING)
    (tmp_path / "more.cardgame").write_text(MORE_TAKING)
    result, rows = _rows(capsys, str(tmp_path / "taking.cardgame"), str(tmp_path / "more.cardgame"), "-n", "10")
    assert result["notes"] == [
        "The decks differ (A 8 cards, B 12): `information revealed` counts the cards turned up or shown, so it "
        "changes with the deck, not only with play.",
        "The moves the decisions list differ (only B lists `take_two`): `branching factor` and `forced share` count "
        "the moves listed, so they change with the listing, not only with play."]
    assert rows["branching factor"]["b"] > rows["branching factor"]["a"]
    result, _ = _rows(capsys, BOUNCER, BOUNCER_TABLE, "--players", "3", "-n", "2")
    assert result["notes"] == []  # the same cards and moves: nothing follows from the components


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
