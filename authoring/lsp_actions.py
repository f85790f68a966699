"""Code actions (quick fixes) for the language server: every diagnostic whose hint says
"did you mean `X`?" offers to write X over the misspelled word, and the diagnostics of
docs/diagnostics.md whose fix is one mechanical edit offer it (FIXES, one entry per code:
`=` for `==`, `&&` for `and`, `else if` for `elif`, `x++` for `set x += 1`, ...).

A fix is (title, [(span, new text)]), 1-based spans as the checker gives them; applying it
makes its diagnostic go away (tests/test_lsp_features.py applies each one to the example of
docs/diagnostics.md and checks again).  Diagnostics whose fix needs a choice (which player
`tricks[p]` meant, where a `}` belongs) offer none.
"""

from __future__ import annotations

import difflib
import re

from lsprotocol import types as lsp

from cardgame.interpreter.language.source import Diagnostic, Span

from .analysis import Analysis

_DID_YOU_MEAN = re.compile(r"did you mean `([^`]+)`")
_WORD = re.compile(r"[A-Za-z0-9_]+")


def _at(span: Span, line: int, start: int, end: int) -> Span:
    """The columns start..end (0-based, end exclusive) of a line, as a span."""
    return Span(span.path, line, start + 1, line, end + 1)


def _did_you_mean(diag: Diagnostic, line: str):
    m = _DID_YOU_MEAN.search(diag.hint)
    if m is None or diag.span is None or diag.span.end_line != diag.span.line:
        return None
    meant = m.group(1)
    part = line[diag.span.column - 1:diag.span.end_column - 1]
    words = [w for w in _WORD.finditer(part) if w.group() != meant]
    named = set(re.findall(r"`([^`]+)`", diag.message))
    chosen = [w for w in words if w.group() in named] or \
        sorted(words, key=lambda w: -difflib.SequenceMatcher(None, w.group(), meant).ratio())
    if not chosen:
        return None
    w = chosen[0]
    start = diag.span.column - 1 + w.start()
    return f"Change `{w.group()}` to `{meant}`", [(_at(diag.span, diag.span.line, start, start + len(w.group())), meant)]


def _replace_at(diag, line, old: str, new: str):
    """`old` written where the span starts (or just before it), replaced by `new`."""
    col = diag.span.column - 1
    for start in (col, col - len(old) + 1):
        if start >= 0 and line.startswith(old, start):
            return f"Write `{new.strip()}` for `{old.strip()}`", [(_at(diag.span, diag.span.line, start, start + len(old)), new)]
    return None


def _first_match(*pairs, title: str = ""):
    def fix(diag, line):
        for old, new in pairs:
            found = _replace_at(diag, line, old, new)
            if found is not None:
                return (title or found[0]), found[1]
        return None
    return fix


def _line_regex(pattern: str, replace, title: str):
    """A fix that rewrites the first match of `pattern` on the diagnostic's line."""
    def fix(diag, line):
        m = re.search(pattern, line)
        if m is None:
            return None
        new = m.expand(replace) if isinstance(replace, str) else replace(m)
        return title, [(_at(diag.span, diag.span.line, m.start(), m.end()), new)]
    return fix


def _add_set(diag, line):
    indent = len(line) - len(line.lstrip())
    return "Add `set`", [(_at(diag.span, diag.span.line, indent, indent), "set ")]


def _else_if(diag, line):
    m = re.search(r"else\s+if\b", line)
    return None if m is None else ("Write `elif`", [(_at(diag.span, diag.span.line, m.start(), m.end()), "elif")])


def _drop_then(diag, line):
    m = re.search(r"\s*\bthen\b", line[diag.span.column - 2 if diag.span.column > 1 else 0:])
    if m is None:
        return None
    start = (diag.span.column - 2 if diag.span.column > 1 else 0) + m.start()
    return "Remove `then`", [(_at(diag.span, diag.span.line, start, start + len(m.group())), "")]


def _times(diag, line):
    col = diag.span.column - 1
    return "Add `times`", [(_at(diag.span, diag.span.line, col, col), "times ")]


def _double_quotes(diag, line):
    col = diag.span.column - 1
    end = line.find("'", col + 1)
    if end < 0 or '"' in line[col:end]:
        return None
    return "Write the text in double quotes", [(_at(diag.span, diag.span.line, col, col + 1), '"'),
                                               (_at(diag.span, diag.span.line, end, end + 1), '"')]


def _close_text(diag, line):
    end = len(line.rstrip())
    return 'Close the text with `"`', [(_at(diag.span, diag.span.line, end, end), '"')]


def _log_call(diag, line):
    """`log("...")` -> `log "..."`: the brackets around the text dropped."""
    col = diag.span.column - 1
    depth, i, quoted = 0, col, False
    while i < len(line):
        ch = line[i]
        if quoted:
            if ch == "\\":
                i += 1
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return "Write `log \"...\"`", [(_at(diag.span, diag.span.line, col, col + 1), " "),
                                               (_at(diag.span, diag.span.line, i, i + 1), "")]
        i += 1
    return None


