"""Boss Poker (games/bosspoker.cardgame): betting, the Boss, face cards and peeks, the showdown.

Boss Poker has no chance at all (every seat holds its own suit), so scenario positions are
reached by moves alone; where a position needs a small stack or no green token, the variable
is changed through saved-state JSON.  Seat P0 is the Boss of round 1.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardgame import interpreter
from helpers import line_of, load_game, moves, with_vars
from cardgame.interpreter.studies.agents import RandomAgent

GAME = load_game("bosspoker.cardgame")
COLOURS = "rbypo"
ROUNDS = {2: 10, 3: 9, 4: 8, 5: 10}


def new(players=3, **options):
    return GAME.new_game(players=players, seed=0, options=options)


def vars_of(state) -> dict:
    return state.view("all")["vars"]


def zones_of(state, viewer="all") -> dict:
    return state.view(viewer)["zones"]


def play(state, *texts):
    for text in texts:
        state.apply(text)
    return state


def commit(state, *ranks):
    """Every seat still in the game commits, in seat order, a number card of the given rank."""
    seats = [int(k[1:]) for k, out in vars_of(state)["out"].items() if not out]
    for s, rank in zip(seats, ranks):
        assert state.current_player == s
        state.apply(f"commit {rank}{COLOURS[s]}")
    return state


def faces(state, *ranks):
    """Every seat still in the round plays a face card, in seat order (None skips a folded seat)."""
    for s, rank in enumerate(ranks):
        if rank is not None:
            assert state.current_player == s
            state.apply(f"face {rank}{COLOURS[s]}")
    return state


def raises(low, high):
    return {f"raise {x}" for x in range(low, high + 1)}


def logged(state, *texts) -> list[str]:
    """The game's log lines while `texts` are played."""
    lines = []
    state.set_tracer(lambda e: lines.append(e.text) if e.kind == "log" else None)
    play(state, *texts)
    state.set_tracer(None)
    return lines


def checks_to_face_play(state, players):
    return play(state, *["check"] * players)


# ---- setup --------------------------------------------------------------------------------------

@pytest.mark.parametrize("players, numbers", [
    (2, ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]),
    (3, ["A", "3", "4", "5", "6", "7", "8", "9", "10"]),
    (4, ["A", "4", "5", "6", "7", "8", "9", "10"]),
    (5, ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]),
])
def test_cards_per_player_count(players, numbers):
    state = new(players)
    z = zones_of(state)
    for s in range(players):
        assert z["numbers"][f"P{s}"] == [r + COLOURS[s] for r in numbers]
        assert z["faces"][f"P{s}"] == [r + COLOURS[s] for r in "JQK"]
    assert len(numbers) == ROUNDS[players]
    v = vars_of(state)
    # the ante of round 1 (5) is paid
    assert set(v["tokens"].values()) == {145} and v["pot"] == 5 * players
    assert set(v["green"].values()) == {3} and v["reserve"] == 10
    assert moves(state) == {f"commit {r}r" for r in numbers}


def test_commits_are_hidden_and_simultaneous():
    state = new(3)
    play(state, "commit 7r")
    assert state.current_player == 1
    assert moves(state) == {f"commit {r}b" for r in ["A", "3", "4", "5", "6", "7", "8", "9", "10"]}
    assert zones_of(state, 1)["committed"]["P0"] == []  # nothing moves until everyone chose
    play(state, "commit 9b", "commit 10y")
    assert zones_of(state, 1)["committed"] == {"P0": ["??"], "P1": ["9b"], "P2": ["??"]}
    assert zones_of(state, None)["committed"] == {"P0": ["??"], "P1": ["??"], "P2": ["??"]}


# ---- betting ------------------------------------------------------------------------------------

def test_the_boss_opens_with_check_or_any_raise():
    state = commit(new(3), "7", "9", "10")
    assert state.current_player == 0 and state.prompt.startswith("First betting")
    assert moves(state) == {"check"} | raises(1, 145)


