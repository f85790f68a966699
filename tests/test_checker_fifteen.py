"""Known defects fixed by i15-checker: a compound `set` that escaped the checker's count test,
a run-time fault that named the statement before the failing one, zone `shown` clauses,
binder texts that read as values, `source` of a declaration kind, empty declarations, and the
loser balance of `compare`. Each test pins one of them."""

from __future__ import annotations

import pytest

from cardgame import interpreter

from helpers import ROOT

SCRIPTS = ROOT / "tests" / "scripts"


def _diagnostics(tmp_path, text: str) -> list:
    path = tmp_path / "t.cardgame"
    path.write_text(text)
    return interpreter.check_file(str(path))[3]


def _codes(tmp_path, text: str) -> list[str]:
    return [d.code for d in _diagnostics(tmp_path, text)]


# --- 1. `set v += c.rank` with a rank of numbers and names ---------------------------------------

MIXED = """game "Mixed"
players 2
deck standard in stock {
    RANK_LINE
    suit: C, D, H, S
    name: rank suit
}
zone stock: shared hidden
zone pile: shared public
var points: int = 0
var x = none
phase go {
BODY
    end game
}
score p: points
winners: highest score
"""


def _mixed(body: str, rank: str = "rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A") -> str:
    return MIXED.replace("RANK_LINE", rank).replace("BODY", body)


@pytest.mark.parametrize("rank", ["ordered rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A",
                                  "rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A"])
@pytest.mark.parametrize("op", ["+=", "-="])
def test_a_compound_set_counting_a_rank_of_names_is_E0230(tmp_path, rank, op):
    """Before: `set points += c.rank` passed the checker (only `set points = points + c.rank`
    was E0230) and faulted at run time with R0001 for the first jack."""
    found = _diagnostics(tmp_path, _mixed(f"    set points {op} top(stock).rank", rank))
    assert [(d.code, d.span.line) for d in found] == [("E0230", 13)]
    assert f"`{op}` cannot use" in found[0].message


@pytest.mark.parametrize("rank", ["ordered rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A",
                                  "rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A"])
@pytest.mark.parametrize("statement", ["repeat top(stock).rank times { log \"x\" }", "let n = -top(stock).rank",
                                       "set points = top(stock).rank", "move top(stock) to pile\n    set points = "
                                       "points - 1\n    set points = top(pile).rank",
                                       "let n = abs(top(stock).rank)", "let n = range(1, top(stock).rank)",
                                       "let n = max(top(stock).rank, 3)", "let p = seat(top(stock).rank)"])
def test_such_a_rank_where_a_number_is_needed_is_E0230(tmp_path, rank, statement):
    """Before: fits() let a rank of numbers and names stand for a number (some of its values
    are numbers), so `repeat c.rank times` or `set points = c.rank` faulted at the first jack."""
    found = _diagnostics(tmp_path, _mixed(f"    {statement}", rank))
    assert [d.code for d in found] == ["E0230"] and "cannot stand for a number here" in found[0].message


def test_a_compound_set_of_numbers_is_still_fine(tmp_path):
    assert _codes(tmp_path, _mixed("    set points += place(top(stock).rank)",
                                   "ordered rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A")) == []
    assert _codes(tmp_path, _mixed("    set points = sum([place(c.rank) for c in stock]) + count(stock)",
                                   "ordered rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A")) == []


# --- 1b. a run-time fault names the statement that failed ------------------------------------------

BEFORE = ["move top(stock) to pile face up", "log \"a line\"", "set points = 1", "let y = 2",
          "shuffle stock", "if points > 100 { log \"no\" }", "for c in pile { log \"{c}\" }"]
FAILING = ["set points = points + x", "set points += x", "let z = x + 1", "if x > 3 { log \"big\" }"]


