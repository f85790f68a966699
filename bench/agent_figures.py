"""Issue 36's figures: a learning environment's steps per second on Bouncer (every step makes
the acting seat's observation tensor and legal-action mask), and an ISMCTS player's decisions
per second at 200 iterations per decision."""

from __future__ import annotations

import random
import time

from cardgame import interpreter

from .harness import ROOT

ENV_STEPS_TARGET = 20_000


def environment_steps(repeat: int, steps: int = 600) -> dict:
    """PettingZoo AEC steps/s on Bouncer, a random legal action each step (None without the `[rl]` extra)."""
    try:
        import numpy as np
        env = interpreter.pettingzoo_env(str(ROOT / "games" / "bouncer.cardgame"))
    except ImportError as err:
        return {"skipped": f"the [rl] extra is not installed ({err.name})"}
    best = None
    for r in range(repeat):
        rng, done, seed = random.Random(r), 0, 0
        env.reset(seed=seed)
        started = time.perf_counter()
        while done < steps:
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                seed += 1
                env.reset(seed=seed)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            done += 1
        rate = done / (time.perf_counter() - started)
        best = rate if best is None else max(best, rate)
    return {"script": "bouncer.cardgame", "steps": steps, "steps_per_s": best}


def ismcts_decisions(repeat: int, decisions: int = 3, iterations: int = 200) -> dict:
    """ISMCTS decisions/s on Bouncer positions a few tricks in (default worlds: min(iterations, 20))."""
    game = interpreter.load(str(ROOT / "games" / "bouncer.cardgame"))
    state = game.new_game(players=3, seed=1, record=True)
    agent = interpreter.RandomAgent(2)
    while state.decisions < 12 or len(state.legal_moves()) < 2:
        state.apply(agent.choose(state.legal_moves()))
    best = None
    for r in range(max(1, repeat - 1)):
        player = interpreter.IsmctsPlayer(r, iterations=iterations)
        started = time.perf_counter()
        for _ in range(decisions):
            player.act(state.seat(state.current_player))
        rate = decisions / (time.perf_counter() - started)
        best = rate if best is None else max(best, rate)
    return {"script": "bouncer.cardgame", "after_moves": state.decisions, "iterations": iterations,
            "decisions_per_s": best}
