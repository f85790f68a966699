"""`end game capped`: a game stopped by the script's own safety cap is marked, saved and traced."""

from __future__ import annotations

import json

from cardgame import interpreter

from helpers import ROOT

CAPPED = str(ROOT / "tests" / "scripts" / "capped.cardgame")


def _play(moves):
    state = interpreter.load(CAPPED).new_game(seed=1)
    events = []
    state.set_tracer(events.append)
    for move in moves:
        state.apply(move)
    return state, events


def test_the_cap_ends_the_game_and_marks_it():
    state, events = _play(["go"] * 6)
    assert state.is_over and state.capped and state.legal_moves() == []
    assert state.winners == [0]  # scores and winners are still read
    end = events[-1]
    assert (end.kind, end.text, end.span.line) == ("end", "end (capped)", 17)


def test_a_real_end_is_not_capped():
    state, events = _play(["go", "stop"])
    assert state.is_over and not state.capped
    assert events[-1].text == "end"


def test_capped_survives_save_restore_and_clone():
    state, _ = _play(["go"] * 6)
    game = state.game
    assert game.restore(state.to_json()).capped and state.clone().capped
    assert state.to_json()["capped"] is True
    fresh = game.new_game(seed=1)
    assert fresh.to_json()["capped"] is False and not game.restore(fresh.to_json()).capped


def test_play_says_a_game_was_capped(capsys):
    from cardgame.repl.cli import main

    for seed in range(40):
        assert main(["play", CAPPED, "--seed", str(seed), "--json"]) == 0
        result = json.loads(capsys.readouterr().out.splitlines()[-1])["result"]
        if result["capped"]:
            break
    else:
        raise AssertionError("no capped game in 40 seeds")
    assert main(["play", CAPPED, "--seed", str(seed)]) == 0
    assert "stopped by its own cap (`end game capped`)" in capsys.readouterr().out
