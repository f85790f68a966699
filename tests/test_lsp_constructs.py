"""The editor's analysis (authoring/analysis.py) knows the newer constructs: `let ... in`,
comprehensions with several `for`s, `var x: T` without a value, `list of list of T`, card
literals, `random(...)` and records: hover, go-to-definition and references for each."""

from __future__ import annotations

import re

import pytest

from cardgame.authoring.analysis import Analysis
from cardgame.interpreter.language.concrete import tokens

SCRIPT = '''game "Tools"
players 2
deck standard in stock {
    rank: 1, 2, 10
    suit: C, D
    name: rank suit
}
zone stock: shared hidden
zone hand: per player owner
record meld { cards: list of card, points: int }
var best: meld
var piles: list of list of card = []
define worth(m: meld) = let p = m.points in p * 2
define pairs = [[a, b] for a in cards(stock) for b in cards(stock) where a != b]
define pick = meld(cards: [1C, 10D], points: 3)
phase main {
    let r = random(1, 3)
    set best = meld(cards: [10C], points: r)
    log "{best.points} of {r}"
    end game
}
'''


@pytest.fixture(scope="module")
def analysis(tmp_path_factory):
    path = tmp_path_factory.mktemp("lsp") / "tools.cardgame"
    path.write_text(SCRIPT)
    found = Analysis(str(path), SCRIPT)
    assert found.diagnostics == []
    return found


def at(line_start: str, word: str, nth: int = 0) -> tuple[int, int]:
    """(line, column), 1-based, of the nth whole `word` on the first line starting with line_start."""
    lines = SCRIPT.split("\n")
    row = next(i for i, line in enumerate(lines) if line.strip().startswith(line_start))
    found = list(re.finditer(r"(?<![\w])" + re.escape(word) + r"(?!\w)", lines[row]))
    return row + 1, found[nth].start() + 1


def declared(analysis, line_start, word, nth=0):
    decl = analysis.definition(*at(line_start, word, nth))
    return None if decl is None else (decl.kind, decl.name_span.line, decl.name_span.column)


def test_let_names_hover_and_go_to_their_declaration(analysis):
    home = ("local",) + at("define worth", "p")
    assert declared(analysis, "define worth", "p", 1) == home
    assert analysis.hover(*at("define worth", "p", 1)) == "```cardgame\np: int\n```\nlocal name\n\ndeclared at line 13"
    assert analysis.hover(*at("define worth", "p")).startswith("```cardgame\np: int\n```")
    refs = analysis.references(analysis.definition(*at("define worth", "p")))
    assert [(s.line, s.column) for s in refs] == [at("define worth", "p"), at("define worth", "p", 1)]


def test_each_for_of_a_comprehension_declares_its_own_name(analysis):
    for name in ("a", "b"):
        home = ("local",) + at("define pairs", name, 1)  # `[[a, b] for a in ... for b in ...`
        assert declared(analysis, "define pairs", name) == home
        assert declared(analysis, "define pairs", name, 2) == home  # in `where a != b`
        assert analysis.hover(*at("define pairs", name, 1)).startswith(f"```cardgame\n{name}: card\n```")


def test_types_read_as_written_and_var_without_a_value(analysis):
    assert "variable `piles`: list of list of card" in analysis.hover(*at("var piles", "piles"))
    assert "variable `best`: meld" in analysis.hover(*at("var best", "best"))
    assert "definition `pairs`: list of list of card" in analysis.hover(*at("define pairs", "pairs"))


def test_card_literals_and_random(analysis):
    assert analysis.hover(*at("define pick", "10D")) == \
        "```cardgame\n10D: card\n```\ncard of deck `standard`: rank 10, suit D"
    assert analysis.hover(*at("define pick", "1C")).startswith("```cardgame\n1C: card\n```")
    assert declared(analysis, "define pick", "10D") == ("card", 3, 1)  # its deck
    assert analysis.hover(*at("let r", "random")).endswith(
        "built-in: a chance draw: an item of L, or a number from a to b (statements only)")


def test_records_their_fields_and_their_constructor(analysis):
    record = ("record",) + at("record meld", "meld")
    for line in ("var best", "define worth", "define pick", "set best"):  # a type, a constructor
        assert declared(analysis, line, "meld") == record, line
    hover = analysis.hover(*at("var best", "meld"))
    assert hover.startswith("```cardgame\nrecord meld { cards: list of card, points: int }\n```")
    assert "fields: `cards: list of card`, `points: int`" in hover
    field = ("field",) + at("record meld", "points")
    assert declared(analysis, "define worth", "points") == field  # `m.points`
    assert declared(analysis, "define pick", "points") == field  # `points: 3`
    assert analysis.hover(*at("define pick", "cards")) == "```cardgame\ncards: list of card\n```\nfield of record `meld`"
    refs = analysis.references(analysis.definition(*at("record meld", "points")))
    assert [s.line for s in refs] == [10, 13, 15, 18, 19]  # 19: `{best.points}` in the log line
    completions = analysis.completions(*at("log", "points"))
    assert ("points", "field", "field of meld") in completions and ("name", "attribute", "card attribute") in completions
    assert ("meld", "record", "record") in analysis.completions(*at("set best", "best"))
    assert [s[:2] for s in analysis.symbols()][3:8] == [
        ("meld", "record"), ("best", "variable"), ("piles", "variable"), ("worth", "definition"), ("pairs", "definition")]


