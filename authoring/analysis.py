"""What the editor server knows about one open script: its diagnostics, its declared names and
where each is used, and what stands at a position.  Plain data, no protocol: authoring/lsp.py
turns it into LSP messages, and tests can ask it directly.

Positions here are 1-based lines and columns, as in cardgame.interpreter.language.source.Span.
"""

from __future__ import annotations

import bisect
import os
import re

import attrs

from cardgame.interpreter.language import nodes as n
from cardgame.interpreter.language import replacing
from cardgame.interpreter.language.builtins import BUILTINS, CONSTANTS
from cardgame.interpreter.language.checker import VISIBILITIES
from cardgame.interpreter.language.concrete import Token, Tree, tokens
from cardgame.interpreter.language.loader import check_file
from cardgame.interpreter.language.parser import parse_concrete
from cardgame.interpreter.language.source import Span
from cardgame.interpreter.language.types import element, is_record, record_name, spelled

# The built-ins, as docs/language.md §11 describes them (tests/test_lsp.py checks every one is here).
BUILTIN_DOCS = {
    "count": ("count(L)", "the number of items (also the quantifier `count x in L where C`)"),
    "empty": ("empty(L)", "true if L has no items"),
    "sum": ("sum(L)", "the sum of a list of numbers (`none` items skipped)"),
    "max": ("max(L), max(a, b, ...)", "the greatest item of a list of numbers, or of 2 to 8 numbers; `none` if empty"),
    "min": ("min(L), min(a, b, ...)", "the least item of a list of numbers, or of 2 to 8 numbers; `none` if empty"),
    "top": ("top(Z), top(Z, n)", "the top card of zone Z (`none` if empty), or its top n cards, the topmost first"),
    "bottom": ("bottom(Z), bottom(Z, n)", "the bottom card of Z, or its bottom n cards, the bottommost first"),
    "cards": ("cards(Z)", "the cards of zone Z as a list, bottom first"),
    "first": ("first(L), first(L, n)", "the first item (`none` if empty), or the first n items"),
    "last": ("last(L), last(L, n)", "the last item (`none` if empty), or the last n items"),
    "reverse": ("reverse(L)", "L in reverse order"),
    "unique": ("unique(L)", "each item of L once, where it first appears"),
    "sorted": ("sorted(L)", "a list of numbers in increasing order"),
    "range": ("range(a, b)", "the numbers a, a+1, ..., b (empty if b < a)"),
    "index": ("index(L, x)", "the position of x in L counting from 0, `none` if absent"),
    "abs": ("abs(n)", "the size of a number"),
    "seat": ("seat(i)", "the player at seat i (counted modulo the number of players)"),
    "number": ("number(p)", "the seat number of player p (or a team's number)"),
    "team": ("team(p)", "p's team (a game with teams)"),
    "members": ("members(t)", "the players of team t, in seat order"),
    "partners": ("partners(p)", "the other players of p's team, clockwise from p"),
    "partner": ("partner(p)", "p's next partner clockwise, `none` alone in a team"),
    "teams": ("teams", "all teams, in order (a game with teams)"),
    "team_count": ("team_count", "the number of teams"),
    "left_of": ("left_of(p)", "the next player clockwise"),
    "right_of": ("right_of(p)", "the next player counter-clockwise"),
    "players_from": ("players_from(p)", "all players in clockwise order, starting with p"),
    "owner": ("owner(c)", "the player whose zone holds card c, `none` for a shared zone"),
    "zone_of": ("zone_of(c)", "the zone that holds card c"),
    "face_up": ("face_up(c)", "true if card c is face up"),
    "random": ("random(L) / random(a, b)", "a chance draw: an item of L, or a number from a to b (statements only)"),
    "subsets": ("subsets(L, k)", "every choice of k items of L, each in L's order"),
    "disjoint_choices": ("disjoint_choices(G)", "every choice of lists of G that share no item, the empty choice first"),
    "players": ("players", "all seats, in order"),
    "player_count": ("player_count", "the number of players"),
}

