"""The variants of docs/variants.md (tests/variants/*.cardgame): each checks clean, changes only
what it says, in the lines it says, and plays whole games.  How the forms are checked is
tests/golden/diagnostics/variation_*; how `replace` is, tests/test_replace.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import GAMES, arrange, moves, value_of

from cardgame import interpreter

HERE = Path(__file__).parent
BOUNCER_LOWEST = str(HERE / "bouncer_lowest.cardgame")
BOORAY_SWEEP = str(HERE / "booray_sweep.cardgame")
BOSSPOKER_SIX = str(HERE / "bosspoker_six.cardgame")
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def _rules(path: str) -> list[str]:
    """The variant's lines, its comments and blank lines aside."""
    return [line for line in Path(path).read_text().splitlines() if line.strip() and not line.startswith("#")]


@pytest.mark.parametrize("path", [BOUNCER_LOWEST, BOORAY_SWEEP, BOSSPOKER_SIX])
def test_the_variant_checks_clean(path):
    _tables, _items, _sources, diags = interpreter.check_file(path)
    assert diags == []


def test_bouncer_lowest_is_at_most_twelve_lines_and_replaces_only_the_trick_winner():
    lines = _rules(BOUNCER_LOWEST)
    assert len(lines) <= 12
    assert [line.split()[:3] for line in lines if line.startswith("replace")] == [
        ["replace", "game", '"Bouncer,'], ["replace", "define", "trick_winner"]]
    tables = interpreter.check_file(BOUNCER_LOWEST)[0]
    assert sorted(r.described for r in tables.replacements.values()) == ["`game`", "definition `trick_winner`"]


def _first_trick(path: str, seed: int):
    """The first trick of a 3-player game, each player playing the first of its legal moves in
    sorted order: ((seat, card) in order of play, who won the point card)."""
    state = interpreter.load(path).new_game(players=3, seed=seed)
    played = []
    for _ in range(3):
        seat, move = state.current_player, sorted(moves(state))[0]
        played.append((seat, move.split()[1]))
        state.apply(move)
    won = {seat: cards for seat, cards in state.view("all")["zones"]["won"].items() if cards}
    return played, int(next(iter(won))[1:])


def _expected(played, best) -> int:
    """The seat whose card is `best` (min or max) by rank; of equal ranks the one played last."""
    key = best(RANKS.index(card[:-1]) for _, card in played)
    return [seat for seat, card in played if RANKS.index(card[:-1]) == key][-1]


@pytest.mark.parametrize("seed", range(6))
def test_bouncer_lowest_gives_the_trick_to_the_lowest_card_where_the_original_gives_the_highest(seed):
    played, winner = _first_trick(BOUNCER_LOWEST, seed)
    assert winner == _expected(played, min)
    original, original_winner = _first_trick(str(GAMES / "bouncer.cardgame"), seed)
    assert original == played  # the same deal and the same cards: only the winner differs
    assert original_winner == _expected(played, max)


def test_bouncer_lowest_differs_from_the_original_somewhere():
    assert any(_first_trick(BOUNCER_LOWEST, s)[1] != _first_trick(str(GAMES / "bouncer.cardgame"), s)[1]
               for s in range(6))


def test_booray_sweep_antes_two_cents():
    state = interpreter.load(BOORAY_SWEEP).new_game(players=4, seed=1)
    assert value_of(state, "pot") == "8"
    assert [value_of(state, f"money[seat({k})]") for k in range(4)] == ["-2"] * 4


def _swept_hand(path: str):
    """Everyone plays the first hand; the player to lead holds the five highest trumps and the
    others no trump, so that player takes every trick.  The state after the hand is settled, and
    that player's seat."""
    state = interpreter.load(path).new_game(players=4, seed=1)
    while moves(state) & {"play_hand", "pass"}:
        state.apply("play_hand")
    trump, sweeper = value_of(state, "trump"), state.current_player
    others = [s for s in "CDHS" if s != trump]
    hands = {sweeper: [r + trump for r in ["A", "K", "Q", "J", "10"]]}
    for k, seat in enumerate(s for s in range(4) if s != sweeper):
        hands[seat] = [r + others[k] for r in ["2", "3", "4", "5", "6"]]
    state = arrange(state, {"hand": hands}, "stock")
    for _ in range(5 * 4):
        state.apply(sorted(moves(state))[0])
    return state, sweeper


