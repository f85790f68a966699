"""The work counter held in locals (interpreter/work_locals.py): a rewritten function leaves the
counter where the written one leaves it, on every path: charges, calls that charge and fault,
handlers, loops, returns, budget faults; games fault alike in traced, fast and playout code."""

from __future__ import annotations

import itertools
import json
from types import SimpleNamespace

from cardgame.interpreter.studies.simulate import play_one
from cardgame.interpreter.codegen.work_locals import held_in_locals

from test_codegen import _load
from test_playout import _api_game


class _Over(Exception):
    pass


def _over_budget(st, span):
    raise _Over(span)


def _charge(st, units):
    """A call given the state: charges, then faults when asked to (a negative count)."""
    st.work += abs(units)
    if units < 0:
        raise ZeroDivisionError
    return units


CALLS = """st.work = st.work + 5
if st.work > st.work_limit:
    _over_budget(st, 1)
t1 = CHARGE(st, L[1])
st.work = st.work + 2
if st.work > st.work_limit:
    _over_budget(st, 2)
try:
    t2 = CHARGE(st, L[2])
    st.work = st.work + 1
except ZeroDivisionError:
    t2 = 0
st.work = st.work + 3
if st.work > st.work_limit:
    _over_budget(st, 3)
t3 = 12 // L[0]
if CHARGE(st, 1) > L[0]:
    st.work = st.work + 1
w0 = st.work
st.work = st.work + t3
t4 = st.work > st.work_limit
if t4:
    st.work = w0
return t1 + t2 + t3 + st.work"""

LOOPS = """while True:
    st.work = st.work + 1
    if st.work > st.work_limit:
        _over_budget(st, 1)
    for q in L[3]:
        st.work = st.work + q
        if st.work > st.work_limit:
            _over_budget(st, 2)
        if q == 2:
            continue
        if q == 7:
            break
        CHARGE(st, q - L[0])
    L[4] = L[4] + 1
    if L[4] > 2:
        return L[4]
    st.work = st.work + L[4]"""


def _run(lines, limit, frame):
    """(what the function returned or raised, the counter it left) on a fresh state."""
    ns = {"_over_budget": _over_budget, "CHARGE": _charge}
    exec("def f(st, L):\n" + "\n".join("    " + line for line in lines), ns)
    st = SimpleNamespace(work=4, work_limit=limit)
    try:
        result = ns["f"](st, list(frame))
    except (_Over, ZeroDivisionError) as exc:
        result = (type(exc).__name__, exc.args)
    return result, st.work


def test_a_rewritten_function_leaves_the_counter_as_the_written_one_on_every_path():
    for body, frames in ((CALLS, itertools.product((0, 1, 3), (1, -1), (2, -2))),
                         (LOOPS, [(z, 0, 0, items, 0) for z in (0, 9) for items in ((1, 2, 3), (2, 7, 1), ())])):
        lines = body.split("\n")
        held = held_in_locals(lines, where_it_pays=False)
        assert held != lines and not any("st.work + " in line for line in held), held
        for frame in frames:
            for limit in range(0, 60, 3):
                assert _run(held, limit, frame) == _run(lines, limit, frame), (frame, limit)


def test_what_the_rewrite_cannot_follow_is_kept_as_written():
    over_a_call = ["for q in CHARGE(st, 2):"] + ["    st.work = st.work + 1"] * 9 + ["return st.work"]
    a_lambda = ["f = lambda: st.work"] + ["st.work = st.work + 1"] * 9 + ["return f()"]
    assert held_in_locals(over_a_call, False) == over_a_call and held_in_locals(a_lambda, False) == a_lambda


LATE = '''game "Late fault"
players 2
var n: int = 0
var bag: list of int = [3, 1, 4]
define big() = count x in bag where x > 2
phase main {
    let p = seat(n % 2)
    decide p "Go" {
        go {
            set n += 1
        }
        stay {
            set bag = bag + [n + 3]
        }
    }
    set n += big()
    set n += 60 / (9 - count x in bag where x > 0)
    if n > 500 {
        end game
    }
    next main
}
'''


def test_a_value_fault_after_charges_counts_the_same_work_in_every_variant(tmp_path):
    """A division by zero after charges and a definition's call: the same fault and game work
    in playouts, through the API (fast code) and in traced code."""
    path = tmp_path / "late.cardgame"
    path.write_text(LATE)
    fast, traced = _load(path, traced=False), _load(path, traced=True)
    faults = set()
    for seed in range(8):
        played, _ = play_one(fast, 2, seed, {})
        games = [played, _api_game(fast, 2, seed, {}), _api_game(traced, 2, seed, {})]
        seen = {(g.fault.message, g.fault.span, g.game_work, json.dumps(g.to_json(), sort_keys=True)) for g in games}
        assert len(seen) == 1, seed
        faults.add(played.fault.message)
    assert faults and all("division by zero" in message for message in faults), faults
    sources = "\n".join(fast.program.compiler.gen.sources)
    assert "wk = wk + " in sources and "wk = wk + " not in "\n".join(traced.program.compiler.gen.sources)
