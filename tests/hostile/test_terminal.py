"""Terminal safety: no control or invisible character from a script or a file reaches the screen raw,
and output the terminal cannot encode is replaced, not a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
import unicodedata

import pytest

from cardgame.interpreter import printable
from cardgame.interpreter.language.source import UNSEEN
from helpers import GAMES

BLANK_LETTERS = {0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800}
BOUNCER = str(GAMES / "bouncer.cardgame")


def test_the_written_out_pattern_is_exactly_the_unseen_characters():
    expected = {code for code in range(sys.maxunicode + 1)
                if chr(code) not in "\t\n\r "
                and (unicodedata.category(chr(code)) in ("Cc", "Cf", "Zl", "Zp", "Zs", "Co", "Cs")
                     or code in BLANK_LETTERS)}
    # Characters assigned by a newer Unicode than the one the pattern was written from may be
    # missing; every one the pattern names must still be unseen.
    matched = {code for code in range(sys.maxunicode + 1) if UNSEEN.fullmatch(chr(code))}
    assert matched <= expected | {c for c in matched if unicodedata.category(chr(c)) == "Cn"}
    assert expected - matched == set() or unicodedata.unidata_version > "14.0.0"


def test_printable_escapes_and_keeps_layout():
    assert printable("a\x1b]0;x\x07b\u200bc\td\ne\u202e") == "a\\x1b]0;x\\x07b\\u200bc\td\ne\\u202e"
    assert printable("plain ♠ text") == "plain ♠ text"


@pytest.mark.parametrize("command", [["play", "--seed", "1", "--table", BOUNCER], ["rules", BOUNCER]])
def test_output_the_terminal_cannot_encode_is_replaced_not_a_traceback(command, tmp_path):
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "CARDGAME_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "cardgame.repl", *command], env=env, capture_output=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr[-2000:]
    assert b"?" in done.stdout  # a suit symbol, a dot or a quotation mark shown as `?`
