"""Hostile lines typed or piped into the REPL, and expressions asked of the engine: a NUL in a
path, numbers past what int() reads, a command or an expression longer than a script, a piped
line of a gigabyte; each an answer, never a traceback or a hang."""

from __future__ import annotations

import pytest

from cardgame import interpreter
from helpers import GAMES, WAR

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


@pytest.mark.parametrize("line", [
    'eval "' + "a" * 5_000_000 + '"',                  # took 15 s and 2 GB, then printed 5 MB
    "eval " + " + ".join(["1"] * 400_000),            # took 69 s to reach E0111
    "show " + "z" * 1_000_000,                        # quoted back whole
])
def test_a_command_longer_than_a_script_is_refused_before_it_is_read(line):
    from cardgame.repl.session import Session
    session = Session()
    session.execute(f"load {WAR}")
    said = session.execute(line)
    assert said.startswith("error: a command is at most 131,072 characters") and len(said) < 300
    assert session.failed and session.last_failed
    assert session.execute("eval 1 + 1") == "2"


def test_an_expression_longer_than_a_script_is_e0112_in_the_api():
    state = interpreter.load(str(WAR)).new_game(players=2, seed=1)
    _value, diags = state.evaluate("1" + " + 1" * 40_000)
    assert [d.code for d in diags] == ["E0112"]


class _EndlessLine:
    """Standard input holding `eval 1`, a line of `size` characters, then `eval 2`, made as it is
    read: a reader that asked for the whole long line at once would hold all of it."""

    def __init__(self, size: int):
        self.parts, self.left, self.asked = ["eval 1\n"], size, []

    def readline(self, most: int = -1) -> str:
        self.asked.append(most)
        if self.parts:
            return self.parts.pop()
        if self.left:
            piece = min(self.left, most)
            self.left -= piece
            return "a" * piece + ("\n" if not self.left else "")
        text, self._done = ("eval 2\n", True) if not getattr(self, "_done", False) else ("", True)
        return text


def test_a_piped_line_of_a_gigabyte_is_read_in_pieces_and_refused(capsys):
    import io

    from cardgame.repl.app import run_piped
    from cardgame.repl.session import MAX_LINE, Session
    session = Session()
    session.execute(f"load {WAR}")
    stdin, out = _EndlessLine(10 ** 9), io.StringIO()
    assert run_piped(session, "", stdin, out) == 1
    said = out.getvalue().splitlines()
    assert said[0] == "1" and said[-1] == "2"
    assert "this one has 1,000,000,001" in out.getvalue()  # the newline counted, as in a typed line
    assert max(stdin.asked) == MAX_LINE + 1
