"""`cardgame fmt`: one canonical layout for a script, with every comment kept.

The formatter works on the concrete syntax tree (interpreter/concrete.py: every token, in the
shape of the grammar's rules) and finds the comments in the gaps between tokens.  It builds a
document of texts, line breaks, nesting and groups (Wadler's "prettier printer", in the strict
form of Lindig) and prints it at most WIDTH columns wide where it can: a group is printed on one
line when it fits, else each of its soft line breaks becomes a new line.

Most of the layout is generic, so new grammar rules need no work here:
- the items of a script, and the children of a `{ ... }` without commas (blocks, decks,
  decisions), each go on their own line, one level deeper than the braces;
- everything else is printed token by token with the spacing rules of `_space`;
- a break may follow any comma; the contents of brackets are nested one level, and so is what
  follows a comma outside brackets in a top-level declaration (`attribute points from rank:
  J = 10, ...` continued).
The few tables below name the constructs that break in a particular way (the clauses of a rule,
chains of `and`/`or`/`+`/`-`, `if ... then ... else` chains, `where`/`by`/`requires`).

Layout that is kept from the source: comments (a comment after code stays after the same
token; a comment on its own line stays on its own line before the same token) and single blank
lines between items and statements.  Everything else is canonical, so formatting is idempotent.
"""

from __future__ import annotations

import attrs

from cardgame.interpreter.language.concrete import Token, Tree, tokens
from cardgame.interpreter.language.limits import MAX_SCRIPT_BYTES
from cardgame.interpreter.language.parser import parse_concrete, parse_script
from cardgame.interpreter.language.source import Diagnostic, Span

from .comments import attach_comments

WIDTH = 100
INDENT = 4

# Clause keywords that always start a new line, one level in: (rule, keyword).
CLAUSES = {("rule_decl", "when"), ("rule_decl", "require")}
# Rules whose operator chains may break before each operator; a rule's family says which
# neighbours join one chain (`a + b - c` is one chain of the `sum` family).
CHAINS = {"or_op": "or", "and_op": "and", "add": "sum", "sub": "sum"}
# Keywords before which a rule may break, one level in: (rule, keyword).
BREAK_BEFORE = {("quant", "where"), ("best", "by"), ("comprehension", "where"), ("alternative", "requires")}
# Rules whose `= EXPR` may break after the `=`, the expression one level in.
ASSIGNMENTS = {"define_decl", "let_stmt", "set_assign", "set_add", "set_sub", "var_decl"}
# Words before a whole declaration (`replace define ante = 25`): the declaration keeps its own layout.
PREFIXES = {"replace_decl", "replace_define_with", "replace_option_with"}
# Braces whose contents stay on one line even without a comma.
INLINE_BRACES = {"deck_card"}

_OPEN, _CLOSE = {"(": ")", "[": "]", "{": "}"}, {")", "]", "}"}
_NO_SPACE_BEFORE = {",", ")", "]", ".", "..", ":"}
_NO_SPACE_AFTER = {"(", "[", ".", ".."}
_CALLABLE = {"NAME", "QUANT", "BEST"}

# Document primitives.  A text is a str; a list is a concatenation.
LINE = ("line",)  # a space, or a new line when its group breaks
FILL = ("fill",)  # in a broken group: a new line only if what follows up to the next break does not fit
HARD = ("hard",)  # always a new line
BLANK = ("blank",)  # a new line after one empty line


def _nest(doc, by=INDENT):
    return ("nest", by, doc)


def _align(column, doc):
    return ("align", column, doc)


def _group(doc):
    return ("group", doc)



def format_source(text: str, path: str = "<script>"):
    """Return (formatted text, []) or (None, diagnostics) when the script does not parse, or when
    its formatted text could not be read back as the same script: longer than a script may be
    (E0731; the layout adds indentation and line breaks), or parsed to another syntax tree, spans
    aside (E0732: a bug in the formatter, which refuses to change a script's meaning)."""
    tree, diags = parse_concrete(text, path)
    if tree is None:
        return None, diags
    out = _Formatter(text, tree).run()
    size = len(out.encode("utf-8", "surrogatepass"))
    if size > MAX_SCRIPT_BYTES:
        return None, [Diagnostic("E0731", f"formatted, this script would be {size:,} bytes long, over the limit of "
                                 f"{MAX_SCRIPT_BYTES:,}", Span(path, 1, 1, 1, 2), "left as it is",
                                 "the canonical layout adds indentation and line breaks, and a script is at most "
                                 "this long (includes counted): shorten it, or keep the layout it has")]
    if not same_script(text, out, path):
        return None, [Diagnostic("E0732", "formatting would change what this script means, so it is left as it is",
                                 Span(path, 1, 1, 1, 2), "left as it is",
                                 "this is a fault of `cardgame fmt`, not of the script: please report it with "
                                 "the script")]
    return out, []


