"""A sixth newcomer campaign (i15-ports): classic games of the kind CardStock/RECYCLE and Ludii
ship, written from the docs alone (Old Maid, ... in tests/scripts/), then what a newcomer met
while writing them. Each test pins one thing found broken or unhelpful, or one rule of those
games."""

from __future__ import annotations

import json

from cardgame import interpreter
from cardgame.interpreter.studies.compare import compare
from cardgame.interpreter.studies.simulate import simulate
from cardgame.repl.cli import main

from helpers import ROOT

SCRIPTS = ROOT / "tests" / "scripts"


def _game(name: str) -> interpreter.Game:
    return interpreter.load(str(SCRIPTS / f"{name}.cardgame"))


# --- Old Maid: one loser, everybody else wins -------------------------------------------------

def test_old_maid_ends_every_game_with_exactly_one_loser():
    stats = simulate(_game("old_maid"), 60, 4, 0, {})
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
    game = _game("old_maid")
    result = compare(game, {}, game, {}, 10, 3)
    figures = {row["figure"]: row for row in result["rows"]}
    assert figures["drawn with one loser"]["a"] == 1
    assert sum(figures[f"P{s} sole losses"]["a"] for s in range(3)) == 1
    bouncer = interpreter.load(str(ROOT / "games" / "bouncer.cardgame"))
    assert "drawn with one loser" not in {row["figure"] for row in compare(bouncer, {}, bouncer, {}, 2, 3)["rows"]}


# --- lint: a decision with no legal move was asked ----------------------------------------------

NO_LEGAL_LEAD = '''game "Nothing to lead"
players 2
deck small in stock {
    rank: 1, 2, 3
    suit: C, S
    name: rank suit
}
zone stock: shared hidden
zone hand: per player owner
rule never(c: card) "A rule that can never hold." require c.suit == S and c.suit != S
phase main {
    shuffle stock
    deal 2 from stock to hand of players
    decide seat(0) "Lead" {
        play(c from hand[seat(0)]) requires never(c)
    }
    end game
}
'''


def test_lint_does_not_call_a_decision_that_faulted_for_want_of_a_move_never_asked(tmp_path):
    """Before: R0001 'this decision has no legal move' and, at the same line, L0303 'this decision
    was never asked': the second contradicted the first."""
    from cardgame.interpreter.studies.lint import lint
    path = tmp_path / "lead.cardgame"
    path.write_text(NO_LEGAL_LEAD)
    found = [(d.code, d.span.line) for d in lint(interpreter.load(str(path)), games=3).diagnostics]
    assert ("R0001", 14) in found and ("L0303", 14) not in found


# --- Spades -------------------------------------------------------------------------------------

def _spades_lead(hands: dict, **values):
    from helpers import arrange, with_vars
    state = _game("spades").new_game(players=4, seed=1)
    for _ in range(4):  # the four bids
        state.apply(state.legal_moves()[1])
    assert state.current_player == 1 and state.phase == "trick"
    return with_vars(arrange(state, {"hand": hands}, "won"), **values)


def test_spades_cannot_be_led_until_broken_unless_the_leader_holds_only_spades():
    from helpers import moves
    hands = {0: ["5H"], 1: ["2S", "4H"], 2: ["6H"], 3: ["7H"]}
    assert moves(_spades_lead(hands)) == {"play 4H"}
    assert moves(_spades_lead(hands, broken=True)) == {"play 2S", "play 4H"}
    assert moves(_spades_lead({**hands, 1: ["2S", "3S"]})) == {"play 2S", "play 3S"}


def test_spades_a_low_spade_takes_the_trick_and_breaks_spades():
    state = _spades_lead({0: ["2S", "5D"], 1: ["4H", "3D"], 2: ["AH", "4D"], 3: ["KH", "6D"]})
    for move in ("play 4H", "play AH", "play KH", "play 2S"):
        state.apply(move)
    assert state.evaluate("[tricks[P0], broken]")[0] == "[1, true]"


def test_spades_plays_to_the_end_in_every_game():
    stats = simulate(_game("spades"), 10, 4, 0, {"hands": 2})
    assert stats["outcomes"]["faulted"] == 0 and stats["unfinished"] == 0
    assert stats["teams"] == {"T0": ["P0", "P2"], "T1": ["P1", "P3"]}


# --- Shithead (Palace) --------------------------------------------------------------------------

def _palace(layout: dict):
    from helpers import arrange
    state = _game("shithead").new_game(players=2, seed=1)
    assert state.phase == "take_turn" and state.current_player == 0
    return arrange(state, layout, "burnt")


PALACE = {"hand": {0: ["5C", "9C", "9D", "2C", "10C", "KC"], 1: ["3C"]},
          "table_up": {0: ["JC"], 1: ["JD"]}, "table_down": {0: ["QC"], 1: ["QD"]}, "pile": ["9H"]}


