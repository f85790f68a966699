"""Text -> syntax tree.  The only module that imports lark; no Lark type leaves it."""

from __future__ import annotations

import functools
import hashlib
import importlib.resources
import io
import re
import sys

import lark
from lark import Token, Transformer, v_args

from . import concrete, limits, nodes as n
from .kept_files import kept_name, private_place, read_kept, write_kept
from .source import UNSEEN as _UNSEEN, Diagnostic, Span
from .syntax_errors import explain_syntax_error, glued_word


@functools.cache
def _lark() -> lark.Lark:
    return _built("", start=["start", "expr"])


@functools.cache
def _lark_tokens() -> lark.Lark:
    """The same grammar keeping every token in the tree (keywords, brackets): the tools' view."""
    return _built("tokens", start="start", keep_all_tokens=True)


_PARSERS_KEPT = 8  # parser files kept at most (two per grammar, lark and Python version)


def _built(variant: str, **options) -> lark.Lark:
    """The grammar's parser, its tables read back from the cache folder when they were built
    before (building them takes ~0.15 s; loading them ~0.015 s).  The file holds a pickle, so it
    is only kept in a private place (kept_files.private_place), and a digest of its data, so a
    damaged file is built again and rewritten (lark's own cache file has none: a flipped bit in
    it could leave a parser that fails on a good script)."""
    grammar = importlib.resources.files("cardgame.grammar").joinpath("cardgame.lark").read_text()
    head = hashlib.sha256("\0".join((grammar, lark.__version__, sys.version, variant)).encode()).digest()
    place = private_place(kept_name("parser-", head.hex()))
    data = read_kept(place, head) if place else None
    if data is not None:
        try:
            return lark.Lark.load(io.BytesIO(data))
        except Exception:  # tables of another shape than this lark's: built again
            pass
    built = lark.Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False, **options)
    if place:
        tables = io.BytesIO()
        built.save(tables)
        write_kept(place, head, tables.getvalue(), "parser-", _PARSERS_KEPT)
    return built


def parse_script(text: str, path: str) -> tuple[n.Script | None, list[Diagnostic]]:
    """Parse a whole script; on a syntax error return None and one diagnostic."""
    if len(text) > MAX_SCRIPT_CHARS:
        return None, [Diagnostic("E0112", f"the script is {len(text):,} characters long; the limit is "
                                 f"{MAX_SCRIPT_CHARS:,}", Span(path, 1, 1, 1, 2), "too long",
                                 "a game is at most this long, includes counted")]
    unseen = unseen_character(text, path)
    if unseen is not None:
        return None, [unseen]
    try:
        tree = _lark().parse(text, start="start")
    except lark.exceptions.UnexpectedInput as err:
        return None, [explain_syntax_error(err, text, path, _lark())]
    too_deep = _too_deep(tree, path) or _brackets_too_deep(text, path)
    if too_deep:
        return None, [too_deep]
    glued = _glued_to_a_keyword(tree, text, path)
    if glued is not None:
        return None, [glued]
    try:
        items = _ToNodes(path).transform(tree)
    except lark.exceptions.VisitError as err:
        if isinstance(err.orig_exc, _NodeError):
            return None, [err.orig_exc.diagnostic]
        raise
    return n.Script(path=path, items=tuple(items.children if hasattr(items, "children") else items)), []


def _glued_to_a_keyword(tree: lark.Tree, text: str, path: str) -> Diagnostic | None:
    """A word the parser read as a keyword and a name (`definex = 1` as `define x = 1`,
    `rules` as `rule s`): where only keywords may come, the lexer takes the keyword off the front
    of a longer word. A token that begins with a letter right after a letter or digit can only
    follow such a keyword (names, numbers and card names are read whole; a digit after a keyword,
    `x3`, reads as the number and is left alone)."""
    glued = [token.start_pos for subtree in tree.iter_subtrees()  # iterative: a 20,000-term sum is deep
             for token in subtree.children if isinstance(token, Token) and token.start_pos
             and (text[token.start_pos - 1].isalnum() or text[token.start_pos - 1] == "_")
             and (text[token.start_pos].isalpha() or text[token.start_pos] == "_")]
    return glued_word(text, path, min(glued)) if glued else None


