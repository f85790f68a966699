"""Values of one kind where another is meant, and what the checker says of them: `max` or `min`
of cards without a key (E0210)."""

from __future__ import annotations

from helpers import check_text


def test_max_of_cards_asks_for_a_key(tmp_path):
    # `max(hand[p])` was accepted and gave the card last in deck order, whatever its rank
    script = ('game "M"\nplayers 2\ndeck d in stock {\n    suit: C, D\n    ordered rank: 2, 3, A\n}\n'
              'zone stock: shared hidden\nzone hand: per player owner\n'
              'define best(p: player) = max(hand[p])\ndefine worst(p: player) = min([c for c in hand[p]])\n'
              'phase main {\n    end game\n}\n')
    found = [d for d in check_text(tmp_path, script) if d.severity == "error"]
    assert [(d.code, d.message) for d in found] == [
        ("E0210", "`max` expects a list of numbers, found a zone"),
        ("E0210", "`min` expects a list of numbers, found a list of cards")]
    assert found[0].hint.startswith("to order cards, give a key: `max x in ... by x.rank`")
