"""A fifth newcomer campaign (i14-bidding): auctions, contracts, melds and partial information
written from the docs alone (contract bridge, Skat, partnership pinochle, cribbage, President
with a bomb, in tests/scripts/), then what a newcomer met while writing them. Each test pins one
thing found broken or unhelpful, or one rule of those games."""

from __future__ import annotations

from cardgame import interpreter

from helpers import ROOT, ends_at_the_fewest_and_the_most_players

SCRIPTS = ROOT / "tests" / "scripts"


def _diagnostics(tmp_path, text: str, name: str = "game.cardgame"):
    path = tmp_path / name
    path.write_text(text)
    _tables, _items, sources, diags = interpreter.check_file(str(path))
    return diags


UNCLOSED_PHASE = '''game "Unclosed"
players 2

phase deal_cards {
    next auction

phase auction {
    end game
}

score p: 0
'''


def test_a_phase_left_open_is_named_at_the_next_phase(tmp_path):
    # A `}` missing at the end of a phase was "E0134 `phase` does not begin a statement", with a
    # hint about statements: nothing said a block was still open.
    [diag] = _diagnostics(tmp_path, UNCLOSED_PHASE)
    assert (diag.code, diag.message, diag.span.line, diag.span.column) == \
        ("E0190", "a `{` is still open at `phase` on line 7", 4, 18)
    assert diag.hint.startswith("close `phase deal_cards {` with a `}` where its block ends")


def test_the_last_phase_left_open_is_named_at_the_score(tmp_path):
    text = UNCLOSED_PHASE.replace("    next auction\n", "    next auction\n}\n")
    text = text.replace("    end game\n}", "    end game")
    [diag] = _diagnostics(tmp_path, text)
    assert (diag.code, diag.message, diag.span.line) == ("E0190", "a `{` is still open at `score` on line 11", 8)


def test_an_indented_var_inside_a_phase_is_still_a_statement_misuse(tmp_path):
    text = UNCLOSED_PHASE.replace("    next auction\n", "    var total = 1\n    next auction\n}\n")
    [diag] = _diagnostics(tmp_path, text)
    assert diag.code == "E0134" and "top level" in diag.hint


def _bridge_after_the_opening_lead():
    """1 C by P0 (three passes), P2 is dummy; P1 leads its first legal card."""
    game = interpreter.load(str(SCRIPTS / "bridge.cardgame"))
    state = game.new_game(seed=1)
    for move in ("bid 1 C", "pass", "pass", "pass"):
        state.apply(move)
    state.apply(state.legal_moves()[0])
    return state


def test_a_dummy_laid_face_up_is_drawn_as_a_hand():
    # The table drew a per-player zone as a hand only while the spectator could not see all of
    # it: dummy's hand, all face up, was drawn in dealt order, without the `*` of face-up cards.
    from cardgame.repl.table import Deck, render, snapshot
    state = _bridge_after_the_opening_lead()
    assert "hand" in state.hand_zones and "played" not in state.hand_zones
    deck = Deck.of(state.game.cards, state.game.shown_orders)
    lines = render(snapshot(state, 1, False), deck, width=200)
    [row] = [line for line in lines if line.startswith("hand[P2]")]
    cards = [word.rstrip("*") for word in row.split()[2:]]
    assert all(word.endswith("*") for word in row.split()[2:])
    assert cards == deck.sorted(cards) and len(cards) == 13


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


def test_a_list_typed_in_another_order_is_explained_as_that_options_move():
    # `play [5H, 5C]` (cards held, in another order than the offered `[5C, 5H]`) said "`[5H,` is
    # not an option here": the typed list was split at its space and read as an option's name.
    from cardgame.repl.session import Session
    s = Session()
    s.execute(f"load {SCRIPTS / 'president.cardgame'}")
    s.execute("new players=4 seed=9")
    hand = s.state.view("all")["zones"]["hand"]["P3"]
    assert {"5C", "5H"} <= set(hand)
    out = s.execute("play [5H, 5C]")
    assert s.last_failed
    assert out.startswith("error: `play [5H, 5C]` is not one of the choices")  # said once (i14-terminal T7)
    assert "did you mean `play [5C, 5H]`?" in out
    explained = s.state.explain("[5H, 5C]")
    assert explained.legal is False and explained.reason == \
        "`[5H, 5C]` names no option: a move begins with its option's name, one of play, pass"


