"""What a diagnostic suggests: the wording of hints, kept apart from the checks that decide what to report."""

from __future__ import annotations

import difflib
import re

from . import nodes as n, orders
from .source import did_you_mean
from .tables import Tables
from .types import INT, PLAYER, SYMBOL, TEXT, TYPE_NAMES, ZONES, list_of

# Functions other languages have, and how this one says them (E0209's hint).
OTHER_LANGUAGES_FUNCTIONS = {
    "len": "the number of items is `count(L)`", "length": "the number of items is `count(L)`",
    "size": "the number of items is `count(L)`", "print": "`log \"text {value}\"` is a statement",
    "sort": "`sorted(L)` sorts numbers; `sorted x in L by KEY` sorts cards", "distinct": "did you mean `unique`?",
    "contains": "write `x in L`", "shuffled": "`shuffle ZONE` is a statement",
    "append": "`move CARD to ZONE` adds a card; `L + [x]` makes a longer list",
}


class Hints:
    """Hints worked out from the script's tables: a part of Checker (checker.py), whose methods use the state
    Checker.__init__ sets up and the other parts' methods, as one object."""

    def _known_types(self, name: str) -> str:
        """E0205's hint: the closest type, else the types there are, records and card attributes
        (`var trump: suit`) named apart so that a long deck does not hide the built-in ones."""
        groups = {"types": set(TYPE_NAMES), "records": set(self.t.records),
                  "card attributes": set(self.t.card_attrs), "symbols": set(self.t.symbol_sets)}
        close = did_you_mean(name, set().union(*groups.values()))
        if close.startswith("did you mean"):
            return close
        return "; ".join(f"{label}: {', '.join(sorted(names))}" for label, names in groups.items() if names)

    def _symbol_and_card(self, node) -> str:
        """The hint for a name that is both a symbol and a card: it reads as the symbol."""
        if isinstance(node, n.Name) and self.t.resolved.get(id(node), (None,))[0] == "symbol" \
                and node.name in self._card_ids():
            return (f"`{node.name}` is both a card's name and an attribute value; a bare name reads as the value, "
                    f"so this card has no literal: find it by its attributes, or give its deck a `name:` that "
                    f"makes card names differ from attribute values")
        return ""

    _HIDING = {"global": "variable", "option": "option", "zone": "zone", "zones": "zone", "define": "definition"}

    def _symbol_hidden(self, node) -> str:
        """The hint for a name that reads as a declaration hiding the symbol of that name (W0408)."""
        kind = self.t.resolved.get(id(node), (None,))[0] if isinstance(node, n.Name) else None
        if kind not in self._HIDING or node.name not in self.t.symbols:
            return ""
        what = self._HIDING[kind]
        return (f"`{node.name}` here is the {what} of that name, which hides the symbol `{node.name}` (W0408): "
                f"rename the {what} to compare with the symbol")

    def _param_hint(self, param: n.Param, name: str, want: str, actual: str, arg) -> str:
        """Which parameter wanted the value, as declared; for a value of a card attribute that mixes
        numbers and names (`rank`: 9, 10, J, ...), the attribute's own name as the type."""
        ref = param.type
        written = "list of " * (ref.depth if ref.is_list else 0) + ref.name
        where = f"line {param.span.line}" if param.span.path == arg.span.path else param.span.short
        said = f"the parameter `{param.name}` of `{name}` is declared `{written}` ({where})"
        if {want, actual} != {INT, SYMBOL}:
            return said
        value = arg.value if isinstance(arg, n.Literal) and arg.kind == "int" else \
            arg.name if isinstance(arg, n.Name) and self.t.resolved.get(id(arg), ("",))[0] == "symbol" else None
        mixed = [a for a in self.t.card_attrs if _mixes_numbers_and_names(self.t, a) and
                 any(c.attrs.get(a) == value for c in self.t.cards)]
        if value is None or not mixed:
            return said
        return (f"{said}; `{mixed[0]}` values mix numbers and names, so a parameter that takes them is declared "
                f"`{param.name}: {mixed[0]}`")

    def _mixed_hint(self, attr: str, op: str, ordered: bool = False) -> str:
        """An order lets `<` compare names, never `+` count them: arithmetic needs numbers, the
        ones an `attribute ... from` already gives when the script has one."""
        if op in ("+", "-", "*", "/", "%", "^", "+=", "-=", "*=", "/=", "%="):
            counted = [a.name for a in self.t.number_attributes.values() if a.source == attr]
            if counted:
                return f"count `c.{counted[0]}` instead, the numbers `attribute {counted[0]} from {attr}` gives"
            numbers = f"give them numbers beside the deck (`attribute points from {attr}: J = 10, ...`) and count " \
                      "those (`c.points`)"
            if ordered:
                return f"count places in the order, `place(c.{attr})` (0 for the lowest), or {numbers}"
            return f"{numbers}, or test the names first (`if c.{attr} == A then 11 else c.{attr}`)"
        return (f"declare its order in the deck (`ordered {attr}: 2, 3, ..., A`), or test the "
                f"names first (`if c.{attr} == A then 11 else c.{attr}`)")

    def _order_hint(self, attr: str, span, use: str = "") -> str:
        """How to give `attr` an order: `ordered` in its deck, or, written here (the deck may be an
        included library's), a number attribute listing its values."""
        values = list(dict.fromkeys(c.attrs[attr] for c in self.t.cards if c.attrs.get(attr) is not None))
        names = [v for v in values if type(v) is not int]
        numbered = ", ".join(f"{orders.value_text(v)} = {i}" for i, v in enumerate(names, 1))
        deck = next((d for d in self.t.decks if any(a == attr for a, _ in d.dimensions)), None)
        own = deck is None or deck.span.path == span.path
        where = "its deck" if own else f"its deck (in the included {deck.span.short})"
        return (f"declare it `ordered {attr}: ...` in {where}, or number its values{'' if own else ' here'}: "
                f"`attribute {attr}_order from {attr}: {numbered}` and `{use or 'shown by ' + attr + '_order'}`")


