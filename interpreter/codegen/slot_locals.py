"""Frame slots and state variables read again in one generated function, read from locals.

A frame local `L[k]` costs three instructions to read (the list, the index, the subscript), a
state variable `st.vars[k]` four; a Python local one.  Within one fast function (Gen.build's
last pass), such a read where an earlier line has surely left the value in a local (`L_k`,
`G_k`) reads the local:

- a line writing the slot or variable writes both, the state first (`L[3] = L_3 = value`): the
  frame and the variables stay right for whatever else reads them (the run loop, a listing, a
  saved state, a fault);
- a line reading one not held yet is preceded by `L_3 = L[3]` (a frame is never shorter than
  its code's slots, and the variables are all there, so the read cannot fail; it has no effect),
  and so is a loop whose body reads one it never writes, for every round;
- either is written only where two later reads use it, or one in a loop it is outside of
  (setting a local costs two instructions, each read from it saves two or three), reads that
  only run for a listener or past the work limit not counted;
- a read uses the local only where, on every path from the function's start (branches, loops
  round again, an exception caught part-way through a `try`), such a line has run and nothing
  since can have changed the value behind the function's back (see _FAMILIES: a frame or a
  variable written by a computed index, a procedure or event run, a listener told, and, for
  frame slots, anything handed `L` or `fr`).

Lines are a function's body as Gen writes it: one statement or block header a line, blocks by
indentation.  A `for ... else`, `while ... else` or `finally` (Gen writes none) leaves the whole
function as it is.
"""

from __future__ import annotations

import re
from collections import Counter


class _Family:
    """One kind of state read by number: how a read and a write look, and what may change any."""

    def __init__(self, read: str, local: str, kills: str):
        self.read = re.compile(read)  # group 1: the number
        self.local = local  # the local's name, with {} for the number
        self.text = read.replace(r"\b", "").replace(r"(\d+)", "{}").replace("\\", "")  # `L[{}]`
        self.prefix = self.text.split("{")[0]  # `L[`
        self.start = re.compile(r"\b" + re.escape(self.prefix))
        self.store = re.compile("^" + read.replace(r"\b", "") + " = (?!" + local.format("") + ")")
        self.kills = re.compile(kills + r"|\b" + re.escape(self.prefix[:-1]) + r"\s*=(?!=)")  # or all of it written

    def writes(self, text: str) -> int:
        """How many items of the kind `text` assigns to (`L[...] = `, whatever the index)."""
        count = 0
        for m in self.start.finditer(text):
            depth, i = 1, m.end()
            while i < len(text) and depth:
                depth += {"[": 1, "]": -1}.get(text[i], 0)
                i += 1
            if re.match(r"\s*=(?!=)", text[i:]):
                count += 1
        return count


_RUNS_SCRIPT = r"\bst\.stack\b|\bst\.emit\(|\b_generic\(|\bCODES\d*\b"  # a frame pushed or run, a listener
_FAMILIES = (
    # `_steps_over(st, fr, ...)` only sets fr[1] and the work (flow.steps_over): not a kill
    _Family(r"\bL\[(\d+)\]", "L_{}", _RUNS_SCRIPT + r"|\bL\b(?!\[)|(?<!_steps_over\(st, )\bfr\b(?!\[)"),
    _Family(r"\bst\.vars\[(\d+)\]", "G_{}", _RUNS_SCRIPT),
)
# blocks that run only for a listener or past the work limit: their reads are no reason to set a local
_COLD = ("if st.tracer is not None:", "if st.work > st.work_limit:")
_ENDS = re.compile(r"^(?:return\b|raise\b|continue$|break$|_fail\(|_over_budget\()")
_HEADER = re.compile(r"^(if|elif|while|for|else|try|except|finally)\b")


# Loops nested deeper than this in one function leave it as it is: each loop's body is walked
# again until what it holds settles, so the walk of the innermost body grows as the product of
# the rounds of every loop around it (ten nested quantifiers took minutes).  The shipped games
# and test scripts nest three at most.
_DEEPEST_LOOPS = 4


class _Unhandled(Exception):
    """A shape of code this pass does not follow: the function is left as it is."""


class _Node:
    __slots__ = ("line", "text", "body", "index")

    def __init__(self, line: str, index: int):
        self.line, self.text, self.body, self.index = line, line.strip(), [], index


