"""Games of tests/scripts/ that score what cards make together, each rule in a scenario: a small
rummy that lays sets and runs as meld records, Go Fish's books, cribbage (fifteens, pairs and runs
pegged as cards are played, the crib laid at once, the show), Cassino (captures by pairing and by
sums, builds) and Gin Rummy (the knock, lay-offs, an undercut, gin).  tests/test_codegen.py,
tests/test_playout.py and tests/test_stepping.py play them too."""

from __future__ import annotations

from cardgame import interpreter
from helpers import arrange, load_script, moves, play_out, value_of, with_vars
from cardgame.interpreter.studies.simulate import simulate


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


def test_cribbage_both_lay_in_the_crib_at_once_and_the_count_stays_at_31():
    state = load_script("cribbage").new_game(seed=3)
    assert len(moves(state)) == 15 and state.choice_is_hidden  # 2 of 6 cards, chosen at once
    state.apply(sorted(moves(state))[0])
    assert state.current_player == 1 and state.view(1)["zones"]["crib"] == []  # nothing laid yet
    state.apply(sorted(moves(state))[0])
    assert len(moves(state)) == 33 and state.prompt == "Cut the deck: how many cards to lift?"
    state.apply("cut 10")
    assert state.phase == "pegging"
    state = with_vars(arrange(state, {"hand": {0: ["KC", "5D", "AH", "6S"], 1: ["2C", "3D", "9H", "QS"]},
                                      "starter": ["7H"]}, "stock"), running=25)
    assert moves(state) == {"play 5D", "play AH", "play 6S"}


def test_cribbage_pegging_scores_fifteens_pairs_and_runs_as_played():
    state = load_script("cribbage").new_game(seed=3)
    for running, cards, points in ((15, "[5C, 5D, 5H]", 8), (12, "[3C, 5D, 4H]", 3), (18, "[4C, 3D, 5H, 6S]", 4),
                                   (25, "[5C, 10D, 5H, 5S]", 2), (21, "[KC, 10D, AH]", 0)):
        assert value_of(with_vars(state, running=running), f"peg_points({cards})") == str(points), cards


def test_cribbage_the_show_counts_every_fifteen_pair_run_flush_and_nobs():
    state = load_script("cribbage").new_game(seed=3)
    for hand, starter, crib, points in (("[5C, 5S, 5H, JD]", "5D", "false", 29),
                                        ("[4C, 5S, 5H, 6D]", "9D", "false", 14),
                                        ("[3C, 3D, 4H, 5S]", "5C", "false", 20),
                                        ("[AC, 2D, 3H, KS]", "QD", "false", 7),
                                        ("[2H, 4H, 6H, 8H]", "KS", "false", 4),
                                        ("[2H, 4H, 6H, 8H]", "KS", "true", 0),
                                        ("[2H, 4H, 6H, 8H]", "KH", "true", 5)):
        assert value_of(state, f"show_points({hand}, {starter}, {crib})") == str(points), (hand, starter, crib)


def _cassino():
    from helpers import arrange
    state = load_script("cassino").new_game(players=2, seed=1)
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
    stats = simulate(load_script("cassino"), 20, 2, 0, {"target": 5})
    assert stats["outcomes"]["won"] + stats["outcomes"]["drawn"] == 20


GIN_HANDS = {"hand": {1: ["AC", "2C", "3C", "5D", "5H", "5S", "9C", "9D", "9H", "KS"],
                      0: ["6D", "7D", "8D", "JC", "JD", "JH", "QC", "QD", "QH", "5C"]}, "discard": ["4C"]}


def _gin():
    from helpers import arrange
    state = load_script("gin_rummy").new_game(players=2, seed=1)
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
    stats = simulate(load_script("gin_rummy"), 4, 2, 0, {"target": 10})
    assert stats["outcomes"]["faulted"] == 0 and stats["outcomes"]["limit"] == 0
