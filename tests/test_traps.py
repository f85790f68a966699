"""The small traps new authors fell into: each now has its own diagnostic (goldens beside them
in tests/golden/diagnostics), and a variable may start as `none` without `= none`."""

from __future__ import annotations

from cardgame import interpreter
from helpers import GAMES, ROOT
from cardgame.interpreter.language.parser import parse_expression
from cardgame.repl.session import Session


def test_a_typed_variable_without_a_value_starts_as_none(tmp_path):
    path = tmp_path / "s.cardgame"
    path.write_text('game "G"\nplayers 2\nvar trump: symbol\nvar bids: int per player\n'
                    'phase main {\n    end game\n}\n')
    state = interpreter.load(str(path)).new_game(seed=1)
    assert state.evaluate("trump") == ("none", [])
    assert state.evaluate("bids") == ("[none, none]", [])


def codes(text):
    return [d.code for d in parse_expression(text, "<expr>")[1]]


def test_expression_mistakes_get_their_own_codes():
    assert codes("pot + if x then 1 else 0") == ["E0116"]
    assert codes("pot + (if x then 1 else 0)") == []
    assert codes("a && b") == ["E0115"] and codes("a || b") == ["E0115"]
    assert codes("sum(x for x in L)") == ["E0118"]
    assert codes("led = C") == ["E0102"]
    # a stray token is not taken for an assignment
    assert codes("total[P0] )") == ["E0101"] and codes("a b") == ["E0101"]


def test_a_person_types_the_traps_at_the_repl():
    s = Session()
    assert s.start(str(GAMES / "bouncer.cardgame"), seed=1).startswith("loaded Bouncer")
    out = s.execute("eval total[P0] b")
    assert "E0101" in out and "`=` assigns" not in out
    assert "E0116" in s.execute("eval 1 + if led == none then 1 else 0")
    assert s.execute("eval 1 + (if led == none then 1 else 0)") == "2"
    out = s.execute("eval led == none && true")
    assert "E0115" in out and "write `and`" in out
    assert "E0118" in s.execute("eval sum(x for x in [1, 2])")
    assert s.execute("eval sum([x for x in [1, 2]])") == "3"


def test_mixed_attributes_are_rejected_and_faults_never_show_python_words():
    unordered = interpreter.load(str(ROOT / "bench" / "scripts" / "eights.cardgame")).new_game(seed=1)
    value, diags = unordered.evaluate("any c in hand[P0] where c.rank > 10")
    assert value is None and [d.code for d in diags] == ["E0230"]
    state = interpreter.load(str(GAMES / "bouncer.cardgame")).new_game(seed=1)  # its ranks are `ordered`
    assert state.evaluate("KD.rank > 10") == ("true", [])
    assert state.evaluate("(if KD.rank == K then 10 else KD.rank) + 1") == ("11", [])
    # the checker cannot see through a definition's `if`; the fault is in the language's words
    value, diags = state.evaluate("(if true then KD.rank else 1) < 3")
    assert value is None and diags[0].code == "R0002"
    assert "not supported" not in diags[0].message and "'str'" not in diags[0].message
