"""A fourth newcomer campaign (i14-flow): games that stress the flow of play written from the
docs alone (Sushi Go, 6 nimmt!, Exploding Kittens, Durak, Klondike, Scopa, in tests/scripts/),
then what a newcomer met while writing them: simultaneous choices, reactions at any time,
several cards chosen at once, one-player games. Each test pins one thing found broken or
unhelpful, or one rule of those games."""

from __future__ import annotations

import json

import pytest

from cardgame import interpreter
from cardgame.interpreter.studies.lint import lint
from cardgame.repl.cli import main
from cardgame.repl.session import Session

from helpers import ROOT, arrange, ends_at_the_fewest_and_the_most_players, moves, with_vars

SCRIPTS = ROOT / "tests" / "scripts"

SUITS_AND_COUNTS = '''game "Coins"
players 2
deck italian in deck {
    rank: 1, 2, 3
    suit: coins, cups
    name: rank suit
}
zone deck: shared hidden
zone taken: per player public
define coins(p: player) = count x in taken[p] where x.suit == coins
define cups() = 3
phase main {
    move [x for x in deck where x.suit == coins] to taken[seat(0)]
    end game
}
score p: coins(p)
'''


def _load_text(tmp_path, text: str, name: str = "game.cardgame") -> interpreter.Game:
    path = tmp_path / name
    path.write_text(text)
    return interpreter.load(str(path))


def test_a_definition_with_parameters_named_like_a_symbol_is_not_warned_about(tmp_path):
    # W0408 said "in expressions `coins` now means this declaration, never the symbol", but a
    # definition with parameters is only ever called: `x.suit == coins` still reads the suit.
    game = _load_text(tmp_path, SUITS_AND_COUNTS)
    assert not [d for d in game.warnings if d.code == "W0408"]
    state = game.new_game(players=2, seed=1)
    assert state.scores == [3, 0]


def test_a_definition_without_parameters_named_like_a_symbol_is_still_warned_about(tmp_path):
    text = SUITS_AND_COUNTS.replace("define cups() = 3", "define cups = 3")
    game = _load_text(tmp_path, text)
    assert [d.message for d in game.warnings if d.code == "W0408"] == \
        ["`cups` is also a symbol (a card attribute or option value)"]


