"""The prose of the docs, checked: every concrete claim docs/language.md, docs/repl.md and README
make about what a construct does (a default, an order, an edge case, a limit and its error) is a
row of a table here, so the docs stay promises the engine keeps.  test_docs_examples.py runs the
docs' code blocks; this file runs what the sentences around them say."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from cardgame import interpreter
from cardgame.repl import cli

ROOT = Path(__file__).resolve().parent.parent
PRELUDE = re.search(r"```cardgame\n# prelude\n(.*?)^```", (ROOT / "docs" / "language.md").read_text(encoding="utf-8"),
                    re.S | re.M).group(1)

# A table to run statements in: one phase, its body placed before `end game`.
TABLE = """game "Claims"
players 3
deck standard in stock {
    rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A
    suit: C, D, H, S
    name: rank suit
}
zone stock: shared hidden
zone discard: shared public
zone hand: per player owner
var n: int = 0
var xs: list of int = []
%s
phase t {
%s
    end game
}
"""


@pytest.fixture(scope="module")
def prelude_state(tmp_path_factory):
    """The prelude of language.md, three players, at its first decision: 5 cards each, 37 in stock."""
    path = tmp_path_factory.mktemp("claims") / "prelude.cardgame"
    path.write_text(PRELUDE, encoding="utf-8")
    return interpreter.load(str(path)).new_game(players=3, seed=1)


# (doc line it pins, expression, value as evaluate writes it)
EXPRESSIONS = [
    # §10 operators
    ("language.md §10 division rounds down", "-7 / 2", "-4"),
    ("language.md §10 remainder", "-7 % 3", "2"),
    ("language.md §10 + joins lists", "[C, D] + [H]", "[C, D, H]"),
    ("language.md §10 + makes a text with either side a text", '1 + "a"', "1a"),
    ("language.md §10 a list joined to a text is in brackets", '"x" + [1, 2]', "x[1, 2]"),
    ("language.md §10 none == none", "none == none", "true"),
    # §10 quantifiers and best items
    ("language.md §10 all of an empty list", "all x in [] where false", "true"),
    ("language.md §10 count quantifier", "count x in [1, 2, 3] where x > 1", "2"),
    ("language.md §10 max of empty gives none", "max x in [] by x", "none"),
    ("language.md §10 first of equal keys wins", "max x in [[1, 5], [2, 5]] by last(x)", "[1, 5]"),
    ("language.md §10 none keys are skipped", "max x in [1, 2, 3] by (if x == 3 then none else x)", "2"),
    ("language.md §10 sorted ... by keeps ties, none keys last",
     "sorted x in [3, 1, 2] by (if x == 1 then none else x)", "[2, 3, 1]"),
    ("language.md §10 several for clauses", "[x for x in [1, 2] for y in [3, 4]]", "[1, 1, 2, 2]"),
    ("language.md §10 let ... in", "let a = 1 in a + 1", "2"),
    # §10 indexing and none
    ("language.md §10 negative index from the end", "[1, 2, 3][-1]", "3"),
    ("language.md §10 index past the end is none", "[1, 2, 3][3]", "none"),
    ("language.md §10 negative index past the start is none", "[1, 2, 3][-4]", "none"),
    ("language.md §10 index of an empty list", "[][0]", "none"),
    ("language.md §10 top of an empty zone is none", "top(discard)", "none"),
    ("language.md §10 attribute of none", "top(discard).suit", "none"),
    ("language.md §10 owner(none)", "owner(none)", "none"),
    ("language.md §10 zone_of(none)", "zone_of(none)", "none"),
    ("language.md §10 face_up(none)", "face_up(none)", "false"),
    # §11 built-ins, edge cases
    ("language.md §11 count of empty", "count([])", "0"),
    ("language.md §11 empty", "empty([])", "true"),
    ("language.md §11 sum of empty", "sum([])", "0"),
    ("language.md §11 sum skips none", "sum([1, none, 2])", "3"),
    ("language.md §11 max of empty list", "max([])", "none"),
    ("language.md §11 min of empty list", "min([])", "none"),
    ("language.md §11 max skips none", "max([3, none, 1])", "3"),
    ("language.md §11 max of several numbers", "max(4, 9, 2)", "9"),
    ("language.md §11 top(Z, n) of an empty zone", "top(discard, 2)", "[]"),
    ("language.md §11 bottom of an empty zone", "bottom(discard)", "none"),
    ("language.md §11 top(Z, n) topmost first", "top(stock, 2) == reverse(last(cards(stock), 2))", "true"),
    ("language.md §11 bottom(Z, n) bottommost first", "bottom(stock, 2) == first(cards(stock), 2)", "true"),
    ("language.md §7 z[-1] is the top", "stock[-1] == top(stock)", "true"),
    ("language.md §7 z[0] is the bottom", "stock[0] == bottom(stock)", "true"),
    ("language.md §11 top(Z, n) past the zone's size", "count(top(stock, 100))", "37"),
    ("language.md §11 first of empty", "first([])", "none"),
    ("language.md §11 last of empty", "last([])", "none"),
    ("language.md §11 first(L, n) in list order", "first([1, 2, 3], 2)", "[1, 2]"),
    ("language.md §11 last(L, n) in list order", "last([1, 2, 3], 2)", "[2, 3]"),
    ("language.md §11 first(L, n) past the length", "first([1, 2, 3], 5)", "[1, 2, 3]"),
    ("language.md §11 reverse", "reverse([1, 2, 3])", "[3, 2, 1]"),
    ("language.md §11 unique keeps first appearances", "unique([1, 2, 1, 3, 2])", "[1, 2, 3]"),
    ("language.md §11 sorted numbers", "sorted([3, 1, 2])", "[1, 2, 3]"),
    ("language.md §11 sorted leaves none items out", "sorted([3, none, 1])", "[1, 3]"),
    ("language.md §11 sorted of empty", "sorted([])", "[]"),
    ("language.md §11 range", "range(1, 3)", "[1, 2, 3]"),
    ("language.md §11 range with b < a is empty", "range(3, 1)", "[]"),
    ("language.md §11 range of one", "range(2, 2)", "[2]"),
    ("language.md §11 index of an absent item", "index([1, 2, 3], 4)", "none"),
    ("language.md §11 index counts from 0", "index([1, 2, 3], 2)", "1"),
    ("language.md §11 abs", "abs(-5)", "5"),
    ("language.md §11 seat modulo the players", "seat(3)", "P0"),
    ("language.md §11 seat of a negative number", "seat(-1)", "P2"),
    ("language.md §11 number", "number(P2)", "2"),
    ("language.md §3 left of the last seat is seat 0", "left_of(P2)", "P0"),
    ("language.md §11 right_of", "right_of(P0)", "P2"),
    ("language.md §11 players_from", "players_from(P1)", "[P1, P2, P0]"),
    ("language.md §11 owner of a card in a shared zone", "owner(top(stock))", "none"),
    ("language.md §11 owner of a card in a hand", "owner(top(hand[P1]))", "P1"),
    ("language.md §11 subsets with k of 0", "subsets([1, 2, 3], 0)", "[[]]"),
    ("language.md §11 subsets with k below 0", "subsets([1, 2, 3], -1)", "[[]]"),
    ("language.md §11 subsets with k past the list", "subsets([1, 2, 3], 4)", "[]"),
    ("language.md §11 subsets in position order", "subsets([1, 2, 3], 2)", "[[1, 2], [1, 3], [2, 3]]"),
    ("language.md §11 disjoint_choices, empty first, depth first", "disjoint_choices([[1], [2]])",
     "[[], [[1]], [[1], [2]], [[2]]]"),
    ("language.md §10 players and player_count", "players", "[P0, P1, P2]"),
    ("language.md §10 player_count", "player_count", "3"),
]


@pytest.mark.parametrize("claim, expression, value", EXPRESSIONS, ids=[row[0] for row in EXPRESSIONS])
def test_expression_claims(prelude_state, claim, expression, value):
    assert prelude_state.evaluate(expression) == (value, [])


# (doc line it pins, expression, the code of the diagnostic it gives, a part of its message)
REFUSED = [
    ("language.md §11 max(a, b, ...) of 2 to 8 numbers", "max(1, 2, 3, 4, 5, 6, 7, 8, 9)", "E0213", "1 to 8"),
    ("language.md §11 sorted(L) sorts numbers only", "sorted([C, D])", "E0210", "list of numbers"),
    ("language.md §10 arithmetic on none stops", "abs(none)", "R0002", "none"),
    ("language.md §10 division by zero is a run-time error", "1 / 0", "R0002", "division by zero"),
    ("language.md §19 team built-ins only with teams", "partner(P0)", "E0343", "no teams"),
]


@pytest.mark.parametrize("claim, expression, code, part", REFUSED, ids=[row[0] for row in REFUSED])
def test_refused_expression_claims(prelude_state, claim, expression, code, part):
    value, diagnostics = prelude_state.evaluate(expression)
    assert value is None and diagnostics[0].code == code and part in diagnostics[0].message


def _played(tmp_path, body: str, decls: str = "") -> str:
    path = tmp_path / "t.cardgame"
    path.write_text(TABLE % (decls, body), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        cli.main(["play", str(path), "--seed", "1"])
    return out.getvalue()


# (doc line it pins, statements, what the game's output holds)
STATEMENTS = [
    ("language.md §13 several cards keep their order on top",
     "move [4C, 5C] to discard\nmove [2C, 3C] to discard\nlog \"{cards(discard)}\"", "[4C, 5C, 2C, 3C]"),
    ("language.md §13 at bottom: the first one ends lowest",
     "move [4C, 5C] to discard\nmove [6C, 7C] to discard at bottom\nlog \"{cards(discard)}\"", "[6C, 7C, 4C, 5C]"),
    ("language.md §13 none items are skipped",
     "move [none, 8C] to discard\nlog \"{cards(discard)}\"", "[8C]"),
    ("language.md §13 a card moved onto its own zone goes on top",
     "move [4C, 5C] to discard\nmove 4C to discard\nlog \"{cards(discard)}\"", "[5C, 4C]"),
    ("language.md §13 set l[-1] is the last item",
     "set xs = [1, 2, 3]\nset xs[-1] = 9\nlog \"{xs}\"", "[1, 2, 9]"),
    ("language.md §13 set l[i] outside the list is a fault",
     "set xs = [1, 2, 3]\nset xs[3] = 1", "position 3 is outside the list"),
    ("language.md §13 deal 0 deals nothing",
     "deal 0 from stock to hand of players\nlog \"{count(hand[seat(0)])}\"", "    0"),
    ("language.md §13 a negative deal computed is a run-time error",
     "set n = -1\ndeal n from stock to hand of players", "error[R0001]"),
    ("language.md §13 running out of cards says needed and held",
     "deal 20 from stock to hand of players", "is 60, and it held 52"),
    ("language.md §13 repeat none times is an error",
     "let m = none\nrepeat m times {\n log \"x\"\n}", "`repeat` needs a number of times, found none"),
    ("language.md §13 repeat below 0 times: never",
     "set n = -2\nrepeat n times {\n log \"never\"\n}\nlog \"ok\"", "    ok"),
    ("language.md §13 repeat-until sees the block's names",
     "let k = 0\nrepeat {\n let j = 5\n set k += 1\n} until j == 5\nlog \"k={k}\"", "k=1"),
    ("language.md §13 a for loop reads its list once",
     "set xs = [1, 2]\nfor x in xs {\n set xs = xs + [x]\n}\nlog \"{xs}\"", "[1, 2, 1, 2]"),
    ("language.md §22 range past MAX_LIST_LENGTH", "set xs = range(1, 100001)", "over the limit of 100000"),
    ("language.md §19 without score every score is 0 and all win",
     "log \"x\"", "final scores: none (the script has no `score`)\nwinners: P0, P1, P2"),
]


@pytest.mark.parametrize("claim, body, shown", STATEMENTS, ids=[row[0] for row in STATEMENTS])
def test_statement_claims(tmp_path, claim, body, shown):
    assert shown in _played(tmp_path, "\n".join("    " + line for line in body.splitlines()))


def _first_moves(tmp_path, alternatives: str) -> list[str]:
    path = tmp_path / "m.cardgame"
    path.write_text(TABLE % ("", "    decide seat(0) \"pick\" {\n%s\n    }" % alternatives), encoding="utf-8")
    return [str(m) for m in interpreter.load(str(path)).new_game(players=3, seed=1).legal_moves()]


# (doc line it pins, alternatives, the moves offered)
DECISIONS = [
    ("language.md §16 a binder's range uses the binders before it", "pick(a in 1..3, b in a..3)",
     ["pick 1 1", "pick 1 2", "pick 1 3", "pick 2 2", "pick 2 3", "pick 3 3"]),
    ("language.md §16 n in LOW..HIGH offers none if HIGH < LOW", "pick(a in 3..1)\nother", ["other"]),
    ("language.md §16 a move text that would repeat is listed once", "take(x from [1, 1, 2])", ["take 1", "take 2"]),
    ("language.md §16 sets: distinct, none left out, numbers upwards", "take(xs from 2 of [3, 1, 2, 1, none])",
     ["take 1 2", "take 1 3", "take 2 3"]),
    ("language.md §16 sets: players by seat", "take(xs from 2 of [seat(2), seat(0), seat(1)])",
     ["take P0 P1", "take P0 P2", "take P1 P2"]),
    ("language.md §16 sets: cards in deck order, smallest sets first", "take(xs from 1..2 of [QS, 3C, 9H])",
     ["take 3C", "take 9H", "take QS", "take 3C 9H", "take 3C QS", "take 9H QS"]),
    ("language.md §16 a text with a space or empty is quoted", 'take(x from ["a b", "", "c"])',
     ['take "a b"', 'take ""', "take c"]),
]


@pytest.mark.parametrize("claim, alternatives, offered", DECISIONS, ids=[row[0] for row in DECISIONS])
def test_decision_claims(tmp_path, claim, alternatives, offered):
    assert _first_moves(tmp_path, alternatives) == offered


@pytest.mark.parametrize("traced", [False, True])
def test_five_of_a_deck_is_the_move_cap_not_the_work_budget(tmp_path, traced):
    """language.md §16: `xs from 5 of` a 52-card zone is a fault of the decision's cap, whose help
    says how to write it.  The 2,598,960 sets were charged whole, so the work budget stopped it
    first with a hint about binder ranges; a last binder's sets are now charged up to the cap."""
    path = tmp_path / "five.cardgame"
    path.write_text(TABLE % ("", "    decide seat(0) {\n        take(xs from 5 of stock)\n    }"), encoding="utf-8")
    game = interpreter.load(str(path))
    state = game.new_game(players=3, seed=1, tracer=(lambda event: None) if traced else None)
    assert state.legal_moves() == []
    assert "offers more than 10,000 moves" in state.fault.message
    assert "one at a time" in state.fault.hint


