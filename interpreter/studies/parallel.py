"""Running jobs of games in this process, in worker processes, or on a Dask cluster, with the
results always in job order: how the work is spread never changes what comes back."""

from __future__ import annotations

_loaded: dict = {}  # path -> Game, loaded once per process for all the jobs it runs


def worker_game(path: str):
    """The game at `path`, loaded once per process (worker processes and Dask workers)."""
    game = _loaded.get(path)
    if game is None:
        from ..engine.game import load
        _loaded.clear()
        game = _loaded[path] = load(path)
    return game


def _preload(path: str) -> None:
    """A spawned worker's set-up: load the game now, before the first job.  It must not raise:
    a pool replaces a worker whose initializer fails, for ever (a script deleted or broken
    since the command loaded it hung `--workers`); the first job loads it again and its error
    travels back to the command."""
    try:
        worker_game(path)
    except Exception:  # ScriptError and any other: the job reports it
        pass


def _pool(workers: int, path: str, game):
    """Worker processes ready to run jobs of the game at `path`.  Forked ones start with the
    parent's `game` already loaded (no import, no load: about a quarter of a second each); where
    forking is not safe (threads running, or not Linux) they are spawned and load it."""
    import multiprocessing
    import sys
    import threading
    if game is None or sys.platform != "linux" or threading.active_count() > 1:
        return multiprocessing.get_context("spawn").Pool(workers, _preload, (path,))
    _loaded.clear()
    _loaded[path] = game
    try:
        return multiprocessing.get_context("fork").Pool(workers)
    finally:
        _loaded.clear()  # the children have their copies; the parent keeps no second reference


def map_jobs(fn, jobs: list, path: str, workers: int = 1, dask=None, progress=None, size=len, each=None,
             game=None) -> list:
    """[fn(job) for job in jobs], in order; with `each`, each result goes to `each(result)` as it
    comes (in order) and nothing is kept.  `fn` must be a module-level function (it travels to
    other processes); `progress(done)` is called with the sum of `size(result)` so far; `dask` is
    a distributed.Client; `game` is the Game loaded from `path`, if the caller has it."""
    results: list = []
    done = 0

    def note(result):
        nonlocal done
        (each or results.append)(result)
        done += size(result)
        if progress is not None:
            progress(done)

    if dask is not None:
        from .dist import map_on_cluster
        for result in map_on_cluster(dask, fn, jobs):
            note(result)
    elif workers <= 1 or len(jobs) < 2:
        for job in jobs:
            note(fn(job))
    else:
        with _pool(workers, path, game) as pool:
            for result in pool.imap(fn, jobs):
                note(result)
    return results
