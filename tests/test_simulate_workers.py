"""`cardgame simulate --workers N` gives the statistics of a single process, game for game."""

from __future__ import annotations

import json
import sys
import threading

import pytest

from cardgame.repl.cli import main

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


def _stats(game, workers):
    from cardgame.interpreter.studies.simulate import simulate
    result = simulate(game, 6, 3, 5, game.read_options({}), workers=workers)
    return {k: v for k, v in result.items() if k not in TIMING}


@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked on Linux only")
def test_forked_workers_play_the_game_the_parent_loaded(tmp_path):
    """The workers start with the parent's Game: the file may be gone or edited since."""
    from cardgame import interpreter
    if threading.active_count() > 1:  # an earlier test in this process left a thread: workers are spawned
        pytest.skip("another thread runs in this test process, so workers are spawned, not forked")
    path = tmp_path / "bouncer.cardgame"
    path.write_text((GAMES / "bouncer.cardgame").read_text())
    game = interpreter.load(str(path))
    path.unlink()
    assert _stats(game, 2) == _stats(game, 1)


def test_workers_are_spawned_while_other_threads_run():
    """Forking a process with other threads running can deadlock the child: spawn instead."""
    from cardgame import interpreter
    from cardgame.interpreter.studies import parallel
    game = interpreter.load(str(GAMES / "bouncer.cardgame"))
    release = threading.Event()
    waiting = threading.Thread(target=release.wait)
    waiting.start()
    try:
        with parallel._pool(2, game.path, game) as pool:
            assert pool._ctx.get_start_method() == "spawn"
        assert _stats(game, 2) == _stats(game, 1)
    finally:
        release.set()
        waiting.join()


def test_spawned_workers_report_a_script_gone_since_instead_of_starting_again_for_ever(tmp_path, monkeypatch):
    """A spawned worker loads the script from its file: if it is gone, the run says so."""
    from cardgame import interpreter
    from cardgame.interpreter.studies import parallel
    path = tmp_path / "bouncer.cardgame"
    path.write_text((GAMES / "bouncer.cardgame").read_text())
    game = interpreter.load(str(path))
    path.unlink()
    monkeypatch.setattr(threading, "active_count", lambda: 2)  # as if another thread ran: spawn
    with pytest.raises(interpreter.ScriptError, match="cannot read"):
        _stats(game, 2)
    assert parallel._loaded == {}
