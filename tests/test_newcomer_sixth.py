"""A sixth newcomer campaign (i15-newcomer): hidden partnerships, custom orders across suits,
burying, reactions out of turn and bidding to a target, written from the docs alone (Sheepshead,
a Mille Bornes-like race, Pitch, Briscola, in tests/scripts/), then what a newcomer met while
writing them. Each test pins one thing found broken or unhelpful, or one rule of those games."""

from __future__ import annotations

import random

import pytest

from cardgame import interpreter

from helpers import ROOT, arrange, ends_at_the_fewest_and_the_most_players, moves

SCRIPTS = ROOT / "tests" / "scripts"


def _load(tmp_path, text: str, name: str = "game.cardgame"):
    path = tmp_path / name
    path.write_text(text)
    return interpreter.load(str(path))


# P0 plays a card from its hidden hand on P1; the event's default effect lays it down, after
# P1's window. P1's rule reads the played card through the event's parameter.
HAZARD_ON_A_HIDDEN_CARD = '''game "Hazard"
players 2

deck road in stock {
    card "stop" { kind: hazard, trouble: light }
    card "right" { kind: safety, trouble: light }
    card "tank" { kind: safety, trouble: fuel }
    card "km25" { kind: distance }
}

zone stock: shared hidden
zone hand: per player owner
zone pile: per player public

event attacked(target: player, h: card) "A hazard on {target}" {
    move h to pile[target] face up
}

rule counters(x: card, h: card) "Only the safety of that trouble answers it."
    require x.kind == safety and x.trouble == h.trouble

reaction answer on attacked by q in [target] {
    safety(x from hand[q]) requires counters(x, h) {
        move x to pile[q] face up
        cancel
    }
}

phase main {
    move [stop, km25] to hand[seat(0)]
    move [right, tank] to hand[seat(1)]
    decide seat(0) "Attack" {
        attack(c from hand[seat(0)]) {
            signal attacked(seat(1), c)
        }
    }
    end game
}
'''


def _at_the_window(tmp_path):
    state = _load(tmp_path, HAZARD_ON_A_HIDDEN_CARD).new_game(seed=1)
    state.apply("attack stop")
    assert state.current_player == 1
    return state


def test_why_under_a_seats_view_does_not_read_a_hidden_card_of_the_frame(tmp_path):
    # `why safety right` under P1's view printed `h = stop`, `h.trouble = light`: a card still in
    # P0's hidden hand, passed to the rule as an event's parameter (the masked position hid the
    # zones, not the cards the decision's frame held). P1's log reads `attack ??`.
    state = _at_the_window(tmp_path)
    assert [e["text"] for e in state.observation(1)["log"]][-1].endswith("attack ??")
    mine = state.explain("safety right", viewer=1)
    assert mine.legal is None and mine.rules == ()
    assert mine.reason == "reads `h` of `counters` (a card), which P1 cannot see"
    everything = state.explain("safety right")
    assert everything.legal is True and ("h", "stop") in everything.rules[0].values
    assert state.explain("pass", viewer=1).legal is True


def test_the_repl_refuses_why_of_a_hidden_frame_card(tmp_path):
    from cardgame.repl.session import Session
    path = tmp_path / "hazard.cardgame"
    path.write_text(HAZARD_ON_A_HIDDEN_CARD)
    s = Session()
    s.execute(f"load {path}")
    s.execute("new seed=1")
    s.execute("play attack stop")
    s.execute("view P1")
    out = s.execute("why safety right")
    assert out.splitlines()[0] == "error: `why safety right` reads `h` of `counters` (a card), which P1 cannot see"
    assert "stop" not in out


def test_lint_warns_of_a_rule_judging_by_a_hidden_frame_card(tmp_path):
    # L0250 looked at the zones a rule read, not at the cards its arguments held: the rule above
    # tells P1 the trouble of the hidden card (`safety right` legal or not), and lint said nothing.
    report = interpreter.lint(_load(tmp_path, HAZARD_ON_A_HIDDEN_CARD), 4)
    found = [d for d in report.diagnostics if d.code == "L0250"]
    assert [d.message for d in found] == [
        "rule `counters` judges a player's own move by what that player cannot see "
        "(`h` of `counters` (a card), for P1)"]


def test_fmt_indents_a_top_level_declaration_continued_after_a_comma():
    # A long `attribute ... from rank:` broke after a comma and went on at column 0, where the
    # rest (`J = 1, Q = 2, ...`) reads as the next declaration; tests/scripts/scopa.cardgame had
    # been formatted so.
    from cardgame.authoring.fmt import format_source
    text = ("attribute game_points from rank: 2 = 0, 3 = 0, 4 = 0, 5 = 0, 6 = 0, 7 = 0, 8 = 0, 9 = 0, "
            "10 = 10, J = 1, Q = 2, K = 3, A = 4\n")
    formatted, _diags = format_source(text)
    assert formatted.splitlines() == [
        "attribute game_points from rank: 2 = 0, 3 = 0, 4 = 0, 5 = 0, 6 = 0, 7 = 0, 8 = 0, 9 = 0, 10 = 10,",
        "    J = 1, Q = 2, K = 3, A = 4"]
    assert format_source(formatted)[0] == formatted


