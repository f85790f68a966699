"""`cardgame rules`: a rulebook for players, generated from a checked script.

It says only what the script says: the players, the components (decks, zones and who sees
them, counters), the options as variants, the flow of play phase by phase with every decision,
its alternatives and the named rules that limit them (their descriptions and conditions), the
terms the script defines, scoring and winning.  The script's own comments are quoted where they
describe a declaration, and its opening comment (how it reads the unclear points of the rules)
comes first.

Statements and expressions are put into words by the tables below, one entry per construct of
interpreter/nodes.py; a construct without an entry is quoted as code, so a new construct of the
language shows up verbatim until it gets words of its own.
"""

from __future__ import annotations

import html
import os
import re

from cardgame import interpreter
from cardgame.interpreter.language import nodes as n
from cardgame.interpreter.language.checker import default_value, option_allowed
from cardgame.interpreter.language.concrete import Token, tokens
from cardgame.interpreter.language.parser import parse_concrete
from cardgame.interpreter.language.types import spelled

from .comments import attach_comments, comment_text
from .fmt import PREFIXES
from .flow import Script, load_script
from .variant_changes import variant_sections

VISIBLE = {"public": "everyone", "owner": "its owner only", "team": "its owner and their partners",
           "others": "every player but its owner", "hidden": "nobody"}

# Built-in functions in words; {0}, {1} are the arguments.
BUILTIN_WORDS = {
    "count": "the number of {0}", "empty": "{0} is empty", "sum": "the sum of {0}",
    "top": "the top card of {0}", "bottom": "the bottom card of {0}", "cards": "the cards of {0}",
    "first": "the first of {0}", "last": "the last of {0}", "reverse": "{0} in reverse order",
    "unique": "each of {0} once",
    "sorted": "{0} in increasing order", "range": "the numbers from {0} to {1}",
    "index": "the position of {1} in {0} (from 0)", "abs": "the size of {0}", "seat": "seat {0}",
    "number": "the seat number of {0}", "left_of": "the player to the left of {0}",
    "right_of": "the player to the right of {0}", "players_from": "the players in turn from {0}",
    "owner": "the owner of {0}", "zone_of": "the zone holding {0}", "face_up": "{0} is face up",
    "random": "an item of {0} drawn at random",
    "team": "the team of {0}", "members": "the players of {0}", "partners": "the partners of {0}",
    "partner": "the partner of {0}", "place": "the place of {0} in its order (from 0)",
    "subsets": "every choice of {1} of {0}",
    "disjoint_choices": "every choice of {0} that share no card",
}
BUILTIN_WORDS_2 = {"top": "the top {1} cards of {0}", "bottom": "the bottom {1} cards of {0}",
                   "first": "the first {1} of {0}", "last": "the last {1} of {0}",
                   "random": "a number from {0} to {1} drawn at random"}
COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
           ">=": "is at least", "in": "is in", "notin": "is not in"}
FIXED_OPS = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
             "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
             "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}
UNKNOWN = object()  # what `_Book.fixed` says of a value the options chosen do not decide
# (left operator, operator) that read alike without brackets: `a + b - c` is `(a + b) - c`.
_CHAINS = {("+", "+"), ("+", "-"), ("-", "+"), ("-", "-"), ("*", "*")}
QUANT = {"any": "there is some {v} in {s} where {c}", "all": "for every {v} in {s}, {c}",
         "no": "there is no {v} in {s} where {c}", "count": "the number of {v} in {s} where {c}"}


def rulebook(path: str, option_pairs: dict | None = None, fmt: str = "md", text: str | None = None) -> str:
    """The rulebook of the script at `path` (or of `text`, named `path`), in `fmt` (md or html)."""
    script = load_script(path, text)
    chosen = interpreter.load(path, text).read_options(option_pairs) if option_pairs else {}
    text = _Book(script, path, chosen).markdown()
    return to_html(text, script.tables.title or os.path.basename(path)) if fmt == "html" else text


