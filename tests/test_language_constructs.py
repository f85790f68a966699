"""Constructs every seed game leans on, each proved on a small script in tests/scripts/."""

import json
from pathlib import Path

import pytest

from cardgame import interpreter
from helpers import arrange, moves

SCRIPTS = Path(__file__).parent / "scripts"


def load(name):
    return interpreter.load(str(SCRIPTS / name))


# ---- simultaneous hidden commits ---------------------------------------------------------------

def test_simultaneous_choices_are_collected_first_and_stay_hidden():
    game = load("commit_reveal.cardgame")
    state = game.new_game(players=3, seed=4)
    p1_options = None
    for seat in range(3):
        assert state.current_player == seat
        if seat == 1:
            p1_options = moves(state)
        state.apply(state.legal_moves()[0])
        if seat < 2:
            # Nothing has moved yet: nobody's choice can leak into anyone's view or options.
            assert all(zone == [] for zone in state.view("all")["zones"]["committed"].values())
    # P1's options did not depend on what P0 chose.
    again = game.new_game(players=3, seed=4)
    again.apply(again.legal_moves()[-1])
    assert moves(again) == p1_options
    # All bodies ran, in seat order, once every choice was in.
    committed = state.view("all")["zones"]["committed"]
    assert all(len(cards) == 1 for cards in committed.values())
    assert state.current_player == interpreter.TABLE


def test_face_down_commits_and_private_peeks_in_views():
    game = load("commit_reveal.cardgame")
    state = game.new_game(players=3, seed=4)
    for _ in range(3):
        state.apply(state.legal_moves()[0])
    p1_card = state.view("all")["zones"]["committed"]["P1"]
    assert state.view(1)["zones"]["committed"]["P1"] == p1_card  # the owner sees it
    assert state.view(0)["zones"]["committed"]["P1"] == p1_card  # P0 peeked at it
    assert state.view(2)["zones"]["committed"]["P1"] == ["??"]
    assert state.view(None)["zones"]["committed"]["P1"] == ["??"]
    assert state.view(2)["zones"]["committed"]["P0"] == ["??"]


def test_table_decisions_and_reveal():
    game = load("commit_reveal.cardgame")
    state = game.new_game(players=2, seed=1)
    state.apply(state.legal_moves()[0])
    state.apply(state.legal_moves()[0])
    assert state.current_player == interpreter.TABLE and moves(state) == {"reveal_all"}
    assert state.prompt == "Reveal the 2 cards?"
    state.apply("reveal_all")
    assert state.is_over
    spectator = state.view(None)["zones"]["committed"]
    assert "??" not in spectator["P0"] + spectator["P1"]
    assert sorted(state.scores) == [0, 1] and state.winners == [state.scores.index(1)]


# ---- events, reactions and handlers ----------------------------------------------------------------

def test_a_reaction_window_offers_the_named_players_their_reactions_and_pass():
    state = load("reactions.cardgame").new_game(seed=1)
    assert state.current_player == 0 and moves(state) == {"nope no", "flip opposite", "pass"}


def test_every_named_player_is_asked_even_with_only_pass():
    # Being asked must not tell the table who holds a reaction: P1 holds none, and is asked.
    state = load("reactions.cardgame").new_game(seed=1)
    state.apply("pass")
    assert state.current_player == 1 and moves(state) == {"pass"}
    assert len(state.view("all")["zones"]["hand"]["P0"]) == 2  # the window is still open


def test_passing_lets_the_event_happen_and_the_handler_run():
    state = load("reactions.cardgame").new_game(seed=1)
    state.apply("pass")
    state.apply("pass")
    view = state.view("all")
    assert len(view["zones"]["hand"]["P0"]) == 4  # drew 2
    assert view["vars"]["draws"] == 1
    # The second draw's window asks P1 (refuse, reverse), then P0 (reverse), each once.
    assert state.current_player == 1 and moves(state) == {"pass"}
    state.apply("pass")
    assert state.current_player == 0 and moves(state) == {"pass"}  # P0's cards answer only its own draws


