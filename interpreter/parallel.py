"""Running jobs of games in this process, in worker processes, or on a Dask cluster, with the
results always in job order: how the work is spread never changes what comes back."""

from __future__ import annotations

_loaded: dict = {}  # path -> Game, loaded once per process for all the jobs it runs


def worker_game(path: str):
    """The game at `path`, loaded once per process (worker processes and Dask workers)."""
    game = _loaded.get(path)
    if game is None:
        from .engine import load
        _loaded.clear()
        game = _loaded[path] = load(path)
    return game


def _preload(path: str) -> None:
    worker_game(path)


def map_jobs(fn, jobs: list, path: str, workers: int = 1, dask=None, progress=None, size=len, each=None) -> list:
    """[fn(job) for job in jobs], in order; with `each`, each result goes to `each(result)` as it
    comes (in order) and nothing is kept.  `fn` must be a module-level function (it travels to
    other processes); `progress(done)` is called with the sum of `size(result)` so far; `dask` is
    a distributed.Client."""
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
        import multiprocessing
        with multiprocessing.get_context("spawn").Pool(workers, _preload, (path,)) as pool:
            for result in pool.imap(fn, jobs):
                note(result)
    return results
