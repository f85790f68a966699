"""Players that choose moves by themselves.  An agent only ever sees the legal moves of its
own decision (never the hidden state), so it cannot cheat."""

from __future__ import annotations

from .rng import Random, derive


class RandomAgent:
    """Uniform over the legal moves; table decisions are drawn the same way."""

    def __init__(self, seed: int):
        self._rng = Random(seed)

    @classmethod
    def for_game(cls, game_seed: int) -> "RandomAgent":
        """The agent `cardgame play` and `simulate` use for the game with this seed."""
        return cls(derive(game_seed, 1))

    @property
    def rng(self) -> Random:
        """The generator choose() draws from (playouts draw from it the same way)."""
        return self._rng

    def choose(self, moves):
        return moves[self._rng.below(len(moves))]
