"""Sorting cards by keys (`sorted x in L by KEY`, several keys as a list) and zones shown in a
declared order (`shown by suit, rank`): what views, the REPL table and `play --table` show, what
the order of a hidden zone tells nobody, and a zone's `shown` clauses checked (two exclude each
other, a key named twice is a warning)."""

from __future__ import annotations

import pytest

from cardgame import interpreter
from helpers import ROOT, arrange, check_codes, check_text
from cardgame.repl.cli import main
from cardgame.repl.session import Session

SCRIPT = ROOT / "tests" / "scripts" / "sorting.cardgame"


def game():
    return interpreter.load(str(SCRIPT))


def dealt(hands: dict):
    return arrange(game().new_game(seed=1), {"hand": hands}, "stock")


def test_sorted_by_one_key_and_by_several():
    state = dealt({0: ["KS", "2H", "10C", "2C", "AD"], 1: ["3C"]})
    assert state.evaluate("sorted x in hand[P0] by x.rank") == ("[2H, 2C, 10C, KS, AD]", [])  # ties: zone order
    assert state.evaluate("sorted x in hand[P0] by [x.suit, x.rank]") == ("[2C, 10C, AD, 2H, KS]", [])
    assert state.evaluate("sorted x in hand[P0] by [x.rank, x.suit]") == ("[2C, 2H, 10C, KS, AD]", [])
    assert state.evaluate("reverse(sorted x in hand[P0] by x.points)") == ("[AD, 10C, KS, 2C, 2H]", [])  # KS before 10C, reversed
    assert state.evaluate("max x in hand[P0] by [x.points, x.suit]") == ("AD", [])
    assert state.evaluate("min x in hand[P0] by [x.rank, x.suit]") == ("2C", [])
    # a none key sorts last; in `max ... by` an item with a none key is skipped
    assert state.evaluate("sorted x in hand[P0] by (if x.suit == H then none else x.rank)") == \
        ("[2C, 10C, KS, AD, 2H]", [])
    assert state.evaluate("max x in hand[P0] by [(if x.suit == D then none else 1), x.rank]") == ("KS", [])
    assert state.evaluate("sorted x in [] by x.rank") == ("[]", [])


def test_what_the_checker_refuses():
    state = dealt({0: ["KS"]})
    for text, code in [("sorted x in hand[P0] by x.name", "E0210"), ("sorted(hand[P0])", "E0210"),
                       ("max([x.rank for x in hand[P0]])", "E0230"), ("sorted x in hand[P0] by [x.rank, x]", "E0210"),
                       ("sorted x in 3 by x", "E0210")]:
        value, diags = state.evaluate(text)
        assert value is None and [d.code for d in diags] == [code], text
    _v, diags = state.evaluate("sorted(hand[P0])")
    assert "sorted x in ... by x.rank" in diags[0].hint


def test_a_shown_order_changes_views_only():
    state = dealt({0: ["KS", "2H", "10C", "2C", "AD"], 1: ["3C", "AS"]})
    assert state.view(0)["zones"]["hand"]["P0"] == ["2C", "10C", "AD", "2H", "KS"]
    assert state.view("all")["zones"]["hand"]["P0"] == ["2C", "10C", "AD", "2H", "KS"]
    # the zone itself keeps its order: top, indexes and cards() read it
    assert state.evaluate("top(hand[P0])") == ("AD", [])
    assert state.evaluate("cards(hand[P0])") == ("[KS, 2H, 10C, 2C, AD]", [])
    # a seat that cannot see the hand learns nothing from the order shown
    assert state.view(1)["zones"]["hand"]["P0"] == ["??"] * 5


ZONE = """game "Z"
players 2
deck d in stock {
    ordered rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A
    ordered suit: C, D, H, S
}
zone stock: shared hidden
zone hand: per player CLAUSE
phase go {
    end game
}
"""


@pytest.mark.parametrize("clause", ["others shown as placed shown by rank", "owner shown by rank shown as placed",
                                    "owner shown by suit, rank shown by rank"])
def test_two_shown_clauses_say_they_exclude_each_other(tmp_path, clause):
    """Before: E0101 "unexpected `shown`" and a list of declaration words."""
    found = check_text(tmp_path, ZONE.replace("CLAUSE", clause))
    assert [d.code for d in found] == ["E0176"]
    assert "`shown as placed` lists the cards in the zone's own order" in found[0].hint


def test_a_shown_by_key_named_twice_is_W0177(tmp_path):
    """Before: `shown by rank, rank` was accepted silently."""
    found = check_text(tmp_path, ZONE.replace("CLAUSE", "owner shown by rank, suit, rank"))
    assert [(d.code, d.span.column) for d in found] == [("W0177", 50)]
    assert check_codes(tmp_path, ZONE.replace("CLAUSE", "owner shown by suit, rank")) == []


def test_cards_one_seat_sees_are_sorted_in_their_own_places():
    from cardgame.interpreter.engine.views import shown_in_order
    keys = {c: (c,) for c in range(10)}
    names = [str(c) for c in range(10)]
    listed = ["7", "??", "2", "??", "5"]
    assert shown_in_order([7, 9, 2, 8, 5], listed, keys, names) == ["2", "??", "5", "??", "7"]


def test_fast_and_traced_sorting_agree_over_games():
    for seed in range(5):
        fast = game().new_game(seed=seed)
        while not fast.is_over:
            fast.apply(fast.legal_moves()[seed % 2])
        assert fast.fault is None and len(fast.scores) == fast.n


def test_play_table_shows_the_order(capsys):
    assert main(["play", str(SCRIPT), "--seed", "1", "--table", "--ascii"]) in (0, None)
    out = capsys.readouterr().out
    hands = [line.split()[2:] for line in out.splitlines() if line.strip().startswith("hand[P0]")]
    assert hands
    order = game().program.display_keys["hand"]
    by_name = game().program.card_by_name
    for cards in hands:
        cards = [c for c in cards if c in by_name]
        assert cards == sorted(cards, key=lambda c: order[by_name[c]])


def test_a_person_sorts_at_the_repl():
    s = Session()
    assert s.start(str(SCRIPT), seed=1).startswith("loaded Sorting")
    hand = s.execute("eval hand[P0]").strip("[]").split(", ")
    shown = s.execute("eval sorted x in hand[P0] by [x.suit, x.rank]").strip("[]").split(", ")
    assert sorted(shown) == sorted(hand)
    order = game().program.display_keys["hand"]
    by_name = game().program.card_by_name
    assert shown == sorted(hand, key=lambda c: order[by_name[c]])
    table = s.execute("state")
    row = next(line for line in table.splitlines() if line.startswith("hand[P0]"))
    assert row.split()[2:] == shown
