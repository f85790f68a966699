"""The seven ways a seat learned what it must not (issue 34), each reproduced as it was found.

1 and 2 run in the REPL exactly as the issue tells them; the others through the API.  The
properties that generalise them (any game, any history) are in test_knowledge_properties.py.
"""

from __future__ import annotations

import json
import random

import pytest

from cardgame import interpreter
from cardgame.interpreter import HIDDEN, ScriptError
from cardgame.repl.session import Session
from helpers import ROOT

BOSSPOKER = str(ROOT / "games" / "bosspoker.cardgame")
BOHEI = str(ROOT / "games" / "bohei.cardgame")
BOUNCER = str(ROOT / "games" / "bouncer.cardgame")
SCRIPTS = ROOT / "tests" / "scripts"


# ---- 1. a card chosen in secret is not named to seats that knew it earlier ----------------------

# Round 1: both reveal a Jack (P0's Jr is seen by everyone); round 2: P0 plays Jr again, face
# down, and P1 (the Boss, revealing first) reveals a King and must choose whom it looks at.
ROUNDS = ["commit 3r", "commit 6b", "check", "check", "face Jr", "face Jb", "check", "check",
          "commit 2r", "commit 2b", "check", "check", "face Jr", "face Kb"]


def bosspoker_session() -> Session:
    s = Session()
    s.start(BOSSPOKER, seed=1)
    for move in ROUNDS:
        s.execute(f"play {move}")
    return s


def test_1_a_face_card_played_face_down_is_not_named_to_the_seat_that_saw_it_last_round():
    s = bosspoker_session()
    assert s.execute("eval face_up(top(face_card[P0]))") == "false"
    s.execute("view P1")
    assert s.execute("show face_card").splitlines() == ["face_card[P0]: 1 card, hidden", "face_card[P1]: 1 card: Kb*"]
    out = s.execute("eval top(face_card[P0]).rank")
    assert out.startswith("error[E0710]: ") and "which P1 cannot see" in out
    # P1 still knows Jr is one of P0's face cards: in its hand, or the one just played
    knowledge = s.state.observation(1)["knowledge"]
    assert "Jr" in knowledge["faces[P0]"]["possible"] and "Jr" in knowledge["face_card[P0]"]["possible"]
    assert "Jr" not in knowledge["faces[P0]"]["known"] and "Jr" not in knowledge["face_card[P0]"]["known"]
    assert "Jb" not in knowledge["face_card[P0]"]["possible"]  # its own Jack is in its own hand
    assert s.execute("eval Jr in faces[P0]").startswith("error[E0710]: ")
    assert s.execute("eval Jb in faces[P0]") == "false"


def test_1_with_three_players_the_kings_target_is_chosen_without_seeing_a_face_down_queen():
    game = interpreter.load(BOSSPOKER)
    state = game.new_game(players=3, seed=1, record=True)
    agent = interpreter.RandomAgent(5)
    for _ in range(400):
        if state.is_over or "King look at" in state.prompt:
            break
        state.apply(agent.choose(state.legal_moves()))
    assert "King look at" in state.prompt, "no King was revealed"
    seat = state.current_player
    face_down = 0
    for other in range(3):
        slot = state.prog.zone_slot("face_card", other, 3)
        cards = state.zones[slot]
        if other != seat and cards and not state.vis[cards[-1]] & state.FACE_UP:
            assert state.view(seat)["zones"]["face_card"][f"P{other}"] == [HIDDEN]
            face_down += 1
    assert face_down == 1  # P2's face-down Queen, which the King's seat must choose without seeing


# ---- 2. the same through a give --------------------------------------------------------------

# Bohei, 4 players, seed 3: the traits, then P2 gives NoNames to P1 (step 20), and P1, asked to
# give a card to P0 while everybody passes right, gives it on (step 33; a Nö stops no give).
GIVES = ["does_not", "does_not", "wears", "does_not", "owns", "wears", "does_not", "owns", "does_not", "does_not",
         "owns", "does_not", "begins P0", "draw", "activate SixWins", "play JeansGive.1", "pass", "give LeftHand",
         "play_opposite", "give NoNames", "no_draw", "activate LeftHand", "neither", "draw", "play AllPassRight",
         "pass", "give SpecsDraw.1", "pass", "give NoSwearing.1", "pass", "give DogsDraw.2", "pass", "give NoNames"]


