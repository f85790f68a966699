"""The game's random generator: SplitMix64, whose whole state is one integer.

One integer is trivial to copy, save in JSON and restore, which Python's Mersenne Twister
(625 words of state) is not.  Draws use Lemire's multiply-shift; for table-sized ranges the
bias is below 2**-50.
"""

MASK = (1 << 64) - 1
GAMMA, MIX1, MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB

# below() and shuffle() repeat next64's arithmetic inline: they run at every draw, and a call
# costs as much as the arithmetic.  tests/test_rng.py checks them against next64.


# Seeds are 0..SEEDS-1: the generator's whole state is 64 bits, so a larger seed (or a
# negative one) could only repeat the game of one of these.
SEEDS = 1 << 64


def is_seed(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < SEEDS


def seed_state(seed: int) -> int:
    return seed & MASK


def next64(state: int) -> tuple[int, int]:
    state = (state + GAMMA) & MASK
    z = state
    z = ((z ^ (z >> 30)) * MIX1) & MASK
    z = ((z ^ (z >> 27)) * MIX2) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A draw uniform in range(n).  A state that is not an int is a world being sampled for a
    seat (engine/worlds.py): it draws for itself."""
    if type(state) is not int:
        return state.below(n)
    state = (state + GAMMA) & MASK
    z = ((state ^ (state >> 30)) * MIX1) & MASK
    z = ((z ^ (z >> 27)) * MIX2) & MASK
    return state, ((z ^ (z >> 31)) * n) >> 64


def shuffle(state: int, items: list) -> int:
    """Fisher-Yates in place; returns the new generator state (a world being sampled, a state
    that is not an int, shuffles for itself)."""
    if type(state) is not int:
        return state.shuffle(items)
    for i in range(len(items) - 1, 0, -1):
        state = (state + GAMMA) & MASK
        z = ((state ^ (state >> 30)) * MIX1) & MASK
        z = ((z ^ (z >> 27)) * MIX2) & MASK
        j = ((z ^ (z >> 31)) * (i + 1)) >> 64
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
        """A draw uniform in range(n)."""
        return self.choice(range(n))

    def choice(self, items):
        """One of `items` (a sequence), uniformly: `items[below(len(items))]`, in one call (a
        random player's whole choice of move)."""
        n = len(items)
        if not n:  # before the generator moves: a refused call draws nothing
            raise IndexError("nothing to choose from (a game over, faulted or paused offers no moves)")
        state = (self.state + GAMMA) & MASK
        self.state = state
        if n == 1:
            return items[0]  # the draw could only be 0; the generator has still moved on
        z = ((state ^ (state >> 30)) * MIX1) & MASK
        z = ((z ^ (z >> 27)) * MIX2) & MASK
        return items[((z ^ (z >> 31)) * n) >> 64]
