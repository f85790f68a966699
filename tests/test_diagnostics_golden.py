"""Golden diagnostics: each broken script beside its expected `cardgame check` output.

Regenerate on purpose with `UPDATE_GOLDEN=1 python -m pytest tests/test_diagnostics_golden.py`.
"""

import os
from pathlib import Path

import pytest

from cardgame import interpreter

GOLDEN = Path(__file__).parent / "golden" / "diagnostics"
CASES = sorted(GOLDEN.glob("*.cardgame"))


def rendered(path: Path) -> str:
    relative = os.path.relpath(path, Path(__file__).parent.parent)
    _tables, _items, sources, diags = interpreter.check_file(relative)
    return "\n\n".join(interpreter.render(d, sources) for d in diags) + "\n"


@pytest.mark.parametrize("script", CASES, ids=[c.stem for c in CASES])
def test_golden_diagnostics(script, monkeypatch):
    monkeypatch.chdir(Path(__file__).parent.parent)
    expected_file = script.with_suffix(".expected")
    actual = rendered(script)
    if os.environ.get("UPDATE_GOLDEN"):
        expected_file.write_text(actual)
    assert expected_file.exists(), f"no golden file; run with UPDATE_GOLDEN=1 to create {expected_file.name}"
    assert actual == expected_file.read_text()
    assert actual.strip(), "a broken script must produce at least one diagnostic"


def test_there_are_at_least_15_distinct_cases():
    codes = set()
    for script in CASES:
        codes.update(line.split("]")[0] for line in script.with_suffix(".expected").read_text().splitlines()
                     if line.startswith(("error[", "warning[")))
    assert len(CASES) >= 15 and len(codes) >= 15
