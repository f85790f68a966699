"""The work counter and its limit held in Python locals inside a fast generated function.

A charge written on the state (`st.work = st.work + 5`, `if st.work > st.work_limit:`) is twelve
instructions; on locals (`wk = wk + 5`, `if wk > wlim:`) it is eight.  The counter is only the
function's own between the places where anything else can read or change it, so `st.work` is
written back before them and read again after:
- a call that is given the state (a definition, a listing, a built-in, `_steps_over`: anything
  that may charge or read the work), and a line whose comprehension reads the work (a
  comprehension is a function of its own, which cannot see the local): for the length of such a
  line `wk` is None and `st.work` is the counter;
- a `return` (runtime.run charges the next step on `st.work`), and the function's end;
- an exception leaving the function (runtime._advance adds `st.work` to the game's work when it
  fails): the whole body runs in a `try` whose handler writes the local back, unless it is None
  (the exception came out of a call given the state, which kept `st.work` itself).  A handler in
  the generated code first takes the counter back from `st.work` when it is None.
`_over_budget` is not such a call: it reads the limit, never the counter, and it always raises.
The limit changes only where a playout decision begins a new stretch (`st.work_limit = ...`,
written through).  Traced code is never rewritten (it is the reference the fast code is tested
against), and a function this cannot follow (a `for` over a call given the state, a `lambda`,
a `with`, ...) or would not gain by it is kept as written.
"""

from __future__ import annotations

import re

from .flow import GIVEN_STATE, block_tree

_WORK = re.compile(r"\bst\.work\b")  # not st.work_limit: `_` continues the word
_LIMIT = re.compile(r"\bst\.work_limit\b")
_RAISES_ONLY = re.compile(r"_over_budget\(st\b")  # reads the limit (written through), then raises
_FOREIGN = re.compile(r"\b(?:lambda|yield|def|class|nonlocal|global|with|finally|del|async|await|wk|wlim)\b")
_CHECK = "if st.work > st.work_limit:"
_STORE = re.compile(r"^st\.work = (?!.*\bst\.work\b)")  # a new count, of something else than the old
_LOOP_WEIGHT = 4  # a guess at how often a loop's body runs per call, for _worth


class _Unfollowable(Exception):
    """A construct the rewrite does not follow: the function is kept as written."""


def held_in_locals(lines: list[str], where_it_pays: bool = True) -> list[str]:
    """A fast generated function's body (unindented lines) with the work counter in `wk` and
    the limit in `wlim` (see above), or the body as it was where that would not pay (unless
    not `where_it_pays`: the tests' way to rewrite a small body)."""
    if not any(_WORK.search(line) for line in lines) or any(_FOREIGN.search(line) for line in lines):
        return lines
    nodes = block_tree(lines)
    limit = sum(len(_LIMIT.findall(line)) for line in lines) >= 2
    try:
        gain, cost = _worth(nodes, limit, 1)
        if where_it_pays and gain <= cost + 6 + (3 if limit else 0):
            return lines
        body = _Rewrite(limit).block(nodes, handed=True)
    except _Unfollowable:
        return lines
    head = ["wlim = st.work_limit"] if limit else []
    first = body.index("wk = st.work") if "wk = st.work" in body else len(body)
    if first < len(body) and not any(line[:1].isspace() or _given_state(line) for line in body[:first]):
        head, body = head + ["wk = st.work"], body[:first] + body[first + 1:]  # read earlier: nothing before changes it
    else:  # the counter is first written, or read after what may change it
        head.append("wk = None")
    return head + ["try:"] + ["    " + line for line in body + ["st.work = wk"]] + [
        "except BaseException:", "    if wk is not None:", "        st.work = wk", "    raise"]


def _given_state(text: str) -> bool:
    """Whether the line hands the state to something that may read or charge the work, or has
    a comprehension that reads the counter."""
    if GIVEN_STATE.search(_RAISES_ONLY.sub("", text)):
        return True
    return bool(_WORK.search(text)) and " for " in (text[3:] if text.startswith("for ") else f" {text}")


