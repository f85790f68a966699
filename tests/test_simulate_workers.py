"""`cardgame simulate --workers N` gives the statistics of a single process, game for game."""

from __future__ import annotations

import json

import pytest

from repl.cli import main

from helpers import GAMES

TIMING = ("games_per_second", "decisions_per_second")


def _simulate(capsys, path, workers, *extra):
    assert main(["simulate", str(path), "-n", "7", "--seed", "3", "--json", "--workers", str(workers), *extra]) == 0
    stats = json.loads(capsys.readouterr().out)
    return {k: v for k, v in stats.items() if k not in TIMING}


@pytest.mark.parametrize("script, extra", [
    ("bouncer.cardgame", ("--option", "special_bouncers=true")),
    ("booray.cardgame", ("--players", "5", "--option", "hands=4")),
])
def test_two_workers_give_the_statistics_of_one(capsys, script, extra):
    one = _simulate(capsys, GAMES / script, 1, *extra)
    two = _simulate(capsys, GAMES / script, 2, *extra)
    assert one == two
    assert one["games"] == 7 and one["unfinished"] == 0
