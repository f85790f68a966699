"""What one viewer knows of where the cards are: possibilities, narrowed and widened by events.

A viewer's knowledge of the cards is two things, both data (`Knowing`):

- *possible*: per zone slot, the cards that may lie there (a bitmask over card numbers).  A card
  possible in one slot only is known to be there; a card possible in several is "one of these".
- *pictures*: per zone slot, per position, the card the viewer knows lies at that place, or
  NOBODY.  A card is named to the viewer exactly when it is in a picture: one card is possible
  for that place.

Events change them (the journal calls these with what the viewer saw of each event):

- a card the viewer can follow moves (it saw it before or after, or the move took it by a place
  the viewer knows holds it, as `top(pile)` takes the card it watched go on top): it is known to
  lie at its new place, and nowhere else;
- a card it cannot follow moves (a secret choice among cards it cannot tell apart, a draw from a
  hidden pile): every card possible at the place it left may now lie where it went ("one of these
  went there"), and the pictures lose what the move may have shifted;
- a shuffle keeps "somewhere in this zone" and forgets the places; `hide` forgets a card's place;
- counting settles what the sizes force: a zone holding as many cards as are known to be in it
  holds no other card, and a zone that as many cards may be in as it holds holds those cards.

What this cannot deduce it does not claim: it never follows a card by what a rule read of it (a
void shown by not following suit is the determinization's business: worlds.py replays).
"""

from __future__ import annotations

NOBODY = -1  # in a picture: a place whose card the viewer does not know


