"""Card patterns (docs/language.md §11 "Card patterns"): `groups ... by`, `runs ... by`,
`subsets`, `disjoint_choices` and the definitions of games/lib/patterns.cardgame, each against
a brute force in Python over random hands (the same lists, in the documented order), and their
limits on large inputs (a clear fault at the form, never a hang)."""

from __future__ import annotations

import ast
import itertools
import re
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgame import interpreter

from helpers import GAMES

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]  # aces high
ACES_LOW = ["A"] + RANKS[:-1]
SUITS = "CDHS"
DECK = [r + s for r in RANKS for s in SUITS]

DRIVER = """game "Patterns"
players 2

include "lib/standard_deck.cardgame"
include "lib/patterns.cardgame"

zone stock: shared hidden
zone hand: per player owner

define aces_low = [A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K]

phase main {
    decide seat(0) "Go?" {
        go
    }
    end game
}
"""


@pytest.fixture(scope="module")
def ordered(tmp_path_factory):
    """A deck whose ranks are `ordered`, aces high."""
    text = DRIVER.replace('include "lib/standard_deck.cardgame"\ninclude "lib/patterns.cardgame"\n',
                          "deck standard in stock {\n    ordered rank: " + ", ".join(RANKS) +
                          "\n    suit: C, D, H, S\n    name: rank suit\n}\n")
    path = tmp_path_factory.mktemp("ordered") / "ordered.cardgame"
    path.write_text(text)
    return interpreter.load(str(path)).new_game(seed=1)


@pytest.fixture(scope="module")
def state(tmp_path_factory):
    """A game including the shipped library (copied beside it, as a game in games/ has it)."""
    folder = tmp_path_factory.mktemp("patterns")
    shutil.copytree(GAMES / "lib", folder / "lib")
    (folder / "driver.cardgame").write_text(DRIVER)
    return interpreter.load(str(folder / "driver.cardgame")).new_game(seed=1)


def value(state, text):
    """The evaluated value, card names as strings: `[[AS, KS]]` -> [["AS", "KS"]]."""
    shown, diags = state.evaluate(text)
    assert not diags, (text, diags)
    return ast.literal_eval(re.sub(r"\b(10|[2-9JQKA])([CDHS])\b", r"'\1\2'", shown).replace("none", "None"))


def lit(cards) -> str:
    return "[" + ", ".join(cards) + "]"


def rank(card):
    return card[:-1]


hands = st.lists(st.sampled_from(DECK), max_size=13, unique=True)


# ---- brute forces, written from the docs' wording alone

def brute_groups(hand, key):
    order = []
    for c in hand:
        if key(c) not in order:
            order.append(key(c))
    return [[c for c in hand if key(c) == k] for k in order]


def brute_runs(items, positions, least):
    """Every sub-collection with one item per position, positions consecutive, as many as
    `least`; sorted by start, length, then the items' places in the list."""
    found = []
    indexed = [i for i, p in enumerate(positions) if p is not None]
    for size in range(max(1, least), len(indexed) + 1):
        for choice in itertools.combinations(indexed, size):
            pos = sorted(positions[i] for i in choice)
            if pos == list(range(pos[0], pos[0] + size)):
                by_pos = sorted(choice, key=lambda i: positions[i])
                found.append((pos[0], size, tuple(by_pos)))
    found.sort()
    return [[items[i] for i in idx] for _, _, idx in found]


def brute_disjoint(group_list):
    found = []
    for size in range(len(group_list) + 1):
        for idx in itertools.combinations(range(len(group_list)), size):
            cards = [c for i in idx for c in group_list[i]]
            if len(cards) == len(set(cards)):
                found.append(idx)
    found.sort()
    return [[group_list[i] for i in idx] for idx in found]


# ---- the built-ins

@settings(max_examples=60, deadline=None)
@given(hand=hands, k=st.integers(-1, 6))
def test_subsets_are_every_k_choice_in_order(state, hand, k):
    expected = [list(c) for c in itertools.combinations(hand, max(k, 0))]
    assert value(state, f"subsets({lit(hand)}, {k})") == expected


@settings(max_examples=60, deadline=None)
@given(keys=st.lists(st.one_of(st.none(), st.integers(-2, 6)), max_size=9), least=st.integers(-1, 4))
def test_runs_by_a_number_key_match_brute_force(state, keys, least):
    """The items are their own keys: a none is in no run, equal numbers are different choices."""
    shown = "[" + ", ".join("none" if k is None else str(k) for k in keys) + "]"
    assert value(state, f"runs x in {shown} by x least {least}") == brute_runs(keys, keys, least)