def test_fmt_breaks_a_list_of_keys_before_an_item_that_does_not_fit():
    # The second key was left after the first on a 125-column line, broken inside at its `else`:
    # a list's break measured the next item only up to a break inside it.
    from cardgame.authoring.fmt import format_source
    text = ('players 2\nvar led: symbol = none\nvar trump: symbol = none\nzone played: per player public\n'
            'define trick_winner = max q in players by [(if top(played[q]).suit == trump then 1 else 0), '
            '(if top(played[q]).suit in [trump, led] then top(played[q]).rank else none)]\n')
    out, _ = format_source(text)
    assert out.splitlines()[4:] == [
        "define trick_winner =",
        "    max q in players",
        "        by [(if top(played[q]).suit == trump then 1 else 0),",
        "            (if top(played[q]).suit in [trump, led] then top(played[q]).rank else none)]"]


def test_fmt_continues_a_sum_in_a_branch_one_level_in():
    # `then 1` / `+ run_from_top(...)` / `else 0` at one level read as `(if ... then 1) + ...`.
    from cardgame.authoring.fmt import format_source
    text = ('players 2\ndefine run_from_top(seq: list of card, holding: bool, mine: list of card) = '
            'if empty(seq) then 0 else if (first(seq) in mine) == holding then 1 + '
            'run_from_top(last(seq, count(seq) - 1), holding, mine) else 0\n')
    out, _ = format_source(text)
    assert out.splitlines()[1:] == [
        "define run_from_top(seq: list of card, holding: bool, mine: list of card) =",
        "    if empty(seq) then 0",
        "    else if (first(seq) in mine) == holding then 1",
        "        + run_from_top(last(seq, count(seq) - 1), holding, mine)",
        "    else 0"]


def test_the_rulebook_reads_a_list_variable_a_single_rule_and_where_a_section_is():
    # "allowed by the rules **beats**" for one rule; "Do *went_out*(...) (see below)" for a
    # procedure written above; "*last_finish* of 0" for item 0 of a list variable, as if per
    # player; "1 different ones of"; "every *x* in ... has *x* is in *cs*"; "in groups of equal";
    # an event without a body was an empty section without its prompt.
    from cardgame.authoring.rulebook import rulebook
    book = rulebook(str(SCRIPTS / "president.cardgame"))
    for said in ("allowed by the rule **beats**", "Do *went_out*(*turn*) (see above)",
                 "Let *president* be item 0 of *last_finish*.", "choosing *cs*, one (in a list) of *hand* of *vice*",
                 "requires that for every *x* in *hand* of *p*, *x* is in *cs* or for every *y* in *cs*, "
                 "the rank of *y* is at least the rank of *x*",
                 "[*s* for each *g* in the *x* in *hand* of *p* grouped by the rank of *x* and",
                 "Those who may answer it are asked “{p} played {top_count} {top_rank}: bomb?”.",
                 "It does nothing of its own: what happens is in its answers."):
        assert said in book, said
    assert "allowed by the rules **beats**" not in book and "(see below)" not in book.split("### Phase *trick*")[1]


def test_a_number_out_of_range_is_answered_with_the_nearest_number():
    # `cut 3` (the cut takes 4 to 36) was answered "did you mean `cut 36`?" and `cut 40` "did
    # you mean `cut 4`?": numbers were compared as spelling.
    from cardgame.repl.input import nearest
    cuts = [f"cut {n}" for n in range(4, 37)]
    assert (nearest("cut 3", cuts), nearest("cut 40", cuts), nearest("cut 9", cuts)) == ("cut 4", "cut 36", "cut 9")
    assert nearest("bid 2 C", ["bid 1 C", "bid 3 D", "bid 7 C"]) == "bid 1 C"
    assert nearest("play 9x", ["play 9D", "play 7C"]) == "play 9D"


