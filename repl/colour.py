"""When the command line colours its output: `--color auto|always|never` on every command.

`auto` (the default) colours only on a terminal, and never when the NO_COLOR environment
variable is set to anything but the empty string (https://no-color.org); `always` and `never`
override both, as a command-line argument overrides the environment.  What is coloured:
`play --table`'s red suits and the REPL at a terminal; the other commands print no colour.
"""

from __future__ import annotations

import os

CHOICES = ("auto", "always", "never")


def add_color_arg(p, coloured: str | None = None) -> None:
    """`--color` on a command; `coloured` says what it colours (None: nothing, taken anyway so
    that every command takes the same arguments)."""
    when = "auto (the default): on a terminal, unless NO_COLOR is set"
    p.add_argument("--color", choices=CHOICES, default="auto",
                   help=f"when to colour {coloured}; {when}" if coloured else
                        f"when to colour; {when} (this command has nothing to colour, and takes it as every "
                        f"command does)")


def no_color_set() -> bool:
    """NO_COLOR present and not empty (https://no-color.org)."""
    return bool(os.environ.get("NO_COLOR"))


def wanted(choice: str, stream) -> bool:
    """Whether to colour what goes to `stream` under `--color choice`."""
    if choice != "auto":
        return choice == "always"
    isatty = getattr(stream, "isatty", None)
    return not no_color_set() and isatty is not None and isatty()
