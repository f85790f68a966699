"""Hostile lines typed at the REPL: a NUL in a path, numbers past what int() reads: each an answer,
never a traceback."""

from __future__ import annotations

import pytest

from helpers import GAMES

BOUNCER = str(GAMES / "bouncer.cardgame")


@pytest.mark.parametrize("line", ["load x\0y.cardgame", "open \0", "save a\0b.json"])
def test_a_nul_in_a_repl_path_is_an_error(line):
    from cardgame.repl.session import Session
    session = Session()
    session.start(BOUNCER, seed=1)
    out = session.execute(line)  # was ValueError: embedded null byte
    assert "NUL" in out and "Traceback" not in out


HUGE = "9" * 5000  # past the 4,300 digits int() reads


@pytest.mark.parametrize("line", [f"goto {HUGE}", f"undo {HUGE}", f"step {HUGE}", f"log -n {HUGE}", f"auto {HUGE}",
                                  f"play #{HUGE}", f"play {HUGE}", f"why {HUGE}", f"unwatch {HUGE}",
                                  f"unbreak {HUGE}", f"view P{HUGE}", f"show hand P{HUGE}", f"seat P{HUGE} random",
                                  "goto ²", "undo ²", "step ³", "log -n ²", "auto ¹", "view P²"])
def test_a_number_int_cannot_read_is_an_answer_not_a_traceback(line):
    from cardgame.repl.session import Session
    session = Session()
    session.start(BOUNCER, seed=1)
    out = session.execute(line)  # each was a ValueError from int()
    assert "Traceback" not in out


def test_numbers_past_any_count_still_read_as_numbers():
    from cardgame.repl.session import Session
    session = Session()
    session.start(BOUNCER, seed=1)
    assert session.execute("goto 99999999999999999999") == "error: there is no step 99999999999999999999; steps run from 0 to 0"
    assert "there is no move #" + HUGE in session.execute(f"play #{HUGE}")
