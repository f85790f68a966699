"""What each seat knows: the one model behind every view, log, trace, seat-safe export and
seat-restricted evaluation.

Three parts, each data:

- *Now*: `sees(st, seat, card)` decides from the rules' visibility (public zones, face-up
  cards, a seat's own `owner` zones, its team's `team` zones, the other seats' `others` zones,
  cards shown to it) whether a seat sees a card.
- *Then*: a `Journal` records every event as each viewer observed it *when it happened*,
  so a card seen face up stays named in that seat's log after it goes face down.  It also
  remembers, per seat, the cards it saw go into a zone it cannot look into (`known`): a card
  laid away, passed or played face down.  A seat *knows* a card it sees or remembers: views,
  move texts, masked positions and determinizations all read both (`unknown_to`).
- *Masked*: `masked(st, seat)` is a copy of the position where every card the seat does not
  know is an `Unknown` that refuses to be read (`UnknownRead`).  Evaluating an expression, a
  prompt, the scores or a rule explanation on it either answers from what the seat knows or
  stops at the first read of something it does not: the read-set is found by running.

A viewer is a seat number, None (a spectator) or "all" (everything).
"""

from __future__ import annotations

import random
import re

import attrs

from ..language import nodes as n
from ..language.rng import seed_state
from ..language.source import Span
from ..language.types import CARD, element, is_list
from ..machine.program import render_move_value, render_value, values_inside
from ..machine.runtime import FACE_UP, RUNTIME_FAULTS, TABLE
from ..machine.shared_log import SharedLog

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


def _sees(table, vis, loc, viewer, card) -> bool:
    if viewer == "all":
        return True
    v = vis[card]
    if v & FACE_UP:
        return True
    entry = table[loc[card]]
    if entry[0] == "public":
        return True
    if viewer is None:  # a spectator sees what every seat sees: not an `others` card, unseen by its owner
        return False
    return bool(v >> viewer & 1) or _zone_seen(entry, viewer)


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


def sees(st, viewer, card, table=None) -> bool:
    """Does `viewer` see `card` where it lies now?"""
    return _sees(table or slot_visibility(st), st.vis, st.loc, viewer, card)


def viewer_name(viewer) -> str:
    return "all" if viewer == "all" else ("spectator" if viewer is None else f"P{viewer}")


def viewers(n: int) -> list:
    """Every viewer of an n-seat game, in the order of a journal entry's texts."""
    return list(range(n)) + [None, "all"]


def _index(n: int, viewer) -> int:
    return n + 1 if viewer == "all" else (n if viewer is None else viewer)


# ---- then: the journal

@attrs.frozen
class Entry:
    """One event as every viewer observed it.

    Attributes:
        step: the number of moves made when it happened (0: the set-up).
        kind: the trace event's kind (decision, move, reveal, peek, hide, chance, set, log,
            phase, cancel, end, rule).
        actor: for decisions and rule judgements, who chose (a seat or TABLE).
        texts: one text per viewer (seats, then the spectator, then "all"); None where that
            viewer did not observe the event at all.
    """

    step: int
    kind: str
    span: object
    actor: object
    texts: tuple

    def text(self, viewer, n: int):
        return self.texts[_index(n, viewer)]