def parse_concrete(text: str, path: str, parsed: bool = False) -> tuple[concrete.Tree | None, list[Diagnostic]]:
    """Parse a whole script into its concrete syntax tree (every token kept; comments are in the
    gaps between tokens).  A script that `parse_script` rejects is rejected with its diagnostics;
    `parsed`: the caller knows `parse_script` accepts this text (it checked it), so it is not
    parsed twice."""
    if not parsed:
        script, diags = parse_script(text, path)
        if script is None:
            return None, diags
    return _concrete(_lark_tokens().parse(text)), []


def _concrete(tree: lark.Tree) -> concrete.Tree:
    children = []
    for child in tree.children:
        if isinstance(child, Token):
            children.append(concrete.Token(child.type, str(child), child.line, child.column, child.end_line,
                                           child.end_column, child.start_pos, child.end_pos))
        else:
            children.append(_concrete(child))
    return concrete.Tree(str(tree.data), tuple(children))


def parse_expression(text: str, path: str = "<expr>") -> tuple[object | None, list[Diagnostic]]:
    """Parse one expression (the REPL's `eval`); as long as a whole script at most."""
    if len(text) > MAX_SCRIPT_CHARS:
        return None, [Diagnostic("E0112", f"the expression is {len(text):,} characters long; the limit is "
                                 f"{MAX_SCRIPT_CHARS:,}", Span(path, 1, 1, 1, 2), "too long",
                                 "an expression is at most as long as a whole script: name its parts with "
                                 "`define` in the script")]
    unseen = unseen_character(text, path)
    if unseen is not None:
        return None, [unseen]
    try:
        tree = _lark().parse(text, start="expr")
    except lark.exceptions.UnexpectedInput as err:
        return None, [explain_syntax_error(err, text, path, _lark(), start="expr")]
    too_deep = _too_deep(tree, path) or _brackets_too_deep(text, path)
    if too_deep:
        return None, [too_deep]
    try:
        return _ToNodes(path).transform(tree), []
    except lark.exceptions.VisitError as err:
        if isinstance(err.orig_exc, _NodeError):
            return None, [err.orig_exc.diagnostic]
        raise


MAX_SCRIPT_CHARS = limits.MAX_SCRIPT_BYTES


def unseen_character(text: str, path: str) -> Diagnostic | None:
    """E0113 for the first character a terminal would obey or not show (an escape sequence, a
    zero-width space, a bidirectional override): scripts are shared, and such a character
    could rewrite the screen when a title is printed, or make `A\u200bS` read as `AS`."""
    m = _UNSEEN.search(text)
    if m is None:
        return None
    line = text.count("\n", 0, m.start()) + 1
    column = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
    return Diagnostic("E0113", f"the script contains the invisible or control character "
                      f"U+{ord(m.group()):04X}", Span(path, line, column, line, column + 1), "here",
                      "delete it: scripts may hold only visible characters, spaces, tabs and line breaks")
MAX_NESTING = 150  # levels of syntax; deeper trees would exhaust Python's stack downstream


def _too_deep(tree, path: str) -> Diagnostic | None:
    """Measure nesting without recursion, so a hostile script cannot crash the parser."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            meta = node.meta
            span = Span(path, meta.line, meta.column, meta.line, meta.column + 1) if not meta.empty \
                else Span(path, 1, 1, 1, 2)
            return Diagnostic("E0111", f"this is nested more than {MAX_NESTING} levels deep", span, "too deep",
                              "split the expression with `let` or `define`")
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, lark.Tree))
    return None


# What the bracket count skips (a comment, a text) and what it counts.
_BRACKET_TOKENS = re.compile(r'#[^\n]*|"(?:[^"\\\n]|\\.)*"|[(\[{]|[)\]}]')


def _brackets_too_deep(text: str, path: str) -> Diagnostic | None:
    """E0111 for brackets nested past MAX_NESTING: `((((1))))` is one node of the tree
    _too_deep measures, but each of its brackets is a level of the concrete tree `cardgame fmt`
    and the editor tooling walk, which would exhaust Python's stack."""
    depth = 0
    for m in _BRACKET_TOKENS.finditer(text):
        mark = m.group()
        if mark in "([{":
            depth += 1
            if depth > MAX_NESTING:
                line = text.count("\n", 0, m.start()) + 1
                column = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
                return Diagnostic("E0111", f"this is nested more than {MAX_NESTING} levels deep",
                                  Span(path, line, column, line, column + 1), "too deep",
                                  "split the expression with `let` or `define`")
        elif mark in ")]}":
            depth = max(depth - 1, 0)
    return None


