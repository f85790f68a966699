"""What each seat knows: the one model behind every view, log, trace, seat-safe export and
seat-restricted evaluation.

Three parts, each data:

- *Now*: `sees(st, seat, card)` decides from the rules' visibility (public zones, face-up
  cards, a seat's own `owner` zones, its team's `team` zones, the other seats' `others` zones,
  cards shown to it) whether a seat sees a card.
- *Then*: the journal (journal.py) records every event as each viewer observed it *when it
  happened*, and each viewer's possibilities (possibilities.py): the cards that may lie in each
  zone, and the card known at each place.  A card is named to a viewer exactly when it is known
  at its place (`unknown_to`): views, move texts, masked positions and determinizations read it.
- *Masked*: `masked(st, seat)` is a copy of the position where every card the seat cannot name
  is an `Unknown` that refuses to be read (`UnknownRead`), and each zone answers `card in zone`
  from the possibilities.  Evaluating an expression, a prompt, the scores or a rule explanation
  on it either answers from what the seat knows or stops at the first read of something it does
  not: the read-set is found by running.

A viewer is a seat number, None (a spectator) or "all" (everything).
"""

from __future__ import annotations

import re

import attrs

from ..language import nodes as n
from ..language.source import Span
from ..language.types import CARD, element, is_list, is_record, record_name
from ..machine.program import render_move_value, render_value, values_inside
from ..machine.runtime import FACE_UP, RUNTIME_FAULTS, TABLE
from .possibilities import NOBODY, Knowing, only_here

HIDDEN = "??"
HIDDEN_CHOICE = "(a hidden choice)"


# ---- now: what a seat sees in the current position

def zone_visibility(st, zone) -> str:
    """A zone's visibility in this game (it may depend on the options)."""
    if zone.condition is None:
        return zone.visibility
    local = [None] * st.prog.tables.frames["globals"]
    return zone.visibility if st.prog.zone_conditions[zone.name](st, local) else zone.otherwise


def slot_visibility(st) -> tuple:
    """(visibility, owner) of every zone slot of this position; for a `team` zone the owner is
    the seats of the owner's team, who all see it.  Made once per player count and options, all
    a visibility condition may read (E0730): it is asked at every event a journal records."""
    prog = st.prog
    key = (st.n, tuple(sorted(st.options.items())))
    table = prog.visibility_tables.get(key)
    if table is None:
        table = prog.visibility_tables[key] = _slot_visibility(st)
    return table


def _slot_visibility(st) -> tuple:
    prog = st.prog
    vis_of = {z.name: zone_visibility(st, z) for z in prog.tables.zones.values()}
    out = []
    for slot in range(len(st.zones)):
        name, owner = prog.zone_of_slot(slot, st.n)
        visibility = vis_of[name]
        if visibility == "team":
            owner = st.teams.members[st.teams.of[owner]] if owner is not None and st.teams is not None else ()
        out.append((visibility, owner))
    return tuple(out)


def sees_at(table, vis, loc, viewer, card) -> bool:
    """Does `viewer` see `card` in the position `vis`, `loc` (`table`: slot_visibility's): it lies
    face up, or in a zone the viewer looks into?  A card shown to a seat (`show`) is a peek: the
    seat knows it where it was shown and follows it as it follows any card it knows (journal.py),
    not wherever it goes."""
    if viewer == "all":
        return True
    if vis[card] & FACE_UP:
        return True
    entry = table[loc[card]]
    if entry[0] == "public":
        return True
    if viewer is None:  # a spectator sees what every seat sees: not an `others` card, unseen by its owner
        return False
    return _zone_seen(entry, viewer)


def _zone_seen(slot_table_entry, viewer) -> bool:
    """Does `viewer` see every card of a zone (`slot_visibility`'s entry for it), by the zone alone?"""
    visibility, owner = slot_table_entry
    if visibility == "public":
        return True
    if viewer is None:
        return False
    if visibility == "owner":
        return owner == viewer
    if visibility == "others":
        return owner != viewer
    return visibility == "team" and viewer in owner


