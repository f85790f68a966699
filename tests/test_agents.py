"""Agents (issue 36): they act through the seat's own window and cannot cheat, their specs are
read with clear errors, simulate with agents is reproducible from its seed, and search beats
random play.  Every game here is bounded (a nine-card script, or a few decisions of a shipped
game) and every search small: the figures in docs/simulate.md come from longer runs."""

from __future__ import annotations

import random
import textwrap

import pytest
from helpers import GAMES, SCRIPTS

from cardgame import interpreter
from cardgame.interpreter.studies.players import Seated, agent_seed

TINY = str(SCRIPTS / "tiny_tricks.cardgame")


@pytest.fixture(scope="module")
def tiny():
    return interpreter.load(TINY)


# Seeds whose deals differ only by one card of P1 and one of P2 exchanged (P0's hand the same):
# found once by dealing 1,500 games (see _exchanged, which the test checks them with).
TWINS = [(135, 264), (43, 393), (288, 426), (438, 529), (303, 622), (594, 674), (189, 730), (743, 754)]


def _exchanged(game, a: int, b: int) -> bool:
    hands = [game.new_game(seed=s).view("all")["zones"]["hand"] for s in (a, b)]
    one, two = hands
    if one["P0"] != two["P0"]:
        return False
    moved = [(p, c) for p in ("P1", "P2") for c in one[p] if c not in two[p]]
    return len(moved) == 2 and moved[0][0] != moved[1][0]


AGENTS = ["ismcts:iterations=40:worlds=8", "greedy:worlds=3", "random", "random:policy=alternative-first"]


@pytest.mark.parametrize("spec", AGENTS)
def test_an_agent_chooses_alike_when_hidden_cards_are_exchanged(tiny, spec):
    """The anti-cheating test: two deals P0 cannot tell apart (other seats' cards exchanged),
    the same agent seed: the same analysis and the same choices at every decision of P0 while
    it still cannot tell the games apart (the other seats play moves legal in both)."""
    parsed = interpreter.parse_agent(spec)
    compared = 0
    for a, b in TWINS:
        assert _exchanged(tiny, a, b)
        games = [tiny.new_game(seed=a, record=True), tiny.new_game(seed=b, record=True)]
        other_moves = random.Random(a)
        while not games[0].is_over:
            assert games[0].information_state(0) == games[1].information_state(0)
            if games[0].current_player == 0:
                picks = []
                for g in games:
                    agent = interpreter.make_agent(parsed, 11)
                    if hasattr(agent, "analyse"):
                        picks.append(agent.analyse(g.seat(0)))
                    else:
                        move = agent.act(g.seat(0))
                        picks.append((move.text, move.index))
                assert picks[0] == picks[1]
                compared += 1
                move = interpreter.make_agent(parsed, 11).act(games[0].seat(0))
                index = move if type(move) is int else move.index
                for g in games:
                    g.seat(0).apply(index)
                continue
            both = sorted({m.text for m in games[0].legal_moves()} & {m.text for m in games[1].legal_moves()})
            if not both:
                break
            text = other_moves.choice(both)
            for g in games:
                g.apply(text)
            if games[0].information_state(0) != games[1].information_state(0):
                break  # P0 can tell them apart now (a trick won differently): nothing more to compare
    assert compared >= 8


def test_the_search_differs_when_what_the_seat_knows_differs(tiny):
    """The other half of the test above: the analysis does depend on the seat's own cards."""
    a = tiny.new_game(seed=TWINS[0][0], record=True)
    other = next(s for s in range(50) if tiny.new_game(seed=s).information_state(0) != a.information_state(0))
    b = tiny.new_game(seed=other, record=True)
    spec = interpreter.parse_agent("ismcts:iterations=40:worlds=8")
    first = interpreter.make_agent(spec, 11).analyse(a.seat(0))
    second = interpreter.make_agent(spec, 11).analyse(b.seat(0))
    assert [c.text for c in first] != [c.text for c in second]


def test_ismcts_analysis_lists_every_move_with_its_visits(tiny):
    state = tiny.new_game(seed=3, record=True)
    choices = interpreter.IsmctsPlayer(5, iterations=30, worlds=5).analyse(state.seat(0))
    assert sorted(c.text for c in choices) == sorted(state.move_texts(0))
    assert sum(c.visits for c in choices) == 30
    assert choices == sorted(choices, key=lambda c: (-c.visits, -c.value, c.index))
    assert all(0.0 <= c.value <= 1.0 for c in choices)


def test_one_legal_move_is_played_without_a_search(tiny):
    state = tiny.new_game(seed=3, record=True)
    while len(state.legal_moves()) != 1:
        state.apply(state.legal_moves()[0])
    seat = state.seat(state.current_player)
    assert interpreter.IsmctsPlayer(5).analyse(seat) == [interpreter.Choice(0, seat.move_texts()[0], 0, 0.0)]


def _wins(stats, seat):
    return stats["wins_by_seat"][seat]


def test_simulate_with_agents_is_reproducible_and_plain_random_is_the_random_run(tiny):
    agents = ["ismcts:iterations=20:worlds=4", "random", "greedy:worlds=2"]
    one = interpreter.simulate(tiny, 12, 3, 5, {}, agents=agents)
    two = interpreter.simulate(tiny, 12, 3, 5, {}, agents=agents, workers=2)
    strip = interpreter.TIMING_FIELDS
    assert {k: v for k, v in one.items() if k not in strip} == {k: v for k, v in two.items() if k not in strip}
    assert one["agents"] == agents and one["backend"] == "python"
    plain = interpreter.simulate(tiny, 30, 3, 5, {})
    as_agents = interpreter.simulate(tiny, 30, 3, 5, {}, agents=["random"] * 3)
    assert as_agents["win_rate_by_seat"] == plain["win_rate_by_seat"]
    assert as_agents["mean_score_by_seat"] == plain["mean_score_by_seat"]


