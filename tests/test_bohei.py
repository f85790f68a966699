"""Bohei (games/bohei.cardgame): the rule area, the win, the "Bohei" call, Nö and Gegenteiltag,
challenges, rule breaks and whole games.

Scenario positions are built by answering the set-up's table questions (traits, who begins),
then placing cards (and setting variables) through saved-state JSON; every card not placed lies
in the draw pile.  Each test then drives the game with moves and checks the exact legal moves.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import GAMES, arrange, load_game, moves, with_vars
from cardgame.interpreter.studies.agents import RandomAgent

GAME = load_game("bohei.cardgame")
SOURCE = (GAMES / "bohei.cardgame").read_text().splitlines()
CARDS = len(GAME.program.card_names)

FILLER = ["Humming.1", "Humming.2", "StraightFace.1", "StraightFace.2", "ThumbWar.1", "ThumbWar.2",
          "StaringContest.1", "StaringContest.2", "RockPaperScissors", "TongueTwister", "JokeDuel.2"]


def rule_line(name: str) -> int:
    return next(i for i, line in enumerate(SOURCE, 1) if line.startswith(f"rule {name}("))


def v(state) -> dict:
    return state.view("all")["vars"]


def zones(state) -> dict:
    return state.view("all")["zones"]


def hand(state, seat: int) -> list[str]:
    return zones(state)["hand"][f"P{seat}"]


def start(players=3, glasses=(), dogs=(), jeans=(), first=0):
    """A new game whose table answered the trait questions and named `first` to begin."""
    state = GAME.new_game(players=players, seed=3)
    for seat in range(players):
        assert state.prompt == f"Does P{seat} wear glasses?"
        state.apply("wears" if seat in glasses else "does_not")
        assert state.prompt == f"Does P{seat} own a dog?"
        state.apply("owns" if seat in dogs else "does_not")
        assert state.prompt == f"Is P{seat} wearing jeans?"
        state.apply("wears" if seat in jeans else "does_not")
    assert state.prompt == "Who is the most disorganised person at the table?"
    assert moves(state) == {f"begins P{s}" for s in range(players)}
    state.apply(f"begins P{first}")
    assert state.prompt == f"P{first}'s turn, step 1: draw a card?"
    return state


def position(hands: dict, players=3, rest="draw_pile", extra=None, variables=None, **traits):
    """Seat `first` (default 0) at step 1 of its turn, hands as given, other zones from `extra`."""
    state = start(players, **traits)
    layout = {"hand": hands}
    layout.update(extra or {})
    state = arrange(state, layout, rest=rest)
    return with_vars(state, **variables) if variables else state


def play(state, *texts):
    for text in texts:
        assert text in moves(state), f"{text!r} not in {sorted(moves(state))} at {state.prompt!r}"
        state.apply(text)


def card_total(state) -> int:
    return sum(len(z) for z in state.to_json()["zones"])


def test_the_deck_of_our_design():
    state = GAME.new_game(players=3, seed=1)  # at the first trait question: nothing dealt yet
    kinds = {"rule": 12, "action": 17, "nope": 6, "opposite": 4, "duel": 5, "judged": 3, "group": 4}
    for kind, number in kinds.items():
        assert state.evaluate(f"count x in draw_pile where x.kind == {kind}")[0] == str(number), kind
    assert CARDS == sum(kinds.values()) == 51
    assert state.evaluate("count x in draw_pile where x.text == none")[0] == "0"  # every card is printed
    assert state.evaluate("count x in draw_pile where x.check == people")[0] == "5"
    assert state.evaluate("count x in draw_pile where x.check == engine")[0] == "3"


# ---- the rule area --------------------------------------------------------------------------------

def test_a_full_rule_area_asks_which_rule_to_cover():
    state = position({0: ["NoSwearing.1", "Humming.1"]},
                     extra={"place_left": ["Miser"], "place_right": ["NoNames"]})
    play(state, "no_draw")
    assert state.prompt == "P0, step 2: activate one of your rule cards"
    assert moves(state) == {"activate NoSwearing.1"}
    play(state, "activate NoSwearing.1")
    assert state.prompt == "The rule area is full: which rule does NoSwearing.1 cover?"
    assert moves(state) == {"cover Miser", "cover NoNames"}
    play(state, "cover NoNames")
    z = zones(state)
    assert z["place_left"] == ["Miser"] and z["place_right"] == ["NoSwearing.1"]
    assert z["discard_pile"] == ["NoNames"]  # the covered rule is out of force
    assert state.prompt == "P0, step 3: play an action or a challenge card, or neither?"


def test_a_free_place_takes_the_new_rule_without_a_question():
    state = position({0: ["HandsUp", "SixWins"]}, extra={"place_left": ["Miser"]})
    play(state, "no_draw")
    assert moves(state) == {"activate HandsUp", "activate SixWins"}  # one of them, the player's choice
    play(state, "activate HandsUp")
    assert zones(state)["place_right"] == ["HandsUp"]
    assert state.prompt.startswith("P0, step 3")  # only one rule card per turn
    assert hand(state, 0) == ["SixWins"]


def test_the_extra_place_opens_a_third_place_and_cannot_be_covered():
    state = position({0: ["ExtraPlace"], 1: ["LeftHand"]},
                     extra={"place_left": ["Miser"], "place_right": ["NoNames"]})
    play(state, "no_draw", "activate ExtraPlace")
    z = zones(state)
    assert z["extension"] == ["ExtraPlace"] and z["place_extra"] == []  # it does not fill its own place
    play(state, "neither")
    # P1's rule goes on the new place without covering anything
    play(state, "no_draw", "activate LeftHand")
    assert zones(state)["place_extra"] == ["LeftHand"]
    play(state, "neither")
    # With three full places, a new rule may cover any of the three rules, never the extension
    state = arrange(state, {"hand": {2: ["HandsUp", "Humming.1"]}, "place_left": ["Miser"],
                            "place_right": ["NoNames"], "place_extra": ["LeftHand"],
                            "extension": ["ExtraPlace"]}, rest="draw_pile")
    play(state, "no_draw", "activate HandsUp")
    assert moves(state) == {"cover Miser", "cover NoNames", "cover LeftHand"}


def test_closing_a_place_for_good():
    state = position({0: ["ClosedPlace"], 1: ["HandsUp"]},
                     extra={"place_left": ["Miser"], "place_right": ["NoNames"], "place_extra": ["LeftHand"],
                            "extension": ["ExtraPlace"]})
    play(state, "no_draw", "activate ClosedPlace")
    assert state.prompt.startswith("Which place does Closed place close for good?")
    assert moves(state) == {"close 1", "close 2", "close 3"}
    play(state, "close 1")
    assert zones(state)["place_left"] == ["Miser", "ClosedPlace"]
    assert v(state)["closed"] == [1]
    assert state.evaluate("active_rules")[0] == "[NoNames, LeftHand]"  # Miser no longer applies
    play(state, "neither", "no_draw", "activate HandsUp")
    assert moves(state) == {"cover NoNames", "cover LeftHand"}  # nothing goes on the closed place


def test_an_engine_checked_rule_refuses_the_move_and_why_names_it():
    state = position({0: ["Humming.1", "ThumbWar.1", "AllDraw.1"]},
                     extra={"place_left": ["PeacePipe"]})
    play(state, "no_draw")
    assert moves(state) == {"play AllDraw.1", "neither"}
    why = state.explain("play ThumbWar.1")
    assert not why.legal and [r.name for r in why.failing] == ["peace_pipe"]
    assert why.failing[0].span.line == rule_line("peace_pipe")


@pytest.mark.parametrize("size, legal", [(5, {"draw", "no_draw"}), (6, {"no_draw"})])
def test_miser_forbids_drawing_by_choice_with_six_cards(size, legal):
    state = position({0: FILLER[:size]}, extra={"place_left": ["Miser"]})
    assert moves(state) == legal


def test_draw_duty_makes_a_short_hand_draw():
    state = position({0: FILLER[:3]}, extra={"place_left": ["DrawDuty"]})
    assert moves(state) == {"draw"}
    assert [r.name for r in state.explain("no_draw").failing] == ["draw_duty"]


# ---- winning and the "Bohei" call -----------------------------------------------------------------

def end_turn(state):
    """Finish the current player's turn quietly: no draw, no card in step 3."""
    play(state, "no_draw")
    play(state, "neither")


