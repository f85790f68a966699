"""A second newcomer campaign (i11-newcomer): games written from the docs alone, then the wrong
scripts, commands and files a newcomer produces. Each test pins one thing that campaign found
broken or unhelpful; the scripts are written inline (a script in tests/scripts/ would change the
fingerprint of every game the engine plays)."""

from __future__ import annotations

import json

from cardgame.repl.cli import main
from cardgame.repl.session import Session

FAULTS_AT_ONCE = '''game "Faulty"
players 2
var n: int = 0
phase main {
    decide seat(0) "Pick" {
        safe
        boom {
            set n = 1 / n
        }
    }
    decide seat(1) "Pick" {
        boom2 {
            set n = 1 / n
        }
    }
    end game
}
'''


def _script(tmp_path):
    path = tmp_path / "faulty.cardgame"
    path.write_text(FAULTS_AT_ONCE)
    return str(path)


def test_cardgame_play_logs_and_saves_the_move_that_faulted(tmp_path, capsys):
    # seed 1's random P0 chooses `boom`: the log named no move at all, and `--save` wrote nothing
    script, replay = _script(tmp_path), tmp_path / "faulty.replay"
    assert main(["play", script, "--seed", "1", "--save", str(replay)]) == 1
    out, err = capsys.readouterr()
    assert "1. P0: boom" in out and "division by zero" in err and "faulty.cardgame:8" in err
    assert json.loads(replay.read_text())["moves"] == ["boom"]
    # seed 3: P0 plays `safe`, P1's only move faults; as one seat saw it, and as JSON
    assert main(["play", script, "--seed", "3", "--view", "P1"]) == 1
    out, err = capsys.readouterr()
    assert "1. P0: safe" in out and "2. P1: boom2" in out and "faulty.cardgame:13" in err
    assert main(["play", script, "--seed", "3", "--json"]) == 1
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r.get("move") for r in records[1:]] == ["safe", "boom2"]


def test_a_replay_of_a_game_that_faulted_opens_at_the_fault(tmp_path):
    # the REPL's own `save` after a move that faulted wrote a replay its `open` then refused
    script = _script(tmp_path)
    s = Session()
    s.execute(f"load {script}")
    assert "division by zero" in s.execute("play boom")
    saved = tmp_path / "saved.replay"
    s.execute(f"save {saved}")
    t = Session()
    t.execute(f"load {script}")
    out = t.execute(f"open {saved}")
    assert not out.startswith("error") and "stopped with an error at move 1, `boom`" in out
    assert "division by zero" in out and "1 move" in out
    assert t.state.fault is not None and t.state.history == ["boom"]
    assert "undid 1 move" in t.execute("undo")
    assert t.state.fault is None and "boom" in t.execute("moves")
    # a fault before the last move is still refused: no move can follow one
    data = json.loads(saved.read_text())
    broken = tmp_path / "broken.replay"
    broken.write_text(json.dumps(dict(data, moves=["boom", "boom2"])))
    u = Session()
    u.execute(f"load {script}")
    out = u.execute(f"open {broken}")
    assert out.startswith("error") and "move 1 of" in out and "cannot be played" in out
    assert u.state.history == []


def test_simulate_says_when_it_cannot_write_its_charts_or_report(tmp_path, capsys):
    # a report path that is a folder, or in no folder, and a plot folder that is a file: these were
    # tracebacks (IsADirectoryError, FileNotFoundError, FileExistsError) after the whole simulation
    script = tmp_path / "calm.cardgame"
    script.write_text('game "Calm"\nplayers 2\nphase main {\n    decide seat(0) {\n        a\n        b\n    }\n'
                      '    end game\n}\n')
    assert main(["simulate", str(script), "-n", "2"]) == 0
    capsys.readouterr()
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    for flag, target, reason in [("--report", tmp_path, "Is a directory"),
                                 ("--report", tmp_path / "no" / "such" / "r.html", "No such file"),
                                 ("--plot", a_file, "exists")]:
        assert main(["simulate", str(script), "-n", "2", flag, str(target)]) == 1
        out, err = capsys.readouterr()
        assert "Calm: 2 games" in out  # the statistics are still printed
        assert err.startswith("error: cannot write") and reason in err and "Traceback" not in err


def test_a_script_has_one_hash_however_its_path_is_written(tmp_path, monkeypatch):
    # a script outside games/ including the shipped deck: its files were hashed in the order of
    # their path texts, so `game.cardgame` and `/tmp/.../game.cardgame` gave two hashes, and a
    # replay saved by `cardgame play game.cardgame --save` was refused from any other folder
    from cardgame import interpreter
    script = tmp_path / "game.cardgame"
    script.write_text('game "Deck"\nplayers 2\ninclude "lib/standard_deck.cardgame"\nzone stock: shared hidden\n'
                      'zone hand: per player owner\nphase main {\n    shuffle stock\n'
                      '    deal 1 from stock to hand of players\n    decide seat(0) {\n        a\n        b\n    }\n'
                      '    end game\n}\n')
    (tmp_path / "far").mkdir()
    monkeypatch.chdir(tmp_path)
    relative, absolute = interpreter.load("game.cardgame"), interpreter.load(str(script))
    assert relative.hash == absolute.hash == interpreter.load("far/../game.cardgame").hash
    assert main(["play", "game.cardgame", "--seed", "2", "--save", "far/game.replay"]) == 0
    monkeypatch.chdir(tmp_path / "far")
    s = Session()
    s.execute(f"load {script}")  # the absolute path this time
    out = s.execute(f"open {tmp_path / 'far' / 'game.replay'}")
    assert not out.startswith("error") and "opened" in out and s.state.is_over


def test_a_fault_in_a_measure_says_how_to_replay_it(tmp_path, capsys):
    # `cardgame play --seed S`, the replay simulate and lint offered, never reads the measures,
    # so it ended cleanly; the hint now says to save the game and `eval` the measure
    script = tmp_path / "measured.cardgame"
    script.write_text('game "Measured"\nplayers 2\nvar n: int = 0\nmeasure ratio: 10 / n\n'
                      'phase main {\n    decide seat(0) {\n        a\n        b\n    }\n    end game\n}\n')
    assert main(["simulate", str(script), "-n", "2"]) == 1
    out = capsys.readouterr().out
    assert "replay it with `cardgame play" in out and "does not read measures" in out and "`eval`" in out
    assert main(["lint", str(script), "-n", "2"]) == 1
    captured = capsys.readouterr()
    assert "does not read measures" in captured.out + captured.err
    # a fault elsewhere keeps the plain replay command
    assert main(["simulate", _script(tmp_path), "-n", "3"]) == 1
    out = capsys.readouterr().out
    assert "replay it with `cardgame play" in out and "measures" not in out


def test_a_damaged_replay_names_what_a_field_should_hold(tmp_path):
    script = _script(tmp_path)
    s = Session()
    s.execute(f"load {script}")
    saved = tmp_path / "ok.replay"
    s.execute(f"save {saved}")
    data = json.loads(saved.read_text())
    bad = tmp_path / "bad.replay"
    for field, value, said in [("seed", 1.5, "a whole number"), ("script", 3, "a text"),
                               ("moves", "boom", "a list of moves"), ("options", [], "an object")]:
        bad.write_text(json.dumps(dict(data, **{field: value})))
        out = s.execute(f"open {bad}")
        assert f"`{field}` is missing or not {said}" in out and "not a int" not in out