def test_cancel_stops_the_event_and_its_handlers():
    state = load("reactions.cardgame").new_game(seed=1)
    state.apply("nope no")
    view = state.view("all")
    assert view["zones"]["hand"]["P0"] == ["opposite"]
    assert view["zones"]["discard"] == ["no"]
    assert view["vars"]["draws"] == 0  # cancelled: no draw, no handler, and P1 is not asked in this window
    assert state.current_player == 1 and moves(state) == {"pass"}  # the second draw's window


def test_a_reaction_may_change_the_events_parameters():
    state = load("reactions.cardgame").new_game(seed=1)
    state.apply("flip opposite")  # n = 2 becomes -2: P0 discards instead of drawing
    state.apply("pass")  # P1's turn in the same window
    view = state.view("all")
    assert view["zones"]["discard"] == ["opposite", "no"]  # discarded its last card
    while not state.is_over:  # every later window: only `pass`
        assert moves(state) == {"pass"}
        state.apply("pass")
    view = state.view("all")
    assert len(view["zones"]["hand"]["P0"]) == 2 and len(view["zones"]["hand"]["P1"]) == 2
    assert view["vars"]["draws"] == 3


def test_a_window_asks_with_the_events_prompt_filled_in_from_its_parameters():
    state = load("reaction_prompt.cardgame").new_game(seed=1)
    assert state.current_player == 0 and state.prompt == "P1 must draw 1: double it, or pass?"
    state.apply("double_it double.1")
    # The next player in the same window hears the event as the first reaction left it.
    assert state.current_player == 1 and state.prompt == "P1 must draw 2: double it, or pass?"
    assert moves(state) == {"pass"}
    state.apply("pass")
    assert state.is_over and len(state.view("all")["zones"]["hand"]["P1"]) == 3


def test_a_window_without_a_prompt_says_which_event_it_answers():
    state = load("reactions.cardgame").new_game(seed=1)
    assert state.prompt == "react to forced_draw"


def test_an_event_prompt_is_checked_like_a_decisions(tmp_path):
    script = tmp_path / "bad_prompt.cardgame"
    script.write_text((SCRIPTS / "reaction_prompt.cardgame").read_text().replace("draw {n}", "draw {m}"))
    _tables, _items, _sources, diags = interpreter.check_file(str(script))
    assert [(d.code, d.span.line) for d in diags if d.severity == "error"] == [("E0201", 14)]


def test_rules_explain_reactions():
    state = load("reactions.cardgame").new_game(seed=1)
    why = state.explain("flip opposite")
    assert why.legal and [r.name for r in why.rules] == ["is_kind", "affected"]


# ---- control flow ------------------------------------------------------------------------------------

def test_loops_procedures_break_and_return():
    state = load("control_flow.cardgame").new_game()
    assert state.view()["vars"] == {"total": 20, "log_of": [1, 2, 3]}
    assert moves(state) == {"pick 1", "pick 2", "pick 3", "skip"}
    state.apply("pick 3")
    assert state.is_over and state.scores == [0, 23] and state.winners == [1]


def test_include_reads_the_library_once(tmp_path):
    game = load("reactions.cardgame")
    assert len(game.sources) == 2
    state = game.new_game()
    assert sum(len(z) for z in state.zones) == 10


_USES_THE_DECK = ('game "Library"\nplayers 2\ninclude "lib/standard_deck.cardgame"\n'
                  'zone stock: shared hidden\nzone hand: per player owner\n'
                  'phase main {\n    deal 2 from stock to hand of players\n    end game\n}\n'
                  'score p: sum([strength(c) for c in hand[p]])\nwinners: highest score\n')


