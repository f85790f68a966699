"""Games written from the docs alone by a new author (tests/scripts/): a partnership game with nil
bids, a climbing game of several-card plays, a small rummy with meld records, a game of pure
chance stepped through its pause points, Blackjack, Hearts, Go Fish and Slapjack (the last four
include the shipped deck from outside games/), and Euchre, Cheat, Oh Hell, limit Hold'em and
Cribbage's play (session 6). Each asserts what its rules say it does; tests/test_codegen.py,
tests/test_playout.py and tests/test_stepping.py play them too (fast vs traced, playout vs API,
stepped vs straight)."""

from __future__ import annotations

import pytest

from cardgame import interpreter
from helpers import ROOT, arrange, moves, play_out, with_vars
from cardgame.interpreter.studies.simulate import simulate

SCRIPTS = ROOT / "tests" / "scripts"


def load(name: str) -> interpreter.Game:
    return interpreter.load(str(SCRIPTS / name))


def line_in(name: str, start: str) -> int:
    """The number of the first line of tests/scripts/NAME that starts with `start`."""
    lines = (SCRIPTS / name).read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.strip().startswith(start))


def test_partners_bid_nil_or_a_number_and_must_follow_suit():
    state = load("nil_partners.cardgame").new_game(seed=1)
    assert moves(state) == {"go_nil"} | {f"bid {n}" for n in range(1, 7)}
    for move in ["bid 2", "bid 4", "bid 2", "bid 3", "play JH", "play QH", "play AH"]:
        state.apply(move)
    assert moves(state) == {"play 10H"}  # P3's only heart; spades would trump but hearts were led
    state.apply("play 10H")
    assert state.view("all")["vars"]["tricks"] == {"P0": 0, "P1": 0, "P2": 1, "P3": 0}


def test_partners_spade_beats_the_led_suit():
    game = load("nil_partners.cardgame")
    state = game.new_game(seed=1)
    for move in ["bid 1", "bid 1", "bid 1", "bid 1"]:
        state.apply(move)
    hands = {0: ["AH", "9C"], 1: ["9S", "10C"], 2: ["KH", "JC"], 3: ["QH", "QC"]}
    state = arrange(state, {"hand": hands}, "taken")
    for move in ["play AH", "play 9S", "play KH", "play QH"]:
        state.apply(move)
    assert state.view("all")["vars"]["tricks"] == {"P0": 0, "P1": 1, "P2": 0, "P3": 0}
    assert state.current_player == 1  # the trick's winner leads the next one


def test_partners_team_wins_and_draws_count_every_game():
    result = simulate(load("nil_partners.cardgame"), 30, 4, 1, {})
    assert result["teams"] == {"T0": ["P0", "P2"], "T1": ["P1", "P3"]}
    assert sum(result["wins_by_team"]) + result["outcomes"]["drawn"] == 30
    shares = [r["value"] for r in result["win_rate_by_team"]] + [result["p_draw"]["value"]]
    assert abs(sum(shares) - 1) < 1e-3


def test_climb_a_pair_is_beaten_by_a_higher_pair_and_twos_are_high():
    state = load("climb.cardgame").new_game(seed=1, players=3)
    assert not any(m == "pass" for m in moves(state))  # the leader cannot pass
    assert "play 10D 10H 10S" in moves(state)
    state.apply("play 7D 7H")
    # P1 holds 4C 4D, 5H 5S, 8C 8S, QD QH, 2D 2S: only pairs above sevens, 2 the highest rank
    assert moves(state) == {"play 8C 8S", "play QD QH", "play 2D 2S", "pass"}
    state.apply("play QD QH")
    state.apply("pass")
    state.apply("pass")
    assert state.view("all")["vars"]["to_beat"] == []  # everyone passed: the pile is cleared
    assert state.current_player == 1


def test_rummy_lays_sets_and_runs_as_meld_records():
    game = load("little_rummy.cardgame")
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