def weak_match(name: str, hint: str) -> bool:
    """Whether a `did you mean` names a word only loosely like `name` (`heads` -> `teams`): the
    author more likely meant a symbol than mistyped that name."""
    if not hint.startswith("did you mean `"):
        return False
    close = hint[len("did you mean `"):].split("`")[0]
    return difflib.SequenceMatcher(None, name, close).ratio() < 0.7 and not close.startswith(name[:2])


def suggests_symbol(hint: str, symbols) -> bool:
    """Whether a `did you mean` names a symbol (`assassinate` -> `assassin`): a word meant as
    another symbol is as likely as a typo, so how symbols are made is said too."""
    return hint.startswith("did you mean `") and hint[len("did you mean `"):].split("`")[0] in symbols


def _mixes_numbers_and_names(t: Tables, attr: str) -> bool:
    """Do the cards' values of `attr` mix numbers and names (a rank: 2, ..., 10, J, Q, K, A)?"""
    kinds = {isinstance(c.attrs[attr], int) for c in t.cards if attr in c.attrs}
    return kinds == {True, False}


def copies_hint(name: str, t: Tables) -> str:
    """`QS` in a deck of two copies, `QSa` and `QSb`: the cards named `name` and one more part
    (an attribute's value, or the `.N` of a copied card), and how to test for any of them by the
    attributes they share."""
    found = [c for c in t.cards if c.name.startswith(name) and len(c.name) > len(name) and
             (c.name[len(name):] in {str(v) for v in c.attrs.values()} or
              (c.name[len(name)] == "." and c.name[len(name) + 1:].isdigit()))]
    if not found:
        return ""
    listed = ", ".join(f"`{c.name}`" for c in found[:4]) + (", ..." if len(found) > 4 else "")
    shared = [(a, v) for a, v in found[0].attrs.items() if t.card_attrs.get(a) != TEXT and
              all(c.attrs.get(a) == v for c in found)]
    test = " and ".join(f"x.{a} == {as_written(v)}" for a, v in shared)
    either = f"; for any of them, test what they share: `any x in hand[p] where {test}`" if test and \
        len(found) > 1 else ""
    return f"no card is named `{name}`, but {listed} {'are' if len(found) > 1 else 'is'}: name one{either}"


# how other languages write numbers: `5_000`, `0x10`, `0b101`, `1e3` (no card is named so, or E0217 says
# it is no card as for any other name)
NUMBER_ELSEWHERE = re.compile(r"^(\d+(_\d+)+|0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|\d+[eE]\d+)$")


def plain_number(written: str) -> str:
    """`5_000` -> `5000`, `0x10` -> `16`, `1e3` -> `1000`: the number as this language writes it."""
    plain = written.replace("_", "")
    base = {"x": 16, "o": 8, "b": 2}.get(plain[1:2].lower()) if plain[:1] == "0" else None
    if base:
        return str(int(plain[2:], base)) if plain[2:] else "0"
    if "e" in plain.lower():
        mantissa, exponent = plain.lower().split("e")
        return str(int(mantissa) * 10 ** min(int(exponent), 18))
    return plain


def card_examples(t: Tables) -> str:
    """A hint naming a few cards that do have literals."""
    names = [c.name for c in t.cards if c.name.replace("_", "a").isalnum()][:3]
    if not t.cards:
        return "this game declares no cards"
    if not names:
        return "no deck's cards have names that can be written as literals"
    return "cards are written by their names, e.g. " + ", ".join(f"`{x}`" for x in names)


def function_for_attribute(name: str, listlike: bool) -> str:
    """`players.count`, `hand[p].length`: what a list or zone is asked is a function of it."""
    if listlike and name in ("count", "length", "len", "size"):
        return "the number of items is a function of the list: `count(L)`"
    if listlike and name in ("first", "last", "top", "bottom", "empty", "sum", "max", "min", "reverse"):
        return f"`{name}` is a function of the list: `{name}(L)`"
    return ""


def spelling_of_constants(name: str) -> str:
    """`True`, `None`, `null`: the language's `true`, `false` and `none` are written in lower case."""
    meant = {"true": "true", "false": "false", "none": "none", "null": "none", "nil": "none"}.get(name.lower())
    return f"write `{meant}`" if meant and name != meant else ""


def seat_hint(name: str) -> str:
    """`P0`..`P63` are how seats are shown, not names a script can use."""
    if len(name) > 1 and name[0] == "P" and name[1:].isdigit():
        return f"seats are shown as {name} but written `seat({name[1:]})` in a script"
    return ""


def winners_hint(name: str) -> str:
    """`winners: lowest` means `winners: lowest score`."""
    if name in ("lowest", "highest"):
        return f"to rank players by their scores write `winners: {name} score`"
    return ""


def as_written(value) -> str:
    """A deck's or an option's value as a script writes it (`J`, `10`, `true`, a text without its
    quotes): card names and messages are made of it."""
    if isinstance(value, tuple):
        return value[1]
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def mismatch_hint(node, expected: str, actual: str) -> str:
    """What a newcomer meant by the usual mix-ups of players, seats and zones."""
    if actual == ZONES and isinstance(node, n.Name):
        return f"`{node.name}` is one zone per player: name one, `{node.name}[p]`"
    if expected == PLAYER and actual == INT:
        return "a seat's number is not a player: `seat(0)` is the player at seat 0"
    if expected == list_of(PLAYER) and actual == PLAYER:
        return "a list of one player is written in brackets: `[p]`"
    return ""
