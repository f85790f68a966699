"""Nested data: `list of list of T` in declarations (docs/language.md §8), set, passed,
shown and saved like any other value."""

from __future__ import annotations

from cardgame import interpreter

SCRIPT = '''game "Melds"
players 2
deck standard in stock {
    rank: 2, 3, 4
    suit: C, D
    name: rank suit
}
zone stock: shared public
var melds: list of list of card = []
define firsts(ms: list of list of card) = [first(m) for m in ms]
define sizes(ms: list of list of card) = [count(m) for m in ms]
phase main {
    set melds = melds + [top(stock, 2), [c for c in stock where c.rank == 3]]
    decide seat(0) {
        keep(m from melds) {
            set melds = [m]
        }
    }
    end game
}
'''


def game(tmp_path):
    path = tmp_path / "melds.cardgame"
    path.write_text(SCRIPT)
    return interpreter.load(str(path))


def test_a_list_of_lists_is_declared_set_passed_and_shown(tmp_path):
    s = game(tmp_path).new_game(seed=1)
    assert s.evaluate("melds") == ("[[4D, 4C], [3C, 3D]]", [])
    assert s.evaluate("firsts(melds)") == ("[4D, 3C]", [])
    assert s.evaluate("sizes(melds + [[]])") == ("[2, 2, 0]", [])
    assert [str(m) for m in s.legal_moves()] == ["keep [4D, 4C]", "keep [3C, 3D]"]


def test_a_list_of_lists_survives_save_and_restore(tmp_path):
    g = game(tmp_path)
    s = g.new_game(seed=1)
    again = g.restore(s.to_json())
    assert again.evaluate("melds") == ("[[4D, 4C], [3C, 3D]]", [])
    again.apply("keep [3C, 3D]")
    assert again.is_over and again.evaluate("melds") == ("[[3C, 3D]]", [])