def zone_seen(table, slot, viewer) -> bool:
    """Does `viewer` see every card of `slot` by the zone alone (`table`: slot_visibility's)?"""
    return viewer == "all" or _zone_seen(table[slot], viewer)


def sees(st, viewer, card, table=None) -> bool:
    """Does `viewer` see `card` where it lies now?"""
    return sees_at(table or slot_visibility(st), st.vis, st.loc, viewer, card)


def zone_labels(st) -> list:
    """Each slot's zone as people name it (`hand[P1]`), made once per player count."""
    labels = st.prog.zone_labels.get(st.n)
    if labels is None:
        labels = st.prog.zone_labels[st.n] = []
        for slot in range(len(st.zones)):
            name, owner = st.prog.zone_of_slot(slot, st.n)
            labels.append(name if owner is None else f"{name}[{st.prog.seat_label(owner)}]")
    return labels


def viewer_name(viewer, prog=None) -> str:
    """`all`, `spectator` or the seat as people read it (its name, with `players ... named`)."""
    if viewer == "all" or viewer is None:
        return "all" if viewer == "all" else "spectator"
    return prog.seat_label(viewer) if prog is not None else f"P{viewer}"


def viewers(n: int) -> list:
    """Every viewer of an n-seat game, in the order of a journal entry's texts."""
    return list(range(n)) + [None, "all"]


def _index(n: int, viewer) -> int:
    return n + 1 if viewer == "all" else (n if viewer is None else viewer)


def private_readers(st, var, index) -> tuple:
    """The seats that see a `private` variable's value at `index`: a per-player one its seat, a
    per-team one the team's members, a shared one nobody (only "all")."""
    if index is None or not var.indexed:
        return ()
    if var.per_player:
        return (index,)
    return st.teams.members[index]


def name_pattern(prog):
    """A pattern matching every card name of the game (None for a game without cards)."""
    names = sorted(prog.card_names, key=len, reverse=True)
    if not names:
        return None
    return re.compile(r"(?<![\w.])(?:" + "|".join(re.escape(x) for x in names) + r")(?![\w.])")


def cards_of_move(st, data):
    """The cards a move's values name, inside lists and records too (`lay meld(cards: [4D, 4C])`)."""
    move = data.get("move_obj")
    decision = data.get("decision")
    if move is None or decision is None:
        return ()
    spec = decision.alts[move.alt]
    return [c for b, v in zip(spec.bindings, move.values) for c in cards_in(st.prog, b.type, v)]


def cards_in(prog, typ, value) -> list:
    """The cards inside `value` of type `typ` (in lists and records too)."""
    return [v for t, v in values_inside(prog, typ, value) if t == CARD and type(v) is int]


def masked_move_text(st, decision, move, unknown) -> str:
    """`move`'s text with each card `unknown(card)` written ??."""
    spec = decision.alts[move.alt]
    parts = [spec.name]
    for b, v in zip(spec.bindings, move.values):
        if b.type == "card" and v is not None and unknown(v):
            parts.append(HIDDEN)
            continue
        if b.several and b.type[5:] == "card":
            # the cards it knows, in their order, then one ?? per card it does not: where an
            # unknown card would sit among the known ones would tell its rank
            known = [st.prog.card_names[c] for c in v if not unknown(c)]
            parts.extend(known + [HIDDEN] * (len(v) - len(known)))
            continue
        if b.several:  # players, numbers, ... chosen together: the move's own words
            parts.append(render_move_value(st.prog, b.type, v, st.n))
            continue
        text = render_value(st.prog, b.type, v, st.n) if v is not None else "none"
        hidden = {st.prog.card_names[c] for c in cards_in(st.prog, b.type, v) if unknown(c)}
        if hidden and b.type != "card":  # a list or a record holding cards this viewer does not know
            pattern = re.compile(r"(?<![\w.])(?:" + "|".join(map(re.escape, sorted(hidden, key=len, reverse=True))) +
                                 r")(?![\w.])")
            text = pattern.sub(HIDDEN, text)
        parts.append(text)
    return " ".join(p for p in parts if p)


