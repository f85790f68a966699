"""Encodings for learning (docs/environments.md): a seat's observation as a vector of numbers,
read from the knowledge model (`information_state`), and a fixed integer action space built
from the script's decisions and the domains of their binders, with a legal-action mask.

Both are derived from the script alone (and the player count): the same script and options give
the same layout on every run, with no game named in Python.

Observation, in this order (`Encoder.layout` names each block):
- per zone as the seat knows it (`hand[P1]`, `stock`...): a plane over the deck's cards, 1 where
  the seat knows the card lies there; a plane 1 where the card may lie there; the zone's size;
- each variable the seat may read, as numbers: an int or a bool is one slot, a list one slot
  per item (up to the first value's length), a seat one-hot over the seats; other values (a
  symbol, `none`) one slot, 1 when set;
- the seat itself, one-hot; who is to act, one-hot over the seats and the table; the decision
  asked of this seat, one-hot over the script's decisions (all 0 when it is not asked).

Actions: the script's decisions in order, each alternative a block: an alternative without
binders is one action; one binder is one action per value of its domain (a card: every card of
the deck; a seat: every seat; an int: 0 to INT_ACTIONS - 1); several binders the product.  A
move the blocks cannot name (a binder choosing several cards, a symbol, an int outside the
range) takes one of OVERFLOW actions at the end, by its place among such moves in the legal
listing: those actions are not stable from one position to the next (documented limit).
"""

from __future__ import annotations

import numpy as np

from ..machine.runtime import TABLE

INT_ACTIONS = 256  # an int binder's values 0..255 have actions of their own
OVERFLOW = 64  # moves no block names, by their place in the listing


def _decisions(program) -> list:
    found = program.decisions
    return list(found.values()) if isinstance(found, dict) else list(found)


class Encoder:
    """The observation and action layout of one script at one player count (see the module)."""

    def __init__(self, game, players: int, options: dict | None = None):
        self.game, self.n = game, players
        program = game.program
        self.cards = len(program.card_names)
        self.card_index = {name: i for i, name in enumerate(program.card_names)}
        # ---- actions
        self.blocks: dict = {}  # (decision index, alternative index) -> (first action, sizes per binder)
        start = 0
        self.decision_index = {}
        for k, decision in enumerate(_decisions(program)):
            self.decision_index[decision.index] = k
            for alt in decision.alts:
                sizes = tuple(self._domain(b) for b in alt.bindings)
                if any(s is None for s in sizes):
                    sizes = None
                count = 1
                for s in sizes or ():
                    count *= s
                self.blocks[(decision.index, alt.index)] = (start, sizes)
                start += count if sizes is not None else 0
        self.overflow = start
        self.actions = start + OVERFLOW
        # ---- observation: the zones and variables of a first position
        first = game.new_game(players=players, seed=0, options=options)
        info = first.information_state(0)
        self.zones = [z.zone for z in info.zones]
        self.zone_at = {name: i for i, name in enumerate(self.zones)}
        self.variables = []
        for name, text in info.variables:
            self.variables.append((name, self._width(text)))
        self.layout = [(f"zone {z}", 2 * self.cards + 1) for z in self.zones] + \
            [(f"var {name}", width) for name, width in self.variables] + \
            [("seat", players), ("to act", players + 1), ("decision", len(self.decision_index))]
        self.size = sum(width for _name, width in self.layout)

    def _domain(self, binding):
        if binding.several:
            return None
        return {"card": self.cards, "player": self.n, "int": INT_ACTIONS}.get(binding.type)

    def _width(self, text: str) -> int:
        if text.startswith("["):
            return max(1, len(text.strip("[]").split(","))) if text.strip("[]") else 1
        if text.startswith("P") and text[1:].isdigit():
            return self.n
        return 1

    # ---- actions
    def action_of(self, move, decision: int) -> int | None:
        """The block action naming `move` of the decision numbered `decision` (None: overflow)."""
        start, sizes = self.blocks[(decision, move.alt)]
        if sizes is None:
            return None
        action, scale = start, 1
        for value, size in zip(reversed(move.values), reversed(sizes)):
            if type(value) is not int or not 0 <= value < size:
                return None
            action += value * scale
            scale *= size
        return action

    def legal_actions(self, state) -> dict:
        """Action -> Move for the decision waiting (every legal move has exactly one action)."""
        out, spill = {}, 0
        decision = state.waiting.index if state.waiting is not None else None
        for move in state.legal_moves():
            action = self.action_of(move, decision)
            if action is None or action in out:
                if spill >= OVERFLOW:
                    continue  # past the overflow block: not offered (documented limit)
                action = self.overflow + spill
                spill += 1
            out[action] = move
        return out

    def mask(self, legal: dict) -> np.ndarray:
        mask = np.zeros(self.actions, dtype=np.int8)
        mask[list(legal)] = 1
        return mask

    # ---- observations
    def observation(self, state, seat: int) -> np.ndarray:
        """What `seat` knows now, as a float32 vector of `size` numbers (see the module)."""
        out = np.zeros(self.size, dtype=np.float32)
        info = state.information_state(seat)
        c, index = self.cards, self.card_index
        block = 2 * c + 1
        for z in info.zones:
            at = self.zone_at.get(z.zone)
            if at is None:
                continue
            base = at * block
            for name in z.cards:
                if name is not None:
                    out[base + index[name]] = 1.0
            for name in z.known:
                out[base + index[name]] = 1.0
            for name in z.possible:
                out[base + c + index[name]] = 1.0
            out[base + 2 * c] = z.size
        pos = len(self.zones) * block
        values = dict(info.variables)
        for name, width in self.variables:
            text = values.get(name)
            if text is not None:
                self._write_value(out, pos, width, text)
            pos += width
        out[pos + seat] = 1.0
        pos += self.n
        actor = state.current_player
        if actor is not None:
            out[pos + (self.n if actor == TABLE else actor)] = 1.0
        pos += self.n + 1
        if actor is not None and (actor == seat or actor == TABLE) and state.waiting is not None:
            out[pos + self.decision_index[state.waiting.index]] = 1.0
        return out

    def _write_value(self, out, pos: int, width: int, text: str) -> None:
        if text.startswith("["):
            items = text.strip("[]").split(",") if text.strip("[]") else []
            for i, item in enumerate(items[:width]):
                out[pos + i] = _number(item)
        elif width == self.n and text.startswith("P") and text[1:].isdigit():
            seat = int(text[1:])
            if seat < width:
                out[pos + seat] = 1.0
        else:
            out[pos] = _number(text)


def _number(text: str) -> float:
    text = text.strip()
    if text == "true":
        return 1.0
    if text in ("false", "none", ""):
        return 0.0
    try:
        return float(text)
    except ValueError:
        return 1.0  # a symbol, a card, a seat in a list: set
