"""What an install of the project puts on the path: the one `cardgame` namespace, with every
folder of the repository under it and the shipped games and grammar as package data, and no
generic top-level package (`interpreter`, `repl`, ...) to clash with another project's.

Run it from outside the repository (its folders would be found from the current directory):
.ci/run does so for a normal install, tests/test_layers.py for the install the suite runs on."""

import contextlib
import importlib.util
import io
import os
import sys
import tempfile
from importlib.resources import files

GENERIC = ("interpreter", "repl", "grammar", "games", "authoring")

clashing = [name for name in GENERIC if importlib.util.find_spec(name) is not None]
assert clashing == [], f"installed as top-level packages: {clashing}"

from cardgame import interpreter  # noqa: E402
from cardgame.repl.cli import main  # noqa: E402

shipped = files("cardgame.games")
for name in ("bouncer", "booray", "bosspoker", "bohei"):
    game = interpreter.load(str(shipped / f"{name}.cardgame"))
    state = game.new_game(seed=1)
    assert state.legal_moves(), name
assert (files("cardgame.grammar") / "cardgame.lark").is_file()
with tempfile.TemporaryDirectory() as folder, contextlib.redirect_stdout(io.StringIO()):  # the replay page's code is data
    page = os.path.join(folder, "bouncer.html")
    assert main(["play", str(shipped / "bouncer.cardgame"), "--seed", "1", "--html", page]) == 0
    assert 'class="cg-data"' in open(page, encoding="utf-8").read()
assert main(["check", str(shipped / "bohei.cardgame")]) == 0
print(f"ok: cardgame from {interpreter.__file__.rsplit('/interpreter/', 1)[0]}", file=sys.stderr)