def test_a_set_before_another_binder_is_still_charged_whole(tmp_path):
    """Only the last binder's sets are moves the cap counts: sets walked for a later binder's sake
    (here one that is always empty) are all paid for, so the walk cannot run unbudgeted."""
    path = tmp_path / "inner.cardgame"
    path.write_text(TABLE % ("", "    decide seat(0) {\n        take(xs from 5 of stock, k in 1..0)\n        other\n    }"),
                    encoding="utf-8")
    state = interpreter.load(str(path)).new_game(players=3, seed=1)
    assert state.legal_moves() == []
    assert "units of work" in state.fault.message


def test_reaction_window_order_and_handlers(tmp_path):
    """language.md §18: players of every reaction's list, each once, in the order of the reactions
    and their lists; `set PARAM` is seen by later players, the default effect and the handlers,
    which run in declaration order."""
    path = tmp_path / "ev.cardgame"
    path.write_text("""game "ev"
players 3
event boom(p: player, k: int) "{p} boom {k}" {
    log "default {k}"
}
reaction r1 on boom by q in [left_of(p), p] {
    up { set k = k + 10 }
    stop { cancel }
}
reaction r2 on boom by q in [p, seat(2)] {
    other
}
on boom { log "h1 {k}" }
on boom { log "h2 {k}" }
phase a {
    signal boom(seat(0), 1)
    end game
}
""", encoding="utf-8")
    logs = []
    state = interpreter.load(str(path)).new_game(players=3, tracer=lambda e: logs.append(e.text) if e.kind == "log" else None)
    asked = []
    while not state.is_over:
        moves = [str(m) for m in state.legal_moves()]
        asked.append((state.current_player, state.prompt, moves))
        state.apply("up" if "up" in moves else moves[0])
    assert asked == [(1, "P0 boom 1", ["up", "stop", "pass"]), (0, "P0 boom 11", ["up", "stop", "other", "pass"]),
                     (2, "P0 boom 21", ["other", "pass"])]
    assert logs == ["default 21", "h1 21", "h2 21"]


