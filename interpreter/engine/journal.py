"""The journal: each viewer's observations, recorded as the events happen (a tracer of the state).

Every event is written once per viewer, as that viewer observed it *then* (a card it saw face
up stays named in its log after it goes face down), and each seat's and the spectator's
knowledge of where the cards are (possibilities.Knowing) is changed by what it saw of the event.
Views, logs, masked positions and determinizations read both (knowledge.py, views.py, worlds.py).
"""

from __future__ import annotations

import functools
import hashlib

import attrs

from ..machine.runtime import FACE_UP, TABLE
from ..machine.shared_log import SharedLog
from .knowledge import (HIDDEN, HIDDEN_CHOICE, cards_in, cards_of_move, describe, known_var, masked_move_text,
                        name_pattern, private_readers, seat_reading, seat_value, sees_at, sight, slot_visibility,
                        viewers, zone_seen)
from .possibilities import Knowing, swap_bits

_CARDS_KNOWN = frozenset(("decision", "move", "reveal", "peek", "hide", "chance"))  # events changing the minds


def _index(n: int, viewer) -> int:
    return n + 1 if viewer == "all" else (n if viewer is None else viewer)


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
        detail: what everyone saw of the event beside its text: for a move, the slot the card
            left and whether it went to the bottom (zone sizes are public), in the information
            state's digest; for a shuffle, ("shuffle", its slot).
        named: per seat, then the spectator, the cards the event named to it (a bitmask; worlds.py
            keeps them where the seat found them).
    """

    step: int
    kind: str
    span: object
    actor: object
    texts: tuple
    detail: tuple = ()
    named: tuple = ()

    def text(self, viewer, n: int):
        return self.texts[_index(n, viewer)]


class Journal:
    """Each viewer's observations and knowledge, recorded as the events happen.

    The entries of the moves before the last one are a SharedLog, shared with the journal's
    copies (a game state is copied at every move: copying them made a long game quadratic); the
    last move's own entry is completed only when the next move is made (or when read), so it and
    the entries after it stay in a short list of this journal's own.

    Attributes:
        minds: per seat, then the spectator, what it knows of where the cards are (Knowing).
        log: whether the entries are kept; without them only the minds are (what a simulation
            measuring how much each seat knows needs: studies/playtest.py), and a log asked for
            is made by playing the moves again (GameState.journal_now).
        only: None, or the one seat whose observations are recorded (the others' texts None,
            their minds left as they were): a world being sampled for that seat (worlds.py).
    """

    __slots__ = ("_done", "_tail", "minds", "_zones", "_loc", "_vis", "_pending", "_names", "_digests", "_chosen",
                 "log", "only", "_read")

    def __init__(self, st, log: bool = True, only=None):
        self.log, self.only = log, only
        self._done = SharedLog()  # every Entry before the last move's own
        self._tail: list = []  # the last move's entry (None until completed) and the ones after it
        table = slot_visibility(st)
        self.minds = [Knowing.at_start(st.zones, lambda c, v=v: sees_at(table, st.vis, st.loc, v, c))
                      for v in list(range(st.n)) + [None]]
        self._zones = [z[:] for z in st.zones]  # the position as the last event left it
        self._loc, self._vis = st.loc[:], st.vis[:]
        self._pending = None  # (decision data, per viewer the cards of the move it identified: then, and
        # by the end of the move's effects; the first only for the seat choosing)
        self._names = None
        self._digests = {}  # viewer index -> (entries of _done hashed, the hash so far)
        self._chosen = [{} for _ in self.minds]  # per viewer: card chosen in secret -> the cards it may be
        self._read = {}  # what reading made since the last event: the last move's entry, digests

    def copy(self) -> "Journal":
        other = Journal.__new__(Journal)
        other._done, other._tail = self._done.copy(), self._tail[:]
        other.minds = [m.copy() if self.only is None or i == self.only else m for i, m in enumerate(self.minds)]
        other._zones = [z[:] for z in self._zones]
        other._loc, other._vis = self._loc[:], self._vis[:]
        other._pending = None if self._pending is None else \
            (self._pending[0], [set(s) for s in self._pending[1]], self._pending[2])
        other._names = self._names
        other._digests = {i: (count, h.copy()) for i, (count, h) in self._digests.items()}
        other._chosen = [dict(c) for c in self._chosen]
        other.log, other.only = self.log, self.only
        other._read = dict(self._read)
        return other

    def start_values(self, st) -> None:
        """The public variables holding cards as each viewer knows them once they have their
        starting values (before any statement): each card it does not see unknown."""
        for v, mind in zip(list(range(st.n)) + [None], self.minds):
            for slot in st.prog.card_var_slots:
                mind.values[slot] = known_var(st, v, slot, mind)

    def know_by_sight(self, st) -> None:
        """Start each viewer's knowledge again from what it sees of `st` (a position its moves do
        not lead to), keeping the cards it knew at places that still hold them."""
        minds = []
        for v, old in zip(list(range(st.n)) + [None], self.minds):
            mind = sight(st, v)
            for slot, pic in enumerate(old.pics):
                cards = st.zones[slot]
                for i, c in enumerate(pic):
                    if c >= 0 and i < len(cards) and cards[i] == c:
                        mind.place(c, slot, i)
            mind.settle(range(len(st.zones)))
            mind.fresh = 0
            minds.append(mind)
        self.minds = minds
        self._zones = [z[:] for z in st.zones]
        self._loc, self._vis = st.loc[:], st.vis[:]
        self._chosen = [{} for _ in self.minds]
        self._read = {}

    def relabel(self, x: int, y: int) -> None:
        """Cards `x` and `y` exchanged in the position the journal follows and in what every
        viewer knows of them (worlds.py, trying an exchange of two cards of a deal)."""
        def swap(c):
            return y if c == x else x if c == y else c
        for cards in self._zones:
            if x in cards or y in cards:
                cards[:] = [swap(c) for c in cards]
        for mind in self.minds:
            mind.relabel(x, y)
        for chosen in self._chosen:
            masks = {c: swap_bits(chosen.pop(c), x, y) for c in (x, y) if c in chosen}
            chosen.update((swap(c), mask) for c, mask in masks.items())
        self._read = {}

    def mind(self, viewer) -> Knowing:
        """What `viewer` (a seat or None, the spectator) knows of where the cards are."""
        return self.minds[len(self.minds) - 1 if viewer is None else viewer]

    # -- reading
    def __len__(self) -> int:
        return len(self._done) + len(self._tail)

    def finished(self, st, start: int = 0) -> list:
        """The entries from the `start`-th on, the last move's own entry completed from the
        position now.  Reading the last few costs the same however long the game is."""
        done = len(self._done)
        out = self._done[start:] if start < done else []
        if self._tail:
            tail = self._tail[:]
            if self._pending is not None:
                entry = self._read.get("pending")
                if entry is None:
                    entry = self._read["pending"] = self._decision_entry(st, *self._pending[:2])
                tail[0] = entry
            out += tail[max(0, start - done):]
        return out

    def digest(self, st, viewer) -> str:
        """A digest of everything `viewer` observed, in order (its log, with what every event
        showed beside its text and the statement that made it): equal for two games exactly
        when the viewer's observations were.  Kept as the journal grows, so asking again costs
        only the entries since."""
        i = _index(st.n, viewer)
        known = self._read.get(i)
        if known is not None:
            return known
        count, h = self._digests.get(i, (0, None))
        if h is None:
            h = hashlib.blake2b(digest_size=16)
        done = len(self._done)
        if count < done:
            for e in self._done[count:]:
                _hash_entry(h, e, i)
            self._digests[i] = (done, h)
        if self._tail:
            h = h.copy()
            for e in self.finished(st, done):
                _hash_entry(h, e, i)
        found = self._read[i] = h.hexdigest()
        return found

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

    # -- recording
    def record(self, st, kind: str, data: dict) -> None:
        if self._read:
            self._read = {}
        n = st.n
        every = self._who(n)
        table = slot_visibility(st)
        step = len(st.history)
        if kind == "decision":
            data = dict(data, step=step)
            self._finish(st)
            self._zones = [z[:] for z in st.zones]
            self._loc, self._vis = st.loc[:], st.vis[:]
            identified = self._identified(st, table, data, every)
            actor = data["actor"]
            chose = [frozenset(s) if v == actor else frozenset() for v, s in zip(_all_viewers(n), identified)]
            self._pending = (data, identified, chose)
            self._note_choices(st, data)
            self._tail = [None]  # completed when the move's effects are over
            return
        if not self.log and kind not in _CARDS_KNOWN:
            return
        if kind == "rule":  # the judging of a move, before it is made: only its maker sees it, as it knows it
            actor = st.actor
            full = describe(st, kind, data)
            mine = data.get("seen", full)
            texts = _fill(n, {i: full if v == "all" else mine if v == actor else None for i, v in every})
            self._add(Entry(step + 1, kind, data.get("span"), actor, texts))
            return
        if kind == "move":
            entry = self._moved(st, table, data, every, step)
        else:
            detail = ("shuffle", data["zone"]) if kind == "chance" and data.get("zone") is not None else ()
            entry = Entry(step, kind, data.get("span"), None, self._texts(st, table, kind, data, every), detail)
        named = tuple(mind.fresh for mind in self.minds)
        if any(named):
            for mind in self.minds:
                mind.fresh = 0
            entry = Entry(entry.step, entry.kind, entry.span, entry.actor, entry.texts, entry.detail, named)
        self._add(entry)

    def _add(self, entry) -> None:
        if not self.log:
            return
        if self._tail:
            self._tail.append(entry)
        else:
            self._done.append(entry)

    def _finish(self, st):
        if self._pending is not None:
            self._tail[0] = self._decision_entry(st, *self._pending[:2])
            self._pending = None
        self._done.extend(self._tail)
        self._tail = []

    def _identified(self, st, table, data, every) -> list:
        """Per viewer, the cards of the move being made it can name now: those it sees; for the
        seat choosing, also those it knows at their places (it chose them there); another
        seat's secret choice among cards a viewer cannot see names none of them to it."""
        cards = cards_of_move(st, data)
        actor, hidden = data["actor"], data.get("hidden")
        out = [set() for _ in range(st.n + 2)]
        for i, v in every:
            if v == "all":
                out[i] = set(cards)
                continue
            mind = self.minds[i]
            mine = v == actor and actor != TABLE
            out[i] = {c for c in cards if (mine or not hidden) and sees_at(table, st.vis, st.loc, v, c)
                      or mine and c in mind.pics[st.loc[c]]}
        return out

    def _note_choices(self, st, data) -> None:
        """Remember, for each viewer that cannot tell which cards the move chose, where each may
        have been chosen from: when such a card moves later (the bodies of a simultaneous
        decision run once everyone has chosen), it is one of the cards that were possible
        there then, not one that arrived since (Hearts: the cards passed in are not passed on).
        Kept for the choices still collected and this move's own."""
        decision = data.get("decision")
        keep = set()
        if decision is not None and decision.kind == "deferred":
            collected = st.stack[-1][2][decision.frame_slots[2]] if st.stack else ()
            for _who, alt, values in collected or ():
                spec = decision.alts[alt]
                keep.update(c for b, v in zip(spec.bindings, values) for c in cards_in(st.prog, b.type, v))
        cards = cards_of_move(st, data)
        for i, chosen in enumerate(self._chosen):
            if self.only is not None and i != self.only:
                continue
            for c in [c for c in chosen if c not in keep]:
                del chosen[c]
            seen = self._pending[1][i]
            for c in cards:
                if c not in seen:
                    chosen[c] = self.minds[i].possible[st.loc[c]]

    def _moved(self, st, table, data, every, step) -> Entry:
        card, dst = data["card"], data["to"]
        src = self._loc[card]
        index = self._zones[src].index(card)
        bottom, placed = bool(data.get("bottom")), bool(data.get("placed"))
        del self._zones[src][index]
        self._zones[dst].insert(0, card) if bottom else self._zones[dst].append(card)
        full = describe(st, "move", data)
        name = st.prog.card_names[card]
        after = st.zones[src]
        seen = self._pending[1] if self._pending is not None else None
        chose = self._pending[2] if self._pending is not None else None
        out = {}
        for i, v in every:
            if v == "all":
                out[i] = full
                continue
            mind = self.minds[i]
            before = sees_at(table, self._vis, self._loc, v, card)
            now = sees_at(table, st.vis, st.loc, v, card)
            known = mind.moved(card, src, index, dst, bottom, placed, before,
                               now or (chose is not None and card in chose[i]),
                               lambda v=v: _seen_among(table, st, v, src, after), after,
                               self._chosen[i].pop(card, -1) if i < len(self._chosen) else -1)
            mind.settle((src, dst))
            if known and seen is not None:
                seen[i].add(card)
            out[i] = full if known else full.replace(name, HIDDEN, 1)
        self._loc[card], self._vis[card] = st.loc[card], st.vis[card]
        return Entry(step, "move", data.get("span"), None, _fill(st.n, out), (src, bottom))

    def _texts(self, st, table, kind, data, every) -> tuple:
        return _fill(st.n, self._texts_by_viewer(st, table, kind, data, every))

    def _texts_by_viewer(self, st, table, kind, data, every) -> dict:
        """Viewer index -> the event's text as that viewer observed it (None: not at all)."""
        full = describe(st, kind, data)
        names = st.prog.card_names
        if kind in ("reveal", "peek", "hide"):
            card = data["card"]
            slot = st.loc[card]
            index = st.zones[slot].index(card)
            seen = self._pending[1] if self._pending is not None else None
            out = {}
            for i, v in every:
                if v == "all":
                    out[i] = full
                    continue
                mind = self.minds[i]
                knew = card in mind.pics[slot]
                now = sees_at(table, st.vis, st.loc, v, card) or kind == "peek" and v == data["player"]
                if now:
                    mind.place(card, slot, index)
                    mind.settle((slot,))
                    if seen is not None:
                        seen[i].add(card)
                elif kind == "hide":
                    mind.forget_place(card, slot)
                out[i] = full if knew or now else full.replace(names[card], HIDDEN, 1)
            self._vis[card] = st.vis[card]
            return out
        if kind == "chance" and data.get("what") == "draw":  # a drawn card is named only to who sees it drawn
            return {i: self._mask_names(st, full, i, v, seen_only=True) for i, v in every}
        if kind == "chance":
            slot = data.get("zone")
            if slot is not None:
                self._zones[slot] = st.zones[slot][:]
                for c in st.zones[slot]:
                    self._vis[c] = st.vis[c]
                for i, v in every:
                    if v == "all":
                        continue
                    mind = self.minds[i]
                    mind.shuffled(slot)
                    for index, c in enumerate(st.zones[slot]):
                        if sees_at(table, st.vis, st.loc, v, c):
                            mind.place(c, slot, index)
                    mind.settle((slot,))
            return {i: full for i, _ in every}
        if kind == "set":
            return self._set_texts(st, data, full, every)
        if kind == "log":
            return {i: self._mask_names(st, self._log_text(st, table, data, full, i, v), i, v) for i, v in every}
        return {i: full for i, _ in every}

    def _set_texts(self, st, data, full, every) -> tuple:
        """A `set` as each viewer saw it: a private variable's by the seats it belongs to only; a
        variable holding cards with each card the viewer could not name then written ??, and
        kept so (the value is known as it was known when set: views and answers read it)."""
        prog = st.prog
        entry = prog.tables.vars.get(data.get("name"))
        if entry is not None and entry[0].private:  # seen by the seat (or team) it belongs to
            readers = private_readers(st, entry[0], data.get("index"))
            return {i: full if v == "all" or v in readers else None for i, v in every}
        if entry is None or data.get("seat") is None:
            return {i: self._mask_names(st, full, i, v) for i, v in every}
        var, _typ = entry
        slot, index = prog.var_slots[var.name], data.get("index")
        out = {}
        for i, v in every:
            if v == "all":
                out[i] = full
                continue
            mind = self.minds[i]
            value = self._seat_value(st, data, i, v)
            known = mind.values[slot] if slot in mind.values else known_var(st, v, slot, mind)
            if index is None:
                known = value
            elif var.indexed:
                known = list(known)
                known[index] = value
            else:  # one element of a list variable
                known = list(known) if isinstance(known, (tuple, list)) else [known] * len(st.vars[slot])
                known[index] = value
                known = tuple(known)
            mind.values[slot] = known
            out[i] = describe(st, "set", dict(data, value=value))
        return out

    def _seat_value(self, st, data, i, viewer):
        """The value a `set` stores, as `viewer` can work it out: its expression evaluated again on
        what the viewer knows (an Unknown where that reads something it cannot know)."""
        table = slot_visibility(st)
        return seat_value(st, data["seat"], data["frame"], viewer, self.minds[i],
                          lambda card: self._knows(st, table, i, viewer, card))

    def _log_text(self, st, table, data, full, i, viewer) -> str:
        """A log line as `viewer` reads it: each `{...}` evaluated again on what the viewer
        knows (the position masked, and the cards in the frame's locals it does not know), and
        `??` where that reads something it cannot know."""
        parts = data.get("parts")
        if viewer == "all" or parts is None:
            return full
        return seat_reading(st, parts, data["frame"], viewer, lambda card: self._knows(st, table, i, viewer, card),
                            self.minds[i], most=2 * data.get("work", 0))

    def _mask_names(self, st, text, i, viewer, seen_only: bool = False) -> str:
        """`text` with every card name `viewer` cannot name now replaced by ??; with `seen_only`
        (a card drawn at random), every name of a card it does not see where it lies: knowing a
        card is among a hand's does not tell it which of them the draw took."""
        if viewer == "all" or not text:
            return text
        pattern = self._names or name_pattern(st.prog)
        self._names = pattern
        if pattern is None:
            return text
        by_name = st.prog.card_by_name
        table = slot_visibility(st)
        named = []  # made when a card's name is met

        def repl(m):
            c = by_name.get(m.group(0))
            if seen_only:  # not even a card it saw earlier in this move: it does not see the draw
                return m.group(0) if c is None or sees_at(table, st.vis, st.loc, viewer, c) else HIDDEN
            if c is None or self._knows(st, table, i, viewer, c):
                return m.group(0)
            if not named:
                named.append(self.minds[i].named())
            return m.group(0) if named[0] >> c & 1 else HIDDEN
        return pattern.sub(repl, text)

    def _knows(self, st, table, i, viewer, card) -> bool:
        """Does `viewer` (the i-th) know a card a local holds: one it sees now, or saw in the move
        being made (a card it knows only by its place is not one it knows a local holds: the local
        may hold another seat's secret choice)."""
        seen = self._pending[1][i] if self._pending is not None else ()
        return card in seen or sees_at(table, st.vis, st.loc, viewer, card)

    def _decision_entry(self, st, data, seen) -> Entry:
        actor = data["actor"]
        texts = {}
        for i, v in self._who(st.n):
            if v == "all":
                texts[i] = data["move"]
            elif data.get("hidden") and v != actor and actor != TABLE:
                texts[i] = HIDDEN_CHOICE
            else:
                texts[i] = _masked_move(st, data, seen[i])
        return Entry(data["step"], "decision", data.get("span"), actor, _fill(st.n, texts))

    def _who(self, n: int) -> tuple:
        """(index, viewer) of every viewer this journal records: all, or its `only` seat."""
        key = (n, self.only)
        found = _WHO.get(key)
        if found is None:
            found = _WHO[key] = tuple((i, v) for i, v in enumerate(viewers(n)) if self.only is None or v == self.only)
        return found


