"""The script's comments the rulebooks quote: a declaration's own comment, and the script's
opening comment (how it reads the unclear points of its rules)."""

from __future__ import annotations

import os
import re

from cardgame.interpreter.language.concrete import Token, tokens
from cardgame.interpreter.language.parser import parse_concrete

from .comments import attach_comments, comment_text
from .fmt import PREFIXES
from .flow import Script


def comment_key(span) -> tuple:
    return (os.path.abspath(span.path), span.line, span.column)


_RULER = re.compile(r"^-{3,}")


def declaration_comments(script: Script, path: str):
    """({(file, line, column) of a declaration or statement: its comment lines}, the opening
    comment lines).

    A construct's comment is the paragraph of comments right above it and the comment after
    it on its last line; section rulers (`# ---- cards ----`) are not comments on anything."""
    notes, opening = {}, []
    for file_path, source in script.sources.items():
        tree, _ = parse_concrete(source.text, file_path)
        if tree is None:
            continue
        toks = list(tokens(tree))
        index = {tok.start: i for i, tok in enumerate(toks)}
        lead, trail, blank = attach_comments(source.text, toks)
        if os.path.abspath(file_path) == os.path.abspath(path):
            opening = [comment_text(c) for c, _ in lead.get(0, [])]
        stack = list(reversed(tree.children))
        while stack:  # outermost first: a construct and its first part share their first token
            node = stack.pop()
            if isinstance(node, Token):
                continue
            stack.extend(reversed(node.children))
            node_toks = list(tokens(node))
            if not node_toks:
                continue
            first, last = index[node_toks[0].start], index[node_toks[-1].start]
            key = (os.path.abspath(file_path), node_toks[0].line, node_toks[0].column)
            if key in notes:
                continue
            above = []
            if not blank.get(first) and first != 0:
                for comment, blank_before in reversed(lead.get(first, [])):
                    above.insert(0, comment_text(comment))
                    if blank_before:
                        break
            above = [c for c in above if not _RULER.match(c)]
            if last in trail:
                above.append(comment_text(trail[last]))
            notes[key] = tuple(above)
            if node.rule in PREFIXES:  # `replace DECL`: the comment is the declaration's
                notes.setdefault(key_of(file_path, next(tokens(node.children[-1]))), tuple(above))
    return {k: v for k, v in notes.items() if v}, paragraphs(opening)


def key_of(file_path: str, tok) -> tuple:
    return (os.path.abspath(file_path), tok.line, tok.column)


def paragraphs(lines: list[str]) -> list[str]:
    """Comment lines as Markdown: blank comment lines separate paragraphs; `- ` items stay items."""
    out = []
    for line in lines:
        if not line.strip():
            out.append("")
        elif line.startswith("  ") and out and out[-1]:
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return out


