"""Expressions as players say them, for the players' rulebook: names without underscores
(`first_leader` is *first leader*), a player's things in the possessive (*p*'s *hand*, or
*their hand* inside "for each player"), cards and suits as they are printed (`10D` is 10♦ where
the deck has a suit of C, D, H and S), a constant with its value, neighbours, and bounds as
"5 or more".  What has no words of its own here reads as in the detailed rulebook
(rulebook_words.Words).
"""

from __future__ import annotations

import attrs

from cardgame.interpreter.language import nodes as n
from cardgame.interpreter.language.seating import seat_label

from .flow import Script
from .rulebook_words import Words, without_the

# The suit symbols of a standard deck, as the REPL's table draws them (repl/table.py).
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
# `x >= 5` reads "x is 5 or more" when the bound is a number.
BOUNDS = {"<=": "{0} is {1} or less", ">=": "{0} is {1} or more"}
QUANTIFIED = {"any": "for some {v} in {s}, {c}", "all": "for every {v} in {s}, {c}",
              "no": "for no {v} in {s}, {c}", "count": "the number of {v} in {s} for which {c}"}
NEIGHBOURS = {"left_of": "left neighbour", "right_of": "right neighbour"}
# `any p in players where total[p] < 0` reads "some player's *total* is less than 0".
EACH_PLAYER = {"any": "some player's", "all": "every player's", "no": "no player's"}


def spoken(name: str) -> str:
    """An identifier as words: `first_leader` -> first leader."""
    return name.replace("_", " ")


def sentence(text: str) -> str:
    """`text` with a capital first letter (in bold too, not in a name in italics) and a full stop."""
    return _ended(_first_letter(text, str.upper))


def clause(text: str) -> str:
    """A step said after a condition: `if X, move ...`, its first letter small."""
    return _first_letter(text, str.lower)


def _first_letter(text: str, case) -> str:
    at = 2 if text.startswith("**") else 0
    return text[:at] + case(text[at:at + 1]) + text[at + 1:]


def _ended(text: str) -> str:
    return text if text.endswith((".", ":", "?", "!")) else text + "."


