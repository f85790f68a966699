"""`why MOVE [--expand NAME]...`: an Explanation as the REPL shows it.

The verdict comes first, on one line (what decided it, with file:line); then each rule with its
status (PASS, FAIL, or SKIP when its `when` was false), the part that decided it, its source
lines, and the values it looked at, a quantifier's witness beside its value.  Each call of a
definition named by `--expand` is opened under its rule: its arguments, its body's values, and
further expansions inside it.  Plain text; the prompt-toolkit layer colours the status words.
"""

from __future__ import annotations

import re

STATUS = {"pass": "PASS", "fail": "FAIL", "not applicable": "SKIP"}
_CALL = re.compile(r"\b([A-Za-z_]\w*)\(")


def split_expand(rest: str) -> tuple[str, list[str]]:
    """The move text and the definition names of `--expand NAME` (repeated, or NAME,NAME)."""
    words, names, move = rest.split(), [], []
    i = 0
    while i < len(words):
        if words[i] in ("--expand", "-e"):
            if i + 1 >= len(words):
                raise ValueError("`--expand` needs a definition's name, for example `--expand NAME`")
            names += [n for n in words[i + 1].split(",") if n]
            i += 2
            continue
        move.append(words[i])
        i += 1
    return " ".join(move), names


def why_lines(explanation, context: str, excerpt, defines: list[str]) -> list[str]:
    """The lines of `why`. `context` follows the move in the first line (` for P1 at step 3
    (phase trick)`); `excerpt(span)` gives a span's source lines; `defines` are the script's
    definitions (for the hint on what `--expand` can open)."""
    lines = [f"`{explanation.move}`{context}: {explanation.verdict}"]
    called = []
    for rule in explanation.rules:
        doc = f" - {rule.doc}" if rule.doc else ""
        lines.append(f"rule {rule.name}: {STATUS.get(rule.status, rule.status.upper())}{doc}")
        if rule.verdict:
            lines.append(f"  {'does not apply' if rule.status == 'not applicable' else 'because'}: {rule.verdict}")
        lines += excerpt(rule.span)
        lines += _values(rule.values, rule.witnesses, "  ")
        for expansion in rule.expansions:
            lines += _expansion(expansion, "  ")
        called += [name for text, _ in rule.values for name in _CALL.findall(text) if name in defines]
    opened = {e.name for r in explanation.rules for e in r.expansions}
    closed = [name for name in dict.fromkeys(called) if name not in opened]
    if closed:
        lines.append(f"  = help: `why {explanation.move} --expand {closed[0]}` shows inside "
                     f"{'the definitions ' + ', '.join(closed) if len(closed) > 1 else closed[0]}")
    return lines


def _values(values, witnesses, indent: str) -> list[str]:
    if not values:
        return []
    found = dict(witnesses)
    out = [f"{indent}looked at:"]
    for text, value in values:
        witness = f" ({found[text]})" if text in found else ""
        out.append(f"{indent}  {text} = {value}{witness}")
    return out


def _expansion(e, indent: str) -> list[str]:
    args = ", ".join(f"{name} = {value}" for name, value in e.args)
    out = [f"{indent}{e.call} = {e.value}, inside {e.name}" + (f" with {args}" if args else "")
           + f"  [{e.span.path}:{e.span.line}]"]
    out.append(f"{indent}  because: {e.verdict}")
    body = [(text, value) for text, value in e.values if (text, value) not in e.args]
    out += _values(body, e.witnesses, indent + "  ")
    for inner in e.expansions:
        out += _expansion(inner, indent + "  ")
    return out
