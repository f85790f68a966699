"""Trick-taking games of tests/scripts/, each rule in a scenario: a partnership game with nil bids,
Hearts, Euchre (the bowers, going alone, the stuck dealer), Oh Hell (the hook, hands up to a peak
and back) and Spades (not led until broken, a low spade takes the trick).  tests/test_codegen.py,
tests/test_playout.py and tests/test_stepping.py play them too (fast against traced, playout against
the API, stepped against straight)."""

from __future__ import annotations

from cardgame import interpreter
from helpers import SCRIPTS, arrange, load_script, moves, play_out
from cardgame.interpreter.studies.simulate import simulate


def test_partners_bid_nil_or_a_number_and_must_follow_suit():
    state = load_script("nil_partners.cardgame").new_game(seed=1)
    assert moves(state) == {"go_nil"} | {f"bid {n}" for n in range(1, 7)}
    for move in ["bid 2", "bid 4", "bid 2", "bid 3", "play JH", "play QH", "play AH"]:
        state.apply(move)
    assert moves(state) == {"play 10H"}  # P3's only heart; spades would trump but hearts were led
    state.apply("play 10H")
    assert state.view("all")["vars"]["tricks"] == {"P0": 0, "P1": 0, "P2": 1, "P3": 0}


def test_partners_spade_beats_the_led_suit():
    game = load_script("nil_partners.cardgame")
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
    result = simulate(load_script("nil_partners.cardgame"), 30, 4, 1, {})
    assert result["teams"] == {"T0": ["P0", "P2"], "T1": ["P1", "P3"]}
    assert sum(result["wins_by_team"]) + result["outcomes"]["drawn"] == 30
    shares = [r["value"] for r in result["win_rate_by_team"]] + [result["p_draw"]["value"]]
    assert abs(sum(shares) - 1) < 1e-3


def test_hearts_the_two_of_clubs_leads_and_hearts_wait_until_broken():
    state = load_script("hearts.cardgame").new_game(seed=1)
    for _ in range(4):  # everyone passes three cards at once
        state.apply(state.legal_moves()[0])
    hands = state.view("all")["zones"]["hand"]
    assert "2C" in hands[f"P{state.current_player}"]
    leads = moves(state)
    assert leads == {f"play {c}" for c in hands["P0"] if not c.endswith("H")} and "play 2C" in leads
    state.apply("play 2C")
    assert moves(state) == {"play 7C", "play 9C", "play 4C"}  # P1 follows clubs


def line_in(name: str, start: str) -> int:
    """The number of the first line of tests/scripts/NAME that starts with `start`."""
    lines = (SCRIPTS / name).read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.strip().startswith(start))


def test_euchre_the_dealer_cannot_pass_the_second_round_nor_name_the_suit_turned_down():
    state = load_script("euchre.cardgame").new_game(seed=1)
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
    state = load_script("euchre.cardgame").new_game(seed=1)
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
    state = load_script("euchre.cardgame").new_game(seed=1)
    state.apply("pass")
    state.apply("order_up_alone")  # P1 makes clubs alone: P3, the dealer, sits out
    assert state.current_player == 0 and all(m.startswith("play") for m in moves(state))  # no pick-up
    state = load_script("euchre.cardgame").new_game(seed=1)
    state.apply("order_up_alone")  # P0 alone: the dealer P3 picks up the 9C and discards
    assert state.current_player == 3 and "discard 9C" in moves(state)
    state.apply("discard 9C")
    for _ in range(3):  # P0, P1, P3: partner P2 sits out
        assert state.current_player != 2
        state.apply(sorted(moves(state))[0])
    view = state.view("all")
    assert sum(view["vars"]["tricks"].values()) == 1 and view["zones"]["hand"]["P2"] != []


def test_euchre_plays_to_ten_points_and_lints_clean_but_for_the_stuck_dealer():
    game = load_script("euchre.cardgame")
    state = play_out(game.new_game(seed=1), interpreter.RandomAgent(1), 2_000)
    assert state.is_over and max(state.team_scores) >= 10
    report = interpreter.lint(game, 20, seed=0)
    # random players almost never all pass twice (1 in 27,783 hands): lint cannot reach it
    assert [(d.code, d.span.line) for d in report.diagnostics] == [
        ("L0303", line_in("euchre.cardgame", 'decide dealer "Everyone passed'))]


def test_oh_hell_the_dealer_may_not_make_the_bids_add_up_to_the_hand():
    state = load_script("oh_hell.cardgame").new_game(seed=1, players=4)
    assert (state.current_player, state.prompt) == (1, "Bid for 1 cards (0 bid so far)")
    for move in ["bid 1", "bid 0", "bid 0"]:
        state.apply(move)
    assert state.current_player == 0 and moves(state) == {"bid 1"}  # 1 + 0 + 0 + 0 would make 1
    assert state.explain("bid 0").reason == "forbidden by `the_hook`"


def test_oh_hell_trump_wins_exact_bids_score_and_the_next_hand_is_one_card_larger():
    state = load_script("oh_hell.cardgame").new_game(seed=1, players=4)
    assert state.view("all")["zones"]["trump_card"] == ["AD"]
    for move in ["bid 1", "bid 0", "bid 0", "bid 1", "play 9D", "play JH", "play AC", "play 7D"]:
        state.apply(move)  # 9D, a trump, beats the 7D; AC and JH are neither trump nor led
    view = state.view("all")
    assert view["vars"]["total"] == {"P0": 0, "P1": 11, "P2": 10, "P3": 10}  # P0 bid 1 and took none
    assert {len(h) for h in view["zones"]["hand"].values()} == {2} and view["vars"]["dealer"] == "P1"


def test_oh_hell_hands_go_up_to_the_peak_and_back_and_the_game_plays_to_its_end():
    game = load_script("oh_hell.cardgame")
    assert game.new_game(seed=1, players=3, options={"max_hand": 3}).evaluate("hands")[0] == "5"
    assert game.new_game(seed=1, players=7, options={"max_hand": 10}).evaluate("hands")[0] == "13"  # 51 / 7
    played = play_out(game.new_game(seed=1, players=4), interpreter.RandomAgent(1), 20_000)
    assert played.is_over and played.scores == [77, 94, 20, 21] and played.decisions == 248


def _spades_lead(hands: dict, **values):
    from helpers import arrange, with_vars
    state = load_script("spades").new_game(players=4, seed=1)
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
    stats = simulate(load_script("spades"), 10, 4, 0, {"hands": 2})
    assert stats["outcomes"]["faulted"] == 0 and stats["unfinished"] == 0
    assert stats["teams"] == {"T0": ["P0", "P2"], "T1": ["P1", "P3"]}
