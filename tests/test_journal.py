"""Long games: the observation log (the knowledge model's Journal) and the history grow with the
game, and a game state is copied at every move the REPL makes or replays; copying them item by
item made opening a long replay quadratic (8,000 moves 4.1 s, 100,000 moves 267 s, where playing
them took 17 s).  These tests count what one move costs, never time it; and a recorded game
state is freed as soon as it is dropped, without waiting for the garbage collector."""

from __future__ import annotations

import io
import json
import tracemalloc

import pytest

from cardgame import interpreter
from helpers import ROOT
from cardgame.repl import timeline
from cardgame.repl.replay import replay_data, write_replay
from cardgame.repl.session import Session

LONG = str(ROOT / "tests" / "scripts" / "long_swap.cardgame")


def _moves(turns: int, seed: int = 1) -> list:
    """The moves of a game of `turns` moves, played by random agents without a journal."""
    game = interpreter.load(LONG)
    state = game.new_game(seed=seed, options={"turns": turns})
    agent = interpreter.RandomAgent.for_game(seed)
    while not state.is_over:
        state.apply(agent.choose(state.legal_moves()))
    return list(state.history)


def _replay(tmp_path, turns: int) -> str:
    game = interpreter.load(LONG)
    path = str(tmp_path / f"long{turns}.replay")
    write_replay(path, replay_data(game, path, 2, 1, {"turns": turns}, _moves(turns)))
    return path


def _memory_per_move(monkeypatch, run, windows) -> dict:
    """{move number: the most memory in use at once while that move was made (and its
    position kept), above what was in use before it}, for the moves in `windows` ((first, last)
    pairs), measured with tracemalloc as the REPL's timeline takes each new position."""
    real, peaks, start = timeline.Timeline.append, {}, {}

    def append(self, state, actor, step):
        real(self, state, actor, step)
        made = len(self) - 1
        if tracemalloc.is_tracing():
            peaks[made] = tracemalloc.get_traced_memory()[1] - start["now"]
            if not any(first <= made < last for first, last in windows):
                tracemalloc.stop()
        if any(first <= made + 1 <= last for first, last in windows):
            if not tracemalloc.is_tracing():
                tracemalloc.start()
            tracemalloc.reset_peak()
            start["now"] = tracemalloc.get_traced_memory()[0]
    monkeypatch.setattr(timeline.Timeline, "append", append)
    try:
        run()
    finally:
        tracemalloc.stop()
    return peaks


def test_opening_a_replay_costs_the_same_per_move_at_4000_moves_as_at_1000(monkeypatch, tmp_path):
    # Each move's position was a copy of the one before with the whole history and observation
    # log copied: at 4,000 moves a move allocated about 250 KB more than at 1,000.  Now the
    # copies share them, and a move costs the same however long the game has been.
    path = _replay(tmp_path, 4000)
    session = Session()
    peaks = _memory_per_move(monkeypatch, lambda: session.execute(f"open {path}"), [(1001, 1100), (3901, 4000)])
    assert session.state.history == _moves(4000) and not session.failed
    early = max(peaks[m] for m in range(1001, 1101))
    late = max(peaks[m] for m in range(3901, 4001))
    assert late < early + 16_000, (early, late)  # 3,000 more moves: not even one more byte per move


def test_the_moves_of_a_long_auto_run_cost_the_same_late_as_early(monkeypatch):
    # `auto` in the REPL keeps each position too, and prints each move as the view saw it
    # (which read the whole observation log again at every move)
    session = Session()
    session.start(LONG, seed=2)
    session.execute("new turns=4000")
    session.execute("view P1")
    peaks = _memory_per_move(monkeypatch, lambda: session.execute("auto 4000"), [(1001, 1100), (3901, 4000)])
    assert len(session.state.history) == 4000
    early = max(peaks[m] for m in range(1001, 1101))
    late = max(peaks[m] for m in range(3901, 4001))
    assert late < early + 16_000, (early, late)


def _everything_seen(state) -> str:
    """The position, and what every viewer knows of it and saw happen, as one text."""
    seen = {str(v): [state.observation(v), [str(e) for e in state.observed_events(v)]]
            for v in [*range(state.n), None, "all"]}
    return json.dumps([state.to_json(), seen], sort_keys=True, default=str)


