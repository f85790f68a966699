"""Choosing several items in one decision (`cs from 3 of hand[p]`, `cs from 1..2 of ...`):
checked, enumerated (fast and generic alike), read in any order, explained, saved, masked; and
one item from a list that a loop of its own builds (a comprehension, a quantifier, a sort, a
pattern), which over an empty hand still offers the decision's other alternatives."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgame import interpreter
from cardgame.interpreter.machine.enumeration import enumerate_moves
from cardgame.interpreter.studies.agents import RandomAgent
from cardgame.interpreter.studies.simulate import play_one
from helpers import ROOT
from cardgame.repl.session import Session

HEAD = '''game "Choosing"
players 3
deck standard in stock {
    rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A
    suit: C, D, H, S
    name: rank suit
}
zone stock: shared hidden
zone hand: per player owner
zone pile: shared public
var got: int = 0
var how_many: int = 2
rule same_rank(cs: list of card) "The cards of one play share a rank."
    require all c in cs where c.rank == first(cs).rank
'''

SCRIPT = HEAD + '''phase main {
    move [5D, 3S, 2C, 3H] to hand[seat(0)]
    decide seat(0) {
        DECISION
    }
    end game
}
score p: got
winners: highest score
'''


def game(tmp_path, decision: str, script: str = SCRIPT):
    path = tmp_path / "s.cardgame"
    path.write_text(script.replace("DECISION", decision))
    return interpreter.load(str(path))


def codes(tmp_path, decision: str):
    path = tmp_path / "s.cardgame"
    path.write_text(SCRIPT.replace("DECISION", decision))
    return [d.code for d in interpreter.check_file(str(path))[3] if d.severity == "error"]


def texts(state):
    fast = [m.text for m in state.legal_moves()]
    state.legal_cache = None
    assert [m.text for m in enumerate_moves(state, legal_only=True)] == fast  # the generic enumeration agrees
    return fast


def test_k_cards_in_deck_order_whatever_the_hand_order(tmp_path):
    state = game(tmp_path, "give(cs from 2 of hand[seat(0)]) { move cs to pile }").new_game(seed=1)
    # the hand holds 5D 3S 2C 3H; each set is written in deck order (2C, 3H, 3S, 5D)
    assert texts(state) == ["give 2C 3H", "give 2C 3S", "give 2C 5D", "give 3H 3S", "give 3H 5D", "give 3S 5D"]
    state.apply("give 5D 2C")  # any order names the same move
    assert state.history == ["give 2C 5D"]
    assert state.view("all")["zones"]["pile"] == ["2C", "5D"]


def test_between_j_and_k_smaller_sets_first(tmp_path):
    state = game(tmp_path, "lay(cs from 0..2 of [3S, 2C, 3H])").new_game(seed=1)
    assert texts(state) == ["lay", "lay 2C", "lay 3H", "lay 3S", "lay 2C 3H", "lay 2C 3S", "lay 3H 3S"]


def test_a_rule_constrains_the_whole_set(tmp_path):
    state = game(tmp_path, "lay(cs from 1..3 of hand[seat(0)]) requires same_rank(cs)").new_game(seed=1)
    assert texts(state) == ["lay 2C", "lay 3H", "lay 3S", "lay 5D", "lay 3H 3S"]
    assert len(state.candidate_moves()) == 4 + 6 + 4


def test_the_value_is_a_list_in_the_body(tmp_path):
    body = "take(cs from 2 of hand[seat(0)]) { set got = count(cs) * 10 + index(cs, 3S) }"
    state = game(tmp_path, body).new_game(seed=1)
    state.apply("take 3S 2C")
    assert state.over and state.scores == [21, 21, 21]  # cs = [2C, 3S]


def test_players_and_numbers_distinct_and_ordered(tmp_path):
    state = game(tmp_path, "invite(qs from 2 of [seat(2), seat(0), seat(1)])\n"
                           "pick(ns from 2 of [3, 1, 3, none, 2])").new_game(seed=1)
    assert texts(state) == ["invite P0 P1", "invite P0 P2", "invite P1 P2", "pick 1 2", "pick 1 3", "pick 2 3"]
    state.apply("pick 3 1")
    assert state.history == ["pick 1 3"]


def test_a_count_the_domain_cannot_meet_offers_nothing(tmp_path):
    state = game(tmp_path, "give(cs from how_many + 3 of hand[seat(0)])\npass").new_game(seed=1)
    assert texts(state) == ["pass"]
    state = game(tmp_path, "give(cs from how_many - 3 of hand[seat(0)])\npass").new_game(seed=1)
    assert texts(state) == ["pass"]


def test_later_binders_see_the_set(tmp_path):
    state = game(tmp_path, "give(cs from 1..2 of [2C, 3H], c from cs)").new_game(seed=1)
    assert texts(state) == ["give 2C 2C", "give 3H 3H", "give 2C 3H 2C", "give 2C 3H 3H"]


def test_work_is_charged_per_set_and_the_move_cap_holds(tmp_path):
    state = game(tmp_path, "give(cs from 3 of hand[seat(0)])").new_game(seed=1)
    fast = state.legal_moves()
    fast_work = state.legal_work
    state.legal_cache = None
    state.begin_work()
    enumerate_moves(state, legal_only=True)
    assert len(fast) == 4 and fast_work == state.work == 4 + 4  # the domain, then each set
    big = SCRIPT.replace("move [5D, 3S, 2C, 3H] to hand[seat(0)]", "move stock to hand[seat(0)]")
    state = game(tmp_path, "give(cs from 4 of hand[seat(0)])", big).new_game(seed=1)
    assert state.legal_moves() == []  # C(52, 4) = 270,725 moves: more than a decision may offer
    assert "more than 10,000 moves" in state.fault.message
    assert "one at a time" in state.fault.hint  # the way to write it that stays under the cap


def test_explain_shows_the_set_and_the_rule(tmp_path):
    state = game(tmp_path, "lay(cs from 1..3 of hand[seat(0)]) requires same_rank(cs)").new_game(seed=1)
    why = state.explain("lay 5D 3S")
    assert why.move == "lay 3S 5D" and why.legal is False
    [rule] = why.rules
    assert rule.name == "same_rank" and rule.status == "fail"
    assert rule.values == (("cs", "[3S, 5D]"), ("all c in cs where c.rank == first(cs).rank", "false"))
    assert str(rule.verdict) == "all c in cs where c.rank == first(cs).rank = false (fails for c = 5D)"
    assert state.explain("lay 3S 3H").legal is True


def test_save_and_restore_and_replay_keep_the_sets(tmp_path):
    path = ROOT / "tests" / "scripts" / "climbing.cardgame"
    g = interpreter.load(str(path))
    state = g.new_game(seed=5)
    replay = g.new_game(seed=5)
    from cardgame.interpreter.studies.agents import RandomAgent
    agent = RandomAgent(7)
    while not state.is_over:
        move = agent.choose(state.legal_moves())
        restored = g.restore(state.to_json())
        assert [m.text for m in restored.legal_moves()] == [m.text for m in state.legal_moves()]
        state.apply(move)
        # the log replays, with each set typed backwards
        name, *items = move.text.split()
        replay.apply(" ".join([name] + items[::-1]))
    assert replay.history == state.history and replay.to_json() == state.to_json()
    assert any(len(h.split()) > 2 for h in state.history)  # some move chose several cards


def test_simultaneous_sets_stay_hidden_and_run_in_order():
    g = interpreter.load(str(ROOT / "tests" / "scripts" / "climbing.cardgame"))
    state = g.new_game(seed=2, record=True)
    assert state.choice_is_hidden
    first = state.legal_moves()
    assert first[0].text.startswith("discard ") and {len(m.text.split()) for m in first} == {2, 3}
    for _ in range(3):
        state.apply(state.legal_moves()[-1])  # the last listed: two cards each
    assert state.history == ["discard KH AD", "discard KD AH", "discard QD KS"]
    assert state.phase == "climb"
    assert state.view("all")["zones"]["discarded"] == {"P0": ["KH", "AD"], "P1": ["KD", "AH"], "P2": ["QD", "KS"]}
    seen = [[e.text for e in state.observed_events(v) if e.kind == "decision"] for v in (0, 1)]
    assert seen == [["discard KH AD", "(a hidden choice)", "(a hidden choice)"],
                    ["(a hidden choice)", "discard KD AH", "(a hidden choice)"]]


def test_another_seat_sees_a_hidden_set_masked(tmp_path):
    script = SCRIPT.replace("zone pile: shared public", "zone pile: shared hidden")
    g = game(tmp_path, "give(cs from 2 of hand[seat(0)]) { move cs to pile }", script)
    state = g.new_game(seed=1, record=True)
    state.apply("give 3H 2C")
    mine = [e.text for e in state.observed_events(0) if e.kind == "decision"]
    theirs = [e.text for e in state.observed_events(1) if e.kind == "decision"]
    assert (mine, theirs) == (["give 2C 3H"], ["give ?? ??"])


def test_a_seat_sees_the_cards_it_knows_first(tmp_path):
    script = SCRIPT.replace("zone pile: shared public", "zone pile: shared hidden").replace(
        "    decide seat(0) {", "    reveal 5D\n    decide seat(0) {")
    g = game(tmp_path, "give(cs from 2 of hand[seat(0)]) { move cs to pile }", script)
    state = g.new_game(seed=1, record=True)
    state.apply("give 2C 5D")
    theirs = [e.text for e in state.observed_events(1) if e.kind == "decision"]
    assert theirs == ["give 5D ??"]  # not `?? 5D`: where the unknown card sorts would tell


@pytest.mark.parametrize("decision, expected", [
    ("give(cs from 2 of hand[seat(0)])", []),
    ("give(cs from 0..4 of [2C, 3H])", []),
    ("give(cs from how_many of players)", []),
    ("give(cs from -1 of hand[seat(0)])", ["E0323"]),
    ("give(cs from 3..2 of hand[seat(0)])", ["E0323"]),
    ("give(cs from 3 of [2C, 3H])", ["E0323"]),  # k larger than the list
    ("give(cs from 53 of hand[seat(0)])", ["E0323"]),  # more cards than the game has
    ("give(cs from true of hand[seat(0)])", ["E0210"]),  # k not a number
    ("give(cs from 2C of hand[seat(0)])", ["E0210"]),
    ("give(cs from 2 of [[2C], [3H]])", ["E0324"]),  # lists cannot be chosen several at once
    ("give(cs from 2 of [true, false])", ["E0324"]),
    ("give(cs from 2 of 7)", ["E0210"]),
    ("give(cs from 2 of hand[seat(0)]) { set got = cs }", ["E0210"]),  # a list, not a number
    ("give(cs from 2 of hand[seat(0)]) requires same_rank(first(cs))", ["E0210"]),
])
def test_checker(tmp_path, decision, expected):
    assert codes(tmp_path, decision) == expected


def test_a_person_types_the_cards_in_any_order():
    s = Session()
    assert s.start(str(ROOT / "bench" / "scripts" / "pass_choose.cardgame"), seed=1).startswith("loaded Pass and Take")
    assert s.execute("moves").splitlines()[1:3] == ["    1. pass_cards 2H 3S 4C", "    2. pass_cards 2H 3S 4H"]
    assert s.execute("play 4C 2H 3S") == "1. P0: pass_cards 2H 3S 4C"
    assert s.execute("play pass_cards 6S 2D 4S") == "2. P1: pass_cards 2D 4S 6S"
    out = s.execute("why 7C 4S 2D")  # P2 holds none of them
    assert out.splitlines()[0].startswith("`pass_cards 7C 4S 2D` for P2")
    hand = s.state.view("all")["zones"]["hand"]["P2"]
    mine = " ".join(hand[2::-1])
    assert s.execute(f"why {mine}").splitlines()[0].endswith(": legal: no rule restricts this option")
    assert s.state.history == ["pass_cards 2H 3S 4C", "pass_cards 2D 4S 6S"]


def test_a_long_list_of_moves_is_shown_in_part_and_narrowed_by_the_cards_typed():
    s = Session()
    s.start(str(ROOT / "bench" / "scripts" / "pass_choose.cardgame"), seed=1)
    listed = s.execute("moves").splitlines()
    assert len(listed) == 1 + 30 + 1 and listed[30] == "   30. pass_cards 2H 4H AD"
    assert listed[31] == "  ... 256 more (286 legal): `moves --full` lists every one, `moves QH` those naming QH"
    full = s.execute("moves --full").splitlines()
    assert len(full) == 1 + 286 and full[-1] == "  286. pass_cards QH KC AD"
    # the moves naming every typed card, any case, numbered as in the whole list
    assert s.execute("moves 2h qh").splitlines()[1:4] == [
        "    9. pass_cards 2H 3S QH", "   19. pass_cards 2H 4C QH", "   28. pass_cards 2H 4H QH"]
    assert [line.split(". ")[1] for line in s.execute("moves 2H 3S QH").splitlines()[1:]] == ["pass_cards 2H 3S QH"]
    assert s.execute("moves 7C").splitlines()[1] == "  (no legal move names 7C; 286 legal)"
    assert s.execute("moves --all 2H 3S").splitlines()[-1] == "11 legal of 11"
    assert s.execute("play 19") == "1. P0: pass_cards 2H 4C QH"


CARDS = [f"{r}{s}" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"] for s in "CDHS"]


@settings(max_examples=40, deadline=None)
@given(hand=st.lists(st.sampled_from(CARDS), min_size=0, max_size=8, unique=True),
       fewest=st.integers(0, 4), extra=st.integers(0, 2), data=st.data())
def test_the_moves_are_every_set_once_in_deck_order(tmp_path_factory, hand, fewest, extra, data):
    """Against a brute force: every set of `fewest..fewest+extra` cards of the hand, in deck
    order, smaller sets first; and a move typed with its cards shuffled is that move."""
    most = fewest + extra
    script = SCRIPT.replace("[5D, 3S, 2C, 3H]", "[" + ", ".join(hand) + "]" if hand else "[]")
    path = tmp_path_factory.mktemp("choose") / "s.cardgame"
    path.write_text(script.replace("DECISION", f"lay(cs from {fewest}..{most} of hand[seat(0)])\npass"))
    state = interpreter.load(str(path)).new_game(seed=1)
    ordered = sorted(hand, key=CARDS.index)
    expected = [" ".join(["lay", *combo]) for k in range(fewest, most + 1) for combo in combinations(ordered, k)]
    assert texts(state) == expected + ["pass"]
    if expected:
        move = data.draw(st.sampled_from(expected))
        name, *items = move.split()
        typed = " ".join([name, *data.draw(st.permutations(items))])
        assert state.parse_move(typed).text == move
        state.apply(typed)
        assert state.history == [move]


def test_a_saved_replay_with_several_card_moves_opens_again(tmp_path):
    script = tmp_path / "climbing.cardgame"
    script.write_text((ROOT / "tests" / "scripts" / "climbing.cardgame").read_text())
    s = Session()
    s.start(str(script), seed=4)
    s.execute("auto 12")
    played = list(s.state.history)
    assert len(played) == 12 and any(len(m.split()) > 2 for m in played)
    replay = tmp_path / "game.replay"
    s.execute(f"save {replay}")
    again = Session()
    again.start(str(script), seed=1)
    again.execute(f"open {replay}")
    assert again.state.history == played and again.state.to_json() == s.state.to_json()


def test_a_huge_choice_faults_at_once(tmp_path):
    """Every size of 9,998 numbers: counting the sets stops once past the decision's cap
    (counting all 2^9998 would take minutes); the binder is the alternative's last, so its sets
    are moves, and more of them than the cap is the decision's fault before any is made (charged
    as 10,001 sets, not the 1 + 9,998 + 49,975,003 counted, which hid it behind the work budget)."""
    state = game(tmp_path, "pick(ns from 0..20000 of range(1, 9999))").new_game(seed=1)
    assert state.legal_moves() == []
    assert state.fault.message == "this decision offers more than 10,000 moves"


# ---- one item from a list a loop of its own builds ----------------------------------------------

_EMPTY_HAND = '''game "Empty hand"
players 2
deck d in stock {{
    ordered rank: 1, 2, 3, 4, 5, 6
    suit: C, D, H
}}
zone stock: shared hidden
zone hand: per player owner
zone pile: shared public
var who: player = seat(0)
var turns: int = 0
phase main {{
    set turns += 1
    if turns > 6 {{
        end game
    }}
    decide who "Play or skip" {{
        play({binder}) {{
            set turns += 0
        }}
        skip {{
            if not empty(stock) {{
                move top(stock) to hand[who]
            }}
        }}
    }}
    set who = left_of(who)
    next main
}}
'''


# A binder's list walked by a loop of its own (a comprehension, a quantifier, a best item, a
# sort, a pattern): over an empty hand the loop runs no round, and the listing must still offer
# `skip` (it raised UnboundLocalError: the loop variable's write-back read a name never set).
BINDERS = [
    "c from [x for x in hand[who]]",
    "c from [x for x in hand[who] where x.rank > 2]",
    "c from sorted x in hand[who] by x.rank",
    "c from sorted x in hand[who] by [x.rank, place(x.rank)]",
    "c from [max x in hand[who] by x.rank]",
    "g from groups x in hand[who] by x.rank",
    "g from runs x in hand[who] by x.rank least 2",
    "n in 1..count x in hand[who] where x.rank > 2",
    "n in 1..(if any x in hand[who] where x.rank > 2 then 1 else 0)",
    "n in 1..(if all x in hand[who] where x.rank > 2 then 0 else 1)",
    "c from [y for x in hand[who] for y in hand[who] where x != y]",
    "c from (let h = sorted x in hand[who] by x.rank in h)",
]


def _api(game, seed):
    state = game.new_game(seed=seed)
    agent = RandomAgent.for_game(seed)
    while not state.is_over and state.fault is None:
        state.apply(agent.choose(state.legal_moves()))
    return state


@pytest.mark.parametrize("binder", BINDERS)
def test_a_binder_over_a_loop_of_an_empty_hand_offers_the_other_alternatives(binder, tmp_path):
    path = tmp_path / "empty_hand.cardgame"
    path.write_text(_EMPTY_HAND.format(binder=binder))
    game = interpreter.load(str(path))
    state = game.new_game(seed=1)
    assert [m.text for m in state.legal_moves()] == ["skip"]  # both hands are empty at the start
    assert state.explain("skip").legal
    for seed in range(4):
        api = _api(game, seed)
        played, finished = play_one(game, 2, seed, {})
        assert finished and api.is_over and api.fault is None
        assert (played.decisions, played.game_work, played.to_json()) == (api.decisions, api.game_work, api.to_json())
        assert any(line.startswith(("play", "skip")) for line in api.history)