def same_script(before: str, after: str, path: str = "<script>") -> bool:
    """Do two texts parse to the same syntax tree, spans aside?"""
    a, b = parse_script(before, path)[0], parse_script(after, path)[0]
    return a is not None and b is not None and same_tree(a, b)


def same_tree(a, b) -> bool:
    """Structural equality of syntax trees, ignoring every span."""
    if isinstance(a, Span) and isinstance(b, Span):
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same_tree(x, y) for x, y in zip(a, b))
    if attrs.has(type(a)):
        return all(same_tree(getattr(a, f.name), getattr(b, f.name)) for f in attrs.fields(type(a)))
    return a == b


class _Formatter:
    def __init__(self, text: str, tree: Tree):
        self.text, self.tree = text, tree
        self.toks = list(tokens(tree))
        self.parent: dict[int, str] = {}  # token start -> the rule it is a direct child of
        self._parents(tree)
        self.lead, self.trail, self.blank = attach_comments(text, self.toks)
        self.index = {t.start: i for i, t in enumerate(self.toks)}
        for i, tok in enumerate(self.toks):
            if tok.text == "{" and i - 1 in self.trail and i not in self.trail:
                # `if cond  # why` with `{` on the next line: the comment goes after the `{`
                self.trail[i] = self.trail.pop(i - 1)

    def _parents(self, tree: Tree):
        stack = [tree]
        while stack:
            node = stack.pop()
            for child in node.children:
                if isinstance(child, Token):
                    self.parent[child.start] = node.rule
                else:
                    stack.append(child)

    # ---- building the document
    def run(self) -> str:
        items = list(self.tree.children)
        doc = []
        for k, item in enumerate(items):
            if k:
                doc.append(self._separator(item))
            doc.append(self._statement(item, 0))
        eof = len(self.toks)
        tail = []
        for comment, blank in self.lead.get(eof, []):
            tail.append([BLANK if blank and (items or tail) else HARD, comment])
        return _render(doc + tail)

    def _first(self, node) -> int:
        tok = node if isinstance(node, Token) else next(tokens(node))
        return self.index[tok.start]

    def _last(self, node) -> int:
        if isinstance(node, Token):
            return self.index[node.start]
        while isinstance(node, Tree):
            node = node.children[-1]
        return self.index[node.start]

    def _separator(self, node):
        """The break before an item or statement: a blank line is kept from the source."""
        i = self._first(node)
        leads = self.lead.get(i)
        return BLANK if (leads[0][1] if leads else self.blank.get(i)) else HARD

    def _leads(self, i: int, statement_level: bool):
        """The own-line comments before token i (and a blank line before the token)."""
        out = []
        for k, (comment, blank) in enumerate(self.lead.get(i, [])):
            if k and blank and statement_level:
                out.append(BLANK)
            out.append(("lead", comment))
        if out and statement_level and self.blank.get(i):
            out.append(BLANK)
        return out

    def _statement(self, node, depth: int):
        """An item or statement at `depth`; a comment after its last token follows it."""
        last = self._last(node)
        trail = self.trail.pop(last, None)
        doc = [*self._leads(self._first(node), True), self._node(node, depth, statement=True, skip_leads=True)]
        if trail:
            doc.append(("trail", trail))
        return _align(depth * INDENT, doc)

    def _token(self, tok: Token, skip_leads=False):
        i = self.index[tok.start]
        text = tok.text if tok.type == "STRING" else " ".join(tok.text.split())
        doc = [] if skip_leads else self._leads(i, False)
        doc.append(text)
        if i in self.trail:
            doc.append(("trail", self.trail[i]))
        return doc

    def _prefixed(self, tree: Tree, depth: int, skip_leads: bool):
        """`replace DECL`: the words before the declaration, then the declaration laid out as
        it would be alone (a rule's clauses, a definition's `=`, a phase's block)."""
        *words, decl = tree.children
        doc = []
        for k, word in enumerate(words):
            doc += [self._token(word, skip_leads=skip_leads and k == 0), " "]
        return doc + [self._node(decl, depth, statement=True)]

    def _is_block(self, tree: Tree) -> bool:
        texts = [c.text for c in tree.children if isinstance(c, Token)]
        return "{" in texts and "," not in texts and tree.rule not in INLINE_BRACES

    def _node(self, node, depth: int, statement=False, skip_leads=False):
        if isinstance(node, Token):
            return self._token(node, skip_leads)
        if node.rule in PREFIXES:
            return self._prefixed(node, depth, skip_leads)
        if self._is_block(node):
            return self._block(node, depth, statement, skip_leads)
        return self._inline(node, depth, statement, skip_leads)

    def _block(self, tree: Tree, depth: int, statement: bool, skip_leads: bool):
        """Children before `{` inline (in one group), each child inside the braces on its own
        line one level deeper, `}` back at this level."""
        kids = list(tree.children)
        open_at = next(k for k, c in enumerate(kids) if isinstance(c, Token) and c.text == "{")
        close_at = max(k for k, c in enumerate(kids) if isinstance(c, Token) and c.text == "}")
        head = Tree(tree.rule, tuple(kids[:open_at]))
        doc = []
        if open_at:
            doc.append(self._inline(head, depth, statement, skip_leads))
            doc.append(" ")
        doc.append(self._token(kids[open_at], skip_leads=not open_at and skip_leads))
        inner = kids[open_at + 1:close_at]
        close = kids[close_at]
        close_i = self.index[close.start]
        leads = self.lead.get(close_i, [])
        if not inner and not leads and self.index[kids[open_at].start] not in self.trail:
            doc += [" ", self._token(close)]
        else:
            body = []
            for k, child in enumerate(inner):
                body.append(self._separator(child) if k else HARD)
                body.append(self._statement(child, depth + 1))
            for k, (comment, blank) in enumerate(leads):
                body += [BLANK if blank and (inner or k) else HARD, ("lead", comment)]
            doc.append(_align((depth + 1) * INDENT, body))
            doc.append(_align(depth * INDENT, [HARD, self._token(close, skip_leads=True)]))
        for child in kids[close_at + 1:]:  # `} else { ... }`, `} until COND`
            doc.append(" ")
            doc.append(self._node(child, depth, skip_leads=False) if isinstance(child, Token)
                       else _nest(self._node(child, depth)))
        return doc

    def _chain_parts(self, tree: Tree):
        """The children of an operator chain, the left operands of the same family spliced in."""
        kids = list(tree.children)
        first = kids[0]
        if tree.rule in CHAINS and isinstance(first, Tree) and CHAINS.get(first.rule) == CHAINS[tree.rule]:
            return self._chain_parts(first) + kids[1:]
        if tree.rule in ("if_expr", "let_expr") and isinstance(kids[-1], Tree) and kids[-1].rule == tree.rule:
            return kids[:-1] + self._chain_parts(kids[-1])  # `let a = 1 in let b = 2 in BODY`: one chain
        return kids

    def _inline(self, tree: Tree, depth: int, statement: bool, skip_leads: bool):
        kids = self._chain_parts(tree) if tree.rule in CHAINS or tree.rule in ("if_expr", "let_expr") \
            else list(tree.children)
        parts: list = []
        stack: list = []
        has_line = nested_line = False
        prev: Token | None = None
        k = 0
        while k < len(kids):
            child = kids[k]
            first = child if isinstance(child, Token) else next(tokens(child), None)
            if first is None:
                k += 1
                continue
            keyword = first.text if isinstance(child, Token) else (child.children[0].text
                                                                     if isinstance(child.children[0], Token) else "")
            if prev is not None:
                if (tree.rule, keyword) in CLAUSES:
                    rest = self._clauses(tree, kids[k:], depth)
                    parts.append(rest)
                    break
                sep = self._space(prev, first)
                bounds = kids if tree.rule != "choose_binder" else \
                    kids[:next(i for i, c in enumerate(kids) if isinstance(c, Token) and c.text == "of")]
                if ".." in (prev.text, first.text) and any(self._spaced(c) for c in bounds):
                    sep = " "  # `bet + 1 .. put[p]`, not `bet + 1..put[p]`; but `1..min(a, b)`
                if isinstance(child, Token) and tree.rule in CHAINS and k % 2 == 1:
                    sep, has_line = LINE, True
                elif isinstance(child, Token) and tree.rule == "if_expr" and child.text == "else":
                    # three branches or more: always one line each
                    sep, has_line = (HARD if sum(c.text == "else" for c in kids if isinstance(c, Token)) > 1
                                     else LINE), True
                elif (tree.rule, keyword) in BREAK_BEFORE or (tree.rule == "let_expr" and k == len(kids) - 1) \
                        or (keyword == "for" and _several_fors(tree)):
                    # a chain of lets breaks before its body; several `for`s before each
                    sep, has_line, nested_line = LINE, True, True
                elif prev.text == ",":
                    # in a top-level declaration, outside brackets, what follows a break continues
                    # one level in (at column 0 it would read as the next declaration)
                    sep, has_line, nested_line = FILL, True, nested_line or (not stack and depth == 0)
                parts.append(sep)
            if (statement and isinstance(child, Token) and child.text in ("=", "+=", "-=")
                    and tree.rule in ASSIGNMENTS and k == len(kids) - 2):
                parts.append(self._token(child))
                value = kids[k + 1]
                parts.append(_group(_nest([LINE, self._node(value, depth)])))
                break
            if isinstance(child, Token):
                parts.append(self._token(child, skip_leads=skip_leads and k == 0))
                if child.text in _OPEN:
                    stack.append(parts)
                    parts = []
                elif child.text in _CLOSE and stack:
                    closing = parts.pop()
                    inner = parts
                    parts = stack.pop()
                    parts.append(_nest(inner))
                    parts.append(closing)
            elif k and self._is_block(child) and not stack:
                # a block after a header (an alternative's body): the header is one group, the
                # block's lines are outside it
                head = [_nest(parts)] if nested_line else parts
                tail = self._node(child, depth)
                return [_group(head) if has_line else head, tail, *self._after(kids[k + 1:], depth)]
            else:
                doc = self._node(child, depth, skip_leads=skip_leads and k == 0)
                # a statement's parts continue one level in when they break; so does a chain of
                # `+`, `and`, ... inside an `if` expression (`then 1` / `+ f(x)` at the level of the
                # `else`s would read as added to the whole `if`)
                chain = tree.rule == "if_expr" and isinstance(child, Tree) and child.rule in CHAINS
                parts.append(_nest(doc) if statement or chain else doc)
            prev = child if isinstance(child, Token) else self.toks[self._last(child)]
            k += 1
        while stack:  # a rule that opens a bracket another rule closes: keep its text, unnested
            inner, parts = parts, stack.pop()
            parts.append(inner)
        bracketed = isinstance(kids[0], Token) and kids[0].text in _OPEN
        if nested_line and not bracketed:
            parts = [_nest(parts)]
        return _group(parts) if has_line else parts

    def _after(self, kids: list, depth: int):
        out = []
        for child in kids:
            out += [" ", self._node(child, depth)]
        return out

    def _clauses(self, tree: Tree, kids: list, depth: int):
        """`when ...` and `require ...` of a rule: each on its own line, one level in."""
        out, current = [], None
        for child in kids:
            if isinstance(child, Token) and (tree.rule, child.text) in CLAUSES:
                current = [HARD, self._token(child)]
                out.append(_nest(current))
            else:
                current += [" ", _nest(self._node(child, depth))]
        return out

    def _spaced(self, node) -> bool:
        """Whether a range's bound is written with a space between its own parts (an operator,
        a keyword: `bet + 1`, `count x in L where C`): then `..` takes a space on each side, as
        a binary operator does.  A number, a name, a call, an index, a field, `-n` or brackets
        stay joined to it: `1..n`, `1..min(10, pot + 1)`, `-3..count(hand[p])`."""
        if not isinstance(node, Tree):
            return False
        parts = [list(tokens(c)) if isinstance(c, Tree) else [c] for c in node.children]
        parts = [p for p in parts if p]
        return any(self._space(a[-1], b[0]) for a, b in zip(parts, parts[1:]))

    def _space(self, a: Token, b: Token) -> str:
        if b.text in _NO_SPACE_BEFORE or a.text in _NO_SPACE_AFTER:
            return ""
        if b.text == "(" and a.type in _CALLABLE:
            return ""
        if b.text == "[" and (a.type == "NAME" or a.text in _CLOSE):
            return ""
        if a.text == "-" and self.parent.get(a.start) in ("neg", "signed_int"):
            return ""
        return " "


