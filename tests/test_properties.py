"""Hypothesis properties over random Bouncer games (Boo Ray has its own in test_booray.py)."""

from hypothesis import given
from hypothesis import strategies as st

from helpers import card_count, load_game
from cardgame.interpreter.studies.agents import RandomAgent

BOUNCER = load_game("bouncer.cardgame")


@given(seed=st.integers(0, 2**32), agent_seed=st.integers(0, 2**32), special=st.booleans())
def test_every_random_bouncer_game_ends_and_keeps_all_52_cards(seed, agent_seed, special):
    state = BOUNCER.new_game(seed=seed, options={"special_bouncers": special})
    agent = RandomAgent(agent_seed)
    steps = 0
    while not state.is_over:
        assert sorted(c for zone in state.zones for c in zone) == list(range(52))
        assert all(c in state.zones[state.loc[c]] for c in range(52))
        moves = state.legal_moves()
        assert moves, "a non-terminal state must offer a legal move"
        state.apply(agent.choose(moves))
        steps += 1
        assert steps < 5000
    assert card_count(state) == 52 and state.fault is None
    assert min(state.scores) <= -100


@given(seed=st.integers(0, 2**32), cut=st.integers(0, 400))
def test_save_and_restore_round_trip_at_any_step(seed, cut):
    state = BOUNCER.new_game(seed=seed)
    agent = RandomAgent(seed)
    for _ in range(cut):
        if state.is_over:
            break
        state.apply(agent.choose(state.legal_moves()))
    restored = BOUNCER.restore(state.to_json())
    assert restored.to_json() == state.to_json()
    assert [str(m) for m in restored.legal_moves()] == [str(m) for m in state.legal_moves()]
