"""`import interpreter` imports a name's module at its first use: `cardgame check` of an unchanged
script loads neither the engine nor lark, and the package still offers what the eager imports did."""

from __future__ import annotations

import subprocess
import sys

from cardgame import interpreter
from helpers import ROOT

CHECK_ONLY = """
import sys
from cardgame.repl.cli import main
assert main(["check", sys.argv[1]]) == 0
assert main(["check", sys.argv[1]]) == 0
print(sorted(m for m in ("cardgame.interpreter.engine", "cardgame.interpreter.codegen",
                         "cardgame.interpreter.studies.simulate", "lark")
             if m in sys.modules))
"""


def test_check_of_an_unchanged_script_imports_neither_the_engine_nor_lark(tmp_path):
    env = {"CARDGAME_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    script = str(ROOT / "games" / "bouncer.cardgame")
    subprocess.run([sys.executable, "-c", CHECK_ONLY, script], cwd=ROOT, env=env, check=True, capture_output=True)
    again = subprocess.run([sys.executable, "-c", CHECK_ONLY, script], cwd=ROOT, env=env, check=True,
                           capture_output=True, text=True)
    assert again.stdout.strip().splitlines()[-1] == "[]"


def test_every_exported_name_resolves_and_the_functions_stay_functions():
    import importlib
    for name in interpreter.__all__:
        assert getattr(interpreter, name) is not None
    importlib.import_module("cardgame.interpreter.studies.simulate")
    importlib.import_module("cardgame.interpreter.studies.lint")
    importlib.import_module("cardgame.interpreter.studies.compare")
    assert callable(interpreter.simulate) and callable(interpreter.lint) and callable(interpreter.compare)
    assert interpreter.studies.__name__ == "cardgame.interpreter.studies"  # a stage of the package
