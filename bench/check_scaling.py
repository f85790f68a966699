"""Checking and opening a script in the editor are linear in its size (issue 40): the time per KB
of a 10 KB and an 80 KB script of long lists, long sums and many rules, each measured in this
process (the interpreter's start-up left out), which should stay within 2x of each other.

The scripts are made here, each its size in three equal parts: one list literal of numbers (a
quadratic check of its items once took 11.8 s at 10,000 items), `set` statements each adding up
100 terms, and rules that one alternative names all of.  Every run checks a text of its own (a
comment tells the runs apart), so the syntax cache never answers for the parser.
"""

from __future__ import annotations

import time

SIZES_KB = (10, 80)
TARGET_FACTOR = 2.0  # the larger script's time per KB within this factor of the smaller's

_HEAD = 'game "Scaling"\nplayers 2\ndeck d in pile { rank: 1, 2, 3, 4 }\nzone pile: shared public\n' \
        'zone hand: per player owner\nvar total: int = 0\n'
_SUM = "    set total = " + " + ".join(["1"] * 100) + "\n"


def scaling_script(kb: int) -> str:
    """A script of about `kb` KB: a third a long list, a third long sums, a third many rules."""
    third = kb * 1024 // 3
    items = third // 3  # `1, ` is three characters
    rules, uses = [], []
    while sum(map(len, rules)) + sum(map(len, uses)) < third:
        k = len(rules)
        rules.append(f'rule r{k}(p: player) "rule {k}" require count(hand[p]) >= 0\n')
        uses.append(f"r{k}(seat(0)), ")
    sums = [_SUM] * max(1, third // len(_SUM))
    return (_HEAD + "var items: list of int = [" + ", ".join(["1"] * items) + "]\n" + "".join(rules) +
            'phase main {\n    decide seat(0) "go" {\n        go requires ' + "".join(uses).rstrip(", ") +
            " { }\n    }\n" + "".join(sums) + "    end game\n}\n")


def check_per_kb(repeat: int, folder, sizes=SIZES_KB) -> dict:
    """Best seconds per KB of `check` and of opening in the editor (authoring.analysis.Analysis,
    which checks and also reads the text's tokens) for each size, and the ratios between them."""
    from cardgame import interpreter
    from cardgame.authoring.analysis import Analysis
    out = {"sizes_kb": list(sizes)}
    for what, run in (("check", lambda path, text: interpreter.check_file(path, text)),
                      ("open", lambda path, text: Analysis(path, text))):
        per_kb = []
        for kb in sizes:
            text = scaling_script(kb)
            path = str(folder / f"scaling_{kb}.cardgame")
            best = None
            for i in range(repeat):
                unique = f"# {what} run {i} {time.perf_counter_ns()}\n" + text
                started = time.perf_counter()
                found = run(path, unique)
                seconds = time.perf_counter() - started
                diags = found[3] if isinstance(found, tuple) else found.diagnostics
                assert not [d for d in diags if d.severity == "error"], diags[:3]
                best = seconds if best is None else min(best, seconds)
            per_kb.append(best / (len(text) / 1024))
        out[f"{what}_s_per_kb"] = per_kb
        out[f"{what}_factor"] = per_kb[-1] / per_kb[0]
    return out
