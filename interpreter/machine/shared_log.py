"""An append-only sequence whose copies share the items they hold in common.

A game's history and its observation log grow by a few items per move, and a game state is
copied at every move (the REPL's undo timeline, a replay being opened, playouts): copying them
item by item made a game of N moves cost N squared (a 100,000-move replay took 267 s to open,
where playing it took 17 s).  A copy of a SharedLog takes the same underlying list and its own
length, so it costs the same however long the game is.  Appending to a copy whose list another
copy has grown past it first takes a list of its own (once per branch: `undo`, then a new move).
"""

from __future__ import annotations

from itertools import islice


class SharedLog:
    """A list that only grows, for a game's history and its observation log; `copy()` is cheap."""

    __slots__ = ("_items", "_len")

    def __init__(self, items=()):
        self._items = list(items)
        self._len = len(self._items)

    def copy(self) -> "SharedLog":
        other = SharedLog.__new__(SharedLog)
        other._items, other._len = self._items, self._len
        return other

    def append(self, item) -> None:
        if len(self._items) != self._len:  # another copy went on from here: this one branches off
            self._items = self._items[:self._len]
        self._items.append(item)
        self._len += 1

    def extend(self, items) -> None:
        for item in items:
            self.append(item)

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(self._len)
            return [self._items[i] for i in range(start, stop, step)] if step < 0 else self._items[start:stop:step]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("SharedLog index out of range")
        return self._items[index]

    def __iter__(self):
        return islice(self._items, self._len)

    def __eq__(self, other):
        if isinstance(other, SharedLog):
            return self._len == other._len and (self._items is other._items or list(self) == list(other))
        if isinstance(other, list):
            return list(self) == other
        return NotImplemented

    __hash__ = None  # mutable, like a list

    def __repr__(self) -> str:
        return repr(list(self))

    def __reduce__(self):  # pickled (parallel runs) as its own items only
        return SharedLog, (list(self),)
