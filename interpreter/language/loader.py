"""Reading scripts from disk: includes, parsing and checking, stopping between phases on errors."""

from __future__ import annotations

import hashlib
import json
import os

from cardgame import games

from . import limits, nodes as n, replacing, seating, variation
from .checker import Checker
from .reading import FileRefused, read_text
from .source import Diagnostic, ScriptError, SourceFile, clipped, suggestions_budgeted
from .syntax_cache import parse_script

# The shipped games' folder (package data): its `lib/` is every script's library.
SHIPPED = os.path.dirname(os.path.abspath(games.__file__))


def read_sources(path: str, text: str | None = None) -> tuple[list, dict[str, SourceFile], list[Diagnostic], dict]:
    """Parse `path` and everything it includes; includes stay inside the script's own folder.
    Returns the declarations in reading order, the files' texts, the diagnostics and what each
    file includes itself (path -> [paths]: whose declarations its `replace`s may take).
    `text`, when given, is the script's text as an editor holds it (its includes are read from disk).
    An include not found beside the script is looked up in the shipped library (SHIPPED), so
    `include "lib/standard_deck.cardgame"` works from any folder.

    Every file is read through reading.read_text (a byte cap, regular files only), includes
    only once their symbolic links are resolved to a place inside the script's folder, and all
    files together stay under limits.MAX_SCRIPT_BYTES: checking is linear in the text, so the
    cap bounds the time a hostile script can take to load."""
    sources: dict[str, SourceFile] = {}
    diags: list[Diagnostic] = []
    items: list = []
    includes: dict[str, list[str]] = {}
    root = os.path.dirname(os.path.abspath(path))
    given = text
    budget = [limits.MAX_SCRIPT_BYTES]

    def visit(file_path: str, via: n.Include | None, chain: tuple, root: str):
        if len(sources) >= limits.MAX_INCLUDES:
            diags.append(Diagnostic("E0603", f"more than {limits.MAX_INCLUDES} included files",
                                    via.span if via else None))
            return
        text = given if file_path == path and given is not None else _read(file_path, via, root, budget[0], diags)
        if text is None:
            return
        budget[0] -= len(text.encode("utf-8", "surrogatepass"))  # an editor's text may hold a lone surrogate (E0113)
        sources[file_path] = SourceFile(file_path, text)
        saved = _saved_format(text)
        if saved is not None:
            diags.append(_saved_not_script(file_path, saved, via))
            return
        script, errors = parse_script(text, file_path)
        diags.extend(errors)
        if script is None:
            return
        for item in script.items:
            if isinstance(item, n.Include):
                found = _resolve(item, file_path, root, diags)
                if found is None:
                    continue
                target, target_root = found
                if target in chain:
                    diags.append(Diagnostic("E0602", f"`{item.path}` includes itself (through "
                                            f"{' -> '.join(os.path.basename(c) for c in chain)})", item.span,
                                            "include cycle"))
                    continue
                includes.setdefault(file_path, []).append(target)
                if target in sources:
                    continue  # already included once: a library is read once
                visit(target, item, chain + (target,), target_root)
            else:
                items.append(item)

    visit(path, None, (path,), root)
    return items, sources, diags, includes


def _saved_format(text: str) -> str | None:
    """The `format` of a file the tools saved (JSON: a replay, a seat's observation, a state),
    given where a script was expected; None for anything else (no script begins with `{`)."""
    if not text.lstrip().startswith("{"):
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    found = data.get("format") if isinstance(data, dict) else None
    return found if isinstance(found, str) and found.startswith("cardgame-") else None


def _saved_not_script(file_path: str, saved: str, via: n.Include | None) -> Diagnostic:
    """E0640: a saved game given (or included) as a script."""
    return Diagnostic("E0640", f"`{file_path}` is a file saved by cardgame (`{clipped(saved)}`), not a script",
                      via.span if via else None, "included here" if via else "",
                      "a script is the `.cardgame` text of a game; a replay (`save FILE`, `play --save`) is "
                      "restored with `open FILE` in `cardgame repl SCRIPT`, and a seat's observation "
                      "(`save --view`) is only read, never replayed")


def _read(file_path: str, via: n.Include | None, root: str, budget: int, diags) -> str | None:
    """The file's text, or None with a diagnostic; an include must stay inside `root`."""
    try:
        return read_text(file_path, max(0, budget), root if via is not None else None)
    except FileRefused as err:
        diags.append(refusal(err, file_path, via))
        return None


def refusal(err: FileRefused, file_path: str, via: n.Include | None = None) -> Diagnostic:
    """The diagnostic of a script (or the include `via`) that read_text refused."""
    where = via.span if via else None
    label = "included here" if via else ""
    if err.kind == "outside" and via is not None:
        return Diagnostic("E0604", f"included file `{via.path}` leaves the script's folder", where,
                          "not allowed", "it is a symbolic link to a file outside the script's "
                          "folder; copy the file beside the script instead")
    if err.kind == "outside":
        return Diagnostic("E0604", f"`{file_path}` is a symbolic link out of the folder it was found in", None,
                          hint="name the file itself to read it where it lies")
    if err.kind == "special":
        return Diagnostic("E0605", f"`{file_path}` is not a regular file", where, label,
                          "a script is read from an ordinary file, not a device, pipe or folder")
    if err.kind == "too_big" and via is not None:
        return Diagnostic("E0607", f"the script and its includes are longer than "
                          f"{limits.MAX_SCRIPT_BYTES:,} bytes together", where, "over the limit",
                          "a game is at most this long, includes counted")
    if err.kind == "too_big":
        return Diagnostic("E0112", f"`{file_path}` is too long: {err.reason}", None,
                          hint="a game is at most this long, includes counted")
    return Diagnostic("E0601", f"cannot read `{file_path}`: {err.reason}", where, label)


