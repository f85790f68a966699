"""Running jobs on a Dask distributed cluster (the optional extra `pip install -e '.[dist]'`).

The jobs are the same ranges of games a local run plays (game i always has seed derive(S, i)),
and their results come back in job order, so a cluster run gives exactly the records, and so
the statistics, of a local run.  Workers load the script from its path: on a cluster of
several machines the script must be readable at the same path on each (a shared folder); a
`LocalCluster` always can.  `distributed` is imported only here, and only when used.
"""

from __future__ import annotations

import contextlib
import logging

LOOPBACK = "127.0.0.1"


@contextlib.contextmanager
def connect(address: str, workers: int = 2):
    """A distributed.Client: to the scheduler at `address`, or, for "local", to a LocalCluster of
    `workers` single-threaded worker processes listening on the loopback interface only (no
    dashboard).  Closed on exit."""
    from distributed import Client, LocalCluster
    if address != "local":
        with Client(address) as client:
            yield client
        return
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host=LOOPBACK,
                      dashboard_address=None, silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
        yield client


def cluster_addresses(client) -> list[str]:
    """The scheduler's and every worker's address (tests check they are all on loopback)."""
    info = client.scheduler_info()
    return [info["address"]] + list(info.get("workers", {}))


def map_on_cluster(client, fn, jobs: list):
    """fn(job) for each job on the cluster; yields the results in job order."""
    futures = client.map(fn, jobs, pure=False)
    try:
        for future in futures:
            yield future.result()
    finally:
        client.cancel(futures)