def test_an_include_not_beside_the_script_comes_from_the_shipped_library(tmp_path):
    (tmp_path / "mine.cardgame").write_text(_USES_THE_DECK)
    game = interpreter.load(str(tmp_path / "mine.cardgame"))
    shipped = Path(interpreter.__file__).parent.parent / "games" / "lib" / "standard_deck.cardgame"
    assert set(game.sources) == {str(tmp_path / "mine.cardgame"), str(shipped.resolve())}
    assert sum(len(z) for z in game.new_game().zones) == 52


def test_an_include_beside_the_script_wins_over_the_shipped_one(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "standard_deck.cardgame").write_text(
        'deck small in stock {\n    rank: 1, 2, 3\n}\ndefine strength(c: card) = c.rank\n')
    (tmp_path / "mine.cardgame").write_text(_USES_THE_DECK)
    assert sum(len(z) for z in interpreter.load(str(tmp_path / "mine.cardgame")).new_game().zones) == 3


def test_an_include_found_nowhere_says_where_it_was_looked_for(tmp_path):
    (tmp_path / "mine.cardgame").write_text(_USES_THE_DECK.replace("standard_deck", "no_such_deck"))
    _tables, _items, _sources, diags = interpreter.check_file(str(tmp_path / "mine.cardgame"))
    [diag] = [d for d in diags if d.severity == "error"]
    assert (diag.code, diag.span.line) == ("E0601", 3)
    assert "shipped games' folder" in diag.hint


def test_saving_inside_a_reaction_window_and_a_simultaneous_commit():
    for name, players in (("reactions.cardgame", 2), ("commit_reveal.cardgame", 3)):
        game = load(name)
        state = game.new_game(players=players, seed=2)
        state.apply(state.legal_moves()[0])
        restored = game.restore(json.loads(json.dumps(state.to_json())))
        assert restored.to_json() == state.to_json()
        while not state.is_over:
            move = str(state.legal_moves()[-1])
            state.apply(move)
            restored.apply(move)
        assert restored.to_json() == state.to_json()


@pytest.mark.parametrize("body, message", [
    ("    deal 99 from pool to hand of players", "ran out of cards"),
    ("    let x = 1 / 0", "division by zero"),
])
def test_runtime_faults_are_diagnostics(tmp_path, body, message):
    path = tmp_path / "fault.cardgame"
    path.write_text('game "F"\nplayers 2\ndeck d in pool {\n    v: 1, 2\n}\nzone pool: shared hidden\n'
                    f'zone hand: per player owner\nphase main {{\n{body}\n    end game\n}}\n')
    state = interpreter.load(str(path)).new_game()
    assert state.fault is not None and message in state.fault.message
    assert state.fault.span.line == 9
    assert "while running this" in state.game.render_diagnostic(state.fault)


def test_mixed_kind_values_fault_with_a_location_instead_of_crashing(tmp_path):
    path = tmp_path / "mixed.cardgame"
    path.write_text('game "M"\nplayers 2\ndeck d in pool {\n    rank: 2, J\n}\nzone pool: shared hidden\n'
                    'var low: int = 0\nphase main {\n    for c in pool {\n        if c.rank < 5 {\n'
                    '            set low += 1\n        }\n    }\n    end game\n}\n')
    # The checker sees this one (E0230); one hidden behind an `if` faults at run time instead.
    assert [d.code for d in interpreter.check_file(str(path))[3]] == ["E0230"]
    path.write_text(path.read_text().replace("if c.rank < 5", "if (if true then c.rank else 0) < 5"))
    state = interpreter.load(str(path)).new_game()
    assert state.fault is not None and state.fault.span.line == 10
    assert "wrong kind" in state.fault.message and "not supported" not in state.fault.message


def write(tmp_path, body, name="t.cardgame"):
    path = tmp_path / name
    path.write_text('game "T"\nplayers 2\n' + body)
    return path


def diagnostics_of(tmp_path, body):
    _tables, _items, _sources, diags = interpreter.check_file(str(write(tmp_path, body)))
    return diags


