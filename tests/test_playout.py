"""The playout loop (`cardgame.interpreter.studies.playout`, what `simulate` runs) plays exactly the games the
public API plays: the same moves, the same state after the game, the same scores, winners and
faults, and the agent's generator ends in the same place, on every shipped game, test script
and complete docs example."""

from __future__ import annotations

import inspect
import json
import re
import sys

import pytest

from cardgame import interpreter
from cardgame.interpreter.language.rng import derive
from cardgame.interpreter.machine import runtime as runtime_module
from cardgame.interpreter.studies import playout as playout_module, playtest as playtest_module
from cardgame.interpreter.studies.agents import RandomAgent
from cardgame.interpreter.studies.simulate import play_one
from helpers import ROOT, play_out
from test_codegen import DOC_SCRIPTS, SCRIPTS, _load, _plays_alike
from test_merged_charges import NESTED

MAX = 3000


def _api_game(game, players, seed, options):
    """One game through the public calls only: legal_moves(), the agent, apply()."""
    state = game.new_game(players=players, seed=seed, options=options)
    return play_out(state, RandomAgent.for_game(seed), MAX)


def _outcome(state):
    fault = state.fault and (state.fault.code, state.fault.message, state.fault.span)
    finished = state.is_over and state.fault is None
    return (json.dumps(state.to_json(), sort_keys=True), fault, state.decisions,
            (state.scores, state.winners) if finished else None)


def _same_games(path, seeds):
    game = interpreter.load(str(path))
    option_sets = [{}] + [{o.name: not o.default} for o in game.options if o.kind == "bool"]
    for players in sorted({game.min_players, game.max_players}):
        for options in option_sets:
            for seed in seeds:
                played, _ = play_one(game, players, seed, options, max_decisions=MAX)
                assert _outcome(played) == _outcome(_api_game(game, players, seed, options)), \
                    (path.name, players, options, seed)


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_playouts_play_the_games_of_the_api(path):
    _same_games(path, [derive(7, i) for i in range(4)])


@pytest.mark.parametrize("line, block", DOC_SCRIPTS, ids=[f"language.md:{line}" for line, _ in DOC_SCRIPTS])
def test_playouts_play_the_games_of_the_api_on_docs_examples(line, block, tmp_path):
    path = tmp_path / "example.cardgame"
    path.write_text(block)
    _same_games(path, [derive(7, i) for i in range(2)])


def test_a_fault_ends_a_playout_as_it_ends_an_api_game(tmp_path):
    path = tmp_path / "fault.cardgame"
    path.write_text('game "Fault"\nplayers 2\nvar x: int = 3\nphase main {\n    decide seat(0) "Pick" {\n'
                    '        down { set x -= 1 }\n        stay { }\n        stop { end game }\n    }\n    set x = 10 / x\n'
                    '    next main\n}\n')
    game = interpreter.load(str(path))
    faulted = 0
    for seed in range(30):
        played, _ = play_one(game, 2, seed, {}, max_decisions=MAX)
        assert _outcome(played) == _outcome(_api_game(game, 2, seed, {}))
        faulted += played.fault is not None and played.fault.message == "division by zero"
    assert faulted > 0


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_a_playout_plays_a_whole_game_by_itself(path):
    """No decision of a shipped game or test script needs the public path in a playout."""
    game = interpreter.load(str(path))
    state = game.new_game(players=game.min_players, seed=5)
    assert playout_module.play_random(state, RandomAgent.for_game(5).rng, MAX) is None
    assert state.is_over or state.decisions == MAX


def _listing(moves):
    drawn = [moves[i] for i in range(len(moves))]
    if type(moves) is not list:  # runs of numbers standing for their moves: the API makes them whole
        assert moves.whole() == drawn
    return [m.text for m in drawn]


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_a_playout_lists_the_moves_the_api_lists(path):
    """At every decision of a game, the playouts' listing (decision.pick: work limit checked at
    the end, runs of distinct numbers standing for their moves) gives the public listing's moves
    in its order, and charges the same work."""
    game = interpreter.load(str(path))
    for players in sorted({game.min_players, game.max_players}):
        state = game.new_game(players=players, seed=11)
        agent = RandomAgent.for_game(11)
        while not state.is_over and state.decisions < 400:
            decision, L = state.waiting, state.stack[-1][2]
            if decision.pick is not None:
                state.begin_work()
                picked = _listing(decision.pick(state, L))
                work = state.work
                state.begin_work()
                assert picked == _listing(decision.fast(state, L)) and work == state.work, (path.name, state.decisions)
            if decision.draw is not None:  # the cards standing for the same moves, for the same work
                state.begin_work()
                moves = decision.pick(state, L)
                work = state.work
                state.begin_work()
                drawn = decision.draw(state, L)
                assert drawn == [m.values[0] for m in moves] and work == state.work, (path.name, state.decisions)
            state.apply(agent.choose(state.legal_moves()))


_BETS = '''game "Bets"
players 2
limit work_per_move {budget}
var pot: int = 0
var bag: list of int = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
define wide(k: int) = [x for x in range(1, 40) where x > k]
rule small(x: int, pot: int) "Small bets only."
    require count([y for y in range(1, 30 + pot) where y < x]) < 25
rule few(x: int) "Bets the bag allows."
    require count y in bag where y < x < 40
phase main {{
    decide seat(pot % 2) "Bet" {{
        bet(x from range(1, 60 + pot)) {{ set pot += x }}
        raise(x from wide(pot % 7)) requires small(x, pot) {{ set pot += 2 * x }}
        grow(x from wide(pot % 5)) requires few(x) {{ set bag = bag + [x, pot] }}
        stop {{ end game }}
    }}
    if pot > 400 {{ end game }}
    next main
}}
'''


