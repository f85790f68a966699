"""Players that choose moves by themselves.  An agent only ever sees the legal moves of its
own decision (never the hidden state), so it cannot cheat."""

from __future__ import annotations

from ..language.rng import Random, derive

POLICIES = ("uniform", "alternative-first")
"""How a random player picks among the legal moves:

- `uniform`: every legal move equally likely (a decision offering `raise 1` .. `raise 150`, `call`
  and `fold` raises 150 times out of 152);
- `alternative-first`: first an alternative (`raise`, `call`, `fold`) uniformly among those with a
  legal move, then one of that alternative's moves uniformly (its cards, amounts, players).
"""

class RandomAgent:
    """A random player following one of POLICIES; table decisions are drawn the same way."""

    def __init__(self, seed: int, policy: str = "uniform"):
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}; the policies are: {', '.join(POLICIES)}")
        self._rng = Random(seed)
        self.policy = policy
        if policy == "uniform":  # choose() itself, one Python call instead of two at each decision
            self.choose = self._rng.choice

    @classmethod
    def for_game(cls, game_seed: int, policy: str = "uniform") -> "RandomAgent":
        """The agent `cardgame play` and `simulate` use for the game with this seed."""
        return cls(derive(game_seed, 1), policy)

    @property
    def rng(self) -> Random:
        """The generator choose() draws from (playouts draw from it the same way)."""
        return self._rng

    def choose(self, moves):
        """One of `moves`, drawn by the policy (a uniform agent's is its generator's `choice`)."""
        if self.policy == "uniform":
            return self._rng.choice(moves)
        alts = list(dict.fromkeys(m.alt for m in moves))
        alt = self._rng.choice(alts)
        mine = [m for m in moves if m.alt == alt] if len(alts) > 1 else moves
        return self._rng.choice(mine)
