"""Random hostile expressions: deep nesting, huge numbers, nested ranges, long lists and chained
definitions, put into a script that is loaded and played for one move.  Whatever comes out,
it is a result or a diagnostic (ScriptError, GameFault), within the work budget."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgame import interpreter

BIG = st.sampled_from(["4611686018427387904", "4611686018427387905", "99999999999999999999999",
                       "9" * 400, "1000000000", "100000", "0", "-1"])
SMALL = st.integers(-3, 50).map(str)


def _ints(lists):
    return st.one_of(
        SMALL, BIG, st.just("n"),
        st.builds(lambda a, b: f"({a} + {b})", st.deferred(lambda: INTS), st.deferred(lambda: INTS)),
        st.builds(lambda a, b: f"({a} * {b})", st.deferred(lambda: INTS), st.deferred(lambda: INTS)),
        st.builds(lambda a: f"-({a})", st.deferred(lambda: INTS)),
        st.builds(lambda xs: f"sum({xs})", lists),
        st.builds(lambda xs: f"count({xs})", lists),
        st.builds(lambda xs, ys: f"count x in {xs} where x in {ys}", lists, lists),
        st.builds(lambda xs, a: f"count x in {xs} where any y in {xs} where x + y > {a}", lists, SMALL),
        st.builds(lambda k, a: "(" * k + a + ")" * k, st.integers(1, 400), SMALL),
        st.builds(lambda k: f"c0({k})", SMALL),
        st.builds(lambda k: f"count({'[' * k}1{']' * k})", st.integers(1, 300)),
    )


LISTS = st.deferred(lambda: st.one_of(
    st.builds(lambda a, b: f"range({a}, {b})", INTS, INTS),
    st.builds(lambda xs: "[" + ", ".join(xs) + "]", st.lists(SMALL, max_size=6)),
    st.builds(lambda xs, ys: f"({xs} + {ys})", LISTS, LISTS),
    st.builds(lambda xs: f"sorted({xs})", LISTS),
    st.builds(lambda xs: f"reverse({xs})", LISTS),
    st.builds(lambda xs, a: f"[x * {a} for x in {xs}]", LISTS, SMALL),
    st.builds(lambda xs, ys: f"[x for x in {xs} where x in {ys}]", LISTS, LISTS),
))
INTS = _ints(LISTS)


def script(value: str, shown: str, chain: int, twice: bool) -> str:
    step = "c{j}(n) + c{j}(n)" if twice else "c{j}(n) * 2"
    defines = "".join(f"define c{i}(n: int) = " + step.format(j=i + 1) + "\n" for i in range(chain))
    defines += f"define c{chain}(n: int) = n\n"
    return (f'game "Random"\nplayers 2\nvar n: int = 3\nvar v: int = 0\n{defines}'
            f'phase main {{\n    decide seat(0) "go" {{ go }}\n    set v = {value}\n'
            f'    log "{{{shown}}}"\n    end game\n}}\n')


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow], deadline=None)
@given(value=INTS, shown=LISTS, chain=st.integers(0, 45), twice=st.booleans())
def test_load_and_one_move_end_in_a_result_or_a_diagnostic(tmp_path_factory, value, shown, chain, twice):
    path = tmp_path_factory.mktemp("random") / "random.cardgame"
    path.write_text(script(value, shown, chain, twice))
    try:
        game = interpreter.load(str(path))
    except interpreter.ScriptError as err:
        assert err.diagnostics and all(d.code[0] in "EW" for d in err.diagnostics)
        return
    state = game.new_game(tracer=lambda event: None)
    assert state.fault is None
    try:
        state.apply("go")
    except interpreter.GameFault as err:
        assert err.diagnostic.code == "R0001"
    else:
        assert state.is_over and abs(state.vars[game.program.var_slots["v"]]) <= interpreter.limits.MAX_INT
        assert state.work <= state.work_limit and state.game_work <= state.budget[1]
