"""A playout operation's frame slots and program counter kept in Python locals, written to the
frame only where something reads it.

Playout code (Program.playout_codes) may raise Redo on any path it does not keep exact
(runtime.Redo: play_random then plays the call again the API's way), so its frame needs to be
right only where the game is handed on: a return to runtime.run (a decision it does not draw, a
step out of the fusing budget, the playout's stop, the game's end), an operation called on with
`fr`, a listing given `L` (only the slots it reads), a budget's fault (`_over_budget`,
`_steps_over` read the counter; they run in the cold branches of step charges); a procedure's
`return st.stack.pop()` needs nothing, as nothing reads the frame it pops, and neither does a
procedure's frame pushed and run in place (its operation reads its own).  Between those
points a slot write `L[3] = v` is `L_3 = v`, a read of a slot held in a local reads the local,
and `fr[1] = N` is remembered instead of written.  A fault anywhere else leaves the frame
stale, and needs no more: playout._play turns any fault out of the playouts' operations into
Redo, and the replay's fault and frame are the API's.

The walk is forward over the function's blocks.  At each point it knows the slots whose local
holds the current value (`held`), those of them the frame has not been given yet (`dirty`) and
the counter the frame should hold (`pc`, and whether it is written yet).  Where ways in meet
(the ends of an if's branches, a loop's head and its `continue`s, the `break`s out of a loop),
a slot stays held only if held on every way and dirty if dirty on one; a way on which it is
dirty while another does not hold it writes it out at its end first.  Anything else that may
read or change the frame (a line handing `L` or `fr` to something unknown, a slot written by
a computed index) has every dirty slot written first and nothing held after.  A shape not
followed (`for ... else`, `finally`, an `elif` whose test needs the frame, a `try` whose body
changes what is dirty) leaves the function as it is.  Traced and API code is never rewritten.
"""

from __future__ import annotations

import ast
import re

from .flow import block_tree
from .text_passes import written_out

_READ = re.compile(r"\bL\[(\d+)\]")
_STORE = re.compile(r"^L\[(\d+)\] = (?!=)")
_SUBSCRIPT = re.compile(r"\bL\[")
_PC_WRITE = re.compile(r"^fr\[1\] = (\d+)$")
_NEW_FRAME = re.compile(r"^fr = \[\d+, 0, \[None\] \* \d+\]$")
_BARE_L = re.compile(r"\bL\b(?!\[)")
_FR = re.compile(r"\bfr\b")
_HANDED_L = re.compile(r"\b([A-Za-z_]\w*)\(st, L\)")
_OFFERS = re.compile(r"\b_offers\(st, (\w+)\)")  # reads the reacting decision's slots through st.stack
_READS_TOP_FRAME = re.compile(r"\b_generic\(")  # the generic enumeration: the top frame through st.stack
_CALLS_ON = re.compile(r"\bCODES\d*\[\d+\]\(st, fr, h \+ 1\)")
_IN_PLACE = re.compile(r"\bCODES\d*\[0\]\(st, f\d+, h\)")
_COLD_FAULT = re.compile(r"\b_over_budget\(|\b_steps_over\(st, fr, ")
# a frame pushed for a call, the stack's depth, `next`'s new stack: none reads this frame
_NEUTRAL = re.compile(r"^st\.stack\.append\(|^st\.stack\[:\] = \[fr\]$|^if len\(st\.stack\) [<>]=? \d+:$")
_ENDS = re.compile(r"^(?:return\b|raise\b|continue$|break$|_fail\(|_over_budget\()")
_HEADER = re.compile(r"^(if|elif|else|while|for|try|except|finally|with)\b.*:$")
_ALL = None  # a line's need: every dirty slot and the counter


class _Unhandled(Exception):
    """A shape this pass does not follow: the function is left as it is."""


class _State:
    """What one way into a point knows (see the module's docstring)."""

    __slots__ = ("held", "dirty", "pc", "stale")

    def __init__(self, held=frozenset(), dirty=frozenset(), pc=None, stale=False):
        self.held, self.dirty, self.pc, self.stale = frozenset(held), frozenset(dirty), pc, stale

    def __eq__(self, other):
        return (self.held, self.dirty, self.pc, self.stale) == (other.held, other.dirty, other.pc, other.stale)

    def with_(self, **changes):
        parts = {"held": self.held, "dirty": self.dirty, "pc": self.pc, "stale": self.stale, **changes}
        return _State(**parts)


def _join(states):
    """The state where `states` (None: no way) meet, or None."""
    ways = [s for s in states if s is not None]
    if not ways:
        return None
    held = frozenset.intersection(*(s.held for s in ways))
    dirty = frozenset.union(*(s.dirty for s in ways)) & held
    pcs = {s.pc for s in ways}
    if len(pcs) == 1:
        return _State(held, dirty, ways[0].pc, any(s.stale for s in ways))
    return _State(held, dirty, None, False)