def test_winning_at_the_start_of_ones_own_turn():
    state = position({0: FILLER[:2], 1: FILLER[2:9]})
    assert not state.is_over  # P1 holds 7, but it is P0's turn
    end_turn(state)
    assert state.is_over and state.winners == [1]
    assert v(state)["champion"] == "P1"


def test_eight_cards_do_not_win():
    state = position({0: FILLER[:2], 1: FILLER[2:10]})
    end_turn(state)
    assert not state.is_over and state.prompt == "P1's turn, step 1: draw a card?"


def test_a_rule_changes_the_win_condition():
    hands = {0: FILLER[:2], 1: FILLER[2:8]}
    plain = position(hands)
    end_turn(plain)
    assert not plain.is_over  # 6 cards do not win by default
    six = position(hands, extra={"place_left": ["SixWins"]})
    end_turn(six)
    assert six.is_over and six.winners == [1]
    seven = position({0: FILLER[:2], 1: FILLER[2:9]}, extra={"place_left": ["SixWins"]})
    end_turn(seven)
    assert not seven.is_over  # while Six wins is active, 7 does not win


@pytest.mark.parametrize("rules, size, wins", [
    (["EightToo"], 8, True), (["EightToo"], 7, True), ([], 8, False),
    (["EightToo", "SixWins"], 7, False), (["EightToo", "SixWins"], 6, True), (["EightToo", "SixWins"], 8, True),
])
def test_eight_too_adds_a_winning_number(rules, size, wins):
    state = position({0: ["AllDraw.1"], 1: FILLER[:size]},
                     extra={"place_left": rules[:1], "place_right": rules[1:]})
    end_turn(state)
    assert state.is_over is wins