@pytest.mark.parametrize("budget", [2_000, 4_000, 8_000, 20_000, 1_000_000])
def test_a_listing_over_budget_faults_in_a_playout_as_in_the_api(budget, tmp_path):
    """A playout's listing checks its work limit only at its end: one that runs over is listed
    again by the public path, which faults exactly where the API does."""
    path = tmp_path / "bets.cardgame"
    path.write_text(_BETS.format(budget=budget))
    game = interpreter.load(str(path))
    faults = 0
    for seed in range(12):
        played, _ = play_one(game, 2, seed, {}, max_decisions=MAX)
        assert _outcome(played) == _outcome(_api_game(game, 2, seed, {})), (budget, seed)
        faults += played.fault is not None
    assert (faults > 0) == (budget < 1_000_000)


_RULES = (ROOT / "tests" / "scripts" / "listing_rules.cardgame").read_text()
_FAULTING = "    require strength(c) < 5 or strength(c) > 9"  # becomes a division by zero for one rank


def _outcomes_alike(game, budget) -> set:
    """Twelve seeds played out against the same games through the API: the same outcome each
    time; the outcomes seen (a fault's message, or "finished")."""
    outcomes = set()
    for seed in range(12):
        played, _ = play_one(game, 3, seed, {}, max_decisions=MAX)
        assert _outcome(played) == _outcome(_api_game(game, 3, seed, {})), (budget, seed)
        outcomes.add(played.fault.message.split(" (")[0] if played.fault else "finished")
    return outcomes


def _lists_alike(game, seeds):
    """Along API games, at every decision: the playout listing gives the exact listing's moves
    and work, or gives up (None, or a fault) exactly where the exact listing faults."""
    for seed in seeds:
        state = game.new_game(players=3, seed=seed)
        agent = RandomAgent.for_game(seed)
        while not state.is_over and state.fault is None:
            decision, L = state.waiting, state.stack[-1][2]
            state.begin_work()
            try:
                picked = decision.pick(state, L)
                picked = picked if picked is None else (_listing(picked), state.work)
            except runtime_module.RUNTIME_FAULTS:
                picked = None
            state.begin_work()
            try:
                exact = (_listing(decision.fast(state, L)), state.work)
            except runtime_module.RUNTIME_FAULTS:
                exact = None
            assert picked == exact or picked is None and exact is None, seed
            moves = state.legal_moves()
            if moves:
                try:
                    state.apply(agent.choose(moves))
                except interpreter.GameFault:
                    break


@pytest.mark.parametrize("budget", [100, 150, 1_000_000])
@pytest.mark.parametrize("faulting", [False, True], ids=["plain", "faulting"])
def test_listings_of_several_rules_and_alternatives_match_the_exact_listing(budget, faulting, tmp_path):
    """Several rules on a card binder (a `when` computed once and false: no pass; one read per
    candidate; an argument computed once), several alternatives, a rule that faults for one
    rank only, budgets that run out inside a listing: the same moves, work and faults."""
    text = _RULES.replace("limit work_per_move 1000000", f"limit work_per_move {budget}")
    if faulting:
        text = text.replace(_FAULTING, "    require 12 / (strength(c) - 6) != 5")
    path = tmp_path / "rules.cardgame"
    path.write_text(text)
    game = interpreter.load(str(path))
    assert all(d.pick is not None for d in game.program.decisions)
    _lists_alike(game, range(12))
    outcomes = _outcomes_alike(game, budget)
    assert any(o.startswith("this needed more than") for o in outcomes) == (budget < 1_000_000), outcomes
    assert ("division by zero" in outcomes) == (faulting and budget > 100), outcomes
    _plays_alike(path, seeds=range(4))


# ---- decisions resolved inside the generated code (Program.playout_codes)

def _through_playouts(game, players, seed, max_decisions, budget):
    """A game played by the playout loop as simulate plays it, with its tally."""
    state = game.new_game(players=players, seed=seed, max_work=budget[0], max_game_work=budget[1])
    agent, tally = RandomAgent.for_game(seed), [0, 0, 0]
    playtest_module.play_out(state, agent, max_decisions, tally)
    return state, agent, tally


def _through_the_api(game, players, seed, max_decisions, budget):
    """The same game through legal_moves(), the agent and apply(), tallied as playouts tally."""
    state = game.new_game(players=players, seed=seed, max_work=budget[0], max_game_work=budget[1])
    agent, tally = RandomAgent.for_game(seed), [0, 0, 0]
    while not state.is_over and state.fault is None and state.decisions < max_decisions:
        moves = state.legal_moves()
        if not moves:
            break
        tally[0], tally[1], tally[2] = tally[0] + 1, tally[1] + len(moves), tally[2] + (len(moves) == 1)
        try:
            state.apply(agent.choose(moves))
        except interpreter.GameFault:
            break
    return state, agent, tally


def _ends_alike(game, players, seed, max_decisions=MAX, budget=(None, None)):
    """The playout and the API game end in the same state, fault (message, span, hint), work,
    agent's generator and tally; returns the fault's message (None if it finished)."""
    ends = []
    for play in (_through_playouts, _through_the_api):
        state, agent, tally = play(game, players, seed, max_decisions, budget)
        fault = state.fault and (state.fault.code, state.fault.message, state.fault.span, state.fault.hint)
        ends.append((fault, json.dumps(state.to_json(), sort_keys=True), state.game_work, state.decisions,
                     agent.rng.state, tally))
    assert ends[0] == ends[1], (game.path, players, seed, max_decisions, budget)
    return ends[0][0] and ends[0][0][1]


