"""The table as a person reads it: the open decision and the cards in play at the top, then
each zone with its cards, the empty zones folded into one line, then the variables.

Content comes only from a seat's view (`GameState.view(viewer)`, what the knowledge model lets
that viewer see); this module decides how it looks, never what is hidden.  It is plain text,
fitted to a width; the prompt-toolkit layer colours the suits.  `cardgame play --table` and
the REPL's `state` both draw with `render`.

Display conventions (no game is named here):
- Hands are shown sorted in the script's order: grouped by the card attribute with the fewest
  values (the suit, in a standard deck), each group in the order the deck declares its values.
  A zone is a hand when it is per player and its visibility is not `public` (a dummy's hand
  laid face up stays a hand); piles and public rows keep their order (bottom card first, the
  top card last).  A zone the script
  shows in its own order (`shown by suit, rank`) is drawn as its view lists it; one `shown as
  placed` keeps the zone's order, and a card the viewer cannot see in it is drawn `??` in its
  place (a card's place in such a hand is what moves and clues name).
- With `symbols`, a card attribute whose values are exactly some of C, D, H, S is a suit and
  is drawn as ♣ ♦ ♥ ♠ where the card's name ends with it (`10D` -> `10♦`); otherwise, and with
  `--ascii` or when not at a terminal, the names are shown as the script writes them.
- A card a spectator can see in a zone that keeps others hidden (a card turned face up in a
  hand, or in a pile declared hidden) is marked with `*`.  A pile keeps the cards the viewer
  cannot see in their places: `(6 hidden) 9♠*` is six unseen cards under a face-up nine.
"""

from __future__ import annotations

import re

import attrs

from cardgame.interpreter import GameFault, IllegalMove

from .results import declares_score, scores_text, winners_text

HIDDEN = "??"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
FACE_UP = "*"


@attrs.frozen
class Deck:
    """How the game's cards sort and draw: built once per game from `Game.cards`.

    Attributes:
        order: card name -> its place for sorting a hand.
        glyphs: card name -> the name drawn with a suit symbol (only the cards that have one).
        texts: card name -> the card as players call it, its `title` or else its `text` (only
            the cards of explicit decks that have one: a deck's `Nope.2` is "Cancel a
            draw or a discard.").
    """

    order: dict
    glyphs: dict
    shown: frozenset = frozenset()
    placed: frozenset = frozenset()
    face_down: frozenset = frozenset()
    shown_by: dict = attrs.field(factory=dict)  # zone -> the attributes it is shown by (none: as placed)
    texts: dict = attrs.field(factory=dict)

    @classmethod
    def of(cls, cards, shown=(), face_down=()) -> "Deck":
        """`shown`: the zones the script lists in its own order (`Game.shown_orders`), kept so;
        those it lists by no attribute (`shown as placed`) are drawn card by card in place.
        `face_down`: the zones whose cards a spectator sees only face up (`Game.face_down_zones`),
        where each face-up card is marked, whether or not the zone holds a face-down one now."""
        values: dict[str, list] = {}  # attribute -> its values, in the order the deck declares them
        for card in cards:
            for attr, value in card.attrs.items():
                seen = values.setdefault(attr, [])
                if value not in seen:
                    seen.append(value)
        # group by the coarsest attribute (the suit), then by the others in declaration order
        attrs_in_order = list(values)
        coarse = min(attrs_in_order, key=lambda a: (len(values[a]), -attrs_in_order.index(a)), default=None)
        keys = ([coarse] if coarse else []) + [a for a in attrs_in_order if a != coarse]
        order = {}
        for i, card in enumerate(cards):
            order[card.name] = tuple(values[a].index(card.attrs[a]) if a in card.attrs else -1 for a in keys) + (i,)
        suits = [a for a, vs in values.items() if vs and set(map(str, vs)) <= set(SUIT_SYMBOLS)]
        glyphs = {}
        if suits:
            suit = suits[0]
            for card in cards:
                value = str(card.attrs.get(suit, ""))
                if value and card.name.endswith(value):
                    glyphs[card.name] = card.name[:-len(value)] + SUIT_SYMBOLS[value]
        shown_by = dict(shown) if isinstance(shown, dict) else {z: () for z in shown}
        placed = frozenset(z for z, by in shown_by.items() if not by) if isinstance(shown, dict) else frozenset()
        texts = {card.name: str(card.attrs.get("title") or card.attrs["text"]) for card in cards
                 if card.attrs.get("title") or card.attrs.get("text")}
        return cls(order, glyphs, frozenset(shown), placed, frozenset(face_down), shown_by, texts)

    def drawer(self, symbols: bool):
        """`draw(name)`: a card as the table draws it: its text, else its name with a suit symbol
        (with `symbols`), else its name; any other word as it is."""
        texts, glyphs = self.texts, self.glyphs if symbols else {}
        return lambda name: texts.get(name) or glyphs.get(name, name)

    @property
    def separator(self) -> str:
        """Between the cards of a row: a space, or ` · ` where a card's text has spaces in it."""
        return " · " if self.texts else " "

    def group(self, name: str):
        """The value of the attribute a hand is grouped by (its suit), as a sort key."""
        return self.order.get(name, (None,))[0]

    def sorted(self, names: list[str]) -> list[str]:
        known = [n for n in names if n in self.order]
        return sorted(known, key=self.order.__getitem__) + [n for n in names if n not in self.order]


