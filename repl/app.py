"""`cardgame repl`: the prompt-toolkit front end over a Session.

At a terminal: a prompt with the game, step and who is to act; tab completion; persistent
history; highlighting; a bottom toolbar.  From a pipe or a file (`cardgame repl FILE <
session.txt`): each line is run and its output printed exactly as the session gives it, with no
prompt, toolbar or colour, so sessions can be scripted in docs and tests.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys

from .option_pairs import option_pairs_or_exit
from .session import MAX_LINE, Session

HISTORY_ENV = "CARDGAME_HISTORY"
# a source excerpt's lines (`45 | rule ...`, `   |     ^^^`, ` --> FILE:LINE`): kept whole, so the
# carets stay under what they point at
_EXCERPT_LINE = re.compile(r"^ *(\d+ *)?\||^ *-->")


def history_path() -> str:
    return os.environ.get(HISTORY_ENV) or os.path.join(os.path.expanduser("~"), ".cardgame_history")



def run_repl(args) -> int:
    options = option_pairs_or_exit(getattr(args, "option", []))
    session = Session()
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    session.symbols = interactive and not getattr(args, "ascii", False)  # suit symbols at a terminal
    if args.file:
        opening = session.start(args.file, players=args.players, seed=args.seed, options=options)
    else:
        session.seed = args.seed
        opening = "no game loaded; `load FILE` loads one, `help` lists the commands"
    if not interactive:
        return run_piped(session, opening, sys.stdin, sys.stdout)
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    from .completer import ReplCompleter
    from .lexer import InputLexer
    from .toolbar import toolbar
    path = history_path()
    try:
        with open(path, "a", encoding="utf-8"):
            pass
        history = FileHistory(path)
    except OSError:
        history = InMemoryHistory()
    depth = colour_depth(getattr(args, "color", "auto"))
    style = terminal_style(depth)
    prompt = PromptSession(history=history, completer=ReplCompleter(session), lexer=InputLexer(),
                           bottom_toolbar=lambda: toolbar(session), style=style,
                           complete_while_typing=False, color_depth=depth)
    write(opening, style, depth)
    session.confirm = ask_yes_no
    return interact(session, prompt, output=lambda text: write(text, style, depth), pager=page)


def page(text: str) -> None:
    """A long answer through the pager (`$PAGER`, else `less`), so its first lines stay in view."""
    import pydoc
    pydoc.pager(text)


def ask_yes_no(question: str) -> bool:
    """A yes/no question at the terminal (Enter or Ctrl-C or Ctrl-D: no, nothing is lost)."""
    from prompt_toolkit.shortcuts import confirm
    try:
        return confirm(question)
    except (KeyboardInterrupt, EOFError):
        return False


def run_piped(session: Session, opening: str, stdin, stdout) -> int:
    """Run every line of `stdin`; print each output as it is. Exit status 1 if a command failed."""
    if opening:
        print(opening, file=stdout, flush=True)
    session.stream = lambda text: print(text, file=stdout, flush=True)  # a long `auto`, move by move
    try:
        for line, length in _lines(stdin, MAX_LINE):
            out = session.execute(line) if length <= MAX_LINE else session.too_long(length)
            if out:
                print(out, file=stdout, flush=True)
            if session.done:
                break
    except KeyboardInterrupt:
        print("interrupted", file=stdout)
        return 130
    return 1 if session.failed else 0


def _lines(stdin, most: int):
    """(line, its length) for each line of `stdin`; a line longer than `most` characters is read
    on in pieces and dropped, never held whole (a gigabyte without a line break)."""
    while True:
        line = stdin.readline(most + 1)
        if not line:
            return
        length = len(line)
        while length > most and not line.endswith("\n"):
            line = stdin.readline(most + 1)
            if not line:
                break
            length += len(line)
        yield (line if length <= most else ""), length


def colour_depth(choice: str):
    """prompt-toolkit's colour depth for `--color`: None (its own choice, which honours NO_COLOR)
    for auto, one bit (no colour) for never, and for always the default depth even under NO_COLOR."""
    from prompt_toolkit.output import ColorDepth

    from .colour import no_color_set
    if choice == "never":
        return ColorDepth.DEPTH_1_BIT
    return ColorDepth.DEFAULT if choice == "always" and no_color_set() else None


def terminal_style(depth=None):
    """The REPL's style at colour `depth` (None: as the environment says); without colour
    (`NO_COLOR`, `--color never`, or a one-bit terminal) the toolbar is drawn in reverse video,
    which its grey background stood for, so it still stands apart from the output."""
    from prompt_toolkit.output import ColorDepth
    from prompt_toolkit.styles import Style, merge_styles

    from .lexer import STYLE
    if (depth or ColorDepth.from_env()) is not ColorDepth.DEPTH_1_BIT:
        return STYLE
    return merge_styles([STYLE, Style.from_dict({"bottom-toolbar": "reverse", "bottom-toolbar.label": "reverse",
                                                  "bottom-toolbar.value": "reverse bold"})])


def terminal_height(prompt) -> int:
    """The terminal's height now, in lines."""
    try:
        return max(5, prompt.output.get_size().rows)
    except (AttributeError, OSError):
        return 24


