"""`why MOVE [more|full] [--expand NAME]...`: an Explanation as the REPL shows it, in three depths.

- short (`why MOVE`): a few lines that fit a small terminal: the verdict in players' words
  ("6H does not beat 8H", RuleResult.plain), then each rule that decided it with its text and
  the part of it that did, with its values (`strength(c) > highest_trump is 4 > 6 = false`);
- more (`why more`, after it): the verdict, then every rule: PASS, FAIL, or SKIP when its `when`
  was false (and why), where it is;
- full (`why full`): every rule with its source lines and the values it looked at, a
  quantifier's witness beside its value, and each call of a definition named by `--expand`
  opened under its rule: its arguments, its body's values, and further expansions inside it.

Plain text; the prompt-toolkit layer colours the status words.
"""

from __future__ import annotations

import re

STATUS = {"pass": "PASS", "fail": "FAIL", "not applicable": "SKIP"}
DEPTHS = ("short", "more", "full")
_CALL = re.compile(r"\b([A-Za-z_]\w*)\(")


def split_expand(rest: str) -> tuple[str, list[str], str | None]:
    """The move text, the definition names of `--expand NAME` (repeated, or NAME,NAME), and the
    depth asked with `--more` or `--full` (None: not said)."""
    words, names, move, depth = rest.split(), [], [], None
    i = 0
    while i < len(words):
        if words[i] in ("--expand", "-e"):
            if i + 1 >= len(words):
                raise ValueError("`--expand` needs a definition's name, for example `--expand NAME`")
            names += [n for n in words[i + 1].split(",") if n]
            i += 2
            continue
        if words[i] in ("--more", "--full"):
            depth = words[i][2:]
        else:
            move.append(words[i])
        i += 1
    return " ".join(move), names, depth


def why_lines(explanation, context: str, excerpt, defines: list[str], depth: str = "full") -> list[str]:
    """The lines of `why` at `depth` (DEPTHS).  `context` follows the move in the first line
    (` for P1 at step 3 (phase trick)`); `excerpt(span)` gives a span's source lines; `defines`
    are the script's definitions (for the hint on what `--expand` can open)."""
    if depth == "short":
        return _short(explanation, context)
    lines = [f"`{explanation.move}`{context}: {explanation.verdict}"]
    called = []
    for rule in explanation.rules:
        doc = f" - {rule.doc}" if rule.doc else ""
        lines.append(f"rule {rule.name}: {STATUS.get(rule.status, rule.status.upper())}{doc}")
        if rule.verdict:
            lines.append(f"  {'does not apply' if rule.status == 'not applicable' else 'because'}: {rule.verdict}")
        if rule.plain:
            lines.append(f"  that is: {rule.plain}")
        if depth == "more":
            lines.append(f"  --> {rule.span.path}:{rule.span.line}")
            continue
        lines += excerpt(rule.span)
        lines += _values(rule.values, rule.witnesses, "  ")
        for expansion in rule.expansions:
            lines += _expansion(expansion, "  ")
        called += [name for text, _ in rule.values for name in _CALL.findall(text) if name in defines]
    if depth == "more" and explanation.rules:
        lines.append("  = help: `why full` shows each rule's source lines and the values it looked at")
    opened = {e.name for r in explanation.rules for e in r.expansions}
    closed = [name for name in dict.fromkeys(called) if name not in opened]
    if closed:
        lines.append(f"  = help: `why {explanation.move} --expand {closed[0]}` shows inside "
                     f"{'the definitions ' + ', '.join(closed) if len(closed) > 1 else closed[0]}")
    return lines


def _short(explanation, context: str) -> list[str]:
    """The verdict in players' words, and the rules that decided it, each in two lines."""
    rules = explanation.rules
    if explanation.legal is False and explanation.failing:
        deciding = explanation.failing
    elif explanation.legal:
        deciding = [r for r in rules if r.status == "pass"]
    else:
        deciding = []
    if deciding:
        said = "; ".join(r.plain or f"{r.name} {'passes' if r.status == 'pass' else 'fails'}" for r in deciding)
        verdict = f"{'legal' if explanation.legal else 'illegal'}: {said}"
    elif rules:  # legal, every rule skipped
        verdict = f"legal: no rule applies here ({', '.join(r.name for r in rules)} skipped)"
    else:
        verdict = explanation.verdict
    lines = [f"`{explanation.move}`{context}: {verdict}"]
    for rule in deciding:
        at = rule.where or rule.span
        lines.append(f"  {rule.name} ({at.path}:{at.line})" + (f": {rule.doc}" if rule.doc else ""))
        if rule.verdict:
            lines.append(f"    {rule.verdict}")
    if rules:
        lines.append("  = help: `why more`: every rule's verdict; `why full`: their values and source")
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
