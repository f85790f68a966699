"""Measures at a point of the flow (docs/language.md §19): `measure NAME at end of PHASE` is read
each time the game leaves PHASE and when it ends in it; simulate aggregates every reading."""

from __future__ import annotations

import json

from helpers import SCRIPTS, check_codes, load_text

from cardgame import interpreter
from cardgame.interpreter.studies.playtest import play_recorded
from cardgame.repl.cli import main

DEALS = SCRIPTS / "deal_by_deal.cardgame"


def test_one_reading_per_hand_with_the_hands_value():
    game = interpreter.load(str(DEALS))
    for index in range(6):
        record = play_recorded(game, 2, 7, index, {})
        assert record.outcome == "won"
        points = record.measures["hand_points"]
        assert len(points) == record.measures["hands"]
        assert record.measures["high_hand"] == tuple(int(p >= 4) for p in points)
    # the readings are the values the game had when each hand ended: the same game replayed
    state = game.new_game(players=2, seed=record.seed, tracer=None, record=True)
    agent = interpreter.RandomAgent.for_game(record.seed)
    while not state.is_over:
        state.apply(agent.choose(state.legal_moves()))
    sets = [e.text for e in state.observed_events("all") if e.text.startswith("set hand_points")]
    assert tuple(int(t.split("= ")[1]) for t in sets) == record.measures["hand_points"]


def test_reading_changes_nothing_in_the_games(tmp_path):
    with_points = interpreter.load(str(DEALS))
    without = load_text(tmp_path, DEALS.read_text().replace(" at end of play", ""))
    for index in range(4):
        a, b = play_recorded(with_points, 2, 3, index, {}), play_recorded(without, 2, 3, index, {})
        assert (a.moves_digest, a.scores, a.decisions) == (b.moves_digest, b.scores, b.decisions)
        assert b.measures["hand_points"] == a.measures["hand_points"][-1]  # the end's is the last hand's


def test_simulate_aggregates_every_reading(capsys):
    assert main(["simulate", str(DEALS), "--games", "40", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)["measures"]
    hands = stats["hands"]
    assert stats["hand_points"]["at"] == "end of play" and "at" not in hands
    assert stats["hand_points"]["n"] == stats["high_hand"]["n"] == round(hands["mean"] * 40)
    assert main(["simulate", str(DEALS), "--games", "40"]) == 0
    line = next(l for l in capsys.readouterr().out.splitlines() if l.startswith("measure high_hand"))
    assert line.startswith("measure high_hand (at end of play, yes/no): yes in ") and line.endswith(" readings")


def test_an_unknown_phase_is_e0207(tmp_path):
    assert check_codes(tmp_path, DEALS.read_text().replace("at end of play:", "at end of plya:", 1)) == ["E0207"]
