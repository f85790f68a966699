"""Compiled playouts (interpreter/studies/compiled.py, the kernel mode of the generator) play the
Python path's games: for the same seeds, the same records (moves made, scores, winners, measures,
outcome, the moves offered and forced) and the same generators' states at the end; a fault or a
budget stop at the same decision, with the Python path's diagnostic.  Every script compiles.

The suite compiles every script's kernel at CARDGAME_KERNEL_OPT=0 (tests/conftest.py): the same
games, compiled in a tenth of the time; the shipped games are also played at the default level.
CI plays 200 whole games of each shipped game and bench row at its fewest players (50 at its
most), and of every other script 200 games cut at 20 decisions plus 4 whole games at each end of
its player range; `HYPOTHESIS_PROFILE=soak` plays 10,000 whole games of each at both.
"""

from __future__ import annotations

import functools
import json
import os

import pytest

from cardgame import interpreter
from cardgame.interpreter.codegen import kernel_layout as kl
from cardgame.interpreter.codegen.kernel_gen import kernel_source
from cardgame.interpreter.language.rng import derive
from cardgame.interpreter.studies.agents import RandomAgent
from cardgame.interpreter.studies.compiled import NoKernel, kernel_for
from cardgame.interpreter.studies.playtest import play_out, play_range
from cardgame.interpreter.studies.simulate import compiled_range

from helpers import PLAYED_SCRIPTS, ROOT

SOAK = os.environ.get("HYPOTHESIS_PROFILE") == "soak"
GAMES = 10_000 if SOAK else 200
SHIPPED = sorted((ROOT / "games").glob("*.cardgame"))
BENCH = sorted(p for p in (ROOT / "bench" / "scripts").glob("*.cardgame") if p.name != "lang_patterns.cardgame")
OTHERS = [p for p in PLAYED_SCRIPTS + BENCH if p not in SHIPPED]
HOSTILE = sorted((ROOT / "tests" / "hostile" / "scripts").glob("*.cardgame"))


# The scripts that play on the Python path, and why (docs/simulate.md and docs/performance.md, "Compiled playouts"):
# a kernel holds a value of type `any` as a number, so it cannot tell how many characters a
# `true` shown in a text takes (render_value writes "true", the number 1 is "1").
FALLBACKS = {"cheat.cardgame": "a text of a value of type any is not compiled at "
                               f"{ROOT / 'tests' / 'scripts' / 'cheat.cardgame'}:76",
             "named_seats.cardgame": "seat names (`players N named ...`) is not compiled",
             "pairs_by_rank.cardgame": "a choice `distinct by` a key or `with repeats` is not compiled at "
                                       f"{ROOT / 'tests' / 'scripts' / 'pairs_by_rank.cardgame'}:25",
             "deal_by_deal.cardgame": "a measure taken at a point of the flow is not compiled at "
                                      f"{ROOT / 'tests' / 'scripts' / 'deal_by_deal.cardgame'}:49"}


def test_the_fallbacks_are_the_listed_ones():
    """Writing a kernel's source says whether the script compiles (KernelUnsupported names the
    construct); the machine code is made by the tests that play each script, spread over the
    workers, not here one after another (a cold run compiled every script in this one test:
    255 s of the file's 682 at -n 2)."""
    for path in SHIPPED + OTHERS:
        game = interpreter.load(str(path))
        if path.name in FALLBACKS:
            with pytest.raises(NoKernel) as err:
                kernel_for(game)
            assert str(err.value) == FALLBACKS[path.name]
        else:
            kernel_source(game.program.tables)  # KernelUnsupported if a construct is not written


@functools.lru_cache(maxsize=4)
def _loaded(path):
    """A script's game and kernel, made once for the few tests in a row that play it (a kernel's
    source and IR are made again for every loaded game, even when its machine code is cached)."""
    game = interpreter.load(str(path))
    return game, kernel_for(game)


def _same_records(path, games: int, max_decisions: int = interpreter.limits.MAX_DECISIONS, seed: int = 5,
                  most: int | None = None, counted: int = 6, fresh: bool = False):
    """The records of `games` games at the fewest players (`most` of them at the most) alike; and
    of the first `counted`, the work, the decisions and both generators' states at the end.
    `fresh`: the script loaded and compiled again (under another CARDGAME_KERNEL_OPT)."""
    if path.name in FALLBACKS:
        return  # test_the_fallbacks_are_the_listed_ones
    if fresh:
        game = interpreter.load(str(path))
        kernel = kernel_for(game)
    else:
        game, kernel = _loaded(path)
    for players in sorted({game.min_players, game.max_players}):
        if players != game.min_players:
            games = games if most is None else most
        compiled = compiled_range(game, players, seed, {}, 0, games, max_decisions=max_decisions)
        python = play_range(game, players, seed, {}, 0, games, max_decisions=max_decisions, metrics="fast")
        for mine, theirs in zip(compiled, python):
            assert mine == theirs, (path.name, players, mine.index)
        assert len(compiled) == len(python) == games
        _same_counts(game, kernel, players, seed, min(counted, games), max_decisions)


