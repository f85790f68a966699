"""A fifth newcomer campaign (i14-bidding): auctions, contracts, melds and partial information
written from the docs alone (contract bridge, Skat, partnership pinochle, cribbage, President
with a bomb, in tests/scripts/), then what a newcomer met while writing them. Each test pins one
thing found broken or unhelpful, or one rule of those games."""

from __future__ import annotations

import interpreter

from helpers import ROOT

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
    text = UNCLOSED_PHASE.replace("    next auction\n", "    next auction\n}\n").replace("    end game\n}", "    end game")
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
    from repl.table import Deck, render, snapshot
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
    from repl.session import Session
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
    from repl.session import Session
    s = Session()
    s.execute(f"load {SCRIPTS / 'president.cardgame'}")
    s.execute("new players=4 seed=9")
    hand = s.state.view("all")["zones"]["hand"]["P3"]
    assert {"5C", "5H"} <= set(hand)
    out = s.execute("play [5H, 5C]")
    assert s.last_failed
    assert out.startswith("error: `play [5H, 5C]` is not a move here: `play [5H, 5C]` is not one of the choices")
    assert "did you mean `play [5C, 5H]`?" in out
    explained = s.state.explain("[5H, 5C]")
    assert explained.legal is False and explained.reason == \
        "`[5H, 5C]` names no option: a move begins with its option's name, one of play, pass"


def test_fmt_breaks_a_list_of_keys_before_an_item_that_does_not_fit():
    # The second key was left after the first on a 125-column line, broken inside at its `else`:
    # a list's break measured the next item only up to a break inside it.
    from authoring.fmt import format_source
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
    from authoring.fmt import format_source
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
    from authoring.rulebook import rulebook
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
    from repl.input import nearest
    cuts = [f"cut {n}" for n in range(4, 37)]
    assert (nearest("cut 3", cuts), nearest("cut 40", cuts), nearest("cut 9", cuts)) == ("cut 4", "cut 36", "cut 9")
    assert nearest("bid 2 C", ["bid 1 C", "bid 3 D", "bid 7 C"]) == "bid 1 C"
    assert nearest("play 9x", ["play 9D", "play 7C"]) == "play 9D"
