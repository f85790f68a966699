"""Values of one kind where another is meant, and what the checker says of them: `max` or `min`
of cards without a key (E0210), a card among numbers (E0240) but not a recursive definition of
lists of cards, a declaration named like a symbol warned of (W0408) only where it would hide the
symbol, a rank of numbers and names counted or used as a number (E0230); and the run-time fault of
such a mix points at the statement that failed, not the one before."""

from __future__ import annotations

import pytest

from cardgame import interpreter
from cardgame.repl.session import Session

from helpers import ROOT, check_codes, check_text, load_text


def test_max_of_cards_asks_for_a_key(tmp_path):
    # `max(hand[p])` was accepted and gave the card last in deck order, whatever its rank
    script = ('game "M"\nplayers 2\ndeck d in stock {\n    suit: C, D\n    ordered rank: 2, 3, A\n}\n'
              'zone stock: shared hidden\nzone hand: per player owner\n'
              'define best(p: player) = max(hand[p])\ndefine worst(p: player) = min([c for c in hand[p]])\n'
              'phase main {\n    end game\n}\n')
    found = [d for d in check_text(tmp_path, script) if d.severity == "error"]
    assert [(d.code, d.message) for d in found] == [
        ("E0210", "`max` expects a list of numbers, found a zone"),
        ("E0210", "`min` expects a list of numbers, found a list of cards")]
    assert found[0].hint.startswith("to order cards, give a key: `max x in ... by x.rank`")


SUITS_AND_COUNTS = '''game "Coins"
players 2
deck italian in deck {
    rank: 1, 2, 3
    suit: coins, cups
    name: rank suit
}
zone deck: shared hidden
zone taken: per player public
define coins(p: player) = count x in taken[p] where x.suit == coins
define cups() = 3
phase main {
    move [x for x in deck where x.suit == coins] to taken[seat(0)]
    end game
}
score p: coins(p)
'''


def test_a_definition_with_parameters_named_like_a_symbol_is_not_warned_about(tmp_path):
    # W0408 said "in expressions `coins` now means this declaration, never the symbol", but a
    # definition with parameters is only ever called: `x.suit == coins` still reads the suit.
    game = load_text(tmp_path, SUITS_AND_COUNTS)
    assert not [d for d in game.warnings if d.code == "W0408"]
    state = game.new_game(players=2, seed=1)
    assert state.scores == [3, 0]


def test_a_definition_without_parameters_named_like_a_symbol_is_still_warned_about(tmp_path):
    text = SUITS_AND_COUNTS.replace("define cups() = 3", "define cups = 3")
    game = load_text(tmp_path, text)
    assert [d.message for d in game.warnings if d.code == "W0408"] == \
        ["`cups` is also a symbol (a card attribute or option value)"]


def test_a_card_among_numbers_is_refused_where_it_would_show_as_a_number(tmp_path):
    # `eval [QH, 3]` answered `[42, 3]` (the card's inner number); `set chosen = top(stock)` into
    # `var chosen = none` logged `chosen 17`.
    s = Session()
    s.execute(f"load {ROOT / 'games' / 'bouncer.cardgame'}")
    assert s.execute("eval [QH, 3]").startswith("error[E0240]: a card and a number in one list")
    assert s.execute("eval [[QH], []]") == "[[QH], []]"
    text = SUITS_AND_COUNTS.replace("define cups() = 3", "var chosen = none").replace(
        "    end game", "    set chosen = top(deck)\n    end game")
    path = tmp_path / "chosen.cardgame"
    path.write_text(text)
    _tables, _items, _sources, diags = interpreter.check_file(str(path))
    assert [(d.code, d.message) for d in diags] == \
        [("E0240", "a card stored in `chosen`, which may hold any value")]


