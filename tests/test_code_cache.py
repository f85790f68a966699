"""Generated functions are kept between runs: a load of an unchanged script reads back what the
generator's passes and Python's compiler gave, and the program is the very same; a missing,
damaged or stale file, or one of the wrong shape under a digest that matches, is made again, and
a FIFO or a folder in a file's place is passed over."""

from __future__ import annotations

import hashlib
import marshal
import os
import shutil

import pytest

from cardgame import interpreter
from helpers import GAMES, WAR, damage, kept_file, played_json
from cardgame.interpreter.codegen import code_cache, gen_assembly, generator as codegen
from cardgame.interpreter.language import kept_files
from cardgame.interpreter.studies.simulate import simulate

BOUNCER = str(GAMES / "bouncer.cardgame")


@pytest.fixture
def folder(tmp_path, monkeypatch):
    place = tmp_path / "cache"
    monkeypatch.setenv("CARDGAME_CACHE_DIR", str(place))
    return place


def _kept(folder):
    return sorted(p for p in folder.iterdir() if p.name.startswith("code-"))


def _counting(monkeypatch) -> dict:
    """Counts the passes (over a function's lines, and over an operation's) and compilations
    run from now on."""
    runs = {"passes": 0, "compiled": 0}
    passes, compile_source = codegen.slots_in_locals, codegen.compile_source
    operation_passes = gen_assembly.drop_dead_stores

    def counted_passes(lines):
        runs["passes"] += 1
        return passes(lines)

    def counted_operation_passes(lines):
        runs["passes"] += 1
        return operation_passes(lines)
    monkeypatch.setattr(gen_assembly, "drop_dead_stores", counted_operation_passes)

    def counted_compile(src, name):
        runs["compiled"] += 1
        return compile_source(src, name)
    monkeypatch.setattr(codegen, "slots_in_locals", counted_passes)
    monkeypatch.setattr(codegen, "compile_source", counted_compile)
    return runs


def _played(game, seed=3):
    """Every move text and the final state of a game played by the random agent."""
    state = game.new_game(players=3, seed=seed)
    agent = interpreter.RandomAgent(seed)
    moves = []
    while not state.is_over:
        move = agent.choose(state.legal_moves())
        moves.append(str(move))
        state.apply(move)
    return moves, state.to_json()


def test_a_second_load_reads_every_function_back_and_is_the_same_program(folder, monkeypatch):
    first = interpreter.load(BOUNCER)
    assert len(_kept(folder)) == 1
    runs = _counting(monkeypatch)
    second = interpreter.load(BOUNCER)
    assert runs == {"passes": 0, "compiled": 0}
    assert second.program.compiler.gen.sources == first.program.compiler.gen.sources
    assert _played(second) == _played(first)


def test_the_code_is_the_same_with_or_without_the_caches(folder, monkeypatch):
    kept = interpreter.load(BOUNCER)
    kept = interpreter.load(BOUNCER)  # the tree and the functions read back
    monkeypatch.setenv("CARDGAME_CACHE_DIR", "off")
    made = interpreter.load(BOUNCER)
    assert made.program.compiler.gen.sources == kept.program.compiler.gen.sources
    assert _kept(folder) and _played(made) == _played(kept)


