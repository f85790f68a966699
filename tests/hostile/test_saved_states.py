"""Hostile saved states: restore() checks every field against the compiled program and refuses
a damaged one with E0801 naming the field; a genuine one comes back exactly."""

from __future__ import annotations

import copy
import json

import pytest

from cardgame import interpreter
from helpers import GAMES

GAME = interpreter.load(str(GAMES / "booray.cardgame"))
SLOT = {name: GAME.program.var_slots[name] for name in GAME.program.tables.vars}


def genuine():
    state = GAME.new_game(players=4, seed=1)  # waiting in `new_hand`
    return state, state.to_json()


def refused(data, field: str):
    with pytest.raises(interpreter.ScriptError) as err:
        GAME.restore(data)
    diag = err.value.diagnostics[0]
    assert diag.code == "E0801" and f"`{field}" in diag.message, diag.message  # the field, or inside it
    return diag.message


@pytest.mark.parametrize("value", [7, -1, "P1", True, 1.0, None.__class__.__name__])
def test_a_player_variable_out_of_range_or_of_the_wrong_kind(value):
    _, data = genuine()
    data["vars"][SLOT["dealer"]] = value
    refused(data, f"vars[{SLOT['dealer']}]")


@pytest.mark.parametrize("value", ["abc", 2 ** 62 + 1, 1.5, [1], True])
def test_an_int_variable_that_is_not_a_number_within_the_limit(value):
    _, data = genuine()
    data["vars"][SLOT["pot"]] = value
    refused(data, f"vars[{SLOT['pot']}]")


def test_a_per_player_variable_with_a_seat_of_the_wrong_kind():
    _, data = genuine()
    data["vars"][SLOT["money"]][2] = "lots"
    refused(data, f"vars[{SLOT['money']}][2]")


def test_a_decision_waiting_in_another_phase():
    state, data = genuine()
    assert state.phase == "new_hand"
    trick = next(d.index for d in GAME.program.decisions
                 if GAME.program.code_info[d.code].name != "new_hand")
    data["waiting"] = trick
    message = refused(data, "waiting")
    assert "not at the top frame's place" in message


def test_ten_thousand_stack_frames():
    _, data = genuine()
    data["stack"] = data["stack"] * 10_000
    refused(data, "stack")


def test_a_110_mb_history():
    _, data = genuine()
    data["history"] = ["play 2C" * 1_000] * 16_000  # 7,000 characters a move, 110 MB in all
    data["decisions"] = len(data["history"])
    refused(data, "history[0]")
    data["history"] = ["pass"] * 200_000
    data["decisions"] = len(data["history"])
    refused(data, "history")


def test_infinity_and_other_numbers_json_can_hold():
    _, data = genuine()
    for field in ("rng", "seed", "decisions", "work"):
        for value in (float("inf"), float("nan"), 1e300, -1):
            bad = copy.deepcopy(data)
            bad[field] = value
            refused(bad, field)
    bad = copy.deepcopy(data)
    bad["seed"] = 2**64  # the generator's state is 64 bits: it would replay seed 0's game
    refused(bad, "seed")


def test_a_900_deep_list_in_a_saved_variable():
    _, data = genuine()
    deep = []
    for _ in range(900):
        deep = [deep]
    data["vars"][SLOT["pot"]] = deep
    refused(data, f"vars[{SLOT['pot']}]")
    local = copy.deepcopy(genuine()[1])
    local["stack"][0][2][0] = deep
    refused(local, "stack[0][2][0]")


def test_fields_missing_extra_or_of_the_wrong_kind():
    _, data = genuine()
    for field in ("zones", "visibility", "budget", "over", "actor", "options"):
        bad = copy.deepcopy(data)
        del bad[field]
        refused(bad, field)
    bad = dict(data, surprise=1)
    refused(bad, "surprise")
    refused(dict(data, over="no"), "over")
    refused(dict(data, actor=9), "actor")
    refused(dict(data, budget=[0, 5]), "budget[0]")
    refused(dict(data, visibility=[1 << 40] + data["visibility"][1:]), "visibility[0]")
    refused(dict(data, options={"stake": "lots"}), "options")


def test_every_card_once():
    _, data = genuine()
    bad = copy.deepcopy(data)
    bad["zones"][0].append(bad["zones"][0][0])
    refused(bad, f"zones[0][{len(data['zones'][0])}]")
    bad = copy.deepcopy(data)
    bad["zones"][0][0] = True
    refused(bad, "zones[0][0]")


def test_a_genuine_state_comes_back_exactly():
    state, data = genuine()
    for _ in range(30):
        text = json.loads(json.dumps(state.to_json()))
        restored = GAME.restore(text)
        assert restored.to_json() == state.to_json()
        assert [m.text for m in restored.legal_moves()] == [m.text for m in state.legal_moves()]
        move = state.legal_moves()[0]
        state.apply(move)
        restored.apply(move.text)
        assert restored.to_json() == state.to_json()


def test_another_seat_to_act_than_the_decision_asks():
    state, data = genuine()
    assert state.waiting.kind == "normal" and state.current_player in range(4)
    data["actor"] = (state.current_player + 1) % 4
    assert "another seat" in refused(data, "actor")


def _during_a_simultaneous_decision():
    """Boo Ray 5p, seed 102, after 24 moves: the table's go_on/stop commitments are half collected."""
    state = GAME.new_game(players=5, seed=102)
    agent = interpreter.RandomAgent(102)
    for _ in range(24):
        state.apply(agent.choose(state.legal_moves()))
    assert state.waiting.kind == "deferred"
    collected = state.waiting.frame_slots[2]
    data = json.loads(json.dumps(state.to_json()))
    assert data["stack"][0][2][collected]  # some moves are committed already
    return state, data, collected


@pytest.mark.parametrize("where, value, says", [
    (1, None, "not a whole number from 0 to 1"),  # the alternative the move chose
    (1, 2, "not a whole number from 0 to 1"),
    (0, 9, "not a seat from 0 to 4"),
    (2, [0], "has 1 entries where this game has 0"),  # go_on and stop have no values
])
def test_a_damaged_commitment_of_a_simultaneous_decision(where, value, says):
    state, data, collected = _during_a_simultaneous_decision()
    data["stack"][0][2][collected][0][where] = value
    assert says in refused(data, f"stack[0][2][{collected}][0][{where}]")
    _, genuine_data, _ = _during_a_simultaneous_decision()
    restored = GAME.restore(genuine_data)
    assert restored.to_json() == state.to_json()
    move = restored.legal_moves()[0].text
    restored.apply(move)
    state.apply(move)
    assert restored.to_json() == state.to_json()


@pytest.mark.parametrize("value, says", [(None, "is none, which no move offers"), (999, "not a card number")])
def test_a_committed_card_that_no_move_offers(value, says):
    game = interpreter.load(str(GAMES / "bosspoker.cardgame"))
    state = game.new_game(players=4, seed=1)
    assert state.waiting.kind == "deferred"  # everyone commits a number card at once
    state.apply(state.legal_moves()[0])
    collected = state.waiting.frame_slots[2]
    data = json.loads(json.dumps(state.to_json()))
    entry = data["stack"][-1][2][collected][0]
    assert entry[2] and type(entry[2][0]) is int  # the committed card
    entry[2][0] = value
    with pytest.raises(interpreter.ScriptError) as err:
        game.restore(data)
    assert says in err.value.diagnostics[0].message