def test_a_binder_may_use_an_earlier_binder(tmp_path):
    path = write(tmp_path, 'phase main {\n    decide seat(0) {\n        pick(a in 1..3, b in a..3)\n    }\n'
                           '    end game\n}\n')
    state = interpreter.load(str(path)).new_game()
    assert moves(state) == {"pick 1 1", "pick 1 2", "pick 1 3", "pick 2 2", "pick 2 3", "pick 3 3"}


def test_variables_that_start_as_none_can_be_set(tmp_path):
    assert diagnostics_of(tmp_path, 'var best = none\nphase main {\n    let x = none\n    set x = 3\n'
                                    '    set best = x\n    end game\n}\n') == []


def test_negative_option_defaults_and_card_values(tmp_path):
    path = write(tmp_path, 'option bias: int in -5..5 = -2\ndeck d in pool {\n    value: -1, 0, 1\n}\n'
                           'zone pool: shared public\nphase main {\n    end game\n}\n')
    game = interpreter.load(str(path))
    assert game.options[0].default == -2
    assert game.new_game().view()["zones"]["pool"] == ["-1", "0", "1"]


def test_a_phase_ending_in_every_alternative_of_a_decision_terminates(tmp_path):
    assert diagnostics_of(tmp_path, 'phase main {\n    decide seat(0) {\n        stop {\n            end game\n'
                                    '        }\n        again {\n            next main\n        }\n    }\n}\n') == []


def test_a_bad_interpolation_is_a_diagnostic(tmp_path):
    diags = diagnostics_of(tmp_path, 'phase main {\n    log "x {1 +}"\n    end game\n}\n')
    assert [d.code for d in diags] == ["E0104"] and diags[0].span.line == 4


def test_a_decision_without_legal_moves_faults_instead_of_hanging(tmp_path):
    path = write(tmp_path, 'rule never(n: int) "Nothing is ever allowed." require false\n'
                           'phase main {\n    decide seat(0) {\n        pick(n in 1..3) requires never(n)\n    }\n'
                           '    end game\n}\n')
    state = interpreter.load(str(path)).new_game()
    assert state.legal_moves() == [] and not state.is_over
    assert "no legal move" in state.fault.message and state.fault.span.line == 5


def test_hidden_commits_stay_hidden_in_traces():
    events = []
    state = load("commit_reveal.cardgame").new_game(players=2, seed=1, tracer=events.append)
    assert state.choice_is_hidden
    state.apply(state.legal_moves()[0])
    decision = [e.text for e in events if e.kind == "decision"]
    assert decision == ["P0: (a hidden choice)"]


def test_moving_a_list_to_the_bottom_keeps_its_order(tmp_path):
    path = write(tmp_path, 'deck d in pool {\n    v: 1, 2, 3, 4\n}\nzone pool: shared public\n'
                           'zone pile: shared public\nzone other: shared public\nphase main {\n'
                           '    move [c for c in pool where c.v >= 3] to pile\n'
                           '    move [c for c in pool where c.v <= 2] to pile at bottom\n'
                           '    move pile to other at bottom\n    end game\n}\n')
    state = interpreter.load(str(path)).new_game()
    assert state.view()["zones"]["other"] == ["1", "2", "3", "4"]


def test_growing_text_is_stopped_by_a_limit(tmp_path):
    path = write(tmp_path, 'var t: text = "x"\nphase main {\n    while true {\n        set t = t + t\n    }\n'
                           '    end game\n}\n')
    state = interpreter.load(str(path)).new_game()
    assert "a text grew beyond" in state.fault.message


