"""A playout operation's frame slots and counter held in locals (interpreter/frame_locals.py):
the rewritten body leaves the frame as the written one wherever something reads it (a return,
a listing given `L`, a budget's fault), and on games the playouts stop and fault (any other
fault replayed the API's way) with the very frames of the API path."""

from __future__ import annotations

import pytest

from cardgame import interpreter
from cardgame.interpreter.studies import playout
from cardgame.interpreter.codegen.flow import steps_over
from cardgame.interpreter.codegen.frame_locals import frame_in_locals, frame_reads_of
from cardgame.interpreter.language.rng import derive
from cardgame.interpreter.machine.runtime import RUNTIME_FAULTS, ScriptRuntimeError
from cardgame.interpreter.studies.simulate import play_one

from helpers import play_out
from test_playout import _api_game, _outcome
from cardgame.interpreter.studies import agents as agents_module


def _over_budget(st, span):
    raise ScriptRuntimeError("over", span)


# a decision's loop as a playout operation runs it: the `for` walk's slots (0 the player, 1 the
# items, 2 the position), a listing that reads slot 0, the binder (3) written and read, a
# branch that writes a slot on one way only, a return where the walk ends or the stop is met
LOOP = """L = fr[2]
while True:
    if st.stop <= 0:
        st.seen.append(('stop', L[0]))
        return
    st.stop -= 1
    try:
        ms = PICK1(st, L)
    except _RUNTIME_FAULTS:
        ms = None
    L[3] = ms[0] * 10
    fr[1] = 3
    st.work += 5
    if st.work > st.work_limit:
        _over_budget(st, None)
    if L[3] > 20:
        L[4] = L[3] + L[0]
    t1 = L[2]
    t2 = L[1]
    if t1 < len(t2):
        L[0] = t2[t1]
        L[2] = t1 + 1
        fr[1] = 2
        st.work += 5
        if st.work > st.work_limit:
            _over_budget(st, None)
        continue
    else:
        fr[1] = 9
        st.work += 5
        if st.work > st.work_limit:
            _over_budget(st, None)
        t3 = 12 // (L[4] - 38)
        return"""

# a slot written by a computed index, one in a `try` whose handler goes on, a Python loop
# reading a slot, and the end of the function reached
SHAPES = """L = fr[2]
L[0] = 1
fr[1] = 4
L[VS[0]] = L[0] + 1
try:
    L[2] = L[1] * 2
    t = 10 // L[0]
except ZeroDivisionError:
    L[3] = -1
for x in (1, 2, 3):
    if x == L[2]:
        break
    L[3] = x + L[0]
if L[0] == 1:
    L[4] = 9
st.seen.append(PICK2(st, L))"""

# `next` entered in place: the old frame is left behind, and nothing held of it is the new one's
NEXT = """L = fr[2]
L[1] = 3
L[0] = L[1] + 1
fr[1] = 5
fr = [1, 0, [None] * 5]
st.stack[:] = [fr]
L = fr[2]
L[2] = L[1]
fr[1] = 2
st.seen.append(PICK2(st, L))
return"""


class _St:
    def __init__(self, stop, limit):
        self.stop, self.work, self.work_limit, self.seen = stop, 0, limit, []


def _run(lines, stop, limit):
    """(how it ended, the frame's counter and slots, what the listings saw, the work, the stack)."""
    ns = {"_RUNTIME_FAULTS": RUNTIME_FAULTS, "_over_budget": _over_budget,
          "_steps_over": steps_over, "VS": [1],
          "PICK1": lambda st, L: st.seen.append(L[0]) or [L[0]],
          "PICK2": lambda st, L: (L[1], L[2])}
    exec("def op(st, fr, h=0):\n" + "\n".join("    " + line for line in lines), ns)
    st = _St(stop, limit)
    fr = [0, 2, [1, (1, 2, 4, 5), 0, None, None]]
    st.stack = [fr]
    try:
        ns["op"](st, fr)
        end = "returned"
    except ScriptRuntimeError:
        end = "over budget"
    except ZeroDivisionError:
        end = "fault"
    return end, fr[1], fr[2], st.seen, st.work, st.stack


def _reads(name):
    return {"PICK1": frozenset([0]), "PICK2": frozenset([1, 2])}.get(name)


def _rewritten(text):
    lines = text.split("\n")
    held = frame_in_locals(lines, _reads, 2)
    assert held is not lines
    return held


@pytest.mark.parametrize("stop", range(7))
@pytest.mark.parametrize("limit", [0, 5, 12, 27, 40, 10 ** 6])
def test_a_loop_leaves_the_frame_as_written_where_it_is_read(stop, limit):
    written, held = _run(LOOP.split("\n"), stop, limit), _run(_rewritten(LOOP), stop, limit)
    if written[0] == "fault":  # 12 // 0 at the walk's end, the frame not written out: the API's replay
        assert held[0] == "fault" and held[3:] == written[3:] and held[2] != written[2]
    else:
        assert held == written