def _tree(lines):
    root = []
    open_blocks = [(-1, root)]
    for i, line in enumerate(lines):
        depth = len(line) - len(line.lstrip())
        while depth <= open_blocks[-1][0]:
            open_blocks.pop()
        node = _Node(line, i)
        open_blocks[-1][1].append(node)
        open_blocks.append((depth, node.body))
    return root


def _meet(a, b):
    """What is held on both ways into a point (with every line that may have set each); None: no way."""
    if a is None:
        return b
    if b is None:
        return a
    return {k: a[k] | b[k] for k in a.keys() & b.keys()}


_FIRST = object()  # a `try` body's meet before its first state


class _Walk:
    """The forward pass for one family: which reads may take the local, which lines set it."""

    def __init__(self, family: _Family):
        self.f = family
        self.recording = True
        self.reads: list = []  # (line, number, lines that may have set the local, how many reads, loop depth)
        self.depth = 0  # loops around the line being walked
        self.cold = 0  # blocks around it that seldom run (see _COLD)
        self.depths: dict[int, int] = {}  # line -> loops around it
        self.loops: list = []  # per loop being walked: [state at `continue`s, state at `break`s]
        self.tries: list = []  # per `try` body being walked: the meet of every state inside it

    def seen(self, state):
        self.tries = [state if acc is _FIRST else _meet(acc, state) for acc in self.tries]

    def expression(self, node, state, predef: bool):
        """A line's reads and its effect on what is held; `predef`: a number read may be set
        just before the line (not before an `elif` or a `while` test, which run again)."""
        if state is None:
            return None
        self.seen(state)
        text = node.text
        store = self.f.store.match(text)
        writes = self.f.writes(text)
        if self.f.kills.search(text) or writes > (store is not None):
            self.seen({})
            return {}  # changed behind our back, written by a computed index, or a shape not followed
        after = dict(state)
        self.depths.setdefault(node.index, self.depth)  # a `while` test: the loop's own depth, set first
        read = Counter(int(m.group(1)) for m in self.f.read.finditer(text, store.end() if store else 0))
        for k, times in read.items():
            if k in state:
                if self.recording:
                    self.reads.append((node.index, k, state[k], 0 if self.cold else times, self.depth))
            elif predef:
                after[k] = frozenset([node.index])
        if store:
            after[int(store.group(1))] = frozenset([node.index])
        self.seen(after)
        return after

    def block(self, nodes, state):
        i = 0
        while i < len(nodes):
            node = nodes[i]
            kind = _HEADER.match(node.text)
            kind = kind.group(1) if kind and node.text.endswith(":") else None
            if kind is None:
                if node.body:
                    raise _Unhandled(node.text)
                state = self.simple(node, state)
                i += 1
            elif kind == "if":
                state, i = self.branches(nodes, i, state)
            elif kind in ("for", "while"):
                if i + 1 < len(nodes) and nodes[i + 1].text == "else:":
                    raise _Unhandled("loop else")
                state = self.loop(node, state, kind)
                i += 1
            elif kind == "try":
                state, i = self.attempt(nodes, i, state)
            else:
                raise _Unhandled(node.text)
        return state

    def simple(self, node, state):
        after = self.expression(node, state, predef=True)
        if after is not None and _ENDS.match(node.text):
            if node.text == "continue":
                self.loops[-1][0] = _meet(self.loops[-1][0], after)
            elif node.text == "break":
                self.loops[-1][1] = _meet(self.loops[-1][1], after)
            return None
        return after

    def branches(self, nodes, i, state):
        test = self.expression(nodes[i], state, predef=True)
        cold = nodes[i].text in _COLD
        self.cold += cold
        ends = self.block(nodes[i].body, test)
        self.cold -= cold
        i += 1
        while i < len(nodes) and nodes[i].text.startswith("elif ") and nodes[i].text.endswith(":"):
            test = self.expression(nodes[i], test, predef=False)
            ends = _meet(ends, self.block(nodes[i].body, test))
            i += 1
        if i < len(nodes) and nodes[i].text == "else:":
            ends = _meet(ends, self.block(nodes[i].body, test))
            i += 1
        else:
            ends = _meet(ends, test)
        return ends, i

    def loop(self, node, state, kind):
        if self.depth >= _DEEPEST_LOOPS:
            raise _Unhandled("loops nested too deep to follow")
        entry = self.expression(node, state, predef=True) if kind == "for" else state
        if entry is None:
            return None
        entry = dict(entry)
        for k in self.read_only_in(node.body) - entry.keys():
            entry[k] = frozenset([node.index])  # set once before the loop, for every round
        self.depths.setdefault(node.index, self.depth)
        self.depth += 1
        recording, self.recording = self.recording, False
        head = entry
        while True:  # the state at the loop's head: what every way round again still holds
            self.loops.append([None, None])
            end = self.block(node.body, self.expression(node, head, predef=False) if kind == "while" else head)
            new = _meet(entry, _meet(end, self.loops.pop()[0]))
            if new == head:
                break
            head = new
        self.recording = recording
        self.loops.append([None, None])
        test = self.expression(node, head, predef=False) if kind == "while" else head
        self.block(node.body, test)
        self.depth -= 1
        breaks = self.loops.pop()[1]
        return breaks if node.text == "while True:" else _meet(test, breaks)

    def read_only_in(self, nodes) -> set:
        """The numbers read and never written in `nodes`."""
        read, written = set(), set()

        def visit(nodes):
            for node in nodes:
                read.update(int(k) for k in self.f.read.findall(node.text))
                store = self.f.store.match(node.text)
                if store:
                    written.add(int(store.group(1)))
                visit(node.body)
        visit(nodes)
        return read - written

    def attempt(self, nodes, i, state):
        self.tries.append(_FIRST)
        ends = self.block(nodes[i].body, state)
        inside = self.tries.pop()
        caught = state if inside is _FIRST else _meet(state, inside)
        i += 1
        handlers = 0
        while i < len(nodes) and nodes[i].text.startswith("except") and nodes[i].text.endswith(":"):
            ends = _meet(ends, self.block(nodes[i].body, caught))
            handlers += 1
            i += 1
        if not handlers or (i < len(nodes) and nodes[i].text in ("else:", "finally:")):
            raise _Unhandled("try shape")
        return ends, i