def mind_of(st, viewer) -> Knowing:
    """What `viewer` (a seat or None) knows of where the cards are, from the state's journal."""
    return st.journal_now().mind(viewer)


def sight(st, viewer) -> Knowing:
    """What `viewer` knows by looking at the position alone, remembering nothing: every card it
    does not see may be anywhere (a game played without a journal, as lint judges it)."""
    table = slot_visibility(st)
    everywhere = (1 << len(st.loc)) - 1
    mind = Knowing([[NOBODY] * len(z) for z in st.zones], [everywhere] * len(st.zones), {})
    for slot, cards in enumerate(st.zones):
        for i, c in enumerate(cards):
            if sees_at(table, st.vis, st.loc, viewer, c) or viewer is not None and st.vis[c] >> viewer & 1:
                mind.place(c, slot, i)  # a card shown to it: known, as far as the position tells
    mind.settle(range(len(st.zones)))
    mind.fresh = 0
    return mind


def unknown_to(st, viewer, mind=None):
    """`unknown(card)` for `viewer` now: it cannot name the card where it lies (it neither sees
    it nor knows it is the card at that place)."""
    if viewer == "all":
        return lambda card: False
    named = (mind or mind_of(st, viewer)).named()
    return lambda card: not named >> card & 1

def move_cards_unknown(st, move, unknown) -> bool:
    """Does `move` (of the decision waiting) name a card `unknown(card)`?"""
    spec = st.waiting.alts[move.alt]
    return any(unknown(c) for b, v in zip(spec.bindings, move.values) for c in cards_in(st.prog, b.type, v))


def rule_args_as_seen(use, args: list, unknown) -> list:
    """A rule's arguments with each card `unknown(card)` an Unknown, found by the checker's type of
    each argument: a card the decision's frame holds (an event's parameter, a `let`) is hidden as
    a card of the move is, so judging a seat's own move never reads a card it cannot see."""
    names = [f"`{p.name}` of `{use.rule.node.name}` (a card)" for p in use.rule.node.params]
    return [_masked_arg(t, v, unknown, what) for t, v, what in zip(use.arg_types, args, names)] \
        + list(args[len(use.arg_types):])


def _masked_arg(typ, value, unknown, what: str):
    """`value` of type `typ` with each card `unknown(card)` an Unknown (a module function, not a
    closure calling itself: that would be a cycle holding the state until a full collection)."""
    if typ == CARD and type(value) is int and unknown(value):
        return Unknown(what)
    if isinstance(value, tuple) and typ is not None and is_list(typ):
        return tuple(_masked_arg(element(typ), v, unknown, what) for v in value)
    return value


def moves_as_seen(st, viewer, moves) -> list:
    """The texts of `moves` (of the decision waiting) as `viewer` may read them: each card it
    does not know is ??, so a seat that cannot see its own hand is offered `play ??`."""
    if viewer == "all":
        return [m.text for m in moves]
    unknown = unknown_to(st, viewer)
    return [masked_move_text(st, st.waiting, m, unknown) if move_cards_unknown(st, m, unknown) else m.text
            for m in moves]


def seat_order(st, viewer, moves) -> list:
    """`moves` (of the decision waiting) in an order that depends only on what `viewer` knows.
    Where every card they name is one it knows, the script's own order; otherwise by
    alternative, then by the places of the cards each names (the script's order of cards chosen
    together is their deck order, which would tell how the unseen ones rank), then as listed."""
    if viewer == "all" or not moves:
        return list(moves)
    unknown = unknown_to(st, viewer)
    if not any(move_cards_unknown(st, m, unknown) for m in moves):
        return list(moves)
    prog, loc, zones = st.prog, st.loc, st.zones

    def key(move):
        spec = st.waiting.alts[move.alt]
        return (move.alt, tuple(_place_key(prog, b.type, v, loc, zones) for b, v in zip(spec.bindings, move.values)))
    return sorted(moves, key=key)


