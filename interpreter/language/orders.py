"""Declared orders and number attributes of cards (docs/language.md §5, "Orders and values").

`ordered rank: 2, ..., A` in a deck makes the written order of a dimension its order: the
values of `c.rank` compare by their place in it.  `attribute points from rank: J = 10, ...`
gives every card with a `rank` a number attribute found from its rank.  Both are settled
once, when the decks are read; the compiler turns an order into a per-card table of places.
"""

from __future__ import annotations

from . import nodes as n
from .source import did_you_mean
from .types import ANY, INT, SYMBOL, ordered


def value_text(value) -> str:
    """A deck value as written (`J`, `10`, `"Ace"`)."""
    return f'"{value}"' if isinstance(value, str) and not value.replace("_", "a").isalnum() else str(value)


def _plain(value):
    return value[1] if isinstance(value, tuple) else value  # ("text", "...") as parsed


def collect_order(t, deck: n.DeckDecl, error) -> None:
    """Record the dimensions a deck declares `ordered` (E0317 when two decks disagree)."""
    dims = dict(deck.dimensions)
    for attr, span in deck.ordered:
        values = tuple(_plain(v) for v in dims[attr])
        if attr in t.orders and t.orders[attr] != values:
            error("E0317", f"`{attr}` is ordered differently by two decks", span, "a second order",
                  "an attribute has one order; give the other deck's dimension another name")
            continue
        t.orders[attr] = values


def _by_name_hint(decl: n.AttributeDecl) -> str:
    """`attribute power from name: ...`: a number per card is a definition over a list of cards."""
    cards = ", ".join(str(value) for value, _number, _span in decl.pairs[:3])
    return (f"a card's `name` is its own, not an attribute `from` can read; a number for each card by name "
            f"is a definition over a list of cards: `define {decl.name}(c: card) = index([{cards}, ...], c)`")


def collect_attribute(t, decl: n.AttributeDecl, error) -> None:
    """A number attribute of every card that has the source attribute (E0318 for a gap)."""
    if decl.name == "name":
        error("E0313", "`name` is the card's own name and cannot be an attribute", decl.span)
        return
    if decl.name in t.card_attrs:
        error("E0318", f"`{decl.name}` is already an attribute of some cards", decl.span, "declared again",
              "choose another name for the number attribute")
        return
    if decl.source not in t.card_attrs:
        error("E0202", f"no card has an attribute `{decl.source}`", decl.source_span, "unknown attribute",
              _by_name_hint(decl) if decl.source == "name" else did_you_mean(decl.source, set(t.card_attrs)))
        return
    holders = [c for c in t.cards if c.attrs.get(decl.source) is not None]
    present = list(dict.fromkeys(c.attrs[decl.source] for c in holders))
    numbers = {}
    for value, number, span in decl.pairs:
        value = _plain(value)
        if value in numbers:
            error("E0318", f"`{decl.name}` gives {decl.source} {value_text(value)} a number twice", span,
                  "listed twice", "list each value once")
        elif value not in present:
            error("E0318", f"no card has {decl.source} {value_text(value)}", span, "not a value",
                  f"the {decl.source} values are " + ", ".join(value_text(v) for v in present))
        numbers[value] = number
    missing = [v for v in present if v not in numbers and type(v) is not int]
    if missing:
        error("E0318", f"`{decl.name}` gives no number for {decl.source} "
              + ", ".join(value_text(v) for v in missing), decl.span, "incomplete",
              f"add `{value_text(missing[0])} = N` (a number value not listed stands for itself)")
        return
    for card in holders:
        value = card.attrs[decl.source]
        card.attrs[decl.name] = numbers.get(value, value)
    t.card_attrs[decl.name] = INT


def settle_orders(t, error) -> None:
    """Give each ordered attribute its type, once every card is known (E0317 for a card whose
    value has no place in the order)."""
    for attr, values in t.orders.items():
        places = set(values)
        for card in t.cards:
            value = card.attrs.get(attr)
            if value is not None and value not in places:
                error("E0317", f"card `{card.name}` has {attr} {value_text(value)}, which has no place in "
                      f"the order of `{attr}`", card.span, "not in the order",
                      f"add {value_text(value)} to the `ordered {attr}` line")
                break
        if attr in t.card_attrs or attr not in t.symbol_sets:  # a set of free symbols only: symbols_type
            t.card_attrs[attr] = ordered(attr, t.card_attrs.get(attr, ANY))


def collect_symbols(t, decl: n.SymbolsDecl, error) -> None:
    """`symbols NAME: WORD, ...`: each word a symbol; `ordered`, their order (E0317 when a deck
    orders an attribute of the same name otherwise, as two decks would)."""
    if decl.name in t.symbol_sets:
        error("E0301", f"`symbols {decl.name}` is declared twice", decl.span, "declared again here",
              f"the first declaration is at {t.symbol_sets[decl.name].span}")
        return
    t.symbol_sets[decl.name] = decl
    for i, word in enumerate(decl.values):
        if word in decl.values[:i]:
            error("E0350", f"`symbols {decl.name}` lists `{word}` more than once", decl.value_spans[i],
                  "listed again", "list each word once")
    t.symbols.update(decl.values)
    if decl.ordered:
        values = tuple(dict.fromkeys(decl.values))
        if decl.name in t.orders and t.orders[decl.name] != values:
            error("E0317", f"`{decl.name}` is ordered differently by a deck and `symbols {decl.name}`", decl.span,
                  "a second order", "an attribute and a set of symbols of one name have one order: write it once")
            return
        t.orders[decl.name] = values


def symbols_type(t, name: str) -> str:
    """The type `var x: NAME` gives for a set of free symbols: a symbol, compared in order when `ordered`."""
    return ordered(name, SYMBOL) if name in t.orders else SYMBOL


def display_keys(orders: dict, attr_tables: dict, attrs: list) -> list:
    """Card id -> its key for `shown by ATTR, ...`: per attribute its place in the declared order
    (or its number), a card without the attribute after every card with it."""
    columns = []
    for attr in attrs:
        where = places(orders[attr]) if attr in orders else None
        columns.append([(True, 0) if v is None else (False, where[v] if where is not None else v)
                        for v in attr_tables[attr]])
    return [tuple(col[c] for col in columns) for c in range(len(attr_tables["name"]))]


def places(values: tuple) -> dict:
    """Value -> its place in an order, counting from 0 (the first listing of a value counts)."""
    found = {}
    for i, value in enumerate(values):
        found.setdefault(value, i)
    return found