def test_a_copy_that_branches_off_keeps_its_own_log_and_history():
    # the copies share what they hold in common: a copy that goes on from an older position
    # (undo, then another move) must see none of the moves the other copy made after it
    game = interpreter.load(LONG)
    moves = _moves(60, seed=3)
    first = game.new_game(seed=3, options={"turns": 60}, record=True)
    for move in moves[:30]:
        first.apply(move)
    branch = first.clone()
    for move in moves[30:40]:
        first.apply(move)
    other = branch.legal_moves()[-1].text if branch.legal_moves()[-1].text != moves[30] else \
        branch.legal_moves()[0].text
    branch.apply(other)
    fresh = game.new_game(seed=3, options={"turns": 60}, record=True)
    for move in moves[:30] + [other]:
        fresh.apply(move)
    again = game.new_game(seed=3, options={"turns": 60}, record=True)
    for move in moves[:40]:
        again.apply(move)
    assert _everything_seen(branch) == _everything_seen(fresh)
    assert _everything_seen(first) == _everything_seen(again)


def test_an_opened_replay_is_the_game_that_was_played(tmp_path):
    moves = _moves(300, seed=1)
    game = interpreter.load(LONG)
    played = game.new_game(seed=1, options={"turns": 300}, record=True)
    for move in moves:
        played.apply(move)
    path = _replay(tmp_path, 300)
    session = Session()
    session.execute(f"open {path}")
    assert _everything_seen(session.state) == _everything_seen(played)
    session.execute("goto 123")  # a position made again from a checkpoint
    replayed = game.new_game(seed=1, options={"turns": 300}, record=True)
    for move in moves[:123]:
        replayed.apply(move)
    assert _everything_seen(session.state) == _everything_seen(replayed)


def test_shared_log_reads_like_a_list_and_copies_branch_apart():
    from cardgame.interpreter.machine.shared_log import SharedLog
    log = SharedLog(["a", "b"])
    copy = log.copy()
    log.append("c")
    copy.append("d")
    assert log == ["a", "b", "c"] and copy == ["a", "b", "d"] and log != copy
    assert copy[-1] == "d" and copy[0:5] == ["a", "b", "d"] and copy[::-1] == ["d", "b", "a"]
    assert list(copy.copy()) == ["a", "b", "d"] and len(copy) == 3 and repr(copy) == "['a', 'b', 'd']"
    with pytest.raises(IndexError):
        log[3]


# ---- `auto` and `step N` print each move as it is made ---------------------------------------------

BOUNCER = str(ROOT / "games" / "bouncer.cardgame")


def _bouncer() -> Session:
    s = Session()
    s.start(BOUNCER, seed=1)
    return s


def test_auto_prints_each_move_while_the_run_goes_on():
    # all of a long `auto end` came at once when the run was over: it looked hung
    s, printed = _bouncer(), []
    s.stream = lambda text: printed.append((s.step, text))
    rest = s.execute("auto 4")
    assert [step for step, _ in printed] == [1, 2, 3, 4]  # printed at once, one move at a time
    assert [text.split(":")[0] for _, text in printed] == ["1. P0", "2. P1", "3. P2", "4. P0"]
    assert rest.startswith("auto played 4 moves\nstep 4, ")
    assert "\n".join(text for _, text in printed) + "\n" + rest == _bouncer().execute("auto 4")


def test_step_n_prints_each_step_with_what_it_caused_as_it_is_made():
    s, printed = _bouncer(), []
    s.stream = lambda text: printed.append((s.step, text))
    rest = s.execute("step 3")
    assert [step for step, _ in printed] == [1, 2, 3]
    assert "\n".join(text for _, text in printed) + "\n" + rest == _bouncer().execute("step 3")


def test_a_piped_auto_prints_each_move_as_it_is_made():
    from cardgame.repl.app import run_piped

    class Out:
        def __init__(self):
            self.writes = []

        def write(self, text):
            self.writes.append((s.step, text))

        def flush(self):
            pass
    s, out = _bouncer(), Out()
    assert run_piped(s, "", io.StringIO("auto 3\n"), out) == 0
    steps = [step for step, text in out.writes if text.strip()]
    assert steps == [1, 2, 3, 3]  # three moves, then the run's end
    assert "".join(text for _, text in out.writes) == _bouncer().execute("auto 3") + "\n"


def test_a_pasted_block_prints_its_echo_before_the_moves_auto_streams():
    s, printed = _bouncer(), []
    s.stream = printed.append
    rest = s.execute_block("moves\nauto 2\nlog")
    assert printed[0].startswith("> moves\nP0 to act") and printed[0].endswith("> auto 2\n1. P0: play 9S")
    assert printed[1].startswith("2. P1: play ")
    assert "\n".join(printed + [rest]) == _bouncer().execute_block("moves\nauto 2\nlog")


# ---- `show` draws a zone as `state` does; long lines fit the terminal ---------------------------------