class _Book:
    def __init__(self, script: Script, path: str, chosen: dict):
        self.s, self.t, self.path, self.chosen = script, script.tables, path, chosen
        self.notes, self.opening = _declaration_comments(script, path)
        self.out: list[str] = []
        # where each procedure's and event's section comes, and the item being written, so a
        # call says whether its section is above or below
        self.section_at = {(type(item).__name__, item.name): k for k, item in enumerate(script.items)
                           if isinstance(item, (n.ProcDecl, n.EventDecl))}
        self.writing = -1

    # ---- helpers
    def add(self, *lines: str):
        self.out.extend(lines)

    def note(self, node) -> str:
        """The script's comment on a declaration, as a sentence to add."""
        return " ".join(self.notes.get(_key(node.span), ()))

    def markdown(self) -> str:
        t = self.t
        name = os.path.basename(self.path)
        self.add(f"# {t.title or name}", "",
                 f"*This rulebook was generated from `{name}` by `cardgame rules`; it says what the script says.*", "")
        if t.replacements:
            self.variant()
        if self.chosen:
            self.add("It describes the game with " + ", ".join(f"*{k}* = `{_value(v)}`" for k, v in self.chosen.items())
                     + ": each of these is written as its value, and what it rules out is left out.", "")
        if self.opening:
            self.add("## Notes from the script", "", *self.opening, "")
        self.add(*variant_sections(t, self.s.sources, self.path))  # a variant: the original's notes, its changes
        self.players()
        self.components()
        self.options()
        self.flow()
        self.rules()
        self.terms()
        self.scoring()
        return "\n".join(self.out).rstrip("\n") + "\n"

    # ---- sections
    def variant(self):
        """A variant (`replace`): what it replaces of which files; the rest of the book is the
        game as the variant plays it."""
        made = sorted(self.t.replacements.values(), key=lambda r: (r.decl.span.line, r.decl.span.column))
        files = sorted({os.path.basename(r.original.span.path) for r in made})
        self.add(f"This game is a variant of {_and([f'`{f}`' for f in files])}: it replaces "
                 f"{_and([r.described for r in made])}. Everything below is the game as the variant plays it.", "")

    def players(self):
        t = self.t
        if t.max_players == 1:
            self.add("## Players", "", "1 player, P0, who plays alone.", "")
            return
        count = f"{t.min_players} players" if t.min_players == t.max_players else \
            f"{t.min_players} to {t.max_players} players"
        self.add("## Players", "", f"{count}. The seats are numbered P0, P1, ... in order around the table; "
                 "clockwise (to the left) is to the next seat, and the last seat's left is P0.", "")
        teams = t.teams
        if teams is not None and teams.expr is None:
            sides = "; ".join(f"T{i}: " + ", ".join(f"P{seat}" for seat in seats) for i, seats in enumerate(teams.seats))
            self.add(f"The players play in teams, which win or lose together ({sides}).", "")
        elif teams is not None:
            self.add(f"The players play in teams, which win or lose together: the team of a player *{teams.var}* "
                     f"is team number {self.words(teams.expr)}.", "")

    def components(self):
        t = self.t
        self.add("## Components", "")
        for deck in t.decks:
            cards = [c for c in t.cards if c.deck == deck.name]
            if deck.dimensions:
                dims = " and ".join(f"{attr} ({', '.join(_value(v) for v in values)})" for attr, values in deck.dimensions)
                parts = deck.name_parts or tuple(a for a, _ in deck.dimensions)
                self.add(f"- The deck *{deck.name}*: {len(cards)} cards, one of each {dims}. A card is named by "
                         f"its {' and '.join(parts)} (for example `{cards[0].name}`). It starts in *{deck.zone}*.")
                for attr, _span in deck.ordered:
                    self.add(f"  Its {attr} values go from lowest to highest in the order listed.")
            else:
                self.add(f"- The deck *{deck.name}*: {len(cards)} cards, starting in *{deck.zone}*:")
                for spec in deck.cards:
                    attrs_ = ", ".join(f"{a}: {_value(v)}" for a, v in spec.attrs)
                    copies = f" ×{spec.copies}" if spec.copies > 1 else ""
                    self.add(f"  - `{spec.label}`{copies}" + (f" — {attrs_}" if attrs_ else ""))
        for decl in t.number_attributes.values():
            listed = ", ".join(f"{_value(v[1] if isinstance(v, tuple) else v)} {number}" for v, number, _ in decl.pairs)
            self.add(f"- A card's *{decl.name}* is a number found from its {decl.source}: {listed}; "
                     f"a number {decl.source} counts as itself.")
        self.add("", "Where the cards lie, and who sees them:", "", "| zone | kind | who sees its cards | note |",
                 "|---|---|---|---|")
        for zone in t.zones.values():
            kind = "one per player" if zone.per_player else "shared"
            sees = VISIBLE.get(zone.visibility, zone.visibility)
            cond = zone.condition
            if isinstance(cond, n.Name) and cond.name in self.chosen and isinstance(self.chosen[cond.name], bool):
                sees = sees if self.chosen[cond.name] else VISIBLE.get(zone.otherwise, zone.otherwise)
                sees += f" (as *{cond.name}* is `{_value(self.chosen[cond.name])}`)"
            elif cond is not None:
                sees = f"{sees} if {self.words(cond)}, else {VISIBLE.get(zone.otherwise, zone.otherwise)}"
            shown = f"Shown sorted by {', then '.join(a for a, _ in zone.shown_by)}. " if zone.shown_by else \
                "Kept in the order its cards were placed, never sorted. " if zone.shown_as is not None else ""
            self.add(f"| *{zone.name}* | {kind} | {sees} | {(shown + self.note(zone)).strip()} |")
        if t.vars:
            self.add("", "What the table keeps track of:", "", "| name | for | kind | at the start | note |",
                     "|---|---|---|---|---|")
            for name, (var, typ) in t.vars.items():
                who = "each player" if var.per_player else "each team" if var.per_team else "the table"
                private = " (private)" if var.private else ""
                self.add(f"| *{name}* | {who}{private} | {spelled(typ)} | {self.words(var.init)} | {self.note(var)} |")
        if t.records:
            self.add("", "Records (values made of named fields) the rules use:", "")
            for name, fields in t.record_fields.items():
                listed = ", ".join(f"*{f}* ({spelled(ft)})" for f, ft in fields)
                note = self.note(t.records[name])
                self.add(f"- *{name}*: {listed}" + (f" — {note}" if note else ""))
        self.add("")

    def options(self):
        if not self.t.options:
            return
        self.add("## Variants", "", "Options chosen before the game starts:", "",
                 "| option | values | default | meaning |", "|---|---|---|---|")
        for opt in self.t.options.values():
            default = _value(default_value(opt))
            chosen = f" (here: `{_value(self.chosen[opt.name])}`)" if opt.name in self.chosen else ""
            self.add(f"| *{opt.name}* | {option_allowed(opt)} | `{default}`{chosen} | {opt.doc} |")
        self.add("")

    def flow(self):
        t = self.t
        self.add("## How a game goes", "")
        if t.phases:
            self.add(f"The game is played in phases; it starts with *{next(iter(t.phases))}*. Each phase runs "
                     "its steps in order and ends by going on to a phase or ending the game.", "")
        for self.writing, item in enumerate(self.s.items):
            if isinstance(item, n.PhaseDecl):
                self.add(f"### Phase *{item.name}*", "")
            elif isinstance(item, n.ProcDecl):
                self.add(f"### Procedure *{item.name}*({self.params(item.params)})", "")
            elif isinstance(item, n.EventDecl):
                self.add(f"### Event *{item.name}*({self.params(item.params)})", "")
                if item.prompt:
                    self.add(f"Those who may answer it are asked “{self.pieces(item.prompt)}”.", "")
                if not item.body:
                    self.add("It does nothing of its own: what happens is in its answers.", "")
                    continue
            elif isinstance(item, n.HandlerDecl):
                self.add(f"### After event *{item.event}*", "")
            elif isinstance(item, n.ReactionDecl):
                self.add(f"### Answers to event *{item.event}* (*{item.name}*)", "",
                         f"Each {item.var} in {self.words(item.by)} in turn may answer (or pass):", "")
                for alt in item.alternatives:
                    self.alternative(alt, 0)
                self.add("")
                continue
            else:
                continue
            if self.note(item):
                self.add(self.note(item), "")
            self.block(item.body, 0)
            self.add("")

    def params(self, params) -> str:
        return ", ".join(f"{p.name}: {_type_ref(p.type)}" for p in params or ())

    def rules(self):
        if not self.t.rules:
            return
        self.add("## The rules of play", "", "A choice that names a rule is allowed only if the rule does not apply, "
                 "or its requirement is met.", "")
        for rule in self.t.rules.values():
            self.add(f"- **{rule.name}**: {rule.doc or '(no description)'}")
            if self.never_applies(rule.name):
                self.add(f"  - does not apply in this game: it applies only when {self.unfixed(rule.when)}")
                continue
            if rule.when is not None and self.fixed(rule.when) is not True:
                self.add(f"  - applies when {self.words(rule.when)}")
            self.add("  - then the choice is not allowed" if rule.prohibits else
                     f"  - requires that {self.words(rule.require)}")
        self.add("")

    def terms(self):
        if not self.t.defines:
            return
        self.add("## Terms", "", "Words the rules above use, as the script defines them:", "")
        for define in self.t.defines.values():
            head = define.name + (f"({', '.join(p.name for p in define.params)})" if define.params else "")
            note = self.note(define)
            self.add(f"- *{head}*: {self.words(define.body)}" + (f" — {note}" if note else ""))
        self.add("")

    def scoring(self):
        t = self.t
        self.add("## Scoring and winning", "")
        if t.score is not None:
            whose = "team" if t.teams is not None else "player"
            self.add(f"The score of a {whose} *{t.score.var}* is {self.words(t.score.expr)}.", "")
        else:
            self.add("There are no scores (every score is 0).", "")
        w = t.winners
        sides = "teams" if t.teams is not None else "players"
        if w is None or w.mode == "highest":
            self.add(f"When the game ends, the {sides} with the highest score win (equal scores share the win).")
        elif w.mode == "lowest":
            self.add(f"When the game ends, the {sides} with the lowest score win (equal scores share the win).")
        else:
            self.add(f"When the game ends, the winners are {self.words(w.expr)}.")

    # ---- statements
    def line(self, depth: int, text: str):
        self.add("  " * depth + "- " + text)

    def block(self, stmts, depth: int):
        for s in stmts:
            self.statement(s, depth)

    def statement(self, s, depth: int):
        w = self.words
        note = self.note(s)
        if note:
            self.line(depth, f"*{note}*")
        match s:
            case n.Let():
                self.line(depth, f"Let *{s.name}* be {w(s.value)}.")
            case n.Set():
                target = f"*{s.target.name}*" + (f" of {w(s.target.index)}" if s.target.index is not None else "")
                text = {"=": f"Set {target} to {w(s.value)}.", "+=": f"Add {w(s.value)} to {target}.",
                        "-=": f"Subtract {w(s.value)} from {target}."}[s.op]
                self.line(depth, text)
            case n.Move():
                where = " at the bottom" if s.position == "bottom" else ""
                facing = f" face {s.facing}" if s.facing else ""
                self.line(depth, f"Move {w(s.what)} to {w(s.dest)}{where}{facing}.")
            case n.Deal():
                facing = f", face {s.facing}" if s.facing else ""
                cards = "1 card" if isinstance(s.count, n.Literal) and s.count.value == 1 else \
                    f"{self._operand(s.count)} cards"
                self.line(depth, f"Deal {cards} from {w(s.source)} to the *{s.zone}* of each of "
                          f"{w(s.players)}, one card at a time{facing}.")
            case n.Shuffle():
                self.line(depth, f"Shuffle {w(s.zone)}.")
            case n.Reveal():
                self.line(depth, f"Turn {w(s.what)} face up.")
            case n.Hide():
                self.line(depth, f"Turn {w(s.what)} face down.")
            case n.ShowTo():
                self.line(depth, f"Show {w(s.what)} to {w(s.player)}.")
            case n.If():
                branches = self.branches_left(s)
                if branches and branches[0][0] is None:  # the options chosen decide it: its steps alone
                    self.block(branches[0][1], depth)
                for k, (cond, body) in enumerate(branches if branches and branches[0][0] is not None else ()):
                    self.line(depth, "Otherwise:" if cond is None else
                              ("If " if k == 0 else "Otherwise, if ") + f"{w(cond)}:")
                    self.block(body, depth + 1)
            case n.For():
                self.line(depth, f"For each *{s.var}* in {w(s.source)}:")
                self.block(s.body, depth + 1)
            case n.While():
                self.line(depth, f"As long as {w(s.cond)}:")
                self.block(s.body, depth + 1)
            case n.RepeatTimes():
                self.line(depth, f"{self._operand(s.count)} times:")
                self.block(s.body, depth + 1)
            case n.RepeatUntil():
                self.line(depth, f"Repeat, until {w(s.cond)}:")
                self.block(s.body, depth + 1)
            case n.Loop():
                self.line(depth, "Repeat:")
                self.block(s.body, depth + 1)
            case n.Break():
                self.line(depth, "Stop repeating.")
            case n.Decide():
                who = "The table decides" if s.actor is None else f"**{w(s.actor)}** decides"
                self.line(depth, f"{who}{self.prompt(s.prompt)}, choosing one of:")
                for alt in s.alternatives:
                    self.alternative(alt, depth + 1)
            case n.Simultaneous():
                d = s.decide
                self.line(depth, f"**Each *{s.var}* in {w(s.source)}** decides at the same time, without seeing "
                          f"the others' choices{self.prompt(d.prompt)}, one of:")
                for alt in d.alternatives:
                    self.alternative(alt, depth + 1)
            case n.CallStmt():
                self.line(depth, f"Do *{s.name}*({', '.join(w(a) for a in s.args)}) ({self.see('ProcDecl', s.name)}).")
            case n.Next():
                self.line(depth, f"Go on to phase *{s.phase}*.")
            case n.EndGame():
                self.line(depth, "**The game ends**" + (" (a safety cap: the game was stopped)." if s.capped else "."))
            case n.Signal():
                self.line(depth, f"Event *{s.event}*({', '.join(w(a) for a in s.args)}) happens "
                          f"({self.see('EventDecl', s.event)}).")
            case n.Cancel():
                self.line(depth, "The event is cancelled.")
            case n.Return():
                self.line(depth, "Stop here.")
            case n.Log():
                self.line(depth, f"Announce: “{self.pieces(s.parts)}”.")
            case _:
                self.line(depth, f"`{self.s.text(s)}`")

    def see(self, kind: str, name: str) -> str:
        """`see above` or `see below`: where the section of the procedure or event called is."""
        at = self.section_at.get((kind, name))
        return "see above" if at is not None and at < self.writing else "see below"

    def prompt(self, parts) -> str:
        return f" (“{self.pieces(parts)}”)" if parts else ""

    def pieces(self, parts) -> str:
        return "".join(p if isinstance(p, str) else "{" + self.s.text(p) + "}" for p in parts)

    def alternative(self, alt: n.Alternative, depth: int):
        picks = []
        for b in alt.binders:
            if b.several:
                count = self.words(b.most) if b.fewest is None else f"{self.words(b.fewest)} to {self.words(b.most)}"
                ones = "one (in a list)" if count == "1" else f"{count} different ones"
                picks.append(f"*{b.name}*, {ones} of {self.words(b.source)}")
            elif b.source is not None:
                picks.append(f"*{b.name}* from {self.words(b.source)}")
            else:
                picks.append(f"a number *{b.name}* from {self.words(b.low)} to {self.words(b.high)}")
        text = f"*{alt.name}*" + (f", choosing {' and '.join(picks)}" if picks else "")
        requires = [call for call in alt.requires if not self.never_applies(call.name)]
        if requires:
            rules = []
            for call in requires:
                rule = self.t.rules.get(call.name)
                rules.append(f"**{call.name}**" + (f" (“{rule.doc}”)" if rule is not None and rule.doc else ""))
            text += f"; allowed by the rule{'s' if len(rules) > 1 else ''} " + ", ".join(rules)
        self.line(depth, text + (":" if alt.body else "."))
        self.block(alt.body, depth + 1)

    # ---- what the options chosen decide
    def fixed(self, e, seen=()):
        """The value of `e` when the options chosen decide it alone (literals, those options and
        definitions of them, with `not`, `and`, `or`, comparisons and arithmetic), else UNKNOWN."""
        match e:
            case n.Literal(kind="int" | "bool"):
                return e.value
            case n.Name():
                kind = self.t.resolved.get(id(e), ("", ""))[0]
                if kind == "option":
                    return self.chosen.get(e.name, UNKNOWN)
                if kind == "symbol":
                    return e.name
                if kind == "define" and e.name not in seen:
                    return self.fixed(self.t.defines[e.name].body, seen + (e.name,))
            case n.Unary(op="not"):
                value = self.fixed(e.operand, seen)
                return UNKNOWN if value is UNKNOWN else not value
            case n.Binary(op="and" | "or"):
                left, right = self.fixed(e.left, seen), self.fixed(e.right, seen)
                decisive = e.op == "or"  # true decides an `or`, false an `and`, whatever the other side
                if decisive in (left, right) and bool in (type(left), type(right)):
                    return decisive
                return UNKNOWN if UNKNOWN in (left, right) else (left and right if e.op == "and" else left or right)
            case n.Binary() if e.op in FIXED_OPS:
                left, right = self.fixed(e.left, seen), self.fixed(e.right, seen)
                if UNKNOWN not in (left, right) and type(left) is type(right):
                    return FIXED_OPS[e.op](left, right)
            case n.IfExpr():
                cond = self.fixed(e.cond, seen)
                if type(cond) is bool:
                    return self.fixed(e.then if cond else e.orelse, seen)
        return UNKNOWN

    def mentions_chosen(self, e, seen=()) -> bool:
        """Does `e` read an option chosen, itself or through a definition without parameters?"""
        for node in n.walk(e):
            if isinstance(node, n.Name):
                kind = self.t.resolved.get(id(node), ("", ""))[0]
                if kind == "option" and node.name in self.chosen:
                    return True
                if kind == "define" and node.name not in seen and \
                        self.mentions_chosen(self.t.defines[node.name].body, seen + (node.name,)):
                    return True
        return False

    def never_applies(self, rule_name: str) -> bool:
        """Does the rule's `when` fail whatever happens, with the options chosen?"""
        rule = self.t.rules.get(rule_name)
        return rule is not None and rule.when is not None and self.fixed(rule.when) is False

    def branches_left(self, s: n.If) -> list:
        """The branches of an `if` the options chosen leave: [(condition, body)], None for an
        `else` (or a branch the options make sure to be taken, which ends the list)."""
        out = []
        for cond, body in s.branches:
            value = self.fixed(cond)
            if value is True:
                return out + [(None, body)]
            if value is not False:
                out.append((cond, body))
        return out + ([(None, s.orelse)] if s.orelse is not None else [])

    # ---- expressions
    def unfixed(self, e) -> str:
        """`e` in words as the script writes it, every option by its name."""
        chosen, self.chosen = self.chosen, {}
        try:
            return self.words(e)
        finally:
            self.chosen = chosen

    def words(self, e) -> str:
        """`e` in words; with options chosen, each is written as its value and what they decide is
        left out (`false and X` is false, `true and X` is X)."""
        w, t = self.words, self.t
        if self.chosen and self.mentions_chosen(e):
            value = self.fixed(e)
            if value is not UNKNOWN:
                return _value_words(value)
            match e:
                case n.IfExpr() if type(self.fixed(e.cond)) is bool:
                    return w(e.then if self.fixed(e.cond) else e.orelse)
                case n.Binary(op="and" | "or"):
                    kept = [side for side in (e.left, e.right) if self.fixed(side) is UNKNOWN]
                    if len(kept) == 1:  # the other side is true (of an `and`) or false (of an `or`)
                        return w(kept[0])
        match e:
            case n.Literal(kind="text"):
                return f"“{e.value}”"
            case n.Literal():
                return {True: "true", False: "false", None: "none"}.get(e.value, str(e.value)) \
                    if not isinstance(e.value, int) or isinstance(e.value, bool) else str(e.value)
            case n.Name():
                kind = t.resolved.get(id(e), ("", ""))[0]
                if kind in ("symbol", "card"):  # a card literal is written as the card's name
                    return f"`{e.name}`"
                if kind == "constant":
                    return {"players": "the players", "player_count": "the number of players"}.get(e.name, e.name)
                return f"*{e.name}*"
            case n.Attr():
                return f"the {e.name} of {w(e.obj)}"
            case n.Index():
                kind, name = t.resolved.get(id(e.obj), ("", ""))
                if kind == "zones" or kind == "global" and name in t.vars and t.vars[name][0].indexed:
                    return f"{w(e.obj)} of {w(e.index)}"
                return f"item {self._argument(e.index)} of {w(e.obj)}"
            case n.Call() if e.func in t.defines:
                return f"*{e.func}*({', '.join(w(a) for a in e.args)})"
            case n.Call():
                table = BUILTIN_WORDS_2 if len(e.args) == 2 and e.func in BUILTIN_WORDS_2 else BUILTIN_WORDS
                if e.func in ("max", "min") and len(e.args) == 2:
                    return f"the {'larger' if e.func == 'max' else 'smaller'} of {w(e.args[0])} and {w(e.args[1])}"
                if e.func in ("max", "min") and len(e.args) > 2:
                    return f"the {'largest' if e.func == 'max' else 'smallest'} of " + ", ".join(w(a) for a in e.args)
                if e.func in ("max", "min"):
                    return f"the {'largest' if e.func == 'max' else 'smallest'} of {w(e.args[0])}"
                if e.func == "count" and len(e.args) == 1 and self._is_zone(e.args[0]):
                    return f"the number of cards in {w(e.args[0])}"
                if e.func in table:
                    wrap = self._operand if len(e.args) < 2 else self._argument
                    return table[e.func].format(*(wrap(a) for a in e.args))
            case n.Unary(op="not", operand=n.Call(func="empty" | "face_up", args=(arg,))) \
                    if e.operand.func not in t.defines:
                return f"{self._operand(arg)} is " + ("not empty" if e.operand.func == "empty" else "face down")
            case n.Unary(op="not"):
                return f"not ({w(e.operand)})" if _compound(e.operand) else f"not {w(e.operand)}"
            case n.Unary():
                return f"-{self._operand(e.operand)}"
            case n.Binary(op="and" | "or"):
                return f"{self._junct(e.left, e.op)} {e.op} {self._junct(e.right, e.op)}"
            case n.Binary() if e.op in COMPARE:  # `(a in b) == c`: a comparison compared is bracketed
                return f"{self._compared(e.left)} {COMPARE[e.op]} {self._compared(e.right)}"
            case n.Binary(op="/"):
                return f"{self._operand(e.left)} divided by {self._operand(e.right)} (rounded down)"
            case n.Binary(op="%"):
                return f"the remainder of {self._operand(e.left)} divided by {self._operand(e.right)}"
            case n.Binary():  # `a + b + c` reads so; `a - (b + c)` keeps its brackets
                chained = isinstance(e.left, n.Binary) and (e.left.op, e.op) in _CHAINS
                left = w(e.left) if chained else self._operand(e.left)
                return f"{left} {e.op} {self._operand(e.right)}"
            case n.IfExpr():  # an `if` inside the value or the condition is bracketed, so the chain of
                # `otherwise`s reads as the `else if`s written, not as one more branch of it
                inner = lambda x: f"({w(x)})" if isinstance(x, n.IfExpr) else w(x)  # noqa: E731
                return f"{inner(e.then)} if {inner(e.cond)}, otherwise {w(e.orelse)}"
            case n.Quant():
                return QUANT[e.kind].format(v=f"*{e.var}*", s=w(e.source), c=w(e.cond))
            case n.Best():
                keys = e.key.items if isinstance(e.key, n.ListLit) and e.key.items else (e.key,)
                key = ", then ".join(w(k) for k in keys)
                if e.kind == "sorted":
                    return f"the items *{e.var}* of {w(e.source)} in increasing order of {key}"
                most = "highest" if e.kind == "max" else "lowest"
                key = ", then ".join(f"({w(k)})" if isinstance(k, n.IfExpr) else _without_the(w(k))
                                     for k in keys)  # `the highest rank of x`
                return f"the *{e.var}* in {w(e.source)} with the {most} {key} (the first of equals)"
            case n.Pattern(kind="groups"):
                return f"the *{e.var}* in {w(e.source)} grouped by {w(e.key)}"
            case n.Pattern():
                shortest = f" (at least {w(e.least)})" if e.least is not None else ""
                return f"every run{shortest} of *{e.var}* in {w(e.source)} with {w(e.key)} in a row, one of each"
            case n.ListLit():
                return "[" + ", ".join(w(x) for x in e.items) + "]"
            case n.Comprehension():
                fors, inner = [], e
                while inner.flat:  # `for a in A for b in B`: one list, each b of each a
                    fors.append(inner)
                    inner = inner.expr
                fors.append(inner)
                where = f" where {w(inner.cond)}" if inner.cond is not None else ""
                each = " and ".join(f"each *{c.var}* in {w(c.source)}" for c in fors)
                return f"[{w(inner.expr)} for {each}{where}]"
            case n.LetExpr():
                return f"{w(e.body)}, where *{e.name}* is {w(e.value)}"
            case n.RecordLit():
                fields = ", ".join(f"{f.name} {w(f.value)}" for f in e.fields)
                return f"a *{e.name}* with {fields}"
        return f"`{self.s.text(e)}`"

    def _is_zone(self, e) -> bool:
        """A zone, named or held (a local, a parameter, `zone_of(c)`)."""
        resolved = self.t.resolved
        if self.t.types.get(id(e)) == "zone":
            return True
        if isinstance(e, n.Index):
            return resolved.get(id(e.obj), ("",))[0] == "zones"
        return isinstance(e, n.Name) and resolved.get(id(e), ("",))[0] == "zone"

    def _operand(self, e) -> str:
        return f"({self.words(e)})" if isinstance(e, (n.Binary, n.IfExpr, n.Quant)) else self.words(e)

    def _argument(self, e) -> str:
        """One of several arguments: in parentheses unless it is a single word."""
        return f"({self.words(e)})" if isinstance(e, (n.Binary, n.IfExpr, n.Quant, n.Call, n.Best, n.Pattern)) \
            else self.words(e)

    def _compared(self, e) -> str:
        """A side of a comparison: bracketed when it is a comparison or an `if` itself."""
        bracket = isinstance(e, n.IfExpr) or isinstance(e, n.Binary) and e.op in COMPARE
        return f"({self.words(e)})" if bracket else self.words(e)

    def _junct(self, e, op: str) -> str:
        mixed = isinstance(e, n.Binary) and e.op in ("and", "or") and e.op != op
        return f"({self.words(e)})" if mixed or isinstance(e, n.IfExpr) else self.words(e)


