"""The `cardgame` command line: exit codes, output formats, and no tracebacks on bad input."""

import json
import subprocess
import sys

import pytest

from cardgame import interpreter
from helpers import GAMES, ROOT, SCRIPTS, faulty_script
from cardgame.repl.cli import main

BOUNCER = str(GAMES / "bouncer.cardgame")


def run(*args):
    """The real command in a subprocess, as a user would meet it."""
    proc = subprocess.run([sys.executable, "-m", "cardgame.repl", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert "Traceback" not in proc.stderr + proc.stdout
    return proc


def test_check_clean_script_exits_0(capsys):
    assert main(["check", BOUNCER]) == 0
    assert "ok (0 error(s), 0 warning(s))" in capsys.readouterr().out


def test_check_broken_script_exits_1_with_json(tmp_path, capsys):
    bad = tmp_path / "bad.cardgame"
    bad.write_text('game "x"\nplayers 2\nphase main {\n    move top(stok) to stok\n    end game\n}\n')
    assert main(["check", str(bad), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report[0]["ok"] is False
    assert {d["code"] for d in report[0]["diagnostics"]} == {"E0201"}
    assert report[0]["diagnostics"][0]["line"] == 4


def test_play_json_is_identical_for_the_same_seed(capsys):
    assert main(["play", BOUNCER, "--seed", "5", "--json"]) == 0
    first = capsys.readouterr().out
    assert main(["play", BOUNCER, "--seed", "5", "--json"]) == 0
    assert capsys.readouterr().out == first
    lines = [json.loads(line) for line in first.splitlines()]
    assert lines[0]["view"] == "all" and "hidden ones included" in lines[0]["full_record"]
    assert set(lines[1]) == {"step", "player", "phase", "move", "log"}
    assert "result" in lines[-1] and len(lines[-1]["result"]["scores"]) == 3


def test_simulate_json_has_exactly_the_documented_keys(capsys):
    assert main(["simulate", BOUNCER, "-n", "5", "--seed", "1", "--json",
                 "--option", "special_bouncers=true"]) == 0
    stats = json.loads(capsys.readouterr().out)
    documented = (ROOT / "docs" / "simulate.md").read_text()
    assert set(stats) == {"file", "title", "games", "players", "seed", "options", "policy", "metrics_level",
                          "scored", "outcomes", "unfinished", "p_won", "p_draw", "p_capped", "p_faulted", "p_limit", "wins_by_seat",
                          "win_rate_by_seat", "draw_share_by_seat", "mean_score_by_seat", "drawn_with_one_loser",
                          "losses_by_seat", "loss_rate_by_seat", "sole_losses_by_seat", "length", "metrics",
                          "measures", "faults", "longest", "games_per_second", "decisions_per_second", "backend",
                          "backend_reason", "agents"}
    assert all(f"`{key}`" in documented for key in stats)
    assert all(f"`{key}`" in documented for key in stats["metrics"])
    assert stats["games"] == 5 and stats["unfinished"] == 0 and len(stats["win_rate_by_seat"]) == 3
    assert sum(stats["wins_by_seat"]) + stats["outcomes"]["drawn"] == 5
    assert stats["options"] == {"special_bouncers": True}


@pytest.mark.parametrize("args, code, message", [
    (["check"], 2, "error[E0901]"),
    (["play"], 2, "error[E0901]"),
    (["frobnicate"], 2, "error[E0901]"),
    (["simulate", BOUNCER, "-n", "zero"], 2, "is not a whole number"),
    (["simulate", BOUNCER, "-n", "0"], 2, "must be at least 1"),
    (["play", BOUNCER, "--seed", "-3"], 2, "must not be negative"),
    (["play", BOUNCER, "--seed", str(2**64)], 2, "is more than 18446744073709551615, the largest seed"),
    (["lint", BOUNCER, "--seed", "-1"], 2, "must not be negative"),
    (["compare", BOUNCER, "--option", "special_bouncers=true", "--seed", str(2**64 + 1)], 2, "the largest seed"),
    (["play", BOUNCER, "--option", "special_bouncers"], 2, "is not NAME=VALUE"),
    (["play", BOUNCER, "--option", "specal_bouncers=true"], 1, "did you mean `special_bouncers`"),
    (["play", BOUNCER, "--option", "special_bouncers=perhaps"], 1, "allowed: true, false"),
    (["play", BOUNCER, "--players", "5"], 1, "takes 3 players, not 5"),
    (["play", "no/such/file.cardgame"], 1, "cannot read"),
    (["check", str(ROOT / "pyproject.toml")], 1, "error[E01"),
])
def test_bad_command_lines_are_diagnosed_without_traceback(args, code, message):
    proc = run(*args)
    assert proc.returncode == code
    assert message in proc.stderr


def test_binary_garbage_script_is_diagnosed(tmp_path):
    junk = tmp_path / "junk.cardgame"
    junk.write_bytes(b"\xff\xfe\x00garbage")
    proc = run("check", str(junk))
    assert proc.returncode == 1 and "not readable UTF-8 text" in proc.stderr


def test_no_engine_repl_or_authoring_code_names_a_seed_game():
    words = ("bouncer", "booray", "boo ray", "bohei", "boss poker", "gegenteil", "green token", "follow_suit")
    for folder in ("interpreter", "repl", "authoring"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text().lower()
            for word in words:
                assert word not in text, f"{path} names `{word}`: game logic belongs in games/"


def test_check_states_prints_the_compiled_machine(capsys):
    assert main(["check", "--states", BOUNCER]) == 0
    out = capsys.readouterr().out
    assert "phase trick" in out and "-> score_hand, trick" in out
    assert 'by player "Play a card": play' in out


HOSTILE = {
    "long_chain": ('var v: int = 1' + ' + 1' * 3000, "E0111"),
    # (600 definitions each calling the next were E0606 here: they now check and play,
    # tests/hostile/test_static_limits.py)
    "deep_nesting": ('var v: int = ' + "sum([" * 9 + "1" + "])" * 9, "E0140"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_scripts_get_diagnostics_not_crashes(tmp_path, name):
    body, code = HOSTILE[name]
    path = tmp_path / f"{name}.cardgame"
    path.write_text(f'game "x"\nplayers 2\n{body}\nphase main {{\n    end game\n}}\n')
    for command in ("check", "play"):
        proc = run(command, str(path))
        assert proc.returncode == 1 and f"error[{code}]" in proc.stderr



def test_a_game_of_play_reopens_in_the_repl_move_for_move(tmp_path, capsys):
    """docs/simulate.md: `cardgame play --seed S --save F` then the REPL's `open F` is that game."""
    from cardgame.repl.session import Session

    saved = tmp_path / "game.replay"
    assert main(["play", BOUNCER, "--seed", "7", "--json", "--save", str(saved)]) == 0
    played = [record["move"] for record in map(json.loads, capsys.readouterr().out.splitlines()) if "move" in record]
    session = Session()
    session.execute(f"open {saved}")
    assert session.state.history == played and session.state.is_over
    session.execute("undo")
    assert session.state.history == played[:-1] and not session.state.is_over


def test_cardgame_play_logs_and_saves_the_move_that_faulted(tmp_path, capsys):
    # seed 1's random P0 chooses `boom`: the log named no move at all, and `--save` wrote nothing
    script, replay = faulty_script(tmp_path), tmp_path / "faulty.replay"
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


def test_a_game_without_a_score_does_not_show_everybody_at_zero(capsys):
    """Before: `final scores: P0 0, P1 0, P2 0` and `game over, scores P0 0, ...` for Old Maid,
    which declares no `score` (simulate already said "none (the script has no `score`)")."""
    from cardgame.repl.session import Session
    assert main(["play", str(SCRIPTS / "old_maid.cardgame"), "--seed", "5", "--players", "3"]) == 0
    assert capsys.readouterr().out.splitlines()[-2] == "final scores: none (the script has no `score`)"
    s = Session()
    s.start(str(SCRIPTS / "old_maid.cardgame"), seed=3)
    assert ", game over, scores none (the script has no `score`), winners " in s.execute("auto end")
    assert "· scores none (the script has no `score`)" in s.execute("state").splitlines()[0]


@pytest.mark.parametrize("address", ["", "bogus::", "tls://127.0.0.1:1"])
def test_a_dask_address_without_a_scheduler_is_a_diagnostic(address, capsys):
    pytest.importorskip("distributed")
    assert main(["simulate", "-n", "2", "--dask", address, BOUNCER]) == 1  # was a traceback from Dask
    err = capsys.readouterr().err
    assert "[E0906]" in err and f"at `{address}`" in err


BOORAY = ROOT / "games" / "booray.cardgame"


@pytest.mark.parametrize("value", ["5_0", "\u0663", "\uff11\uff10", "0x10", "1e1", "7.0", "9" * 30])
def test_a_number_option_takes_ascii_digits_only(value, capsys):
    """int() read `5_0` as 50 and the Arabic-Indic `٣` as 3, which no script can write."""
    assert main(["play", str(BOORAY), "--seed", "1", "--option", f"hands={value}"]) == 1
    assert "[E0702]" in capsys.readouterr().err


@pytest.mark.parametrize("value, read", [("7", 7), ("+7", 7), ("-0", 0), ("07", 7), (" 7 ", 7)])
def test_plain_numbers_still_read(value, read):
    game = interpreter.load(str(BOORAY))
    assert game.read_options({"hands": value}) == {"hands": read}


def test_a_long_option_name_or_value_is_quoted_back_clipped(capsys):
    assert main(["play", str(BOORAY), "--option", "hands=" + "9" * 5000, "--option", "x" * 5000 + "=1"]) == 1
    err = capsys.readouterr().err
    assert "[E0701]" in err and "[E0702]" in err and "(5,000 characters)" in err and len(err) < 600
