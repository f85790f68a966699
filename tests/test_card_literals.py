"""Card literals (`QS`, `2C`, `10H`): checked, compiled, and typed at the REPL's `eval` (with a
suit symbol too: `Q♥`)."""

from __future__ import annotations

from cardgame import interpreter
from helpers import GAMES, bouncer
from cardgame.repl.session import Session

SCRIPT = '''game "Literals"
players 2
deck standard in stock {
    rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A
    suit: C, D, H, S
    name: rank suit
}
zone stock: shared hidden
zone hand: per player owner
var found: int = 0
phase main {
    move 10H to hand[seat(0)]
    move [QS, 2C] to hand[seat(1)]
    if 10H in hand[seat(0)] and QS.suit == S and 2C != QS { set found = 1 }
    end game
}
score p: found + count(hand[p])
winners: highest score
'''


def codes(text, tmp_path):
    path = tmp_path / "s.cardgame"
    path.write_text(text)
    _t, _i, _s, diags = interpreter.check_file(str(path))
    return [d.code for d in diags if d.severity == "error"]


def test_literals_name_cards_in_a_script(tmp_path):
    path = tmp_path / "s.cardgame"
    path.write_text(SCRIPT)
    state = interpreter.load(str(path)).new_game(seed=1)
    assert state.over
    assert state.view("all")["zones"]["hand"] == {"P0": ["10H"], "P1": ["QS", "2C"]}
    assert state.scores == [2, 3]


def test_literal_type_and_misuse(tmp_path):
    assert codes(SCRIPT, tmp_path) == []
    assert codes(SCRIPT.replace("2C != QS", "2C != 1"), tmp_path) == ["E0216"]
    assert codes(SCRIPT.replace("move 10H", "move 10X"), tmp_path) == ["E0217"]
    assert codes(SCRIPT.replace("QS.suit", "QZ.suit"), tmp_path) == ["E0201"]


def test_eval_of_a_literal_and_what_it_reveals():
    state = interpreter.load(str(GAMES / "bouncer.cardgame")).new_game(seed=1)
    assert state.evaluate("strength(KD)") == ("11", [])
    assert state.evaluate("[2C, 10H, AS]")[0] == "[2C, 10H, AS]"
    assert state.evaluate("KD.rank", viewer=0) == ("K", [])
    # Naming a card does not tell a seat where it is.
    value, diags = state.evaluate("KD in hand[P1]", viewer=0)
    assert value is None and [d.code for d in diags] == ["E0710"]


def test_a_person_types_literals_at_the_repl():
    s = Session()
    assert s.start(str(GAMES / "bouncer.cardgame"), seed=1).startswith("loaded Bouncer")
    assert s.execute("eval strength(KD)") == "11"
    assert s.execute("eval 10H.rank") == "10"
    out = s.execute("eval strength(2Z)")
    assert "E0217" in out and "`2Z` is not a card" in out


def test_an_expression_may_name_a_card_with_its_suit_symbol_outside_texts():
    s = bouncer()  # the prize is QH (seed 1)
    assert s.execute("eval top(prize)==Q♥") == "true"  # E0139: `♥` is not a character of the language
    assert s.execute("watch Q♥ in hand[P0]") == "watch 1: QH in hand[P0] = false"
    assert s.execute("break when top(prize) != Q♥") == "breakpoint 1: when top(prize) != QH"
    assert s.execute('eval "Q♥"') == "Q♥"  # a text keeps what it says