def test_war_keeps_every_card_through_each_pause_and_ends_as_play_does():
    game = load("war.cardgame")
    stepped = game.new_game(seed=1, pause_at=("chance", "phase"))
    pauses = 0
    while not stepped.is_over:
        assert stepped.paused in ("chance", "phase") and not stepped.legal_moves()
        assert sum(len(z) for z in stepped.zones) == 52
        stepped.step()
        pauses += 1
    straight = game.new_game(seed=1)
    assert straight.is_over and straight.legal_moves() == []
    assert stepped.scores == straight.scores and stepped.capped == straight.capped
    assert pauses > 100  # two pause points a round at least: the phase start and the pot's shuffle


def test_the_repl_table_shows_records_as_fields_not_python_dicts():
    from cardgame.repl.table import Deck, render, snapshot
    game = load("little_rummy.cardgame")
    state = arrange(game.new_game(seed=0), {"hand": {0: ["3C", "4C", "5C", "9D"]}, "discard": ["2H"]}, "stock")
    state.apply("take")
    state.apply("lay 3C 4C 5C")
    lines = render(snapshot(state, "all", True), Deck.of(game.cards))
    assert "laid  P0 [{kind: run, cards: [3C, 4C, 5C]}] · P1 []" in lines


def test_the_repl_table_shows_a_single_record_variable_on_one_line(tmp_path):
    from cardgame.repl.table import Deck, render, snapshot
    script = tmp_path / "best.cardgame"
    script.write_text('game "Best"\nplayers 2\nrecord meld { size: int, name: text }\n'
                      'var best: meld = meld(size: 3, name: "set")\n'
                      'phase main {\n    decide seat(0) {\n        stop\n    }\n    end game\n}\n')
    game = interpreter.load(str(script))
    lines = render(snapshot(game.new_game(), "all", True), Deck.of(game.cards))
    assert "best = {size: 3, name: set}" in lines


def test_blackjack_an_ace_counts_eleven_or_one_whichever_keeps_the_hand_at_21():
    state = load("blackjack.cardgame").new_game(seed=1)
    totals = {"[AS, KD]": 21, "[AS, AD, 9C]": 21, "[AS, KD, 5H]": 16, "[AS, AD, AH, AC]": 14, "[KS, QD, 2C]": 22}
    assert {hand: int(state.evaluate(f"total({hand})")[0]) for hand in totals} == totals
    assert moves(state) == {f"wager {n}" for n in range(1, 11)}


def test_blackjack_the_house_draws_to_17_and_pays_the_better_hand():
    state = load("blackjack.cardgame").new_game(seed=1)
    state.apply("wager 5")
    state.apply("wager 3")
    # the shoe's top cards are then AH, AD (the cards not placed, in deck order): the house's 5S
    # draws AH (16), then AD (27, one ace counted as 1: 17) and stops
    state = arrange(state, {"hand": {0: ["AS", "KD"], 1: ["9C", "7H"]}, "dealer_hand": ["5S"]}, "shoe")
    hit = state.clone()
    for move in ["stand", "stand"]:
        state.apply(move)
    assert state.view("all")["vars"]["chips"] == {"P0": 105, "P1": 97}  # 21 beats 17, 16 loses to it
    hit.apply("stand")
    hit.apply("hit")  # P1 draws AH: 9 + 7 + 1 = 17, still under 21, so asked again
    assert hit.view("all")["zones"]["hand"]["P1"] == ["9C", "7H", "AH"]
    assert hit.current_player == 1 and moves(hit) == {"hit", "stand"}


def test_hearts_the_two_of_clubs_leads_and_hearts_wait_until_broken():
    state = load("hearts.cardgame").new_game(seed=1)
    for _ in range(4):  # everyone passes three cards at once
        state.apply(state.legal_moves()[0])
    hands = state.view("all")["zones"]["hand"]
    assert "2C" in hands[f"P{state.current_player}"]
    leads = moves(state)
    assert leads == {f"play {c}" for c in hands["P0"] if not c.endswith("H")} and "play 2C" in leads
    state.apply("play 2C")
    assert moves(state) == {"play 7C", "play 9C", "play 4C"}  # P1 follows clubs


