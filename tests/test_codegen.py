"""One generator, two modes: a program compiled in traced mode (every sub-value recorded, no
hoisting, no inlined definitions, the generic move enumeration) must play exactly like the fast
one.  The traced program is the plain reference for every optimisation of the fast path.

Every shipped game, test script and complete script of docs/language.md is compiled both ways,
and the same random games are played on both: the legal moves, the whole saved state after
every move, the trace, the scores and any fault must be identical.
"""

from __future__ import annotations

import json

import pytest

from cardgame import interpreter
from cardgame.interpreter.studies.agents import RandomAgent
from cardgame.interpreter.codegen.compiler import Compiler
from cardgame.interpreter.engine.game import Game
from cardgame.interpreter.language.rng import derive

from helpers import GAMES, PLAYED_SCRIPTS
import test_docs_examples as docs

SCRIPTS = PLAYED_SCRIPTS
DOC_SCRIPTS = [(line, block) for line, block in docs._blocks("language.md", "cardgame")
               if docs._directive(block)[:1] in (["complete"], ["fault"], ["prelude"])]


def _load(path, traced: bool):
    """The script compiled in one mode; a traced program counts what it records in `.recorded`."""
    if not traced:
        return interpreter.load(str(path))
    tables, _items, sources, diags = interpreter.check_file(str(path))
    compiler = Compiler(tables, traced=True)
    game = Game(str(path), compiler.compile(), compiler, sources, [])
    game.recorded = [0]

    def count(node, typ, value):
        game.recorded[0] += 1
    compiler.gen.ns["_trace"] = count
    return game


def _transcript(game, players, seed, options, max_steps=400):
    """Everything observable about one random game, step by step."""
    events = []
    state = game.new_game(players=players, seed=seed, options=options,
                          tracer=lambda e: events.append((e.kind, e.text)))
    agent = RandomAgent(derive(seed, 1))
    out = []
    while not state.is_over and state.fault is None and len(out) < max_steps:
        moves = state.legal_moves()
        out.append([(m.text, m.alt, m.values) for m in moves])
        out.append(json.dumps(state.to_json(), sort_keys=True))
        if not moves:
            break
        clone = state.clone()
        move = agent.choose(moves)
        for target, chosen in ((state, move), (clone, str(move))):  # a clone applies the same
            try:
                target.apply(chosen)
            except interpreter.GameFault:
                pass
        out.append(events[:])
        events.clear()
    out.append(json.dumps(state.to_json(), sort_keys=True))
    out.append((state.is_over, state.fault and (state.fault.message, state.fault.span)))
    if state.is_over and state.fault is None:
        out.append((state.scores, state.winners))
    return out


def _plays_alike(path, seeds=range(3)):
    fast, traced = _load(path, traced=False), _load(path, traced=True)
    assert any(d.fast is not None for d in fast.program.decisions) or not fast.program.decisions
    assert all(d.fast is None for d in traced.program.decisions)
    option_sets = [{}]
    for opt in fast.options:
        if opt.kind == "bool":
            option_sets.append({opt.name: not opt.default})
    for players in sorted({fast.min_players, fast.max_players}):
        for options in option_sets:
            for seed in seeds:
                assert _transcript(fast, players, seed, options) == _transcript(traced, players, seed, options), \
                    (path.name, players, options, seed)
    assert traced.recorded[0] > 0 or not traced.program.tables.rules


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_traced_and_fast_play_exactly_alike(path):
    _plays_alike(path)


@pytest.mark.parametrize("line, block", DOC_SCRIPTS, ids=[f"language.md:{line}" for line, _ in DOC_SCRIPTS])
def test_traced_and_fast_play_docs_examples_alike(line, block, tmp_path):
    path = tmp_path / "example.cardgame"
    path.write_text(block)
    _plays_alike(path, seeds=range(2))