class Journal:
    """Each viewer's observations, recorded as the events happen (a tracer of the state).

    The entries of the moves before the last one are a SharedLog, shared with the journal's
    copies (a game state is copied at every move: copying them made a long game quadratic); the
    last move's own entry is completed only when the next move is made (or when read), so it and
    the entries after it stay in a short list of this journal's own.

    Attributes:
        known: per seat, {card: slot} for cards the seat saw go where it can no longer see
            them (a card played face up, then turned into a face-down pile; its own card laid
            away face down), kept until a `shuffle` of that zone or a `hide`: always where the
            card lies, since a move of a card the seat knows is named to it and followed.
    """

    __slots__ = ("_done", "_tail", "known", "_loc", "_vis", "_pending", "_names", "_renamed")

    def __init__(self, st):
        self._done = SharedLog()  # every Entry before the last move's own
        self._tail: list = []  # the last move's entry (None until completed) and the ones after it
        self.known = [dict() for _ in range(st.n)]
        self._loc, self._vis = st.loc[:], st.vis[:]
        self._pending = None  # (decision data, per-viewer cards seen this move)
        self._names = None
        self._renamed = None  # after a determinization: (its seat, {old name: dealt name}), applied when read

    def copy(self) -> "Journal":
        other = Journal.__new__(Journal)
        other._done, other._tail = self._done.copy(), self._tail[:]
        other.known = [dict(k) for k in self.known]
        other._loc, other._vis = self._loc[:], self._vis[:]
        other._pending = None if self._pending is None else (self._pending[0], [set(s) for s in self._pending[1]])
        other._names = self._names
        other._renamed = self._renamed
        return other

    def follow_deal(self, st, seat, dealt: dict) -> None:
        """After a determinization for `seat` dealt `dealt[old] = new` in place of the cards of
        `st`: the other seats remember the card now at each place they remember (memory belongs
        to the place, as a `show` does), their logs name the dealt cards (so the sampled world
        tells nothing of the real one, whoever's log is read), and the events to come are
        observed from the dealt position."""
        self._finish(st)  # the last move's entry, completed from the real position
        names = st.prog.card_names
        self._renamed = (seat, {names[old]: names[new] for old, new in dealt.items() if old != new})
        for known in self.known:
            moved = [(c, slot) for c, slot in known.items() if c in dealt]
            for c, _slot in moved:
                del known[c]
            known.update((dealt[c], slot) for c, slot in moved)
        loc, vis = self._loc[:], self._vis[:]
        for old, new in dealt.items():
            self._loc[new], self._vis[new] = loc[old], vis[old]

    # -- reading
    def __len__(self) -> int:
        return len(self._done) + len(self._tail)

    def finished(self, st, start: int = 0) -> list:
        """The entries from the `start`-th on, the last move's own entry completed from the
        position now.  Reading the last few costs the same however long the game is."""
        if self._renamed is not None:
            self._rename_texts(*self._renamed)
        done = len(self._done)
        out = self._done[start:] if start < done else []
        if self._tail:
            tail = self._tail[:]
            if self._pending is not None:
                tail[0] = self._decision_entry(st, *self._pending)
            out += tail[max(0, start - done):]
        return out

    def entries_from_step(self, st, step: int) -> list:
        """The entries of moves `step` and after (0: the set-up): the journal's tail, found
        from its end (entries are in the order of the moves)."""
        start = len(self)
        while start and self._entry(start - 1).step >= step:
            start -= 1
        return self.finished(st, start)

    def _entry(self, i: int):
        done = len(self._done)
        if i < done:
            return self._done[i]
        if i == done and self._pending is not None:  # the last move's entry: its step is known already
            return Entry(self._pending[0]["step"], "decision", None, None, ())
        return self._tail[i - done]

    def _rename_texts(self, seat, renamed: dict) -> None:
        """Every viewer's texts but `seat`'s with each card name `renamed` (at once: a swap stays a
        swap); the entries become this journal's own (its copies before the deal keep theirs)."""
        self._renamed = None
        if not renamed:
            return
        pattern = re.compile(r"(?<![\w.])(?:" + "|".join(re.escape(x) for x in sorted(renamed, key=len, reverse=True))
                             + r")(?![\w.])")

        def rename(text):
            return text if text is None else pattern.sub(lambda m: renamed[m.group(0)], text)

        def entry(e):
            return e if e is None else attrs.evolve(e, texts=tuple(t if i == seat else rename(t)
                                                                    for i, t in enumerate(e.texts)))
        self._done = SharedLog(entry(e) for e in self._done)
        self._tail = [entry(e) for e in self._tail]

    # -- recording
    def record(self, st, kind: str, data: dict) -> None:
        if self._renamed is not None:  # a determinization playing on: its past first, then its events
            self._rename_texts(*self._renamed)
        n = st.n
        every = viewers(n)
        table = slot_visibility(st)
        step = len(st.history)
        if kind == "decision":
            data = dict(data, step=step)
            self._finish(st)
            self._loc, self._vis = st.loc[:], st.vis[:]  # what was visible when the move was made
            seen = [set() for _ in every]
            for c in _cards_of_move(st, data):
                for i, v in enumerate(every):
                    if self._knew(table, v, c):
                        seen[i].add(c)
            self._pending = (data, seen)
            self._tail = [None]  # completed when the move's effects are over
            return
        if kind == "rule":  # the judging of a move, before it is made: only its maker sees it, as it knows it
            actor = st.actor
            full = describe(st, kind, data)
            mine = data.get("seen", full)
            texts = tuple(full if v == "all" else mine if v == actor else None for v in every)
            self._add(Entry(step + 1, kind, data.get("span"), actor, texts))
            return
        texts = self._texts(st, table, kind, data, every)
        self._add(Entry(step, kind, data.get("span"), None, texts))

    def _add(self, entry) -> None:
        if self._tail:
            self._tail.append(entry)
        else:
            self._done.append(entry)

    def _finish(self, st):
        if self._pending is not None:
            self._tail[0] = self._decision_entry(st, *self._pending)
            self._pending = None
        self._done.extend(self._tail)
        self._tail = []

    def _knew(self, table, viewer, card) -> bool:
        """Did `viewer` know `card` before the event being recorded?"""
        if _sees(table, self._vis, self._loc, viewer, card):
            return True
        return viewer not in ("all", None) and card in self.known[viewer]

    def _texts(self, st, table, kind, data, every) -> tuple:
        full = describe(st, kind, data)
        names = st.prog.card_names
        if kind in ("move", "reveal", "peek", "hide"):
            card = data.get("card")
            if card is None:
                return tuple(full for _ in every)
            out = []
            for i, v in enumerate(every):
                knew = self._knew(table, v, card)
                now = _sees(table, st.vis, st.loc, v, card)
                if knew or now:
                    if self._pending is not None:
                        self._pending[1][i].add(card)
                    out.append(full)
                else:
                    out.append(full.replace(names[card], HIDDEN, 1))
                if v not in ("all", None):
                    self._remember(v, card, knew, now, kind, st.loc[card])
            self._loc[card], self._vis[card] = st.loc[card], st.vis[card]
            return tuple(out)
        if kind == "chance" and data.get("what") == "draw":  # a drawn card is named only to who sees it
            return tuple(self._mask_names(st, table, full, i, v) for i, v in enumerate(every))
        if kind == "chance":
            slot = data.get("zone")
            for c in st.zones[slot] if slot is not None else ():
                self._vis[c] = st.vis[c]
                for known in self.known:
                    known.pop(c, None)
            return tuple(full for _ in every)
        if kind == "set":
            entry = st.prog.tables.vars.get(data.get("name"))
            if entry is not None and entry[0].private:  # seen by the seat (or team) it belongs to
                readers = private_readers(st, entry[0], data.get("index"))
                return tuple(full if v == "all" or v in readers else None for v in every)
            return tuple(self._mask_names(st, table, full, i, v) for i, v in enumerate(every))
        if kind == "log":
            return tuple(self._mask_names(st, table, self._log_text(st, table, data, full, i, v), i, v)
                         for i, v in enumerate(every))
        return tuple(full for _ in every)

    def _log_text(self, st, table, data, full, i, viewer) -> str:
        """A log line as `viewer` reads it: each `{...}` evaluated again on what the viewer
        knows (the position masked, and the cards in the frame's locals it does not know), and
        `??` where that reads something it cannot know."""
        parts = data.get("parts")
        if viewer == "all" or parts is None:
            return full
        return seat_reading(st, parts, data["frame"], viewer, lambda card: self._knows(st, table, i, viewer, card))


    def _remember(self, seat, card, knew, now, kind, dest):
        known = self.known[seat]
        if kind == "hide":  # `hide` makes everyone forget
            known.pop(card, None)
            return
        if kind != "move":
            return
        if now or not knew:
            # A card it did not know that leaves a zone is not one it remembers there (that one
            # would have been named to it), so what it remembers of that zone stays.
            known.pop(card, None)
        else:
            known[card] = dest

    def _mask_names(self, st, table, text, i, viewer) -> str:
        """`text` with every card name `viewer` does not know replaced by ??."""
        if viewer == "all" or not text:
            return text
        pattern = self._names or _name_pattern(st.prog)
        self._names = pattern
        if pattern is None:
            return text
        by_name = st.prog.card_by_name

        def repl(m):
            c = by_name.get(m.group(0))
            if c is None or self._knows(st, table, i, viewer, c):
                return m.group(0)
            return HIDDEN
        return pattern.sub(repl, text)

    def _knows(self, st, table, i, viewer, card) -> bool:
        """Does `viewer` (the i-th) know `card` as the event being recorded ends: seen in this
        move, seen before, or seen now?"""
        seen = self._pending[1][i] if self._pending is not None else ()
        return card in seen or self._knew_now(st, table, viewer, card)

    def _knew_now(self, st, table, viewer, card) -> bool:
        if _sees(table, st.vis, st.loc, viewer, card) or _sees(table, self._vis, self._loc, viewer, card):
            return True
        return viewer is not None and card in self.known[viewer]

    def _decision_entry(self, st, data, seen) -> Entry:
        every = viewers(st.n)
        actor, text = data["actor"], data["move"]
        table = slot_visibility(st)
        texts = []
        for i, v in enumerate(every):
            if v == "all":
                texts.append(text)
            elif data.get("hidden") and v != actor and actor != TABLE:
                texts.append(HIDDEN_CHOICE)
            else:
                texts.append(_masked_move(st, table, data, v, seen[i], self))
        return Entry(data["step"], "decision", data.get("span"), actor, tuple(texts))