def _place_key(prog, typ, value, loc, zones):
    """A value's sort key by what any viewer knows of it: a card by its place (zone slot, then
    position), cards chosen together by their places in order, other values as they are."""
    if value is None:
        return (0,)
    if typ == CARD and type(value) is int:
        return (3, loc[value], zones[loc[value]].index(value))
    if isinstance(value, (tuple, list)):
        inner = [_place_key(prog, t, v, loc, zones) for t, v in values_inside_one(prog, typ, value)]
        if typ is not None and is_list(typ):
            inner.sort()
        return (4, tuple(inner))
    if type(value) is str:
        return (2, value)
    return (1, value)


def values_inside_one(prog, typ, value):
    """(type, value) of each item of a list or field of a record (one level down)."""
    if typ is not None and is_list(typ):
        return [(element(typ), v) for v in value]
    if typ is not None and is_record(typ):
        return list(zip((ft for _, ft in prog.tables.record_fields.get(record_name(typ), ())), value))
    return [(None, v) for v in value]


def unknown_names(st, viewer, text: str) -> list:
    """The card names in `text` that `viewer` does not know (a move typed by name)."""
    pattern = name_pattern(st.prog)
    if viewer == "all" or pattern is None:
        return []
    unknown = unknown_to(st, viewer)
    return [name for name in pattern.findall(text) if unknown(st.prog.card_by_name[name])]


def masked_values(st, move, unknown):
    """`move`'s values with each card `unknown(card)` an Unknown (cards chosen together too)."""
    spec = st.waiting.alts[move.alt]
    return tuple(_masked_arg(b.type, v, unknown, "a card of the move") for b, v in zip(spec.bindings, move.values))


def rules_reading_unseen(st, viewer):
    """A judge of the waiting decision's moves for `viewer`: `judge(move)` lists (rule, what it
    read) for each rule judging `move` that reads what `viewer` sees nowhere now (a game played
    without a journal remembers nothing more): whether the move is legal then tells that seat what
    it read.  The position is masked once, for every move judged at this decision."""
    mind = sight(st, viewer)
    known = masked(st, viewer, mind)
    unknown = unknown_to(st, viewer, mind)
    L = known.stack[-1][2]

    def judge(move) -> list:
        spec = st.waiting.alts[move.alt]
        saved = [L[b.slot] for b in spec.bindings]
        found = []
        try:
            for b, v in zip(spec.bindings, masked_values(st, move, unknown)):
                L[b.slot] = v
            for use in spec.rules:
                name = use.rule.node.name
                when, require, _trace = st.prog.compiler.traced_rule(name)
                known.begin_work(query=True)
                try:
                    args = rule_args_as_seen(use, [a(known, L) for a in use.args], unknown)
                    args += [None] * (use.rule.size - len(use.args))
                    if when is None or when(known, args):
                        require(known, args)
                except UnknownRead as unread:
                    found.append((name, unread.what))
                except RUNTIME_FAULTS:  # the rule fails alike for everyone: a fault, not a leak
                    pass
        finally:
            for b, v in zip(spec.bindings, saved):
                L[b.slot] = v
        return found
    return judge