ATTRIBUTE_TYPED = '''deck d in pool {
    ordered rank: 2, 3, J, A
    suit: C, H
    name: rank suit
}
zone pool: shared public
var wanted: rank = none
var trump: suit = none
define at_least(c: card, r: rank) = c.rank >= r
phase main {
    set wanted = J
    set trump = top(pool).suit
    decide seat(0) {
        pick(c from pool) requires high(c)
    }
    end game
}
rule high(c: card) "At least the wanted rank, in trumps."
    require at_least(c, wanted) and c.suit == trump
'''


def test_a_card_attributes_name_types_a_variable_and_a_parameter(tmp_path):
    state = interpreter.load(str(write(tmp_path, ATTRIBUTE_TYPED))).new_game()
    assert moves(state) == {"pick JH", "pick AH"}  # the top card is AH; J <= rank in the declared order
    assert state.evaluate("wanted")[0] == "J" and state.evaluate("trump")[0] == "H"


def test_a_value_of_another_kind_in_an_attribute_typed_variable_is_a_mismatch(tmp_path):
    diags = diagnostics_of(tmp_path, ATTRIBUTE_TYPED.replace("var trump: suit = none", "var trump: suit = 3"))
    assert [(d.code, d.message) for d in diags] == [("E0210", "expected a symbol, found a number")]


TEXTS = '''game "Texts"
players 2
var t: text = none
var n: int = 0
phase main {
    set t = t + "-"
    while n < 12 {
        set t = t + t + "ab"
        set n += 1
    }
    end game
}
'''


def test_texts_joined_are_charged_and_limited_as_the_traced_reference_does(tmp_path):
    # the fast code joins two texts without rendering them (gen_runtime.texts_plus): same values,
    # same work, the budget and the text limit faulting where, and with the span where, they would
    from test_codegen import _load
    path = tmp_path / "texts.cardgame"
    path.write_text(TEXTS)
    games = _load(path, traced=True), _load(path, traced=False)
    seen = set()
    for budget in list(range(1, 40, 3)) + list(range(40, 45_000, 307)):  # the limit: at 43,081
        results = []
        for game in games:
            state = game.new_game(max_game_work=budget)
            fault = state.fault
            results.append((state.vars, state.game_work, fault and (fault.message, fault.span)))
        assert results[0] == results[1], budget
        seen.add(results[0][2] and results[0][2][0].split(" ")[0])
    assert {"the", "a"} <= seen  # "the game used up its work budget", "a text grew beyond ..."
    assert games[1].new_game().vars[0].startswith("none-none-ab")


@pytest.mark.parametrize("part, said", [("left_of(who)", "`left_of` cannot use this value (none?)"),
                                        ("range(1, 6000)", "a text grew beyond 10000 characters")])
def test_a_log_line_that_cannot_be_written_faults_the_game_watched_or_not(tmp_path, part, said):
    path = write(tmp_path, 'var who: player = none\nphase main {\n    log "for {' + part + '} now"\n'
                           '    decide seat(0) {\n        go\n    }\n    end game\n}\n')
    game = interpreter.load(str(path))
    watched = game.new_game(seed=1, record=True)  # its journal listens
    unwatched = game.new_game(seed=1)
    for state in (watched, unwatched):
        assert state.fault.message == said  # at set-up, where the line stands: stored by new_game
        assert (state.fault.span.line, state.fault.span.column) == (5, len('    log "for {') + 1)
    assert watched.to_json() == unwatched.to_json()


def test_unique_keeps_each_item_once_where_it_first_appears():
    game = interpreter.load(str(Path(__file__).parent / "scripts" / "sorting.cardgame"))
    state = arrange(game.new_game(seed=1), {"hand": {0: ["KS", "2H", "10C", "2C", "AD"], 1: ["3C"]}}, "stock")
    assert state.evaluate("unique([x.rank for x in hand[P0]])") == ("[K, 2, 10, A]", [])
    assert state.evaluate("unique([1, none, 1, 3, none])") == ("[1, none, 3]", [])
    assert state.evaluate("unique(hand[P1])") == ("[3C]", [])
    assert state.evaluate("count(unique([]))") == ("0", [])
