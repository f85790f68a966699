"""Loading, checking and opening a script in the editor take time in proportion to its size: each
case that once grew faster is measured here by the work it does (comparisons made, lines of code
written, passes over the text), never by the clock."""

from __future__ import annotations

import pytest

from cardgame import interpreter
from cardgame.authoring.analysis import Analysis
from cardgame.interpreter.codegen import slot_locals
from cardgame.interpreter.language import check_expressions, parser
from conftest import SCRIPTS


def _list_script(items: int, tail: str = "") -> str:
    return ('game "Long"\nplayers 2\nvar l: list of int = [' + ", ".join(["1"] * items) + tail + "]\n"
            'phase main {\n    decide seat(0) "go" { go }\n    end game\n}\n')


def test_a_long_list_literal_is_checked_in_one_pass(tmp_path, monkeypatch):
    """Each item's kind was compared with every other item's: 11.8 s at 10,000 items."""
    looked = []
    real = check_expressions.identity
    monkeypatch.setattr(check_expressions, "identity", lambda t: looked.append(t) or real(t))
    for items in (1_000, 8_000):
        looked.clear()
        path = tmp_path / f"long{items}.cardgame"
        path.write_text(_list_script(items))
        assert [d for d in interpreter.check_file(str(path))[3] if d.severity == "error"] == []
        assert items <= len(looked) <= 2 * items + 10


def test_a_long_list_with_a_mistake_at_its_end_is_refused_at_the_mistake(cli):
    for command in ("check", "play"):
        out = cli(command, SCRIPTS / "long_list.cardgame").diagnosed("E0201")
        assert "long_list.cardgame:5:30023" in out.err  # the unknown name, after the 10,000 items


def _nested(kind: str, depth: int) -> str:
    inner = {"any": "".join(f"any x{i} in l where " for i in range(depth)) + "true",
             "count": "count x in l where x < (" * depth + "1" + ")" * depth,
             "max": "max x in l by x + (" * depth + "1" + ")" * depth}[kind]
    typ = "bool" if kind == "any" else "int"
    return (f'game "Nested"\nplayers 2\nvar l: list of int = [1, 2]\nvar v: {typ} = {"true" if kind == "any" else 0}\n'
            f'phase main {{\n    decide seat(0) "go" {{ go }}\n    set v = {inner}\n    end game\n}}\n')


@pytest.mark.parametrize("kind", ["any", "count", "max"])
def test_nested_quantifiers_are_written_once_each(kind, tmp_path, monkeypatch):
    """A loop's body was written twice (checked and unchecked charges), and a value computed
    once per loop twice over, so each level of nesting doubled the code: ten nested quantifiers
    took minutes and gigabytes to load.  Now each level adds the same few lines, and the pass
    that keeps frame slots in locals stops following loops past four deep (each level walked
    its body again)."""
    walked = []
    real_block = slot_locals._Walk.block
    monkeypatch.setattr(slot_locals._Walk, "block", lambda self, nodes, state: walked.append(len(nodes)) or
                        real_block(self, nodes, state))
    lines, walks = [], []
    for depth in (2, 5, 8):  # 8: the most loops one expression nests (limits.MAX_LOOP_NESTING, E0140)
        path = tmp_path / f"nested{depth}.cardgame"
        path.write_text(_nested(kind, depth))
        walked.clear()
        game = interpreter.load(str(path))
        lines.append(sum(src.count("\n") for src in game.program.compiler.gen.sources))
        walks.append(sum(walked))
        state = game.new_game()
        state.apply("go")
        assert state.is_over and state.fault is None
    assert lines[2] - lines[1] <= 1.2 * (lines[1] - lines[0])  # the same lines for each three levels
    assert walks[2] <= 2 * walks[1]


def test_opening_a_script_in_the_editor_reads_its_text_twice_at_most(tmp_path, monkeypatch):
    """The editor's analysis parsed the text three times (check, then again before reading its
    tokens), and placed each declaration by splitting the whole text again: 13 s to open a
    10,000-item list, seconds for thousands of rules."""
    parsed = []
    real = parser._lark

    class Counting:
        def __init__(self, lark):
            self.lark = lark

        def parse(self, text, **kw):
            parsed.append(len(text))
            return self.lark.parse(text, **kw)
    monkeypatch.setattr(parser, "_lark", lambda: Counting(real()))
    rules = "".join(f'rule r{i}(p: player) "rule {i}" require count(hand[p]) >= {i}\n' for i in range(2_000))
    text = ('game "Rules"\nplayers 2\nzone hand: per player owner\n' + rules +
            'phase main {\n    decide seat(0) "go" { go requires r1999(seat(0)) { } }\n    end game\n}\n')
    analysis = Analysis(str(tmp_path / "rules.cardgame"), text)
    assert [d for d in analysis.diagnostics if d.severity == "error"] == []
    assert len(parsed) <= 1  # the check's parse (the tokens' parser is another, that reads them once)
    last = analysis.declarations["r1999"].name_span
    assert (last.line, last.column) == (2_003, len("rule ") + 1)
