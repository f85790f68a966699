"""Players that choose moves by themselves.  An agent only ever sees the legal moves of its
own decision (never the hidden state), so it cannot cheat."""

from __future__ import annotations

from .rng import Random


class RandomAgent:
    """Uniform over the legal moves; table decisions are drawn the same way."""

    def __init__(self, seed: int):
        self._rng = Random(seed)

    def choose(self, moves):
        return moves[self._rng.below(len(moves))]
