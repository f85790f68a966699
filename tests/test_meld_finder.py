"""The meld finder of docs/language.md §9 (sets and runs, minimum deadwood, written with nested
lists, a record and a recursive definition) against a brute force in Python over 200 random
10-card hands; for 40 of them, the plan it finds is checked too (its melds and what they cover)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from cardgame import interpreter

DOCS = Path(__file__).parent.parent / "docs" / "language.md"


def script(tmp_path) -> Path:
    text = DOCS.read_text(encoding="utf-8")
    block = re.search(r"```cardgame\n# complete\n(game \"Meld finder\".*?)```", text, re.S).group(1)
    path = tmp_path / "melds.cardgame"
    path.write_text(block)
    return path


def candidate_melds(hand):
    """Sets (a rank's three or four cards, and each three of a four) and runs (three or more
    consecutive ranks of a suit), written independently of the script."""
    melds = []
    for rank in range(1, 14):
        group = [c for c in hand if c[0] == rank]
        if len(group) >= 3:
            melds.append(frozenset(group))
        if len(group) == 4:
            melds.extend(frozenset(g) for g in itertools.combinations(group, 3))
    for suit in "CDHS":
        ranks = {c[0] for c in hand if c[1] == suit}
        for low in range(1, 14):
            for high in range(low + 2, 14):
                if all(r in ranks for r in range(low, high + 1)):
                    melds.append(frozenset((r, suit) for r in range(low, high + 1)))
    return melds


def least_deadwood(hand):
    points = lambda cards: sum(min(r, 10) for r, _ in cards)  # noqa: E731
    melds = candidate_melds(hand)
    best = 0
    for size in range(len(melds) + 1):
        for choice in itertools.combinations(melds, size):
            cards = [c for m in choice for c in m]
            if len(cards) == len(set(cards)):
                best = max(best, points(cards))
    return points(hand) - best


def test_the_meld_finder_agrees_with_brute_force_over_200_hands(tmp_path):
    game = interpreter.load(str(script(tmp_path)))
    hands = 0
    for seed in range(1, 101):
        state = game.new_game(seed=seed)
        assert state.is_over
        for seat in range(2):
            text, diags = state.evaluate(f"hand[seat({seat})]")
            assert not diags
            hand = [(int(m.group(1)), m.group(2)) for m in re.finditer(r"(\d+)([CDHS])", text)]
            assert len(hand) == 10
            assert state.evaluate(f"deadwood(hand[seat({seat})])") == (str(least_deadwood(hand)), [])
            if hands < 40:  # the plan behind it: melds of the hand that share no card, covering what it says
                plan, diags = state.evaluate(f"best_plan(hand[seat({seat})])")
                assert not diags and plan.startswith("plan(melds: [")
                melds = [frozenset((int(r), s) for r, s in re.findall(r"(\d+)([CDHS])", m))
                         for m in re.findall(r"\[([^\[\]]+)\]", plan)]
                covered = int(re.search(r"covered: (\d+)\)$", plan).group(1))
                cards = [c for m in melds for c in m]
                assert len(cards) == len(set(cards)) and all(m in candidate_melds(hand) for m in melds)
                assert covered == sum(min(r, 10) for r, _ in cards) == \
                    sum(min(r, 10) for r, _ in hand) - least_deadwood(hand)
            hands += 1
    assert hands == 200
