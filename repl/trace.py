"""Trace events as lines a person reads: one statement that moves many cards is one line.

A `deal` or a `move` of a whole zone emits one event per card; consecutive card moves caused by
the same statement (the same source span) are told together: `deal 13 cards to each of P0,
P1, P2 (hand)` when they went to several seats' zones, `move 9D JD 10D to discard` when they
went to one zone. So are the cards one `reveal`, `hide` or `show ... to` turns (`reveal 2S JS
QD`, `show 5C KC to P0`), a whole hand laid face up being one line.
"""

from __future__ import annotations

import re

_MOVE = re.compile(r"^move (\S+) to (\S+)$")
_TURNED = re.compile(r"^(reveal|hide) (\S+)$")
_SHOWN = re.compile(r"^show (\S+) to (\w+)$")  # a seat: P2, or its name
_SEAT_ZONE = re.compile(r"^(\w+)\[(\w+)\]$")
MAX_LISTED = 8  # cards named in a grouped move to one zone; more are counted


def grouped(events, source_text) -> list[tuple[str, str, object]]:
    """(kind, text, span) for each traced event, consecutive card events of one statement merged:
    moves, and reveals, hides and shows to one player (`reveal 2S JS QD`).
    `source_text(span)` (the statement's source) tells a `deal` from a `move`."""
    out: list[tuple[str, str, object]] = []
    run: list = []  # the parsed events being merged, all of one kind from run_key's statement
    run_key = None  # (kind, span, player shown to)

    def flush():
        if run:
            kind, span, player = run_key
            text = _told(run, source_text(span) if span is not None else "") if kind == "move" else \
                _turned(kind, [card for card, in run], player)
            out.append((kind, text, span))
            run.clear()

    for event in events:
        key, parts = _card_event(event)
        if key is not None and run and key == run_key:
            run.append(parts)
            continue
        flush()
        if key is not None:
            run.append(parts)
            run_key = key
        else:
            out.append((event.kind, event.text, event.span))
    flush()
    return out


def _card_event(event):
    """(merge key, the card and where it went) of an event that merges with its statement's
    others, else (None, None)."""
    if event.kind == "move":
        match = _MOVE.match(event.text)
        return ((event.kind, event.span, None), match.groups()) if match else (None, None)
    if event.kind in ("reveal", "hide"):
        match = _TURNED.match(event.text)
        return ((event.kind, event.span, None), (match.group(2),)) if match else (None, None)
    if event.kind == "peek":
        match = _SHOWN.match(event.text)
        return ((event.kind, event.span, match.group(2)), (match.group(1),)) if match else (None, None)
    return None, None


def _turned(kind: str, cards: list[str], player) -> str:
    """`reveal 2S JS`, `hide 4 cards`, `show 2S JS to P1`."""
    listed = " ".join(cards) if len(cards) <= MAX_LISTED else _cards(len(cards))
    return f"show {listed} to {player}" if kind == "peek" else f"{kind} {listed}"


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
