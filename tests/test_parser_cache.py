"""The built parser is cached in a private per-user folder, and only there; a damaged one is built
again."""

from __future__ import annotations

import os
import stat

import lark
import pytest

from cardgame.interpreter.language import parser, syntax_cache
from helpers import GAMES, damage, kept_file

SCRIPT = 'game "Tiny"\nplayers 2\nphase main {\n    end game\n}\n'
BOUNCER = str(GAMES / "bouncer.cardgame")


@pytest.fixture
def fresh_parser():
    parser._lark.cache_clear()
    yield
    parser._lark.cache_clear()


def _parses():
    script, diags = parser.parse_script(SCRIPT, "tiny.cardgame")
    return script is not None and not diags


def test_the_parser_is_saved_and_reused(tmp_path, monkeypatch, fresh_parser):
    folder = tmp_path / "cache"
    monkeypatch.setenv("CARDGAME_CACHE_DIR", str(folder))
    assert _parses()
    files = list(folder.iterdir())
    assert len(files) == 1 and files[0].stat().st_size > 0
    if hasattr(os, "getuid"):
        assert stat.S_IMODE(folder.stat().st_mode) & 0o077 == 0
    parser._lark.cache_clear()
    assert _parses()  # loaded from the file this time


def test_a_damaged_cache_file_is_ignored_and_rewritten(tmp_path, monkeypatch, fresh_parser):
    folder = tmp_path / "cache"
    monkeypatch.setenv("CARDGAME_CACHE_DIR", str(folder))
    assert _parses()
    (cached,) = folder.iterdir()
    cached.write_bytes(b"not a parser")
    parser._lark.cache_clear()
    assert _parses()
    assert cached.stat().st_size > len(b"not a parser")


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="permission bits are POSIX")
def test_a_folder_others_can_write_is_not_used(tmp_path, monkeypatch, fresh_parser):
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o777)
    monkeypatch.setenv("CARDGAME_CACHE_DIR", str(folder))
    assert _parses()
    assert list(folder.iterdir()) == []


def test_the_cache_can_be_turned_off(tmp_path, monkeypatch, fresh_parser):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("CARDGAME_CACHE_DIR", "off")
    assert _parses()
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def folder(tmp_path, monkeypatch):
    place = tmp_path / "cache"
    monkeypatch.setenv("CARDGAME_CACHE_DIR", str(place))
    parser._lark.cache_clear()
    yield place
    parser._lark.cache_clear()


def test_a_damaged_parser_file_is_built_again_not_used(folder, monkeypatch):
    syntax_cache.parse_script("", "warm.cardgame")  # builds and keeps the parser's tables
    tables = kept_file(folder, "parser-")
    damage(tables, b"phase_decl", b"phasf_decl")  # a rule's name: once a KeyError on a good script
    parser._lark.cache_clear()
    built = []
    real = lark.Lark
    monkeypatch.setattr(lark, "Lark", type("Counted", (real,), {"__init__": lambda self, *a, **k: built.append(1) or real.__init__(self, *a, **k)}))
    script, diags = parser.parse_script((GAMES / "bouncer.cardgame").read_text(), BOUNCER)
    assert script is not None and diags == [] and built == [1]