class PlayerWords(Words):
    """`words(e)` as a player says it.  `pronouns` maps a loop's player to the word that stands
    for it ("their", "each player's") while its steps are written."""

    def __init__(self, script: Script, chosen: dict):
        super().__init__(script, chosen)
        self.suits = _suit_values(script.tables)
        self.pronouns: dict[str, str] = {}
        self.mentioned: set[str] = set()  # the definitions named so far: the book's terms

    def name(self, name: str) -> str:
        return f"*{spoken(name)}*"

    def symbol(self, name: str) -> str:
        return SUIT_SYMBOLS[name] if name in self.suits else spoken(name)

    def card(self, name: str) -> str:
        """A card's name as printed: its suit, where its name ends with one, as a symbol."""
        suit = next((s for s in self.suits if name.endswith(s) and len(name) > len(s)), None)
        return name[:-len(suit)] + SUIT_SYMBOLS[suit] if suit else name

    def value_words(self, value) -> str:
        return self.symbol(value) if isinstance(value, str) else super().value_words(value)

    def kind(self, e) -> str:
        return self.t.resolved.get(id(e), ("", ""))[0]

    def is_player_thing(self, e) -> bool:
        """A zone per player, or a variable per player or per team: `x[p]` reads p's x."""
        name = self.t.resolved.get(id(e), ("", ""))[1]
        return self.kind(e) == "zones" or self.kind(e) == "global" and name in self.t.vars \
            and self.t.vars[name][0].indexed

    def whose(self, index, thing: str) -> str:
        """*p*'s *thing*, their *thing* inside a loop over the players, or the *thing* of X."""
        if isinstance(index, n.Name) and index.name in self.pronouns:
            return f"{self.pronouns[index.name]} {thing}"
        if isinstance(index, n.Name):
            return f"{self.words(index)}'s {thing}"
        return f"the {thing} of {self.words(index)}"

    def phrase(self, e) -> str:
        w, t = self.words, self.t
        match e:
            case n.Name():
                kind = self.kind(e)
                if kind == "define":
                    if self.said_inline(e.name):  # its value said with its name, no term to look up
                        return f"{self.name(e.name)} ({w(t.defines[e.name].body)})"
                    self.mentioned.add(e.name)
                    return self.name(e.name)
                if kind == "symbol":
                    return self.symbol(e.name)
                if kind == "card":
                    return self.card(e.name)
                if kind in ("zone", "zones", "global"):
                    return f"the {self.name(e.name)}"
                if kind in ("local", "option"):
                    return self.name(e.name)
            case n.Index() if self.is_player_thing(e.obj):
                return self.whose(e.index, self.name(e.obj.name))
            case n.Attr():
                return self.whose(e.obj, spoken(e.name))
            case n.Call(func="seat", args=(n.Literal(value=int() as number),)):
                return seat_label(self.t.seat_names, number)
            case n.Call(func="players_from", args=(first,)):
                return f"the players in turn from {w(first)}"
            case n.Call(func="left_of" | "right_of", args=(player,)):
                return self.whose(player, NEIGHBOURS[e.func])
            case n.Call(func="max" | "min", args=(n.Comprehension(flat=False) as each,)):
                most = "largest" if e.func == "max" else "smallest"
                where = f" where {w(each.cond)}" if each.cond is not None else ""
                return f"the {most} {w(each.expr)} for {self.name(each.var)} in {w(each.source)}{where}"
            case n.Call() if e.func in t.defines:
                self.mentioned.add(e.func)
                return f"{self.name(e.func)}({', '.join(w(a) for a in e.args)})"
            case n.Binary(op="+") if t.types.get(id(e)) == "text":  # a text put together reads as one
                return f"“{''.join(self.text_parts(e))}”"
            case n.Binary() if e.op in BOUNDS and isinstance(e.right, (n.Literal, n.Unary)):
                return BOUNDS[e.op].format(self._compared(e.left), w(e.right))
            case n.Quant() if e.kind in EACH_PLAYER and self.everyone(e.source) and self.only_owned([e.cond], e.var):
                self.pronouns[e.var] = EACH_PLAYER[e.kind]  # some player's *total* is ...
                try:
                    return w(e.cond)
                finally:
                    del self.pronouns[e.var]
            case n.Quant():
                return QUANTIFIED[e.kind].format(v=self.name(e.var), s=w(e.source), c=w(e.cond))
            case n.Best(kind="max" | "min") if not isinstance(e.key, n.ListLit) and self.in_turn(e.source):
                first, backwards = self.in_turn(e.source)  # who wins a tie, as players say it
                key = f"({w(e.key)})" if isinstance(e.key, n.IfExpr) else without_the(w(e.key))
                tie = "last" if backwards else "first"
                return (f"the player {self.name(e.var)} with the {'highest' if e.kind == 'max' else 'lowest'} {key}; "
                        f"of equals, the one {tie} in turn from {w(first)}")
            case n.Comprehension() if not e.flat and isinstance(e.expr, n.Name) and e.expr.name == e.var:
                where = f" where {w(e.cond)}" if e.cond is not None else ""
                return f"every {self.name(e.var)} in {w(e.source)}{where}"
        return super().phrase(e)

    def text_parts(self, e):
        """The pieces of a text made with `+`: its literal texts as written, its values in words."""
        if isinstance(e, n.Binary) and e.op == "+" and self.t.types.get(id(e)) == "text":
            yield from self.text_parts(e.left)
            yield from self.text_parts(e.right)
        else:
            yield e.value if isinstance(e, n.Literal) and e.kind == "text" else self.words(e)

    def said_inline(self, define: str) -> bool:
        """A definition that is a constant: said with its value where it is used."""
        return self.constant(self.t.defines[define].body)

    def constant(self, e) -> bool:
        """A literal, or a list of literals, symbols and cards: said where it is used."""
        if isinstance(e, n.ListLit):
            return all(isinstance(x, n.Literal) or self.kind(x) in ("symbol", "card") for x in e.items)
        return isinstance(e, n.Literal)

    def everyone(self, source) -> bool:
        """Is `source` the players, all of them?"""
        return isinstance(source, n.Name) and source.name == "players" and self.kind(source) == "constant"

    def in_turn(self, source):
        """(X, backwards) for the players in turn from X (`players_from(X)`), backwards for
        `reverse(players_from(X))`; None for any other list."""
        match source:
            case n.Call(func="players_from", args=(first,)):
                return first, False
            case n.Call(func="reverse", args=(n.Call(func="players_from", args=(first,)),)):
                return first, True
        return None

    def member(self, var: str, source) -> str:
        """player *p*, player *p* in turn from X, or *p* in X."""
        if self.everyone(source):
            return f"player {self.name(var)}"
        match source:
            case n.Call(func="players_from", args=(first,)):
                return f"player {self.name(var)} in turn from {self.words(first)}"
            case n.Call(func="reverse", args=(n.Call(func="players_from", args=(first,)),)):
                return f"player {self.name(var)} (the last in turn from {self.words(first)} first)"
        return f"{self.name(var)} in {self.words(source)}"

    def pieces(self, parts) -> str:
        """A prompt: its text as written, a value in words, a computation as `…`."""
        return "".join(p if isinstance(p, str) else
                       self.words(p) if isinstance(p, (n.Name, n.Index, n.Attr)) else "…" for p in parts)

    def only_owned(self, stmts, var: str) -> bool:
        """Is `var` used in `stmts` only as whose things they are (`hand[var]`, `total[var]`)?"""
        nodes = list(every_node(stmts))
        uses = {id(x) for x in nodes if isinstance(x, n.Name) and x.name == var}
        owned = {id(x.index) for x in nodes
                 if isinstance(x, n.Index) and self.is_player_thing(x.obj) or isinstance(x, n.Target)}
        return bool(uses) and uses <= owned


def every_node(x):
    """Every syntax node in `x` (a node, or tuples of them at any depth: an `if`'s branches)."""
    if isinstance(x, (tuple, list)):
        for item in x:
            yield from every_node(item)
    elif attrs.has(type(x)):
        yield x
        for field in attrs.fields(type(x)):
            yield from every_node(getattr(x, field.name))


def _suit_values(tables) -> frozenset:
    """The values of a card attribute whose values are all among C, D, H and S: the suits."""
    for deck in tables.decks:
        for _, values in deck.dimensions:
            names = {str(v) for v in values}
            if names and names <= set(SUIT_SYMBOLS):
                return frozenset(names)
    return frozenset()


def title(name: str) -> str:
    """A phase's or procedure's name as a heading: `new_hand` -> New hand."""
    words = spoken(name)
    return words[:1].upper() + words[1:]
