"""Every example in the documentation is checked, so the docs cannot drift from the language.

- docs/language.md and docs/diagnostics.md: each ```cardgame block.  The first line may be a
  directive comment:
    `# prelude`          (docs/language.md, once) a complete script the fragments of both files
                         are checked inside
    `# complete`         a complete script: no errors, and one random game runs to its end
    `# fault`            a complete script without errors whose game fails at run time (R0001)
    `# error CODE`       checked inside the prelude, must report CODE (`# error CODE alone`: by itself)
    `# warning CODE`     like `# error`, for a warning; there must be no error
    `# parse only`       only parsed (top-level items, statements or one expression)
    `# excerpt FILE`     lines quoted from a shipped game (FILE relative to the repository): they
                         must appear in FILE exactly, one after the other
  A block without a directive is a fragment: top-level items, statements or one expression,
  checked inside the prelude with no error.  Statements and expressions run where `p` is a
  player and `c` a card of p's hand.
- docs/language.md §24: every shipped game named in a heading (`### Name (`games/x.cardgame`)`)
  checks without errors and one random game of it runs to its end.
- docs/api.md: each ```python block runs from the repository root.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from cardgame import interpreter
from cardgame.interpreter.language.parser import parse_expression, parse_script

from helpers import play_out

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
FENCE = re.compile(r"^```([A-Za-z]*)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
MAX_DECISIONS = 5000

# Statements and expressions are placed here, inside the prelude.
STATEMENT_FRAME = """
phase docs_example {
    for p in players {
        for c in cards(hand[p]) {
            if true {
%s
            }
        }
    }
    end game
}
"""


def _blocks(name: str, lang: str) -> list[tuple[int, str]]:
    text = (DOCS / name).read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(text):
        if m.group(1) == lang:
            out.append((text.count("\n", 0, m.start()) + 1, m.group(2)))
    return out


DIRECTIVES = ("prelude", "complete", "fault", "error", "warning", "parse", "excerpt")


def _directive(block: str) -> list[str]:
    """The directive of a block's first line, or [] when it is an ordinary comment or code."""
    first = block.lstrip().split("\n", 1)[0].strip()
    words = first[1:].split() if first.startswith("#") else []
    return words if words[:1] and words[0] in DIRECTIVES else []


def _prelude() -> str:
    """The prelude of docs/language.md; diagnostics.md refers to it too."""
    preludes = [b for _, b in _blocks("language.md", "cardgame") if _directive(b)[:1] == ["prelude"]]
    assert len(preludes) == 1, "docs/language.md must have exactly one prelude"
    return preludes[0]


def _parses(parse, text: str) -> bool:
    try:
        return parse(text, "<doc>")[0] is not None
    except Exception:  # noqa: BLE001 - a parser crash is reported by the check that follows
        return False


def _fragment_kind(block: str) -> str | None:
    if _parses(parse_script, block):
        return "items"
    if _parses(parse_script, STATEMENT_FRAME % block):
        return "statements"
    if _parses(parse_expression, block.strip()):
        return "expression"
    return None


def _in_prelude(prelude: str, block: str, kind: str) -> str:
    if kind == "items":
        return prelude + "\n" + block
    if kind == "expression":
        block = "let docs_value = " + block.strip()
    return prelude + STATEMENT_FRAME % textwrap.indent(block, " " * 16)


def _check(tmp_path: Path, source: str):
    path = tmp_path / "example.cardgame"
    path.write_text(source, encoding="utf-8")
    _tables, _items, sources, diags = interpreter.check_file(str(path))
    return path, sources, diags


def _report(sources, diags) -> str:
    return "\n\n".join(interpreter.render(d, sources) for d in diags)


def _play(path: Path) -> interpreter.GameState:
    """One game between random players, seed 0, until it ends, fails or reaches MAX_DECISIONS."""
    game = interpreter.load(str(path))
    state = game.new_game(players=game.min_players, seed=0)
    return play_out(state, interpreter.RandomAgent(1), MAX_DECISIONS)


def _cases(name: str):
    return [pytest.param(name, line, block, id=f"{name}:{line}") for line, block in _blocks(name, "cardgame")]


CARDGAME_CASES = _cases("language.md") + _cases("diagnostics.md")


