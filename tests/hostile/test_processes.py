"""Hostile command lines for `simulate`: more workers than CPUs, more games than memory."""

from __future__ import annotations

import json
import os

from helpers import GAMES

BOUNCER = GAMES / "bouncer.cardgame"


def test_workers_are_capped_at_the_cpu_count(cli, monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 1)  # one CPU: the games run in this process
    out = cli("simulate", BOUNCER, "-n", "3", "--workers", "1000", "--json")
    assert out.code == 0 and "Traceback" not in out.err
    assert "--workers 1000 is more than the 1 CPU(s) here; using 1" in out.err
    assert json.loads(out.out)["games"] == 3


def test_a_trillion_games_are_refused_before_any_is_played(cli):
    out = cli("simulate", BOUNCER, "-n", str(10 ** 12), "--workers", "2")
    assert out.code == 2 and "[E0903]" in out.err and "Traceback" not in out.err


def test_a_budget_past_its_hard_cap_is_refused(cli):
    for flag in ("--max-work", "--max-game-work"):
        out = cli("play", BOUNCER, flag, str(10 ** 15))
        assert out.code == 2 and "[E0903]" in out.err


def test_simulate_adds_results_as_they_come(monkeypatch):
    """Results are summed range by range (at most 64 games each), never kept per game."""
    import importlib

    from cardgame import interpreter
    sim = importlib.import_module("cardgame.interpreter.studies.simulate")  # the module (the package exports the function)
    sizes = []
    real = sim.run_range

    def spy(args):
        rows = real(args)
        sizes.append(len(rows))
        return rows
    monkeypatch.setattr(sim, "run_range", spy)
    stats = interpreter.simulate(interpreter.load(str(BOUNCER)), 130, 3, 1, {})
    assert stats["games"] == 130 and max(sizes) <= 64 and sum(sizes) == 130