def test_go_fish_a_right_guess_keeps_the_turn_a_wrong_one_draws_and_passes_it():
    state = load("go_fish.cardgame").new_game(seed=1, players=3)
    assert moves(state) == {f"ask P{q} {r}" for q in (1, 2) for r in (9, 7, "Q", 10, 6)}
    state.apply("ask P1 7")  # P1 holds 7S and 7C: both come to P0, who asks again
    hands = state.view("all")["zones"]["hand"]
    assert {"7S", "7C"} <= set(hands["P0"]) and not {"7S", "7C"} & set(hands["P1"])
    assert state.current_player == 0 and len(hands["P0"]) == 7
    state.apply("ask P2 9")  # P2 has no 9: P0 draws one and the turn passes
    assert len(state.view("all")["zones"]["hand"]["P0"]) == 8 and state.current_player == 1


def test_go_fish_four_of_a_rank_make_a_book():
    state = load("go_fish.cardgame").new_game(seed=1, players=3)
    state = arrange(state, {"hand": {0: ["7D", "7H", "7S", "2C"], 1: ["7C", "3D"], 2: ["4S"]}}, "stock")
    state.apply("ask P1 7")
    view = state.view("all")
    assert sorted(view["zones"]["books"]["P0"]) == ["7C", "7D", "7H", "7S"] and view["zones"]["hand"]["P0"] == ["2C"]
    assert view["vars"]["book_count"] == {"P0": 1, "P1": 0, "P2": 0}


def test_slapjack_a_jack_asks_every_player_and_a_slap_takes_the_pile():
    state = load("slapjack.cardgame").new_game(seed=1)
    state = arrange(state, {"hand": {0: ["2C", "JS"], 1: ["3C", "4C"], 2: ["5C"]}}, "stock")
    state.apply("flip")  # JS shows: P0, P1, P2 are asked in turn
    assert (state.current_player, moves(state)) == (0, {"slap_it", "pass"})
    state.apply("pass")
    assert (state.current_player, moves(state)) == (1, {"slap_it", "pass"})
    state.apply("slap_it")  # the first slap takes the pile and closes the window
    view = state.view("all")
    assert view["zones"]["pile"] == [] and view["zones"]["hand"]["P1"].count("JS") == 1
    assert state.current_player == 1 and moves(state) == {"flip"}  # then P1 turns a card as usual


def test_euchre_the_dealer_cannot_pass_the_second_round_nor_name_the_suit_turned_down():
    state = load("euchre.cardgame").new_game(seed=1)
    assert state.view("all")["zones"]["kitty"][-1] == "9C" and state.current_player == 0
    assert moves(state) == {"order_up", "order_up_alone", "pass"}
    for _ in range(4):
        state.apply("pass")
    named = {f"{how} {s}" for how in ("name", "name_alone") for s in "DHS"}  # clubs were turned down
    assert moves(state) == named | {"pass"}
    for _ in range(3):
        state.apply("pass")
    assert state.current_player == 3 and moves(state) == named  # the dealer is stuck


def test_euchre_the_left_bower_is_a_trump_for_following_and_the_right_bower_wins():
    state = load("euchre.cardgame").new_game(seed=1)
    for move in ["pass"] * 7 + ["name H"]:
        state.apply(move)
    hands = {0: ["JD", "9C", "10C", "AS", "KS"], 1: ["QH", "KD", "AD", "9S", "10S"],
             2: ["9D", "10D", "QS", "AC", "KC"], 3: ["JH", "9H", "QC", "JC", "JS"]}
    state = arrange(state, {"hand": hands}, "kitty")
    state.apply("play JD")  # the jack of diamonds leads hearts, the trump
    assert moves(state) == {"play QH"}  # P1's only heart; diamonds do not follow
    state.apply("play QH")
    assert moves(state) == {f"play {c}" for c in hands[2]}  # P2 has no heart: anything
    state.apply("play 9D")
    assert moves(state) == {"play JH", "play 9H"}  # the other jacks are no hearts
    state.apply("play JH")
    assert state.view("all")["vars"]["tricks"] == {"P0": 0, "P1": 0, "P2": 0, "P3": 1}
    assert state.current_player == 3