class _NodeError(Exception):
    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic


_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "{": "{{", "}": "}}"}


def _unquote(token: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), token[1:-1])


# An expression part in a text, `{...}`, not written `\{`.
_PART = re.compile(r"(?<!\\)\{[^{}\"]*\}")


def _plain(token: str) -> str:
    """A string literal's text, with `\\{` kept literal for interpolation purposes."""
    return _unquote(token).replace("{{", "{").replace("}}", "}")


@v_args(meta=True)
class _ToNodes(Transformer):
    """Calls node constructors; the grammar already shaped the tree."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    # -- helpers
    def _span(self, meta) -> Span:
        return Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def _tspan(self, tok: Token) -> Span:
        return Span(self.path, tok.line, tok.column, tok.end_line, tok.end_column)

    def start(self, meta, items):
        return list(items)

    # -- header
    def game_decl(self, meta, c):
        return n.GameDecl(self._span(meta), _plain(c[0]))

    def _int(self, tok: Token) -> int:
        """A number literal; E0114 beyond the limit every number obeys (also before Python's
        own limit on converting long digit strings, which would raise ValueError)."""
        digits = str(tok).lstrip("0") or "0"
        if len(digits) > 19 or int(digits) > limits.MAX_INT:
            raise _NodeError(Diagnostic("E0114", f"this number is larger than the limit of {limits.MAX_INT:,} (2^62)",
                                        self._tspan(tok), "too large", "numbers in a game stay within ±2^62"))
        return int(digits)

    def players_decl(self, meta, c):
        counts = [t for t in c if t.type == "INT"]
        names = [t for t in c if t.type == "NAME"]
        low = self._int(counts[0])
        return n.PlayersDecl(self._span(meta), low, self._int(counts[1]) if len(counts) > 1 else low,
                             tuple(str(t) for t in names), tuple(self._tspan(t) for t in names))

    def limit_decl(self, meta, c):
        return n.LimitDecl(self._span(meta), str(c[0]), self._int(c[1]), self._tspan(c[0]))

    def include_decl(self, meta, c):
        return n.Include(self._span(meta), _plain(c[0]))

    def replace_decl(self, meta, c):
        return n.Replace(self._span(meta), c[0], self._keyword_span(meta))

    def replace_define_with(self, meta, c):
        return n.Replace(self._span(meta), c[1], self._keyword_span(meta), "define", str(c[0]), self._tspan(c[0]))

    def replace_option_with(self, meta, c):
        return n.Replace(self._span(meta), c[1], self._keyword_span(meta), "option", str(c[0]), self._tspan(c[0]))

    # -- a variant's finer changes (variation.py)
    def _first_span(self, meta, word: str) -> Span:
        return Span(self.path, meta.line, meta.column, meta.line, meta.column + len(word))

    def step_path(self, meta, c):
        return str(c[0]), str(c[1]), self._span(meta)

    def replace_step(self, meta, c):
        (phase, step, where), body = c
        return n.Variation(self._span(meta), "replace_step", self._first_span(meta, "replace"), phase, step, where,
                           body=body)

    def remove_step(self, meta, c):
        phase, step, where = c[-1]
        return n.Variation(self._span(meta), "remove_step", self._tspan(c[0]), phase, step, where)

    def insert_step(self, meta, c):
        _, name, place, (phase, step, where), body = c
        return n.Variation(self._span(meta), "insert_step", self._tspan(c[0]), phase, step, where, str(name),
                           self._tspan(name), str(place), body)

    def insert_phase(self, meta, c):
        _, name, place, anchor, body = c
        return n.Variation(self._span(meta), "insert_phase", self._tspan(c[0]), str(anchor), None,
                           self._tspan(anchor), str(name), self._tspan(name), str(place), body)

    def extend_define(self, meta, c):
        params = c[2] if len(c) == 5 else None
        return n.Variation(self._span(meta), "extend_define", self._tspan(c[0]), name=str(c[1]),
                           name_span=self._tspan(c[1]), params=params, when=c[-2], value=c[-1])

    def step_stmt(self, meta, c):
        return n.Step(self._span(meta), str(c[1]), self._tspan(c[1]), c[2])

    def _keyword_span(self, meta) -> Span:
        """The word `replace` that starts the declaration at `meta`."""
        return Span(self.path, meta.line, meta.column, meta.line, meta.column + len("replace"))

    # -- options
    def signed_int(self, meta, c):
        return -self._int(c[1]) if len(c) == 2 else self._int(c[0])

    def opt_plain(self, meta, c):
        tok = c[0]
        low, high = (c[1], c[2]) if len(c) == 3 else (None, None)
        return ("plain", str(tok), low, high, (), self._tspan(tok))

    def opt_choice(self, meta, c):
        return ("choice", "choice", None, None, tuple(str(t) for t in c), self._span(meta))

    def option_decl(self, meta, c):
        name, spec, default = c[0], c[1], c[2]
        doc = _plain(c[3]) if len(c) > 3 else ""
        _, kind, low, high, choices, type_span = spec
        return n.OptionDecl(self._span(meta), str(name), kind, low, high, choices, default, doc, type_span)

    # -- decks
    def sym_value(self, meta, c):
        return str(c[0])

    def int_value(self, meta, c):
        return c[0]

    def text_value(self, meta, c):
        return ("text", _plain(c[0]))

    def deck_dimension(self, meta, c):
        ordered = isinstance(c[0], Token) and c[0].type == "ORDERED"
        rest = c[1:] if ordered else c
        return ("dimension", str(rest[0]), tuple(rest[1:]), self._span(meta), ordered)

    def value_pair(self, meta, c):
        return (c[0], c[1], self._span(meta))

    def attribute_decl(self, meta, c):
        return n.AttributeDecl(self._span(meta), str(c[0]), str(c[1]), self._tspan(c[1]), tuple(c[2:]))

    def deck_name(self, meta, c):
        return ("name", tuple(str(t) for t in c), self._span(meta))

    def card_attr(self, meta, c):
        return (str(c[0]), c[1])

    def deck_card(self, meta, c):
        label = _plain(c[0])
        rest = list(c[1:])
        copies = self._int(rest.pop(0)) if rest and isinstance(rest[0], Token) else 1
        return ("card", n.CardSpec(self._span(meta), label, copies, tuple(rest)))

    def deck_decl(self, meta, c):
        name, zone, items = c[0], c[1], c[2:]
        dims = tuple((i[1], i[2]) for i in items if i[0] == "dimension")
        name_parts = next((i[1] for i in items if i[0] == "name"), ())
        cards = tuple(i[1] for i in items if i[0] == "card")
        ordered = tuple((i[1], i[3]) for i in items if i[0] == "dimension" and i[4])
        lines = tuple((i[1], i[3]) for i in items if i[0] == "dimension")
        return n.DeckDecl(self._span(meta), str(name), str(zone), self._tspan(zone), dims, name_parts, cards,
                          ordered, lines)

    # -- zones and variables
    def shared(self, meta, c):
        return False

    def per_player(self, meta, c):
        return True

    def shown_by(self, meta, c):
        return ("shown_by", tuple((str(t), self._tspan(t)) for t in c))

    def shown_as(self, meta, c):
        return ("shown_as", (str(c[0]), self._tspan(c[0])))

    def zone_decl(self, meta, c):
        order = c[-1] if isinstance(c[-1], tuple) and c[-1][:1] in (("shown_by",), ("shown_as",)) else None
        c = c[:-1] if order is not None else c
        shown = order[1] if order is not None and order[0] == "shown_by" else ()
        shown_as = order[1] if order is not None and order[0] == "shown_as" else None
        name, per_player, vis = c[0], c[1], c[2]
        cond = c[3] if len(c) > 3 else None
        otherwise = str(c[4]) if len(c) > 4 else None
        return n.ZoneDecl(self._span(meta), str(name), per_player, str(vis), cond, otherwise, shown, shown_as)

    def plain_type(self, meta, c):
        return n.TypeRef(self._span(meta), str(c[0]), False)

    def list_type(self, meta, c):
        inner = c[0]
        return n.TypeRef(self._span(meta), inner.name, True, inner.depth + 1 if inner.is_list else 1)

    def var_decl(self, meta, c):
        name = str(c[0])
        typ = next((x for x in c[1:] if isinstance(x, n.TypeRef)), None)
        toks = [str(x.type) for x in c[1:] if isinstance(x, Token)]
        init = c[-1] if len(c) > 1 and not isinstance(c[-1], (n.TypeRef, Token)) else None
        written = init is not None
        if not written:  # `var x: int` starts as none
            span = self._span(meta)
            init = n.Literal(Span(span.path, span.end_line, span.end_column, span.end_line, span.end_column), None, "none")
        return n.VarDecl(self._span(meta), name, typ, "PER_PLAYER" in toks, "PRIVATE" in toks, init, written,
                         "PER_TEAM" in toks)

    def record_decl(self, meta, c):
        return n.RecordDecl(self._span(meta), str(c[0]), tuple(c[1:]))

    def record_field(self, meta, c):
        return n.RecordField(self._span(meta), str(c[0]), c[1])

    # -- definitions
    def params(self, meta, c):
        return tuple(c)

    def param(self, meta, c):
        return n.Param(self._span(meta), str(c[0]), c[1])

    def define_decl(self, meta, c):
        params = c[1] if len(c) == 3 else None
        return n.DefineDecl(self._span(meta), str(c[0]), params, c[-1])

    def rule_decl(self, meta, c):
        name, params, rest = str(c[0]), c[1], list(c[2:])
        doc = _plain(rest.pop(0)) if rest and isinstance(rest[0], Token) else ""
        when = rest[0] if len(rest) == 2 else None
        return n.RuleDecl(self._span(meta), name, params, doc, when, rest[-1])

    def proc_decl(self, meta, c):
        return n.ProcDecl(self._span(meta), str(c[0]), c[1], c[2])

    def phase_decl(self, meta, c):
        return n.PhaseDecl(self._span(meta), str(c[0]), c[1])

    def event_decl(self, meta, c):
        rest = list(c[2:])
        prompt = self._interpolate(rest.pop(0)) if rest and isinstance(rest[0], Token) else ()
        return n.EventDecl(self._span(meta), str(c[0]), c[1], rest[0] if rest else (), prompt)

    def reaction_decl(self, meta, c):
        return n.ReactionDecl(self._span(meta), str(c[0]), str(c[1]), self._tspan(c[1]), str(c[2]), c[3],
                              tuple(c[4:]))

    def handler_decl(self, meta, c):
        return n.HandlerDecl(self._span(meta), str(c[0]), c[1])

    def score_decl(self, meta, c):
        return n.ScoreDecl(self._span(meta), str(c[0]), c[1])

    def measure_decl(self, meta, c):
        doc = _plain(c[-1]) if isinstance(c[-1], Token) and c[-1].type == "STRING" else ""
        parts = c[:-1] if isinstance(c[-1], Token) and c[-1].type == "STRING" else c
        at = next((p for p in parts if isinstance(p, tuple) and p[:1] == ("at",)), None)
        parts = [p for p in parts if p is not at]
        var = str(parts[1]) if len(parts) == 3 else None
        return n.MeasureDecl(self._span(meta), str(parts[0]), var, parts[-1], doc,
                             str(at[1]) if at else None, self._tspan(at[1]) if at else None)

    def measure_at(self, meta, c):
        return ("at", c[0])

    def symbols_decl(self, meta, c):
        ordered = bool(c) and isinstance(c[0], Token) and c[0].type == "ORDERED"
        words = c[1:] if ordered else c
        return n.SymbolsDecl(self._span(meta), str(words[0]), tuple(str(w) for w in words[1:]), ordered,
                             tuple(self._tspan(w) for w in words[1:]))

    def end_when_decl(self, meta, c):
        return n.EndWhen(self._span(meta), c[0])

    def seat_list(self, meta, c):
        return tuple((self._int(tok), self._tspan(tok)) for tok in c)

    def teams_fixed(self, meta, c):
        seats = tuple(tuple(seat for seat, _ in team) for team in c)
        spans = tuple(span for team in c for _, span in team)
        return n.TeamsDecl(self._span(meta), seats, spans, None, None)

    def teams_computed(self, meta, c):
        return n.TeamsDecl(self._span(meta), (), (), str(c[0]), c[1])

    def winners_mode(self, meta, c):
        return n.WinnersDecl(self._span(meta), str(c[0]).split()[0], None)

    def winners_expr(self, meta, c):
        return n.WinnersDecl(self._span(meta), None, c[0])

    # -- statements
    def block(self, meta, c):
        return tuple(c)

    def let_stmt(self, meta, c):
        return n.Let(self._span(meta), str(c[0]), c[1])

    def target_name(self, meta, c):
        return n.Target(self._span(meta), str(c[0]), None)

    def target_index(self, meta, c):
        return n.Target(self._span(meta), str(c[0]), c[1])

    def set_assign(self, meta, c):
        return n.Set(self._span(meta), c[0], "=", c[1])

    def set_add(self, meta, c):
        return n.Set(self._span(meta), c[0], "+=", c[1])

    def set_sub(self, meta, c):
        return n.Set(self._span(meta), c[0], "-=", c[1])

    def move_stmt(self, meta, c):
        what, dest, position, facing = c[0], c[1], "top", None
        for tok in c[2:]:
            if tok.type == "POSITION":
                position = str(tok).split()[-1]
            else:
                facing = str(tok).split()[-1]
        return n.Move(self._span(meta), what, dest, position, facing)

    def deal_stmt(self, meta, c):
        facing = str(c[4]).split()[-1] if len(c) > 4 else None
        return n.Deal(self._span(meta), c[0], c[1], str(c[2]), self._tspan(c[2]), c[3], facing)

    def shuffle_stmt(self, meta, c):
        return n.Shuffle(self._span(meta), c[0])

    def reveal_stmt(self, meta, c):
        return n.Reveal(self._span(meta), c[0])

    def hide_stmt(self, meta, c):
        return n.Hide(self._span(meta), c[0])

    def show_stmt(self, meta, c):
        return n.ShowTo(self._span(meta), c[0], c[1])

    def elif_clause(self, meta, c):
        return _Elif(c[0], c[1])

    def else_clause(self, meta, c):
        return c[0]

    def if_stmt(self, meta, c):
        branches = [(c[0], c[1])]
        orelse = None
        for extra in c[2:]:
            if isinstance(extra, _Elif):
                branches.append((extra.cond, extra.body))
            else:
                orelse = extra
        return n.If(self._span(meta), tuple(branches), orelse)

    def for_stmt(self, meta, c):
        return n.For(self._span(meta), str(c[0]), c[1], c[2])

    def while_stmt(self, meta, c):
        return n.While(self._span(meta), c[0], c[1])

    def repeat_times(self, meta, c):
        return n.RepeatTimes(self._span(meta), c[0], c[1])

    def repeat_until(self, meta, c):
        return n.RepeatUntil(self._span(meta), c[0], c[1])

    def loop_stmt(self, meta, c):
        return n.Loop(self._span(meta), c[0])

    def break_stmt(self, meta, c):
        return n.Break(self._span(meta))

    def actor(self, meta, c):
        return c[0]

    def table_actor(self, meta, c):
        return None

    def decide_stmt(self, meta, c):
        actor, rest = c[0], list(c[1:])
        secrecy = rest.pop(0) if rest and isinstance(rest[0], tuple) and rest[0][:1] == ("secretly",) else None
        prompt = self._interpolate(rest.pop(0)) if rest and isinstance(rest[0], Token) else ()
        return n.Decide(self._span(meta), actor, prompt, tuple(rest), secrecy is not None,
                        secrecy[1] if secrecy is not None else None)

    def secrecy(self, meta, c):
        return ("secretly", c[0] if c else None)

    def from_binder(self, meta, c):
        return n.Binder(self._span(meta), str(c[0]), c[1], None, None)

    def range_binder(self, meta, c):
        return n.Binder(self._span(meta), str(c[0]), None, c[1], c[2])

    def choose_binder(self, meta, c):
        repeats = isinstance(c[-1], Token) and c[-1].type == "REPEATS"
        if repeats:
            c = c[:-1]
        key = c.pop() if len(c) > 2 and isinstance(c[-1], Token) and c[-1].type == "NAME" else None
        counts, source = c[1:-1], c[-1]
        fewest, most = (counts[0], counts[1]) if len(counts) == 2 else (None, counts[0])
        return n.Binder(self._span(meta), str(c[0]), source, None, None, most, fewest,
                        str(key) if key is not None else None, self._tspan(key) if key is not None else None,
                        repeats)

    def requires(self, meta, c):
        return ("requires", tuple(c))

    def rule_call(self, meta, c):
        args = self._positional(c[1] if len(c) > 1 else (), "rule")
        return n.RuleCall(self._span(meta), str(c[0]), args)

    def alternative(self, meta, c):
        name, binders, requires, body = str(c[0]), [], (), ()
        for part in c[1:]:
            if isinstance(part, n.Binder):
                binders.append(part)
            elif isinstance(part, tuple) and part and part[0] == "requires":
                requires = part[1]
            else:
                body = part
        return n.Alternative(self._span(meta), name, tuple(binders), requires, body)

    def simultaneous_stmt(self, meta, c):
        return n.Simultaneous(self._span(meta), str(c[0]), c[1], c[2])

    def call_stmt(self, meta, c):
        args = self._positional(c[1] if len(c) > 1 else (), "procedure")
        return n.CallStmt(self._span(meta), str(c[0]), args, self._tspan(c[0]))

    def next_stmt(self, meta, c):
        return n.Next(self._span(meta), str(c[0]))

    def end_stmt(self, meta, c):
        return n.EndGame(self._span(meta), capped=bool(c))

    def signal_stmt(self, meta, c):
        args = self._positional(c[1] if len(c) > 1 else (), "event")
        return n.Signal(self._span(meta), str(c[0]), args)

    def cancel_stmt(self, meta, c):
        return n.Cancel(self._span(meta))

    def return_stmt(self, meta, c):
        return n.Return(self._span(meta))

    def log_stmt(self, meta, c):
        return n.Log(self._span(meta), self._interpolate(c[0]))

    def _interpolate(self, tok: Token) -> tuple:
        """Split `"text {expr} text"` into pieces, parsing each `{expr}` in place (its nesting is
        measured like any expression's: E0111)."""
        raw = str(tok)
        parts, pos = [], 1
        for m in re.finditer(r"(?<!\\)\{([^{}]*)\}", raw):
            if m.start() > pos:
                parts.append(_plain('"' + raw[pos:m.start()] + '"'))
            inner = m.group(1)
            column = tok.column + m.start(1)
            try:
                tree = _lark().parse(inner, start="expr")
                expr = _ToNodes(self.path)._shifted(tree, tok.line, column - 1)
            except lark.exceptions.UnexpectedInput:
                span = Span(self.path, tok.line, column, tok.line, column + max(1, len(inner)))
                hint = ("a text cannot be written inside `{...}`: name it with a definition "
                        '(`define suffix = if alone then " alone" else ""`) and write `{suffix}`'
                        if '"' in inner else "write `\\{` for a literal brace")
                raise _NodeError(Diagnostic("E0104", "cannot read the expression inside `{...}` in this text",
                                            span, "not an expression", hint)) from None
            parts.append(expr)
            pos = m.end()
        if pos < len(raw) - 1:
            parts.append(_plain('"' + raw[pos:-1] + '"'))
        filled = [m.span() for m in re.finditer(r"(?<!\\)\{([^{}]*)\}", raw)]
        for m in re.finditer(r"(?<!\\)\{", raw):  # a brace left open would be shown as written
            if not any(a <= m.start() < b for a, b in filled):
                column = tok.column + m.start()
                raise _NodeError(Diagnostic("E0104", "this `{` is never closed", Span(
                    self.path, tok.line, column, tok.line, column + 1), "no `}` closes it",
                    "close the part (`{pot}`), or write `\\{` for a literal brace"))
        return tuple(parts)

    def _shifted(self, tree, line: int, col_offset: int):
        for sub in tree.iter_subtrees():
            if not sub.meta.empty:
                sub.meta.line, sub.meta.end_line = line, line
                sub.meta.column += col_offset
                sub.meta.end_column += col_offset
        too_deep = _too_deep(tree, self.path)  # before the recursive walks below
        if too_deep:
            raise _NodeError(too_deep)
        for tok in tree.scan_values(lambda v: isinstance(v, Token)):
            tok.line, tok.end_line = line, line
            tok.column += col_offset
            tok.end_column += col_offset
        try:
            return self.transform(tree)
        except lark.exceptions.VisitError as err:  # an inner diagnostic (a number too large...)
            if isinstance(err.orig_exc, _NodeError):
                raise err.orig_exc from None
            raise

    # -- expressions
    def if_expr(self, meta, c):
        return n.IfExpr(self._span(meta), c[0], c[1], c[2])

    def _binary(op):
        def build(self, meta, c):
            return n.Binary(self._span(meta), op, c[0], c[1])
        return build

    or_op = _binary("or")
    and_op = _binary("and")
    in_op = _binary("in")
    not_in_op = _binary("notin")
    add = _binary("+")
    sub = _binary("-")
    mul = _binary("*")
    div = _binary("/")
    mod = _binary("%")
    pow = _binary("^")

    def compare(self, meta, c):
        return n.Binary(self._span(meta), str(c[1]), c[0], c[2])

    def not_op(self, meta, c):
        return n.Unary(self._span(meta), "not", c[0])

    def neg(self, meta, c):
        return n.Unary(self._span(meta), "neg", c[0])

    def quant(self, meta, c):
        return n.Quant(self._span(meta), str(c[0]), str(c[1]), c[2], c[3])

    def best(self, meta, c):
        return n.Best(self._span(meta), str(c[0]), str(c[1]), c[2], c[3])

    def groups(self, meta, c):
        return n.Pattern(self._span(meta), "groups", str(c[1]), c[2], c[3])

    def runs(self, meta, c):
        return n.Pattern(self._span(meta), "runs", str(c[1]), c[2], c[3], c[5] if len(c) > 4 else None)

    def attr(self, meta, c):
        return n.Attr(self._span(meta), c[0], str(c[1]), self._tspan(c[1]))

    def index(self, meta, c):
        return n.Index(self._span(meta), c[0], c[1])

    def call(self, meta, c):
        args = c[1] if len(c) > 1 else ()
        named = [a for a in args if isinstance(a, n.FieldValue)]
        if not named:
            return n.Call(self._span(meta), str(c[0]), tuple(args), self._tspan(c[0]))
        if len(named) != len(args):
            plain = next(a for a in args if not isinstance(a, n.FieldValue))
            raise _NodeError(Diagnostic("E0223", "a record's fields are all named, or none of them", plain.span,
                                        "no field name", f"write `FIELD: VALUE` for each field of `{c[0]}`"))
        return n.RecordLit(self._span(meta), str(c[0]), self._tspan(c[0]), tuple(args))

    def args(self, meta, c):
        return tuple(c)

    def named_arg(self, meta, c):
        return n.FieldValue(self._span(meta), str(c[0]), self._tspan(c[0]), c[1])

    def _positional(self, args, what: str) -> tuple:
        """The arguments of a rule, procedure or event: `NAME: VALUE` is only for records."""
        for a in args:
            if isinstance(a, n.FieldValue):
                message = f"{_article(what)} {what} takes its arguments in order, not by name"
                raise _NodeError(Diagnostic("E0223", message, a.name_span, "a field name",
                                            f"only a record's constructor names its values: drop `{a.name}:`"))
        return tuple(args)

    def int_lit(self, meta, c):
        return n.Literal(self._span(meta), self._int(c[0]), "int")

    def str_lit(self, meta, c):
        part = _PART.search(str(c[0]))
        if part:
            tok = c[0]
            column = tok.column + part.start()
            raise _NodeError(Diagnostic(
                "E0136", "`{...}` is filled in only in a `log` text and a prompt", Span(
                    self.path, tok.line, column, tok.line, column + len(part.group())),
                "not filled in here", "join the parts with `+` (`\"for \" + c`), or write `\\{` for a brace"))
        return n.Literal(self._span(meta), _plain(c[0]), "text")

    def true_lit(self, meta, c):
        return n.Literal(self._span(meta), True, "bool")

    def false_lit(self, meta, c):
        return n.Literal(self._span(meta), False, "bool")

    def none_lit(self, meta, c):
        return n.Literal(self._span(meta), None, "none")

    def name(self, meta, c):
        return n.Name(self._span(meta), str(c[0]))

    def list_lit(self, meta, c):
        return n.ListLit(self._span(meta), tuple(c))

    def comprehension(self, meta, c):
        fors = [x for x in c[1:] if isinstance(x, tuple)]
        rest = [x for x in c[1:] if not isinstance(x, tuple)]
        cond = rest[0] if rest else None
        span = self._span(meta)
        # `[e for x in A for y in B where c]`: the last `for` makes e's list, each outer one joins them.
        node = n.Comprehension(span, c[0], fors[-1][0], fors[-1][1], cond)
        for var, source in reversed(fors[:-1]):
            node = n.Comprehension(span, node, var, source, None, flat=True)
        return node

    def comp_for(self, meta, c):
        return (str(c[0]), c[1])

    def let_expr(self, meta, c):
        return n.LetExpr(self._span(meta), str(c[0]), self._tspan(c[0]), c[1], c[2])


class _Elif:
    """An `elif` clause on its way into its `if` node."""

    def __init__(self, cond, body):
        self.cond, self.body = cond, body


def _article(word: str) -> str:
    """`a` or `an` before `word` (`an event`, `a rule`)."""
    return "an" if word[:1] in "aeiou" else "a"
