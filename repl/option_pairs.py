"""`--option NAME=VALUE` arguments, read one way by every command (the game checks the values)."""

from __future__ import annotations

import sys


def parse_option_pairs(pairs) -> dict[str, str]:
    """NAME -> VALUE text; ValueError carries the malformed pair."""
    out = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise ValueError(pair)
        out[name.strip()] = value.strip()
    return out


def option_pairs_or_exit(pairs) -> dict[str, str]:
    """The same for a command line: a malformed pair is E0902 and exit status 2."""
    try:
        return parse_option_pairs(pairs)
    except ValueError as err:
        print(f"error[E0902]: `--option {err}` is not NAME=VALUE\n"
              f"  = help: for example `--option hands=10`", file=sys.stderr)
        raise SystemExit(2) from None
