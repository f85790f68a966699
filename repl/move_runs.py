"""Long lists of moves told in runs: `raise 134..145` for twelve raises, one line instead of twelve.

A run is three or more moves in a row that differ only in one number, counting up by one, listed
at consecutive positions and saying the same thing beside them (`forbidden by nobody_raised`).
`moves` shows each run as one row (`#2-#13. raise 134..145`); `--full` lists every move.
"""

from __future__ import annotations

import re

import attrs

MIN_RUN = 3  # fewer moves read as easily one by one
_NUMBERED = re.compile(r"^(.*\S) (-?\d+)$")  # `raise 134`, `bid 3`: a text ending in a number
_LISTED = re.compile(r"[^\s,;:`][^,;:`]*? -?\d+(?:, [^\s,;:`][^,;:`]*? -?\d+)+")  # `raise 1, raise 2, raise 3`


@attrs.frozen
class Row:
    """One row of a list of moves: a move, or a run of them.

    Attributes:
        first, last: the positions in `moves` of its first and last move (None: not numbered).
        text: the move, or the run (`raise 134..145`); count: how many moves it stands for.
        note: what is said beside it (why it is forbidden), the same for every move of a run.
    """

    first: int | None
    last: int | None
    text: str
    count: int = 1
    note: str = ""


def rows_of(entries: list[tuple[int | None, str, str]]) -> list[Row]:
    """The rows of `entries` (position or None, move text, note), runs told as one row."""
    rows: list[Row] = []
    run: list[tuple[int | None, str, str, int]] = []  # the entries of the run being read, with their numbers

    def close():
        if len(run) >= MIN_RUN:
            (first, text, note, low), (last, _, _, high) = run[0], run[-1]
            stem = _NUMBERED.match(text).group(1)
            rows.append(Row(first, last, f"{stem} {low}..{high}", len(run), note))
        else:
            rows.extend(Row(position, position, text, 1, note) for position, text, note, _ in run)
        run.clear()

    for position, text, note in entries:
        match = _NUMBERED.match(text)
        if match and run and _continues(run[-1], position, match.group(1), int(match.group(2)), note):
            run.append((position, text, note, int(match.group(2))))
            continue
        close()
        if match:
            run.append((position, text, note, int(match.group(2))))
        else:
            rows.append(Row(position, position, text, 1, note))
    close()
    return rows


def _continues(previous, position, stem: str, number: int, note: str) -> bool:
    """Does the move (`stem number` at `position`, with `note`) come next in the run ending with `previous`?"""
    last_position, last_text, last_note, last_number = previous
    in_line = position is None and last_position is None or \
        position is not None and last_position is not None and position == last_position + 1
    return in_line and note == last_note and number == last_number + 1 and \
        _NUMBERED.match(last_text).group(1) == stem


def compact_listing(text: str) -> str:
    """`text` with each comma-separated list of moves that make a run written as one
    (`raise 1, raise 2, raise 3, raise 5` reads `raise 1..3, raise 5`): a message listing choices."""
    def compact(match: re.Match) -> str:
        items = match.group(0).split(", ")
        return ", ".join(row.text for row in rows_of([(None, item, "") for item in items]))
    return _LISTED.sub(compact, text)