def private_readers(st, var, index) -> tuple:
    """The seats that see a `private` variable's value at `index`: a per-player one its seat, a
    per-team one the team's members, a shared one nobody (only "all")."""
    if index is None or not var.indexed:
        return ()
    if var.per_player:
        return (index,)
    return st.teams.members[index]


def _name_pattern(prog):
    names = sorted(prog.card_names, key=len, reverse=True)
    if not names:
        return None
    return re.compile(r"(?<![\w.])(?:" + "|".join(re.escape(x) for x in names) + r")(?![\w.])")


def _cards_of_move(st, data):
    """The cards a move's values name, inside lists and records too (`lay meld(cards: [4D, 4C])`)."""
    move = data.get("move_obj")
    decision = data.get("decision")
    if move is None or decision is None:
        return ()
    spec = decision.alts[move.alt]
    return [c for b, v in zip(spec.bindings, move.values) for c in _cards_in(st.prog, b.type, v)]


def _cards_in(prog, typ, value) -> list:
    return [v for t, v in values_inside(prog, typ, value) if t == CARD and type(v) is int]


def _masked_move(st, table, data, viewer, seen, journal) -> str:
    move, decision = data.get("move_obj"), data.get("decision")
    if move is None or decision is None:
        return data["move"]
    return masked_move_text(st, decision, move, lambda card: card not in seen and
                            not journal._knew_now(st, table, viewer, card))


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
        hidden = {st.prog.card_names[c] for c in _cards_in(st.prog, b.type, v) if unknown(c)}
        if hidden and b.type != "card":  # a list or a record holding cards this viewer does not know
            pattern = re.compile(r"(?<![\w.])(?:" + "|".join(map(re.escape, sorted(hidden, key=len, reverse=True))) +
                                 r")(?![\w.])")
            text = pattern.sub(HIDDEN, text)
        parts.append(text)
    return " ".join(p for p in parts if p)


