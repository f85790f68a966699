"""Which part of the engine's model a counted instruction serves, read from its source line.

The playouts' instructions split into the game's own logic and what the exact model adds on top
of it: counting every unit of work against the budgets, keeping each card's location and
visibility in step with the zones, the shuffle and the agents' draws.  Sorting the counted lines
into those kinds bounds what any change of the model could buy: without the budgets, locations
and visibilities, a playout would still execute the rest.  The sort reads the text of each line
(generated code included), so a line that does two things counts for its first kind below; it is
a measurement aid, not an exact accounting.
"""

from __future__ import annotations

import linecache
import re

from cardgame.interpreter.language.rng import GAMMA, MIX1, MIX2

GENERATED_PREFIX = "<cardgame generated "

# The generator's constants (interpreter/rng.py) as the playouts' inlined draws spell them.
SPLITMIX64 = tuple(str(constant) for constant in (GAMMA, MIX1, MIX2))

# (kind, test on (function name, line text)), first match wins.
KINDS = (
    ("shuffle", lambda fn, text: fn == "shuffle"),
    ("visibility", lambda fn, text: "vis[" in text),
    ("location", lambda fn, text: "loc[" in text),
    ("work and budgets", lambda fn, text: fn == "charge" or re.search(
        r"\bwork\b|work_limit|game_work|\.far\b|\.stop\b|charge\(", text) is not None),
    ("agent's draw", lambda fn, text: any(constant in text for constant in SPLITMIX64) or ">> 64" in text),
    ("remembered definitions", lambda fn, text: "memo" in text),
    ("move log", lambda fn, text: "history" in text or "st.decisions" in text),
)
REST = "the game's logic and the rest"
# The kinds a playout-only model (no per-card location or visibility, no exact work counts) drops.
MODEL = ("work and budgets", "visibility", "location")


def generated_lines(sources: list[str]) -> dict[str, list[str]]:
    """The lines of each generated function, by the name its code object is compiled under."""
    lines = {}
    for src in sources:
        first = src.split("\n", 1)[0]
        if first.startswith("def "):
            lines[first[4:].split("(", 1)[0]] = src.split("\n")
    return lines


def line_text(filename: str, function: str, line: int | None, generated: dict[str, list[str]]) -> str:
    if not line:
        return ""
    if filename.startswith(GENERATED_PREFIX):
        text = generated.get(filename[len(GENERATED_PREFIX):-1]) or generated.get(function) or []
        return text[line - 1].strip() if 0 < line <= len(text) else ""
    return linecache.getline(filename, line).strip()


def kind_of(function: str, text: str) -> str:
    return next((kind for kind, test in KINDS if test(function, text)), REST)


def by_kind(counts, generated: dict[str, list[str]]) -> dict[str, int]:
    """counts[(filename, function, line)] summed by kind, largest first."""
    totals: dict[str, int] = {}
    for (filename, function, line), n in counts.items():
        kind = kind_of(function, line_text(filename, function, line, generated))
        totals[kind] = totals.get(kind, 0) + n
    return dict(sorted(totals.items(), key=lambda item: -item[1]))
