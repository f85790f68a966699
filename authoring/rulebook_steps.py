"""The players' rulebook's flow of play: phases first, then the procedures and events they use,
each as short steps in players' words.

Announcements (`log`) are left out, and so is a step that only announces; moves of several
things to one place, and shuffles, are said at once ("move *q*'s *pulled*, *hand* and *played*
to the *stock*"); a loop over the players whose steps only touch each player's own things reads
"for each player: ... their *hand*", or "each player's *hand*" for a single step.
"""

from __future__ import annotations

from cardgame.interpreter.language import nodes as n

from .rulebook_prose import PlayerWords, clause, sentence, spoken, title
from .rulebook_words import joined

LOOPS = (n.For, n.While, n.RepeatTimes, n.RepeatUntil, n.Loop)


class Steps(PlayerWords):
    """Writes the flow into `out`; `note(node)` is the script's comment on a node."""

    out: list

    def note(self, node) -> str:
        raise NotImplementedError

    def add(self, *lines: str):
        self.out.extend(lines)

    def flow(self):
        t = self.t
        self.add("## Play", "")
        if t.phases:
            self.add(f"Play starts with {title(next(iter(t.phases)))}; each part then goes on to the next unless it "
                     "says otherwise.", "")
        phases_first = sorted(self.s.items, key=lambda item: not isinstance(item, n.PhaseDecl))
        for item in phases_first:
            if isinstance(item, n.PhaseDecl):
                self.add(f"### {title(item.name)}", "")
            elif isinstance(item, n.ProcDecl):
                self.add(f"### {title(item.name)}{self.params(item.params)}", "")
            elif isinstance(item, n.EventDecl):
                self.add(f"### When {spoken(item.name)}{self.params(item.params)} happens", "")
                if item.prompt:
                    self.add(f"Those who may answer are asked “{self.pieces(item.prompt)}”", "")
                if not item.body:
                    self.add("Only its answers do something.", "")
                    continue
            elif isinstance(item, n.HandlerDecl):
                self.add(f"### After {spoken(item.event)}", "")
            elif isinstance(item, n.ReactionDecl):
                self.add(f"### Answering {spoken(item.event)}", "",
                         f"Each {self.name(item.var)} in {self.words(item.by)} in turn may answer (or pass):", "")
                for alt in item.alternatives:
                    self.alternative(alt, 0)
                self.add("")
                continue
            else:
                continue
            if self.note(item):
                self.add(sentence(self.note(item)), "")
            self.block(self.without_going_on(item), 0)
            self.add("")

    def without_going_on(self, item) -> tuple:
        """A phase's steps without its last `next` when that is to the phase written after it."""
        phases = list(self.t.phases)
        body = tuple(audible(item.body))
        if isinstance(item, n.PhaseDecl) and body and isinstance(body[-1], n.Next) \
                and phases.index(item.name) + 1 < len(phases) and phases[phases.index(item.name) + 1] == body[-1].phase:
            return body[:-1]
        return body

    def params(self, params) -> str:
        return f" ({', '.join(self.name(p.name) for p in params)})" if params else ""

    def line(self, depth: int, text: str):
        self.add("  " * depth + "- " + sentence(text))

    def block(self, stmts, depth: int):
        """The steps said aloud, a run of moves to one place (or of shuffles) in one sentence."""
        stmts = audible(stmts)
        k = 0
        while k < len(stmts):
            run = [stmts[k]]
            while k + len(run) < len(stmts) and self.said_together(run[0], stmts[k + len(run)]):
                run.append(stmts[k + len(run)])
            if len(run) > 1:
                self.together(run, depth)
            else:
                self.statement(stmts[k], depth)
            k += len(run)

    def said_together(self, a, b) -> bool:
        """Moves to the same place the same way, or shuffles."""
        if isinstance(a, n.Shuffle) and isinstance(b, n.Shuffle):
            return True
        return isinstance(a, n.Move) and isinstance(b, n.Move) and self.s.text(a.dest) == self.s.text(b.dest) \
            and (a.position, a.facing) == (b.position, b.facing)

    def together(self, run, depth: int):
        if isinstance(run[0], n.Shuffle):
            self.line(depth, f"shuffle {joined([self.words(s.zone) for s in run])}")
            return
        whats = [s.what for s in run]
        owners = {self.s.text(x.index) for x in whats if isinstance(x, n.Index) and self.is_player_thing(x.obj)}
        if len(owners) == 1 and all(isinstance(x, n.Index) and self.is_player_thing(x.obj) for x in whats):
            # *q*'s *pulled*, *hand* and *played*: one owner said once
            said = self.whose(whats[0].index, joined([self.name(x.obj.name) for x in whats]))
        else:
            said = joined([self.words(x) for x in whats])
        self.line(depth, f"move {said} to {self.words(run[0].dest)}{_placed(run[0])}")

    def statement(self, s, depth: int):
        w = self.words
        match s:
            case n.Let():
                self.line(depth, f"let {self.name(s.name)} be {w(s.value)}")
            case n.Set():
                target = self.target(s.target)
                self.line(depth, {"=": f"{target} becomes {w(s.value)}", "+=": f"add {w(s.value)} to {target}",
                                  "-=": f"subtract {w(s.value)} from {target}"}[s.op])
            case n.Move():
                self.line(depth, f"move {w(s.what)} to {w(s.dest)}{_placed(s)}")
            case n.Deal():
                self.line(depth, self.deal(s))
            case n.Shuffle():
                self.line(depth, f"shuffle {w(s.zone)}")
            case n.Reveal():
                self.line(depth, f"turn {w(s.what)} face up")
            case n.Hide():
                self.line(depth, f"turn {w(s.what)} face down")
            case n.ShowTo():
                self.line(depth, f"show {w(s.what)} to {w(s.player)} alone")
            case n.If():
                self.conditional(s, depth)
            case n.For():
                self.each_of(s, depth)
            case n.While():
                self.nested(depth, f"as long as {w(s.cond)}", s.body)
            case n.RepeatTimes():
                self.nested(depth, f"{self._operand(s.count)} times", s.body)
            case n.RepeatUntil():
                self.nested(depth, f"repeat until {w(s.cond)}", s.body)
            case n.Loop():
                self.nested(depth, "repeat", s.body)
            case n.Break():
                self.line(depth, "stop repeating")
            case n.Decide():
                who = "the table" if s.actor is None else w(s.actor)
                secret = "" if not s.secret else " in secret" + (f" (told only to {w(s.knowers)})" if s.knowers else "")
                self.choice(depth, f"{who} chooses{secret}{self.prompt(s.prompt)}", s.alternatives)
            case n.Simultaneous():
                self.choice(depth, f"{self.each(s.var, s.source)} chooses at the same time, unseen"
                            f"{self.prompt(s.decide.prompt)}", s.decide.alternatives)
            case n.CallStmt():
                self.line(depth, f"*{title(s.name)}*{self.args(s.args)}")
            case n.Next():
                self.line(depth, f"go on to {title(s.phase)}")
            case n.EndGame():
                self.line(depth, "**the game ends**" + (" (the script's safety cap)" if s.capped else ""))
            case n.Signal():
                self.line(depth, f"*{spoken(s.event)}*{self.args(s.args)} happens")
            case n.Cancel():
                self.line(depth, "it does not happen")
            case n.Return():
                self.line(depth, "stop here")
            case _:
                self.line(depth, f"`{self.s.text(s)}`")

    def target(self, target: n.Target) -> str:
        if target.index is not None:
            return self.whose(target.index, self.name(target.name))
        return f"the {self.name(target.name)}" if self.kind(target) == "global" else self.name(target.name)

    def deal(self, s: n.Deal) -> str:
        count = "1 card" if isinstance(s.count, n.Literal) and s.count.value == 1 else f"{self._operand(s.count)} cards"
        facing = f" face {s.facing}" if s.facing else ""
        to = f"each player's {self.name(s.zone)}"
        match s.players:
            case n.Call(func="players_from", args=(first,)):
                to += f", starting with {self.words(first)}"
            case _ if not self.everyone(s.players):
                to = f"the {self.name(s.zone)} of each of {self.words(s.players)}"
        return f"deal {count}{facing} from {self.words(s.source)} to {to}"

    def each(self, var: str, source) -> str:
        """each player *p*, each player *p* in turn from X, or each *p* in X."""
        return f"each {self.member(var, source)}"

    def each_of(self, s: n.For, depth: int):
        """A loop; one that only asks its player for a decision reads "each player *p* in turn
        from X chooses"; over the players, touching only each one's own things, "for each
        player: ... their *hand*", or with one step "... each player's *hand*"."""
        body = audible(s.body)
        match body:
            case [n.Decide(actor=n.Name(name=actor))] if actor == s.var:  # each player in turn chooses
                self.choice(depth, f"{self.each(s.var, s.source)} chooses{self.prompt(body[0].prompt)}",
                            body[0].alternatives)
                return
        if not (self.everyone(s.source) and self.only_owned(body, s.var)):
            self.nested(depth, f"for each {self.member(s.var, s.source)}", body)
            return
        single = all(_simple(x) for x in body) and all(self.said_together(a, b) for a, b in zip(body, body[1:]))
        self.pronouns[s.var] = "each player's" if single else "their"
        try:
            if single:
                self.block(body, depth)
            else:
                self.line(depth, "for each player:")
                self.block(body, depth + 1)
        finally:
            del self.pronouns[s.var]

    def args(self, args) -> str:
        return f" ({', '.join(self.words(a) for a in args)})" if args else ""

    def nested(self, depth: int, head: str, body):
        """`head:` with its steps below it, or `head, step` on one line for one simple step."""
        body = audible(body)
        if not body:
            self.line(depth, f"{head}, nothing happens")
        elif len(body) == 1 and _simple(body[0]):
            mark = len(self.out)
            self.statement(body[0], 0)
            step = self.out.pop(mark)[2:]
            self.line(depth, f"{head}, {clause(step)}")
        else:
            self.line(depth, f"{head}:")
            self.block(body, depth + 1)

    def conditional(self, s: n.If, depth: int):
        branches = self.branches_left(s)
        if branches and branches[0][0] is None:  # the options chosen decide it: its steps alone
            self.block(branches[0][1], depth)
            return
        branches = [(cond, audible(body)) for cond, body in branches]
        if branches and branches[-1][0] is None and not branches[-1][1]:
            branches.pop()  # an `else` that only announces
        if len(branches) == 2 and not branches[0][1] and branches[1][0] is None:
            self.nested(depth, f"unless {self.words(branches[0][0])}", branches[1][1])
            return
        for k, (cond, body) in enumerate(branches):
            head = "otherwise" if cond is None else ("if " if k == 0 else "otherwise, if ") + self.words(cond)
            self.nested(depth, head, body)

    def prompt(self, parts) -> str:
        return f" (“{self.pieces(parts)}”)" if parts else ""

    def choice(self, depth: int, head: str, alternatives):
        self.line(depth, f"{head}:")
        for alt in alternatives:
            self.alternative(alt, depth + 1)

    def alternative(self, alt: n.Alternative, depth: int):
        picks = []
        for b in alt.binders:
            if b.several:
                count = self.words(b.most) if b.fewest is None else f"{self.words(b.fewest)} to {self.words(b.most)}"
                how = f", told apart by {spoken(b.key)} alone" if b.key else ", repeats allowed" if b.repeats else ""
                picks.append(f"{count} {self.name(b.name)} of {self.words(b.source)}{how}")
            elif b.source is not None:
                picks.append(f"{self.name(b.name)} from {self.words(b.source)}")
            else:
                picks.append(f"a number {self.name(b.name)} from {self.words(b.low)} to {self.words(b.high)}")
        text = f"*{spoken(alt.name)}*" + (f" {joined(picks)}" if picks else "")
        rules = [self.rule_name(call.name) for call in alt.requires if not self.never_applies(call.name)]
        if rules:
            text += f" ({'; '.join(rules)})"
        body = audible(alt.body)
        if body:
            self.nested(depth, text, body)
        else:
            self.line(depth, text)

    def rule_name(self, name: str) -> str:
        """A rule by its description (the designer's words), or by its name when it has none."""
        rule = self.t.rules.get(name)
        return f"**{rule.doc}**" if rule is not None and rule.doc else f"**{spoken(name)}**"


def audible(stmts) -> list:
    """The statements a player hears of: not announcements, nor steps that only announce."""
    return [s for s in stmts if not _silent(s)]


def _silent(s) -> bool:
    if isinstance(s, n.Log):
        return True
    if isinstance(s, n.If):
        return all(not audible(body) for _, body in s.branches) and not audible(s.orelse or ())
    return isinstance(s, LOOPS) and not audible(s.body)


def _placed(s: n.Move) -> str:
    return (" at the bottom" if s.position == "bottom" else "") + (f" face {s.facing}" if s.facing else "")


def _simple(s) -> bool:
    """A statement that reads as one short step (no steps of its own)."""
    return not isinstance(s, (n.If, n.Decide, n.Simultaneous) + LOOPS)