def test_reaching_eight_asks_for_the_call_while_eight_too_is_active():
    state = position({0: ["DogsDraw.1"], 1: FILLER[:6]}, dogs={1}, extra={"place_left": ["EightToo"]})
    play(state, "no_draw", "play DogsDraw.1", "pass")
    assert state.prompt == 'P1 now holds 7 cards: did P1 call "Bohei"?'
    play(state, "called")
    assert state.prompt == 'P1 now holds 8 cards: did P1 call "Bohei"?'
    assert moves(state) == {"called", "did_not"}


def test_activating_six_wins_asks_everyone_holding_six_to_call():
    state = position({0: ["SixWins", "AllDraw.1", "AllDraw.2", "AllDraw.3", "DogsDraw.1", "DogsDraw.2",
                          "JeansDraw"], 2: FILLER[:6]})
    play(state, "no_draw", "activate SixWins")
    assert state.prompt == 'P0 now holds 6 cards: did P0 call "Bohei"?'
    play(state, "called")
    assert state.prompt == 'P2 now holds 6 cards: did P2 call "Bohei"?'
    assert moves(state) == {"called", "did_not"}


def test_reaching_seven_by_discarding_asks_for_the_call():
    state = position({0: ["DogsDiscard", "AllDraw.1"], 1: FILLER[:8]}, dogs={1})
    play(state, "no_draw", "play DogsDiscard")
    assert state.current_player == 1 and moves(state) == {"pass"}  # P1 holds no answer
    play(state, "pass")
    assert state.prompt == "P1 discards a card (it goes without effect)"
    play(state, "discard Humming.2")
    assert state.current_player == -1
    assert state.prompt == 'P1 now holds 7 cards: did P1 call "Bohei"?'
    assert moves(state) == {"called", "did_not"}