# ---- the games of this campaign: their rules in scenarios, and every game ends

import pytest

from helpers import arrange, moves, with_vars

GAMES_OF_THIS_CAMPAIGN = ["bridge", "skat", "pinochle", "cribbage", "president"]


def _game(name: str) -> interpreter.Game:
    return interpreter.load(str(SCRIPTS / f"{name}.cardgame"))


def _value(state, expression: str) -> str:
    value, diags = state.evaluate(expression)
    assert not diags, diags
    return value


@pytest.mark.parametrize("name", GAMES_OF_THIS_CAMPAIGN)
def test_every_game_ends_at_the_fewest_and_the_most_players(name):
    ends_at_the_fewest_and_the_most_players(_game(name))


def test_bridge_bids_must_rise_and_doubles_answer_the_opponents():
    state = _game("bridge").new_game(seed=1)
    state.apply("bid 1 H")
    offered = moves(state)
    assert {"bid 1 C", "bid 1 D", "bid 1 H", "redouble"}.isdisjoint(offered)
    assert {"bid 1 S", "notrump 1", "bid 7 S", "notrump 7", "pass", "double"} <= offered and len(offered) == 34
    state.apply("double")
    assert "redouble" in moves(state) and "double" not in moves(state)  # P2: partner of the bidder
    state.apply("pass")
    assert {"double", "redouble"}.isdisjoint(moves(state))  # P3: the bid is already doubled by its side


def test_bridge_four_passes_pass_the_deal_out():
    state = _game("bridge").new_game(seed=1)
    for move in ("pass", "pass", "pass", "pass"):
        state.apply(move)
    assert state.is_over and state.scores == [0, 0, 0, 0]


def test_bridge_the_declarer_named_the_strain_first_and_plays_dummys_cards():
    state = _game("bridge").new_game(seed=1)
    for move in ("bid 1 H", "pass", "bid 2 H", "pass", "pass", "pass"):
        state.apply(move)
    assert _value(state, "[declarer, dummy, leader]") == "[P0, P2, P1]"
    state = arrange(state, {"hand": {1: ["5S", "9D", "2C"], 2: ["QS", "3S", "4H"], 3: ["KD", "7C", "8C"],
                                     0: ["AS", "2H", "6D"]}}, "stock")
    assert state.view(1)["zones"]["hand"]["P2"] == ["??", "??", "??"]  # dummy is not down yet
    state.apply("play 5S")
    # dummy's hand lies face up; the declarer, P0, follows suit from it
    assert state.view(1)["zones"]["hand"]["P2"] == ["QS", "3S", "4H"]
    assert (state.current_player, state.prompt, moves(state)) == (0, "Play a card from P2's hand",
                                                                   {"play QS", "play 3S"})
    state.apply("play 3S")
    assert moves(state) == {"play KD", "play 7C", "play 8C"}  # P3 has no spade
    state.apply("play 7C")
    assert moves(state) == {"play AS"}
    state.apply("play AS")
    assert (_value(state, "leader"), _value(state, "tricks")) == ("P0", "[1, 0]")


def test_bridge_scores_the_contract_made_or_set():
    state = _game("bridge").new_game(seed=1)
    assert _value(with_vars(state, bid_level=4, bid_strain=2, doubled=0), "contract_points + bonus") == "420"
    assert _value(with_vars(state, bid_level=3, bid_strain=4, doubled=0), "contract_points + bonus") == "400"
    doubled_slam = with_vars(state, bid_level=6, bid_strain=0, doubled=1)
    assert _value(doubled_slam, "[contract_points + bonus, undertrick_cost(3)]") == "[1090, 500]"
    assert _value(with_vars(state, bid_level=6, bid_strain=0, doubled=2), "undertrick_cost(4)") == "1600"