class Knowing:
    """One viewer's knowledge of where the cards are (see the module's docstring).

    Attributes:
        pics: per slot, per position, the card known there or NOBODY.
        possible: per slot, a bitmask of the cards that may lie there.
        values: var slot -> the value of a public variable holding cards as the viewer knows it
            (cards it could not name when the value was set are Unknown); absent: not yet set.
        fresh: the cards named to the viewer since the journal last took them (worlds.py keeps
            where a seat saw them, at every shuffle before).
    """

    __slots__ = ("pics", "possible", "values", "fresh")

    def __init__(self, pics, possible, values, fresh=0):
        self.pics, self.possible, self.values, self.fresh = pics, possible, values, fresh

    @classmethod
    def at_start(cls, zones, sees) -> "Knowing":
        """Before the first statement: each card is known to lie in its deck's zone, at no known
        place (the declared order is not assumed read), but those the viewer `sees`."""
        pics, possible = [], []
        for cards in zones:
            mask = 0
            pic = []
            for c in cards:
                mask |= 1 << c
                if sees(c):
                    pic.append(c)
                else:
                    pic.append(NOBODY)
            pics.append(pic)
            possible.append(mask)
        return cls(pics, possible, {})

    def copy(self) -> "Knowing":
        return Knowing([p[:] for p in self.pics], self.possible[:], dict(self.values), self.fresh)

    # ---- reading
    def named(self) -> int:
        """A bitmask of the cards named at their places."""
        out = 0
        for pic in self.pics:
            for c in pic:
                if c != NOBODY:
                    out |= 1 << c
        return out

    def slots_of(self, card: int) -> int:
        """A bitmask of the slots `card` may lie in."""
        bit, out = 1 << card, 0
        for slot, mask in enumerate(self.possible):
            if mask & bit:
                out |= 1 << slot
        return out

    def where(self, card: int):
        """The slot `card` is known to lie in, or None."""
        slots = self.slots_of(card)
        return slots.bit_length() - 1 if slots and not slots & (slots - 1) else None

    def known_in(self, slot: int) -> int:
        """A bitmask of the cards known to lie in `slot` (possible there only)."""
        others = 0
        for s, mask in enumerate(self.possible):
            if s != slot:
                others |= mask
        return self.possible[slot] & ~others

    def only_here(self) -> list:
        """Per slot, a bitmask of the cards known to lie there (known_in of every slot at once)."""
        return only_here(self.possible)

    def relabel(self, x: int, y: int) -> None:
        """Cards `x` and `y` exchanged everywhere in this knowledge."""
        for pic in self.pics:
            for i, c in enumerate(pic):
                if c == x:
                    pic[i] = y
                elif c == y:
                    pic[i] = x
        self.possible = [swap_bits(mask, x, y) for mask in self.possible]

    # ---- events
    def place(self, card: int, slot: int, index: int) -> None:
        """The viewer sees `card` at `index` of `slot` (or knows it lies there)."""
        bit = 1 << card
        possible = self.possible
        for s, mask in enumerate(possible):
            if mask & bit and s != slot:
                possible[s] = mask & ~bit
        possible[slot] |= bit
        self.fresh |= bit
        pic = self.pics[slot]
        if pic[index] != card:
            if card in pic:  # known in this slot, its place shifted by moves it could not follow
                pic[pic.index(card)] = NOBODY
            pic[index] = card

    def moved(self, card: int, src: int, index: int, dst: int, bottom: bool, placed: bool, saw_it_leave: bool,
              knows_it: bool, anchors, after: list, chosen: int = -1) -> bool:
        """One card left `src` (from `index`, counted in the zone as it was) for `dst` (on top, or
        at the bottom).  `placed`: the move took it by its place (`top(pile)`, a whole zone, a
        deal), so which place it left is public; `saw_it_leave`: the viewer saw the card at its
        place; `knows_it`: it sees the card where it went, or chose it; `anchors`: the cards of
        `src` the viewer sees there now (they did not move, and their places show where one
        left; a function giving them, called only where they matter); `after`: `src`'s cards now;
        `chosen`: for a card a seat chose in secret, the cards
        that may have been where it chose it from (a bitmask; -1: any).  Returns whether the
        viewer knows which card moved."""
        pic = self.pics[src]
        bit = 1 << card
        at_place = pic[index] == card
        assert at_place or card not in pic, "a card known at another place than its own"
        known = saw_it_leave or knows_it or at_place and placed
        candidates = bit
        seen_there = 0 if placed or saw_it_leave or known and at_place else anchors()
        if not known:
            candidates = self.possible[src] & ~seen_there & chosen
            if placed:
                for c in pic:
                    if c != NOBODY:
                        candidates &= ~(1 << c)
            assert candidates & bit, "the card that moved was not possible where it was"
            if candidates == bit:  # counting: it could only be this one
                known = True
            else:
                self.possible[dst] |= candidates
        if placed or saw_it_leave or known and at_place:
            del pic[index]
        else:
            self._drop(pic, seen_there, after, card if known else None, candidates)
        if known:
            possible = self.possible
            for s, mask in enumerate(possible):
                if mask & bit:
                    possible[s] = mask & ~bit
            possible[dst] |= bit
            self.fresh |= bit
        arriving = card if known else NOBODY
        if bottom:
            self.pics[dst].insert(0, arriving)
        else:
            self.pics[dst].append(arriving)
        return known

    @staticmethod
    def _drop(pic: list, anchors: int, after: list, card, candidates: int) -> None:
        """Take one entry out of a picture when the viewer does not know which place it left.  The
        cards it sees in the zone (`anchors`, found in `after`, the zone now) show between which
        of them; there it left one of the unknown places, or (an unknown card) the place of a
        known card that may be it (`candidates`): the known cards among those places lose them,
        and so do those between them, whose places shifted by one or not."""
        lo, hi = 0, len(pic)
        for j, c in enumerate(pic):
            if c == NOBODY or not anchors >> c & 1:
                continue
            if after.index(c) == j - 1:  # it slid down by one: the card left below it
                hi = j
                break
            lo = j + 1
        if card is not None and card in pic[lo:hi]:
            del pic[pic.index(card, lo, hi)]
            return
        maybe = [j for j in range(lo, hi) if pic[j] == NOBODY or card is None and candidates >> pic[j] & 1]
        assert maybe, "a card left a zone from no place it could have been"
        for j in range(maybe[0], maybe[-1] + 1):
            pic[j] = NOBODY
        del pic[maybe[0]]

    def shuffled(self, slot: int) -> None:
        """A shuffle: the cards stay possible in the slot; their places are forgotten."""
        pic = self.pics[slot]
        pic[:] = [NOBODY] * len(pic)

    def forget_place(self, card: int, slot: int) -> None:
        """`hide`: the card is still where it was, at a place the viewer no longer knows."""
        pic = self.pics[slot]
        if card in pic:
            pic[pic.index(card)] = NOBODY

    def settle(self, slots) -> None:
        """Counting, from the slots whose sizes or possibilities changed until nothing changes:
        a slot as many cards may lie in as it holds holds them all (no other slot does); a slot
        holding as many cards known to be in it as it holds holds no other; a slot with one
        unknown place and one card known to be in it but not where has that card there."""
        possible, pics = self.possible, self.pics
        work = list(set(slots))
        while work:
            s = work.pop()
            mask, pic = possible[s], pics[s]
            size, count = len(pic), possible[s].bit_count()
            if count == size and count:
                for t, other in enumerate(possible):
                    if t != s and other & mask:
                        possible[t] = other & ~mask
                        if t not in work:
                            work.append(t)
            single = pic.count(NOBODY) == 1  # one unknown place: a known card may be pinned there
            if count <= size and not single:
                continue
            others = 0
            for t, other in enumerate(possible):
                if t != s:
                    others |= other
            only = mask & ~others
            if count > size and only.bit_count() == size:
                possible[s] = only
                gone = mask & ~only
                for t, other in enumerate(possible):
                    if other & gone and t not in work:
                        work.append(t)
            if single:
                unplaced = only
                for c in pic:
                    if c != NOBODY:
                        unplaced &= ~(1 << c)
                if unplaced and not unplaced & (unplaced - 1):
                    pic[pic.index(NOBODY)] = unplaced.bit_length() - 1
                    self.fresh |= unplaced


def only_here(possible: list) -> list:
    """Per slot, the cards possible there and nowhere else (known to be there)."""
    before = 0
    out = [0] * len(possible)
    for s, mask in enumerate(possible):
        out[s] = mask & ~before
        before |= mask
    after = 0
    for s in range(len(possible) - 1, -1, -1):
        out[s] &= ~after
        after |= possible[s]
    return out


def swap_bits(mask: int, x: int, y: int) -> int:
    """`mask` with bits `x` and `y` exchanged."""
    if (mask >> x & 1) != (mask >> y & 1):
        return mask ^ (1 << x) ^ (1 << y)
    return mask
