"""Any script as an OpenSpiel (pyspiel) Python game (docs/environments.md), on the encodings of
encodings.py; `open_spiel` is in the optional `[rl]` extra and is imported only here.

The game is registered as imperfect-information, terminal-reward, with *sampled* chance
(`SAMPLED_STOCHASTIC`): a state's shuffles and `random(...)` draws come from its game seed, which
each new initial state takes from the game's own generator (the `seed` parameter).  Listing
chance outcomes (a deal, a `random(...)`) as chance nodes is not done yet: algorithms that need
explicit chance nodes (CFR, expectimax) cannot run on it.  Information state and observation come
from the knowledge model: `information_state_string` is `information_state(seat).text`, the
observation tensor the Encoder's vector.  A table decision is made at random, from the state's
own generator.
"""

from __future__ import annotations

import random

from ..engine.game import GameFault, load
from ..language.rng import derive
from ..machine.runtime import TABLE
from .encodings import Encoder
from .judging import win_share

MAX_GAME_LENGTH = 10_000


class _Held:
    """A state's game and its legal actions, copied by `clone()` rather than by deepcopy (pyspiel
    clones a Python state by deep-copying its attributes; a GameState is copied its own way)."""

    __slots__ = ("st", "legal", "encoder")

    def __init__(self, st, legal: dict, encoder):
        self.st, self.legal, self.encoder = st, legal, encoder

    def __deepcopy__(self, memo):
        st = self.st.clone()
        return _Held(st, self.encoder.legal_actions(st) if self.legal else {}, self.encoder)


def openspiel_game(path, players: int | None = None, options: dict | None = None, seed: int = 0,
                   short_name: str | None = None):
    """The script at `path` as a pyspiel game (registered under `short_name`, by default
    `cardgame_<file stem>_<players>`); `pyspiel.load_game(short_name)` loads it again."""
    import numpy as np
    import pyspiel

    game = load(path) if isinstance(path, str) else path
    n = players if players is not None else game.min_players
    options = game.read_options({k: str(v) for k, v in (options or {}).items()}) if options else {}
    encoder = Encoder(game, n, options)
    stem = "".join(ch if ch.isalnum() else "_" for ch in game.path.rsplit("/", 1)[-1].removesuffix(".cardgame"))
    name = short_name or f"cardgame_{stem}_{n}"
    game_type = pyspiel.GameType(
        short_name=name, long_name=f"{game.title} ({n} players)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n, min_num_players=n,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"seed": seed})
    game_info = pyspiel.GameInfo(num_distinct_actions=encoder.actions, max_chance_outcomes=0, num_players=n,
                                 min_utility=0.0, max_utility=1.0, utility_sum=None,
                                 max_game_length=MAX_GAME_LENGTH)

    class CardgameState(pyspiel.State):
        def __init__(self, pygame, game_seed: int):
            super().__init__(pygame)
            self.held = _Held(game.new_game(players=n, seed=game_seed, options=options), {}, encoder)
            self.table = random.Random(game_seed)
            self._settle()

        @property
        def st(self):
            return self.held.st

        @property
        def legal(self):
            return self.held.legal

        def _settle(self):
            st = self.st
            while st.fault is None and not st.is_over and st.current_player == TABLE:
                try:
                    st.apply(self.table.choice(st.legal_moves()))
                except GameFault:
                    break
            self.held.legal = encoder.legal_actions(st) if self._going() else {}

        def _going(self) -> bool:
            st = self.st
            return st.fault is None and not st.is_over and st.decisions < MAX_GAME_LENGTH and bool(st.legal_moves())

        def current_player(self):
            if not self.legal:
                return pyspiel.PlayerId.TERMINAL
            return self.st.current_player

        def _legal_actions(self, player):
            return sorted(self.legal) if player == self.current_player() else []

        def _apply_action(self, action):
            try:
                self.st.apply(self.legal[action])
            except GameFault:
                pass
            self._settle()

        def _action_to_string(self, player, action):
            move = self.legal.get(action)
            return move.text if move is not None else f"action {action}"

        def is_terminal(self):
            return not self.legal

        def returns(self):
            st = self.st
            if not (st.is_over and st.fault is None):
                return [0.0] * n
            return [win_share(st.winners, p) for p in range(n)]

        def information_state_string(self, player=None):
            return self.st.information_state(self.current_player() if player is None else player).text

        def observation_string(self, player=None):
            return self.information_state_string(player)

        def __str__(self):
            return f"{game.title} after {self.st.decisions} moves: " + " ".join(self.st.history[-8:])

    class Observer:
        def __init__(self):
            self.tensor = np.zeros(encoder.size, np.float32)
            self.dict = {"observation": self.tensor}

        def set_from(self, state, player):
            self.tensor[:] = encoder.observation(state.st, player)

        def string_from(self, state, player):
            return state.information_state_string(player)

    class CardgameGame(pyspiel.Game):
        def __init__(self, params=None):
            params = params or {"seed": seed}
            super().__init__(game_type, game_info, params)
            self.encoder, self.script = encoder, game
            self._seed, self._made = int(params.get("seed", seed)), 0

        def new_initial_state(self):
            self._made += 1
            return CardgameState(self, derive(self._seed, self._made - 1))

        def make_py_observer(self, iig_obs_type=None, params=None):
            return Observer()

    if name not in pyspiel.registered_names():
        pyspiel.register_game(game_type, CardgameGame)
    return CardgameGame({"seed": seed})