def _same_counts(game, kernel, players, seed, games, max_decisions):
    rows, _ = kernel.rows(players, seed, game.read_options({}), 0, games, "uniform", max_decisions, game.budget())
    for index, row in enumerate(rows):
        state = game.new_game(players=players, seed=derive(seed, index))
        agent = RandomAgent.for_game(state.seed)
        play_out(state, agent, max_decisions)
        assert row[kl.RESULT["DECISIONS"]] == state.decisions
        if state.fault is None:  # a game the kernel finished (a fault is played again on the Python path)
            assert row[kl.RESULT["STATUS"]] == 0
            assert row[kl.RESULT["GAME_WORK"]] == state.game_work
            assert kl.from_kernel(row[kl.RESULT["RNG"]]) == state.rng
            assert kl.from_kernel(row[kl.RESULT["AGENT"]]) == agent.rng.state


@pytest.mark.parametrize("path", SHIPPED + [p for p in BENCH if p.name in ("eights.cardgame", "pass_and_take.cardgame")],
                         ids=lambda p: p.name)
def test_the_shipped_games_and_bench_rows_play_the_python_games(path):
    _same_records(path, GAMES, most=GAMES if SOAK else 50)


@pytest.mark.parametrize("path", OTHERS, ids=lambda p: p.name)
def test_every_script_plays_the_python_games(path):
    _same_records(path, 4 if not SOAK else GAMES)
    if not SOAK:
        _same_records(path, GAMES, max_decisions=20, seed=6, most=0)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_the_shipped_games_compiled_as_they_ship_play_the_same_games(path, monkeypatch):
    monkeypatch.setenv("CARDGAME_KERNEL_OPT", "2")
    _same_records(path, 10, most=0, fresh=True)


def _every_option_setting(game):
    return [{}] + [{o.name: not o.default} for o in game.options if o.kind == "bool"] + \
        [{o.name: choice} for o in game.options if o.kind == "choice"
         for choice in game.program.tables.options[o.name].choices if choice != o.default]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_options_and_the_alternative_first_policy_play_the_same_games(path):
    game, kernel = _loaded(path)
    for options in _every_option_setting(game):
        for policy in ("uniform", "alternative-first"):
            compiled = compiled_range(game, game.min_players, 9, options, 0, 8, policy=policy)
            python = play_range(game, game.min_players, 9, options, 0, 8, policy=policy, metrics="fast")
            assert compiled == python, (options, policy)


@pytest.mark.parametrize("path", HOSTILE, ids=lambda p: p.name)
def test_hostile_scripts_fault_and_stop_by_budget_at_the_same_decision(path):
    """A fault or a budget stop ends the game in the kernel at the decision the Python path
    faults at; the record (its diagnostic, from playing that game again on the Python path) is
    the Python path's."""
    try:
        game = interpreter.load(str(path))
    except interpreter.ScriptError:
        return  # refused when read: nothing to play
    kernel = kernel_for(game)
    values = game.read_options({})
    rows, _ = kernel.rows(game.min_players, 3, values, 0, 6, "uniform", interpreter.limits.MAX_DECISIONS,
                          game.budget())
    python = play_range(game, game.min_players, 3, {}, 0, 6, metrics="fast")
    assert compiled_range(game, game.min_players, 3, {}, 0, 6) == python
    for row, record in zip(rows, python):
        if record.outcome == "faulted":
            assert row[kl.RESULT["STATUS"]] in (kl.BAILS_BY_NAME["FAULT"], kl.BAILS_BY_NAME["OVER_BUDGET"],
                                                kl.BAILS_BY_NAME["UNREPRESENTED"],  # a sum past the limit
                                                kl.BAILS_BY_NAME["TOO_MANY_MOVES"], kl.BAILS_BY_NAME["DEAD_END"])
            assert row[kl.RESULT["DECISIONS"]] == record.decisions
        else:
            assert row[kl.RESULT["STATUS"]] == 0


def test_a_budget_stop_counts_the_same_work(tmp_path):
    """A game that runs out of its budget stops in the kernel with the very work the Python path
    counts: one unit less of budget and the kernel stops; exactly enough and it finishes."""
    script = tmp_path / "budget.cardgame"
    script.write_text('game "Budget"\nplayers 2\nvar n: int = 0\n'
                      'phase main {\n    decide seat(0) "Go?" {\n        go\n    }\n'
                      '    repeat 40 times {\n        set n += count([x for x in range(1, 30) where x > n])\n    }\n'
                      '    end game\n}\nscore p: n\n')
    game = interpreter.load(str(script))
    kernel = kernel_for(game)
    values = game.read_options({})
    work = kernel.rows(2, 0, values, 0, 1, "uniform", 1000, game.budget())[0][0][kl.RESULT["GAME_WORK"]]
    state = game.new_game(players=2, seed=derive(0, 0))
    state.apply(state.legal_moves()[0])
    assert state.is_over and work == state.game_work
    for budget, stopped in ((work, False), (work - 1, True)):
        row = kernel.rows(2, 0, values, 0, 1, "uniform", 1000, game.budget(max_game_work=budget))[0][0]
        assert (row[kl.RESULT["STATUS"]] == kl.BAILS_BY_NAME["OVER_BUDGET"]) == stopped
        records = compiled_range(game, 2, 0, {}, 0, 1, budget=(None, budget))
        assert records == play_range(game, 2, 0, {}, 0, 1, budget=(None, budget), metrics="fast")
        assert (records[0].outcome == "faulted") == stopped


