"""A definition's value is computed once while nothing changes (codegen.Gen.define_fn): every
use sees what a fresh computation would give, and is charged the work it would cost, so the
fast code plays exactly like the traced reference, which computes every use."""

from __future__ import annotations

import re

import pytest

from cardgame import interpreter
from test_codegen import _load

SCRIPT = '''game "Memo"
players 2
deck d in pile {
    rank: 1, 2, 3
    suit: A
    name: rank suit
}
zone pile: shared public
zone gone: shared public
var x: int = 0
var y: int = 0
define heavy = count a in range(1, 50) where a > x + count(gone)
rule small(n: int) "Small enough."
    require n * 10 <= heavy + heavy
phase main {
    set y = heavy + heavy + heavy + heavy
    set x += 1
    set y += heavy
    move top(pile) to gone
    set y += heavy + count(gone)
    decide seat(0) {
        pick(n in 1..9) requires small(n)
    }
    set y += heavy
    end game
}
'''


def _traced_and_fast(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text)
    return _load(path, traced=True), _load(path, traced=False)


@pytest.fixture
def games(tmp_path):
    return _traced_and_fast(tmp_path, "memo.cardgame", SCRIPT)


def test_the_fast_code_shares_the_definition(games):
    _, fast = games
    source = next(s for s in fast.program.compiler.gen.sources if s.startswith("def D_heavy"))
    assert "st.zmemo.get(" in source  # it counts the cards of `gone`: kept apart (Gen._memo_store)


def test_a_definition_read_after_a_change_sees_the_new_value(games):
    for game in games:
        state = game.new_game()
        # range(1, 50) holds 50 numbers; x = 0, nothing gone: 50 four times; x = 1: 49; a card gone: 48 + 1
        assert state.vars[game.program.var_slots["y"]] == 4 * 50 + 49 + 49
        assert sorted(m.text for m in state.legal_moves()) == [f"pick {n}" for n in range(1, 10)]
        state.apply("pick 9")
        assert state.vars[game.program.var_slots["y"]] == 4 * 50 + 49 + 49 + 48


def test_a_shared_definition_runs_out_of_work_where_each_computation_would(games):
    # every budget from too small for one computation to enough for all: same fault, same span,
    # same variables (a reuse that would pass the limit computes again and faults inside)
    seen = set()
    for budget in range(1, 700, 3):
        results = []
        for game in games:
            state = game.new_game(max_game_work=budget)
            fault = state.fault
            results.append((state.vars, fault and (fault.message, fault.span)))
        assert results[0] == results[1], budget
        seen.add(results[0][1] and results[0][1][1].line)
    # faults inside the definition (line 12: its first computation, or a reuse computed again),
    # at the statements that use it, and none
    assert {12, 16, 20, None} <= seen


def test_a_listing_that_shares_a_definition_runs_out_where_it_would(games):
    seen = set()
    for budget in range(600, 2000, 9):  # the set-up takes 616 units, the listing 1,827
        results = []
        for game in games:
            state = game.new_game(max_work=budget, max_game_work=100_000)
            moves = state.legal_moves() if state.fault is None else None
            fault = state.fault
            results.append((moves and [m.text for m in moves], fault and (fault.message, fault.span)))
        assert results[0] == results[1], budget
        seen.add(results[0][1] is None)
    assert seen == {True, False}


def test_a_definition_cannot_draw_so_a_shared_value_is_never_a_draw(tmp_path):
    # chance is refused in a definition (E0218): a shared definition's value never stands for a draw
    path = tmp_path / "draw.cardgame"
    path.write_text(SCRIPT.replace("define heavy = ", "define heavy = random(1, 6) + "))
    with pytest.raises(interpreter.ScriptError) as refused:
        interpreter.load(str(path))
    assert "E0218" in {d.code for d in refused.value.diagnostics}


def test_an_evaluation_compiles_its_own_definitions_beside_the_games(games):
    # the REPL's evaluate() compiles the expression with a generator of its own, over the same
    # state: its definitions never take the places of the game's in State.memo
    _, fast = games
    state = fast.new_game()
    state.legal_moves()  # the listing computed `heavy` into the memo
    assert state.evaluate("heavy")[0] == "48"
    assert state.evaluate("[heavy, x]")[0] == "[48, 1]"
    state.apply("pick 9")
    assert state.vars[fast.program.var_slots["y"]] == 4 * 50 + 49 + 49 + 48


