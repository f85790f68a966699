"""Bounded recursion in definitions (docs/language.md §9): a definition with parameters may call
itself, each call is charged to the work budget, and nesting deeper than
limits.MAX_DEFINE_DEPTH stops the game with an error naming the chain of calls."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from cardgame import interpreter
from cardgame.interpreter.language import limits

SCRIPT = '''game "Recursion"
players 2

define fact(n: int) = if n <= 1 then 1 else n * fact(n - 1)
define is_even(n: int) = if n == 0 then true else is_odd(n - 1)
define is_odd(n: int) = if n == 0 then false else is_even(n - 1)
# the largest sum of some of the numbers xs that stays within k
define best(xs: list of int, k: int) =
    if empty(xs) then 0
    else let x = first(xs) in let rest = last(xs, count(xs) - 1) in
        max(best(rest, k), if x <= k then x + best(rest, k - x) else 0)

phase main {
    end game
}
'''


def state(tmp_path):
    path = tmp_path / "recursion.cardgame"
    path.write_text(SCRIPT)
    return interpreter.load(str(path)).new_game(seed=1)


def test_definitions_may_call_themselves(tmp_path):
    s = state(tmp_path)
    assert s.evaluate("fact(10)") == ("3628800", [])
    assert s.evaluate("[is_even(n) for n in [0, 3, 10]]") == ("[true, false, true]", [])
    assert s.evaluate("best([5, 4, 3], 8)") == ("8", [])


def test_too_deep_a_recursion_names_its_chain(tmp_path):
    s = state(tmp_path)
    assert s.evaluate(f"is_even({limits.MAX_DEFINE_DEPTH - 1})") == ("false", [])
    out, diags = s.evaluate(f"is_even({limits.MAX_DEFINE_DEPTH + 5})")
    assert out is None and len(diags) == 1
    assert f"more than {limits.MAX_DEFINE_DEPTH} deep" in diags[0].message
    assert "is_even -> is_odd -> is_even" in diags[0].message or "is_odd -> is_even -> is_odd" in diags[0].message


def test_a_runaway_search_is_stopped_by_the_work_budget(tmp_path):
    s = state(tmp_path)
    out, diags = s.evaluate("best(range(1, 40), 1000)")  # 2^39 calls
    assert out is None and len(diags) == 1 and "work" in diags[0].message


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 12), max_size=8), st.integers(0, 40))
def test_the_recursive_search_agrees_with_brute_force(tmp_path_factory, xs, k):
    s = _STATE.get("s") or _STATE.setdefault("s", state(tmp_path_factory.mktemp("r")))
    expected = max(sum(c) for r in range(len(xs) + 1) for c in itertools.combinations(xs, r) if sum(c) <= k)
    assert s.evaluate(f"best({list(xs)}, {k})") == (str(expected), [])


_STATE: dict = {}
