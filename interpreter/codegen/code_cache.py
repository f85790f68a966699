"""Generated functions kept between runs, as Python keeps bytecode: loading an unchanged script
reads back what the generator's passes over its functions gave and the code Python compiled
from it, instead of running them again (they are four fifths of a load: docs/performance.md,
"Issue 9, session 12").

What is kept depends only on its input: the passes are functions of a generated function's
text alone, and a code object of its source, so an entry is found by the digest of that text
and a script's edit or a changed definition misses only the functions it changed.  One file per
script path, in the private per-user folder kept_files names (marshal data, so only a folder
nobody else can write to is used), valid only for the same interpreter code and Python (the
stamp kept_files.code_stamps gives, and the optimisation flag).  A file that is missing, damaged (it
carries a digest of its entries: kept_files.read_kept) or stale is ignored; writing goes
through a temporary file, so processes loading the same script at once never read half a file.  At most KEPT files are kept, those used last (a file read back
is touched).
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys

from ..language.kept_files import code_stamps, kept_name, private_place, read_kept, write_kept

KEPT = 64  # files kept at most; writing one more removes the one used longest ago
_PREFIX = "code-"
_SLACK = 3  # a file is rewritten with only the entries this run used when it holds more than 3x them


def _stamp() -> bytes:
    digest = hashlib.sha256()
    for part in (sys.version, str(sys.flags.optimize), *code_stamps()):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    return digest.digest()


def digest(*parts: str) -> bytes:
    """The key of an entry: the digest of the text it was made from."""
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode("utf-8", "surrogatepass") + b"\0")
    return h.digest()


class CodeCache:
    """The kept entries of one script (read once, when the script is loaded); `keep()` writes
    what this run added."""

    def __init__(self, script_path: str):
        where = os.path.abspath(script_path)
        self._place = private_place(kept_name(_PREFIX, where))
        self._stamp = _stamp() if self._place else b""
        self._entries = self._read() if self._place else {}
        self._used: set[bytes] = set()
        self._made: set[bytes] = set()  # keys this run put (not read back)
        self._added = 0

    def get(self, key: bytes):
        value = self._entries.get(key)
        if value is not None:
            self._used.add(key)
        return value

    def put(self, key: bytes, value) -> None:
        self._entries[key] = value
        self._used.add(key)
        self._made.add(key)
        self._added += 1

    @property
    def held_any(self) -> bool:
        """Whether this run used an entry read from the file."""
        return bool(self._used - self._made)

    def forget(self) -> None:
        """Drop every entry, the file's too, so what is made again replaces the file (an entry
        Python could not compile: damage with a digest that still matches)."""
        self._entries, self._used, self._made = {}, set(), set()
        self._added = 0
        if self._place:
            try:
                os.remove(self._place)
            except OSError:
                pass

    def keep(self) -> None:
        """Write the entries this run added (with those another process wrote meanwhile)."""
        if not self._place or not self._added:
            return
        entries = {**self._read(), **self._entries}
        if len(entries) > _SLACK * len(self._used):  # mostly what older versions of the script made
            entries = {key: entries[key] for key in self._used}
        try:
            data = marshal.dumps(entries)
        except ValueError:
            return
        if write_kept(self._place, self._stamp, data, _PREFIX, KEPT):
            self._added = 0

    def _read(self) -> dict:
        data = read_kept(self._place, self._stamp)
        try:
            entries = marshal.loads(data) if data is not None else {}
        except Exception:  # not what marshal wrote (the digest is no signature): made again
            return {}
        if not isinstance(entries, dict):
            return {}
        try:
            os.utime(self._place)  # used now: the last to be removed
        except OSError:
            pass
        return entries