def test_reaching_seven_briefly_while_drawing_two_asks_for_the_call():
    state = position({0: ["DogsDraw.1"], 1: FILLER[:6]}, dogs={1})
    play(state, "no_draw", "play DogsDraw.1", "pass")
    assert state.prompt == 'P1 now holds 7 cards: did P1 call "Bohei"?'
    play(state, "called")
    assert len(hand(state, 1)) == 8  # the second card followed; 7 was held only briefly


@pytest.mark.parametrize("answer, wins", [("called", True), ("did_not", False)])
def test_a_missed_call_blocks_the_next_win(answer, wins):
    state = position({0: ["DogsDiscard", "AllDraw.1"], 1: FILLER[:8]}, dogs={1})
    play(state, "no_draw", "play DogsDiscard", "pass", "discard Humming.2", answer)
    assert state.is_over is wins
    if not wins:
        assert v(state)["missed_call"]["P1"] is False  # spent: it cost this one chance
        assert state.prompt == "P1's turn, step 1: draw a card?" and len(hand(state, 1)) == 7
        # the chance after that is open again
        for _ in range(3):
            end_turn(state)
        assert state.is_over and state.winners == [1]


# ---- Nö and Gegenteiltag --------------------------------------------------------------------------

def test_no_cancels_a_draw_from_an_action():
    state = position({0: ["DogsDraw.1", "Humming.1"], 1: ["No.1", "OppositeDay.1", "ThumbWar.1"]}, dogs={1})
    play(state, "no_draw", "play DogsDraw.1")
    assert state.prompt == ("P1 must draw 2 cards (All dog owners draw 2 cards.): "
                            "answer with Nö or Gegenteiltag, or pass?")
    assert state.current_player == 1 and moves(state) == {"play_no", "play_opposite", "pass"}
    play(state, "play_no")
    assert hand(state, 1) == ["OppositeDay.1", "ThumbWar.1"]
    assert "No.1" in zones(state)["discard_pile"]


def test_no_cancels_a_penalty_and_gegenteiltag_does_not_answer_one():
    state = position({0: ["Humming.1"], 1: ["No.1", "OppositeDay.1", "ThumbWar.1"], 2: ["ThumbWar.2"]},
                     extra={"place_left": ["NoSwearing.1"]})
    end_turn(state)
    end_turn(state)
    play(state, "no_draw", "neither")  # P2 ends the round
    assert state.prompt == "Did anyone break a rule this round, apart from during challenges?"
    assert moves(state) == {"nobody", "somebody"}
    play(state, "somebody")
    assert state.prompt == "Who broke a rule?" and moves(state) == {"broke P0", "broke P1", "broke P2"}
    play(state, "broke P1")
    assert state.prompt == "Does the group agree that P1 broke a rule?"
    play(state, "agreed")
    assert state.prompt == ("P1 must discard 1 card (the penalty for a rule break): "
                            "answer with Nö or Gegenteiltag, or pass?")
    assert state.current_player == 1 and moves(state) == {"play_no", "pass"}
    play(state, "play_no")
    assert hand(state, 1) == ["OppositeDay.1", "ThumbWar.1"]  # no discard: only the Nö is gone
    assert state.prompt == "Did anyone else break a rule this round, apart from during challenges?"
    assert moves(state) == {"nobody", "somebody"}
    play(state, "somebody")
    assert moves(state) == {"broke P0", "broke P2"}  # P1 was named already


def test_a_penalty_draws_with_eight_cards_or_more():
    state = position({0: ["AllDraw.1"], 1: FILLER[:8], 2: ["JokeDuel.1"]},
                     extra={"place_left": ["NoSwearing.1"]})
    for _ in range(3):
        end_turn(state)
    play(state, "somebody", "broke P1", "agreed", "pass")
    assert len(hand(state, 1)) == 9


