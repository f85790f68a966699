"""The HTML replay (`play --html`, `replay --html`, `simulate --report`): every position of every
view is the engine's view of that viewer there, a page for one seat names no card that seat never
knew, the same replay gives the same bytes, a Boo Ray game stays under 1 MB, and bad input gets an
error, never a traceback.  tests/test_replay_browser.py opens the pages in a real browser."""

from __future__ import annotations

import json
import re

import pytest

from cardgame import interpreter
from cardgame.repl.cli import main
from cardgame.repl.replay import replay_data, write_replay
from cardgame.repl.viewer_data import Record, ViewerError, every_viewer, viewer_data
from cardgame.repl.viewer_page import page, write_page
from helpers import (FAULTS_AT_ONCE, GAMES, PLAYED_SCRIPTS, ROOT, SCRIPTS, cards_never_known, engine_zones, names_in,
                     page_data, play_out, replay_positions)

BOUNCER = str(GAMES / "bouncer.cardgame")
BOSSPOKER = str(GAMES / "bosspoker.cardgame")
BOORAY = str(GAMES / "booray.cardgame")
HIDDEN = interpreter.HIDDEN
MOST_MOVES = 40  # of each script's game, enough to reach its tricks, commits, reactions and reveals


def played(path: str, seed: int = 1, most: int = 10_000, players=None):
    """A game of `path` played by `cardgame play`'s random players: the game and its end state."""
    game = interpreter.load(path)
    state = game.new_game(players=players, seed=seed)
    return game, play_out(state, interpreter.RandomAgent.for_game(seed), most)


def part(data: dict, pos: int, viewer: int, name: str):
    index = data["positions"][pos][2][viewer][("zones", "status", "vars", "move", "events", "why", "moves").index(name)]
    return None if index is None else data["pool"][index]


def shown_zones(data: dict, pos: int, viewer: int) -> dict:
    """(zone, seat) -> (sorted card names, how many unseen) as the page draws that position."""
    lists = part(data, pos, viewer, "zones")
    out = {}
    for (name, seat, _kind), index in zip(data["zones"], lists):
        cards = data["pool"][index]
        out[name, seat] = (sorted(c.rstrip("*") for c in cards if c != HIDDEN), cards.count(HIDDEN))
    return out


@pytest.mark.parametrize("path", PLAYED_SCRIPTS, ids=lambda p: p.stem)
def test_every_position_of_every_view_shows_the_engines_view_of_that_viewer(path):
    game, state = played(str(path), most=MOST_MOVES)
    record = Record(game, state.n, 1, {}, tuple(state.history))
    viewers = every_viewer(state.n)
    data = viewer_data(record, viewers)
    assert data["viewers"] == [game.program.seat_label(s) for s in range(state.n)] + ["spectator", "all"]
    count = 0
    for pos, at in enumerate(replay_positions(game, state.n, 1, record.moves)):
        count += 1
        for i, viewer in enumerate(viewers):
            view = at.view(viewer)
            assert shown_zones(data, pos, i) == engine_zones(view), (pos, viewer)
            status = part(data, pos, i, "status")
            assert (status["to_act"], status["prompt"], status["over"]) == (view["to_act"], view["prompt"], view["over"])
        if pos:
            move = part(data, pos, viewers.index("all"), "move")
            assert move is None or move[1] == at.history[-1]
    assert count == len(data["positions"])


FEW_MOVES = 12  # of each script's game: enough to reach its first reaction window, commit and chance step


