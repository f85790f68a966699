"""Edge cases a new author met writing games from docs/language.md alone (session i09): each
played through the public API, by the playouts and traced, which must agree and never raise
anything but a game's own fault."""

from __future__ import annotations

import pytest

from cardgame import interpreter
from cardgame.interpreter.studies.agents import RandomAgent
from cardgame.interpreter.studies.simulate import play_one

_EMPTY_HAND = '''game "Empty hand"
players 2
deck d in stock {{
    ordered rank: 1, 2, 3, 4, 5, 6
    suit: C, D, H
}}
zone stock: shared hidden
zone hand: per player owner
zone pile: shared public
var who: player = seat(0)
var turns: int = 0
phase main {{
    set turns += 1
    if turns > 6 {{
        end game
    }}
    decide who "Play or skip" {{
        play({binder}) {{
            set turns += 0
        }}
        skip {{
            if not empty(stock) {{
                move top(stock) to hand[who]
            }}
        }}
    }}
    set who = left_of(who)
    next main
}}
'''

# A binder's list walked by a loop of its own (a comprehension, a quantifier, a best item, a
# sort, a pattern): over an empty hand the loop runs no round, and the listing must still offer
# `skip` (it raised UnboundLocalError: the loop variable's write-back read a name never set).
BINDERS = [
    "c from [x for x in hand[who]]",
    "c from [x for x in hand[who] where x.rank > 2]",
    "c from sorted x in hand[who] by x.rank",
    "c from sorted x in hand[who] by [x.rank, place(x.rank)]",
    "c from [max x in hand[who] by x.rank]",
    "g from groups x in hand[who] by x.rank",
    "g from runs x in hand[who] by x.rank least 2",
    "n in 1..count x in hand[who] where x.rank > 2",
    "n in 1..(if any x in hand[who] where x.rank > 2 then 1 else 0)",
    "n in 1..(if all x in hand[who] where x.rank > 2 then 0 else 1)",
    "c from [y for x in hand[who] for y in hand[who] where x != y]",
    "c from (let h = sorted x in hand[who] by x.rank in h)",
]


def _api(game, seed):
    state = game.new_game(seed=seed)
    agent = RandomAgent.for_game(seed)
    while not state.is_over and state.fault is None:
        state.apply(agent.choose(state.legal_moves()))
    return state


@pytest.mark.parametrize("binder", BINDERS)
def test_a_binder_over_a_loop_of_an_empty_hand_offers_the_other_alternatives(binder, tmp_path):
    path = tmp_path / "empty_hand.cardgame"
    path.write_text(_EMPTY_HAND.format(binder=binder))
    game = interpreter.load(str(path))
    state = game.new_game(seed=1)
    assert [m.text for m in state.legal_moves()] == ["skip"]  # both hands are empty at the start
    assert state.explain("skip").legal
    for seed in range(4):
        api = _api(game, seed)
        played, finished = play_one(game, 2, seed, {})
        assert finished and api.is_over and api.fault is None
        assert (played.decisions, played.game_work, played.to_json()) == (api.decisions, api.game_work, api.to_json())
        assert any(line.startswith(("play", "skip")) for line in api.history)


_NEGATIVE = '''game "From the end"
players 2
var l: list of int = [1, 2, 3]
var shown: text = ""
phase main {
    let m = [4, 5]
    set m[-2] = 7
    set l[-1] += 10
    set l[-3] = count(m) + m[0]
    set shown = "" + l + " " + m
    decide seat(0) "Go on?" {
        go {
            set l[-4] = 0
        }
        stop
    }
    end game
}
'''


def test_a_list_item_is_set_counting_from_the_end_as_it_is_read(tmp_path):
    path = tmp_path / "negative.cardgame"
    path.write_text(_NEGATIVE)
    game = interpreter.load(str(path))
    state = game.new_game(seed=1)
    assert state.view("all")["vars"]["l"] == [9, 2, 13]
    assert state.view("all")["vars"]["shown"] == "[9, 2, 13] [7, 5]"
    with pytest.raises(interpreter.GameFault) as fault:
        state.apply("go")
    assert "position -4 is outside the list (length 3)" in str(fault.value)
    assert state.fault is not None


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


@pytest.mark.parametrize("text, word", [
    ("groups x in y", "`by`"), ("count(groups x in hand[p]) + 1", "`by`"), ("[g for g in groups x in y]", "`by`"),
    ("runs x in y least 3", "`by`"), ("sorted x in y", "`by`"), ("max x in y.z", "`by`"),
    ("count x in y", "`where`"), ("any x in (y)", "`where`"),
])
def test_a_form_over_a_list_without_its_by_or_where_says_so(text, word, tmp_path):
    """`groups x in L` without `by` (and the other forms): E0137 naming the missing word, in a
    script (wherever the form stands) and in one expression (the REPL's `eval`)."""
    from cardgame.interpreter.language.parser import parse_expression

    _tree, found = parse_expression(text)
    assert [(d.code, word in d.message) for d in found] == [("E0137", True)]
    path = tmp_path / "form.cardgame"
    path.write_text(f'game "Form"\nplayers 2\nvar y: list of int = [1]\nphase main {{\n    let v = {text}\n    end game\n}}\n')
    with pytest.raises(interpreter.ScriptError) as refused:
        interpreter.load(str(path))
    assert [(d.code, d.span.line) for d in refused.value.diagnostics] == [("E0137", 5)]
    assert "e.g." in refused.value.diagnostics[0].hint
