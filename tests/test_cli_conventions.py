"""What every `cardgame` command shares, as docs/cli.md says: `--version`, `-` for standard input,
the exit status (0 done, 1 a problem found, 2 a usage error), `--color` and NO_COLOR, `--format
json` (and its older spelling `--json`), and help text for every argument."""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
import threading
import time
from importlib.metadata import version
from types import SimpleNamespace

import pytest

from cardgame.repl.cli import build_parser, main
from cardgame.repl.runs import progress_bar
from helpers import GAMES, ROOT, faulty_script

BOUNCER = str(GAMES / "bouncer.cardgame")
BOUNCER_TEXT = (GAMES / "bouncer.cardgame").read_text()
DRAWS = str(ROOT / "tests" / "scripts" / "draws.cardgame")
ALWAYS_FAULTS = str(ROOT / "tests" / "lint" / "always_faults.cardgame")
BROKEN = 'game "x"\nplayers 2\nphase main {\n    move top(stok) to stok\n    end game\n}\n'
UNFORMATTED = 'game "x"\nplayers 2\nphase main {\n  end game\n}\n'
FORMATTED = 'game "x"\nplayers 2\nphase main {\n    end game\n}\n'
ESC = "\x1b["
COLOUR_SGR = re.compile(r"\x1b\[((?:\d+;)*(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;\d+)*)m")  # sets a colour


def run(*args, stdin: str | None = None, env: dict | None = None, cwd=ROOT):
    """The real command in a subprocess, as a user meets it (standard input given or empty)."""
    proc = subprocess.run([sys.executable, "-m", "cardgame.repl", *args], input=stdin or "", capture_output=True,
                          text=True, cwd=cwd, timeout=300, env={**os.environ, **(env or {})})
    assert "Traceback" not in proc.stderr + proc.stdout
    return proc


def status(argv) -> int:
    """main's exit status, argparse's own usage errors (SystemExit) included."""
    try:
        return main(argv)
    except SystemExit as done:
        return done.code


# ---- --version and help


def test_version_is_the_installed_packages():
    proc = run("--version")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, f"cardgame {version('cardgame')}\n", "")


def _commands():
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    return sub.choices


def test_every_command_has_a_description_and_every_argument_help_text():
    """`--players`, `--seed`, `-n`, FILE and `--format` had none, and `lsp --help` no description."""
    missing = []
    for name, parser in _commands().items():
        if not (parser.description or "").strip():
            missing.append(f"{name}: no description")
        missing += [f"{name} {action.option_strings or action.metavar or action.dest}: no help"
                    for action in parser._actions if not (action.help or "").strip()]
    assert missing == []
    assert set(_commands()) == {"check", "play", "replay", "simulate", "lint", "compare", "repl", "fmt", "lsp", "rules",
                                "graph"}


def test_the_defaults_help_shows_are_the_real_ones():
    from cardgame import interpreter
    from cardgame.repl.lint_cmd import DECISIONS_SHOWN
    assert DECISIONS_SHOWN == interpreter.LINT_MAX_DECISIONS


@pytest.mark.parametrize("command", ["check", "play", "replay", "simulate", "lint", "compare", "repl", "fmt", "lsp",
                                     "rules", "graph"])
