"""The session's moves made by hand: moves, play, and undo, redo and goto over the positions they make."""

from __future__ import annotations

import attrs

from cardgame.interpreter import HIDDEN, TABLE, GameFault, IllegalMove

from .input import NoSuchMove, copies_of, listed_position, read_move, reads_as_number, whole_number, why_not, words_of
from .move_runs import Row, compact_listing, rows_of
from .refusals import ReplError
from .results import plural, who
from .timeline import after_move

# `moves` lists a long decision (a three-card pass: 286 moves) in part unless asked for all.
_LONG_LIST, _SHOWN_OF_LONG_LIST = 40, 30


def _names_all(move: str, words: list[str], copies: dict | None = None) -> bool:
    """`moves 2H QS`: the moves naming each typed word (a card, a player, a number), any case; a
    word that names the copies of a card (`10D` for `10Da` and `10Db`) keeps the moves naming any."""
    items = [w.lower() for w in words_of(move)]
    return all(w in items or not (copies or {}).get(w, set()).isdisjoint(items) for w in words)


def _same_position(a, b) -> bool:
    """The same moves, standing at the same pause point: the same position (a game is its seed
    and moves, and a pause point its work done)."""
    return a.history == b.history and a.paused == b.paused and a.pause_mark == b.pause_mark


