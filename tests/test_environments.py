"""Encodings and the PettingZoo environment (issue 36): the layout is fixed by the script, every
legal move has exactly one action, the observation comes from the seat's knowledge only, and
every shipped game passes PettingZoo's own API and seed tests (the `[rl]` extra; skipped
cleanly without it)."""

from __future__ import annotations

import os

import pytest
from helpers import GAMES, SCRIPTS

from cardgame import interpreter

np = pytest.importorskip("numpy")

SHIPPED = sorted(p.name for p in GAMES.glob("*.cardgame"))


@pytest.fixture(scope="module")
def bouncer():
    return interpreter.load(str(GAMES / "bouncer.cardgame"))


def test_the_layout_is_the_scripts_and_stable(bouncer):
    one, two = interpreter.Encoder(bouncer, 3), interpreter.Encoder(bouncer, 3)
    assert one.layout == two.layout and one.actions == two.actions == 52 + 64
    assert one.size == sum(width for _name, width in one.layout)
    assert [name for name, _w in one.layout][:3] == ["zone stock", "zone points", "zone prize"]


def test_every_legal_move_has_one_action_naming_its_card(bouncer):
    encoder = interpreter.Encoder(bouncer, 3)
    state = bouncer.new_game(players=3, seed=2)
    agent = interpreter.RandomAgent(1)
    for _ in range(40):
        legal = encoder.legal_actions(state)
        assert sorted(m.text for m in legal.values()) == sorted(m.text for m in state.legal_moves())
        for action, move in legal.items():
            assert action < 52 and move.text == "play " + bouncer.program.card_names[action]
        mask = encoder.mask(legal)
        assert mask.sum() == len(legal) and mask.dtype == np.int8
        state.apply(agent.choose(state.legal_moves()))


def test_the_observation_reads_only_what_the_seat_knows(bouncer):
    """Two deals P0 cannot tell apart give P0 the same observation (its own information
    state); the other seats' hands differ, and so do their observations."""
    encoder = interpreter.Encoder(bouncer, 3)
    state = bouncer.new_game(players=3, seed=5, record=True)
    world = state.determinize(0, 3)
    assert (encoder.observation(state, 0) == encoder.observation(world, 0)).all()
    assert not (encoder.observation(state, 1) == encoder.observation(world, 1)).all()
    mine = encoder.observation(state, 0)
    hand = encoder.layout.index(("zone hand[P0]", 2 * 52 + 1))
    start = sum(w for _n, w in encoder.layout[:hand])
    names = bouncer.program.card_names
    held = {names[i] for i in range(52) if mine[start + i] == 1}
    assert held == set(state.view(0)["zones"]["hand"]["P0"])
    assert mine[start + 2 * 52] == 13


@pytest.mark.parametrize("name", SHIPPED + ["tiny_tricks.cardgame"])
def test_every_shipped_game_passes_pettingzoo_api_and_seed_tests(name):
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test
    path = str(GAMES / name) if name in SHIPPED else str(SCRIPTS / name)
    api_test(interpreter.pettingzoo_env(path), num_cycles=40)
    seed_test(lambda: interpreter.pettingzoo_env(path), num_cycles=20)


def test_an_episode_rewards_the_winners(bouncer):
    pytest.importorskip("pettingzoo")
    env = interpreter.pettingzoo_env(str(SCRIPTS / "tiny_tricks.cardgame"))
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    state = interpreter.load(str(SCRIPTS / "tiny_tricks.cardgame")).new_game(seed=4)
    assert sum(total.values()) == pytest.approx(1.0)
    assert state.n == 3


SOAK = os.environ.get("HYPOTHESIS_PROFILE") == "soak"
# pyspiel's random simulation test plays whole games and checks every state on the way (clones,
# information states, observations): one game of each shipped script here (Boo Ray's options
# bound it to one hand), more under the soak profile.
OPENSPIEL_CASES = [("tiny_tricks.cardgame", {}, 3), ("bosspoker.cardgame", {}, 1), ("bohei.cardgame", {}, 1),
                   ("bouncer.cardgame", {}, 1), ("booray.cardgame", {"hands": 1}, 1)]


@pytest.mark.parametrize("name,options,sims", OPENSPIEL_CASES, ids=[c[0] for c in OPENSPIEL_CASES])
def test_every_shipped_game_passes_pyspiel_random_simulation(name, options, sims):
    pyspiel = pytest.importorskip("pyspiel")
    path = str(GAMES / name) if name in SHIPPED else str(SCRIPTS / name)
    game = interpreter.openspiel_game(path, options=options)
    pyspiel.random_sim_test(game, num_sims=sims * (5 if SOAK else 1), serialize=False, verbose=False)


def test_an_openspiel_state_reads_the_knowledge_model():
    pytest.importorskip("pyspiel")
    game = interpreter.openspiel_game(str(SCRIPTS / "tiny_tricks.cardgame"), seed=3)
    state = game.new_initial_state()
    assert state.current_player() == 0 and not state.is_terminal()
    assert state.information_state_string(0) == state.st.information_state(0).text
    assert state.information_state_string(1) != state.information_state_string(0)
    names = game.encoder.game.program.card_names
    assert sorted(state.action_to_string(0, a) for a in state.legal_actions()) == \
        sorted(f"play {names[a]}" for a in state.legal_actions())
    copy = state.clone()
    state.apply_action(state.legal_actions()[0])
    assert copy.st.decisions == 0 and state.st.decisions == 1
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert sum(state.returns()) == pytest.approx(1.0)
