"""Chance draws (`random(LIST)`, `random(LOW, HIGH)`): seeded, traced, kept out of pure places (a
rule, `eval`, the text of a log line), and a drawn value logged plays the same watched or not."""

from __future__ import annotations

import collections
import json
from pathlib import Path

from cardgame import interpreter
from cardgame.repl.cli import main
from cardgame.repl.session import Session

from helpers import PATIENCE, session_of

SCRIPTS = Path(__file__).parent / "scripts"
DEALER = str(SCRIPTS / "random_dealer.cardgame")


def test_same_seed_same_game_and_every_seat_can_deal():
    game = interpreter.load(DEALER)
    first = game.new_game(seed=5)
    again = game.new_game(seed=5)
    assert json.dumps(first.to_json(), sort_keys=True) == json.dumps(again.to_json(), sort_keys=True)
    dealers = collections.Counter(game.new_game(seed=s).evaluate("dealer")[0] for s in range(300))
    assert set(dealers) == {"P0", "P1", "P2"} and min(dealers.values()) > 70


def test_draws_are_in_range_and_each_item_is_drawn_separately():
    game = interpreter.load(DEALER)
    seen = set()
    for seed in range(200):
        rolls = json.loads(game.new_game(seed=seed).evaluate("rolls")[0])
        assert len(rolls) == 3 and all(1 <= r <= 6 for r in rolls)
        seen.add(len(set(rolls)))
    assert 3 in seen  # the comprehension draws once per item, not once for all


def test_a_restored_game_draws_what_the_original_draws():
    game = interpreter.load(DEALER)
    state = game.new_game(seed=11)
    copy = game.restore(json.loads(json.dumps(state.to_json())))
    reroll = [m for m in state.legal_moves() if str(m) == "reroll"][0]
    state.apply(reroll)
    copy.apply([m for m in copy.legal_moves() if str(m) == "reroll"][0])
    assert state.evaluate("rolls") == copy.evaluate("rolls")


def test_chance_events_are_traced_with_their_span():
    events = []
    interpreter.load(DEALER).new_game(seed=3, tracer=events.append)
    draws = [e for e in events if e.kind == "chance"]
    assert [e.text for e in draws] == ["chance: drew P0", "chance: drew 5", "chance: drew 4", "chance: drew 1"]
    assert draws[0].span.line == 10


def test_play_shows_the_chance_events(capsys):
    assert main(["play", DEALER, "--seed", "3"]) == 0
    assert capsys.readouterr().out.splitlines()[1:6] == [
        "    chance: drew P0", "    P0 deals", "    chance: drew 5", "    chance: drew 4", "    chance: drew 1"]
    assert main(["play", DEALER, "--seed", "3", "--view", "P1", "--json"]) == 0
    assert '"log": ["chance: drew 10"]' in capsys.readouterr().out


def test_random_is_only_for_statements(tmp_path):
    def errors(body):
        path = tmp_path / "s.cardgame"
        path.write_text('game "G"\nplayers 2\nvar x: int = 0\n' + body + '\nphase main {\n    end game\n}\n')
        return [d.code for d in interpreter.check_file(str(path))[3] if d.severity == "error"]

    assert errors("define d = random(1, 6)") == ["E0218"]
    assert errors("rule r(p: player) require random([true, false])") == ["E0218"]
    assert errors("phase other {\n    decide seat(0) {\n        pick(n in 1..random(2, 3))\n    }\n    end game\n}") \
        == ["E0218"]
    assert errors("phase other {\n    decide seat(0) {\n        pick { set x = random(2, 3) }\n    }\n    end game\n}") \
        == []
    assert errors("phase other {\n    set x = random(players)\n    end game\n}") == ["E0210"]
    assert errors("phase other {\n    set x = random(1)\n    end game\n}") == ["E0210"]


def test_a_draw_in_eval_is_refused_in_the_words_of_eval(tmp_path):
    # the label said "not in a rule, definition, score or the listing of a decision's moves"
    s = session_of(tmp_path, PATIENCE, "patience.cardgame")
    out = s.execute("eval random(1, 6)")
    assert "error[E0218]" in out
    assert "not in an expression asked of the game (`eval`, `watch`, `break when`)" in out
    assert "not in a rule" not in out


def test_bad_draws_fault_with_the_language_words(tmp_path):
    path = tmp_path / "s.cardgame"
    path.write_text('game "G"\nplayers 2\nvar x: int = 0\nphase main {\n    set x = random(3, 1)\n    end game\n}\n')
    state = interpreter.load(str(path)).new_game(seed=1)
    assert state.fault.message == "`random(LOW, HIGH)` needs LOW <= HIGH" and state.fault.span.line == 5
    path.write_text('game "G"\nplayers 2\nvar x: int = 0\nphase main {\n    set x = random([])\n    end game\n}\n')
    state = interpreter.load(str(path)).new_game(seed=1)
    assert state.fault.message == "`random` of an empty list: there is nothing to draw"


def test_a_person_sees_the_draw_in_the_repl_trace():
    s = Session()
    assert s.start(DEALER, seed=3).startswith("loaded Random dealer")
    assert s.execute("trace on") == "trace on"
    out = s.execute("play reroll")
    assert out.splitlines()[0] == "1. P0: reroll"
    assert out.splitlines()[1] == f"    chance: drew 2  [{DEALER}:16]"
    assert "E0218" in s.execute("eval random(1, 6)")


ROLL_LOG = """game "Roll log"
players 2

var total: int = 0

phase main {
    log "you rolled {DRAW}"
    set total = random(1, 1000000)
    decide seat(0) "Keep?" {
        keep
    }
    end game
}

score p: total
winners: highest score
"""


def test_a_draw_in_a_log_line_is_e0218_and_a_drawn_value_logged_plays_the_same_watched_or_not(tmp_path):
    """The `{random(1, 6)}` of a log line drew only when a tracer listened: seed 5 gave 752308
    under `cardgame play` and 386769 unwatched (simulate, the API)."""
    script = tmp_path / "roll.cardgame"
    script.write_text(ROLL_LOG.replace("DRAW", "random(1, 6)"))
    _tables, _items, _sources, diags = interpreter.check_file(str(script))
    assert [d.code for d in diags] == ["E0218"]
    script.write_text(ROLL_LOG.replace("DRAW", "total").replace("    log", "    set total = random(1, 6)\n    log"))
    game = interpreter.load(str(script))
    heard = []
    watched = game.new_game(players=2, seed=5, tracer=heard.append)
    unwatched = game.new_game(players=2, seed=5)
    assert heard and watched.to_json() == unwatched.to_json()