def _skat_declarer_p2():
    """Middlehand says 18, forehand holds, middlehand passes; rearhand says 20, forehand passes."""
    state = _game("skat").new_game(seed=3)
    assert state.current_player == 1 and len(moves(state)) == 21  # say 18 to 60, or pass
    state.apply("say 18")
    assert moves(state) == {"hold", "pass"}
    for move in ("hold", "pass", "say 20", "pass"):
        state.apply(move)
    assert (_value(state, "declarer"), _value(state, "high_bid")) == ("P2", "20")
    return state


def test_skat_the_declarer_lays_away_two_cards_that_only_it_knows():
    state = _skat_declarer_p2()
    assert state.prompt == "Lay away two cards" and len(moves(state)) == 66
    state.apply(sorted(moves(state))[0])
    laid = state.view("all")["zones"]["skat"]
    assert state.view(2)["zones"]["skat"] == laid and "??" not in laid
    assert state.view(0)["zones"]["skat"] == state.view(1)["zones"]["skat"] == ["??", "??"]


SKAT_HANDS = {2: ["JC", "JS", "AH", "10H", "KH", "7D", "8D", "9D", "10D", "QD", "7C", "8C"],
              0: ["JH", "JD", "QH", "9H", "8H", "7H", "AC", "10C", "KC", "QC"],
              1: ["AS", "10S", "KS", "QS", "9S", "8S", "7S", "AD", "KD", "9C"]}


def test_skat_counts_matadors_with_and_without_and_120_card_points():
    state = arrange(_skat_declarer_p2(), {"hand": SKAT_HANDS}, "skat")
    hearts = with_vars(state, trump="H")
    assert _value(hearts, "[count_matadors(cards(hand[q])) for q in players]") == "[2, 11, 2]"
    assert _value(with_vars(state, trump="D"), "count_matadors(cards(hand[P1]))") == "4"
    assert _value(state, "card_points([y for q in players for y in hand[q]])") == "120"


def test_skat_jacks_follow_the_trump_suit_not_their_own():
    state = _skat_declarer_p2()
    state.apply("lay_away 7C 8C" if "lay_away 7C 8C" in moves(state) else sorted(moves(state))[0])
    state.apply("suit_game H")
    state = arrange(state, {"hand": {0: ["JD", "9H", "AC"], 1: ["JH", "AD", "7S"], 2: ["QH", "KD", "8S"]}}, "stock")
    trumps_led = with_vars(state, led="H")
    assert moves(trumps_led) == {"play JD", "play 9H"}  # a jack is a trump
    diamonds_led = with_vars(state, led="D")
    assert moves(diamonds_led) == {"play JD", "play 9H", "play AC"}  # JD is no diamond: void


def _pinochle_after_the_auction():
    state = _game("pinochle").new_game(seed=1)
    assert len(moves(state)) == 32  # bid 20 to 50, or pass
    for move in ("bid 25", "pass", "pass", "pass"):
        state.apply(move)
    assert moves(state) == {"name_trump C", "name_trump D", "name_trump H", "name_trump S"}
    state.apply("name_trump S")
    return state


def test_pinochle_meld_counts_runs_pinochles_and_arounds():
    state = _pinochle_after_the_auction()
    run_and_pinochle = ["ASa", "10Sa", "KSa", "QSa", "JSa", "9Sa", "QSb", "JDa", "KHa", "QHa", "ACa", "ADa"]
    double_pinochle = ["QSa", "QSb", "JDa", "JDb", "ACa", "ADa", "AHa", "ASa", "KCa", "QCa", "9Ha", "10Ha"]
    # a run 15 (its royal marriage in it), a dix 1, a pinochle 4, a marriage 2; no aces around
    assert _value(arrange(state, {"hand": {0: run_and_pinochle}}, "stock"), "meld_points(cards(hand[P0]))") == "22"
    # a double pinochle 30, aces around 10, a marriage 2
    assert _value(arrange(state, {"hand": {1: double_pinochle}}, "stock"), "meld_points(cards(hand[P1]))") == "42"


