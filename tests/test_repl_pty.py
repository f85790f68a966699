"""End to end: `cardgame repl games/bouncer.cardgame` in a pseudo-terminal, as a person uses it."""

from __future__ import annotations

import os
import re
import select
import shutil
import subprocess
import sys
import time

import pytest

from helpers import ROOT

pty = pytest.importorskip("pty")
if sys.platform.startswith("win"):  # pragma: no cover
    pytest.skip("no pseudo-terminals here", allow_module_level=True)

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[=>()][0-9A-Za-z]?|\r")
TIMEOUT = 30.0


class Terminal:
    """A child process on a pseudo-terminal, with `expect` over its de-escaped output."""

    def __init__(self, argv, env, columns: int = 160, rows: int = 40):
        import fcntl
        import struct
        import termios
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=ROOT,
                                     close_fds=True, start_new_session=True)
        os.close(slave)
        self.master = master
        self.seen = ""  # everything read so far, escape sequences removed
        self.mark = 0  # `expect` searches after this point

    def _read(self, timeout):
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:  # the child closed the terminal
            return None
        if not data:
            return None
        if b"\x1b[6n" in data:  # answer the cursor-position request, as a terminal does
            os.write(self.master, b"\x1b[5;1R")
        self.seen += ANSI.sub("", data.decode("utf-8", "replace"))
        return True

    def expect(self, text: str, timeout: float = TIMEOUT) -> str:
        deadline = time.monotonic() + timeout
        while True:
            found = self.seen.find(text, self.mark)
            if found >= 0:
                chunk = self.seen[self.mark:found + len(text)]
                self.mark = found + len(text)
                return chunk
            left = deadline - time.monotonic()
            if left <= 0 or self._read(min(left, 0.5)) is None:
                raise AssertionError(f"never saw {text!r}; the terminal showed:\n{self.seen[-3000:]}")

    def settle(self, quiet: float = 0.5, timeout: float = TIMEOUT):
        """Read until the terminal has been quiet for `quiet` seconds, so the prompt is drawn and
        waiting: keys that arrive together with the one ending the previous prompt are dropped
        with it (on a busy machine, ^C and ^D may come in one read)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self._read(quiet):
            pass

    def send(self, text: str):
        os.write(self.master, text.encode())

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=TIMEOUT)
        os.close(self.master)


def start(tmp_path, columns: int = 160, rows: int = 40, game: str = "games/bouncer.cardgame", **env) -> Terminal:
    exe = shutil.which("cardgame")
    argv = [exe] if exe else [sys.executable, "-c", "from cardgame.repl.cli import entry; entry()"]
    env = dict(os.environ, TERM="xterm", CARDGAME_HISTORY=str(tmp_path / "history"), HOME=str(tmp_path), **env)
    env.pop("PROMPT_TOOLKIT_NO_CPR", None)
    return Terminal(argv + ["repl", game, "--seed", "1"], env, columns, rows)


@pytest.fixture
def terminal(tmp_path):
    term = start(tmp_path)
    yield term
    term.close()


def test_play_why_undo_quit_in_a_terminal(terminal, tmp_path):
    t = terminal
    t.expect("loaded Bouncer")
    t.expect("bouncer 0 P0 [all]>")
    t.send("moves\r")
    t.expect("1. play ")
    t.expect("bouncer 0 P0 [all]>")
    t.send("play 1\r")
    t.expect("1. P0: play ")
    t.expect("bouncer 1 P1 [all]>")
    t.send("moves --all\r")
    t.expect("forbidden by follow_suit")
    t.expect("bouncer 1 P1 [all]>")
    t.send("play 1\r")
    t.expect("bouncer 2 P2 [all]>")
    t.send("why 1\r")
    t.expect("legal: ")
    t.expect("`why more`: every rule's verdict")
    t.send("why full\r")
    t.expect("rule follow_suit: PASS")
    t.expect("require c.suit == led")
    t.expect("bouncer 2 P2 [all]>")
    t.send("undo\r")
    t.expect("undid 1 move")
    t.expect("bouncer 1 P1 [all]>")
    t.send("watch count(points)\r")
    t.expect("watch 1: count(points) = 12")
    t.expect("phase trick  │ to act P1  │ scores P0 0, P1 0, P2 0  │ view all  │ count(points) 12")
    t.send("quit\r")
    t.expect("2 steps made since the game was last saved; quit anyway?")  # nothing is thrown away unasked
    t.send("y")
    assert t.proc.wait(timeout=TIMEOUT) == 0
    history = (tmp_path / "history").read_text()
    assert "why 1" in history and "undo" in history  # persistent history


def test_ctrl_c_cancels_the_line_and_ctrl_d_quits(terminal):
    t = terminal
    t.expect("bouncer 0 P0 [all]>")
    t.send("this is never run")
    t.expect("never run")
    t.send("\x03")
    t.expect("bouncer 0 P0 [all]>")
    t.settle()
    t.send("\x04")
    assert t.proc.wait(timeout=TIMEOUT) == 0
    assert "unknown command" not in t.seen


def _printed(chunk: str, first: str) -> list[str]:
    """The lines a command printed, from the one starting with `first`; lines where the prompt
    was redrawn in between (a busy machine) are left out."""
    lines = chunk.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(first))
    return [line for line in lines[start:] if "P0 [all]>" not in line]


@pytest.mark.parametrize("columns", [80, 140])
def test_at_80_and_140_columns_the_toolbar_keeps_the_watches_and_everything_fits(tmp_path, columns):
    from cardgame.repl.commands import COMMANDS
    t = start(tmp_path, columns)
    try:
        t.expect("bouncer 0 P0")
        t.send("watch count(points)\r")
        t.expect("watch 1: count(points) = 12")
        t.expect("count(points) 12")  # the toolbar, redrawn with the watch in it
        t.send("help\r")
        lines = _printed(t.expect("leave the REPL (Ctrl-D does too)"), "commands (`help COMMAND`")
        assert all(len(line) <= columns for line in lines), [line for line in lines if len(line) > columns]
        words = set(" ".join(lines).split())
        assert all(set(c.summary.split()) <= words for c in COMMANDS)  # no summary broken mid-word
        t.send("state\r")
        lines = _printed(t.expect("first_leader = P0"), "Bouncer · step 0")
        assert all(len(line) <= columns for line in lines)
        assert "6♣ 7♣ 8♣ J♣" in "\n".join(lines)
        t.expect("count(points) 12")  # still in the toolbar after a long output
        t.send("quit\r")
        assert t.proc.wait(timeout=TIMEOUT) == 0
    finally:
        t.close()