PROHIBITION = '''game "Keep the ace"
players 2

deck d in stock {
    rank: 7, 8, A
    suit: C, S
    name: rank suit
}

zone stock: shared hidden
zone hand: per player owner
zone played: shared public

rule keep_the_ace(c: card) "The ace of clubs stays in hand while a club is on the table."
    when c == AC and any x in played where x.suit == C
    require false

rule no_seven_late(c: card) "No seven after the first card."
    when c.rank == 7 and count(played) > 0
    require c.rank != 7

phase main {
    shuffle stock
    deal 3 from stock to hand of players
    repeat 3 times {
        for p in players {
            decide p "Play" {
                play(c from hand[p]) requires keep_the_ace(c), no_seven_late(c) {
                    move c to played face up
                }
                pass
            }
        }
    }
    end game
}
'''


def test_lint_does_not_warn_of_a_rule_written_as_a_prohibition(tmp_path):
    # `when CASE require false` is how "may not" reads in the language, and it forbids every move
    # it applies to by design: L0202 warned of it on every run. A rule that forbids every move
    # it applies to with a real requirement is still reported.
    report = interpreter.lint(_load(tmp_path, PROHIBITION), 30)
    assert [(d.code, d.message) for d in report.diagnostics if d.code == "L0202"] == [
        ("L0202", "rule `no_seven_late` forbade every move it applied to")]


# ---- the games of this campaign

GAMES_OF_THIS_CAMPAIGN = ["sheepshead", "mille_bornes", "pitch", "briscola"]


def _game(name: str) -> interpreter.Game:
    return interpreter.load(str(SCRIPTS / f"{name}.cardgame"))


def _value(state, expression: str, viewer="all") -> str:
    value, diags = state.evaluate(expression, viewer=viewer)
    assert not diags, diags
    return value


@pytest.mark.parametrize("name", GAMES_OF_THIS_CAMPAIGN)
def test_every_game_ends_at_the_fewest_and_the_most_players(name):
    ends_at_the_fewest_and_the_most_players(_game(name), capped_ends=True)


def _sheepshead_called_spades():
    """Seed 3: P0 picks, buries 10S KH and calls the ace of spades; then the hands are set."""
    state = _game("sheepshead").new_game(seed=3)
    assert moves(state) == {"pick", "pass"}
    state.apply("pick")
    assert len(moves(state)) == 28  # two of eight cards
    state.apply("bury 10S KH")
    assert moves(state) == {"call S", "alone"}
    state.apply("call S")
    hands = {0: ["QC", "8S"], 1: ["7C", "9C"], 2: ["AS", "7S", "8H"], 3: ["AC", "8C"], 4: ["KS", "9H"]}
    return arrange(state, {"hand": hands, "buried": ["10S", "KH"]}, "stock")


def test_sheepshead_the_called_ace_stays_until_its_suit_is_led():
    state = _sheepshead_called_spades()
    assert moves(state) == {"play QC", "play 8S"}
    state.apply("play QC")  # trump led: P2 has none, and may not throw the called ace off
    state.apply("play 7C")
    assert moves(state) == {"play 7S", "play 8H"}


def test_sheepshead_the_partner_plays_the_called_ace_when_its_suit_is_led():
    state = _sheepshead_called_spades()
    state.apply("play 8S")
    state.apply("play 7C")
    assert moves(state) == {"play AS"}


def test_sheepshead_the_partner_is_secret_and_the_buried_cards_are_the_pickers():
    state = _sheepshead_called_spades()
    _answer, diags = state.evaluate("owner(AS)", viewer=1)
    assert [d.code for d in diags] == ["E0710"]
    assert _value(state, "owner(AS)", viewer=2) == "P2"
    assert state.view(0)["zones"]["buried"] == ["10S", "KH"]
    assert state.view(1)["zones"]["buried"] == ["??", "??"]


def _mille_bornes_attacked():
    state = _game("mille_bornes").new_game(seed=1)
    hands = {0: ["stop.1", "go.1", "km100.1", "crash.1", "gas.1", "km25.1", "km50.1"],
             1: ["right", "km25.2", "go.2", "ace", "km50.2", "repairs.1"]}
    state = arrange(state, {"hand": hands, "battle": {1: ["go.3"]}}, "stock")
    # P0 is not rolling: only `go` on itself and hazards on rolling P1 are played
    assert moves(state) == {"play go.1 P0", "play stop.1 P1", "play crash.1 P1", "throw stop.1", "throw go.1",
                            "throw km100.1", "throw crash.1", "throw gas.1", "throw km25.1", "throw km50.1"}
    state.apply("play stop.1 P1")
    assert state.current_player == 1
    assert state.prompt == "stop.1 is played on P1: play its safety (coup fourre) or pass?"
    assert moves(state) == {"safety right", "pass"}
    return state


