"""Trace events as lines a person reads: one statement that moves many cards is one line.

A `deal` or a `move` of a whole zone emits one event per card; consecutive card moves caused by
the same statement (the same source span) are told together: `deal 13 cards to each of P0,
P1, P2 (hand)` when they went to several seats' zones, `move 9D JD 10D to discard` when they
went to one zone.
"""

from __future__ import annotations

import re

_MOVE = re.compile(r"^move (\S+) to (\S+)$")
_SEAT_ZONE = re.compile(r"^(\w+)\[(P\d+)\]$")
MAX_LISTED = 8  # cards named in a grouped move to one zone; more are counted


def grouped(events, source_text) -> list[tuple[str, str, object]]:
    """(kind, text, span) for each traced event, consecutive card moves of one statement merged.
    `source_text(span)` (the statement's source) tells a `deal` from a `move`."""
    out: list[tuple[str, str, object]] = []
    run: list = []  # (card, zone) of the moves being merged, all from run_span
    run_span = None

    def flush():
        if run:
            out.append(("move", _told(run, source_text(run_span) if run_span is not None else ""), run_span))
            run.clear()

    for event in events:
        match = _MOVE.match(event.text) if event.kind == "move" else None
        if match and run and event.span == run_span:
            run.append(match.groups())
            continue
        flush()
        if match:
            run.append(match.groups())
            run_span = event.span
        else:
            out.append((event.kind, event.text, event.span))
    flush()
    return out


def _told(moves: list[tuple[str, str]], source: str) -> str:
    if len(moves) == 1:
        card, zone = moves[0]
        return f"move {card} to {zone}"
    zones: dict[str, list[str]] = {}
    for card, zone in moves:
        zones.setdefault(zone, []).append(card)
    verb = "deal" if source.lstrip().startswith("deal") else "move"
    if len(zones) == 1:
        (zone, cards), = zones.items()
        listed = " ".join(cards) if len(cards) <= MAX_LISTED else f"{len(cards)} cards"
        return f"{verb} {listed} to {zone}"
    counts = {len(cards) for cards in zones.values()}
    families = {(_SEAT_ZONE.match(z) or [None, z])[1] for z in zones}
    if len(counts) == 1 and len(families) == 1 and all(_SEAT_ZONE.match(z) for z in zones):
        count = counts.pop()
        seats = ", ".join(_SEAT_ZONE.match(z).group(2) for z in zones)
        return f"{verb} {_cards(count)} to each of {seats} ({families.pop()})"
    return f"{verb} {_cards(len(moves))}: " + ", ".join(f"{len(cards)} to {zone}" for zone, cards in zones.items())


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"
