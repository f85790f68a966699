"""`simulate --metrics fast` (the playout loop, simulate's default) and `--metrics full` (the API
loop that also reads scores and the knowledge model at every decision) play the same games and
give the same figure for every statistic both compute; fast leaves exactly lead changes, decided
at and information revealed out."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgame import interpreter
from cardgame.interpreter.studies.playtest import play_recorded

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = [ROOT / "games" / "bouncer.cardgame", ROOT / "games" / "booray.cardgame",
           ROOT / "tests" / "scripts" / "capped.cardgame", ROOT / "tests" / "scripts" / "draws.cardgame",
           ROOT / "tests" / "lint" / "late_fault.cardgame", ROOT / "tests" / "lint" / "always_faults.cardgame",
           ROOT / "tests" / "lint" / "never_ends.cardgame"]
FULL_ONLY = {"lead_changes", "decided_at", "information_revealed"}


def _without(stats, keys):
    return {k: v for k, v in stats.items() if k not in keys}


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_fast_and_full_statistics_agree_on_every_shared_figure(path):
    game = interpreter.load(str(path))
    runs = {level: interpreter.simulate(game, 12, game.min_players, 5, {}, max_decisions=2000, metrics=level)
            for level in interpreter.METRICS}
    fast, full = runs["fast"], runs["full"]
    assert (fast["metrics_level"], full["metrics_level"]) == ("fast", "full")
    skip = set(interpreter.TIMING_FIELDS) | set(interpreter.BACKEND_FIELDS) | {"metrics", "metrics_level"}  # fast runs compiled
    assert _without(fast, skip) == _without(full, skip)
    assert _without(fast["metrics"], FULL_ONLY) == _without(full["metrics"], FULL_ONLY)
    assert fast["metrics"]["branching_factor"]["n"] > 0
    for name in FULL_ONLY:
        assert fast["metrics"][name]["n"] == 0  # not measured, not a zero


@pytest.mark.parametrize("path", SCRIPTS[:3], ids=lambda p: p.name)
def test_fast_records_are_the_full_records_without_the_expensive_metrics(path):
    """Game by game: the same outcome, length, scores, measures, faults and branching counts."""
    game = interpreter.load(str(path))
    for index in range(6):
        fast = play_recorded(game, game.min_players, 3, index, {}, metrics="fast")
        full = play_recorded(game, game.min_players, 3, index, {}, metrics="full")
        assert (fast.lead_changes, fast.decided_at, fast.seen) == (None, None, None)
        same = ("outcome", "decisions", "scores", "winners", "measures", "fault", "choices", "offered", "forced")
        assert [getattr(fast, f) for f in same] == [getattr(full, f) for f in same]


def test_alternative_first_without_full_metrics_still_leaves_them_out():
    """Another policy cannot use the playout loop (it draws differently); it plays through the
    API loop but measures only what fast measures, so the JSON means the same."""
    game = interpreter.load(str(SCRIPTS[0]))
    stats = interpreter.simulate(game, 5, 3, 2, {}, policy="alternative-first")
    full = interpreter.simulate(game, 5, 3, 2, {}, policy="alternative-first", metrics="full")
    assert stats["metrics"]["lead_changes"]["n"] == 0 and full["metrics"]["lead_changes"]["n"] == 5
    assert _without(stats["metrics"], FULL_ONLY) == _without(full["metrics"], FULL_ONLY)


def test_an_unknown_metrics_level_is_refused():
    with pytest.raises(ValueError):
        interpreter.simulate(interpreter.load(str(SCRIPTS[0])), 1, 3, 0, {}, metrics="some")


def test_the_command_line_says_which_level_it_measured(capsys):
    from cardgame.repl.cli import main
    draws = str(ROOT / "tests" / "scripts" / "draws.cardgame")
    assert main(["simulate", draws, "-n", "8"]) == 0
    fast = capsys.readouterr().out
    assert main(["simulate", draws, "-n", "8", "--metrics", "full"]) == 0
    full = capsys.readouterr().out
    assert "lead changes: not measured (--metrics full)" in fast
    assert "lead changes: not measured" not in full and "lead changes: " in full