EXPRESSIONS = '''
game "Expressions"
players 2..3
deck small in pile {
    rank: 1, 2, 3, 4, 5
    suit: A, B
    name: rank suit
}
zone pile: shared public
zone hand: per player owner
zone out: shared public
var score: int per player = 0
var big: int = 1
var picks: list of int = []
var note: text = ""
define pair = [3, 1, 3]
define low(p: player) = min x in hand[p] by x.rank
define key(c: card) = if c.suit == A then c.rank else none
define high(p: player) = max x in hand[p] by key(x)
define ranks(p: player) = [x.rank for x in hand[p] where x.rank > 1]
define nth(p: player, i: int) = hand[p][i]
rule small(p: player, c: card) "Small cards first if any."
    when any x in hand[p] where x.rank <= 2
    require c.rank <= 2
rule below(k: int) "Below the highest rank held."
    require k < count(pile) + 2
phase deal {
    shuffle pile
    deal 3 from pile to hand of players
    set picks = [count(pile), count(hand[seat(0)])] + [1]
    set note = "left: " + count(pile)
    if all p in players where count(hand[p]) == 3 and no x in hand[p] where x.rank > 9 {
        set big = big * 7 - 2
    }
    next play
}
phase play {
    for p in players_from(seat(1)) {
        decide p "Play" {
            play(c from hand[p]) requires small(p, c) {
                move c to out face up
                set score[p] += c.rank * 2 - sum(ranks(p)) / 2 % 5
            }
            guess(k in 0..3) requires below(k) {
                set score[p] -= k
            }
            pick(a from pair, b from [1, 2]) {
                set score[p] += a - b
            }
            skip { }
        }
    }
    if empty(hand[seat(0)]) or count([p for p in players where empty(hand[p])]) > 0 {
        end game
    }
    let l = low(seat(0))
    let h = high(seat(0))
    set score[seat(0)] += if l == none then 0 else l.rank
    set big += index(pair, 1) + count c in out where c.suit == B
    next play
}
score p: score[p] + big % 3
winners: highest score
'''


def test_traced_and_fast_agree_on_values_and_faults(tmp_path):
    path = tmp_path / "expressions.cardgame"
    path.write_text(EXPRESSIONS)
    slow = _load(path, traced=True)
    fast = _load(path, traced=False)
    assert all(d.fast is not None for d in fast.program.decisions)
    for players in (2, 3):
        for seed in range(12):
            assert _transcript(fast, players, seed, {}) == _transcript(slow, players, seed, {}), (players, seed)


FAULTS = [
    "set x = x / (x - 1)",
    "set x = x % 0",
    "set x = top(pile).rank",
    "set x = -top(pile).rank",
    "set x += x * 4611686018427387904",
    "set x = count a in range(1, 3000) where count b in range(1, 3000) where a == b > 0",
    "set x = first([1]) + none",
    "set x = if top(pile) == none then 1 else 2 < none",
]


@pytest.mark.parametrize("statement", FAULTS)
def test_traced_and_fast_fault_alike(statement, tmp_path, monkeypatch):
    path = tmp_path / "fault.cardgame"
    path.write_text('game "Faults"\nplayers 2\ndeck d in pile {\n    rank: 1, 2\n    suit: A\n    name: rank suit\n}\n'
                    'zone pile: shared public\nzone gone: shared public\nvar x: int = 1\nphase main {\n'
                    '    move pile to gone\n'
                    f'    {statement}\n    end game\n}}\n')
    monkeypatch.setattr(interpreter.limits, "MAX_WORK_PER_MOVE", 100_000)
    results = []
    for traced in (True, False):
        state = _load(path, traced).new_game()
        fault = state.fault
        results.append((state.is_over, state.vars, fault and (fault.message, fault.span, fault.hint)))
    assert results[0] == results[1]


LOOPS = [
    "while true {\n        set x += 1\n    }",
    "loop {\n        set x += 1\n        if x % 3 == 0 {\n            set y += x\n        }\n    }",
    "while x > 0 {\n        for p in players {\n            set y += 1\n        }\n        repeat 2 times {\n            set x += 1\n        }\n    }",
]