def describe(st, kind, data) -> str:
    """The all-seeing text of one trace event."""
    prog = st.prog
    if kind == "move":
        card = data.get("card")
        return f"move {prog.card_names[card] if card is not None else '?'} to {zone_labels(st)[data['to']]}"
    if kind == "chance" and data.get("what") == "draw":
        return f"chance: drew {render_value(prog, data['type'], data['value'], st.n)}"
    if kind == "chance":
        zone, owner = prog.zone_of_slot(data["zone"], st.n)
        return f"shuffle {zone}" + (f"[{prog.seat_label(owner)}]" if owner is not None else "")
    if kind == "decision":
        actor = data["actor"]
        who = "table" if actor == TABLE else prog.seat_label(actor)
        return f"{who}: {HIDDEN_CHOICE}" if data.get("hidden") else f"{who}: {data['move']}"
    if kind == "rule":
        return f"rule {data['name']}: {data['status']} ({data['values']})"
    if kind == "set":
        entry = prog.tables.vars.get(data["name"])
        typ, value = (entry[1] if entry is not None and entry[1] else "any"), data["value"]
        if is_list(typ) and not isinstance(value, (tuple, list)):  # one element of a list variable
            typ = element(typ)
        index = data.get("index")
        if index is not None:  # `set total[P2] = -45`, `set order[3] = 7C`: which one changed
            var = entry[0] if entry is not None else None
            which = prog.seat_label(index) if var is not None and var.per_player else \
                f"T{index}" if var is not None and var.per_team else index
            return f"set {data['name']}[{which}] = {render_value(prog, typ, value, st.n)}"
        return f"set {data['name']} = {render_value(prog, typ, value, st.n)}"
    if kind in ("reveal", "peek", "hide"):
        card = prog.card_names[data["card"]]
        if kind == "peek":
            return f"show {card} to {prog.seat_label(data['player'])}"
        return f"{kind} {card}"
    if kind == "log":
        return data["text"]
    if kind == "phase":
        return f"phase {data['phase']}"
    if kind == "end" and data.get("capped"):
        return "end (capped)"
    if kind == "end" and data.get("after") is not None:  # `end game when`: the statement after which it held
        return f"end: `end game when` held after line {data['after'].line}"
    return kind


# ---- masked: the position as one seat knows it

class UnknownRead(Exception):
    """An evaluation under a seat's view read something that seat cannot know.

    Attributes:
        what: what was read, as people say it ("the cards of `hand[P2]`").
    """

    def __init__(self, what: str):
        super().__init__(what)
        self.what = what


class Unknown:
    """A value one seat cannot know (a face-down card, where it lies, a private variable).

    It may be held, counted and passed along; any look at it (comparing, hashing, indexing a
    table with it, arithmetic, truth) raises UnknownRead, so an answer never depends on it.
    Rendered, it reads `??`."""

    __slots__ = ("what",)

    def __init__(self, what: str):
        self.what = what

    def _read(self, *_):
        raise UnknownRead(self.what)

    __index__ = __int__ = __float__ = __bool__ = __hash__ = _read
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _read
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __neg__ = _read
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __truediv__ = __rtruediv__ = __abs__ = _read
    __iter__ = __len__ = __contains__ = __getitem__ = _read

    def __str__(self) -> str:
        return HIDDEN

    __repr__ = __str__


def _zone_label(st, slot) -> str:
    name, owner = st.prog.zone_of_slot(slot, st.n)
    return f"`{name}`" if owner is None else f"`{name}[{st.prog.seat_label(owner)}]`"


class MaskedZone(list):
    """A zone's cards as one viewer knows them (the unknown ones Unknown), which answers
    `card in zone` from the viewer's possibilities: true when the card is known to lie there,
    false when it cannot, refused (UnknownRead) when it may."""

    __slots__ = ("known", "possible", "what")

    def __init__(self, cards, known: int, possible: int, what: str):
        super().__init__(cards)
        self.known, self.possible, self.what = known, possible, what

    def __contains__(self, card) -> bool:
        if type(card) is int:
            bit = 1 << card
            if self.known & bit:
                return True
            if not self.possible & bit:
                return False
        raise UnknownRead(self.what)


