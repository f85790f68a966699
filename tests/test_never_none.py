"""Frame slots and list items the script says are never none (interpreter/never_none.py): the
fast code leaves out their none checks, so it must still play exactly like the traced code
(which keeps every check) where a slot or an item can be none after all."""

from __future__ import annotations

import re

import pytest

from cardgame import interpreter
from cardgame.interpreter.codegen import generator as codegen, text_passes
from cardgame.interpreter.language import nodes as n
from cardgame.interpreter.codegen import compiler
from cardgame.interpreter.codegen.never_none import frame_slots, items_never_none, variables_never_none

from test_codegen import _load, _transcript

# The deck, zones and score both scripts below start from.
TABLE = '''players 2..3
deck small in pile {
    rank: 1, 2, 3, 4
    suit: A, B
    name: rank suit
}
zone pile: shared public
zone hand: per player owner
zone out: shared public
var score: int per player = 0
'''

SLOTS = 'game "Slots"\n' + TABLE + '''var seats: list of player = []
define seated = [q for q in players where score[q] >= 0]
define from_first = players_from(seat(0))
phase deal {
    shuffle pile
    deal 2 from pile to hand of players
    set seats = [seat(1), none]
    next play
}
phase play {
    for p in players {
        decide p "Play" {
            play(c from hand[p]) {
                move c to out face up
                set score[p] += c.rank
            }
            guess(k in 0..2) {
                set score[p] -= k
            }
        }
    }
    for q in seated {
        set score[q] += 1
    }
    for q in from_first {
        set score[q] += count(hand[q])
    }
    for c in out {
        set score[seat(0)] += c.rank
    }
    set score[seat(1)] += count q in seated where score[q] > 2
    for q in seats {
        set score[seat(0)] += count x in seats where score[x] > 0
        set score[q] += 1
    }
    end game
}
winners: [q for q in players where score[q] > 1]
'''

RESET = SLOTS.replace("    for q in seated {\n        set score[q] += 1\n",
                      "    for q in seated {\n        set score[q] += 1\n        set q = none\n"
                      "        set score[q] += 1\n")


def _script(tmp_path, text, name="slots.cardgame"):
    path = tmp_path / name
    path.write_text(text)
    return path


def _named_slots(game, phase):
    """{variable name: slot} of the `for` loops and binders in `phase`'s body."""
    t = game.program.compiler.t
    found = {}
    for x in (y for s in t.phases[phase].body for y in n.walk(s)):
        if isinstance(x, n.For):
            found.setdefault(x.var, []).append(t.slots[id(x)])
        elif isinstance(x, n.Binder):
            found.setdefault(x.name, []).append(t.slots[id(x)])
    return t, found


def test_the_slots_that_always_hold_a_value(tmp_path):
    game = interpreter.load(str(_script(tmp_path, SLOTS)))
    t, slots = _named_slots(game, "play")
    kept = frame_slots(t, [t.phases["play"].body])
    # players, a comprehension keeping its variable, players_from, a zone, binders: never none
    assert {slots["p"][0], slots["c"][0], slots["k"][0]} <= kept
    assert slots["q"][0] in kept and slots["q"][1] in kept
    # a list variable may hold none (it does here)
    assert slots["q"][2] not in kept


def test_a_slot_set_again_keeps_its_checks(tmp_path):
    game = interpreter.load(str(_script(tmp_path, RESET)))
    t, slots = _named_slots(game, "play")
    kept = frame_slots(t, [t.phases["play"].body])
    assert slots["q"][0] not in kept and slots["q"][1] in kept


def test_items_never_none_follows_definitions_and_comprehensions(tmp_path):
    game = interpreter.load(str(_script(tmp_path, SLOTS)))
    t = game.program.compiler.t
    bodies = {name: d.body for name, d in t.defines.items()}
    assert items_never_none(t, bodies["seated"]) and items_never_none(t, bodies["from_first"])
    loops = [x for s in t.phases["play"].body for x in n.walk(s) if isinstance(x, n.For)]
    assert [items_never_none(t, x.source) for x in loops] == [True, True, True, True, False]


