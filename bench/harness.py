"""The measurements behind `python -m bench`.

Every figure is the best of `repeat` runs: other programs on the machine only ever slow a run
down, so the best run is the closest to what the code itself costs.
"""

from __future__ import annotations

import gc
import importlib
import inspect
import json
import os
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

from .configs import CONFIGS, STATE_MOVES, STATE_SCRIPT, WORKERS_CONFIG, WORKERS_SECONDS, Config

ROOT = Path(__file__).resolve().parent.parent


def _engine():
    from cardgame import interpreter
    from cardgame.interpreter.language.rng import derive
    from cardgame.interpreter.studies.simulate import play_one
    return interpreter, derive, play_one


# ---- configurations -------------------------------------------------------------------------

def available(cfg: Config) -> tuple[bool, str]:
    """Can this row run?  (False, why) when its script or a baseline it names is missing."""
    if not (ROOT / cfg.script).exists():
        return False, f"no script {cfg.script}"
    for name in (cfg.baseline, cfg.tuned):
        if name is None:
            continue
        try:
            module = importlib.import_module(name)
        except ImportError as err:
            return False, f"no baseline {name} ({err})"
        if not callable(getattr(module, "play_game", None)):
            return False, f"{name} has no play_game"
    return True, ""


def _baseline_player(cfg: Config, name: str):
    play_game = importlib.import_module(name).play_game
    takes_players = "players" in inspect.signature(play_game).parameters
    if cfg.players is not None and takes_players:
        return lambda seed: play_game(seed, dict(cfg.options), players=cfg.players)
    return lambda seed: play_game(seed, dict(cfg.options))


def _interleaved(sides: dict, repeat: int) -> dict:
    """Best (seconds, games, decisions) of `repeat` runs of each side's fn() -> (games, decisions),
    the sides taking turns, so a slow spell of the machine hits them all alike."""
    best = {}
    for _ in range(repeat):
        for name, fn in sides.items():
            gc.collect()
            start = time.perf_counter()
            games, decisions = fn()
            elapsed = time.perf_counter() - start
            if name not in best or elapsed < best[name][0]:
                best[name] = (elapsed, games, decisions)
    return best


def _api_game(interpreter, game, players, seed, options):
    """One game through the public calls only: legal_moves(), the agent's choice, apply()."""
    from cardgame.interpreter.studies.agents import RandomAgent
    state = game.new_game(players=players, seed=seed, options=options)
    agent = RandomAgent.for_game(seed)
    while not state.is_over and state.fault is None:
        moves = state.legal_moves()
        if not moves:
            break
        state.apply(agent.choose(moves))
    return state


def run_config(cfg: Config, scale: float, repeat: int, seed: int = 1) -> dict:
    """One row: the engine's playouts (what `simulate` runs), the engine through its public API,
    and the idiomatic and tuned baselines where the row has them."""
    interpreter, derive, play_one = _engine()
    game = interpreter.load(str(ROOT / cfg.script))
    players = cfg.players if cfg.players is not None else game.min_players
    options = game.read_options({k: v for k, v in cfg.options.items()})
    n = max(1, int(cfg.games * scale))

    def playout():
        decisions = 0
        for i in range(n):
            state, finished = play_one(game, players, derive(seed, i), options)
            if not finished:
                raise RuntimeError(f"{cfg.name}: game {i} did not finish ({state.fault})")
            decisions += state.decisions
        return n, decisions

    def api():
        return n, sum(_api_game(interpreter, game, players, derive(seed, i), options).decisions for i in range(n))

    sides = {"engine": playout, "api": api}
    kernel = _kernel(game)
    if kernel is not None:  # compiled before the clock starts: the warm cache's case
        budget = game.budget()

        more = n * COMPILED_MORE

        def compiled():  # the games of `playout` and more (game i's seed derive(seed, i)), each one's result row
            rows, _ = kernel.rows(players, seed, options, 0, more, "uniform", interpreter.limits.MAX_DECISIONS,
                                  budget)
            return more, sum(r[3] for r in rows)

        def compiled_records():  # and the records simulate adds up (GameRecord, as the Python path's)
            from cardgame.interpreter.studies.simulate import compiled_range
            return more, sum(r.decisions for r in compiled_range(game, players, seed, options, 0, more))
        sides["compiled"], sides["compiled_records"] = compiled, compiled_records
    for side, name in (("baseline", cfg.baseline), ("tuned", cfg.tuned)):
        if name is not None:
            sides[side] = (lambda base: lambda: (n, sum(base(seed * 1_000_003 + i)[1] for i in range(n))))(
                _baseline_player(cfg, name))
    best = _interleaved(sides, repeat)
    row = {"config": cfg.name, "script": cfg.script, "players": players, "options": cfg.options, "games": n}
    for side, (elapsed, games, decisions) in best.items():
        row[f"{side}_games_per_s"] = games / elapsed
        row[f"{side}_decisions_per_s"] = decisions / elapsed
        row[f"{side}_mean_decisions"] = decisions / games
    # The sides play different random games (different generators), so a run's games are not
    # equally long on all of them.  Scaled to the same mean length, the games/s ratio is the
    # decisions/s ratio; that is the ratio the targets are judged on.
    for side in ("baseline", "tuned"):
        if side in best:
            row[f"ratio_{side}"] = row["engine_decisions_per_s"] / row[f"{side}_decisions_per_s"]
            row[f"api_ratio_{side}"] = row["api_decisions_per_s"] / row[f"{side}_decisions_per_s"]
            if "compiled" in best:
                row[f"compiled_ratio_{side}"] = row["compiled_decisions_per_s"] / row[f"{side}_decisions_per_s"]
                row[f"compiled_records_ratio_{side}"] = \
                    row["compiled_records_decisions_per_s"] / row[f"{side}_decisions_per_s"]
    if "baseline" in best:
        row["ratio_games"] = row["engine_games_per_s"] / row["baseline_games_per_s"]
        row["ratio"] = row["ratio_baseline"]
    return row


