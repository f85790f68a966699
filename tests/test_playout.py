"""The playout loop (`interpreter.playout`, what `simulate` runs) plays exactly the games the
public API plays: the same moves, the same state after the game, the same scores, winners and
faults, and the agent's generator ends in the same place, on every shipped game, test script
and complete docs example."""

from __future__ import annotations

import json

import pytest

import interpreter
from interpreter.agents import RandomAgent
from interpreter.rng import derive
from interpreter.simulate import play_one

from helpers import play_out
from test_codegen import DOC_SCRIPTS, ROOT, SCRIPTS, _plays_alike

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
    assert interpreter.playout.play_random(state, RandomAgent.for_game(5).rng, MAX) is None
    assert state.is_over or state.decisions == MAX


def _listing(moves):
    return [moves[i].text for i in range(len(moves))]


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
            except interpreter.runtime.RUNTIME_FAULTS:
                picked = None
            state.begin_work()
            try:
                exact = (_listing(decision.fast(state, L)), state.work)
            except interpreter.runtime.RUNTIME_FAULTS:
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
    outcomes = set()
    for seed in range(12):
        played, _ = play_one(game, 3, seed, {}, max_decisions=MAX)
        assert _outcome(played) == _outcome(_api_game(game, 3, seed, {})), (budget, seed)
        outcomes.add(played.fault.message.split(" (")[0] if played.fault else "finished")
    assert any(o.startswith("this needed more than") for o in outcomes) == (budget < 1_000_000), outcomes
    assert ("division by zero" in outcomes) == (faulting and budget > 100), outcomes
    _plays_alike(path, seeds=range(4))