# Procedures called in turn, from a loop, nested past the depth the playouts call in place
# (gen_assembly._CALLS_IN_PLACE) and past the depth limit, a callee that decides, returns early or
# leaves its phase with `next`.
CALLS = """game "Calls"
players 2
var x: int = 0
var depth: int = 0
var rounds: int = 0

procedure deeper(n: int) {
    set depth += 1
    if n > 0 {
        deeper(n - 1)
    }
    set x += 1
}

procedure choose(p: player) {
    decide p "How far?" {
        near { set x += 1 }
        far { set x += 37 }
        leave {
            set rounds += 1
            next other
        }
    }
    if x > 500 {
        return
    }
    set depth -= 1
}

phase main {
    set rounds += 1
    for p in players {
        choose(p)
        deeper(x % 45)
    }
    if rounds > 4 {
        deeper(x % 7 + 195)
    }
    decide seat(0) "Again?" {
        again { next main }
        stop { end game }
    }
}

phase other {
    deeper(3)
    next main
}
"""
# An event whose one reaction is by one seat, signalled with none (nobody is asked) and a seat.
LONE = """game "Lone"
players 2
var target: player = none
var hits: int = 0
var dodged: int = 0

event poke(p: player) "{p} is poked: dodge, or pass?" {
    set hits += 1
}

reaction dodge on poke by q in [p] {
    dodge {
        set dodged += 1
        cancel
    }
}

phase main {
    signal poke(target)
    set target = seat(hits % 2)
    signal poke(target)
    decide seat(1) "Again?" {
        again {
            set target = none
            next main
        }
        stop { end game }
    }
}

score p: hits - dodged
winners: highest score
"""
# Calls of a procedure whose first statement draws: a chance point a game that pauses stops at.
DRAWN = """game "Drawn calls"
players 2
var x: int = 0

procedure roll(n: int) {
    set x += random(1, 6)
    if n > 0 {
        roll(n - 1)
    }
}

phase main {
    roll(x % 4)
    decide seat(x % 2) "Again?" {
        again { next main }
        stop { end game }
    }
}
"""
_INLINE = {"nested.cardgame": NESTED, "calls.cardgame": CALLS, "lone.cardgame": LONE, "drawn.cardgame": DRAWN}


def _script(path, tmp_path):
    if path not in _INLINE:
        return interpreter.load(str(ROOT / path))
    (tmp_path / path).write_text(_INLINE[path])
    return interpreter.load(str(tmp_path / path))


def test_a_playout_loops_in_its_operations_and_enters_a_phase_in_place(tmp_path):
    """Nested.cardgame's phase enters itself with `next`, and its loops go round: a playout's
    operations write that as a loop in one function and a new frame in place (Gen._expand),
    the paths the budget sweeps below run out on at every step."""
    game = _script("nested.cardgame", tmp_path)
    assert all(_ends_alike(game, 2, seed) is None for seed in range(8))
    made = "\n".join(src for src in game.program.compiler.gen.sources if src.startswith("def playout"))
    assert "while True:" in made and "continue" in made and "st.stack[:] = [fr]" in made


def test_a_playout_calls_its_procedures_from_its_operations(tmp_path):
    """A playout's operation runs the callee's first operation itself and goes on after the
    call in place when the callee has returned (Gen._call_in_place); nested too deep, the
    calls go through runtime.run, and past the depth limit the game faults as in the API."""
    game = _script("calls.cardgame", tmp_path)
    ends = {_ends_alike(game, 2, seed) for seed in range(12)}
    assert ends == {None, "calls nested deeper than 200 (calling `deeper`)"}, ends
    made = "\n".join(src for src in game.program.compiler.gen.sources if src.startswith("def playout"))
    assert "st.stack.append(f" in made and re.search(r"if CODES\d+\[0\]\(st, (f\d+), h\) is not \1:", made)


def _stepped(game, seed, budget, pauses):
    """The API game of `seed`, paused at every chance point and phase and stepped on; each
    pause's kind and statement added to `pauses`."""
    state = game.new_game(players=2, seed=seed, max_work=budget, pause_at=("chance", "phase"))
    agent = RandomAgent.for_game(seed)
    while not state.is_over and state.fault is None:
        try:
            if state.paused:
                pauses.append((state.paused, state.next_statement))
                state.step()
            elif state.legal_moves():
                state.apply(agent.choose(state.legal_moves()))
        except interpreter.GameFault:
            break
    return state


@pytest.mark.parametrize("path", ["calls.cardgame", "drawn.cardgame"])
def test_the_programs_operations_call_procedures_in_place_but_not_while_pausing(path, tmp_path):
    """The API's operations call a procedure's first operation themselves too (Gen._call_in_place),
    unless runtime.run's loop that pauses passed CALLS_ON: games of calls play as the traced
    reference plays them, budgets running out all along the calls, and a game stepped pause by
    pause stops where the reference stops and is the game run straight through."""
    game = _script(path, tmp_path)
    made = "\n".join(src for src in game.program.compiler.gen.sources if src.startswith("def op"))
    assert re.search(r"if h < \d+ and len\(st\.stack\) < \d+:", made)
    traced = _load(tmp_path / path, traced=True)
    faults = set()
    for seed, budget in enumerate([None, *range(5, 400, 13), *range(400, 2_000, 97)]):
        ends, pauses = [], ([], [])
        for state in (_through_the_api(game, 2, seed % 7, MAX, (budget, None))[0],
                      _through_the_api(traced, 2, seed % 7, MAX, (budget, None))[0],
                      _stepped(game, seed % 7, budget, pauses[0]), _stepped(traced, seed % 7, budget, pauses[1])):
            fault = state.fault and (state.fault.message, state.fault.span)
            ends.append((fault, state.history, state.game_work, state.vars))
        assert ends[0] == ends[1] == ends[2] == ends[3] and pauses[0] == pauses[1], (seed, budget)
        faults.add(ends[0][0] and ends[0][0][0].split(" ")[1])
    assert {None, "move"} <= faults, faults


def test_an_event_with_one_reaction_by_one_seat_asks_that_seat_if_there_is_one(tmp_path):
    """Fast code writes such an event's askers as the seat alone (compiler._askers); traced code
    and the playouts play its games as the API does, with the seat none and a seat."""
    game = _script("lone.cardgame", tmp_path)
    _plays_alike(tmp_path / "lone.cardgame", seeds=range(6))
    assert {_ends_alike(game, 2, seed) for seed in range(6)} == {None}
    asked = [len(game.new_game(seed=seed).legal_moves()) for seed in range(3)]
    assert asked == [2, 2, 2]  # the first signal (nobody) is skipped: `dodge` or pass, at the second
    made = "\n".join(game.program.compiler.gen.sources)
    assert re.search(r"L\[\d+\] = (?:L_\d+ = )?\(\) if (t\d+) is None else \(\(\1, \(0,\)\),\)", made)  # (slot_locals)