def test_every_shipped_game_and_test_script_writes_a_page(tmp_path):
    """A page for every script (its first few moves, or its pause points in a game that asks no
    decision), written as `play --html` writes it and read back: one position per step, nothing
    fetched; and among them the kinds of step the viewer must show: a reaction window and a
    move made in it, a simultaneous commit another seat sees only as `(a hidden choice)`, a
    chance event, a table decision, and a reaction's why naming the rule it judged."""
    seen = set()
    for path in PLAYED_SCRIPTS:
        game, state = played(str(path), most=FEW_MOVES)
        out = tmp_path / f"{path.stem}.html"
        size = write_page(str(out), Record(game, state.n, 1, {}, tuple(state.history)), every_viewer(state.n))
        text = out.read_text(encoding="utf-8")
        assert size == len(text.encode("utf-8")) and "http" not in text.replace("http://www.w3.org", ""), path
        data = page_data(text)
        assert data["moves"] == list(state.history), path
        steps = [step for step, _pause, _parts in data["positions"]]
        assert steps == (list(range(len(state.history) + 1)) if state.history else [0] * len(steps)), path
        for pos in range(len(steps)):
            for i, viewer in enumerate(data["viewers"]):
                status, move, events, why = (part(data, pos, i, name) for name in ("status", "move", "events", "why"))
                reacting = (status["prompt"] or "").startswith("react")
                seen.update({"reaction window"} if reacting else ())
                if pos and reacting and move and move[1] != "pass" and viewer == move[0] and "passes" in why["verdict"]:
                    seen.add("reaction made, its why judged")
                seen.update({"hidden commit"} if move and move[1] == "(a hidden choice)" else ())
                seen.update({"chance"} if any(kind == "chance" for kind, *_ in events) else ())
                seen.update({"table decision"} if move and move[0] == "table" else ())
    assert seen == {"reaction window", "reaction made, its why judged", "hidden commit", "chance", "table decision"}


def test_a_simultaneous_commit_shows_to_others_only_once_revealed(tmp_path):
    game, state = played(str(SCRIPTS / "commit_reveal.cardgame"))
    committed = state.history[0].split()[1]  # P0's card, face down until the table reveals them all
    data = viewer_data(Record(game, state.n, 1, {}, tuple(state.history)), every_viewer(state.n))
    p1 = data["viewers"].index("P1")
    assert part(data, 1, p1, "move") == ["P0", "(a hidden choice)"]
    assert part(data, 1, p1, "why")["legal"] is None  # the why of P0's hidden choice is P0's alone
    before = json.dumps([part(data, pos, p1, name) for pos in (1, 2) for name in ("zones", "events", "why", "move")])
    assert committed not in json.dumps([data["pool"][i] for i in part(data, 2, p1, "zones")])
    assert committed not in before
    assert committed in json.dumps([data["pool"][i] for i in part(data, 3, p1, "zones")])  # revealed
    assert part(data, 1, data["viewers"].index("all"), "why")["hidden"] is True


def test_a_game_that_asks_no_decision_is_stepped_through_its_chance_events():
    game = interpreter.load(str(SCRIPTS / "dice_race.cardgame"))
    data = viewer_data(Record(game, 2, 3, {}, ()), every_viewer(2))
    pauses = [pause for _step, pause, _parts in data["positions"]]
    assert len(pauses) > 3 and {"chance", "phase"} <= set(pauses) and pauses[-1] is None
    rolls = [e[1] for pos in range(len(pauses)) for e in part(data, pos, 0, "events")]
    assert any("rolls" in text for text in rolls)


def test_a_replay_saved_at_a_pause_point_ends_there():
    game = interpreter.load(str(SCRIPTS / "dice_race.cardgame"))
    state = game.new_game(players=2, seed=3, pause_at=interpreter.PAUSES)
    for _ in range(4):
        state.step()
    data = viewer_data(Record(game, 2, 3, {}, (), (state.paused, state.pause_mark)), [0])
    assert data["positions"][-1][1] == state.paused
    assert part(data, len(data["positions"]) - 1, 0, "status")["paused"] == state.paused