def test_raise_to_arithmetic():
    # P0 puts in 10, P1 raises to 15: for P0 a call costs 5, raising to 16 costs 6.
    state = play(commit(new(3), "7", "9", "10"), "raise 10", "raise 15", "call")
    assert state.current_player == 0
    assert moves(state) == {"call", "fold"} | raises(16, 145)
    called = play(state.clone(), "call")
    assert vars_of(called)["tokens"]["P0"] == 145 - 15
    raised = play(state.clone(), "raise 16")
    assert vars_of(raised)["tokens"]["P0"] == 145 - 16
    assert vars_of(raised)["bet"] == 16 and vars_of(raised)["pot"] == 15 + 16 + 15 + 15


def test_check_is_forbidden_after_a_raise():
    state = play(commit(new(3), "7", "9", "10"), "check", "raise 20")
    assert state.current_player == 2
    assert moves(state) == {"call", "fold"} | raises(21, 145)
    why = state.explain("check")
    assert not why.legal and [r.name for r in why.failing] == ["nobody_raised"]
    assert why.failing[0].span.line == line_of("bosspoker.cardgame", "rule nobody_raised")
    # the raiser's earlier checker must answer too: call, raise or fold, no check
    play(state, "call")
    assert state.current_player == 0 and "check" not in moves(state)


def test_all_checks_end_the_betting():
    state = play(commit(new(3), "7", "9", "10"), "check", "check", "check")
    assert state.prompt == "Play a face card face down" and state.current_player == 0


def test_all_in_stays_in_through_later_raises():
    state = commit(new(3), "7", "9", "10")
    state = with_vars(state, tokens={1: 8})
    play(state, "raise 20")
    assert state.current_player == 1
    assert moves(state) == {"all_in", "fold"}
    why = state.explain("call")
    assert [r.name for r in why.failing] == ["can_cover"]
    play(state, "all_in")
    v = vars_of(state)
    assert v["tokens"]["P1"] == 0 and v["put"]["P1"] == 8
    play(state, "raise 40")      # P2 raises past the all-in player
    assert state.current_player == 0
    assert moves(state) == {"call", "fold"} | raises(41, 145)
    play(state, "call")           # P1 is never asked again
    assert state.prompt == "Play a face card face down"
    assert vars_of(state)["folded"] == {"P0": False, "P1": False, "P2": False}
    faces(state, "J", "J", "J")
    # the second betting skips the all-in player
    assert state.current_player == 0 and moves(state) == {"check"} | raises(1, 105)
    lines = logged(state, "check", "check")
    # P2's 10 wins the pot: antes 15, then 20 + 8 + 40 + 20; round 2 begins with P1 out
    assert "P2 wins the pot of 103 with 10y" in lines
    v = vars_of(state)
    assert v["tokens"] == {"P0": 105 - 6, "P1": 0, "P2": 105 + 103 - 6}
    assert v["out"] == {"P0": False, "P1": True, "P2": False}


def test_an_all_in_player_who_wins_takes_the_whole_pot():
    state = commit(new(3), "7", "10", "9")
    state = with_vars(state, tokens={1: 8})
    play(state, "raise 20", "all_in", "raise 40", "call")
    faces(state, "J", "J", "J")
    lines = logged(state, "raise 30", "call")
    # no side pots: P1's 8 tokens win everything, the bets made after P1 went all in included
    assert "P1 wins the pot of 163 with 10b" in lines
    assert vars_of(state)["tokens"] == {"P0": 145 - 70 - 6, "P1": 163 - 6, "P2": 145 - 70 - 6}


def test_the_boss_folds_the_interim_boss_opens_and_reveals_first():
    state = commit(new(4), "7", "9", "10", "8")
    lines = logged(state, "check", "raise 10", "call", "call", "fold")
    assert "P0 folds; P1 is the interim Boss" in lines
    v = vars_of(state)
    assert v["boss"] == "P0" and v["interim"] == "P1"
    # face play without P0
    assert state.current_player == 1
    faces(state, None, "K", "K", "J")
    # the interim Boss reveals first, and its King is the first to name a target
    assert state.current_player == 1 and state.prompt == "Whose number card will your King look at?"
    assert moves(state) == {"look_at P2", "look_at P3"}
    play(state, "look_at P3", "look_at P1")
    # the interim Boss opens the second betting
    assert state.current_player == 1 and state.prompt.startswith("Second betting")
    assert moves(state) == {"check"} | raises(1, 145 - 10)
    play(state, "check", "check", "check")
    # P2's 10 wins; the next round's Boss is the original Boss's left (P1), not the interim's (P2)
    v = vars_of(state)
    assert v["round"] == 2 and v["boss"] == "P1" and v["interim"] == "P1"
    assert v["tokens"]["P2"] == 145 - 10 + 4 * 5 + 3 * 10 - 6
    commit(state, "A", "A", "A", "A")
    assert state.current_player == 1


