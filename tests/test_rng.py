"""The generator's inlined draws agree with next64, the definition of the sequence."""

import pytest

from cardgame.interpreter.language import rng
from cardgame.interpreter.studies.agents import RandomAgent


def _below(state, n):
    state, z = rng.next64(state)
    return state, (z * n) >> 64


def _shuffle(state, items):
    for i in range(len(items) - 1, 0, -1):
        state, j = _below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def test_next64_is_splitmix64():
    # First outputs of SplitMix64 seeded with 0 (the published reference values).
    state, a = rng.next64(0)
    state, b = rng.next64(state)
    assert (a, b) == (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4)


def test_inlined_draws_match_the_definition():
    for seed in (0, 1, 12345, rng.MASK, 2**63 + 7):
        state = rng.seed_state(seed)
        for n in (1, 2, 3, 13, 52, 10**9):
            assert rng.below(state, n) == _below(state, n)
            state = rng.below(state, n)[0]
        items, expected = list(range(40)), list(range(40))
        assert rng.shuffle(state, items) == _shuffle(state, expected) and items == expected
        agent = rng.Random(seed)
        reference = rng.seed_state(seed)
        for n in (1, 5, 39):
            reference, value = _below(reference, n)
            assert agent.below(n) == value and agent.state == reference
        for n in (1, 2, 7, 52):  # choice: the item below() would index, one draw each
            items = tuple(f"m{i}" for i in range(n))
            reference, value = _below(reference, n)
            assert agent.choice(items) == items[value] and agent.state == reference


def test_agents_draw_as_below_indexes():
    """A uniform agent's choose() is its generator's choice(); both policies draw exactly what
    indexing with below() draws (the playouts repeat that draw inline)."""
    from cardgame.interpreter.studies.agents import RandomAgent
    from cardgame.interpreter.machine.program import Move
    moves = [Move(f"{alt} {i}", k, (i,)) for k, alt in enumerate(("play", "pass", "raise")) for i in range(k * 3 + 1)]
    uniform, twin = RandomAgent(99), rng.Random(99)
    for n in (1, 3, 13):
        assert uniform.choose(moves[:n]) is moves[twin.below(n)]
    assert uniform.rng.state == twin.state
    by_alt, twin = RandomAgent(99, "alternative-first"), rng.Random(99)
    for _ in range(20):
        alt = twin.below(3)
        mine = [m for m in moves if m.alt == alt]
        assert by_alt.choose(moves) is mine[twin.below(len(mine))]


def test_choosing_from_nothing_says_so_and_draws_nothing():
    agent = RandomAgent(5)
    before = agent.rng.state
    with pytest.raises(IndexError, match="nothing to choose from"):
        agent.choose([])
    assert agent.rng.state == before
