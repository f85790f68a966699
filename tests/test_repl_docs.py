"""docs/repl.md stays true: its scripted sessions are run through piped input and compared.

A session in the docs is a ```text block whose first line is `$ cardgame repl ARGS`; each
following line that starts with `> ` is a command, every other line is output.  The commands
are piped into the real `cardgame repl ARGS`, in a scratch folder holding a copy of games/, and
its output must be exactly the block's output lines.

Regenerate on purpose, after a deliberate change of output:
    CARDGAME_REGEN_DOCS=1 python -m pytest tests/test_repl_docs.py
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest

from helpers import ROOT
from cardgame.repl.commands import COMMANDS

DOC = ROOT / "docs" / "repl.md"
BLOCK = re.compile(r"^```text\n(\$ cardgame repl [^\n]*)\n(.*?)^```$", re.M | re.S)
REGEN = os.environ.get("CARDGAME_REGEN_DOCS") == "1"


def sessions():
    return list(BLOCK.finditer(DOC.read_text()))


def scratch(tmp_path):
    shutil.copytree(ROOT / "games", tmp_path / "games", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "tests" / "scripts", tmp_path / "tests" / "scripts")  # the game of pure chance
    return tmp_path


def piped(args: list[str], commands: list[str], cwd) -> subprocess.CompletedProcess:
    code = "import sys; from cardgame.repl.cli import main; sys.exit(main(sys.argv[1:]))"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-c", code, "repl", *args], input="".join(c + "\n" for c in commands),
                          capture_output=True, text=True, cwd=cwd, env=env, timeout=120)


def transcript(args: list[str], commands: list[str], cwd) -> str:
    """The interleaved transcript, command by command (for regenerating the docs)."""
    from cardgame.repl.option_pairs import parse_option_pairs
    from cardgame.repl.cli import build_parser
    from cardgame.repl.session import Session
    parsed = build_parser().parse_args(["repl", *args])
    here = os.getcwd()
    os.chdir(cwd)
    try:
        s = Session()
        lines = [s.start(parsed.file, players=parsed.players, seed=parsed.seed,
                         options=parse_option_pairs(parsed.option))]
        for command in commands:
            lines.append(f"> {command}")
            out = s.execute(command)
            if out:
                lines.append(out)
            if s.done:
                break
    finally:
        os.chdir(here)
    return "\n".join(lines) + "\n"


def test_the_docs_have_a_session():
    assert sessions(), "docs/repl.md lost its scripted session"


@pytest.mark.parametrize("index", range(len(sessions())))
def test_documented_session_output_is_what_the_repl_prints(index, tmp_path):
    match = sessions()[index]
    args = shlex.split(match.group(1))[3:]
    body = match.group(2).split("\n")[:-1]
    commands = [line[2:] for line in body if line.startswith("> ")]
    expected = [line for line in body if not line.startswith("> ")]
    cwd = scratch(tmp_path)
    if REGEN:
        text = DOC.read_text()
        fresh = transcript(args, commands, cwd)
        DOC.write_text(text[:match.start(2)] + fresh + text[match.end(2):])
        expected = [line for line in fresh.split("\n")[:-1] if not line.startswith("> ")]
        cwd = scratch(tmp_path / "again")
    proc = piped(args, commands, cwd)
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.stderr == ""
    assert proc.stdout.split("\n")[:-1] == expected


def test_every_command_is_documented():
    text = DOC.read_text()
    for c in COMMANDS:
        assert f"`{c.usage}`" in text, f"docs/repl.md does not describe `{c.usage}`"