def test_a_playout_hands_each_step_on_to_the_next_operation_a_few_calls_deep():
    """Where an operation ends (its fusing budget spent), it calls the operation its step
    leads to itself (Gen._step), up to runtime.CALLS_ON calls in a row: a whole game, with
    Python's stack limited to a little more than those calls, plays as in the API (whose
    operations call on too; the traced program's do not, and a game that pauses gets each
    operation back in its loop: tests/test_stepping.py)."""
    game = interpreter.load(str(ROOT / "games" / "bosspoker.cardgame"))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 150)
    try:
        assert {_ends_alike(game, game.max_players, seed) for seed in range(4)} == {None}
    finally:
        sys.setrecursionlimit(limit)
    calls_on = re.compile(r"return CODES\d+\[\d+\]\(st, fr, h \+ 1\)")
    for kind in ("playout", "op"):
        assert calls_on.search("\n".join(src for src in game.program.compiler.gen.sources
                                         if src.startswith(f"def {kind}"))), kind
    traced = _load(ROOT / "games" / "bosspoker.cardgame", traced=True)
    assert not calls_on.search("\n".join(traced.program.compiler.gen.sources))


# (script, budgets of one move, budgets of the game, whether a move (not the set-up) can run over)
_SWEEPS = [("games/bouncer.cardgame", range(40, 1000, 23), range(300, 45_000, 1_303), True),
           ("games/booray.cardgame", range(300, 700, 13), range(300, 6_000, 191), False),
           ("games/bosspoker.cardgame", range(900, 1500, 19), range(1_000, 7_000, 199), False),
           ("games/bohei.cardgame", range(10, 450, 11), range(2_000, 80_000, 2_503), True),
           ("tests/scripts/reactions.cardgame", range(1, 100, 3), range(1, 400, 7), True),
           ("tests/scripts/commit_reveal.cardgame", range(1, 60, 2), range(1, 150, 3), True),
           ("nested.cardgame", range(1, 160), range(150, 900, 3), False),
           ("calls.cardgame", range(1, 400, 3), range(100, 16_000, 251), True)]


@pytest.mark.parametrize("path, per_move, per_game, in_a_move", _SWEEPS, ids=[s[0].split("/")[-1] for s in _SWEEPS])
def test_budgets_run_out_in_a_playout_where_they_run_out_in_the_api(path, per_move, per_game, in_a_move, tmp_path):
    """With the budget of one move, then the game's, set to many values in turn (so that they
    run out at a decision, inside a listing, inside a move, in the set-up, after a simultaneous
    round or a reaction window), the playout loop stops at the same step with the same fault."""
    game = _script(path, tmp_path)
    faults = set()
    for seed, budget in enumerate([(k, None) for k in per_move] + [(None, k) for k in per_game]):
        fault = _ends_alike(game, game.min_players, seed % 5, budget=budget)
        faults.add(fault and fault.split(" ")[1])
    assert faults >= {None, "game", "move"} if in_a_move else faults >= {None, "game"}, faults


@pytest.mark.parametrize("path", ["games/bouncer.cardgame", "games/booray.cardgame", "games/bosspoker.cardgame",
                                  "games/bohei.cardgame", "tests/scripts/commit_reveal.cardgame"])
def test_a_playout_stops_at_max_decisions_and_at_the_cap_where_the_api_stops(path, monkeypatch):
    game = interpreter.load(str(ROOT / path))
    for max_decisions in (0, 1, 2, 3, 5, 8, 13, 21, 34, 55):
        assert _ends_alike(game, game.max_players, max_decisions, max_decisions=max_decisions) is None
    capped = 0
    for cap in (1, 2, 3, 7, 19, 40):
        monkeypatch.setattr(interpreter.limits, "MAX_DECISIONS", cap)
        for seed in range(3):
            fault = _ends_alike(game, game.min_players, seed)
            assert fault in (None, f"the game reached {cap:,} decisions without ending")
            capped += fault is not None
    assert capped >= 6  # caps 1 and 2 at least: every script here asks more decisions


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_playouts_make_their_decisions_inside_the_generated_code(path, monkeypatch):
    """A playout applies a move through moves.apply_move only where the generated code hands
    the decision back (the first decision, reached by the set-up, and nothing unusual after it
    in a shipped game or test script); the games are those of the API (above)."""
    game = interpreter.load(str(path))
    applied = []
    real = playout_module.apply_move
    monkeypatch.setattr(playout_module, "apply_move", lambda st, move, *rest: (applied.append(st.decisions),
                                                                                    real(st, move, *rest)))
    for seed in range(3):
        applied.clear()
        state, _, tally = _through_playouts(game, game.min_players, seed, MAX, (None, None))
        assert applied == ([0] if state.decisions else []) and tally[0] == state.decisions, (path.name, seed)
    _ends_alike(game, game.min_players, 3)


def test_a_definition_call_met_in_several_rules_is_computed_once_per_listing():
    """`can_follow(p)` in two rules' `when`s (listing_rules.cardgame): the playout listing calls
    it once and charges its work at each use, so its moves and work are the exact listing's,
    which calls it once per rule."""
    game = interpreter.load(str(ROOT / "tests" / "scripts" / "listing_rules.cardgame"))
    ns = game.program.compiler.gen.ns
    name = next(k for k in ns if k.startswith("D_can_follow_"))
    real, calls = ns[name], []

    def counted(st, p):
        calls.append(p)
        return real(st, p)
    ns[name] = counted
    state = game.new_game(players=3, seed=3)
    agent = RandomAgent.for_game(3)
    shared = 0
    while not state.is_over and state.decisions < 60:
        decision, L = state.waiting, state.stack[-1][2]
        state.begin_work()
        calls.clear()
        picked = (_listing(decision.pick(state, L)), state.work, len(calls))
        state.begin_work()
        calls.clear()
        exact = (_listing(decision.fast(state, L)), state.work, len(calls))
        assert picked[:2] == exact[:2] and picked[2] <= 1 <= exact[2]
        shared += exact[2] > picked[2]
        state.apply(agent.choose(state.legal_moves()))
    assert shared > 5


