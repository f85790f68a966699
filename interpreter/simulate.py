"""Many games between random players, and the statistics designers ask of them."""

from __future__ import annotations

import os
import time

from . import limits
from .agents import RandomAgent
from .engine import Game, GameFault
from .moves import legal_moves
from .playout import play_random
from .runtime import VALUE_FAULTS, ScriptRuntimeError
from .rng import derive
from .source import Diagnostic, ScriptError


def play_one(game: Game, players: int, seed: int, options: dict, max_decisions: int = limits.MAX_DECISIONS,
             budget: tuple = (None, None)):
    """Play one game to the end; returns (state, finished).  `budget`: (work per move, per game)."""
    state = game.new_game(players=players, seed=seed, options=options, max_work=budget[0],
                          max_game_work=budget[1])
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
    path_or_game, players, seed, options, start, stop, budget = args
    if isinstance(path_or_game, str):
        if _worker_game is None or _worker_game.path != path_or_game:
            _load_in_worker(path_or_game)
        game = _worker_game
    else:
        game = path_or_game
    rows = []
    for index in range(start, stop):
        state, finished = play_one(game, players, derive(seed, index), options, budget=budget)
        scores = winners = None
        if finished:
            try:
                scores, winners = state.scores, state.winners
            except GameFault:  # the score or winners expression fails: the game has no result
                finished = False
        rows.append((finished, state.decisions, scores, winners))
    return rows


def usable_workers(workers: int) -> int:
    """`workers`, capped at the machine's CPU count: more processes than CPUs only add memory
    (each loads Python and the script) and no speed."""
    return max(1, min(workers, os.cpu_count() or 1))


def simulate(game: Game, games: int, players: int, seed: int, options: dict, workers: int = 1,
             max_work: int | None = None, max_game_work: int | None = None) -> dict:
    """Statistics over `games` games; game i uses seed derive(seed, i), so results do not depend
    on how the games are spread over worker processes.

    At most limits.MAX_GAMES games and usable_workers(workers) processes; games are played in
    ranges of at most 64 and their results added up as each range comes back, so memory does
    not grow with the number of games."""
    if not 0 <= games <= limits.MAX_GAMES:
        raise ScriptError([Diagnostic("E0706", f"{games:,} games is more than `simulate` plays", None,
                                      hint=f"at most {limits.MAX_GAMES:,} games at once")])
    budget = game.budget(max_work, max_game_work)
    started = time.perf_counter()
    workers = usable_workers(workers)
    wins, totals = [0.0] * players, [0.0] * players
    finished = decisions = 0

    def add(rows):
        nonlocal finished, decisions
        for done_, made, scores, winners in rows:
            decisions += made
            if not done_:
                continue
            finished += 1
            for seat in winners:
                wins[seat] += 1 / len(winners)
            for seat, score in enumerate(scores):
                totals[seat] += score

    chunk = max(1, min(64, games // (workers * 8)))
    if workers <= 1 or games < 2:
        for lo in range(0, games, chunk):
            add(_run_range((game, players, seed, options, lo, min(games, lo + chunk), budget)))
    else:
        import multiprocessing
        # Small ranges, handed out as workers become free, keep every worker busy to the end
        # (game lengths vary); each worker loads the script once.
        jobs = ((game.path, players, seed, options, lo, min(games, lo + chunk), budget)
                for lo in range(0, games, chunk))
        with multiprocessing.get_context("spawn").Pool(workers, _load_in_worker, (game.path,)) as pool:
            for part in pool.imap(_run_range, jobs):
                add(part)
    elapsed = max(time.perf_counter() - started, 1e-9)
    done = max(1, finished)
    return {
        "games": games,
        "players": players,
        "win_rate_by_seat": [round(w / done, 4) for w in wins],
        "mean_score_by_seat": [round(t / done, 3) for t in totals],
        "mean_decisions": round(decisions / max(1, games), 2),
        "games_per_second": round(games / elapsed, 2),
        "decisions_per_second": round(decisions / elapsed, 1),
        "unfinished": games - finished,
    }