@attrs.frozen
class Table:
    """Everything one drawing needs.

    Attributes:
        view: the viewer's view (GameState.view); spectator: the spectator's view of the same
            position (for face-up marks).
        header: the first line's items (the title, `step 1`...); decision: the line saying who
            is to act (or that the game is over); trick: the zone family the current decision
            plays cards into, shown at the top (None: none known); hands: the per-player zones
            drawn as hands (`GameState.hand_zones`).
    """

    view: dict
    spectator: dict
    header: tuple
    decision: str
    trick: str | None = None
    hands: frozenset = frozenset()


_MOVE = re.compile(r"^move (\S+) to (\w+)(?:\[\w+\])?$")


def snapshot(state, viewer, sees_choices: bool, step: int | None = None) -> Table:
    """The Table of `state` as `viewer` ("all", None for a spectator, or a seat) sees it.
    `sees_choices`: whether the viewer may see the current decision's options; `step`: the
    position's number in the header (default: the moves made)."""
    view = state.view(viewer)
    spectator = view if viewer is None else state.view(None)
    shown = view["step"] if step is None else step
    header = (view["game"], f"step {shown}", f"phase {view['phase'] or '-'}", f"view {view['viewer']}",
              "scores " + ("-" if state.fault is not None else scores_text(view, declares_score(state)) or "hidden"))
    return Table(view, spectator, header, _decision(state, view, sees_choices), _trick(state, viewer, sees_choices),
                 state.hand_zones)


def _decision(state, view, sees_choices: bool) -> str:
    if state.fault is not None:
        return "the game stopped with an error"
    if view["over"]:
        return f"game over; winners {winners_text(view) or 'hidden'}"
    if state.paused == "phase":
        return f"paused at the start of phase {view['phase']}"
    if state.paused:
        return f"paused before a chance event (line {state.next_statement.line})"
    who = "table decision" if view["to_act"] == "table" else f"{view['to_act']} to act"
    prompt = f": {view['prompt']}" if view["prompt"] else ""
    legal = ""
    if sees_choices:
        n = len(state.legal_moves())
        legal = f" ({n} legal move{'' if n == 1 else 's'})"
    return f"{who}{prompt}{legal}"


