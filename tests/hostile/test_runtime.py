"""Hostile scripts that load and then try to hang or exhaust the machine while playing: each
ends in a fault with its diagnostic, at once, through `cardgame play` and the API alike (a text
included: a log line's or a prompt's parts are the game's work and faults)."""

from __future__ import annotations

import json

import pytest

from cardgame import interpreter
from conftest import SCRIPTS

RUNTIME = {
    "deal_to_nobody": "units of work",
    "deal_own_source": "units of work",
    "binder_computed": "units of work",
    "range_in_range": "units of work",
    "chained_defines": "units of work",
    "busy_moves": "the game used up its work budget of 5,000,000 units",
    "sum_overflow": "a number grew beyond the limit",
    "winners_fault": "division by zero",
    # texts are work like any other, and their faults the game's (test_text_work.py)
    "log_doubling": "units of work",
    "log_range_in_range": "units of work",
    "log_recursion": "called itself more than 200 deep",
    "log_big_list": "a text grew beyond 10000 characters",
    "prompt_doubling": "units of work",
}


@pytest.mark.parametrize("name", sorted(RUNTIME))
def test_play_ends_in_the_fault(cli, name):
    out = cli("play", SCRIPTS / f"{name}.cardgame").diagnosed("R0001")
    assert RUNTIME[name] in out.err


@pytest.mark.parametrize("name", sorted(RUNTIME))
def test_simulate_counts_the_game_unfinished(cli, name):
    out = cli("simulate", SCRIPTS / f"{name}.cardgame", "-n", "2", "--json")
    assert out.code == 1 and "Traceback" not in out.err  # 1: a game faulted
    stats = json.loads(out.out)
    assert stats["unfinished"] == stats["outcomes"]["faulted"] == 2


def test_a_log_line_past_the_text_limit_is_refused_before_it_is_made(cli):
    # made whether anyone listens or not: `play` and `simulate` end the same game at its first line
    out = cli("play", SCRIPTS / "log_big_list.cardgame").diagnosed("R0001")
    assert "{...}" not in out.out and "log \"{l}\"" in out.err


def test_a_game_may_raise_its_own_budget_and_a_user_may_lower_it(cli, tmp_path):
    script = (SCRIPTS / "busy_moves.cardgame").read_text()
    raised = tmp_path / "raised.cardgame"
    raised.write_text(script.replace('players 2\n', 'players 2\nlimit work_per_game 2000000000\n')
                      .replace("loop {", "repeat 8 times {").replace("            end game\n", "            log \"x\"\n")
                      .rstrip("}\n") + "\n    }\n    end game\n}\n")
    game = interpreter.load(str(raised))
    assert game.budget() == (interpreter.limits.MAX_WORK_PER_MOVE, 2_000_000_000)
    state = game.new_game()
    for _ in range(8):
        state.apply(state.legal_moves()[0])
    assert state.is_over and state.fault is None and state.game_work > interpreter.limits.MAX_WORK_PER_GAME
    out = cli("play", raised, "--max-game-work", "3000000").diagnosed("R0001")
    assert "work budget of 3,000,000" in out.err
    out = cli("play", raised, "--max-work", "50000000000")
    assert out.code == 2 and "[E0903]" in out.err


def test_a_limit_past_the_hard_cap_is_refused(cli, tmp_path):
    greedy = tmp_path / "greedy.cardgame"
    greedy.write_text((SCRIPTS / "sum_overflow.cardgame").read_text()
                      .replace("players 2\n", "players 2\nlimit work_per_move 900000000000\nlimit steps 3\n"))
    out = cli("check", greedy).diagnosed("E0316")
    assert out.err.count("[E0316]") == 2


def test_the_budget_is_checked_in_the_api():
    game = interpreter.load(str(SCRIPTS / "sum_overflow.cardgame"))
    for bad in (0, -1, True, "many", interpreter.limits.HARD_MAX_WORK_PER_MOVE + 1):
        with pytest.raises(interpreter.ScriptError) as err:
            game.new_game(max_work=bad)
        assert err.value.diagnostics[0].code == "E0705"


def test_sum_past_the_limit_leaves_a_state_that_saves():
    game = interpreter.load(str(SCRIPTS / "sum_overflow.cardgame"))
    state = game.new_game(tracer=lambda event: None)
    with pytest.raises(interpreter.GameFault):
        state.apply("go")
    json.dumps(state.to_json())  # every number in it stays within 2^62


def test_winners_that_fault_raise_game_fault():
    game = interpreter.load(str(SCRIPTS / "winners_fault.cardgame"))
    state = game.new_game()
    state.apply("go")
    assert state.is_over
    with pytest.raises(interpreter.GameFault) as err:
        state.winners
    assert "division by zero" in str(err.value)


def test_a_view_for_a_seat_not_at_the_table_is_refused():
    state = interpreter.load(str(SCRIPTS / "sum_overflow.cardgame")).new_game()
    for seat in (-1, 2, "P1", 1.0, True):
        with pytest.raises(interpreter.ScriptError) as err:
            state.view(seat)
        assert err.value.diagnostics[0].code == "E0707"
    assert state.view(1)["viewer"] == "P1" and state.view()["viewer"] == "spectator"


def test_a_tracer_that_raises_faults_the_game_with_r0003():
    game = interpreter.load(str(SCRIPTS / "sum_overflow.cardgame"))

    def broken(event):
        raise KeyError("boom")
    state = game.new_game(tracer=broken)  # set-up emits no event here
    with pytest.raises(interpreter.GameFault) as err:
        state.apply("go")
    assert state.fault.code == "R0003" and "KeyError" in str(err.value)
    with pytest.raises(interpreter.GameFault):
        state.apply("go")


def test_evaluate_of_code_python_cannot_compile_is_a_diagnostic():
    state = interpreter.load(str(SCRIPTS / "sum_overflow.cardgame")).new_game()
    value, diags = state.evaluate("[sum(" * 25 + "[1]" + ")]" * 25)
    assert value is None and diags[0].code == "R0002"


def test_a_script_python_cannot_compile_is_refused_by_check_and_play_alike(cli, tmp_path, monkeypatch):
    deep = tmp_path / "deep.cardgame"
    deep.write_text((SCRIPTS / "sum_overflow.cardgame").read_text()
                    .replace("sum([4000000000000000000, 4000000000000000000])", "count(" + "[sum(" * 25 + "[1]" + ")]" * 25 + ")"))
    place = f"{deep}:"
    checked = cli("check", deep).diagnosed("E0140")
    played = cli("play", deep).diagnosed("E0140")
    assert place in checked.err and checked.err.split(place)[1].split()[0] == played.err.split(place)[1].split()[0]
    # were check's count wrong, play would still end in a clear E0608, never a traceback
    from cardgame.interpreter.language import nesting
    monkeypatch.setattr(nesting, "too_deep", lambda *args: [])
    cli("play", deep).diagnosed("E0608")
