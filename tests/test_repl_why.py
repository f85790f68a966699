"""`why` that explains: the one-line verdict first, witnesses for quantifiers, `--expand NAME`
into definitions, SKIP for a rule whose `when` was false, a legal move's reasons; and the
engine's `str(Explanation)` and `IllegalMove` message in the same words, with file:line; and the
trace's grouping (a deal, a zone moved whole, a statement turning many cards: one line each)."""

from __future__ import annotations

import pytest

from cardgame import interpreter
from helpers import GAMES, SCRIPTS, line_of, load_script
from cardgame.repl.session import Session

BOUNCER = str(GAMES / "bouncer.cardgame")
BOORAY = str(GAMES / "booray.cardgame")
REQUIRE = line_of("bouncer.cardgame", "rule follow_suit") + 2
OVERTRUMP = line_of("booray.cardgame", "rule must_overtrump")
CAN_FOLLOW = line_of("booray.cardgame", "define can_follow")
CAN_OVERTRUMP = line_of("booray.cardgame", "define can_overtrump")


def bouncer_after_9d() -> Session:
    """Bouncer, seed 1: P0 led 9D; P1 holds JD AC 7D 5S 6D 6S 9C QC 2C KC 8S KD 3C."""
    s = Session()
    s.start(BOUNCER, seed=1)
    s.execute("play 9D")
    return s


def booray_overtrump() -> Session:
    """Boo Ray, seed 3, after five random moves: P0 holds 9H JC 4D JH 6H, trump and led are H,
    and P2's 8H is the highest trump in the trick."""
    s = Session()
    s.start(BOORAY, seed=3)
    s.execute("auto 5 --agent random")
    assert s.state.view("all")["zones"]["hand"]["P0"] == ["9H", "JC", "4D", "JH", "6H"]
    return s


def test_the_first_line_is_the_verdict_with_the_deciding_values():
    s = booray_overtrump()
    out = s.execute("why play 6H --full").split("\n")
    assert out[0] == (f"`play 6H` for P0 at step 5 (phase trick): illegal: must_overtrump fails at {BOORAY}:"
                      f"{OVERTRUMP + 2}: strength(c) > highest_trump is 4 > 6 = false")
    assert "rule follow_suit: PASS - Follow the led suit if you can." in out
    assert "rule must_trump: SKIP - Out of the led suit, play a trump if you have one." in out
    assert "  does not apply: not can_follow(p) = false, as can_follow(p) = true" in out
    assert "rule must_overtrump: FAIL - Playing a trump, beat every trump already in the trick if you can." in out
    assert "  because: strength(c) > highest_trump is 4 > 6 = false" in out
    assert "  that is: 6H does not beat 8H" in out  # the verdict as players say it


def test_a_quantifier_shows_its_witness():
    s = bouncer_after_9d()
    out = s.execute("why play AC --full")
    assert "    any x in hand[p] where x.suit == led = true (for x = JD)" in out


def test_under_a_seats_view_why_reads_what_that_seat_knows():
    s = bouncer_after_9d()
    s.execute("view P1")
    out = s.execute("why play 7D --full")  # P1's own decision, its own hand: the witness is P1's card
    assert "any x in hand[p] where x.suit == led = true (for x = JD)" in out
    s.execute("view P2")
    assert "which P2 cannot see" in s.execute("why play 7D")  # the knowledge model refuses


def test_expand_opens_a_definition_with_the_calls_arguments():
    s = booray_overtrump()
    out = s.execute("why play 6H --expand can_overtrump").split("\n")
    at = out.index(f"  can_overtrump(p) = true, inside can_overtrump with p = P0  [{BOORAY}:{CAN_OVERTRUMP}]")
    assert out[at + 1] == ("    because: highest_trump != none and any x in hand[p] where x.suit == trump and "
                           "strength(x) > highest_trump = true")
    assert out[at + 2] == "    looked at:"
    assert "      highest_trump = 6" in out[at:]
    assert ("      any x in hand[p] where x.suit == trump and strength(x) > highest_trump = true (for x = 9H)"
            in out[at:])
    both = s.execute("why play 6H --expand can_follow --expand can_overtrump")
    assert both.count(f"inside can_follow with p = P0  [{BOORAY}:{CAN_FOLLOW}]") == 2  # evaluated by two rules (must_overtrump never gets to it)
    assert s.execute("why play 6H -e can_follow,can_overtrump") == both


