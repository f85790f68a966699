"""The bottom toolbar: game, step, phase, who is to act, scores, view and the watched values.

It fits the terminal's width: the status comes first and, when the line would overflow, the
items the prompt already shows (game, step, view) are dropped first; the watches then go on a
line of their own (more lines if they need them), so a narrow terminal never loses them.
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import FormattedText

SEPARATOR = "  │ "
_DROPPABLE = ("game", "step", "view")  # the prompt shows the game and step; `view` says the view


def toolbar(session, width: int | None = None) -> FormattedText:
    width = width or _columns()
    items = session.toolbar_items()
    status = [i for i in items if i[0] in _STATUS]
    watches = [i for i in items if i[0] not in _STATUS]
    for label in _DROPPABLE:
        if _length(status) <= width:
            break
        status = [i for i in status if i[0] != label] or status
    if _length(status + watches) <= width:
        lines = [status + watches]
    else:
        lines = _pack(status, width) + (_pack(watches, width) if watches else [])
    fragments: list[tuple[str, str]] = []
    for n, line in enumerate(lines):
        if n:
            fragments.append(("", "\n"))
        for k, (label, value) in enumerate(line):
            if k:
                fragments.append(("class:bottom-toolbar.label", SEPARATOR))
            if label not in _BARE:
                fragments.append(("class:bottom-toolbar.label", f"{label} "))
            fragments.append(("class:bottom-toolbar.value", value))
    return FormattedText(fragments)


_STATUS = ("game", "step", "phase", "to act", "status", "scores", "view")
_BARE = ("game", "status")  # shown without their label: the title, `game over`


def _item_length(item) -> int:
    label, value = item
    return len(value) + (0 if label in _BARE else len(label) + 1)


def _length(items) -> int:
    return sum(_item_length(i) for i in items) + len(SEPARATOR) * max(0, len(items) - 1)


def _pack(items, width: int) -> list[list]:
    """Items on lines of at most `width`; an item too long for any line is cut with `…`."""
    lines, line = [], []
    for label, value in items:
        room = width - (0 if label in _BARE else len(label) + 1)
        if len(value) > room:
            value = value[:max(1, room - 1)] + "…"
        if line and _length(line + [(label, value)]) > width:
            lines.append(line)
            line = []
        line.append((label, value))
    if line:
        lines.append(line)
    return lines or [[]]


def _columns() -> int:
    from prompt_toolkit.application import get_app_or_none
    app = get_app_or_none()
    try:
        return app.output.get_size().columns if app is not None else 80
    except (AttributeError, OSError):
        return 80
