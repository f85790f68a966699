"""interpreter.rollouts: N random playouts from any state (a determinized one too), each one's
scores and length, the same as playing that copy move by move through the public API with the
same generators; the state itself is left as it was."""

from __future__ import annotations

import pytest
from helpers import ROOT

from cardgame import interpreter
from cardgame.interpreter.language.rng import derive, seed_state
from cardgame.interpreter.studies.agents import RandomAgent


def _mid_game(name="bouncer.cardgame", players=3, moves=5):
    game = interpreter.load(str(ROOT / "games" / name))
    state = game.new_game(players=players, seed=4)
    for _ in range(moves):
        state.apply(state.legal_moves()[0])
    return state


def _by_the_api(state, seed, i, policy, most=interpreter.limits.MAX_DECISIONS):
    copy = state.clone()
    copy.rng = seed_state(derive(seed, i))
    agent = RandomAgent.for_game(derive(seed, i), policy)
    while not copy.is_over and copy.decisions - state.decisions < most:
        copy.apply(agent.choose(copy.legal_moves()))
    return (tuple(copy.scores) if copy.is_over else None), copy.decisions - state.decisions


@pytest.mark.parametrize("policy", ["uniform", "alternative-first"])
def test_rollouts_play_the_api_games_and_leave_the_state_alone(policy):
    state = _mid_game()
    before = state.to_json()
    found = interpreter.rollouts(state, 6, seed=3, policy=policy)
    assert state.to_json() == before
    assert [(r.scores, r.length) for r in found] == [_by_the_api(state, 3, i, policy) for i in range(6)]
    assert all(r.outcome in ("won", "drawn") for r in found)
    assert len({r.scores for r in found}) > 1  # each rollout its own chance stream and player
    assert interpreter.rollouts(state, 6, seed=3, policy=policy) == found


def test_rollouts_from_a_determinized_state_and_cut_at_a_length():
    state = _mid_game()
    d = state.determinize(0, 11)
    found = interpreter.rollouts(d, 4, seed=1)
    assert [(r.scores, r.length) for r in found] == [_by_the_api(d, 1, i, "uniform") for i in range(4)]
    cut = interpreter.rollouts(state, 3, seed=1, max_decisions=7)
    assert [(r.scores, r.length, r.outcome) for r in cut] == [(None, 7, "limit")] * 3


def test_rollouts_refuse_an_unknown_policy():
    with pytest.raises(ValueError, match="unknown policy"):
        interpreter.rollouts(_mid_game(), 1, policy="greedy")
