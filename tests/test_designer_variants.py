"""A designer's campaign (i14-variants): variants of the four shipped games written from the docs
alone (tests/scripts/variants/), and what simulate, compare, lint and rules told the designer
about them.  Each variant's changed rule is pinned in a scenario with exact legal moves, every
variant plays whole games, and each test after those pins one thing the campaign found wrong,
misleading or missing in the tools."""

from __future__ import annotations

import contextlib
import json

import pytest

from cardgame import interpreter
from helpers import GAMES, ROOT, moves
from cardgame.repl.cli import main

VARIANTS = ROOT / "tests" / "scripts" / "variants"
BOUNCER = str(GAMES / "bouncer.cardgame")
TABLE = str(VARIANTS / "bouncer_table.cardgame")
BOORAY = str(VARIANTS / "booray_house.cardgame")
BOSS = str(VARIANTS / "bosspoker_house.cardgame")
BOSS_SHIPPED = str(GAMES / "bosspoker.cardgame")
BOHEI = str(VARIANTS / "bohei_short.cardgame")
BOHEI_MEASURED = str(VARIANTS / "bohei_measured.cardgame")


def _load(path: str) -> interpreter.Game:
    return interpreter.load(path)


def _compare(capsys, *args) -> tuple[dict, dict]:
    assert main(["compare", *args, "--json", "--no-progress"]) == 0
    result = json.loads(capsys.readouterr().out)
    return result, {row["figure"]: row for row in result["rows"]}


# ---- two scripts compared: a variant's own option ------------------------------------------------

def test_an_option_only_the_variant_declares_is_set_for_the_variant_alone(capsys):
    result, rows = _compare(capsys, BOUNCER, TABLE, "--option", "prize_size=2", "-n", "40")
    assert result["a"]["options"] == {} and result["b"]["options"] == {"prize_size": 2}
    length = rows["length (decisions)"]
    # two point cards a trick: a hand has at most 7 tricks instead of 13
    assert length["significant"] and length["ci95"][1] < 0


def test_a_copy_with_its_new_options_at_their_defaults_plays_the_original_games(capsys):
    _result, rows = _compare(capsys, BOUNCER, TABLE, "-n", "30", "--option", "special_bouncers=true")
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
        status = main(["compare", BOUNCER, TABLE, "-n", "2", *args])
        assert status == 1
    assert message.format(a=BOUNCER, b=TABLE) in capsys.readouterr().err


def test_a_value_one_script_refuses_names_that_script(capsys):
    assert main(["compare", BOSS_SHIPPED, BOSS, "--option", "raises=pot_limit", "-n", "2"]) == 1
    assert f"`pot_limit` is not allowed for option `raises` (in {BOSS_SHIPPED})" in capsys.readouterr().err


# ---- the variants themselves: each changed rule in a scenario -----------------------------------

def _play(state, *texts):
    for text in texts:
        state.apply(text)
    return state


def test_bouncer_table_turns_up_two_point_cards_and_the_winner_takes_both():
    state = _load(TABLE).new_game(players=4, seed=1, options={"prize_size": 2})
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
    state = _load(TABLE).new_game(players=4, seed=1, options={"prize_size": 2})
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
        state = _load(BOORAY).new_game(players=4, seed=3, options={"overtrump": overtrump})
        _play(state, "play_hand", "pass", "play_hand", "pass", "play 8H")
        return moves(state)
    assert moves_at_the_second_card(True) == {"play 9H", "play JH"}
    assert moves_at_the_second_card(False) == {"play 9H", "play JH", "play 6H"}


def test_booray_ante_option_fills_the_pot():
    state = _load(BOORAY).new_game(players=5, seed=3, options={"ante": 25})
    assert state.view("all")["vars"]["pot"] == 125
    assert state.scores == [-25] * 5


def test_bosspoker_pot_limit_raises_at_most_the_pot():
    state = _load(BOSS).new_game(players=2, seed=0, options={"raises": "pot_limit"})
    _play(state, "commit 7r", "commit 9b")  # round 1: antes of 5, pot 10, nothing bet yet
    assert moves(state) == {"check"} | {f"raise {n}" for n in range(1, 11)}
    state.apply("raise 10")  # P1 must put in 10; the pot is then 30: raise to at most 40
    assert moves(state) == {"call", "fold"} | {f"raise {n}" for n in range(11, 41)}