@pytest.mark.parametrize("before", BEFORE)
@pytest.mark.parametrize("failing", FAILING)
@pytest.mark.parametrize("traced", [False, True])
def test_a_value_fault_points_at_the_failing_statement(tmp_path, before, failing, traced):
    """Before: statements in a row run as one operation, whose span was the first one's, so a
    value fault (a number and a name counted together) pointed at the statement before."""
    body = f"    move top(stock) to pile face up\n    {before}\n    set x = top(pile).suit\n    {failing}"
    path = tmp_path / "t.cardgame"
    path.write_text(_mixed(body))
    assert [d.code for d in interpreter.check_file(str(path))[3] if d.severity == "error"] == []
    game = interpreter.load(str(path))
    state = game.new_game(seed=1, tracer=(lambda event: None) if traced else None)
    assert state.fault is not None and state.fault.code == "R0001"
    assert state.fault.span.line == 16, (state.fault.message, state.fault.span)


# --- 2. a zone's `shown` clauses --------------------------------------------------------------------

ZONE = """game "Z"
players 2
deck d in stock {
    ordered rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A
    ordered suit: C, D, H, S
}
zone stock: shared hidden
zone hand: per player CLAUSE
phase go {
    end game
}
"""


@pytest.mark.parametrize("clause", ["others shown as placed shown by rank", "owner shown by rank shown as placed",
                                    "owner shown by suit, rank shown by rank"])
def test_two_shown_clauses_say_they_exclude_each_other(tmp_path, clause):
    """Before: E0101 "unexpected `shown`" and a list of declaration words."""
    found = _diagnostics(tmp_path, ZONE.replace("CLAUSE", clause))
    assert [d.code for d in found] == ["E0176"]
    assert "`shown as placed` lists the cards in the zone's own order" in found[0].hint


def test_a_shown_by_key_named_twice_is_W0177(tmp_path):
    """Before: `shown by rank, rank` was accepted silently."""
    found = _diagnostics(tmp_path, ZONE.replace("CLAUSE", "owner shown by rank, suit, rank"))
    assert [(d.code, d.span.column) for d in found] == [("W0177", 50)]
    assert _codes(tmp_path, ZONE.replace("CLAUSE", "owner shown by suit, rank")) == []


# --- 3. texts that read as values in move names ------------------------------------------------------

SAY = """game "B"
players 2
phase go {
    decide seat(0) "Say" {
        say(a from LIST)
    }
    end game
}
"""


@pytest.mark.parametrize("items, texts", [
    ('["none", none, "x"]', ['say "none"', "say x"]),
    ('["3", 3, "-3", "3a"]', ['say "3"', "say 3", 'say "-3"', "say 3a"]),
    ('["true", true, false, "false"]', ['say "true"', "say true", "say false", 'say "false"']),
    ('[["none"], ["3"], [3]]', ['say ["none"]', 'say ["3"]', "say [3]"]),
    ('["J", "a b", ""]', ["say J", 'say "a b"', 'say ""']),
])
def test_a_text_that_reads_as_a_value_is_quoted_and_every_move_round_trips(tmp_path, items, texts):
    """Before: the text "3" and the number 3 both read `say 3` (and "true", true `say true`),
    and the listing, one move per name, silently kept one of the two."""
    path = tmp_path / "say.cardgame"
    path.write_text(SAY.replace("LIST", items))
    game = interpreter.load(str(path))
    state = game.new_game(seed=1)
    moves = state.legal_moves()
    assert [m.text for m in moves] == texts
    for move in moves:
        assert state.parse_move(move.text) == move
        played = game.new_game(seed=1)
        played.apply(move.text)
        again = game.new_game(seed=1)
        again.apply(move)
        assert played.to_json() == again.to_json() and played.history == [move.text]


# --- 4. `source` of a declaration a game has once --------------------------------------------------

def _session(name: str):
    from cardgame.repl.session import Session
    session = Session()
    assert session.start(str(SCRIPTS / f"{name}.cardgame"), seed=1).startswith("loaded")
    return session


@pytest.mark.parametrize("kind, line", [("game", 'game "Long swap"'), ("players", "players 2"),
                                        ("score", "score p: points[p]"), ("winners", "winners: highest score")])
def test_source_of_a_declaration_kind_a_game_has_once_shows_it(kind, line):
    """Before: `source players` was 'unknown declaration' with 'did you mean `played`?' style hints."""
    out = _session("long_swap").execute(f"source {kind}")
    assert out.split("\n")[0] == kind and line in out, out


