"""`cardgame lint FILE [-n N]`: check the script, then play it N times per setup (every player
count, every option combination that can change play) and report what the games showed, as
diagnostics at source locations.  Exit codes as for `check`: 1 if there is an error (a script
error, or a fault in play), with `--strict` also for a warning; else 0."""

from __future__ import annotations

import json
import sys

import attrs

from cardgame import interpreter

from .arguments import FILE_HELP, SEED_HELP, add_format
from .colour import add_color_arg
from .results import plural
from .runs import add_run_args, agents_of, dask_client, progress_bar, workers_here
from .stdin_script import NAME, script_source

DEFAULT_GAMES = 20  # per setup
# interpreter.LINT_MAX_DECISIONS, as `--help` shows it: reading it would import the engine into
# every command, `check` too (tests/test_cli_conventions.py keeps the two equal)
DECISIONS_SHOWN = 10_000


def register(sub, helpers) -> None:
    p = sub.add_parser("lint", help="play a script many times and report what play shows (dead rules, faults, ...)",
                       description="Check a script, then play every setup (each player count, each option "
                                   "value that can change play) N times and report what the games showed: "
                                   "faults, games that never end, rules that never forbid anything, phases "
                                   "never reached, ... as diagnostics at their lines (docs/simulate.md#lint). "
                                   "Exit status 1 for an error (with --strict, also a warning).")
    p.add_argument("file", metavar="FILE", help=FILE_HELP)
    p.add_argument("--seed", type=helpers.seed, default=0, metavar="S", help=SEED_HELP)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="hold an option at this value instead of trying its values")
    add_run_args(p, helpers.positive, f"how many games of each setup (default {DEFAULT_GAMES})", DECISIONS_SHOWN)
    add_format(p, "one JSON object: {file, ok, diagnostics, setups, games, decisions, outcomes} "
                  "(docs/simulate.md#lint)",
               "the diagnostics on standard error, then a summary line")
    p.add_argument("--strict", action="store_true", help="treat warnings as errors")
    add_color_arg(p)
    p.set_defaults(handler=lambda args: run(args, helpers))


def run(args, helpers) -> int:
    name, text = script_source(args.file)
    workers = workers_here(args, "lint", text is not None)
    tables, _items, sources, diags = interpreter.check_file(name, text)
    if any(d.severity == "error" for d in diags):
        return _report(args, name, diags, sources, None)
    game = interpreter.load(name, text)
    fixed = game.read_options(helpers.options(args.option))
    games = args.games or DEFAULT_GAMES
    listed = args.agents.split(",") if args.agents else []
    agents = agents_of(args, len(listed) or game.min_players)
    total = games * len(interpreter.lint_setups(game, fixed))
    if agents is not None:
        total = games * sum(players == len(agents) for players, _o in interpreter.lint_setups(game, fixed))
    with dask_client(args) as client, progress_bar(total, "lint", args) as progress:
        report = interpreter.lint(game, games, args.seed, fixed, args.policy,
                                  args.max_decisions or interpreter.LINT_MAX_DECISIONS, workers, client, progress,
                                  backend=args.backend, agents=agents)
    found = report.diagnostics if text is None else [_replayed_from_stdin(d) for d in report.diagnostics]
    return _report(args, name, diags + found, game.sources, report)


def _replayed_from_stdin(d):
    """A fault's hint replays the game with `cardgame play PATH`: for a script from standard
    input, `cardgame play -` (given the same script again)."""
    return attrs.evolve(d, hint=d.hint.replace(f"cardgame play {NAME} ", "cardgame play - ")) if d.hint else d


def _report(args, name, diags, sources, report) -> int:
    failed = any(d.severity == "error" or args.strict for d in diags)
    if args.format == "json":
        out = {"file": name, "ok": not failed, "diagnostics": [d.to_json() for d in diags]}
        if report is not None:
            out.update(setups=report.setups, games=report.games, decisions=report.decisions,
                       outcomes=report.outcomes, backend=report.backend, backend_reason=report.backend_reason)
        print(json.dumps(out, indent=2))
        return 1 if failed else 0
    for d in diags:
        print(interpreter.render(d, sources), file=sys.stderr)
        print(file=sys.stderr)
    errors = sum(d.severity == "error" for d in diags)
    warnings = sum(d.severity == "warning" for d in diags)
    played = "" if report is None else (f"; played {plural(report.games, 'game')} ({plural(report.setups, 'setup')}, "
                                        f"{report.decisions:,} decision{'' if report.decisions == 1 else 's'})")
    print(f"{name}: {'failed' if failed else 'ok'} ({errors} error(s), {warnings} warning(s)){played}")
    return 1 if failed else 0
