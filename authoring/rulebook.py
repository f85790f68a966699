"""`cardgame rules`: a rulebook generated from a checked script.

Two readings: the players' rulebook (authoring/rulebook_players.py), prose a player reads once
and plays from, and the designer's detailed one (`--detailed`, authoring/rulebook_detailed.py),
every step of the script in order.
"""

from __future__ import annotations

import os

from cardgame import interpreter

from .flow import load_script
from .rulebook_detailed import DetailedBook
from .rulebook_html import to_html
from .rulebook_players import PlayersBook


def rulebook(path: str, option_pairs: dict | None = None, fmt: str = "md", text: str | None = None,
             detailed: bool = False) -> str:
    """The rulebook of the script at `path` (or of `text`, named `path`), in `fmt` (md or html)."""
    script = load_script(path, text)
    chosen = interpreter.load(path, text).read_options(option_pairs) if option_pairs else {}
    book = DetailedBook if detailed else PlayersBook
    text = book(script, path, chosen).markdown()
    return to_html(text, script.tables.title or os.path.basename(path)) if fmt == "html" else text