def test_source_says_what_it_takes():
    session = _session("long_swap")
    assert session.execute("source teams") == "error: this script has no `teams` declaration"
    out = session.execute("source nothing")
    assert "`source` takes the name of a rule" in out and "(`game`, `players`, `score`, `winners`)" in out
    assert "did you mean `players`?" in session.execute("source player")
    assert "teams: [0, 2], [1, 3]" in _session("partnership").execute("source teams")
    assert {"players", "score", "made"} <= set(session.declaration_names())


# --- 5. empty declarations and counts below one --------------------------------------------------

PLAIN = """game "E"
players 2
DECK
zone stock: shared hidden
zone hand: per player owner
LIMIT
phase go {
    deal 1 from stock to hand of players
    end game
}
"""
RANKS = "deck d in stock {\n    rank: 1, 2\n}"


@pytest.mark.parametrize("players, deck, limit, code", [
    ("players 2", "deck d in stock { }", "", "E0178"),
    ("players 2", "deck d in stock {\n    name: rank\n}", "", "E0178"),
    ("players 2", "deck d in stock {\n    rank:\n}", "", "E0177"),
    ("players 2", "deck d in stock {\n    rank: 1\n    suit:\n    name: rank\n}", "", "E0177"),
    ("players 2", 'deck d in stock {\n    card "W" x 0 { kind: wild }\n}', "", "E0175"),
    ("players 2", 'deck d in stock {\n    card "W" x -1 { kind: wild }\n}', "", "E0179"),
    ("players 0", RANKS, "", "E0402"),
    ("players 3..2", RANKS, "", "E0402"),
    ("players -1", RANKS, "", "E0179"),
    ("players 2..-1", RANKS, "", "E0179"),
    ("players 2", RANKS, "limit work_per_move 0", "E0316"),
    ("players 2", RANKS, "limit work_per_game 0", "E0316"),
    ("players 2", RANKS, "limit work_per_move -5", "E0179"),
])
def test_an_empty_declaration_or_a_count_below_one_has_its_own_diagnostic(tmp_path, players, deck, limit, code):
    """Before: an empty deck passed the checker (the game faulted at its first deal), and a
    dimension with no values or a negative count was E0101 "unexpected ..." alone."""
    text = PLAIN.replace("players 2", players).replace("DECK", deck).replace("LIMIT", limit)
    found = [d.code for d in _diagnostics(tmp_path, text) if d.severity == "error"]
    assert found[:1] == [code], found


# --- 6. compare's loser balance ----------------------------------------------------------------------

def test_compare_tests_the_loser_balance_of_games_with_one_loser_as_simulate_does(capsys):
    """Before: compare's last line tested only the seat balance of won games, "n/a (no game was
    won)" for Old Maid, whose games all end drawn with one loser."""
    from cardgame.interpreter.studies.compare import compare
    from cardgame.interpreter.studies.simulate import simulate
    from cardgame.repl.cli import main
    game = interpreter.load(str(SCRIPTS / "old_maid.cardgame"))
    result = compare(game, {}, game, {}, 30, 4, 0)
    expected = simulate(game, 30, 4, 0, {})["metrics"]["loser_balance"]
    assert result["drawn_with_one_loser"] and result["balance"]["a"]["p_value"] is None
    assert result["loser_balance"]["a"] == dict(expected, teams=False) == result["loser_balance"]["b"]
    path = str(SCRIPTS / "old_maid.cardgame")
    assert main(["compare", path, path, "-n", "30", "--players", "4", "--no-progress"]) == 0
    last = capsys.readouterr().out.rstrip("\n").split("\n")[-1]
    chi2 = f"chi-square {expected['chi2']:.2f} ({expected['df']} df)"
    assert last.startswith("seat loser balance (do they lose equal shares of the games with one loser?): A " + chi2)


def test_compare_of_games_without_one_loser_prints_no_loser_line(capsys):
    from cardgame.repl.cli import main
    path = str(SCRIPTS / "old_maid.cardgame")
    assert main(["compare", path, path, "-n", "10", "--players", "2", "--no-progress"]) == 0
    assert "loser balance" not in capsys.readouterr().out
