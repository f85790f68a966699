"""The session's game moving on by itself: step, run, pause, auto and seat, and the breakpoints that stop auto."""

from __future__ import annotations

from cardgame import interpreter
from cardgame.interpreter import PAUSES, TABLE, GameFault

from .input import whole_number
from .move_runs import rows_of
from .refusals import ReplError
from .results import plural, who
from .timeline import after_step
from .trace import grouped

# One `auto` or `step N` makes at most this many steps, then says so: its output comes when it
# ends, and a game still going after thousands of moves may never end (the longest shipped games
# take about 2,000; the engine gives up at 100,000 decisions, minutes away at a prompt).
MOST_STEPS_PER_RUN = 5_000


def _run_cap(command: str) -> str:
    return (f"one run makes at most {MOST_STEPS_PER_RUN} steps; `{command}` again goes on (a game this long "
            "may never end: `cardgame lint FILE` says)")


class RunningCommands:
    """step, run and auto move the game on without a typed move; seat and pause say who plays and where it stops."""

    # ---- agents
    def _cmd_seat(self, rest: str):
        args = rest.split()
        if len(args) > 2:
            raise ReplError("usage: seat [P [human|random|greedy|ismcts|FILE.py:Name]], for example `seat P1 human` "
                            "or `seat P1 ismcts:iterations=100`")
        if not args:
            return [self._seat_line(seat) for seat in sorted(self.seats, key=lambda s: (s == TABLE, s))]
        seat = TABLE if args[0] == "table" else self._parse_seat(args[0])
        if len(args) == 2:
            if args[1] not in ("human", "random"):
                if seat == TABLE:
                    raise ReplError("the table is played by a person or at random: `seat table random`")
                self._agent_spec(args[1])
            self.seats[seat] = args[1]
        return self._seat_line(seat)

    @staticmethod
    def _agent_spec(text: str):
        try:
            return interpreter.parse_agent(text)
        except interpreter.ScriptError as err:
            d = err.diagnostics[0]
            raise ReplError(f"{d.message}" + (f"\n  = help: {d.hint}" if d.hint else "")) from None

    def _seat_line(self, seat) -> str:
        agent = self.seats.get(seat, "random")
        played = {"human": "a person", "random": "the random agent"}.get(agent, f"the agent `{agent}`")
        return f"{who(seat, self._names)} is played by {played}"

    def _agent_move(self, st, every_seat: bool = False) -> str:
        # The choice depends only on the seed and the step, so an undone `auto` replays the same.
        seed = self.seed * 1_000_003 + len(st.history) + 1
        actor = st.current_player
        spec = self.seats.get(actor, "random") if actor != TABLE and not every_seat else "random"
        if spec in ("random", "human"):
            return interpreter.RandomAgent(seed).choose(st.legal_moves()).text
        agent = interpreter.make_agent(self._agent_spec(spec), seed)
        picked = agent.act(st.seat(actor))
        index = picked if type(picked) is int else picked.index
        return st.moves_for(actor)[index].text

    def _cmd_hint(self, rest: str):
        st = self.state
        actor = st.current_player
        if st.is_over or st.fault is not None or actor is None:
            raise ReplError("no decision is waiting: nothing to hint")
        if actor == TABLE:
            raise ReplError("the table decides here: a hint is for a seat's decision")
        if not self._sees_choices(st):
            viewer = "the spectator" if self.perspective is None else f"P{self.perspective}"
            raise ReplError(f"a hint reads P{actor}'s cards, which {viewer} cannot see\n"
                            f"  = help: `view P{actor}` (or `view all`) first")
        spec_text = rest.strip() or self.seats.get(actor, "random")
        if spec_text in ("human", "random"):
            spec_text = "ismcts"
        spec = self._agent_spec(spec_text)
        agent = interpreter.make_agent(spec, self.seed * 1_000_003 + len(st.history) + 1)
        analyse = getattr(agent, "analyse", None)
        if analyse is None:
            raise ReplError(f"the agent `{spec.text}` cannot say why it plays what it plays (it has no "
                            "analyse(seat))\n  = help: `hint ismcts` or `hint greedy`")
        choices = analyse(st.seat(actor))
        value = "mean win share" if spec.name == "ismcts" else "score margin" if spec.name == "greedy" else "value"
        lines = [f"{spec.text} would play `{choices[0].text}` for P{actor}"]
        if len(choices) == 1 and not choices[0].visits:
            return lines[0] + " (its only legal move)"
        width = max(len(c.text) for c in choices)
        lines += [f"  {c.text:<{width}}  visits {c.visits:>5}  {value} {c.value:.3f}" for c in choices]
        return lines

    def _only_move(self, st):
        """The one legal move of the decision waiting, when it has only one: nothing to choose."""
        legal = st.legal_moves()
        return legal[0] if len(legal) == 1 else None

    def _plays_for_person(self, st, every_seat: bool = False) -> bool:
        """Is the seat to act played by a person (whose only move may still be made for them)?"""
        actor = st.current_player
        return actor != TABLE and not every_seat and self.seats.get(actor) == "human"

    def _make_choice(self, st, every_seat: bool = False, **apply) -> list[str]:
        """Make the move `auto` or `step` makes: a person's only legal move, said to be so (when
        the view may see their choices); else the random agent's."""
        if self._plays_for_person(st, every_seat):
            remark = " (the only legal move)" if self._sees_choices(st) else ""
            return self._apply(self._only_move(st), remark=remark, **apply)
        return self._apply(self._agent_move(st, every_seat), **apply)

    # ---- stepping and running
    def _cmd_step(self, rest: str):
        arg = rest.strip()
        count = whole_number(arg)
        if arg and arg != "phase" and not (count and count >= 1):
            raise ReplError("usage: step [N|phase], for example `step`, `step 10` or `step phase`")
        count = count or 1
        lines: list[str] = []
        whens = {text: self._when_value(text) for kind, text in self.breakpoints.values() if kind == "when"}
        with self._making_moves():
            for done in range(count):
                st = self.state
                stopped = self._step_stop(st, done, count)
                if stopped is not None:
                    lines.append(stopped)
                    break
                if st.fault is not None or st.is_over:
                    if done:
                        break
                    raise ReplError("the game is over" if st.fault is None else "the game stopped with an error")
                before = st.phase
                if st.paused:
                    lines = self._flush(lines + self._go_on("phase" if arg == "phase" else None))
                else:
                    if arg == "phase":
                        raise ReplError(f"{who(st.current_player, self._names)} is to act: `step phase` goes on from a pause "
                                        "point\n  = help: `step` lets the random player move; `pause` says where "
                                        "the game pauses")
                    if st.current_player == TABLE and self.seats.get(TABLE) != "random":
                        return lines + self._table_stop(st)
                    if not st.legal_moves():
                        raise ReplError("no move is legal here")
                    if self._plays_for_person(st) and self._only_move(st) is None:
                        if not done:
                            raise ReplError(self._person_to_play(st.current_player))
                        lines.append(f"stopped after {plural(done, 'step')} of {count}: {self._seat(st.current_player)} is "
                                     "played by a person (`play MOVE` makes their move)")
                        break
                    lines = self._flush(lines + self._make_choice(st, trace=True, report_end=False))
                stop = self._after_move_break(before, whens)
                if stop is not None and done + 1 < count:  # breakpoints stop `step N` as they stop `auto`
                    lines.append(f"stopped after {plural(done + 1, 'step')} of {count}: {stop}")
                    break
        lines.append(self._status_line())
        return lines

    def _step_stop(self, st, done: int, count: int) -> str | None:
        """Why `step N` stops before its next step (after `done` of `count`): the run's cap,
        Ctrl-C, or a rule's breakpoint at the decision reached; None to go on."""
        if done >= MOST_STEPS_PER_RUN:
            return f"stopped after {plural(done, 'step')} of {count}: {_run_cap('step')}"
        if self.stop_requested:
            return f"stopped after {plural(done, 'step')} of {count}: interrupted (Ctrl-C)"
        stop = self._rule_break(st) if done and st.current_player is not None else None
        return f"stopped after {plural(done, 'step')} of {count}: {stop}" if stop is not None else None

    def _person_to_play(self, seat) -> str:
        seat = self._seat(seat)
        return (f"{seat} is played by a person: `step` makes no random move for them\n"
                f"  = help: `play MOVE` makes {seat}'s move (`moves` lists them); `seat {seat} random` lets "
                "`step` and `auto` choose")

    def _cmd_run(self, rest: str):
        self._no_args("run", rest)
        st = self.state
        if not st.paused:
            state = "over" if st.is_over else "stopped with an error" if st.fault is not None else \
                f"waiting for {who(st.current_player, self._names)}"
            raise ReplError(f"nothing to run: the game is {state}, not paused\n"
                            "  = help: `auto` plays moves; `step` makes one")
        lines = self._go_on((), everything=self.tracing)
        lines.append(self._status_line())
        return lines

    def _cmd_pause(self, rest: str):
        words = rest.split()
        if words == ["off"]:
            self.pausing = frozenset()
        elif words == ["all"]:
            self.pausing = frozenset(PAUSES)
        elif words:
            if any(w not in PAUSES for w in words):
                raise ReplError("usage: pause [chance] [phase] | all | off, for example `pause chance`")
            self.pausing = frozenset(words)
        if not self.pausing:
            return "the game pauses nowhere between decisions (`pause all` stops it at draws and phases)"
        where = [w for w in ("chance", "phase") if w in self.pausing]
        text = {"chance": "before each chance event", "phase": "at the start of each phase"}
        return "the game pauses " + " and ".join(text[w] for w in where) + " (`step` goes on, `run` runs through)"

    def _go_on(self, until, everything: bool = True) -> list[str]:
        """Step a paused game on (to the next pause point `until` names, or the session's),
        on a copy; the step's events (`everything`, else its log lines) are shown as the
        current view observed them."""
        current = self.state
        following = current.clone()
        following.pause_at = self.pausing
        step = len(current.history)  # a step between pause points makes no move: its events are this move's
        seen = len(current.observed_events(self.perspective, step))
        events: list = []
        following.set_tracer(events.append)
        fault = None
        try:
            following.step(until=until)
        except GameFault as err:
            fault = str(err)
        finally:
            following.set_tracer(None)
        dropped = self._push(following, None, after_step(until, self.pausing, True))
        self.last_events = events
        observed = [e for e in following.observed_events(self.perspective, step)[seen:]
                    if e.kind != "decision" and (everything or e.kind == "log")]
        lines = [f"    {text}" + (f"  [{span.path}:{span.line}]" if span is not None and kind != "log" else "")
                 for kind, text, span in grouped(observed, self._statement)] + dropped
        if fault is not None:
            self.failed = True
            lines.append(fault)
        return lines

    def _table_stop(self, st) -> list[str]:
        prompt = st.view(self.perspective)["prompt"]
        lines = [f"the table decides: {prompt}" if prompt else "the table decides"]
        for row in rows_of([(i, text, "") for i, text in enumerate(self.move_texts(), 1)]):
            label = row.first if row.count == 1 else f"{row.first}-{row.last}"
            lines.append(f"  {label}. {row.text}{self._card_texts(row.text)}")
        lines.append("  = help: choose with `play NUMBER`")
        return lines

    # ---- auto, and the breakpoints that stop it
    def _cmd_auto(self, rest: str):
        args = rest.split()
        every_seat = False
        if "--agent" in args:
            i = args.index("--agent")
            if i + 1 >= len(args):
                raise ReplError("`--agent` needs a name: `--agent random`")
            if args[i + 1] != "random":
                raise ReplError(f"unknown agent `{args[i + 1]}`; the agents are: random")
            every_seat = True
            del args[i:i + 2]
        if len(args) > 1:
            raise ReplError("usage: auto [N|end] [--agent random]")
        limit = None
        if args and args[0] != "end":
            limit = whole_number(args[0])
            if not limit:
                raise ReplError(f"`{args[0]}` is not a number of moves; write `auto 10` or `auto end`")
        return self._auto(limit, every_seat)

    def _auto(self, limit, every_seat) -> list[str]:
        with self._making_moves():
            return self._auto_moves(limit, every_seat)

    def _auto_moves(self, limit, every_seat) -> list[str]:
        lines: list[str] = []
        start = self._pos
        whens = {text: self._when_value(text) for kind, text in self.breakpoints.values() if kind == "when"}
        played = 0
        reason = None
        try:
            while reason is None:
                if self.stop_requested:
                    reason = "interrupted (Ctrl-C)"
                    break
                st = self.state
                if st.fault is not None:
                    reason = "the game stopped with an error"
                    break
                if st.is_over:
                    reason = "the game is over"
                    break
                if limit is not None and played >= limit:
                    reason = "done"
                    break
                if played >= MOST_STEPS_PER_RUN:
                    reason = _run_cap("auto")
                    break
                actor = st.current_player
                if played and (stop := self._rule_break(st)):
                    reason = stop
                    break
                if actor == TABLE and self.seats.get(TABLE) != "random":
                    lines += self._table_stop(st)
                    reason = "a table decision is yours to make"
                    break
                if actor != TABLE and not every_seat and self.seats.get(actor) == "human" and \
                        self._only_move(st) is None:
                    reason = f"{self._seat(actor)} is played by a person (`seat {self._seat(actor)} random` lets auto play it)"
                    break
                if st.paused:  # auto runs through the pause points, to the next decision
                    lines = self._flush(lines + self._go_on((), everything=self.tracing))
                    continue
                if not st.legal_moves():
                    reason = "no move is legal"
                    break
                before = st.phase
                lines = self._flush(lines + self._make_choice(st, every_seat, trace=self.tracing, report_end=False,
                                                              pausing=False))
                played += 1
                reason = self._after_move_break(before, whens)
        except KeyboardInterrupt:
            reason = "interrupted (Ctrl-C)"
        if reason == "done":
            lines.append(f"auto played {plural(played, 'move')}")
        elif not played and self._pos > start:  # it ran on from a pause point, and no one was asked
            lines.append(f"auto ran on from the pause point with no move to make and stopped: {reason}")
        else:
            lines.append(f"auto stopped after {plural(played, 'move')}: {reason}")
        lines.append(self._status_line())
        return lines

    def _rule_break(self, st) -> str | None:
        names = [text for kind, text in self.breakpoints.values() if kind == "rule"]
        if not names or not self._sees_choices(st):  # another seat's choices are never judged aloud
            return None
        legal = {m.text for m in st.legal_moves()}
        forbidden: dict = {}
        for move, text in zip(self.listed_moves(False), self.move_texts(legal_only=False)):
            if move.text in legal:
                continue
            for rule in st.explain(move, viewer=self.perspective).failing:
                forbidden.setdefault(rule.name, []).append(text)
        for name in names:
            if name in forbidden:
                moves = forbidden[name]
                shown = ", ".join(moves[:6]) + (", ..." if len(moves) > 6 else "")
                return (f"breakpoint: rule {name} forbids {plural(len(moves), 'move')} "
                        f"to {who(st.current_player, self._names)} ({shown})")
        return None

    def _when_value(self, text: str):
        value, _ = self.state.evaluate(text, expect="bool", viewer=self.perspective)
        return value

    def _after_move_break(self, before_phase, whens) -> str | None:
        st = self.state
        entered = [e.text.partition(" ")[2] for e in self.last_events if e.kind == "phase"]
        if st.phase != before_phase:
            entered.append(st.phase)
        for kind, text in self.breakpoints.values():
            if kind == "phase" and text in entered:
                if st.phase == text:
                    return f"breakpoint: the game entered phase {text}"
                # A phase without a decision runs within one move: say so, not "entered".
                return (f"breakpoint: phase {text} ran during move {len(st.history)} (it asks no one anything, "
                        f"so the position is after it: phase {st.phase or '-'})")
        for text, old in whens.items():
            value, diags = st.evaluate(text, expect="bool", viewer=self.perspective)
            whens[text] = value
            if value is None:
                message = diags[0].message if diags else "no value"
                return f"breakpoint: `{text}` could not be evaluated: {message}"
            if value == "true" and old != "true":
                return f"breakpoint: `{text}` became true"
        return None