def test_a_boss_who_cannot_pay_the_ante_is_out_and_the_next_seat_is_boss_once():
    state = commit(new(3), "7", "9", "10")
    state = with_vars(state, tokens={1: 2})
    lines = logged(state, "raise 1", "fold", "fold", "keep_hidden")
    assert "P1 cannot pay the ante of 6 and is out" in lines
    assert "round 2: P2 is the Boss; everyone still in antes 6" in lines
    v = vars_of(state)
    assert v["out"] == {"P0": False, "P1": True, "P2": False} and v["boss"] == "P2"
    assert v["tokens"]["P1"] == 2  # an out player keeps what they had
    commit(state, "5", "5")  # only P0 and P2 commit
    assert state.current_player == 2 and moves(state) == {"check"} | raises(1, 145 - 6)
    play(state, "raise 1", "fold", "keep_hidden")
    v = vars_of(state)
    assert v["round"] == 3 and v["boss"] == "P0"  # the seat after P2, not P2 again


def test_commit_skips_out_players():
    state = commit(new(3), "7", "9", "10")
    state = with_vars(state, tokens={1: 2})
    play(state, "raise 1", "fold", "fold", "keep_hidden")
    assert state.current_player == 0
    play(state, "commit 5r")
    assert state.current_player == 2


# ---- face cards ---------------------------------------------------------------------------------

def test_king_and_queen_need_a_green_token():
    state = checks_to_face_play(commit(new(3), "7", "9", "10"), 3)
    state = with_vars(state, green={0: 0})
    assert state.current_player == 0
    assert moves(state) == {"face Jr"}
    for card in ("Kr", "Qr"):
        why = state.explain(f"face {card}")
        assert not why.legal and [r.name for r in why.failing] == ["royal_needs_green"]
    play(state, "face Jr")
    assert moves(state) == {"face Jb", "face Qb", "face Kb"}


def test_revealing_a_king_or_queen_pays_a_green_token_to_the_reserve():
    state = checks_to_face_play(commit(new(3), "7", "9", "10"), 3)
    faces(state, "K", "Q", "J")
    play(state, "look_at P2")
    v = vars_of(state)
    assert v["green"] == {"P0": 2, "P1": 2, "P2": 3} and v["reserve"] == 12


def test_a_kings_peek_is_private():
    state = checks_to_face_play(commit(new(3), "7", "9", "10"), 3)
    faces(state, "K", "J", "J")
    assert moves(state) == {"look_at P1", "look_at P2"}
    lines = logged(state, "look_at P2")
    assert "P0 looks at P2's number card" in lines and not any("10y" in line for line in lines)
    assert zones_of(state, 0)["committed"]["P2"] == ["10y"]
    assert zones_of(state, 1)["committed"]["P2"] == ["??"]
    assert zones_of(state, None)["committed"]["P2"] == ["??"]
    assert vars_of(state)["target"]["P0"] == "P2"


def test_a_queen_blocks_a_kings_peek():
    state = checks_to_face_play(commit(new(3), "7", "9", "10"), 3)
    faces(state, "K", "Q", "J")
    assert moves(state) == {"look_at P1", "look_at P2"}  # the Queen is not revealed yet
    lines = logged(state, "look_at P1")
    assert "P1's Queen keeps P0 from looking" in lines
    assert zones_of(state, 0)["committed"]["P1"] == ["??"]


