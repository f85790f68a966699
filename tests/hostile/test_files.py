"""Hostile files: devices, pipes, links out of the folder, huge files and huge includes, for
`check` and for `fmt` (which reads no device or pipe and writes nothing through a link)."""

from __future__ import annotations

import os

from cardgame.repl.cli import main
from conftest import SCRIPTS

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
