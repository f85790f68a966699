"""Free symbols (docs/language.md §6): `symbols NAME: ...` and `ordered symbols NAME: ...` as
values, types, option types and orders, shared with the cards' attribute values."""

from __future__ import annotations

from helpers import SCRIPTS, value_of

from cardgame import interpreter
from cardgame.authoring.rulebook import rulebook

STRAINS = SCRIPTS / "strains.cardgame"


def _bids(state) -> list[str]:
    return sorted(m.text for m in state.legal_moves() if m.text.startswith("bid 3 ") or m.text.startswith("bid 2 "))


def test_an_ordered_set_orders_the_bids():
    state = interpreter.load(str(STRAINS)).new_game(players=4, seed=3)
    state.apply(next(m for m in state.legal_moves() if m.text == "bid 3 H"))
    # after 3 H: only a higher strain at 3 (S, NT), nothing at 2, and the opening strain NT
    assert _bids(state) == ["bid 2 NT", "bid 3 NT", "bid 3 S"]
    assert value_of(state, "contract") == "H" and value_of(state, "contract > D") == "true"


def test_the_words_are_the_cards_suits_and_an_option_chooses_among_them():
    game = interpreter.load(str(STRAINS))
    state = game.new_game(players=4, seed=3, options={"opening": "C"})
    state.apply(next(m for m in state.legal_moves() if m.text == "bid 3 H"))
    assert _bids(state) == ["bid 2 C", "bid 3 C", "bid 3 NT", "bid 3 S"]
    assert value_of(state, "count([c for c in hand[seat(0)] where c.suit == contract])") == \
        value_of(state, "count([c for c in hand[seat(0)] where c.suit == H])")
    assert [o for o in game.options if o.name == "opening"][0].default == "NT"


def test_an_unordered_set_has_no_order(tmp_path):
    path = tmp_path / "colours.cardgame"
    path.write_text(STRAINS.read_text() + "define warmer(a: colour, b: colour) = a > b\n")
    codes = [d.code for d in interpreter.check_file(str(path))[3]]
    assert codes == ["E0210", "E0210"]


def test_the_rulebook_lists_the_sets():
    text = rulebook(str(STRAINS))
    assert "- The *strain* values: C, D, H, S, NT, from lowest to highest." in text
    assert "- The *colour* values: red, black." in text


def test_the_editor_hovers_a_set_and_its_words():
    from cardgame.authoring.analysis import Analysis
    text = STRAINS.read_text()
    analysis = Analysis(str(STRAINS), text)
    lines = text.splitlines()
    line = next(i for i, l in enumerate(lines, 1) if l.startswith("var contract"))
    hover = analysis.hover(line, lines[line - 1].index("strain") + 2)
    assert hover.startswith("```cardgame\nordered symbols strain: C, D, H, S, NT\n```\na type of free symbols")
    line = next(i for i, l in enumerate(lines, 1) if "s from [C, D, H, S, NT]" in l)
    assert "a symbol of `strain`" in analysis.hover(line, lines[line - 1].index("NT") + 1)


def test_a_variant_replaces_a_set(tmp_path):
    (tmp_path / "strains.cardgame").write_text(STRAINS.read_text())
    (tmp_path / "more.cardgame").write_text('include "strains.cardgame"\nreplace symbols colour: red, black, green\n')
    assert "- The *colour* values: red, black, green." in rulebook(str(tmp_path / "more.cardgame"))