def _worth(nodes, limit: bool, weight: int) -> tuple[int, int]:
    """(instructions saved, instructions added), counted on the lines as written: a read or write
    of the counter (or limit) saves one; a call given the state costs eight (written back, None,
    read again); lines under an over-limit check run at most once and count for nothing."""
    gain = cost = 0
    for node in nodes:
        text = node.text
        if _given_state(text):
            cost += 8 * weight
        else:
            gain += weight * (len(_WORK.findall(text)) + (len(_LIMIT.findall(text)) if limit else 0))
        if text.startswith("return"):
            cost += 3
        if node.body and text != _CHECK:
            inner = weight * _LOOP_WEIGHT if text.startswith(("for ", "while ")) else weight
            g, c = _worth(node.body, limit, inner)
            gain, cost = gain + g, cost + c
    return gain, cost


def _pad(nodes) -> str:
    return nodes[0].line[:len(nodes[0].line) - len(nodes[0].text)]


class _Rewrite:
    def __init__(self, limit: bool):
        self.limit = limit

    def local(self, line: str) -> str:
        line = _WORK.sub("wk", line)
        return _LIMIT.sub("wlim", line) if self.limit else line

    def leaf(self, node, pad: str) -> list[str]:
        text = node.text
        if self.limit and text.startswith("st.work_limit = "):
            return [pad + "wlim = " + self.local(text[len("st.work_limit = "):]), pad + "st.work_limit = wlim"]
        return ([pad + "st.work = wk"] if text.startswith("return") else []) + [self.local(node.line)]

    def block(self, nodes, handed: bool = False) -> list[str]:
        """One block's lines; it ends with the counter in `wk`, and starts so unless `handed`
        (the counter is in st.work, wk None: after a call given the state, or at the start)."""
        pad = _pad(nodes)
        out: list[str] = []
        i = 0
        while i < len(nodes):
            node = nodes[i]
            text = node.text
            if not node.body:
                if _given_state(text):
                    if not handed:
                        out += [pad + "st.work = wk", pad + "wk = None"]
                        handed = True
                    out.append(node.line)
                elif handed and not _WORK.search(text) and not text.startswith("return"):
                    out.append(node.line)  # nothing of the counter: it runs as written
                else:
                    if handed and not _STORE.match(text):
                        out.append(pad + "wk = st.work")
                    handed = False
                    out += self.leaf(node, pad)
                i += 1
                continue
            if handed:
                out.append(pad + "wk = st.work")
                handed = False
            if text.startswith("if "):
                chain = [node]
                while i + len(chain) < len(nodes) and nodes[i + len(chain)].text.startswith(("elif ", "else:")):
                    chain.append(nodes[i + len(chain)])
                    if chain[-1].text == "else:":
                        break
                if any(_given_state(c.text) for c in chain):  # the tests run with the counter in st.work
                    out += [pad + "st.work = wk", pad + "wk = None"]
                    for c in chain:
                        out += [c.line, _pad(c.body) + "wk = st.work"] + self.block(c.body)
                    if chain[-1].text != "else:":
                        out += [pad + "else:", pad + "    wk = st.work"]
                else:
                    for c in chain:
                        out += [self.local(c.line)] + self.block(c.body)
                i += len(chain)
                continue
            if text.startswith(("for ", "while ")):
                if _given_state(text):
                    raise _Unfollowable(text)
                out += [self.local(node.line)] + self.block(node.body)
            elif text in ("try:", "else:"):  # a try's, or a loop's else (an if's is in its chain)
                out += [node.line] + self.block(node.body)
            elif text.startswith("except") and not _given_state(text):
                inner = _pad(node.body)
                out += [node.line, inner + "if wk is None:", inner + "    wk = st.work"] + self.block(node.body)
            else:
                raise _Unfollowable(text)
            i += 1
        if handed:
            out.append(pad + "wk = st.work")
        return out