def _state_rows(s: Session) -> dict:
    """{label: the row's text after the count} of `state`, drawn wide enough for one line each."""
    import re
    s.width = 10_000
    rows = {}
    for line in s.execute("state").split("\n"):
        match = re.fullmatch(r"(\S+\[P\d+\]|[a-z_]\w*) +(\d+)  (.*)", line)
        if match and not line.startswith("empty:"):
            rows[match.group(1)] = (int(match.group(2)), match.group(3))
    return rows


@pytest.mark.parametrize("game, moves", [("bouncer", 7), ("booray", 9), ("bosspoker", 5), ("bohei", 6)])
@pytest.mark.parametrize("view", ["all", "P1", "spectator"])
def test_show_draws_each_zone_exactly_as_its_state_row(game, moves, view):
    # `show hand` printed the zone's own order in plain names while `state` sorted the hands,
    # counted the hidden cards and marked face-up ones: two drawings of the same cards
    s = Session()
    s.start(str(ROOT / "games" / f"{game}.cardgame"), seed=2)
    s.execute(f"auto {moves}")
    s.execute(f"view {view}")
    rows = _state_rows(s)
    assert rows
    for label, (count, words) in rows.items():
        name, _, seat = label.rstrip("]").partition("[")
        shown = s.execute(f"show {name} {seat}".strip())
        card_s = "card" if count == 1 else "cards"
        assert shown in (f"{label}: {count} {card_s}: {words}", f"{label}: {count} {card_s}, hidden"), label
        assert shown.endswith(", hidden") == (words == "hidden")


def test_show_draws_suit_symbols_and_sorts_hands_like_state():
    s = _bouncer()
    s.symbols = True
    assert s.execute("show hand P1") == "hand[P1]: 13 cards: 2♣ 3♣ 9♣ Q♣ K♣ A♣  6♦ 7♦ J♦ K♦  5♠ 6♠ 8♠"
    s.execute("view P1")
    assert s.execute("show hand P0") == "hand[P0]: 13 cards, hidden"
    assert s.execute("show prize") == "prize: 1 card: Q♥"


def test_long_lines_are_broken_between_words_at_the_terminal_width_and_excerpts_stay_whole():
    from cardgame.repl.app import fit_lines
    text = ("step 2, phase round, paused before a chance event: let roll = random(1, 6)  "
            "[tests/scripts/dice_race.cardgame:15]\n"
            "    move 9D JD 10D to discard  [games/bouncer.cardgame:82]\n"
            "45 | rule follow_suit(p: player, c: card) \"Follow the led suit if you can.\"\n"
            "   |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
            " --> games/bouncer.cardgame:45:5 and more words than the width")
    assert fit_lines(text, 44).split("\n") == [
        "step 2, phase round, paused before a chance",
        "    event: let roll = random(1, 6)",
        "    [tests/scripts/dice_race.cardgame:15]",
        "    move 9D JD 10D to discard",
        "        [games/bouncer.cardgame:82]",
        "45 | rule follow_suit(p: player, c: card) \"Follow the led suit if you can.\"",
        "   |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        " --> games/bouncer.cardgame:45:5 and more words than the width"]
    assert fit_lines("short  [a:1]", 44) == "short  [a:1]"


def test_the_interactive_repl_breaks_a_status_line_longer_than_the_terminal():
    from prompt_toolkit import PromptSession
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from cardgame.repl.app import interact
    dice = str(ROOT / "tests" / "scripts" / "dice_race.cardgame")
    s = Session()
    s.start(dice, seed=2)
    outputs = []
    with create_pipe_input() as pipe:
        pipe.send_text("step\rstep\r\x04")
        interact(s, PromptSession(input=pipe, output=DummyOutput()), output=outputs.append)  # 80 columns
    last = outputs[-1].split("\n")
    assert last[-2:] == ["step 2, phase round, paused before a chance event: let roll = random(1, 6)",
                         f"    [{dice}:15]"]
    piped = Session()
    piped.start(dice, seed=2)
    piped.execute("step")  # from a pipe, the same line whole
    assert piped.execute("step").split("\n")[-1] == ("step 2, phase round, paused before a chance event: "
                                                     f"let roll = random(1, 6)  [{dice}:15]")


def test_a_recorded_game_state_is_freed_without_waiting_for_the_garbage_collector():
    import gc
    import weakref

    from cardgame import interpreter
    state = interpreter.load(BOUNCER).new_game(seed=1, record=True)
    state.set_tracer(lambda event: None)
    state.apply(state.legal_moves()[0].text)
    gone = weakref.ref(state)
    gc.disable()
    try:
        del state  # its tracer referred to it: a cycle, kept (with its whole log) until a full collection
        assert gone() is None
    finally:
        gc.enable()
