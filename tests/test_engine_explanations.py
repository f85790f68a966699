"""The engine's explanations the REPL reads (issue 39): a rule's verdict as players say it
(RuleResult.plain), what decided a step's outcomes (GameState.explain_outcomes: Outcome and
Decided, a best-of with every item and its key), and whether a seat may read another's decision
(GameState.choices_known_to: a dummy's face-up options, not a hidden hand).  Every answer goes
through the seat's knowledge: a view that cannot see what decided an outcome is told so."""

from __future__ import annotations

from cardgame import interpreter
from cardgame.repl.session import Session

from helpers import GAMES, SCRIPTS, line_of


def bouncer_after(*moves: str):
    state = interpreter.load(str(GAMES / "bouncer.cardgame")).new_game(seed=0)
    for move in moves:
        state.apply(move)
    return state


def test_a_rules_verdict_as_players_say_it():
    state = bouncer_after("play 9D", "play 2D", "play 4D", "play 6C")  # P1 to answer a club
    refused = state.explain("play 7D")
    assert refused.legal is False
    assert [(r.name, r.status, r.verdict, r.plain) for r in refused.rules] == [
        ("follow_suit", "fail", "c.suit == led is D == C = false", "7D's suit is D, not led (C)")]
    assert [r.plain for r in state.explain("play 3C").rules] == ["3C's suit is led (C)"]


def test_what_decided_a_tricks_winner():
    state = bouncer_after("play 9D", "play 2D")
    before = [m.text for m in state.legal_moves()]
    won, dealt = state.explain_outcomes("play 4D")
    assert [m.text for m in state.legal_moves()] == before and len(state.history) == 2  # asked on a copy
    assert (won.text, won.span.line, dealt.text, dealt.decided) == (
        "P0 wins 7H with 9D", line_of("bouncer.cardgame", 'log "{winner} wins'), "point card: 5H", ())
    (winner,) = won.decided
    assert (winner.name, winner.value, winner.source, winner.span.line) == (
        "winner", "P0", "max q in reverse(players_from(leader)) by card_strength(q)",
        line_of("bouncer.cardgame", "define trick_winner"))
    assert winner.columns == ("q", "card_strength(q)")
    assert [(r.item, r.cells, r.key, r.chosen) for r in winner.rows] == [
        ("P2", (), "2", False), ("P1", (), "0", False), ("P0", (), "7", True)]


def test_a_seat_may_read_a_decision_whose_options_all_lie_face_up():
    s = Session()
    s.start(str(SCRIPTS / "bridge.cardgame"), seed=2)
    s.execute("auto 9")  # the declarer P0 plays from the dummy P2's hand, face up
    state = s.state
    assert state.current_player == 0
    assert [state.choices_known_to(v) for v in (0, 1, 2, 3, None)] == [True] * 5
    assert state.explain("play QD", viewer=1).legal is True
    s.execute("auto 1")  # P3 plays from its own hand: only P3 may read it
    state = s.state
    assert [state.choices_known_to(v) for v in (0, 1, 2, 3, None)] == [False, False, False, True, False]
    assert state.explain(state.legal_moves()[0], viewer=1).legal is None


def test_bouncers_decisions_are_their_players_own():
    state = bouncer_after("play 9D", "play 2D")
    assert [state.choices_known_to(v) for v in (0, 1, 2, None, "all")] == [False, False, True, False, True]
