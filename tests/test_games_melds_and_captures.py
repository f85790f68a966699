"""Games of tests/scripts/ that score what cards make together, each rule in a scenario: a small
rummy that lays sets and runs as meld records, Go Fish's books, and cribbage's play (fifteens,
pairs and runs pegged as cards are played).  tests/test_codegen.py, tests/test_playout.py and
tests/test_stepping.py play them too."""

from __future__ import annotations

from cardgame import interpreter
from helpers import arrange, load_script, moves, play_out, with_vars


def test_rummy_lays_sets_and_runs_as_meld_records():
    game = load_script("little_rummy.cardgame")
    state = game.new_game(seed=0)
    hand = ["3C", "4C", "5C", "5D", "5S", "KH", "9D"]
    state = arrange(state, {"hand": {0: hand, 1: ["2S", "7D", "8D", "JS", "QS", "KS", "AD"]},
                            "discard": ["2H"]}, "stock")
    state.apply("take")
    assert moves(state) == {"lay 3C 4C 5C", "lay 5C 5D 5S", "done"}
    state.apply("lay 5C 4C 3C")  # the cards of a several-card move in any order
    assert moves(state) == {"done"}
    assert state.view("all")["vars"]["laid"]["P0"] == [{"kind": "run", "cards": ["3C", "4C", "5C"]}]
    state.apply("done")
    assert moves(state) == {f"throw {c}" for c in ["5D", "5S", "KH", "9D", "2H"]}


def test_go_fish_a_right_guess_keeps_the_turn_a_wrong_one_draws_and_passes_it():
    state = load_script("go_fish.cardgame").new_game(seed=1, players=3)
    assert moves(state) == {f"ask P{q} {r}" for q in (1, 2) for r in (9, 7, "Q", 10, 6)}
    state.apply("ask P1 7")  # P1 holds 7S and 7C: both come to P0, who asks again
    hands = state.view("all")["zones"]["hand"]
    assert {"7S", "7C"} <= set(hands["P0"]) and not {"7S", "7C"} & set(hands["P1"])
    assert state.current_player == 0 and len(hands["P0"]) == 7
    state.apply("ask P2 9")  # P2 has no 9: P0 draws one and the turn passes
    assert len(state.view("all")["zones"]["hand"]["P0"]) == 8 and state.current_player == 1


def test_go_fish_four_of_a_rank_make_a_book():
    state = load_script("go_fish.cardgame").new_game(seed=1, players=3)
    state = arrange(state, {"hand": {0: ["7D", "7H", "7S", "2C"], 1: ["7C", "3D"], 2: ["4S"]}}, "stock")
    state.apply("ask P1 7")
    view = state.view("all")
    assert sorted(view["zones"]["books"]["P0"]) == ["7C", "7D", "7H", "7S"] and view["zones"]["hand"]["P0"] == ["2C"]
    assert view["vars"]["book_count"] == {"P0": 1, "P1": 0, "P2": 0}


def test_cribbage_fifteens_pairs_and_runs_score_as_cards_are_played():
    state = load_script("cribbage_pegging.cardgame").new_game(seed=1)
    cases = {("4C", "6D", "5H"): (15, "5"),  # fifteen 2, a run of three in any order 3
             ("AD", "10S", "QC", "JH"): (31, "5"),  # thirty-one 2, the run 10-J-Q 3
             ("2C", "3S", "2D", "2H"): (9, "2"),  # the last two make a pair; the 3 breaks the three
             ("7C", "7D", "7H"): (21, "6"),  # three of a rank
             ("9C", "3D", "AH", "2S"): (15, "5")}  # fifteen, and A-2-3 aces low
    for sequence, (running, points) in cases.items():
        table = with_vars(arrange(state, {"sequence": list(sequence)}, "stock"), running=running)
        assert table.evaluate("play_points")[0] == points, sequence


def test_cribbage_the_count_stays_under_31_and_the_last_to_play_pegs_the_go():
    state = load_script("cribbage_pegging.cardgame").new_game(seed=1)
    state = arrange(state, {"hand": {0: ["8D", "7D", "AS", "KH"], 1: ["7C", "7H", "5S", "QS"]}}, "stock")
    for move in ["play 7C", "play 7D", "play 7H"]:  # P1 leads (P0 deals): a pair, then three sevens
        state.apply(move)
    assert state.view("all")["vars"]["pegs"] == {"P0": 2, "P1": 6}
    assert moves(state) == {"play 8D", "play AS", "play KH"}  # 21 + 10 is 31: the king fits
    state.apply("play 8D")  # 29: P1's 5S and QS would pass 31, P0's ace would not
    assert (state.current_player, moves(state)) == (1, {"go"})
    state.apply("go")
    assert moves(state) == {"play AS"}  # the only card P0 may play (KH would make 39)
    state.apply("play AS")  # 30: nobody can play, P0 pegs 1 for the go and P1 leads from 0
    view = state.view("all")["vars"]
    assert (view["pegs"], view["running"], state.current_player) == ({"P0": 3, "P1": 6}, 0, 1)


def test_cribbage_plays_to_61_with_two_or_three():
    game = load_script("cribbage_pegging.cardgame")
    two = play_out(game.new_game(seed=1), interpreter.RandomAgent(1), 20_000)
    three = play_out(game.new_game(seed=1, players=3), interpreter.RandomAgent(1), 20_000)
    assert (two.scores, two.decisions) == ([62, 40], 182) and (three.scores, three.decisions) == ([42, 51, 61], 357)