def _written(state, into, pad: str) -> list[str]:
    """The lines that bring the frame from `state` to what `into` (a later meeting point) may
    leave unwritten: the slots dirty here that are not dirty there, the counter if there it
    is not this one."""
    lines = [f"{pad}L[{k}] = L_{k}" for k in sorted(state.dirty - into.dirty)]
    if state.stale and (into.pc != state.pc or not into.stale):
        lines.append(f"{pad}fr[1] = {state.pc}")
    return lines


def _flushed(state, slots, pc: bool, pad: str):
    """(lines, state) writing out the dirty slots among `slots` (None: all) and the counter."""
    out = state.dirty if slots is None else state.dirty & slots
    lines = [f"{pad}L[{k}] = L_{k}" for k in sorted(out)]
    if pc and state.stale:
        lines.append(f"{pad}fr[1] = {state.pc}")
    return lines, state.with_(dirty=state.dirty - out, stale=state.stale and not pc)


class _Walk:
    def __init__(self, frame_reads):
        self.frame_reads = frame_reads  # a function's name -> the slots it reads from `L`, or None
        self.loops: list = []  # per loop: [head state or None while searching, continue states, breaks]
        self.tries: list = []  # per `try` body: every state met inside it
        self.through = 0  # inside a `try` whose handler goes on: writes go to the frame at once

    def need(self, text: str):
        """(slots to write out first (None: all), counter too, whether nothing is held after)."""
        if text == "return st.stack.pop()":  # a procedure's return: its frame, popped, is read no more
            return frozenset(), False, False
        if text.startswith("return") or _CALLS_ON.search(text) or _COLD_FAULT.search(text):
            rest = _COLD_FAULT.sub("", _CALLS_ON.sub("", text))
            if _BARE_L.search(rest) or _FR.search(rest) or "st.stack" in rest:
                return _ALL, True, True
            return _ALL, True, False
        if _NEUTRAL.match(text) or _IN_PLACE.search(text) and not _BARE_L.search(text):
            return frozenset(), False, False
        if _FR.search(text) or "st.stack" in text or "CODES" in text:
            return _ALL, True, True
        if _READS_TOP_FRAME.search(text):
            return _ALL, True, True
        slots: set = set()
        for m in _OFFERS.finditer(text):
            reads = self.frame_reads(m.group(1))
            if reads is None:
                return _ALL, True, True
            slots |= reads
        if not _BARE_L.search(text):
            return frozenset(slots), False, False
        for m in _HANDED_L.finditer(text):
            reads = self.frame_reads(m.group(1))
            if reads is None:
                return _ALL, True, True
            slots |= reads
        if _BARE_L.search(_HANDED_L.sub("", text)):
            return _ALL, True, True
        return frozenset(slots), False, False

    def seen(self, state):
        for points in self.tries:
            points.append(state)

    def line(self, node, state, out):
        """The line `node` (no body) written for `state`; the state after it."""
        text, pad = node.text, node.line[:len(node.line) - len(node.text)]
        self.seen(state)
        pc = _PC_WRITE.match(text)
        if pc:
            if self.through:
                out.append(node.line)
            return state.with_(pc=pc.group(1), stale=not self.through)
        if _NEW_FRAME.match(text):  # `next` entered in place: the old frame is left behind
            out.append(node.line)
            return _State(pc="0")
        if text == "L = fr[2]":
            lines, state = _flushed(state, None, False, pad)
            out.extend(lines + [node.line])
            return _State(pc=state.pc, stale=state.stale)
        if text == "continue":
            head = self.loops[-1]
            head[1].append(state)
            if head[0] is not None:
                out.extend(_written(state, head[0], pad))
            out.append(node.line)
            return None
        if text == "break":
            hole: list = []
            self.loops[-1][2].append((state, hole, pad))
            out.extend([hole, node.line])
            return None
        state = self.prepared(text, state, pad, out)
        store = _STORE.match(text)
        writes = _writes(text)
        if writes and not (store and writes == 1):
            lines, state = _flushed(state, None, True, pad)
            out.extend(lines + [node.line])
            return _State()
        rewritten = self.reads(text[store.end():] if store else text, state)
        if store:
            k = int(store.group(1))
            out.append(f"{pad}L_{k} = {rewritten}")
            state = state.with_(held=state.held | {k}, dirty=state.dirty | {k})
            if self.through:
                lines, state = _flushed(state, {k}, False, pad)
                out.extend(lines)
        else:
            out.append(pad + rewritten)
        self.seen(state)
        return None if _ENDS.match(text) else state

    def prepared(self, text, state, pad, out):
        """Writes out what `text` needs from the frame before it runs (see need)."""
        slots, pc, forgets = self.need(text)
        if slots is not _ALL and not slots and not pc:
            return state
        lines, state = _flushed(state, slots, pc, pad)
        out.extend(lines)
        self.seen(state)
        return _State(pc=state.pc) if forgets else state

    @staticmethod
    def reads(text: str, state) -> str:
        return _READ.sub(lambda m: f"L_{m.group(1)}" if int(m.group(1)) in state.held else m.group(0), text)

    def block(self, nodes, state, out):
        i = 0
        while i < len(nodes):
            node = nodes[i]
            head = _HEADER.match(node.text)
            if head is None:
                if node.body:
                    raise _Unhandled(node.text)
                if state is not None:
                    state = self.line(node, state, out)
                i += 1
                continue
            if state is None:  # code after a return, a continue, ...: none is written by Gen
                raise _Unhandled("unreachable block")
            kind = head.group(1)
            if kind == "if":
                state, i = self.branches(nodes, i, state, out)
            elif kind in ("for", "while"):
                if i + 1 < len(nodes) and nodes[i + 1].text == "else:":
                    raise _Unhandled("loop else")
                state = self.loop(node, state, out)
                i += 1
            elif kind == "try":
                state, i = self.attempt(nodes, i, state, out)
            else:
                raise _Unhandled(node.text)
        return state

    def branches(self, nodes, i, state, out):
        node = nodes[i]
        pad = node.line[:len(node.line) - len(node.text)]
        state = self.prepared(node.text, state, pad, out)
        out.append(pad + self.reads(node.text, state))
        ways = []  # (lines of the branch, its end state, its pad)
        body: list = []
        ways.append((body, self.block(node.body, state, body), _pad(node.body)))
        out.append(body)
        i += 1
        while i < len(nodes) and (nodes[i].text.startswith("elif ") or nodes[i].text == "else:"):
            if nodes[i].text.startswith("elif "):
                slots, pc, _ = self.need(nodes[i].text)
                if slots is _ALL or slots or pc:
                    raise _Unhandled("elif test reading the frame")
            out.append(pad + self.reads(nodes[i].text, state))
            body = []
            ways.append((body, self.block(nodes[i].body, state, body), _pad(nodes[i].body)))
            out.append(body)
            last = nodes[i].text == "else:"
            i += 1
            if last:
                break
        else:
            ways.append((None, state, pad + "    "))  # the way past every test
        end = _join([s for _, s, _ in ways])
        if end is None:
            return None, i
        for body, s, body_pad in ways:
            if s is None:
                continue
            lines = _written(s, end, body_pad)
            if lines and body is None:
                out.extend([pad + "else:"] + lines)
            elif lines:
                body.extend(lines)
        return end, i

    def loop(self, node, state, out):
        pad = node.line[:len(node.line) - len(node.text)]
        is_for = node.text.startswith("for ")
        if is_for:
            state = self.prepared(node.text, state, pad, out)
        else:
            slots, pc, _ = self.need(node.text)
            if slots is _ALL or slots or pc:
                raise _Unhandled("while test reading the frame")
        entry = state
        first_read, mentioned = _slots_before_new_frame(node.body)
        head = self.settled(node, state.with_(held=state.held | mentioned))
        # read into locals before the loop: a slot read before it is written, or one kept dirty round the loop
        head = self.settled(node, state.with_(held=state.held | (head.held & (first_read | head.dirty))))
        out.extend(_written(entry, head, pad))
        out.extend(f"{pad}L_{k} = L[{k}]" for k in sorted(head.held - entry.held))
        text = self.reads(node.text, entry if is_for else head)
        out.append(pad + text)
        self.loops.append([head, [], []])
        body: list = []
        end = self.block(node.body, head, body)
        _, _, breaks = self.loops.pop()
        if end is not None:
            body.extend(_written(end, head, _pad(node.body)))
        out.append(body)
        natural = None if node.text == "while True:" else head
        after = _join([natural] + [s for s, _, _ in breaks])
        if after is None:
            return None
        if natural is not None and _written(natural, after, ""):
            raise _Unhandled("a loop's end and its breaks disagree")
        for s, hole, break_pad in breaks:
            hole.extend(_written(s, after, break_pad))
        return after

    def settled(self, node, head):
        """The state at the head of loop `node` entered with `head`: what every way round holds."""
        for _ in range(50):
            self.loops.append([None, [], []])
            end = self.block(node.body, head, [])
            _, continues, _ = self.loops.pop()
            new = _join([head, end] + continues)
            if new == head:
                return head
            head = new
        raise _Unhandled("loop state does not settle")

    def attempt(self, nodes, i, state, out):
        """A `try` and its handlers.  A handler may start at any point of the body: if every
        handler raises, it needs only what every point holds; if one goes on, every point must
        agree on what the frame lacks, else it is all written out before the `try` and the
        body's writes go to the frame as they are made."""
        node = nodes[i]
        pad = node.line[:len(node.line) - len(node.text)]
        handlers = []
        j = i + 1
        while j < len(nodes) and nodes[j].text.startswith("except") and nodes[j].text.endswith(":"):
            handlers.append(nodes[j])
            j += 1
        if not handlers or (j < len(nodes) and nodes[j].text in ("else:", "finally:")):
            raise _Unhandled("try shape")
        for flush_first in (False, True):
            if flush_first:
                lines, state = _flushed(state, None, True, pad)
                out.extend(lines)
                self.seen(state)
            self.tries.append([state])
            body: list = []
            self.through += flush_first
            ways = [(body, self.block(node.body, state, body), _pad(node.body))]
            self.through -= flush_first
            points = self.tries.pop()
            caught = _join(points)
            agree = not any(s.dirty - caught.held or s.stale and caught.pc != s.pc for s in points)
            caught = caught.with_(dirty=frozenset.union(*(s.dirty for s in points)) & caught.held,
                                  stale=agree and any(s.stale for s in points), pc=caught.pc if agree else None)
            mine = [node.line, body]
            for handler in handlers:
                lines: list = []
                ways.append((lines, self.block(handler.body, caught, lines), _pad(handler.body)))
                mine += [handler.line, lines]
            if agree or all(s is None for _, s, _ in ways[1:]):
                break
        else:
            raise _Unhandled("a try's body changes what is dirty")
        out.extend(mine)
        end = _join([s for _, s, _ in ways])
        for lines, s, body_pad in ways:
            if s is not None:
                lines.extend(_written(s, end, body_pad))
        return end, j