class MoveCommands:
    """moves lists a decision's moves, play makes one; undo, redo and goto walk the timeline."""

    # ---- moves
    def _cmd_moves(self, rest: str):
        words = self._card_names(rest).split()
        show_all, full = "--all" in words, "--full" in words
        typed = [w for w in words if w not in ("--all", "--full")]
        wanted = [w.lower() for w in typed]
        if any(w.startswith("--") for w in wanted):
            raise ReplError("usage: moves [WORD...] [--all] [--full]")
        st = self.state
        if st.fault is not None:
            return "the game stopped with an error; `undo` goes back"
        if st.is_over:
            return "the game is over; no moves"
        if st.paused:
            return self._paused_text(st)
        actor = st.current_player
        if not self._sees_choices(st):
            return self._hidden_choices(actor)
        legal = self.move_texts()
        number = {m.text: i for i, m in enumerate(self.listed_moves(), 1)}
        copies = {w: copies_of(w, self.game.cards) for w in wanted}
        title = "table decision" if actor == TABLE else f"{self._seat(actor)} to act"
        prompt = st.view(self.perspective)["prompt"]
        lines = [f"{title}: {prompt}" if prompt else title]
        width = len(str(len(legal)))
        # a bare number would read as a move (`bid 4`): positions are written `#4`
        mark = "#" if reads_as_number(self.move_texts(legal_only=False)) else ""
        if not show_all:
            shown = [(i, m) for i, m in enumerate(legal, 1) if _names_all(m, wanted, copies)]
            rows = [Row(i, i, m) for i, m in shown] if full else rows_of([(i, m, "") for i, m in shown])
            kept = rows if full or wanted or len(rows) <= _LONG_LIST else rows[:_SHOWN_OF_LONG_LIST]
            lines += self._listed(kept, mark, width)
            if len(kept) < len(rows):
                example = next((w for w in words_of(legal[-1])[1:]), "")
                more = sum(row.count for row in rows[len(kept):])
                lines.append(f"  ... {more} more ({len(legal)} legal): `moves --full` lists "
                             f"every one" + (f", `moves {example}` those naming {example}" if example else ""))
            if not legal:
                lines.append("  (no legal move)")
            elif not shown:
                lines.append(f"  (no legal move names {' '.join(typed)}; {len(legal)} legal)")
            return lines
        candidates = [(m, text) for m, text in zip(self.listed_moves(False), self.move_texts(legal_only=False))
                      if _names_all(text, wanted, copies)]
        kept = candidates
        if not (full or wanted or len(candidates) <= _LONG_LIST):  # every legal move, then forbidden ones
            room = _SHOWN_OF_LONG_LIST - sum(m.text in number for m, _ in candidates)
            kept = [(m, text) for m, text in candidates if m.text in number or (room := room - 1) >= 0]
        entries = [(number.get(m.text), text, "" if m.text in number else self._forbidden(st, m))
                   for m, text in kept]  # only the moves shown are explained
        rows = [Row(i, i, text, 1, note) for i, text, note in entries] if full else rows_of(entries)
        lines += self._listed(rows, mark, max(width, 2))
        if len(kept) < len(candidates):
            lines.append(f"  ... {len(candidates) - len(kept)} more forbidden: `moves --all --full` lists every "
                         "one, `moves --all WORD` those naming WORD")
        lines.append(f"{sum(m.text in number for m, _ in candidates)} legal of {len(candidates)}")
        return lines

    def _forbidden(self, st, move) -> str:
        """What `moves --all` says beside a forbidden move: the rules forbidding it."""
        reason = st.explain(move, viewer=self.perspective)
        if reason.legal is None:  # its rules read what this view cannot see
            return f"not judged here: it {reason.reason}"
        return "forbidden by " + (", ".join(r.name for r in reason.failing) or reason.reason)

    def _listed(self, rows: list, mark: str, width: int) -> list[str]:
        """The lines of `moves`: `  #4. play 9D`, a run `#2-#13. raise 134..145`, a forbidden
        move `   -  play AC  forbidden by RULE`, numbers right-aligned to `width` digits;
        a card with a text of its own is named by it too (`play Nope.2  (Cancel a draw)`)."""
        labels = ["-" if row.first is None else f"{mark}{row.first}" if row.count == 1 else
                  f"{mark}{row.first}-{mark}{row.last}" for row in rows]
        column = max([len(mark) + width] + [len(label) for label in labels])
        texts = [row.text + self._card_texts(row.text) for row in rows]
        text_width = max((len(text) for text, row in zip(texts, rows) if row.note), default=0)
        lines = []
        for label, row, text in zip(labels, rows, texts):
            if row.first is None:
                lines.append(f"  {label:>{column}}  {text:<{text_width}}  {row.note}")
            else:
                lines.append(f"  {label:>{column}}. {text}")
        return lines

    def _card_texts(self, move: str) -> str:
        """`  (Cancel a draw)`: the texts of the cards a move names that have one (Deck.texts), else nothing."""
        texts = self.deck().texts
        named = [texts[word] for word in words_of(move) if word in texts]
        return f"  ({'; '.join(named)})" if named else ""

    def _paused_text(self, st) -> str:
        return (f"no decision yet: the game is paused {self._pause_place(st)}\n"
                "  = help: `step` goes on to the next pause point, `run` to the next decision")

    def _hidden_choices(self, actor) -> str:
        return (f"{self._seat(actor)} is to act; their choices are hidden from {self._view_name()}'s view "
                f"(`view {self._seat(actor)}` or `view all` shows them)")

    def _ended_when(self) -> str:
        """How an `end game when` ended the game (its condition, the statement after which it held, and
        the condition's value now), or '' when the game ended otherwise."""
        st = self.state
        ends = [e for e in st.observed_events(self.perspective) if e.kind == "end"]
        if not ends or not ends[-1].text.startswith("end: `end game when`"):
            return ""
        span = ends[-1].span
        line = int(ends[-1].text.rsplit(" ", 1)[1])
        source = self.game.sources.get(span.path)
        after = source.line(line).strip() if source is not None else ""
        return (f"  it ended as soon as `{self._statement(span).strip()}` held, after `{after}` "
                f"[{span.path}:{line}]\n")

    def _resolve(self, arg: str, command: str) -> tuple:
        """The move typed (see repl.input: a number, the whole text or the text after the move's
        name, in any case and any order when that names one move), as (its text as this view
        reads it, the Move; or the typed text twice when it names no move here)."""
        st = self.state
        if st.paused:
            raise ReplError(self._paused_text(st))
        if st.is_over and st.fault is None:
            raise ReplError(f"the game is over: there is no move to {'make' if command == 'play' else 'judge'}\n"
                            + self._ended_when() + "  = help: `undo` goes back to a position before; `new` starts a "
                            "new game")
        if st.current_player is not None and not self._sees_choices(st):
            # Trying moves for another seat would tell what it holds: its choices are its own.
            raise ReplError(self._hidden_choices(st.current_player) +
                            f"\n  = help: `{command}` for {self._seat(st.current_player)} needs `view {self._seat(st.current_player)}` "
                            "or `view all`; `step` or `auto` lets the random player choose")
        legal = self.move_texts()
        arg = self._card_names(arg)
        if not " ".join(arg.split()) and command == "play" and len(legal) == 1:
            return legal[0], st.legal_moves()[0]  # the only legal move: `play` alone makes it
        if not " ".join(arg.split()):
            named = [m for m in legal if HIDDEN not in m]  # `play ??` would name no one move
            example = f" or `{command} {named[0]}`" if named else ""
            raise ReplError(f"which move? for example `{command} 1`{example} (`moves` lists them)")
        candidates = self.move_texts(legal_only=False)
        try:
            text = read_move(arg, legal, candidates, [c.name for c in self.game.cards], prefer_legal=command == "play")
        except NoSuchMove as err:
            raise ReplError(str(err)) from None
        position = listed_position(arg, legal, candidates)
        if position is not None:
            return text, self.listed_moves()[position - 1]
        on_offer = command == "play" and text in legal
        listed, shown = (self.listed_moves(), legal) if on_offer else (self.listed_moves(False), candidates)
        alike = [m for m, seen in zip(listed, shown) if seen == text]
        if len(alike) > 1:  # moves naming cards this view cannot see read alike: only a number tells them apart
            raise ReplError(f"{len(alike)} moves read `{text}`; choose one by its number (`moves` numbers them)")
        if alike:
            return text, alike[0]
        try:  # the items of a several-item choice in another order
            move = st.parse_move(text)
        except IllegalMove:
            return text, text
        seen = dict(zip((m.text for m in self.listed_moves(False)), candidates)).get(move.text)
        return (seen, move) if seen == move.text else (text, text)

    def _not_a_move(self, text: str) -> list[str]:
        """Why `text` is no move here, in the table's terms, with the nearest legal move."""
        st = self.state
        actor = st.current_player
        view = st.view(self.perspective)
        named = [m for m in self.move_texts() if HIDDEN not in m]  # a move reading `play ??` names nothing to type
        return why_not(text, named, self.move_texts(False),
                       [c.name for c in self.game.cards], view, None if actor is None else who(actor, self._names))

    def _cmd_play(self, rest: str):
        text, move = self._resolve(rest, "play")
        st = self.state
        if st.fault is None and not st.is_over and isinstance(move, str):
            reason = st.explain(text, viewer=self.perspective)
            if reason.legal is None:  # it names a card this view cannot see among moves that do
                raise ReplError(f"`{text}` {reason.reason}")
            hints = self._not_a_move(text)
            # a card that is elsewhere says it all; else the engine's reason lists the choices,
            # saying itself what it is about (`wears` is not an option here; ...)
            head = f"`{text}` is not a move here"
            if not hints or hints[0].startswith("did you mean"):
                head = reason.reason if reason.reason.startswith("`") else f"{head}: {reason.reason}"
            raise ReplError(compact_listing("\n".join([head] + [f"  = help: {line}" for line in hints])))
        return self._apply(move, trace=self.tracing)

    def _apply(self, move, trace: bool, report_end: bool = True, pausing: bool = True, remark: str = "") -> list[str]:
        """Apply a move (a Move of this decision, or a text) to a copy of the position; only a
        legal move reaches the timeline.  `remark` follows the move's line."""
        current = self.state
        if current.fault is not None:
            raise ReplError("the game stopped with an error; `undo` goes back to a position before it")
        actor = current.current_player
        following = current.clone()
        following.pause_at = self.pausing if pausing else frozenset()
        text = move.text if not isinstance(move, str) else move
        events: list = []
        following.set_tracer(events.append)
        fault = None
        try:
            following.apply(text)
        except IllegalMove as err:
            raise ReplError(self._illegal_text(err.explanation, move)) from None
        except GameFault as err:
            fault = str(err)
        finally:
            following.set_tracer(None)
        if fault is None and following.fault is not None:  # a limit the move reached (the decisions)
            fault = self.game.render_diagnostic(following.fault)
        move = len(following.history)
        lines = [self._move_line(following, move) + remark]
        lines += self._event_lines(following, move, always=trace)
        lines += self._push(following, actor, after_move(text, following.pause_at, True))
        self.last_events = events
        if fault is not None:
            self.failed = True
            lines.append(fault)
        elif (following.is_over or following.paused) and report_end:
            lines.append(self._status_line())
        return lines

    def _move_line(self, st, step: int) -> str:
        """`3. P1: play 7C` for move `step`, as the current view saw it."""
        for e in self._observed(st, step):
            if e.kind == "decision":
                return f"{step}. {who(e.actor, self._names)}: {e.text}"
        return f"{step}. {st.history[step - 1]}"

    def _push(self, state, actor, step) -> list[str]:
        """Add the position after the current one.  Unless it is the next undone one made again
        (`undo`, then `auto` replays the same moves), the undone ones after it are kept as a
        branch (`branch N` goes back to them), and a note says so.  `step` makes it again from
        the current one (timeline.after_move, after_step)."""
        following = self._pos + 1
        self.unsaved_steps += 1
        if following < len(self._timeline) and _same_position(self._timeline[following], state):
            self._pos = following  # the undone step made again: the ones after it stay reachable
            return []
        left = len(self._timeline) - following
        note = []
        if left:
            ident = self._keep_branch(self._timeline)
            unit = self._unit(self._pos, len(self._timeline) - 1)
            undone = f"{plural(left, 'undone ' + unit)} after step {self._pos} are" if left > 1 else \
                f"undone {unit} after step {self._pos} is"
            note = [f"note: the {undone} kept as branch {ident} (`branch {ident}` goes back to "
                    f"{'them' if left > 1 else 'it'})"]
            self._timeline = self._timeline.prefix(following)
        self._timeline.append(state, actor, step)
        self._pos += 1
        return note

    def _keep_branch(self, timeline) -> int:
        ident = self._next_id["branch"]
        self._next_id["branch"] += 1
        self._branches[ident] = timeline
        return ident

    # ---- branches: the lines of play left by a move made after `undo`
    def _cmd_branch(self, rest: str):
        if not rest:
            if not self._branches:
                return "no branches: a move made after `undo` keeps the undone ones as one"
            return [self._branch_line(ident, line) for ident, line in self._branches.items()]
        ident = whole_number(rest)
        if ident not in self._branches:
            known = f"the branches are {', '.join(map(str, self._branches))}" if self._branches else "there are none"
            raise ReplError(f"no branch `{rest}`; {known}")
        line = self._branches.pop(ident)
        fork = line.shared(self._timeline) - 1
        out = [f"branch {ident}: back at step {fork}, where it leaves this line; its "
               f"{plural(len(line) - 1 - fork, self._unit_of(line, fork))} lie ahead (`redo`, or `goto {len(line) - 1}`)"]
        if len(self._timeline) - 1 > fork:
            kept = self._keep_branch(self._timeline)
            left = len(self._timeline) - 1 - fork
            out.append(f"this line's {plural(left, self._unit(fork, len(self._timeline) - 1))} after step {fork} "
                       f"{'are' if left > 1 else 'is'} kept as branch {kept}")
        self._timeline, self._pos = line, fork
        return out + [self._status_line()]

    def _branch_line(self, ident: int, line) -> str:
        """`1. 3 moves after step 2: 3. P2: play 5D, ...`: a branch as `branch` lists it."""
        fork = line.shared(self._timeline) - 1
        ahead = len(line) - 1 - fork
        first = line[fork + 1]
        told = self._move_line(first, len(first.history)) if line.actors[fork] is not None else "a step"
        return f"{ident}. {plural(ahead, self._unit_of(line, fork))} after step {fork}: {told}" + \
            (", ..." if ahead > 1 else "")

    @staticmethod
    def _unit_of(line, fork: int) -> str:
        """`move`, or `step` when the steps of `line` after position `fork` are not all moves."""
        return "move" if all(actor is not None for actor in line.actors[fork:]) else "step"

    def _illegal_text(self, explanation, move) -> str:
        st = self.state
        actor = st.current_player
        if self.perspective != "all":  # what decided it, as far as this view may know
            seen = st.explain(move, viewer=self.perspective)
            explanation = seen if seen.legal is not None else attrs.evolve(explanation, move=seen.move, rules=())
        head = f"illegal move `{explanation.move}`"
        if actor is not None:
            head += f" ({who(actor, self._names)} to act)"
        failing = explanation.failing
        plain = bool(failing) and all(rule.plain for rule in failing)  # as players say it: 6H does not beat 8H
        said = "; ".join(rule.plain for rule in failing) if plain else explanation.verdict.partition(": ")[2]
        lines = [f"{head}: {compact_listing(said)}"]
        for rule in failing:
            lines.append(f"  rule {rule.name} ({rule.span.path}:{rule.span.line})"
                         + (f": {rule.doc}" if rule.doc else ""))
            if plain and rule.where is not None:
                lines.append(f"    {rule.verdict}  [{rule.where.path}:{rule.where.line}]")
        if explanation.rules:
            lines.append(f"  = help: `why {explanation.move}` shows the rule-by-rule evaluation")
        lines.append("  nothing changed")
        return "\n".join(lines)

    # ---- time travel
    def _cmd_undo(self, rest: str):
        count = self._count(rest, "undo")
        if self._pos == 0:
            raise ReplError("nothing to undo: this is the start of the game")
        if count > self._pos:
            raise ReplError(f"only {plural(self._pos, self._unit(0, self._pos))} can be undone")
        self._pos -= count
        return [f"undid {plural(count, self._unit(self._pos, self._pos + count))}", self._status_line()]

    def _unit(self, start: int, end: int) -> str:
        """`move`, or `step` when steps `start + 1`..`end` of the timeline are not all moves."""
        return "move" if all(actor is not None for actor in self._timeline.actors[start:end]) else "step"

    def _cmd_redo(self, rest: str):
        self._no_args("redo", rest)
        if self._pos + 1 >= len(self._timeline):
            raise ReplError("nothing to redo")
        before, self._pos = self.state, self._pos + 1
        st = self.state
        step = len(st.history)
        # what the step caused, as `play` and `step` show it: the log lines, every event with `trace on`
        if self._timeline.actors[self._pos - 1] is None:
            done = len(self._observed(before, step)) if len(before.history) == step else 0
            return ["redid a step"] + self._event_lines(st, step, self.tracing, skip=done) + [self._status_line()]
        return [f"redid {self._move_line(st, step)}"] + self._event_lines(st, step, self.tracing) + \
            [self._status_line()]

    def _cmd_goto(self, rest: str):
        target = whole_number(rest)
        if target is None:
            raise ReplError("usage: goto STEP, a whole number (0 is the start)")
        if target >= len(self._timeline):
            raise ReplError(f"there is no step {rest}; steps run from 0 to {len(self._timeline) - 1}")
        self._pos = target
        return self._status_line()

    def _count(self, rest: str, name: str) -> int:
        if not rest:
            return 1
        count = whole_number(rest)
        if not count:
            raise ReplError(f"usage: {name} [N], N a whole number from 1")
        return count
