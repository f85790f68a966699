"""The game's random generator: SplitMix64, whose whole state is one integer.

One integer is trivial to copy, save in JSON and restore, which Python's Mersenne Twister
(625 words of state) is not.  Draws use Lemire's multiply-shift; for table-sized ranges the
bias is below 2**-50.
"""

MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return seed & MASK


def next64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A draw uniform in range(n)."""
    state, z = next64(state)
    return state, (z * n) >> 64


def shuffle(state: int, items: list) -> int:
    """Fisher-Yates in place; returns the new generator state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def derive(seed: int, index: int) -> int:
    """An independent seed for game `index` of a run (simulations, agents)."""
    return next64((seed * 0x100000001B3 + index) & MASK)[1]


class Random:
    """A small generator object for agents, built on the same functions."""

    def __init__(self, seed: int):
        self.state = seed_state(seed)

    def below(self, n: int) -> int:
        self.state, value = below(self.state, n)
        return value