_SHARED = '''game "Shared rules"
players 3
limit work_per_move BUDGET
var owed: int per player = 0
var bag: list of int = [3, 1, 4, 1, 5, 9, 2, 6]
var turn: int = 0
define cost(p: player) = count x in bag where x > owed[p]
rule owes(p: player) "Something left to pay."
    require cost(p) > 1
rule can_pay(p: player) "Not too much owed."
    require owed[p] < 6
phase main {
    let p = seat(turn % 3)
    decide p "Pay" {
        pay requires owes(p), can_pay(p) {
            set owed[p] += 1
        }
        grow requires can_pay(p), owes(p) {
            set bag = bag + [owed[p] + 4, 7]
        }
        skip requires owes(p) {
            set owed[p] -= 2
        }
        rest { }
    }
    set turn += 1
    if turn > 60 {
        end game
    }
    next main
}
'''


@pytest.mark.parametrize("budget", [12, 20, 30, 1_000_000])
@pytest.mark.parametrize("faulting", [False, True], ids=["plain", "faulting"])
def test_a_rule_shared_by_alternatives_is_tested_once_and_charged_each_time(budget, faulting, tmp_path):
    """A playout listing tests a rule several alternatives without binders require of the same
    arguments once (Gen._shared_rule) and charges its work at every use: the same moves, work
    and faults as the exact listing, at budgets that run out inside the listing."""
    text = _SHARED.replace("BUDGET", str(budget))
    if faulting:
        text = text.replace("require cost(p) > 1", "require cost(p) > 12 / (owed[p] - 3)")
    path = tmp_path / "shared.cardgame"
    path.write_text(text)
    game = interpreter.load(str(path))
    pick = next(s for s in game.program.compiler.gen.sources if s.startswith("def pick_"))
    # owes(p) charged again twice; can_pay(p), second in pay, is not shared: grow tests it afresh
    assert sum("rw" in line and not re.search(r"\b(?:st\.work|wk) - ", line) for line in pick.splitlines()) == 2, pick
    _lists_alike(game, range(12))
    outcomes = _outcomes_alike(game, budget)
    assert any(o.startswith("this needed more than") for o in outcomes) == (budget < 1_000_000), outcomes
    assert ("division by zero" in outcomes) == (faulting and budget == 1_000_000), outcomes
    _plays_alike(path, seeds=range(4))


_CALLED = '''game "Called in several rules"
players 3
limit work_per_move BUDGET
var owed: int per player = 0
var turn: int = 0
define left(p: player) = 9 - owed[p]
rule has_left(p: player) "Something left."
    require left(p) > 0
rule much_left(p: player) "Much left."
    require left(p) > 4
rule little_left(p: player) "Little left."
    require left(p) < 6
phase main {
    let p = seat(turn % 3)
    decide p "Pay" {
        pay requires has_left(p), much_left(p) {
            set owed[p] += 3
        }
        save requires little_left(p) {
            set owed[p] -= 2
        }
        rest { }
    }
    set turn += 1
    if turn > 60 {
        end game
    }
    next main
}
'''


@pytest.mark.parametrize("budget", [6, 8, 1_000_000])
@pytest.mark.parametrize("faulting", [False, True], ids=["plain", "faulting"])
def test_a_definition_written_in_place_in_several_rules_is_computed_once_per_listing(budget, faulting, tmp_path):
    """`left(p)`, written in place in three rules of alternatives without binders: a playout
    listing computes it at its first use and reads it at the others (Gen._shared_call), each
    use charged as a call: the same moves, work and faults (a number too big) as the exact
    listing, at budgets that run out inside the listing."""
    text = _CALLED.replace("BUDGET", str(budget))
    if faulting:
        text = text.replace("set owed[p] -= 2", "set owed[p] = -4611686018427387904")  # then left(p) is too big
    path = tmp_path / "called.cardgame"
    path.write_text(text)
    game = interpreter.load(str(path))
    pick = next(s for s in game.program.compiler.gen.sources if s.startswith("def pick_"))
    # the first use runs in every listing: it computes the value, the two others read it
    # (text_passes.shared_values_read_plain)
    first = re.findall(r"^    \w+ = \(*(dc\d+) := ", pick, re.M)
    assert len(first) == 1 and "_UNSET" not in pick, pick
    assert len(re.findall(rf"\b{first[0]}\b", pick)) == 3, pick
    _lists_alike(game, range(12))
    outcomes = _outcomes_alike(game, budget)
    assert any(o.startswith("this needed more than") for o in outcomes) == (budget < 1_000_000), outcomes
    assert any("beyond the limit" in o for o in outcomes) == (faulting and budget == 1_000_000), outcomes
    _plays_alike(path, seeds=range(4))


def test_a_when_measured_once_is_charged_for_the_other_candidates_in_one_line():
    """A rule's `when` computed once for a card binder (`led != none and any x in hand[p] where
    ...`) is measured and its work charged for every other candidate in one line
    (text_passes.charged_for_each): the exact listing's moves and work at every decision."""
    game = interpreter.load(str(ROOT / "games" / "bouncer.cardgame"))
    pick = next(s for s in game.program.compiler.gen.sources if s.startswith("def pick_"))
    assert re.search(r"st\.work = (t\d+) \+ \(st\.work - \1\) \* len\(c\d+\)", pick), pick
    _lists_alike(game, range(3))


@pytest.mark.parametrize("path", ["games/bouncer.cardgame", "games/booray.cardgame", "games/bosspoker.cardgame",
                                  "games/bohei.cardgame", "tests/scripts/commit_reveal.cardgame"])
def test_playout_code_raising_redo_is_undone_and_played_again_as_the_api_plays(path):
    """Playout code may give up on a path it does not keep exact (runtime.Redo): whatever it
    changed is undone and the call is played again by the program's operations.  Here every
    playout operation gives up once the game is `after` decisions in, after doing its work."""
    game = interpreter.load(str(ROOT / path))
    game.program.make_playout_codes()
    rows = game.program.playout_codes
    made = [row[:] for row in rows]
    redone = []
    for after in (0, 1, 4, 30):
        def giving_up(op):
            def wrapper(st, fr, h=0):
                result = op(st, fr, h)
                if st.decisions >= after:
                    redone.append(st.decisions)
                    raise runtime_module.Redo
                return result
            return wrapper
        try:
            for row in rows:
                row[:] = map(giving_up, row)
            for seed in range(2):
                _ends_alike(game, game.min_players, seed)
        finally:
            for row, ops in zip(rows, made):
                row[:] = ops
    assert max(redone) >= 3  # undone after decisions drawn in place, not only at the first


