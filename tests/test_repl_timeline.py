"""The REPL's timeline of positions (repl/timeline.py): a run of moves is bounded, since every
position is kept for undo; in a long game only a few positions are kept and the others are made
again exactly (their saved data, log, table and observed events), in a game played or a replay
opened."""

from __future__ import annotations

import json

import pytest

from cardgame.repl.session import Session

from helpers import GAMES, bouncer

BOUNCER = str(GAMES / "bouncer.cardgame")
DICE = str(GAMES.parent / "tests" / "scripts" / "dice_race.cardgame")


def test_auto_and_step_stop_after_the_most_steps_one_run_makes(monkeypatch):
    from cardgame.repl import session_running
    monkeypatch.setattr(session_running, "MOST_STEPS_PER_RUN", 3)  # 5000 in use: `auto end` of a game that
    s = bouncer()                                                # never ends ran for minutes, silent
    out = s.execute("auto end")
    assert "auto stopped after 3 moves: one run makes at most 3 steps; `auto` again goes on" in out
    assert s.step == 3 and not s.failed
    out = s.execute("step 10")
    assert "stopped after 3 steps of 10: one run makes at most 3 steps" in out and s.step == 6
    assert "auto played 2 moves" in s.execute("auto 2")


def _positions(s: Session, steps, events: bool = True) -> list:
    """What each position shows: its saved data, the log and the table as P1 sees them, and with
    `events` every event P1 observed (a game played with a tracer also holds the rules judged)."""
    out = []
    for step in steps:
        s.execute(f"goto {step}")
        s.execute("view P1")
        seen = (s.execute("log"), s.execute("state"), [str(e) for e in s.state.observed_events(1)] if events else [])
        s.execute("view all")
        out.append((json.dumps(s.state.to_json(), sort_keys=True), seen))
    return out


@pytest.mark.parametrize("script, commands", [
    (BOUNCER, ["auto end"]),  # moves (each position's observation log, with the rules judged, made again too)
    (DICE, ["step 9", "undo 2", "step 3", "run"]),  # steps between pause points
    (BOUNCER, ["pause all", "new", "step 40", "auto 30"]),  # both
])
def test_positions_not_kept_are_made_again_exactly(monkeypatch, script, commands):
    from cardgame.repl import timeline
    monkeypatch.setattr(timeline, "KEEP_LAST", 10 ** 9)
    kept_all = Session()
    kept_all.start(script, seed=1)
    for command in commands:
        kept_all.execute(command)
    monkeypatch.setattr(timeline, "KEEP_LAST", 2)
    monkeypatch.setattr(timeline, "MOST_CHECKPOINTS", 2)
    few = Session()
    few.start(script, seed=1)
    for command in commands:
        few.execute(command)
    length = len(kept_all._timeline)
    assert len(few._timeline) == length and length > 10
    assert sum(state is not None for state in few._timeline._states) <= 2 + 2 + 2
    steps = sorted({0, 1, 5, length // 3, length // 2, length - 3, length - 1})
    assert _positions(few, steps) == _positions(kept_all, steps)


def test_a_replay_opened_with_few_positions_kept_undoes_and_redoes_exactly(monkeypatch, tmp_path):
    from cardgame.repl import timeline
    s = bouncer()
    s.execute("auto 120")
    path = tmp_path / "long.replay"
    s.execute(f"save {path}")
    monkeypatch.setattr(timeline, "KEEP_LAST", 2)
    monkeypatch.setattr(timeline, "MOST_CHECKPOINTS", 2)
    opened = Session()
    opened.execute(f"open {path}")
    steps = [0, 33, 77, 119, 120]
    assert _positions(opened, steps, events=False) == _positions(s, steps, events=False)
    opened.execute("goto 50")
    opened.execute("redo")  # from a position made again
    s.execute("goto 51")
    assert opened.state.to_json() == s.state.to_json()
