"""Merged step charges: a fused operation's chain of steps paid for in one charge.

Gen.assemble inlines the operations a step leads to, and charges each inlined step where it
ends (`fr[1] = pc; st.work += STEP_COST; if st.work > st.work_limit: _over_budget(...)`, as
runtime.run charges a step).  Between two such charges there is often nothing that can fail or
change the position: the end of an `if` body leads to the end of an alternative, which leads
to the top of a `for`.  Such a chain becomes one charge of the sum, placed where its first
charge was; when that charge crosses the limit, `steps_over` finds the step of the chain that
crossed it and leaves the frame and the work exactly as the one-step run leaves them, so the
fault (its message, span, program counter and work) is the same.  A charge also moves into
both branches of an `if` whose test cannot fail, to join the charges that start them.

Only lines that write Python temporaries and cannot fail may sit inside a chain (the patterns
below, which are what the loops and branches of compiler.py write between steps); anything
else ends it, but for one run of the `for` loop's own writes (its variable and position, which
cannot fail): the chain's charge is still one, the steps before the writes are checked before
them, and the rest after them (a check without a charge, made only once the chain's charge
has crossed the limit: the writes are copied into that branch).  Traced code is not merged: it is the
reference the fast code is compared with.
"""

from __future__ import annotations

import re

from ..language import limits
from ..machine.runtime import over_budget

_TARGET = re.compile(r"^fr\[1\] = (\d+)$")
_CHARGE = f"st.work += {limits.STEP_COST}"
_CHECK = "if st.work > st.work_limit:"
_OVER = "_over_budget(st, None)"
# a temporary given a frame local, a variable or the player count: no fault, no effect; or the
# comment that marks where a statement starts (gen_common.SPAN_MARK)
PURE = re.compile(r"^(?:t\d+ = (?:L\[\d+\]|st\.vars\[\d+\]|st\.n)|#@span \d+)$")
# the writes of a `for` loop's next round, under its test (compiler.py's for_next_source)
LOOP_WRITE = re.compile(r"^L\[\d+\] = t\d+(?:\[t\d+\]| \+ 1)$")
# tests that cannot fail: a `for` loop's position against its items (compiler.py writes both),
# a value against none, an operation's count of the calls in a row before it (codegen.Gen._step)
SAFE_TEST = re.compile(r"^if (?:t\d+ < len\(t\d+\)|\(?(?:t\d+|L\[\d+\]|st\.vars\[\d+\]) is (?:not )?None\)?|h < \d+):$")


def steps_over(st, fr, targets: tuple, later: int = 0) -> None:
    """The fault of a merged charge over the limit: at the first of its steps (`targets`, the
    program counters each step led to, in order) whose own charge crossed it.  `later` steps
    were charged too but are checked after writes that come before them: if none of `targets`
    crossed the limit, this returns and their check faults."""
    cost = limits.STEP_COST
    work = st.work - cost * (len(targets) + later)
    for target in targets:
        work += cost
        if work > st.work_limit:
            fr[1] = target
            st.work = work
            raise over_budget(st, None)
    if not later:
        raise AssertionError("steps_over called on a charge within the limit")


class _Node:
    """One line of generated code and the block it opens (indented under it), if any."""

    __slots__ = ("line", "text", "body")

    def __init__(self, line: str):
        self.line, self.text, self.body = line, line.strip(), []


def block_tree(lines: list[str]) -> list[_Node]:
    """Generated lines as nodes: each line with the lines indented under it as its body."""
    root: list[_Node] = []
    open_blocks: list[tuple[int, list[_Node]]] = [(-1, root)]
    for line in lines:
        depth = len(line) - len(line.lstrip())
        while depth <= open_blocks[-1][0]:
            open_blocks.pop()
        node = _Node(line)
        open_blocks[-1][1].append(node)
        open_blocks.append((depth, node.body))
    return root