def test_team_values(tmp_path):
    """language.md §19 Teams: partners clockwise from p, members in seat order, partner none alone,
    a `none` score counts as 0."""
    path = tmp_path / "teams.cardgame"
    path.write_text("""game "t"
players 5
teams: [0, 2, 4], [1], [3]
phase a {
    decide seat(0) { go }
    end game
}
score t: if t == team(seat(1)) then none else number(t)
""", encoding="utf-8")
    state = interpreter.load(str(path)).new_game(players=5)
    for expression, value in [("partners(P2)", "[P4, P0]"), ("partner(P4)", "P0"), ("partner(P1)", "none"),
                              ("members(team(P4))", "[P0, P2, P4]"), ("teams", "[T0, T1, T2]"), ("team_count", "3")]:
        assert state.evaluate(expression) == (value, [])
    state.apply("go")
    assert state.team_scores == [0, 0, 2] and state.winning_teams == [2]


NESTING = """game "Nesting"
players 2
var reached: int = 0
procedure down(k: int) {
    if k > 1 {
        down(k - 1)
    } else {
        decide seat(0) { go }
        set reached += 1
    }
}
define depth(k: int) = if k <= 1 then 1 else 1 + depth(k - 1)
phase start {
    down(DEPTH)
    end game
}
"""