_NUMBERS = '''game "Numbers to bid"
players 3
limit work_per_move BUDGET
var bid: int = 1
var turn: int = 0
var cap: int = 30
define seat_bonus(p: player) = number(p) + 1
define raises(p: player) =
    if bid > 4 then range(bid + 1, bid + cap)
    else [x for x in [bid + seat_bonus(p)] where x > 0]
define twice = [bid, bid, bid + 1]
define seated = [q for q in players where q != seat(turn % 3)]
define offers(p: player) =
    if bid % 2 == 0 then [x for x in [bid + 2] where x > 1]
    else if bid % 3 == 0 then range(1, 3)
    else [x for x in [bid + 3, bid + 5] where x > number(p)]
phase main {
    let p = seat(turn % 3)
    decide p "Bid" {
        raise(to from raises(p)) {
            set bid = to
        }
        echo(k from twice) {
            set bid += k % 3
        }
        pass_to(q from seated) {
            set bid -= 1
        }
        offer(k from offers(p)) {
            set bid += k % 4
        }
    }
    set turn += 1
    if turn > 40 or bid > 60 {
        end game
    }
    next main
}
'''


@pytest.mark.parametrize("budget", [12, 30, 1_000_000])
@pytest.mark.parametrize("faulting", [False, True], ids=["plain", "too-long"])
def test_binders_over_numbers_known_all_different(budget, faulting, tmp_path):
    """Binders over numbers or players that never_none.items_distinct knows all different (a
    range, a list of one, a comprehension keeping its variable over players, a choice between
    such lists) list their moves without texts to drop repeats, and the definitions giving
    them, more than 8 lines, are written in the listing; `twice` repeats a number, and
    `offers` may give a list of two computed numbers, so their alternatives still drop repeats.  The same moves, work and faults (a range over the
    length limit, written out in fast code) as the exact listing, the API and traced code."""
    text = _NUMBERS.replace("BUDGET", str(budget))
    if faulting:
        text = text.replace("var cap: int = 30", "var cap: int = 100001")
    path = tmp_path / "numbers.cardgame"
    path.write_text(text)
    game = interpreter.load(str(path))
    pick = next(s for s in game.program.compiler.gen.sources if s.startswith("def pick_"))
    assert pick.count(".text not in seen") == 2, pick  # `echo` and `offer`
    assert "D_raises_" not in pick and "D_offers_" not in pick, pick
    _lists_alike(game, range(12))
    outcomes = _outcomes_alike(game, budget)
    assert any(o.startswith("this needed more than") for o in outcomes) == (budget < 1_000_000), outcomes
    assert any(o.startswith("a list would hold") for o in outcomes) == (faulting and budget == 1_000_000), outcomes
    _plays_alike(path, seeds=range(4))


def test_a_shared_rule_of_constant_work_is_not_measured(tmp_path):
    """`owes(p)` on a definition written in place, which walks nothing: its test charges the
    call's 1 whatever the state, so the listing shares its result and charges that 1 again at
    each later use, without measuring it (gen_listings._constant_work); the exact listing's
    moves and work at every decision."""
    text = _SHARED.replace("BUDGET", "1000000").replace(
        "define cost(p: player) = count x in bag where x > owed[p]", "define cost(p: player) = owed[p] + 2")
    path = tmp_path / "constant.cardgame"
    path.write_text(text)
    game = interpreter.load(str(path))
    pick = next(s for s in game.program.compiler.gen.sources if s.startswith("def pick_"))
    shared = re.search(r"^\s*(rr\d+) = ", pick, re.M)
    assert shared and pick.count(shared.group(1)) >= 3, pick  # tested once, read by the other alternatives
    assert not re.search(r"= (?:st\.work|wk) - t\d+$", pick, re.M), pick
    _lists_alike(game, range(12))
    _plays_alike(path, seeds=range(4))


def test_a_playout_operation_going_round_a_loop_reads_the_state_lists_once_before_it():
    """The state's lists (zones, locations, visibility) are the game's for a whole call, so an
    operation looping over rounds reads them before the loop, not in every round (and the
    games are still those of the API: above)."""
    from cardgame.interpreter.codegen.text_passes import STATE_LISTS
    game = interpreter.load(str(ROOT / "games/bouncer.cardgame"))
    game.program.make_playout_codes()
    looping = [src.split("\n") for src in game.program.compiler.gen.sources
               if src.startswith("def playout") and "\n    while True:\n" in src]
    reading = [lines for lines in looping if any(line.strip() == STATE_LISTS for line in lines)]
    assert len(reading) >= 5
    for lines in reading:
        reads = [i for i, line in enumerate(lines) if line.strip() == STATE_LISTS]
        assert len(reads) == 1 and reads[0] < lines.index("    while True:"), lines[0]


def test_a_playout_asks_no_statement_whether_a_tracer_listens():
    """A playout has no tracer (play_random leaves such a game to the public path): of a
    statement's `if st.tracer is None: A else: B` it keeps A, nested ones too, of `if st.tracer
    is None and TEST:` the TEST, and nothing of a tracer's own block."""
    from cardgame.interpreter.codegen.text_passes import untraced
    lines = ["x = 1", "if st.tracer is None:", "    a()", "    if st.tracer is None:", "        b()",
             "    else:", "        c()", "else:", "    d()", "if st.tracer is not None:", "    e()", "f()"]
    assert untraced(lines) == ["x = 1", "a()", "b()", "f()"]
    assert untraced(["if y:", "    if st.tracer is None:", "        a()", "    else:", "        b()", "g()"]) == \
        ["if y:", "    a()", "g()"]
    assert untraced(["if st.tracer is None and n > 0:", "    a()"]) == ["if n > 0:", "    a()"]
    game = interpreter.load(str(ROOT / "games/bouncer.cardgame"))
    game.program.make_playout_codes()
    playouts = [src for src in game.program.compiler.gen.sources if src.startswith("def playout")]
    assert playouts and not any("st.tracer" in src for src in playouts)