def _step_at(nodes: list[_Node], i: int) -> int | None:
    """The program counter of the step charged by nodes[i:i+3], if they are a step's charge."""
    m = _TARGET.match(nodes[i].text)
    if m is None or nodes[i].body or i + 2 >= len(nodes):
        return None
    charge, check = nodes[i + 1], nodes[i + 2]
    if charge.text != _CHARGE or charge.body or check.text != _CHECK or len(check.body) != 1 \
            or check.body[0].text != _OVER or check.body[0].body:
        return None
    return int(m.group(1))


def _starts_with_step(nodes: list[_Node]) -> bool:
    """Whether the block's first lines, past pure ones, charge a step (a chain to join)."""
    i = 0
    while i < len(nodes) and not nodes[i].body and PURE.match(nodes[i].text):
        i += 1
    return i < len(nodes) and _step_at(nodes, i) is not None


def _charge_lines(pad: str, targets: list[int], early: int | None = None) -> list[str]:
    """One charge for the steps of `targets`; only the first `early` of them checked here."""
    if len(targets) == 1:
        return [f"{pad}fr[1] = {targets[0]}", f"{pad}{_CHARGE}", f"{pad}{_CHECK}", f"{pad}    {_OVER}"]
    checked = targets if early is None else targets[:early]
    later = "" if early is None else f", {len(targets) - early}"
    return [f"{pad}fr[1] = {targets[-1]}", f"{pad}st.work += {limits.STEP_COST * len(targets)}", f"{pad}{_CHECK}",
            f"{pad}    _steps_over(st, fr, {tuple(checked)}{later})"]


def _block(nodes: list[_Node], pending: list[int], out: list[str]) -> None:
    """Write `nodes` (one block) to `out`, with the charges of `pending` steps (charged just
    before the block) merged into the chain the block starts with."""
    pad = nodes[0].line[:len(nodes[0].line) - len(nodes[0].text)]
    held: list[str] = []  # lines held back until the chain's charge is written before them
    split = [None]  # how many of the pending steps come before the loop's writes among them

    def flush():
        early = split[0]
        if pending and early is not None and early < len(pending):
            # Over the limit, the steps before the writes are checked first, then the writes are
            # made and the later steps checked; within it the writes alone run (no second check).
            out.extend(_charge_lines(pad, pending, early))
            later = pending[early:]
            out.extend("    " + line for line in held)
            out.append(f"{pad}    {_OVER}" if len(later) == 1 else f"{pad}    _steps_over(st, fr, {tuple(later)})")
            out.extend(held)
        else:
            if pending:
                out.extend(_charge_lines(pad, pending))
            out.extend(held)
        pending.clear()
        held.clear()
        split[0] = None

    i = 0
    while i < len(nodes):
        node = nodes[i]
        target = _step_at(nodes, i)
        if target is not None:
            pending.append(target)
            i += 3
            continue
        if pending and not node.body and PURE.match(node.text):
            held.append(node.line)
        elif pending and not node.body and LOOP_WRITE.match(node.text) and split[0] in (None, len(pending)):
            split[0] = len(pending)
            held.append(node.line)
        elif pending and split[0] is None and node.body and SAFE_TEST.match(node.text) and (
                _starts_with_step(node.body) or (
                i + 1 < len(nodes) and nodes[i + 1].text == "else:" and _starts_with_step(nodes[i + 1].body))):
            out.extend(held)
            held.clear()
            out.append(node.line)
            _block(node.body, pending[:], out)
            has_else = i + 1 < len(nodes) and nodes[i + 1].text == "else:"
            if has_else:
                i += 1
                out.append(nodes[i].line)
                _block(nodes[i].body, pending[:], out)
            else:
                out.append(f"{pad}else:")
                out.extend(_charge_lines(pad + "    ", pending))
            pending.clear()
        else:
            flush()
            out.append(node.line)
            if node.body:
                _block(node.body, [], out)
        i += 1
    flush()