def remembered_by(st, viewer) -> dict:
    """{card: slot} of the cards `viewer` saw go where it cannot look and knows are still there
    (a seat's own cards laid away face down, passed to a neighbour, a trick it saw taken)."""
    if viewer in ("all", None):
        return {}
    return st.journal_now().known[viewer]


def unknown_to(st, viewer, remembered: bool = True):
    """`unknown(card)` for `viewer` now: it neither sees the card nor (with `remembered`) saw it
    go where it lies."""
    if viewer == "all":
        return lambda card: False
    table = slot_visibility(st)
    memory = []

    def unknown(card) -> bool:
        if _sees(table, st.vis, st.loc, viewer, card):
            return False
        if viewer is None or not remembered:
            return True
        if not memory:
            memory.append(remembered_by(st, viewer))
        return card not in memory[0]
    return unknown


def move_cards_unknown(st, move, unknown) -> bool:
    """Does `move` (of the decision waiting) name a card `unknown(card)`?"""
    spec = st.waiting.alts[move.alt]
    return any(unknown(c) for b, v in zip(spec.bindings, move.values) for c in _cards_in(st.prog, b.type, v))


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


def unknown_names(st, viewer, text: str) -> list:
    """The card names in `text` that `viewer` does not know (a move typed by name)."""
    pattern = _name_pattern(st.prog)
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
    known = masked(st, viewer, remembered=False)
    unknown = unknown_to(st, viewer, remembered=False)
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
        zone, owner = prog.zone_of_slot(data["to"], st.n)
        where = f"{zone}[P{owner}]" if owner is not None else zone
        return f"move {prog.card_names[card] if card is not None else '?'} to {where}"
    if kind == "chance" and data.get("what") == "draw":
        return f"chance: drew {render_value(prog, data['type'], data['value'], st.n)}"
    if kind == "chance":
        zone, owner = prog.zone_of_slot(data["zone"], st.n)
        return f"shuffle {zone}" + (f"[P{owner}]" if owner is not None else "")
    if kind == "decision":
        actor = data["actor"]
        who = "table" if actor == TABLE else f"P{actor}"
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
            which = f"P{index}" if var is not None and var.per_player else \
                f"T{index}" if var is not None and var.per_team else index
            return f"set {data['name']}[{which}] = {render_value(prog, typ, value, st.n)}"
        return f"set {data['name']} = {render_value(prog, typ, value, st.n)}"
    if kind in ("reveal", "peek", "hide"):
        card = prog.card_names[data["card"]]
        if kind == "peek":
            return f"show {card} to P{data['player']}"
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
    return f"`{name}`" if owner is None else f"`{name}[P{owner}]`"


