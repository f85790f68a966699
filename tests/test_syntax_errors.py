"""Scripts written wrong in their form, answered with what was meant: a block left open, named at
the phase or score that follows it (E0190); a declaration inside a phase (E0134); what other
languages write (`for (...)`, `;`, `**`, `//`, `? :`, `.length`); a form over a list without its
`by` or `where` (E0137); a declaration left empty or a count below one, each with its own code."""

from __future__ import annotations

import pytest

from cardgame import interpreter
from helpers import check_text


@pytest.mark.parametrize("text, word", [
    ("groups x in y", "`by`"), ("count(groups x in hand[p]) + 1", "`by`"), ("[g for g in groups x in y]", "`by`"),
    ("runs x in y least 3", "`by`"), ("sorted x in y", "`by`"), ("max x in y.z", "`by`"),
    ("count x in y", "`where`"), ("any x in (y)", "`where`"),
])
def test_a_form_over_a_list_without_its_by_or_where_says_so(text, word, tmp_path):
    """`groups x in L` without `by` (and the other forms): E0137 naming the missing word, in a
    script (wherever the form stands) and in one expression (the REPL's `eval`)."""
    from cardgame.interpreter.language.parser import parse_expression

    _tree, found = parse_expression(text)
    assert [(d.code, word in d.message) for d in found] == [("E0137", True)]
    path = tmp_path / "form.cardgame"
    path.write_text(f'game "Form"\nplayers 2\nvar y: list of int = [1]\nphase main {{\n    let v = {text}\n    end game\n}}\n')
    with pytest.raises(interpreter.ScriptError) as refused:
        interpreter.load(str(path))
    assert [(d.code, d.span.line) for d in refused.value.diagnostics] == [("E0137", 5)]
    assert "e.g." in refused.value.diagnostics[0].hint


UNCLOSED_PHASE = '''game "Unclosed"
players 2

phase deal_cards {
    next auction

phase auction {
    end game
}

score p: 0
'''


def test_a_phase_left_open_is_named_at_the_next_phase(tmp_path):
    # A `}` missing at the end of a phase was "E0134 `phase` does not begin a statement", with a
    # hint about statements: nothing said a block was still open.
    [diag] = check_text(tmp_path, UNCLOSED_PHASE)
    assert (diag.code, diag.message, diag.span.line, diag.span.column) == \
        ("E0190", "a `{` is still open at `phase` on line 7", 4, 18)
    assert diag.hint.startswith("close `phase deal_cards {` with a `}` where its block ends")


def test_the_last_phase_left_open_is_named_at_the_score(tmp_path):
    text = UNCLOSED_PHASE.replace("    next auction\n", "    next auction\n}\n")
    text = text.replace("    end game\n}", "    end game")
    [diag] = check_text(tmp_path, text)
    assert (diag.code, diag.message, diag.span.line) == ("E0190", "a `{` is still open at `score` on line 11", 8)


def test_an_indented_var_inside_a_phase_is_still_a_statement_misuse(tmp_path):
    text = UNCLOSED_PHASE.replace("    next auction\n", "    var total = 1\n    next auction\n}\n")
    [diag] = check_text(tmp_path, text)
    assert diag.code == "E0134" and "top level" in diag.hint


@pytest.mark.parametrize("statement, code, hint", [
    ("for (q in players) { set x += 1 }", "E0101", "a `for` loop is written without brackets"),
    ("set x = x + 1;", "E0101", "statements need no separator"),
    ("set x = x ** 2", "E0101", "there is no power operator `**`"),
    ("set x = 7 // 2", "E0101", "`/` divides, rounding down: there is no `//`"),
    ("// a comment", "E0101", "a comment begins with `#`"),
    ("set x = x ? 1 : 0", "E0101", "there is no `C ? A : B`"),
    ("set x = count(players.count)", "E0210", "the number of items is a function of the list: `count(L)`"),
    ("set x = hand[seat(0)].length", "E0210", "the number of items is a function of the list: `count(L)`"),
])
def test_what_other_languages_write_is_answered_with_this_ones(tmp_path, statement, code, hint):
    text = (f'game "t"\nplayers 2\nzone hand: per player owner\nvar x: int = 0\n'
            f'phase a {{\n    {statement}\n    end game\n}}\n')
    [diag] = [d for d in check_text(tmp_path, text) if d.severity == "error"][:1]
    assert diag.code == code and diag.hint.startswith(hint), (diag.code, diag.hint)


PLAIN = """game "E"
players 2
DECK
zone stock: shared hidden
zone hand: per player owner
LIMIT
phase go {
    deal 1 from stock to hand of players
    end game
}
"""


RANKS = "deck d in stock {\n    rank: 1, 2\n}"


@pytest.mark.parametrize("players, deck, limit, code", [
    ("players 2", "deck d in stock { }", "", "E0178"),
    ("players 2", "deck d in stock {\n    name: rank\n}", "", "E0178"),
    ("players 2", "deck d in stock {\n    rank:\n}", "", "E0177"),
    ("players 2", "deck d in stock {\n    rank: 1\n    suit:\n    name: rank\n}", "", "E0177"),
    ("players 2", 'deck d in stock {\n    card "W" x 0 { kind: wild }\n}', "", "E0175"),
    ("players 2", 'deck d in stock {\n    card "W" x -1 { kind: wild }\n}', "", "E0179"),
    ("players 0", RANKS, "", "E0402"),
    ("players 3..2", RANKS, "", "E0402"),
    ("players -1", RANKS, "", "E0179"),
    ("players 2..-1", RANKS, "", "E0179"),
    ("players 2", RANKS, "limit work_per_move 0", "E0316"),
    ("players 2", RANKS, "limit work_per_game 0", "E0316"),
    ("players 2", RANKS, "limit work_per_move -5", "E0179"),
])
def test_an_empty_declaration_or_a_count_below_one_has_its_own_diagnostic(tmp_path, players, deck, limit, code):
    """Before: an empty deck passed the checker (the game faulted at its first deal), and a
    dimension with no values or a negative count was E0101 "unexpected ..." alone."""
    text = PLAIN.replace("players 2", players).replace("DECK", deck).replace("LIMIT", limit)
    found = [d.code for d in check_text(tmp_path, text) if d.severity == "error"]
    assert found[:1] == [code], found