def _worth_it(walk):
    """(reads taking the local, lines setting it): a line sets a local only for two reads or
    more (or one in a loop it is outside of), since setting it costs what one read saves; a
    read takes it only if every line that may have set it does."""
    kept = {(site, k) for _, k, sites, _, _ in walk.reads for site in sites}
    while True:
        taken = [r for r in walk.reads if all((site, r[1]) in kept for site in r[2])]
        worth = Counter()
        for _, k, sites, times, depth in taken:
            for site in sites:
                worth[site, k] += 2 if depth > walk.depths[site] and times else times
        still = {use for use in kept if worth[use] >= 2}
        if still == kept:
            return {(line, k) for line, k, _, _, _ in taken}, kept
        kept = still


def _rewritten(lines, family: _Family):
    walk = _Walk(family)
    try:
        walk.block(_tree(lines), {})
    except _Unhandled:
        return lines
    taken, kept = _worth_it(walk)
    if not taken:
        return lines
    reads: dict[int, set] = {}
    for line, k in taken:
        reads.setdefault(line, set()).add(k)
    sets: dict[int, set] = {}
    for site, k in kept:
        sets.setdefault(site, set()).add(k)
    local, text = family.local, family.text
    out = []
    for i, line in enumerate(lines):
        reads_here, setting = reads.get(i, set()), sets.get(i, set())
        if not reads_here and not setting:
            out.append(line)
            continue
        pad = line[:len(line) - len(line.lstrip())]
        body = line.strip()
        store = family.store.match(body)
        stored = int(store.group(1)) if store else None
        head, rest = (body[:store.end()], body[store.end():]) if store else ("", body)
        out.extend(f"{pad}{local.format(k)} = {text.format(k)}" for k in sorted(setting - {stored}))
        # set before a loop, a local serves a `while` test only where the walk found it held there
        here = reads_here if body.startswith("while ") else reads_here | (setting - {stored})
        rest = family.read.sub(lambda m: local.format(m.group(1)) if int(m.group(1)) in here else m.group(0), rest)
        if stored in setting:
            head = f"{head}{local.format(stored)} = "
        out.append(pad + head + rest)
    return out


def slots_in_locals(lines: list[str]) -> list[str]:
    """A fast function's body with repeated frame slot and variable reads taken from locals."""
    for family in _FAMILIES:
        if any(family.prefix in line for line in lines):
            lines = _rewritten(lines, family)
    return lines
