"""The table: hands sorted in the script's order, suit symbols at a terminal and letters elsewhere,
the cards in play and the open decision at the top, face-up marks, records shown as their fields,
dummy's face-up hand drawn as a hand, empty zones folded, every line fitted to the width; the same
drawing in `cardgame play --table`; and the toolbar that keeps the watches on a narrow terminal."""

from __future__ import annotations

import pytest

from cardgame import interpreter
from helpers import GAMES, SCRIPTS, arrange, load_script
from cardgame.repl.cli import main
from cardgame.repl.lexer import highlight_output
from cardgame.repl.session import Session
from cardgame.repl.table import Deck, coloured
from cardgame.repl.toolbar import toolbar

BOUNCER = str(GAMES / "bouncer.cardgame")
BOORAY = str(GAMES / "booray.cardgame")


def session(path=BOUNCER, seed=1, symbols=False, width=80) -> Session:
    s = Session()
    s.start(path, seed=seed)
    s.symbols, s.width = symbols, width
    return s


def test_the_table_at_the_start_of_bouncer():
    assert session().execute("state").split("\n") == [
        "Bouncer · step 0 · phase trick · view all · scores P0 0, P1 0, P2 0",
        "P0 to act: Play a card (13 legal moves)",
        "  played: P0 -   P1 -   P2 -",
        "",
        "points    12  5H 6H KH 2H 3H AH 8H 7H 4H 9H JH 10H",
        "prize      1  QH",
        "hand[P0]  13  6C 7C 8C JC  3D 4D 9D AD  3S 9S 10S JS AS",
        "hand[P1]  13  2C 3C 9C QC KC AC  6D 7D JD KD  5S 6S 8S",
        "hand[P2]  13  4C 5C 10C  2D 5D 8D 10D QD  2S 4S 7S QS KS",
        "empty: stock, discard, won",
        "(hands sorted; other zones bottom card first, top card last)",
        "",
        "total  P0 0 · P1 0 · P2 0",
        "leader = P0   first_leader = P0   led = none",
    ]


def test_the_cards_in_play_are_at_the_top_and_leave_the_zones_below():
    s = session()
    s.execute("play 9D")
    s.execute("play JD")
    lines = s.execute("state").split("\n")
    assert lines[1] == "P2 to act: Play a card (5 legal moves)"
    assert lines[2] == "  played: P0 9D   P1 JD   P2 -"
    assert not any(line.startswith("played[") for line in lines)


def test_suit_symbols_at_a_terminal_and_the_red_ones_coloured():
    s = session(symbols=True)
    out = s.execute("state")
    assert "hand[P0]  13  6♣ 7♣ 8♣ J♣  3♦ 4♦ 9♦ A♦  3♠ 9♠ 10♠ J♠ A♠" in out
    assert out.split("\n")[1].startswith("▶ P0 to act")
    fragments = highlight_output("hand[P0]  2  6♣ 3♦")
    assert ("class:card.red", "3♦") in fragments and ("", "hand[P0]  2  6♣ ") in fragments
    assert coloured("6♣ 10♥") == "6♣ \x1b[31m10♥\x1b[0m"
    assert "♦" not in session().execute("state")  # not at a terminal (or --ascii): letters


def test_a_card_turned_face_up_in_a_hand_is_marked_in_every_view():
    s = session(BOORAY, seed=3, symbols=True)  # P1 deals and turns up Q♥, which stays in P1's hand
    out = s.execute("state")
    assert "hand[P1]   5  8♣  5♦  Q♥*  2♠ Q♠" in out and "* face up)" in out
    s.execute("view P2")
    out = s.execute("state")
    assert "hand[P1]   5  Q♥* +4 hidden" in out and "hand[P2]   5  10♣ Q♣  3♦ 7♦  8♥" in out
    assert "hand[P0]   5  hidden" in out and "stock     32  hidden" in out


KLONDIKE = str(GAMES.parent / "tests" / "scripts" / "klondike.cardgame")


def _rows(out: str, *names: str) -> list[str]:
    return [line for line in out.split("\n") if line.split(" ")[0] in names]


