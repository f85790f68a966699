"""`--dask local`: 2,000 Bouncer games on a LocalCluster of 2 workers give the JSON of a local
run, timings aside; the cluster listens on loopback only.  Skipped without the `[dist]` extra
(CI installs it, see .ci/run)."""

from __future__ import annotations

import pytest

pytest.importorskip("distributed")

from cardgame import interpreter  # noqa: E402
from cardgame.interpreter.studies import dist  # noqa: E402
from helpers import GAMES  # noqa: E402


def _without_timing(stats):
    return {k: v for k, v in stats.items() if k not in interpreter.TIMING_FIELDS}


def test_a_local_cluster_gives_the_statistics_of_a_local_run():
    game = interpreter.load(str(GAMES / "bouncer.cardgame"))
    with interpreter.connect_dask("local", 2) as client:
        addresses = dist.cluster_addresses(client)
        assert len(addresses) == 3 and all(a.startswith("tcp://127.0.0.1:") for a in addresses)
        on_cluster = interpreter.simulate(game, 2000, 3, 4, {}, dask=client)
        lint_cluster = interpreter.lint(game, 2, seed=1, dask=client)
    local = interpreter.simulate(game, 2000, 3, 4, {})
    assert _without_timing(on_cluster) == _without_timing(local)
    assert on_cluster["outcomes"]["won"] + on_cluster["outcomes"]["drawn"] == 2000
    assert lint_cluster == interpreter.lint(game, 2, seed=1)
