"""Bohei at the REPL, through piped input as a person would script it: the table's questions
(traits, who begins, a challenge's winner, the "Bohei" call) are asked of the person, an action
card's answer window speaks the table's words, and `why` explains a Nö refused when played as an
ordinary card."""

from __future__ import annotations

import subprocess
import sys

from helpers import ROOT, line_of

SESSION = """\
seat P0 human
seat P1 human
seat P2 human
auto
play wears
play owns
play does_not
play does_not
play does_not
play wears
play does_not
play owns
play does_not
moves
play begins P0
moves
play draw
why play No.4 --full
play play No.4
play play StaringContest.1
play challenge P1
moves
play replay
play won P0
moves
play draw 2
play no_draw
play play DogsDraw.1
moves
play pass
play pass
moves
play did_not
moves
"""


def run_session() -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardgame.repl", "repl", "games/bohei.cardgame", "--seed", "13"],
                          input=SESSION, capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_table_decisions_are_asked_of_the_person_and_why_explains_a_refused_no():
    proc = run_session()
    out = proc.stdout
    assert "Traceback" not in out + proc.stderr
    assert proc.returncode == 1  # exactly one command failed: the refused Nö
    assert out.count("\nerror") == 1
    # The set-up's questions go to the person at the keyboard, worded as the table hears them.
    assert "the table decides: Does P0 wear glasses?" in out
    assert "auto stopped after 0 moves: a table decision is yours to make" in out
    assert "1. table: wears\n2. table: owns\n3. table: does_not\n" in out
    assert "table decision: Who is the most disorganised person at the table?\n" \
           "  1. begins P0\n  2. begins P1\n  3. begins P2\n" in out
    assert "P0 to act: P0's turn, step 1: draw a card?\n  1. draw\n  2. no_draw\n" in out
    # A Nö played as an ordinary card in step 3 is refused, and `why` says which rule and where.
    rule = line_of("bohei.cardgame", "rule answers_only")
    verdict = next(line for line in out.splitlines() if line.startswith("`play No.4` for P0 at step 11"))
    assert "illegal" in verdict and "answers_only" in verdict
    assert "rule answers_only: FAIL - Nö and Gegenteiltag are not played in step 3: " \
           "they answer a draw, discard or give that is about to hit you." in out
    assert f"--> games/bohei.cardgame:{rule}\n" in out
    assert "    c.kind = nope\n" in out
    refusal = next(line for line in out.splitlines() if line.startswith("error:"))
    assert refusal == "error: illegal move `play No.4` (P0 to act): No.4's kind is nope, one of [nope, opposite]"
    assert "  rule answers_only (games/bohei.cardgame:" in out
    assert "nothing changed" in out
    # A challenge's winner is the table's to say, replayed until clear.
    assert "table decision: Who won the staring contest between P0 and P1?\n" \
           "  1. won P0\n  2. won P1\n  3. replay\n" in out
    assert "no clear winner: the staring contest is played again" in out
    assert "P0 wins the staring contest" in out
    assert "P0 won: discard up to 2 cards, draw up to 2, or neither?" in out
    # Every seat is played by a person, so nothing is chosen at random: the session is the same
    # every time.  An action card's window asks the affected player in the table's words ...
    assert "P2 to act: P2 must draw 2 cards (All dog owners draw 2 cards.): " \
           "answer with Nö or Gegenteiltag, or pass?\n  1. play_no\n  2. pass\n" in out
    # ... and when P0's hand reaches 7 on the second card, the table, not P0, is asked about the
    # call: a person can forget it, nothing reminds the player.
    assert 'table decision: P0 now holds 7 cards: did P0 call "Bohei"?\n  1. called\n  2. did_not\n' in out
    assert "P0 did not call Bohei and cannot win at the start of their next turn" in out
    assert out.rstrip().endswith("P2 to act: P2's turn, step 1: draw a card?\n  1. draw\n  2. no_draw")
