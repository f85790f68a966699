"""interpreter.rollouts: N random playouts from any state (a determinized one too), each one's
scores and length, the same as playing that copy move by move through the public API with the
same generators; the state itself is left as it was."""

from __future__ import annotations

import pytest
from helpers import ROOT

from cardgame import interpreter
from cardgame.interpreter.language.rng import derive, seed_state
from cardgame.interpreter.studies.agents import RandomAgent
from cardgame.interpreter.studies.rollouts import why_python


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


# ---- compiled rollouts: the kernel starts from the position made in Python (studies/compiled.Kernel.rollouts)

ROLLOUT_SCRIPTS = ["games/bouncer.cardgame", "games/booray.cardgame", "games/bosspoker.cardgame",
                   "games/bohei.cardgame", "tests/scripts/reactions.cardgame", "tests/scripts/commit_reveal.cardgame",
                   "tests/scripts/coup.cardgame", "tests/scripts/bridge.cardgame", "tests/scripts/cribbage.cardgame"]


def _positions(game, players, seed, every=3, most=10):
    """Positions of one random game: every `every`-th decision (at most `most`) and its end."""
    state, agent = game.new_game(players=players, seed=seed), RandomAgent.for_game(seed + 1)
    found, k = [], 0
    while not state.is_over and len(found) < most:
        if k % every == 0:
            found.append(state.clone())
        state.apply(agent.choose(state.legal_moves()))
        k += 1
    return found + ([state.clone()] if state.is_over else [])


def _compared_positions(script):
    """(position, policy, seed) for the script: a few positions of one game at each end of its
    player range, every other one also determinized for a seat."""
    game = interpreter.load(str(ROOT / script))
    out = []
    for count in sorted({game.min_players, game.max_players}):
        for k, state in enumerate(_positions(game, count, seed=2 + count)):
            policy = "alternative-first" if k % 3 == 1 else "uniform"
            out.append((state, policy, k))
            if k % 2 and not state.is_over:
                out.append((state.determinize(k % count, k), policy, k))
    return out


@pytest.mark.parametrize("script", ROLLOUT_SCRIPTS)
def test_compiled_rollouts_are_the_python_rollouts_from_positions_mid_game(script):
    positions = _compared_positions(script)
    for position, policy, k in positions:
        assert why_python(position) is None, script
        before = position.to_json()
        compiled = interpreter.rollouts(position, 5, seed=k, policy=policy, max_decisions=250, backend="compiled")
        python = interpreter.rollouts(position, 5, seed=k, policy=policy, max_decisions=250, backend="python")
        assert compiled == python, (script, k, position.decisions)
        assert position.to_json() == before
    assert len(positions) >= 3


def test_the_compared_positions_cover_every_kind():
    """The positions above include each kind of decision (a reaction window, a simultaneous
    commit), frames of procedures and events, games at their end and determinized worlds."""
    kinds = set()
    for script in ROLLOUT_SCRIPTS:
        for position, _, _ in _compared_positions(script):
            if position.is_over:
                kinds.add("over")
                continue
            kinds.add(position.waiting.kind)
            kinds.add("in a procedure or event" if len(position.stack) > 1 else "in a phase")
            kinds.add("determinized" if type(position.journal).__name__ == "DeferredJournal" else "as played")
    assert kinds == {"normal", "reaction", "deferred", "in a procedure or event", "in a phase", "determinized",
                     "as played", "over"}


def test_compiled_rollouts_cut_short_and_from_positions_the_kernel_does_not_take():
    state = _mid_game()
    cut = interpreter.rollouts(state, 3, seed=1, max_decisions=7, backend="compiled")
    assert [(r.scores, r.length, r.outcome) for r in cut] == [(None, 7, "limit")] * 3
    paused = state.game.new_game(players=3, seed=4, pause_at=("chance",))
    assert why_python(paused) == "a faulted or paused position is not compiled"
    with pytest.raises(ValueError, match="cannot run compiled: a faulted or paused position"):
        interpreter.rollouts(paused, 1, backend="compiled")
    with pytest.raises(ValueError, match="backend must be one of"):
        interpreter.rollouts(state, 1, backend="numba")


def test_a_rollout_the_kernel_stops_is_played_on_the_python_path(monkeypatch):
    """A budget used up mid-rollout stops the kernel; that rollout alone is played again on the
    Python path, which gives its outcome (faulted), and the others stay the kernel's."""
    from cardgame.interpreter.studies import rollouts as module
    game = interpreter.load(str(ROOT / "games" / "bouncer.cardgame"))
    state = game.new_game(players=3, seed=4, max_game_work=40_000)
    for _ in range(3):
        state.apply(state.legal_moves()[0])
    python = interpreter.rollouts(state, 8, seed=2, backend="python")
    played, again = module._python, []
    monkeypatch.setattr(module, "_python", lambda *args: again.append(args[2]) or played(*args))
    compiled = interpreter.rollouts(state, 8, seed=2, backend="compiled")
    assert compiled == python
    assert [r.outcome for r in compiled] == ["won"] * 5 + ["faulted"] + ["won"] * 2
    assert again == [5]
