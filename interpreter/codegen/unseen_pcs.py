"""A fused operation's writes of the program counter (`fr[1] = pc`) that nothing can see.

The counter tells runtime.run where the frame goes on, and a fault where it happened
(runtime.statement_span: a value fault, or an over-budget fault without a span).  A write that
is followed, on every path, by another write of it before anything can fail, return or call
out is never read: it is dropped, and copied into the over-limit branches of the step charges
met on the way (their `_over_budget` / `_steps_over` read it), so a fault there is the same.
What lies between the two writes must be lines that cannot fail (the patterns below: the step
charges, the loops' writes of compiler.py, frame slots and variables given plain values), or an
`if` whose test cannot fail and whose branches all write it again.  A `next` entered in place
(`fr = [...]`, `st.stack[:] = [fr]`) leaves the old frame unseen too.  Only fast and playout
operations are rewritten: traced code is the reference.
"""

from __future__ import annotations

import re

from .flow import LOOP_WRITE, PURE, SAFE_TEST, block_tree

_WRITE = re.compile(r"^fr\[1\] = \d+$")
_CANNOT_FAIL = re.compile(
    r"^(?:st\.work \+= \d+|pass|st\.z?memo = \{\}|zones, loc, vis = st\.zones, st\.loc, st\.vis"
    r"|L\[\d+\] = (?:L\[\d+\]|-?\d+|None|True|False)|st\.vars\[\d+\] = (?:L\[\d+\]|-?\d+|None|True|False))$")
_CHECK = "if st.work > st.work_limit:"
_NEW_FRAME = re.compile(r"^fr = \[\d+, 0, \[None\] \* \d+\]$")


def unseen_pcs_dropped(lines: list[str]) -> list[str]:
    """`lines` without the program counter writes nothing reads (see above)."""
    if sum(1 for line in lines if _WRITE.match(line.strip())) < 2:
        return lines
    out: list[str] = []
    _block(block_tree(lines), out)
    return out


def _overwritten(nodes, start: int, checks: list) -> bool:
    """Whether every path from nodes[start:] writes the counter again (or leaves the frame)
    before anything can see it; `checks` gathers the over-limit branches met on the way."""
    i = start
    while i < len(nodes):
        node = nodes[i]
        text = node.text
        if not node.body:
            if _WRITE.match(text):
                return True
            if _NEW_FRAME.match(text):
                return i + 1 < len(nodes) and nodes[i + 1].text == "st.stack[:] = [fr]" and not nodes[i + 1].body
            if not (_CANNOT_FAIL.match(text) or PURE.match(text) or LOOP_WRITE.match(text)):
                return False
        elif text == _CHECK:
            checks.append(node)
        elif SAFE_TEST.match(text):
            if i + 1 >= len(nodes) or nodes[i + 1].text != "else:":
                return False
            return _overwritten(node.body, 0, checks) and _overwritten(nodes[i + 1].body, 0, checks)
        else:
            return False
        i += 1
    return False


def _block(nodes, out: list[str]) -> None:
    for i, node in enumerate(nodes):
        checks: list = []
        if not node.body and _WRITE.match(node.text) and _overwritten(nodes, i + 1, checks):
            for check in checks:  # its fault reads the counter: written there first
                inner = check.body[0].line
                check.body.insert(0, type(node)(inner[:len(inner) - len(inner.lstrip())] + node.text))
            continue
        out.append(node.line)
        _block(node.body, out)