def test_a_game_that_faults_ends_at_its_fault_and_a_fault_before_the_last_move_is_refused(tmp_path):
    path = tmp_path / "faulty.cardgame"
    path.write_text(FAULTS_AT_ONCE)
    game = interpreter.load(str(path))
    data = viewer_data(Record(game, 2, 0, {}, ("boom",)), every_viewer(2))
    fault = part(data, 1, 0, "status")["fault"]
    assert "R0001" in fault and "--> faulty.cardgame:" in fault  # named from the script's folder
    with pytest.raises(ViewerError, match="move 1, `boom`, stopped the game with an error"):
        viewer_data(Record(game, 2, 0, {}, ("boom", "boom2")), [0])
    with pytest.raises(ViewerError, match="move 1, `play 2H`, cannot be played"):
        viewer_data(Record(game, 2, 0, {}, ("play 2H",)), [0])


def test_the_same_replay_gives_the_same_page_byte_for_byte_and_play_gives_it_too(tmp_path, capsys, monkeypatch):
    saved, first, second, direct, inside = (str(tmp_path / name) for name in ("b.replay", "1.html", "2.html", "play.html",
                                                                               "inside.html"))
    assert main(["play", BOUNCER, "--seed", "4", "--save", saved, "--html", direct]) == 0
    assert main(["replay", saved, "--script", BOUNCER, "--html", first]) == 0
    assert main(["replay", saved, "--script", BOUNCER, "--html", second]) == 0
    assert "every view" in capsys.readouterr().out
    monkeypatch.chdir(GAMES)  # the script named from another folder: its files are named from its own
    assert main(["play", "bouncer.cardgame", "--seed", "4", "--html", inside]) == 0
    text = open(first, "rb").read()
    assert text == open(second, "rb").read() == open(direct, "rb").read() == open(inside, "rb").read()
    assert b"http://" not in text and b"https://" not in text and b" src=" not in text  # nothing fetched


def one_seat_page_holds_no_card_it_never_knew(path, seed, seat, tmp_path, moves=None):
    """Write a page for `seat` (replaying the first `moves` moves of a game) and check that it
    names no card the seat never knew, in its text or in the data it unpacks; those cards."""
    game, state = played(path, seed)
    history = list(state.history if moves is None else state.history[:moves])
    saved, out = str(tmp_path / "game.replay"), str(tmp_path / "seat.html")
    write_replay(saved, replay_data(game, saved, state.n, seed, {}, history))
    assert main(["replay", saved, "--script", path, "--view", f"P{seat}", "--html", out]) == 0
    text = open(out, encoding="utf-8").read()
    data = page_data(text)
    never = cards_never_known(game, state.n, seed, history, seat)
    assert names_in(text + json.dumps(data, ensure_ascii=False), never) == []
    assert data["viewers"] == [f"P{seat}"] and not data["full"] and "seed" not in data and "moves" not in data
    return never


def test_a_page_written_for_one_seat_names_no_card_that_seat_never_knew(tmp_path):
    never = one_seat_page_holds_no_card_it_never_knew(BOSSPOKER, 2, 1, tmp_path)
    assert len(never) > 5  # folded number cards and the box stay unseen: the check looked for them
    never = one_seat_page_holds_no_card_it_never_knew(BOUNCER, 3, 1, tmp_path, moves=10)
    assert len(never) > 20


@pytest.mark.parametrize("seed", range(1, 6))
def test_a_boo_ray_game_of_every_view_is_under_one_megabyte(seed):
    game, state = played(BOORAY, seed)
    text = page(viewer_data(Record(game, state.n, seed, {}, tuple(state.history)), every_viewer(state.n)))
    assert len(text.encode("utf-8")) < 1_000_000


def test_a_text_of_the_game_cannot_close_the_pages_script(tmp_path):
    path = tmp_path / "sly.cardgame"
    path.write_text('game "Sly"\nplayers 1\nphase main {\n    log "</script><script>alert(1)</script> & <!--"\n'
                    '    decide seat(0) "Go" {\n        go {\n            end game\n        }\n    }\n}\n')
    game = interpreter.load(str(path))
    text = page(viewer_data(Record(game, 1, 0, {}, ("go",)), every_viewer(1)))
    assert text.count("</script>") == 2  # the data's own and the code's: the log line is inside the packed data
    events = part(page_data(text), 0, 0, "events")
    assert events[0][1] == "</script><script>alert(1)</script> & <!--"


