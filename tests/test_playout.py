"""The playout loop (`interpreter.playout`, what `simulate` runs) plays exactly the games the
public API plays: the same moves, the same state after the game, the same scores, winners and
faults, and the agent's generator ends in the same place, on every shipped game, test script
and complete docs example."""

from __future__ import annotations

import json

import pytest

import interpreter
from interpreter.agents import RandomAgent
from interpreter.rng import derive
from interpreter.simulate import play_one

from helpers import play_out
from test_codegen import DOC_SCRIPTS, SCRIPTS

MAX = 3000


def _api_game(game, players, seed, options):
    """One game through the public calls only: legal_moves(), the agent, apply()."""
    state = game.new_game(players=players, seed=seed, options=options)
    return play_out(state, RandomAgent.for_game(seed), MAX)


def _outcome(state):
    fault = state.fault and (state.fault.code, state.fault.message, state.fault.span)
    finished = state.is_over and state.fault is None
    return (json.dumps(state.to_json(), sort_keys=True), fault, state.decisions,
            (state.scores, state.winners) if finished else None)


def _same_games(path, seeds):
    game = interpreter.load(str(path))
    option_sets = [{}] + [{o.name: not o.default} for o in game.options if o.kind == "bool"]
    for players in sorted({game.min_players, game.max_players}):
        for options in option_sets:
            for seed in seeds:
                played, _ = play_one(game, players, seed, options, max_decisions=MAX)
                assert _outcome(played) == _outcome(_api_game(game, players, seed, options)), \
                    (path.name, players, options, seed)


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_playouts_play_the_games_of_the_api(path):
    _same_games(path, [derive(7, i) for i in range(4)])


@pytest.mark.parametrize("line, block", DOC_SCRIPTS, ids=[f"language.md:{line}" for line, _ in DOC_SCRIPTS])
def test_playouts_play_the_games_of_the_api_on_docs_examples(line, block, tmp_path):
    path = tmp_path / "example.cardgame"
    path.write_text(block)
    _same_games(path, [derive(7, i) for i in range(2)])


def test_a_fault_ends_a_playout_as_it_ends_an_api_game(tmp_path):
    path = tmp_path / "fault.cardgame"
    path.write_text('game "Fault"\nplayers 2\nvar x: int = 3\nphase main {\n    decide seat(0) "Pick" {\n'
                    '        down { set x -= 1 }\n        stay { }\n        stop { end game }\n    }\n    set x = 10 / x\n'
                    '    next main\n}\n')
    game = interpreter.load(str(path))
    faulted = 0
    for seed in range(30):
        played, _ = play_one(game, 2, seed, {}, max_decisions=MAX)
        assert _outcome(played) == _outcome(_api_game(game, 2, seed, {}))
        faulted += played.fault is not None and played.fault.message == "division by zero"
    assert faulted > 0


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_a_playout_plays_a_whole_game_by_itself(path):
    """No decision of a shipped game or test script needs the public path in a playout."""
    game = interpreter.load(str(path))
    state = game.new_game(players=game.min_players, seed=5)
    assert interpreter.playout.play_random(state, RandomAgent.for_game(5).rng, MAX) is None
    assert state.is_over or state.decisions == MAX