def test_a_face_up_card_in_a_pile_declared_hidden_is_marked_even_alone():
    s = Session()
    s.start(KLONDIKE, seed=4)  # the piles t1..t7 are `shared hidden`, each top card revealed
    out = s.execute("state")
    assert _rows(out, "t1", "t2") == ["t1      1  6H*", "t2      2  QD 6C*"]  # t1 read `6H`, as if face down
    s.execute("view P0")
    assert _rows(s.execute("state"), "t1", "t2", "t7") == ["t1      1  6H*", "t2      2  (1 hidden) 6C*",
                                                         "t7      7  (6 hidden) 9S*"]  # `9S* +6 hidden`


def test_a_public_zone_marks_nothing_and_a_hand_still_counts_its_hidden_cards_at_the_end():
    s = Session()
    s.start(KLONDIKE, seed=4)
    s.execute("auto 30")
    assert _rows(s.execute("state"), "fd", "fs") == ["fd      1  AD", "fs      1  AS"]
    s = Session()
    s.start(str(GAMES / "booray.cardgame"), seed=4)  # the dealer's turned-up trump card stays in its hand
    s.execute("auto 3")
    s.execute("view P0")
    assert "hand[P1]   5  KH* +4 hidden" in s.execute("state")


def test_the_table_comes_from_the_seats_view_only():
    s = session()
    s.execute("view P1")
    out = s.execute("state")
    hands = s.state.view("all")["zones"]["hand"]
    assert not (set(hands["P0"]) | set(hands["P2"]) | set(s.state.view("all")["zones"]["points"])) & set(out.split())
    assert "\nP0 to act: Play a card\n" in out and "legal moves" not in out  # P0's choices are not P1's to see


@pytest.mark.parametrize("width", [40, 60, 80, 140])
def test_every_line_fits_the_width(width):
    for path, seed in ((BOUNCER, 1), (BOORAY, 3)):
        s = session(path, seed, symbols=True, width=width)
        s.execute("auto 4 --agent random")
        out = s.execute("state")
        assert max(len(line) for line in out.split("\n")) <= width, out
    wide = session(BOORAY, 3, width=140).execute("state").split("\n")
    assert any(line.startswith("stock     32  ") and len(line) > 100 for line in wide)  # one line when it fits


def test_a_hand_sorts_by_its_suit_then_rank_in_the_decks_order():
    from cardgame.interpreter import CardInfo
    cards = [CardInfo(f"{r}{s}", "d", {"rank": r, "suit": s}) for r in ("2", "10", "A") for s in ("C", "H")]
    deck = Deck.of(cards)
    assert deck.sorted(["AH", "2C", "10H", "AC", "2H"]) == ["2C", "AC", "2H", "10H", "AH"]
    assert deck.glyphs["10H"] == "10♥"
    odd = Deck.of([CardInfo("red", "d", {"colour": "red"}), CardInfo("blue", "d", {"colour": "blue"})])
    assert odd.glyphs == {} and odd.sorted(["blue", "red", "joker"]) == ["red", "blue", "joker"]


def test_cardgame_play_draws_the_same_table(capsys):
    assert main(["play", BOUNCER, "--seed", "1", "--table"]) == 0
    out = capsys.readouterr().out
    s = session()
    first = s.execute("state").split("\n")
    assert "\n".join("  " + line for line in first).rstrip() in out  # before the first move, as `state` draws it
    assert out.count("\n  P0 to act: Play a card") > 5 and "♣" not in out  # not a terminal: letters
    assert main(["play", BOORAY, "--seed", "1", "--table", "--view", "P1"]) == 0
    out = capsys.readouterr().out
    assert "  hand[P2]   5  10D* +4 hidden" in out