def masked(st, viewer, knows=None, remembered=True):
    """A copy of `st` as `viewer` knows it: unseen cards, their places and others' private
    variables are Unknown.  Only for reading (evaluate, explain, scores, prompts).
    `knows(card)`: cards it knows besides those it sees; by default (with `remembered`) the
    cards it remembers (`remembered_by`)."""
    m = st.clone_bare()
    if viewer == "all":
        return m
    if knows is None and remembered:
        knows = remembered_by(st, viewer).__contains__
    table, vis = slot_visibility(st), st.vis
    for slot, cards in enumerate(m.zones):
        if not cards or _zone_seen(table[slot], viewer):
            continue
        label = None
        for i, c in enumerate(cards):  # the rest of _sees: the card's own face and who was shown it
            if vis[c] & FACE_UP or viewer is not None and vis[c] >> viewer & 1 or knows is not None and knows(c):
                continue
            label = label or f"the cards of {_zone_label(st, slot)}"
            cards[i] = Unknown(label)
            m.loc[c] = Unknown(f"where `{st.prog.card_names[c]}` lies")
    prog = st.prog
    for name, (var, _typ) in prog.tables.vars.items():
        if not var.private:
            continue
        slot = prog.var_slots[name]
        if var.indexed:
            mark = "P" if var.per_player else "T"
            m.vars[slot] = [v if viewer in private_readers(st, var, i) else Unknown(f"`{name}[{mark}{i}]`")
                            for i, v in enumerate(m.vars[slot])]
        else:
            m.vars[slot] = Unknown(f"`{name}`")
    return m


def seat_reading(st, parts, frame, viewer, knows) -> str:
    """A text (`parts`: Gen.seat_text's) made in `frame` as `viewer` reads it: each `{...}`
    evaluated on the position masked for it and with the frame's cards it does not know
    (`knows(card)`) Unknown: `??` where that reads something it cannot know."""
    pieces, card_slots, reads_position = parts
    known = masked(st, viewer, knows) if reads_position else st.clone_bare()
    frame = list(frame)
    for k in card_slots:
        frame[k] = unknown_cards(frame[k], knows, viewer)
    out = []
    for piece in pieces:
        if isinstance(piece, str):
            out.append(piece)
            continue
        known.begin_work(query=True)
        try:
            out.append(piece(known, frame))
        except UnknownRead:
            out.append(HIDDEN)
        except RUNTIME_FAULTS:  # written as it is, as a text that fails is shown to everyone
            out.append("{...}")
    return "".join(out)


