"""Source files, spans and diagnostics: the one channel through which every user error flows."""

from __future__ import annotations

import contextlib
import contextvars
import difflib
import re

import attrs

# Characters a terminal obeys or does not show: controls (escape sequences), format characters
# (zero-width spaces, bidirectional overrides), line and paragraph separators, spaces other
# than the plain one, private-use characters and the few letters that are blank by design.
# Written out, since computing it from unicodedata costs half a second at every start;
# tests/hostile/test_terminal.py computes it again and compares.
UNSEEN = re.compile(
    r"[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\xa0\xad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2"
    r"\u115f-\u1160\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u2066-\u206f\u2800\u3000"
    r"\u3164\ud800-\uf8ff\ufeff\uffa0\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U00013438"
    r"\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
    r"\U000f0000-\U000ffffd\U00100000-\U0010fffd]")


def printable(text: str) -> str:
    """`text` safe to write to a terminal: each invisible or control character (see UNSEEN)
    shown as an escape like `\\x1b` or `\\u200b`; line breaks and tabs are kept."""
    return UNSEEN.sub(lambda m: (f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                                 else f"\\u{ord(m.group()):04x}" if ord(m.group()) < 0x10000
                                 else f"\\U{ord(m.group()):08x}"), text)


@attrs.frozen
class Span:
    """A region of a source file; lines and columns are 1-based, the end is exclusive."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    @property
    def short(self) -> str:
        """`file.cardgame:42`: how explanations cite a rule."""
        name = self.path.replace("\\", "/").rsplit("/", 1)[-1]
        return f"{name}:{self.line}"


@attrs.frozen
class SourceFile:
    """The text of one script, kept so diagnostics can quote the offending line."""

    path: str
    text: str
    # split once: explanations quote many lines of one script (a lint judges thousands of moves)
    _lines: tuple = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self):
        object.__setattr__(self, "_lines", tuple(self.text.splitlines()))

    def line(self, number: int) -> str:
        lines = self._lines
        return lines[number - 1] if 0 < number <= len(lines) else ""


@attrs.frozen
class Diagnostic:
    """One problem found in user input.

    Attributes:
        code: stable identifier such as `E0201`, documented in docs/diagnostics.md.
        message: what is wrong, in one sentence.
        span: where; None for problems without a location (a missing declaration).
        label: short text printed under the caret.
        hint: how to fix it, when we can tell.
        severity: "error" or "warning".
    """

    code: str
    message: str
    span: Span | None = None
    label: str = ""
    hint: str = ""
    severity: str = "error"

    def to_json(self) -> dict:
        data = {"severity": self.severity, "code": self.code, "message": self.message}
        if self.span is not None:
            data.update(path=self.span.path, line=self.span.line, column=self.span.column,
                        end_line=self.span.end_line, end_column=self.span.end_column)
        if self.label:
            data["label"] = self.label
        if self.hint:
            data["hint"] = self.hint
        return data


MAX_QUOTE = 120  # characters of a source line quoted under a diagnostic
# How to put a card inside a pile: the hint of E0170 (`move c to pile at n`, a syntax error) and
# of E0206 for `at (n)` (a call of a procedure `at`, found by the checker).
AT_POSITION_HINT = ("a card goes on top (the default) or `at bottom`; to put it n cards down, lift the cards above "
                    "it into a spare zone and put them back: `move reverse(top(pile, n)) to spare`, `move c to pile`, "
                    "`move spare to pile` (docs/language.md §13)")


def render(diag: Diagnostic, sources: dict[str, SourceFile]) -> str:
    """Render like rustc and ruff: header, location, the source line and a caret under the span."""
    out = [f"{diag.severity}[{diag.code}]: {printable(diag.message)}"]
    span = diag.span
    if span is not None:
        out.append(f" --> {printable(str(span))}")
        source = sources.get(span.path)
        text = source.line(span.line) if source else ""
        if text:
            gutter = " " * len(str(span.line))
            width = (span.end_column - span.column) if span.end_line == span.line else len(text) - span.column + 1
            width = max(1, min(width, MAX_QUOTE))
            start = 0
            if len(text) > MAX_QUOTE:  # quote a window around the span of a very long line
                start = max(0, span.column - 1 - MAX_QUOTE // 4)
                text = ("..." if start else "") + text[start:start + MAX_QUOTE] + "..."
                start -= 3 if start else 0
            out.append(f"{gutter} |")
            out.append(f"{span.line} | {printable(text.expandtabs(4))}")
            pad = printable(text[: span.column - 1 - start].expandtabs(4))
            caret = " " * len(pad) + "^" * width
            out.append(f"{gutter} | {caret}{' ' + printable(diag.label) if diag.label else ''}")
    if diag.hint:
        out.append(f"  = help: {printable(diag.hint)}")
    return "\n".join(out)


# Names one check may compare unknown names with, all its hints together: a script of thousands
# of unknown names among thousands of look-alike ones took 152 s (each comparison costs ~40 us).
SUGGESTION_WORK = 50_000
_suggestion_work = contextvars.ContextVar("suggestion_work", default=None)


@contextlib.contextmanager
def suggestions_budgeted(units: int = SUGGESTION_WORK):
    """Within it, the `did you mean` hints compare at most `units` names in all; past that a
    hint only lists the few names there are."""
    token = _suggestion_work.set([units])
    try:
        yield
    finally:
        _suggestion_work.reset(token)


def clipped(text: str, most: int = 60) -> str:
    """A text someone typed or wrote (an option's value, a path), quoted back at most `most`
    characters long."""
    return text if len(text) <= most else f"{text[:most - 20]}...({len(text):,} characters)"


def did_you_mean(name: str, candidates) -> str:
    """A hint naming the closest known name, or listing the few there are."""
    candidates = sorted(set(candidates))
    left = _suggestion_work.get()
    if left is None or left[0] >= len(candidates):
        if left is not None:
            left[0] -= len(candidates)
        close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
        if close:
            return f"did you mean `{close[0]}`?"
    if 0 < len(candidates) <= 8:
        return "known: " + ", ".join(candidates)
    return ""


class ScriptError(Exception):
    """A script, saved game or option set was rejected; carries every diagnostic found."""

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, SourceFile] | None = None):
        self.diagnostics = list(diagnostics)
        self.sources = dict(sources or {})
        super().__init__(self.render())

    def render(self) -> str:
        return "\n\n".join(render(d, self.sources) for d in self.diagnostics)

    def __reduce__(self):  # travels from worker processes whole (the default passed the text as diagnostics)
        return type(self), (self.diagnostics, self.sources)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]