def _trick(state, viewer, sees_choices: bool) -> str | None:
    """The zone family the current decision plays its cards into (`played`): where the card
    chosen by the last move went, as the viewer observed it; before any move, where the first
    legal move's card would go (only when the viewer may see the choices)."""
    step = len(state.history)
    if step:
        events = state.observed_events(viewer, step)
        family = _chosen_card_zone(events)
        if family is not None:
            return family
    if not sees_choices or state.current_player is None:
        return None
    moves = state.moves_for(viewer)
    if not moves:
        return None
    trial, events = state.clone(), []
    trial.set_tracer(events.append)
    try:
        trial.apply(moves[0])
    except (IllegalMove, GameFault):
        return None
    return _chosen_card_zone([e for e in events if e.kind == "move"], str(moves[0]).split()[1:])


def _chosen_card_zone(events, chosen=None) -> str | None:
    if chosen is None:
        decision = next((e for e in events if e.kind == "decision"), None)
        if decision is None:
            return None
        chosen = decision.text.split()[1:]
    for e in events:
        match = _MOVE.match(e.text) if e.kind == "move" else None
        if match and match.group(1) in chosen:
            return match.group(2)
    return None


_RED = re.compile(r"(\S*[♥♦]\*?)")


def coloured(line: str) -> str:
    """`line` with red-suited cards in red, for a terminal (ANSI); black suits stay as they are."""
    return _RED.sub("\x1b[31m\\1\x1b[0m", line)


BOOKKEEPING = "_"  # a variable whose name starts so is the script's bookkeeping (`_stops`)


def render(table: Table, deck: Deck, width: int = 80, symbols: bool = False, bookkeeping: bool = True) -> list[str]:
    """The table's lines; without `bookkeeping`, the variables whose names start with `_` are
    left out and counted (a script marks its counters and flags so, as Python marks its own)."""
    view, spectator = table.view, table.spectator
    width = max(width, 40)
    draw = deck.drawer(symbols)
    lines = _fit(list(table.header), width, " · ")
    lines.append(f"▶ {table.decision}" if symbols else table.decision)
    rows, empty, marked = [], [], False
    drawn = set()  # how the rows drawn order their cards (_ordered_as)
    zones = view["zones"]
    trick = table.trick if table.trick in zones and isinstance(zones[table.trick], dict) else None
    if trick is not None:
        cells = []
        for seat, cards in zones[trick].items():
            drawn.add(("pile",))
            cells.append(f"{seat} " + (deck.separator.join(_cards(cards, spectator["sight"][trick][seat], deck, draw,
                                                                  False)[0]) if cards else "-"))
        lines += _fit(cells, width, "   ", first=f"  {trick}: ", indent=" " * (len(trick) + 4))
    lines.append("")
    for name, cards in zones.items():
        if name == trick:
            continue
        if isinstance(cards, dict):
            seats = list(cards.items())
            if all(not c for _, c in seats):
                empty.append(name)
                continue
            for seat, seat_cards in seats:
                if not seat_cards:
                    empty.append(f"{name}[{seat}]")
                    continue
                shown, mark = zone_words(table, deck, name, seat, symbols)
                marked |= mark
                drawn.add(_ordered_as(table, deck, name))
                rows.append((f"{name}[{seat}]", len(seat_cards), shown))
        elif not cards:
            empty.append(name)
        else:
            shown, mark = zone_words(table, deck, name, None, symbols)
            marked |= mark
            drawn.add(_ordered_as(table, deck, name))
            rows.append((name, len(cards), shown))
    label = max((len(r[0]) for r in rows), default=0)
    count = max((len(str(r[1])) for r in rows), default=0)
    for name, n, shown in rows:
        lines += _fit(shown, width, deck.separator, first=f"{name:<{label}}  {n:>{count}}  ",
                      indent=" " * (label + count + 4))
    if empty:
        lines += _fit([e + "," for e in empty[:-1]] + [empty[-1]], width, " ", first="empty: ", indent="       ")
    notes = _order_notes(drawn, deck)
    if marked:
        notes.append(f"{FACE_UP} face up")
    if notes:
        lines += _fit(("(" + "; ".join(notes) + ")").split(" "), width, " ")
    variables = view["vars"]
    left_out = [] if bookkeeping else [name for name in variables if name.startswith(BOOKKEEPING)]
    shown = {name: value for name, value in variables.items() if name not in left_out}
    if shown or left_out:
        lines.append("")
    if shown:
        lines += _variables(shown, width, draw, view.get("seats", ()))
    if left_out:
        lines.append(f"(and {len(left_out)} bookkeeping variable{'s' * (len(left_out) > 1)}: `state all` shows "
                     f"{'them' if len(left_out) > 1 else 'it'})")
    return lines