# A definition kept in State.memo is forgotten only by a change of what it reads (memo_reads.py):
# `x` and the cards of `gone`, here; `turns`, `aside` and the hands it never reads.
KEPT = '''game "Kept"
players 2
deck d in pile {
    rank: 1, 2, 3, 4
    suit: A
    name: rank suit
}
zone pile: shared public
zone gone: shared public
zone aside: shared public
zone hand: per player owner
var x: int = 0
var turns: int = 0
define heavy = count a in range(1, 6) where a > x + count(gone)
define above(k: int) = count a in range(1, 6) where a > x + count(gone) + k
define holding(k: int) = count c in hand[seat(0)] where c.rank > k
rule is_heavy(n: int) "Exactly heavy."
    require n == heavy
rule is_above(n: int) "Exactly above(1)."
    require n == above(1)
rule is_holding(n: int) "Exactly holding(0)."
    require n == holding(0)
phase main {
    loop {
        decide seat(0) {
            pick(n in 0..6) requires is_heavy(n) {
                end game
            }
            above_is(n in 0..6) requires is_above(n) {
                end game
            }
            holding_is(n in 0..4) requires is_holding(n) {
                end game
            }
            count_turn {
                set turns += 1
            }
            bump {
                set x += 1
            }
            drop {
                move top(pile) to gone
            }
            take_back {
                move top(gone) to aside
            }
            deal_one {
                move top(pile) to hand[seat(0)]
            }
        }
    }
}
'''


@pytest.fixture
def kept(tmp_path):
    return _traced_and_fast(tmp_path, "kept.cardgame", KEPT)


def test_a_change_of_what_no_definition_reads_keeps_the_memo(kept):
    _, fast = kept
    state = fast.new_game()
    state.legal_moves()  # computes `heavy`
    for move in ("count_turn", "deal_one", "drop", "take_back"):
        state.apply(move)
        # `gone` is read: a card going there, or leaving it for a zone nobody reads, forgets
        assert bool(state.memo or state.zmemo) == (move in ("count_turn", "deal_one")), move
        state.legal_moves()


def test_every_kept_value_is_the_one_computed_afresh(kept):
    # the traced reference keeps nothing: each listing shows `heavy` as computed now
    states = [game.new_game() for game in kept]
    for move in ("drop", "drop", "count_turn", "take_back", "deal_one", "bump", "take_back", "drop"):
        listed = [sorted(m.text for m in state.legal_moves()) for state in states]
        assert listed[0] == listed[1], move
        for state in states:
            state.apply(move)
    assert [m.text for m in states[1].legal_moves() if m.text.startswith("pick")] == ["pick 4"]
    assert [m.text for m in states[1].legal_moves() if m.text.startswith(("above", "holding"))] == \
        ["above_is 3", "holding_is 1"]


def test_a_call_with_constant_arguments_is_kept_where_it_reads_only_what_forgetting_watches(kept):
    # above(1) reads `x` and `gone`, as `heavy` does: kept; holding(0) reads a hand, which no
    # statement forgets for: computed at each use (the test above checks both values)
    sources = "\n".join(kept[1].program.compiler.gen.sources)
    assert "def D_above_" in sources and "def D_holding_" in sources
    wrappers = re.findall(r"^def (D_\w+_kept_\d+)\(", sources, re.M)
    assert wrappers and all(name.startswith("D_above_") for name in wrappers)


def _reads(tmp_path, extra: str):
    from cardgame.interpreter.codegen.memo_reads import memo_reads
    path = tmp_path / "reads.cardgame"
    path.write_text(KEPT.replace("define heavy", extra + "\ndefine heavy"))
    gen = interpreter.load(str(path)).program.compiler.gen
    return gen, memo_reads(gen.t, gen.p.zone_index, [name for name, d in gen.t.defines.items() if not d.params])


def test_the_reads_are_the_variables_and_zones_named_through_the_definitions_called(tmp_path):
    gen, reads = _reads(tmp_path, "define first_gone(k: int) = count(gone) + k + x\ndefine uses = first_gone(1)")
    assert reads.variables == {"x"} and not reads.facing
    assert reads.zones == {gen.p.zone_slot("gone", None, 2)}


@pytest.mark.parametrize("extra", [
    "define where = zone_of(top(pile))",  # where a card lies
    "define up = any c in pile where face_up(c)",  # how cards face
    "define mine = count(hand[seat(0)])",  # a per-player zone: its slot depends on the player count
    "var z: zone = pile\ndefine held = count(z)",  # a zone known only at run time
])
def test_a_zone_known_only_at_run_time_counts_as_reading_every_zone(tmp_path, extra):
    _, reads = _reads(tmp_path, extra)
    assert reads.zones is None


def test_every_builtin_that_reads_where_cards_lie_is_counted_as_reading_every_zone():
    import inspect

    from cardgame.interpreter.language.builtins import BUILTINS, READS_WHERE
    reading = {name for name, (_, _, _, impl) in BUILTINS.items()
               if any(w in inspect.getsource(impl) for w in ("st.loc", "st.vis", "owner_of_slot"))}
    assert reading and reading <= READS_WHERE