# ---- a decision's cards drawn from (Gen.playout_drawer)

# One card binder, one alternative: a rule whose `when` is an `any` over the hand (false: the
# hand itself is drawn from), a rule cutting per candidate, no rule at all (the zone's own
# list), a hand that runs empty (no move), a rule that faults for one rank, listings that run
# out of budget part way.
_DRAWN = '''game "Drawn"
players 3
limit work_per_move BUDGET
deck standard in stock {
    ordered rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A
    suit: C, D, H, S
    name: rank suit
}
zone stock: shared hidden
zone hand: per player hidden
zone spare: per player hidden
zone pile: shared public
var led: symbol = none
var rounds: int = 0
define heavy(p: player) = count([x for x in stock where x.suit != H]) + rounds
rule follow(p: player, c: card) "Follow the led suit if you can."
    when led != none and any x in hand[p] where x.suit == led
    require c.suit == led
rule sized(p: player, c: card) "Not too heavy."
    when heavy(p) > 3
    require place(c.rank) + heavy(p) > 2
rule odd(c: card) "A rule that may fault."
    require 12 / (place(c.rank) - 99) != 5
phase deal {
    shuffle stock
    deal 5 from stock to hand of players
    deal 2 from stock to spare of players
    next trick
}
phase trick {
    set led = none
    set rounds += 1
    for p in players {
        decide p "Play" {
            play(c from hand[p]) requires follow(p, c), sized(p, c), odd(c) {
                move c to pile face up
                if led == none {
                    set led = c.suit
                }
            }
        }
        if not empty(spare[p]) or led == H {
            decide p "Drop" {
                drop(c from spare[p]) {
                    move c to pile
                }
            }
        }
    }
    if rounds > 4 {
        end game
    }
    next trick
}
score p: count(hand[p])
'''


@pytest.mark.parametrize("budget", [320, 335, 1_000_000])
@pytest.mark.parametrize("faulting", [False, True], ids=["plain", "faulting"])
def test_a_decision_drawn_from_its_cards_plays_as_the_api(budget, faulting, tmp_path):
    """A decision of one card binder drawn in place from the cards its listing keeps (the zone's
    own list where no rule cuts): the same moves, work, faults and ends as the API's, with
    hands that run empty (no move: the public path) and budgets running out in a listing."""
    text = _DRAWN.replace("BUDGET", str(budget))
    if faulting:
        text = text.replace("- 99)", "- 6)")
    path = tmp_path / "drawn.cardgame"
    path.write_text(text)
    game = interpreter.load(str(path))
    assert all(d.draw is not None for d in game.program.decisions)
    faults = set()
    for seed in range(12):
        state = game.new_game(players=3, seed=seed)
        agent = RandomAgent.for_game(seed)
        while not state.is_over and state.fault is None:
            decision, L = state.waiting, state.stack[-1][2]
            results = []
            for listing in (decision.pick, decision.draw):
                state.begin_work()
                try:
                    got = listing(state, L)
                    results.append(None if got is None else (list(got), state.work))
                except runtime_module.RUNTIME_FAULTS:
                    results.append(None)
            picked, drawn = results
            assert (picked and ([m.values[0] for m in picked[0]], picked[1])) == drawn, seed
            moves = state.legal_moves()
            if not moves:
                break
            try:
                state.apply(agent.choose(moves))
            except interpreter.GameFault:
                break
        played, _ = play_one(game, 3, seed, {}, max_decisions=MAX)
        api = _api_game(game, 3, seed, {})
        assert _outcome(played) == _outcome(api), seed  # a dead end too: the same fault, after the same moves
        if api.fault is not None and api.fault.message.startswith("this decision has no legal move"):
            faults.add("dead end")
            continue
        faults.add(played.fault.message.split(" (")[0] if played.fault else "finished")
    assert any(f.startswith("this needed more than") for f in faults) == (budget < 1_000_000), faults
    assert ("division by zero" in faults) == faulting, faults
    assert "dead end" in faults or budget == 320, faults


# Rules whose `when` ends with an `any` over the candidates' own zone testing the rule's
# `require` (Listings._rule_passes computes the kept candidates there): false by its guard, false
# by the `any`, true; such a rule after another (not the domain's own list any more); an `any`
# that is not the last of an `and` (left as written); two alternatives (a `pick` only); a guard
# variable that becomes none.
_ANY_RULES = '''game "Any rules"
players 3
limit work_per_move BUDGET
deck standard in stock {
    ordered rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A
    suit: C, D, H, S
    name: rank suit
}
zone stock: shared hidden
zone hand: per player hidden
zone pile: shared public
var led: symbol = none
var bar: int = 0
var avoid: symbol = H
rule follow(p: player, c: card) "Follow the led suit if you can."
    when led != none and any x in hand[p] where x.suit == led
    require c.suit == led
rule not_hearts(p: player, c: card) "No hearts while you have something else."
    when bar % 3 != 1 and any x in hand[p] where x.suit != avoid
    require c.suit != avoid
rule sevens(p: player, c: card) "Sevens first, or anything on a second bar."
    when (any x in hand[p] where x.rank == 7) or bar == 2
    require c.rank == 7
phase deal {
    shuffle stock
    deal 16 from stock to hand of players
    next trick
}
phase trick {
    set led = none
    for p in players {
        decide p "Play" {
            play(c from hand[p]) requires follow(p, c) {
                move c to pile face up
                if led == none {
                    set led = c.suit
                }
                set bar += 1
            }
        }
        decide p "Lay" {
            lay(c from hand[p]) requires not_hearts(p, c), follow(p, c) {
                move c to pile face up
            }
            hold { set avoid = led }
        }
        decide p "Seven" {
            seven(c from hand[p]) requires sevens(p, c) {
                move c to pile face up
            }
            skip { set bar += 2 }
        }
    }
    if any q in players where count(hand[q]) < 3 {
        end game
    }
    next trick
}
score p: count(hand[p])
'''


