"""Any script as a PettingZoo AEC environment (docs/environments.md), on the encodings of
encodings.py.  PettingZoo and Gymnasium are the optional `[rl]` extra: they are imported only
when an environment is made.

Each seat is an agent `P0`, `P1`...; its observation is `{"observation": float32 vector,
"action_mask": int8 vector}` (Encoder), its action space `Discrete(Encoder.actions)`.  A table
decision (one the script gives the table, not a seat) is made at random by the environment, from
a generator seeded by `reset(seed)`.  At the end each seat is rewarded its win share (1 won alone,
1/k in a k-way win, else 0); a game cut at `max_decisions` is truncated with no reward, and a
faulted game ends with none.
"""

from __future__ import annotations

import random

from ..engine.game import GameFault, load
from ..language import limits
from ..machine.runtime import TABLE
from .encodings import Encoder
from .judging import win_share


def pettingzoo_env(path, players: int | None = None, options: dict | None = None,
                   max_decisions: int = limits.MAX_DECISIONS):
    """A PettingZoo AEC environment playing the script at `path` (or a loaded Game)."""
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv

    game = load(path) if isinstance(path, str) else path
    n = players if players is not None else game.min_players
    options = game.read_options({k: str(v) for k, v in (options or {}).items()}) if options else {}
    encoder = Encoder(game, n, options)

    class CardgameEnv(AECEnv):
        metadata = {"name": "cardgame_v0", "is_parallelizable": False, "render_modes": []}

        def __init__(self):
            super().__init__()
            self.game, self.encoder = game, encoder
            self.possible_agents = [f"P{i}" for i in range(n)]
            box = gymnasium.spaces.Box(-np.inf, np.inf, (encoder.size,), np.float32)
            mask = gymnasium.spaces.Box(0, 1, (encoder.actions,), np.int8)
            self._obs_space = gymnasium.spaces.Dict({"observation": box, "action_mask": mask})
            self._act_space = gymnasium.spaces.Discrete(encoder.actions)
            self.observation_spaces = {a: self._obs_space for a in self.possible_agents}
            self.action_spaces = {a: self._act_space for a in self.possible_agents}
            self.state = None
            self._table = random.Random(0)

        def observation_space(self, agent):
            return self._obs_space

        def action_space(self, agent):
            return self._act_space

        def reset(self, seed=None, options=None):
            seed = 0 if seed is None else seed
            self.state = game.new_game(players=n, seed=seed, options=options_now(options))
            self._table = random.Random(seed)
            self.agents = self.possible_agents[:]
            self.rewards = {a: 0.0 for a in self.agents}
            self._cumulative_rewards = {a: 0.0 for a in self.agents}
            self.terminations = {a: False for a in self.agents}
            self.truncations = {a: False for a in self.agents}
            self.infos = {a: {} for a in self.agents}
            self._legal = {}
            self._advance()

        def _advance(self):
            """Make table decisions, then point at the seat to act, or end the game."""
            st = self.state
            while st.fault is None and not st.is_over and st.current_player == TABLE \
                    and st.decisions < max_decisions:
                try:
                    st.apply(self._table.choice(st.legal_moves()))
                except GameFault:
                    break
            if st.fault is not None or st.is_over or st.decisions >= max_decisions or not st.legal_moves():
                done = st.is_over and st.fault is None
                winners = st.winners if done else []
                for i, a in enumerate(self.agents):
                    self.rewards[a] = win_share(winners, i) if done else 0.0
                    self.terminations[a] = st.is_over or st.fault is not None
                    self.truncations[a] = not self.terminations[a]
                self._accumulate_rewards()
                self._legal = {}
                self.agent_selection = self.agents[0]
                return
            self._legal = encoder.legal_actions(st)
            self.agent_selection = f"P{st.current_player}"

        def observe(self, agent):
            seat = int(agent[1:])
            mask = encoder.mask(self._legal) if self._legal and agent == self.agent_selection \
                and not self.terminations[agent] and not self.truncations[agent] \
                else np.zeros(encoder.actions, dtype=np.int8)
            return {"observation": encoder.observation(self.state, seat), "action_mask": mask}

        def step(self, action):
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            move = self._legal.get(int(action))
            if move is None:
                raise ValueError(f"action {action} is not legal for {agent} now (see the action_mask)")
            self._cumulative_rewards[agent] = 0.0
            for a in self.agents:
                self.rewards[a] = 0.0
            try:
                self.state.apply(move)
            except GameFault:
                pass
            self._advance()

        def render(self):
            return None

        def close(self):
            pass

    def options_now(given):
        return options

    return CardgameEnv()
