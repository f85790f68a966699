"""The compiled backend's compiler (llvmlite) is imported only by what plays compiled games:
`check`, `play`, `repl`, `fmt` and `lsp` never import it (nor numba, nor the kernel modules), and
`simulate` does (issue 35: a command that compiles nothing pays nothing for the compiler)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import ROOT

COMPILER_MODULES = ("llvmlite", "numba", "cardgame.interpreter.studies.compiled",
                    "cardgame.interpreter.codegen.kernel_native", "cardgame.interpreter.codegen.kernel_gen")

_RUN = """
import atexit, sys
names = {names!r}
atexit.register(lambda: sys.stderr.write("\\nIMPORTED " + repr(sorted(m for m in names if m in sys.modules)) + "\\n"))
{body}
"""

_CLI = "from cardgame.repl.cli import main\nsys.exit(main(sys.argv[1:]))"

_LSP = """
from cardgame.authoring.analysis import Analysis
from cardgame.authoring.lsp import build_server, diagnostics
build_server()
path = sys.argv[1]
analysis = Analysis(path, open(path, encoding="utf-8").read())
diagnostics(analysis)
"""

BOUNCER = str(ROOT / "games" / "bouncer.cardgame")


def _imported(body: str, args: list[str], tmp_path, stdin: str = "") -> list[str]:
    env = {"CARDGAME_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", _RUN.format(names=COMPILER_MODULES, body=body), *args], cwd=ROOT,
                          env=env, input=stdin, capture_output=True, text=True, timeout=300)
    line = [x for x in done.stderr.splitlines() if x.startswith("IMPORTED ")]
    assert line, done.stderr[-2000:]
    return eval(line[-1][len("IMPORTED "):])


@pytest.mark.parametrize("args,stdin", [
    (["check", BOUNCER], ""),
    (["play", BOUNCER, "--seed", "3"], ""),
    (["repl", BOUNCER], "moves\nplay 0\nquit\n"),
    (["fmt", "--check", BOUNCER], ""),
], ids=["check", "play", "repl", "fmt"])
def test_commands_that_compile_nothing_never_import_the_compiler(args, stdin, tmp_path):
    assert _imported(_CLI, args, tmp_path, stdin) == []


def test_the_language_server_never_imports_the_compiler(tmp_path):
    assert _imported(_LSP, [BOUNCER], tmp_path) == []


def test_simulate_imports_the_compiler(tmp_path):
    """The test above would pass with no compiled backend at all: simulate does import it."""
    found = _imported(_CLI, ["simulate", BOUNCER, "-n", "2", "--no-progress"], tmp_path)
    assert "llvmlite" in found and "cardgame.interpreter.studies.compiled" in found and "numba" not in found