def _none_checks(game, slot):
    """How many times the generated code tests frame slot `slot` (read into a name) for none."""
    text = "\n".join(game.program.compiler.gen.sources)
    names = set(re.findall(rf"(\w+) = L\[{slot}\]\n", text))
    return sum(len(re.findall(rf"(?<![\w\[]){re.escape(x)} is (?:not )?None", text)) for x in names) + \
        len(re.findall(rf"L\[{slot}\] is (?:not )?None", text))


def test_the_fast_code_leaves_out_the_checks_it_can(tmp_path, monkeypatch):
    path = _script(tmp_path, SLOTS)
    fast = _load(path, traced=False)
    monkeypatch.setattr(codegen, "never_none_slots", lambda t, parts: frozenset())
    checked = _load(path, traced=False)
    _, slots = _named_slots(fast, "play")
    for name, k in (("p", 0), ("q", 0), ("q", 1), ("c", 0)):
        assert _none_checks(checked, slots[name][k]) > 0 and _none_checks(fast, slots[name][k]) == 0, (name, k)
    listed = slots["q"][2]
    assert _none_checks(fast, listed) == _none_checks(checked, listed) > 0


@pytest.mark.parametrize("text", [SLOTS, RESET], ids=["slots", "set-to-none"])
def test_traced_and_fast_play_alike_where_a_slot_may_be_none(text, tmp_path):
    """The list variable's none and the loop variable set to none fault alike in both."""
    path = _script(tmp_path, text)
    fast, traced = _load(path, traced=False), _load(path, traced=True)
    faults = set()
    for players in (2, 3):
        for seed in range(6):
            ours = _transcript(fast, players, seed, {})
            assert ours == _transcript(traced, players, seed, {}), (players, seed)
            faults.add(ours[-1][1] and ours[-1][1][0])
    assert any(f and "needs a player, found none" in f for f in faults), faults


VARS = 'game "Vars"\n' + TABLE + '''var total: int = 0
var flag: bool = false
var leader: player = seat(0)
var drawn: int = 0
var copied: int = 0
var unset: int
var marks: list of int = []
var counted: int = count(players)
var tail: int = 0
var ahead_of: player = none
define ahead(q: player) = score[q] > 2 and score[q] < 9
phase deal {
    shuffle pile
    deal 2 from pile to hand of players
    next play
}
phase play {
    for p in players {
        decide p "Play" {
            play(c from hand[p]) {
                move c to out face up
                set score[p] += c.rank
                set total = total + score[p] * 2
                set flag = flag or score[p] > 3
            }
            guess(k in 0..2) {
                set score[p] -= k
                set drawn = top(hand[p]).rank
                set total += drawn
            }
        }
    }
    set copied = drawn
    set marks = marks + [total]
    set ahead_of = first([q for q in players where score[q] > 4])
    if total > 12 and ahead(ahead_of) {
        set total += 1
    }
    set tail += total
    set counted += 1
    if total > 40 or flag {
        end game
    }
    next play
}
winners: [q for q in players where score[q] > 1]
'''


def test_the_variables_that_always_hold_a_value(tmp_path):
    game = interpreter.load(str(_script(tmp_path, VARS, "vars.cardgame")))
    # kept: a number set by `+=`, by arithmetic or `or` of kept values, seat(0) never set again,
    # a list; not: a top card's rank (none once the hand is empty), a copy of it, no starting
    # value, and every variable from the first starting value that is not a plain constant
    # (`count(players)`) on: counted, tail, ahead_of
    assert variables_never_none(game.program.tables) == {"score", "total", "flag", "leader", "marks"}


def _none_tests(game) -> int:
    text = "\n".join(game.program.compiler.gen.sources)
    return len(re.findall(r" is (?:not )?None", text))


def test_the_fast_code_leaves_out_the_variables_none_checks(tmp_path, monkeypatch):
    path = _script(tmp_path, VARS, "vars.cardgame")
    fast, traced = _load(path, traced=False), _load(path, traced=True)
    monkeypatch.setattr(compiler, "variables_never_none", lambda t: frozenset())
    checked, traced_checked = _load(path, traced=False), _load(path, traced=True)
    assert _none_tests(fast) < _none_tests(checked)
    assert _none_tests(traced) == _none_tests(traced_checked)  # the reference keeps every check


