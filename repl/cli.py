"""The `cardgame` command: check, play, replay, simulate, lint, compare and repl (and the authoring
tools of authoring/cli.py).

Exit codes: 0 success, 1 a problem with the input (script, options, saved game), 2 a usage
error.  Every problem is printed as a diagnostic; no traceback reaches the user.  What every
command shares (`-` for standard input, `--format`, `--color`, `--version`) is in docs/cli.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from types import SimpleNamespace

from cardgame import interpreter
from cardgame.authoring import cli as authoring
from cardgame.interpreter import ScriptError, render

from . import arguments, compare_cmd, lint_cmd, replay_cmd, simulate_cmd, stdin_script
from .colour import add_color_arg, wanted as colour_wanted
from .option_pairs import option_pairs_or_exit
from .results import declares_score, plural, result_record, scores_text, winners_text


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"error[E0901]: {message}\n  = help: `{self.prog} --help` lists the arguments", file=sys.stderr)
        raise SystemExit(2)



def _nonneg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`{text}` is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"`{text}` must not be negative")
    return value


def _seed(text: str) -> int:
    value = _nonneg(text)
    largest = interpreter.SEEDS - 1
    if value > largest:
        raise argparse.ArgumentTypeError(f"`{text}` is more than {largest}, the largest seed (the generator's "
                                         f"state is 64 bits: a larger seed would repeat a smaller one's game)")
    return value


def _positive(text: str) -> int:
    value = _nonneg(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"`{text}` must be at least 1")
    return value


EPILOG = """\
FILE `-` reads the script from standard input (its diagnostics name it <stdin>; its includes
are found from the current folder). Every command that prints results takes --format text|json
(--json is the same as --format json), and every command takes --color auto|always|never
(auto: colour only on a terminal, and never when NO_COLOR is set).