def merge_step_charges(lines: list[str]) -> list[str]:
    """A fused operation's lines with each chain of step charges merged into one (see above)."""
    out: list[str] = []
    nodes = block_tree(lines)
    if nodes:
        _block(nodes, [], out)
    return out


# ---- playout operations: constant charges added up, checked where the work must be in bounds
#
# Playout code may raise runtime.Redo on any path it does not keep exact (play_random then plays
# the call again the API's way, and turns a fault out of the playouts' operations into a Redo
# too).  So a playout operation need not stop at the very step that crossed the limit: it must
# only never hand on a position past it.  Its constant charges (a step's, a statement's fixed
# units) are added up as they come and written as one charge where the count is looked at:
# before a line that reads or changes the work or hands the state to a call (which may charge
# and check, or read it), before a `try` or a loop (written as they are: a handler may go on
# after a fault, and a loop's body is checked each time round), and at the ends of branches.
# The sum is checked (`raise _Redo` past the limit) only before the operation leaves: a
# `return` (to runtime.run, whose check would name the wrong statement; a procedure's return)
# and a `continue` (each round of the operation's loop, unless the round starts with a check of
# its own), unless nothing was added since a check; a tail call on to another playout operation hands the count on to its checks.  A
# charge of a varying size keeps its own check (it guards what is made next), and covers the
# sum before it.

GIVEN_STATE = re.compile(r"[(,]\s*st\s*[,)]|\bst\.\w+\(")  # a call that is given the state
_NAMES_WORK = re.compile(r"\bst\.work")  # the counter, or its limit
CONSTANT_CHARGE = re.compile(r"^st\.work \+= (\d+)$")  # a charge of fixed units
_CALL_ON = re.compile(r"^return CODES\d*\[\d+\]\(st, fr, h \+ 1\)$")  # a playout operation's tail call
_LEAVES = re.compile(r"^(?:return\b|continue$)")
_ENDS = re.compile(r"^(?:return\b|continue$|break$|raise\b|_fail\(|_over_budget\()")
_REDO = "raise _Redo"
# a decision drawn in place (gen_assembly.playout_decision): it gives up, and so returns (checked), past the limit
_DRAWN = re.compile(r"^if (w\d+) \+ \d+ <= st\.work_limit and ")


def _constant_charge(nodes: list[_Node], i: int) -> int | None:
    """The units of nodes[i:i+2] if they are a constant charge and its check for a fault."""
    m = CONSTANT_CHARGE.match(nodes[i].text)
    if m is None or nodes[i].body or i + 1 >= len(nodes):
        return None
    check = nodes[i + 1]
    if check.text != _CHECK or len(check.body) != 1 or not check.body[0].text.startswith("_over_budget(st, ") \
            or check.body[0].body:
        return None
    return int(m.group(1))


def _falls_through(nodes: list[_Node]) -> bool:
    """Whether running the block to its end can go on after it (conservatively)."""
    if not nodes:
        return True
    last = nodes[-1]
    if not last.body:
        return not _ENDS.match(last.text)
    if last.text != "else:":
        return True
    j = len(nodes) - 1
    while j > 0 and nodes[j].text.startswith(("elif ", "else:")):
        j -= 1
    if not nodes[j].text.startswith("if "):
        return True  # a loop's or a try's else
    return any(_falls_through(n.body) for n in nodes[j:])


def _checked_on_entry(nodes: list[_Node]) -> bool:
    """Whether the operation's first lines reach a check of the work of their own (a charge
    of a varying size, a decision drawn in place) before anything but lines that cannot leave:
    then a `continue`, which goes round to them, need not check."""
    for i, node in enumerate(nodes):
        if (node.text == _CHECK and (i == 0 or _constant_charge(nodes, i - 1) is None)) or _DRAWN.match(node.text):
            return True
        if node.body or _ENDS.match(node.text) or _CALL_ON.match(node.text):
            return False
    return False