def _define_source(game, name):
    return next(s for s in game.program.compiler.gen.sources if s.startswith(f"def D_{name}_"))


def test_a_definition_tests_its_argument_once_where_that_comes_first(tmp_path):
    """`ahead(q)` reads score[q] twice: the fast code tests q once, before the result."""
    path = _script(tmp_path, VARS, "vars.cardgame")
    fast, traced = _load(path, traced=False), _load(path, traced=True)
    for game in (fast, traced):
        game.new_game(players=2, seed=0)  # defines compile as the code that calls them does
    assert _define_source(fast, "ahead").count("a0 is") == 1
    assert _define_source(traced, "ahead").count("a0 is") == 2


def test_traced_and_fast_play_alike_where_a_variable_may_be_none(tmp_path):
    """`total += drawn` with `drawn` none (a guess with an empty hand), `ahead(ahead_of)` with
    nobody ahead, fault alike in both."""
    path = _script(tmp_path, VARS, "vars.cardgame")
    fast, traced = _load(path, traced=False), _load(path, traced=True)
    faults = set()
    for players in (2, 3):
        for seed in range(8):
            ours = _transcript(fast, players, seed, {})
            assert ours == _transcript(traced, players, seed, {}), (players, seed)
            _over, fault = next(x for x in reversed(ours) if isinstance(x, tuple) and type(x[0]) is bool)
            faults.add(fault and fault[0])
    assert any(f and "holds none" in f for f in faults) and None in faults, faults
    assert any(f and "needs a player, found none" in f for f in faults), faults


def test_restore_refuses_none_where_the_variable_never_holds_it(tmp_path):
    game = interpreter.load(str(_script(tmp_path, VARS, "vars.cardgame")))
    data = game.new_game(players=2, seed=1).to_json()
    slots = game.program.var_slots
    for name in ("drawn", "unset"):  # may be none: restored as it is
        assert game.restore({**data, "vars": [None if i == slots[name] else v for i, v in enumerate(data["vars"])]})
    for name, value in (("total", None), ("score", [3, None])):
        broken = {**data, "vars": [value if i == slots[name] else v for i, v in enumerate(data["vars"])]}
        with pytest.raises(interpreter.ScriptError) as err:
            game.restore(broken)
        assert err.value.diagnostics[0].code == "E0801" and f"`{name}` never holds" in err.value.diagnostics[0].message


def test_an_argument_tested_after_something_else_keeps_its_tests():
    later = "return ((t1 > 0) and (st.vars[0][a0] if a0 is not None else _fail(K1, S2)))"
    assert text_passes.argument_checked_first(["x = 1", later]) == ["x = 1", later]
    first = "return ((st.vars[0][a0] if a0 is not None else _fail(K1, S2)) > (st.vars[3][a0] if a0 is not None else _fail(K4, S5)))"
    assert text_passes.argument_checked_first([first]) == [
        "if a0 is None:", "    _fail(K1, S2)", "return ((st.vars[0][a0]) > (st.vars[3][a0]))"]


def test_an_argument_written_in_place_is_tested_once():
    """At a call site the arguments are the caller's codes (`L[5]`): the result's first test of
    one moves before it, and a test the lines already make (a definition written in place
    inside this one) leaves none of its tests in the result; other codes keep theirs."""
    first = "return ((st.vars[9][L[5]] if L[5] is not None else _fail(K1, S2)) and (st.vars[1][L[5]] if L[5] is not None else _fail(K3, S4)))"
    assert text_passes.argument_checked_first([first], ["L[5]"]) == [
        "if L[5] is None:", "    _fail(K1, S2)", "return ((st.vars[9][L[5]]) and (st.vars[1][L[5]]))"]
    inner = ["st.work += 1", "if L[5] is None:", "    _fail(K1, S2)",
             "return ((not (st.vars[9][L[5]])) and ((st.vars[1][L[5]] if L[5] is not None else _fail(K3, S4)) > 0))"]
    assert text_passes.argument_checked_first(inner, ["L[5]"]) == inner[:3] + [
        "return ((not (st.vars[9][L[5]])) and ((st.vars[1][L[5]]) > 0))"]
    assert text_passes.argument_checked_first(inner, ["L_5"]) == inner