POWERS = """game "Powers"
players 2

var total: int = 0
var rounds: int = 0

phase main {
    decide seat(rounds % 2) "Raise" {
        raise(b in 0..5, e in 0..6) {
            set total += (b - 2) ^ e - -2 ^ 2 + 2 ^ 1 ^ 2
        }
        low(e in 0..3) {
            set total -= 3 ^ (e - 1)
        }
        big(e in 58..63) {
            set total = 2 ^ e
        }
    }
    set rounds += 1
    if rounds >= 8 {
        end game
    }
    next main
}

score p: if p == seat(0) then total % 1000 else rounds
"""


def test_the_power_operator_plays_the_python_games(tmp_path):
    """`^` in a kernel is the Python path's power (gen_runtime.power), not the kernel language's
    `^`: the same values and work (a unit a multiplication; 0, 1 and -1 in one), and a negative
    power or a number past the limit faults at the same decision."""
    script = tmp_path / "powers.cardgame"
    script.write_text(POWERS)
    _same_records(script, 300, counted=40)
    faults = {r.fault.message.split(",")[0] for r in play_range(interpreter.load(str(script)), 2, 5, {}, 0, 300,
                                                                 metrics="fast") if r.fault is not None}
    assert faults == {"`^` needs a power of 0 or more", f"a number grew beyond the limit of {kl.MAX_INT}"}


def test_simulate_json_is_the_same_on_both_backends_but_the_timings_and_the_backend():
    game = interpreter.load(str(ROOT / "games" / "bouncer.cardgame"))
    compiled = interpreter.simulate(game, GAMES, 3, 4, {})
    python = interpreter.simulate(game, GAMES, 3, 4, {}, backend="python")
    assert compiled["backend"] == "compiled" and compiled["backend_reason"] is None
    assert python["backend"] == "python" and python["backend_reason"] == "--backend python"
    for stats in (compiled, python):
        for field in interpreter.TIMING_FIELDS + interpreter.BACKEND_FIELDS:
            del stats[field]
    assert json.dumps(compiled, sort_keys=True) == json.dumps(python, sort_keys=True)


def test_full_metrics_run_on_the_python_path_and_say_why():
    game = interpreter.load(str(ROOT / "games" / "bouncer.cardgame"))
    stats = interpreter.simulate(game, 3, 3, 0, {}, metrics="full")
    assert stats["backend"] == "python" and "full metrics" in stats["backend_reason"]
    with pytest.raises(interpreter.ScriptError, match="E0907"):
        interpreter.simulate(game, 3, 3, 0, {}, metrics="full", backend="compiled")


def test_without_a_compiler_everything_runs_on_the_python_path(monkeypatch):
    from cardgame.interpreter.codegen import kernel_native
    monkeypatch.setattr(kernel_native, "_llvm", lambda: (_ for _ in ()).throw(
        kernel_native.NoCompiler("llvmlite cannot be used here (ImportError: no module)")))
    game = interpreter.load(str(ROOT / "games" / "bouncer.cardgame"))
    stats = interpreter.simulate(game, 2, 3, 0, {})
    assert stats["backend"] == "python" and stats["backend_reason"].startswith("llvmlite cannot be used here")
    with pytest.raises(NoKernel):
        kernel_for(game)


def test_the_workers_play_compiled_and_give_the_same_statistics():
    game = interpreter.load(str(ROOT / "games" / "bouncer.cardgame"))
    one = interpreter.simulate(game, 120, 3, 2, {})
    two = interpreter.simulate(game, 120, 3, 2, {}, workers=2)
    for stats in (one, two):
        assert stats["backend"] == "compiled"
        for field in interpreter.TIMING_FIELDS:
            del stats[field]
    assert one == two


def test_lint_and_compare_say_they_play_on_the_python_path_and_why():
    """lint and compare need figures only the Python path records: their JSON says so, and
    `--backend compiled` refuses them as it refuses a script it cannot compile."""
    from cardgame.interpreter.studies.backends import COMPARE_REASON, LINT_REASON
    game = interpreter.load(str(ROOT / "games" / "bouncer.cardgame"))
    report = interpreter.lint(game, 2)
    assert (report.backend, report.backend_reason) == ("python", LINT_REASON)
    result = interpreter.compare(game, {}, game, {}, 3, 3)
    assert (result["backend"], result["backend_reason"]) == ("python", COMPARE_REASON)
    assert interpreter.compare(game, {}, game, {}, 3, 3, backend="python")["backend_reason"] == "--backend python"
    for run in (lambda: interpreter.lint(game, 2, backend="compiled"),
                lambda: interpreter.compare(game, {}, game, {}, 3, 3, backend="compiled")):
        with pytest.raises(interpreter.ScriptError, match="E0907"):
            run()
