"""What one viewer knows, as structured data: each zone's knowledge, the observation (its view,
its log, its knowledge) and the information state (a compact, stable text and its hash).

The information state is OpenSpiel's contract: equal for two games exactly when the viewer
cannot tell them apart.  It is the viewer's knowledge now (every zone's size, the cards it can
name where they lie, the cards it knows are in a zone but not where, the cards that may be
there), the variables it may read, who is to act at which decision, and a digest of everything
it observed on the way (journal.Journal.digest, kept as the game goes): so it costs the same
late in a game as early, and stays short.
"""

from __future__ import annotations

import hashlib

import attrs

from ..machine.program import render_value
from ..machine.runtime import TABLE
from .knowledge import iter_bits, known_var, log_for, mind_of, private_readers, prompt_for, viewer_name, zone_labels
from .possibilities import only_here
from .views import build_view


@attrs.frozen
class ZoneKnowledge:
    """What one viewer knows of one zone.

    Attributes:
        zone: the zone's name, with its owner (`hand[P1]`).
        size: how many cards it holds (everyone knows).
        cards: per place, bottom first, the card's name where the viewer knows which card lies
            there, None where it does not.
        known: the cards the viewer knows lie in the zone but not where (deck order).
        possible: every card that may lie in the zone (deck order), those named included.
    """

    zone: str
    size: int
    cards: tuple
    known: tuple
    possible: tuple

    def to_json(self) -> dict:
        return {"size": self.size, "cards": list(self.cards), "known": list(self.known),
                "possible": list(self.possible)}


def zone_knowledge(st, viewer) -> tuple:
    """Every zone as `viewer` knows it (ZoneKnowledge), in slot order."""
    return _zones_known(st.prog.card_names, zone_labels(st), *_knowledge(st, viewer))


def _knowledge(st, viewer) -> tuple:
    """(per slot the picture, the cards possible there, the cards known to be there) of `viewer`."""
    if viewer == "all":
        pics = [cards[:] for cards in st.zones]
        possible = [_mask(cards) for cards in st.zones]
        return pics, possible, possible
    mind = mind_of(st, viewer)
    return [p[:] for p in mind.pics], mind.possible[:], only_here(mind.possible)


def _zones_known(names, labels, pics, possible, only) -> tuple:
    out = []
    for slot, pic in enumerate(pics):
        placed = _mask(c for c in pic if c >= 0)
        out.append(ZoneKnowledge(labels[slot], len(pic), tuple(None if c < 0 else names[c] for c in pic),
                                 tuple(names[c] for c in iter_bits(only[slot] & ~placed)),
                                 tuple(names[c] for c in iter_bits(possible[slot]))))
    return tuple(out)


def _mask(cards) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def observation(st, viewer) -> dict:
    """What `viewer` knows now, JSON-able: its view of the position, its observation log and its
    knowledge of every zone (`knowledge`: zone -> size, cards, known, possible)."""
    data = build_view(st, viewer)
    data["log"] = log_for(st, viewer)
    data["knowledge"] = {z.zone: z.to_json() for z in zone_knowledge(st, viewer)}
    return data


class InformationState:
    """What one seat (or the spectator, or "all") knows, equal for two games exactly when it
    cannot tell them apart.  `text` is compact and stable (the same in every process and
    version of Python); `digest` hashes it; `==` and `hash()` compare the texts.

    Attributes:
        viewer: "P1", "spectator" or "all".
        step: the moves made.
        to_act: who is to act ("P2", "table", or None), and what it is asked (`decision`: the
            prompt as the viewer reads it, None when no decision waits).
        zones: per zone, a ZoneKnowledge (made when first read).
        variables: (name, value as the viewer may read it) of each variable it may read.
        history: a digest of everything it observed on the way (journal.Journal.digest).
    """

    __slots__ = ("viewer", "step", "to_act", "decision", "variables", "history", "text", "digest", "_zones",
                 "_known")

    def __init__(self, viewer, step, to_act, decision, variables, history, text, known):
        self.viewer, self.step, self.to_act, self.decision = viewer, step, to_act, decision
        self.variables, self.history, self.text = variables, history, text
        self.digest = hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
        self._zones, self._known = None, known

    @property
    def zones(self) -> tuple:
        if self._zones is None:
            self._zones = _zones_known(*self._known)
        return self._zones

    def __eq__(self, other) -> bool:
        return isinstance(other, InformationState) and self.text == other.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"InformationState({self.text!r})"


def information_state(st, viewer) -> InformationState:
    """The information state of `viewer` in `st` (see InformationState): the zones written
    straight from the viewer's possibilities, `hand[P1] 13 2C,AS,?11 {7H} #1f3...` (size, the
    places with runs of unknown ones counted, the cards known to be there but not where, the
    cards that may be there as a bitmask), the variables, and the history's digest."""
    pics, possible, only = _knowledge(st, viewer)
    names, labels = st.prog.card_names, zone_labels(st)
    actor = st.current_player
    to_act = None if actor is None else ("table" if actor == TABLE else st.prog.seat_label(actor))
    decision = prompt_for(st, viewer) if st.waiting is not None else None
    variables = _variables(st, viewer)
    history = st.journal_now().digest(st, viewer)
    parts = [f"{viewer_name(viewer, st.prog)}@{len(st.history)}", f"{to_act}:{decision}", f"over:{int(st.over)}"]
    for slot, pic in enumerate(pics):
        mask = possible[slot]
        if not pic and not mask:
            continue
        unknown = pic.count(-1)
        if unknown == len(pic):  # the common cases first: a zone it knows nothing of, or all of
            placed, listed = 0, f"?{unknown}" if unknown else ""
        elif not unknown:
            placed, listed = mask, ",".join([names[c] for c in pic])
        else:
            places, unknown, placed = [], 0, 0
            for c in pic:
                if c < 0:
                    unknown += 1
                    continue
                placed |= 1 << c
                if unknown:
                    places.append(f"?{unknown}")
                    unknown = 0
                places.append(names[c])
            if unknown:
                places.append(f"?{unknown}")
            listed = ",".join(places)
        text = f"{labels[slot]} {len(pic)} {listed}"
        unplaced = only[slot] & ~placed
        if unplaced:
            text += " {" + ",".join(names[c] for c in iter_bits(unplaced)) + "}"
        parts.append(f"{text} #{mask:x}")
    parts.append(";".join(f"{name}={value}" for name, value in variables))
    parts.append(history)
    return InformationState(viewer_name(viewer, st.prog), len(st.history), to_act, decision, variables, history,
                            "|".join(parts), (names, labels, pics, possible, only))


def _variables(st, viewer) -> tuple:
    """(name, value text) of each variable `viewer` may read: public ones (a card it could not
    name ??), its own private ones."""
    prog = st.prog
    out = []
    for name, (var, typ) in prog.tables.vars.items():
        slot = prog.var_slots[name]
        value = st.vars[slot]
        if viewer != "all" and slot in prog.card_var_slots:
            value = known_var(st, viewer, slot)
        if var.indexed:
            shown = [render_value(prog, typ, v, st.n) if not var.private or viewer == "all"
                     or viewer in private_readers(st, var, i) else "-" for i, v in enumerate(value)]
            out.append((name, "[" + ",".join(shown) + "]"))
        elif not var.private or viewer == "all":
            out.append((name, render_value(prog, typ, value, st.n)))
    return tuple(out)