def test_the_loop_keeps_its_slots_and_counter_in_locals():
    held = "\n".join(_rewritten(LOOP))
    assert "L[2] = t1 + 1" not in held and "L_2 = t1 + 1" in held and "L_0 = t2[t1]" in held
    assert held.count("fr[1] = 3") == held.count("_over_budget(") - 2  # only where a fault or an exit reads it
    before_listing = held.split("PICK1(st, L)")[0].rsplit("try:", 1)[1]
    assert "L[0] = L_0" in before_listing and "L[3] = L_3" not in before_listing  # the listing reads slot 0 only


@pytest.mark.parametrize("limit", [0, 10 ** 6])
def test_computed_writes_tries_and_breaks_leave_the_frame_as_written(limit):
    assert _run(_rewritten(SHAPES), 0, limit) == _run(SHAPES.split("\n"), 0, limit)


def test_next_entered_in_place_leaves_the_old_frame_behind():
    held, written = _run(_rewritten(NEXT), 0, 0), _run(NEXT.split("\n"), 0, 0)
    assert held[0] == written[0] and held[3:] == written[3:]  # the stack, not the frame left behind
    assert written[2][:2] == [4, 3] and held[2][:2] == [1, (1, 2, 4, 5)]


def test_a_procedures_return_writes_nothing_to_the_frame_it_pops():
    body = ["L = fr[2]", "L[1] = 2", "fr[1] = 3", "st.seen.append(L[1])", "return st.stack.pop()"]
    held = _rewritten("\n".join(body))
    assert not any(line.strip().startswith(("L[1] =", "fr[1] =")) for line in held)
    assert _run(held, 0, 0)[3:] == _run(body, 0, 0)[3:] == ([2], 0, [])


def test_a_shape_it_does_not_follow_is_left_as_written():
    lines = ["L = fr[2]", "for x in (1, 2):", "    L[0] = x", "else:", "    L[1] = 2", "return"]
    assert frame_in_locals(lines, _reads, 0) == lines


def test_what_a_listing_reads_of_its_frame():
    assert frame_reads_of(["t = L[3] + L[0]", "return [t]"], _reads) == {0, 3}
    assert frame_reads_of(["t = PICK2(st, L)", "return [L[5]]"], _reads) == {1, 2, 5}
    assert frame_reads_of(["L[3] = 1"], _reads) is None  # it writes the frame
    assert frame_reads_of(["return f(st, L, 3)"], _reads) is None  # hands it on, to what is not known
    assert frame_reads_of(["return _generic(st)"], _reads) is None  # reads the top frame through st.stack


# a decision in a loop whose body faults on its third round: the playout's frame is held in
# locals there, and the replay (playout._play) gives the API's fault and frame
FAULTS = """game "Faults"
players 2

deck small in stock {
    ordered rank: 2, 3, 4, 5, 6, 7
    suit: C, D
    name: rank suit
}

zone stock: shared hidden
zone hand: per player owner
zone played: shared public

var total: int = 0

phase main {
    shuffle stock
    deal 3 from stock to hand of players
    for p in [seat(0), seat(1), seat(0), seat(1)] {
        decide p "Play" {
            play(c from hand[p]) {
                move c to played
                set total += 12 / (3 - count(played))
            }
        }
    }
    end game
}
"""


def test_a_fault_mid_loop_is_played_again_and_ends_as_the_api_ends(tmp_path, monkeypatch):
    path = tmp_path / "faults.cardgame"
    path.write_text(FAULTS)
    game = interpreter.load(str(path))
    codes = []
    real = playout._play
    monkeypatch.setattr(playout, "_play", lambda st, rng, most, tally, c: codes.append(c) or real(st, rng, most, tally, c))
    for i in range(3):
        played, _ = play_one(game, 2, derive(3, i), {})
        assert played.fault is not None and played.decisions == 3
        assert _outcome(played) == _outcome(_api_game(game, 2, derive(3, i), {}))
    assert codes.count(None) == 3  # each game's playout raised Redo and was played again


@pytest.mark.parametrize("stop", range(1, 40, 3))
def test_a_playout_stopped_mid_trick_leaves_the_apis_frame(stop):
    game = interpreter.load(str(interpreter.__path__[0] + "/../games/bouncer.cardgame"))
    played, _ = play_one(game, 3, derive(5, stop), {}, max_decisions=stop)
    api = play_out(game.new_game(players=3, seed=derive(5, stop)), agents_module.RandomAgent.for_game(derive(5, stop)), stop)
    assert played.decisions == stop and _outcome(played) == _outcome(api)