KEYWORDS = ("game", "players", "include", "option", "deck", "zone", "var", "define", "rule", "when", "require",
            "requires", "procedure", "phase", "event", "reaction", "on", "score", "winners", "let", "set", "move",
            "deal", "shuffle", "reveal", "hide", "show", "if", "elif", "else", "then", "for", "in", "while", "repeat",
            "until", "loop", "break", "decide", "simultaneously", "next", "end", "signal", "cancel", "return",
            "log", "where", "and", "or", "not", "true", "false", "none", "record", "teams",
            "ordered", "attribute", "shown", "sorted", "groups", "runs", "measure", "limit", "as", "replace", "with",
            "secretly", "named", "distinct", "repeats")

# The words of a zone's declaration that are names to the grammar: who sees the cards, and the
# order views list them in.
ZONE_WORDS = {**{word: f"visibility `{word}`: {meaning}" for word, meaning in VISIBILITIES.items()},
              "placed": "`shown as placed`: views list the zone's cards in its own order (bottom first), "
                        "never sorted as a hand"}
# Where a zone's declaration expects a visibility (`zone hand: per player |`, `... else |`),
# and where `shown as` expects `placed`.
_VISIBILITY_PLACE = re.compile(r"^\s*zone\s+\w+\s*:\s*(shared|per\s+player)\s+(\w*|.*\belse\s+\w*)$")
_SHOWN_AS_PLACE = re.compile(r"^\s*zone\b.*\bshown\s+as\s+\w*$")

DECLARATIONS = {n.OptionDecl: "option", n.ZoneDecl: "zone", n.VarDecl: "variable", n.DefineDecl: "definition",
                n.RuleDecl: "rule", n.ProcDecl: "procedure", n.PhaseDecl: "phase", n.EventDecl: "event",
                n.DeckDecl: "deck", n.RecordDecl: "record", n.AttributeDecl: "attribute"}

# NAME tokens that declare a local name: (rule, which NAME of the rule counting from 0).
_LOCAL_DECLARERS = {("let_stmt", 0), ("for_stmt", 0), ("from_binder", 0), ("range_binder", 0), ("choose_binder", 0),
                    ("param", 0), ("quant", 0), ("best", 0), ("comp_for", 0), ("let_expr", 0), ("simultaneous_stmt", 0),
                    ("reaction_decl", 2), ("score_decl", 0)}


@attrs.frozen
class Declaration:
    name: str
    kind: str
    node: object
    name_span: Span


