"""A new game nobody watches is a copy of the game run once to its first draw (Game._from_opening):
it must be the very game `new_game` plays straight through, whatever the seed, options and budget."""

from __future__ import annotations

import pytest

from cardgame import interpreter
from helpers import GAMES, ROOT
from cardgame.interpreter.studies.agents import RandomAgent
from cardgame.interpreter.engine.game import pause_kinds

SCRIPTS = sorted(GAMES.glob("*.cardgame")) + sorted((ROOT / "tests" / "scripts").glob("*.cardgame")) + \
    sorted((ROOT / "bench" / "scripts").glob("*.cardgame"))


def _straight(game, players, seed, options, budget):
    """The game started the long way: set up from nothing, not copied."""
    return game._started(players, seed, game.read_options(options), budget, None, False, pause_kinds(()))


def _played(state, seed):
    agent = RandomAgent.for_game(seed)
    while not state.is_over and state.fault is None and state.decisions < 300:
        state.apply(agent.choose(state.legal_moves()))
    return state.to_json(), state.game_work, state.fault and (state.fault.message, state.fault.span)


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_a_copied_opening_is_the_game_started_straight(path):
    try:
        game = interpreter.load(str(path))
    except interpreter.ScriptError:
        pytest.skip("an include outside the folder the tests read it from")
    budget = game.budget()
    for players in sorted({game.min_players, game.max_players}):
        for seed in (0, 1, 7):
            copied = game.new_game(players=players, seed=seed)
            straight = _straight(game, players, seed, {}, budget)
            assert copied.to_json() == straight.to_json() and copied.game_work == straight.game_work
            assert _played(copied, seed) == _played(straight, seed)


def test_each_option_set_and_budget_has_its_own_opening():
    game = interpreter.load(str(GAMES / "bosspoker.cardgame"))
    for options in ({}, {"raises": "by_ante"}):
        for max_game_work in (None, 1_000, 2_000):  # the set-up takes 2,173 units: these fault in it
            copied = game.new_game(players=4, seed=3, options=options, max_game_work=max_game_work)
            straight = _straight(game, 4, 3, options, game.budget(None, max_game_work))
            assert copied.to_json() == straight.to_json()
            assert (copied.fault and copied.fault.message) == (straight.fault and straight.fault.message)
    assert game.new_game(players=4, max_game_work=2_000).fault is not None


def test_a_game_played_on_leaves_the_next_copy_untouched():
    game = interpreter.load(str(GAMES / "bosspoker.cardgame"))
    first = game.new_game(players=4, seed=5).to_json()
    _played(game.new_game(players=4, seed=5), 5)
    assert game.new_game(players=4, seed=5).to_json() == first
