"""The arguments several commands share, each spelt and explained one way: a script FILE (`-`:
standard input), `--format text|json` with `--json` (its older spelling, kept), `--players` and
`--seed`."""

from __future__ import annotations

import sys
from typing import NoReturn

FILE_HELP = "the script (`-`: read it from standard input)"
PLAYERS_HELP = "how many players (default: the fewest the script allows)"
SEED_HELP = "the run's seed (default 0): the same seed, script and options play the same games"
OPTION_HELP = "set one of the script's options (repeat for more; `cardgame rules FILE` lists them)"


def add_format(p, json_help: str, text_help: str = "for people") -> None:
    """`--format text|json` and its alias `--json`, both setting `args.format`."""
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help=f"text (the default): {text_help}; json: {json_help}")
    p.add_argument("--json", dest="format", action="store_const", const="json",
                   help="the same as `--format json` (the older spelling, kept)")


def usage_error(command: str, message: str) -> NoReturn:
    """A usage error found after the arguments were read: E0901 and exit status 2, as argparse's own."""
    print(f"error[E0901]: {message}\n  = help: `cardgame {command} --help` lists the arguments", file=sys.stderr)
    raise SystemExit(2)