def test_a_later_king_may_target_a_face_up_jack_or_king_or_anyone_not_yet_revealed():
    state = checks_to_face_play(commit(new(4), "7", "9", "10", "8"), 4)
    faces(state, "K", "Q", "J", "K")
    assert moves(state) == {"look_at P1", "look_at P2", "look_at P3"}
    play(state, "look_at P3")
    # P1's Queen, P2's Jack are revealed; P3's King: the revealed K and J, never the Q
    assert state.current_player == 3
    assert moves(state) == {"look_at P0", "look_at P2"}
    play(state, "look_at P0")
    z0, z3 = zones_of(state, 0)["committed"], zones_of(state, 3)["committed"]
    assert z0["P3"] == ["8p"] and z3["P0"] == ["7r"]
    assert z0["P1"] == z0["P2"] == z3["P1"] == z3["P2"] == ["??"]


def test_a_later_king_may_target_a_not_yet_revealed_player():
    state = checks_to_face_play(commit(new(4), "7", "9", "10", "8"), 4)
    faces(state, "J", "K", "Q", "J")
    # P1's King: P0 showed a Jack, P2 and P3 have not revealed yet
    assert state.current_player == 1
    assert moves(state) == {"look_at P0", "look_at P2", "look_at P3"}
    play(state, "look_at P2")   # P2 then reveals a Queen: the look is blocked
    assert zones_of(state, 1)["committed"]["P2"] == ["??"]


def test_a_king_with_nobody_to_target_names_nobody():
    state = checks_to_face_play(commit(new(2), "7", "9"), 2)
    faces(state, "Q", "K")
    assert state.prompt.startswith("Second betting") and vars_of(state)["target"]["P1"] is None


# ---- the showdown -------------------------------------------------------------------------------

def showdown(players, ranks, face_ranks=None):
    state = checks_to_face_play(commit(new(players), *ranks), players)
    faces(state, *(face_ranks or ["J"] * players))
    lines = logged(state, *["check"] * players)
    return state, next(line for line in lines if " wins the pot" in line)


def test_the_ace_is_low_without_a_ten():
    _, line = showdown(3, ["A", "9", "8"])
    assert line == "P1 wins the pot of 15 with 9b"


def test_the_ace_is_high_with_a_ten():
    state, line = showdown(3, ["A", "9", "10"])
    assert line == "P0 wins the pot of 15 with Ar"
    v = vars_of(state)  # round 2 has begun: everyone paid its ante of 6
    assert v["tokens"] == {"P0": 145 + 15 - 6, "P1": 145 - 6, "P2": 145 - 6}
    assert v["green"]["P0"] == 4 and v["reserve"] == 9
    assert zones_of(state, None)["shown"] == {"P0": ["Ar"], "P1": ["9b"], "P2": ["10y"]}


def test_a_tie_goes_to_the_boss():
    _, line = showdown(2, ["7", "7"])
    assert line == "P0 wins the pot of 10 with 7r"


def test_a_tie_goes_to_the_interim_boss():
    state = commit(new(3), "4", "9", "9")
    play(state, "check", "raise 1", "call", "fold")  # P0 folds: P1 is the interim Boss
    faces(state, None, "J", "J")
    lines = logged(state, "check", "check")
    # the cards are turned up from the interim Boss on; P0's folded card is not
    assert [line for line in lines if " shows " in line] == ["P1 shows 9b", "P2 shows 9y"]
    assert "P1 wins the pot of 17 with 9b" in lines
    assert zones_of(state, None)["kept"]["P0"] == ["??"]


def test_a_tie_between_others_goes_to_the_first_clockwise_from_the_boss():
    state = checks_to_face_play(commit(new(4), "4", "6", "9", "9"), 4)
    faces(state, "J", "J", "J", "J")
    play(state, "check", "check", "check", "check")
    # round 2: the Boss is P1; P3 and P0 tie with 10s above the Boss's 5
    commit(state, "10", "5", "8", "10")
    play(state, *["check"] * 4)
    faces(state, "J", "J", "J", "J")
    lines = logged(state, *["check"] * 4)
    assert "P3 wins the pot of 24 with 10p" in lines