@pytest.mark.parametrize("depth, faults", [(200, False), (201, True)])
def test_procedure_calls_nest_200_deep_like_definitions(tmp_path, depth, faults):
    """language.md §22: MAX_CALL_DEPTH is 200 nested procedure calls, as MAX_DEFINE_DEPTH is 200
    nested definition calls.  The phase's own frame counted among the 200, so 200 nested calls
    faulted; a position 200 calls deep saves and restores."""
    path = tmp_path / "nesting.cardgame"
    path.write_text(NESTING.replace("DEPTH", str(depth)), encoding="utf-8")
    game = interpreter.load(str(path))
    state = game.new_game()
    if faults:
        assert state.fault.message == "calls nested deeper than 200 (calling `down`)"
        return
    assert state.fault is None and state.evaluate("depth(200)") == ("200", [])
    again = game.restore(state.to_json())
    again.apply("go")
    assert again.is_over and again.evaluate("reached") == ("1", [])
    assert state.evaluate("depth(201)")[1][0].message.startswith("`depth` called itself more than 200 deep")


def _session():
    from cardgame.repl.session import Session
    session = Session()
    session.execute(f"load {ROOT / 'games' / 'bouncer.cardgame'}")
    return session


# (repl.md line it pins, commands, what the last one answers)
REPL = [
    ("repl.md eval: a text alone is shown as itself, the empty one as quotes", ['eval ""'], '""'),
    ("repl.md eval: a text alone is shown as itself", ['eval "a b"'], "a b"),
    ("repl.md watch of the empty text", ['watch ""'], 'watch 1: "" = ""'),
    ("repl.md a setting command alone shows the setting: trace", ["trace"], "trace off"),
    ("repl.md a setting command alone: watch", ["watch"], "no watches; `watch EXPR` adds one"),
    ("repl.md seat P alone says who plays it", ["seat P1"], "P1 is played by the random agent"),
    ("repl.md table decisions start with a person", ["seat table"], "table is played by a person"),
    ("repl.md unbreak of an unknown id", ["unbreak 9"], "error: no breakpoint `9`; there are none"),
]


