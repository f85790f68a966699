"""The small engine API the REPL added: evaluating expressions on a state, listing declarations."""

import re

import pytest

from cardgame import interpreter
from helpers import line_of

BOUNCER = "games/bouncer.cardgame"


@pytest.fixture(scope="module")
def game():
    return interpreter.load(BOUNCER)


def test_evaluate_values(game):
    st = game.new_game(seed=1)
    assert st.evaluate("total") == ("[0, 0, 0]", [])
    assert st.evaluate("total[P0] + 3") == ("3", [])
    assert st.evaluate("top(prize)")[0] == game.new_game(seed=1).view("all")["zones"]["prize"][-1]
    assert st.evaluate("count(hand[P2])") == ("13", [])
    assert st.evaluate("leader == P0") == ("true", [])
    assert st.evaluate("players") == ("[P0, P1, P2]", [])
    hand = st.evaluate("hand[P1]")[0]
    assert hand == "[" + ", ".join(st.view("all")["zones"]["hand"]["P1"]) + "]"
    assert st.evaluate("hand")[0].startswith("[[")


def test_evaluate_never_changes_the_state(game):
    st = game.new_game(seed=1)
    before = st.to_json()
    for text in ["hand[P0]", "plain_score(P0)", "any x in hand[P1] where x.suit == H", "1/0", "nope"]:
        st.evaluate(text)
    assert st.to_json() == before
    assert game.new_game(seed=1).legal_moves() == st.legal_moves()


@pytest.mark.parametrize("text, code", [
    ("1 +", "E0101"),             # syntax
    ("nope", "E0201"),            # unknown name
    ("3 == true", "E0216"),       # type
    ("1/0", "R0002"),             # run time
    ("P7", "E0201"),              # no such seat
])
def test_evaluate_errors_are_diagnostics(game, text, code):
    value, diags = game.new_game(seed=1).evaluate(text)
    assert value is None
    assert diags[0].code == code
    assert diags[0].span is None or diags[0].span.path == interpreter.EXPRESSION_PATH


def test_evaluate_expect_bool(game):
    st = game.new_game(seed=1)
    assert st.evaluate("led == none", expect="bool") == ("true", [])
    value, diags = st.evaluate("1", expect="bool")
    assert value is None and diags[0].code == "E0210"


def test_declarations(game):
    decls = {d.name: d for d in game.declarations}
    assert decls["follow_suit"].kind == "rule"
    assert decls["follow_suit"].span.line == line_of("bouncer.cardgame", "rule follow_suit")
    assert [d.name for d in game.declarations if d.kind == "phase"] == ["new_hand", "trick", "score_hand"]
    assert decls["hand"].kind == "zone" and decls["total"].kind == "var"


def test_deal_trace_names_the_card_dealt(game):
    events = []
    st = game.new_game(seed=1, tracer=events.append)
    dealt = [e.text for e in events if e.kind == "move" and "to hand[" in e.text]
    hands = st.view("all")["zones"]["hand"]
    for seat, cards in hands.items():
        assert [t.split()[1] for t in dealt if t.endswith(f"hand[{seat}]")] == cards


def test_set_trace_shows_values_as_people_read_them(game):
    events = []
    st = game.new_game(seed=1, tracer=events.append)
    sets = [e.text for e in events if e.kind == "set"]
    assert "set leader = P0" in sets and "set led = none" in sets
    events.clear()
    st.apply(st.legal_moves()[0])
    assert any(re.fullmatch(r"set led = [CDHS]", e.text) for e in events if e.kind == "set")