# ---- everyone else folds ------------------------------------------------------------------------

def test_everyone_folding_in_the_first_betting_asks_for_no_face_card():
    state = play(commit(new(3), "7", "9", "10"), "raise 5", "fold")
    lines = logged(state, "fold")
    assert "everyone else folded: P0 wins the pot of 20" in lines
    assert state.current_player == 0
    assert state.prompt == "Reveal your number card and take a green token, or keep it face down?"
    assert moves(state) == {"reveal_card", "keep_hidden"}
    v = vars_of(state)
    assert v["green"] == {"P0": 3, "P1": 3, "P2": 3} and v["reserve"] == 10
    assert zones_of(state)["face_card"] == {"P0": [], "P1": [], "P2": []}


def test_refusing_the_green_token_keeps_the_card_hidden():
    state = play(commit(new(3), "7", "9", "10"), "raise 5", "fold", "fold", "keep_hidden")
    assert vars_of(state)["green"]["P0"] == 3 and vars_of(state)["reserve"] == 10
    for viewer in (1, 2, None):
        z = zones_of(state, viewer)
        assert z["kept"]["P0"] == ["??"] and z["shown"]["P0"] == []
        assert z["kept"]["P1"] == (["9b"] if viewer == 1 else ["??"])  # a folded card stays face down
    assert zones_of(state, 0)["kept"]["P0"] == ["7r"]
    assert vars_of(state)["tokens"]["P0"] == 145 - 5 + 20 - 6


def test_revealing_takes_the_green_token_and_the_card_lies_face_up():
    state = play(commit(new(3), "7", "9", "10"), "raise 5", "fold", "fold", "reveal_card")
    assert vars_of(state)["green"]["P0"] == 4 and vars_of(state)["reserve"] == 9
    assert zones_of(state, None)["shown"]["P0"] == ["7r"]
    assert zones_of(state, None)["kept"] == {"P0": [], "P1": ["??"], "P2": ["??"]}


def test_with_the_reserve_empty_the_survivor_is_not_asked():
    state = play(commit(new(3), "7", "9", "10"), "raise 5", "fold")
    state = with_vars(state, reserve=0, green={0: 13})
    play(state, "fold")
    assert vars_of(state)["round"] == 2 and zones_of(state, 1)["kept"]["P0"] == ["??"]


def test_everyone_folding_in_the_second_betting():
    state = checks_to_face_play(commit(new(3), "7", "9", "10"), 3)
    faces(state, "Q", "J", "J")
    play(state, "raise 3", "fold", "fold")
    assert moves(state) == {"reveal_card", "keep_hidden"}
    assert vars_of(state)["green"]["P0"] == 2  # the Queen was paid for


# ---- rounds and the end -------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_game_ends_after_the_last_round(players):
    state = new(players)
    bosses = []
    while not state.is_over:
        v = vars_of(state)
        if state.prompt == "Commit a number card face down" and state.current_player == int(v["boss"][1:]):
            bosses.append(int(v["boss"][1:]))
        state.apply(state.legal_moves()[0])  # commits, then checks and Jacks
    v = vars_of(state)
    assert v["finished_rounds"] == ROUNDS[players] and bosses == [i % players for i in range(ROUNDS[players])]
    z = zones_of(state)
    assert all(z["numbers"][f"P{s}"] == [] for s in range(players))
    assert all(len(z["faces"][f"P{s}"]) == 3 for s in range(players))


def test_out_players_keep_their_tokens_as_score_and_the_most_tokens_wins():
    state = commit(new(3), "7", "9", "10")
    state = with_vars(state, tokens={1: 2, 2: 100})
    play(state, "raise 1", "fold", "fold", "keep_hidden")   # P1 is out in round 2
    state = with_vars(state, tokens={0: 1, 2: 1})
    play(state, "commit 5r", "commit 5y", "check", "check", "face Jr", "face Jy", "check", "check")
    # round 2's Boss is P2 (P1 is out), so P2 wins the tie of fives: 1 + 12
    assert state.is_over  # in round 3 only P2 can pay the ante of 7
    assert vars_of(state)["out"] == {"P0": True, "P1": True, "P2": False}
    assert state.scores == [1, 2, 13]
    assert state.winners == [2]