def test_booray_sweep_pays_the_sweeper_ten_from_each_other_player_and_settles_as_the_original():
    state, sweeper = _swept_hand(BOORAY_SWEEP)
    money = [int(value_of(state, f"money[seat({k})]")) for k in range(4)]
    # the sweeper: ante 2, the pot of 8, and 10 from each of three; the others: ante 2, 10 to
    # the sweeper, and the pot as it was (8) for taking no trick, as in the original
    assert money == [36 if k == sweeper else -20 for k in range(4)]
    assert value_of(state, "pot") == "24" and value_of(state, "sweeps") == "1"
    original, seat = _swept_hand(str(GAMES / "booray.cardgame"))
    assert seat == sweeper
    assert [int(value_of(original, f"money[seat({k})]")) for k in range(4)] == \
        [15 if k == sweeper else -25 for k in range(4)]


def test_bosspoker_for_six_without_its_deck_is_warned_at_the_players_line(tmp_path):
    """The variant without its green deck and colour: W0440 at `replace players`, naming the sixth seat."""
    alone = tmp_path / "six.cardgame"
    alone.write_text('include "bosspoker.cardgame"\nreplace players 2..6\n')
    _tables, _items, _sources, diags = interpreter.check_file(str(alone))
    assert [(d.code, d.span.line, d.message) for d in diags] == [
        ("W0440", 2, "with 6 players, the 6th seat (P5) has no item of `colours`, which has 5")]


def test_bosspoker_for_six_deals_the_sixth_seat_the_green_cards():
    state = interpreter.load(BOSSPOKER_SIX).new_game(players=6, seed=0)
    view = state.view("all")["zones"]
    assert sorted(view["numbers"]["P5"]) == sorted(["Ag", "2g", "3g", "4g", "5g", "6g", "7g", "8g", "9g", "10g"])
    assert sorted(view["faces"]["P5"]) == ["Jg", "Kg", "Qg"]


@pytest.mark.parametrize("path,players", [(BOUNCER_LOWEST, 3), (BOORAY_SWEEP, 4), (BOORAY_SWEEP, 6),
                                          (BOSSPOKER_SIX, 6)])
def test_the_variant_plays_whole_games(path, players):
    game = interpreter.load(path)
    for seed in range(3):
        options = {"hands": 3} if "booray" in path else {"raises": "by_ante"} if "bosspoker" in path else {}
        state = game.new_game(players=players, seed=seed, options=options)
        while not state.is_over:
            assert state.fault is None
            state.apply(sorted(moves(state))[0])
        assert state.fault is None and len(state.scores) == players


def test_a_variants_rulebook_has_the_originals_notes_then_what_it_changes():
    from cardgame.authoring.rulebook import rulebook
    book = rulebook(BOORAY_SWEEP)
    notes = book.index("## Notes from the original (`booray.cardgame`)")
    changes = book.index("## What this variant changes")
    assert book.startswith("# Boo Ray, small ante, sweeps pay\n") and notes < changes < book.index("## Variants")
    assert "- The ante: every player antes a nickel (5 cents) at the start of EVERY hand" in book[notes:changes]
    assert book[changes:book.index("## Variants")].splitlines()[2:] == [
        "- It is called *Boo Ray, small ante, sweeps pay* (the original: *Boo Ray*).",
        "- *ante* is `2` (the original, booray.cardgame:67: `5`).",
        "- A step *sweep_bonus* is added to *settle*, after its step *take_pot* (see *settle* below).",
        "- It adds the definition *sweep_pay*, the variable *sweeps* and the measure *sweeps*.", "",
        "4 to 6 players, seated P0, P1, ... clockwise, each on the left of the one before.", ""]
    book = rulebook(BOSSPOKER_SIX)
    assert "- It takes 2 to 6 players (the original: 2 to 5 players)." in book
    assert "- It adds the deck *green*." in book


def test_the_variants_in_the_docs_are_the_tested_files():
    docs = (HERE.parent.parent / "docs" / "variants.md").read_text()
    for path in (BOUNCER_LOWEST, BOORAY_SWEEP, BOSSPOKER_SIX):
        assert "```cardgame\n" + Path(path).read_text().rstrip() + "\n```" in docs
