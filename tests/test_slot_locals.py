"""Frame slots and state variables read from locals inside one fast function
(interpreter/slot_locals.py): a read takes the local only where every way to it has set it, and
the frame and the variables are written as before."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from cardgame.interpreter.codegen.slot_locals import slots_in_locals

from test_codegen import _load
from helpers import GAMES


def _run(lines, L, vars_=(0, 0, 0), **names):
    """What a body leaves: its result, the frame, the variables (the body runs as a function)."""
    src = "def body(st, fr, L):\n" + "\n".join("    " + line for line in lines) + "\n"
    calls = []
    st = SimpleNamespace(vars=list(vars_), stack=[], emit=lambda *a: calls.append(a), rounds=0)
    ns = {"PICK": lambda st, L: (L.__setitem__(1, 3), 5)[1], "_fail": _fail, **names}  # a listing writing a slot
    exec(src, ns)
    L = list(L)
    try:
        result = ns["body"](st, [0, 0, L], L)
    except ValueError as err:
        result = ("fault", str(err))
    return result, L, st.vars


def _fail(*args):
    raise ValueError(args)


def _same(lines, *frames, **names):
    out = slots_in_locals(lines)
    for L in frames:
        assert _run(out, L, **names) == _run(lines, L, **names), (L, out)
    return out


def test_a_slot_written_then_read_is_read_from_the_local():
    out = _same(["L[1] = x + 1", "y = L[1] * 2", "return y + L[1]"], [0, 0], x=4)
    assert out == ["L[1] = L_1 = x + 1", "y = L_1 * 2", "return y + L_1"]


def test_a_slot_read_twice_is_read_once():
    out = _same(["a = L[0] + 1", "if a > 2:", "    return L[0] * L[0]", "return 0"], [5, 0], [1, 0])
    assert out == ["L_0 = L[0]", "a = L_0 + 1", "if a > 2:", "    return L_0 * L_0", "return 0"]


@pytest.mark.parametrize("lines", [["a = L[0] + 1", "L[1] = a", "return a"], ["a = L[0] + 1", "return a + L[0]"],
                                   ["L[0] = 2", "if c:", "    return L[0]", "return 1"],
                                   ["L[0] = 2", "if st.tracer is not None:", "    st.x = L[0] + L[0]", "return 1"]])
def test_a_local_that_would_serve_one_read_only_is_not_made(lines):
    """Setting a local costs what one read from it saves (reads for a listener do not count)."""
    assert slots_in_locals(lines) == lines


def test_a_slot_written_in_one_branch_only_is_read_from_the_frame_after_the_join():
    lines = ["if c:", "    L[0] = 7", "    t = L[0] + L[0]", "else:", "    t = 1", "return t + L[0]"]
    out = _same(lines, [3], c=True)
    assert _same(lines, [3], c=False) == out
    assert out[-1] == "return t + L[0]" and out[1] == "    L[0] = L_0 = 7"


def test_a_slot_written_in_both_branches_is_read_from_the_local_after_the_join():
    lines = ["if c:", "    L[0] = 7", "else:", "    L[0] = 8", "return L[0] + L[0]"]
    out = _same(lines, [3], c=True)
    assert _same(lines, [3], c=False) == out
    assert out == ["if c:", "    L[0] = L_0 = 7", "else:", "    L[0] = L_0 = 8", "return L_0 + L_0"]


@pytest.mark.parametrize("between", ["x = PICK(st, L)", "L = fr[2]", "st.stack.append([1, 0, [L[0]]])",
                                     "fr = [0, 0, [None] * 3]", "L[VS[0]] = 9", "st.emit('set')",
                                     "CODES3[0](st, f)", "x = _generic(st)", "_op_end(st, fr)"])
def test_nothing_that_may_change_the_frame_behind_the_function_is_read_past(between):
    lines = ["L[0] = 1", "a = L[0]", between, "return a + L[0]"]
    out = slots_in_locals(lines)
    assert out[-1] == "return a + L[0]", out


def test_a_charge_over_the_limit_does_not_change_the_frame():
    out = slots_in_locals(["L[0] = 1", "if over:", "    _steps_over(st, fr, (3, 4), 1)", "return L[0] + L[0]"])
    assert out[-1] == "return L_0 + L_0"


@pytest.mark.parametrize("sometimes, held", [("L[0] = 5", True), ("L[0] = PICK(st, L)", False)])
def test_a_loop_round_again_holds_only_what_every_round_leaves(sometimes, held):
    """Round again, `t = L[1]` may read the local only if no round can have changed L[1]
    behind the function's back (the listing here writes it)."""
    lines = ["L[1] = 0", "while True:", "    st.rounds = st.rounds + 1", "    if st.rounds > 20:", "        return None",
             "    t = L[1]", "    if L[1] > 3:", "        return t + L[0]",
             "    L[1] = t + 1", "    if t == 1:", f"        {sometimes}", "    continue"]
    out = _same(lines, [2, 0], [7, 9])
    assert ("    t = L_1" in out) == held and "        return t + L[0]" in out


def test_a_loop_that_only_reads_a_slot_reads_it_once_before_it():
    lines = ["t = 0", "for q in s:", "    t = t + L[2] * q + st.vars[1]", "return t"]
    out = _same(lines, [0, 0, 3], s=(1, 2, 3))
    assert out == ["t = 0", "L_2 = L[2]", "G_1 = st.vars[1]", "for q in s:", "    t = t + L_2 * q + G_1", "return t"]


def test_an_exception_caught_part_way_reads_what_every_point_of_the_try_held():
    lines = ["L[0] = 1", "try:", "    L[0] = f(2)", "    L[0] = f(3)", "except ValueError:", "    return L[0] + L[0]",
             "return L[0] * L[0]"]
    out = _same(lines, [0], f=lambda x: x)
    assert _same(lines, [0], f=lambda x: _fail(x) if x == 3 else x) == out
    assert out[2:4] == ["    L[0] = L_0 = f(2)", "    L[0] = L_0 = f(3)"] and out[-2] == "    return L_0 + L_0"


def test_a_variable_written_is_read_from_the_local_until_a_procedure_runs():
    lines = ["st.vars[2] = 5", "a = st.vars[2] + st.vars[2]", "st.stack.append([1, 0, []])", "return a + st.vars[2]"]
    out = slots_in_locals(lines)
    assert out == ["st.vars[2] = G_2 = 5", "a = G_2 + G_2", "st.stack.append([1, 0, []])", "return a + st.vars[2]"]


def test_a_shape_not_followed_leaves_the_function_as_it_is():
    lines = ["for q in s:", "    x = L[0] + L[0]", "else:", "    x = L[0]"]
    assert slots_in_locals(lines) == lines


def test_the_fast_code_of_a_game_reads_its_slots_from_locals():
    sources = _load(GAMES / "bosspoker.cardgame", traced=False).program.compiler.gen.sources
    assert any("L_" in src for src in sources) and any("G_" in src for src in sources)
    traced = _load(GAMES / "bosspoker.cardgame", traced=True).program.compiler.gen.sources
    assert not any("L_" in src or "G_" in src for src in traced)
