"""The bottom toolbar: game, step, phase, who is to act, scores, view and the watched values."""

from __future__ import annotations

from prompt_toolkit.formatted_text import FormattedText


def toolbar(session) -> FormattedText:
    fragments: list[tuple[str, str]] = []
    for label, value in session.toolbar_items():
        if fragments:
            fragments.append(("class:bottom-toolbar.label", "  │ "))
        if label != "game":
            fragments.append(("class:bottom-toolbar.label", f"{label} "))
        fragments.append(("class:bottom-toolbar.value", value))
    return FormattedText(fragments)