# A definition with a parameter, called again and again from other definitions, is kept per
# argument: `held(p)` three times for each computation of `both`, `twice(p)` twice.
PER_ARGUMENT = '''game "Per argument"
players 2
deck d in pile {
    rank: 1, 2, 3, 4
    suit: A, B
    name: rank suit
}
zone pile: shared public
zone hand: per player owner
var x: int = 0
var y: int = 0
define held(p: player) = count c in hand[p] where c.rank > x and not any o in pile where o.rank == c.rank + x
define twice(p: player) = held(p) + held(p)
define both = twice(seat(0)) + twice(seat(1)) + held(seat(0))
define once(p: player) = count c in hand[p] where c.rank > x
define top_rank(z: zone) = count c in z where c.rank > x
phase main {
    deal 3 from pile to hand of players
    set y = both + once(seat(1)) + top_rank(pile) + top_rank(pile)
    set x += 1
    set y += both
    move top(hand[seat(0)]) to pile
    set y += both
    decide seat(0) {
        pick(n in 1..9) requires small(n)
    }
    set y += both
    end game
}
rule small(n: int) "Small enough."
    require n <= both
'''


@pytest.fixture
def per_argument(tmp_path):
    return _traced_and_fast(tmp_path, "per_argument.cardgame", PER_ARGUMENT)


def test_a_definition_called_from_definitions_is_kept_per_argument(per_argument):
    from cardgame.interpreter.codegen.memo_reads import kept_definitions
    _, fast = per_argument
    gen = fast.program.compiler.gen
    # once(p) is called from one place, top_rank takes a zone: computed at each use
    assert set(kept_definitions(gen.t, lambda call: False)) == {"held", "twice", "both"}
    sources = {s.split("(")[0][4:]: s for s in gen.sources if s.startswith("def D_")}
    for name, source in sources.items():
        per_argument_kept = re.search(r"st\.z?memo\.get\(", source) is not None and "] = {}" in source
        assert per_argument_kept == name.startswith(("D_held", "D_twice")), name
    state = fast.new_game()
    state.legal_moves()  # `small` reads both
    # the values of held(p) for both seats sit in one dict under held's key
    assert any(type(kept) is dict and set(kept) == {0, 1} for kept in [*state.memo.values(), *state.zmemo.values()])


def test_values_kept_per_argument_are_the_ones_computed_afresh(per_argument):
    results = []
    for game in per_argument:
        state = game.new_game(seed=3)
        moves = sorted(m.text for m in state.legal_moves())
        state.apply(moves[0])
        results.append((moves, state.vars, state.game_work))
    assert results[0] == results[1]


def test_values_kept_per_argument_run_out_of_work_where_each_computation_would(per_argument):
    seen = set()
    for budget in range(1, 400, 2):
        results = []
        for game in per_argument:
            state = game.new_game(max_game_work=budget, seed=3)
            fault = state.fault
            results.append((state.vars, state.game_work, fault and (fault.message, fault.span)))
        assert results[0] == results[1], budget
        seen.add(results[0][2] and results[0][2][1].line)
    # faults inside held (line 12) and twice, at the statements that use both, and none
    assert {12, None} <= seen and len(seen) > 3


# The definitions that see where cards lie are kept apart from those that read variables only
# (State.zmemo, State.memo: Gen._memo_store): a card's move forgets the first, not the second.
APART = '''game "Apart"
players 2
deck d in pile {
    rank: 1, 2, 3, 4
    suit: A
    name: rank suit
}
zone pile: shared public
zone gone: shared public
var x: int = 0
define plain = count a in range(1, 6) where a > x
define carded = count a in range(1, 6) where a > x + count(gone)
define both = plain + carded
rule is_plain(n: int) "Exactly plain."
    require n == plain
rule is_both(n: int) "Exactly both."
    require n == both
phase main {
    loop {
        decide seat(0) {
            plain_is(n in 0..6) requires is_plain(n) {
                end game
            }
            both_is(n in 0..12) requires is_both(n) {
                end game
            }
            drop {
                move top(pile) to gone
            }
            bump {
                set x += 1
            }
        }
    }
}
'''


def test_a_card_move_keeps_what_reads_variables_only(tmp_path):
    traced, fast = _traced_and_fast(tmp_path, "apart.cardgame", APART)
    sources = {s.split("(")[0][4:].rsplit("_", 1)[0]: s for s in fast.program.compiler.gen.sources if s.startswith("def D_")}
    assert "st.memo.get(" in sources["D_plain"]
    assert "st.zmemo.get(" in sources["D_carded"] and "st.zmemo.get(" in sources["D_both"]  # `both` calls `carded`
    states = [game.new_game() for game in (traced, fast)]
    for move in ("drop", "drop", "bump", "drop", "bump", "bump"):
        listed = [sorted(m.text for m in state.legal_moves()) for state in states]
        assert listed[0] == listed[1], move
        assert states[1].memo and states[1].zmemo
        for state in states:
            state.apply(move)
        # a card's move forgets only the values that count `gone`; a change of `x`, all of them
        assert bool(states[1].memo) == (move == "drop") and not states[1].zmemo, move
        assert [s.work for s in states] == [states[0].work] * 2 and states[0].game_work == states[1].game_work
    listed = [sorted(m.text for m in state.legal_moves()) for state in states]
    assert listed[0] == listed[1] and "both_is 3" in listed[1] and "plain_is 3" in listed[1]  # 4..6, none above 6