def _simulate_json(capsys, *args) -> dict:
    assert main(["simulate", *args, "--json", "--no-progress"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_one_player_game_has_no_first_seat_advantage(capsys):
    # It reported `+0.0% [-79.4%, +0.0%]`: every won game of patience is P0's, against a fair
    # share of 1, so the figure is 0 by construction and its interval meaningless.
    stats = _simulate_json(capsys, str(SCRIPTS / "klondike.cardgame"), "-n", "12", "--seed", "2")
    assert stats["outcomes"]["won"] > 0
    assert stats["metrics"]["first_seat_advantage"] == {"value": None, "ci95": None}
    assert main(["simulate", str(SCRIPTS / "klondike.cardgame"), "-n", "12", "--seed", "2", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "first-seat advantage: n/a (one player)" in out
    assert "seat balance: n/a (one player)" in out  # it said 'no game was won' beside a won game


def test_moves_all_shortens_a_long_list_but_keeps_every_legal_move():
    # `moves --all` listed all 66 candidates of Klondike's first position (and explained each),
    # although a list of more than 40 shows its first 30; the legal ones came last.
    s = Session()
    s.execute(f"load {SCRIPTS / 'klondike.cardgame'}")
    s.execute("new seed=1")
    lines = s.execute("moves --all").splitlines()
    assert len(lines) == 1 + 30 + 2
    assert [line.split(". ")[1] for line in lines[1:-2] if ". " in line] == \
        ["draw", "home AD", "shift t7 5D t2", "shift t7 5D t3"]
    assert lines[-2:] == ["  ... 36 more forbidden: `moves --all --full` lists every one, `moves --all WORD` "
                          "those naming WORD", "4 legal of 66"]
    assert len(s.execute("moves --all --full").splitlines()) == 1 + 66 + 1


def test_moves_all_numbers_positions_with_a_hash_where_moves_read_as_numbers():
    # 6 nimmt!'s moves are `play 12`, ...: `moves` numbered them `#1`, but `moves --all` `1.`,
    # while `play 1` is refused ("no move reads `1`").
    s = Session()
    s.execute(f"load {SCRIPTS / 'six_nimmt.cardgame'}")
    s.execute("new seed=3")
    listed = s.execute("moves --all").splitlines()[1:3]
    assert listed == s.execute("moves").splitlines()[1:3] == ["   #1. play 12", "   #2. play 63"]


# One seat dealt nothing, asked with the others to pick a card at the same time.
EMPTY_HANDED = '''game "Empty handed"
players 3
deck d in stock {
    rank: 1, 2, 3, 4
}
zone stock: shared hidden
zone hand: per player owner
zone pile: shared public
phase main {
    deal 1 from stock to hand of [seat(0), seat(2)]
    simultaneously for p in players {
        decide p "Pick a card" {
            pick(c from hand[p]) {
                move c to pile
            }
        }
    }
    end game
}
'''


def test_a_decision_without_a_legal_move_says_whose_it_was(tmp_path):
    # It said "this decision has no legal move" at `decide p`, never which of the players.
    state = _load_text(tmp_path, EMPTY_HANDED).new_game(players=3, seed=0)
    state.apply(state.legal_moves()[0].text)
    assert state.legal_moves() == []
    assert state.fault.message == "this decision has no legal move, so the game cannot go on"
    assert state.fault.hint.startswith("P1 had nothing to choose here; ")


def test_a_card_among_numbers_is_refused_where_it_would_show_as_a_number(tmp_path):
    # `eval [QH, 3]` answered `[42, 3]` (the card's inner number); `set chosen = top(stock)` into
    # `var chosen = none` logged `chosen 17`.
    s = Session()
    s.execute(f"load {ROOT / 'games' / 'bouncer.cardgame'}")
    assert s.execute("eval [QH, 3]").startswith("error[E0240]: a card and a number in one list")
    assert s.execute("eval [[QH], []]") == "[[QH], []]"
    text = SUITS_AND_COUNTS.replace("define cups() = 3", "var chosen = none").replace(
        "    end game", "    set chosen = top(deck)\n    end game")
    path = tmp_path / "chosen.cardgame"
    path.write_text(text)
    _tables, _items, _sources, diags = interpreter.check_file(str(path))
    assert [(d.code, d.message) for d in diags] == \
        [("E0240", "a card stored in `chosen`, which may hold any value")]


def test_a_recursive_definition_of_lists_of_cards_is_not_refused_as_a_mix_of_kinds(tmp_path):
    # The recursive call's type is not known while its own body is checked: E0240 refused
    # `if k == 0 then [first(xs, 0)] else ... lang_subsets(...)` (bench/scripts/gin.cardgame).
    text = SUITS_AND_COUNTS.replace("define cups() = 3", """define picks(xs: list of card, k: int) =
    if k == 0 then [first(xs, 0)]
    else if count(xs) < k then []
    else let x = first(xs) in let rest = last(xs, count(xs) - 1) in
        [[x] + s for s in picks(rest, k - 1)] + picks(rest, k)""")
    path = tmp_path / "subsets.cardgame"
    path.write_text(text)
    _tables, _items, _sources, diags = interpreter.check_file(str(path))
    assert diags == []
    state = interpreter.load(str(path)).new_game(seed=1)
    assert state.evaluate("count(picks(cards(deck), 2))")[0] == "3"  # the three cups left in the deck


# ---- the six games: each rule's effect in a scenario, and every game ends

GAMES_OF_THIS_CAMPAIGN = ["sushi_go", "six_nimmt", "exploding_kittens", "durak", "klondike", "scopa"]


def _game(name: str) -> interpreter.Game:
    return interpreter.load(str(SCRIPTS / f"{name}.cardgame"))


def _value(state, expression: str) -> str:
    value, diags = state.evaluate(expression)
    assert value is not None, diags
    return value


@pytest.mark.parametrize("name", GAMES_OF_THIS_CAMPAIGN)
def test_every_game_ends_at_the_fewest_and_the_most_players(name):
    ends_at_the_fewest_and_the_most_players(_game(name))


def test_sushi_go_chopsticks_take_two_cards_and_maki_majorities_score():
    state = arrange(_game("sushi_go").new_game(players=2, seed=1),
                    {"tray": {0: ["maki3.1", "maki2.1", "chopsticks.1"], 1: ["maki3.2"]},
                     "hand": {0: ["tempura.1", "sashimi.1", "egg.1"], 1: ["salmon.1", "squid.1", "pudding.1"]}},
                    "box")
    assert moves(state) == {"pick tempura.1", "pick sashimi.1", "pick egg.1", "two tempura.1 sashimi.1",
                            "two tempura.1 egg.1", "two sashimi.1 egg.1"}
    assert _value(state, "[maki_points(q) for q in players]") == "[6, 3]"
    state.apply("two tempura.1 egg.1")
    state.apply("pick salmon.1")
    # the chopsticks went back into the hand, which was passed on to P1
    assert _value(state, "cards(tray[P0])") == "[maki3.1, maki2.1, tempura.1, egg.1]"
    assert _value(state, "cards(hand[P1])") == "[sashimi.1, chopsticks.1]"


def test_six_nimmt_a_low_card_takes_a_chosen_row_and_the_sixth_card_takes_the_row():
    state = arrange(_game("six_nimmt").new_game(players=2, seed=1),
                    {"row1": ["10"], "row2": ["20"], "row3": ["30"], "row4": ["40", "41", "42", "43", "44"],
                     "hand": {0: ["5", "60"], 1: ["45", "70"]}}, "box")
    state.apply("play 5")
    state.apply("play 45")
    assert state.current_player == 0 and moves(state) == {"take row1", "take row2", "take row3", "take row4"}
    state.apply("take row1")
    assert [_value(state, e) for e in ("cards(row1)", "cards(row4)", "cards(bulls[P1])", "penalty(P1)")] == \
        ["[5]", "[45]", "[40, 41, 42, 43, 44]", "11"]


def test_exploding_kittens_a_nope_of_a_nope_lets_the_action_happen():
    state = arrange(_game("exploding_kittens").new_game(players=2, seed=1),
                    {"hand": {0: ["skip.1", "nope.2"], 1: ["nope.1"]}, "stock": ["taco.1", "melon.1"]}, "box")
    assert moves(state) == {"play skip.1", "draw"}
    state.apply("play skip.1")
    assert (state.current_player, moves(state)) == (1, {"nope nope.1", "pass"})
    state.apply("nope nope.1")
    assert (state.current_player, moves(state)) == (0, {"nope nope.2", "pass"})
    state.apply("nope nope.2")
    state.apply("pass")
    # skipped: P1's turn, and P0 drew nothing
    assert state.current_player == 1 and _value(state, "[count(hand[P0]), count(stock)]") == "[0, 2]"


def test_exploding_kittens_a_defused_kitten_goes_back_where_its_player_says():
    state = arrange(_game("exploding_kittens").new_game(players=2, seed=1),
                    {"hand": {0: ["defuse.1", "taco.1"], 1: ["melon.1"]}, "stock": ["taco.2", "melon.2", "kitten.1"]},
                    "box")
    state.apply("draw")
    assert moves(state) == {"put 0", "put 1", "put 2"}
    state.apply("put 1")
    assert _value(state, "cards(stock)") == "[taco.2, kitten.1, melon.2]"  # one card above it
    assert state.current_player == 1 and _value(state, "alive[P0]") == "true"


def test_durak_the_defender_beats_higher_in_suit_or_with_a_trump_and_ranks_on_the_table_are_thrown_in():
    state = with_vars(arrange(_game("durak").new_game(players=2, seed=1),
                              {"hand": {0: ["9H", "9C"], 1: ["10H", "6S", "7D", "AC", "8H"]}}, "stock"), trump="D")
    assert moves(state) == {"attack 9 9H", "attack 9 9C", "attack 9 9C 9H"}
    state.apply("attack 9 9H")
    assert moves(state) == {"beat 10H 9H", "beat 7D 9H", "take"}
    state.apply("beat 10H 9H")
    assert (state.current_player, moves(state)) == (0, {"throw 9C", "pass"})


def test_scopa_a_card_of_the_same_value_is_taken_alone_and_a_card_that_can_capture_must():
    state = arrange(_game("scopa").new_game(players=2, seed=1),
                    {"table": ["3coins", "4cups", "7swords"], "hand": {0: ["7coins", "Kcups", "2clubs"], 1: ["Acups"]}},
                    "deck")
    # not `take 7coins 3coins 4cups` (a seven lies on the table), nor `lay 7coins` or `lay Kcups`
    assert moves(state) == {"take 7coins 7swords", "take Kcups 3coins 7swords", "lay 2clubs"}


def test_klondike_offers_only_useful_moves_and_gives_up_only_when_stuck():
    state = _game("klondike").new_game(players=1, seed=1)
    assert [m.text for m in state.legal_moves()] == ["draw", "home AD", "shift t7 5D t2", "shift t7 5D t3"]
    # the waste's queen cannot go on the king of its colour; the stock was turned over twice
    position = arrange(state, {"t1": ["KS"], "waste": ["QS"], "stock": []}, "t2")
    assert moves(position) == {"turn"}
    assert moves(with_vars(position, passes=3)) == {"give_up"}


def test_face_up_of_the_top_of_an_empty_pile_is_false_not_a_fault():
    # Klondike's `[top(t) for t in piles where face_up(top(t))]` stopped the game ("`face_up`
    # cannot use this value (none?)") once a pile was empty; none flows through the other card
    # built-ins (an attribute of none is none).
    state = _game("klondike").new_game(players=1, seed=1)
    assert [_value(state, e) for e in ("face_up(top(waste))", "zone_of(top(waste))", "owner(top(waste))")] == \
        ["false", "none", "none"]


def test_the_rulebook_counts_the_cards_of_a_zone_held_in_a_local(capsys):
    # `count(r)` for a local `r` holding a row read "the number of *r*"; for `hand[p]` it reads
    # "the number of cards in ...".
    assert main(["rules", str(SCRIPTS / "six_nimmt.cardgame")]) == 0
    book = capsys.readouterr().out
    assert "Otherwise, if the number of cards in *r* is 5:" in book and "the number of *r*" not in book


def test_a_one_player_game_takes_1_player_not_1_players():
    with pytest.raises(interpreter.ScriptError, match=r"this game takes 1 player, not 2\n"):
        _game("klondike").new_game(players=2)
    s = Session()
    s.execute(f"load {SCRIPTS / 'klondike.cardgame'}")
    assert s.execute("new players=2").startswith("error: this game takes 1 player, not 2")


def test_the_rulebook_of_a_one_player_game_has_no_seats_around_a_table(capsys):
    # It read "1 players. The seats are numbered P0, P1, ... in order around the table; ...".
    assert main(["rules", str(SCRIPTS / "klondike.cardgame")]) == 0
    assert "## Players\n\n1 player, P0, who plays alone.\n" in capsys.readouterr().out


def test_a_player_listed_twice_in_a_simultaneous_decision_is_asked_once(tmp_path):
    # `simultaneously for p in [seat(0), seat(0), seat(1)]` asked P0 twice (both choices made on
    # the same position); a reaction window gathers each player once.
    text = EMPTY_HANDED.replace("deal 1 from stock to hand of [seat(0), seat(2)]",
                                "deal 1 from stock to hand of players").replace(
        "simultaneously for p in players", "simultaneously for p in [seat(0), seat(0), seat(1)]")
    state = _load_text(tmp_path, text).new_game(players=3, seed=0)
    state.apply(state.legal_moves()[0].text)
    assert state.current_player == 1
    state.apply(state.legal_moves()[0].text)
    assert state.is_over and _value(state, "count(pile)") == "2"


def test_lint_does_not_speak_of_the_when_of_a_rule_that_has_none(tmp_path):
    # A Klondike whose stock turns over for ever never let `rule nothing_else() ... require
    # stuck` allow `give_up`; the hint said "... only be played where its `when` is false".
    text = EMPTY_HANDED.replace("deal 1 from stock to hand of [seat(0), seat(2)]", "deal 1 from stock to hand of players") \
        .replace("pick(c from hand[p]) {", "give_up requires nothing_else() { }\n            pick(c from hand[p]) {") \
        + 'rule nothing_else() "Give up only when nothing else is left." require empty(hand[seat(0)])\n'
    found = [d for d in lint(_load_text(tmp_path, text), 2, 0).diagnostics if d.code == "L0202"]
    assert [d.hint.split(",")[0] for d in found] == ["it has no `when`"]


def test_a_move_typed_with_too_many_cards_names_the_counts_as_a_range():
    # "`take` takes 2 or 3 or 4 or 5 cards; this names 6"
    s = Session()
    s.execute(f"load {SCRIPTS / 'scopa.cardgame'}")
    s.execute("new seed=5")
    assert "`take` takes 2 to 5 cards; this names 6" in s.execute("why take 4clubs Qcups 5coins 5swords Qswords 3coins")
