"""The REPL that never misleads (issue 39, its "REPL" points): a move a binder's `where` left out
says which condition did, a raise of 146 amounts is one row, bookkeeping variables stay out of
`state`, cards that carry a text are drawn as it, no "scores none" in the toolbar, a person's
only move is made or offered, a dummy's moves may be asked about by every seat, and the note
under `state` says how a `shown by` hand is ordered."""

from __future__ import annotations

from helpers import GAMES, SCRIPTS, session_of
from cardgame.repl.session import Session

# The dealer picks up the top card and discards another: the binder's `where` leaves that one out.
PICK_UP = '''game "Pick up"
players 2

deck standard in stock {
    rank: 9, 10, J, Q, K, A
    suit: C, D, H, S
    name: rank suit
}

zone stock: shared hidden
zone hand: per player owner
zone discard: shared public

var picked: card = none

phase deal {
    shuffle stock
    deal 5 from stock to hand of players
    set picked = top(stock)
    move top(stock) to hand[seat(1)]
    log "P1 picks up {picked}"
    decide seat(1) "Discard a card other than the one you picked up" {
        discard(c from [x for x in hand[seat(1)] where x != picked]) {
            move c to discard
        }
    }
    end game
}
'''

# Each player answers with a 1 or passes; with seed 1, P0 holds no 1 and may only pass.
ANSWER = '''game "Answer"
players 2

deck small in pile {
    rank: 1, 2, 3
    suit: A, B
    name: rank suit
}

zone pile: shared hidden
zone hand: per player owner

var _turns: int = 0
var points: int per player = 0

rule holds_one(p: player) "You need a 1 to answer."
    require any x in hand[p] where x.rank == 1

phase main {
    shuffle pile
    deal 2 from pile to hand of players
    for p in players {
        decide p "Answer with a 1, or pass?" {
            answer requires holds_one(p) {
                set points[p] += 1
            }
            pass
        }
        set _turns += 1
    }
    end game
}

score p: points[p]
winners: highest score
'''

BOHEI_TO_STEP_3 = ["seat P0 human", "seat P1 human", "seat P2 human", "auto", "play wears", "play owns",
                   "play does_not", "play does_not", "play does_not", "play wears", "play does_not", "play owns",
                   "play does_not", "play begins P0", "play draw"]


def started(path, **settings) -> Session:
    s = Session()
    assert s.start(str(path), **settings).startswith("loaded ")
    return s


def pick_up(tmp_path) -> Session:
    s = session_of(tmp_path, PICK_UP, "pickup.cardgame")
    s.execute("new seed=1")
    assert s.execute("show hand P1") == "hand[P1]: 6 cards: 10D JD KD  QH  JS KS"  # 10D, picked up, is there
    return s


def test_a_card_left_out_by_the_binders_where_says_which_condition_did(tmp_path):
    s = pick_up(tmp_path)
    # it said "10D is not in P1's hand" while `show hand P1` listed it
    assert s.execute("play discard 10D") == (
        "error: `discard 10D` is not one of the choices: `[x for x in hand[seat(1)] where x != picked]` leaves "
        "10D out: for x = 10D, x != picked is 10D != 10D = false")
    assert s.execute("why discard 10D").startswith(
        "`discard 10D` for P1 at step 0 (phase deal): illegal: `discard 10D` is not one of the choices: "
        "`[x for x in hand[seat(1)] where x != picked]` leaves 10D out")
    # a card that is elsewhere is still located
    assert s.execute("play discard 10S") == ("error: `discard 10S` is not a move here\n"
                                             "  = help: 10S is not in P1's hand; it is in `stock`")


def test_the_engine_says_it_too(tmp_path):
    from cardgame import interpreter
    path = tmp_path / "pickup.cardgame"
    path.write_text(PICK_UP)
    state = interpreter.load(str(path)).new_game(seed=1)
    assert state.explain("discard 10D").reason.endswith("leaves 10D out: for x = 10D, x != picked is 10D != 10D = false")


def boss_poker_betting() -> Session:
    s = started(GAMES / "bosspoker.cardgame", players=3)
    s.execute("auto 6")  # P0 may call, raise 134 to 145, or fold
    return s


