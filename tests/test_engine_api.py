"""The engine API contract: determinism, save/restore, illegal moves, clones, faults."""

import json

import pytest

from cardgame import interpreter
from helpers import card_count, load_game, play_out
from cardgame.interpreter.studies.agents import RandomAgent

GAME = load_game("bouncer.cardgame")


def random_walk(state, steps, seed=1):
    agent = RandomAgent(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(agent.choose(state.legal_moves()))
    return state


def test_same_seed_and_moves_give_the_same_game():
    a = random_walk(GAME.new_game(seed=42), 200)
    b = random_walk(GAME.new_game(seed=42), 200)
    assert json.dumps(a.to_json()) == json.dumps(b.to_json())
    c = random_walk(GAME.new_game(seed=43), 200)
    assert a.to_json() != c.to_json()


def test_saved_mid_game_restored_and_continued_equals_uninterrupted():
    whole = GAME.new_game(seed=9)
    agent = RandomAgent(5)
    picks = []
    while not whole.is_over:
        move = agent.choose(whole.legal_moves())
        picks.append(str(move))
        whole.apply(move)
    part = GAME.new_game(seed=9)
    for text in picks[:100]:
        part.apply(text)
    saved = json.loads(json.dumps(part.to_json()))
    resumed = GAME.restore(saved)
    assert resumed.to_json() == part.to_json()
    for text in picks[100:]:
        resumed.apply(text)
    assert resumed.to_json() == whole.to_json()
    assert resumed.scores == whole.scores and resumed.winners == whole.winners


def test_replay_from_seed_and_history_is_exact():
    played = random_walk(GAME.new_game(seed=4), 150)
    replay = GAME.new_game(seed=4)
    for text in played.history:
        replay.apply(text)
    assert replay.to_json() == played.to_json()


def test_illegal_move_leaves_the_state_unchanged():
    state = random_walk(GAME.new_game(seed=2), 1)  # P1 must now follow P0's lead if able
    before = json.dumps(state.to_json())
    illegal = [m for m in state.candidate_moves() if str(m) not in {str(x) for x in state.legal_moves()}]
    for move in illegal + ["play ZZ", "fold", "", "play"]:
        with pytest.raises(interpreter.IllegalMove) as err:
            state.apply(move)
        assert not err.value.explanation.legal
        assert json.dumps(state.to_json()) == before


def test_parse_move_round_trips_every_legal_move():
    state = GAME.new_game(seed=3)
    for move in state.legal_moves():
        assert state.parse_move(str(move)) == move
    assert len({str(m) for m in state.legal_moves()}) == len(state.legal_moves())


def test_clone_is_independent():
    state = GAME.new_game(seed=3)
    copy = state.clone()
    copy.apply(copy.legal_moves()[0])
    assert state.history == [] and len(copy.history) == 1
    assert state.to_json() != copy.to_json()


def test_restore_rejects_damaged_or_foreign_data():
    data = GAME.new_game(seed=1).to_json()
    for broken in ({**data, "script": "0" * 16}, {**data, "zones": data["zones"][:-1]},
                   {**data, "stack": [[99, 0, []]]}, {"format": "x"}, [], {**data, "players": "three"}):
        with pytest.raises(interpreter.ScriptError) as err:
            GAME.restore(broken)
        assert err.value.diagnostics[0].code == "E0801"


def test_bad_player_counts_options_and_seeds_are_diagnosed():
    with pytest.raises(interpreter.ScriptError, match="takes 3 players, not 4"):
        GAME.new_game(players=4)
    with pytest.raises(interpreter.ScriptError, match="unknown option `special_bouncer`") as err:
        GAME.new_game(options={"special_bouncer": "true"})
    assert "did you mean `special_bouncers`" in err.value.diagnostics[0].hint
    with pytest.raises(interpreter.ScriptError, match="not allowed for option"):
        GAME.new_game(options={"special_bouncers": "maybe"})
    with pytest.raises(interpreter.ScriptError, match=r"takes 3 players, not '3' \(a player count is a whole number\)"):
        GAME.new_game(players="3")
    with pytest.raises(interpreter.ScriptError, match=r"options are a mapping of names to values, not \['x'\]"):
        GAME.new_game(options=["x"])


@pytest.mark.parametrize("call", ["view", "evaluate", "explain", "move_texts", "observation", "observed_events",
                                  "information_state", "determinize"])
@pytest.mark.parametrize("viewer", [3, -1, "P1", True])
def test_every_call_taking_a_viewer_refuses_one_not_at_the_table(call, viewer):
    state = GAME.new_game(seed=1)
    move = state.legal_moves()[0]
    calls = {"view": lambda: state.view(viewer), "evaluate": lambda: state.evaluate("1", viewer=viewer),
             "explain": lambda: state.explain(move, viewer=viewer), "move_texts": lambda: state.move_texts(viewer),
             "observation": lambda: state.observation(viewer), "observed_events": lambda: state.observed_events(viewer),
             "information_state": lambda: state.information_state(viewer),
             "determinize": lambda: state.determinize(viewer, 1)}
    with pytest.raises(interpreter.ScriptError, match=f"E0707|there is no seat {viewer!r} at this 3-player table"):
        calls[call]()


def test_determinize_takes_a_seat_and_a_generator_or_seed():
    state = GAME.new_game(seed=1)
    for spectator in (None, "all"):
        with pytest.raises(interpreter.ScriptError, match="there is no seat"):
            state.determinize(spectator, 1)
    with pytest.raises(TypeError, match="a random.Random or an int seed, not 'x'"):
        state.determinize(1, "x")
    assert state.determinize(1, 5).view(1) == state.view(1)


def test_an_explanation_not_judged_says_so():
    state = GAME.new_game(seed=1)
    refused = state.explain(state.legal_moves()[0], viewer=1)
    assert refused.legal is None
    assert str(refused) == f"`{refused.move}` is not judged: {refused.reason}"
    assert refused.reason == "reads P0's choices, which P1 cannot see"


@pytest.mark.parametrize("seed", ["abc", True, -1, 2**64, 2**64 + 1, 1.0])
def test_a_seed_is_one_of_the_generators_2_to_the_64(seed):
    """The generator's state is 64 bits: any other seed would give the game of one of these."""
    with pytest.raises(interpreter.ScriptError, match="a seed is a whole number from 0 to 18446744073709551615") as err:
        GAME.new_game(seed=seed)
    assert err.value.diagnostics[0].code == "E0704"
    with pytest.raises(interpreter.ScriptError, match="E0704"):
        interpreter.simulate(GAME, 2, 3, seed, {})
    with pytest.raises(interpreter.ScriptError, match="E0704"):
        interpreter.lint(GAME, 2, seed)


def test_the_largest_seed_and_the_smallest_give_different_games():
    largest, smallest = GAME.new_game(seed=2**64 - 1), GAME.new_game(seed=0)
    assert largest.to_json()["zones"] != smallest.to_json()["zones"]


def test_tracer_reports_rules_effects_and_chance():
    events = []
    state = GAME.new_game(seed=1, tracer=events.append)
    assert any(e.kind == "chance" and e.text == "shuffle stock" for e in events)
    state.apply(state.legal_moves()[0])
    state.apply(state.legal_moves()[0])
    kinds = {e.kind for e in events}
    assert {"decision", "rule", "move", "log"} <= kinds
    rule = next(e for e in events if e.kind == "rule")
    assert rule.text.startswith("rule follow_suit: ") and rule.span.line > 0


def test_current_player_phase_and_end():
    state = GAME.new_game(seed=8)
    assert (state.current_player, state.phase, state.is_over) == (0, "trick", False)
    random_walk(state, 100_000)
    assert state.is_over and state.current_player is None and state.legal_moves() == []
    assert state.winners


def runaway(tmp_path, body):
    path = tmp_path / "runaway.cardgame"
    path.write_text(f'game "Runaway"\nplayers 2\nvar x: int = 1\nphase main {{\n{body}\n    end game\n}}\n')
    return interpreter.load(str(path))


def test_runaway_loops_and_numbers_are_stopped_by_limits(tmp_path):
    looping = runaway(tmp_path, "    while true {\n        set x += 1\n    }\n    decide seat(0) \"Go?\" {\n"
                      "        go\n    }")
    state = looping.new_game()
    # it runs before the first decision, under the budget of one move, and the fault says so
    assert state.fault is not None and "units of work before its first decision" in state.fault.message
    assert "under the budget of one move" in state.fault.hint
    assert state.legal_moves() == [] and state.fault.span.line in (5, 6)  # a statement of the loop
    # a game without decisions has no moves: only the game's budget stops it
    endless = runaway(tmp_path, "    while true {\n        set x += 1\n    }").new_game()
    assert endless.fault.message == "the game used up its work budget of 5,000,000 units"
    assert "a game without decisions has only the game's budget" in endless.fault.hint
    assert endless.game_work > 5_000_000 and endless.fault.span.line in (5, 6)
    growing = runaway(tmp_path, "    while true {\n        set x = x * 2\n    }")
    assert "beyond the limit" in growing.new_game().fault.message


def test_card_count_is_constant_in_a_whole_game():
    state = GAME.new_game(seed=12)
    agent = RandomAgent(3)
    while not state.is_over:
        assert card_count(state) == 52
        state.apply(agent.choose(state.legal_moves()))
    assert card_count(state) == 52


def test_runaway_expressions_are_stopped_by_the_work_budget(tmp_path):
    heavy = runaway(tmp_path, "    set x = count a in range(1, 90000) where count b in range(1, 90000) where a == b > 0")
    state = heavy.new_game()  # no decision: the game's budget is its only one
    assert state.fault is not None and state.fault.message == "the game used up its work budget of 5,000,000 units"


def test_a_decision_with_too_many_options_faults(tmp_path):
    # (a constant range this wide is refused at load, E0315; a computed one is counted)
    # (its values are paid for first: past the work budget, the range is refused before the move cap)
    huge = runaway(tmp_path, "    decide seat(0) {\n        pick(n in 1..x * 1000000000)\n    }")
    state = huge.new_game()
    assert state.legal_moves() == []
    assert "units of work" in state.fault.message
    wide = runaway(tmp_path, "    decide seat(0) {\n        pick(n in 1..x * 20000)\n    }")
    state = wide.new_game()
    assert state.legal_moves() == []
    assert "more than 10,000 moves" in state.fault.message


def test_apply_on_a_decision_whose_listing_fails_faults_the_game(tmp_path):
    # apply() lists the moves itself when nobody asked for them: a listing over its work budget
    # faults the game (GameFault, the state faulted) exactly as legal_moves() would
    huge = runaway(tmp_path, "    decide seat(0) {\n        pick(n in 1..x * 1000000000)\n    }")
    state = huge.new_game()
    with pytest.raises(interpreter.GameFault):
        state.apply("pick 1")
    assert "units of work" in state.fault.message
    assert state.legal_moves() == [] and state.current_player is None


def test_legal_moves_is_a_fresh_list_of_the_same_moves():
    state = GAME.new_game(seed=3)
    first = state.legal_moves()
    first.clear()  # the caller's list: the game's own is untouched
    again = state.legal_moves()
    assert again and [m.text for m in again] == [m.text for m in state.legal_moves()]
    assert all(a is b for a, b in zip(again, state.legal_moves()))


def test_a_move_not_from_this_listing_is_applied_as_the_move_its_text_names():
    # apply() finds a listed move by identity; an equal Move that is not one of the listed
    # objects (made by the caller, unpickled) goes by its text, listed first if nobody asked
    state = GAME.new_game(seed=3)
    listed = state.legal_moves()[-1]
    copy = interpreter.Move(listed.text, listed.alt, listed.values)
    assert copy == listed and copy is not listed
    state.apply(copy)
    by_text = GAME.new_game(seed=3)
    by_text.apply(listed.text)
    assert state.to_json() == by_text.to_json()
    restored = GAME.restore(json.loads(json.dumps(by_text.to_json())))  # nothing listed yet
    move = by_text.legal_moves()[0]
    restored.apply(interpreter.Move(move.text, move.alt, move.values))
    by_text.apply(move)
    assert restored.to_json() == by_text.to_json()
    with pytest.raises(interpreter.IllegalMove):
        by_text.apply(copy)  # that card is played: no longer a move of this decision
    assert by_text.to_json() == restored.to_json()


def test_work_charged_inside_a_statement_counts_towards_the_move(tmp_path):
    # each `set` costs a step and 199 list items; twenty of them pass a budget of 2,000 units
    # although their steps alone (about 200 units) would not (a fused operation's own charges
    # used to be lost when it returned); a game without decisions has the game's budget only
    body = "    repeat 20 times {\n        set x = count a in range(1, 200) where a > 0\n    }"
    heavy = runaway(tmp_path, body)
    state = heavy.new_game(max_game_work=2000)
    assert state.fault is not None and "work budget of 2,000 units" in state.fault.message
    assert state.fault.span.line == 6  # the `set`, the statement that passed the budget
    state = heavy.new_game(max_game_work=100_000)
    assert state.fault is None and state.game_work > 20 * 2 * 199


def test_the_set_up_of_a_shipped_game_is_charged_for_its_lists_and_cards():
    # Bouncer's set-up, seed 1: its statements, the deck it shuffles, the cards it deals, the
    # lists it makes and the two characters of the card its first log line shows, `point card:
    # {top(prize)}` (pinned: a change of what is charged must be deliberate); the point cards are
    # the definition is_point_card, called once for each of the 52 cards (+52)
    assert GAME.new_game(seed=1).game_work == 306


@pytest.mark.parametrize("name", ["bouncer.cardgame", "booray.cardgame", "bosspoker.cardgame", "bohei.cardgame"])
def test_the_work_charged_does_not_depend_on_who_is_listening(name):
    # a log line's text is only made for a tracer (or the observation log): it costs the game
    # nothing, so a recorded game saves the same work as an unrecorded one
    game = load_game(name)
    plain, recorded = game.new_game(seed=3), game.new_game(seed=3, record=True)
    agent = RandomAgent(3)
    while not plain.is_over:
        move = agent.choose(plain.legal_moves())
        plain.apply(move)
        recorded.apply(str(move))
    assert plain.to_json() == recorded.to_json()


def test_a_decision_without_playout_listing_is_listed_exactly_in_its_own_stretch():
    """enumeration.listing runs the exact enumerator where a decision has no playout listing
    (decision.pick None), in the listing's own stretch of work: the same moves, work and budget
    faults as with one, with game budgets that run out inside a listing."""
    plain = load_game("bouncer.cardgame")
    exact = load_game("bouncer.cardgame")
    for decision in exact.program.decisions:
        assert decision.pick is not None  # else the two programs would not differ
        decision.pick = None
    listings = []  # (game work when a listing starts, its work)
    state, agent = plain.new_game(seed=3), RandomAgent(1)
    while not state.is_over and len(listings) < 40:
        before = state.game_work
        moves = state.legal_moves()
        listings.append((before, state.legal_work))
        state.apply(agent.choose(moves))
    assert len({work for _, work in listings}) > 3  # listings of different sizes
    for made, (before, work) in list(enumerate(listings))[5::7]:
        games = [game.new_game(seed=3, max_game_work=before + work - 1) for game in (plain, exact)]
        for state in games:
            play_out(state, RandomAgent(1), 40)
        assert games[0].decisions == made and "work budget" in games[0].fault.message  # in that listing
        assert [(s.history, s.game_work, s.fault) for s in games] == [(games[0].history, games[0].game_work,
                                                                         games[0].fault)] * 2


def test_simulate_refuses_a_negative_number_of_games():
    with pytest.raises(interpreter.ScriptError, match="-1 games is not a number of games") as err:
        interpreter.simulate(GAME, -1, 3, 0, {})
    assert err.value.diagnostics[0].hint == "0 to 10,000,000 games at once"


def test_a_traced_game_keeps_no_observation_log_unless_asked():
    """Tracing judges each move's rules; judging them as their maker knows them reads its memory,
    which starts an observation log (recorded at every event from then on: `cardgame play` of a
    game setting a variable 66,000 times a move ran 4x slower): only a game keeping one does."""
    events = []
    state = GAME.new_game(seed=2, tracer=events.append)
    for _ in range(30):
        state.apply(state.legal_moves()[0])
    assert state.journal is None and any(e.kind == "rule" for e in events)
    recorded = GAME.new_game(seed=2, tracer=events.append, record=True)
    recorded.apply(recorded.legal_moves()[0])
    assert any(e.kind == "rule" for e in recorded.observed_events(0))