def test_euchre_going_alone_the_partner_sits_out_and_the_dealer_discards():
    state = load("euchre.cardgame").new_game(seed=1)
    state.apply("pass")
    state.apply("order_up_alone")  # P1 makes clubs alone: P3, the dealer, sits out
    assert state.current_player == 0 and all(m.startswith("play") for m in moves(state))  # no pick-up
    state = load("euchre.cardgame").new_game(seed=1)
    state.apply("order_up_alone")  # P0 alone: the dealer P3 picks up the 9C and discards
    assert state.current_player == 3 and "discard 9C" in moves(state)
    state.apply("discard 9C")
    for _ in range(3):  # P0, P1, P3: partner P2 sits out
        assert state.current_player != 2
        state.apply(sorted(moves(state))[0])
    view = state.view("all")
    assert sum(view["vars"]["tricks"].values()) == 1 and view["zones"]["hand"]["P2"] != []


def test_euchre_plays_to_ten_points_and_lints_clean_but_for_the_stuck_dealer():
    game = load("euchre.cardgame")
    state = play_out(game.new_game(seed=1), interpreter.RandomAgent(1), 2_000)
    assert state.is_over and max(state.team_scores) >= 10
    report = interpreter.lint(game, 20, seed=0)
    # random players almost never all pass twice (1 in 27,783 hands): lint cannot reach it
    assert [(d.code, d.span.line) for d in report.diagnostics] == [
        ("L0303", line_in("euchre.cardgame", 'decide dealer "Everyone passed'))]


def _cheat_table():
    state = load("cheat.cardgame").new_game(seed=1)
    return arrange(state, {"hand": {0: ["AS", "AD", "5C"], 1: ["2C", "3C"], 2: ["KH"]}, "pile": ["9C", "9D"]},
                   "stock")


def test_cheat_cards_are_played_one_at_a_time_and_the_claim_is_public_the_cards_are_not():
    state = _cheat_table()
    assert state.prompt == "Play a card as A" and moves(state) == {"play AS", "play AD", "play 5C"}
    state.apply("play AS")
    assert moves(state) == {"add AD", "add 5C", "claim"}
    state.apply("add 5C")
    state.apply("claim")
    assert (state.current_player, state.prompt) == (1, "P0 claims 2 × A: doubt it, or pass?")
    assert moves(state) == {"doubt_it", "pass"}
    assert state.view(1)["zones"]["last_play"]["P0"] == ["??", "??"]
    assert state.view(0)["zones"]["last_play"]["P0"] == ["AS", "5C"]


def test_cheat_a_caught_lie_takes_the_pile_and_an_honest_claim_gives_it_to_the_doubter():
    state = _cheat_table()
    for move in ["play AS", "add 5C", "claim"]:
        state.apply(move)
    caught = state.clone()
    caught.apply("doubt_it")  # 5C is no ace: P0 takes the pile and both cards; P2 is not asked
    zones = caught.view("all")["zones"]
    assert sorted(zones["hand"]["P0"]) == ["5C", "9C", "9D", "AD", "AS"] and zones["pile"] == []
    assert caught.current_player == 1 and caught.prompt == "Play a card as 2"
    honest = _cheat_table()
    for move in ["play AS", "add AD", "claim", "pass", "doubt_it"]:  # P1 passes, P2 doubts two aces
        honest.apply(move)
    zones = honest.view("all")["zones"]
    assert sorted(zones["hand"]["P2"]) == ["9C", "9D", "AD", "AS", "KH"] and zones["hand"]["P0"] == ["5C"]