@pytest.mark.parametrize("claim, commands, answer", REPL, ids=[row[0] for row in REPL])
def test_repl_claims(claim, commands, answer):
    session = _session()
    for command in commands[:-1]:
        session.execute(command)
    try:
        said = session.execute(commands[-1])
    except Exception as refused:  # a refusal is the REPL's answer too
        said = f"error: {refused}"
    assert said == answer


def _codes(tmp_path, text: str) -> list[str]:
    path = tmp_path / "names.cardgame"
    path.write_text(text, encoding="utf-8")
    return [d.code for d in interpreter.check_file(str(path))[3]]


_MADE = ["    let {w} = 1", "    for {w} in [1] {{\n    }}", "    let z = [1 for {w} in [1]]",
         "    decide seat(0) {{\n        t({w} in 1..2)\n    }}"]
# the same names made, then read where they are in scope
_USED = ["    let {w} = 1\n    log \"{{{w} + 1}}\"", "    for {w} in [1] {{\n        log \"{{{w} + 1}}\"\n    }}",
         "    let z = [{w} + 1 for {w} in [1]]", "    decide seat(0) {{\n        t({w} in 1..2) {{ log \"{{{w} + 1}}\" }}\n    }}"]


@pytest.mark.parametrize("word", ["true", "false", "none", "if", "not"])
@pytest.mark.parametrize("made", _MADE)
def test_a_strictly_reserved_word_is_no_name(tmp_path, word, made):
    """language.md §21: the strictly reserved words are never usable as a name.  They were taken
    as locals, loop variables and binders, and every use then read as the word."""
    body = made.format(w=word)
    assert "E0651" in _codes(tmp_path, f"players 2\nphase a {{\n{body}\n    end game\n}}\n")


