"""The REPL as a debugger (issue 39): a Bouncer hand stepped through as a person would.

`why` answers in a few lines first and expands on request (`why more`, `why full`), paged when
longer than the terminal; `why step N` says what decided a step's outcome (the trick's winner,
with every key compared); `log` shows the lines a step logged and the phases entered;
breakpoints stop `step N`; `step` makes no random move for a seat played by a person; `redo`
with `trace on` shows what the move caused; a move after `undo` keeps the undone line as a
branch to return to, and `quit` asks before throwing away work; seats may be named in lower
case in `eval`; watches are drawn as the table draws them."""

from __future__ import annotations

from helpers import line_of
from prompt_toolkit import PromptSession
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from cardgame.repl.app import interact
from cardgame.repl.session import Session

BOUNCER = "games/bouncer.cardgame"
FOLLOW_SUIT = line_of("bouncer.cardgame", "rule follow_suit")
REQUIRE_LED = line_of("bouncer.cardgame", "require c.suit == led")


def bouncer(*commands: str) -> Session:
    """Bouncer, seed 0, after `commands` (at step 4 after `auto 4`: P1 to answer 6C with a club)."""
    s = Session()
    s.execute(f"load {BOUNCER}")
    for command in commands:
        s.execute(command)
    return s


def test_why_answers_in_a_few_lines_then_more_then_full():
    s = bouncer("auto 4")
    assert s.execute("why play 7D").split("\n") == [
        "`play 7D` for P1 at step 4 (phase trick): illegal: 7D's suit is D, not led (C)",
        f"  follow_suit ({BOUNCER}:{REQUIRE_LED}): Follow the led suit if you can.",
        "    c.suit == led is D == C = false",
        "  = help: `why more`: every rule's verdict; `why full`: their values and source",
    ]
    assert s.execute("why more").split("\n")[1:] == [
        "rule follow_suit: FAIL - Follow the led suit if you can.",
        "  because: c.suit == led is D == C = false",
        "  that is: 7D's suit is D, not led (C)",
        f"  --> {BOUNCER}:{FOLLOW_SUIT}",
        "  = help: `why full` shows each rule's source lines and the values it looked at",
    ]
    full = s.execute("why full").split("\n")
    assert f"{REQUIRE_LED} |     require c.suit == led" in full and "    any x in hand[p] where x.suit == led = true (for x = 3C)" in full
    assert s.execute("why play 3C").split("\n")[0] == "`play 3C` for P1 at step 4 (phase trick): legal: 3C's suit is led (C)"


def _interact(session: Session, *lines: str) -> tuple[list[str], list[str]]:
    """What `lines` typed at a 40-line terminal printed, and what went through the pager."""
    outputs, paged = [], []
    with create_pipe_input() as pipe:
        prompt = PromptSession(input=pipe, output=DummyOutput())  # 80 x 40
        for line in lines:
            pipe.send_text(line + "\r")
        pipe.send_text("\x04")
        assert interact(session, prompt, output=outputs.append, pager=paged.append) == 0
    return outputs, paged


def test_a_long_answer_is_paged_a_short_one_printed():
    s = bouncer("auto 40")
    outputs, paged = _interact(s, "why step 39", "log", "state")
    assert len(paged) == 1 and paged[0].startswith("   1. P0: play 9D\n")  # the log of 40 moves: paged
    assert paged[0].count("\n") > 40
    assert len(outputs) == 2 and outputs[0].startswith("step 39: P0: play AS (phase trick)\n")  # short: printed
    assert outputs[1].startswith("Bouncer · step 40")  # `state` is never paged


def test_why_step_says_what_decided_the_tricks_winner():
    s = bouncer("auto 4")
    assert s.execute("why step 3").split("\n") == [
        "step 3: P2: play 4D (phase trick)",
        "  P0 wins 7H with 9D",
        "    winner = P0, chosen by trick_winner: max q in reverse(players_from(leader)) by card_strength(q)"
        f"  [{BOUNCER}:{line_of('bouncer.cardgame', 'define trick_winner')}]",
        "         q   card_strength(q)",
        "         P2  2",
        "         P1  0",
        "      -> P0  7",
        "  point card: 5H",
    ]
    assert s.execute("why step 2").split("\n")[1:] == [
        "  it logged nothing (`goto 1`, `trace on` and `redo` show all it did)"]


def test_log_shows_the_lines_each_step_logged_and_the_phases_entered():
    s = Session()
    s.execute("load games/booray.cardgame")
    s.execute("new seed=1")
    s.execute("auto 6")
    assert s.execute("log").split("\n") == [
        "   1. P3: play_hand",
        "   2. P0: pass",
        "   3. P1: play_hand",
        "   4. P2: play_hand",
        "        -> phase first_trick",
        "        -> phase trick",
        "   5. P3: play KS",
        "   6. P1: play 6S",
    ]


