"""A script's syntax tree is kept between runs and read back only for the very same path and text;
a tree read back is the tree the parser builds, a damaged one is parsed again, only the cache's
own files are ever removed, and a path that is not UTF-8 is kept like any other."""

from __future__ import annotations

import os
import sys

import pytest

from cardgame import interpreter
from helpers import GAMES, ROOT, damage, kept_file, played_json
from cardgame.interpreter.language import kept_files, parser, syntax_cache
from cardgame.interpreter.language.loader import check_file
from cardgame.repl.cli import main

SCRIPT = 'game "Tiny"\nplayers 2\nphase main {\n    end game\n}\n'
BOUNCER = str(GAMES / "bouncer.cardgame")


@pytest.fixture
def folder(tmp_path, monkeypatch):
    place = tmp_path / "cache"
    monkeypatch.setenv("CARDGAME_CACHE_DIR", str(place))
    return place


def _trees(folder):
    return sorted(p for p in folder.iterdir() if p.name.startswith("tree-"))


def _no_parser(monkeypatch):
    def refuse(text, path):
        raise AssertionError("parsed again")
    monkeypatch.setattr(parser, "parse_script", refuse)


@pytest.mark.parametrize("script", sorted((ROOT / "games").glob("**/*.cardgame"))
                         + sorted((ROOT / "tests" / "scripts").glob("*.cardgame")), ids=lambda p: p.name)
def test_a_tree_read_back_is_the_tree_the_parser_builds(script, folder, monkeypatch):
    text = script.read_text()
    built, diags = syntax_cache.parse_script(text, str(script))
    assert diags == [] and len(_trees(folder)) == 1
    _no_parser(monkeypatch)
    kept, diags = syntax_cache.parse_script(text, str(script))
    assert diags == [] and kept is not built
    assert repr(kept) == repr(built)


def test_check_reads_the_script_and_its_include_back(folder, monkeypatch):
    path = str(ROOT / "games" / "bouncer.cardgame")
    first = check_file(path)
    assert len(_trees(folder)) == 2  # the game and games/lib/standard_deck.cardgame
    _no_parser(monkeypatch)
    second = check_file(path)
    assert repr(second[1]) == repr(first[1]) and second[3] == first[3]


def test_another_text_or_path_is_parsed_again(folder, tmp_path):
    one, _ = syntax_cache.parse_script(SCRIPT, "tiny.cardgame")
    other, _ = syntax_cache.parse_script(SCRIPT.replace("Tiny", "Small"), "tiny.cardgame")
    assert other.items[0].title == "Small"
    elsewhere, _ = syntax_cache.parse_script(SCRIPT, "other.cardgame")
    assert elsewhere.items[0].span.path == "other.cardgame"
    assert len(_trees(folder)) == 2  # one file per script: the second text replaced the first


def test_a_syntax_error_is_never_kept(folder):
    bad = SCRIPT.replace("players 2", "players")
    first = syntax_cache.parse_script(bad, "bad.cardgame")
    assert first[0] is None and first[1][0].code.startswith("E01")
    assert _trees(folder) == []
    assert syntax_cache.parse_script(bad, "bad.cardgame") == first


def test_a_damaged_tree_file_is_ignored_and_rewritten(folder):
    built, _ = syntax_cache.parse_script(SCRIPT, "tiny.cardgame")
    (kept,) = _trees(folder)
    key = kept.read_bytes()[:32]
    kept.write_bytes(key + b"not a pickle")
    again, diags = syntax_cache.parse_script(SCRIPT, "tiny.cardgame")
    assert diags == [] and repr(again) == repr(built)
    assert kept.stat().st_size > len(key + b"not a pickle")


def test_at_most_kept_trees_stay(folder, monkeypatch):
    monkeypatch.setattr(syntax_cache, "KEPT", 3)
    for i in range(6):
        syntax_cache.parse_script(SCRIPT, f"tiny{i}.cardgame")
    assert len(_trees(folder)) == 3


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="permission bits are POSIX")
def test_a_folder_others_can_write_is_not_used(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("CARDGAME_CACHE_DIR", str(shared))
    script, diags = syntax_cache.parse_script(SCRIPT, "tiny.cardgame")
    assert script is not None and diags == [] and list(shared.iterdir()) == []


def test_the_cache_can_be_turned_off(monkeypatch):
    monkeypatch.setenv("CARDGAME_CACHE_DIR", "off")
    assert kept_files.private_place("tree-x") is None
    assert syntax_cache.parse_script(SCRIPT, "tiny.cardgame")[0] is not None


def test_a_change_to_the_code_that_builds_trees_parses_again(folder, monkeypatch):
    syntax_cache.parse_script(SCRIPT, "tiny.cardgame")
    stamps = kept_files.code_stamps()
    monkeypatch.setattr(syntax_cache, "code_stamps", lambda: stamps[:-1] + [stamps[-1] + " edited"])
    calls = []
    parse = parser.parse_script
    monkeypatch.setattr(parser, "parse_script", lambda text, path: calls.append(path) or parse(text, path))
    assert syntax_cache.parse_script(SCRIPT, "tiny.cardgame")[0] is not None and calls == ["tiny.cardgame"]


def test_a_damaged_tree_file_is_parsed_again_not_used(folder, monkeypatch):
    expected = played_json(interpreter.load(BOUNCER), 3, 1)
    tree = kept_file(folder, "tree-" + kept_files.kept_name("", os.path.abspath(BOUNCER)))
    damage(tree, b"Bouncer", b"Bounce!")  # the title: the game would say another name
    parsed = []
    parse = parser.parse_script
    monkeypatch.setattr(parser, "parse_script", lambda text, path: parsed.append(path) or parse(text, path))
    game = interpreter.load(BOUNCER)
    assert parsed == [BOUNCER] and game.title == "Bouncer" and played_json(game, 3, 1) == expected
    assert kept_files.read_kept(str(tree), tree.read_bytes()[:32]) is not None  # written whole again


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
