"""Texts: parts (`{...}`) only in a log line or a prompt, escaped braces kept as written."""

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