def test_a_damaged_file_is_made_again(folder, monkeypatch):
    first = interpreter.load(BOUNCER)
    (place,) = _kept(folder)
    data = place.read_bytes()
    place.write_bytes(data[: len(data) // 2])
    runs = _counting(monkeypatch)
    again = interpreter.load(BOUNCER)
    assert runs["passes"] > 0 and again.program.compiler.gen.sources == first.program.compiler.gen.sources
    assert place.read_bytes() == data  # written whole again


def test_a_damaged_code_file_is_made_again_not_used(folder, monkeypatch):
    expected = played_json(interpreter.load(BOUNCER), 3, 1)
    damage(kept_file(folder, "code-"), b"st.vars", b"st.varz")  # a generated line: once a traceback
    passes = []
    slots_in_locals = codegen.slots_in_locals
    monkeypatch.setattr(codegen, "slots_in_locals", lambda lines: passes.append(1) or slots_in_locals(lines))
    assert played_json(interpreter.load(BOUNCER), 3, 1) == expected
    assert passes


def _plant(change) -> None:
    """Rewrite the code file of WAR with each entry changed by `change`, under a digest that
    matches (as a writer that knows the format would)."""
    place = kept_files.private_place(kept_files.kept_name("code-", os.path.abspath(WAR)))
    stamp = code_cache._stamp()
    raw = open(place, "rb").read()
    entries = marshal.loads(raw[len(stamp) + hashlib.sha256().digest_size:])
    data = marshal.dumps({key: change(value) for key, value in entries.items()})
    with open(place, "wb") as f:
        f.write(stamp + hashlib.sha256(data).digest() + data)


@pytest.mark.parametrize("change", [
    lambda v: (1, 2) if isinstance(v, tuple) else v,          # lines that are not texts
    lambda v: (v,) if isinstance(v, tuple) else v,            # lines nested one level too deep
    lambda v: ("return (",) if isinstance(v, tuple) else v,   # lines Python cannot compile
    lambda v: () if isinstance(v, tuple) else v,              # no lines at all
], ids=["numbers", "nested", "syntax_error", "empty"])
def test_kept_code_of_the_wrong_shape_is_made_again_not_blamed_on_the_script(folder, change):
    expected = played_json(interpreter.load(str(WAR)), 2, 3)
    _plant(change)
    assert played_json(interpreter.load(str(WAR)), 2, 3) == expected  # no E0608 "nested too deeply", no traceback
    assert played_json(interpreter.load(str(WAR)), 2, 3) == expected  # and the file was made again


def test_a_fifo_or_a_folder_in_place_of_a_cache_file_is_passed_over(folder):
    """The cache read its file with open(): a FIFO planted under a cache file's name blocked
    every later load of the script."""
    expected = played_json(interpreter.load(str(WAR)), 2, 3)
    for prefix in ("code-", "tree-"):
        place = kept_files.private_place(kept_files.kept_name(prefix, os.path.abspath(WAR)))
        os.remove(place)
        os.mkfifo(place, 0o600)
    assert played_json(interpreter.load(str(WAR)), 2, 3) == expected


def test_a_file_from_other_interpreter_code_is_not_used(folder, monkeypatch):
    interpreter.load(BOUNCER)
    stamps = kept_files.code_stamps()
    monkeypatch.setattr(code_cache, "code_stamps", lambda: stamps[:-1] + [stamps[-1] + " edited"])
    runs = _counting(monkeypatch)
    interpreter.load(BOUNCER)
    assert runs["passes"] > 0 and runs["compiled"] > 0


def test_an_edited_script_makes_only_what_changed(folder, tmp_path, monkeypatch):
    shutil.copytree(GAMES / "lib", tmp_path / "lib")
    script = tmp_path / "game.cardgame"
    text = (GAMES / "bouncer.cardgame").read_text()
    script.write_text(text)
    runs = _counting(monkeypatch)
    interpreter.load(str(script))
    made = dict(runs)
    script.write_text(text + "\n# a comment changes no function\n")
    interpreter.load(str(script))
    assert runs == made
    edited = text.replace("define losing_total = -100", "define losing_total = -90")
    assert edited != text
    script.write_text(edited)
    interpreter.load(str(script))
    assert 0 < runs["compiled"] - made["compiled"] < made["compiled"] / 4


def test_nothing_is_kept_when_the_caches_are_off(folder, monkeypatch):
    monkeypatch.setenv("CARDGAME_CACHE_DIR", "off")
    interpreter.load(BOUNCER)
    assert not folder.exists() or not _kept(folder)


def test_simulate_keeps_the_playouts_operations_it_made(folder, monkeypatch):
    game = interpreter.load(BOUNCER)
    first = simulate(game, 4, 3, 1, {})
    runs = _counting(monkeypatch)
    again = simulate(interpreter.load(BOUNCER), 4, 3, 1, {})
    assert runs == {"passes": 0, "compiled": 0}
    for timing in ("games_per_second", "decisions_per_second"):
        first.pop(timing), again.pop(timing)
    assert again == first


def test_a_kept_operation_is_used_only_with_the_same_frame_reads():
    reads = {"expr_3": frozenset({2, 1}), "seq_4": None}
    kept = ((("expr_3", (1, 2)), ("seq_4", None)), ("L = fr[2]", "return"))
    assert gen_assembly._still_valid(kept, reads.get)
    assert not gen_assembly._still_valid(kept, {**reads, "expr_3": frozenset({1})}.get)
    assert not gen_assembly._still_valid(kept, {**reads, "seq_4": frozenset()}.get)
    for damaged in (None, kept[1], (kept[0],), (kept[0], ("L = fr[2]", 7)), ((("expr_3",),), kept[1]),
                    (((["expr_3"], (1, 2)),), kept[1])):
        assert not gen_assembly._still_valid(damaged, reads.get)


def test_the_files_used_longest_ago_are_removed(folder, tmp_path, monkeypatch):
    monkeypatch.setattr(code_cache, "KEPT", 2)
    paths = []
    for name in "abc":
        path = tmp_path / f"{name}.cardgame"
        path.write_text(f'game "{name}"\nplayers 2\nphase main {{\n    end game\n}}\n')
        paths.append(str(path))
    for age, path in enumerate(paths[:2]):
        before = set(_kept(folder)) if folder.exists() else set()
        interpreter.load(path)
        (written,) = set(_kept(folder)) - before
        os.utime(written, (age + 1, age + 1))  # a used long ago, b after it
    interpreter.load(paths[0])  # a read back: used now
    interpreter.load(paths[2])  # c written: b goes
    runs = _counting(monkeypatch)
    interpreter.load(paths[0])
    assert runs == {"passes": 0, "compiled": 0} and len(_kept(folder)) == 2
    interpreter.load(paths[1])
    assert runs["compiled"] > 0