COMPILED_MORE = 20  # the compiled sides play 20 times the row's games: a run of milliseconds is mostly noise


def _kernel(game):
    """The script's compiled playouts, or None (no compiler here, or a construct not compiled)."""
    from cardgame.interpreter.studies.compiled import NoKernel, kernel_for
    try:
        return kernel_for(game)
    except NoKernel:
        return None


# ---- compiled playouts: compiling, starting, a long simulate (issue 35) ----------------------

def _simulate_wall(script: str, games: int, backend: str, env: dict) -> tuple[float, dict]:
    """Wall seconds of `cardgame simulate SCRIPT -n GAMES --json --backend BACKEND`, start-up
    included, and its JSON."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "cardgame.repl", "simulate", script, "-n", str(games), "--json",
                           "--no-progress", "--backend", backend], cwd=ROOT, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    return elapsed, json.loads(done.stdout) if done.returncode in (0, 1) and done.stdout else {}


def compiled_figures(scale: float, repeat: int, scripts: list) -> dict:
    """Per shipped script: the cold compile (an empty cache folder) and the warm start of
    `simulate -n 1` on both backends; then Bouncer's long `simulate`, and whether its statistics
    are the Python path's for the first games."""
    import tempfile
    out = {"scripts": []}
    for script in scripts:
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "CARDGAME_CACHE_DIR": cache}
            cold, _ = _simulate_wall(script, 1, "compiled", env)
            warm = min(_simulate_wall(script, 1, "compiled", env)[0] for _ in range(max(repeat, 3)))
            python = min(_simulate_wall(script, 1, "python", env)[0] for _ in range(max(repeat, 3)))
            out["scripts"].append({"script": script, "cold_s": cold, "warm_s": warm, "python_warm_s": python,
                                   "warm_over_python_s": warm - python})
    games = max(100, int(100_000 * scale))
    checked = min(games, max(100, int(2_000 * scale)))
    env = dict(os.environ)
    _simulate_wall("games/bouncer.cardgame", 1, "compiled", env)  # the cache made, as `warm cache` says
    wall, stats = _simulate_wall("games/bouncer.cardgame", games, "compiled", env)
    _, small = _simulate_wall("games/bouncer.cardgame", checked, "compiled", env)
    _, python = _simulate_wall("games/bouncer.cardgame", checked, "python", env)
    drop = ("games_per_second", "decisions_per_second", "backend", "backend_reason")
    same = {k: v for k, v in small.items() if k not in drop} == {k: v for k, v in python.items() if k not in drop}
    out["long"] = {"script": "games/bouncer.cardgame", "games": games, "wall_s": wall,
                   "backend": stats.get("backend"), "checked_games": checked, "same_as_python": same}
    return out


def explain_time(repeat: int) -> dict:
    """Microseconds for `explain()` of one legal move, mid-game (every legal move in turn)."""
    interpreter, derive, _ = _engine()
    from cardgame.interpreter.studies.agents import RandomAgent
    from .configs import EXPLAIN_MOVES, EXPLAIN_SCRIPT
    game = interpreter.load(str(ROOT / EXPLAIN_SCRIPT))
    state = game.new_game(seed=7)
    agent = RandomAgent(derive(7, 1))
    for _ in range(EXPLAIN_MOVES):
        state.apply(agent.choose(state.legal_moves()))
    moves = state.legal_moves()
    state.explain(moves[0])  # the first explanation compiles the traced rules
    best, number = None, 2000
    for _ in range(repeat):
        start = time.perf_counter()
        for i in range(number):
            state.explain(moves[i % len(moves)])
        elapsed = (time.perf_counter() - start) / number
        best = elapsed if best is None else min(best, elapsed)
    return {"script": EXPLAIN_SCRIPT, "after_moves": EXPLAIN_MOVES, "moves": len(moves), "explain_us": best * 1e6}