def test_a_breakpoint_stops_step_n():
    s = bouncer("break when count(won[P0]) > 0")
    out = s.execute("step 10").split("\n")
    assert out[-2:] == ["stopped after 3 steps of 10: breakpoint: `count(won[P0]) > 0` became true",
                        "step 3, phase trick, P0 to act: Play a card"]


def test_step_makes_no_random_move_for_a_person():
    s = bouncer("seat P0 human")
    assert s.execute("step") == (
        "error: P0 is played by a person: `step` makes no random move for them\n"
        "  = help: `play MOVE` makes P0's move (`moves` lists them); `seat P0 random` lets `step` and `auto` choose")
    assert s.state.history == []
    s.execute("play 9D")
    out = s.execute("step 5").split("\n")
    assert out[-2:] == ["stopped after 2 steps of 5: P0 is played by a person (`play MOVE` makes their move)",
                        "step 3, phase trick, P0 to act: Play a card"]
    assert len(s.state.history) == 3


def test_redo_with_trace_on_shows_what_the_move_caused():
    s = bouncer("auto 3", "trace on", "undo")
    out = s.execute("redo").split("\n")
    assert out[:3] == ["redid 3. P2: play 4D",
                       f"    rule follow_suit: pass (c.suit == led is D == D = true)  [{BOUNCER}:{FOLLOW_SUIT}]",
                       f"    move 4D to played[P2]  [{BOUNCER}:{line_of('bouncer.cardgame', 'move c to played[p]')}]"]
    assert "    P0 wins 7H with 9D" in out and f"    move 7H to won[P0]  [{BOUNCER}:{line_of('bouncer.cardgame', 'move top(prize) to won[winner]')}]" in out


def test_a_move_after_undo_keeps_the_undone_line_as_a_branch_to_return_to():
    s = bouncer("auto 4", "undo 2")
    assert s.execute("play 8D").split("\n")[-1] == \
        "note: the 2 undone moves after step 2 are kept as branch 1 (`branch 1` goes back to them)"
    assert s.execute("branch") == "1. 2 moves after step 2: 3. P2: play 4D, ..."
    assert s.execute("branch 1").split("\n") == [
        "branch 1: back at step 2, where it leaves this line; its 2 moves lie ahead (`redo`, or `goto 4`)",
        "this line's 1 move after step 2 is kept as branch 2",
        "step 2, phase trick, P2 to act: Play a card"]
    assert s.execute("goto 4").endswith("step 4, phase trick, P1 to act: Play a card")
    assert s.state.history[2:] == ["play 4D", "play 6C"]  # the line left, whole again
    assert s.execute("branch") == "2. 1 move after step 2: 3. P2: play 8D"
    assert s.execute("branch 3") == "error: no branch `3`; the branches are 2"


def test_quit_asks_before_throwing_work_away():
    asked = []
    s = bouncer()
    s.confirm = lambda question: asked.append(question) or False
    s.execute("quit")
    assert s.done and not asked  # nothing made yet: nothing to ask
    s = bouncer()
    s.confirm = lambda question: asked.append(question) or False
    s.execute("auto 4")
    s.execute("undo 2")
    s.execute("play 8D")
    assert s.execute("quit") == "not quitting (`save FILE` keeps the game)" and not s.done
    assert asked == ["5 steps made since the game was last saved, and 1 branch; quit anyway?"]
    s.confirm = lambda question: True
    s.execute("quit")
    assert s.done


def test_quit_after_save_asks_nothing(tmp_path):
    s = bouncer("auto 4")
    s.confirm = lambda question: False
    s.execute(f"save {tmp_path / 'g.replay'}")
    s.execute("quit")
    assert s.done


def test_seats_may_be_named_in_lower_case_in_eval():
    s = bouncer()
    assert s.execute("eval hand[p0]") == s.execute("eval hand[P0]") == \
        "[KD, AS, 3S, JD, 6S, 6C, 3D, 9D, 9S, KS, 6D, 4C, 10D]"
    assert s.execute("eval p1") == "P1"


def test_watches_are_drawn_as_the_table_draws_them():
    s = bouncer("auto 3")
    assert s.execute("watch total") == "watch 1: total = P0 0 · P1 0 · P2 0"
    assert s.execute("watch hand[P2]") == "watch 2: hand[P2] = 2C 5C 8C 9C AC  5D 8D QD AD  5S 7S QS"
    s.symbols = True  # a terminal: the suit symbols, as `state` draws them
    assert s._watch_value("hand[P2]") == "2♣ 5♣ 8♣ 9♣ A♣  5♦ 8♦ Q♦ A♦  5♠ 7♠ Q♠"
    assert s._watch_value("top(prize)") == "5♥"
    assert s.execute("watch won") == "watch 3: won = P0 7♥ · P1 - · P2 -"  # it was [[7H], [], []]
    assert s.execute("watch played[P0]") == "watch 4: played[P0] = empty"