def test_every_command_help_exits_0(command, capsys):
    assert status([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: cardgame {command} ") and "%%" not in out


def test_the_top_help_says_the_conventions(capsys):
    assert status(["--help"]) == 0
    out = capsys.readouterr().out
    assert "FILE `-` reads the script from standard input" in out and "NO_COLOR" in out
    assert "exit status: 0 done; 1 a problem found" in out and "2 a usage error" in out


# ---- standard input


def _same_as_the_file(command: list[str], normalise=lambda text: text):
    from_file, from_stdin = run(*command, BOUNCER), run(*command, "-", stdin=BOUNCER_TEXT)
    assert from_file.returncode == from_stdin.returncode == 0
    assert normalise(from_stdin.stdout) == normalise(from_file.stdout).replace(BOUNCER, "<stdin>")
    return from_stdin


@pytest.mark.parametrize("command", [["check"], ["play", "--seed", "3"], ["graph", "--format", "mermaid"],
                                     ["lint", "-n", "2", "--format", "json"]])
def test_dash_reads_the_script_from_standard_input(command):
    _same_as_the_file(command)


def test_rules_from_standard_input_says_where_it_came_from():
    proc = _same_as_the_file(["rules"], lambda text: text.replace("`bouncer.cardgame`", "`<stdin>`"))
    assert "*This rulebook was generated from `<stdin>` by `cardgame rules`" in proc.stdout


def test_simulate_and_compare_read_standard_input_alike():
    def untimed(out):
        stats = json.loads(out)
        for field in ("games_per_second", "decisions_per_second"):
            stats.pop(field, None)
        return json.dumps(stats)
    _same_as_the_file(["simulate", "-n", "20", "--format", "json"], untimed)
    proc = _same_as_the_file(["compare", "-n", "10", "--option", "special_bouncers=true",
                              "--option", "special_bouncers=false"])
    assert proc.stdout.startswith("A: <stdin> with special_bouncers=true\nB: <stdin> with special_bouncers=false\n")


def test_fmt_dash_writes_the_formatted_script_to_standard_output():
    proc = run("fmt", "-", stdin=UNFORMATTED)
    assert (proc.returncode, proc.stdout) == (0, FORMATTED)
    proc = run("fmt", "-", stdin=FORMATTED)
    assert (proc.returncode, proc.stdout) == (0, FORMATTED)
    proc = run("fmt", "--check", "-", stdin=UNFORMATTED)
    assert (proc.returncode, proc.stdout) == (1, "") and "would reformat <stdin>" in proc.stderr
    proc = run("fmt", "--diff", "-", stdin=UNFORMATTED)
    assert proc.returncode == 1 and proc.stdout.startswith("--- <stdin> (now)\n+++ <stdin> (formatted)\n")


def test_diagnostics_name_stdin():
    proc = run("check", "-", stdin=BROKEN)
    assert proc.returncode == 1
    assert "error[E0201]" in proc.stderr and " --> <stdin>:4:" in proc.stderr
    assert proc.stdout == "<stdin>: failed (2 error(s), 0 warning(s))\n"


def test_standard_input_that_is_no_script_is_refused_as_a_file_would_be():
    for data, message in ((b"\xff\xfe\x00garbage", "error[E0601]: cannot read `<stdin>`: not readable UTF-8 text"),
                          (b"#" * 131_073, "error[E0112]: `<stdin>` is too long")):
        proc = subprocess.run([sys.executable, "-m", "cardgame.repl", "check", "-"], input=data, capture_output=True,
                              cwd=ROOT, timeout=120)
        assert proc.returncode == 1 and proc.stderr.decode().startswith(message)


def test_an_include_from_standard_input_is_found_from_the_current_folder(tmp_path):
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "extra.cardgame").write_text("var extra: int = 0\n")
    script = 'include "parts/extra.cardgame"\ngame "x"\nplayers 2\nphase main {\n    set extra = 1\n    end game\n}\n'
    proc = run("check", "-", stdin=script, cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (0, "<stdin>: ok (0 error(s), 0 warning(s))\n")
    proc = run("check", "-", stdin=script, cwd=tmp_path / "parts")  # from another folder it is not there
    assert proc.returncode == 1 and "cannot find included file `parts/extra.cardgame`" in proc.stderr
    proc = run("check", "-", stdin=script.replace("parts/", "../"), cwd=tmp_path / "parts")
    assert proc.returncode == 1 and "error[E0604]" in proc.stderr  # and may not leave it


def test_a_script_from_standard_input_is_played_in_this_process():
    one = run("simulate", "-", "-n", "12", "--format", "json", stdin=BOUNCER_TEXT)
    two = run("simulate", "-", "-n", "12", "--format", "json", "--workers", "2", stdin=BOUNCER_TEXT)
    assert one.returncode == two.returncode == 0
    assert "note: a script from standard input is played in this process: --workers 2" in two.stderr
    assert json.loads(one.stdout)["wins_by_seat"] == json.loads(two.stdout)["wins_by_seat"]


@pytest.mark.parametrize("args, message", [
    (["check", "-", "-"], "`-` (standard input) is given more than once"),
    (["compare", "-", "-"], "`-` (standard input) is given more than once"),
    (["fmt", "-", "-"], "`-` (standard input) is given more than once"),
    (["play", "-", "--save", "game.replay"], "`--save` needs the script in a file"),
    (["simulate", "-", "--dask", "local"], "`--dask` needs the script in a file"),
    (["repl", "-"], "the REPL reads its commands from standard input"),
])
def test_what_standard_input_cannot_do_is_a_usage_error(args, message):
    proc = run(*args, stdin=BOUNCER_TEXT)
    assert proc.returncode == 2
    assert proc.stderr.startswith("error[E0901]: ") and message in proc.stderr


# ---- exit status: 0 done, 1 a problem found, 2 a usage error


@pytest.fixture
def scripts(tmp_path):
    (tmp_path / "broken.cardgame").write_text(BROKEN)
    (tmp_path / "unformatted.cardgame").write_text(UNFORMATTED)
    (tmp_path / "formatted.cardgame").write_text(FORMATTED)
    replay = str(tmp_path / "bouncer.replay")
    assert main(["play", BOUNCER, "--seed", "1", "--save", replay]) == 0
    return SimpleNamespace(broken=str(tmp_path / "broken.cardgame"), faulty=faulty_script(tmp_path),
                           unformatted=str(tmp_path / "unformatted.cardgame"),
                           formatted=str(tmp_path / "formatted.cardgame"), replay=replay)


EXIT_CASES = [  # (command line, its exit status); `{broken}` and the like are the fixture's scripts
    (["check", BOUNCER], 0), (["check", "{broken}"], 1), (["check", BOUNCER, "--format", "yaml"], 2),
    (["play", BOUNCER], 0), (["play", "{faulty}", "--seed", "1"], 1), (["play", BOUNCER, "--view", "Q"], 2),
    (["simulate", DRAWS, "-n", "5"], 0), (["simulate", "{faulty}", "-n", "5"], 1), (["simulate", BOUNCER, "-n", "0"], 2),
    (["lint", DRAWS, "-n", "2"], 0), (["lint", ALWAYS_FAULTS, "-n", "2"], 1), (["lint", BOUNCER, "--policy", "x"], 2),
    (["compare", DRAWS, DRAWS, "-n", "4"], 0), (["compare", "{broken}", DRAWS], 1), (["compare", BOUNCER], 2),
    (["fmt", "{formatted}"], 0), (["fmt", "--check", "{unformatted}"], 1), (["fmt", "--diff", "{unformatted}"], 1),
    (["fmt", "--diff", "{formatted}"], 0), (["fmt"], 2),
    (["rules", BOUNCER], 0), (["rules", "{broken}"], 1), (["rules", BOUNCER, "--format", "pdf"], 2),
    (["graph", BOUNCER], 0), (["graph", "{broken}"], 1), (["graph", BOUNCER, "--format", "png"], 2),
    (["replay", "{replay}", "--script", BOUNCER], 0), (["replay", "{broken}"], 1),
    (["replay", "{replay}", "--format", "yaml"], 2),
    (["repl", "--seed", "x"], 2), (["lsp", "--frobnicate"], 2), ([], 2), (["frobnicate"], 2),
]


@pytest.mark.parametrize("argv, expected", EXIT_CASES, ids=lambda case: " ".join(map(str, case))[:60]
                         if isinstance(case, list) else str(case))
def test_exit_status(argv, expected, scripts, capsys):
    assert status([arg.format(**vars(scripts)) for arg in argv]) == expected
    captured = capsys.readouterr()
    if expected == 2:
        assert "error[E0901]" in captured.err or captured.out.startswith("usage: cardgame")


@pytest.mark.parametrize("lines, expected", [("state\nquit\n", 0), ("play nothing\nquit\n", 1)])
def test_repl_exit_status(lines, expected):
    assert run("repl", BOUNCER, stdin=lines).returncode == expected


# ---- --format json, and --json its older spelling


JSON_COMMANDS = [
    ["check", BOUNCER], ["play", BOUNCER, "--seed", "2"], ["simulate", DRAWS, "-n", "8"], ["lint", DRAWS, "-n", "2"],
    ["compare", DRAWS, DRAWS, "-n", "4"], ["graph", BOUNCER],
]


def _json_records(command, out: str) -> list:
    """play prints JSON Lines; every other command one JSON document."""
    if command == "play":
        return [json.loads(line) for line in out.splitlines()]
    return [json.loads(out)]


def _untimed(records):
    for record in records:
        if isinstance(record, dict):
            for field in ("games_per_second", "decisions_per_second"):
                record.pop(field, None)
    return records


@pytest.mark.parametrize("argv", JSON_COMMANDS, ids=lambda argv: argv[0])
def test_every_command_that_prints_results_takes_format_json(argv, capsys):
    assert status([*argv, "--format", "json"]) == 0
    as_format = _untimed(_json_records(argv[0], capsys.readouterr().out))
    if argv[0] == "graph":  # graph's --format names a drawing: dot, mermaid, svg or json, and no alias
        assert set(as_format[0]) == {"title", "nodes", "edges"}
        return
    assert status([*argv, "--json"]) == 0
    assert _untimed(_json_records(argv[0], capsys.readouterr().out)) == as_format
    assert status([*argv, "--json", "--format", "text"]) == 0  # the last one given wins, as argparse does
    with pytest.raises(json.JSONDecodeError):
        json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("command", ["rules", "fmt"])
def test_commands_that_print_documents_have_no_json(command, capsys):
    """rules writes a rulebook (md or html) and fmt scripts: no JSON to give."""
    assert status([command, BOUNCER, "--format", "json"]) == 2
    assert "error[E0901]" in capsys.readouterr().err


def test_replay_prints_the_json_play_printed_and_reads_standard_input(tmp_path):
    """`replay` has play's manners: its --format json is the JSON Lines play printed for the
    game it saved (all-seeing and one seat's), `-` reads the replay from standard input (its
    script found from the current folder), --json is --format json, and it takes --color."""
    saved = tmp_path / "b.replay"
    script = tmp_path / "bouncer.cardgame"
    script.write_text(BOUNCER_TEXT)
    for view in ("all", "P1"):
        played = run("play", str(script), "--seed", "2", "--view", view, "--save", str(saved), "--format", "json")
        replayed = run("replay", str(saved), "--view", view, "--json", "--color", "always")
        piped = run("replay", "-", "--view", view, "--format", "json", stdin=saved.read_text(), cwd=tmp_path)
        assert played.returncode == replayed.returncode == piped.returncode == 0
        assert replayed.stdout == piped.stdout == played.stdout
        assert json.loads(played.stdout.splitlines()[-1])["result"]["steps"] == 234
    page = run("replay", "-", "--html", "b.html", "--view", "P1", "--format", "json", stdin=saved.read_text(),
               cwd=tmp_path)
    assert json.loads(page.stdout) == {"html": "b.html", "game": "Bouncer", "moves": 234, "views": ["P1"],
                                       "bytes": (tmp_path / "b.html").stat().st_size}
    refused = run("replay", "-", stdin="not a replay")
    assert (refused.returncode, refused.stdout) == (1, "")
    assert refused.stderr.startswith("error: `<stdin>` is not a replay file (not JSON")


# ---- colour: --color auto|always|never and NO_COLOR


def test_play_table_colours_only_when_asked_or_at_a_terminal(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    table = ["play", BOUNCER, "--table"]
    assert ESC not in run(*table).stdout  # auto, not a terminal
    assert ESC in run(*table, "--color", "always").stdout
    assert ESC in run(*table, "--color", "always", env={"NO_COLOR": "1"}).stdout  # the argument wins
    assert ESC not in run(*table, "--color", "always", "--ascii").stdout


pty = pytest.importorskip("pty")


def _on_a_terminal(argv, env: dict, keys: tuple = (), columns: int = 120) -> str:
    """Everything `argv` wrote to a pseudo-terminal, escape sequences kept; `keys` typed one by
    one once it is quiet."""
    import fcntl
    import struct
    import termios
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    environment = {**{k: v for k, v in os.environ.items() if k != "NO_COLOR"}, "TERM": "xterm-256color", **env}
    proc = subprocess.Popen([sys.executable, "-m", "cardgame.repl", *argv], stdin=slave, stdout=slave, stderr=slave,
                            env=environment, cwd=ROOT, close_fds=True, start_new_session=True)
    os.close(slave)
    out = b""

    def read_until_quiet(quiet: float = 1.0, most: float = 60.0):
        nonlocal out
        deadline = time.monotonic() + most
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], quiet)
            if not ready:
                return
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if not data:
                return
            if b"\x1b[6n" in data:  # answer the cursor-position request, as a terminal does
                os.write(master, b"\x1b[5;1R")
            out += data

    if keys:
        read_until_quiet()  # the prompt is drawn and waiting
    for key in keys:
        os.write(master, key.encode())
        read_until_quiet()
    read_until_quiet(quiet=60.0, most=120.0)  # to the end: the child closes the terminal
    proc.wait(timeout=60)
    os.close(master)
    return out.decode("utf-8", "replace")


@pytest.mark.parametrize("env, args, coloured", [
    ({}, [], True), ({"NO_COLOR": "1"}, [], False), ({}, ["--color", "never"], False), ({"NO_COLOR": ""}, [], True),
])
def test_play_table_at_a_terminal_honours_no_color(env, args, coloured):
    """`NO_COLOR=1 cardgame play --table` drew 1,792 escape sequences, as many as without it."""
    out = _on_a_terminal(["play", BOUNCER, "--table", *args], env)
    assert "final scores:" in out and "♥" in out  # suit symbols are no colour: they stay
    assert bool(COLOUR_SGR.search(out)) is coloured


@pytest.mark.parametrize("env, args, coloured", [
    ({}, [], True), ({"NO_COLOR": "1"}, [], False), ({}, ["--color", "never"], False),
    ({"NO_COLOR": "1"}, ["--color", "always"], True),
])
def test_the_repl_at_a_terminal_honours_no_color(env, args, coloured, tmp_path):
    out = _on_a_terminal(["repl", BOUNCER, *args], {**env, "CARDGAME_HISTORY": str(tmp_path / "history")},
                         keys=("moves\r", "quit\r"))
    assert "play" in out
    assert bool(COLOUR_SGR.search(out)) is coloured


@pytest.mark.parametrize("argv", [
    ["check", BOUNCER], ["simulate", DRAWS, "-n", "4"], ["lint", DRAWS, "-n", "2"], ["compare", DRAWS, DRAWS, "-n", "4"],
    ["rules", BOUNCER], ["graph", BOUNCER], ["fmt", "--diff", BOUNCER],
])
def test_every_other_command_takes_color_and_prints_none(argv, capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    outputs = set()
    for choice in ("auto", "always", "never"):
        assert status([*argv, "--color", choice]) == 0
        captured = capsys.readouterr()
        assert ESC not in captured.out + captured.err
        outputs.add(re.sub(r"[\d.]+ games/s, [\d.]+ decisions/s", "", captured.out))
    assert len(outputs) == 1


# ---- --workers


def test_the_progress_bar_runs_no_thread_so_worker_processes_are_forked(monkeypatch):
    """tqdm's monitor thread made the worker pool spawn its processes (each importing the
    interpreter and loading the script again) whenever the bar was drawn, at a terminal."""
    class Terminal:
        def isatty(self):
            return True

        def write(self, text):
            pass

        def flush(self):
            pass

    monkeypatch.setattr(sys, "stderr", Terminal())
    before = threading.active_count()
    with progress_bar(100, "simulate", SimpleNamespace(no_progress=False)) as update:
        assert update is not None
        update(10)
        assert threading.active_count() == before