def _increment(diag, line):
    m = re.search(r"(\+\+|--)", line[diag.span.column - 2 if diag.span.column > 1 else 0:])
    if m is None:
        return None
    start = (diag.span.column - 2 if diag.span.column > 1 else 0) + m.start()
    edits = [(_at(diag.span, diag.span.line, start, start + 2), " += 1" if m.group() == "++" else " -= 1")]
    if not line.lstrip().startswith("set "):
        indent = len(line) - len(line.lstrip())
        edits.insert(0, (_at(diag.span, diag.span.line, indent, indent), "set "))
    return f"Write `{'+=' if m.group() == '++' else '-='} 1`", edits


def _compound(m):
    target, op, value = m.group(2), m.group(3), m.group(4).strip()
    if not re.fullmatch(r"[A-Za-z0-9_.\[\]()]+", value):
        value = f"({value})"
    return f"{m.group(1)}{target} = {target} {op} {value}"


def _swap_range(diag, line):
    part = line[diag.span.column - 1:diag.span.end_column - 1]
    m = re.fullmatch(r"(.+?)\s*\.\.\s*(.+)", part)
    if m is None or diag.span.end_line != diag.span.line:
        return None
    return "Write the smaller count first", [(diag.span, f"{m.group(2)}..{m.group(1)}")]


def _drop_key(diag, line):
    before = line[:diag.span.column - 1]
    comma = before.rstrip().rfind(",")
    if comma < 0 or before[comma + 1:].strip():
        return None
    return f"Remove the repeated key `{line[diag.span.column - 1:diag.span.end_column - 1]}`", [
        (_at(diag.span, diag.span.line, comma, diag.span.end_column - 1), "")]


def _write_hint(diag, line):
    """`write `<=``: the hint's text written over the span (a single character not ASCII)."""
    m = re.fullmatch(r"write `([^`]+)`", diag.hint)
    if m is None or diag.span.end_line != diag.span.line:
        return None
    return f"Write `{m.group(1)}`", [(diag.span, m.group(1))]


def _delete(diag, line):
    return "Delete the invisible character", [(diag.span, "")]


# code -> fix(diagnostic, its line) -> (title, edits) or None
FIXES = {
    "E0102": _first_match(("=>", ">="), ("=<", "<="), ("=", "==")),
    "E0103": _add_set,
    "E0105": _else_if,
    "E0113": _delete,
    "E0115": _first_match(("&&", "and"), ("||", "or"), ("! ", "not "), ("!", "not ")),
    "E0126": _drop_then,
    "E0127": _first_match(("-", " "), title="Write `face up` (two words)"),
    "E0128": _log_call,
    "E0129": _line_regex(r"\bin\s+(\S+?)\s*\.\.\s*(\S+?)(\s*\{)", r"in range(\1, \2)\3", "Write `range(LOW, HIGH)`"),
    "E0130": _times,
    "E0131": _increment,
    "E0133": _double_quotes,
    "E0139": _write_hint,
    "E0147": _line_regex(r"(set\s+)([A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?)\s*([*/%])=\s*(.+?)\s*$", _compound,
                         "Write `set x = x * y`"),
    "E0151": _line_regex(r"private\s+per\s+player", "per player private", "Write `per player private`"),
    "E0154": _first_match(("if", "where")),
    "E0155": _close_text,
    "E0156": _line_regex(r"face\s+(up|down)\s+at\s+bottom", r"at bottom face \1", "Write `at bottom` first"),
    "E0194": _first_match(("is not", "!="), ("is", "==")),
    "E0303": _first_match(("let", "set")),
    "E0323": _swap_range,
    "W0177": _drop_key,
}


def fixes(analysis: Analysis, diag: Diagnostic) -> list[tuple[str, list[tuple[Span, str]]]]:
    """The quick fixes of one diagnostic of this text."""
    if diag.span is None:
        return []
    source = analysis.sources.get(diag.span.path)
    lines = (source.text if source is not None else analysis.text).split("\n")
    line = lines[diag.span.line - 1] if 0 < diag.span.line <= len(lines) else ""
    out = []
    for fix in (_did_you_mean, FIXES.get(diag.code)):
        found = fix(diag, line) if fix is not None else None
        if found is not None:
            out.append(found)
    return out


def apply(text: str, edits: list[tuple[Span, str]]) -> str:
    """`text` with the edits (of one file) made, the last first."""
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    for span, new in sorted(edits, key=lambda e: (e[0].line, e[0].column), reverse=True):
        a = starts[span.line - 1] + span.column - 1
        b = starts[span.end_line - 1] + span.end_column - 1
        text = text[:a] + new + text[b:]
    return text


def register(server, to_range, to_diagnostic) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
    def code_action(ls, params: lsp.CodeActionParams):
        uri = params.text_document.uri
        analysis = ls.analysis(uri)
        want = params.range
        out = []
        for diag in analysis.diagnostics:
            if diag.span is None or diag.span.path != analysis.path:
                continue
            r = to_range(diag.span)
            if (r.end.line, r.end.character) < (want.start.line, want.start.character) or \
                    (want.end.line, want.end.character) < (r.start.line, r.start.character):
                continue
            for title, edits in fixes(analysis, diag):
                out.append(lsp.CodeAction(title, kind=lsp.CodeActionKind.QuickFix, diagnostics=[to_diagnostic(diag)],
                                          is_preferred=len(out) == 0, edit=lsp.WorkspaceEdit(changes={
                                              uri: [lsp.TextEdit(to_range(span), new) for span, new in edits]})))
        return out