def masked(st, viewer, mind=None):
    """A copy of `st` as `viewer` knows it: the cards it cannot name at their places, where the
    cards it does not know to be in one zone lie, others' private variables and the cards of
    public variables it could not name when they were set are Unknown.  Only for reading
    (evaluate, explain, scores, prompts).  `mind`: what it knows (default: its journal's)."""
    m = st.clone_bare()
    if viewer == "all":
        return m
    mind = mind or mind_of(st, viewer)
    possible = mind.possible
    only = only_here(possible)
    loc = m.loc = list(_unknown_places(st.prog))
    for slot, cards in enumerate(m.zones):
        mask = only[slot]
        while mask:
            low = mask & -mask
            loc[low.bit_length() - 1] = slot
            mask ^= low
        pic = mind.pics[slot]
        if pic == cards:
            continue
        label = f"the cards of {_zone_label(st, slot)}"
        m.zones[slot] = MaskedZone([c if p == c else Unknown(label) for p, c in zip(pic, cards)],
                                   only[slot], possible[slot], label)
    prog = st.prog
    for name, (var, _typ) in prog.tables.vars.items():
        slot = prog.var_slots[name]
        if not var.private:
            if slot in prog.card_var_slots:
                m.vars[slot] = known_var(st, viewer, slot, mind)
            continue
        if var.indexed:
            mark = st.prog.seat_label if var.per_player else "T{}".format
            m.vars[slot] = [v if viewer in private_readers(st, var, i) else Unknown(f"`{name}[{mark(i)}]`")
                            for i, v in enumerate(m.vars[slot])]
        else:
            m.vars[slot] = Unknown(f"`{name}`")
    return m


def known_var(st, viewer, slot, mind=None):
    """A public variable holding cards as `viewer` knows it: as it could work it out when it was
    set (journal.py); one never set holds its starting value, each card it cannot see now Unknown."""
    mind = mind or mind_of(st, viewer)
    if slot in mind.values:
        return mind.values[slot]
    var, typ = st.prog.card_var_slots[slot]
    table = slot_visibility(st)

    def seen(card):
        return sees_at(table, st.vis, st.loc, viewer, card)
    value = st.vars[slot]
    if var.indexed:
        return [hidden_cards(st.prog, typ, v, seen) for v in value]
    return hidden_cards(st.prog, typ, value, seen)


def hidden_cards(prog, typ, value, seen):
    """`value` of type `typ` with each card not `seen(card)` an Unknown."""
    if typ == CARD and type(value) is int:
        return value if seen(value) else Unknown("a card this view cannot name")
    if isinstance(value, (tuple, list)) and typ is not None and (is_list(typ) or is_record(typ)):
        return tuple(hidden_cards(prog, t, v, seen) for t, v in values_inside_one(prog, typ, value))
    return value


def _unknown_places(prog) -> tuple:
    """Per card, the Unknown read where a seat does not know where it lies (made once)."""
    if prog.unknown_places is None:
        prog.unknown_places = tuple(Unknown(f"where `{name}` lies") for name in prog.card_names)
    return prog.unknown_places


