"""Hostile files: devices, pipes, links out of the folder, huge files and huge includes, for
`check` and for `fmt` (which reads no device or pipe and writes nothing through a link); include
paths named for what they do, include chains and `replace` misused across files, each refused
with its code; a byte-order mark at the start of a file skipped."""

from __future__ import annotations

import os

import pytest

from cardgame import interpreter
from cardgame.repl.cli import main
from conftest import SCRIPTS
from helpers import WAR

BASE = (SCRIPTS / "binder_range.cardgame").read_text().replace("1..4000000000000000000", "1..3")


def test_a_device_as_the_script(cli):
    cli("check", "/dev/zero").diagnosed("E0605")


def test_a_device_through_a_symlinked_include(cli):
    # tests/hostile/scripts/zero.cardgame is a symbolic link to /dev/zero, committed as such.
    assert os.path.islink(SCRIPTS / "zero.cardgame")
    out = cli("check", SCRIPTS / "include_zero.cardgame").diagnosed("E0604")
    assert "leaves the script's folder" in out.err


def test_a_symlink_inside_the_folder_to_etc_passwd_is_not_followed(cli):
    assert os.path.islink(SCRIPTS / "passwd.cardgame")
    out = cli("check", SCRIPTS / "include_passwd.cardgame").diagnosed("E0604")
    assert "root:" not in out.err  # not a byte of the target is read, let alone quoted


def test_a_fifo_as_an_include_does_not_block(cli, tmp_path):
    os.mkfifo(tmp_path / "pipe.cardgame")
    (tmp_path / "main.cardgame").write_text('include "pipe.cardgame"\n' + BASE)
    cli("check", tmp_path / "main.cardgame").diagnosed("E0605")
    cli("check", tmp_path / "pipe.cardgame").diagnosed("E0605")


def test_a_huge_script_is_refused_before_it_is_read(cli, tmp_path):
    big = tmp_path / "big.cardgame"
    with open(big, "wb") as fh:
        fh.truncate(2 * 1024 ** 3)  # 2 GB, sparse
    cli("check", big).diagnosed("E0112")


def test_eight_large_includes_are_refused_together(cli, tmp_path):
    part = "".join(f"define f{i}(x: int) = x * {i} + 1\n" for i in range(30_000))[:900_000]
    part = part[:part.rindex("\n") + 1]
    for i in range(8):
        (tmp_path / f"part{i}.cardgame").write_text(part)
    (tmp_path / "main.cardgame").write_text("".join(f'include "part{i}.cardgame"\n' for i in range(8)) + BASE)
    cli("check", tmp_path / "main.cardgame").diagnosed("E0607")


def test_includes_just_under_the_cap_together_are_refused_at_the_one_that_overflows(cli, tmp_path):
    part = "".join(f"define f{i}(x: int) = x + {i}\n" for i in range(2_000))  # ~50 KB each
    for i in range(3):
        (tmp_path / f"part{i}.cardgame").write_text(part.replace("define f", f"define g{i}_"))
    (tmp_path / "main.cardgame").write_text("".join(f'include "part{i}.cardgame"\n' for i in range(3)) + BASE)
    out = cli("check", tmp_path / "main.cardgame").diagnosed("E0607")
    assert "main.cardgame:3:1" in out.err


def test_a_folder_as_the_script(cli, tmp_path):
    cli("check", tmp_path).diagnosed("E0605")


def test_the_repl_loads_no_device(tmp_path):
    from cardgame.repl.session import Session
    session = Session()
    out = session.execute("load /dev/zero")
    assert session.failed and "[E0605]" in out


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


@pytest.mark.parametrize("written, says, hint", [
    ("d/../war.cardgame", "goes up a folder (`..`)", 'include "war.cardgame"'),      # said: leaves the folder
    ("../../../etc/passwd", "leaves the script's folder", None),
    ("a" * 5000 + ".cardgame", "...(5,009 characters)", None),                         # quoted whole
])
def test_an_include_path_is_named_for_what_it_does_and_quoted_clipped(written, says, hint, tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "war.cardgame").write_text(WAR.read_text())
    script = tmp_path / "v.cardgame"
    script.write_text(f'include "{written}"\n')
    _tables, _items, _sources, diags = interpreter.check_file(str(script))
    (diag,) = diags
    assert says in diag.message and len(diag.message) < 120
    assert hint is None or hint in diag.hint


