"""Texts: parts (`{...}`) only in a log line or a prompt, escaped braces kept as written, and texts
as the items of a move quoted where they would read as another value or run into each other's
words, each move read back."""

from __future__ import annotations

import pytest

from cardgame import interpreter


def test_a_text_outside_a_log_or_prompt_is_refused_with_parts_and_kept_with_escaped_braces(tmp_path):
    script = tmp_path / "texts.cardgame"
    body = 'game "Texts"\nplayers 2\ndefine shown = {}\nphase main {{\n    log "{{shown}}"\n    end game\n}}\n'
    script.write_text(body.format('"\\{kept\\} " + 1'))
    state = interpreter.load(str(script)).new_game(seed=1)
    assert state.evaluate("shown")[0] == "{kept} 1"
    script.write_text(body.format('"plays {1}"'))
    with pytest.raises(interpreter.ScriptError) as refused:
        interpreter.load(str(script))
    assert [d.code for d in refused.value.diagnostics] == ["E0136"]


SAY = """game "B"
players 2
phase go {
    decide seat(0) "Say" {
        say(a from LIST)
    }
    end game
}
"""


@pytest.mark.parametrize("items, texts", [
    ('["none", none, "x"]', ['say "none"', "say x"]),
    ('["3", 3, "-3", "3a"]', ['say "3"', "say 3", 'say "-3"', "say 3a"]),
    ('["true", true, false, "false"]', ['say "true"', "say true", "say false", 'say "false"']),
    ('[["none"], ["3"], [3]]', ['say ["none"]', 'say ["3"]', "say [3]"]),
    ('["J", "a b", ""]', ["say J", 'say "a b"', 'say ""']),
])
def test_a_text_that_reads_as_a_value_is_quoted_and_every_move_round_trips(tmp_path, items, texts):
    """Before: the text "3" and the number 3 both read `say 3` (and "true", true `say true`),
    and the listing, one move per name, silently kept one of the two."""
    path = tmp_path / "say.cardgame"
    path.write_text(SAY.replace("LIST", items))
    game = interpreter.load(str(path))
    state = game.new_game(seed=1)
    moves = state.legal_moves()
    assert [m.text for m in moves] == texts
    for move in moves:
        assert state.parse_move(move.text) == move
        played = game.new_game(seed=1)
        played.apply(move.text)
        again = game.new_game(seed=1)
        again.apply(move)
        assert played.to_json() == again.to_json() and played.history == [move.text]


TEXT_ITEMS = """game "Words"
players 2

phase main {
    decide seat(0) "Say something" {
        lay(ts from 1..2 of ["a b", "a", "b", ""])
        pick(a from ["x y", "x"], b from ["z", "y z"])
        say(e from ["", "q"], f from ["q", ""])
    }
    end game
}
"""


def test_texts_whose_words_run_together_still_name_one_move_each(tmp_path):
    """`pick "x y" z` and `pick x "y z"` both read `pick x y z`, so one of the two legal moves
    was silently dropped from the listing (11 moves of 19 were lost or merged)."""
    script = tmp_path / "words.cardgame"
    script.write_text(TEXT_ITEMS)
    state = interpreter.load(str(script)).new_game(players=2, seed=1)
    texts = [m.text for m in state.legal_moves()]
    assert texts == ['lay ""', 'lay a', 'lay "a b"', 'lay b', 'lay "" a', 'lay "" "a b"', 'lay "" b', 'lay a "a b"',
                     'lay a b', 'lay "a b" b', 'pick "x y" z', 'pick "x y" "y z"', 'pick x z', 'pick x "y z"',
                     'say "" q', 'say "" ""', 'say q q', 'say q ""']
    state.apply('pick x "y z"')
    assert state.history == ['pick x "y z"']
