"""`cardgame fmt`: idempotent, meaning-preserving, canonical, comments kept.

The property tests run over every shipped game and every example of the docs, with their layout
mutated: whitespace that keeps each line break, blank line and comment where it was must give
exactly the same output as the original; joined lines and added line breaks must give a script
that formats idempotently to the same syntax tree (spans aside); comments and breaks put between
any two tokens are kept.  A script that formatting would take past the length cap, or whose
meaning it would change, is left alone with its diagnostic.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardgame.authoring.fmt import format_source, same_script
from helpers import GAMES, ROOT, WAR
from cardgame.interpreter.language import parser
from cardgame.interpreter.language.parser import parse_concrete, parse_script
from cardgame.interpreter.language.concrete import tokens
from cardgame.repl.cli import main
from test_docs_examples import CARDGAME_CASES, STATEMENT_FRAME, _fragment_kind

SHIPPED = sorted(GAMES.rglob("*.cardgame"))


def _doc_scripts() -> list[str]:
    """Every docs example as a whole script (fragments inside the frame the docs test uses)."""
    out = []
    for case in CARDGAME_CASES:
        _doc, _line, block = case.values
        kind = _fragment_kind(block)
        text = {"items": block, "statements": STATEMENT_FRAME % block if kind == "statements" else "",
                "expression": f"define docs_value = {block.strip()}"}.get(kind)
        if text and parse_script(text, "<doc>")[0] is not None:
            out.append(text)
    return out


SOURCES = [p.read_text(encoding="utf-8") for p in SHIPPED] + _doc_scripts()


def _fmt(text: str) -> str:
    out, diags = format_source(text, "<test>")
    assert out is not None, diags
    return out


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(GAMES)))
def test_shipped_games_are_formatted(path):
    text = path.read_text(encoding="utf-8")
    assert _fmt(text) == text, f"run `cardgame fmt {path.relative_to(ROOT)}`"


def test_every_docs_example_formats_idempotently_to_the_same_tree():
    assert len(SOURCES) > 90
    for text in SOURCES:
        out = _fmt(text)
        assert _fmt(out) == out
        assert same_script(text, out)


# ---- mutated layouts

def _gaps(text: str):
    """(start, end) of the text between consecutive tokens, the end of the file included."""
    tree, _ = parse_concrete(text, "<test>")
    end, out = 0, []
    for tok in tokens(tree):
        out.append((end, tok.start))
        end = tok.end
    out.append((end, len(text)))
    return out


_PIECE = re.compile(r"#[^\n]*|[ \t\n]+")


def _relayout(text: str, rnd: random.Random, keep_lines: bool) -> str:
    """A new layout of `text`.  keep_lines: every whitespace run keeps its count of line breaks
    (none, one, or a blank line); otherwise about one run in ten is joined or split."""
    pieces, pos = [], 0
    for start, end in _gaps(text):
        pieces.append(text[pos:start])
        gap = text[start:end]
        after_comment = False
        for m in _PIECE.finditer(gap):
            run = m.group()
            if run.startswith("#"):
                pieces.append(run)
                after_comment = True
                continue
            breaks = run.count("\n")
            if not keep_lines and not after_comment and rnd.randrange(10) == 0:
                breaks = 1 - min(breaks, 1)  # join a line, or break one
            pad = rnd.choice(["", " ", "  ", "\t", "   "])
            if breaks == 0:
                new = pad or " "
            else:
                new = pad + "\n" * min(breaks, 2) + rnd.choice(["", "  ", "\t", "        "])
            pieces.append(new)
            after_comment = False
        if not gap and rnd.randrange(6) == 0:
            pieces.append(" ")  # room between tokens that touched: `a . b`
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces)


def layouts(keep_lines: bool):
    return st.builds(lambda text, seed: (text, _relayout(text, random.Random(seed), keep_lines)),
                     st.sampled_from(SOURCES), st.integers(0, 2**32))


@given(layouts(keep_lines=True))
def test_spacing_and_indentation_do_not_matter(case):
    original, mutated = case
    assert same_script(original, mutated)
    assert _fmt(mutated) == _fmt(original)


@given(layouts(keep_lines=False))
def test_joined_and_broken_lines_format_idempotently_to_the_same_tree(case):
    original, mutated = case
    assert same_script(original, mutated)
    out = _fmt(mutated)
    assert _fmt(out) == out
    assert same_script(original, out)


# ---- the layout itself

def test_canonical_layout():
    messy = ('game  "G"\nplayers 2..4\nzone   hand :per   player owner # mine\nvar n:int=0 #count\n'
             'rule r( p:player , c:card )"Doc." when n>0 and c . rank==2 require c.suit!=none\n'
             'phase  start{ for p in players{set n+=count( hand[ p ] )}\n  # why\n'
             'if n==0{end game}else{next start}}\n')
    assert _fmt(messy) == (
        'game "G"\n'
        'players 2..4\n'
        'zone hand: per player owner  # mine\n'
        'var n: int = 0               #count\n'
        'rule r(p: player, c: card) "Doc."\n'
        '    when n > 0 and c.rank == 2\n'
        '    require c.suit != none\n'
        'phase start {\n'
        '    for p in players {\n'
        '        set n += count(hand[p])\n'
        '    }\n'
        '    # why\n'
        '    if n == 0 {\n'
        '        end game\n'
        '    } else {\n'
        '        next start\n'
        '    }\n'
        '}\n')


def test_the_newer_constructs_keep_their_meaning_and_take_the_canonical_layout():
    """Records and named fields, `let ... in`, several `for`s, `var x: T` without a value,
    `list of list of T`, card literals and `random(...)`."""
    messy = ('players 2\ndeck d in stock { rank: 1, 10\n suit: C\n name: rank suit }\nzone stock: shared hidden\n'
             'record   meld{cards:list of card,points:int}\nvar best:meld\nvar ms : list of list of meld=[]\n'
             'define m=meld( cards:[1C,10C] ,points : 3 )\ndefine n2 = let x=1 in let y=2 in x+y\n'
             'define ps=[[a,b]for a in [1C]for b in [10C]where a!=b]\nphase main{let r=random( 1,3 )\nend game}\n')
    out = _fmt(messy)
    assert out == (
        'players 2\n'
        'deck d in stock {\n'
        '    rank: 1, 10\n'
        '    suit: C\n'
        '    name: rank suit\n'
        '}\n'
        'zone stock: shared hidden\n'
        'record meld { cards: list of card, points: int }\n'
        'var best: meld\n'
        'var ms: list of list of meld = []\n'
        'define m = meld(cards: [1C, 10C], points: 3)\n'
        'define n2 = let x = 1 in let y = 2 in x + y\n'
        'define ps = [[a, b] for a in [1C] for b in [10C] where a != b]\n'
        'phase main {\n'
        '    let r = random(1, 3)\n'
        '    end game\n'
        '}\n')
    assert same_script(messy, out) and _fmt(out) == out
    long = ("record plan { melds: list of list of card, deadwood: int, knocked: bool, "
            "undercut: bool, bonus_points: int, opponent: player }\n")
    assert _fmt("players 2\n" + long) == (
        "players 2\nrecord plan { melds: list of list of card, deadwood: int, knocked: bool, undercut: bool,\n"
        "    bonus_points: int, opponent: player }\n")


def test_a_long_chain_of_lets_breaks_before_its_body_and_several_fors_before_each_for():
    messy = ("players 2\ndefine cover(ms: list of list of int, used: list of int) = if empty(ms) then 0 else let m = "
             "first(ms) in let rest = last(ms, count(ms) - 1) in let skip = cover(rest, used) in if (no x in m where "
             "x in used) then max(skip, sum(m) + cover(rest, used + m)) else skip\n"
             "define runs(h: list of int) = [[x for x in h where x >= a and x < a + k] for a in range(1, 11) "
             "for k in range(3, 13) where a + k <= 14 and (all r in range(a, a + k - 1) where r in h)]\n")
    assert _fmt(messy) == (
        "players 2\n"
        "define cover(ms: list of list of int, used: list of int) =\n"
        "    if empty(ms) then 0\n"
        "    else let m = first(ms) in let rest = last(ms, count(ms) - 1) in let skip = cover(rest, used) in\n"
        "        if (no x in m where x in used) then max(skip, sum(m) + cover(rest, used + m)) else skip\n"
        "define runs(h: list of int) =\n"
        "    [[x for x in h where x >= a and x < a + k]\n"
        "        for a in range(1, 11)\n"
        "        for k in range(3, 13)\n"
        "        where a + k <= 14 and (all r in range(a, a + k - 1) where r in h)]\n")


def test_a_long_definition_breaks_after_the_equals_then_before_each_operator_of_the_chain():
    text = ("define long_name_for_a_score(p: player) = count([c for c in hand[p] where c.rank == 2]) "
            "+ count([c for c in hand[p] where c.rank == 3]) - 25 * count(hand[p])\n")
    assert _fmt("players 2\nzone hand: per player owner\n" + text).endswith(
        "define long_name_for_a_score(p: player) =\n"
        "    count([c for c in hand[p] where c.rank == 2])\n"
        "    + count([c for c in hand[p] where c.rank == 3])\n"
        "    - 25 * count(hand[p])\n")


def test_a_script_that_does_not_parse_is_reported_and_left_alone(tmp_path, capsys):
    path = tmp_path / "bad.cardgame"
    path.write_text("players 2\nphase p {\n    next\n}\n")
    assert main(["fmt", str(path)]) == 1
    err = capsys.readouterr().err
    assert "error[E0101]: unexpected `}`" in err and "bad.cardgame:4:1" in err
    assert path.read_text() == "players 2\nphase p {\n    next\n}\n"


def test_check_diff_and_write(tmp_path, capsys):
    path = tmp_path / "g.cardgame"
    path.write_text("players 2\nphase p {end game}\n")
    assert main(["fmt", "--check", str(tmp_path)]) == 1
    assert f"would reformat {path}" in capsys.readouterr().err
    assert main(["fmt", "--diff", str(path)]) == 1  # a file that would change: 1, as black and ruff exit
    assert "+phase p {\n" in capsys.readouterr().out
    assert path.read_text() == "players 2\nphase p {end game}\n"
    assert main(["fmt", str(path)]) == 0
    assert path.read_text() == "players 2\nphase p {\n    end game\n}\n"
    assert main(["fmt", "--check", str(path)]) == 0
    assert main(["fmt", "--diff", str(path)]) == 0
    assert capsys.readouterr().out == ""


def test_a_comment_before_an_opening_brace_moves_after_it_on_the_same_line():
    text = "players 2\nphase p {\n    if true  # why\n    {\n        end game\n    }\n    end game\n}\n"
    assert _fmt(text) == "players 2\nphase p {\n    if true {  # why\n        end game\n    }\n    end game\n}\n"


@pytest.mark.parametrize("written, formatted", [
    ("raise(n in 1 .. min(10, pot + 1))", "raise(n in 1..min(10, pot + 1))"),  # as docs/language.md writes it
    ("raise(n in 1 .. count(hand[p]))", "raise(n in 1..count(hand[p]))"),
    ("raise(n in 1..(pot + 1))", "raise(n in 1..(pot + 1))"),
    ("raise(n in -1 .. top(hand[p]).rank)", "raise(n in -1..top(hand[p]).rank)"),
    ("raise(n in 0 .. pot)", "raise(n in 0..pot)"),
    ("raise(n in pot+1..pot*2)", "raise(n in pot + 1 .. pot * 2)"),  # a bound with spaces of its own
    ("raise(n in 1..count x in hand[p] where x == x)", "raise(n in 1 .. count x in hand[p] where x == x)"),
    ("lay(cs from 1 .. min(2, pot) of hand[p])", "lay(cs from 1..min(2, pot) of hand[p])"),
    ("lay(cs from pot-1..pot of hand[p])", "lay(cs from pot - 1 .. pot of hand[p])"),
])
def test_a_range_is_joined_to_its_bounds_unless_a_bound_has_spaces_of_its_own(written, formatted):
    script = 'game "G"\nplayers 2\nvar pot: int = 3\nzone hand: per player owner\nphase main {{\n' \
             '    let p = seat(0)\n    decide p {{\n        {}\n    }}\n    end game\n}}\n'
    assert _fmt(script.format(written)) == script.format(formatted)
    assert _fmt(script.format(formatted)) == script.format(formatted)


def test_fmt_breaks_a_list_of_keys_before_an_item_that_does_not_fit():
    # The second key was left after the first on a 125-column line, broken inside at its `else`:
    # a list's break measured the next item only up to a break inside it.
    from cardgame.authoring.fmt import format_source
    text = ('players 2\nvar led: symbol = none\nvar trump: symbol = none\nzone played: per player public\n'
            'define trick_winner = max q in players by [(if top(played[q]).suit == trump then 1 else 0), '
            '(if top(played[q]).suit in [trump, led] then top(played[q]).rank else none)]\n')
    out, _ = format_source(text)
    assert out.splitlines()[4:] == [
        "define trick_winner =",
        "    max q in players",
        "        by [(if top(played[q]).suit == trump then 1 else 0),",
        "            (if top(played[q]).suit in [trump, led] then top(played[q]).rank else none)]"]


def test_fmt_continues_a_sum_in_a_branch_one_level_in():
    # `then 1` / `+ run_from_top(...)` / `else 0` at one level read as `(if ... then 1) + ...`.
    from cardgame.authoring.fmt import format_source
    text = ('players 2\ndefine run_from_top(seq: list of card, holding: bool, mine: list of card) = '
            'if empty(seq) then 0 else if (first(seq) in mine) == holding then 1 + '
            'run_from_top(last(seq, count(seq) - 1), holding, mine) else 0\n')
    out, _ = format_source(text)
    assert out.splitlines()[1:] == [
        "define run_from_top(seq: list of card, holding: bool, mine: list of card) =",
        "    if empty(seq) then 0",
        "    else if (first(seq) in mine) == holding then 1",
        "        + run_from_top(last(seq, count(seq) - 1), holding, mine)",
        "    else 0"]


def test_fmt_indents_a_top_level_declaration_continued_after_a_comma():
    # A long `attribute ... from rank:` broke after a comma and went on at column 0, where the
    # rest (`J = 1, Q = 2, ...`) reads as the next declaration; tests/scripts/scopa.cardgame had
    # been formatted so.
    from cardgame.authoring.fmt import format_source
    text = ("attribute game_points from rank: 2 = 0, 3 = 0, 4 = 0, 5 = 0, 6 = 0, 7 = 0, 8 = 0, 9 = 0, "
            "10 = 10, J = 1, Q = 2, K = 3, A = 4\n")
    formatted, _diags = format_source(text)
    assert formatted.splitlines() == [
        "attribute game_points from rank: 2 = 0, 3 = 0, 4 = 0, 5 = 0, 6 = 0, 7 = 0, 8 = 0, 9 = 0, 10 = 10,",
        "    J = 1, Q = 2, K = 3, A = 4"]
    assert format_source(formatted)[0] == formatted


def test_fmt_still_reads_windows_line_ends_as_formatted(tmp_path):
    path = tmp_path / "crlf.cardgame"
    path.write_bytes(b'game "x"\r\nplayers 2\r\nphase main {\r\n    end game\r\n}\r\n')
    assert main(["fmt", "--check", str(path)]) == 0


def _long_one_liners(phases=1100) -> str:
    """A script just under the length cap, its phases written on few lines: formatted, it grows
    past the cap."""
    lines = ['game "Chain"', "players 2", "var k: int = 0"]
    for i in range(phases):
        following = f"p{(i + 1) % phases}"
        lines.append(f'phase p{i} {{\nset k += 1\nif k > 3000 {{ end game }}\ndecide seat(0) "go" {{ a {{ next {following} }} '
                     f'b {{ next p{(i * 7) % phases} }} }}\n}}')
    return "\n".join(lines) + "\n"


def test_a_script_that_formatting_would_take_past_the_length_cap_is_e0731_and_left_alone(tmp_path, capsys):
    """The formatted text (210 KB) could not be read back, so the check that fmt keeps the
    meaning failed: a FormatError traceback."""
    script = tmp_path / "chain.cardgame"
    script.write_text(_long_one_liners())
    before = script.read_text()
    assert main(["fmt", str(script)]) == 1
    said = capsys.readouterr()
    assert "Traceback" not in said.err and "[E0731]" in said.err and "0 file(s) reformatted" in said.err
    assert script.read_text() == before


def test_formatting_that_would_change_the_meaning_is_e0732_not_a_traceback(monkeypatch, tmp_path, capsys):
    from cardgame.authoring import fmt
    monkeypatch.setattr(fmt, "same_script", lambda before, after, path="": False)  # a formatter bug, simulated
    script = tmp_path / "war.cardgame"
    script.write_text(WAR.read_text().replace("    ", "  "))
    assert main(["fmt", str(script)]) == 1
    said = capsys.readouterr()
    assert "Traceback" not in said.err and "[E0732]" in said.err
    assert script.read_text() == WAR.read_text().replace("    ", "  ")


FMT_SCRIPTS = [ROOT / "tests" / "scripts" / name for name in
               ("records.cardgame", "war.cardgame", "variants/booray_house.cardgame", "hanabi.cardgame")]


GAPS = ["\n", "  ", "\t", "\n\n\n", " # c\n", "\n# c {\n", " #\n", " # ((((\n", '\n    # x "y\n', " # é ♠\n", "\r\n"]


@given(st.data())
def test_fmt_of_comments_and_breaks_between_any_tokens_keeps_the_script_and_is_idempotent(data):
    path = data.draw(st.sampled_from(FMT_SCRIPTS))
    text = path.read_text()
    tree, _ = parser.parse_concrete(text, str(path))
    ends = sorted({token.end for token in tokens(tree)})
    cuts = data.draw(st.lists(st.sampled_from(ends), min_size=1, max_size=6, unique=True))
    for cut in sorted(cuts, reverse=True):
        text = text[:cut] + data.draw(st.sampled_from(GAPS)) + text[cut:]
    text = text.replace("\r\n", "\n")  # as `cardgame fmt` reads a file
    out, diags = format_source(text, str(path))
    assert diags == [] and out is not None
    assert format_source(out, str(path)) == (out, [])
    assert out.count("#") == text.count("#")
