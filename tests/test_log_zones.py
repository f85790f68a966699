"""A zone written by its name in a log text or a prompt prints its cards (issue 37, item 9), each
seat reading those it cannot see as ??; a zone held in a local prints which zone it is."""

from __future__ import annotations

from helpers import load_text

SCRIPT = '''game "Log zones"
players 2
deck d in stock {
    rank: 2, 3, 4
    suit: C, S
}
zone stock: shared hidden
zone hand: per player owner
zone played: per player public
phase only {
    deal 2 from stock to hand of players
    move top(hand[seat(0)]) to played[seat(0)] face up
    log "P0 played {played[seat(0)]}, holds {hand[seat(0)]}; the stock is {stock}"
    decide seat(1) "Beat {played[seat(0)]}" {
        to(z from [stock, played[seat(1)]]) {
            log "into {z}"
        }
    }
    end game
}
'''


def test_a_zone_by_its_name_prints_its_cards_as_each_seat_knows_them(tmp_path):
    state = load_text(tmp_path, SCRIPT).new_game(seed=1, record=True)
    assert state.view(1)["prompt"] == "Beat [3S]"
    state.apply("to played[P1]")
    logs = {v: [e.text for e in state.observed_events(v) if e.kind == "log"] for v in ("all", 0, 1)}
    assert logs["all"] == ["P0 played [3S], holds [4S]; the stock is [2C, 2S]", "into played[P1]"]
    assert logs[0] == ["P0 played [3S], holds [4S]; the stock is [??, ??]", "into played[P1]"]
    assert logs[1] == ["P0 played [3S], holds [??]; the stock is [??, ??]", "into played[P1]"]