def test_mille_bornes_a_coup_fourre_cancels_the_hazard_and_scores():
    state = _mille_bornes_attacked()
    state.apply("safety right")
    assert _value(state, "bonus") == "[0, 400]"
    assert _value(state, "cards(discard)") == "[stop.1]"
    assert _value(state, "cards(battle[P1])") == "[go.3]"
    assert state.current_player == 1  # play goes on from the player attacked


def test_mille_bornes_a_hazard_not_answered_stops_the_player():
    state = _mille_bornes_attacked()
    state.apply("pass")
    assert _value(state, "cards(battle[P1])") == "[go.3, stop.1]"
    assert _value(state, "rolling(P1)") == "false"


def test_pitch_bids_rise_and_the_dealer_is_stuck_when_all_pass():
    game = _game("pitch")
    state = game.new_game(seed=1, players=3)
    assert state.current_player == 1 and moves(state) == {"raise 2", "raise 3", "raise 4", "pass"}
    state.apply("raise 3")
    assert moves(state) == {"raise 4", "pass"}
    state = game.new_game(seed=1, players=3)
    state.apply("pass")
    state.apply("pass")
    assert (_value(state, "bidder"), _value(state, "bid")) == ("P0", "2")
    assert "P0 is stuck with 2" in [e["text"].strip() for e in state.observation(1)["log"]]
    assert state.current_player == 0 and state.prompt == "Play a card"


def test_briscola_a_low_trump_takes_the_ace_and_its_player_draws_first():
    state = _game("briscola").new_game(seed=3)
    assert _value(state, "bottom(stock)") == "AS" and _value(state, "face_up(AS)") == "true"
    assert _value(state, "trump") == "S" and _value(state, "bottom(stock)", viewer=1) == "AS"
    state = arrange(state, {"hand": {0: ["AH", "4C", "5C"], 1: ["2S", "6C", "7C"]},
                            "stock": ["AS", "3D", "KD"]}, "box")
    state.apply("play AH")
    assert moves(state) == {"play 2S", "play 6C", "play 7C"}  # no need to follow suit
    state.apply("play 2S")
    assert _value(state, "cards(won[P1])") == "[AH, 2S]"
    assert (_value(state, "owner(KD)"), _value(state, "owner(3D)")) == ("P1", "P0")
    assert state.current_player == 1


def test_briscola_the_turned_trump_is_drawn_last_and_stays_known():
    state = _game("briscola").new_game(seed=3)
    rng = random.Random(1)
    while _value(state, "count(stock)") != "0":
        state.apply(rng.choice(state.legal_moves()))
    holder = int(_value(state, "owner(AS)")[1:])
    other = 1 - holder
    assert "AS" in state.view(other)["zones"]["hand"][f"P{holder}"]
    assert state.view(other)["zones"]["hand"][f"P{holder}"].count("??") == 2


def test_a_saved_game_given_as_a_script_is_named_for_what_it_is(tmp_path):
    # `cardgame check REPLAY`, `play OBSERVATION`, `repl OBSERVATION` and the REPL's `load` of a
    # seat's observation said "E0101 unexpected `{`, expected `attribute`, `deck`, ...".
    from cardgame.repl.session import Session
    s = Session()
    s.execute(f"load {SCRIPTS / 'pitch.cardgame'}")
    s.execute("new seed=1")
    s.execute("play raise 2")
    replay, seen = tmp_path / "game.json", tmp_path / "p1.json"
    s.execute(f"save {replay}")
    s.execute(f"save --view P1 {seen}")
    for path, fmt in ((replay, "cardgame-replay/2"), (seen, "cardgame-observation/1")):
        _tables, _items, _sources, diags = interpreter.check_file(str(path))
        assert [(d.code, d.message) for d in diags] == [
            ("E0640", f"`{path}` is a file saved by cardgame (`{fmt}`), not a script")]
        assert "`open FILE`" in diags[0].hint
    out = s.execute(f"load {seen}")
    assert s.last_failed and out.startswith("error[E0640]:")


def test_the_rulebook_says_a_prohibition_forbids_the_choice(tmp_path):
    # `cardgame rules` wrote a `when CASE require false` rule as "requires that false".
    from cardgame.authoring.rulebook import rulebook
    path = tmp_path / "keep.cardgame"
    path.write_text(PROHIBITION)
    lines = rulebook(str(path)).splitlines()
    start = lines.index("- **keep_the_ace**: The ace of clubs stays in hand while a club is on the table.")
    assert lines[start + 2] == "  - then the choice is not allowed"
    assert "  - requires that the rank of *c* is not 7" in lines