class Analysis:
    """The checked state of one script text (unsaved edits included)."""

    def __init__(self, path: str, text: str):
        self.path, self.text = path, text
        self._line_starts: dict[str, list[int]] = {}  # path -> where each of its lines starts
        self.tables, self.items, self.sources, self.diagnostics = check_file(path, text)
        self.declarations: dict[str, Declaration] = {}
        for item in self.items:
            kind = DECLARATIONS.get(type(item))
            if kind and item.name not in self.declarations:
                self.declarations[item.name] = Declaration(item.name, kind, item, self._name_span(item))
        # the tokens, read only once the text is known to parse: a checked script's own text has
        # (tables were made), so the parser is not run on it a second time
        self.tree = parse_concrete(text, path, parsed=self.tables is not None)[0]
        self.names = self._names(self.path, self.tree)
        self._included_names: dict | None = None
        self.locals = self._locals()

    def _name_span(self, item) -> Span:
        """Where a declaration writes its name: the first time the name follows the keyword."""
        source = self.sources.get(item.span.path)
        if source is None:
            return item.span
        offset = self._offset(item.span.path, source.text, item.span.line, item.span.column)
        m = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(item.name) + r"(?![A-Za-z0-9_])").search(source.text, offset + 1)
        if m is None:
            return item.span
        line, column = self._place(item.span.path, source.text, m.start())
        return Span(item.span.path, line, column, line, column + len(item.name))

    def _starts(self, path: str, text: str) -> list[int]:
        """Where each line of the text at `path` starts: found once, so placing every declaration
        and local costs a look-up, not a pass over the text (10,000 rules took seconds)."""
        starts = self._line_starts.get(path)
        if starts is None:
            starts = self._line_starts[path] = [0] + [m.end() for m in re.finditer("\n", text)]
        return starts

    def _offset(self, path: str, text: str, line: int, column: int) -> int:
        starts = self._starts(path, text)
        return (starts[line - 1] if line <= len(starts) else len(text)) + column - 1

    def _place(self, path: str, text: str, offset: int) -> tuple[int, int]:
        """(line, column) of an offset into the text at `path`."""
        starts = self._starts(path, text)
        line = bisect.bisect_right(starts, offset)
        return line, offset - starts[line - 1] + 1

    def _names(self, path: str, tree) -> list[tuple[Token, str]]:
        """Every NAME token of the text at `path` (this one or a file it includes) with what it
        is: "global" (a declared name used or declared), "local", "attribute" or "other"."""
        if tree is None:
            return []
        local_uses = set()
        if self.tables is not None:
            for item in self.items:
                if item.span.path == path:
                    _walk_names(item, self.tables.resolved, local_uses)
        out = []
        stack = [tree]
        while stack:
            node = stack.pop()
            count = 0
            prev = None
            for child in node.children:
                if isinstance(child, Tree):
                    stack.append(child)
                    prev = None
                    continue
                if child.type == "CARD_NAME":  # `10H`: a card literal (a letter-led one is a NAME)
                    out.append((child, "other"))
                elif child.type == "NAME":
                    if (prev is not None and prev.text == ".") or node.rule == "shown_by":
                        what = "attribute"  # `c.rank`; `shown by suit, rank` names card attributes too
                    elif node.rule in ("named_arg", "record_field") and count == 0:
                        what = "field"
                    elif (node.rule == "zone_decl" and count > 0) or node.rule == "shown_as":
                        what = "other"  # a visibility, `placed`: words, even where a name is declared alike
                    elif (node.rule, count) in _LOCAL_DECLARERS or (child.line, child.column) in local_uses:
                        what = "local"
                    elif child.text in self.declarations:
                        what = "global"
                    else:
                        what = "other"
                    out.append((child, what))
                    count += 1
                prev = child
        out += self._names_in_texts(path, local_uses)
        out.sort(key=lambda pair: (pair[0].line, pair[0].column))
        return out

    def _names_in_texts(self, path: str, local_uses: set) -> list:
        """Declared names used inside `{...}` of texts (logs, prompts): no tokens of their own."""
        out = []
        for node in self._own_nodes(path):
            if isinstance(node, (n.Log, n.Decide)):
                parts = node.parts if isinstance(node, n.Log) else node.prompt
                for part in parts:
                    if not isinstance(part, str):
                        out += _expression_names(part, self.declarations, local_uses)
        return out

    def _own_nodes(self, path: str):
        """Every node of the declarations written in the text at `path` (this one, or one included)."""
        for item in self.items:
            if item.span.path != path:
                continue
            stack = [item]
            while stack:
                node = stack.pop()
                yield node
                stack.extend(_children(node))

    def _locals(self) -> dict:
        """(line, column) of each declaration and use of a local name in this text -> the
        local's Declaration and the spans of its uses.  The checker gives each local of an
        activation its own slot, so (activation, slot) identifies a local."""
        if self.tables is None:
            return {}
        t = self.tables
        found: dict = {}
        for item in self.items:
            if item.span.path != self.path:
                continue
            owner = t.events.get(item.event) if isinstance(item, (n.ReactionDecl, n.HandlerDecl)) else item
            stack = [item]
            while stack:
                node = stack.pop()
                stack.extend(_children(node))
                name = _declared_local(node)
                if name is not None and id(node) in t.slots:
                    span = self._local_span(node, name)
                    entry = found.setdefault((id(owner), t.slots[id(node)]), [None, []])
                    entry[0] = Declaration(name, "local", node, span)
                elif isinstance(node, (n.Name, n.Target)) and t.resolved.get(id(node), ("",))[0] == "local":
                    span = node.span if isinstance(node, n.Name) else \
                        Span(node.span.path, node.span.line, node.span.column, node.span.line,
                             node.span.column + len(node.name))
                    found.setdefault((id(owner), t.resolved[id(node)][1]), [None, []])[1].append(span)
        out = {}
        for decl, uses in found.values():
            if decl is None:
                continue
            for span in [decl.name_span, *uses]:
                out[(span.line, span.column)] = (decl, uses)
        return out

    def _local_span(self, node, name: str) -> Span:
        """Where the declaring form writes the local's name."""
        if isinstance(node, (n.Param, n.Binder)):
            return Span(node.span.path, node.span.line, node.span.column, node.span.line,
                        node.span.column + len(name))
        if isinstance(node, n.LetExpr):
            return node.name_span
        lead = _LOCAL_KEYWORD.get(type(node), "")
        offset = self._offset(self.path, self.text, node.span.line, node.span.column)
        m = re.compile(lead + r"\s+(" + re.escape(name) + r")(?![A-Za-z0-9_])").search(self.text, offset)
        if m is None:
            return node.span
        line, column = self._place(self.path, self.text, m.start(1))
        return Span(node.span.path, line, column, line, column + len(name))

    # ---- questions an editor asks
    def token_at(self, line: int, column: int) -> Token | None:
        """The token under the cursor (or just before it: the cursor may sit at a name's end)."""
        if self.tree is None:
            return None
        for tok in tokens(self.tree):
            if tok.line == line and tok.column <= column <= tok.end_column:
                return tok
        return None

    def name_at(self, line: int, column: int) -> tuple[Token, str] | None:
        for tok, what in self.names:
            if tok.line == line and tok.column <= column <= tok.end_column:
                return tok, what
        return None

    def definition(self, line: int, column: int) -> Declaration | None:
        found = self.name_at(line, column)
        if found is None:
            return None
        tok, what = found
        if what == "local":
            local = self.locals.get((tok.line, tok.column))
            return local[0] if local else None
        if what == "global":
            return self.declarations[tok.text]
        field = self._field_at(tok) if self.tables is not None else None
        if field is not None:
            record, name, _typ, span = field
            return Declaration(name, "field", self.tables.records[record],
                               Span(span.path, span.line, span.column, span.line, span.column + len(name)))
        card = self._card(tok)
        if card is not None:
            return Declaration(card.name, "card", card, card.span)
        if what == "attribute" and self.tables is not None:  # `c.rank`: its dimension or `attribute` line
            decl = self.declarations.get(tok.text)
            if decl is not None and decl.kind == "attribute":
                return decl
            deck = next((d for d in self.tables.decks if tok.text in dict(d.dimensions)), None)
            if deck is not None:
                return Declaration(tok.text, "card attribute", deck, deck.span)
        return None

    def references(self, decl: Declaration) -> list[Span]:
        """Every place this text names the declaration (the declaration included)."""
        if decl.kind == "local":
            return [decl.name_span, *self.locals[(decl.name_span.line, decl.name_span.column)][1]]
        if decl.kind in ("field", "card", "attribute", "card attribute"):  # the same field, card or attribute
            same = [t for t, _ in self.names if t.text == decl.name and self.definition(t.line, t.column) == decl]
            return [Span(self.path, t.line, t.column, t.end_line, t.end_column) for t in same]
        return [Span(path, t.line, t.column, t.end_line, t.end_column)
                for path, names in [(self.path, self.names), *self._names_of_includes().items()]
                for t, what in names if what == "global" and t.text == decl.name]

    def included_names(self) -> dict:
        """path -> the names of each file this text includes, with what each is (as `names`)."""
        return self._names_of_includes()

    def _names_of_includes(self) -> dict:
        """The names of each file this text includes, read when first asked: a declared name is
        one game-wide (a variant's replacement is what its original's uses mean)."""
        if self._included_names is None:
            replaced = [r.original.span for r in self.tables.replacements.values()] if self.tables else []
            self._included_names = {
                path: [(t, what) for t, what in self._names(path, parse_concrete(source.text, path)[0])
                       if not any(_within(path, t, span) for span in replaced)]  # not played: replaced
                for path, source in self.sources.items() if path != self.path}
        return self._included_names

    def hover(self, line: int, column: int) -> str | None:
        """Markdown for the name under the cursor: what it is, its type and its description."""
        found = self.name_at(line, column)
        tok = found[0] if found is not None else self.token_at(line, column)
        if tok is None:
            return None
        if found is not None and found[1] == "global":
            return self._describe(self.declarations[tok.text])
        if found is None and tok.text == "replace" and tok.type != "NAME":
            return self._replaced_here(tok)
        if found is not None and found[1] == "other" and self._zone_word(tok):
            return f"```cardgame\n{tok.text}\n```\n{ZONE_WORDS[tok.text]}"
        if tok.text in BUILTIN_DOCS and (found is None or found[1] == "other"):
            signature, doc = BUILTIN_DOCS[tok.text]
            return f"```cardgame\n{signature}\n```\nbuilt-in: {doc}"
        if found is not None and found[1] == "local" and self.tables is not None:
            typ = self._local_type(tok)
            local = self.locals.get((tok.line, tok.column))
            if typ is None and local is not None:
                decl, uses = local
                typ = next((self._local_type(u) for u in uses), None) if uses else None
                if typ is None and isinstance(decl.node, (n.Let, n.LetExpr)):
                    typ = self.tables.types.get(id(decl.node.value))
                if typ is None and isinstance(decl.node, n.Comprehension):
                    typ = _element_type(self.tables.types.get(id(decl.node.source)))
            where = f"\n\ndeclared at line {local[0].name_span.line}" if local is not None else ""
            return (f"```cardgame\n{tok.text}: {spelled(typ)}\n```\nlocal name" if typ else f"local name `{tok.text}`") \
                + where
        return self._hover_value(tok, found[1] if found is not None else None)

    def _zone_word(self, tok) -> bool:
        """Is `tok` a zone declaration's visibility (`others`) or the `placed` of `shown as placed`?"""
        if tok.text not in ZONE_WORDS:
            return False
        stack = [self.tree]
        while stack:
            node = stack.pop()
            if node.rule != "zone_decl":
                stack.extend(c for c in node.children if isinstance(c, Tree))
                continue
            words = [c for c in node.children if isinstance(c, Token) and c.type == "NAME"][1:]
            words += [c for shown in node.children if isinstance(shown, Tree) and shown.rule == "shown_as"
                      for c in shown.children if isinstance(c, Token) and c.type == "NAME"]
            if any((w.line, w.column) == (tok.line, tok.column) for w in words):
                return True
        return False

    def _hover_value(self, tok, what) -> str | None:
        """A card literal (`QS`, `10H`), or a field or attribute after a dot or before `:`."""
        t = self.tables
        if t is None:
            return None
        field = self._field_at(tok)
        if field is not None:
            record, name, typ, _span = field
            return f"```cardgame\n{name}: {spelled(typ)}\n```\nfield of record `{record}`"
        if what == "attribute" and tok.text in t.card_attrs:
            order = t.orders.get(tok.text)
            if order:  # an ordered dimension: its values in their order
                values = ", ".join(str(v) for v in order)
                return f"```cardgame\nordered {tok.text}: {values}\n```\ncard attribute; its values compare in this order"
            return f"```cardgame\n{tok.text}: {spelled(t.card_attrs[tok.text])}\n```\ncard attribute"
        players = t.heading.get("players")
        if players is not None and tok.text in t.seat_names and any(
                (sp.line, sp.column) == (tok.line, tok.column) for sp in players.name_spans):  # `named N, E, S, W`
            k = t.seat_names.index(tok.text)
            return (f"```cardgame\nplayers {players.low if players.low == players.high else f'{players.low}..{players.high}'} "
                    f"named {', '.join(t.seat_names)}\n```\nthe name of seat P{k} (`seat({k})`), as people read and "
                    "type it")
        sets = [d for d in t.symbol_sets.values() if tok.text == d.name or tok.text in d.values]
        if sets and tok.type == "NAME":  # a set of free symbols, or one of its words
            decl = sets[0]
            head = f"{'ordered ' if decl.ordered else ''}symbols {decl.name}: {', '.join(decl.values)}"
            what = "a type of free symbols" if tok.text == decl.name else f"a symbol of `{decl.name}`"
            return f"```cardgame\n{head}\n```\n{what}" + ("; they compare in this order" if decl.ordered else "")
        card = self._card(tok)
        if card is not None:
            shown = ", ".join(f"{a} {v[1] if isinstance(v, tuple) else v}" for a, v in card.attrs.items())
            return f"```cardgame\n{card.name}: card\n```\ncard of deck `{card.deck}`" + (f": {shown}" if shown else "")
        return None

    def _card(self, tok):
        """The card a card literal names, or None."""
        if self.tables is None or tok.type not in ("NAME", "CARD_NAME"):
            return None
        for item in self.items:
            if item.span.path == self.path:
                node = _find_name_node(item, tok.line, tok.column)
                if node is not None:
                    kind, detail = self.tables.resolved.get(id(node), (None, None))
                    return self.tables.cards[detail] if kind == "card" else None
        return None

    def _field_at(self, tok):
        """(record, field, type, span of its declaration) for a field named at this token: after
        a dot on a record value, before `:` in a record's constructor, or in a record's declaration."""
        t = self.tables
        for node in self._own_nodes(self.path):
            record = None
            if isinstance(node, n.RecordDecl):
                for f in node.fields:
                    if (f.span.line, f.span.column) == (tok.line, tok.column):
                        return node.name, f.name, dict(t.record_fields.get(node.name, ())).get(f.name), f.span
            elif isinstance(node, n.Attr) and (node.name_span.line, node.name_span.column) == (tok.line, tok.column):
                typ = t.types.get(id(node.obj), "")
                record = record_name(typ) if is_record(typ) else None
            elif isinstance(node, n.RecordLit):
                if any((f.name_span.line, f.name_span.column) == (tok.line, tok.column) for f in node.fields):
                    record = node.name
            if record is not None and record in t.records:
                decl = next((f for f in t.records[record].fields if f.name == tok.text), None)
                if decl is not None:
                    return record, tok.text, dict(t.record_fields.get(record, ())).get(tok.text), decl.span
        return None

    def _local_type(self, tok) -> str | None:
        for item in self.items:
            if item.span.path == self.path:
                found = _find_name_node(item, tok.line, tok.column)
                if found is not None:
                    return self.tables.types.get(id(found))
        return None

    def _describe(self, decl: Declaration) -> str:
        node, t = decl.node, self.tables
        source = self.sources.get(node.span.path)
        header = source.line(node.span.line).strip() if source else decl.name
        if header.endswith("{"):
            header = header[:-1].rstrip()
        out = [f"```cardgame\n{header}\n```", f"{decl.kind} `{decl.name}`"]
        if t is not None:
            if isinstance(node, n.VarDecl) and decl.name in t.vars:
                typ = t.vars[decl.name][1]
                out[-1] += f": {spelled(typ or 'any')}" + (" per player" if node.per_player else
                                                           " per team" if node.per_team else "")
            elif isinstance(node, n.DefineDecl) and id(node.body) in t.types:
                out[-1] += f": {spelled(t.types[id(node.body)])}"
            elif isinstance(node, n.RecordDecl):
                out.append("fields: " + ", ".join(f"`{f}: {spelled(ft)}`" for f, ft in t.record_fields.get(decl.name, ())))
        doc = getattr(node, "doc", "")
        if doc:
            out.append(doc)
        out.append(f"declared at {os.path.basename(node.span.path)}:{decl.name_span.line}")
        replaced = t.replacements.get(id(node)) if t is not None else None
        if replaced is not None:
            out.append(self._replaces(replaced))
        return "\n\n".join(out)

    def _replaces(self, replaced) -> str:
        """What a replacement takes the place of: the original's header and where it is."""
        original = replaced.original
        source = self.sources.get(original.span.path)
        header = source.line(original.span.line).strip().rstrip("{").rstrip() if source else ""
        kind = replacing.kind_of(original)
        return (f"replaces the {kind} declared at {original.span.short}" + (f": `{header}`" if header else "")
                + "; every use of the name, in the included files too, means this one")

    def _replaced_here(self, tok) -> str | None:
        """Hover on the word `replace`: what the declaration after it replaces."""
        if self.tables is None:
            return "```cardgame\nreplace\n```\nkeyword: the declaration after it takes the place of an included one"
        for replaced in self.tables.replacements.values():
            where = replaced.keyword
            if where.path == self.path and (where.line, where.column) == (tok.line, tok.column):
                return f"```cardgame\nreplace\n```\n{replaced.described}: " + self._replaces(replaced)
        return None

    def completions(self, line: int, column: int) -> list[tuple[str, str, str]]:
        """(label, kind, detail) of everything that may be written at this place."""
        before = self._line(line)[:column - 1]
        if before.rstrip().endswith(".") or re.search(r"\.\s*[A-Za-z_0-9]*$", before):
            attributes = sorted(self.tables.card_attrs) if self.tables is not None else []
            fields = [(f, "field", f"field of {r}") for r, fs in self.tables.record_fields.items() for f, _ in fs] \
                if self.tables is not None else []
            return [(a, "attribute", "card attribute") for a in attributes + ["name"]] + fields
        if _VISIBILITY_PLACE.match(before):
            return [(word, "visibility", meaning) for word, meaning in VISIBILITIES.items()]
        if _SHOWN_AS_PLACE.match(before):
            return [("placed", "keyword", ZONE_WORDS["placed"])]
        out = [(d.name, d.kind, d.kind) for d in self.declarations.values()]
        out += [(name, "built-in", BUILTIN_DOCS[name][1]) for name in sorted(set(BUILTINS) | set(CONSTANTS))
                if name in BUILTIN_DOCS]
        if self.tables is not None:
            out += [(s, "symbol", "symbol") for s in sorted(self.tables.symbols)]
            out += [(c.name, "card", f"card of deck {c.deck}") for c in self.tables.cards]
        out += [(k, "keyword", "keyword") for k in KEYWORDS]
        return out

    def _line(self, line: int) -> str:
        starts = self._starts(self.path, self.text)
        if not 0 < line <= len(starts):
            return ""
        end = starts[line] - 1 if line < len(starts) else len(self.text)
        return self.text[starts[line - 1]:end]

    def symbols(self) -> list[tuple[str, str, Span, list]]:
        """(name, kind, span, children) of this text's declarations; a phase's, procedure's or
        event's children are its decisions."""
        out = []
        for item in self.items:
            kind = DECLARATIONS.get(type(item))
            if kind is None or item.span.path != self.path:
                continue
            children = []
            for d in _decisions(getattr(item, "body", ()) if not isinstance(item, n.DefineDecl) else ()):
                label = "".join(p if isinstance(p, str) else "{...}" for p in d.prompt) or \
                    " | ".join(a.name for a in d.alternatives)
                children.append((f"decide: {label}", "decision", d.span, []))
            out.append((item.name, kind, item.span, children))
        return out


