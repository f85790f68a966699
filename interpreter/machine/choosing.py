"""Choosing several distinct items at once: the subsets of a list, by size.

A decision binder `xs from J..K of LIST` offers every set of J to K distinct items of LIST as one
move.  A set has one canonical order, so that it has one move text wherever its cards lie: the
items sorted (cards in deck order, which is their number; players by seat; numbers upwards;
symbols and texts alphabetically, after numbers).  The distinct items are sorted once, then
itertools.combinations walks the subsets by position: each subset is built once, already in
order, with no lookups and no per-pair work.  Callers charge the work: `count` says how many
subsets there will be (up to a decision's cap) before any is built.  Plain functions over
Python values, so anything else that needs subsets of a given size can use them.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from math import comb

from ..language import limits


def _order(value):
    return (type(value) is str, value)


def distinct(items) -> list:
    """The different items of `items` (none left out), in canonical order."""
    found = set(items)
    found.discard(None)
    if all(type(x) is int for x in found):
        return sorted(found)
    return sorted(found, key=_order)


def sizes(fewest, most, available: int) -> range:
    """The subset sizes that can be made: from `fewest` to `most`, at most `available`."""
    if fewest is None or most is None:
        return range(0)
    return range(max(0, fewest), min(most, available) + 1)


def count(available: int, fewest, most, enough: int = limits.MAX_MOVES_PER_DECISION) -> int:
    """How many subsets of `available` distinct items have between `fewest` and `most` items;
    past `enough` (what a decision may offer) the counting stops with a number above it, since
    the rest cannot matter and could take minutes (every size of 10,000 items)."""
    total = 0
    for k in sizes(fewest, most, available):
        total += comb(available, k)
        if total > enough:
            break
    return total


def subsets(items, fewest, most):
    """Every subset of the distinct, ordered `items` with `fewest` to `most` items (each a tuple
    in canonical order): smaller ones first, then in order of their items' positions."""
    for k in sizes(fewest, most, len(items)):
        yield from combinations(items, k)


# ---- `xs from J..K of LIST distinct by ATTR`: one choice per multiset of keys
#
# Items alike under a key (cards of one rank, suits not mattering) are one choice: of the sets
# with the same keys, with the same number of each, only the first is offered, the one made of the
# first items of each key in canonical order (`pair 5C 5D` for four 5s, deck order).  The sets are
# made from the groups, never by filtering every subset: `count_keyed` says how many there are (up
# to a decision's cap) before any is built, so a large hand offers few moves at the cost of few.


def groups(items, keys) -> list:
    """The distinct, ordered `items` grouped by `keys[item]`: one list per key, groups in the order
    of their first item, each group in canonical order."""
    by_key: dict = {}
    for x in items:
        by_key.setdefault(keys[x], []).append(x)
    return list(by_key.values())


def count_keyed(sizes_of: list, fewest, most, enough: int = limits.MAX_MOVES_PER_DECISION) -> int:
    """How many multisets of keys take between `fewest` and `most` items, each key at most as
    often as its group has items (`sizes_of`: the groups' sizes); past `enough` a number above it."""
    top = min(most if most is not None else 0, sum(sizes_of))
    if fewest is None or most is None or top < max(0, fewest):
        return 0
    ways = [1] + [0] * top  # ways[k]: multisets of k items from the groups so far
    for size in sizes_of:
        ways = [min(sum(ways[k - m] for m in range(min(size, k) + 1)), enough + 1) for k in range(top + 1)]
    return min(sum(ways[max(0, fewest):top + 1]), enough + 1)


def keyed_subsets(grouped: list, fewest, most):
    """One subset per multiset of keys, of `fewest` to `most` items: the first items of each
    group, smaller sets first, then in order of their items' positions (as `subsets` lists)."""
    position = {x: i for i, x in enumerate(sorted((x for g in grouped for x in g), key=_order))}
    for k in sizes(fewest, most, sum(len(g) for g in grouped)):
        made = []

        def build(i, left, chosen):
            if left == 0:
                made.append(tuple(sorted(chosen, key=position.__getitem__)))
                return
            if i == len(grouped) or left > sum(len(g) for g in grouped[i:]):
                return
            for m in range(min(left, len(grouped[i])), -1, -1):
                build(i + 1, left - m, chosen + grouped[i][:m])

        build(0, k, [])
        made.sort(key=lambda s: [position[x] for x in s])
        yield from made


# ---- `xs from J..K of LIST with repeats`: multisets, an item chosen any number of times


def count_repeated(available: int, fewest, most, enough: int = limits.MAX_MOVES_PER_DECISION) -> int:
    """How many multisets of `fewest` to `most` items there are from `available` distinct ones;
    past `enough` a number above it."""
    total = 0
    if fewest is None or most is None or available == 0 and max(0, fewest) > 0:
        return 0
    for k in range(max(0, fewest), most + 1):
        total += comb(available + k - 1, k)
        if total > enough:
            break
    return total


def repeated(items, fewest, most):
    """Every multiset of the distinct, ordered `items` with `fewest` to `most` items (a tuple in
    canonical order, repeats side by side): smaller ones first, then by position."""
    if fewest is None or most is None or not items:
        return
    for k in range(max(0, fewest), most + 1):
        yield from combinations_with_replacement(items, k)
