"""Many games between random players, and the statistics designers ask of them.

Game i of a run with seed S is played with seed `derive(S, i)` (playtest.game_seed), so the
results do not depend on how the games are spread over processes or machines: `--workers`
and `--dask` runs give the same records, in game order, as a single process.  Records are
added to the statistics as each range of games comes back (summary.Summary), so memory does
not grow with the number of games.
"""

from __future__ import annotations

import os
import time

from ..engine.game import Game, check_seed
from ..language import limits
from ..language.source import Diagnostic, ScriptError
from .agents import RandomAgent
from .backends import AGENTS_REASON, choose_backend, python_only
from .parallel import map_jobs, worker_game
from .players import agent_specs
from .playtest import play_out, play_range, play_recorded
from .stats import METRICS
from .summary import Summary


def play_one(game: Game, players: int, seed: int, options: dict, max_decisions: int = limits.MAX_DECISIONS,
             budget: tuple = (None, None)):
    """Play one game to the end as fast as the engine allows (the benchmark's loop); returns
    (state, finished).  `budget`: (work per move, per game).  simulate itself plays through
    playtest.play_recorded, which plays the same loop and also records the game."""
    state = game.new_game(players=players, seed=seed, options=options, max_work=budget[0],
                          max_game_work=budget[1])
    play_out(state, RandomAgent.for_game(seed), max_decisions)
    return state, state.is_over and state.fault is None


def usable_workers(workers: int) -> int:
    """`workers`, capped at the machine's CPU count: more processes than CPUs only add memory
    (each loads Python and the script) and no speed."""
    return max(1, min(workers, os.cpu_count() or 1))


def compiled_range(game, players: int, seed: int, options: dict, start: int, stop: int, policy: str = "uniform",
                   max_decisions: int = limits.MAX_DECISIONS, budget: tuple = (None, None)) -> list:
    """Records of games start..stop played by the script's kernel, the same as play_range's with
    the fast metrics: a game the kernel stopped (a fault, a budget) is played again on the Python
    path, which gives its message and span."""
    from .compiled import kernel_for
    records = kernel_for(game).play_range(players, seed, options, start, stop, policy, max_decisions, budget)
    return [record if record is not None else
            play_recorded(game, players, seed, start + g, options, policy, max_decisions, None, budget, "fast")
            for g, record in enumerate(records)]


def run_range(job):
    """Records of games start..stop; `job` is (path or Game, players, seed, options, start, stop,
    policy, max_decisions, budget, metrics, backend, agents).  A path is loaded once per process (worker
    processes, Dask workers); so is its kernel, read from the cache folder the command wrote it to."""
    path_or_game, players, seed, options, start, stop, policy, max_decisions, budget, metrics, backend, agents = job
    game = worker_game(path_or_game) if isinstance(path_or_game, str) else path_or_game
    if backend == "compiled":
        return compiled_range(game, players, seed, options, start, stop, policy, max_decisions, budget)
    return play_range(game, players, seed, options, start, stop, policy, max_decisions, budget, metrics, agents)


def jobs(game, games: int, players: int, seed: int, options: dict, policy: str, max_decisions: int,
         budget: tuple, chunk: int, by_path: bool, metrics: str = "full", backend: str = "python",
         agents: tuple | None = None) -> list[tuple]:
    """The games cut into ranges of at most `chunk`: small enough to keep every worker busy to
    the end (game lengths vary), large enough that handing them out costs little."""
    where = game.path if by_path else game
    return [(where, players, seed, options, lo, min(games, lo + chunk), policy, max_decisions, budget, metrics,
             backend, agents) for lo in range(0, games, chunk)]


def check_games(games: int) -> None:
    if not 0 <= games <= limits.MAX_GAMES:
        what = "more than `simulate` plays" if games > 0 else "not a number of games"
        raise ScriptError([Diagnostic("E0706", f"{games:,} games is {what}", None,
                                      hint=f"0 to {limits.MAX_GAMES:,} games at once")])


def play_games(game: Game, games: int, players: int, seed: int, options: dict, workers: int = 1,
               policy: str = "uniform", max_decisions: int = limits.MAX_DECISIONS, progress=None,
               dask=None, budget: tuple = (None, None), each=None, metrics: str = "full",
               backend: str = "python", agents: tuple | None = None) -> list | None:
    """Play games 0..games-1.  With `each`, each range's records are handed to `each(records)` in
    game order and nothing is kept; without it the records are returned.  `progress(done)` is
    called as games finish; `dask` is a distributed.Client (see dist.py); `metrics`: one of
    stats.METRICS; `backend`: "compiled" (the script's kernel, made by choose_backend) or "python";
    `agents`: one players.AgentSpec per seat, or None (random players)."""
    check_games(games)
    check_seed(seed)  # games' seeds are derived from it: two run seeds must not give one run
    local = dask is None and usable_workers(workers) <= 1
    spread = 1 if local else (usable_workers(workers) if dask is None else 16)
    chunk = max(1, min(64, games // (spread * 8) if not local else games // 100))
    if agents is not None:
        chunk = 1 if not local else chunk  # searching agents make each game long: spread them one by one
    if backend == "compiled" and local:
        chunk = min(games, 64)  # one call of the kernel plays a range: the largest (records are kept per range)
    parts = jobs(game, games, players, seed, options, policy, max_decisions, budget, chunk, not local, metrics,
                 backend, agents)
    kept: list = []
    sink = each or kept.extend
    map_jobs(run_range, parts, game.path, usable_workers(workers), dask, progress, each=sink, game=game)
    game.keep_code()  # the playouts' operations, made as they first ran
    return None if each else kept


def simulate(game: Game, games: int, players: int, seed: int, options: dict, workers: int = 1,
             policy: str = "uniform", max_decisions: int = limits.MAX_DECISIONS, progress=None,
             dask=None, max_work: int | None = None, max_game_work: int | None = None,
             metrics: str = "fast", backend: str = "auto", agents=None) -> dict:
    """Statistics over `games` games (every field: docs/simulate.md).  At most limits.MAX_GAMES
    games and usable_workers(workers) processes.  `metrics` "fast" plays through the playout
    loop and leaves out lead changes, decided at and information revealed; "full" adds them
    (stats.METRICS).  `backend`: one of BACKENDS ("auto": compiled where the script can be).
    `agents`: who plays each seat, one spec per seat (`["ismcts:iterations=400", "random", "random"]`,
    or parsed players.AgentSpec); None: random players (docs/agents.md)."""
    check_games(games)
    agents = agent_specs(agents, players)
    if metrics not in METRICS:
        raise ValueError(f"metrics must be one of {METRICS}, not {metrics!r}")
    budget = game.budget(max_work, max_game_work)
    started = time.perf_counter()
    if agents is not None and not all(a.is_plain_random for a in agents):
        ran, why = python_only(backend, AGENTS_REASON)
    else:
        ran, why = choose_backend(game, backend, metrics)
    summary = Summary(game, players, seed, options, policy, metrics)
    play_games(game, games, players, seed, options, workers, policy, max_decisions, progress, dask, budget,
               each=summary.add_all, metrics=metrics, backend=ran, agents=agents)
    elapsed = max(time.perf_counter() - started, 1e-9)
    stats = summary.result()
    stats["backend"], stats["backend_reason"] = ran, why
    stats["agents"] = [a.text for a in agents] if agents is not None else None
    stats["games_per_second"] = round(games / elapsed, 2)
    stats["decisions_per_second"] = round(summary.decisions / elapsed, 1)
    return stats


TIMING_FIELDS = ("games_per_second", "decisions_per_second")
BACKEND_FIELDS = ("backend", "backend_reason")
