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

from itertools import combinations
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