def terminal_width(prompt) -> int:
    """The terminal's width now (it may have been resized since the last command)."""
    try:
        return max(20, prompt.output.get_size().columns)
    except (AttributeError, OSError):
        return 80


def write(text: str, style=None, depth=None) -> None:
    from prompt_toolkit import print_formatted_text

    from .lexer import STYLE, highlight_output
    if text:
        print_formatted_text(highlight_output(text), style=style or STYLE, end="", color_depth=depth)


def fit_lines(text: str, width: int) -> str:
    """`text` with each line longer than `width` broken between words, the rest indented 4 more
    than the line (status lines, traced effects, errors); source excerpts stay whole."""
    out = []
    for line in text.split("\n"):
        out += [line] if len(line) <= width or _EXCERPT_LINE.match(line) else _broken(line, width)
    return "\n".join(out)


def _broken(line: str, width: int) -> list[str]:
    body = line.lstrip(" ")
    indent = line[:len(line) - len(body)]
    pieces = re.split(r"( +)", body)  # words, and the spaces between them as they are
    lines, current = [], indent + pieces[0]
    for space, word in zip(pieces[1::2], pieces[2::2]):
        if len(current) + len(space) + len(word) > width:
            lines.append(current)
            current = indent + "    " + word
        else:
            current += space + word
    lines.append(current)
    return lines


def interact(session: Session, prompt, output=write, pager=None) -> int:
    """The interactive loop: Ctrl-C cancels the input line (or a running command), Ctrl-D quits.

    A pasted block arrives as one input with newlines in it: its lines run one by one.  `auto`
    and `step N` print each move as it is made.  An answer the session says may be paged (`why`,
    `log`) goes through `pager(text)` when it is longer than the terminal."""
    def show(text: str) -> None:
        fitted = fit_lines(text, session.width)
        if pager is not None and session.pageable and fitted.count("\n") + 2 >= terminal_height(prompt):
            pager(fitted)
        else:
            output(fitted)
    session.stream = show
    while not session.done:
        try:
            line = prompt.prompt(session.prompt_text())
        except KeyboardInterrupt:
            continue
        except EOFError:  # Ctrl-D: `quit`, which asks first when work would be lost
            said = session.execute("quit")
            if said:
                show(said)
            continue
        session.width = terminal_width(prompt)
        try:
            with ctrl_c_stops_moves(session):
                text = session.execute_block(line)
            show(text)
        except KeyboardInterrupt:
            show("interrupted; nothing more was done")
    return 0


@contextlib.contextmanager
def ctrl_c_stops_moves(session: Session):
    """While a command runs, Ctrl-C stops a running `auto` or `step N` after the move in hand
    (each move made is then shown and counted, none is caught half made); any other command is
    interrupted outright.  The prompt itself reads Ctrl-C as a key, with no signal."""
    def on_ctrl_c(signum, frame):
        if not session.request_stop():
            raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGINT, on_ctrl_c)
    except ValueError:  # not the main thread: signals stay as they are
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
