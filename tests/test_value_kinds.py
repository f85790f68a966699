"""Values of one kind where another is meant, and what the checker says of them: `max` or `min`
of cards without a key (E0210), a card among numbers (E0240) but not a recursive definition of
lists of cards, and a declaration named like a symbol warned of (W0408) only where it would hide
the symbol."""

from __future__ import annotations

from cardgame import interpreter
from cardgame.repl.session import Session

from helpers import ROOT, check_text, load_text


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