def test_why_hints_at_what_expand_can_open():
    out = booray_overtrump().execute("why play 6H --full")
    assert out.split("\n")[-1].startswith("  = help: `why play 6H --expand can_follow` shows inside the definitions")


@pytest.mark.parametrize("line, message", [
    ("why play 6H --expand can_folow", "unknown definition `can_folow`\n  = help: did you mean `can_follow`?"),
    ("why play 6H --expand", "`--expand` needs a definition's name"),
])
def test_expand_errors(line, message):
    assert message in booray_overtrump().execute(line)


def test_why_on_a_legal_move_says_how_each_rule_was_met():
    s = booray_overtrump()
    first = s.execute("why play 9H --full").split("\n")[0]
    assert first == (f"`play 9H` for P0 at step 5 (phase trick): legal: "
                     f"follow_suit passes at {BOORAY}:{OVERTRUMP - 6}: c.suit == led is H == H = true; "
                     f"must_trump does not apply at {BOORAY}:{OVERTRUMP - 3}: not can_follow(p) = false, "
                     f"as can_follow(p) = true; "
                     f"must_overtrump passes at {BOORAY}:{OVERTRUMP + 2}: strength(c) > highest_trump is 7 > 6 = true")


def test_the_trace_shows_each_rules_verdict():
    s = bouncer_after_9d()
    s.execute("trace on")
    out = s.execute("play JD")
    assert f"    rule follow_suit: pass (c.suit == led is D == D = true)  [{BOUNCER}:{REQUIRE - 2}]" in out


# ---- the engine API speaks the same words ----------------------------------------------------------------

def test_str_of_an_explanation_and_the_illegal_move_message():
    state = bouncer_after_9d().state
    expected = f"`play AC` is illegal: follow_suit fails at {BOUNCER}:{REQUIRE}: c.suit == led is C == D = false"
    assert str(state.explain("play AC")) == expected
    with pytest.raises(interpreter.IllegalMove) as err:
        state.apply("play AC")
    assert str(err.value) == expected
    assert str(state.explain("play JD")) == \
        f"`play JD` is legal: follow_suit passes at {BOUNCER}:{REQUIRE}: c.suit == led is D == D = true"
    assert str(state.explain("play ZZ")).startswith("`play ZZ` is illegal: `play ZZ` is not one of the choices")


def test_explanation_records_hold_witnesses_and_expansions():
    state = booray_overtrump().state
    explanation = state.explain("play 6H", expand=["can_follow"])
    follow = explanation.rules[0]
    assert follow.status == "pass" and follow.where.line == OVERTRUMP - 6
    (expansion,) = follow.expansions
    assert isinstance(expansion, interpreter.Expansion)
    assert expansion.name == "can_follow" and expansion.args == (("p", "P0"),) and expansion.value == "true"
    assert expansion.witnesses == (("any x in hand[p] where x.suit == led", "for x = 9H"),)
    assert state.explain("play 6H").rules[0].expansions == ()


def test_why_does_not_list_a_symbol_as_a_value_it_looked_at():
    from helpers import arrange
    start = load_script("love_letter.cardgame").new_game(players=3, seed=1)
    forced = arrange(start, {"hand": {0: ["Countess", "King"], 1: ["Guard.1"], 2: ["Priest.1"]}}, "draw_pile")
    values = dict(forced.explain("play King").rules[0].values)
    # it listed `countess = countess`, `king = king`, `prince = prince`
    assert "countess" not in values and "king" not in values
    assert values["holds(p, countess)"] == "true" and values["c.role"] == "king"


