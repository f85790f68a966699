"""A third newcomer campaign (i13-newcomer): games written from the docs alone (a blackjack, a
climbing game, a memory game, ...), then the wrong scripts, commands and files a newcomer
produces. Each test pins one thing that campaign found broken or unhelpful; the scripts are
written inline (a script in tests/scripts/ would change the fingerprint of every game the engine
plays)."""

from __future__ import annotations

from cardgame.repl.session import Session

# A binder over a list of lists offers moves such as `lay [2C, 2D]` (docs/language.md §8).
LISTS_AS_MOVES = '''game "Lay lists"
players 2
deck small in stock {
    rank: 2, 3, 4
    suit: C, D
    name: rank suit
}
zone stock: shared hidden
zone hand: per player owner
zone table: shared public
define groups_of(h: list of card) = [[x] for x in h] + [[x, y] for x in h for y in h where x.rank == y.rank and x.suit == C and y.suit == D]
phase main {
    move [x for x in stock where x.rank != 2] to hand[seat(0)]
    move stock to hand[seat(1)]
    decide seat(0) "Lay" {
        lay(cs from groups_of(hand[seat(0)])) {
            move cs to table face up
        }
    }
    end game
}
'''


def _session(tmp_path, text: str, name: str) -> Session:
    path = tmp_path / name
    path.write_text(text)
    s = Session()
    s.execute(f"load {path}")
    return s


def test_list_valued_moves_are_found_by_their_cards_and_typed_loosely(tmp_path):
    s = _session(tmp_path, LISTS_AS_MOVES, "lists.cardgame")
    moves = s.execute("moves")
    assert "lay [4D, 4C]" not in moves and "lay [4C, 4D]" in moves
    # `moves 4C` found nothing: the words of `lay [4C, 4D]` were `[4C,` and `4D]`
    assert "lay [4C]" in s.execute("moves 4c") and "lay [4C, 4D]" in s.execute("moves 4C 4D")
    # a list typed without the space after its comma, or with spaces inside its brackets
    assert "legal" in s.execute("why lay [4C,4D]").splitlines()[0]
    assert s.execute("play lay [ 4c , 4d ]").startswith("1. P0: lay [4C, 4D]")


def test_a_list_move_typed_without_brackets_says_to_write_the_brackets(tmp_path):
    s = _session(tmp_path, LISTS_AS_MOVES, "lists.cardgame")
    out = s.execute("why lay 4C 4D")
    # it said "4C is not one of P0's choices; it is in P0's hand"
    assert "not one of P0's choices" not in out
    assert "`lay` takes a list, written in brackets as the moves show it" in out
    assert "did you mean `lay [4C, 4D]`?" in out
    # a card inside a list that the seat does not hold is located, as a card alone is
    out = s.execute("why lay [2C]")
    assert "2C is not in P0's hand; it is in P1's hand" in out


# Cards dealt only with a high `pairs`: lint tries a wide int range at its default, lowest and
# lowest + 1, so these cards never moved in its games although the script uses them.
CARDS_FOR_HIGH_OPTION = '''game "Pairs laid"
players 2
option pairs: int in 1..13 = 2 "Pairs laid out."
deck tiles in box {
    ordered kind: a, b, c, d, e, f, g, h, i, j, k, l, m
    copy: x, y
}
zone box: shared hidden
zone grid: shared public
phase main {
    move [t for t in box where place(t.kind) < pairs] to grid
    decide seat(0) "Go" {
        go
    }
    end game
}
'''


def test_lint_says_which_option_values_it_never_played(tmp_path):
    from cardgame.interpreter import load
    from cardgame.interpreter.studies.lint import lint

    path = tmp_path / "pairs.cardgame"
    path.write_text(CARDS_FOR_HIGH_OPTION)
    report = lint(load(str(path)), games=2)
    found = [d for d in report.diagnostics if d.code == "L0501"]
    assert len(found) == 1
    # the hint said "they never take part in play", which the script's own option contradicts
    assert found[0].hint.endswith("(the games played `pairs` only at 1 and 2: `--option pairs=13` plays its highest)")
    assert not [d for d in lint(load(str(path)), games=2, fixed={"pairs": 13}).diagnostics if d.code == "L0501"]


REACTION_AND_RECORD = '''game "Answer"
players 2
record offer { amount: int }
var last_offer: offer
event asked(p: player) {
    set last_offer = offer(amount: 1)
}
reaction refuse on asked by q in [p] {
    say_no {
        cancel
    }
}
phase main {
    signal asked(seat(0))
    end game
}
'''