@pytest.mark.parametrize("budget", [997, 1000, 1003])
@pytest.mark.parametrize("body", LOOPS)
def test_a_runaway_loop_stops_at_the_same_step(body, budget, tmp_path, monkeypatch):
    """Generated operations run several steps per call; the step budget still ends on the same step."""
    path = tmp_path / "loop.cardgame"
    path.write_text(f'game "Loop"\nplayers 2\nvar x: int = 1\nvar y: int = 0\nphase main {{\n    {body}\n    end game\n}}\n')
    # statements cost STEP_COST units each of the move's work budget
    monkeypatch.setattr(interpreter.limits, "MAX_WORK_PER_MOVE", budget * interpreter.limits.STEP_COST)
    results = []
    for traced in (True, False):
        state = _load(path, traced).new_game()
        assert state.fault is not None
        results.append((state.vars, json.dumps(state.to_json()["stack"]), state.fault.message, state.fault.span))
    assert results[0] == results[1]


HEAVY_RULES = '''
game "Heavy"
players 2
deck d in pile {
    rank: 1, 2, 3, 4, 5, 6, 7, 8
    suit: A, B, C
    name: rank suit
}
zone pile: shared public
zone hand: per player owner
define many = range(1, 40)
define big(p: player) = count x in many where any c in hand[p] where c.rank == x % 8
rule heavy(p: player, c: card) "Costly, and the same for every card."
    when big(p) > 3
    require c.rank >= count y in many where y < 3 or c.suit == A
phase main {
    deal 8 from pile to hand of players
    decide seat(0) "Pick" {
        pick(c from hand[seat(0)]) requires heavy(seat(0), c) { }
    }
    end game
}
'''


HEAVY_LOOPS = HEAVY_RULES.replace(
    "define big(p: player) = count x in many where any c in hand[p] where c.rank == x % 8",
    "define costly(p: player) = [x % 8 for x in many where any c in hand[p] where c.rank == x % 5]\n"
    "define big(p: player) = count([c for c in hand[p] where c.rank in costly(p) and count(costly(p)) > 2])")


@pytest.mark.parametrize("script", [HEAVY_RULES, HEAVY_LOOPS], ids=["rules", "loops"])
@pytest.mark.parametrize("budget", [100, 2_000, 2_600, 3_100, 5_000, 1_000_000])
def test_work_charged_by_parts_computed_once_is_exact(script, budget, tmp_path, monkeypatch):
    """A part of a rule or a loop that is the same for every candidate or item is computed
    once, but charged to the work budget every time, so the budget runs out at the same place."""
    path = tmp_path / "heavy.cardgame"
    path.write_text(script)
    monkeypatch.setattr(interpreter.limits, "MAX_WORK_PER_MOVE", budget)
    results = []
    for traced in (True, False):
        state = _load(path, traced).new_game(seed=3)
        moves = [m.text for m in state.legal_moves()]
        fault = state.fault and (state.fault.message, state.fault.span)
        results.append((moves, fault, state.work))
    assert results[0] == results[1]


DEFERRED = [
    "set x = count([c for c in pile where c.rank in [1, 2, 3] and c.suit in [A, B]])",
    "set x = count c in pile where c.rank in [2, 4, 6, 8] and names[number(seat(1))] == c.suit",
    "set x = (max c in pile by (if c.rank in [7] and c.suit in [C] then c.rank + none else c.rank)).rank",
    "set x = count c in pile where c.rank in [1, 2] and x in [1] and any d in gone where d == c",
    "set x = count([c for c in pile where names[number(seat(1))] == c.suit and c.rank in [1, 2]])",
    "set x = count([(if c.rank == 8 and c.suit == C then c.rank + none else c.rank) for c in pile where c.rank in [1, 8]])",
    "set x = (min c in pile by (if c.suit in [B] and names[x] == c.suit then 9 - c.rank else c.rank + x)).rank",
    "set x = count c in pile where names[x] == c.suit and c.rank in [1, 2, 3, 4]",
]


