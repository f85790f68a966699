"""`cardgame lint FILE [-n N]`: check the script, then play it N times per setup (every player
count, every option combination that can change play) and report what the games showed, as
diagnostics at source locations.  Exit codes as for `check`: 1 if there is an error (a script
error, or a fault in play), with `--strict` also for a warning; else 0."""

from __future__ import annotations

import json
import sys

from cardgame import interpreter

from .results import plural
from .runs import add_run_args, dask_client, progress_bar

DEFAULT_GAMES = 20  # per setup


def register(sub, helpers) -> None:
    p = sub.add_parser("lint", help="play a script many times and report what play shows (dead rules, faults, ...)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--seed", type=helpers.seed, default=0, metavar="S")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="hold an option at this value instead of trying its values")
    add_run_args(p, helpers.positive)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--strict", action="store_true", help="treat warnings as errors")
    p.set_defaults(handler=lambda args: run(args, helpers))


def run(args, helpers) -> int:
    tables, _items, sources, diags = interpreter.check_file(args.file)
    if any(d.severity == "error" for d in diags):
        return _report(args, diags, sources, None)
    game = interpreter.load(args.file)
    fixed = game.read_options(helpers.options(args.option))
    games = args.games or DEFAULT_GAMES
    total = games * len(interpreter.lint_setups(game, fixed))
    with dask_client(args) as client, progress_bar(total, "lint", args) as progress:
        report = interpreter.lint(game, games, args.seed, fixed, args.policy,
                                  args.max_decisions or interpreter.LINT_MAX_DECISIONS,
                                  interpreter.usable_workers(args.workers), client, progress)
    return _report(args, diags + report.diagnostics, game.sources, report)


def _report(args, diags, sources, report) -> int:
    failed = any(d.severity == "error" or args.strict for d in diags)
    if args.format == "json":
        out = {"file": args.file, "ok": not failed, "diagnostics": [d.to_json() for d in diags]}
        if report is not None:
            out.update(setups=report.setups, games=report.games, decisions=report.decisions,
                       outcomes=report.outcomes)
        print(json.dumps(out, indent=2))
        return 1 if failed else 0
    for d in diags:
        print(interpreter.render(d, sources), file=sys.stderr)
        print(file=sys.stderr)
    errors = sum(d.severity == "error" for d in diags)
    warnings = sum(d.severity == "warning" for d in diags)
    played = "" if report is None else (f"; played {plural(report.games, 'game')} ({plural(report.setups, 'setup')}, "
                                        f"{report.decisions:,} decision{'' if report.decisions == 1 else 's'})")
    print(f"{args.file}: {'failed' if failed else 'ok'} ({errors} error(s), {warnings} warning(s)){played}")
    return 1 if failed else 0
