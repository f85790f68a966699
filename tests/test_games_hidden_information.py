"""Games of hidden information in tests/scripts/, each rule in a scenario: Hanabi (hands seen by
the others, clues kept), Love Letter (the Countess, the Guard, looks only their players read),
Coup (the coup at ten, a challenge's cost) and Skull (discs placed at once, bids, flips).  Every
game ends at its fewest and most players, and what each seat knows holds over them (the
knowledge model's property of tests/test_knowledge.py)."""

from __future__ import annotations

import random

from cardgame import interpreter
from helpers import load_script


def _moves(state) -> set:
    return {m.text for m in state.legal_moves()}


def test_hanabi_names_positions_shows_each_hand_to_the_others_and_keeps_the_clues():
    state = load_script("hanabi.cardgame").new_game(seed=1, record=True)
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
    start = load_script("love_letter.cardgame").new_game(players=3, seed=1)
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
    state = load_script("love_letter.cardgame").new_game(players=3, seed=1, record=True)
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
    state = load_script("coup.cardgame").new_game(players=3, seed=4)
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
    state = load_script("skull.cardgame").new_game(players=3, seed=1, record=True)
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
        game = load_script(name)
        for players in counts:
            result = interpreter.simulate(game, 30, players, 7, {})
            assert result["outcomes"]["faulted"] == 0 and result["outcomes"]["limit"] == 0, (name, players)
            assert result["outcomes"]["won"] + result["outcomes"]["drawn"] == 30, (name, players)


def test_what_each_seat_knows_holds_over_the_campaigns_games():
    from test_knowledge import check_seat, played
    for name in ("hanabi.cardgame", "love_letter.cardgame", "coup.cardgame", "skull.cardgame"):
        game = load_script(name)
        for seed in range(3):
            state, seen = played(game, seed, 25 + 15 * seed)
            for seat in range(state.n):
                check_seat(state, seen, seat, random.Random(seed))
                if state.current_player == seat:  # the texts a seat reads are the same on any deal it cannot tell
                    assert state.determinize(seat, seed).move_texts(seat) == state.move_texts(seat)