_WHO: dict = {}  # (players, only) -> Journal._who's answer


@functools.cache
def _all_viewers(n: int) -> tuple:
    return tuple(viewers(n))


def _fill(n: int, texts: dict) -> tuple:
    """One text per viewer (seats, the spectator, "all") from a dict by viewer index."""
    if len(texts) == n + 2:
        return tuple(texts.values()) if list(texts) == list(range(n + 2)) else tuple(texts.get(i) for i in range(n + 2))
    return tuple(map(texts.get, range(n + 2)))


def _seen_among(table, st, viewer, slot, cards) -> int:
    """A bitmask of the `cards` of `slot` that `viewer` sees now: all, or the face-up ones."""
    out = 0
    if zone_seen(table, slot, viewer):
        for c in cards:
            out |= 1 << c
        return out
    vis = st.vis
    for c in cards:
        if vis[c] & FACE_UP:
            out |= 1 << c
    return out


def _hash_entry(h, e, i) -> None:
    text = e.texts[i]
    if text is None or e.kind == "rule":  # a judgement is written only when a tracer listens
        return
    h.update(f"{e.step}\x1f{e.kind}\x1f{e.actor}\x1f{text}\x1f{e.detail}\x1f{e.span}\x1e".encode())


def _masked_move(st, data, seen) -> str:
    move, decision = data.get("move_obj"), data.get("decision")
    if move is None or decision is None:
        return data["move"]
    return masked_move_text(st, decision, move, lambda card: card not in seen)