exit status: 0 done; 1 a problem found (an error in a script, a game that faulted, a file
`fmt --check` or `--diff` would change); 2 a usage error (an unknown argument, a bad value).
`cardgame COMMAND --help` describes one command; docs/cli.md all of them."""


class _Version(argparse.Action):
    """`--version`: the installed package's version (pyproject.toml's, from the package's
    metadata), read only when asked: importing importlib.metadata costs tens of milliseconds,
    which every other command would pay."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest, default=argparse.SUPPRESS, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from importlib.metadata import PackageNotFoundError, version
        try:
            found = version("cardgame")
        except PackageNotFoundError:  # run from a checkout that was never installed
            found = "unknown (not installed)"
        print(f"cardgame {found}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="cardgame", description="Check, play and simulate card games written in the cardgame language.",
                     epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action=_Version, help="print the installed version and exit")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    check = sub.add_parser("check", help="check scripts and report every problem found",
                           description="Check scripts and report every problem found: each as a diagnostic with "
                                       "its source line, on standard error, then a line per script. Exit status 1 "
                                       "when a script has an error (with --strict, also a warning).")
    check.add_argument("files", nargs="+", metavar="FILE", help="the scripts (`-`: one read from standard input)")
    arguments.add_format(check, "one JSON array, an object per script: {file, ok, diagnostics} (docs/cli.md)",
                         "the diagnostics on standard error, a line per script")
    check.add_argument("--strict", action="store_true", help="treat warnings as errors")
    check.add_argument("--states", action="store_true", help="also print the compiled state machine")
    add_color_arg(check)

    def game_args(p, seed_help=arguments.SEED_HELP):
        p.add_argument("file", metavar="FILE", help=arguments.FILE_HELP)
        p.add_argument("--players", type=_positive, default=None, metavar="N", help=arguments.PLAYERS_HELP)
        p.add_argument("--seed", type=_seed, default=0, metavar="S", help=seed_help)
        p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help=arguments.OPTION_HELP)
        p.add_argument("--max-work", type=_positive, default=None, metavar="N",
                       help=f"work budget per move (default: the script's, else "
                            f"{interpreter.limits.MAX_WORK_PER_MOVE:,}; at most {interpreter.limits.HARD_MAX_WORK_PER_MOVE:,})")
        p.add_argument("--max-game-work", type=_positive, default=None, metavar="N",
                       help=f"work budget per game (default: the script's, else "
                            f"{interpreter.limits.MAX_WORK_PER_GAME:,}; at most {interpreter.limits.HARD_MAX_WORK_PER_GAME:,})")

    play = sub.add_parser("play", help="play one whole game between random players and print the log",
                          description="Play one whole game between random players and print its log: each move, "
                                      "and each line the script logs, then the scores and winners. The same "
                                      "script, --seed, --players and --option play the same game.")
    game_args(play, "the game's seed (default 0): the same seed plays the same game")
    arguments.add_format(play, "one JSON object per line: the game, then each move, then the result "
                               "(docs/cli.md#play---format-json)")
    play.add_argument("--save", metavar="FILE", help="also save the game as a replay (`open FILE` in the REPL)")
    play.add_argument("--table", action="store_true", help="draw the table (as the view sees it) before each move")
    play.add_argument("--ascii", action="store_true", help="card names as written, no suit symbols or colour")
    play.add_argument("--view", type=_view_arg, default="all", metavar="SEAT",
                      help="log only what one seat (P0, P1...) or a spectator knew; default: all (the full record)")
    play.add_argument("--html", metavar="OUT.html", help="also write the game as one HTML page to step through, "
                      "every view, or --view's only (docs/replay.md)")
    add_color_arg(play, "the red suits of --table")
    helpers = SimpleNamespace(game_args=game_args, positive=_positive, seed=_seed, options=option_pairs_or_exit,
                              over_cap=_over_cap, view=_view_arg)
    for module in (simulate_cmd, lint_cmd, compare_cmd, replay_cmd):  # each command in its own module
        module.register(sub, helpers)
    repl = sub.add_parser("repl", help="step through a game interactively",
                          description="Step through a game interactively: make moves, ask `why` a move is legal "
                                      "or not, undo, save and open replays (docs/repl.md). From a pipe or a file, "
                                      "it runs the commands it reads, one a line.")
    repl.add_argument("file", nargs="?", metavar="FILE",
                      help="the script to load (else `load FILE` at the prompt); not `-`: the REPL reads its "
                           "commands from standard input")
    repl.add_argument("--players", type=_positive, default=None, metavar="N", help=arguments.PLAYERS_HELP)
    repl.add_argument("--seed", type=_seed, default=0, metavar="S",
                      help="the seed of the game and of `auto`'s random moves (default 0)")
    repl.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help=arguments.OPTION_HELP)
    repl.add_argument("--ascii", action="store_true", help="card names as written, no suit symbols or colour")
    add_color_arg(repl, "the prompt, the toolbar and the output at a terminal")
    authoring.add_parsers(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    _printable_output()
    args = build_parser().parse_args(argv)
    if args.command is None:
        build_parser().print_help()
        return 2
    try:
        return (getattr(args, "handler", None) or COMMANDS[args.command])(args)
    except ScriptError as err:
        print(err.render(), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except interpreter.GameFault as err:  # read only when raised: `check` never imports the engine
        print(str(err), file=sys.stderr)
        return 1


def cmd_check(args) -> int:
    if (twice := stdin_script.once(args.files)) is not None:
        arguments.usage_error("check", twice)
    status, report = 0, []
    for path in args.files:
        try:
            name, text = stdin_script.script_source(path)
        except ScriptError as err:  # standard input too long, or not UTF-8
            name, text, sources, diags = stdin_script.NAME, None, {}, err.diagnostics
        else:
            _tables, _items, sources, diags = interpreter.check_file(name, text)
        errors = [d for d in diags if d.severity == "error" or args.strict]
        if errors:
            status = 1
        if args.format == "json":
            report.append({"file": name, "ok": not errors, "diagnostics": [d.to_json() for d in diags]})
        else:
            for d in diags:
                print(render(d, sources), file=sys.stderr)
                print(file=sys.stderr)
            counts = f"{sum(d.severity == 'error' for d in diags)} error(s), " \
                     f"{sum(d.severity == 'warning' for d in diags)} warning(s)"
            print(f"{name}: {'ok' if not errors else 'failed'} ({counts})")
            if args.states and not errors:
                _print_states(interpreter.load(name, text))
    if args.format == "json":
        print(json.dumps(report, indent=2))
    return status


def _print_states(game) -> None:
    for row in game.state_table():
        targets = f" -> {', '.join(row['next'])}" if row["next"] else ""
        print(f"  {row['kind']} {row['name']} (line {row['line']}, {row['states']} states){targets}")
        for d in row["decisions"]:
            prompt = f' "{d["prompt"]}"' if d["prompt"] else ""
            print(f"    decision {d['decision']} at line {d['line']} by {d['actor']}{prompt}: "
                  f"{' | '.join(d['alternatives'])}")


def _view_arg(text: str):
    """`--view`: a seat P0, P1..., `spectator` or `all`; any other word is kept, to be read as a
    seat's name (`players 4 named N, E, S, W`) once the game is loaded (replay_cmd.seat_of_view)."""
    if text in ("all", "spectator"):
        return "all" if text == "all" else None
    digits = text[1:] if text[:1] in ("P", "p") else ""
    if digits.isdigit() and digits.isascii():
        return int(digits)
    if not text.isidentifier():
        raise argparse.ArgumentTypeError(f"`{text}` is not a seat (P0, P1... or a seat's name), `spectator` or `all`")
    return text


def _over_cap(args) -> bool:
    """E0903 (exit 2) for a number past its hard cap; the budgets and the number of games."""
    limits = interpreter.limits
    caps = [("--max-work", args.max_work, limits.HARD_MAX_WORK_PER_MOVE),
            ("--max-game-work", args.max_game_work, limits.HARD_MAX_WORK_PER_GAME),
            ("--games", getattr(args, "games", None), limits.MAX_GAMES)]
    for flag, value, cap in caps:
        if value is not None and value > cap:
            print(f"error[E0903]: `{flag} {value}` is over the hard cap of {cap:,}\n"
                  f"  = help: the hard caps bound what any script or command may ask for "
                  f"(docs/language.md §22)", file=sys.stderr)
            return True
    return False


def _logged(event) -> bool:
    """What `play` prints between moves: log lines and chance draws (`chance: drew P2`);
    shuffles stay out of it (every deal has one)."""
    return event.kind == "log" or (event.kind == "chance" and event.text.startswith("chance:"))


def cmd_play(args) -> int:
    if _over_cap(args):
        return 2
    if args.save and args.file == stdin_script.STDIN:
        arguments.usage_error("play", "`--save` needs the script in a file: a replay names its script's file, "
                                      "and standard input has none")
    game = interpreter.load(*stdin_script.script_source(args.file))
    options = game.read_options(option_pairs_or_exit(args.option))
    if args.view == "all":
        return _play_all_seeing(game, options, args)
    return _play_as(game, options, args, args.view)


def _play_as(game, options, args, viewer) -> int:
    """One seat's log (or a spectator's): each move and log line as that viewer saw it."""
    state = game.new_game(players=args.players, seed=args.seed, options=options, record=True)
    viewer, error = replay_cmd.seat_of_view(viewer, game.program.tables.seat_names, state.n)
    if error is not None:
        print(error, file=sys.stderr)
        return 2
    agent = interpreter.RandomAgent.for_game(args.seed)
    name = "spectator" if viewer is None else game.program.seat_label(viewer)
    if args.format == "json":
        print(json.dumps({"game": game.title, "players": state.n, "view": name}))
    else:
        print(f"{game.title}: {plural(state.n, 'player')}, as {name} saw it (only what {name} knew)")

    def seen(step):
        events = state.observed_events(viewer, step)
        move = next((e for e in events if e.kind == "decision"), None)
        return move, [e.text for e in events if _logged(e)]

    _, logs = seen(0)
    if args.format != "json":
        for line in logs:
            print(f"    {line}")
    while not state.is_over and state.fault is None:
        _print_table(state, viewer, args)
        moves = state.legal_moves()
        if not moves:
            break
        phase = state.phase
        _apply_or_fault(state, agent.choose(moves))
        step = len(state.history)
        move, logs = seen(step)
        who = "table" if move.actor == interpreter.TABLE else game.program.seat_label(move.actor)
        if args.format == "json":
            print(json.dumps({"step": step, "player": who, "phase": phase, "move": move.text, "log": logs}))
        else:
            print(f"{step:4d}. {who}: {move.text}")
            for line in logs:
                print(f"    {line}")
    if args.save and not _save_replay(args.save, game, state, args.seed, options):
        return 1
    if args.html and not replay_cmd.write_html(args.html, state, options, viewer, (args.max_work, args.max_game_work)):
        return 1
    if state.fault is not None:
        print(game.render_diagnostic(state.fault), file=sys.stderr)
        return 1
    return _print_result(state, state.view(viewer), args)


def _print_result(state, view, args) -> int:
    """The end of `play`: scores and winners as the viewer knows them (by team in a team game)."""
    if args.format == "json":
        print(json.dumps(result_record(state, view)))
    else:
        if state.capped:
            print("the game was stopped by its own cap (`end game capped`): not a real end")
        print("final scores: " + (scores_text(view, declares_score(state)) or "hidden"))
        print("winners: " + (winners_text(view) or "hidden"))
    return 0


def _apply_or_fault(state, move) -> None:
    """Apply a move; a move that faults is still the game's last move (it is in the history, the
    state is marked faulted), so it is logged and saved like the others and the fault reported
    after it."""
    try:
        state.apply(move)
    except interpreter.GameFault:
        pass


def _play_all_seeing(game, options, args) -> int:
    """The full record: every log line and move, hidden ones included (replays need them)."""
    lines: list[str] = []
    state = game.new_game(players=args.players, seed=args.seed, options=options, record=args.table,
                          tracer=lambda event: lines.append(event.text) if _logged(event) else None,
                          max_work=args.max_work, max_game_work=args.max_game_work)
    agent = interpreter.RandomAgent.for_game(args.seed)

    def flush():
        if args.format != "json":
            for line in lines:
                print(f"    {line}")
        lines.clear()

    if args.format == "json":
        print(json.dumps({"game": game.title, "players": state.n, "seed": args.seed, "view": "all",
                          "full_record": "every move, hidden ones included; --view P0 gives one seat's log"}))
    else:
        print(f"{game.title}: {plural(state.n, 'player')}, seed {args.seed} (the all-seeing log; --view P0 shows one seat's)")
    flush()
    while not state.is_over and state.fault is None:
        _print_table(state, "all", args)
        moves = state.legal_moves()
        if not moves:
            break
        move = agent.choose(moves)
        actor, phase, step = state.current_player, state.phase, len(state.history) + 1
        who = "table" if actor == interpreter.TABLE else game.program.seat_label(actor)
        hidden = state.choice_is_hidden
        _apply_or_fault(state, move)
        if args.format == "json":  # the full record, for tools; hidden choices are flagged
            record = {"step": step, "player": who, "phase": phase, "move": str(move), "log": lines[:]}
            if hidden:
                record["hidden"] = True
            print(json.dumps(record))
        else:
            print(f"{step:4d}. {who}: {move}" + ("   (hidden from the other seats)" if hidden else ""))
        flush()
    if args.save and not _save_replay(args.save, game, state, args.seed, options):
        return 1
    if args.html and not replay_cmd.write_html(args.html, state, options, "all", (args.max_work, args.max_game_work)):
        return 1
    if state.fault is not None:
        print(game.render_diagnostic(state.fault), file=sys.stderr)
        return 1
    return _print_result(state, state.view("all"), args)


def _print_table(state, viewer, args) -> None:
    """With --table: the table as `viewer` sees it, drawn as the REPL's `state` draws it."""
    if not args.table or args.format == "json":
        return
    import shutil

    from cardgame.repl.table import Deck, coloured, render, snapshot
    colour = colour_wanted(args.color, sys.stdout) and not args.ascii
    symbols = not args.ascii and (sys.stdout.isatty() or colour)
    sees = viewer == "all" or state.current_player in (viewer, interpreter.TABLE)
    game = state.game
    lines = render(snapshot(state, viewer, sees), Deck.of(game.cards, game.shown_orders, game.face_down_zones),
                   shutil.get_terminal_size().columns, symbols)
    print("\n".join("  " + (coloured(line) if colour else line) for line in lines).rstrip())


def _save_replay(path: str, game, state, seed: int, options: dict) -> bool:
    from cardgame.repl.replay import ReplayError, replay_data, write_replay
    try:
        write_replay(path, replay_data(game, path, state.n, seed, options, list(state.history)))
    except ReplayError as err:
        print(f"error: {err}", file=sys.stderr)
        return False
    return True


def cmd_repl(args) -> int:
    if args.file == stdin_script.STDIN:
        arguments.usage_error("repl", "the REPL reads its commands from standard input, so it cannot read the "
                                      "script there too: name the script's file (or `load FILE` at the prompt)")
    from cardgame.repl.app import run_repl
    return run_repl(args)


COMMANDS = {"check": cmd_check, "play": cmd_play, "repl": cmd_repl, **authoring.COMMANDS}


def _printable_output() -> None:
    """A character the output's encoding cannot show (a suit symbol on an ASCII console, a file
    name that is not UTF-8 on a strict UTF-8 one) is shown as `?`, not a traceback mid-output."""
    for stream in (sys.stdout, sys.stderr):
        if getattr(stream, "errors", None) == "strict":
            try:
                stream.reconfigure(errors="replace")
            except (AttributeError, ValueError):  # not a text file of its own (a test's capture)
                pass


def entry() -> None:
    sys.exit(main())


__all__ = ["main", "entry"]