def _value_words(value) -> str:
    """A value the options chosen decide, as the rulebook writes a literal or a symbol."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if isinstance(value, int) else f"`{value}`"


def _without_the(words: str) -> str:
    return words[4:] if words.startswith("the ") else words


def _type_ref(ref: n.TypeRef) -> str:
    """`list of list of card`: a written type, each `list of` kept."""
    return "list of " * (ref.depth if ref.is_list else 0) + ref.name


def _compound(e) -> bool:
    return isinstance(e, (n.Binary, n.IfExpr, n.Quant))


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, tuple) and len(v) == 2 and v[0] == "text":
        return f"“{v[1]}”"
    return str(v)


def _key(span) -> tuple:
    return (os.path.abspath(span.path), span.line, span.column)


_RULER = re.compile(r"^-{3,}")


def _declaration_comments(script: Script, path: str):
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
                notes.setdefault(_key_of(file_path, next(tokens(node.children[-1]))), tuple(above))
    return {k: v for k, v in notes.items() if v}, _paragraphs(opening)


def _key_of(file_path: str, tok) -> tuple:
    return (os.path.abspath(file_path), tok.line, tok.column)


def _paragraphs(lines: list[str]) -> list[str]:
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


def to_html(markdown: str, title: str) -> str:
    """The rulebook's Markdown (headings, paragraphs, nested lists, tables) as one HTML page."""
    body, stack = [], []
    in_table = False

    def inline(text: str) -> str:
        text = html.escape(text, quote=False)
        text = re.sub(r"`([^`]*)`", r"<code>\1</code>", text)
        text = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", text)
        return re.sub(r"\*([^*]+)\*", r"<em>\1</em>", text)

    def close_lists(depth: int):
        while len(stack) > depth:
            stack.pop()
            body.append("</li></ul>")

    for line in markdown.splitlines():
        item = re.match(r"^( *)- (.*)$", line)
        if item:
            depth = len(item.group(1)) // 2 + 1
            if len(stack) >= depth:
                close_lists(depth)
                body.append("</li><li>" + inline(item.group(2)))
            else:
                while len(stack) < depth:
                    stack.append(1)
                    body.append("<ul><li>")
                body[-1] += inline(item.group(2))
            continue
        close_lists(0)
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if set("".join(cells)) <= {"-"}:
                continue
            tag = "th" if not in_table else "td"
            if not in_table:
                body.append("<table>")
                in_table = True
            body.append("<tr>" + "".join(f"<{tag}>{inline(c)}</{tag}>" for c in cells) + "</tr>")
            continue
        if in_table:
            body.append("</table>")
            in_table = False
        heading = re.match(r"^(#+) (.*)$", line)
        if heading:
            level = len(heading.group(1))
            body.append(f"<h{level}>{inline(heading.group(2))}</h{level}>")
        elif line.strip():
            body.append(f"<p>{inline(line)}</p>")
    close_lists(0)
    if in_table:
        body.append("</table>")
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title></head>\n"
            "<body>\n" + "\n".join(body) + "\n</body></html>\n")


def _and(parts: list) -> str:
    """`a`, `a and b`, `a, b and c`."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
