"""Program counter writes nothing reads (interpreter/unseen_pcs.py): dropped, and a fault at any
step of a rewritten operation leaves the frame's counter and the work as the written one does."""

from __future__ import annotations

from cardgame.interpreter.codegen.flow import steps_over
from cardgame.interpreter.codegen.unseen_pcs import unseen_pcs_dropped


class _Over(Exception):
    pass


def _over_budget(st, span):
    raise _Over(span)


# a step chain as merge_step_charges leaves it: writes between safe lines, a test that cannot
# fail with a write in both branches, a failing line (the division), a `next` entered in place
STEPS = """fr[1] = 3
st.work += 5
if st.work > st.work_limit:
    _over_budget(st, None)
st.vars[0] = L[1]
fr[1] = 4
st.work += 10
if st.work > st.work_limit:
    _steps_over(st, fr, (7, 4))
t1 = L[2]
t2 = L[3]
if t1 < len(t2):
    L[0] = t2[t1]
    fr[1] = 5
    st.work += 5
    if st.work > st.work_limit:
        _over_budget(st, None)
    L[4] = 12 // L[1]
    fr[1] = 6
else:
    fr[1] = 8
st.work += 5
if st.work > st.work_limit:
    _over_budget(st, None)
fr = [2, 0, [None] * 3]
st.stack[:] = [fr]
L = fr[2]
st.work += 5
if st.work > st.work_limit:
    _over_budget(st, None)
fr[1] = 1"""


# one branch fails before it writes the counter: the write before the test is seen there
ONE_BRANCH = """fr[1] = 3
st.work += 5
if st.work > st.work_limit:
    _over_budget(st, None)
t1 = L[2]
if t1 is None:
    L[4] = 12 // L[1]
    fr[1] = 6
else:
    fr[1] = 8"""


def _run(lines, limit, frame):
    """(the fault or the end, the counter of the frame it stopped in, the work, the frame's locals)."""
    ns = {"_over_budget": _over_budget, "_steps_over": steps_over}
    exec("def op(st, fr):\n    L = fr[2]\n" + "\n".join("    " + line for line in lines) + "\n    return fr", ns)
    st = type("St", (), {})()
    st.work, st.work_limit, st.vars, st.stack = 0, limit, [None], []
    fr = [0, 0, list(frame)]
    st.stack.append(fr)
    try:
        end = ns["op"](st, fr)
        result = ("end", end[1])
    except (_Over, ZeroDivisionError) as exc:
        result = (type(exc).__name__, fr[1])
    return result, st.work, st.vars, [f[:2] for f in st.stack]


def test_unseen_writes_are_dropped_and_every_fault_sees_the_same_counter(monkeypatch):
    from cardgame.interpreter.codegen import flow

    monkeypatch.setattr(flow, "over_budget", lambda st, span: _Over(span))
    lines = STEPS.split("\n")
    dropped = unseen_pcs_dropped(lines)
    top = [line for line in dropped if not line.startswith(" ")]
    assert "fr[1] = 3" not in top and "fr[1] = 4" not in top and "fr[1] = 1" in top, dropped
    for frame in ([None, 2, 0, (9, 9), None], [None, 0, 0, (9,), None], [None, 1, 1, (9,), None]):
        for limit in range(0, 40):
            assert _run(dropped, limit, frame) == _run(lines, limit, frame), (frame, limit)


def test_a_write_something_may_see_is_kept():
    seen = ["fr[1] = 3", "st.work += 5", "if st.work > st.work_limit:", "    _over_budget(st, None)",
            "t1 = L[0] + 1", "fr[1] = 4"]
    returned = ["fr[1] = 3", "return", "fr[1] = 4"]
    frame_kept = ["fr[1] = 3", "fr = [2, 0, [None] * 3]", "st.work += 5", "fr[1] = 4"]  # the old one still runs
    for lines in (seen, returned, frame_kept, ONE_BRANCH.split("\n")):
        assert unseen_pcs_dropped(lines) == lines
