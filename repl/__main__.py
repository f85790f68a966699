"""`python -m cardgame.repl` is the `cardgame` command."""

from cardgame.repl.cli import entry

entry()