def test_an_agent_seed_is_its_own_stream():
    assert len({agent_seed(5, seat) for seat in range(4)}) == 4
    assert agent_seed(5, 0) != agent_seed(6, 0)


def test_ismcts_beats_random_players_on_the_tiny_script(tiny):
    """A bounded run (60 games of 9 decisions): ISMCTS at P0 wins clearly more than random at P0."""
    base = interpreter.simulate(tiny, 60, 3, 1, {})
    searched = interpreter.simulate(tiny, 60, 3, 1, {}, agents=["ismcts:iterations=60:worlds=10", "random", "random"])
    assert searched["mean_score_by_seat"][0]["mean"] > base["mean_score_by_seat"][0]["mean"] + 0.3
    assert _wins(searched, 0) > _wins(base, 0) + 8


def test_more_iterations_beat_fewer_head_to_head(tiny):
    """10x the iterations against 1x, each in both first seats: the stronger takes more tricks."""
    strong, weak = "ismcts:iterations=100:worlds=10", "ismcts:iterations=10:worlds=10"
    first = interpreter.simulate(tiny, 40, 3, 2, {}, agents=[strong, weak, "random"])
    second = interpreter.simulate(tiny, 40, 3, 2, {}, agents=[weak, strong, "random"])
    strong_mean = first["mean_score_by_seat"][0]["mean"] + second["mean_score_by_seat"][1]["mean"]
    weak_mean = first["mean_score_by_seat"][1]["mean"] + second["mean_score_by_seat"][0]["mean"]
    assert strong_mean > weak_mean


def test_ismcts_plays_a_shipped_game_through_the_seat(tmp_path):
    """A few decisions of Bouncer: the agent's move is one of the seat's own."""
    game = interpreter.load(str(GAMES / "bouncer.cardgame"))
    state = game.new_game(players=3, seed=4, record=True)
    seated = Seated(interpreter.parse_agents(["ismcts:iterations=10:worlds=2:horizon=12,random,greedy:worlds=1"], 3),
                    4, interpreter.RandomAgent.for_game(4))
    for _ in range(6):
        legal = state.legal_moves()
        move = seated.choose(state, legal)
        assert move.text in {m.text for m in legal}
        state.apply(move.text)


BAD_SPECS = [
    ("ismcts:iters=3,random,random", "agent `ismcts` takes no parameter `iters`"),
    ("wizard,random,random", "unknown agent `wizard`"),
    ("random,random", "2 agents for 3 seats"),
    ("ismcts:iterations=0,random,random", "`ismcts:iterations=0`: iterations must be 1 or more"),
    ("ismcts:iterations=ten,random,random", "`iterations=ten` is not a whole number"),
    ("ismcts:400,random,random", "`400` in `ismcts:400` is not NAME=VALUE"),
    ("random:policy=sideways,random,random", "`random:policy=sideways`: policy must be one of uniform, "
                                            "alternative-first, not 'sideways'"),
    ("nowhere.py:Bot,random,random", "cannot read the agent file `nowhere.py`: no such file"),
]


@pytest.mark.parametrize("spec,message", BAD_SPECS, ids=[s for s, _m in BAD_SPECS])
def test_a_bad_agent_spec_is_refused_clearly(spec, message):
    with pytest.raises(interpreter.ScriptError) as err:
        interpreter.parse_agents([spec], 3)
    assert err.value.diagnostics[0].code == "E0720"
    assert err.value.diagnostics[0].message == message


def test_a_users_agent_class_plays_by_the_documented_protocol(tmp_path, tiny):
    path = tmp_path / "mine.py"
    path.write_text(textwrap.dedent("""
        class Last:
            def __init__(self, seed, bias=0):
                self.bias = bias
            def act(self, seat):
                return seat.legal_moves()[-1 - self.bias]
        class NotAnAgent:
            pass
    """))
    stats = interpreter.simulate(tiny, 5, 3, 0, {}, agents=[f"{path}:Last:bias=0", "random", "random"])
    assert stats["outcomes"]["won"] + stats["outcomes"]["drawn"] == 5
    state = tiny.new_game(seed=2, record=True)
    agents = interpreter.parse_agents([], 3, [f"P0={path}:Last"])
    assert [a.text for a in agents] == [f"{path}:Last", "random", "random"]
    move = Seated(agents, 2, interpreter.RandomAgent.for_game(2)).choose(state, state.legal_moves())
    assert move.text == state.move_texts(0)[-1]
    for spec, message in [(f"{path}:NotAnAgent", "is not an agent class"), (f"{path}:Gone", "has no agent class"),
                          (f"{path}", "names a file but no class")]:
        with pytest.raises(interpreter.ScriptError) as err:
            interpreter.parse_agent(spec)
        assert message in err.value.diagnostics[0].message


def test_a_users_agent_that_fails_is_reported_without_a_traceback(tmp_path, tiny):
    path = tmp_path / "broken.py"
    path.write_text("class Bad:\n    def __init__(self, seed):\n        pass\n    def act(self, seat):\n"
                    "        return 99\n")
    with pytest.raises(interpreter.ScriptError) as err:
        interpreter.simulate(tiny, 2, 3, 0, {}, agents=[f"{path}:Bad", "random", "random"])
    assert err.value.diagnostics[0].code == "E0721"
    assert "chose 99, not one of its moves" in err.value.diagnostics[0].message
