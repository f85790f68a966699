"""Teams: partnerships declared by seat or computed at set-up, values per team, scores and
winners by team, what partners see of each other, and per-team statistics in `simulate`."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import example, given, strategies as st

from cardgame import interpreter
from helpers import ROOT, check_text, play_out
from cardgame.repl.cli import main
from test_knowledge import check_seat, played  # the knowledge model's property, reused with teams

PARTNERSHIP = str(ROOT / "tests" / "scripts" / "partnership.cardgame")


@pytest.fixture(scope="module")
def partnership():
    return interpreter.load(PARTNERSHIP)


def _script(tmp_path, text: str, name: str = "teams.cardgame") -> interpreter.Game:
    path = tmp_path / name
    path.write_text(text)
    return interpreter.load(str(path))


def _value(state, text: str, viewer="all"):
    value, diags = state.evaluate(text, viewer=viewer)
    assert value is not None, [d.message for d in diags]
    return value


def test_fixed_teams_give_each_seat_its_team_partner_and_members(partnership):
    s = partnership.new_game(players=4, seed=1)
    assert s.teams.of == (0, 1, 0, 1) and s.teams.members == ((0, 2), (1, 3))
    assert [_value(s, f"team(P{seat})") for seat in range(4)] == ["T0", "T1", "T0", "T1"]
    assert _value(s, "teams") == "[T0, T1]" and _value(s, "team_count") == "2"
    assert _value(s, "members(team(P1))") == "[P1, P3]"
    assert _value(s, "partners(P2)") == "[P0]" and _value(s, "partner(P3)") == "P1"
    assert _value(s, "[number(t) for t in teams]") == "[0, 1]"
    assert _value(s, "team(P0) == team(P2)") == "true" and _value(s, "team(P0) == team(P1)") == "false"


COMPUTED = """
game "Computed"
players 4..6
option size: int in 2..4 = 2 "Players per team."
teams p: number(p) / size
var bags: int per team = 0
phase only {
    for t in teams {
        set bags[t] = count(members(t))
    }
    end game
}
score t: bags[t]
"""


@pytest.mark.parametrize("players, size, members", [
    (4, 2, ((0, 1), (2, 3))),
    (5, 2, ((0, 1), (2, 3), (4,))),
    (6, 3, ((0, 1, 2), (3, 4, 5))),
    (6, 2, ((0, 1), (2, 3), (4, 5))),
])
def test_computed_teams_follow_the_player_count_and_options(tmp_path, players, size, members):
    game = _script(tmp_path, COMPUTED)
    s = game.new_game(players=players, options={"size": size})
    assert s.teams.members == members
    assert s.team_scores == [len(m) for m in members]
    assert s.scores == [len(members[s.teams.of[seat]]) for seat in range(players)]
    # partners go clockwise from the seat: the next partner first
    assert [s.teams.partners(seat) for seat in members[0]][0] == members[0][1:]


def test_computed_teams_that_do_not_work_out_are_refused_at_set_up(tmp_path):
    game = _script(tmp_path, COMPUTED)
    with pytest.raises(interpreter.ScriptError) as err:
        game.new_game(players=4, options={"size": 4})
    d = err.value.diagnostics[0]
    assert d.code == "E0708" and d.span.line == 5
    assert d.message == ("the teams do not work out for 4 players with size=4: every seat is in one team; "
                         "a game with teams needs at least two")
    # a layout of the seat alone is the same in every game of a player count: `check` judges it (E0347)
    for layout, message in (("if number(p) == 0 then 2 else 0",
                             "no seat is in team 1, though seats are in team 2; number the teams 0, 1, ... without gaps"),
                            ("number(p) * 1000000000000",
                             "seat 1 gets team number 1000000000000, but there are only 4 seats to fill teams 0, 1, ... "
                             "without gaps"),
                            ("0 - number(p)", "seat 1 gets team number -1; a team number is a whole number from 0 up")):
        with pytest.raises(interpreter.ScriptError) as err:
            _script(tmp_path, COMPUTED.replace("number(p) / size", layout), "seat_only.cardgame")
        d = err.value.diagnostics[0]
        assert d.code == "E0347" and d.message.endswith(message), layout


def test_teams_computed_from_the_seat_are_judged_by_check_for_every_player_count(tmp_path):
    # `teams p: number(p) - 1` passed `check` and failed only at new_game (E0708)
    head = 'game "T"\nplayers 2..4\n'
    tail = '\nphase only {\n    end game\n}\n'
    found = check_text(tmp_path, head + "teams p: number(p) - 1" + tail)
    assert [(d.code, d.message) for d in found] == [
        ("E0347", "the teams do not work out for 2 players: seat 0 gets team number -1; "
                  "a team number is a whole number from 0 up")]
    assert found[0].label == "gives seat 0: -1, seat 1: 0"
    # 2 and 3 players make teams 0, 1 (0): fine; only the count that leaves a gap is named
    found = check_text(tmp_path, head + "teams p: if number(p) == 3 then 3 else number(p) % 2" + tail)
    assert [d.message for d in found] == ["the teams do not work out for 4 players: no seat is in team 2, "
                                          "though seats are in team 3; number the teams 0, 1, ... without gaps"]
    for fine in ("number(p) % 2", "if number(p) % 2 == 0 then 0 else 1", "(number(p) + player_count) % 2"):
        assert not [d for d in check_text(tmp_path, head + f"teams p: {fine}" + tail) if d.severity == "error"], fine
    # what reads an option is left to new_game, which knows the options (E0708)
    with_option = head + 'option size: int in 1..4 = 2 "Team size."\nteams p: number(p) / size' + tail
    assert not [d for d in check_text(tmp_path, with_option) if d.severity == "error"]


def test_per_team_values_show_by_team_and_survive_save_and_restore(partnership):
    s = partnership.new_game(players=4, seed=3)
    data = json.loads(json.dumps(s.to_json()))
    slot = partnership.program.var_slots["points"]
    assert data["vars"][slot] == [0, 0]
    data["vars"][slot] = [40, -20]
    r = partnership.restore(data)
    assert r.teams == s.teams and r.team_scores == [40, -20] and r.scores == [40, -20, 40, -20]
    view = r.view("all")
    assert view["vars"]["points"] == {"T0": 40, "T1": -20}
    assert view["teams"] == {"T0": ["P0", "P2"], "T1": ["P1", "P3"]} and view["team_scores"] == [40, -20]
    bad = dict(data, vars=list(data["vars"]))
    bad["vars"][slot] = [1, 2, 3]
    with pytest.raises(interpreter.ScriptError) as err:
        partnership.restore(bad)
    assert f"vars[{slot}]` has 3 entries where this game has 2" in err.value.diagnostics[0].message


def test_a_finished_team_game_scores_and_wins_by_team(partnership):
    s = play_out(partnership.new_game(players=4, seed=5), interpreter.RandomAgent(5), 10_000)
    assert s.is_over and s.fault is None
    ts = s.team_scores
    assert s.scores == [ts[0], ts[1], ts[0], ts[1]]
    best = max(ts)
    assert s.winning_teams == [t for t in (0, 1) if ts[t] == best]
    assert s.winners == sorted(seat for t in s.winning_teams for seat in s.teams.members[t])
    assert s.view("all")["winning_teams"] == [f"T{t}" for t in s.winning_teams]


@given(seed=st.integers(0, 10_000), moves=st.integers(0, 200))
def test_team_scores_are_each_members_score_and_winners_are_whole_teams(seed, moves):
    game = interpreter.load(PARTNERSHIP)
    s = play_out(game.new_game(players=4, seed=seed), interpreter.RandomAgent(seed), moves)
    ts = s.team_scores
    assert all(s.scores[seat] == ts[s.teams.of[seat]] for seat in range(4))
    if s.is_over:
        assert set(s.winners) == {seat for t in s.winning_teams for seat in s.teams.members[t]}
        assert all(ts[t] == max(ts) for t in s.winning_teams)
    else:
        assert s.winners == [] and s.winning_teams == []


def test_a_partner_does_not_see_the_others_hand_unless_the_script_says_so(partnership):
    closed = partnership.new_game(players=4, seed=2)
    hand = closed.view(0)["zones"]["hand"]
    assert set(hand["P2"]) == {"??"} and set(hand["P1"]) == {"??"} and "??" not in hand["P0"]
    value, diags = closed.evaluate("[x.rank for x in hand[P2]]", viewer=0)
    assert value is None and diags[0].code == "E0710"
    open_ = partnership.new_game(players=4, seed=2, options={"table_talk": True})
    hand = open_.view(0)["zones"]["hand"]
    assert "??" not in hand["P2"] and set(hand["P1"]) == {"??"} and set(hand["P3"]) == {"??"}
    assert open_.view(2)["zones"]["hand"]["P0"] == open_.view("all")["zones"]["hand"]["P0"]
    assert _value(open_, "count x in hand[P2] where x.suit == S", viewer=0) == \
        _value(open_, "count x in hand[P2] where x.suit == S")
    value, diags = open_.evaluate("[x.rank for x in hand[P3]]", viewer=0)
    assert value is None and diags[0].code == "E0710"


def _to_score_hand(state):
    """Play the bids (the team plans are set once everyone has bid)."""
    agent = interpreter.RandomAgent(7)
    while state.phase == "deal_hands":
        state.apply(agent.choose(state.legal_moves()))
    return state


def test_a_private_per_team_value_is_known_to_the_teams_members_only(partnership):
    s = _to_score_hand(partnership.new_game(players=4, seed=4))
    plans = s.view("all")["vars"]["plan"]
    assert s.view(0)["vars"]["plan"] == {"T0": plans["T0"]} == s.view(2)["vars"]["plan"]
    assert s.view(1)["vars"]["plan"] == {"T1": plans["T1"]} and s.view(None)["vars"]["plan"] == {}
    assert _value(s, "plan[team(P0)]", viewer=2) == str(plans["T0"])
    assert _value(s, "plan[team(P1)]", viewer=0) == "??"
    value, diags = s.evaluate("plan[team(P1)] + 1", viewer=0)
    assert value is None and diags[0].message.endswith("reads `plan[T1]`, which P0 cannot see")
    sets = {v: [e.text for e in s.observed_events(v) if e.text.startswith("set plan")] for v in (0, 1, 2, 3, None)}
    assert sets[0] == sets[2] == [f"set plan[T0] = {plans['T0']}"]
    assert sets[1] == sets[3] == [f"set plan[T1] = {plans['T1']}"]
    assert sets[None] == []


PRIVATE = """
game "Secret plans"
players 3
var plan: int per player private = 0
var pot: int private = 0
phase only {
    for p in players {
        set plan[p] = number(p) + 10
    }
    set pot = 5
    decide seat(0) "Go" {
        go
    }
    end game
}
"""


def test_a_private_per_player_value_set_shows_in_its_own_seats_log(tmp_path):
    s = _script(tmp_path, PRIVATE).new_game(players=3)
    for seat in range(3):
        sets = [e.text for e in s.observed_events(seat) if e.kind == "set"]
        assert sets == [f"set plan[P{seat}] = {seat + 10}"]
    assert [e.text for e in s.observed_events("all") if e.kind == "set"] == \
        ["set plan[P0] = 10", "set plan[P1] = 11", "set plan[P2] = 12", "set pot = 5"]
    assert [e for e in s.observed_events(None) if e.kind == "set"] == []


def test_simulate_json_reports_team_win_rates_that_add_up_with_draws(capsys):
    assert main(["simulate", PARTNERSHIP, "-n", "40", "--seed", "3", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["teams"] == {"T0": ["P0", "P2"], "T1": ["P1", "P3"]}
    assert stats["outcomes"]["won"] + stats["outcomes"]["drawn"] == 40 and stats["unfinished"] == 0
    rates = [r["value"] for r in stats["win_rate_by_team"]]
    assert sum(stats["wins_by_team"]) == stats["outcomes"]["won"]
    assert sum(rates) + stats["p_draw"]["value"] == pytest.approx(1.0)
    # a seat wins with its team: partners have the same record
    assert stats["wins_by_seat"] == [stats["wins_by_team"][t] for t in (0, 1, 0, 1)]
    documented = (ROOT / "docs" / "simulate.md").read_text()
    assert all(f"`{key}`" in documented for key in
               ("teams", "wins_by_team", "win_rate_by_team", "draw_share_by_team", "mean_score_by_team"))


def test_simulate_text_shows_each_team(capsys):
    assert main(["simulate", PARTNERSHIP, "-n", "5", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "T0     P0, P2" in out and "T1     P1, P3" in out


def test_cardgame_play_gives_the_result_by_team(capsys):
    assert main(["play", PARTNERSHIP, "--seed", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2].startswith("final scores: T0 (P0, P2) ") and ", T1 (P1, P3) " in out[-2]
    assert out[-1] in ("winners: T0 (P0, P2)", "winners: T1 (P1, P3)", "winners: T0 (P0, P2), T1 (P1, P3)")
    assert main(["play", PARTNERSHIP, "--seed", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out.splitlines()[-1])["result"]
    assert result["teams"] == {"T0": ["P0", "P2"], "T1": ["P1", "P3"]}
    ts = result["team_scores"]
    assert result["scores"] == [ts[0], ts[1], ts[0], ts[1]]
    assert result["winners"] == [p for t in result["winning_teams"] for p in result["teams"][t]]


def test_the_repl_shows_scores_and_winners_by_team():
    from cardgame.repl.session import Session
    s = Session()
    assert s.start(PARTNERSHIP, seed=3).startswith("loaded Partnership tricks")
    table = s.execute("state")
    assert "scores T0 (P0, P2) 0, T1 (P1, P3) 0" in table
    assert "points  T0 0 · T1 0" in table
    s.execute("auto end")
    final = s.state
    status = s.execute("state")
    names = {0: "T0 (P0, P2)", 1: "T1 (P1, P3)"}
    assert f"winners {', '.join(names[t] for t in final.winning_teams)}" in status
    assert s.execute("eval team(P2)") == "T0"


def test_teams_are_named_t0_t1_in_an_evaluation(partnership):
    s = partnership.new_game(players=4, seed=1)
    assert _value(s, "members(T1)") == "[P1, P3]" and _value(s, "team(P2) == T0") == "true"
    assert _value(s, "points[T1] + 5") == "5"


@given(seed=st.integers(0, 2**16), steps=st.integers(0, 120), rng_seed=st.integers(0, 2**16))
@example(seed=0, steps=53, rng_seed=0)  # P2's last card is the one card P1 never saw: known by elimination
def test_with_open_partner_hands_determinizations_keep_what_the_team_sees(seed, steps, rng_seed):
    """The knowledge property of tests/test_knowledge.py with partners' hands shared: every
    seat's view, log and determinizations agree with the rules (its own and its partner's hand
    known, the opponents' not)."""
    game = interpreter.load(PARTNERSHIP)
    state, seen = played(game, seed, steps, options={"table_talk": True})
    for seat in range(4):
        d = state.determinize(seat, rng_seed)
        hands = d.view("all")["zones"]["hand"]
        real = state.view("all")["zones"]["hand"]
        for partner in (seat, state.teams.partners(seat)[0]):
            assert hands[f"P{partner}"] == real[f"P{partner}"]
        check_seat(state, seen, seat, random.Random(rng_seed))
