"""`cardgame rules`: the players' rulebook, prose a player reads once and plays from.

The designer's own texts lead: an option, a rule or a decision is named by its description
(`"Follow the led suit if you can."`), a definition, a zone or a variable by the comment the
script gives it.  The flow reads phase by phase as short steps (rulebook_steps).  What only the
engine or the designer needs is left to `--detailed`: the script's opening notes,
announcements, a definition's formula where its comment says what it means, a described rule's
conditions, and definitions nothing written here mentions.
"""

from __future__ import annotations

import os

from cardgame.interpreter.language import nodes as n
from cardgame.interpreter.language.checker import default_value
from cardgame.interpreter.language.seating import seat_label

from .flow import Script
from .rulebook_comments import comment_key, declaration_comments
from .rulebook_prose import every_node, sentence, spoken
from .rulebook_steps import Steps
from .rulebook_words import joined, value_text
from .variant_changes import variant_sections

SEES = {"public": "open", "owner": "seen by its owner", "team": "seen by its owner's team",
        "others": "seen by all but its owner", "hidden": "face down"}


class PlayersBook(Steps):
    def __init__(self, script: Script, path: str, chosen: dict):
        super().__init__(script, chosen)
        self.path = path
        self.notes, _ = declaration_comments(script, path)
        self.out = []

    def note(self, node) -> str:
        """The script's comment on a declaration or a statement."""
        return " ".join(self.notes.get(comment_key(node.span), ()))

    def said_inline(self, define: str) -> bool:
        """A constant the script comments is a term, its value with the comment."""
        return super().said_inline(define) and not self.note(self.t.defines[define])

    def markdown(self) -> str:
        t = self.t
        name = os.path.basename(self.path)
        self.add(f"# {t.title or name}", "",
                 f"*This rulebook was generated from `{name}` by `cardgame rules`; `--detailed` has every step.*", "")
        if t.replacements:
            made = sorted(t.replacements.values(), key=lambda r: (r.decl.span.line, r.decl.span.column))
            files = sorted({os.path.basename(r.original.span.path) for r in made})
            self.add(f"A variant of {joined([f'`{f}`' for f in files])}: it replaces "
                     f"{joined([r.described for r in made])}.", "")
        self.add(*variant_sections(t, self.s.sources, self.path))  # a variant: the original's notes, its changes
        self.players()
        self.options()
        self.components()
        self.flow()
        self.rules()
        self.scoring()
        self.terms()
        return "\n".join(self.out).rstrip("\n") + "\n"

    # ---- sections
    def players(self):
        t = self.t
        if t.max_players == 1:
            self.add("One player, who plays alone.", "")
            return
        count = f"{t.min_players} players" if t.min_players == t.max_players else \
            f"{t.min_players} to {t.max_players} players"
        line = f"{count}, seated P0, P1, ... clockwise, each on the left of the one before." if not t.seat_names else \
            f"{count}, seated {', '.join(t.seat_names)} clockwise, each on the left of the one before."
        teams = t.teams
        if teams is not None and teams.expr is None:
            sides = "; ".join(" and ".join(seat_label(t.seat_names, seat) for seat in seats) for seats in teams.seats)
            line += f" Teams, which win or lose together: {sides}."
        elif teams is not None:
            line += f" Teams win or lose together: a player {self.name(teams.var)} is in team {self.words(teams.expr)}."
        self.add(line, "")

    def options(self):
        """Each option by its description, then its values (a yes-or-no option is on or off) and
        the one played."""
        if not self.t.options:
            return
        self.add("## Variants", "")
        for opt in self.t.options.values():
            values = "" if opt.kind == "bool" else f" {opt.low} to {opt.high};" if opt.kind == "int" \
                else f" {' or '.join(spoken(c) for c in opt.choices)};"
            played = self.chosen[opt.name] if opt.name in self.chosen else default_value(opt)
            played = ("on" if played else "off") if isinstance(played, bool) else spoken(str(played))
            here = "in this book" if opt.name in self.chosen else "unless chosen"
            doc = sentence(opt.doc) + " " if opt.doc else ""
            self.add(f"- {doc}({self.name(opt.name)}:{values} {played} {here}.)")
        self.add("")

    def components(self):
        t = self.t
        self.add("## Cards", "")
        for name, decl in t.symbol_sets.items():
            order = ", from lowest to highest" if decl.ordered else ""
            self.add(f"- The *{name}* values: {', '.join(decl.values)}{order}.")
        for deck in t.decks:
            self.deck(deck)
        for decl in t.number_attributes.values():
            listed = ", ".join(f"{self.value(v[1] if isinstance(v, tuple) else v)} {number}"
                               for v, number, _ in decl.pairs)
            self.add(f"A card's {spoken(decl.name)}, from its {spoken(decl.source)}: {listed}; "
                     f"any other {spoken(decl.source)} counts as itself.", "")
        for per_player, where in ((False, "On the table"), (True, "Each player has")):
            groups: dict[str, list] = {}
            for zone in t.zones.values():
                if zone.per_player == per_player:
                    sees, said = self.zone(zone)
                    groups.setdefault(sees, []).append(said)
            if groups:
                self.add(f"{where} — " + "; ".join(f"{sees}: {joined(said)}" for sees, said in groups.items()) + ".", "")
        self.starting_values()

    def deck(self, deck):
        cards = [c for c in self.t.cards if c.deck == deck.name]
        if deck.dimensions:
            ordered = {attr for attr, _ in deck.ordered}
            dims = " in each ".join(f"{spoken(attr)} ({', '.join(self.value(v) for v in values)}"
                                    + (", lowest to highest)" if attr in ordered else ")")
                                    for attr, values in deck.dimensions)
            self.add(f"{len(cards)} cards, one of each {dims}, named like {self.card(cards[0].name)}; "
                     f"they start in the {self.name(deck.zone)}.", "")
            return
        self.add(f"{len(cards)} cards, starting in the {self.name(deck.zone)}:", "")
        for spec in deck.cards:
            texts = [v[1] for _, v in spec.attrs if isinstance(v, tuple) and v[0] == "text"]
            copies = f"{spec.copies}× " if spec.copies > 1 else ""
            if texts:  # what is printed on the card is what players read
                self.add(f"- {copies}" + " — ".join(texts))
            else:
                attrs = ", ".join(f"{spoken(a)} {self.value(v)}" for a, v in spec.attrs)
                self.add(f"- {copies}{spec.label}" + (f" ({attrs})" if attrs else ""))
        self.add("")

    def value(self, v) -> str:
        """A deck's value: a suit as its symbol, a text in quotes, a number or a symbol as written."""
        return self.symbol(v) if isinstance(v, str) else value_text(v)

    def zone(self, zone) -> tuple[str, str]:
        """(who sees its cards, its name with what the options and its comment say)."""
        sees = SEES.get(zone.visibility, zone.visibility)
        otherwise = SEES.get(zone.otherwise, zone.otherwise)
        cond, extra = zone.condition, []
        if isinstance(cond, n.Name) and cond.name in self.chosen and isinstance(self.chosen[cond.name], bool):
            sees = sees if self.chosen[cond.name] else otherwise
        elif cond is not None:
            sees, extra = otherwise, [f"{SEES.get(zone.visibility, zone.visibility)} if {self.words(cond)}"]
        if zone.shown_by:
            extra.append(f"sorted by {', then '.join(spoken(a) for a, _ in zone.shown_by)}")
        elif zone.shown_as is not None:
            extra.append("kept in the order placed, never sorted")
        if self.note(zone):
            extra.append(self.note(zone))
        return sees, self.name(zone.name) + (f" ({'; '.join(extra)})" if extra else "")

    def starting_values(self):
        """What the table, each player and each team keep track of: what a comment explains, and
        what starts at a value worth saying (not 0, none, false or empty)."""
        starts = {"player": [], "team": [], "table": []}
        for name, (var, _typ) in self.t.vars.items():
            note = self.note(var)
            if not note and _goes_without_saying(var):
                continue
            said = self.name(name) if _goes_without_saying(var) else f"{self.name(name)}, starting at {self.words(var.init)}"
            whose = "player" if var.per_player else "team" if var.per_team else "table"
            starts[whose].append(said + (f" ({note})" if note else ""))
        for whose, said in starts.items():
            if said:
                head = "The table keeps" if whose == "table" else f"Each {whose} keeps"
                self.add(f"{head}: {'; '.join(said)}.", "")

    def rules(self):
        """The rules the flow does not already give in the designer's words: those without a
        description, with their conditions, and those no choice names."""
        named = _named_rules(self.s.items)
        rules = [r for r in self.t.rules.values() if not self.never_applies(r.name) and (not r.doc or r.name not in named)]
        if not rules:
            return
        self.add("## Rules", "", "A choice that names a rule is allowed only when it keeps the rule.", "")
        for rule in rules:
            if rule.doc:
                self.add(f"- **{sentence(rule.doc)}**")
                continue
            when = f"when {self.words(rule.when)}, " if rule.when is not None and self.fixed(rule.when) is not True else ""
            then = "the choice is not allowed" if rule.prohibits else self.words(rule.require)
            self.add(f"- **{spoken(rule.name)}**: {when}{then}.")
        self.add("")

    def scoring(self):
        t = self.t
        self.add("## Winning", "")
        if t.end_when is not None:
            self.add(f"The game ends as soon as {self.words(t.end_when.cond)}, even in the middle of a turn.", "")
        score, whose = t.score, "team" if t.teams is not None else "player"
        if score is not None and self.only_owned([score.expr], score.var):
            self.pronouns[score.var] = "their"
            self.add(f"A {whose}'s score is {self.words(score.expr)}.", "")
            del self.pronouns[score.var]
        elif score is not None:
            self.add(f"A {whose} {self.name(score.var)} scores {self.words(score.expr)}.", "")
        w = t.winners
        if w is None or w.mode in ("highest", "lowest"):
            most = "lowest" if w is not None and w.mode == "lowest" else "highest"
            self.add(f"When the game ends, the {most} score wins; equal scores share the win.", "")
        else:
            self.add(f"When the game ends, the winners are {self.words(w.expr)}.", "")

    def terms(self):
        """The definitions the book names, and those their words name, in the script's order:
        each by its comment, where it has one, then its formula in words."""
        said = {}
        while self.mentioned - said.keys():
            for name in sorted(self.mentioned - said.keys()):
                define, note = self.t.defines[name], self.note(self.t.defines[name])
                if self.constant(define.body):  # a commented constant: its value, then what it is
                    said[name] = f"{self.words(define.body)} — {sentence(note)}"
                else:
                    said[name] = (f"{sentence(note)} " if note else "") + sentence(self.words(define.body))
        if not said:
            return
        self.add("## Terms", "")
        for name, define in self.t.defines.items():
            if name in said:
                head = self.name(name) + (f"({', '.join(self.name(p.name) for p in define.params)})"
                                          if define.params else "")
                self.add(f"- {head}: {said[name]}")
        self.add("")


def _named_rules(items) -> set:
    """The rules some choice of the script names (`requires`)."""
    return {call.name for x in every_node(items) if isinstance(x, n.Alternative) for call in x.requires}


def _goes_without_saying(var) -> bool:
    """A variable that starts at nothing: 0, none, false, an empty list or text, or no value written."""
    init = var.init
    return not var.written_init or isinstance(init, n.Literal) and init.value in (0, None, False, "") \
        or isinstance(init, n.ListLit) and not init.items