def _ordered_as(table: Table, deck: Deck, name: str) -> tuple:
    """How zone `name`'s row orders its cards: ("sorted",) for a hand, ("pile",) bottom card
    first, or ("shown", name) for a zone the script shows in an order of its own."""
    if name in deck.shown:
        return ("shown", name)
    return ("sorted",) if is_hand(table, deck, name) else ("pile",)


def _order_notes(drawn: set, deck: Deck) -> list[str]:
    """What the rows drawn need said about their order, and only that (a game without cards, or
    with only empty zones, has no note): `hands sorted`, `hand shown by rank` (as the script says), then
    how the other zones read (`other zones bottom card first, top card last`)."""
    notes = ["hands sorted"] if ("sorted",) in drawn else []
    for _, zone in sorted(kind for kind in drawn if kind[0] == "shown"):
        by = deck.shown_by.get(zone, ())
        notes.append(f"{zone} shown by {', '.join(by)}" if by else f"{zone} shown as placed")
    if ("pile",) in drawn:
        notes.append(("other zones " if notes else "") + "bottom card first, top card last")
    return ["; ".join(notes)] if notes else []


def is_hand(table: Table, deck: Deck, name: str) -> bool:
    """Is zone `name` drawn as a hand (its known cards sorted, the hidden ones counted last)?"""
    return name in table.hands and name not in deck.shown


def zone_words(table: Table, deck: Deck, name: str, seat: str | None, symbols: bool) -> tuple[list[str], bool]:
    """The words one zone's row of the table is drawn with (`seat`: `P1` for a per-player zone),
    and whether a face-up card is marked: `state` draws each row so, `show` one zone."""
    draw = deck.drawer(symbols)
    cards, seen = table.view["zones"][name], table.spectator["sight"][name]
    also = table.view.get("known_in", {}).get(name, [])
    if seat is not None:
        cards, seen, also = cards[seat], seen[seat], (also or {}).get(seat, [])
    hand = seat is not None and is_hand(table, deck, name)
    words, marked = _cards(cards, seen, deck, draw, hand, name in deck.placed, name in deck.face_down, also)
    return words, marked


def _cards(cards: list[str], seen: list[str], deck: Deck, draw, hand: bool,
           in_place: bool = False, face_down: bool = False, also=()) -> tuple[list[str], bool]:
    """The words drawing a zone's cards, and whether a face-up one is marked.  A hand: the known
    cards sorted, then how many are hidden.  Any other zone keeps its order (bottom card first):
    a run of cards the viewer cannot see is written where it lies, `(2 hidden)`, or with
    `in_place` (a zone `shown as placed`) `??` for each card.  A card the spectator sees is
    marked face up in a hand, in a zone holding a card the spectator cannot see, and in a
    `face_down` zone (one declared hidden from spectators).  `also`: the cards the viewer knows
    lie in the zone but not where: sorted among a hand's known cards, or after a pile's as
    `(7H 9C among them)`."""
    if hand and also:  # a hand is drawn sorted: where they lie does not show
        cards = list(cards)
        for i, name in zip([i for i, c in enumerate(cards) if c == HIDDEN], also):
            cards[i] = name
    hidden = sum(1 for c in cards if c == HIDDEN)
    if hidden == len(cards):
        words = ["hidden"] if hidden else []
        if also:
            words.append("(" + " ".join(draw(c) for c in deck.sorted(list(also))) + " among them)")
        return words, False
    placed = placed_cards(cards, seen, deck, hand, face_down)
    words, group, unseen = [], None, 0
    for c, up in placed:
        if c == HIDDEN and not in_place:
            unseen += 1
            continue
        if unseen:
            words.append(f"({unseen} hidden)")
            unseen = 0
        if hand and group is not None and deck.group(c) != group and not deck.texts:
            words.append("")  # a wider gap between suits
        group = deck.group(c)
        words.append(HIDDEN if c == HIDDEN else draw(c) + (FACE_UP if up else ""))
    if unseen:
        words.append(f"({unseen} hidden)")
    if hand and hidden:
        words.append(f"+{hidden} hidden")
    if also and not hand:
        words.append("(" + " ".join(draw(c) for c in deck.sorted(list(also))) + " among them)")
    return words, any(up for _, up in placed)