def test_2_only_giver_and_receiver_learn_which_card_was_given():
    s = Session()
    s.start(BOHEI, seed=3, players=4)
    for move in GIVES:
        assert "error" not in str(s.execute(f"play {move}")), move
    s.execute("view P2")  # P2 gave NoNames to P1 at step 20, and knew P1 held it
    assert s.execute("log -n 1").splitlines()[-1] == "  33. P1: give ??"
    assert s.execute("show hand P0") == "hand[P0]: 1 card, hidden"
    s.execute("view P0")  # the receiver sees it land
    assert s.execute("log -n 1").splitlines()[-1] == "  33. P1: give NoNames"
    s.execute("view P1")  # and the giver chose it
    assert s.execute("log -n 1").splitlines()[-1] == "  33. P1: give NoNames"


# ---- 3. the API refuses another seat's moves when asked on a seat's behalf -----------------------

def test_3_listing_another_seats_moves_for_a_seat_is_refused():
    state = interpreter.load(BOUNCER).new_game(seed=1, record=True)
    state.apply("play 9D")
    assert state.current_player == 1
    for asking in (0, 2, None):
        with pytest.raises(ScriptError) as err:
            state.move_texts(asking)
        assert err.value.diagnostics[0].code == "E0710"
        assert "P1's choices" in err.value.diagnostics[0].message
        with pytest.raises(ScriptError):
            state.seat(asking).legal_moves() if asking is not None else state.move_texts(None, legal_only=False)
    assert state.move_texts(1) == state.seat(1).move_texts()
    assert len(state.move_texts("all")) == len(state.legal_moves())


# ---- 4. determinize makes only worlds the seat cannot tell apart, and that go on ----------------

def test_4_every_determinization_is_the_same_to_the_seat_and_can_be_played_on():
    game = interpreter.load(BOHEI)
    state = game.new_game(players=3, seed=2, record=True)
    agent = interpreter.RandomAgent(1)
    for _ in range(16):
        state.apply(agent.choose(state.legal_moves()))
    assert state.current_player == 1 and state.prompt == "P1, step 2: activate one of your rule cards"
    real = state.information_state(2)
    for k in range(6):
        world = state.determinize(2, random.Random(k))
        assert world.current_player == 1 and world.fault is None and not world.is_over
        assert world.information_state(2) == real
        moves = world.legal_moves()
        assert moves and all(m.text.startswith("activate ") for m in moves)
        world.apply(moves[0])  # the Monte Carlo loop of docs/api.md goes on


# ---- 5. a card stored in a public variable is named only to seats that know it -------------------

KEPT = '''game "Kept"
players 2
deck d in stock {
    rank: 2, 3, 4, 5
    suit: C, D
    name: rank suit
}
zone stock: shared hidden
zone hand: per player owner
var kept: card = none
phase main {
    shuffle stock
    deal 2 from stock to hand of players
    set kept = top(hand[seat(0)])
    decide seat(1) "Go?" {
        go
    }
    end game
}
'''


def test_5_a_card_in_a_public_variable_reads_hidden_to_the_other_seat(tmp_path):
    path = tmp_path / "kept.cardgame"
    path.write_text(KEPT)
    s = Session()
    s.start(str(path), seed=1)
    kept = s.execute("eval kept")
    assert kept != HIDDEN
    s.execute("view P1")
    assert f"kept = {HIDDEN}" in s.execute("state")
    assert s.execute("eval kept.rank").startswith("error[E0710]: ")
    assert s.execute("eval kept") == HIDDEN
    assert s.state.view(1)["vars"]["kept"] == HIDDEN
    assert f"set kept = {HIDDEN}" in [e.text for e in s.state.observed_events(1)]
    s.execute("view P0")
    assert s.execute("eval kept") == kept


@pytest.mark.parametrize("script", ["records.cardgame", "sorting.cardgame"])
def test_5_the_test_scripts_do_not_name_a_seats_cards_to_the_other(script, tmp_path):
    game = interpreter.load(str(SCRIPTS / script))
    for seed in range(6):
        state = game.new_game(players=2, seed=seed, record=True)
        agent = interpreter.RandomAgent(seed)
        while not state.is_over and len(state.history) < 6:
            hand = set(state.view("all")["zones"]["hand"]["P0"]) - set(state.view(1)["zones"]["hand"]["P0"])
            seen = set(json.dumps(state.view(1)["vars"]).replace('"', " ").replace(",", " ").replace("[", " ")
                       .replace("]", " ").replace(":", " ").replace("{", " ").replace("}", " ").split())
            assert not hand & seen, (seed, hand & seen)
            state.apply(agent.choose(state.legal_moves()))
    s = Session()
    s.start(str(SCRIPTS / script), seed=1)
    s.execute("auto 1")
    hand = set(s.state.view("all")["zones"]["hand"]["P0"])
    s.execute(f"save --view P1 {tmp_path / 'p1.json'}")
    seen = json.loads((tmp_path / "p1.json").read_text())["observation"]
    named = json.dumps([seen["zones"], seen["known_in"], seen["vars"], seen["log"],
                        {z: k["cards"] for z, k in seen["knowledge"].items()}])
    assert not {name for name in hand if f'"{name}"' in named or f" {name}" in named or f"[{name}" in named}


