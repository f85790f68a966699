"""`cardgame replay FILE.replay [--html OUT.html] [--view SEAT] [--format text|json]`: a saved
game again, as its log or as one HTML page to step through seat by seat (`play --html` writes
the same page).  `-` reads the replay from standard input (its script is then found from the
current folder).

Without `--view` the page is a full record: every seat's view, the spectator's and the
all-seeing one.  With `--view P1` it holds what P1 knew, and nothing else (docs/replay.md).
Exit codes: 0 done, 1 a replay, script or page that cannot be read or written (or a game that
faulted), 2 a usage error.
"""

from __future__ import annotations

import json
import sys

from cardgame import interpreter

from . import arguments
from .colour import add_color_arg
from .results import plural, result_record

STDIN = "-"
STDIN_NAME = "<stdin>"
FULL_RECORD = "every move, hidden ones included; --view P0 gives one seat's log"


def register(sub, helpers) -> None:
    p = sub.add_parser("replay", help="show a saved replay again: its log, or an HTML page to step through",
                       description="Show a game saved with `play --save` or the REPL's `save` again: its log, as "
                                   "`play` prints it (the all-seeing one, or one seat's with --view), or with "
                                   "--html one self-contained HTML page that steps through it seat by seat, with "
                                   "the why of every move (docs/replay.md). The replay's script must be the one "
                                   "it was made with (its hash is checked).")
    p.add_argument("file", metavar="FILE.replay",
                   help="the replay file (`-`: read it from standard input; its script is then found from the "
                        "current folder)")
    p.add_argument("--html", metavar="OUT.html", default=None,
                   help="write one self-contained HTML page that steps through the game (docs/replay.md)")
    p.add_argument("--view", type=helpers.view, default="all", metavar="SEAT",
                   help="only what one seat (P0, P1...) or a spectator knew; default: all (a page of every view, "
                        "the all-seeing log)")
    p.add_argument("--script", metavar="FILE", default=None,
                   help="the script the replay was made with, when the path it names cannot be read from here")
    arguments.add_format(p, "the log as `play --format json` prints it, one JSON object per line "
                            "(docs/cli.md#play---format-json); with --html, one object naming the page written",
                         "the log as `play` prints it; with --html, a line naming the page written")
    add_color_arg(p)
    p.set_defaults(handler=run)


def _read(path: str):
    """The replay at `path` (`-`: standard input); ReplayError when it cannot be read."""
    from cardgame.interpreter import limits

    from .replay import ReplayError, read_replay
    if path != STDIN:
        return read_replay(path)
    most = limits.MAX_REPLAY_BYTES
    data = b"" if sys.stdin is None else (sys.stdin.buffer.read(most + 1) if hasattr(sys.stdin, "buffer")
                                          else sys.stdin.read(most + 1).encode("utf-8", "surrogatepass"))
    if len(data) > most:
        raise ReplayError(f"cannot read `{STDIN_NAME}`: it is longer than the limit of {most:,} bytes")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ReplayError(f"`{STDIN_NAME}` is not a replay file (not UTF-8 text)") from None
    return read_replay(STDIN_NAME, text)


def run(args) -> int:
    # read when run: `cardgame check` registers this command and must not load the engine
    from .replay import ReplayError
    from .viewer_data import Record, ViewerError, played_data
    from .viewer_page import PageError, write_page
    name = STDIN_NAME if args.file == STDIN else args.file
    try:
        replay = _read(args.file)
    except ReplayError as err:
        message = str(err)
        if args.file.endswith(".cardgame"):  # its help names the REPL's `load`; here it is `play`
            message = f"`{args.file}` is a script, not a replay file\n  = help: `cardgame play {args.file} " \
                      "--seed S --html OUT.html` writes the page of a game of it"
        print(f"error: {message}", file=sys.stderr)
        return 1
    try:
        script = args.script or replay.script_path(name)
    except ReplayError as err:  # its help names the REPL's way; here it is --script
        print(f"error: {str(err).splitlines()[0]}\n  = help: `--script FILE` names the script", file=sys.stderr)
        return 1
    game = interpreter.load(script)
    if game.hash != replay.script_hash:
        print(f"error: `{name}` was made for the script with hash {replay.script_hash}, not for {script} "
              f"(hash {game.hash}): its moves would be another game's\n"
              f"  = help: `--script FILE` names the script it was made with", file=sys.stderr)
        return 1
    record = Record(game, replay.players, replay.seed, game.read_options(replay.options), replay.moves, replay.pause)
    view, error = seat_of_view(args.view, game.program.tables.seat_names, replay.players)
    if error is not None:
        print(error, file=sys.stderr)
        return 2
    args.view = view
    viewers = chosen_viewers(args.view, replay.players)
    if viewers is None:
        return 2
    try:
        if args.html:
            size = write_page(args.html, record, viewers)
            whose = "every view" if args.view == "all" else \
                f"only what {viewers_text(viewers, game.program.tables.seat_names)} knew"
            if args.format == "json":
                print(json.dumps({"html": args.html, "game": game.title, "moves": len(replay.moves),
                                  "views": [viewer_name(v, game.program.tables.seat_names) for v in viewers], "bytes": size}))
            else:
                print(f"wrote {args.html}: {game.title}, {plural(len(replay.moves), 'move')}, {whose} ({size:,} bytes)")
            return 0
        data, state = played_data(record, [args.view])  # the log of one viewer: the all-seeing one by default
        return print_log(data, state, args.view, args.format == "json")
    except (ViewerError, PageError) as err:
        print(f"error: {name}: {err}" if isinstance(err, ViewerError) else f"error: {err}", file=sys.stderr)
        return 1


