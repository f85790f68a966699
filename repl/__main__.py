"""`python -m repl` is the `cardgame` command."""

from repl.cli import entry

entry()