@pytest.mark.parametrize("budget", [300, 1_000_000])
def test_a_rule_whose_when_ends_with_its_require_as_any_lists_as_the_api(budget, tmp_path):
    """The kept candidates computed by the `when`'s `any` (follow suit), and by a card
    attribute's sets of cards: the same moves and work as the exact listing at every decision,
    and the same games, in the shapes they apply to and those they must leave as written (a
    guard variable none: no card's suit)."""
    path = tmp_path / "any_rules.cardgame"
    path.write_text(_ANY_RULES.replace("BUDGET", str(budget)))
    game = interpreter.load(str(path))
    listings = [s for s in game.program.compiler.gen.sources if s.startswith(("def pick_", "def draw_"))]
    assert sum(" != []" in s for s in listings) == 3, listings  # follow: pick and draw; not_hearts
    # the cards kept by a suit or a rank, by sets of cards (Listings._attr_filter): those four, the
    # last pass of `lay` and `seven`'s rank 7
    assert sum(s.count("[*") for s in listings) == 5, listings
    _lists_alike(game, range(8))
    assert _outcomes_alike(game, budget) == ({"finished"} if budget > 300 else {"finished", "this needed more than 300 units of work, the budget of one move"})


def test_a_shared_value_is_read_plainly_after_a_use_sure_to_run_before():
    """text_passes.shared_values_read_plain: the uses after the first one every call runs (a line
    of the function's own level, not behind `and`, `or`, a branch of a conditional expression or
    a later comparison) read the value without the `_UNSET` test; the first use of all
    computes it without the test either."""
    from cardgame.interpreter.codegen.text_passes import shared_values_read_plain
    use = "(dc1 if dc1 is not _UNSET else (dc1 := f(st, a)))"
    lines = ["dc1 = _UNSET", f"r = ({use} > 0)", "if r:", f"    x = {use} + 1", f"y = g({use})"]
    assert shared_values_read_plain(lines, ["dc1"]) == [
        "r = ((dc1 := f(st, a)) > 0)", "if r:", "    x = dc1 + 1", "y = g(dc1)"]
    # a first use inside a block, or behind `and`: nothing sure, nothing changed
    for first in (["if r:", f"    x = {use}"], [f"x = r and {use}"], [f"x = a if r else {use}"],
                  [f"x = 0 < r < {use}"], [f"x = [{use} for q in s]"], ["elif r:", f"    x = {use}"]):
        lines = ["dc1 = _UNSET", *first, "z = 1"]
        assert shared_values_read_plain(lines, ["dc1"]) == lines, first
    # a use that may have run before the sure one: that one keeps its test, the later ones read
    lines = ["dc1 = _UNSET", "if r:", f"    x = {use}", f"if {use} > 2:", f"    y = {use}", f"z = {use}"]
    assert shared_values_read_plain(lines, ["dc1"]) == [
        "dc1 = _UNSET", "if r:", f"    x = {use}", f"if {use} > 2:", "    y = dc1", "z = dc1"]


# A game that reaches a dead end (a decision waiting with no legal move) in each way a decision
# can offer nothing: rules that refuse every card, too few cards to choose several, an empty
# range, a simultaneous decision, the table; inside a procedure.  Cards leave the hands as the
# turns go, so the dead end comes at a different turn from seed to seed.
DEAD_END = """game "Dead end"
players 2
deck d in stock {{
    ordered rank: 1, 2, 3, 4, 5, 6
    suit: C, D, H
}}
zone stock: shared hidden
zone hand: per player owner
zone pile: shared public
var turns: int = 0
rule low(c: card) require c.rank < 4

procedure ask(p: player) {{
    {decide}
}}

phase main {{
    shuffle stock
    deal 4 from stock to hand of players
    next play
}}

phase play {{
    set turns += 1
    ask(seat(turns % 2))
    if turns > 12 {{
        end game
    }}
    next play
}}

score p: count(hand[p])
winners: highest score
"""
DEAD_ENDS = [
    "decide p \"Play\" {\n        play(c from hand[p]) requires low(c) {\n            move c to pile\n        }\n    }",
    "decide p \"Give\" {\n        give(cs from 3 of hand[p]) {\n            move top(hand[p]) to pile\n        }\n    }",
    "decide p \"Bid\" {\n        bid(n in 2..count(hand[p])) {\n            move top(hand[p]) to pile\n        }\n    }",
    "simultaneously for q in players {\n        decide q \"Bid\" {\n            bid(n in 2..count(hand[q]))\n"
    "        }\n    }\n    move top(hand[p]) to pile",
    "decide table \"Who?\" {\n        pick(q from [x for x in players where count(hand[x]) > 2]) {\n"
    "            move top(hand[q]) to pile\n        }\n    }",
]


@pytest.mark.parametrize("decide", DEAD_ENDS, ids=["rules", "several", "range", "simultaneous", "table"])
def test_a_dead_end_faults_a_playout_as_it_faults_an_api_game(decide, tmp_path):
    """A playout that reaches a decision with no legal move gives it up to the public path,
    which lists it first: the game must fault there as the API loop's `legal_moves()` faults it
    (it stopped without a fault), with the same fault, state, work, decisions and scores."""
    path = tmp_path / "dead_end.cardgame"
    path.write_text(DEAD_END.format(decide=decide))
    game = interpreter.load(str(path))
    dead = 0
    for seed in range(12):
        message = _ends_alike(game, 2, seed)
        played, finished = play_one(game, 2, seed, {}, max_decisions=MAX)
        assert _outcome(played) == _outcome(_api_game(game, 2, seed, {}))
        assert finished or played.fault is not None
        if message is not None:
            assert message == "this decision has no legal move, so the game cannot go on"
            assert played.fault.span.line == 14 + decide.startswith("simultaneously") and not played.is_over and played.legal_moves() == []
            dead += 1
    assert dead > 0
