"""Declared orders (`ordered rank: ...`) and number attributes (`attribute points from rank`):
checked, compiled into per-card tables, read under the knowledge model and typed at the REPL."""

from __future__ import annotations

from cardgame import interpreter
from helpers import ROOT, arrange
from cardgame.repl.session import Session

SCRIPT = ROOT / "tests" / "scripts" / "ordered_ranks.cardgame"

DECK = '''game "Orders"
players 2
deck standard in stock {
    ordered rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A
    suit: C, D, H, S
    name: rank suit
}
attribute points from rank: J = 10, Q = 10, K = 10, A = 11
zone stock: shared hidden
zone hand: per player owner
var seen = none
DEFINITIONS
phase main {
    end game
}
'''


def codes(tmp_path, definitions):
    path = tmp_path / "s.cardgame"
    path.write_text(DECK.replace("DEFINITIONS", definitions))
    _t, _i, _s, diags = interpreter.check_file(str(path))
    return [d.code for d in diags if d.severity == "error"]


def state_of(tmp_path, definitions=""):
    path = tmp_path / "s.cardgame"
    path.write_text(DECK.replace("DEFINITIONS", definitions))
    return interpreter.load(str(path)).new_game(seed=1)


def test_what_type_checks(tmp_path):
    good = ["define a(c: card, d: card) = c.rank > d.rank",
            "define b(c: card) = c.rank >= J and c.rank < 10",
            "define c3(p: player) = max x in hand[p] by x.rank",
            "define d(p: player) = min x in hand[p] by x.points",
            "define e(p: player) = sum([x.points for x in hand[p]]) + 1",
            "define f(c: card) = c.rank > seen",
            "define g(c: card) = c.rank == A or c.suit == H"]
    for definition in good:
        assert codes(tmp_path, definition) == [], definition


def test_what_the_checker_refuses(tmp_path):
    assert codes(tmp_path, "define a(c: card) = c.rank > c.suit") == ["E0230"]
    assert codes(tmp_path, "define a(c: card) = c.rank > 11") == ["E0230"]
    assert codes(tmp_path, "define a(c: card) = c.rank > Z") == ["E0201"]
    assert codes(tmp_path, "define a(c: card) = c.rank + 1") == ["E0230"]
    assert codes(tmp_path, "define a(c: card) = c.rank > true") == ["E0210"]
    assert codes(tmp_path, "define a(p: player) = max x in hand[p] by x.suit") == ["E0230"]
    assert codes(tmp_path, "define a(c: card) = place(c.suit)") == ["E0230"]
    assert codes(tmp_path, "define a(c: card) = place(c.rank, 1)") == ["E0213"]
    # a script's own `place` (written before the order function) hides it
    assert codes(tmp_path, "define place(s: int) = s + 1\ndefine a = place(2)") == []


def test_order_and_value_declarations_are_checked(tmp_path):
    other = "deck more in stock {\n    ordered rank: A, 2\n    colour: red\n    name: colour rank\n}"
    assert codes(tmp_path, other) == ["E0317"]
    joker = 'deck jokers in stock {\n    card "Joker" { rank: 1 }\n}'
    assert codes(tmp_path, joker) == ["E0317"]
    assert codes(tmp_path, "attribute pips from rank: J = 11") == ["E0318"]
    assert codes(tmp_path, "attribute pips from rank: J = 11, Q = 12, K = 13, A = 14, Z = 0") == ["E0318"]
    assert codes(tmp_path, "attribute suit from rank: J = 11, Q = 12, K = 13, A = 14") == ["E0318"]
    assert codes(tmp_path, "attribute name from rank: J = 11, Q = 12, K = 13, A = 14") == ["E0313"]
    assert codes(tmp_path, "attribute pips from colour: J = 1") == ["E0202"]


def test_comparisons_follow_the_declared_order(tmp_path):
    state = state_of(tmp_path, "define rank_of(c: card) = c.rank")
    pairs = [("2C", "AC", False), ("AC", "KC", True), ("10H", "9S", True), ("JD", "10D", True), ("QS", "QH", False)]
    for a, b, higher in pairs:
        assert state.evaluate(f"{a}.rank > {b}.rank") == (str(higher).lower(), [])
    assert state.evaluate("[x for x in [2C, JC, 10C, AC, 9C] where x.rank >= 10]") == ("[JC, 10C, AC]", [])
    assert state.evaluate("max x in [QS, AD, 10H, 2C] by x.rank") == ("AD", [])
    assert state.evaluate("min x in [QS, AD, 10H, 2C] by x.rank") == ("2C", [])
    assert state.evaluate("[x.points for x in [2C, 10H, JS, AD]]") == ("[2, 10, 10, 11]", [])
    assert state.evaluate("[place(x.rank) for x in [2C, 10H, JS, AD]]") == ("[0, 8, 9, 12]", [])


def test_a_value_outside_the_order_faults_in_the_languages_words(tmp_path):
    state = state_of(tmp_path)
    value, diags = state.evaluate("let r = C in 2C.rank < r")
    assert value is None and [d.code for d in diags] == ["R0002"]
    assert "C has no place in the order of `rank`" in diags[0].message
    value, diags = state.evaluate("let r = none in 2C.rank < r")
    assert "compares `rank` values, but one side is none" in diags[0].message
    assert "NoneType" not in diags[0].message and "'<'" not in diags[0].message


def test_comparing_hidden_ranks_is_a_hidden_read(tmp_path):
    state = arrange(state_of(tmp_path), {"hand": {0: ["2C", "AS"], 1: ["KD"]}}, "stock")
    assert state.evaluate("max x in hand[P0] by x.rank", viewer=0) == ("AS", [])
    assert state.evaluate("top(hand[P0]).rank > 10", viewer=0) == ("true", [])
    value, diags = state.evaluate("top(hand[P1]).rank > top(hand[P0]).rank", viewer=0)
    assert value is None and [d.code for d in diags] == ["E0710"]
    assert state.evaluate("top(hand[P1]).rank > top(hand[P0]).rank") == ("false", [])  # K under A


def test_a_game_plays_by_the_order():
    state = interpreter.load(str(SCRIPT)).new_game(seed=3)
    while not state.is_over:
        moves = state.legal_moves()
        state.apply(moves[-1])
    assert state.fault is None
    # each round's cards go to the player whose card has the highest rank (the first on ties)
    points = {"J": 10, "Q": 10, "K": 10, "A": 11}
    for seat in (0, 1):
        won = state.evaluate(f"[x.rank for x in won[P{seat}]]")[0].strip("[]").split(", ")
        assert state.scores[seat] == sum(points[r] if r in points else int(r) for r in won if r)


def test_a_person_types_orders_at_the_repl():
    s = Session()
    assert s.start(str(SCRIPT), seed=1).startswith("loaded Ordered ranks")
    hand = s.execute("eval hand[P0]")
    best = s.execute("eval max c in hand[P0] by c.rank")
    assert best.strip("[]") in hand
    assert s.execute("eval AS.rank > KS.rank") == "true"
    assert s.execute("eval [x.points for x in [2C, KD, AH]]") == "[2, 10, 11]"
    assert s.execute("eval place(AH.rank) - place(2C.rank)") == "12"
    out = s.execute("eval AS.rank > AS.suit")
    assert "E0230" in out and "different orders" in out