def test_source_shows_a_reaction_and_a_record(tmp_path):
    s = _session(tmp_path, REACTION_AND_RECORD, "answer.cardgame")
    # `source refuse` said "unknown declaration `refuse`" and listed the events but not it
    assert s.execute("source refuse").splitlines()[0] == "reaction refuse"
    assert "reaction refuse on asked by q in [p] {" in s.execute("source refuse")
    assert s.execute("source offer").splitlines()[0] == "record offer"
    # completing an expression offers the record (it makes values), never the reaction
    assert "offer" in s.expression_names() and "refuse" not in s.expression_names()


PATIENCE = '''game "Patience"
players 1
var turns: int = 0
phase main {
    decide seat(0) "Go on?" {
        go {
            set turns += 1
        }
        stop {
            end game
        }
    }
    next main
}
'''


def test_a_one_player_game_is_counted_in_the_singular(tmp_path, capsys):
    from cardgame.repl.cli import main

    path = tmp_path / "patience.cardgame"
    path.write_text(PATIENCE)
    # simulate said "Golf: 1 games, 1 players", play "1 players", lint "1 games (1 setups"
    main(["simulate", str(path), "-n", "1", "--no-progress"])
    assert capsys.readouterr().out.startswith("Patience: 1 game, 1 player, seed 0")
    main(["play", str(path), "--seed", "1"])
    assert capsys.readouterr().out.startswith("Patience: 1 player, seed 1")
    main(["lint", str(path), "-n", "1"])
    assert "played 1 game (1 setup, " in capsys.readouterr().out
    assert main(["play", str(path), "--view", "P2"]) == 2
    assert "this game has 1 player, P0 only" in capsys.readouterr().err


def _check(tmp_path, text: str, name: str = "script.cardgame") -> list:
    from cardgame.interpreter import check_file

    path = tmp_path / name
    path.write_text(text)
    return check_file(str(path))[3]


def test_teams_computed_from_the_seat_are_judged_by_check_for_every_player_count(tmp_path):
    # `teams p: number(p) - 1` passed `check` and failed only at new_game (E0708)
    head = 'game "T"\nplayers 2..4\n'
    tail = '\nphase only {\n    end game\n}\n'
    found = _check(tmp_path, head + "teams p: number(p) - 1" + tail)
    assert [(d.code, d.message) for d in found] == [
        ("E0347", "the teams do not work out for 2 players: seat 0 gets team number -1; "
                  "a team number is a whole number from 0 up")]
    assert found[0].label == "gives seat 0: -1, seat 1: 0"
    # 2 and 3 players make teams 0, 1 (0): fine; only the count that leaves a gap is named
    found = _check(tmp_path, head + "teams p: if number(p) == 3 then 3 else number(p) % 2" + tail)
    assert [d.message for d in found] == ["the teams do not work out for 4 players: no seat is in team 2, "
                                          "though seats are in team 3; number the teams 0, 1, ... without gaps"]
    for fine in ("number(p) % 2", "if number(p) % 2 == 0 then 0 else 1", "(number(p) + player_count) % 2"):
        assert not [d for d in _check(tmp_path, head + f"teams p: {fine}" + tail) if d.severity == "error"], fine
    # what reads an option is left to new_game, which knows the options (E0708)
    with_option = head + 'option size: int in 1..4 = 2 "Team size."\nteams p: number(p) / size' + tail
    assert not [d for d in _check(tmp_path, with_option) if d.severity == "error"]


def test_max_of_cards_asks_for_a_key(tmp_path):
    # `max(hand[p])` was accepted and gave the card last in deck order, whatever its rank
    script = ('game "M"\nplayers 2\ndeck d in stock {\n    suit: C, D\n    ordered rank: 2, 3, A\n}\n'
              'zone stock: shared hidden\nzone hand: per player owner\n'
              'define best(p: player) = max(hand[p])\ndefine worst(p: player) = min([c for c in hand[p]])\n'
              'phase main {\n    end game\n}\n')
    found = [d for d in _check(tmp_path, script) if d.severity == "error"]
    assert [(d.code, d.message) for d in found] == [
        ("E0210", "`max` expects a list of numbers, found a zone"),
        ("E0210", "`min` expects a list of numbers, found a list of cards")]
    assert found[0].hint.startswith("to order cards, give a key: `max x in ... by x.rank`")


def test_a_draw_in_eval_is_refused_in_the_words_of_eval(tmp_path):
    # the label said "not in a rule, definition, score or the listing of a decision's moves"
    s = _session(tmp_path, PATIENCE, "patience.cardgame")
    out = s.execute("eval random(1, 6)")
    assert "error[E0218]" in out
    assert "not in an expression asked of the game (`eval`, `watch`, `break when`)" in out
    assert "not in a rule" not in out