def choose_time(repeat: int, scale: float = 1.0) -> dict:
    """Microseconds to list the moves of the three-card pass, written with the binder that
    chooses several cards against the positional workaround (issue 10: at least 10x faster).
    Both scripts stop at the first pass of each seed's deal with the same 13 cards in hand;
    the two lists must offer the same sets of cards (checked here, every seed)."""
    interpreter, _, _ = _engine()
    from .configs import CHOOSE_SCRIPTS, CHOOSE_SEEDS
    states = {}
    for side, script in CHOOSE_SCRIPTS.items():
        game = interpreter.load(str(ROOT / script))
        states[side] = [game.new_game(seed=seed) for seed in range(1, max(2, int(CHOOSE_SEEDS * scale)) + 1)]
    sets = {side: [sorted(tuple(sorted(m.text.split()[1:])) for m in st.legal_moves()) for st in sts]
            for side, sts in states.items()}
    first, second = sets.values()
    same, moves = first == second, len(first[0])

    def listing(sts):
        def run():
            for st in sts:
                st.begin_work()
                st.waiting.fast(st, st.stack[-1][2])
            return len(sts), len(sts)
        return run
    best = _interleaved({side: listing(sts) for side, sts in states.items()}, repeat)
    us = {side: best[side][0] / best[side][1] * 1e6 for side in states}
    return {"scripts": dict(CHOOSE_SCRIPTS), "decisions": len(states["choose"]), "moves": moves,
            "same_moves": same, "choose_us": us["choose"], "positional_us": us["positional"],
            "speedup": us["positional"] / us["choose"]}


# ---- cardgame check -------------------------------------------------------------------------