def test_pinochle_of_two_identical_cards_the_first_played_wins():
    state = _pinochle_after_the_auction()
    same = arrange(state, {"hand": {0: ["KHa", "ACa"], 1: ["KHb", "9Ca"], 2: ["QHa", "ADa"], 3: ["JHa", "10Cb"]}},
                   "stock")
    for move in ("play KHa", "play KHb", "play QHa", "play JHa"):
        same.apply(move)
    assert (_value(same, "leader"), _value(same, "counters")) == ("P0", "[2, 0]")


def test_pinochle_a_player_out_of_the_suit_led_must_trump():
    state = _pinochle_after_the_auction()
    state = arrange(state, {"hand": {0: ["KHa", "ACa"], 1: ["KHb", "9Ca"], 2: ["QHa", "ADa"], 3: ["9Sa", "10Cb"]}},
                    "stock")
    state.apply("play KHa")
    assert moves(state) == {"play KHb"}
    state.apply("play KHb")
    state.apply("play QHa")
    assert moves(state) == {"play 9Sa"}
    state.apply("play 9Sa")
    assert (_value(state, "leader"), _value(state, "counters")) == ("P3", "[0, 2]")


def test_cribbage_both_lay_in_the_crib_at_once_and_the_count_stays_at_31():
    state = _game("cribbage").new_game(seed=3)
    assert len(moves(state)) == 15 and state.choice_is_hidden  # 2 of 6 cards, chosen at once
    state.apply(sorted(moves(state))[0])
    assert state.current_player == 1 and state.view(1)["zones"]["crib"] == []  # nothing laid yet
    state.apply(sorted(moves(state))[0])
    assert len(moves(state)) == 33 and state.prompt == "Cut the deck: how many cards to lift?"
    state.apply("cut 10")
    assert state.phase == "pegging"
    state = with_vars(arrange(state, {"hand": {0: ["KC", "5D", "AH", "6S"], 1: ["2C", "3D", "9H", "QS"]},
                                      "starter": ["7H"]}, "stock"), running=25)
    assert moves(state) == {"play 5D", "play AH", "play 6S"}


def test_cribbage_pegging_scores_fifteens_pairs_and_runs_as_played():
    state = _game("cribbage").new_game(seed=3)
    for running, cards, points in ((15, "[5C, 5D, 5H]", 8), (12, "[3C, 5D, 4H]", 3), (18, "[4C, 3D, 5H, 6S]", 4),
                                   (25, "[5C, 10D, 5H, 5S]", 2), (21, "[KC, 10D, AH]", 0)):
        assert _value(with_vars(state, running=running), f"peg_points({cards})") == str(points), cards


def test_cribbage_the_show_counts_every_fifteen_pair_run_flush_and_nobs():
    state = _game("cribbage").new_game(seed=3)
    for hand, starter, crib, points in (("[5C, 5S, 5H, JD]", "5D", "false", 29),
                                        ("[4C, 5S, 5H, 6D]", "9D", "false", 14),
                                        ("[3C, 3D, 4H, 5S]", "5C", "false", 20),
                                        ("[AC, 2D, 3H, KS]", "QD", "false", 7),
                                        ("[2H, 4H, 6H, 8H]", "KS", "false", 4),
                                        ("[2H, 4H, 6H, 8H]", "KS", "true", 0),
                                        ("[2H, 4H, 6H, 8H]", "KH", "true", 5)):
        assert _value(state, f"show_points({hand}, {starter}, {crib})") == str(points), (hand, starter, crib)