def _several_fors(tree: Tree) -> bool:
    return tree.rule == "comprehension" and sum(isinstance(c, Tree) and c.rule == "comp_for" for c in tree.children) > 1




# ---- printing ------------------------------------------------------------------------------

_FLAT, _BREAK = 0, 1


def _render(doc) -> str:
    lines: list[list] = []  # [indent, code, comment]
    cur = [0, "", None]

    def newline(indent):
        nonlocal cur
        if cur[1] or cur[2]:
            lines.append(cur)
            cur = [indent, "", None]
        else:
            cur[0] = indent

    stack = [(0, _BREAK, doc)]
    while stack:
        ind, mode, d = stack.pop()
        if isinstance(d, str):
            if cur[2] is not None:  # text after a comment: a new line first
                newline(ind)
            if not cur[1] and not d.strip():
                continue
            cur[1] += d
        elif isinstance(d, list):
            stack.extend((ind, mode, x) for x in reversed(d))
        else:
            kind = d[0]
            if kind == "nest":
                stack.append((ind + d[1], mode, d[2]))
            elif kind == "align":
                stack.append((d[1], mode, d[2]))
            elif kind == "group":
                if mode == _FLAT:
                    stack.append((ind, _FLAT, d[1]))
                else:
                    column = (cur[0] + len(cur[1])) if cur[1] else ind
                    flat = _fits(WIDTH - column, (ind, _FLAT, d[1]), stack)
                    stack.append((ind, _FLAT if flat else _BREAK, d[1]))
            elif kind == "line" or kind == "fill" and mode == _FLAT:
                if mode == _FLAT:
                    if cur[1] and cur[2] is None:
                        cur[1] += " "
                else:
                    newline(ind)
            elif kind == "fill":
                column = cur[0] + len(cur[1])
                if cur[2] is None and _fits(WIDTH - column - 1, (ind, _FLAT, []), stack, upto_fill=True):
                    cur[1] += " "
                else:
                    newline(ind)
            elif kind == "hard":
                newline(ind)
            elif kind == "blank":
                newline(ind)
                if lines and (lines[-1][1] or lines[-1][2]):
                    lines.append([0, "", None])
            elif kind == "trail":
                cur[2] = d[1]
            elif kind == "lead":
                newline(ind)
                cur[1] = d[1]
                newline(ind)
    if cur[1] or cur[2]:
        lines.append(cur)
    return _join(lines)