V = 'include "war.cardgame"\n'


HELD = {
    "self": ({"v.cardgame": 'include "v.cardgame"\n'}, "E0602"),
    "cycle_of_three": ({"v.cardgame": 'include "b.cardgame"\n', "b.cardgame": 'include "c.cardgame"\n',
                        "c.cardgame": 'include "v.cardgame"\n'}, "E0602"),
    "chain_of_seventy": ({**{f"f{i}.cardgame": f'include "f{i + 1}.cardgame"\n' for i in range(70)},
                          "v.cardgame": 'include "f0.cardgame"\n'}, "E0603"),
    "folder_named_like_a_script": ({"d.cardgame/x": "", "v.cardgame": 'include "d.cardgame"\n'}, "E0605"),
    "binary": ({"b.cardgame": bytes(range(256)) * 4, "v.cardgame": 'include "b.cardgame"\n'}, "E0601"),
    "utf16": ({"b.cardgame": "var z: int = 0\n".encode("utf-16"), "v.cardgame": 'include "b.cardgame"\n'}, "E0601"),
    "byte_order_mark_inside": ({"b.cardgame": b"var z: int = 0\n\xef\xbb\xbf\n", "v.cardgame": 'include "b.cardgame"\n'},
                               "E0113"),
    "symlink_to_itself": ({"v.cardgame": 'include "l.cardgame"\n', "l.cardgame": "->l.cardgame"}, "E0601"),
    "include_inside_a_phase": ({"v.cardgame": WAR.read_text().replace("    shuffle stock\n", '    include "x.cardgame"\n', 1)},
                               "E0107"),
    "replace_twice_in_one_file": ({"v.cardgame": V + 'replace game "A"\nreplace game "B"\n'}, "E0613"),
    "two_siblings_replace_one": ({"a.cardgame": V + 'replace game "A"\n', "b.cardgame": V + 'replace game "B"\n',
                                  "v.cardgame": 'include "a.cardgame"\ninclude "b.cardgame"\n'}, "E0613"),
    "replace_a_deck": ({"v.cardgame": V + "replace deck standard in stock {\n    rank: 2\n    suit: C\n}\n"}, "E0616"),
    "replace_an_include": ({"v.cardgame": 'replace include "war.cardgame"\n'}, "E0616"),
    "replace_what_no_include_declares": ({"v.cardgame": V + "replace phase nothere {\n    end game\n}\n"}, "E0611"),
    "replace_with_a_phase": ({"v.cardgame": V + "replace define tied with phase tied {\n    end game\n}\n"}, "E0614"),
    "replace_players_by_a_billion": ({"v.cardgame": V + "replace players 1000000000\n"}, "E0402"),
}


@pytest.mark.parametrize("name", list(HELD))
def test_include_and_replace_attacks_are_refused_with_their_code(name, tmp_path):
    files, code = HELD[name]
    (tmp_path / "war.cardgame").write_text(WAR.read_text())
    for relative, content in files.items():
        place = tmp_path / relative
        place.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str) and content.startswith("->"):
            os.symlink(tmp_path / content[2:], place)
        elif isinstance(content, bytes):
            place.write_bytes(content)
        else:
            place.write_text(content)
    _tables, _items, _sources, diags = interpreter.check_file(str(tmp_path / "v.cardgame"))
    assert code in {d.code for d in diags}, [d.code for d in diags]


def test_a_byte_order_mark_opening_a_file_is_skipped(tmp_path):
    """Some editors (Windows Notepad) open every UTF-8 file with a byte-order mark: it is not part
    of the text, at the start of a script, of an included file or of a replay."""
    (tmp_path / "war.cardgame").write_bytes(b"\xef\xbb\xbf" + WAR.read_bytes())
    (tmp_path / "v.cardgame").write_bytes(b"\xef\xbb\xbf" + V.encode() + b'replace game "With marks"\n')
    _tables, _items, _sources, diags = interpreter.check_file(str(tmp_path / "v.cardgame"))
    assert [d for d in diags if d.severity == "error"] == []
    game = interpreter.load(str(tmp_path / "v.cardgame"))
    assert game.title == "With marks" and not game.program.tables.zones.keys() - interpreter.load(str(WAR)).program.tables.zones.keys()
