"""Hostile input, third campaign: damaged cache files, odd script paths, saved files and
command lines.  Each test is one attack that once gave a traceback, a wrong game or a write
the user did not ask for."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import lark
import pytest

from cardgame import interpreter
from helpers import GAMES, played_json
from cardgame.interpreter.codegen import generator as codegen
from cardgame.interpreter.language import kept_files, parser, syntax_cache
from cardgame.repl.cli import main

BOUNCER = str(GAMES / "bouncer.cardgame")


@pytest.fixture
def folder(tmp_path, monkeypatch):
    place = tmp_path / "cache"
    monkeypatch.setenv("CARDGAME_CACHE_DIR", str(place))
    parser._lark.cache_clear()
    yield place
    parser._lark.cache_clear()


def _played(game):
    return played_json(game, 3, 1)


def _damaged(path, old: bytes, new: bytes) -> None:
    """Damage that still unpickles or unmarshals: one text inside the data changed."""
    data = path.read_bytes()
    assert len(old) == len(new) and old in data
    path.write_bytes(data.replace(old, new, 1))


def _only(folder, prefix):
    (path,) = [p for p in folder.iterdir() if p.name.startswith(prefix)]
    return path


def test_a_damaged_tree_file_is_parsed_again_not_used(folder, monkeypatch):
    expected = _played(interpreter.load(BOUNCER))
    tree = _only(folder, "tree-" + kept_files.kept_name("", os.path.abspath(BOUNCER)))
    _damaged(tree, b"Bouncer", b"Bounce!")  # the title: the game would say another name
    parsed = []
    parse = parser.parse_script
    monkeypatch.setattr(parser, "parse_script", lambda text, path: parsed.append(path) or parse(text, path))
    game = interpreter.load(BOUNCER)
    assert parsed == [BOUNCER] and game.title == "Bouncer" and _played(game) == expected
    assert kept_files.read_kept(str(tree), tree.read_bytes()[:32]) is not None  # written whole again


def test_a_damaged_code_file_is_made_again_not_used(folder, monkeypatch):
    expected = _played(interpreter.load(BOUNCER))
    _damaged(_only(folder, "code-"), b"st.vars", b"st.varz")  # a generated line: once a traceback
    passes = []
    slots_in_locals = codegen.slots_in_locals
    monkeypatch.setattr(codegen, "slots_in_locals", lambda lines: passes.append(1) or slots_in_locals(lines))
    assert _played(interpreter.load(BOUNCER)) == expected
    assert passes


def test_a_damaged_parser_file_is_built_again_not_used(folder, monkeypatch):
    syntax_cache.parse_script("", "warm.cardgame")  # builds and keeps the parser's tables
    tables = _only(folder, "parser-")
    _damaged(tables, b"phase_decl", b"phasf_decl")  # a rule's name: once a KeyError on a good script
    parser._lark.cache_clear()
    built = []
    real = lark.Lark
    monkeypatch.setattr(lark, "Lark", type("Counted", (real,), {"__init__": lambda self, *a, **k: built.append(1) or real.__init__(self, *a, **k)}))
    script, diags = parser.parse_script((GAMES / "bouncer.cardgame").read_text(), BOUNCER)
    assert script is not None and diags == [] and built == [1]


def test_only_the_caches_own_files_are_removed(folder, tmp_path, monkeypatch):
    folder.mkdir(mode=0o700)
    mine = [folder / "tree-notes.txt", folder / f"tree-{'0' * 24}.1234.tmp"]  # the user's, another process's
    for path in mine:
        path.write_text("keep me")
        os.utime(path, (1, 1))  # the oldest in the folder
    monkeypatch.setattr(syntax_cache, "KEPT", 1)
    for name in "ab":
        syntax_cache.parse_script('game "x"\nplayers 2\nphase main {\n    end game\n}\n', str(tmp_path / name))
    assert all(path.read_text() == "keep me" for path in mine)
    assert len([p for p in folder.iterdir() if p.name.startswith("tree-")]) == 1 + len(mine)


@pytest.mark.skipif(sys.platform != "linux", reason="a file name that is not UTF-8 needs a POSIX file system")
@pytest.mark.parametrize("command", [["check"], ["lint", "-n", "2"], ["play", "--seed", "1"], ["simulate", "-n", "2"]])
def test_a_script_whose_name_is_not_utf8(command, folder, tmp_path, capsys):
    path = os.fsdecode(bytes(tmp_path) + b"/\xff\xfe.cardgame")
    with open(path, "w") as f:
        f.write('game "x"\nplayers 2\nphase main {\n    end game\n}\n')
    assert main(command + [path]) == 0
    assert "Traceback" not in capsys.readouterr().err


TINY_UNFORMATTED = 'game "x"\nplayers   2\nphase main {\n  end game\n}\n'


def test_fmt_reads_no_device_or_pipe(tmp_path, capsys):
    os.mkfifo(tmp_path / "pipe.cardgame")
    assert main(["fmt", "--check", "/dev/zero"]) == 1  # was read for ever, its memory growing
    assert main(["fmt", "--check", str(tmp_path / "pipe.cardgame")]) == 1  # was blocked for ever
    assert main(["fmt", "--check", str(tmp_path)]) == 1  # found in a folder
    assert capsys.readouterr().err.count("[E0605]") == 3


def test_fmt_of_a_folder_writes_nothing_through_a_link_out_of_it(tmp_path, capsys):
    outside = tmp_path / "outside.cardgame"
    outside.write_text(TINY_UNFORMATTED)
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "link.cardgame").symlink_to(outside)
    (tmp_path / "folder" / "own.cardgame").write_text(TINY_UNFORMATTED)
    assert main(["fmt", str(tmp_path / "folder")]) == 1
    assert "[E0604]" in capsys.readouterr().err
    assert outside.read_text() == TINY_UNFORMATTED
    assert (tmp_path / "folder" / "own.cardgame").read_text() != TINY_UNFORMATTED
    assert main(["fmt", str(tmp_path / "folder" / "link.cardgame")]) == 0  # named: formatted where it lies
    assert outside.read_text() == (tmp_path / "folder" / "own.cardgame").read_text()


def test_fmt_still_reads_windows_line_ends_as_formatted(tmp_path):
    path = tmp_path / "crlf.cardgame"
    path.write_bytes(b'game "x"\r\nplayers 2\r\nphase main {\r\n    end game\r\n}\r\n')
    assert main(["fmt", "--check", str(path)]) == 0


@pytest.mark.parametrize("line", ["load x\0y.cardgame", "open \0", "save a\0b.json"])
def test_a_nul_in_a_repl_path_is_an_error(line):
    from cardgame.repl.session import Session
    session = Session()
    session.start(BOUNCER, seed=1)
    out = session.execute(line)  # was ValueError: embedded null byte
    assert "NUL" in out and "Traceback" not in out


def test_a_nul_in_a_replays_script_is_named(tmp_path):
    from cardgame.repl.session import Session
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"format": "cardgame-replay/2", "script": "x\0.cardgame", "script_hash": "0",
                                "players": 3, "seed": 1, "options": {}, "moves": []}))
    out = Session().execute(f"open {path}")
    assert "is damaged: `script` holds the character NUL" in out


@pytest.mark.parametrize("command", [["play", "--seed", "1", "--table", BOUNCER], ["rules", BOUNCER]])
def test_output_the_terminal_cannot_encode_is_replaced_not_a_traceback(command, tmp_path):
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "CARDGAME_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "cardgame.repl", *command], env=env, capture_output=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr[-2000:]
    assert b"?" in done.stdout  # a suit symbol, a dot or a quotation mark shown as `?`


@pytest.mark.parametrize("address", ["", "bogus::", "tls://127.0.0.1:1"])
def test_a_dask_address_without_a_scheduler_is_a_diagnostic(address, capsys):
    pytest.importorskip("distributed")
    assert main(["simulate", "-n", "2", "--dask", address, BOUNCER]) == 1  # was a traceback from Dask
    err = capsys.readouterr().err
    assert "[E0906]" in err and f"at `{address}`" in err


def _replay_text(**fields) -> str:
    data = {"format": "cardgame-replay/2", "script": "bouncer.cardgame", "script_hash": "0", "players": 3,
            "seed": 1, "options": {}, "moves": [], **fields}
    return json.dumps(data)


@pytest.mark.parametrize("text, says", [
    (_replay_text().replace('"seed": 1', '"seed": ' + "9" * 5000), "a number in it is thousands of digits long"),
    (_replay_text(moves=["x" * 5_000_000]), "a move longer than 1,000 characters"),  # was quoted back: 10 MB
    (_replay_text(moves=["play AS"] * 100_001), "more than 100,000 moves"),
])
def test_a_replay_past_what_any_game_makes_is_refused(text, says, tmp_path):
    from cardgame.repl.session import Session
    path = tmp_path / "r.json"
    path.write_text(text)
    out = Session().execute(f"open {path}")  # the big number was a ValueError from json
    assert says in out and len(out) < 2000


HUGE = "9" * 5000  # past the 4,300 digits int() reads


@pytest.mark.parametrize("line", [f"goto {HUGE}", f"undo {HUGE}", f"step {HUGE}", f"log -n {HUGE}", f"auto {HUGE}",
                                  f"play #{HUGE}", f"play {HUGE}", f"why {HUGE}", f"unwatch {HUGE}",
                                  f"unbreak {HUGE}", f"view P{HUGE}", f"show hand P{HUGE}", f"seat P{HUGE} random",
                                  "goto ²", "undo ²", "step ³", "log -n ²", "auto ¹", "view P²"])
def test_a_number_int_cannot_read_is_an_answer_not_a_traceback(line):
    from cardgame.repl.session import Session
    session = Session()
    session.start(BOUNCER, seed=1)
    out = session.execute(line)  # each was a ValueError from int()
    assert "Traceback" not in out


def test_numbers_past_any_count_still_read_as_numbers():
    from cardgame.repl.session import Session
    session = Session()
    session.start(BOUNCER, seed=1)
    assert session.execute("goto 99999999999999999999") == "error: there is no step 99999999999999999999; steps run from 0 to 0"
    assert "there is no move #" + HUGE in session.execute(f"play #{HUGE}")
