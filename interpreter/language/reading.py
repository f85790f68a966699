"""Reading untrusted files: a byte cap before decoding, regular files only, and a folder to stay in.

Scripts, their includes and replay files come from strangers, so a path may name a device
(`/dev/zero` never ends), a FIFO (opening it blocks forever), a huge file, or a symbolic link
that points out of the folder it seems to be in.  Every read of such a file goes through
`read_text`, which refuses all of these before a byte is decoded.
"""

from __future__ import annotations

import os
import stat


class FileRefused(Exception):
    """A file that is not read; `reason` completes "cannot read `PATH`: ..."; `kind` is one of
    "missing", "outside", "special", "too_big", "encoding", "os"."""

    def __init__(self, kind: str, reason: str):
        super().__init__(reason)
        self.kind, self.reason = kind, reason


def inside(path: str, folder: str) -> bool:
    """Whether `path`, with every symbolic link resolved, lies in `folder` (also resolved) or below."""
    real, root = os.path.realpath(path), os.path.realpath(folder)
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def read_text(path: str, max_bytes: int, folder: str | None = None) -> str:
    """The UTF-8 text of the regular file `path` (without a leading byte-order mark), at most
    `max_bytes` long; FileRefused otherwise.

    With `folder`, the file must lie inside it once symbolic links are followed: a link inside
    the folder that points at `/etc/passwd` is refused without being opened."""
    if "\0" in path:  # no file is named so (typed or read from a replay); os.stat would raise ValueError
        raise FileRefused("missing", "no such file (a path cannot hold the character NUL)")
    if folder is not None and not inside(path, folder):
        raise FileRefused("outside", "it lies outside the folder it may be read from "
                                     "(symbolic links are followed before the check)")
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise FileRefused("missing", "no such file") from None
    except OSError as err:
        raise FileRefused("os", err.strerror or str(err)) from None
    if not stat.S_ISREG(info.st_mode):
        raise FileRefused("special", "it is not a regular file (a folder, device or pipe)")
    if info.st_size > max_bytes:
        raise FileRefused("too_big", f"it is {info.st_size:,} bytes long; the limit is {max_bytes:,}")
    try:
        # O_NONBLOCK: should the file be swapped for a FIFO after the check, opening it does
        # not block; fstat then sees that it is not a regular file.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as err:
        raise FileRefused("os", err.strerror or str(err)) from None
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise FileRefused("special", "it is not a regular file (a folder, device or pipe)")
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise FileRefused("too_big", f"it is longer than the limit of {max_bytes:,} bytes")
    try:
        return data.decode("utf-8-sig")  # a byte-order mark first, as some editors write, is no character
    except UnicodeDecodeError:
        raise FileRefused("encoding", "not readable UTF-8 text") from None