def _lines(nodes: list[_Node]) -> list[str]:
    out: list[str] = []
    for node in nodes:
        out.append(node.line)
        out.extend(_lines(node.body))
    return out


class _Deferring:
    """One playout operation's lines rewritten (see above) into `out`."""

    def __init__(self, checked_on_entry: bool):
        self.out: list[str] = []
        self.checked_on_entry = checked_on_entry  # a round of the loop is checked at its top

    def charge(self, pad: str, units: int, check: bool) -> None:
        if units:
            self.out.append(f"{pad}st.work += {units}")
        if check:
            self.out += [f"{pad}{_CHECK}", f"{pad}    {_REDO}"]

    def block(self, nodes: list[_Node], pending: int, dirty: bool) -> tuple[int, bool]:
        """Write `nodes`, `pending` units not yet added on entry, `dirty` if the count was not
        checked since it last grew; (units not yet added, dirty) where the block falls through."""
        pad = nodes[0].line[:len(nodes[0].line) - len(nodes[0].text)]
        i = 0
        while i < len(nodes):
            node, text = nodes[i], nodes[i].text
            units = _constant_charge(nodes, i)
            if units is not None:
                pending += units
                i += 2
                continue
            if not node.body:
                if _CALL_ON.match(text) or (text == "continue" and self.checked_on_entry):
                    self.charge(pad, pending, False)
                elif _LEAVES.match(text):
                    self.charge(pad, pending, dirty or pending > 0)
                elif _NAMES_WORK.search(text) or GIVEN_STATE.search(text):
                    self.charge(pad, pending, False)
                    dirty = True
                else:
                    self.out.append(node.line)
                    i += 1
                    continue
                self.out.append(node.line)
                pending = 0
                i += 1
                continue
            if text.startswith("if "):
                i, pending, dirty = self.branches(nodes, i, pad, pending, dirty)
                continue
            self.charge(pad, pending, False)  # a check of its own, a try, a loop: written as they are
            self.out.extend(_lines([node]))
            pending, dirty = 0, text != _CHECK
            i += 1
        return pending, dirty

    def branches(self, nodes, i, pad, pending, dirty) -> tuple[int, int, bool]:
        """An if/elif/else chain at nodes[i]: the units not yet added go into each branch when
        its tests neither read the work nor call anything given the state, and every way on
        past the chain has them (an else, or a body that never falls through)."""
        chain = [nodes[i]]
        while i + len(chain) < len(nodes) and nodes[i + len(chain)].text.startswith(("elif ", "else:")):
            chain.append(nodes[i + len(chain)])
            if chain[-1].text == "else:":
                break
        whole = chain[-1].text == "else:"
        plain = not any(_NAMES_WORK.search(c.text) or GIVEN_STATE.search(c.text) for c in chain)
        if not plain or not (whole or not any(_falls_through(c.body) for c in chain)):
            self.charge(pad, pending, False)
            dirty = dirty or pending > 0 or not plain
            pending = 0
        after_dirty = False if whole else dirty
        for c in chain:
            self.out.append(c.line)
            left, d = self.block(c.body, pending, dirty)
            if _falls_through(c.body):
                self.charge(c.body[0].line[:len(c.body[0].line) - len(c.body[0].text)], left, False)
                after_dirty = after_dirty or d or left > 0
        return i + len(chain), (0 if whole else pending), after_dirty


def deferred_step_charges(lines: list[str]) -> list[str]:
    """A playout operation's lines with its constant charges added up and checked only where it
    hands the position on (see above)."""
    nodes = block_tree(lines)
    if not nodes:
        return lines
    rewrite = _Deferring(_checked_on_entry(nodes))
    pending, dirty = rewrite.block(nodes, 0, False)
    if _falls_through(nodes):
        rewrite.charge("", pending, dirty or pending > 0)
    return rewrite.out
