"""Syntax trees kept between runs, as Python keeps bytecode: a script whose text has not changed
since it was last parsed is read back instead of parsed again, so `cardgame check` (or `play`) of
an unchanged script and its libraries neither imports nor runs the lark parser.

A tree is kept in one file per script, in the private per-user folder that also holds the
parser's tables (it is a pickle, so only a folder nobody else can write to is used). It is read
back only for the same path, the very same text and the same code that builds trees: the grammar
and this package's modules (their sizes and modification times, as Python checks a bytecode
file), lark's and Python's versions. Only scripts that parsed cleanly are kept, so a syntax
error and its diagnostic always come from the parser itself. At most KEPT trees are kept.

Every kept file carries a digest of its data (`write_kept`, `read_kept`): a file damaged on disk
(a flipped bit still unpickles, as a tree with another text or one missing a field) is parsed
again, never used.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import pickle
import stat
import sys

from . import nodes as n
from .source import Diagnostic

KEPT = 64  # tree files kept at most; writing one more removes the oldest
_PREFIX = "tree-"
_NAME_DIGITS = 24  # hex digits of a script path's digest in its files' names


def private_place(name: str) -> str | None:
    """Path of `name` in the cache folder, or None when there is no private place for it:
    $CARDGAME_CACHE_DIR, else $XDG_CACHE_HOME/cardgame, else ~/.cache/cardgame, used only if
    it and the file belong to this user and nobody else can write to them;
    CARDGAME_CACHE_DIR=off turns every cache off."""
    folder = os.environ.get("CARDGAME_CACHE_DIR")
    if folder == "off":
        return None
    if not folder:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = os.path.join(base, "cardgame")
    path = os.path.join(folder, name)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        for place in (folder, path):
            if os.path.exists(place) and not _private(os.stat(place)):
                return None
    except OSError:
        return None
    return path


def _private(info: os.stat_result) -> bool:
    if not hasattr(os, "getuid"):
        return True  # Windows: the user's own profile folder
    return info.st_uid == os.getuid() and not info.st_mode & 0o022


def parse_script(text: str, path: str) -> tuple[n.Script | None, list[Diagnostic]]:
    """parser.parse_script, read back from the kept tree when this path had this text."""
    where = os.path.abspath(path)
    place = private_place(kept_name(_PREFIX, where))
    key = _key(text, path, where)
    script = _read(place, key) if place else None
    if script is not None:
        return script, []
    from .parser import parse_script as parse  # only now: lark and its tables cost more than the check
    script, diags = parse(text, path)
    if script is not None and place:
        _write(place, key, script)
    return script, diags


def kept_name(prefix: str, what: str) -> str:
    """The name of the file kept for `what`, a script's absolute path or a parser's digest (a path
    may hold any bytes: those that are not UTF-8 are hashed as Python decoded them)."""
    return prefix + hashlib.sha256(what.encode("utf-8", "surrogatepass")).hexdigest()[:_NAME_DIGITS]


def _key(text: str, path: str, where: str) -> bytes:
    digest = hashlib.sha256()
    for part in (path, where, sys.version, *code_stamps()):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.digest()


def code_stamps() -> list[str]:
    """Size and modification time of every file whose code shapes a tree."""
    stamps = []
    folders = [os.path.dirname(__file__)]
    for package in ("grammar", "lark"):
        spec = importlib.util.find_spec(package)
        folders += list(spec.submodule_search_locations or ()) if spec else [package]
    for folder in folders:
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            stamps.append(folder)
            continue
        for entry in entries:
            if entry.name.endswith((".py", ".lark")) and entry.is_file():
                info = entry.stat()
                stamps.append(f"{entry.path} {info.st_size} {info.st_mtime_ns}")
    return stamps


def _read(place: str, key: bytes) -> n.Script | None:
    data = read_kept(place, key)
    try:
        script = pickle.loads(data) if data is not None else None
    except Exception:  # from a version of the tree's classes that has gone: parse instead
        return None
    return script if isinstance(script, n.Script) else None


def _write(place: str, key: bytes, script: n.Script) -> None:
    try:
        data = pickle.dumps(script, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, RecursionError):
        return
    write_kept(place, key, data, _PREFIX, KEPT)


def read_kept(place: str, head: bytes) -> bytes | None:
    """The data `write_kept` wrote at `place` after `head`, or None when the file is missing, was
    written for another head (another text or version) or is damaged (its digest does not match),
    or is no regular file (a FIFO there would block the read for good)."""
    try:
        if not stat.S_ISREG(os.stat(place).st_mode):
            return None
        with open(place, "rb") as f:
            if f.read(len(head)) != head:
                return None
            check, data = f.read(_DIGEST), f.read()
    except OSError:
        return None
    return data if hashlib.sha256(data).digest() == check else None


def write_kept(place: str, head: bytes, data: bytes, prefix: str, kept: int) -> bool:
    """Write `head`, a digest of `data` and `data` at `place` through a temporary file (several
    processes may write the same file at once), then remove the files of `prefix` beyond the
    `kept` changed last: only those named as `kept_name` names them, so neither another process's
    temporary file nor a file of the user's that begins alike.  False when it could not be written."""
    temporary = f"{place}.{os.getpid()}.tmp"
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(head + hashlib.sha256(data).digest() + data)
        os.replace(temporary, place)
        files = [e for e in os.scandir(os.path.dirname(place)) if _kept_file(e.name, prefix)]
        for old in sorted(files, key=lambda e: e.stat().st_mtime_ns)[:-kept]:
            os.remove(old.path)
        return True
    except OSError:
        try:
            os.remove(temporary)
        except OSError:
            pass
        return False


_DIGEST = hashlib.sha256().digest_size


def _kept_file(name: str, prefix: str) -> bool:
    digits = name[len(prefix):]
    return name.startswith(prefix) and len(digits) == _NAME_DIGITS and all(c in "0123456789abcdef" for c in digits)
