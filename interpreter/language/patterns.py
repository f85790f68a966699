"""Card patterns shared by whole families of games: the algorithms behind `groups ... by`,
`runs ... by` and the built-ins `subsets` and `disjoint_choices` (docs/language.md §11).

They are plain functions over tuples, so the several-card binder and the built-ins can share
them.  Each pays for what it makes through `charge(units)` as it goes (one unit per item it
reads and per item of every list it makes), so the work budget stops a combinatorial
explosion while it happens, and `room` bounds how many lists one call may make: past it,
`TooMany` is raised before the next one is made.
"""

from __future__ import annotations

from itertools import combinations, product
from math import comb


class TooMany(Exception):
    """A pattern would make more lists than `room` allows: `count` of them when it is known
    before making any (`subsets`), else None."""

    def __init__(self, count: int | None = None):
        self.count = count


def groups(items, keys, charge) -> tuple:
    """The items with equal keys together, one tuple per key in the order the keys first
    appear, each in the items' order; an item whose key is None is left out."""
    charge(len(items))
    found: dict = {}
    for item, key in zip(items, keys):
        if key is not None:
            found.setdefault(key, []).append(item)
    return tuple(tuple(g) for g in found.values())


def runs(items, positions, least, charge, room) -> tuple:
    """Every run: one item at each of the consecutive positions p, p+1, ..., p+m-1 (m >= least),
    in position order.  Runs come by start position, then length, then the choice of items
    (in the items' order) where several share a position; an item at position None is in none."""
    charge(len(items))
    at: dict = {}
    for item, pos in zip(items, positions):
        if pos is not None:
            at.setdefault(pos, []).append(item)
    least = max(1, least)
    out: list = []
    for start in sorted(at):
        chain = [start]
        while chain[-1] + 1 in at:
            chain.append(chain[-1] + 1)
        for length in range(least, len(chain) + 1):
            _choices([at[p] for p in chain[:length]], out, charge, room)
    return tuple(out)


def _choices(slots, out, charge, room):
    """Append every way to take one item from each slot (the first slot varying slowest)."""
    for choice in product(*slots):
        if len(out) >= room:
            raise TooMany()
        charge(len(choice))
        out.append(choice)


def subsets(items, k, charge, room) -> tuple:
    """Every choice of k of the items, each in the items' order, choices in the order of their
    positions (as itertools.combinations); k <= 0 gives the one empty choice."""
    items = tuple(items)
    k = max(0, k)
    total = comb(len(items), k) if k <= len(items) else 0
    if total > room:
        raise TooMany(total)
    out: list = []
    for choice in combinations(items, k):
        charge(max(1, k))
        out.append(choice)
    return tuple(out)


def disjoint_choices(group_list, charge, room) -> tuple:
    """Every choice of groups that share no item, the empty choice first; a choice keeps the
    groups' order, and choices come in the order of their groups' positions ([] [g0] [g0 g1] ...
    [g1] ...).  A group that repeats an item of its own is in no choice."""
    group_list = tuple(group_list)
    charge(sum(len(g) for g in group_list) + 1)
    sets = [frozenset(g) if len(set(g)) == len(g) else None for g in group_list]
    out: list = []
    stack = [(0, (), frozenset())]  # depth first, the first group first: [] [g0] [g0 g1] ... [g1] ...
    while stack:
        start, chosen, used = stack.pop()
        if len(out) >= room:
            raise TooMany()
        charge(len(chosen) + len(group_list) - start)  # the choice, and the groups looked at after it
        out.append(chosen)
        stack.extend(reversed([(i + 1, chosen + (group_list[i],), used | sets[i])
                               for i in range(start, len(group_list))
                               if sets[i] is not None and used.isdisjoint(sets[i])]))
    return tuple(out)