def test_cheat_going_out_wins_unless_caught():
    state = _cheat_table()
    state = arrange(state, {"hand": {0: ["AS"], 1: ["2C", "3C"], 2: ["KH"]}}, "stock")
    state.apply("play AS")  # the last card: the claim is made at once
    state.apply("pass")
    state.apply("doubt_it")  # the truth: P2 takes the pile, P0 has won
    assert state.is_over and state.scores == [1, 0, 0]
    played = play_out(load("cheat.cardgame").new_game(seed=1), interpreter.RandomAgent(1), 20_000)
    assert played.is_over and not played.capped and played.scores == [0, 0, 1] and played.decisions == 248


def test_oh_hell_the_dealer_may_not_make_the_bids_add_up_to_the_hand():
    state = load("oh_hell.cardgame").new_game(seed=1, players=4)
    assert (state.current_player, state.prompt) == (1, "Bid for 1 cards (0 bid so far)")
    for move in ["bid 1", "bid 0", "bid 0"]:
        state.apply(move)
    assert state.current_player == 0 and moves(state) == {"bid 1"}  # 1 + 0 + 0 + 0 would make 1
    assert state.explain("bid 0").reason == "forbidden by `the_hook`"


def test_oh_hell_trump_wins_exact_bids_score_and_the_next_hand_is_one_card_larger():
    state = load("oh_hell.cardgame").new_game(seed=1, players=4)
    assert state.view("all")["zones"]["trump_card"] == ["AD"]
    for move in ["bid 1", "bid 0", "bid 0", "bid 1", "play 9D", "play JH", "play AC", "play 7D"]:
        state.apply(move)  # 9D, a trump, beats the 7D; AC and JH are neither trump nor led
    view = state.view("all")
    assert view["vars"]["total"] == {"P0": 0, "P1": 11, "P2": 10, "P3": 10}  # P0 bid 1 and took none
    assert {len(h) for h in view["zones"]["hand"].values()} == {2} and view["vars"]["dealer"] == "P1"


def test_oh_hell_hands_go_up_to_the_peak_and_back_and_the_game_plays_to_its_end():
    game = load("oh_hell.cardgame")
    assert game.new_game(seed=1, players=3, options={"max_hand": 3}).evaluate("hands")[0] == "5"
    assert game.new_game(seed=1, players=7, options={"max_hand": 10}).evaluate("hands")[0] == "13"  # 51 / 7
    played = play_out(game.new_game(seed=1, players=4), interpreter.RandomAgent(1), 20_000)
    assert played.is_over and played.scores == [77, 94, 20, 21] and played.decisions == 248


def test_holdem_hand_values_rank_the_nine_categories_and_the_wheel_is_the_lowest_straight():
    state = load("holdem.cardgame").new_game(seed=1)
    hands = ["[AS, KS, QS, JS, 10S]", "[AH, 2H, 3H, 4H, 5H]", "[9C, 9D, 9H, 9S, 2C]", "[3C, 3D, 3H, KS, KC]",
             "[2D, 7D, 9D, JD, KD]", "[6C, 7D, 8H, 9S, 10C]", "[AC, 2D, 3H, 4S, 5C]", "[QC, QD, QH, 2S, 7C]",
             "[JC, JD, 4H, 4S, AC]", "[8C, 8D, AH, KS, 2C]", "[AC, JD, 9H, 5S, 3C]"]
    values = [int(state.evaluate(f"hand_value({h})")[0]) for h in hands]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    assert [state.evaluate(f"category({h})")[0] for h in hands] == [str(c) for c in [8, 8, 7, 6, 5, 4, 4, 3, 2, 1, 0]]
    same = [state.evaluate(f"hand_value({h})")[0] for h in ["[6C, 7D, 8H, 9S, 10C]", "[10D, 9D, 8D, 7D, 6S]"]]
    assert same[0] == same[1]  # suits never break a tie


