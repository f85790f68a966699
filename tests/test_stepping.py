"""Stepping through chance: a game asked to pause stops before each draw and at each phase's
start, and is the very game run straight through (docs/language.md §22)."""

from __future__ import annotations

import pytest

from cardgame import interpreter
from cardgame.interpreter import GameFault, IllegalMove, RandomAgent, ScriptError
from cardgame.interpreter.machine.runtime import PAUSES

from helpers import PLAYED_SCRIPTS, ROOT, load_script

SCRIPTS = PLAYED_SCRIPTS
RACE = ROOT / "tests" / "scripts" / "dice_race.cardgame"
MAX_DECISIONS = 150


def _played(state, agent_seed: int, on_pause=None):
    """`state` played by a random agent to its end (or MAX_DECISIONS), every pause stepped
    through; `on_pause(state)` may hand back the state to go on with (a restored copy)."""
    agent = RandomAgent(agent_seed)
    while state.fault is None and not state.is_over:
        if state.paused:
            if on_pause is not None:
                state = on_pause(state)
            state.step()
            continue
        if state.decisions >= MAX_DECISIONS:
            break
        moves = state.legal_moves()
        if not moves:
            break
        try:
            state.apply(agent.choose(moves))
        except GameFault:
            break
    return state


def _seen(state) -> list:
    return [(v, [(e.kind, e.text, e.step) for e in state.observed_events(v)]) for v in ["all", None, *range(state.n)]]


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_stepped_games_are_the_games_run_straight_through(path):
    game = interpreter.load(str(path))
    for seed in (1, 2):
        straight = _played(game.new_game(seed=seed, record=True), seed)
        pauses = []

        def round_trip(state):
            saved = state.to_json()
            restored = game.restore(saved)
            assert restored.to_json() == saved and restored.paused == state.paused
            pauses.append(state.paused)
            restored.pause_at, restored.journal = state.pause_at, state.journal
            restored.set_tracer(None)
            return restored

        stepped = _played(game.new_game(seed=seed, record=True, pause_at=PAUSES), seed, round_trip)
        assert stepped.to_json() == straight.to_json()
        assert _seen(stepped) == _seen(straight)  # what each seat saw, step by step, is the same
        assert pauses[0] == "phase" and pauses.count("phase") >= 1
        by_phase = _played(game.new_game(seed=seed, pause_at="phase"), seed)
        assert by_phase.to_json() == straight.to_json()


def test_pause_points_of_the_dice_race():
    game = interpreter.load(str(RACE))
    state = game.new_game(seed=3, pause_at=PAUSES)
    assert (state.paused, state.phase, state.is_over, state.current_player) == ("phase", "round", False, None)
    assert state.legal_moves() == [] and state.next_statement.line == 13  # set rounds = rounds + 1
    state.step()
    assert state.paused == "chance" and state.next_statement.line == 15  # let roll = random(1, 6)
    state.step()  # P0's roll, and its effects up to P1's roll
    square = state.vars[game.program.var_slots["square"]]
    assert state.paused == "chance" and square[0] > 0 and square[1] == 0
    stops = []
    while state.paused:
        stops.append((state.paused, state.next_statement.line))
        state.step()
    assert state.is_over and state.fault is None
    assert set(stops) == {("chance", 15), ("phase", 13)}
    assert state.to_json() == game.new_game(seed=3).to_json()


def test_war_keeps_every_card_through_each_pause_and_ends_as_play_does():
    game = load_script("war.cardgame")
    stepped = game.new_game(seed=1, pause_at=("chance", "phase"))
    pauses = 0
    while not stepped.is_over:
        assert stepped.paused in ("chance", "phase") and not stepped.legal_moves()
        assert sum(len(z) for z in stepped.zones) == 52
        stepped.step()
        pauses += 1
    straight = game.new_game(seed=1)
    assert straight.is_over and straight.legal_moves() == []
    assert stepped.scores == straight.scores and stepped.capped == straight.capped
    assert pauses > 100  # two pause points a round at least: the phase start and the pot's shuffle


