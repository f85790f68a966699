"""Scripts that do not parse, answered with what was meant (interpreter/language/syntax_errors.py):
a form over a list without its `by` or `where` (E0137)."""

from __future__ import annotations

import pytest

from cardgame import interpreter


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
