"""A decision with no legal move: the game faults, its hint says whose decision it was and what
each alternative offered, and lint does not also call that decision never asked."""

from __future__ import annotations

from cardgame import interpreter

from helpers import EMPTY_HANDED, load_text


def test_a_decision_without_a_legal_move_says_whose_it_was(tmp_path):
    # It said "this decision has no legal move" at `decide p`, never which of the players.
    state = load_text(tmp_path, EMPTY_HANDED).new_game(players=3, seed=0)
    state.apply(state.legal_moves()[0].text)
    assert state.legal_moves() == []
    assert state.fault.message == "this decision has no legal move, so the game cannot go on"
    assert state.fault.hint.startswith("P1 had nothing to choose here; ")


def test_a_decision_with_no_legal_move_says_what_each_alternative_offered(tmp_path):
    path = tmp_path / "dead.cardgame"
    path.write_text('''game "Dead end"
players 2
deck d in stock {
    rank: 1, 2
}
zone stock: shared hidden
zone hand: per player owner
var protected: bool per player = true
rule small(c: card) "Only a 1." require c.rank == 1
phase main {
    move [x for x in stock where x.rank == 2] to hand[seat(0)]
    decide seat(0) "Whose hand do you look at?" {
        look(q from [x for x in players where not protected[x]])
        play(c from hand[seat(0)]) requires small(c)
    }
    end game
}
''')
    state = interpreter.load(str(path)).new_game()
    assert state.legal_moves() == []
    # it said only "every decision needs an option that is always allowed (e.g. `pass`), ..."
    assert state.fault.hint.endswith(": here `look` had nothing to choose from "
                                     "(`q from [x for x in players where not protected[x]]`); "
                                     "the rules of `play` (`small`) forbade every move")


NO_LEGAL_LEAD = '''game "Nothing to lead"
players 2
deck small in stock {
    rank: 1, 2, 3
    suit: C, S
    name: rank suit
}
zone stock: shared hidden
zone hand: per player owner
rule never(c: card) "A rule that can never hold." require c.suit == S and c.suit != S
phase main {
    shuffle stock
    deal 2 from stock to hand of players
    decide seat(0) "Lead" {
        play(c from hand[seat(0)]) requires never(c)
    }
    end game
}
'''


def test_lint_does_not_call_a_decision_that_faulted_for_want_of_a_move_never_asked(tmp_path):
    """Before: R0001 'this decision has no legal move' and, at the same line, L0303 'this decision
    was never asked': the second contradicted the first."""
    from cardgame.interpreter.studies.lint import lint
    path = tmp_path / "lead.cardgame"
    path.write_text(NO_LEGAL_LEAD)
    found = [(d.code, d.span.line) for d in lint(interpreter.load(str(path)), games=3).diagnostics]
    assert ("R0001", 14) in found and ("L0303", 14) not in found
