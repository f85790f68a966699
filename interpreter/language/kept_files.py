"""Files kept between runs in the private per-user cache folder (parser tables, syntax trees,
generated code): where they go, who may write there, and how a damaged or stale one is told
from a good one (each carries a head and a digest of its data)."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import stat

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


def kept_name(prefix: str, what: str) -> str:
    """The name of the file kept for `what`, a script's absolute path or a parser's digest (a path
    may hold any bytes: those that are not UTF-8 are hashed as Python decoded them)."""
    return prefix + hashlib.sha256(what.encode("utf-8", "surrogatepass")).hexdigest()[:_NAME_DIGITS]


def code_stamps() -> list[str]:
    """Size and modification time of every file whose code shapes a tree or generated code: the
    interpreter's modules (every stage), the grammar and lark."""
    stamps = []
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    folders = [package] + sorted(e.path for e in os.scandir(package) if e.is_dir() and e.name != "__pycache__")
    for package in ("cardgame.grammar", "lark"):
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
