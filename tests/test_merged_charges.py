"""Merged step charges (interpreter/flow.py): a fused operation pays for a chain of steps with
one charge, and a budget that runs out inside the chain must still stop the game at the very
step, with the same fault, span, frame and work as the traced program, which charges every
step on its own (tests/test_codegen.py compares whole games; these run the budget out at every
step of a game in turn)."""

from __future__ import annotations

import json

from cardgame.interpreter.studies.agents import RandomAgent
from cardgame.interpreter.language.rng import derive
from cardgame.interpreter.machine.runtime import ScriptRuntimeError

from helpers import GAMES, play_out
from test_codegen import _load

NESTED = """game "Nested"
players 2
var x: int = 0
var y: int = 0
phase main {
    for p in players {
        for i in range(1, 4) {
            if i > 1 {
                if x > 2 {
                    set y += 1
                } else {
                    set x += 1
                }
            } else {
                set x += 2
            }
        }
    }
    decide seat(0) "Again?" {
        again { next main }
        stop { end game }
    }
}
"""


def _counting_merged(game) -> list:
    """Counts the merged charges that ran out (flow.steps_over raising) in the fast program."""
    ns = game.program.compiler.gen.ns
    merged, raised = ns["_steps_over"], [0]

    def counting(*args):
        try:
            merged(*args)
        except ScriptRuntimeError:
            raised[0] += 1
            raise
    ns["_steps_over"] = counting
    return raised


def _until_fault(game, seed: int, **budget):
    """What a budget-limited random game shows at its end: the fault and the whole saved state."""
    state = play_out(game.new_game(seed=seed, **budget), RandomAgent(derive(seed, 1)), 60)
    fault = state.fault and (state.fault.message, state.fault.span, state.fault.hint)
    return fault, json.dumps(state.to_json(), sort_keys=True), state.game_work


def _runs_out_alike(path, budgets, seed=1):
    fast, traced = _load(path, traced=False), _load(path, traced=True)
    raised = _counting_merged(fast)
    faults = 0
    for budget in budgets:
        seen = _until_fault(fast, seed, **budget)
        assert seen == _until_fault(traced, seed, **budget), budget
        faults += seen[0] is not None
    return faults, raised[0]


def test_a_budget_running_out_inside_a_merged_chain_stops_at_the_same_step(tmp_path):
    path = tmp_path / "nested.cardgame"
    path.write_text(NESTED)
    assert "_steps_over(" in "\n".join(_load(path, traced=False).program.compiler.gen.sources)
    # the set-up runs out at each of its steps in turn (its budget is one move's), and so does
    # a later move (the game's budget, a little more each time)
    faults, merged = _runs_out_alike(path, [{"max_work": k} for k in range(1, 160)]
                                     + [{"max_game_work": k} for k in range(150, 900, 3)])
    assert faults > 200 and merged > 50  # many runs stop inside a merged chain


def test_shipped_games_run_out_of_budget_at_the_same_step_as_the_traced_program():
    for name, budgets in (("bouncer.cardgame", range(200, 4000, 37)), ("bosspoker.cardgame", range(100, 3000, 29))):
        faults, merged = _runs_out_alike(GAMES / name, [{"max_game_work": k} for k in budgets])
        assert faults == len(budgets) and merged > 0, name