def test_president_a_play_must_match_the_count_and_rise_and_a_bomb_answers_out_of_turn():
    state = _game("president").new_game(players=3, seed=2)
    lead = state.current_player
    hands = {lead: ["5C", "5H", "9D"], (lead + 1) % 3: ["4C", "6C", "6D", "KS", "KH", "KD", "KC"],
             (lead + 2) % 3: ["7S", "7H", "2C"]}
    state = arrange(state, {"hand": hands}, "stock")
    assert moves(state) == {"play [5C, 5H]", "play [5C]", "play [5H]", "play [9D]"}  # the leader may not pass
    state.apply("play [5C, 5H]")
    # every other player holding cards is asked, holding a bomb or not
    assert (state.current_player, moves(state)) == ((lead + 2) % 3, {"pass"})
    state.apply("pass")
    assert (state.current_player, moves(state)) == ((lead + 1) % 3, {"bomb K", "pass"})
    after_pass = state.clone()
    after_pass.apply("pass")
    assert moves(after_pass) == {"play [6C, 6D]", "play [KS, KH]", "play [KS, KD]", "play [KS, KC]",
                                 "play [KH, KD]", "play [KH, KC]", "play [KD, KC]", "pass"}
    state.apply("bomb K")
    bomber = (lead + 1) % 3
    assert state.current_player == bomber and _value(state, "top_count") == "0"  # a new trick, its lead
    assert state.view("all")["zones"]["pile"][-4:] == ["KS", "KH", "KD", "KC"]


def test_president_the_scum_gives_its_two_highest_cards():
    state = _game("president").new_game(players=3, seed=2, options={"rounds": 2})
    agent = interpreter.RandomAgent(7)
    while state.phase != "exchange":
        state.apply(agent.choose(state.legal_moves()))
    scum = state.current_player
    assert _value(state, "last_finish[-1]") == f"P{scum}"
    state = arrange(state, {"hand": {scum: ["3D", "AH", "2C", "AS", "9C"]}}, "stock")
    assert moves(state) == {"give AH 2C", "give AS 2C"}


def test_what_the_skat_the_crib_and_the_meld_tell_each_seat():
    # the skat: nobody sees it before it is taken up; what the declarer lays away, only it knows
    skat = _game("skat").new_game(seed=3)
    assert [skat.view(q)["zones"]["skat"] for q in range(3)] == [["??", "??"]] * 3
    for move in ("say 18", "hold", "pass", "say 20", "pass"):
        skat.apply(move)
    skat.apply(sorted(moves(skat))[0])
    decision = [e["text"] for e in skat.observation(0)["log"] if e["kind"] == "decision"][-1]
    assert decision.endswith("lay_away ?? ??")
    # the crib: each seat knows its own two cards, not the other's, and not the other's choice
    crib = _game("cribbage").new_game(seed=3)
    crib.apply(sorted(moves(crib))[0])
    crib.apply(sorted(moves(crib))[0])
    assert [e["text"] for e in crib.observation(1)["log"] if e["kind"] == "decision"][0] == "(a hidden choice)"
    assert crib.view(1)["zones"]["crib"][:2] == ["??", "??"] and "??" not in crib.view(1)["zones"]["crib"][2:]
    assert crib.view(0)["zones"]["crib"][2:] == ["??", "??"] and "??" not in crib.view(0)["zones"]["crib"][:2]
    # the meld: shown to everyone, and remembered once back in the hand
    meld = _pinochle_after_the_auction()
    shown = _value(meld, "[x for x in hand[P0] where in_meld(cards(hand[P0]), x)]").strip("[]").split(", ")
    seen_by_p1 = [c for c in meld.view(1)["zones"]["hand"]["P0"] if c != "??"]
    assert sorted(seen_by_p1) == sorted(shown) and shown


def test_unwatch_all_counts_its_watches():
    # "removed 2 watchs"
    from cardgame.repl.session import Session
    s = Session()
    s.execute(f"load {SCRIPTS / 'skat.cardgame'}")
    s.execute("watch high_bid")
    s.execute("watch count(skat)")
    assert s.execute("unwatch all") == "removed 2 watches"