@pytest.mark.parametrize("budget", list(range(1, 200, 3)) + [1_000_000])
@pytest.mark.parametrize("statement", DEFERRED)
def test_a_loop_checked_after_it_faults_where_each_check_would(statement, budget, tmp_path):
    """A loop whose constant charges are checked once, after it (Gen._deferring), runs over the
    budget, or meets another fault, at the very item and with the very work the traced code does."""
    path = tmp_path / "deferred.cardgame"
    path.write_text(f'game "Deferred"\nplayers 2\nlimit work_per_game {budget}\ndeck d in pile {{\n    rank: 1, 2, 3, 4, 5, 6, 7, 8\n'
                    '    suit: A, B, C\n    name: rank suit\n}\nzone pile: shared public\nzone gone: shared public\n'
                    'var x: int = 1\ndefine names = [A, B, C]\nphase main {\n    move top(pile) to gone\n'
                    f'    {statement}\n    end game\n}}\n')
    results = []
    for traced in (True, False):
        state = _load(path, traced).new_game()
        fault = state.fault
        results.append((state.is_over, state.vars, state.work, fault and (fault.message, fault.span)))
    assert results[0] == results[1]
    if budget == 1_000_000:
        assert results[0][3] is None or "none" in results[0][3][0]


DEALS = [
    "deal 3 from pile to hand of players",
    "deal 2 from pile to hand of [seat(1), seat(0), seat(2)]",
    "deal 2 from pile to hand of [seat(1), seat(1), seat(0)]",  # a seat twice a round: card by card
    "deal 5 from pile to hand of players\n    deal 1 from hand[seat(0)] to hand of players",  # from a hand dealt to
    "deal 9 from pile to hand of players",  # more than the pile holds: the fault, part dealt
    "deal 0 from pile to hand of players\n    deal 8 from pile to hand of [seat(2)] face up",
    "deal 4 from pile to hand of []",
]


@pytest.mark.parametrize("statement", DEALS)
def test_a_deal_all_at_once_leaves_what_card_by_card_leaves(statement, tmp_path):
    """Fast code with nobody listening deals a deal's cards at once; traced code deals them card
    by card: the same zones, places, facing, work and faults."""
    path = tmp_path / "deal.cardgame"
    path.write_text('game "Deals"\nplayers 3\ndeck d in pile {\n    rank: 1, 2, 3, 4, 5, 6, 7, 8\n'
                    '    suit: A, B, C\n    name: rank suit\n}\nzone pile: shared hidden\nzone hand: per player owner\n'
                    f'phase main {{\n    shuffle pile\n    {statement}\n    end game\n}}\n')
    results = []
    for traced in (True, False):
        state = _load(path, traced).new_game(seed=5)
        fault = state.fault and (state.fault.message, state.fault.span)
        results.append((json.dumps(state.to_json(), sort_keys=True), state.work, fault))
    assert results[0] == results[1]


WRITTEN_OUT = ["st.work += 10", "st.work += hw * (len(x) + 1)", "vis[c] &= -4611686018427387905",
               "st.vis[c] |= 1 << seat", "L[3] -= 1", "L[6] += 1"]
KEPT = ["out += [c]", "L[2] += x", "tried += 1", "vis[c] += 1"]  # a list, or a target not known to be a number


def test_augmented_assignments_to_numbers_are_written_out_alike():
    """The fast code's `st.work += x` / `vis[c] &= k` are written as plain assignments (fewer
    instructions); each leaves what the augmented one leaves, and lists are still extended in place."""
    from types import SimpleNamespace

    from cardgame.interpreter.codegen.text_passes import written_out

    def run(line):
        vis = [5, 1 << 62 | 3, 7]
        ns = {"st": SimpleNamespace(work=4, vis=vis), "vis": vis, "L": [0, 0, (1,), 8, 0, 0, 2],
              "hw": 3, "c": 1, "seat": 2, "x": (2,), "out": [], "tried": 0}
        alias = ns["out"]
        exec(line, ns)
        return ns["st"].work, vis, ns["L"], ns["out"] is alias and ns["out"], ns["tried"]

    for line in WRITTEN_OUT:
        rewritten, = written_out([line])
        assert not any(f" {op}= " in rewritten for op in "+-&|"), rewritten
        assert run(rewritten) == run(line), line
    assert written_out(KEPT) == KEPT
    fast = "\n".join(_load(GAMES / "bouncer.cardgame", traced=False).program.compiler.gen.sources)
    assert "st.work +=" not in fast and "st.work = st.work + " in fast