@pytest.mark.parametrize("word", ["any", "all", "no", "count", "max", "min", "sorted", "groups", "runs"])
@pytest.mark.parametrize("made", _MADE)
def test_a_form_word_is_a_name_outside_its_form(tmp_path, word, made):
    """language.md §21: a form's word is a keyword only in the form's shape (`count x in`), so a
    local, loop variable or binder may take it, and its uses read the name."""
    body = _USED[_MADE.index(made)].format(w=word)
    assert _codes(tmp_path, f"players 2\nphase a {{\n{body}\n    end game\n}}\n") == []


def test_a_reserved_parameter_and_a_builtin_declaration(tmp_path):
    assert _codes(tmp_path, "players 2\ndefine f(none: int) = 1\nphase a {\n    end game\n}\n") == ["E0651"]
    # a built-in's name is the script's own, with a warning at the declaration (language.md §21)
    assert _codes(tmp_path, "players 2\ndefine count = 1\nphase a {\n    end game\n}\n") == ["W0411"]
    assert _codes(tmp_path, "players 2\nrecord int { a: int }\nphase a {\n    end game\n}\n") == ["E0302"]


@pytest.mark.parametrize("word", ["move", "log", "next", "shuffle", "deal", "signal"])
def test_a_procedure_named_after_a_statement_word(tmp_path, word):
    """language.md §21: a procedure cannot be named after a statement word (E0652); its call is
    said at the call, where it used to be `unexpected )` with a list of expected tokens."""
    declared = f"players 2\nprocedure {word}() {{\n}}\nphase a {{\n    end game\n}}\n"
    assert _codes(tmp_path, declared) == ["E0652"]
    called = declared.replace("    end game", f"    {word}()\n    end game")
    assert _codes(tmp_path, called) == (["E0128"] if word == "log" else ["E0652"])


