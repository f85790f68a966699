"""How a card's face is drawn in the HTML replay: its label, its suit symbol and its colour.

Read from the deck's attributes, never from a game's name: a suit (an attribute whose values
are some of C, D, H, S) is drawn with its symbol, hearts and diamonds red, as the REPL's table
draws it (table.Deck); an attribute whose values all name colours (`red`, `blue`, or their
initials `R`, `b`...) tints the card: a card `7r` of a deck coloured `r, b, y` is red.
Other cards show their names.
"""

from __future__ import annotations

from .table import Deck

COLOURS = {"red": "red", "blue": "blue", "green": "green", "yellow": "yellow", "white": "white", "black": "black",
           "purple": "purple", "orange": "orange", "r": "red", "b": "blue", "g": "green", "y": "yellow",
           "w": "white", "p": "purple", "o": "orange"}
RED_SUITS = ("♥", "♦")


def card_faces(cards, names: list[str]) -> dict:
    """{name: [label, suit symbol or "", colour or ""]} for the cards `names` (only those: the
    page holds no other card's name), from the game's `cards` (Game.cards)."""
    deck = Deck.of(cards)
    tint = _tints(cards)
    out = {}
    for name in names:
        glyph = deck.glyphs.get(name)
        if glyph is not None:
            suit = glyph[-1]
            out[name] = [glyph[:-1], suit, "red" if suit in RED_SUITS else "black"]
        else:
            out[name] = [name, "", tint.get(name, "")]
    return out


def _tints(cards) -> dict:
    """name -> colour, by the first attribute whose every value names a colour; {} if none does."""
    values: dict = {}
    for card in cards:
        for attr, value in card.attrs.items():
            values.setdefault(attr, set()).add(str(value).lower())
    for attr, seen in values.items():
        if len(seen) > 1 and all(v in COLOURS for v in seen):
            return {c.name: COLOURS[str(c.attrs[attr]).lower()] for c in cards if attr in c.attrs}
    return {}