def test_the_state_lists_are_read_again_only_where_no_read_has_surely_run():
    """A card move's `zones, loc, vis = ...` is left out where an earlier one dominates it (and
    the lines it dominates use the locals); one that may not have run is kept."""
    from cardgame.interpreter.codegen.text_passes import STATE_LISTS, state_lists_read_once

    lines = ["if a:", f"    {STATE_LISTS}", "    zones[1].append(c)", "    for c in cs:", f"        {STATE_LISTS}",
             "        x = st.zones[2]", "    y = st.loc[c]", "else:", f"    {STATE_LISTS}", "z = st.vis[c]",
             f"{STATE_LISTS}", "if b:", f"    {STATE_LISTS}"]
    assert state_lists_read_once(lines) == [
        "if a:", f"    {STATE_LISTS}", "    zones[1].append(c)", "    for c in cs:",
        "        x = zones[2]", "    y = loc[c]", "else:", f"    {STATE_LISTS}", "z = st.vis[c]",
        f"{STATE_LISTS}", "if b:"]


SMALL_DEFINES = '''game "Small"
players 2
limit work_per_game BUDGET
var x: int = 1
var y: int = 0
define next_x = x + 1
define ratio = y / (x - 2)
define huge = x * 4611686018427387904
define walked = count a in range(1, 5) where a > x
phase main {
    set y = next_x + next_x
    set x = next_x
    set y += walked + LAST
    end game
}
'''


@pytest.mark.parametrize("budget", list(range(1, 60, 2)) + [1_000_000])
@pytest.mark.parametrize("last", ["0", "ratio", "huge"])
def test_a_small_definition_named_is_written_where_it_is_read(last, budget, tmp_path):
    """A definition without parameters whose body walks no list is written where it is read
    (nothing to keep in State.memo); one that walks a list is still called.  Either way the
    value, the work charged and any fault are the traced code's."""
    path = tmp_path / "small.cardgame"
    path.write_text(SMALL_DEFINES.replace("BUDGET", str(budget)).replace("LAST", last))
    results = []
    for traced in (True, False):
        game = _load(path, traced)
        state = game.new_game()
        fault = state.fault
        results.append((state.is_over, state.vars, state.work, fault and (fault.message, fault.span)))
    assert results[0] == results[1]
    ops = [s for s in game.program.compiler.gen.sources if s.startswith("def op")]
    assert not any("D_next_x" in s or "D_huge" in s for s in ops)
    assert any("D_walked" in s for s in ops)
    if budget == 1_000_000:
        assert (results[0][3] is None) == (last == "0")


ONE_ITEM = '''game "One item"
players 2
limit work_per_move BUDGET
var k: int = 0
var turns: int = 0
var got: list of int = []
define maybe(n: int) = [x * 10000000 for x in [n + k] where x > 2]
rule fits(n: int) "Fits."
    require count([y for y in [n * k] where y < 5]) > 0
phase main {
    loop {
        set got = got + maybe(1) + [z + 1 for z in [k]] + [w for w in [k - 1] where w != 0]
        decide seat(k % 2) {
            bump {
                set k += 1
            }
            big(n in 1..3) requires fits(n) {
                set k += n
            }
            grow {
                set k += 100000000000
            }
        }
        set turns += 1
        if turns > 12 {
            end game
        }
    }
}
'''


@pytest.mark.parametrize("budget", [20, 45, 90, 1_000_000])
def test_a_comprehension_over_one_item_plays_as_the_walk_of_it(budget, tmp_path):
    """`[f(x) for x in [v] where P(x)]`, written as a let and an if in fast code (Gen._one_item),
    in a phase, a definition and a rule: the traced walk's moves, work and faults (a number too
    big in `maybe` once `grow` has run), at budgets that run out on the way."""
    path = tmp_path / "one_item.cardgame"
    path.write_text(ONE_ITEM.replace("BUDGET", str(budget)))
    fast = _load(path, traced=False)
    op = "\n".join(s for s in fast.program.compiler.gen.sources if s.startswith("def op"))
    assert "for " not in op and "q" in op  # no walk left in the phase's code
    _plays_alike(path, seeds=range(8))
