"""The REPL steps a game through chance: `step`, `step N`, `step phase`, `run` and `pause`, typed
as a person types them, on a game of pure chance and on games with decisions."""

from __future__ import annotations

import json

from cardgame import interpreter
from cardgame.repl.cli import main
from cardgame.repl.session import Session

from helpers import GAMES, ROOT, line_of

RACE = str(ROOT / "tests" / "scripts" / "dice_race.cardgame")
DEALER = str(ROOT / "tests" / "scripts" / "random_dealer.cardgame")
BOUNCER = str(GAMES / "bouncer.cardgame")


def _session(path: str, seed: int) -> tuple[Session, str]:
    s = Session()
    return s, s.start(path, seed=seed)


def test_a_game_of_pure_chance_is_stepped_a_draw_or_a_phase_at_a_time():
    s, out = _session(RACE, 3)
    assert out.splitlines()[-1] == "step 0, phase round, paused at the start of phase round"
    assert s.prompt_text() == "dice_race 0 paused [all]> "
    assert s.execute("step").splitlines() == [
        f"    set rounds = 1  [{RACE}:13]",
        f"step 1, phase round, paused before a chance event: let roll = random(1, 6)  [{RACE}:15]"]
    assert s.execute("step").splitlines() == [
        f"    chance: drew 1  [{RACE}:15]", f"    set square[P0] = 1  [{RACE}:16]", "    P0 rolls 1 and reaches 1",
        f"step 2, phase round, paused before a chance event: let roll = random(1, 6)  [{RACE}:15]"]
    assert s.execute("step phase").splitlines()[-2:] == [
        f"    phase round  [{RACE}:22]", "step 3, phase round, paused at the start of phase round"]
    assert s.execute("step 10").splitlines()[-1].startswith("step 13, phase round, paused")
    out = s.execute("run").splitlines()
    assert out[-1] == "step 14, phase -, game over, scores P0 19, P1 30, winners P1"
    assert all("rolls" in line for line in out[:-1])  # only the log lines, without `trace on`
    assert s.state.to_json() == interpreter.load(RACE).new_game(seed=3).to_json()  # the game run through
    assert s.execute("log") == "no moves: the game ended without a decision"


def test_paused_positions_are_a_timeline():
    s, _ = _session(RACE, 3)
    s.execute("step 4")
    assert s.execute("undo 2").splitlines()[0] == "undid 2 steps"
    assert s.execute("redo").splitlines()[0] == "redid a step"
    assert s.execute("goto 0") == "step 0, phase round, paused at the start of phase round"
    assert s.execute("step 3").splitlines()[-1] == "step 3, phase round, paused at the start of phase round"
    assert s.execute("log") == "no moves yet"


def test_no_decision_while_paused():
    s, _ = _session(RACE, 3)
    assert s.execute("moves").splitlines() == [
        "no decision yet: the game is paused at the start of phase round",
        "  = help: `step` goes on to the next pause point, `run` to the next decision"]
    assert s.execute("play 1").startswith("error: no decision yet: the game is paused")
    assert s.execute("state").splitlines()[:2] == [
        "Dice race · step 0 · phase round · view all · scores P0 0, P1 0", "paused at the start of phase round"]
    s.execute("run")
    assert s.execute("run").splitlines() == [
        "error: nothing to run: the game is over, not paused", "  = help: `auto` plays moves; `step` makes one"]
    assert s.execute("step").startswith("error: the game is over")
    assert s.execute("step two").startswith("error: usage: step [N|phase]")


def test_pause_chooses_where_a_game_with_decisions_stops():
    s, out = _session(DEALER, 3)
    assert out.splitlines()[-1] == "step 0, phase main, P0 to act: Keep the rolls?"  # no pauses by default
    assert s.execute("pause") == ("the game pauses nowhere between decisions (`pause all` stops it at draws "
                                  "and phases)")
    assert s.execute("pause chance").startswith("the game pauses before each chance event")
    assert s.execute("new").splitlines()[-1] == (
        f"step 0, phase main, paused before a chance event: set dealer = random(players)  [{DEALER}:10]")
    assert s.execute("step").splitlines()[0] == f"    chance: drew P0  [{DEALER}:10]"
    assert s.execute("step").splitlines()[-1] == "step 2, phase main, P0 to act: Keep the rolls?"
    assert s.execute("step phase").startswith("error: P0 is to act: `step phase` goes on from a pause point")
    out = s.execute("play reroll").splitlines()
    assert out[0] == "1. P0: reroll" and out[-1].startswith("step 3, phase main, paused before a chance event")
    assert s.execute("pause bogus").startswith("error: usage: pause")
    out = s.execute("auto").splitlines()  # auto runs through the pauses
    assert out[-2:] == ["auto ran on from the pause point with no move to make and stopped: the game is over",
                        "step 4, phase -, game over, scores P0 32, P1 4, P2 1, winners P0"]