def test_gegenteiltag_turns_draw_two_into_discard_two_for_one_player_only():
    state = position({0: ["DogsDraw.1"], 1: ["OppositeDay.1", "Humming.1", "Humming.2", "ThumbWar.1"],
                      2: ["ThumbWar.2"]}, dogs={1, 2})
    play(state, "no_draw", "play DogsDraw.1")
    assert state.current_player == 1 and moves(state) == {"play_opposite", "pass"}
    play(state, "play_opposite")
    assert state.prompt == "P1 discards a card (it goes without effect)"
    assert moves(state) == {"discard Humming.1", "discard Humming.2", "discard ThumbWar.1"}
    play(state, "discard Humming.1", "discard ThumbWar.1")
    assert hand(state, 1) == ["Humming.2"]
    assert state.current_player == 2 and moves(state) == {"pass"}  # P2 holds no answer
    play(state, "pass")
    assert len(hand(state, 2)) == 3  # P2 still draws 2


def test_two_affected_players_answer_one_action_differently():
    state = position({0: ["AllDraw.1"], 1: ["No.1", "Humming.1"], 2: ["OppositeDay.1", "No.2", "ThumbWar.2"]})
    play(state, "no_draw", "play AllDraw.1")
    assert state.current_player == 0 and moves(state) == {"pass"}
    play(state, "pass")
    assert len(hand(state, 0)) == 2
    assert state.current_player == 1 and moves(state) == {"play_no", "pass"}
    play(state, "play_no")
    assert state.current_player == 2 and moves(state) == {"play_no", "play_opposite", "pass"}
    play(state, "play_opposite")
    # After the Gegenteiltag nobody answers again: P2 now discards 2 of what is left
    assert state.prompt == "P2 discards a card (it goes without effect)"
    assert moves(state) == {"discard No.2", "discard ThumbWar.2"}
    play(state, "discard No.2", "discard ThumbWar.2")
    assert hand(state, 1) == ["Humming.1"] and hand(state, 2) == []


def test_gegenteiltag_on_a_gift_takes_a_card_from_that_neighbour():
    state = position({0: ["JeansGive.1", "Humming.1"], 1: ["OppositeDay.1", "ThumbWar.1"],
                      2: ["ThumbWar.2", "StaringContest.1"]}, jeans={1})
    play(state, "no_draw", "play JeansGive.1", "play_opposite")
    assert state.current_player == 2 and state.prompt == "P2 gives a card to P1"
    assert moves(state) == {"give ThumbWar.2", "give StaringContest.1"}
    play(state, "give StaringContest.1")
    assert hand(state, 1) == ["ThumbWar.1", "StaringContest.1"]
    assert "StaringContest.1" in state.view(2)["zones"]["hand"]["P1"]  # the giver knows it
    assert "StaringContest.1" not in state.view(0)["zones"]["hand"]["P1"]


def test_nö_played_as_a_card_on_ones_turn_is_refused_and_explained():
    state = position({0: ["No.1", "OppositeDay.1", "AllDraw.1", "NoSwearing.1"]})
    play(state, "no_draw", "activate NoSwearing.1")
    assert moves(state) == {"play AllDraw.1", "neither"}
    why = state.explain("play No.1")
    assert not why.legal and [r.name for r in why.failing] == ["answers_only"]
    assert "they answer a draw, discard or give" in why.failing[0].doc


# ---- challenges -----------------------------------------------------------------------------------

def test_a_duel_with_a_judge_is_replayed_until_clear_and_rewards_the_winner():
    state = position({0: ["JokeDuel.1", "Humming.1"], 1: ["ThumbWar.1"], 2: ["ThumbWar.2"]}, players=4)
    play(state, "no_draw", "play JokeDuel.1")
    assert state.prompt == "Whom do you challenge to the joke duel?"
    assert moves(state) == {"challenge P1", "challenge P2", "challenge P3"}
    play(state, "challenge P2")
    assert state.prompt == "Who judges the joke duel between P0 and P2?"
    assert moves(state) == {"judge P1", "judge P3"}  # neutral: neither of the two
    play(state, "judge P3")
    assert state.prompt == "P3 judges the joke duel: who won, P0 or P2?"
    assert moves(state) == {"won P0", "won P2", "replay"}
    play(state, "replay", "replay")
    assert state.prompt == "P3 judges the joke duel: who won, P0 or P2?"
    play(state, "won P2")
    assert state.prompt == "P2 won: discard up to 2 cards, draw up to 2, or neither?"
    assert moves(state) == {"discard 1", "draw 1", "draw 2", "neither"}  # P2 holds only 1 card
    play(state, "draw 2")
    assert len(hand(state, 2)) == 3