def test_palace_plays_equal_or_higher_a_two_or_a_ten_on_anything_or_picks_up():
    from helpers import moves
    assert moves(_palace(PALACE)) == {"play 9 1", "play 9 2", "play 2 1", "play 10 1", "play K 1", "pick_up"}


def test_palace_a_ten_burns_the_pile_and_the_same_player_plays_again():
    state = _palace(PALACE)
    state.apply("play 10 1")
    assert state.current_player == 0
    assert state.evaluate("[count(pile), count(burnt) > 2]")[0] == "[0, true]"


def test_palace_plays_from_the_face_up_cards_once_the_hand_is_empty_then_blind():
    from helpers import moves
    layout = dict(PALACE, hand={0: [], 1: ["3C"]}, table_up={0: ["JC", "4C"], 1: ["JD"]})
    assert moves(_palace(layout)) == {"play J 1", "pick_up"}
    layout = dict(PALACE, hand={0: ["KC", "5C"], 1: []}, table_up={0: [], 1: []}, table_down={0: [], 1: ["QD", "4D"]})
    state = _palace(layout)
    state.apply("play K 1")
    assert state.current_player == 1 and moves(state) == {"blind 0", "blind 1"}
    state.apply("blind 1")  # the 4 cannot go on the king: picked up with the pile
    assert state.evaluate("cards(hand[P1])")[0] == "[9H, KC, 4D]"


def test_palace_every_game_ends_or_is_capped():
    stats = simulate(_game("shithead"), 20, 3, 0, {})
    assert stats["outcomes"]["faulted"] == 0 and stats["outcomes"]["limit"] == 0
    assert stats["drawn_with_one_loser"] == stats["outcomes"]["drawn"] > 0


# --- Cassino ------------------------------------------------------------------------------------

def _cassino():
    from helpers import arrange
    state = _game("cassino").new_game(players=2, seed=1)
    assert state.current_player == 1 and state.phase == "play_round"
    return arrange(state, {"hand": {1: ["9C", "5D", "KC", "4H"], 0: ["2D", "3D", "6D", "7D"]},
                           "table": ["5H", "4C", "9D", "KH", "2C"]}, "stock")


def test_cassino_captures_by_pairing_and_by_sums_and_builds_to_a_card_held():
    from helpers import moves
    assert moves(_cassino()) == {
        "capture 4H 4C", "capture 5D 5H", "capture KC KH",                          # pairing
        "capture 9C 9D", "capture 9C 4C 5H", "capture 9C 4C 5H 9D",                # sums, in groups
        "build 4H 5H", "build 5D 4C",                                              # to the 9 held
        "trail 4H", "trail 5D", "trail 9C", "trail KC"}


def test_cassino_whoever_owns_a_build_must_take_it_with_a_card_kept_for_it():
    from helpers import moves
    state = _cassino()
    state.apply("build 4H 5H")
    state.apply("trail 2D")
    # no trailing, no second build, and the 9 is kept for the build (not `capture 9C 9D`)
    assert moves(state) == {"take_build 9C P1", "capture KC KH"}
    state.apply("take_build 9C P1")
    assert state.evaluate("[count(taken[P1]), build_value[P1], count(builds[P1])]")[0] == "[3, 0, 0]"


def test_cassino_plays_every_deal_to_the_end():
    stats = simulate(_game("cassino"), 20, 2, 0, {"target": 5})
    assert stats["outcomes"]["won"] + stats["outcomes"]["drawn"] == 20


# --- Gin Rummy ----------------------------------------------------------------------------------

GIN_HANDS = {"hand": {1: ["AC", "2C", "3C", "5D", "5H", "5S", "9C", "9D", "9H", "KS"],
                      0: ["6D", "7D", "8D", "JC", "JD", "JH", "QC", "QD", "QH", "5C"]}, "discard": ["4C"]}


def _gin():
    from helpers import arrange
    state = _game("gin_rummy").new_game(players=2, seed=1)
    assert state.current_player == 1 and state.phase == "take_turn"
    state = arrange(state, GIN_HANDS, "stock")
    state.apply("from_discard")
    return state


def test_gin_knocks_only_with_ten_or_less_deadwood_and_not_with_the_card_just_taken():
    from helpers import moves
    assert {m for m in moves(_gin()) if m.startswith("knock")} == {"knock AC", "knock KS"}
    assert "discard 4C" not in moves(_gin()) and "discard 9C" in moves(_gin())


