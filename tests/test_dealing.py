"""`deal N from PILE to ...`: a count computed below zero (or none) faults at the deal, in the API,
the playouts and traced code alike; a count of zero deals nothing; a deal its pile cannot feed
says how many cards it needed."""

from __future__ import annotations

import pytest

from cardgame import interpreter
from cardgame.interpreter.studies.agents import RandomAgent
from cardgame.interpreter.studies.simulate import play_one

from helpers import SCRIPTS


_DEAL = '''game "Deal"
players 2
deck d in stock {{
    ordered rank: 1, 2, 3, 4, 5, 6
    suit: C, D, H
}}
zone stock: shared hidden
zone hand: per player owner
var n: int = 1
phase main {{
    deal 1 from stock to hand of players
    decide seat(0) "Deal?" {{
        more {{
            deal {count} from stock to hand of players
        }}
        stop
    }}
    end game
}}
'''


@pytest.mark.parametrize("count, found", [("0 - n", "-1"), ("n - 3", "-2"), ("index([1, 2], 7)", "none")])
def test_a_computed_count_below_zero_or_none_faults_the_deal(count, found, tmp_path):
    """`deal` with a computed negative count (or none) is a run-time fault pointing at the deal,
    in the API, the playouts and traced code alike (a constant one is E0325)."""
    from test_codegen import _load

    path = tmp_path / "deal.cardgame"
    path.write_text(_DEAL.format(count=count))
    game = interpreter.load(str(path))
    state = game.new_game(seed=1)
    with pytest.raises(interpreter.GameFault):
        state.apply("more")
    fault = state.fault
    assert (fault.code, fault.message) == ("R0001", f"`deal` needs a count of 0 or more cards, found {found}")
    assert (fault.span.line, fault.span.column) == (14, 13)
    traced = _load(path, traced=True).new_game(seed=1)
    with pytest.raises(interpreter.GameFault):
        traced.apply("more")
    assert (traced.fault, traced.to_json()) == (fault, state.to_json())
    for seed in range(6):
        api = game.new_game(seed=seed)
        agent = RandomAgent.for_game(seed)
        while not api.is_over and api.fault is None:
            try:
                api.apply(agent.choose(api.legal_moves()))
            except interpreter.GameFault:
                pass
        played, _finished = play_one(game, 2, seed, {})
        assert (played.fault, played.decisions, played.game_work, played.to_json()) == \
            (api.fault, api.decisions, api.game_work, api.to_json())


def test_a_deal_of_zero_cards_deals_nothing(tmp_path):
    path = tmp_path / "deal.cardgame"
    path.write_text(_DEAL.format(count="n - 1"))
    state = interpreter.load(str(path)).new_game(seed=1)
    state.apply("more")
    assert state.is_over and state.fault is None
    assert {p: len(h) for p, h in state.view("all")["zones"]["hand"].items()} == {"P0": 1, "P1": 1}


def test_a_deal_its_pile_cannot_feed_says_how_many_cards_it_needed(tmp_path):
    # 13 cards to each of four players from pinochle's 48 said only "`deal` ran out of cards".
    text = (SCRIPTS / "pinochle.cardgame").read_text().replace("deal 12 from stock", "deal 13 from stock")
    path = tmp_path / "pinochle13.cardgame"
    path.write_text(text)
    state = interpreter.load(str(path)).new_game(seed=1)
    assert state.fault.message == "`deal` ran out of cards in `stock`: 13 cards to each of 4 players is 52, " \
        "and it held 48"
