"""Hostile replay files opened in the REPL: the script they name, their size, their text."""

from __future__ import annotations

import json
import os

import pytest

from conftest import SCRIPTS
from cardgame.repl.session import Session


def replay(path, script="x.cardgame", moves=(), **extra):
    data = {"format": "cardgame-replay/1", "script": script, "script_hash": "0" * 16, "players": 2,
            "seed": 0, "options": {}, "moves": list(moves), **extra}
    path.write_text(json.dumps(data))
    return path


def opened(path) -> tuple[Session, str]:
    session = Session()
    out = session.execute(f"open {path}")
    assert session.failed and out.startswith("error")
    assert "Traceback" not in out
    return session, out


@pytest.mark.parametrize("script", ["/etc/passwd", "/dev/zero"])
def test_a_replay_naming_a_system_file_is_refused_before_it_is_opened(tmp_path, script):
    _, out = opened(replay(tmp_path / "evil.replay", script))
    assert "not a `.cardgame` file" in out and "root:" not in out


def test_a_replay_naming_a_link_to_a_system_file_is_refused(tmp_path):
    os.symlink("/etc/passwd", tmp_path / "game.cardgame")
    _, out = opened(replay(tmp_path / "evil.replay", "game.cardgame"))
    assert "not a `.cardgame` file" in out and "root:" not in out


def test_a_replay_naming_a_script_elsewhere_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "replays").mkdir()
    _, out = opened(replay(tmp_path / "replays" / "evil.replay", str(SCRIPTS / "escape_log.cardgame")))
    assert "outside both the replay's folder and the current folder" in out


def test_a_replay_naming_a_device_with_a_cardgame_name_is_refused(tmp_path):
    os.mkfifo(tmp_path / "pipe.cardgame")
    _, out = opened(replay(tmp_path / "evil.replay", "pipe.cardgame"))
    assert "E0605" in out


def test_a_huge_replay_is_not_read(tmp_path):
    big = tmp_path / "big.replay"
    with open(big, "wb") as fh:
        fh.truncate(1024 ** 3)
    _, out = opened(big)
    assert "cannot read" in out and "limit" in out


def test_a_deeply_nested_replay_is_refused(tmp_path):
    path = tmp_path / "deep.replay"
    path.write_text("[" * 100_000 + "]" * 100_000)
    _, out = opened(path)
    assert "not a replay file" in out


def test_control_characters_from_a_replay_are_shown_escaped(tmp_path):
    path = replay(tmp_path / "evil.replay", "evil\x1b[2J\x07.cardgame")
    _, out = opened(path)
    assert "\x1b" not in out and "\\x1b[2J" in out


@pytest.mark.parametrize("field, value, said", [
    ("seed", "seven", "`seed` is missing or not a whole number"),
    ("players", True, "`players` is missing or not a whole number"),
    ("moves", "play 2H", "`moves` is missing or not a list of moves"),
    ("options", [], "`options` is missing or not an object of NAME: VALUE"),
    ("script_hash", 7, "`script_hash` is missing or not a text"),
])
def test_a_field_of_the_wrong_kind_is_named_with_the_kind_it_needs(tmp_path, field, value, said):
    path = replay(tmp_path / "bad.replay")
    path.write_text(json.dumps({**json.loads(path.read_text()), field: value}))
    _, out = opened(path)
    assert f"is damaged: {said}" in out


def test_a_nul_in_a_replays_script_is_named(tmp_path):
    from cardgame.repl.session import Session
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"format": "cardgame-replay/2", "script": "x\0.cardgame", "script_hash": "0",
                                "players": 3, "seed": 1, "options": {}, "moves": []}))
    out = Session().execute(f"open {path}")
    assert "is damaged: `script` holds the character NUL" in out


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
