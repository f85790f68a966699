"""`end game when CONDITION` (docs/language.md §14): the game ends as soon as the condition holds,
tested after every statement that changes what it reads, charged to the work budget, and said
by the trace and the REPL's `why`."""

from __future__ import annotations

from helpers import SCRIPTS, load_text, play_out, value_of, with_vars

from cardgame import interpreter
from cardgame.repl.session import Session

RACE = SCRIPTS / "race_to_121.cardgame"


def _at_play(points: list[int], seed: int = 4) -> interpreter.GameState:
    """Race to 121, seed `seed`, at P0's first decision, with these points."""
    state = interpreter.load(str(RACE)).new_game(players=2, seed=seed)
    assert state.current_player == 0
    return with_vars(state, points=dict(enumerate(points)))


def test_the_game_ends_in_the_middle_of_a_move_as_soon_as_someone_reaches_121():
    state = _at_play([120, 50])
    card = state.legal_moves()[0]
    state.apply(card)
    # P0's move adds 1 to every player, P0 first: P0 reaches 121 there, and nothing after it runs
    # (not P1's point, not P0's pips)
    assert state.is_over
    assert state.scores == [121, 50]
    assert state.winners == [0]


def test_below_the_target_the_move_runs_to_its_end():
    state = _at_play([100, 50])
    move = state.legal_moves()[0]
    pips = int(value_of(state, f"{move.text.split()[-1]}.pips"))
    state.apply(move)
    assert not state.is_over
    bonus = 2 if pips in (15, 31) else 0
    assert state.scores == [100 + 1 + pips + bonus, 51]


def test_every_random_game_ends_at_the_first_121_with_no_guard():
    for seed in range(6):
        game = interpreter.load(str(RACE))
        state = play_out(game.new_game(players=3, seed=seed), interpreter.RandomAgent(seed), 5000)
        assert state.is_over and state.fault is None
        # one statement adds at most 13 (a king's pips... 10, or 2 for 15 or 31): ended at the first 121
        assert 121 <= max(state.scores) <= 121 + 10


GUARDED = '''game "g"
players 2
var n: int = 0
var other: int = 0
{end}
phase a {{
    repeat 50 times {{
        set other += 1
    }}
    set n += 1
    if n >= 1000 {{
        end game
    }}
    next a
}}
'''


def _work(tmp_path, end: str) -> int:
    state = load_text(tmp_path, GUARDED.format(end=end), f"g{len(end)}.cardgame").new_game(players=2)
    assert state.is_over
    return state.game_work


def test_the_test_is_charged_only_after_what_it_reads_changes(tmp_path):
    plain = _work(tmp_path, "")
    # `n` changes once a phase (1000 times), `other` 50 times a phase: only `n`'s sets are followed by a test
    tested = _work(tmp_path, "end game when n >= 100000")
    per_test = (tested - plain) // 1000
    assert tested - plain == 1000 * per_test and 1 <= per_test <= 8  # a test's unit and its comparison
    quantified = _work(tmp_path, "end game when any k in [n, n, n] where k >= 100000")
    assert quantified - plain > 1000 + 1000 * 3 - 1  # and the condition's own work


def test_the_trace_and_why_say_which_statement_ended_it():
    s = Session()
    s.start(str(RACE), seed=4)
    s.execute("auto 2000 --agent random")
    state = s.state
    assert state.is_over and max(state.scores) >= 121
    ends = [e for e in state.observed_events() if e.kind == "end"]
    assert len(ends) == 1 and ends[0].text.startswith("end: `end game when` held after line ")
    lines = RACE.read_text().splitlines()
    assert lines[ends[0].span.line - 1] == "end game when any p in players where points[p] >= 121"
    after = lines[int(ends[0].text.rsplit(" ", 1)[1]) - 1].strip()
    assert after.startswith("set points[")
    out = s.execute("why 1")
    assert f"it ended as soon as `end game when any p in players where points[p] >= 121` held, after `{after}`" \
        in out


def test_a_variant_replaces_the_condition(tmp_path):
    (tmp_path / "race.cardgame").write_text(RACE.read_text())
    (tmp_path / "short.cardgame").write_text('include "race.cardgame"\nreplace game "Race to 61"\n'
                                             "replace end game when any p in players where points[p] >= 61\n")
    game = interpreter.load(str(tmp_path / "short.cardgame"))
    state = play_out(game.new_game(players=2, seed=1), interpreter.RandomAgent(1), 5000)
    assert state.is_over and 61 <= max(state.scores) <= 61 + 10