def test_every_position_gets_an_answer_not_an_exception(analysis):
    for tok in tokens(analysis.tree):
        for column in (tok.column, tok.end_column):
            analysis.hover(tok.line, column)
            decl = analysis.definition(tok.line, column)
            if decl is not None:
                analysis.references(decl)
            analysis.completions(tok.line, column)


ORDERED = '''game "Ordered"
players 2
deck standard in stock {
    ordered rank: 2, 3, J, Q, K, A
    suit: C, D
    name: rank suit
}
attribute points from rank: J = 10, Q = 10, K = 10, A = 11
zone stock: shared hidden
define high(c: card) = c.rank >= J
phase main {
    end game
}
score p: sum([x.points for x in stock])
'''


def test_ordered_dimensions_and_attribute_tables(tmp_path):
    path = tmp_path / "ordered.cardgame"
    path.write_text(ORDERED)
    analysis = Analysis(str(path), ORDERED)
    assert analysis.diagnostics == []
    lines = ORDERED.split("\n")

    def where(row: int, word: str) -> tuple[int, int]:
        return row, re.search(r"(?<![\w])" + word + r"(?!\w)", lines[row - 1]).start() + 1

    assert analysis.hover(*where(10, "rank")) == \
        "```cardgame\nordered rank: 2, 3, J, Q, K, A\n```\ncard attribute; its values compare in this order"
    assert analysis.definition(*where(10, "rank")).name_span.line == 3  # its deck
    attribute = analysis.definition(*where(14, "points"))
    assert (attribute.kind, attribute.name_span.line) == ("attribute", 8)
    assert analysis.hover(*where(14, "points")) == "```cardgame\npoints: int\n```\ncard attribute"
    assert [(s.line, s.column) for s in analysis.references(attribute)] == [where(8, "points"), where(14, "points")]
    assert ("points", "attribute") in [s[:2] for s in analysis.symbols()]


def test_per_team_variables_and_several_card_binders(tmp_path):
    text = '''game "Partners"
players 4
teams: [0, 2], [1, 3]
deck standard in stock {
    rank: 1, 2, 3
    suit: C, D
    name: rank suit
}
zone stock: shared hidden
zone hand: per player team
var tricks: int per team = 0
phase main {
    decide seat(0) {
        give(cs from 2 of hand[seat(0)]) {
            move cs to hand[partner(seat(0))]
            set tricks[team(seat(0))] += 1
        }
    }
    end game
}
'''
    path = tmp_path / "partners.cardgame"
    path.write_text(text)
    analysis = Analysis(str(path), text)
    assert analysis.diagnostics == []
    assert "variable `tricks`: int per team" in analysis.hover(16, 17)
    assert analysis.hover(14, 14).startswith("```cardgame\ncs: list of card\n```\nlocal name")
    assert analysis.definition(15, 18).name_span == analysis.definition(14, 14).name_span
    assert analysis.hover(15, 29).endswith("built-in: p's next partner clockwise, `none` alone in a team")


def test_sorting_and_a_zone_shown_in_an_order(tmp_path):
    text = '''game "Sorted"
players 2
deck standard in stock {
    ordered rank: 2, 3, J
    ordered suit: C, D
    name: rank suit
}
zone stock: shared hidden
zone hand: per player owner shown by suit, rank
define by_both(h: list of card) = sorted x in h by [x.suit, x.rank]
phase main {
    end game
}
'''
    path = tmp_path / "sorted.cardgame"
    path.write_text(text)
    analysis = Analysis(str(path), text)
    assert analysis.diagnostics == []
    assert analysis.hover(9, 38) == "```cardgame\nordered suit: C, D\n```\ncard attribute; its values compare in this order"
    assert analysis.definition(9, 44).kind == "card attribute"  # `rank` in `shown by`: its deck
    assert analysis.definition(10, 53).name_span == analysis.definition(10, 42).name_span  # `x` of `sorted x`
    assert analysis.hover(10, 42).startswith("```cardgame\nx: card\n```\nlocal name")


def test_fields_and_locals_inside_a_texts_braces_go_to_their_declarations(analysis):
    field = ("field",) + at("record meld", "points")
    assert declared(analysis, "log", "points") == field
    assert analysis.hover(*at("log", "points")) == "```cardgame\npoints: int\n```\nfield of record `meld`"
    assert declared(analysis, "log", "r") == ("local",) + at("let r", "r")
    uses = {(s.line, s.column) for s in analysis.references(analysis.definition(*at("record meld", "points")))}
    assert at("log", "points") in uses and at("define worth", "points") in uses