def test_a_step_shows_what_each_view_observed_in_it():
    game = interpreter.load(str(RACE))
    state = game.new_game(seed=3, pause_at="chance", record=True)  # before P0's first roll
    assert [e.text for e in state.observed_events()] == ["set rounds = 1"]
    state.step()
    texts = [e.text for e in state.observed_events()[1:]]
    assert texts == ["chance: drew 1", "set square[P0] = 1", "P0 rolls 1 and reaches 1"]
    assert [e.text for e in state.observed_events(None)[1:]] == texts  # nothing here is hidden


def test_a_restored_pause_rebuilds_its_log_to_that_point():
    game = interpreter.load(str(RACE))
    state = game.new_game(seed=5, pause_at=PAUSES, record=True)
    for _ in range(7):
        state.step()
    restored = game.restore(state.to_json())  # no log kept: it is replayed from the seed
    assert _seen(restored) == _seen(state)


def test_a_long_game_without_decisions_has_the_games_budget_not_a_moves():
    game = interpreter.load(str(RACE))
    state = game.new_game(seed=1, options={"finish": 150_000})
    rounds = state.vars[game.program.var_slots["rounds"]]
    assert state.is_over and state.fault is None and rounds > 40_000
    assert interpreter.limits.MAX_WORK_PER_MOVE < state.game_work <= interpreter.limits.MAX_WORK_PER_GAME
    short = game.new_game(seed=1, options={"finish": 150_000}, max_game_work=1_000_000)
    assert short.fault.message == "the game used up its work budget of 1,000,000 units"
    stepped = game.new_game(seed=1, options={"finish": 150_000}, max_game_work=1_000_000, pause_at="phase")
    with pytest.raises(GameFault):
        while stepped.paused:
            stepped.step()
    assert stepped.fault == short.fault and stepped.to_json() == short.to_json()


def test_stepping_to_a_kind_and_running_through():
    game = interpreter.load(str(RACE))
    state = game.new_game(seed=3, pause_at=PAUSES)
    state.step(until="phase")
    assert state.paused == "phase" and state.pause_at == frozenset(PAUSES)
    state.step(until=())
    assert state.is_over and state.to_json() == game.new_game(seed=3).to_json()


def test_pausing_inside_a_move_of_a_game_with_decisions():
    game = interpreter.load(str(ROOT / "tests" / "scripts" / "random_dealer.cardgame"))
    state = game.new_game(seed=4, pause_at="chance")
    assert state.paused == "chance" and state.next_statement.line == 10  # set dealer = random(players)
    with pytest.raises(IllegalMove) as err:
        state.apply("keep")
    assert "the game is paused (chance)" in str(err.value)
    while state.paused:
        state.step()
    assert state.current_player is not None
    state.apply("reroll")
    assert state.paused == "chance" and state.next_statement.line == 16  # the reroll's draw
    assert game.restore(state.to_json()).to_json() == state.to_json()


def test_wrong_pause_points_and_steps_are_diagnosed():
    game = interpreter.load(str(RACE))
    with pytest.raises(ScriptError) as err:
        game.new_game(pause_at="turn")
    assert err.value.diagnostics[0].code == "E0711" and '"chance" and "phase"' in err.value.diagnostics[0].hint
    over = game.new_game(seed=1)
    with pytest.raises(ScriptError) as err:
        over.step()
    assert err.value.diagnostics[0].code == "E0712" and "is over" in err.value.diagnostics[0].message


def test_restore_refuses_a_pause_where_there_is_none():
    game = interpreter.load(str(RACE))
    state = game.new_game(seed=3, pause_at=PAUSES)
    state.step()
    data = state.to_json()
    assert data["paused"][0] == "chance"
    for paused, field in ((["phase", 0], "paused"), (["turn", 0], "paused[0]"), (["chance", -1], "paused[1]")):
        with pytest.raises(ScriptError) as err:
            game.restore(dict(data, paused=paused))
        assert f"`{field}`" in err.value.diagnostics[0].message
