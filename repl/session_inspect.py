"""The session's commands that look and move nothing: the table, the log, why, expressions, the script."""

from __future__ import annotations

import difflib
import re

from cardgame import interpreter
from cardgame.interpreter import ONCE_KINDS

from .input import whole_number
from .refusals import ReplDiagnostics, ReplError
from .results import plural, who
from .table import render, snapshot, zone_words
from .why import split_expand, why_lines


# A card drawn with a suit symbol, as `state` draws it (`10♦`).
_CARD_WORD = re.compile(r"(?<![\w.])(\w*[♣♦♥♠])(?![\w.])")


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
        self._no_args("state", rest)
        st = self.state
        lines = render(snapshot(st, self.perspective, self._sees_choices(st), self._pos), self.deck(), self.width,
                       self.symbols)
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
        return f"{label}: {count}, hidden" if words == ["hidden"] else f"{label}: {count}: {' '.join(words)}"

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
            seats = [f"P{self._parse_seat(args[1])}"]
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
        moves = [e for e in final.observed_events(self.perspective) if e.kind == "decision"]
        for i, move in enumerate(moves[first:end], first):
            if i == made:
                lines.append("  -- undone (`redo` or `goto` brings them back):")
            lines.append(f"{i + 1:>4}. {who(move.actor)}: {move.text}")
        return lines

    # ---- why a move is legal or not, and what moves do
    def _cmd_why(self, rest: str):
        st = self.state
        if st.current_player is not None and not self._sees_choices(st):
            raise ReplError(f"`why` {self._refusal(f'P{st.current_player}' + chr(39) + 's choices')}\n"
                            f"  = help: `view P{st.current_player}` or `view all` may ask")
        try:
            typed, expand = split_expand(rest)
        except ValueError as err:
            raise ReplError(str(err)) from None
        defines = self.definition_names()
        for name in expand:
            if name not in defines:
                raise ReplError(self._unknown("definition", name, defines))
        text, move = self._resolve(typed, "why")
        explanation = st.explain(move, viewer=self.perspective, expand=expand)
        if explanation.legal is None:
            raise ReplError(f"`why {explanation.move}` {explanation.reason}\n  = help: `view all` sees everything")
        actor = st.current_player
        context = (f" for {who(actor)}" if actor is not None else "") + f" at step {self._pos} " \
            f"(phase {st.phase or '-'})"
        lines = why_lines(explanation, context, self._excerpt, defines)
        if st.fault is None and not st.is_over and isinstance(move, str):
            lines += [f"  = help: {line}" for line in self._not_a_move(text)]
        return lines

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
        named as the script names it (`QH`); texts in quotes are left as they are."""
        parts = text.split('"')
        return '"'.join(self._card_names(part, _CARD_WORD) if i % 2 == 0 else part for i, part in enumerate(parts))

    def _cmd_eval(self, rest: str):
        return self._evaluate(self._expression(rest))

    def _cmd_watch(self, rest: str):
        if not rest:
            if not self.watches:
                return "no watches; `watch EXPR` adds one"
            return [f"{i}. {text} = {self._watch_value(text)}" for i, text in self.watches.items()]
        rest = self._expression(rest)
        value = self._evaluate(rest)
        ident = self._add(self.watches, rest, "watch")
        return f"watch {ident}: {rest} = {value}"

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
