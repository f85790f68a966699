"""Old scripts keep working (docs/language.md §21, "Old scripts keep working").

tests/compat/ holds every shipped game, test script and complete docs example as they were at
several earlier landings (tests/compat/collect.py takes them from git history; MANIFEST lists
them).  Each must check without an error now and play one game between random players to its
end, and a script that names its own `runs`, `groups`, `sorted`, `team`, `members`, `partner` or
`place` is warned once at each of those declarations and plays with its own meaning.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import play_out, value_of

from cardgame import interpreter

COMPAT = Path(__file__).parent / "compat"
SCRIPTS = [line for line in (COMPAT / "MANIFEST").read_text().splitlines() if line and not line.startswith("#")]
MAX_DECISIONS = 3000


def test_the_corpus_is_several_landings_of_every_script():
    landings = {s.split("/")[0] for s in SCRIPTS}
    assert len(landings) >= 3 and len(SCRIPTS) >= 120
    for landing in landings:  # the games, the test scripts and the docs' examples of each
        assert {s.split("/")[1] for s in SCRIPTS if s.startswith(landing + "/")} >= {"games", "tests", "docs"}


@pytest.mark.parametrize("script", SCRIPTS)
def test_an_old_script_checks_and_plays(script):
    path = COMPAT / script
    _tables, _items, sources, diags = interpreter.check_file(str(path))
    errors = [d for d in diags if d.severity == "error"]
    assert not errors, "\n\n".join(interpreter.render(d, sources) for d in errors)
    game = interpreter.load(str(path))
    state = play_out(game.new_game(players=game.min_players, seed=0), interpreter.RandomAgent(1), MAX_DECISIONS)
    assert state.fault is None, state.fault
    assert state.is_over or state.decisions == MAX_DECISIONS


OWN_WORDS = '''game "Own words"
players 4
deck standard in stock {
    ordered rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A
    suit: C, D, H, S
    name: rank suit
}
zone stock: shared hidden
zone hand: per player owner
var sorted: int = 0
var groups: list of int = []
define team(p: player) = number(p) % 2
define members(t: int) = [q for q in players where team(q) == t]
define partner(p: player) = seat(number(p) + 2)
define place(c: card) = 100 + index([2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], c.rank)
define runs(h: list of card) = count(groups x in h by x.suit)
phase main {
    deal 5 from stock to hand of players
    set sorted = runs(cards(hand[seat(0)])) * 10 + count(members(team(seat(1))))
    set groups = [place(top(hand[partner(seat(0))])), count(sorted x in hand[seat(0)] by x.rank)]
    end game
}
'''


def test_a_script_naming_its_own_builtins_checks_plays_and_is_warned_once_each(tmp_path):
    path = tmp_path / "own.cardgame"
    path.write_text(OWN_WORDS)
    _tables, _items, _sources, diags = interpreter.check_file(str(path))
    warned = sorted((d.code, d.span.line) for d in diags)
    assert warned == [("W0411", line) for line in (10, 11, 12, 13, 14, 15, 16)]
    state = interpreter.load(str(path)).new_game(players=4, seed=3)
    assert state.is_over and state.fault is None
    # `runs` is the script's own (how many suits seat 0 holds), `members` its own (two seats a team)
    suits = int(value_of(state, "count(unique([c.suit for c in hand[seat(0)]]))"))
    assert value_of(state, "sorted") == str(suits * 10 + 2)
    # `place` is the script's own (100 + the rank's index); the form `sorted x in` still sorts
    rank = value_of(state, "index([2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], top(hand[seat(2)]).rank)")
    assert value_of(state, "groups") == f"[{100 + int(rank)}, 5]"