def test_a_recursive_definition_of_lists_of_cards_is_not_refused_as_a_mix_of_kinds(tmp_path):
    # The recursive call's type is not known while its own body is checked: E0240 refused
    # `if k == 0 then [first(xs, 0)] else ... lang_subsets(...)` (bench/scripts/gin.cardgame).
    text = SUITS_AND_COUNTS.replace("define cups() = 3", """define picks(xs: list of card, k: int) =
    if k == 0 then [first(xs, 0)]
    else if count(xs) < k then []
    else let x = first(xs) in let rest = last(xs, count(xs) - 1) in
        [[x] + s for s in picks(rest, k - 1)] + picks(rest, k)""")
    path = tmp_path / "subsets.cardgame"
    path.write_text(text)
    _tables, _items, _sources, diags = interpreter.check_file(str(path))
    assert diags == []
    state = interpreter.load(str(path)).new_game(seed=1)
    assert state.evaluate("count(picks(cards(deck), 2))")[0] == "3"  # the three cups left in the deck


MIXED = """game "Mixed"
players 2
deck standard in stock {
    RANK_LINE
    suit: C, D, H, S
    name: rank suit
}
zone stock: shared hidden
zone pile: shared public
var points: int = 0
var x = none
phase go {
BODY
    end game
}
score p: points
winners: highest score
"""


def _mixed(body: str, rank: str = "rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A") -> str:
    return MIXED.replace("RANK_LINE", rank).replace("BODY", body)


@pytest.mark.parametrize("rank", ["ordered rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A",
                                  "rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A"])
@pytest.mark.parametrize("op", ["+=", "-="])
def test_a_compound_set_counting_a_rank_of_names_is_E0230(tmp_path, rank, op):
    """Before: `set points += c.rank` passed the checker (only `set points = points + c.rank`
    was E0230) and faulted at run time with R0001 for the first jack."""
    found = check_text(tmp_path, _mixed(f"    set points {op} top(stock).rank", rank))
    assert [(d.code, d.span.line) for d in found] == [("E0230", 13)]
    assert f"`{op}` cannot use" in found[0].message


@pytest.mark.parametrize("rank", ["ordered rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A",
                                  "rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A"])
@pytest.mark.parametrize("statement", ["repeat top(stock).rank times { log \"x\" }", "let n = -top(stock).rank",
                                       "set points = top(stock).rank", "move top(stock) to pile\n    set points = "
                                       "points - 1\n    set points = top(pile).rank",
                                       "let n = abs(top(stock).rank)", "let n = range(1, top(stock).rank)",
                                       "let n = max(top(stock).rank, 3)", "let p = seat(top(stock).rank)"])
def test_such_a_rank_where_a_number_is_needed_is_E0230(tmp_path, rank, statement):
    """Before: fits() let a rank of numbers and names stand for a number (some of its values
    are numbers), so `repeat c.rank times` or `set points = c.rank` faulted at the first jack."""
    found = check_text(tmp_path, _mixed(f"    {statement}", rank))
    assert [d.code for d in found] == ["E0230"] and "cannot stand for a number here" in found[0].message


def test_a_compound_set_of_numbers_is_still_fine(tmp_path):
    assert check_codes(tmp_path, _mixed("    set points += place(top(stock).rank)",
                                   "ordered rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A")) == []
    assert check_codes(tmp_path, _mixed("    set points = sum([place(c.rank) for c in stock]) + count(stock)",
                                   "ordered rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A")) == []


BEFORE = ["move top(stock) to pile face up", "log \"a line\"", "set points = 1", "let y = 2",
          "shuffle stock", "if points > 100 { log \"no\" }", "for c in pile { log \"{c}\" }"]


FAILING = ["set points = points + x", "set points += x", "let z = x + 1", "if x > 3 { log \"big\" }"]


@pytest.mark.parametrize("before", BEFORE)
@pytest.mark.parametrize("failing", FAILING)
@pytest.mark.parametrize("traced", [False, True])
def test_a_value_fault_points_at_the_failing_statement(tmp_path, before, failing, traced):
    """Before: statements in a row run as one operation, whose span was the first one's, so a
    value fault (a number and a name counted together) pointed at the statement before."""
    body = f"    move top(stock) to pile face up\n    {before}\n    set x = top(pile).suit\n    {failing}"
    path = tmp_path / "t.cardgame"
    path.write_text(_mixed(body))
    assert [d.code for d in interpreter.check_file(str(path))[3] if d.severity == "error"] == []
    game = interpreter.load(str(path))
    state = game.new_game(seed=1, tracer=(lambda event: None) if traced else None)
    assert state.fault is not None and state.fault.code == "R0001"
    assert state.fault.span.line == 16, (state.fault.message, state.fault.span)