@settings(max_examples=40, deadline=None)
@given(keys=st.lists(st.one_of(st.none(), st.integers(0, 4)), max_size=10))
def test_groups_by_a_key_match_brute_force(state, keys):
    items = list(range(100, 100 + len(keys)))
    shown = "[" + ", ".join("none" if k is None else str(k) for k in keys) + "]"
    expected = brute_groups([i for i, k in zip(items, keys) if k is not None], lambda i: keys[i - 100])
    assert value(state, f"groups i in {items} by {shown}[i - 100]") == expected


@settings(max_examples=40, deadline=None)
@given(hand=hands, least=st.integers(1, 4))
def test_runs_by_an_ordered_rank_follow_the_declared_order(ordered, hand, least):
    positions = [RANKS.index(rank(c)) for c in hand]
    assert value(ordered, f"runs x in {lit(hand)} by x.rank least {least}") == brute_runs(hand, positions, least)


@settings(max_examples=60, deadline=None)
@given(hand=hands, least=st.integers(1, 5))
def test_straights_of_the_library_match_brute_force(state, hand, least):
    positions = [RANKS.index(rank(c)) for c in hand]
    assert value(state, f"straights({lit(hand)}, {least})") == brute_runs(hand, positions, least)
    low = [ACES_LOW.index(rank(c)) for c in hand]
    assert value(state, f"straights_in({lit(hand)}, aces_low, {least})") == brute_runs(hand, low, least)


@settings(max_examples=40, deadline=None)
@given(pool=st.lists(st.sampled_from(DECK), min_size=1, max_size=8, unique=True),
       picks=st.lists(st.lists(st.integers(0, 7), min_size=1, max_size=3, unique=True), max_size=8))
def test_disjoint_choices_match_brute_force(state, pool, picks):
    group_list = [[pool[i % len(pool)] for i in pick] for pick in picks]
    group_list = [g for g in group_list if len(set(g)) == len(g)]
    text = "[" + ", ".join(lit(g) for g in group_list) + "]"
    if not group_list:
        text = "first([[AS]], 0)"  # an empty list of lists
    assert value(state, f"disjoint_choices({text})") == brute_disjoint(group_list)


# ---- the library

@settings(max_examples=60, deadline=None)
@given(hand=hands)
def test_grouping_by_rank_and_suit(state, hand):
    assert value(state, f"same_rank({lit(hand)})") == brute_groups(hand, rank)
    assert value(state, f"same_suit({lit(hand)})") == brute_groups(hand, lambda c: c[-1])


@settings(max_examples=60, deadline=None)
@given(hand=hands, k=st.integers(1, 4))
def test_of_a_kind_and_sets(state, hand, k):
    groups = brute_groups(hand, rank)
    assert value(state, f"of_a_kind({lit(hand)}, {k})") == \
        [list(c) for g in groups for c in itertools.combinations(g, k)]
    assert value(state, f"sets_of({lit(hand)}, {k})") == \
        [list(c) for g in groups for size in range(k, len(g) + 1) for c in itertools.combinations(g, size)]


@settings(max_examples=60, deadline=None)
@given(hand=hands, least=st.integers(2, 4))
def test_suit_runs_match_brute_force(state, hand, least):
    for order, text in ((RANKS, f"suit_runs({lit(hand)}, {least})"), (ACES_LOW, f"suit_runs_in({lit(hand)}, aces_low, {least})")):
        expected = []
        for g in brute_groups(hand, lambda c: c[-1]):
            expected += brute_runs(g, [order.index(rank(c)) for c in g], least)
        assert value(state, text) == expected


@settings(max_examples=40, deadline=None)
@given(hand=st.lists(st.sampled_from([r + s for r in ACES_LOW[:5] for s in SUITS]), max_size=10, unique=True))
def test_partitions_and_most_melded_over_real_melds(state, hand):
    """Meld-rich hands (aces to fives): sets of three or more and suit runs of three or more."""
    melds = [list(c) for g in brute_groups(hand, rank) for size in range(3, len(g) + 1)
             for c in itertools.combinations(g, size)]
    for g in brute_groups(hand, lambda c: c[-1]):
        melds += brute_runs(g, [ACES_LOW.index(rank(c)) for c in g], 3)
    ways = brute_disjoint(melds)
    ms = f"(sets_of({lit(hand)}, 3) + suit_runs_in({lit(hand)}, aces_low, 3))"
    assert value(state, f"layouts({ms})") == ways
    assert value(state, f"partitions({lit(hand)}, {ms})") == \
        [w for w in ways if sum(len(m) for m in w) == len(hand)]
    assert value(state, f"most_melded({ms})") == max(sum(len(m) for m in w) for w in ways)


# ---- limits: a clear fault, not a hang