def test_simulate_report_embeds_the_longest_game_to_step_through(tmp_path, capsys):
    report = str(tmp_path / "report.html")
    assert main(["simulate", BOUNCER, "-n", "4", "--seed", "2", "--report", report, "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    text = open(report, encoding="utf-8").read()
    assert "the longest game" in text and f"--seed {stats['longest']['seed']}" in text
    assert len(page_data(text)["positions"]) == stats["longest"]["decisions"] + 1


def test_simulate_report_embeds_the_first_game_that_faulted(tmp_path, capsys):
    path = tmp_path / "faulty.cardgame"
    path.write_text(FAULTS_AT_ONCE)
    report = str(tmp_path / "report.html")
    assert main(["simulate", str(path), "-n", "6", "--report", report]) == 1
    data = page_data(open(report, encoding="utf-8").read())
    assert "R0001" in part(data, len(data["positions"]) - 1, 0, "status")["fault"]


def test_replay_prints_the_log_as_play_does(tmp_path, capsys):
    saved = str(tmp_path / "b.replay")
    assert main(["play", BOUNCER, "--seed", "5", "--save", saved]) == 0
    played_log = capsys.readouterr().out.splitlines()
    assert main(["replay", saved, "--script", BOUNCER]) == 0
    replayed = capsys.readouterr().out.splitlines()
    moves = [line for line in played_log if re.match(r"\s*\d+\. ", line)]
    assert [line for line in replayed if re.match(r"\s*\d+\. ", line)] == moves
    assert replayed[-2:] == played_log[-2:]  # final scores, winners
    assert main(["replay", saved, "--script", BOUNCER, "--view", "P1"]) == 0
    assert "as P1 saw it" in capsys.readouterr().out


def _run(*args):
    import subprocess
    import sys
    proc = subprocess.run([sys.executable, "-m", "cardgame.repl", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert "Traceback" not in proc.stdout + proc.stderr
    return proc


@pytest.mark.parametrize("make, args, code, message", [
    (lambda d: d / "x.replay", ["--html", "o.html"], 1, "cannot read"),
    (lambda d: (d / "x.replay").write_text("not json") and d / "x.replay", ["--html", "o.html"], 1, "not a replay file"),
    ("illegal", ["--html", "o.html"], 1, "move 2, `play ZZ`, cannot be played"),
    ("good", ["--view", "P9", "--html", "o.html"], 2, "this game has 3 players"),
    ("good", ["--view", "north", "--html", "o.html"], 2, "--view north: this game has 3 players, P0 to P2"),
    ("good", ["--view", "n-1", "--html", "o.html"], 2, "is not a seat"),
    ("good", ["--html", "."], 1, "cannot write"),
    ("good", ["--script", str(GAMES / "booray.cardgame")], 1, "not for"),
    ("far", [], 1, "--script FILE"),
    (lambda d: GAMES / "bouncer.cardgame", [], 1, "is a script, not a replay file"),
])
def test_bad_input_to_replay_is_an_error_never_a_traceback(tmp_path, make, args, code, message):
    if make in ("good", "illegal", "far"):
        saved = tmp_path / "b.replay"
        data = replay_data(interpreter.load(BOUNCER), str(saved), 3, 1, {}, ["play 9D", "play ZZ"] if make == "illegal"
                           else ["play 9D"])
        if make == "far":
            data["script"] = "../../elsewhere/bouncer.cardgame"
        write_replay(str(saved), data)
        if make != "far" and "--script" not in args:
            args = ["--script", BOUNCER, *args]
    else:
        saved = make(tmp_path)
    proc = _run("replay", str(saved), *[str(tmp_path / a) if a in ("o.html", ".") else a for a in args])
    assert proc.returncode == code and message in proc.stderr, proc.stderr