# ---- 6. a seat's own listing is in an order that depends only on what it knows --------------------

GIVE_TWO = '''game "Give two"
players 2
deck d in stock {
    rank: 2, 3, 4, 5, 6, 7, 8, 9
    suit: C, D
    name: rank suit
}
zone stock: shared hidden
zone hand: per player others
zone given: shared hidden
phase main {
    shuffle stock
    deal 3 from stock to hand of players
    show hand[seat(0)][1] to seat(0)
    decide seat(0) "Give two" {
        give(cs from 2 of hand[seat(0)]) {
            move cs to given
        }
    }
    end game
}
'''


def test_6_a_several_card_listing_reads_the_same_in_worlds_the_seat_cannot_tell_apart(tmp_path):
    path = tmp_path / "give_two.cardgame"
    path.write_text(GIVE_TWO)
    game = interpreter.load(str(path))
    listings = {}
    for seed in range(120):
        state = game.new_game(seed=seed, record=True)
        seen = tuple(state.view(0)["zones"]["hand"]["P0"])  # one card named, in its place
        listings.setdefault(seen, set()).add(tuple(state.move_texts(0)))
    assert any(len(texts) > 0 for texts in listings.values())
    for seen, texts in listings.items():
        assert len(texts) == 1, (seen, texts)  # one listing per thing the seat knows
    # and the first `give ?? ??` is not "the two lowest": it is the cards at their places
    state = game.new_game(seed=3, record=True)
    listed = state.seat(0).legal_moves()
    assert [m.text for m in listed] == state.move_texts(0)


# ---- 7. the documented limits that were the same gap ------------------------------------------------

def hearts_after_the_passes():
    state = interpreter.load(str(SCRIPTS / "hearts.cardgame")).new_game(seed=1, record=True)
    for move in ["pass_cards 2H 3S 4C", "pass_cards 2D 4S 6S", "pass_cards 3C 5D 5H", "pass_cards 2C 2S 3D"]:
        state.apply(move)
    return state


def test_7_a_card_known_to_be_in_a_hand_is_answered():
    state = hearts_after_the_passes()
    assert state.evaluate("2H in hand[P1]", viewer=0) == ("true", [])
    assert state.evaluate("2D in hand[P1]", viewer=0)[1][0].code == "E0710"  # P0 does not know where 2D is
    assert state.evaluate("2H in hand[P2]", viewer=0) == ("false", [])


PILE = '''game "Pile"
players 2
deck d in stock {
    rank: 2, 3, 4, 5
    suit: C, D
    name: rank suit
}
zone stock: shared hidden
zone hand: per player owner
zone pile: shared hidden
phase main {
    shuffle stock
    deal 2 from stock to hand of players
    decide seat(0) "Lay a card face down" {
        lay(c from hand[seat(0)]) {
            move c to pile
        }
    }
    move top(stock) to pile
    shuffle pile
    decide seat(0) "Done?" {
        done
    }
    end game
}
'''


def test_7_a_shuffle_keeps_somewhere_in_this_zone(tmp_path):
    path = tmp_path / "pile.cardgame"
    path.write_text(PILE)
    state = interpreter.load(str(path)).new_game(seed=2, record=True)
    mine = state.view(0)["zones"]["hand"]["P0"][0]
    state.apply(f"lay {mine}")
    assert state.view(0)["zones"]["pile"] == [HIDDEN, HIDDEN]  # shuffled: no longer in its place
    assert state.evaluate(f"{mine} in pile", viewer=0) == ("true", [])  # but still in the pile
    assert state.evaluate(f"{mine} in pile", viewer=1)[1][0].code == "E0710"
    knowledge = state.observation(0)["knowledge"]["pile"]
    assert knowledge["size"] == 2 and knowledge["known"] == [mine]


def test_7_information_revealed_counts_what_the_acting_seat_can_name():
    from cardgame.interpreter.studies.playtest import seen_share
    state = hearts_after_the_passes()
    assert state.current_player == 0
    # its own thirteen cards, and the three it passed into P1's hand
    assert seen_share(state, len(state.loc)) == 16 / 52
