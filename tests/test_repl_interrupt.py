"""Ctrl-C at the REPL, a real SIGINT through prompt-toolkit: during `auto end` the move in hand is
made, shown and counted; `step N` and a pasted block stop between two steps or lines; any other
command is interrupted and the prompt goes on."""

from __future__ import annotations

import signal

from prompt_toolkit import PromptSession
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from cardgame.repl.app import interact
from cardgame.repl.session import Session

from helpers import bouncer


def _ctrl_c_at_move(session: Session, monkeypatch, at: int):
    """Ctrl-C (a real SIGINT) while the agent chooses move number `at` of a run."""
    real, calls = session._agent_move, []

    def choose(st, *args):
        calls.append(1)
        if len(calls) == at:
            signal.raise_signal(signal.SIGINT)
        return real(st, *args)
    monkeypatch.setattr(session, "_agent_move", choose)


def _interact(session: Session, *lines: str) -> list[str]:
    outputs = []
    with create_pipe_input() as pipe:
        prompt = PromptSession(input=pipe, output=DummyOutput())
        for line in lines:
            pipe.send_text(line + "\r")
        pipe.send_text("\x04")
        assert interact(session, prompt, output=outputs.append) == 0
    return outputs


def test_ctrl_c_during_auto_stops_after_the_move_in_hand_and_shows_every_move(monkeypatch):
    s = bouncer()
    _ctrl_c_at_move(s, monkeypatch, 5)
    out = "\n".join(_interact(s, "auto end"))  # each move printed as it was made
    lines = out.split("\n")
    assert [line.split(".")[0] for line in lines if line[:1].isdigit()] == ["1", "2", "3", "4", "5"]
    assert "auto stopped after 5 moves: interrupted (Ctrl-C)" in lines
    assert lines[-1].startswith("step 5, ") and s.step == 5 and len(s.state.history) == 5


def test_ctrl_c_during_step_n_stops_it_between_two_steps(monkeypatch):
    s = bouncer()
    _ctrl_c_at_move(s, monkeypatch, 3)
    out = "\n".join(_interact(s, "step 10"))
    assert "stopped after 3 steps of 10: interrupted (Ctrl-C)" in out
    assert s.step == 3 and out.count(": play ") == 3


def test_ctrl_c_in_a_pasted_block_stops_the_block_after_the_interrupted_line(monkeypatch):
    s = bouncer()
    _ctrl_c_at_move(s, monkeypatch, 2)
    out = "\n".join(_interact(s, "\x1b[200~auto end\nplay 1\nlog\x1b[201~"))
    assert "auto stopped after 2 moves: interrupted (Ctrl-C)" in out
    assert out.endswith("stopped at line 1 of the pasted block (Ctrl-C); 2 lines not run")
    assert s.step == 2


def test_ctrl_c_outside_a_run_of_moves_interrupts_the_command_and_the_prompt_goes_on(monkeypatch):
    s = bouncer()
    monkeypatch.setattr(s, "_cmd_moves", lambda rest: signal.raise_signal(signal.SIGINT))
    outputs = _interact(s, "moves", "play 1")
    assert outputs == ["interrupted; nothing more was done", "1. P0: play 9D"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored after each command