def _fits(width: int, first, rest: list, upto_fill: bool = False) -> bool:
    """Does `first` (flat) and what follows it up to the next line break fit in `width`?
    (upto_fill: what follows up to the next break of a list, for a FILL.)"""
    todo = [(first[0], first[1], first[2], False)]
    r = len(rest)
    while width >= 0:
        if not todo:
            if r == 0:
                return True
            r -= 1
            ind, mode, d = rest[r]
            todo.append((ind, mode, d, True))
            continue
        ind, mode, d, in_rest = todo.pop()
        if isinstance(d, str):
            if in_rest and d == " " and not upto_fill:
                return True  # what follows a space is the next construct's to break
            width -= len(d)
        elif isinstance(d, list):
            todo.extend((ind, mode, x, in_rest) for x in reversed(d))
        else:
            kind = d[0]
            if kind in ("nest", "align"):
                todo.append((ind, mode, d[2], in_rest))
            elif kind == "group":
                # for a FILL, a group in what follows is one item of the list: it breaks only if
                # it does not fit, so it is measured whole, not up to its own first break
                todo.append((ind, _FLAT if not in_rest or upto_fill else mode, d[1], in_rest))
            elif kind in ("line", "fill"):
                if mode == _BREAK:
                    return True
                width -= 1
            else:  # a hard break or a comment: fine after the group, never inside it
                return in_rest
    return False


def _join(lines: list) -> str:
    """Lines as text.  The comments after code in one paragraph (lines without an empty line
    between them) line up two spaces after the longest code that has such a comment."""
    out = []
    k = 0
    while k < len(lines):
        end = k
        while end < len(lines) and (lines[end][1] or lines[end][2]):
            end += 1
        widths = [lines[j][0] + len(lines[j][1]) for j in range(k, end) if lines[j][2] is not None]
        column = max(widths, default=0) + 2
        for j in range(k, end):
            indent, code, comment = lines[j]
            text = " " * indent + code if code else ""
            if comment is not None:
                text = (text.ljust(column) if code else " " * indent) + comment
            out.append(text)
        if end < len(lines):
            out.append("")
        k = end + 1
    return "\n".join(out).rstrip("\n") + "\n"