# ---- whole games --------------------------------------------------------------------------------

CARD = re.compile(r"\b(?:A|[2-9]|10|J|Q|K)[rbypo]\b")
PRIVATE_ZONES = ("numbers", "committed", "kept", "faces", "face_card")


def own_cards(seat: int) -> set[str]:
    return {f"{r}{COLOURS[seat]}" for r in ["A", *map(str, range(2, 11)), "J", "Q", "K"]}


def named(observed: dict) -> set[str]:
    """Every card a view names in the private zones, and anywhere in an observation's log."""
    names = {c for zone in PRIVATE_ZONES for cards in observed["zones"][zone].values() for c in cards}
    names |= {name for event in observed.get("log", ()) for name in CARD.findall(event["text"])}
    return names - {"??"}


@given(agent_seed=st.integers(0, 2**32), players=st.integers(2, 5),
       raises_option=st.sampled_from(["any_amount", "by_ante"]))
def test_tokens_and_green_tokens_are_conserved_and_no_observation_leaks(agent_seed, players, raises_option):
    """Through the knowledge model (`view`, `observation`): at every step a seat's view, and at
    the end its whole observation log, name no card of another seat's suit unless it was turned
    face up (a revealed face card, a showdown, a survivor who revealed) or it is a number card
    the seat looked at with a King; the spectator only ever sees turned-up cards."""
    lines: list[str] = []
    state = GAME.new_game(players=players, seed=0, options={"raises": raises_option}, record=True,
                          tracer=lambda e: lines.append(e.text) if e.kind == "log" else None)
    agent = RandomAgent(agent_seed)
    peeked: dict[int, set[str]] = {seat: set() for seat in range(players)}
    turned_up: set[str] = set()
    committed: dict[str, str] = {}  # each seat's number card of this round, seen before the move
    while True:
        for line in lines:
            if m := re.fullmatch(r"P(\d) looks at (P\d)'s number card", line):
                peeked[int(m[1])].add(committed[m[2]])
            elif m := re.fullmatch(r"P\d (?:reveals|shows) (\S+)", line):
                turned_up.add(m[1])
        lines.clear()
        committed.update({q: cards[0] for q, cards in zones_of(state)["committed"].items() if cards})
        v = vars_of(state)
        assert sum(v["tokens"].values()) + v["pot"] == 150 * players
        assert sum(v["green"].values()) + v["reserve"] == 3 * players + 10
        assert min(v["tokens"].values()) >= 0 and min(v["green"].values()) >= 0
        # every step: what each view shows; at the end: the whole observation log, which keeps
        # each event as the seat saw it when it happened
        final = state.is_over
        look = state.observation if final else state.view
        assert named(look(None)) <= turned_up
        for seat in range(players):
            leaked = named(look(seat)) - own_cards(seat) - turned_up - peeked[seat]
            assert not leaked, f"P{seat} knows {sorted(leaked)}"
        if final:
            break
        state.apply(agent.choose(state.legal_moves()))
    assert state.fault is None
    assert v["finished_rounds"] <= ROUNDS[players]
    assert state.scores == [v["tokens"][f"P{p}"] for p in range(players)]


def last_round_rate(raises_option, policy="uniform", games=40):
    """The share of 4-player games `simulate` plays that reach round 8 (the script's measure)."""
    stats = interpreter.simulate(GAME, games, 4, 0, {"raises": raises_option}, policy=policy)
    assert stats["unfinished"] == 0
    return stats["measures"]["last_round"]["mean"]


def test_with_raises_by_ante_random_players_reach_the_last_round():
    """The option makes random play meaningful: 4-player games go the whole 8 rounds."""
    assert last_round_rate("by_ante") >= 0.9
    assert last_round_rate("by_ante", "alternative-first") >= 0.9
    # with any amount (the seed), random players go all in within a few rounds, even when
    # they choose between raise, call and fold before the amount
    assert last_round_rate("any_amount") <= 0.25
    assert last_round_rate("any_amount", "alternative-first") <= 0.5
