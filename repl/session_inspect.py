"""The session's commands that look and move nothing: the table, the log, why, expressions, the script."""

from __future__ import annotations

import difflib
import re

from cardgame import interpreter
from cardgame.interpreter import ONCE_KINDS

from .input import whole_number
from .move_runs import compact_listing
from .refusals import ReplDiagnostics, ReplError
from .results import plural, who
from .table import render, snapshot, zone_words
from .why import split_expand, why_lines

# A card drawn with a suit symbol, as `state` draws it (`10♦`).
_CARD_WORD = re.compile(r"(?<![\w.])(\w*[♣♦♥♠])(?![\w.])")
# A seat written in lower case (`p0`), and a name an expression binds itself (`any p0 in ...`).
_SEAT_WORD = re.compile(r"(?<![\w.])p\d+(?!\w)")
_BOUND = re.compile(r"\b(?:for|any|all|no|count|max|min|sorted|groups|runs|let)\s+(\w+)")


def _short_heading(source: str) -> str:
    """A long key's heading in `why step`'s table: its function, `trick_strength(...)`, or `key`."""
    called = re.match(r"(\w+)\(", source)
    return f"{called.group(1)}(...)" if called else "key"


class InspectCommands:
    """What the table, the moves made, the rules and expressions look like, seen from the current view."""

    # ---- looking at the table
    def _cmd_view(self, rest: str):
        arg = rest.strip()
        if arg == "all":
            self.perspective = "all"
        elif arg == "spectator":
            self.perspective = None
        elif arg:
            self.perspective = self._parse_seat(arg)
        if self.perspective == "all":
            return "view: all (the all-seeing view: every hidden card and choice is shown)"
        return f"view: {self._view_name()}"

    def _cmd_state(self, rest: str):
        if rest not in ("", "all"):
            raise ReplError("usage: state [all] (`all`: the bookkeeping variables too, those named `_...`)")
        st = self.state
        lines = render(snapshot(st, self.perspective, self._sees_choices(st), self._pos), self.deck(), self.width,
                       self.symbols, bookkeeping=rest == "all")
        if st.fault is not None:
            lines.append(self.game.render_diagnostic(st.fault))
        return lines

    def _zone_row(self, table, name: str, seat: str | None) -> str:
        """`hand[P1]: 5 cards: 3C 9C  QH +2 hidden`: one zone drawn as `state` draws its row."""
        label = name if seat is None else f"{name}[{seat}]"
        cards = table.view["zones"][name] if seat is None else table.view["zones"][name][seat]
        count = plural(len(cards), "card")
        if not cards:
            return f"{label}: {count}"
        words, _ = zone_words(table, self.deck(), name, seat, self.symbols)
        if words == ["hidden"]:
            return f"{label}: {count}, hidden"
        return f"{label}: {count}: {self.deck().separator.join(words)}"

    def _cmd_show(self, rest: str):
        args = rest.replace("[", " ").replace("]", " ").split()
        if not args or len(args) > 2:
            raise ReplError("usage: show ZONE [PLAYER], for example `show hand P1`")
        name = args[0]
        st = self.state
        table = snapshot(st, self.perspective, self._sees_choices(st), self._pos)
        zones = table.view["zones"]
        if name not in zones:
            raise ReplError(self._unknown("zone", name, list(zones)))
        if not isinstance(zones[name], dict):
            if len(args) == 2:
                raise ReplError(f"`{name}` is a shared zone; write `show {name}`")
            return self._zone_row(table, name, None)
        seats = list(zones[name])
        if len(args) == 2:
            seats = [self._seat(self._parse_seat(args[1]))]
        return [self._zone_row(table, name, seat) for seat in seats]

    def _cmd_log(self, rest: str):
        args = rest.split()
        last = None
        if args:
            last = whole_number(args[1]) if len(args) == 2 and args[0] == "-n" else None
            if not last:
                raise ReplError("usage: log [-n N], N a whole number from 1")
        final = self._timeline[-1]
        if not final.history:  # a game of no decisions says so once it has run through
            return "no moves: the game ended without a decision" if final.is_over else "no moves yet"
        lines = []
        made = len(self.state.history)
        first = 0 if last is None else max(0, made - last)
        end = len(final.history) if last is None else made
        if first:
            lines.append(f"  ... {plural(first, 'earlier move')} (`log` lists them all)")
        phase = None
        self.pageable = True
        for event in final.observed_events(self.perspective):
            if event.kind == "phase":  # the phase changes, not each new round of one (`next trick`)
                entered, phase = phase, event.text.partition(" ")[2]
                if entered is not None and phase != entered and first < event.step <= end:
                    lines.append(f"        -> phase {phase}")
                continue
            if not first < event.step <= end:  # move N's events are those of step N
                continue
            if event.kind == "decision":
                if event.step - 1 == made:
                    lines.append("  -- undone (`redo` or `goto` brings them back):")
                lines.append(f"{event.step:>4}. {who(event.actor, self._names)}: {event.text}")
            elif event.kind == "log":
                lines.append(f"        {event.text}")
        return lines

    # ---- why a move is legal or not, and what moves do
    def _cmd_why(self, rest: str):
        words = rest.split()
        if words[:1] == ["step"]:
            return self._why_step(words[1:])
        if rest in ("more", "full") and self._last_why is not None:
            return self._why_again(rest)
        st = self.state
        if st.current_player is not None and not self._sees_choices(st):
            raise ReplError(f"`why` {self._refusal(self._seat(st.current_player) + chr(39) + 's choices')}\n"
                            f"  = help: `view {self._seat(st.current_player)}` or `view all` may ask")
        try:
            typed, expand, depth = split_expand(rest)
        except ValueError as err:
            raise ReplError(str(err)) from None
        defines = self.definition_names()
        for name in expand:
            if name not in defines:
                raise ReplError(self._unknown("definition", name, defines))
        text, move = self._resolve(typed, "why")
        depth = depth or ("full" if expand else "short")
        explanation = st.explain(move, viewer=self.perspective, expand=expand)
        if explanation.legal is None:
            raise ReplError(f"`why {explanation.move}` {explanation.reason}\n  = help: `view all` sees everything")
        self._last_why = (self._where_now(), typed, expand)
        self.pageable = True
        actor = st.current_player
        context = (f" for {who(actor, self._names)}" if actor is not None else "") + f" at step {self._pos} " \
            f"(phase {st.phase or '-'})"
        lines = why_lines(explanation, context, self._excerpt, defines, depth)
        lines[0] = compact_listing(lines[0])
        if st.fault is None and not st.is_over and isinstance(move, str):
            lines += [f"  = help: {line}" for line in self._not_a_move(text)]
        return lines

    def _why_step(self, args: list[str]):
        """`why step N`: what decided the outcomes of step N, the lines it logged (the engine's
        GameState.explain_outcomes): each value a line reads, with the items a best-of compared."""
        last = len(self._timeline) - 1
        step = whole_number(args[0]) if len(args) == 1 else self._pos if not args else None
        if step is None or not 1 <= step <= last:
            raise ReplError(f"usage: why step [N], N a step from 1 to {last} (alone: the last step made, "
                            f"{self._pos})" if last else "no step made yet: `why step N` explains step N's outcomes")
        before, after = self._timeline[step - 1], self._timeline[step]
        actor = self._timeline.actors[step - 1]
        moves = len(after.history)
        move = after.history[moves - 1] if actor is not None else None
        outcomes = before.explain_outcomes(move, viewer=self.perspective, pause_at=after.pause_at)
        skip = sum(e.kind == "log" for e in self._observed(before, moves)) if len(before.history) == moves else 0
        logged = [e.text for e in self._observed(after, moves) if e.kind == "log"][skip:]
        made = self._move_line(after, moves).partition(". ")[2] if actor is not None else "a step between pauses"
        lines = [f"step {step}: {made} (phase {before.phase or '-'})"]
        if not outcomes:
            lines.append(f"  it logged nothing (`goto {step - 1}`, `trace on` and `redo` show all it did)")
        for outcome, text in zip(outcomes, logged + [o.text for o in outcomes[len(logged):]]):
            lines.append(f"  {text}")
            for decided in outcome.decided:
                lines += self._decided_lines(decided)
        self.pageable = True
        return lines

    def _decided_lines(self, decided) -> list[str]:
        """`winner = P0, chosen by max q in ... [FILE:LINE]`, then the items compared, the chosen one marked."""
        draw = self.deck().drawer(self.symbols)
        where = f"  [{decided.span.path}:{decided.span.line}]"
        by = f"{decided.definition}: " if decided.definition else ""
        if not decided.rows:
            return [f"    {decided.name} = {decided.value}: {by}{decided.verdict}{where}"]
        lines = [f"    {decided.name} = {decided.value}, chosen by {by}{decided.source}{where}"]
        heads = [head if len(head) <= 24 else _short_heading(head) for head in decided.columns]
        table = [heads] + [[draw(row.item), *map(draw, row.cells), row.key] for row in decided.rows]
        widths = [max(len(cells[i]) for cells in table) for i in range(len(heads))]
        for i, cells in enumerate(table):
            mark = "->" if i and decided.rows[i - 1].chosen else "  "
            lines.append(f"      {mark} " + "  ".join(f"{c:<{w}}" for c, w in zip(cells, widths)).rstrip())
        return lines

    def _where_now(self) -> tuple:
        """The position and view a `why` was asked at, for `why more` and `why full` after it."""
        st = self.state
        return self._pos, tuple(st.history), st.pause_mark, self.perspective

    def _why_again(self, depth: str):
        """`why more`, `why full`: the last `why`'s move, judged at this depth."""
        where, typed, expand = self._last_why
        if where != self._where_now():
            raise ReplError(f"`why {depth}` opens up the last `why`, asked at another position or view\n"
                            f"  = help: `why MOVE --{depth}` asks about a move here")
        return self._cmd_why(" ".join([typed, f"--{depth}"] + [f"--expand {name}" for name in expand]))

    def _refusal(self, what: str) -> str:
        return f"reads {what}, which {self._view_name()} cannot see"

    def _excerpt(self, span) -> list[str]:
        """A span's source lines with a line-number gutter, like a diagnostic's excerpt."""
        source = self.game.sources.get(span.path)
        out = [f"  --> {span.path}:{span.line}"]
        if source is None:
            return out
        last = span.end_line if span.end_column > 1 or span.end_line == span.line else span.end_line - 1
        width = len(str(last))
        out.append(f"{'':>{width}} |")
        out += [f"{n:>{width}} | {source.line(n)}" for n in range(span.line, last + 1)]
        out.append(f"{'':>{width}} |")
        return out

    def _cmd_trace(self, rest: str):
        if rest not in ("on", "off", ""):
            raise ReplError("usage: trace [on|off]")
        if rest:
            self.tracing = rest == "on"
        return f"trace {'on' if self.tracing else 'off'}"

    # ---- expressions
    def _evaluate(self, text: str, expect=None) -> str:
        if not text:
            zones = self.state.view(self.perspective)["zones"]
            name = next(iter(zones), None)
            example = f"{name}[P0]" if isinstance(zones.get(name), dict) else name
            raise ReplError("which expression? for example " +
                            (f"`eval count({example})`" if name else "`eval 1 + 2`"))
        value, diags = self.state.evaluate(text, expect=expect, viewer=self.perspective)
        if value is None:
            sources = dict(self.game.sources)
            sources[interpreter.EXPRESSION_PATH] = interpreter.SourceFile(interpreter.EXPRESSION_PATH, text)
            raise ReplDiagnostics("\n".join(interpreter.render(d, sources) for d in diags))
        return value or '""'  # the empty text, which would print as nothing at all

    def _expression(self, text: str) -> str:
        """An expression typed with cards copied from the table (`top(prize) == Q♥`), each
        named as the script names it (`QH`), and seats in any case (`hand[p0]`, as `view p0`
        takes them), unless the script or the expression names something `p0`; texts in quotes
        are left as they are."""
        parts = text.split('"')
        outside = " ".join(parts[::2])
        taken = set(self.expression_names()) | set(_BOUND.findall(outside))
        seats = {f"p{seat}" for seat in range(self.state.n)} - taken

        def plain(part: str) -> str:
            part = self._card_names(part, _CARD_WORD)
            return _SEAT_WORD.sub(lambda m: m.group(0).upper() if m.group(0) in seats else m.group(0), part)
        return '"'.join(plain(part) if i % 2 == 0 else part for i, part in enumerate(parts))

    def _cmd_eval(self, rest: str):
        return self._evaluate(self._expression(rest))

    def _cmd_watch(self, rest: str):
        if not rest:
            if not self.watches:
                return "no watches; `watch EXPR` adds one"
            return [f"{i}. {text} = {self._watch_value(text)}" for i, text in self.watches.items()]
        rest = self._expression(rest)
        self._evaluate(rest)  # refused here, with its diagnostics, if it cannot be read
        ident = self._add(self.watches, rest, "watch")
        return f"watch {ident}: {rest} = {self._watch_value(rest)}"

    def _add(self, items: dict, item, what: str) -> int:
        """The id of `item`, added with the next unused id unless already there."""
        for ident, old in items.items():
            if old == item:
                return ident
        ident = self._next_id[what]
        self._next_id[what] += 1
        items[ident] = item
        return ident

    def _remove(self, items: dict, rest: str, what: str) -> str:
        if not rest:
            command = "unwatch" if what == "watch" else "unbreak"
            ids = f"the ids in use are {', '.join(map(str, items))}" if items else f"there are no {what}s"
            raise ReplError(f"usage: {command} N|all ({ids})")
        if rest == "all":
            count = len(items)
            items.clear()
            return f"removed {plural(count, what)}"
        number = whole_number(rest)
        if number not in items:
            raise ReplError(f"no {what} `{rest}`; " + (f"the ids in use are {', '.join(map(str, items))}"
                                                        if items else "there are none"))
        del items[number]
        return f"removed {what} {rest}"

    def _cmd_unwatch(self, rest: str):
        return self._remove(self.watches, rest, "watch")

    def _cmd_break(self, rest: str):
        if not rest:
            if not self.breakpoints:
                return "no breakpoints; `break rule NAME`, `break phase NAME` or `break when EXPR` adds one"
            return [f"{i}. {kind} {text}" for i, (kind, text) in self.breakpoints.items()]
        kind, _, arg = rest.partition(" ")
        arg = arg.strip()
        if kind not in ("rule", "phase", "when") or not arg:
            raise ReplError("usage: break rule NAME | break phase NAME | break when EXPR")
        if kind == "rule" and arg not in self.rule_names():
            raise ReplError(self._unknown("rule", arg, self.rule_names()))
        if kind == "phase" and arg not in self.phase_names():
            raise ReplError(self._unknown("phase", arg, self.phase_names()))
        now = ""
        if kind == "when":
            arg = self._expression(arg)
            if self._evaluate(arg, expect="bool") == "true":  # it stops when the value turns true
                now = " (true now: `auto` stops when it becomes true again)"
        return f"breakpoint {self._add(self.breakpoints, (kind, arg), 'breakpoint')}: {kind} {arg}{now}"

    def _cmd_unbreak(self, rest: str):
        return self._remove(self.breakpoints, rest, "breakpoint")

    # ---- the script
    def _cmd_rules(self, rest: str):
        self._no_args("rules", rest)
        rules = self.game.rules
        if not rules:
            return "this script has no named rules"
        width = max(len(r.name) for r in rules)
        places = [f"{r.span.path}:{r.span.line}" for r in rules]
        pwidth = max(len(p) for p in places)
        return [f"{r.name:<{width}}  {p:<{pwidth}}  {r.doc}".rstrip() for r, p in zip(rules, places)]

    def _cmd_source(self, rest: str):
        decls = {d.name: d for d in self.game.declarations}
        if not rest:
            example = next((d.name for d in self.game.declarations if d.kind in ("rule", "phase")), None)
            raise ReplError("usage: source NAME" + (f", for example `source {example}`" if example else ""))
        once = {d.name: d for d in self.game.once_declarations()}
        decl = decls.get(rest) or once.get(rest)
        if decl is None:
            raise ReplError(self._unknown_declaration(rest, list(decls), list(once)))
        replaces = [f"(replaces the original at {decl.replaces.path}:{decl.replaces.line})"] if decl.replaces else []
        title = decl.kind if decl.name == decl.kind else f"{decl.kind} {decl.name}"
        return [title, *replaces] + self._excerpt(decl.span)

    def _unknown_declaration(self, name: str, named: list, once: list) -> str:
        """`source` takes a declaration's name, or the kind of one a game has once (`players`)."""
        if name in ONCE_KINDS:
            return f"this script has no `{name}` declaration"
        close = difflib.get_close_matches(name, named + once, n=1, cutoff=0.6)
        if close:
            return f"unknown declaration `{name}`\n  = help: did you mean `{close[0]}`?"
        kinds = ", ".join(f"`{k}`" for k in once)
        return (f"unknown declaration `{name}`\n  = help: `source` takes the name of a rule, phase, definition, "
                f"procedure, event, reaction, record, zone, variable or option ({', '.join(named)}), or "
                f"the kind of a declaration the game has once ({kinds})")

    @staticmethod
    def _unknown(kind: str, name: str, known: list) -> str:
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
        hint = f"did you mean `{close[0]}`?" if close else ("known: " + ", ".join(known) if known else "")
        return f"unknown {kind} `{name}`" + (f"\n  = help: {hint}" if hint else "")
