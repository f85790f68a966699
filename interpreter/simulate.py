"""Many games between random players, and the statistics designers ask of them."""

from __future__ import annotations

import time

from . import limits
from .agents import RandomAgent
from .engine import Game, GameFault
from .moves import legal_moves
from .playout import play_random
from .runtime import VALUE_FAULTS, ScriptRuntimeError
from .rng import derive


def play_one(game: Game, players: int, seed: int, options: dict, max_decisions: int = limits.MAX_DECISIONS):
    """Play one game to the end; returns (state, finished)."""
    state = game.new_game(players=players, seed=seed, options=options)
    agent = RandomAgent.for_game(seed)
    # The same as `state.apply(agent.choose(state.legal_moves()))` at every decision: the
    # playout loop plays the game; a fault or a dead end goes through the public calls.
    while not state.over and state.fault is None and state.decisions < max_decisions:
        err = play_random(state, agent.rng, max_decisions)
        if err is not None:
            state._fault(err)
            break
        if state.over or state.decisions >= max_decisions:
            break
        try:
            moves = legal_moves(state)
        except (ScriptRuntimeError, *VALUE_FAULTS):
            moves = None
        if not moves:
            moves = state.legal_moves()  # faults the state exactly as the public call does
            if not moves:
                break
        try:
            state._apply_chosen(agent.choose(moves))
        except GameFault:
            break
    return state, state.is_over and state.fault is None


_worker_game = None  # the game a worker process loaded once, for all its ranges


def _load_in_worker(path: str):
    global _worker_game
    from .engine import load
    _worker_game = load(path)


def _run_range(args):
    path_or_game, players, seed, options, start, stop = args
    if isinstance(path_or_game, str):
        if _worker_game is None or _worker_game.path != path_or_game:
            _load_in_worker(path_or_game)
        game = _worker_game
    else:
        game = path_or_game
    rows = []
    for index in range(start, stop):
        state, finished = play_one(game, players, derive(seed, index), options)
        rows.append((finished, state.decisions, state.scores if finished else None,
                     state.winners if finished else None))
    return rows


def simulate(game: Game, games: int, players: int, seed: int, options: dict, workers: int = 1) -> dict:
    """Statistics over `games` games; game i uses seed derive(seed, i), so results do not depend
    on how the games are spread over worker processes."""
    started = time.perf_counter()
    if workers <= 1 or games < 2:
        rows = _run_range((game, players, seed, options, 0, games))
    else:
        import multiprocessing
        # Small ranges, handed out as workers become free, keep every worker busy to the end
        # (game lengths vary); each worker loads the script once.  Rows come back in game order.
        chunk = max(1, min(64, games // (workers * 8)))
        jobs = [(game.path, players, seed, options, lo, min(games, lo + chunk)) for lo in range(0, games, chunk)]
        with multiprocessing.get_context("spawn").Pool(workers, _load_in_worker, (game.path,)) as pool:
            rows = [row for part in pool.imap(_run_range, jobs) for row in part]
    elapsed = max(time.perf_counter() - started, 1e-9)
    finished = [r for r in rows if r[0]]
    wins = [0.0] * players
    totals = [0.0] * players
    for _, _, scores, winners in finished:
        for seat in winners:
            wins[seat] += 1 / len(winners)
        for seat, s in enumerate(scores):
            totals[seat] += s
    done = max(1, len(finished))
    decisions = sum(r[1] for r in rows)
    return {
        "games": games,
        "players": players,
        "win_rate_by_seat": [round(w / done, 4) for w in wins],
        "mean_score_by_seat": [round(t / done, 3) for t in totals],
        "mean_decisions": round(decisions / max(1, games), 2),
        "games_per_second": round(games / elapsed, 2),
        "decisions_per_second": round(decisions / elapsed, 1),
        "unfinished": games - len(finished),
    }