@pytest.mark.parametrize("statement, code, hint", [
    ("for (q in players) { set x += 1 }", "E0101", "a `for` loop is written without brackets"),
    ("set x = x + 1;", "E0101", "statements need no separator"),
    ("set x = x ** 2", "E0101", "there is no power operator `**`"),
    ("set x = 7 // 2", "E0101", "`/` divides, rounding down: there is no `//`"),
    ("// a comment", "E0101", "a comment begins with `#`"),
    ("set x = x ? 1 : 0", "E0101", "there is no `C ? A : B`"),
    ("set x = count(players.count)", "E0210", "the number of items is a function of the list: `count(L)`"),
    ("set x = hand[seat(0)].length", "E0210", "the number of items is a function of the list: `count(L)`"),
])
def test_what_other_languages_write_is_answered_with_this_ones(tmp_path, statement, code, hint):
    text = (f'game "t"\nplayers 2\nzone hand: per player owner\nvar x: int = 0\n'
            f'phase a {{\n    {statement}\n    end game\n}}\n')
    [diag] = [d for d in _diagnostics(tmp_path, text) if d.severity == "error"][:1]
    assert diag.code == code and diag.hint.startswith(hint), (diag.code, diag.hint)


def test_a_deal_its_pile_cannot_feed_says_how_many_cards_it_needed(tmp_path):
    # 13 cards to each of four players from pinochle's 48 said only "`deal` ran out of cards".
    text = (SCRIPTS / "pinochle.cardgame").read_text().replace("deal 12 from stock", "deal 13 from stock")
    path = tmp_path / "pinochle13.cardgame"
    path.write_text(text)
    state = interpreter.load(str(path)).new_game(seed=1)
    assert state.fault.message == "`deal` ran out of cards in `stock`: 13 cards to each of 4 players is 52, " \
        "and it held 48"


def test_moves_filtered_by_a_card_with_copies_keeps_every_copy():
    # `moves 10D` in pinochle (cards `10Da`, `10Db`) said "no legal move names 10D".
    from cardgame.repl.input import copies_of
    from cardgame.repl.session_moves import _names_all
    cards = _game("pinochle").cards
    copies = {"10d": copies_of("10d", cards), "ks": copies_of("KS", cards)}
    assert copies == {"10d": {"10da", "10db"}, "ks": {"ksa", "ksb"}}
    offered = ["play 10Da", "play KSa", "play 10Db", "play 10Ha"]
    assert [m for m in offered if _names_all(m, ["10d"], copies)] == ["play 10Da", "play 10Db"]
    assert [m for m in offered if _names_all(m, ["10da"], copies)] == ["play 10Da"]


def test_the_rulebook_brackets_an_if_inside_an_if_and_a_comparison_compared():
    # `if null_game then (if c.suit == led then c.null_power else none) else if ...` read "the
    # null_power of c if the suit of c is led, otherwise none if null_game, otherwise ...": one
    # chain, another rule. Boss Poker's shipped rulebook said so of an ace's value.
    from cardgame.authoring.rulebook import rulebook
    book = rulebook(str(SCRIPTS / "skat.cardgame"))
    assert "- *strength(c)*: (the null_power of *c* if the suit of *c* is *led*, otherwise none) if *null_game*, " \
        "otherwise 100 + the jack_power of *c*" in book
    assert "otherwise (`J` if *grand_game*, otherwise *trump*) if the rank of *c* is `J`" in book
    assert "if (the first of *seq* is in *mine*) is *holding*, otherwise 0" in book
    assert "- *value(c)*: (11 if *ten_shown*, otherwise 1) if the rank of *c* is `A`, otherwise the rank of *c*" in \
        (ROOT / "docs" / "rulebooks" / "bosspoker.md").read_text()


def test_the_rulebook_reads_a_sum_without_nested_brackets_and_brackets_an_if_key():
    from cardgame.authoring.rulebook import rulebook
    book = rulebook(str(SCRIPTS / "pinochle.cardgame"))
    assert "- *meld_points(h)*: (15 * *runs_held*(*h*)) + (4 * (*marriages*(*h*, *trump*) - *runs_held*(*h*))) + " in book
    assert "with the highest (1 if the suit of the top card of *played* of *q* is *trump*, otherwise 0), then rank" in book
