"""Reading scripts from disk: includes, parsing and checking, stopping between phases on errors."""

from __future__ import annotations

import hashlib
import os

from . import nodes as n
from .checker import Checker
from .parser import parse_script
from .source import Diagnostic, ScriptError, SourceFile

MAX_INCLUDES = 64


def read_sources(path: str) -> tuple[list, dict[str, SourceFile], list[Diagnostic]]:
    """Parse `path` and everything it includes; includes stay inside the script's own folder."""
    sources: dict[str, SourceFile] = {}
    diags: list[Diagnostic] = []
    items: list = []
    root = os.path.dirname(os.path.abspath(path))

    def visit(file_path: str, via: n.Include | None, chain: tuple):
        if len(sources) >= MAX_INCLUDES:
            diags.append(Diagnostic("E0603", f"more than {MAX_INCLUDES} included files", via.span if via else None))
            return
        try:
            with open(file_path, encoding="utf-8") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError) as err:
            reason = err.strerror if isinstance(err, OSError) and err.strerror else "not readable UTF-8 text"
            diags.append(Diagnostic("E0601", f"cannot read `{file_path}`: {reason}", via.span if via else None,
                                    "included here" if via else ""))
            return
        sources[file_path] = SourceFile(file_path, text)
        script, errors = parse_script(text, file_path)
        diags.extend(errors)
        if script is None:
            return
        for item in script.items:
            if isinstance(item, n.Include):
                target = _resolve(item, file_path, root, diags)
                if target is None:
                    continue
                if target in chain:
                    diags.append(Diagnostic("E0602", f"`{item.path}` includes itself (through "
                                            f"{' -> '.join(os.path.basename(c) for c in chain)})", item.span,
                                            "include cycle"))
                    continue
                if target in sources:
                    continue  # already included once: a library is read once
                visit(target, item, chain + (target,))
            else:
                items.append(item)

    visit(path, None, (path,))
    return items, sources, diags


def _resolve(inc: n.Include, from_path: str, root: str, diags) -> str | None:
    rel = inc.path
    if os.path.isabs(rel) or ".." in rel.replace("\\", "/").split("/"):
        diags.append(Diagnostic("E0604", f"include path `{rel}` leaves the script's folder", inc.span,
                                "not allowed", "include files beside the script or in a folder below it"))
        return None
    target = os.path.normpath(os.path.join(os.path.dirname(from_path), rel))
    if not os.path.abspath(target).startswith(root + os.sep):
        diags.append(Diagnostic("E0604", f"include path `{rel}` leaves the script's folder", inc.span, "not allowed"))
        return None
    if not os.path.exists(target):
        diags.append(Diagnostic("E0601", f"cannot find included file `{rel}`", inc.span, "no such file",
                                "paths are relative to the including script"))
        return None
    return target


def check_file(path: str):
    """Parse and check; returns (tables, items, sources, diagnostics)."""
    items, sources, diags = read_sources(path)
    if any(d.severity == "error" for d in diags):
        return None, items, sources, diags
    try:
        tables, found = Checker().check(items)
    except RecursionError:
        return None, items, sources, diags + [too_deep_definitions()]
    found.sort(key=_position)
    return tables, items, sources, diags + found


def too_deep_definitions() -> Diagnostic:
    return Diagnostic("E0606", "definitions call each other too deeply to check", None,
                      hint="flatten long chains of `define`s that each call the next")


def _position(diag: Diagnostic):
    """Report in reading order; problems without a place come last."""
    span = diag.span
    return (1, "", 0, 0) if span is None else (0, span.path, span.line, span.column)


def script_hash(sources: dict[str, SourceFile]) -> str:
    digest = hashlib.sha256()
    for name in sorted(sources):
        digest.update(os.path.basename(name).encode())
        digest.update(sources[name].text.encode())
    return digest.hexdigest()[:16]


def fail_if_errors(diags, sources):
    if any(d.severity == "error" for d in diags):
        raise ScriptError(diags, sources)