def test_simultaneous_choices_asked_once_each_bodies_in_list_order(tmp_path):
    """language.md §17: a player listed twice is asked once; the bodies run in the list's order."""
    path = tmp_path / "sim.cardgame"
    path.write_text("""game "sim"
players 3
var order: list of player = []
phase a {
    simultaneously for q in [seat(2), seat(0), seat(2), seat(1)] {
        decide q "pick" {
            a { set order = order + [q] }
        }
    }
    end game
}
""", encoding="utf-8")
    state = interpreter.load(str(path)).new_game(players=3)
    asked = []
    while not state.is_over:
        asked.append(state.current_player)
        state.apply("a")
    assert asked == [2, 0, 1] and state.evaluate("order") == ("[P2, P0, P1]", [])


@pytest.mark.parametrize("written, plain", [("5_000", "5000"), ("0x10", "16"), ("0b101", "5"), ("0o17", "15"),
                                            ("1e3", "1000")])
def test_a_number_written_as_elsewhere_is_answered_with_digits(tmp_path, written, plain):
    """language.md §2: a number is a whole number written in digits.  `0x10` was 'not a card',
    with 'this game declares no cards' for a hint."""
    path = tmp_path / "n.cardgame"
    path.write_text(f"players 2\nvar n: int = {written}\nphase a {{\n    end game\n}}\n", encoding="utf-8")
    [d] = interpreter.check_file(str(path))[3]
    assert d.code == "E0217" and d.message == f"`{written}` is neither a card nor a number" and f"(`{plain}`)" in d.hint


def test_a_fraction_is_said_to_be_one(tmp_path):
    path = tmp_path / "f.cardgame"
    path.write_text("players 2\nvar n: int = 0\nphase a {\n    set n = 2 * 0.25\n    end game\n}\n", encoding="utf-8")
    [d] = interpreter.check_file(str(path))[3]
    assert (d.code, d.message, d.span.column, d.span.end_column) == ("E0101", "`0.25` is not a whole number", 17, 21)


@pytest.mark.parametrize("players, message", [("65", "player count 65 is not a valid count"),
                                              ("0", "player count 0 is not a valid count"),
                                              ("3..2", "player count 3..2 is not a valid range")])
def test_players_from_1_to_64(tmp_path, players, message):
    """language.md §3: a game takes 1 to 64 players; `players 65` read back as `65..65`."""
    path = tmp_path / "p.cardgame"
    path.write_text(f"players {players}\nphase a {{\n    end game\n}}\n", encoding="utf-8")
    [d] = interpreter.check_file(str(path))[3]
    assert (d.code, d.message) == ("E0402", message)
    path.write_text("players 64\nphase a {\n    end game\n}\n", encoding="utf-8")
    assert interpreter.check_file(str(path))[3] == []


def test_break_in_a_moves_body_leaves_the_loop_around_the_decision(tmp_path):
    """language.md §16: `break` in a move's body leaves the `for` around the `decide` at once."""
    path = tmp_path / "brk.cardgame"
    path.write_text('''game "Break"
players 3
var asked: list of player = []
phase main {
    for q in players {
        set asked = asked + [q]
        decide q "Stop or go on" {
            stop {
                break
            }
            go
        }
    }
    end game
}
''', encoding="utf-8")
    game = interpreter.load(str(path))
    stopped = game.new_game(players=3)
    stopped.apply(next(m for m in stopped.legal_moves() if m.text == "go"))
    stopped.apply(next(m for m in stopped.legal_moves() if m.text == "stop"))
    assert stopped.is_over and stopped.evaluate("asked")[0] == "[P0, P1]"
