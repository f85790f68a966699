"""Static types of the language and how values of each type are written for people."""

from __future__ import annotations

INT, BOOL, TEXT, SYMBOL, CARD, PLAYER, ZONE = "int", "bool", "text", "symbol", "card", "player", "zone"
TEAM = "team"
NONE, ANY = "none", "any"
ZONES = "zones"
PLURALS = {INT: "numbers", BOOL: "true/false values", TEXT: "texts", SYMBOL: "symbols", CARD: "cards",
           PLAYER: "players", ZONE: "zones", NONE: "nones", TEAM: "teams"}  # a per-player zone named without a seat, like `hand`
SCALARS = (INT, BOOL, TEXT, SYMBOL, CARD, PLAYER, ZONE, TEAM)
TYPE_NAMES = SCALARS

KIND_WORDS = {INT: "a number", BOOL: "true/false", TEXT: "a text", SYMBOL: "a symbol", CARD: "a card",
              PLAYER: "a player", ZONE: "a zone", TEAM: "a team", NONE: "none", ANY: "a value",
              ZONES: "a per-player zone family"}


def record_type(name: str) -> str:
    """The type of the values of `record NAME { ... }`."""
    return "record:" + name


def is_record(t: str) -> bool:
    return t.startswith("record:")


def record_name(t: str) -> str:
    return t[7:]


def ordered(attr: str, base: str) -> str:
    """The type of a card attribute declared `ordered`: its values compare in the declared order.
    `base` is what the values are (int, symbol, or any when they mix numbers and names)."""
    return f"ordered:{attr}:{base}"


def is_ordered(t: str) -> bool:
    return t.startswith("ordered:")


def order_name(t: str) -> str:
    """The attribute whose declared order values of type t follow."""
    return t.split(":")[1]


def base_of(t: str) -> str:
    return t.split(":", 2)[2] if is_ordered(t) else t


def list_of(t: str) -> str:
    return "list:" + t


def is_list(t: str) -> bool:
    return t.startswith("list:")


def element(t: str) -> str:
    if t == ZONE:
        return CARD
    return t[5:] if is_list(t) else ANY


def describe(t: str) -> str:
    """`a list of cards`, `a player`: how diagnostics name a type."""
    if is_list(t):
        inner = element(t)
        if inner == NONE:
            return "an empty list"
        return "a list" if inner == ANY else f"a list of {_plural(inner)}"
    if is_record(t):
        return f"a `{record_name(t)}`"
    if is_ordered(t):
        return f"a `{order_name(t)}`"
    return KIND_WORDS.get(t, t)


def _plural(t: str) -> str:
    """`cards`, `lists of cards`: several values of type t."""
    if is_list(t):
        inner = element(t)
        return "lists" if inner == ANY else f"lists of {_plural(inner)}"
    if is_record(t):
        return f"`{record_name(t)}` records"
    if is_ordered(t):
        return f"`{order_name(t)}` values"
    return PLURALS.get(t, t)


def spelled(t: str) -> str:
    """A type as a script writes it (`list of list of card`, `meld`), for tools that show types."""
    if is_list(t):
        return "list of " + spelled(element(t))
    if is_ordered(t):  # the values of an ordered attribute: what a variable holding one declares
        return base_of(t)
    return record_name(t) if is_record(t) else t


def fits(expected: str, actual: str) -> bool:
    """Can a value of type `actual` be used where `expected` is wanted?"""
    if expected == ANY or actual in (ANY, NONE) or expected == actual:
        return True
    if is_ordered(actual):  # an ordered attribute's value is still a number or a symbol
        return fits(expected, base_of(actual))
    if is_ordered(expected):
        return fits(base_of(expected), actual)
    if is_list(expected):
        if actual == ZONE:
            return element(expected) in (CARD, ANY)
        return is_list(actual) and fits(element(expected), element(actual))
    return False


def join(a: str, b: str) -> str:
    """The type of a value that may be either `a` or `b` (if/else branches, list items)."""
    if a == b or b == NONE:
        return a
    if a == NONE:
        return b
    if is_list(a) and is_list(b):
        return list_of(join(element(a), element(b)))
    if ANY in (a, b):
        return ANY
    return ANY


def is_listlike(t: str) -> bool:
    return is_list(t) or t in (ZONE, ANY)
