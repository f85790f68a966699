"""Four games written from the docs alone by a new author (tests/scripts/): a partnership game
with nil bids, a climbing game of several-card plays, a small rummy with meld records and a game
of pure chance stepped through its pause points. Each asserts what its rules say it does;
tests/test_codegen.py and tests/test_playout.py play them too (fast vs traced, playout vs API)."""

from __future__ import annotations

import interpreter
from helpers import ROOT, arrange, moves
from interpreter.simulate import simulate

SCRIPTS = ROOT / "tests" / "scripts"


def load(name: str) -> interpreter.Game:
    return interpreter.load(str(SCRIPTS / name))


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
    from repl.table import Deck, render, snapshot
    game = load("little_rummy.cardgame")
    state = arrange(game.new_game(seed=0), {"hand": {0: ["3C", "4C", "5C", "9D"]}, "discard": ["2H"]}, "stock")
    state.apply("take")
    state.apply("lay 3C 4C 5C")
    lines = render(snapshot(state, "all", True), Deck.of(game.cards))
    assert "laid  P0 [{kind: run, cards: [3C, 4C, 5C]}] · P1 []" in lines


def test_the_repl_table_shows_a_single_record_variable_on_one_line(tmp_path):
    from repl.table import Deck, render, snapshot
    script = tmp_path / "best.cardgame"
    script.write_text('game "Best"\nplayers 2\nrecord meld { size: int, name: text }\n'
                      'var best: meld = meld(size: 3, name: "set")\n'
                      'phase main {\n    decide seat(0) {\n        stop\n    }\n    end game\n}\n')
    game = interpreter.load(str(script))
    lines = render(snapshot(game.new_game(), "all", True), Deck.of(game.cards))
    assert "best = {size: 3, name: set}" in lines