def unknown_cards(value, knows, viewer):
    """`value` (a card, or a list of them, nested) with each card not `knows(card)` an Unknown."""
    if isinstance(value, (tuple, list)):
        return type(value)(unknown_cards(v, knows, viewer) for v in value)
    if type(value) is not int or knows(value):
        return value
    return Unknown(f"a card {viewer_name(viewer)} cannot see")


def refusal_message(what: str, viewer, attributes=()) -> str:
    """`reads the cards of `hand[P2]` (their `rank`), which P1 cannot see`."""
    if attributes and what.startswith("the cards of"):
        what += " (their " + ", ".join(f"`{a}`" for a in attributes) + ")"
    return f"reads {what}, which {viewer_name(viewer)} cannot see"


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


def prompt_for(st, viewer) -> str:
    decision = st.waiting
    if decision is None:
        return ""
    if viewer == "all":
        return st.prompt
    if decision.prompt_parts is None:
        return decision.prompt
    unknown = unknown_to(st, viewer)
    return seat_reading(st, decision.prompt_parts, st.stack[-1][2], viewer, lambda card: not unknown(card))


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
            item["actor"] = "table" if e.actor == TABLE else f"P{e.actor}"
        out.append(item)
    return out


# ---- determinization

def determinize(st, seat, rng):
    """A full state `seat` cannot tell from `st`: every card the seat neither sees nor remembers
    is dealt at random among the places of such cards (zone sizes kept; what the seat sees or
    remembers stays where it is, so a sampled world never moves a card the seat laid away).
    See docs/api.md for what is not inferred."""
    if isinstance(rng, int):
        rng = random.Random(rng)
    elif not callable(getattr(rng, "shuffle", None)):
        raise TypeError(f"determinize draws with a random.Random or an int seed, not {rng!r}")
    journal = st.journal_now()
    d = st.clone()
    unknown = unknown_to(st, seat)
    places = [(slot, i) for slot, cards in enumerate(st.zones) for i, c in enumerate(cards) if unknown(c)]
    free_cards = [st.zones[slot][i] for slot, i in places]
    rng.shuffle(free_cards)
    vis, new_vis = st.vis, d.vis
    dealt = {}  # the card that was at a place -> the card dealt there
    for (slot, i), c in zip(places, free_cards):
        dealt[st.zones[slot][i]] = c
        new_vis[c] = vis[st.zones[slot][i]]  # knowledge belongs to the place: who was shown it, face down
        d.zones[slot][i] = c
        d.loc[c] = slot
    d.journal.follow_deal(st, seat, dealt)
    _resample_hidden_choices(d, seat, rng)
    d.rng = seed_state(rng.getrandbits(64))
    d.seed = 0
    d.history = SharedLog(e.text(seat, st.n) for e in journal.finished(st) if e.kind == "decision")
    d.legal_cache = None
    return d


def _resample_hidden_choices(d, seat, rng):
    """Simultaneous choices already made by other seats are replaced by random legal ones."""
    decision = d.waiting
    if decision is None or decision.kind != "deferred":
        return
    from ..machine.enumeration import enumerate_moves
    var, _pos, collected, _ask = decision.frame_slots
    L = d.stack[-1][2]
    actor, chosen_var = d.actor, L[var]
    redone = []
    for who, alt, values in L[collected]:
        if who != seat:
            L[var], d.actor, d.legal_cache = who, who, None
            moves = enumerate_moves(d, legal_only=True)
            if moves:
                pick = moves[rng.randrange(len(moves))]
                alt, values = pick.alt, pick.values
        redone.append((who, alt, values))
    L[collected] = tuple(redone)
    L[var], d.actor, d.legal_cache = chosen_var, actor, None
