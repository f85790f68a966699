"""Several-item choices up to a key and with repeats (docs/language.md §16): `distinct by ATTR`
offers one set per multiset of the attribute's values, `with repeats` the multisets of a list;
the generated listing and the generic enumeration agree, move for move and unit for unit."""

from __future__ import annotations

import pytest
from helpers import SCRIPTS, load_text
from hypothesis import given, settings, strategies as st_

from cardgame import interpreter
from cardgame.interpreter.machine import choosing
from cardgame.interpreter.machine.enumeration import enumerate_moves

PAIRS = SCRIPTS / "pairs_by_rank.cardgame"

HAND = '''game "Alike"
players 1
deck small in stock {
    ordered rank: 2, 3, 4, 5
    suit: C, D, H, S
}
zone stock: shared hidden
zone hand: per player owner
phase only {
    move [HAND] to hand[seat(0)]
    decide seat(0) {
        DECISION
    }
    end game
}
'''


def _both(state) -> tuple[list[str], int]:
    """The moves (generated listing), checked against the generic enumeration, and their work."""
    fast, work = [m.text for m in state.legal_moves()], state.legal_work
    state.legal_cache = None
    state.begin_work()
    assert [m.text for m in enumerate_moves(state, legal_only=True)] == fast
    assert state.work == work
    return fast, work


def _state(tmp_path, hand: str, decision: str):
    return load_text(tmp_path, HAND.replace("HAND", hand).replace("DECISION", decision)).new_game(seed=1)


def test_four_of_a_rank_make_one_pair(tmp_path):
    moves, work = _both(_state(tmp_path, "5S, 5D, 5H, 5C, 2H", "lay(cs from 2 of hand[seat(0)] distinct by rank)"))
    assert moves == ["lay 2H 5C", "lay 5C 5D"] and work == 5 + 2  # the hand, then each set offered


def test_sets_of_ranks_smallest_first_in_deck_order(tmp_path):
    moves, _ = _both(_state(tmp_path, "4D, 5D, 5C, 4H, 2H, 3S",
                            "lay(cs from 1..3 of hand[seat(0)] distinct by rank)"))
    assert moves[:4] == ["lay 2H", "lay 3S", "lay 4D", "lay 5C"]
    assert len(moves) == 4 + 8 + 10  # ranks 2, 3, 4 4, 5 5: sets of one, two and three of them
    assert "lay 4D 4H 5C" in moves and "lay 4D 5C 5D" in moves and "lay 4H 5C" not in moves


def test_the_shipped_test_script_offers_ten_throws_not_fifteen():
    state = interpreter.load(str(PAIRS)).new_game(players=2, seed=1)
    moves, _ = _both(state)
    assert moves == ["lay 4D 4H", "lay 5C 5D", "throw 2H 3S", "throw 2H 4D", "throw 2H 5C", "throw 3S 4D",
                     "throw 3S 5C", "throw 4D 4H", "throw 4D 5C", "throw 5C 5D", "pass"]
    state.apply("lay 4H 4D")  # its cards in any order
    assert state.history == ["lay 4D 4H"]


def test_multisets_with_repeats(tmp_path):
    state = _state(tmp_path, "2C", "pick(ns from 2..3 of [3, 1, 2, 1] with repeats)")
    moves, work = _both(state)
    assert moves[:6] == ["pick 1 1", "pick 1 2", "pick 1 3", "pick 2 2", "pick 2 3", "pick 3 3"]
    assert len(moves) == 6 + 10 and work == 4 + 16
    state.apply("pick 3 1 1")
    assert state.history == ["pick 1 1 3"]


@settings(max_examples=30, deadline=None)
@given(st_.lists(st_.sampled_from("abcd"), max_size=8), st_.integers(0, 4), st_.integers(0, 3))
def test_keyed_sets_are_the_first_set_of_each_multiset_of_keys(keys, most, extra):
    items = list(range(len(keys)))
    fewest = max(0, most - extra)
    expected, seen = [], set()
    for s in choosing.subsets(items, fewest, most):  # every subset, the first of each multiset kept
        k = tuple(sorted(keys[x] for x in s))
        if k not in seen:
            seen.add(k)
            expected.append(s)
    grouped = choosing.groups(items, keys)
    assert list(choosing.keyed_subsets(grouped, fewest, most)) == sorted(expected, key=lambda s: (len(s), s))
    assert choosing.count_keyed([len(g) for g in grouped], fewest, most) == len(expected)


@pytest.mark.parametrize("decision", ["lay(cs from 2 of hand[seat(0)] distinct by colour)",
                                      "pick(ns from 2 of [1, 2] distinct by rank)",
                                      "lay(cs from 2 of hand[seat(0)] with repeats)"])
def test_what_cannot_apply_is_e0326(tmp_path, decision):
    path = tmp_path / "s.cardgame"
    path.write_text(HAND.replace("HAND", "2C").replace("DECISION", decision))
    assert [d.code for d in interpreter.check_file(str(path))[3]] == ["E0326"]
