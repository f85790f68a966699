"""A fourth newcomer campaign (i14-flow): games that stress the flow of play written from the
docs alone (Sushi Go, 6 nimmt!, Exploding Kittens, Durak, Klondike, Scopa, in tests/scripts/),
then what a newcomer met while writing them: simultaneous choices, reactions at any time,
several cards chosen at once, one-player games. Each test pins one thing found broken or
unhelpful, or one rule of those games."""

from __future__ import annotations

import json

import interpreter
from repl.cli import main
from repl.session import Session

from helpers import ROOT

SCRIPTS = ROOT / "tests" / "scripts"

SUITS_AND_COUNTS = '''game "Coins"
players 2
deck italian in deck {
    rank: 1, 2, 3
    suit: coins, cups
    name: rank suit
}
zone deck: shared hidden
zone taken: per player public
define coins(p: player) = count x in taken[p] where x.suit == coins
define cups() = 3
phase main {
    move [x for x in deck where x.suit == coins] to taken[seat(0)]
    end game
}
score p: coins(p)
'''


def _load_text(tmp_path, text: str, name: str = "game.cardgame") -> interpreter.Game:
    path = tmp_path / name
    path.write_text(text)
    return interpreter.load(str(path))


def test_a_definition_with_parameters_named_like_a_symbol_is_not_warned_about(tmp_path):
    # W0408 said "in expressions `coins` now means this declaration, never the symbol", but a
    # definition with parameters is only ever called: `x.suit == coins` still reads the suit.
    game = _load_text(tmp_path, SUITS_AND_COUNTS)
    assert not [d for d in game.warnings if d.code == "W0408"]
    state = game.new_game(players=2, seed=1)
    assert state.scores == [3, 0]


def test_a_definition_without_parameters_named_like_a_symbol_is_still_warned_about(tmp_path):
    text = SUITS_AND_COUNTS.replace("define cups() = 3", "define cups = 3")
    game = _load_text(tmp_path, text)
    assert [d.message for d in game.warnings if d.code == "W0408"] == \
        ["`cups` is also a symbol (a card attribute or option value)"]


def _simulate_json(capsys, *args) -> dict:
    assert main(["simulate", *args, "--json", "--no-progress"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_one_player_game_has_no_first_seat_advantage(capsys):
    # It reported `+0.0% [-79.4%, +0.0%]`: every won game of patience is P0's, against a fair
    # share of 1, so the figure is 0 by construction and its interval meaningless.
    stats = _simulate_json(capsys, str(SCRIPTS / "klondike.cardgame"), "-n", "12", "--seed", "2")
    assert stats["outcomes"]["won"] > 0
    assert stats["metrics"]["first_seat_advantage"] == {"value": None, "ci95": None}
    assert main(["simulate", str(SCRIPTS / "klondike.cardgame"), "-n", "12", "--seed", "2", "--no-progress"]) == 0
    assert "first-seat advantage: n/a (one player)" in capsys.readouterr().out


def test_moves_all_shortens_a_long_list_but_keeps_every_legal_move():
    # `moves --all` listed all 66 candidates of Klondike's first position (and explained each),
    # although a list of more than 40 shows its first 30; the legal ones came last.
    s = Session()
    s.execute(f"load {SCRIPTS / 'klondike.cardgame'}")
    s.execute("new seed=1")
    lines = s.execute("moves --all").splitlines()
    assert len(lines) == 1 + 30 + 2
    assert [line.split(". ")[1] for line in lines[1:-2] if ". " in line] == \
        ["draw", "home AD", "shift t7 5D t2", "shift t7 5D t3"]
    assert lines[-2:] == ["  ... 36 more forbidden: `moves --all --full` lists every one, `moves --all WORD` "
                          "those naming WORD", "4 legal of 66"]
    assert len(s.execute("moves --all --full").splitlines()) == 1 + 66 + 1


def test_moves_all_numbers_positions_with_a_hash_where_moves_read_as_numbers():
    # 6 nimmt!'s moves are `play 12`, ...: `moves` numbered them `#1`, but `moves --all` `1.`,
    # while `play 1` is refused ("no move reads `1`").
    s = Session()
    s.execute(f"load {SCRIPTS / 'six_nimmt.cardgame'}")
    s.execute("new seed=3")
    listed = s.execute("moves --all").splitlines()[1:3]
    assert listed == s.execute("moves").splitlines()[1:3] == ["  # 1. play 12", "  # 2. play 63"]


# One seat dealt nothing, asked with the others to pick a card at the same time.
EMPTY_HANDED = '''game "Empty handed"
players 3
deck d in stock {
    rank: 1, 2, 3, 4
}
zone stock: shared hidden
zone hand: per player owner
zone pile: shared public
phase main {
    deal 1 from stock to hand of [seat(0), seat(2)]
    simultaneously for p in players {
        decide p "Pick a card" {
            pick(c from hand[p]) {
                move c to pile
            }
        }
    }
    end game
}
'''


def test_a_decision_without_a_legal_move_says_whose_it_was(tmp_path):
    # It said "this decision has no legal move" at `decide p`, never which of the players.
    state = _load_text(tmp_path, EMPTY_HANDED).new_game(players=3, seed=0)
    state.apply(state.legal_moves()[0].text)
    assert state.legal_moves() == []
    assert state.fault.message == "this decision has no legal move, so the game cannot go on"
    assert state.fault.hint.startswith("P1 had nothing to choose here; ")


def test_a_card_among_numbers_is_refused_where_it_would_show_as_a_number(tmp_path):
    # `eval [QH, 3]` answered `[42, 3]` (the card's inner number); `set chosen = top(stock)` into
    # `var chosen = none` logged `chosen 17`.
    s = Session()
    s.execute(f"load {ROOT / 'games' / 'bouncer.cardgame'}")
    assert s.execute("eval [QH, 3]").startswith("error[E0240]: a card and a number in one list")
    assert s.execute("eval [[QH], []]") == "[[QH], []]"
    text = SUITS_AND_COUNTS.replace("define cups() = 3", "var chosen = none").replace(
        "    end game", "    set chosen = top(deck)\n    end game")
    path = tmp_path / "chosen.cardgame"
    path.write_text(text)
    _tables, _items, _sources, diags = interpreter.check_file(str(path))
    assert [(d.code, d.message) for d in diags] == \
        [("E0240", "a card stored in `chosen`, which may hold any value")]