def _writes(text: str) -> int:
    """How many items of `L` the line assigns to or deletes, whatever the index or the shape
    of the assignment (`L[VS[t]] = v`, `a, L[2] = ...`); a line that is not a statement by
    itself (a block's header) assigns to none."""
    text = text.strip()
    if not _SUBSCRIPT.search(text):
        return 0
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return 0 if text.endswith(":") else 1
    return sum(1 for node in ast.walk(tree) if isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load)
               and isinstance(node.value, ast.Name) and node.value.id == "L")


def _slots_before_new_frame(nodes):
    """(slots whose first mention reads them, slots mentioned) in `nodes`, in the order written,
    up to a `next` entered in place (after which they are another frame's, perhaps past this
    one's end)."""
    first_read: set = set()
    found: set = set()

    def visit(nodes):
        for node in nodes:
            if _NEW_FRAME.match(node.text):
                return False
            store = _STORE.match(node.text)
            read = {int(k) for k in _READ.findall(node.text, store.end() if store else 0)}
            first_read.update(read - found)
            found.update(read | ({int(store.group(1))} if store else set()))
            if not visit(node.body):
                return False
        return True
    visit(nodes)
    return first_read, found


def _pad(nodes) -> str:
    line = nodes[0].line
    return line[:len(line) - len(line.lstrip())]


