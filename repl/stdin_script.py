"""A script read from standard input: `-` for FILE, as Unix tools take it (`cat x | cardgame
check -`).

Its diagnostics name it `<stdin>`.  Its includes are looked up from the current folder, the
folder a file named on the command line without a folder would be in, and may not leave it, as
a file's includes may not leave the file's folder.  Standard input is read once, with the byte
cap a script file has, so `-` may be given once per command line.
"""

from __future__ import annotations

import sys

from cardgame.interpreter import Diagnostic, ScriptError, limits

STDIN = "-"
NAME = "<stdin>"


def script_source(path: str) -> tuple[str, str | None]:
    """(the name diagnostics give the script, its text): for `-`, `<stdin>` and what standard
    input holds; for a file, its path and None (the loader reads it)."""
    if path != STDIN:
        return path, None
    return NAME, read_stdin()


def read_stdin() -> str:
    """Standard input as a script's text (line ends as `\\n`, no byte-order mark), at most
    limits.MAX_SCRIPT_BYTES long; ScriptError otherwise."""
    most = limits.MAX_SCRIPT_BYTES
    if sys.stdin is None:  # closed (`<&-`): nothing to read
        data = b""
    elif hasattr(sys.stdin, "buffer"):
        data = sys.stdin.buffer.read(most + 1)
    else:  # a text stream put in its place (a test's)
        data = sys.stdin.read(most + 1).encode("utf-8", "surrogatepass")
    if len(data) > most:
        raise ScriptError([Diagnostic("E0112", f"`{NAME}` is too long: it is longer than the limit of {most:,} bytes",
                                      None, hint="a game is at most this long, includes counted")])
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ScriptError([Diagnostic("E0601", f"cannot read `{NAME}`: not readable UTF-8 text", None)]) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def once(paths: list[str]) -> str | None:
    """The usage error of a command line naming `-` more than once (standard input is read once),
    or None."""
    if paths.count(STDIN) > 1:
        return "`-` (standard input) is given more than once: it can be read only once"
    return None