def _decisions(stmts):
    for s in stmts:
        if isinstance(s, n.Decide):
            yield s
            for alt in s.alternatives:
                yield from _decisions(alt.body)
        elif isinstance(s, n.Simultaneous):
            yield s.decide
        else:
            for field in attrs.fields(type(s)):
                value = getattr(s, field.name)
                if field.name in ("body", "orelse") and isinstance(value, tuple):
                    yield from _decisions(value)
                elif field.name == "branches":
                    for _, body in value:
                        yield from _decisions(body)


def _children(node):
    for field in attrs.fields(type(node)):
        value = getattr(node, field.name)
        stack = [value]
        while stack:
            v = stack.pop()
            if isinstance(v, tuple):
                stack.extend(v)
            elif attrs.has(type(v)) and not isinstance(v, Span):
                yield v


def _within(path: str, tok: Token, span: Span) -> bool:
    """Whether the token at `path` lies inside `span`."""
    return span.path == path and (span.line, span.column) <= (tok.line, tok.column) \
        and (tok.end_line, tok.end_column) <= (span.end_line, span.end_column)


def _walk_names(node, resolved: dict, out: set):
    """Positions of the names that refer to local names, under `node`."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, (n.Name, n.Target)) and resolved.get(id(item), ("",))[0] == "local":
            out.add((item.span.line, item.span.column))
        stack.extend(_children(item))


_LOCAL_KEYWORD = {n.Let: "let", n.For: "for", n.Comprehension: "for", n.Simultaneous: "for",
                  n.Quant: "(?:any|all|no|count)", n.Best: "(?:max|min|sorted)", n.Pattern: "(?:groups|runs)",
                  n.ReactionDecl: "by", n.ScoreDecl: "score"}


def _declared_local(node) -> str | None:
    """The local name a node declares, if it declares one."""
    if isinstance(node, (n.Param, n.Binder, n.Let, n.LetExpr)):
        return node.name
    if isinstance(node, (n.For, n.Comprehension, n.Simultaneous, n.Quant, n.Best, n.Pattern, n.ReactionDecl,
                         n.ScoreDecl)):
        return node.var
    return None


def _expression_names(expr, declarations: dict, local_uses: set) -> list:
    """The names of an expression inside a text's `{...}`, with what each is, as _names tells
    them apart for the tokens outside texts."""
    out = []
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, n.Name) and (node.span.line, node.span.column) in local_uses:
            out.append((_token(node.name, node.span), "local"))
        elif isinstance(node, n.Name) and node.name in declarations:
            out.append((_token(node.name, node.span), "global"))
        elif isinstance(node, n.Attr):  # `{best.points}`: a field or a card attribute
            out.append((_token(node.name, node.name_span), "attribute"))
        elif isinstance(node, n.RecordLit):
            if node.name in declarations:
                out.append((_token(node.name, node.name_span), "global"))
            out += [(_token(f.name, f.name_span), "field") for f in node.fields]
        elif isinstance(node, n.Call) and node.func in declarations:
            out.append((_token(node.func, node.func_span), "global"))
        stack.extend(_children(node))
    return out


def _element_type(t: str | None) -> str | None:
    """The type of a list's (or zone's) items, as the checker gives it."""
    if t is None:
        return None
    return element(t)


def _token(text: str, span: Span) -> Token:
    return Token("NAME", text, span.line, span.column, span.end_line, span.end_column, -1, -1)


def _find_name_node(node, line: int, column: int):
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, n.Name) and item.span.line == line and item.span.column == column:
            return item
        stack.extend(_children(item))
    return None
