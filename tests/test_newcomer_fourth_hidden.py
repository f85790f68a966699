"""A fourth newcomer campaign (i14-hidden): games of hidden information written from the docs
alone (Hanabi, Love Letter, Coup, Skull, in tests/scripts/), then what a seat's view, log and
REPL answers told that seat.  Each test pins one thing that campaign found leaking, broken or
unhelpful; the small scripts that show a defect are written inline."""

from __future__ import annotations

import random

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from cardgame import interpreter
from helpers import ROOT
from cardgame.repl.completer import ReplCompleter
from cardgame.repl.session import Session

SCRIPTS = ROOT / "tests" / "scripts"

# Hanabi as a newcomer first writes it: nobody sees their own hand, and a card is played by
# naming it (`play(c from hand[p])`), so the moves name cards their maker cannot see.
BLIND_HANDS = '''game "Blind hands"
players 2
deck d in stock {
    colour: R, G, B
    number: 1, 2, 3
    name: colour number
}
zone stock: shared hidden
zone hand: per player hidden
zone table: shared public
phase deal {
    move [x for x in stock where x.colour == R] to hand[seat(0)]
    move [x for x in stock where x.colour == G] to hand[seat(1)]
    for x in hand[seat(0)] {
        show x to seat(1)
    }
    for x in hand[seat(1)] {
        show x to seat(0)
    }
    next turn
}
phase turn {
    for p in players {
        decide p "Play a card you cannot see" {
            play(c from hand[p]) {
                move c to table face up
            }
            hint(n in 1..2)
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


def test_a_seats_own_moves_do_not_name_the_cards_it_cannot_see(tmp_path):
    s = _session(tmp_path, BLIND_HANDS, "blind.cardgame")
    s.execute("view P0")
    listed = s.execute("moves")
    # it listed `play R1`, `play R2`, `play R3`: P0's own cards, which P0 cannot see
    assert "R1" not in listed and "R2" not in listed and "R3" not in listed
    assert listed.splitlines()[1:] == ["  #1. play ??", "  #2. play ??", "  #3. play ??",
                                       "  #4. hint 1", "  #5. hint 2"]
    assert "R" not in s.execute("moves --all").replace("P0 to act", "")
    # `moves R2` and `why play R2` confirmed R2 was in P0's hand; `play play R2` played it
    assert "play" not in s.execute("moves R2").splitlines()[1]
    # R2 (in P0's hand) and B2 (in the stock) get the same answer: a card P0 cannot see
    for typed in ("why play R2", "why play B2", "play play R2", "play play B2", "play R2"):
        out = s.execute(typed)
        assert out.startswith("error") and "names a card P0 cannot see" in out, (typed, out)
        assert "legal" not in out and "hand" not in out
    assert s.execute("why play R2").replace("R2", "B2") == s.execute("why play B2")
    # G2, in P1's hand, P0 sees: it is no choice of P0's, and no `play ??` is suggested for it
    assert s.execute("play play G2") == ("error: `play G2` is not a move here\n"
                                    "  = help: G2 is not one of P0's choices; it is in P1's hand")
    assert s.execute("play play ??") == "error: 3 moves read `play ??`; choose one by its number (`moves` numbers them)"
    assert s.execute("why #1").startswith("`play ??` for P0 at step 0 (phase turn): legal")
    assert s.execute("why #4").startswith("`hint 1` for P0 at step 0 (phase turn): legal")
    assert s.execute("play") == "error: which move? for example `play 1` or `play hint 1` (`moves` lists them)"
    # by its number the move is made, and the card it played is named once it is face up
    assert s.execute("play #2") == "1. P0: play R2"


def test_a_seats_log_names_its_own_move_only_with_cards_it_knew_or_saw(tmp_path):
    path = tmp_path / "blind.cardgame"
    # the same game, the played card put back face down: P0 never learns which card it played
    path.write_text(BLIND_HANDS.replace("move c to table face up", "move c to stock"))
    state = interpreter.load(str(path)).new_game(seed=1, record=True)
    state.apply("play R2")
    assert [e["text"] for e in state.observation(0)["log"] if e["kind"] == "decision"] == ["play ??"]
    # P1 was shown P0's cards (a peek: it knows each one's place), but P0's pick among its hidden
    # cards is not seen, and the card goes face down: one of R1, R2, R3 went to the stock (issue 34)
    assert [e["text"] for e in state.observation(1)["log"] if e["kind"] == "decision"] == ["play ??"]
    assert set(state.observation(1)["knowledge"]["hand[P0]"]["possible"]) == {"R1", "R2", "R3"}
    assert [e["text"] for e in state.observation("all")["log"] if e["kind"] == "decision"] == ["play R2"]


def test_move_texts_for_a_viewer_mask_what_it_cannot_see(tmp_path):
    path = tmp_path / "blind.cardgame"
    path.write_text(BLIND_HANDS)
    state = interpreter.load(str(path)).new_game(seed=1)
    assert state.move_texts() == ["play R1", "play R2", "play R3", "hint 1", "hint 2"]
    assert state.move_texts(viewer=0) == ["play ??", "play ??", "play ??", "hint 1", "hint 2"]
    with pytest.raises(interpreter.ScriptError) as refused:  # P0's choices, asked on P1's behalf
        state.move_texts(viewer=1)
    assert refused.value.diagnostics[0].code == "E0710"
    assert state.explain("play R2", viewer=0).legal is None
    # every determinization gives the seat the same texts: they tell it nothing it does not know
    for seed in range(5):
        assert state.determinize(0, seed).move_texts(viewer=0) == state.move_texts(viewer=0)


def test_tab_completion_offers_no_move_of_a_seat_the_view_cannot_see():
    s = Session()
    s.start(str(ROOT / "games" / "bouncer.cardgame"), seed=1)
    completer = ReplCompleter(s)

    def offered(text):
        return [c.text for c in completer.get_completions(Document(text), CompleteEvent())]
    assert "9D" in offered("play ")  # the all-seeing view
    s.execute("view P1")
    # it completed P0's hidden hand: 9D, 7C, AD, ...
    assert offered("play ") == [] and offered("why ") == []
    s.execute("view P0")
    assert "9D" in offered("play ")


def test_a_move_typed_as_a_command_is_not_recognised_for_a_seat_the_view_cannot_see():
    s = Session()
    s.start(str(ROOT / "games" / "bouncer.cardgame"), seed=1)
    assert "type `play 9D`" in s.execute("9D")
    s.execute("view P1")
    # it said "to make that move, type `play 9D`": 9D is in P0's hidden hand
    assert s.execute("9D") == "error: unknown command `9D`\n  = help: `help` lists the commands"


def test_an_illegal_move_chosen_by_number_is_refused_without_naming_the_unseen_card(tmp_path):
    ruled = BLIND_HANDS.replace("play(c from hand[p]) {", "play(c from hand[p]) requires low(c) {").replace(
        "where x.colour == R]", "where x.colour == R and x.number == 2]") + \
        'rule low(c: card) "Only a 1." require c.number == 1\n'
    s = _session(tmp_path, ruled, "blind.cardgame")
    s.execute("view P0")
    assert s.execute("moves --all").splitlines()[1] == \
        "    -  play ??  not judged here: it reads a card of the move, which P0 cannot see"
    out = s.execute("play play ??")
    # it said "illegal move `play R2`"
    assert out == "error: illegal move `play ??` (P0 to act): forbidden by `low`\n  nothing changed"
    assert "R2" not in out and s.step == 0


# ---- the four games of this campaign, in tests/scripts/ --------------------------------------------

def _game(name: str) -> interpreter.Game:
    return interpreter.load(str(SCRIPTS / name))


def _moves(state) -> set:
    return {m.text for m in state.legal_moves()}


def test_hanabi_names_positions_shows_each_hand_to_the_others_and_keeps_the_clues():
    state = _game("hanabi.cardgame").new_game(seed=1, record=True)
    assert state.view("all")["zones"]["hand"] == {"P0": ["G4b", "B3b", "W3b", "G1a", "W4a"],
                                                  "P1": ["B2b", "B4b", "G1c", "Y1b", "B1c"]}
    # P1 sees P0's hand, not its own; discarding needs a spent clue; a clue must point a card
    assert state.view(1)["zones"]["hand"] == {"P0": ["G4b", "B3b", "W3b", "G1a", "W4a"], "P1": ["??"] * 5}
    assert state.view(0)["zones"]["hand"]["P0"] == ["??"] * 5
    assert _moves(state) == {"play 0", "play 1", "play 2", "play 3", "play 4", "clue_colour P1 B",
                             "clue_colour P1 G", "clue_colour P1 Y", "clue_number P1 1", "clue_number P1 2",
                             "clue_number P1 4"}
    state.apply("clue_colour P1 G")
    assert state.view(1)["vars"]["told_colour"]["P1"] == [None, None, "G", None, None]
    assert state.observation(1)["log"][-1]["text"] == "P0 tells P1: the cards at [2] are G"
    state.apply("play 2")  # G1c fits; the clue goes with the card
    assert state.view("all")["zones"]["fireworks"] == ["G1c"]
    assert state.view("all")["vars"]["told_colour"]["P1"] == [None] * 5
    state.apply("play 0")  # G4b does not fit: a fuse burns
    assert state.view("all")["zones"]["discard"] == ["G4b"] and state.view("all")["vars"]["fuses"] == 2
    assert "discard 0" in _moves(state)


def test_love_letter_countess_guard_and_private_looks():
    from helpers import arrange
    start = _game("love_letter.cardgame").new_game(players=3, seed=1)
    forced = arrange(start, {"hand": {0: ["Countess", "King"], 1: ["Guard.1"], 2: ["Priest.1"]}}, "draw_pile")
    assert _moves(forced) == {"play Countess"}
    why = forced.explain("play King")
    assert not why.legal and why.failing[0].name == "countess_rule"
    free = arrange(start, {"hand": {0: ["Countess", "Guard.2"], 1: ["Guard.1"], 2: ["Priest.1"]}}, "draw_pile")
    assert _moves(free) == {"play Guard.2", "play Countess"}
    free.apply("play Guard.2")
    assert _moves(free) == {f"guess P{q} {r}" for q in (1, 2) for r in
                            ("priest", "baron", "handmaid", "prince", "king", "countess", "princess")}
    free.apply("guess P2 priest")
    assert free.view("all")["vars"]["out"] == {"P0": False, "P1": False, "P2": True}


def test_love_letter_peeks_and_comparisons_are_read_only_by_those_who_saw_them():
    state = _game("love_letter.cardgame").new_game(players=3, seed=1, record=True)
    agent = interpreter.RandomAgent(1)
    while not state.is_over and len(state.history) < 40:
        state.apply(agent.choose(state.legal_moves()))
    texts = {seat: [e["text"] for e in state.observation(seat)["log"] if e["kind"] == "log"]
             for seat in (0, 1, 2, "all")}
    looks = [t for t in texts["all"] if " looks at " in t or " compares hands with " in t]
    assert looks
    for seat in (0, 1, 2):
        for full, mine in zip(texts["all"], texts[seat]):
            if full in looks:
                involved = {w.strip("(),'s:") for w in full.split() if w.startswith("P")}
                assert (mine == full) == (f"P{seat}" in involved), (seat, full, mine)


def test_coup_must_coup_at_ten_and_a_challenge_costs_an_influence():
    from helpers import with_vars
    state = _game("coup.cardgame").new_game(players=3, seed=4)
    assert _moves(state) == {"income", "foreign_aid", "tax", "steal P1", "steal P2", "exchange"}
    assert _moves(with_vars(state, coins={0: 10})) == {"coup P1", "coup P2"}
    state.apply("tax")
    assert (state.current_player, _moves(state)) == (1, {"challenge", "pass"})
    state.apply("pass")
    state.apply("challenge")  # P0 holds no Duke: P0 chooses an influence to lose
    assert (state.current_player, _moves(state)) == (0, {"lose Assassin.3", "lose Captain.1"})
    state.apply("lose Captain.1")
    assert state.view(2)["zones"]["lost"]["P0"] == ["Captain.1"]
    assert state.view("all")["vars"]["coins"]["P0"] == 2  # the tax failed


def test_skull_places_at_once_then_bids_and_flips():
    state = _game("skull.cardgame").new_game(players=3, seed=1, record=True)
    assert _moves(state) == {"place RedRose1", "place RedRose2", "place RedRose3", "place RedSkull"}
    for move in ("place RedRose1", "place BlueRose1", "place GreenSkull"):
        state.apply(move)
    assert [e["text"] for e in state.observation(1)["log"] if e["kind"] == "decision"] == \
        ["(a hidden choice)", "place BlueRose1", "(a hidden choice)"]
    assert state.view(1)["zones"]["mat"] == {"P0": ["??"], "P1": ["BlueRose1"], "P2": ["??"]}
    assert _moves(state) == {"add RedRose2", "add RedRose3", "add RedSkull", "bid 1", "bid 2", "bid 3"}
    state.apply("bid 2")
    assert (state.current_player, _moves(state)) == (1, {"pass", "raise 3"})
    state.apply("pass")
    state.apply("pass")  # P0 flips its rose, then must choose a mat: P2's skull costs a disc
    assert _moves(state) == {"flip P1", "flip P2"}
    state.apply("flip P2")
    assert sum(len(h) for h in state.view("all")["zones"]["hand"].values()) == 11


def test_every_game_of_the_campaign_ends():
    for name, counts in (("hanabi.cardgame", (2, 5)), ("love_letter.cardgame", (2, 4)),
                         ("coup.cardgame", (2, 6)), ("skull.cardgame", (3, 6))):
        game = _game(name)
        for players in counts:
            result = interpreter.simulate(game, 30, players, 7, {})
            assert result["outcomes"]["faulted"] == 0 and result["outcomes"]["limit"] == 0, (name, players)
            assert result["outcomes"]["won"] + result["outcomes"]["drawn"] == 30, (name, players)


def test_what_each_seat_knows_holds_over_the_campaigns_games():
    from test_knowledge import check_seat, played
    for name in ("hanabi.cardgame", "love_letter.cardgame", "coup.cardgame", "skull.cardgame"):
        game = _game(name)
        for seed in range(3):
            state, seen = played(game, seed, 25 + 15 * seed)
            for seat in range(state.n):
                check_seat(state, seen, seat, random.Random(seed))
                if state.current_player == seat:  # the texts a seat reads are the same on any deal it cannot tell
                    assert state.determinize(seat, seed).move_texts(seat) == state.move_texts(seat)


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


def test_a_traced_rule_tells_its_player_only_what_it_knows(tmp_path):
    ruled = BLIND_HANDS.replace("play(c from hand[p]) {", "play(c from hand[p]) requires low(c) {").replace(
        "move c to table face up", "move c to stock") + 'rule low(c: card) "Any number." require c.number >= 1\n'
    s = _session(tmp_path, ruled, "blind.cardgame")
    s.execute("view P0")
    s.execute("trace on")
    out = s.execute("play #2")
    # it said "rule low: pass (c.number >= 1 is 2 >= 1 = true)": the number of a card P0 never saw
    assert out.splitlines()[1].startswith(
        "    rule low: judged; reads a card of the move, which P0 cannot see  [")
    assert "2 >= 1" not in s.execute("log") + out
    s.execute("view all")
    assert "rule low: pass (c.number >= 1 is 2 >= 1 = true)" in "\n".join(
        e.text for e in s.state.observed_events("all"))


def test_why_does_not_list_a_symbol_as_a_value_it_looked_at():
    from helpers import arrange
    start = _game("love_letter.cardgame").new_game(players=3, seed=1)
    forced = arrange(start, {"hand": {0: ["Countess", "King"], 1: ["Guard.1"], 2: ["Priest.1"]}}, "draw_pile")
    values = dict(forced.explain("play King").rules[0].values)
    # it listed `countess = countess`, `king = king`, `prince = prince`
    assert "countess" not in values and "king" not in values
    assert values["holds(p, countess)"] == "true" and values["c.role"] == "king"


def test_compare_calls_a_difference_of_the_same_amount_in_every_game_significant():
    from cardgame.interpreter.studies.stats import paired_difference
    # Hanabi's ruin_on_third_fuse: every game ruined on one side, none on the other
    assert paired_difference([1] * 50, [0] * 50) == {"difference": -1, "ci95": [-1, -1], "significant": True,
                                                     "p": 0.0}
    assert paired_difference([3] * 50, [3] * 50)["significant"] is False
    assert paired_difference([1], [0])["significant"] is False  # one game tells nothing