def test_the_toolbar_keeps_the_watches_on_a_narrow_terminal():
    s = session()
    s.execute("watch count(points)")
    s.execute("watch total[P0] + total[P1]")
    for width in (60, 80, 140):
        lines = "".join(t for _, t in toolbar(s, width=width)).split("\n")
        assert all(len(line) <= width for line in lines), (width, lines)
        text = "\n".join(lines)
        assert "count(points) 12" in text and "total[P0] + total[P1] 0" in text
        assert "phase trick" in text and "to act P0" in text
    assert len("".join(t for _, t in toolbar(s, width=200)).split("\n")) == 1


_NOTES = '''game "Notes"
players 2
{decks}
var x: int = 0
phase main {{
    {setup}
    decide seat(0) "Go?" {{
        go
    }}
    end game
}}
'''
_PILE = "deck d in pile {\n    rank: 1, 2, 3, 4\n    suit: A\n    name: rank suit\n}\nzone pile: shared public"


@pytest.mark.parametrize("decks, setup, note", [
    ("", "set x = 1", None),  # no zones: nothing to order
    (_PILE, "set x = 1", "(bottom card first, top card last)"),
    (_PILE + "\nzone hand: per player owner", "set x = 1", "(bottom card first, top card last)"),  # hands empty
    (_PILE + "\nzone hand: per player owner", "deal 2 from pile to hand of players", "(hands sorted)"),
    (_PILE + "\nzone hand: per player owner", "deal 1 from pile to hand of players",
     "(hands sorted; other zones bottom card first, top card last)"),
])
def test_the_note_under_the_zones_says_only_what_applies(decks, setup, note, tmp_path):
    path = tmp_path / "notes.cardgame"
    path.write_text(_NOTES.format(decks=decks, setup=setup))
    lines = session(str(path)).execute("state").split("\n")
    assert [line for line in lines if line.startswith("(")] == ([note] if note else [])


def test_the_repl_table_shows_records_as_fields_not_python_dicts():
    from cardgame.repl.table import Deck, render, snapshot
    game = load_script("little_rummy.cardgame")
    state = arrange(game.new_game(seed=0), {"hand": {0: ["3C", "4C", "5C", "9D"]}, "discard": ["2H"]}, "stock")
    state.apply("take")
    state.apply("lay 3C 4C 5C")
    lines = render(snapshot(state, "all", True), Deck.of(game.cards))
    assert "laid  P0 [{kind: run, cards: [3C, 4C, 5C]}] · P1 []" in lines


def test_the_repl_table_shows_a_single_record_variable_on_one_line(tmp_path):
    from cardgame.repl.table import Deck, render, snapshot
    script = tmp_path / "best.cardgame"
    script.write_text('game "Best"\nplayers 2\nrecord meld { size: int, name: text }\n'
                      'var best: meld = meld(size: 3, name: "set")\n'
                      'phase main {\n    decide seat(0) {\n        stop\n    }\n    end game\n}\n')
    game = interpreter.load(str(script))
    lines = render(snapshot(game.new_game(), "all", True), Deck.of(game.cards))
    assert "best = {size: 3, name: set}" in lines


def _bridge_after_the_opening_lead():
    """1 C by P0 (three passes), P2 is dummy; P1 leads its first legal card."""
    game = interpreter.load(str(SCRIPTS / "bridge.cardgame"))
    state = game.new_game(seed=1)
    for move in ("bid 1 C", "pass", "pass", "pass"):
        state.apply(move)
    state.apply(state.legal_moves()[0])
    return state


def test_a_dummy_laid_face_up_is_drawn_as_a_hand():
    # The table drew a per-player zone as a hand only while the spectator could not see all of
    # it: dummy's hand, all face up, was drawn in dealt order, without the `*` of face-up cards.
    from cardgame.repl.table import Deck, render, snapshot
    state = _bridge_after_the_opening_lead()
    assert "hand" in state.hand_zones and "played" not in state.hand_zones
    deck = Deck.of(state.game.cards, state.game.shown_orders)
    lines = render(snapshot(state, 1, False), deck, width=200)
    [row] = [line for line in lines if line.startswith("hand[P2]")]
    cards = [word.rstrip("*") for word in row.split()[2:]]
    assert all(word.endswith("*") for word in row.split()[2:])
    assert cards == deck.sorted(cards) and len(cards) == 13
