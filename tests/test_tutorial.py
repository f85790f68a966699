"""docs/tutorial.md stays true: its scripts are built and its commands run, in order, and each
command must print what the page shows.

- A ```cardgame block whose first line is `# NAME.cardgame...` is added to the file NAME.cardgame
  (a new file, or the end of one an earlier block began), as a reader following the page does.
- A ```console block is commands (`$ ...`, run by the shell in a scratch folder holding the
  files the blocks above it made) each followed by its output (standard output and error as
  a terminal shows them), which must match line for line; a line `...` stands for any lines,
  none included.
- A ```text block that starts with `$ cardgame repl ARGS` is a REPL session as in docs/repl.md:
  the `> ` lines are piped in and the other lines must be the output exactly.

`cardgame` is this interpreter's (`python -m cardgame.repl`), colours off.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys

import pytest

from helpers import ROOT

TUTORIAL = ROOT / "docs" / "tutorial.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)
FILE_LINE = re.compile(r"^# (\S+\.cardgame)\b")


def _blocks() -> list[tuple[str, int, str]]:
    """(language, line, text) of each fenced block of the tutorial, in order."""
    text = TUTORIAL.read_text(encoding="utf-8")
    return [(m.group(1), text.count("\n", 0, m.start()) + 1, m.group(2)) for m in FENCE.finditer(text)]


def _files_before(index: int) -> dict[str, str]:
    """The files the tutorial's script blocks above block `index` make."""
    files: dict[str, str] = {}
    for lang, line, text in _blocks()[:index]:
        if lang == "cardgame":
            name = FILE_LINE.match(text)
            assert name, f"tutorial.md:{line}: a script block names its file on its first line"
            files[name.group(1)] = files.get(name.group(1), "") + ("\n" if name.group(1) in files else "") + text
    return files


def _run_cases():
    return [pytest.param(k, id=f"tutorial.md:{line}") for k, (lang, line, text) in enumerate(_blocks())
            if lang == "console" or lang == "text" and text.startswith("$ cardgame repl ")]


@pytest.fixture
def folder(tmp_path):
    """A scratch folder with `cardgame` on the path, running this checkout's interpreter."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "cardgame"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m cardgame.repl "$@"\n')
    shim.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}", NO_COLOR="1", COLUMNS="100")
    return work, env


def _commands(text: str) -> list[tuple[str, list[str]]]:
    """A console block as [(command, the output lines it shows)]."""
    out: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], []))
        else:
            assert out, "a console block starts with a command"
            out[-1][1].append(line)
    return out


def _matches(shown: list[str], printed: list[str]) -> bool:
    """Do the printed lines match the shown ones, where a shown `...` stands for any lines?"""
    if not shown:
        return not printed
    if shown[0] == "...":
        return any(_matches(shown[1:], printed[k:]) for k in range(len(printed) + 1))
    return bool(printed) and shown[0] == printed[0] and _matches(shown[1:], printed[1:])


def test_the_tutorial_builds_a_game_checks_plays_simulates_lints_and_varies_it():
    blocks = _blocks()
    commands = " ".join(text for lang, _, text in blocks if lang in ("console", "text"))
    for step in ("cardgame check", "cardgame play", "cardgame repl", "cardgame rules", "cardgame simulate",
                 "cardgame lint", "cardgame compare"):
        assert f"$ {step} " in commands, step
    assert any(lang == "cardgame" and "\nreplace " in text for lang, _, text in blocks)


@pytest.mark.parametrize("index", [c.values[0] for c in _run_cases()], ids=[c.id for c in _run_cases()])
def test_each_command_prints_what_the_tutorial_shows(index, folder):
    work, env = folder
    for name, text in _files_before(index).items():
        (work / name).write_text(text, encoding="utf-8")
    lang, line, text = _blocks()[index]
    if lang == "text":  # a REPL session, piped
        first, *rest = text.splitlines()
        typed = [x[2:] for x in rest if x.startswith("> ")]
        shown = [x for x in rest if not x.startswith("> ")]
        done = subprocess.run(shlex.split(first[2:]), input="".join(c + "\n" for c in typed), capture_output=True,
                              text=True, cwd=work, env=env, timeout=300)
        printed = done.stdout.splitlines()
        assert printed == shown, f"tutorial.md:{line}: the REPL printed\n" + "\n".join(printed)
        return
    for command, shown in _commands(text):
        done = subprocess.run(command, shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              cwd=work, env=env, timeout=300)
        printed = done.stdout.splitlines()
        assert _matches(shown, printed), f"tutorial.md:{line}: `{command}` printed\n" + "\n".join(printed)
