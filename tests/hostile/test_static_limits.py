"""`check` is the contract for `play`: scripts generated at and just past every static limit of
the code generator (language/limits.py: loops and branches nested in one expression's code, and
the parser's nesting) and in the shapes that used to pass `check` and fail in `play` (a sum of
140 terms, hundreds of rules on one alternative, a chain of 600 definitions, a long `else if`
chain), placed where expressions go (a `set`, a `log` text, a definition's body, a rule).  Either
`check` refuses the script and `play` refuses it with the same diagnostic at the same place, or
`check` accepts it and the game compiles and plays its move; never E0608 or E0606 after a clean
`check`."""

from __future__ import annotations

import pytest

from cardgame import interpreter
from cardgame.interpreter.language import limits, loader
from cardgame.interpreter.language.parser import MAX_NESTING


def _loops(k: int) -> str:
    """k quantifiers, each inside the one before: k loops, 2k branches."""
    inner = "v >= 0"
    for i in range(k):
        inner = f"any x{i} in range(1, 3) where ({inner})"
    return f"if {inner} then 1 else 0"


def _calls(k: int) -> str:
    """k calls of a built-in, each an argument of the one before."""
    return "sum([" * k + "1" + "])" * k


def _branches(k: int) -> str:
    """k `if`s, each in the `then` of the one before."""
    inner = "v"
    for i in range(k):
        inner = f"if v > {i} then {inner} else 0"
    return inner


def _ands(k: int) -> str:
    """k `and`s, each the right side of the one before."""
    return "if " + " and (".join(f"v > {-i}" for i in range(k + 1)) + ")" * k + " then 1 else 0"


def _mixed(k: int) -> str:
    """Four quantifiers (eight branches) and then k - 8 `if`s inside the innermost's condition."""
    inner = "v >= 0"
    for i in range(k - 8):
        inner = f"if v > {i} then {inner} else false"
    for i in range(4):
        inner = f"any y{i} in range(1, 3) where ({inner})"
    return f"if {inner} then 1 else 0"


def _else_ifs(k: int) -> str:
    return " else ".join(f"if v == {i} then {i}" for i in range(k)) + " else 0"


def _sum(k: int) -> str:
    return " + ".join(["v"] * k)


LIMITED = {  # shape -> (expression of size k, the largest k accepted, what refuses one more)
    "loops": (_loops, limits.MAX_LOOP_NESTING, "E0140"),
    "calls": (_calls, limits.MAX_LOOP_NESTING, "E0140"),
    "branches": (_branches, limits.MAX_BRANCH_NESTING, "E0140"),
    "ands": (_ands, limits.MAX_BRANCH_NESTING, "E0140"),
    "mixed": (_mixed, limits.MAX_BRANCH_NESTING, "E0140"),
}
UNLIMITED = {  # shape -> expression: long, flat in the generated code, within the parser's nesting
    "sum of 140 terms": _sum(140),
    "sum of 102 terms": _sum(102),
    "else-if chain of 140 links": _else_ifs(140),
}
PLACES = ["set", "log", "define", "rule"]


def _script(expression: str, place: str) -> str:
    head = 'game "Limits"\nplayers 2\nvar v: int = 1\n'
    if place == "define":
        head += f"define d(w: int) = {expression.replace('v', 'w').replace('w ==', 'w ==')}\n"
        step = "    set v = d(v)\n"
    elif place == "rule":
        head += f'rule r(k: int) "limit" require ({expression}) >= 0\n'
        step = ""
    elif place == "log":
        step = f'    log "{{{expression}}}"\n'
    else:
        step = f"    set v = {expression}\n"
    go = "go(k in 1..2) requires r(k) { set v = k }" if place == "rule" else "go"
    return head + f'phase main {{\n    decide seat(0) "go" {{ {go} }}\n' + step + "    end game\n}\n"


def _where(diags):
    return [(d.code, d.span.line if d.span else None, d.span.column if d.span else None)
            for d in diags if d.severity == "error"]


def _agree(path, text: str):
    """check's errors, having required play to give the same ones, or to compile and play."""
    path.write_text(text)
    _tables, _items, _sources, diags = interpreter.check_file(str(path))
    checked = _where(diags)
    try:
        game = interpreter.load(str(path))
    except interpreter.ScriptError as err:
        assert checked, f"check accepted what play refused: {_where(err.diagnostics)}"
        assert _where(err.diagnostics) == checked
        return checked
    assert not checked, f"play accepted what check refused: {checked}"
    state = game.new_game()
    state.apply(state.legal_moves()[0])  # the move's code is compiled as it first runs
    assert state.is_over and state.fault is None
    return checked


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("shape", sorted(LIMITED))
def test_check_and_play_agree_at_and_past_each_nesting_limit(tmp_path, shape, place):
    make, most, code = LIMITED[shape]
    for k in (most - 1, most):
        assert _agree(tmp_path / "at.cardgame", _script(make(k), place)) == [], (shape, k)
    refused = _agree(tmp_path / "past.cardgame", _script(make(most + 1), place))
    assert [c for c, _line, _col in refused] == [code], refused


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("shape", sorted(UNLIMITED))
def test_long_flat_expressions_check_and_play(tmp_path, shape, place):
    assert _agree(tmp_path / "flat.cardgame", _script(UNLIMITED[shape], place)) == []


