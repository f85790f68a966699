"""Where the comments of a script belong: the formatter keeps them there, the rulebook quotes
the ones that describe a declaration."""

from __future__ import annotations

import re

_COMMENT = re.compile(r"#[^\n]*")


def attach_comments(text: str, toks: list):
    """Attach each comment to a token: after the token before it on the same line (trailing), or
    before the next token (leading).  Comments after the last token lead the end of the file
    (index len(toks)).

    Returns (lead, trail, blank): lead maps a token index to [(comment, blank line before it)],
    trail a token index to its trailing comment, blank a token index to whether an empty line
    comes right before it (after its leading comments)."""
    lead: dict[int, list] = {}
    trail: dict[int, str] = {}
    blank: dict[int, bool] = {}
    end = 0
    for i, tok in enumerate(list(toks) + [None]):
        start = tok.start if tok is not None else len(text)
        gap = text[end:start]
        pos = 0
        for m in _COMMENT.finditer(gap):
            before = gap[pos:m.start()]
            comment = m.group().rstrip()
            if i > 0 and pos == 0 and "\n" not in before:
                trail[i - 1] = comment
            else:
                lead.setdefault(i, []).append((comment, before.count("\n") >= 2 and (i > 0 or pos > 0)))
            pos = m.end()
        blank[i] = gap[pos:].count("\n") >= 2 and (i > 0 or pos > 0)
        if tok is not None:
            end = tok.end
    return lead, trail, blank


def comment_text(comment: str) -> str:
    """A comment's words, without the `#` and one space after it."""
    body = comment[1:]
    return body[1:] if body.startswith(" ") else body