def viewer_name(viewer, names: tuple = ()) -> str:
    return "all" if viewer == "all" else "spectator" if viewer is None else interpreter.seat_label(names, viewer)


def seat_of_view(view, names: tuple, players: int):
    """`--view` with the game known: a seat's name read as its number; (view, None), or (None, the
    error) for a seat not at the table."""
    if view == "all" or view is None:
        return view, None
    seat = view if type(view) is int else interpreter.seat_from_text(names, view, players)
    if seat is None or seat >= players:
        written = f"P{view}" if type(view) is int else view
        return None, (f"error[E0901]: --view {written}: this game has {plural(players, 'player')}, "
                      f"{interpreter.seat_list(names, players)}")
    return seat, None


def chosen_viewers(view, players: int):
    """The viewers a page holds for `--view`: every one for `all`, else that one; None (the
    usage error said) for a seat not at the table."""
    if view == "all":
        return list(range(players)) + [None, "all"]  # viewer_data.every_viewer, without loading the engine
    if view is not None and view >= players:
        seats = f"P0 to P{players - 1}" if players > 1 else "P0 only"
        print(f"error[E0901]: --view P{view}: this game has {plural(players, 'player')}, {seats}", file=sys.stderr)
        return None
    return [view]


def viewers_text(viewers: list, names: tuple = ()) -> str:
    return "the spectator" if viewers == [None] else interpreter.seat_label(names, viewers[0])


def write_html(path: str, state, options: dict, view, budget: tuple) -> bool:
    """`play --html`: the page of the game `state` played (its moves from its seed, with the work
    `budget` it was played with), for `view`; False (the error said) when it cannot be written."""
    from .viewer_data import Record, ViewerError
    from .viewer_page import PageError, write_page
    viewers = chosen_viewers(view, state.n)
    record = Record(state.game, state.n, state.seed, options, tuple(state.history), budget=budget)
    try:
        write_page(path, record, viewers)
    except (ViewerError, PageError) as err:
        print(f"error: {err}", file=sys.stderr)
        return False
    return True


def print_log(data: dict, state, viewer, as_json: bool) -> int:
    """The game's log as `play` prints it (its text, or its JSON Lines), from the page's data:
    each move and its log lines as the one viewer saw them, then the result as the viewer knows
    it (`state` is the game at its end)."""
    pool = data["pool"]
    whose = data["viewers"][0]
    if as_json:
        head = {"game": data["title"], "players": data["players"]}
        head.update({"seed": data["seed"], "view": "all", "full_record": FULL_RECORD} if data["full"] else
                    {"view": whose})
        print(json.dumps(head))
    else:
        print(f"{data['title']}: {plural(data['players'], 'player')}" +
              (f", seed {data['seed']} (the all-seeing log)" if data["full"]
               else f", as {whose} saw it (only what {whose} knew)"))
    status = step = None
    for step, _pause, parts in data["positions"]:
        phase = status and status["phase"]  # the phase the move was made in: the one before it
        _zones, status, _vars, move, events, why, _moves = (None if i is None else pool[i] for i in parts[0])
        logs = [text for kind, text, *_ in events if kind == "log" or kind == "chance" and text.startswith("chance:")]
        hidden = bool(why and why.get("hidden"))
        if as_json:
            if move is not None:
                line = {"step": step, "player": move[0], "phase": phase, "move": move[1], "log": logs}
                print(json.dumps({**line, "hidden": True} if hidden else line))
            continue
        if move is not None:
            print(f"{step:4d}. {move[0]}: {move[1]}" + ("   (hidden from the other seats)" if hidden else ""))
        for text in logs:
            print(f"    {text}")
    if status.get("fault"):
        print(status["fault"], file=sys.stderr)
        return 1
    if not status["over"]:
        if as_json:
            print(json.dumps({"unfinished": {"steps": step, "paused": status.get("paused")}}))
        else:
            print(f"the replay stops after move {step}, before the game's end: scores " + (status["scores"] or "hidden"))
        return 0
    if as_json:
        print(json.dumps(result_record(state, state.view(viewer))))
        return 0
    if status["capped"]:
        print("the game was stopped by its own cap (`end game capped`): not a real end")
    print("final scores: " + (status["scores"] or "hidden"))
    print("winners: " + (status["winners"] or "hidden"))
    return 0