def test_past_the_limit_is_refused_at_the_construct_that_goes_too_deep(tmp_path):
    path = tmp_path / "deep.cardgame"
    path.write_text(_script(_calls(limits.MAX_LOOP_NESTING + 1), "set"))
    _tables, _items, _sources, diags = interpreter.check_file(str(path))
    (diag,) = diags
    line = path.read_text().splitlines()[diag.span.line - 1]
    # the ninth call, the innermost, is the one too many
    assert diag.code == "E0140" and "more than 8 deep" in diag.message
    assert line[diag.span.column - 1:].startswith("sum([1])")


def test_sums_past_the_parsers_nesting_are_e0111_for_check_and_play(tmp_path):
    refused = _agree(tmp_path / "sum.cardgame", _script(_sum(MAX_NESTING + 5), "set"))
    assert [c for c, _line, _col in refused] == ["E0111"]


def test_hundreds_of_rules_on_one_alternative_check_and_play(tmp_path):
    """987 rules on one alternative passed `check` and failed `play` with E0606, with no place,
    in a script without definitions: the listing nested a test per rule past Python's 100
    levels of indentation.  Now the moves are listed the generic way and the game plays."""
    rules = "".join(f'rule r{i}(k: int) "not {i}" require k != {i}\n' for i in range(987))
    required = ", ".join(f"r{i}(k)" for i in range(987))
    text = (f'game "Rules"\nplayers 2\nvar v: int = 0\n{rules}phase main {{\n'
            f'    decide seat(0) "pick" {{ pick(k in 985..990) requires {required} {{ set v = k }} }}\n'
            "    end game\n}\n")
    path = tmp_path / "rules.cardgame"
    path.write_text(text)
    assert _where(interpreter.check_file(str(path))[3]) == []
    state = interpreter.load(str(path)).new_game()
    assert [m.text for m in state.legal_moves()] == ["pick 987", "pick 988", "pick 989", "pick 990"]
    state.apply("pick 988")
    assert state.is_over and state.vars[state.game.program.var_slots["v"]] == 988


def test_a_chain_of_600_definitions_checks_and_plays(tmp_path):
    """Each calling the next: typed (and written) callees first, so the chain never nests in
    Python's stack (it was E0606 "definitions call each other too deeply", with no place)."""
    defines = "".join(f"define d{i}(x: int) = d{i + 1}(x) + 1\n" for i in range(600)) + "define d600(x: int) = x\n"
    path = tmp_path / "chain.cardgame"
    path.write_text(f'game "Chain"\nplayers 2\n{defines}var v: int = d0(1)\n'
                    'phase main {\n    decide seat(0) "go" { go }\n    set v = d0(v)\n    end game\n}\n')
    assert _where(interpreter.check_file(str(path))[3]) == []
    state = interpreter.load(str(path)).new_game()
    state.apply("go")
    assert state.is_over and state.vars[state.game.program.var_slots["v"]] == 1201


def test_a_circle_of_600_definitions_checks_and_stops_at_the_depth_limit(tmp_path):
    """Calling each other round: typed once each, and at run time stopped by MAX_DEFINE_DEPTH
    with the circle named by its length (the chain of 600 was searched from each member)."""
    defines = "".join(f"define a{i}(x: int) = a{(i + 1) % 600}(x) + 1\n" for i in range(600))
    path = tmp_path / "circle.cardgame"
    path.write_text(f'game "Circle"\nplayers 2\nvar v: int = 0\n{defines}'
                    'phase main {\n    decide seat(0) "go" { go }\n    set v = a0(v)\n    end game\n}\n')
    assert _where(interpreter.check_file(str(path))[3]) == []
    state = interpreter.load(str(path)).new_game()
    with pytest.raises(interpreter.GameFault) as err:
        state.apply("go")
    assert f"called itself more than {limits.MAX_DEFINE_DEPTH} deep" in str(err.value)
    assert "600 definitions calling each other round" in str(err.value)


def test_e0606_points_at_the_first_definition_of_the_circle(tmp_path):
    """Should the checker's stack run out while definitions are typed one inside another, E0606
    names them and points at the outermost (it had no place at all)."""
    path = tmp_path / "circle.cardgame"
    path.write_text('game "C"\nplayers 2\ndefine a(x: int) = b(x)\ndefine b(x: int) = a(x)\n'
                    'phase main {\n    end game\n}\n')
    tables = interpreter.check_file(str(path))[0]
    diag = loader.too_deep_definitions(["a", "b", "a"], tables.defines)
    assert diag.code == "E0606" and "(3 deep: `a` -> `b` -> `a`)" in diag.message
    assert (diag.span.line, diag.span.column) == (3, 1)