def test_gin_the_other_lays_off_then_an_undercut_scores_25_and_the_difference():
    from helpers import moves
    state = _gin()
    state.apply("knock AC")  # melds 5s, 9s, 2C-3C-4C; the KS is 10 deadwood
    assert state.current_player == 0 and moves(state) == {"lay_off 5C 0", "lay_off 5C 2", "done"}
    state.apply("lay_off 5C 2")  # onto the run: nothing left, 0 against 10
    assert moves(state) == {"done"}  # nothing else extends a meld
    state.apply("done")
    assert state.evaluate("score_of")[0] == "[35, 0]"


def test_gin_going_gin_scores_25_and_the_others_deadwood_without_lay_offs():
    state = _gin()
    state.apply("knock KS")
    assert state.evaluate("score_of")[0] == "[0, 30]"  # 25 + the 5C left over


def test_gin_plays_on_to_the_end_or_its_cap():
    stats = simulate(_game("gin_rummy"), 4, 2, 0, {"target": 10})
    assert stats["outcomes"]["faulted"] == 0 and stats["outcomes"]["limit"] == 0


# --- the REPL: a move typed without `play` ------------------------------------------------------

def test_an_alternatives_name_typed_as_a_command_says_to_type_play():
    """Before: `capture 9C` (not one of the moves, but `capture` is an alternative here) said only
    "`help` lists the commands"; `trail KC` (a whole move) already said to type `play trail KC`."""
    from cardgame.repl.session import Session
    s = Session()
    s.start(str(SCRIPTS / "cassino.cardgame"), seed=1)
    assert s.execute("capture 9C") == ("error: unknown command `capture`\n  = help: `capture` is a move of this "
                                       "decision: moves are typed after `play` (`play capture 9C`); `moves` lists them")
    assert "type `play trail KC`" in s.execute("trail KC")
    s.execute("view P0")  # P1 is to act: P0 does not see P1's moves
    assert s.execute("capture 9C") == "error: unknown command `capture`\n  = help: `help` lists the commands"


def test_a_game_without_a_score_does_not_show_everybody_at_zero(capsys):
    """Before: `final scores: P0 0, P1 0, P2 0` and `game over, scores P0 0, ...` for Old Maid,
    which declares no `score` (simulate already said "none (the script has no `score`)")."""
    from cardgame.repl.session import Session
    assert main(["play", str(SCRIPTS / "old_maid.cardgame"), "--seed", "5", "--players", "3"]) == 0
    assert capsys.readouterr().out.splitlines()[-2] == "final scores: none (the script has no `score`)"
    s = Session()
    s.start(str(SCRIPTS / "old_maid.cardgame"), seed=3)
    assert ", game over, scores none (the script has no `score`), winners " in s.execute("auto end")
    assert "· scores none (the script has no `score`)" in s.execute("state").splitlines()[0]


# --- an Uno-like game with a deck of action cards -----------------------------------------------

def _uno(players: int, hands: dict):
    from helpers import arrange
    state = _game("uno").new_game(players=players, seed=1)
    assert state.current_player == 0 and state.phase == "take_turn"
    state = arrange(state, {"hand": hands, "discard": ["R5a"]}, "draw_pile")
    return state


def test_uno_plays_the_colour_asked_the_same_face_or_a_wild_card():
    from helpers import moves
    state = _uno(3, {0: ["R7a", "G5a", "B9a", "W.1", "Yskipa"], 1: ["G1a"], 2: ["G2a"]})
    state = _with_asked(state, "R")
    assert moves(state) == {"play R7a", "play G5a", "play W.1", "draw"}


def _with_asked(state, colour: str):
    from helpers import with_vars
    return with_vars(state, asked=colour)


def test_uno_a_draw_two_makes_the_next_player_draw_and_miss_the_turn():
    state = _with_asked(_uno(3, {0: ["Rdraw2a", "G5a"], 1: ["G1a"], 2: ["G2a"]}), "R")
    state.apply("play Rdraw2a")
    assert state.current_player == 2 and state.evaluate("count(hand[P1])")[0] == "3"


def test_uno_a_wild_names_the_colour_and_a_reverse_between_two_is_a_skip():
    from helpers import moves
    state = _with_asked(_uno(2, {0: ["W.1", "Rreversea", "G5a"], 1: ["G1a", "B1a"]}), "R")
    state.apply("play W.1")
    assert moves(state) == {"name_colour R", "name_colour Y", "name_colour G", "name_colour B"}
    state.apply("name_colour B")
    assert state.current_player == 1 and state.evaluate("asked")[0] == "B"
    state = _with_asked(_uno(2, {0: ["Rreversea", "G5a"], 1: ["G1a", "B1a"]}), "R")
    state.apply("play Rreversea")
    assert state.current_player == 0


def test_uno_every_game_ends_with_one_winner():
    stats = simulate(_game("uno"), 20, 3, 0, {})
    assert stats["outcomes"]["won"] == 20
