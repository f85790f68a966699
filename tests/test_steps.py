"""Steps and a variant's finer changes (docs/language.md §20, "Variants: steps, phases and
cases"): what each form does to the game played, in exact logs and values; that the words stay
names elsewhere; that a step opens no scope.  Their diagnostics are the golden cases
tests/golden/diagnostics/variation_*."""

from __future__ import annotations

from helpers import check_codes, load_text, value_of

from cardgame import interpreter
from cardgame.interpreter.language import nodes as n

BASE = '''game "Counting"
players 2
var total: int = 0
var seen: list of text = []

define bonus(n: int) = if n > 2 then 10 else n

procedure note(word: text) {
    set seen = seen + [word]
}

procedure tally(n: int) {
    step add {
        set total += bonus(n)
    }
    note("tally")
}

phase start {
    step first {
        let n = 1
        note("first")
    }
    step second {
        note("second")
        tally(n)
    }
    next middle
}

phase middle {
    note("middle")
    if total > 100 {
        end game
    }
    tally(3)
    next finish
}

phase finish {
    note("finish")
    end game
}

score p: total
winners: highest score
'''


def _played(tmp_path, variant: str) -> tuple[str, str]:
    """(total, seen) at the end of the game BASE makes with `variant` (a file that includes it)."""
    (tmp_path / "base.cardgame").write_text(BASE)
    state = load_text(tmp_path, variant, "variant.cardgame").new_game(players=2, seed=0)
    assert state.is_over and state.fault is None
    return value_of(state, "total"), value_of(state, "seen")


def test_the_original_with_its_steps(tmp_path):
    assert _played(tmp_path, 'include "base.cardgame"\n') == \
        ("11", '["first", "second", "tally", "middle", "tally", "finish"]')


def test_a_step_opens_no_scope_its_let_is_read_after_it(tmp_path):
    """`n` is made in step `first` and read in step `second`."""
    assert check_codes(tmp_path, BASE) == []


def test_replace_and_remove_a_step(tmp_path):
    variant = 'include "base.cardgame"\nreplace step start.second {\n    note("2nd")\n}\n'
    assert _played(tmp_path, variant) == ("10", '["first", "2nd", "middle", "tally", "finish"]')
    assert _played(tmp_path, 'include "base.cardgame"\nremove step tally.add\n') == \
        ("0", '["first", "second", "tally", "middle", "tally", "finish"]')


def test_insert_steps_before_and_after_a_step(tmp_path):
    variant = ('include "base.cardgame"\n'
               'insert step zero before start.first {\n    note("zero")\n}\n'
               'insert step third after start.second {\n    note("third")\n}\n')
    assert _played(tmp_path, variant) == \
        ("11", '["zero", "first", "second", "tally", "third", "middle", "tally", "finish"]')


def test_insert_a_phase_before_the_first_phase_starts_the_game_with_it(tmp_path):
    variant = 'include "base.cardgame"\ninsert phase warm_up before start {\n    note("warm up")\n}\n'
    assert _played(tmp_path, variant)[1] == '["warm up", "first", "second", "tally", "middle", "tally", "finish"]'


def test_insert_a_phase_after_a_phase_runs_where_it_went(tmp_path):
    variant = 'include "base.cardgame"\ninsert phase between after start {\n    note("between")\n}\n'
    assert _played(tmp_path, variant)[1] == '["first", "second", "tally", "between", "middle", "tally", "finish"]'


def test_an_inserted_phase_that_ends_on_its_own_keeps_its_way(tmp_path):
    variant = 'include "base.cardgame"\ninsert phase stop_early before middle {\n    end game\n}\n'
    assert _played(tmp_path, variant)[1] == '["first", "second", "tally"]'


def test_extend_define_adds_a_case_and_the_last_added_is_tried_first(tmp_path):
    variant = ('include "base.cardgame"\n'
               'extend define bonus(n: int) = if n == 3 then 100\n'
               'extend define bonus(n: int) = if n >= 3 then 1000\n')
    assert _played(tmp_path, variant)[0] == "1001"  # 1 (n = 1) + 1000 (n = 3: the later case)
    assert _played(tmp_path, 'include "base.cardgame"\nextend define bonus(n: int) = if n == 3 then 100\n')[0] \
        == "101"


def test_a_variant_of_a_variant_changes_the_step_its_variant_replaced(tmp_path):
    (tmp_path / "middle.cardgame").write_text('include "base.cardgame"\nreplace step start.first {\n'
                                              '    let n = 2\n    note("one")\n}\n')
    variant = 'include "middle.cardgame"\nreplace step start.first {\n    let n = 3\n    note("outer")\n}\n'
    assert _played(tmp_path, variant) == ("20", '["outer", "second", "tally", "middle", "tally", "finish"]')


def test_the_words_stay_names_of_procedures(tmp_path):
    """`step`, `remove`, `insert` and `extend` are keywords only before what they take: procedures
    of those names are declared and called, after a statement that ends in a value too."""
    script = '''game "Words"
players 2
var total: int = 0
procedure step(n: int) {
    set total += n
}
procedure remove(n: int) {
    set total -= n
}
procedure insert(n: int) {
    set total += 2 * n
}
procedure extend(n: int) {
    set total += 3 * n
}
define before = 1
define after = 2
phase only {
    let x = before + after
    step(x)
    remove(1)
    insert(x)
    extend(1)
    end game
}
score p: total
winners: highest score
'''
    state = load_text(tmp_path, script).new_game(players=2, seed=0)
    assert value_of(state, "total") == "11"


def test_the_game_played_has_no_step_left(tmp_path):
    (tmp_path / "base.cardgame").write_text(BASE)
    tables, items, _sources, diags = interpreter.check_file(str(tmp_path / "base.cardgame"))
    assert diags == []
    assert not any(isinstance(x, n.Step) for item in items for x in n.walk(item))


def test_thousands_of_added_cases_check_and_play(tmp_path):
    """Added cases are not limited in number: 1,700 of them check clean and play."""
    cases = "".join(f"extend define bonus(n: int) = if n == {k} then {k}\n" for k in range(1700))
    (tmp_path / "base.cardgame").write_text(BASE)
    (tmp_path / "variant.cardgame").write_text('include "base.cardgame"\n' + cases)
    _tables, _items, _sources, diags = interpreter.check_file(str(tmp_path / "variant.cardgame"))
    assert diags == []
    assert _played(tmp_path, 'include "base.cardgame"\n' + cases)[0] == "4"  # bonus(1) + bonus(3), each its own case
