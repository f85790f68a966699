"""A seat remembers the cards it saw go where it cannot look (interpreter/knowledge.py).

Perfect recall, as OpenSpiel's information states have it: a seat that lays cards away face
down (Skat's skat), passes them into a neighbour's hand (Hearts) or plays one face down into a
pile keeps knowing where they are, in its view, its log, its REPL answers and every
determinization an agent samples for it, until something makes that unknowable (a `shuffle`, a
`hide`).  The other seats learn nothing of those cards.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardgame import interpreter
from helpers import ROOT
from cardgame.interpreter.engine.knowledge import HIDDEN
from cardgame.repl.session import Session

SCRIPTS = ROOT / "tests" / "scripts"
HEARTS = interpreter.load(str(SCRIPTS / "hearts.cardgame"))
SKAT_PATH = SCRIPTS / "skat.cardgame"
SKAT = interpreter.load(str(SKAT_PATH))
# seed 0: P1 wins the bidding at 60 and takes up the skat
SKAT_BIDDING = ["say 59", "hold", "say 60", "pass", "pass"]
PASSES = ["pass_cards 2H 3S 4C", "pass_cards 2D 4S 6S", "pass_cards 3C 5D 5H", "pass_cards 2C 2S 3D"]


def hearts_after_the_passes():
    state = HEARTS.new_game(seed=1, record=True)
    for move in PASSES:
        state.apply(move)
    return state


def log_of(state, viewer, step):
    return [e["text"] for e in state.observation(viewer)["log"] if e["step"] == step]


# ---- Hearts: three cards passed to the left ------------------------------------------------------

def test_a_seat_remembers_the_cards_it_passed_into_its_neighbours_hand():
    state = hearts_after_the_passes()
    # each seat knows the three cards it passed, at their places in the neighbour's hand (they
    # went on top); before, P1's own passing made P0 forget them (an unseen card left P1's hand)
    assert state.view(0)["zones"]["hand"]["P1"] == [HIDDEN] * 10 + ["2H", "3S", "4C"]
    assert state.view(1)["zones"]["hand"]["P2"] == [HIDDEN] * 10 + ["2D", "4S", "6S"]
    assert state.view(3)["zones"]["hand"]["P0"] == [HIDDEN] * 10 + ["2C", "2S", "3D"]
    assert state.evaluate("hand[P1][10]", viewer=0) == ("2H", [])
    assert state.evaluate("[c for c in hand[P1] where c.suit == H]", viewer=0)[1][0].code == "E0710"
    assert log_of(state, 0, 4)[1:4] == ["move 2H to hand[P1]", "move 3S to hand[P1]", "move 4C to hand[P1]"]


def test_the_other_seats_do_not_learn_the_passed_cards():
    state = hearts_after_the_passes()
    for viewer in (2, 3, None):
        assert state.view(viewer)["zones"]["hand"]["P1"] == [HIDDEN] * 13
        assert log_of(state, viewer, 1) == ["(a hidden choice)"]
        assert log_of(state, viewer, 4)[1:4] == ["move ?? to hand[P1]"] * 3
    assert state.evaluate("hand[P1][10]", viewer=2) == (HIDDEN, [])
    assert log_of(state, 1, 1) == ["(a hidden choice)"]  # the receiver sees them only as they land
    assert log_of(state, 1, 4)[1:4] == ["move 2H to hand[P1]", "move 3S to hand[P1]", "move 4C to hand[P1]"]


def test_a_determinization_never_moves_a_passed_card():
    state = hearts_after_the_passes()
    hand_p1 = state.prog.zone_slot("hand", 1, 4)
    passed = [state.prog.card_by_name[x] for x in ("2H", "3S", "4C")]
    others = set()
    for seed in range(12):
        d = state.determinize(0, seed)
        assert d.zones[hand_p1][10:] == passed
        assert d.information_state(0) == state.information_state(0)
        others.add(tuple(d.zones[hand_p1][:10]))
    assert len(others) > 1  # the cards P0 does not know are still dealt at random
    # for P2, who did not see them go, they may be anywhere P2 cannot see
    assert any(state.determinize(2, seed).zones[hand_p1][10:] != passed for seed in range(12))


def test_a_determinization_tells_nothing_of_the_real_cards_through_another_seats_log():
    state = hearts_after_the_passes()
    real = log_of(state, 1, 2)
    assert real == ["pass_cards 2D 4S 6S"]
    logs = set()
    for seed in range(6):
        d = state.determinize(0, seed)
        assert d.observation(0) == state.observation(0)
        # P1 passed the cards the sample put where P1 remembers them, and its log says so
        passed = d.view(1)["zones"]["hand"]["P2"][10:]
        assert log_of(d, 1, 2) == ["pass_cards " + " ".join(passed)]
        assert log_of(d, 1, 4)[4:7] == [f"move {x} to hand[P2]" for x in passed]
        logs.add(tuple(log_of(d, 1, 2)))
    assert len(logs) > 1 and tuple(real) not in logs  # before: P1's real log, in every sample


# ---- Skat: the declarer lays two cards away into the skat --------------------------------------

def skat_without_show(tmp_path):
    """The Skat script without its `show cs to declarer` (written when laying away forgot)."""
    text = SKAT_PATH.read_text()
    assert text.count("show cs to declarer\n") == 1
    path = tmp_path / "skat.cardgame"
    path.write_text(text.replace("show cs to declarer\n", "\n"))
    return interpreter.load(str(path))


def laid_away(game):
    state = game.new_game(seed=0, record=True)
    for move in SKAT_BIDDING + ["lay_away 7H 7S"]:
        state.apply(move)
    return state


def test_the_declarer_remembers_the_skat_it_laid_away_without_being_shown(tmp_path):
    state, shown = laid_away(skat_without_show(tmp_path)), laid_away(SKAT)
    assert state.view(1)["zones"]["skat"] == ["7H", "7S"]
    for viewer in (0, 1, 2, None):
        assert state.view(viewer) == shown.view(viewer)  # `show` is no longer needed for this
    assert log_of(state, 1, 6) == ["lay_away 7H 7S", "move 7H to skat", "move 7S to skat"]
    assert state.evaluate("cards(skat)", viewer=1) == ("[7H, 7S]", [])
    skat = state.prog.zone_slot("skat", None, 3)
    cards = [state.prog.card_by_name[x] for x in ("7H", "7S")]
    assert all(state.determinize(1, seed).zones[skat] == cards for seed in range(8))


def test_the_defenders_do_not_learn_the_laid_away_cards(tmp_path):
    state = laid_away(skat_without_show(tmp_path))
    for viewer in (0, 2, None):
        assert state.view(viewer)["zones"]["skat"] == [HIDDEN, HIDDEN]
        assert log_of(state, viewer, 6) == ["lay_away ?? ??", "move ?? to skat", "move ?? to skat"]
        assert state.evaluate("cards(skat)", viewer=viewer) == ("[??, ??]", [])
    # `why` about the declarer's choice of game: its options are public and no rule reads the skat
    assert state.explain("suit_game D", viewer=0).reason == "no rule restricts this option"


def test_the_repl_answers_from_what_the_seat_remembers(tmp_path):
    s = Session()
    s.start(str(SKAT_PATH), seed=0)
    for move in SKAT_BIDDING + ["lay_away 7H 7S"]:
        s.execute(f"play {move}")
    s.execute("view P1")
    assert s.execute("show skat") == "skat: 2 cards: 7H 7S"
    assert s.execute("eval cards(skat)") == "[7H, 7S]"
    s.execute("view P0")
    assert s.execute("show skat") == "skat: 2 cards, hidden"
    assert s.execute("eval cards(skat)") == "[??, ??]"


# ---- a card played face down into a pile ----------------------------------------------------------

PILE = '''game "Pile"
players 2
deck d in stock {
    card "A" { rank: 1 }
    card "B" { rank: 2 }
    card "C" { rank: 3 }
    card "D" { rank: 4 }
}
zone stock: shared hidden
zone hand: per player owner
zone pile: shared hidden
phase main {
    deal 2 from stock to hand of players
    for p in players {
        decide p "Lay a card face down" {
            lay(c from hand[p]) {
                move c to pile
            }
        }
    }
    move top(pile) to stock
    decide seat(0) "Shuffle?" {
        keep
        mix {
            shuffle pile
        }
    }
    end game
}
'''


def test_a_card_played_face_down_is_remembered_until_the_pile_is_shuffled(tmp_path):
    script = tmp_path / "pile.cardgame"
    script.write_text(PILE)
    state = interpreter.load(str(script)).new_game(seed=1, record=True)
    mine = state.view(0)["zones"]["hand"]["P0"][0]
    state.apply(f"lay {mine}")
    state.apply(state.legal_moves()[0])  # P1 lays its card on top; then it goes back to the stock
    # P0 saw an unseen card leave the pile: not the one it laid there, which it would have seen named
    assert state.view(0)["zones"]["pile"] == [mine]
    assert state.view(1)["zones"]["pile"] == [HIDDEN]
    assert log_of(state, 0, 2)[-1] == "move ?? to stock"
    kept = state.clone()
    kept.apply("keep")
    assert kept.view(0)["zones"]["pile"] == [mine]
    state.apply("mix")  # a shuffle forgets the places, and keeps "somewhere in this pile": of one card
    assert state.view(0)["zones"]["pile"] == [mine]
    assert state.view(1)["zones"]["pile"] == [HIDDEN]


# ---- the property: a determinization agrees with everything the seat remembers -----------------

GAMES = {name: interpreter.load(str(SCRIPTS / name)) for name in
         ("hearts.cardgame", "skat.cardgame", "cribbage.cardgame", "euchre.cardgame", "go_fish.cardgame",
          "pinochle.cardgame")}


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 10_000), steps=st.integers(0, 40),
       rng_seed=st.integers(0, 1000))
def test_a_determinization_agrees_with_everything_the_seat_remembers(name, seed, steps, rng_seed):
    state = GAMES[name].new_game(seed=seed, record=True)
    agent = interpreter.RandomAgent(seed)
    for _ in range(steps):
        if state.is_over or state.fault is not None:
            break
        state.apply(agent.choose(state.legal_moves()))
    journal = state.journal_now()
    names = state.prog.card_names
    for seat in range(state.n):
        view, mind = state.view(seat), journal.mind(seat)
        for slot, pic in enumerate(mind.pics):
            assert len(pic) == len(state.zones[slot])
            for index, card in enumerate(pic):
                if card >= 0:
                    assert state.zones[slot][index] == card  # what it knows is true
                    assert names[card] in _named(view, state, slot, index)  # and shown to it in its place
            for card in range(len(names)):  # every card is possible where it lies
                assert mind.possible[state.loc[card]] >> card & 1
        d = state.determinize(seat, rng_seed)
        assert d.information_state(seat) == state.information_state(seat)
        # every card the seat can name is where it is
        for slot, pic in enumerate(mind.pics):
            for index, card in enumerate(pic):
                if card >= 0:
                    assert d.zones[slot][index] == card
        assert d.view("all")["zones"].keys() == view["zones"].keys()
        # and what every other seat knows in the sampled world is true there too
        for other, known in enumerate(d.journal_now().minds):
            for slot, pic in enumerate(known.pics):
                assert all(c < 0 or d.zones[slot][i] == c for i, c in enumerate(pic)), other


def _named(view, state, slot, index):
    zone, owner = state.prog.zone_of_slot(slot, state.n)
    listed = view["zones"][zone] if owner is None else view["zones"][zone][f"P{owner}"]
    return () if listed[index] == HIDDEN else (listed[index],)


def test_cardgame_play_view_draws_the_passed_cards_in_the_neighbours_hand(capsys):
    from cardgame.repl.cli import main
    path = str(SCRIPTS / "hearts.cardgame")
    assert main(["play", path, "--seed", "1", "--view", "P0", "--table", "--ascii"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "   1. P0: pass_cards 4C 6H AD" in lines
    first_trick = lines.index("   5. P0: play JS")
    assert "  hand[P1]  13  4C  AD  6H +10 hidden" in lines[:first_trick]
    assert main(["play", path, "--seed", "1", "--view", "P2", "--table", "--ascii"]) == 0
    lines = capsys.readouterr().out.splitlines()
    first_trick = lines.index("   5. P0: play JS")
    assert "  hand[P1]  13  hidden" in lines[:first_trick]
    assert "   1. P0: (a hidden choice)" in lines