@pytest.mark.parametrize("text, message", [
    ("subsets(cards(stock), 5)", "`subsets` would make 2,598,960 lists, over the limit of 100,000 values in one list"),
    ("straights(cards(stock), 1)", "`runs` would make more than 100,000 lists, over the limit of "
                                              "100,000 values in one list"),
    ("layouts(of_a_kind(cards(stock), 2) + of_a_kind(cards(stock), 2))",
     "this needed more than 1,000,000 units of work, the budget of one move"),
    ("runs x in cards(stock) by 1 least none", "`runs ... least N` needs a number, found none"),
])
def test_large_inputs_end_with_a_clear_fault(state, text, message):
    shown, diags = state.evaluate(text)
    assert shown is None
    assert [(d.code, d.message) for d in diags] == [("R0002", message)]
    span = diags[0].span  # the pattern's form or call: in the expression, or inside the library
    called = message.split("`")[1].split()[0] if message.startswith("`") else "disjoint_choices"
    source = state.game.sources[span.path].text if span.path in state.game.sources else text
    assert source.splitlines()[span.line - 1][span.column - 1:].startswith(called), (span, source)


def test_a_pattern_inside_a_move_counts_toward_its_budget_and_faults_at_its_call(tmp_path):
    script = tmp_path / "greedy.cardgame"
    script.write_text(DRIVER.replace("        go\n", "        go {\n            set chosen = count(subsets(cards(stock), 3))\n"
                                     "        }\n").replace("phase main", "var chosen: int = 0\n\nphase main"))
    shutil.copytree(GAMES / "lib", tmp_path / "lib")
    game = interpreter.load(str(script))
    state = game.new_game(seed=1, max_work=50_000)  # 22,100 choices of 3 cards cost 66,300 units
    with pytest.raises(interpreter.GameFault) as err:
        state.apply("go")
    diag = err.value.diagnostic
    assert diag.message.startswith("this move did more than 50,000 units of work")
    assert (diag.span.line, diag.span.column) == (17, 32)  # the `subsets` call, not its statement
    state = game.new_game(seed=1)
    state.apply("go")
    assert state.is_over and state.evaluate("chosen") == ("22100", [])


# ---- a complete game on the patterns (tests/test_codegen.py also plays it fast and traced)

def test_the_climbing_game_offers_every_combination_and_only_higher_ones_of_its_kind():
    from helpers import ROOT, arrange, moves
    game = interpreter.load(str(ROOT / "tests" / "scripts" / "climbing_patterns.cardgame"))
    state = arrange(game.new_game(seed=1), {"hand": {0: ["3C", "3D", "4H", "5S", "6C", "2H", "2S"],
                                                     1: ["7C", "7D", "7H", "8C", "9C", "10C", "KS"],
                                                     2: ["QC", "QD", "JH", "JS", "AC", "AD", "9H"]}}, "stock")
    singles = {f"play [{c}]" for c in ["3C", "3D", "4H", "5S", "6C", "2H", "2S"]}
    pairs = {"play [3C, 3D]", "play [2H, 2S]"}
    straights = {"play [3C, 4H, 5S]", "play [3D, 4H, 5S]", "play [3C, 4H, 5S, 6C]", "play [3D, 4H, 5S, 6C]",
                 "play [4H, 5S, 6C]"}
    assert moves(state) == singles | pairs | straights  # leading: no pass
    state.apply("play [3C, 4H, 5S]")
    assert moves(state) == {"pass", "play [7C, 8C, 9C]", "play [7D, 8C, 9C]", "play [7H, 8C, 9C]",
                            "play [8C, 9C, 10C]"}  # straights of three only, and higher
    state.apply("play [8C, 9C, 10C]")
    assert moves(state) == {"pass"}  # P2 holds no three ranks in a row
    state.apply("pass")
    assert moves(state) == {"pass"}  # P0 has 3D, 6C, 2H, 2S left
    state.apply("pass")
    assert state.evaluate("table") == ("[]", []) and state.evaluate("turn") == ("P1", [])
    assert "pass" not in moves(state) and "play [7C, 7D]" in moves(state)


def test_patterns_read_through_a_seats_view():
    """What a pattern reads of hidden cards is refused under a seat's view; sizes stay answerable."""
    from helpers import ROOT
    state = interpreter.load(str(ROOT / "tests" / "scripts" / "climbing_patterns.cardgame")).new_game(seed=1)
    for text in ("groups x in hand[P1] by x.rank", "runs x in hand[P1] by x.rank least 3",
                 "disjoint_choices(subsets(hand[P1], 2))"):
        shown, diags = state.evaluate(text, viewer=0)
        assert shown is None and [d.code for d in diags] == ["E0710"]
    assert state.evaluate("count(subsets(hand[P1], 2))", viewer=0) == ("21", [])
    assert state.evaluate("count(groups x in hand[P0] by x.suit)", viewer=0)[1] == []
