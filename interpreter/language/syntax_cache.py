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
import os
import pickle
import sys

from . import nodes as n
from .kept_files import code_stamps, kept_name, private_place, read_kept, write_kept
from .source import Diagnostic

KEPT = 64  # tree files kept at most; writing one more removes the oldest
_PREFIX = "tree-"


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


def _key(text: str, path: str, where: str) -> bytes:
    digest = hashlib.sha256()
    for part in (path, where, sys.version, *code_stamps()):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.digest()


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