def _peek_at_p2(peeking: bool):
    state = _load(BOSS).new_game(players=3, seed=0, options={"peeking": peeking})
    return _play(state, "commit 7r", "commit 9b", "commit 10y", "check", "check", "check",
                 "face Kr", "face Jb", "face Jy", "look_at P2")


def test_bosspoker_without_peeking_a_king_names_a_target_but_sees_nothing():
    assert _peek_at_p2(True).view(0)["zones"]["committed"]["P2"] == ["10y"]
    quiet = _peek_at_p2(False)
    assert quiet.view(0)["zones"]["committed"]["P2"] == ["??"]
    assert quiet.view("all")["vars"]["target"] == {"P0": "P2", "P1": None, "P2": None}
    assert quiet.view(0)["vars"]["green"]["P0"] == 2  # the King was paid for all the same


def _bohei_after_setup(options: dict):
    state = _load(BOHEI).new_game(players=3, seed=4, options=options)
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
    (TABLE, 4, {"prize_size": 2, "spare_cost": 10, "special_bouncers": True}),
    (BOORAY, 6, {"hands": 3, "ante": 30, "overtrump": False}),
    (BOSS, 4, {"raises": "pot_limit", "peeking": False}),
    (BOSS, 5, {"raises": "by_ante"}),
    (BOHEI, 4, {"start_cards": 5, "win_at": 6}),
    (BOHEI_MEASURED, 3, {}),
])
def test_every_simulated_game_of_a_variant_ends(capsys, path, players, options):
    args = [a for name, value in options.items() for a in ("--option", f"{name}={str(value).lower()}")]
    assert main(["simulate", path, "-n", "25", "--players", str(players), "--json", "--no-progress", *args]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["outcomes"]["won"] + result["outcomes"]["drawn"] == 25


# ---- lint judges rules by their statuses alone ------------------------------------------------

@pytest.mark.parametrize("path, players, options", [
    (BOORAY, 4, {"overtrump": False}), (BOORAY, 5, {"conventions": True}), (BOSS, 3, {"raises": "pot_limit"}),
    (BOHEI, 3, {}),
])
def test_rule_statuses_are_the_statuses_explain_gives(path, players, options):
    """What lint counts (moves.rule_statuses, no values recorded, the source split once) is what
    `why` shows, move for move."""
    from cardgame.interpreter.studies.agents import RandomAgent
    from cardgame.interpreter.engine.moves import rule_statuses
    game = _load(path)
    for seed in range(3):
        state, agent, compared = game.new_game(players=players, seed=seed, options=options), RandomAgent(seed), 0
        while not state.is_over and state.decisions < 300:
            for move in state.candidate_moves():
                assert rule_statuses(state, move) == [(r.name, r.status) for r in state.explain(move).rules]
                compared += 1
            state.apply(agent.choose(state.legal_moves()))
        assert compared > 0


# ---- lint: does the changed rule ever fire? -----------------------------------------------------

SWITCHED_RULE = '''game "A rule an option switches off"
players 2
option strict: bool = true "Follow suit."
deck small in stock {
    rank: 1, 2, 3
    suit: C, H
    name: rank suit
}
zone stock: shared hidden
zone hand: per player owner
zone pile: shared public
var led: symbol = none
define bound = strict
rule follow(p: player, c: card) "Follow the led suit if you can."
    when bound and led != none and any x in hand[p] where x.suit == led
    require c.suit == led
phase deal {
    shuffle stock
    deal 3 from stock to hand of players
    next turn
}
phase turn {
    for p in players {
        decide p "Play a card" {
            play(c from hand[p]) requires follow(p, c) {
                move c to pile face up
                set led = c.suit
            }
        }
    }
    if empty(hand[seat(0)]) {
        end game
    }
    next turn
}
'''


def test_lint_says_a_rule_never_applied_and_which_held_option_is_why(tmp_path):
    path = tmp_path / "switched.cardgame"
    path.write_text(SWITCHED_RULE)
    game = interpreter.load(str(path))
    off = interpreter.lint(game, 5, fixed={"strict": False})
    (finding,) = off.diagnostics
    assert (finding.code, finding.message) == ("L0201", "rule `follow` never applied")
    assert finding.label.startswith("its `when` was false for all ") and finding.label.endswith(" moves judged")
    assert "(`strict` was false in every game: try `--option` with another value)" in finding.hint
    assert interpreter.lint(game, 5).diagnostics == []  # varied both ways: it applies and forbids


def test_lint_booray_without_overtrump_names_the_option():
    report = interpreter.lint(_load(BOORAY), 1, fixed={"overtrump": False, "ante": 5})
    (finding,) = report.diagnostics
    assert finding.message == "rule `must_overtrump` never applied"
    assert "`overtrump` was false in every game" in finding.hint


# ---- compare's statistics ---------------------------------------------------------------------

def test_a_difference_too_small_to_show_is_zero_not_minus_zero():
    from cardgame.interpreter.studies.stats import paired_difference
    result = paired_difference([0.5, 0.25], [0.5, 0.24999])
    assert result["difference"] == 0 and str(result["difference"]) == "0.0"


def test_a_difference_of_rates_stays_between_minus_one_and_one():
    from cardgame.interpreter.studies.stats import paired_difference, unpaired_difference
    assert paired_difference([0] * 9 + [1], [1] * 10)["ci95"][1] == 1  # the normal interval reaches 1.09
    assert unpaired_difference([0] * 40 + [1], [1] * 39 + [0])["ci95"][1] <= 1


def test_a_rate_an_option_fixes_is_compared_within_its_possible_range(capsys):
    _result, rows = _compare(capsys, BOSS, "--option", "raises=pot_limit", "--option", "raises=by_ante",
                             "--players", "4", "-n", "200")
    last = rows["measure last_round"]
    assert last["b"] == 1 and last["significant"] and last["ci95"][1] == 1


def test_figures_known_for_the_same_games_on_both_sides_are_paired(capsys):
    """Random players never use what a King sees: without peeking the games are the same, and a
    figure known only for the won games (one game is a draw) is paired, exactly 0."""
    _result, rows = _compare(capsys, BOSS, "--option", "raises=by_ante", "--option", "peeking=true",
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
    assert main(["compare", BOORAY, "--option", "overtrump=true", "--option", "overtrump=false", "-n", "200"]) == 0
    out = capsys.readouterr().out.splitlines()
    note = out.index("4 of 17 figures tested differ significantly, each on its own; taken together "
                     "(Holm's correction for 17), 2 still do: branching factor, forced share.")
    assert out[note + 1].startswith("The others (P1 wins, P1 score) may be chance")
    rows = {line.split("  ")[0]: line for line in out}
    assert rows["P1 wins"].rstrip().endswith("YES")


def test_compare_of_two_scripts_playing_alike_says_nothing_differs(capsys):
    assert main(["compare", BOUNCER, TABLE, "-n", "10"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "no figure differs: each had the same value on both sides in every game" in out
    assert out[-2].startswith("The two sides made the same moves in all 10 games: the change never changed")


# ---- is the variant balanced? every seat, not only the first --------------------------------------

def test_balance_is_a_chi_square_test_of_every_seats_wins():
    from cardgame.interpreter.studies.stats import balance
    assert balance([291, 271, 244, 194]) == {"chi2": 21.176, "df": 3, "p_value": 0.0001}
    assert balance([349, 304, 328])["p_value"] == 0.2122
    assert balance([0, 0]) == {"chi2": None, "df": None, "p_value": None}


def test_pot_limit_boss_poker_is_unbalanced_though_p0_is_not_the_seat_that_suffers(capsys):
    """Pot-limit raises end most games by the third round, so the seats that are Boss first
    (P0, P1, P2) gain; P3 wins least.  The balance test sees it over every seat."""
    assert main(["simulate", BOSS, "-n", "1000", "--players", "4", "--option", "raises=pot_limit", "--json",
                 "--no-progress"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["wins_by_seat"] == [291, 271, 244, 194]
    assert stats["metrics"]["seat_balance"] == {"chi2": 21.176, "df": 3, "p_value": 0.0001}
    assert main(["simulate", BOSS, "-n", "20", "--players", "4", "--no-progress"]) == 0
    assert any(line.startswith("seat balance: chi-square ") for line in capsys.readouterr().out.splitlines())


def test_compare_tests_each_sides_balance(capsys):
    result, _rows = _compare(capsys, BOSS, "--option", "raises=by_ante", "--option", "raises=pot_limit",
                             "--players", "4", "-n", "60")
    assert set(result["balance"]) == {"a", "b"} and result["balance"]["a"]["df"] == 3
    assert result["balance"]["a"]["teams"] is False


def test_compare_refuses_two_player_counts(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["compare", TABLE, "--players", "3", "--players", "4", "-n", "2"])
    assert exit_.value.code == 2
    assert "`--players` is given more than once: both sides play one player count" in capsys.readouterr().err


# ---- a game won by a `winners:` expression, without a `score` ---------------------------------

def test_simulate_does_not_report_scores_or_leads_of_a_game_without_a_score(capsys):
    assert main(["simulate", BOHEI, "-n", "20", "--metrics", "full", "--json", "--no-progress"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["scored"] is False
    assert stats["metrics"]["lead_changes"]["n"] == 0 and stats["metrics"]["decided_at"]["n"] == 0
    assert main(["simulate", BOHEI, "-n", "20", "--metrics", "full", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "lead changes: not measured (the script has no `score`: nobody leads)" in out
    assert "P0     " in out and "none (the script has no `score`)" in out and "0.00 ± 0.00" not in out


def test_compare_leaves_out_scores_and_leads_of_games_without_a_score(capsys):
    _result, rows = _compare(capsys, BOHEI, "--option", "win_at=6", "--option", "win_at=7", "-n", "20")
    assert not any(name.endswith(" score") for name in rows)
    assert "lead changes" not in rows and "decided at" not in rows
    assert rows["measure turns_played"]["difference"] > 0  # a hand of 7 takes longer to reach than 6
    assert rows["measure turns_played"]["significant"]


# ---- the rulebook of a variant ----------------------------------------------------------------

def _rulebook(capsys, path, *options) -> str:
    args = [a for option in options for a in ("--option", option)]
    assert main(["rules", path, *args]) == 0
    return capsys.readouterr().out


def test_the_rulebook_of_booray_without_overtrump_leaves_the_rule_out_of_play(capsys):
    text = _rulebook(capsys, BOORAY, "overtrump=false", "ante=25")
    assert ("    - *play*, choosing *c* from *hand* of *p*; allowed by the rules **follow_suit** (“Follow the led "
            "suit if you can.”), **must_trump** (“Out of the led suit, play a trump if you have one.”):") in text
    assert ("  - does not apply in this game: it applies only when *overtrump* and the suit of *c* is *trump* and "
            "(*led* is *trump* or not *can_follow*(*p*)) and *can_overtrump*(*p*)") in text
    assert "  - Subtract 25 from *money* of *q*.\n  - Add 25 to *pot*." in text
    with_it = _rulebook(capsys, BOORAY, "overtrump=true")
    assert ("  - applies when the suit of *c* is *trump* and (*led* is *trump* or not *can_follow*(*p*)) and "
            "*can_overtrump*(*p*)") in with_it
    assert "**must_overtrump** (“Playing a trump" in with_it


def test_the_rulebook_keeps_only_the_branch_the_options_choose(capsys):
    assert "- *hand_score(p)*: *special_score*(*p*)\n" in _rulebook(capsys, BOUNCER, "special_bouncers=true")
    text = _rulebook(capsys, BOSS, "peeking=false")
    assert "Show *number_of*(*q*) to *p*." not in text and "keeps {p} from looking" not in text
    assert "Show *number_of*(*q*) to *p*." in _rulebook(capsys, BOSS)


def test_the_rulebook_without_options_writes_every_option_by_its_name(capsys):
    text = _rulebook(capsys, BOSS)
    assert "if *raises* is `any_amount`, otherwise" in text and "If *q* is not none and *peeking*:" in text


def test_the_rulebook_says_a_computed_deal_and_a_division_in_words(capsys):
    text = _rulebook(capsys, TABLE)
    assert ("- Deal (39 divided by the number of players (rounded down)) cards from *stock* to the *hand* of each "
            "of the players in turn from *first_leader*, one card at a time.") in text


def test_compare_says_when_the_two_sides_made_the_same_moves(capsys):
    """Random players never use what a King sees, and the ante changes no move: the designer is
    told that random play cannot tell such variants apart."""
    result, rows = _compare(capsys, BOSS, "--option", "raises=by_ante", "--option", "peeking=true",
                            "--option", "peeking=false", "--players", "3", "-n", "40")
    assert result["same_moves"] == 40 and rows["information revealed"]["significant"]
    result, _rows = _compare(capsys, BOORAY, "--option", "overtrump=true", "--option", "overtrump=false", "-n", "40")
    assert 0 < result["same_moves"] < 40  # a game where no trump had to beat a trump plays alike
    assert main(["compare", BOORAY, "--option", "ante=5", "--option", "ante=25", "-n", "20"]) == 0
    assert "The two sides made the same moves in all 20 games" in capsys.readouterr().out
