"""Running one attack: the command line in-process, timed, with its exit code and output."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from cardgame.repl.cli import main

SCRIPTS = Path(__file__).resolve().parent / "scripts"
# How long an attack runs is recorded (Outcome.seconds) but never asserted: the machine is shared,
# and the bound is the work budget or a count of the work done (tests/hostile/test_linear_loading.py);
# python -m bench times loading and checking.


class Outcome:
    def __init__(self, code, out, err, seconds):
        self.code, self.out, self.err, self.seconds = code, out, err, seconds

    def diagnosed(self, code: str) -> "Outcome":
        """Exit 1 with the diagnostic `code`, and never a traceback."""
        assert "Traceback" not in self.out + self.err
        assert self.code == 1, (self.code, self.err[-2000:])
        assert f"[{code}]" in self.err, self.err[-2000:]
        return self


@pytest.fixture
def cli(capsys):
    """cli(*argv) -> Outcome of `cardgame *argv`."""
    def run(*argv):
        started = time.perf_counter()
        code = main([str(a) for a in argv])
        seconds = time.perf_counter() - started
        captured = capsys.readouterr()
        return Outcome(code, captured.out, captured.err, seconds)
    return run