def _flat(items, out):
    for item in items:
        if isinstance(item, list):
            _flat(item, out)
        else:
            out.append(item)
    return out


def frame_in_locals(lines: list[str], frame_reads, pc: int) -> list[str]:
    """A playout operation's body (its first line `L = fr[2]`), the operation of counter `pc`,
    with its frame slots and counter kept in locals (see the module's docstring);
    `frame_reads(name)`: the slots a function given `L` reads, None if not known.  The lines
    as they are if the pass does not follow them or changes nothing."""
    lines = written_out(lines)
    walk = _Walk(frame_reads)
    out: list = []
    try:
        end = walk.block(block_tree(lines), _State(pc=str(pc)), out)
    except _Unhandled:
        return lines
    if end is not None:
        out.extend(_flushed(end, None, True, "")[0])
    body = _flat(out, [])
    return lines if body == lines else body


def frame_reads_of(lines: list[str], callee_reads) -> frozenset | None:
    """The slots a function given `L` reads, from its lines, if it never writes one and hands
    `L` on only to functions whose reads `callee_reads(name)` knows; else None."""
    if any(_writes(line) or _READS_TOP_FRAME.search(line) or "st.stack" in line for line in lines):
        return None
    slots = {int(k) for line in lines for k in _READ.findall(line)}
    for line in lines:
        for m in [*_HANDED_L.finditer(line), *_OFFERS.finditer(line)]:
            reads = callee_reads(m.group(1))
            if reads is None:
                return None
            slots |= reads
        if _BARE_L.search(_HANDED_L.sub("", line)):
            return None
    return frozenset(slots)
