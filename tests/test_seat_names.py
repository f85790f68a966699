"""Seat names (docs/language.md §3): `players 4 named N, E, S, W` names the seats wherever people
read or type one; P0, P1... still type them."""

from __future__ import annotations

import json

from helpers import SCRIPTS, check_codes, value_of

from cardgame import interpreter
from cardgame.authoring.rulebook import rulebook
from cardgame.repl.cli import main
from cardgame.repl.session import Session

NAMED = SCRIPTS / "named_seats.cardgame"


def test_moves_logs_and_views_name_the_seats():
    state = interpreter.load(str(NAMED)).new_game(players=4, seed=2)
    assert [m.text for m in state.legal_moves()] == ["lead N", "lead E", "lead S", "lead W"]
    state.apply("lead P2")  # a seat typed by its number still names it
    assert [e.text for e in state.observed_events("all") if e.kind == "log"] == ["N lets S lead"]
    view = state.view(2)
    assert view["viewer"] == "S" and view["to_act"] == "S" and view["seats"] == ["N", "E", "S", "W"]
    assert view["zones"]["hand"] == {"N": ["??", "??"], "E": ["??", "??"], "S": ["4C", "3C"], "W": ["??", "??"]}
    assert view["vars"] == {"taken": {"N": 0, "E": 0, "S": 0, "W": 0}, "leader": "S"}
    assert view["teams"] == {"T0": ["N", "S"], "T1": ["E", "W"]}
    # in an expression a seat's name is a seat unless the script uses the word: `S` is the spades
    assert value_of(state, "count(hand[N]) + count(hand[P1])") == "4"
    assert value_of(state, "[c for c in cards(stock) where c.suit == S] == [c for c in cards(stock) "
                           "where c.suit == S]") == "true"
    assert value_of(state, "leader == E") == "false" and value_of(state, "left_of(N)") == "E"


def test_an_unnamed_game_is_as_before():
    state = interpreter.load(str(SCRIPTS / "partnership.cardgame")).new_game(players=4, seed=1)
    view = state.view("all")
    assert "seats" not in view and set(view["zones"]["hand"]) == {"P0", "P1", "P2", "P3"}


def test_the_repl_shows_and_reads_the_names():
    s = Session()
    s.start(str(NAMED), seed=2)
    assert s.execute("seat s random") == "S is played by the random agent"
    assert s.execute("view w") == "view: W"
    assert s.execute("view P0") == "view: N"
    assert s.execute("show hand N") == "hand[N]: 2 cards: 2S 4S"
    assert s.execute("play lead p3").splitlines()[0] == "1. N: lead W"
    assert "W to act" in s.execute("status") or "W to act" in s.execute("state")
    assert s.execute("watch taken") == "watch 1: taken = N 0 · E 0 · S 0 · W 0"


def test_play_and_simulate_name_the_seats(capsys):
    assert main(["play", str(NAMED), "--seed", "2", "--view", "e"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Named seats: 4 players, as E saw it (only what E knew)"
    assert out[1:3] == ["   1. N: lead E", "    N lets E lead"]
    assert main(["play", str(NAMED), "--seed", "2", "--view", "south"]) == 2
    assert capsys.readouterr().err.strip() == "error[E0901]: --view south: this game has 4 players, N, E, S, W"
    assert main(["simulate", str(NAMED), "--games", "20", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["seats"] == ["N", "E", "S", "W"] and stats["teams"] == {"T0": ["N", "S"], "T1": ["E", "W"]}
    assert main(["simulate", str(NAMED), "--games", "20"]) == 0
    rows = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert [r for r in rows if r in ("N", "E", "S", "W", "P0")] == ["N", "E", "S", "W"]


def test_the_rulebook_seats_the_players_by_name():
    text = rulebook(str(NAMED))
    assert "4 players, seated N, E, S, W clockwise, each on the left of the one before." in text
    assert "Teams, which win or lose together: N and S; E and W." in text


def test_bad_seat_names(tmp_path):
    body = 'phase only {\n    end game\n}\n'
    assert check_codes(tmp_path, "players 4 named N, E, S\n" + body) == ["E0408"]
    assert check_codes(tmp_path, "players 3 named N, E, n\n" + body) == ["E0408"]
    assert check_codes(tmp_path, "players 2 named P1, P0\n" + body) == ["E0408"]
    assert check_codes(tmp_path, "players 2 named table, x\n" + body) == ["E0408"]
    assert check_codes(tmp_path, "players 2..3 named a, b, c\nvar named: int = 0\n" + body) == []


def test_the_editor_hovers_a_seat_name():
    from cardgame.authoring.analysis import Analysis
    text = NAMED.read_text()
    line = next(i for i, l in enumerate(text.splitlines(), 1) if l.startswith("players"))
    assert Analysis(str(NAMED), text).hover(line, text.splitlines()[line - 1].index(" S,") + 2) == \
        "```cardgame\nplayers 4 named N, E, S, W\n```\nthe name of seat P2 (`seat(2)`), as people read and type it"
