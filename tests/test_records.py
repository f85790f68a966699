"""Records (docs/language.md, "Records"): declared, made by naming their fields, read with a
dot, compared, listed, held in variables, offered by binders, shown, saved and restored
strictly, masked for the seats that do not know their cards, and charged to the work budget."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgame import interpreter

from helpers import arrange

SCRIPT = '''game "Records"
players 2
deck standard in stock {
    rank: 1, 2, 3, 4, 5
    suit: C, D, H
    name: rank suit
}
zone stock: shared hidden
zone hand: per player owner
record meld { cards: list of card, points: int }
record plan { melds: list of meld, left: int }
var best: meld
var laid: list of meld per player = []
var chosen: plan per player private
define melds(h: list of card) = [meld(cards: [x for x in h where x.rank == r], points: r * 3)
    for r in range(1, 5) where (count x in h where x.rank == r) >= 2]
define plan_of(h: list of card) = let ms = melds(h) in plan(melds: ms, left: count(h) - sum([count(m.cards) for m in ms]))
phase main {
    deal 5 from stock to hand of players
    for p in players {
        decide p "Lay a meld" {
            lay(m from melds(hand[p])) {
                set laid[p] = laid[p] + [m]
                set chosen[p] = plan_of(hand[p])
                if best == none or m.points > best.points {
                    set best = m
                }
                log "{p} lays {m}"
            }
            pass
        }
    }
    end game
}
score p: sum([m.points for m in laid[p]])
winners: highest score
'''


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("records") / "records.cardgame"
    path.write_text(SCRIPT)
    return interpreter.load(str(path))


def arranged(game, p0: list[str], p1: list[str]):
    """A new game with these hands (stock: the rest)."""
    return arrange(game.new_game(seed=1), {"hand": {0: p0, 1: p1}}, "stock")


def test_records_are_made_read_and_compared(game):
    s = game.new_game(seed=1)
    assert s.evaluate("meld(points: 3, cards: [1C, 1D])") == ("meld(cards: [1C, 1D], points: 3)", [])
    assert s.evaluate("meld(cards: [1C], points: 3).points + 1") == ("4", [])
    assert s.evaluate("meld(cards: [1C], points: 3).cards") == ("[1C]", [])
    assert s.evaluate("meld(points: 3, cards: [1C]) == meld(cards: [1C], points: 3)") == ("true", [])
    assert s.evaluate("meld(cards: [1C], points: 3) != meld(cards: [1C], points: 4)") == ("true", [])
    assert s.evaluate("meld(cards: [1C], points: 3) in [meld(cards: [1C], points: 3)]") == ("true", [])
    assert s.evaluate("best") == ("none", [])
    assert s.evaluate("best.points") == ("none", [])  # a field of none is none, as an attribute is
    assert s.evaluate("plan(melds: [meld(cards: [], points: 0)], left: 2)") == \
        ("plan(melds: [meld(cards: [], points: 0)], left: 2)", [])


def test_a_binder_over_records_offers_each_as_a_readable_move(game):
    s = arranged(game, ["1C", "1D", "3C", "3D", "3H"], ["2C", "4C", "5C", "2D", "4D"])
    assert [str(m) for m in s.legal_moves()] == \
        ["lay meld(cards: [1C, 1D], points: 3)", "lay meld(cards: [3C, 3D, 3H], points: 9)", "pass"]
    s.apply("lay meld(cards: [3C, 3D, 3H], points: 9)")
    assert s.evaluate("best") == ("meld(cards: [3C, 3D, 3H], points: 9)", [])
    assert s.evaluate("laid") == ("[[meld(cards: [3C, 3D, 3H], points: 9)], []]", [])
    assert s.evaluate("chosen[seat(0)].melds[1].points") == ("9", [])
    assert s.view("all")["vars"]["best"] == {"cards": ["3C", "3D", "3H"], "points": 9}
    assert s.view("all")["vars"]["chosen"]["P0"] == {
        "melds": [{"cards": ["1C", "1D"], "points": 3}, {"cards": ["3C", "3D", "3H"], "points": 9}], "left": 0}


def test_records_survive_save_and_restore(game):
    s = arranged(game, ["1C", "1D", "3C", "3D", "3H"], ["2C", "4C", "5C", "2D", "4D"])
    s.apply("lay meld(cards: [1C, 1D], points: 3)")
    data = s.to_json()
    again = game.restore(data)
    assert again.to_json() == data
    for text in ("best", "laid", "chosen"):
        assert again.evaluate(text) == s.evaluate(text)
    again.apply("lay meld(cards: [2C, 2D], points: 6)")
    assert again.is_over and again.scores == [3, 6]


@pytest.mark.parametrize("value, field, says", [
    ([[0, 1]], "best", "has 1 entries where this game has 2"),
    ([[0, 1], "3"], "best.points", "not a number"),
    ([[0, 99], 3], "best.cards[1]", "not a card number"),
    ([[0, 1], 3, 4], "best", "has 3 entries where this game has 2"),
    ({"cards": [0], "points": 3}, "best", "not a list"),
])
def test_restore_checks_records_against_their_declared_type(game, value, field, says):
    s = game.new_game(seed=1)
    data = s.to_json()
    slot = game.program.var_slots["best"]
    data["vars"][slot] = value
    with pytest.raises(interpreter.ScriptError) as err:
        game.restore(data)
    message = err.value.diagnostics[0].message
    assert err.value.diagnostics[0].code == "E0801"
    assert f"`vars[{slot}]" in message and field.replace("best", "") in message and says in message


def test_a_record_of_hidden_cards_is_masked_for_who_does_not_know_them(game):
    s = game.new_game(seed=1, record=True)
    s.apply("lay meld(cards: [3H, 3C], points: 9)")
    texts = {v: [e["text"] for e in s.observation(v)["log"] if e["step"] == 1] for v in (0, 1, None)}
    own = "set chosen[P0] = plan(melds: [meld(cards: [3H, 3C], points: 9), meld(cards: [5H, 5C], points: 15)], left: 1)"
    assert texts[0] == ["lay meld(cards: [3H, 3C], points: 9)", "set laid[P0] = [meld(cards: [3H, 3C], points: 9)]",
                        own, "set best = meld(cards: [3H, 3C], points: 9)", "P0 lays meld(cards: [3H, 3C], points: 9)"]
    for seat in (1, None):  # the cards stay in P0's hand: nobody else knows them, nor P0's private plan
        assert texts[seat] == [t.replace("3H, 3C", "??, ??") for t in texts[0] if t != own]
    # under P1's view a record of P0's cards may be held and shown, not looked into
    held = "meld(cards: cards(hand[seat(0)]), points: 0)"
    assert s.evaluate(held, viewer=1) == ("meld(cards: [??, ??, ??, ??, ??], points: 0)", [])
    value, diags = s.evaluate(held + " == meld(cards: [1C, 1D, 1H, 2C, 2D], points: 0)", viewer=1)
    assert value is None and diags[0].code == "E0710"
    assert s.evaluate(held + " == meld(cards: [1C, 1D, 1H, 2C, 2D], points: 0)", viewer=0) == ("false", [])


def test_making_and_comparing_records_is_charged(tmp_path):
    path = tmp_path / "budget.cardgame"
    path.write_text(SCRIPT.replace('players 2\n', 'players 2\nlimit work_per_move 2000\n'))
    s = interpreter.load(str(path)).new_game(seed=1)
    plain = "count([i for i in range(1, 600)])"
    made = "count([meld(cards: [], points: i) for i in range(1, 600)])"
    compared = "count i in range(1, 600) where meld(cards: [], points: i) == meld(cards: [], points: 0)"
    assert s.evaluate(plain) == ("600", [])
    for text in (made, compared):
        value, diags = s.evaluate(text)
        assert value is None and "units of work" in diags[0].message, (text, diags)


def test_a_text_field_is_shown_quoted_so_it_cannot_read_as_a_symbol(tmp_path):
    path = tmp_path / "texts.cardgame"
    path.write_text(SCRIPT.replace("record plan {", 'record named { kind: text, points: int }\nrecord plan {'))
    s = interpreter.load(str(path)).new_game(seed=1)
    assert s.evaluate('named(kind: "run", points: 3)') == ('named(kind: "run", points: 3)', [])
    assert s.evaluate('[named(kind: "a \\"b\\"", points: 1)]') == ('[named(kind: "a \\"b\\"", points: 1)]', [])


def test_the_repl_prints_records_as_written():
    from cardgame.repl.session import Session
    session = Session()
    session.execute("load tests/scripts/records.cardgame")
    assert "1. lay meld(cards: [1C, 1D], points: 3)" in session.execute("moves")
    session.execute("play 1")
    assert session.execute("eval best") == "meld(cards: [1C, 1D], points: 3)"
    assert session.execute("eval best.cards") == "[1C, 1D]"
    table = session.execute("state")
    assert "laid  P0 [{cards: [1C, 1D], points: 3}] · P1 []" in table
    assert "best = {cards: [1C, 1D], points: 3}" in table


CARD_NAMES = [f"{r}{s}" for r in range(1, 6) for s in "CDH"]
MELDS = st.tuples(st.lists(st.sampled_from(CARD_NAMES), max_size=4), st.integers(-50, 50) | st.none())


def _written(meld) -> str:
    cards, points = meld
    return f"meld(cards: [{', '.join(cards)}], points: {'none' if points is None else points})"


@settings(max_examples=60, deadline=None)
@given(a=MELDS, b=MELDS, fields_first=st.booleans())
def test_records_behave_like_tuples_of_their_fields(game, a, b, fields_first):
    """Equality, membership and field reads agree with a model of a record as its fields; the
    order the fields are written in changes nothing."""
    s = game.new_game(seed=1)
    x, y = _written(a), _written(b)
    if fields_first:  # the same record, its fields written the other way round
        x = f"meld(points: {'none' if a[1] is None else a[1]}, cards: [{', '.join(a[0])}])"
    assert s.evaluate(x) == (_written(a), [])
    assert s.evaluate(f"{x} == {y}") == (str(a == b).lower(), [])
    assert s.evaluate(f"{x} != {y}") == (str(a != b).lower(), [])
    assert s.evaluate(f"{y} in [{x}, {x}]") == (str(a == b).lower(), [])
    assert s.evaluate(f"{x}.points") == ("none" if a[1] is None else str(a[1]), [])
    assert s.evaluate(f"count({x}.cards)") == (str(len(a[0])), [])