def test_holdem_limit_betting_allows_a_bet_and_three_raises():
    state = load("holdem.cardgame").new_game(seed=1, players=3)
    assert (state.current_player, state.prompt) == (0, "2 to call, 3 in the pot")  # blinds 1 and 2 posted
    assert moves(state) == {"call", "raise", "fold"}
    for move in ["raise", "raise", "raise"]:
        state.apply(move)
    assert (state.current_player, moves(state)) == (0, {"call", "fold"})  # the cap: 8 to match
    state.apply("call")
    state.apply("call")
    assert state.view("all")["zones"]["board"] == ["QC", "7S", "5C"] and state.view("all")["vars"]["pot"] == 24
    assert (state.current_player, moves(state)) == (1, {"check", "bet"})  # the flop: nothing bet yet


def test_holdem_the_best_five_of_seven_cards_takes_the_pot():
    game = load("holdem.cardgame")
    board = ["3S", "2S", "QD", "JH", "10H"]  # the stock's top cards: the flop 10H JH QD, then 2S, 3S
    for p2, scores in ((["8D", "9C"], [98, 98, 104]), (["7C", "8D"], [104, 98, 98])):
        state = game.new_game(seed=1, players=3, options={"hands": 1})
        state = arrange(state, {"hand": {0: ["2C", "3D"], 1: ["4H", "5S"], 2: p2}, "stock": board}, "mucked")
        for move in ["call", "call"] + ["check"] * 10:
            state.apply(move)
        # 8D 9C makes a straight to the queen; 7C 8D nothing, and P0's two pair (threes, twos) wins
        assert state.is_over and state.scores == scores
    played = play_out(game.new_game(seed=1, players=4), interpreter.RandomAgent(1), 20_000)
    assert played.is_over and played.scores == [100, 99, 74, 127] and played.decisions == 222


def test_cribbage_fifteens_pairs_and_runs_score_as_cards_are_played():
    state = load("cribbage_pegging.cardgame").new_game(seed=1)
    cases = {("4C", "6D", "5H"): (15, "5"),  # fifteen 2, a run of three in any order 3
             ("AD", "10S", "QC", "JH"): (31, "5"),  # thirty-one 2, the run 10-J-Q 3
             ("2C", "3S", "2D", "2H"): (9, "2"),  # the last two make a pair; the 3 breaks the three
             ("7C", "7D", "7H"): (21, "6"),  # three of a rank
             ("9C", "3D", "AH", "2S"): (15, "5")}  # fifteen, and A-2-3 aces low
    for sequence, (running, points) in cases.items():
        table = with_vars(arrange(state, {"sequence": list(sequence)}, "stock"), running=running)
        assert table.evaluate("play_points")[0] == points, sequence


def test_cribbage_the_count_stays_under_31_and_the_last_to_play_pegs_the_go():
    state = load("cribbage_pegging.cardgame").new_game(seed=1)
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
    game = load("cribbage_pegging.cardgame")
    two = play_out(game.new_game(seed=1), interpreter.RandomAgent(1), 20_000)
    three = play_out(game.new_game(seed=1, players=3), interpreter.RandomAgent(1), 20_000)
    assert (two.scores, two.decisions) == ([62, 40], 182) and (three.scores, three.decisions) == ([42, 51, 61], 357)


def test_a_text_outside_a_log_or_prompt_is_refused_with_parts_and_kept_with_escaped_braces(tmp_path):
    script = tmp_path / "texts.cardgame"
    body = 'game "Texts"\nplayers 2\ndefine shown = {}\nphase main {{\n    log "{{shown}}"\n    end game\n}}\n'
    script.write_text(body.format('"\\{kept\\} " + 1'))
    state = interpreter.load(str(script)).new_game(seed=1)
    assert state.evaluate("shown")[0] == "{kept} 1"
    script.write_text(body.format('"plays {1}"'))
    with pytest.raises(interpreter.ScriptError) as refused:
        interpreter.load(str(script))
    assert [d.code for d in refused.value.diagnostics] == ["E0136"]