def placed_cards(cards: list[str], seen: list[str], deck: Deck, hand: bool, face_down: bool = False) -> list[tuple]:
    """A zone's cards in the order they are drawn, each with whether it is marked face up: a
    hand's known cards sorted (its unseen ones left out, to be counted), any other zone's in its
    order, bottom card first, with the cards the viewer cannot see (HIDDEN) in their places.
    `seen` is the spectator's list of the same zone: a card it sees is marked in a hand, in a
    `face_down` zone and in a zone holding a card it cannot see (where all see it, others not).
    The REPL's table and the HTML replay draw zones from it."""
    marks = hand or face_down or HIDDEN in seen
    if hand:
        face_up = {c for c, s in zip(cards, seen) if c != HIDDEN and s != HIDDEN}
        return [(c, marks and c in face_up) for c in deck.sorted([c for c in cards if c != HIDDEN])]
    return [(c, marks and c != HIDDEN and s != HIDDEN) for c, s in zip(cards, seen)]


def _variables(variables: dict, width: int, draw, seats=()) -> list[str]:
    """Per-player variables one per line (`total  P0 0 · P1 0`), the others packed together;
    `draw(name)` draws a card held in one as the table draws it."""
    per_player = {k: v for k, v in variables.items() if _per_seat(v, seats)}
    single = {k: v for k, v in variables.items() if not _per_seat(v, seats)}
    lines = []
    if per_player:
        label = max(len(k) for k in per_player)
        for name, values in per_player.items():
            cells = [f"{seat} {show_value(v, draw)}" for seat, v in values.items()]
            lines += _fit(cells, width, " · ", first=f"{name:<{label}}  ", indent=" " * (label + 2))
    if single:
        lines += _fit([f"{k} = {show_value(v, draw)}" for k, v in single.items()], width, "   ")
    return lines


def _per_seat(value, seats=()) -> bool:
    """A per-player (or per-team) variable's values, keyed `P0`, `P1` (`T0`, ...; a seat's name,
    among `seats`, when the script names them); any other object is a record's fields."""
    return isinstance(value, dict) and all(k in seats or re.fullmatch(r"[PT]\d+", k) for k in value)


def show_value(value, draw=str) -> str:
    """A script value as the language writes it (`none`, `true`, `[a, b]`); a record as its
    fields, `{cards: [QS, QH], points: 20}`; each name (a card's) as `draw` gives it."""
    if value is None:
        return "none"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, list):
        return "[" + ", ".join(show_value(v, draw) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show_value(v, draw)}" for k, v in value.items()) + "}"
    return draw(value) if isinstance(value, str) else str(value)


def _fit(words: list[str], width: int, sep: str, first: str = "", indent: str = "") -> list[str]:
    """`words` joined by `sep` on lines of at most `width` (a word longer than a line stays
    whole); the first line starts with `first`, the others with `indent`."""
    lines, line, fresh = [], first, True
    for word in words:
        if not fresh and len(line) + len(sep) + len(word) > width:
            lines.append(line.rstrip())
            line, fresh = indent, True
        if fresh and not word and line.strip() == "":
            continue  # a gap word (between suits) never starts a wrapped line
        line += word if fresh else sep + word
        fresh = False
    lines.append(line.rstrip())
    return lines