def test_reward_choices_with_a_full_hand():
    state = position({0: ["StaringContest.1", "Humming.1", "Humming.2"]})
    play(state, "no_draw", "play StaringContest.1", "challenge P1", "won P0")
    assert moves(state) == {"discard 1", "discard 2", "draw 1", "draw 2", "neither"}
    play(state, "discard 2")
    assert moves(state) == {"discard Humming.1", "discard Humming.2"}
    play(state, "discard Humming.1", "discard Humming.2")
    assert hand(state, 0) == []


def test_a_group_challenge_drops_players_one_by_one():
    state = position({0: ["Humming.1", "ThumbWar.1"]}, players=4)
    play(state, "no_draw", "play Humming.1")
    assert state.prompt == "Who drops out of the humming next? (still in: [P0, P1, P2, P3])"
    assert moves(state) == {"out P0", "out P1", "out P2", "out P3", "again"}
    play(state, "out P2", "again", "out P0")
    assert moves(state) == {"out P1", "out P3", "again"}
    play(state, "out P3")
    assert state.prompt == "P1 won: discard up to 2 cards, draw up to 2, or neither?"


def test_rules_do_not_apply_to_challenge_participants():
    six = ["Humming.1", "Humming.2", "ThumbWar.1", "ThumbWar.2", "JokeDuel.1", "TongueTwister"]
    state = position({0: ["StaringContest.1", "No.1"] + six[:5], 1: six[5:], 2: ["JokeDuel.2"]},
                     extra={"place_left": ["Miser"], "place_right": ["NoSwearing.1"]})
    # Outside a challenge Miser forbids P0 (7 cards) to draw by choice ...
    assert moves(state) == {"no_draw"}
    play(state, "no_draw", "play StaringContest.1")
    play(state, "challenge P1", "won P0")
    # ... but as the winner of the challenge, still in it, P0 may take the reward draw
    assert moves(state) == {"discard 1", "discard 2", "draw 1", "draw 2", "neither"}
    play(state, "neither")
    # A participant cannot be reported for the challenge: only P2 can be named
    assert state.prompt == "Did anyone break a rule during the challenge?"
    play(state, "somebody")
    assert moves(state) == {"broke P2"}
    play(state, "broke P2", "not_agreed")  # nobody else is left to name
    assert v(state)["in_challenge"] == {"P0": False, "P1": False, "P2": False}


def test_a_group_challenge_leaves_nobody_to_report():
    state = position({0: ["Humming.1", "ThumbWar.1"]}, extra={"place_left": ["NoSwearing.1"]})
    play(state, "no_draw", "play Humming.1", "out P1", "out P2", "neither")
    assert state.prompt == "P1's turn, step 1: draw a card?"  # no question about the challenge


def test_no_question_about_rule_breaks_without_a_watched_rule():
    state = position({0: ["Humming.1"], 1: ["ThumbWar.1"], 2: ["ThumbWar.2"]},
                     extra={"place_left": ["SixWins"], "place_right": ["Miser"], "place_extra": [],
                            "extension": ["ExtraPlace"]})
    for _ in range(3):
        end_turn(state)
    assert state.prompt == "P0's turn, step 1: draw a card?"


# ---- the draw pile --------------------------------------------------------------------------------