def test_a_step_shows_what_the_view_saw():
    s, _ = _session(BOUNCER, 1)
    s.execute("pause all")
    s.execute("new")
    s.execute("view P1")
    lines = []
    for _ in range(4):
        lines += s.execute("step").splitlines()
    assert f"    deal 13 cards to each of P0, P1, P2 (hand)  [{BOUNCER}:{line_of('bouncer.cardgame', 'deal hand_size')}]" in lines
    assert lines[-1] == "step 4, phase trick, P0 to act: Play a card"
    seen = [e.text for e in s.state.observed_events(1)]
    assert "point card: QH" in seen and not any("9D" in text for text in seen)  # P0's card, unseen by P1


def test_help_and_play_of_a_game_of_pure_chance(capsys):
    s = Session()
    help_text = s.execute("help step")
    assert "step [N|phase]" in help_text and "a chance event or a phase's start" in help_text
    assert "run" in s.execute("help") and "pause" in s.execute("help")
    assert main(["play", RACE, "--seed", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:3] == ["    chance: drew 1", "    P0 rolls 1 and reaches 1"] and out[-1] == "winners: P1"


def _saved_and_opened(s: Session, path) -> tuple[dict, dict, str, str]:
    """The position before `save` and after `open` (as saved state data), and the next step
    from each."""
    before = s.state.to_json()
    s.execute(f"save {path}")
    after_save = _without_notes(s.execute("step"))  # it may drop undone steps, which `open` has not
    s.execute(f"open {path}")
    return before, s.state.to_json(), after_save, _without_notes(s.execute("step"))


def _without_notes(out: str) -> str:
    return "\n".join(line for line in out.split("\n") if not line.startswith("note: "))


def test_a_game_saved_while_paused_opens_at_that_pause(tmp_path):
    s, _ = _session(DEALER, 3)
    s.execute("pause chance")
    s.execute("new")
    s.execute("step")
    s.execute("step")
    assert s.execute("play reroll").splitlines()[-1].startswith("step 3, phase main, paused before a chance event")
    path = tmp_path / "paused.replay"
    assert s.execute(f"save {path}").startswith(f"saved 1 move and the pause point it stands at to {path}")
    assert json.loads(path.read_text())["pause"] == {"at": "chance", "work": s.state.pause_mark}
    opened = s.execute(f"open {path}").splitlines()
    assert opened[0] == f"opened {path}: Random dealer, 3 players, seed 3, 1 move"
    assert opened[-1] == (f"step 1, phase main, paused before a chance event: "
                          f"set rolls = [random(1, 6) for p in players]  [{DEALER}:16]")
    assert s.execute("undo").splitlines()[-1] == "step 0, phase main, P0 to act: Keep the rolls?"
    before, after, stepped, stepped_again = _saved_and_opened(s, tmp_path / "decision.replay")
    assert before == after and stepped == stepped_again


def test_every_pause_point_of_a_game_is_saved_exactly(tmp_path):
    s, _ = _session(RACE, 3)
    for k in range(8):
        before, after, stepped, stepped_again = _saved_and_opened(s, tmp_path / f"{k}.replay")
        assert before == after and stepped == stepped_again, k
    assert s.execute("undo 1").startswith("undid 1 step")


def test_a_replay_with_a_damaged_or_unreachable_pause(tmp_path):
    s, _ = _session(RACE, 3)
    s.execute("step 2")
    path = tmp_path / "race.replay"
    s.execute(f"save {path}")
    data = json.loads(path.read_text())
    for pause in ({"at": "dawn", "work": 1}, {"at": "chance"}, {"at": "chance", "work": -1}, [1, 2],
                  {"at": "chance", "work": True}):
        path.write_text(json.dumps(dict(data, pause=pause)))
        assert s.execute(f"open {path}") == (
            f'error: `{path}` is damaged: `pause` is not an object {{"at": "chance" or "phase", '
            f'"work": a whole number}}')
    path.write_text(json.dumps(dict(data, pause={"at": "chance", "work": data["pause"]["work"] + 1})))
    out = s.execute(f"open {path}").splitlines()
    assert out[0] == (f"warning: `{path}` says the game paused (chance) after {data['pause']['work'] + 1} units "
                      "of work, which its moves do not reach; the game stands where they lead")