def iter_bits(mask: int):
    """The numbers of the bits set in `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def seat_reading(st, parts, frame, viewer, knows, mind=None, most=None) -> str:
    """A text (`parts`: Gen.seat_text's) made in `frame` as `viewer` reads it: each `{...}`
    evaluated on the position masked for it and with the frame's cards it does not know
    (`knows(card)`) Unknown: `??` where that reads something it cannot know.  `most`: the
    work its parts may do together, else the budget of a move.  A log line's reading gets twice
    the work the line took when it was made (docs/language.md §22): on less than the whole
    position it takes the same steps until it meets what it cannot know, and `??` is at most
    twice as long as what it stands for."""
    pieces, card_slots, reads_position = parts
    if all(type(piece) is str for piece in pieces):
        return "".join(pieces)
    known = masked(st, viewer, mind) if reads_position else st.clone_bare()
    frame = list(frame)
    for k, typ in card_slots:
        frame[k] = hidden_cards(st.prog, typ, frame[k], knows)
    out = []
    known.begin_work(query=True)
    if most is not None and most < known.work_limit:
        known.work_limit = most
    for piece in pieces:
        if isinstance(piece, str):
            out.append(piece)
            continue
        try:
            out.append(piece(known, frame))
        except UnknownRead:
            out.append(HIDDEN)
        except RUNTIME_FAULTS:  # written as it is, as a text that fails is shown to everyone
            out.append("{...}")
    return "".join(out)


def seat_value(st, parts, frame, viewer, mind, knows):
    """A value (`parts`: Gen.seat_value's) computed in `frame` as `viewer` can work it out: on
    the position masked for it, with the frame's cards it does not know Unknown; the whole
    value Unknown when that reads something it cannot know (or fails)."""
    fn, card_slots, reads_position = parts
    known = masked(st, viewer, mind) if reads_position else st.clone_bare()
    frame = list(frame)
    for k, typ in card_slots:
        frame[k] = hidden_cards(st.prog, typ, frame[k], knows)
    known.begin_work(query=True)
    try:
        return fn(known, frame)
    except (UnknownRead, *RUNTIME_FAULTS):
        return Unknown(f"a value {viewer_name(viewer, st.prog)} cannot work out")


def refusal_message(what: str, viewer, attributes=(), prog=None) -> str:
    """`reads the cards of `hand[P2]` (their `rank`), which P1 cannot see`."""
    if attributes and what.startswith("the cards of"):
        what += " (their " + ", ".join(f"`{a}`" for a in attributes) + ")"
    return f"reads {what}, which {viewer_name(viewer, prog)} cannot see"


def attributes_read(node) -> list:
    """The card attributes an expression names (`x.rank`: rank), each once, in source order."""
    found, stack = [], [node]
    while stack:
        e = stack.pop()
        if isinstance(e, n.Attr):
            found.append((e.span.column, e.name))
        if attrs.has(type(e)) and not isinstance(e, Span):
            for field in attrs.fields(type(e)):
                value = getattr(e, field.name)
                stack.extend(value if isinstance(value, tuple) else (value,))
    return list(dict.fromkeys(name for _, name in sorted(found)))


# ---- the view and the observation

def scores_for(st, viewer):
    """The scores as `viewer` may know them: None while they depend on something hidden."""
    if st.fault is not None:
        return []
    if viewer == "all":
        return st.scores
    m = masked(st, viewer)
    try:
        return [int(s) for s in m.scores]
    except UnknownRead:
        return None


def move_knowers(st, decision, frame) -> frozenset:
    """The seats told a hidden move besides its chooser: those `decide p secretly with EXPR`
    names, read in the decision's frame when the move is made.  A query, on a copy: no work is
    counted (the moves are the same traced or not); a value that faults tells nobody."""
    if decision.knowers_fn is None:
        return frozenset()
    trial = st.clone_bare()
    trial.begin_work(query=True)
    try:
        value = decision.knowers_fn(trial, frame)
    except (UnknownRead, *RUNTIME_FAULTS):
        return frozenset()
    return frozenset(s for s in (value if isinstance(value, (tuple, list)) else (value,)) if type(s) is int)


def prompt_for(st, viewer) -> str:
    decision = st.waiting
    if decision is None:
        return ""
    if viewer == "all":
        return st.prompt
    if decision.prompt_parts is None:
        return decision.prompt
    table = slot_visibility(st)
    return seat_reading(st, decision.prompt_parts, st.stack[-1][2], viewer,
                        lambda card: sees_at(table, st.vis, st.loc, viewer, card))


def log_for(st, viewer) -> list:
    """The viewer's observation log: what it saw happen, as it saw it then."""
    journal = st.journal_now()
    out = []
    for e in journal.finished(st):
        if e.kind == "rule":
            continue
        text = e.text(viewer, st.n)
        if text is None:
            continue
        item = {"step": e.step, "kind": e.kind, "text": text}
        if e.kind == "decision":
            item["actor"] = "table" if e.actor == TABLE else st.prog.seat_label(e.actor)
        out.append(item)
    return out