def test_an_empty_draw_pile_is_the_reshuffled_discard_pile():
    state = position({0: ["Humming.1"], 1: ["ThumbWar.1"], 2: ["ThumbWar.2"]}, rest="discard_pile")
    assert zones(state)["draw_pile"] == []
    before = len(zones(state)["discard_pile"])
    lines = []
    state.set_tracer(lambda e: lines.append(e.text) if e.kind == "log" else None)
    play(state, "draw")
    z = zones(state)
    assert "the discard pile is shuffled into a new draw pile" in lines
    assert len(hand(state, 0)) == 2 and z["discard_pile"] == [] and len(z["draw_pile"]) == before - 1
    assert card_total(state) == CARDS


def test_nothing_to_draw_when_both_piles_are_empty():
    everything = [c for c in GAME.program.card_names if c not in ("Humming.1", "ThumbWar.1")]
    state = position({0: ["Humming.1"], 1: ["ThumbWar.1"], 2: everything[:1]},
                     extra={"place_left": everything[1:]}, rest="place_right")
    play(state, "draw")
    assert hand(state, 0) == ["Humming.1"]


# ---- whole games ----------------------------------------------------------------------------------

@given(seed=st.integers(0, 2**32), agent_seed=st.integers(0, 2**32), players=st.integers(3, 6))
def test_random_games_keep_every_card_and_end(seed, agent_seed, players):
    state = GAME.new_game(players=players, seed=seed)
    agent = RandomAgent(agent_seed)
    while not state.is_over:
        assert card_total(state) == CARDS
        legal = state.legal_moves()
        assert legal, state.fault
        state.apply(agent.choose(legal))
    assert state.fault is None
    winners = state.winners
    if state.capped:
        assert winners == []
    else:
        assert len(winners) == 1 and v(state)["champion"] == f"P{winners[0]}"


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_simulated_games_end_without_reaching_the_cap(players):
    """The random answers to table questions are shaped so that games end (the script's opening
    comment says how); `cardgame simulate -n 500` gives the full figures, this is a bounded check."""
    from cardgame.interpreter.language.rng import derive
    from cardgame.interpreter.studies.simulate import play_one
    for index in range(25):
        state, finished = play_one(GAME, players, derive(7, index), {})
        assert state.fault is None and not state.capped and finished
        assert len(state.winners) == 1


# ---- Nö as the seed has it: it stops having to draw or discard (issue 37) --------------------------

def test_no_stops_draw_dutys_forced_draw():
    state = position({0: ["No.1", "Humming.1"]}, extra={"place_left": ["DrawDuty"]})
    assert moves(state) == {"draw", "play_no"}  # under Draw duty: draw, or answer the duty with Nö
    play(state, "play_no")
    assert hand(state, 0) == ["Humming.1"] and "No.1" in zones(state)["discard_pile"]
    assert state.prompt == "P0, step 3: play an action or a challenge card, or neither?"
    assert state.history[-1] == "play_no"


def test_no_answers_draw_duty_only_when_it_makes_one_draw():
    state = position({0: ["No.1", "Humming.1"]})
    assert moves(state) == {"draw", "no_draw"}
    assert [r.name for r in state.explain("play_no").failing] == ["duty_to_draw"]
    state = position({0: ["No.1", "Humming.1", "Humming.2", "ThumbWar.1"]}, extra={"place_left": ["DrawDuty"]})
    assert moves(state) == {"draw", "no_draw"}  # four cards: the duty does not make this hand draw


def test_no_does_not_stop_a_give_and_its_text_says_so():
    state = position({0: ["JeansGive.1", "Humming.1"], 1: ["No.1", "ThumbWar.1"], 2: ["ThumbWar.2"]}, jeans={1})
    play(state, "no_draw", "play JeansGive.1")
    assert state.current_player == 1 and moves(state) == {"pass"}
    assert [r.name for r in state.explain("play_no").failing] == ["stops_drawing_or_discarding"]
    texts = {c.name: c.attrs.get("text") for c in GAME.cards}
    assert texts["No.1"] == "Nö! Play at any time when you must draw or discard cards: you don't."
