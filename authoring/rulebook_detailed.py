"""`cardgame rules --detailed`: the designer's reference, every step of the script read in order.

It says only what the script says: the players, the components (decks, zones and who sees
them, counters), the options as variants, the flow of play phase by phase with every decision,
its alternatives and the named rules that limit them (their descriptions and conditions), the
terms the script defines, scoring and winning.  The script's own comments are quoted where they
describe a declaration, and its opening comment (how it reads the unclear points of the rules)
comes first.
"""

from __future__ import annotations

import os

from cardgame.interpreter.language import nodes as n
from cardgame.interpreter.language.checker import default_value, option_allowed
from cardgame.interpreter.language.seating import seat_label
from cardgame.interpreter.language.types import spelled

from .flow import Script
from .rulebook_comments import comment_key, declaration_comments
from .rulebook_words import VISIBLE, Words, joined, type_ref, value_text
from .variant_changes import variant_sections


class DetailedBook(Words):
    def __init__(self, script: Script, path: str, chosen: dict):
        super().__init__(script, chosen)
        self.path = path
        self.notes, self.opening = declaration_comments(script, path)
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
        return " ".join(self.notes.get(comment_key(node.span), ()))

    def markdown(self) -> str:
        t = self.t
        name = os.path.basename(self.path)
        self.add(f"# {t.title or name}", "",
                 f"*This rulebook was generated from `{name}` by `cardgame rules`; it says what the script says.*", "")
        if t.replacements:
            self.variant()
        if self.chosen:
            self.add("It describes the game with " + ", ".join(f"*{k}* = `{value_text(v)}`" for k, v in self.chosen.items())
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
        self.add(f"This game is a variant of {joined([f'`{f}`' for f in files])}: it replaces "
                 f"{joined([r.described for r in made])}. Everything below is the game as the variant plays it.", "")

    def players(self):
        t = self.t
        if t.max_players == 1:
            self.add("## Players", "", "1 player, P0, who plays alone.", "")
            return
        count = f"{t.min_players} players" if t.min_players == t.max_players else \
            f"{t.min_players} to {t.max_players} players"
        if t.seat_names:
            names = ", ".join(t.seat_names)
            self.add("## Players", "", f"{count}. The seats are {names}, in order around the table (P0, P1, ... by "
                     f"number); clockwise (to the left) is to the next seat, and the last seat's left is "
                     f"{t.seat_names[0]}.", "")
        else:
            self.add("## Players", "", f"{count}. The seats are numbered P0, P1, ... in order around the table; "
                     "clockwise (to the left) is to the next seat, and the last seat's left is P0.", "")
        teams = t.teams
        if teams is not None and teams.expr is None:
            sides = "; ".join(f"T{i}: " + ", ".join(seat_label(t.seat_names, seat) for seat in seats) for i, seats in enumerate(teams.seats))
            self.add(f"The players play in teams, which win or lose together ({sides}).", "")
        elif teams is not None:
            self.add(f"The players play in teams, which win or lose together: the team of a player *{teams.var}* "
                     f"is team number {self.words(teams.expr)}.", "")

    def components(self):
        t = self.t
        self.add("## Components", "")
        for name, decl in t.symbol_sets.items():
            order = ", from lowest to highest" if decl.ordered else ""
            self.add(f"- The *{name}* values: {', '.join(decl.values)}{order}.")
        for deck in t.decks:
            cards = [c for c in t.cards if c.deck == deck.name]
            if deck.dimensions:
                dims = " and ".join(f"{attr} ({', '.join(value_text(v) for v in values)})" for attr, values in deck.dimensions)
                parts = deck.name_parts or tuple(a for a, _ in deck.dimensions)
                self.add(f"- The deck *{deck.name}*: {len(cards)} cards, one of each {dims}. A card is named by "
                         f"its {' and '.join(parts)} (for example `{cards[0].name}`). It starts in *{deck.zone}*.")
                for attr, _span in deck.ordered:
                    self.add(f"  Its {attr} values go from lowest to highest in the order listed.")
            else:
                self.add(f"- The deck *{deck.name}*: {len(cards)} cards, starting in *{deck.zone}*:")
                for spec in deck.cards:
                    attrs_ = ", ".join(f"{a}: {value_text(v)}" for a, v in spec.attrs)
                    copies = f" ×{spec.copies}" if spec.copies > 1 else ""
                    self.add(f"  - `{spec.label}`{copies}" + (f" — {attrs_}" if attrs_ else ""))
        for decl in t.number_attributes.values():
            listed = ", ".join(f"{value_text(v[1] if isinstance(v, tuple) else v)} {number}" for v, number, _ in decl.pairs)
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
                sees += f" (as *{cond.name}* is `{value_text(self.chosen[cond.name])}`)"
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
            default = value_text(default_value(opt))
            chosen = f" (here: `{value_text(self.chosen[opt.name])}`)" if opt.name in self.chosen else ""
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
        return ", ".join(f"{p.name}: {type_ref(p.type)}" for p in params or ())

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
        if t.end_when is not None:
            self.add(f"The game ends as soon as {self.words(t.end_when.cond)}, wherever play is (in the middle of "
                     "a move too).", "")
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
                if s.secret:  # the others are not told the choice
                    who += " in secret, the others not told which" + (f" (but {w(s.knowers)} is)" if s.knowers else "")
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
                ones = "one (in a list)" if count == "1" else f"{count} ones, each as often as wanted" \
                    if b.repeats else f"{count} different ones"
                alike = f" (cards alike in *{b.key}* counting as one)" if b.key else ""
                picks.append(f"*{b.name}*, {ones} of {self.words(b.source)}{alike}")
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