def _resolve(inc: n.Include, from_path: str, root: str, diags) -> tuple[str, str] | None:
    """The included file and the folder its own includes must stay in, or None with a diagnostic."""
    rel = inc.path
    if not rel.strip():  # "" would name the script's own folder
        diags.append(Diagnostic("E0601", "an include needs a file's path", inc.span, "no path",
                                'write the path of the file to read, e.g. `include "lib/standard_deck.cardgame"`'))
        return None
    target = os.path.normpath(os.path.join(os.path.dirname(from_path), rel))
    inside = os.path.abspath(target).startswith(root + os.sep)
    if os.path.isabs(rel) or ".." in rel.replace("\\", "/").split("/"):
        went = ("leaves the script's folder" if not inside else "is written from the top of the disk"
                if os.path.isabs(rel) else "goes up a folder (`..`)")
        shorter = os.path.relpath(target, os.path.dirname(from_path))
        diags.append(Diagnostic("E0604", f"include path `{clipped(rel)}` {went}", inc.span, "not allowed",
                                "include files beside the script or in a folder below it"
                                + (f", written from there down: `include \"{clipped(shorter)}\"`" if inside else "")))
        return None
    if not inside:
        diags.append(Diagnostic("E0604", f"include path `{clipped(rel)}` leaves the script's folder", inc.span,
                                "not allowed"))
        return None
    if os.path.lexists(target):
        return target, root
    shipped = os.path.normpath(os.path.join(SHIPPED, rel))
    if root != SHIPPED and os.path.isfile(shipped):
        return shipped, SHIPPED
    diags.append(Diagnostic("E0601", f"cannot find included file `{clipped(rel)}`", inc.span, "no such file",
                            "paths are relative to the including script (or to the shipped games' "
                            "folder, which holds `lib/standard_deck.cardgame`)"))
    return None


def check_file(path: str, text: str | None = None):
    """Parse and check (`text`: the script's unsaved text); returns (tables, items, sources,
    diagnostics).  The items are the game's declarations as played: each `replace`d one is the
    replacement, in its original's place (replacing.py; the tables list what was replaced)."""
    with suggestions_budgeted():
        items, sources, diags, includes = read_sources(path, text)
        if any(d.severity == "error" for d in diags):
            return None, variation.flattened([i.decl if isinstance(i, n.Replace) else i for i in items]), sources, diags
        items, replaced, refused = replacing.resolve(items, includes, sources)
        checker = Checker()
        try:
            items, replaced, changes, unmade = variation.apply(items, replaced, includes, sources)
            refused += unmade
            with limits.stack_room():
                tables, found = checker.check(items, replaced)
        except RecursionError:  # definitions calling each other round, or one wrapped in thousands of added cases
            return None, items, sources, diags + refused + [too_deep_definitions(checker.typing, checker.t.defines)]
        tables.variations = changes
        found = variation.checked(found, changes, tables)
        if not any(d.severity == "error" for d in found + refused):
            found += seating.seat_warnings(tables, items)
    found = refused + found
    found.sort(key=_position)
    return tables, items, sources, diags + found


def too_deep_definitions(chain: list[str], defines: dict) -> Diagnostic:
    """E0606 at the outermost definition of `chain`, the definitions being typed each inside the
    one before when Python's stack ran out (only definitions calling each other round are typed
    so: call_order.py); with no chain, a definition wrapped in thousands of cases by `extend define`."""
    if not chain:
        return Diagnostic("E0606", "definitions call each other too deeply to check", None,
                          hint="a definition with thousands of cases added by `extend define` is as deep: write "
                          "the definition anew with `replace define`")
    shown = " -> ".join(f"`{name}`" for name in chain[:6]) + (" -> ..." if len(chain) > 6 else "")
    span = defines[chain[0]].span if chain[0] in defines else None
    return Diagnostic("E0606", f"definitions call each other too deeply to check ({len(chain)} deep: {shown})", span,
                      "the first of them" if span else "",
                      "definitions that call each other round are checked one inside another: make the circle "
                      "shorter, or their bodies shallower")


def _position(diag: Diagnostic):
    """Report in reading order; problems without a place come last."""
    span = diag.span
    return (1, "", 0, 0) if span is None else (0, span.path, span.line, span.column)


def script_hash(sources: dict[str, SourceFile]) -> str:
    """The script's version: its files' names and texts, in an order that does not depend on how
    the script's path was written (`game.cardgame` or `/home/me/game.cardgame`, whose shipped
    includes would otherwise sort before or after it)."""
    digest = hashlib.sha256()
    for name in sorted(sources, key=os.path.abspath):
        digest.update(os.path.basename(name).encode("utf-8", "surrogatepass"))
        digest.update(sources[name].text.encode())
    return digest.hexdigest()[:16]


def fail_if_errors(diags, sources):
    if any(d.severity == "error" for d in diags):
        raise ScriptError(diags, sources)