def test_pass_fail_skip_and_the_verdict_are_coloured():
    from cardgame.repl.lexer import STYLE, highlight_output
    text = booray_overtrump().execute("why play 6H --full")
    fragments = highlight_output(text)
    assert ("class:verdict.fail", "illegal") in fragments
    assert ("class:verdict.pass", "PASS") in fragments and ("class:verdict.skip", "SKIP") in fragments
    assert ("class:verdict.fail", "FAIL") in fragments
    assert "".join(t for _, t in fragments) == text + "\n"
    assert STYLE.get_attrs_for_style_str("class:verdict.fail").color == "d70000"


# ---- trace lines ------------------------------------------------------------------------------------------

def test_per_player_assignments_name_their_seat():
    s = Session()
    s.start(BOORAY, seed=3)
    s.execute("trace on")
    out = s.execute("play pass")  # P2 passes: `set playing[p] = false`
    assert f"    set playing[P2] = false  [{BOORAY}:{line_of('booray.cardgame', 'set playing[p] = false')}]" in out
    out = s.execute("new")
    assert "set money[P0] = -5" in out and "set money[P3] = -5" in out and "set pot = 20" in out


def test_a_deal_is_one_line_and_a_zone_moved_whole_lists_its_cards():
    s = bouncer_after_9d()
    s.execute("trace on")
    out = s.execute("new")
    deal = line_of("bouncer.cardgame", "deal hand_size from stock")
    assert f"    deal 13 cards to each of P0, P1, P2 (hand)  [{BOUNCER}:{deal}]" in out
    assert out.count("to hand[") == 0
    s.execute("play 9D")
    s.execute("play JD")
    out = s.execute("play 10D")
    assert f"    move 9D JD 10D to discard  [{BOUNCER}:{line_of('bouncer.cardgame', 'move played[q] to discard')}]" in out
    s = Session()
    s.start(BOORAY, seed=3)
    s.execute("trace on")
    out = s.execute("new")
    assert "deal 4 cards to each of P2, P3, P0, P1 (hand)" in out  # in the order dealt, from the dealer's left
    assert "deal 1 card to each of P2, P3, P0 (hand)" in out


def test_a_statement_turning_many_cards_is_one_trace_line():
    # `reveal hand[dummy]` traced 13 lines, `reveal 2S`, `reveal JS`, ...: only moves were merged.
    from cardgame.repl.session import Session
    s = Session()
    s.execute(f"load {SCRIPTS / 'bridge.cardgame'}")
    s.execute("new seed=1")
    for move in ("bid 1 C", "pass", "pass", "pass"):
        s.execute(f"play {move}")
    s.execute("trace on")
    lines = s.execute("play 1").splitlines()
    assert [line.split("  [")[0].strip() for line in lines if "reveal" in line] == ["reveal 13 cards"]
    s.execute(f"load {SCRIPTS / 'skat.cardgame'}")
    s.execute("new seed=3")
    s.execute("break phase skat_exchange")
    s.execute("auto")
    s.execute("trace on")
    lines = s.execute("play 1").splitlines()
    assert [line.split("  [")[0].strip() for line in lines if "show" in line] == ["show 8D 8C to P2"]


def test_grouping_keeps_other_events_between_moves():
    from cardgame.interpreter import TraceEvent, Span
    from cardgame.repl.trace import grouped
    a, b = Span("x", 1, 1, 1, 5), Span("x", 2, 1, 2, 5)
    events = [TraceEvent("move", a, "move 1A to out"), TraceEvent("log", b, "hello"),
              TraceEvent("move", a, "move 2A to out"), TraceEvent("move", a, "move 3A to hand[P1]")]
    assert grouped(events, lambda span: "move x to y") == [
        ("move", "move 1A to out", a), ("log", "hello", b), ("move", "move 2 cards: 1 to out, 1 to hand[P1]", a)]