def test_a_run_of_numbered_moves_is_one_row():
    s = boss_poker_betting()
    assert s.execute("moves").splitlines()[1:] == ["      #1. call", "  #2-#13. raise 134..145", "     #14. fold"]
    assert s.execute("moves --all").splitlines()[1:] == [
        "       -  check   forbidden by nobody_raised", "      #1. call", "  #2-#13. raise 134..145",
        "       -  all_in  forbidden by cannot_cover", "     #14. fold", "14 legal of 16"]
    assert len(s.execute("moves --full").splitlines()) == 15  # every move on its own line
    assert s.execute("play raise 500") == ("error: `raise 500` is not one of the choices; the `raise` moves here, "
                                           "legal or not: raise 134..145\n  = help: did you mean `raise 145`?")
    assert s.execute("play 140") == "7. P0: raise 140"  # the numbers are the moves' own, as before


def test_state_leaves_bookkeeping_variables_out_unless_asked(tmp_path):
    s = session_of(tmp_path, ANSWER, "answer.cardgame")
    s.execute("new seed=1")
    lines = s.execute("state").splitlines()
    assert lines[-2:] == ["points  P0 0 · P1 0", "(and 1 bookkeeping variable: `state all` shows it)"]
    assert s.execute("state all").splitlines()[-2:] == ["points  P0 0 · P1 0", "_turns = 0"]
    assert s.execute("eval _turns") == "0"
    assert s.execute("state everything") == ("error: usage: state [all] (`all`: the bookkeeping variables too, "
                                            "those named `_...`)")


def test_cards_with_a_text_are_drawn_as_it():
    s = started(GAMES / "bohei.cardgame", seed=13)
    for line in BOHEI_TO_STEP_3:
        s.execute(line)
    assert s.execute("show hand P0") == \
        "hand[P0]: 4 cards: Nö · Nö · the staring contest · All wearers of glasses draw 2 cards."
    assert s.execute("moves").splitlines()[1:] == [  # the names a move is typed with, and their texts
        "  1. play StaringContest.1  (the staring contest)",
        "  2. play SpecsDraw.2  (All wearers of glasses draw 2 cards.)", "  3. neither"]
    assert "hand[P0]    4  Nö · Nö · the staring contest\n               All wearers of glasses draw 2 cards.\n" \
        in s.execute("state")  # a text is one word of the row: the line breaks between cards


def test_no_scores_in_the_toolbar_of_a_game_without_a_score():
    s = started(GAMES / "bohei.cardgame", seed=13)
    assert s.toolbar_items() == [("game", "Bohei"), ("step", "0"), ("phase", "setup"), ("to act", "table"),
                                 ("view", "all")]  # it said `scores none`
    assert "scores" in dict(started(GAMES / "bouncer.cardgame").toolbar_items())


def test_a_persons_only_move_is_made_by_auto_and_offered_by_play(tmp_path):
    s = session_of(tmp_path, ANSWER, "answer.cardgame")
    assert s.execute("new seed=1").endswith(
        "step 0, phase main, P0 to act: Answer with a 1, or pass? (the only legal move: `pass`; `play` alone makes it)")
    s.execute("seat P0 human")
    s.execute("seat P1 human")
    assert s.execute("auto").splitlines() == [
        "1. P0: pass (the only legal move)",
        "auto stopped after 1 move: P1 is played by a person (`seat P1 random` lets auto play it)",
        "step 1, phase main, P1 to act: Answer with a 1, or pass?"]
    s.execute("undo")
    assert s.execute("play") == "1. P0: pass"  # `play` alone makes the only legal move
    assert s.execute("play").startswith("error: which move?")  # P1 has two


def test_every_seat_may_ask_about_a_dummys_moves():
    s = started(SCRIPTS / "bridge.cardgame", seed=2)
    s.execute("auto 9")  # the declarer, P0, plays from P2's hand, face up since the opening lead
    for view in ("P1", "P3", "spectator"):
        s.execute(f"view {view}")
        assert s.execute("moves").splitlines() == ["P0 to act: Play a card from P2's hand", "  1. play QD"]
        assert s.execute("why play QD").startswith("`play QD` for P0 at step 9 (phase trick): legal: QD's suit is led")
    s.execute("auto 1")  # P3's own hand: hidden from the others
    s.execute("view P1")
    assert s.execute("moves") == "P3 is to act; their choices are hidden from P1's view (`view P3` or `view all` " \
        "shows them)"


def test_the_note_under_state_says_how_a_shown_by_hand_is_ordered():
    s = started(SCRIPTS / "gin_rummy.cardgame", seed=1)
    assert "(hand shown by rank; other zones bottom card first, top card last)" in s.execute("state").splitlines()
    s = started(SCRIPTS / "hanabi.cardgame", seed=1)
    assert "(hand shown as placed; other zones bottom card first, top card last)" in s.execute("state").splitlines()
    s = started(GAMES / "bouncer.cardgame", seed=1)
    assert "(hands sorted; other zones bottom card first, top card last)" in s.execute("state").splitlines()
