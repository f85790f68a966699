"""Source files, spans and diagnostics: the one channel through which every user error flows."""

from __future__ import annotations

import difflib

import attrs


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

    def line(self, number: int) -> str:
        lines = self.text.splitlines()
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


def render(diag: Diagnostic, sources: dict[str, SourceFile]) -> str:
    """Render like rustc and ruff: header, location, the source line and a caret under the span."""
    out = [f"{diag.severity}[{diag.code}]: {diag.message}"]
    span = diag.span
    if span is not None:
        out.append(f" --> {span}")
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
            out.append(f"{span.line} | {text.expandtabs(4)}")
            pad = text[: span.column - 1 - start].expandtabs(4)
            caret = " " * len(pad) + "^" * width
            out.append(f"{gutter} | {caret}{' ' + diag.label if diag.label else ''}")
    if diag.hint:
        out.append(f"  = help: {diag.hint}")
    return "\n".join(out)


def did_you_mean(name: str, candidates) -> str:
    """A hint naming the closest known name, or listing the few there are."""
    candidates = sorted(set(candidates))
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

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]
