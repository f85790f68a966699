"""Hostile scripts refused when they are read or checked: each ends in its diagnostic, at once."""

from __future__ import annotations

import pytest

from conftest import SCRIPTS

LOAD_TIME = {
    "huge_literal": "E0114",  # a 5,000-digit number (was lark's VisitError)
    "nested_log": "E0111",  # nesting inside `log "{...}"` (was RecursionError)
    "nested_prompt": "E0111",  # nesting inside a prompt (was RecursionError)
    "huge_deck": "E0314",  # card "A" x 10000000 (was MemoryError)
    "million_deck": "E0314",  # a 1M-card deck (each shuffle cost 0.5 s)
    "binder_range": "E0315",  # pick(a in 1..4*10^18, b in 1..0) (hung)
    "escape_title": "E0113",  # escape sequences in a title (were written raw to the terminal)
    "escape_log": "E0113",  # ... in log text
    "zero_width_card": "E0113",  # `A\u200bS` that reads as `AS`
}


@pytest.mark.parametrize("name", sorted(LOAD_TIME))
@pytest.mark.parametrize("command", ["check", "play"])
def test_refused_at_load(cli, name, command):
    out = cli(command, SCRIPTS / f"{name}.cardgame").diagnosed(LOAD_TIME[name])
    assert "\x1b" not in out.err and "\u200b" not in out.err  # shown escaped, never raw