def check_times(repeat: int) -> list[dict]:
    """Wall time of `python -m cardgame.repl check SCRIPT` (the `cardgame` command), start-up included.

    `best_s`/`median_s`: as Python normally runs, with its bytecode cache and the parser cache
    in place (one unmeasured run first writes them).  `no_bytecode_s`: the best time when this
    project's modules are compiled from source at each start (PYTHONDONTWRITEBYTECODE=1 and no
    __pycache__, as in a fresh checkout run that way); libraries keep their installed bytecode."""
    import shutil
    import tempfile
    rows = []
    warm = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cold = dict(warm, PYTHONDONTWRITEBYTECODE="1")
    copy = Path(tempfile.mkdtemp(prefix="bench-check-"))
    for package in ("interpreter", "repl", "grammar", "games", "authoring"):
        shutil.copytree(ROOT / package, copy / "cardgame" / package, ignore=shutil.ignore_patterns("__pycache__"))
    for script in sorted((ROOT / "games").glob("*.cardgame")):
        rel = str(script.relative_to(ROOT))
        status = _check(rel, warm)[1]  # writes the caches
        times = [_check(rel, warm)[0] for _ in range(repeat)]
        cold_times = [_check(rel, cold, copy)[0] for _ in range(max(1, repeat // 2))]
        rows.append({"script": rel, "best_s": min(times), "median_s": statistics.median(times),
                     "no_bytecode_s": min(cold_times), "ok": status == 0})
    shutil.rmtree(copy, ignore_errors=True)
    return rows


def _check(script: str, env: dict, cwd: Path = ROOT) -> tuple[float, int]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "cardgame.repl", "check", script], cwd=cwd, env=env,
                          capture_output=True, text=True)
    return time.perf_counter() - start, done.returncode


# ---- one state: memory and clone() ----------------------------------------------------------

def _mid_game_state():
    interpreter, derive, _ = _engine()
    from cardgame.interpreter.studies.agents import RandomAgent
    game = interpreter.load(str(ROOT / STATE_SCRIPT))
    state = game.new_game(seed=7)
    agent = RandomAgent(derive(7, 1))
    for _ in range(STATE_MOVES):
        state.apply(agent.choose(state.legal_moves()))
    state.legal_moves()
    return game, state


def deep_size(state) -> int:
    """Bytes of everything a state owns: each object reachable from it counted once, leaving out
    what all states of the script share (the compiled program, the game, decisions and moves)."""
    prog = state.prog
    shared = {id(prog), id(state.game), id(state.waiting), id(prog.tables)}
    shared.update(id(m) for m in (state.legal_cache or ()))
    seen, total, stack = set(), 0, [state]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or id(obj) in shared or obj is None or isinstance(obj, type):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            stack.extend(obj)
        elif hasattr(type(obj), "__slots__"):
            for cls in type(obj).__mro__:
                for slot in getattr(cls, "__slots__", ()):
                    if slot != "tracer" and hasattr(obj, slot):
                        stack.append(getattr(obj, slot))
    return total


def state_figures(repeat: int) -> dict:
    game, state = _mid_game_state()
    size = deep_size(state)
    # What a state really costs the allocator: many clones, measured with tracemalloc.
    clones = 200
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    kept = [state.clone() for _ in range(clones)]
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    traced = sum(s.size_diff for s in after.compare_to(before, "filename")) / clones
    del kept
    best = None
    number = 20_000
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            state.clone()
        elapsed = (time.perf_counter() - start) / number
        best = elapsed if best is None else min(best, elapsed)
    return {"script": STATE_SCRIPT, "after_moves": STATE_MOVES, "deep_size_bytes": size,
            "clone_traced_bytes": round(traced), "clone_us": best * 1e6}


# ---- what a seat knows: information_state and determinize (issue 34) ---------------------------

def knowledge_figures(repeat: int) -> dict:
    """On the state `state_figures` measures, recorded: microseconds and bytes of one seat's
    information_state (asked again on the same position, best of `repeat`; and once on each
    position after a move, the digest of the move's new events included), and milliseconds per
    determinize for each seat (one replay of the game per try)."""
    interpreter, derive, _ = _engine()
    from cardgame.interpreter.studies.agents import RandomAgent
    game = interpreter.load(str(ROOT / STATE_SCRIPT))
    state = game.new_game(seed=7, record=True)
    agent = RandomAgent(derive(7, 1))
    for _ in range(STATE_MOVES):
        state.apply(agent.choose(state.legal_moves()))
    seats = range(state.n)
    texts = [state.information_state(seat).text for seat in seats]
    best, number = None, 500
    for _ in range(repeat):
        start = time.perf_counter()
        for i in range(number):
            state.information_state(i % state.n)
        elapsed = (time.perf_counter() - start) / number
        best = elapsed if best is None else min(best, elapsed)
    fresh = []  # each position right after a move, asked once
    for _ in range(repeat):
        copy = state.clone()
        total, asked = 0.0, 0
        while not copy.is_over and asked < 15:
            copy.apply(agent.choose(copy.legal_moves()))
            start = time.perf_counter()
            copy.information_state(asked % copy.n)
            total += time.perf_counter() - start
            asked += 1
        fresh.append(total / max(1, asked))
    worlds = []
    for _ in range(repeat):
        start = time.perf_counter()
        for k in range(10):
            state.determinize(k % state.n, random.Random(k))
        worlds.append((time.perf_counter() - start) / 10)
    return {"script": STATE_SCRIPT, "after_moves": STATE_MOVES, "information_state_us": best * 1e6,
            "information_state_after_move_us": min(fresh) * 1e6,
            "information_state_bytes": max(len(t.encode()) for t in texts), "determinize_ms": min(worlds) * 1e3}


# ---- simulate --workers ---------------------------------------------------------------------

def workers_speedup(scale: float, repeat: int) -> dict:
    interpreter, _, _ = _engine()
    from cardgame.interpreter.studies.simulate import simulate
    cfg = next(c for c in CONFIGS if c.name == WORKERS_CONFIG)
    game = interpreter.load(str(ROOT / cfg.script))
    players = cfg.players if cfg.players is not None else game.min_players
    options = game.read_options(dict(cfg.options))
    _, derive, play_one = _engine()
    start, probe = time.perf_counter(), 30
    for i in range(probe):
        play_one(game, players, derive(2, i), options)
    rate = probe / (time.perf_counter() - start)
    n = max(8, int(rate * WORKERS_SECONDS * scale))
    walls, stats = {}, {}
    for workers in (1, 2):
        best = None
        for _ in range(repeat):
            start = time.perf_counter()
            result = simulate(game, n, players, 1, options, workers=workers, backend="python")
            elapsed = time.perf_counter() - start
            best = elapsed if best is None else min(best, elapsed)
        walls[workers] = best
        stats[workers] = {k: v for k, v in result.items() if k not in ("games_per_second", "decisions_per_second")}
    return {"config": cfg.name, "games": n, "cpus": os.cpu_count(), "workers1_s": walls[1], "workers2_s": walls[2],
            "speedup": walls[1] / walls[2], "identical_statistics": stats[1] == stats[2]}


def machine() -> dict:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import platform
    return {"cpus": os.cpu_count(), "cpu_model": model, "python": platform.python_version(),
            "implementation": platform.python_implementation(), "platform": platform.platform()}