@pytest.mark.parametrize("doc, line, block", CARDGAME_CASES)
def test_cardgame_example(doc, line, block, tmp_path):
    directive = _directive(block)
    word = directive[0] if directive else ""
    if word in ("prelude", "complete", "fault"):
        path, sources, diags = _check(tmp_path, block)
        errors = [d for d in diags if d.severity == "error"]
        assert not errors, f"{doc}:{line}: the example has errors:\n{_report(sources, errors)}"
        state = _play(path)
        if word == "fault":
            assert state.fault is not None and state.fault.code == "R0001", \
                f"{doc}:{line}: the game was expected to fail at run time"
        else:
            fault = state.game.render_diagnostic(state.fault) if state.fault else ""
            assert state.fault is None, f"{doc}:{line}: the game failed:\n{fault}"
            assert state.is_over, f"{doc}:{line}: no end after {state.decisions} decisions " \
                                  f"(waiting on {state.prompt!r}, moves {state.legal_moves()})"
        return
    if word == "parse":
        assert _fragment_kind(block) is not None, f"{doc}:{line}: the example does not parse"
        return
    if word == "excerpt":
        quoted = block.split("\n", 1)[1].rstrip("\n")
        assert quoted + "\n" in (ROOT / directive[1]).read_text(encoding="utf-8"), \
            f"{doc}:{line}: the excerpt is not the text of {directive[1]}"
        return
    prelude = _prelude()
    if word in ("error", "warning"):
        code, alone = directive[1], "alone" in directive[2:]
        kind = _fragment_kind(block)
        kinds = [None] if alone else ([kind] if kind else ["items", "statements"])
        found = []
        for k in kinds:
            source = block if k is None else _in_prelude(prelude, block, k)
            _path, sources, diags = _check(tmp_path, source)
            found.extend(diags)
            if any(d.code == code for d in diags):
                if word == "warning":
                    errors = [d for d in diags if d.severity == "error"]
                    assert not errors, f"{doc}:{line}: unexpected errors:\n{_report(sources, errors)}"
                return
        pytest.fail(f"{doc}:{line}: expected {code}, found {[d.code for d in found]}")
    kind = _fragment_kind(block)
    assert kind is not None, f"{doc}:{line}: the example parses neither as items, statements nor an expression"
    _path, sources, diags = _check(tmp_path, _in_prelude(prelude, block, kind))
    errors = [d for d in diags if d.severity == "error"]
    assert not errors, f"{doc}:{line}: the example has errors:\n{_report(sources, errors)}"


SHIPPED = re.findall(r"^### .*\(`(games/\w+\.cardgame)`\)$", (DOCS / "language.md").read_text(encoding="utf-8"), re.M)


@pytest.mark.parametrize("script", SHIPPED)
def test_shipped_game_named_in_the_reference_checks_and_plays(script):
    """§24 points at the shipped games instead of copying them: those must check and play."""
    _tables, _items, sources, diags = interpreter.check_file(str(ROOT / script))
    errors = [d for d in diags if d.severity == "error"]
    assert not errors, f"{script}: errors:\n{_report(sources, errors)}"
    state = _play(ROOT / script)
    assert state.fault is None and state.is_over, f"{script}: no end after {state.decisions} decisions"


def test_every_doc_has_examples():
    assert len(_blocks("language.md", "cardgame")) >= 30
    assert _prelude()
    assert _blocks("api.md", "python")
    assert SHIPPED == ["games/bouncer.cardgame", "games/booray.cardgame", "games/bosspoker.cardgame",
                       "games/bohei.cardgame"]


@pytest.mark.parametrize("line, block", [pytest.param(line, block, id=f"api.md:{line}")
                                         for line, block in _blocks("api.md", "python")])
def test_api_example_runs(line, block, monkeypatch):
    monkeypatch.chdir(ROOT)
    exec(compile(block, f"docs/api.md:{line}", "exec"), {"__name__": "docs_example"})


def test_every_diagnostic_code_is_documented():
    """Each code the interpreter or the command line can report has a section in diagnostics.md."""
    used = set()
    for folder in ("interpreter", "repl"):
        for path in (ROOT / folder).rglob("*.py"):
            used |= set(re.findall(r"\b([EWRL]0\d{3})\b", path.read_text(encoding="utf-8")))
    documented = set(re.findall(r"^#+ .*?\b([EWRL]0\d{3})\b", (DOCS / "diagnostics.md").read_text(encoding="utf-8"),
                                re.M))
    missing = sorted(used - documented)
    assert not missing, f"codes without a section in docs/diagnostics.md: {missing}"


def test_each_diagnostic_code_has_one_meaning():
    """Two sections for one code mean two errors share it: a reader of `E0218` could not tell which."""
    headings = re.findall(r"^#+ ([EWRL]0\d{3})\b", (DOCS / "diagnostics.md").read_text(encoding="utf-8"), re.M)
    shared = sorted({code for code in headings if headings.count(code) > 1})
    assert not shared, f"codes documented more than once in docs/diagnostics.md: {shared}"
