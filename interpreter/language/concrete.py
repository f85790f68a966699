"""The concrete syntax tree: every token of a script (keywords and brackets included) in the
shape of the grammar's rules, for tools that must give the text back (the formatter, the editor
server).  The checker never sees it; interpreter/nodes.py is the tree that has meaning.

A `Tree` is named after the grammar rule (or its `-> alias`) that built it, so a tool that walks
it generically keeps working when the grammar grows.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Token:
    """One token as written.  Lines and columns are 1-based, the end is exclusive; `start` and
    `end` are offsets into the text."""

    type: str
    text: str
    line: int
    column: int
    end_line: int
    end_column: int
    start: int
    end: int


@attrs.frozen
class Tree:
    rule: str
    children: tuple  # Tree and Token, in source order


def tokens(tree: Tree):
    """The tokens under `tree`, in source order (iteratively: trees may be deep)."""
    stack = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, Token):
            yield item
        else:
            stack.extend(reversed(item.children))
