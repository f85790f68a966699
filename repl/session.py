"""The REPL's session: commands, the game's timeline, perspective, seats, watches and breakpoints.

Plain Python over the public engine API (`cardgame.interpreter`), with no prompt-toolkit: each
command line goes in through `Session.execute` and its whole output comes back as text, so the
same session runs under prompt-toolkit, from a pipe, or in a test.

Session keeps the state, reads a command line and dispatches it to its `_cmd_NAME` method; the
commands come in groups, a module each, whose classes Session inherits: session_help (help),
session_games (load, new, options, save, open), session_moves (moves, play, undo, redo, goto),
session_running (step, run, pause, auto, seat) and session_inspect (view, state, show, log, why,
trace, eval, watches, breakpoints, rules, source).  What several groups use (the status line,
the cards' names, what the current view saw, a seat read from the line) stays here.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import re

from cardgame import interpreter
from cardgame.interpreter import TABLE, GameFault, ScriptError

from .commands import ALIASES, BY_NAME, COMMANDS, SHOWN_BY
from .input import NoSuchMove, lines_of, read_move, whole_number
from .refusals import ReplDiagnostics, ReplError
from .results import declares_score, plural, scores_text, who, winners_text
from .session_games import GameCommands
from .session_help import HelpCommands
from .session_inspect import InspectCommands
from .session_moves import MoveCommands
from .session_running import RunningCommands
from .table import Deck, show_value, snapshot, zone_words
from .trace import grouped

MAX_LINE = interpreter.limits.MAX_SCRIPT_BYTES  # characters in one command line, as in a whole script


# A line copied with its prompt, from the terminal (`mygame 3 P0 [all]> play 9D`, `cardgame> `)
# or from the docs' sessions (`> play 9D`): the command is what follows it.
_PASTED_PROMPT = re.compile(r"^(?:>|cardgame>|\S+ \d+ \S+ \[\w+\]>)(?: +|$)")


# A watch naming a zone or a variable alone (`hand[P0]`, `prize`, `total`), a seat or team, and a
# word of a value (a card's name, to draw).
_ZONE_OR_VARIABLE = re.compile(r"(\w+)(?:\[(\w+)\])?")
_SEAT = re.compile(r"[PT]\d+")
_NAME_WORD = re.compile(r"[^\s\[\](){},:\"]+")

# A card in a move drawn with a suit symbol, as `state` draws it (`10♦`), maybe with the mark of
# a face-up card after it (`K♥*`).
_MOVE_CARD_WORD = re.compile(r"(?<![\w.])(\w*[♣♦♥♠])\*?(?![\w.])")


class Session(HelpCommands, GameCommands, MoveCommands, RunningCommands, InspectCommands):
    """One REPL session.

    Attributes:
        game: the loaded script (interpreter.Game), or None.
        perspective: "all", None for a spectator, or a seat number.
        tracing: whether applied moves print their rules, effects and chance events.
        seats: seat number (or TABLE) -> "random" or "human", for `auto`.
        watches: id -> expression text, shown in the toolbar; an id never changes or returns.
        breakpoints: id -> ("rule" | "phase" | "when", text), which stop `auto`.
        pausing: the pause points ("chance", "phase") where the game stops between decisions,
            for `step`: both for a game that asks no decision, none for others (`pause`).
        width: the terminal's width, which help and the table fit themselves to.
        done: set by `quit`.
    """

    def __init__(self):
        self.game = None
        self.players: int | None = None
        self.seed = 0
        self.options: dict = {}
        self.perspective = "all"
        self.tracing = False
        self.seats: dict = {}
        self.watches: dict[int, str] = {}
        self.breakpoints: dict[int, tuple[str, str]] = {}
        self.pausing: frozenset = frozenset()
        self._next_id = {"watch": 1, "breakpoint": 1, "branch": 1}
        self.width = 80
        self.symbols = False  # suit symbols in the table (a terminal without --ascii)
        self._deck = None  # (game, repl.table.Deck) for drawing its cards
        self.done = False
        self._timeline = None  # Timeline: the states after 0, 1, 2... steps (moves, or steps between pauses)
        self._pos = 0
        self._branches: dict = {}  # id -> a Timeline left by a move made after `undo` (`branch`)
        self.unsaved_steps = 0  # steps made since the game was started, opened or saved
        # `quit` asks this (a front end at a terminal sets it) before it throws away unsaved
        # work: confirm(question) -> True to go on; None: nobody to ask (a pipe), it quits
        self.confirm = None
        self.failed = False  # did any command fail? (the exit status of a piped session)
        self.last_failed = False  # did the last command fail? (a pasted block stops there)
        self.last_events: list = []  # the trace events of the last move applied
        self._moving = False  # is `auto` or `step N` making moves? (Ctrl-C then stops it between two)
        self.stop_requested = False  # Ctrl-C came while it was
        # where `auto` and `step N` print each move as it is made (a front end's print: a long run
        # would look hung with nothing shown until its end); None: it all comes back at the end
        self.stream = None
        self._block: list[str] = []  # a pasted block's echoes and outputs not printed yet
        self._choices_known = None  # (position, view, whether that view may read its decision)
        self._last_why = None  # (where it was asked, the move typed, --expand names): `why more`, `why full`
        self.pageable = False  # the last output may go through a pager when it is longer than the screen

    # ---- reading the session (for the prompt, toolbar and completer too)
    @property
    def state(self):
        """The current position (do not apply moves to it: use `execute`)."""
        return self._timeline[self._pos] if self._timeline is not None else None

    @property
    def step(self) -> int:
        return self._pos

    def prompt_text(self) -> str:
        st = self.state
        if st is None:
            return "cardgame> "
        name = os.path.splitext(os.path.basename(self.game.path))[0]
        return f"{name} {self._pos} {self._to_act(st)} [{self._view_name()}]> "

    def _to_act(self, st) -> str:
        if st.fault is not None:
            return "fault"
        if st.is_over:
            return "over"
        if st.paused:
            return "paused"
        return who(st.current_player, self._names)

    def toolbar_items(self) -> list[tuple[str, str]]:
        """(label, text) pairs: game, step, phase, to act (or the status when no one is: `game
        over`, `paused`), scores, view and each watch."""
        st = self.state
        if st is None:
            return [("game", "none loaded (`load FILE`)")]
        to_act = self._to_act(st)
        if to_act in ("fault", "over", "paused"):  # no one to act: what the game is doing instead
            turn = ("status", {"fault": "stopped with an error", "over": "game over", "paused": "paused"}[to_act])
        else:
            turn = ("to act", to_act)
        items = [("game", self.game.title), ("step", str(self._pos)), ("phase", st.phase or "-"), turn]
        if declares_score(st):  # a game without a `score` has none to show, not "none"
            items.append(("scores", self._scores_text(st)))
        items.append(("view", self._view_name()))
        for text in self.watches.values():
            items.append((text, self._watch_value(text)))
        return items

    def _watch_value(self, text: str) -> str:
        """A watch's value drawn as the table draws it: a zone (`hand[P0]`) as its row of `state`,
        a per-player variable as `P0 0 · P1 5`, cards with their suit symbols (or texts)."""
        drawn = self._drawn_as_on_table(text)
        if drawn is not None:
            return drawn
        value, diags = self.state.evaluate(text, viewer=self.perspective)
        if value is not None:
            draw = self.deck().drawer(self.symbols)
            return _NAME_WORD.sub(lambda m: draw(m.group(0)), value) or '""'  # the empty text, seen
        return "hidden" if any(d.code == "E0710" for d in diags) else "error"

    def _drawn_as_on_table(self, text: str) -> str | None:
        """`text` drawn as `state` draws it, when it names a zone (one seat's, or every seat's of a
        per-player zone) or a per-player variable alone."""
        match = _ZONE_OR_VARIABLE.fullmatch(text.strip())
        if match is None:
            return None
        name, seat = match.groups()
        st = self.state
        if seat is not None:  # P2 or a seat's name, as the view names the seat
            number = interpreter.seat_from_text(self._names, seat, st.n)
            if number is None:
                return None
            seat = self._seat(number)
        table = snapshot(st, self.perspective, self._sees_choices(st), self._pos)
        zones, variables = table.view["zones"], table.view["vars"]
        per_seat = isinstance(zones.get(name), dict)
        if name in zones and per_seat == (seat is not None) and (seat is None or seat in zones[name]):
            words, _ = zone_words(table, self.deck(), name, seat, self.symbols)
            return self.deck().separator.join(words) if words else "empty"
        if name in zones and per_seat:  # every seat's, as the trick row of `state`: P0 9D · P1 - · P2 -
            rows = [(each, zone_words(table, self.deck(), name, each, self.symbols)[0]) for each in zones[name]]
            return " · ".join(f"{each} {self.deck().separator.join(words) if words else '-'}" for each, words in rows)
        value = variables.get(name)
        if seat is None and isinstance(value, dict) and all(_SEAT.fullmatch(k) or k in self._names for k in value):
            draw = self.deck().drawer(self.symbols)
            return " · ".join(f"{k} {show_value(v, draw)}" for k, v in value.items())
        return None

    def command_names(self) -> list[str]:
        return [c.name for c in COMMANDS]

    def move_texts(self, legal_only: bool = True) -> list[str]:
        """The moves as the current view may name them (a card it does not know reads ??), in
        the view's own order (`listed_moves`), and none of another seat's, whose choices would
        tell what it holds."""
        st = self.state
        if st is None or not self._sees_choices(st):
            return []
        return st.move_texts(self.perspective, legal_only)

    def listed_moves(self, legal_only: bool = True) -> list:
        """The moves `move_texts` reads, in the same order (the engine's Moves, to be made)."""
        st = self.state
        if st is None or not self._sees_choices(st):
            return []
        return st.moves_for(self.perspective, legal_only)

    def zone_names(self) -> list[str]:
        return [d.name for d in self.game.declarations if d.kind == "zone"] if self.game else []

    def rule_names(self) -> list[str]:
        return [r.name for r in self.game.rules] if self.game else []

    def phase_names(self) -> list[str]:
        return [d.name for d in self.game.declarations if d.kind == "phase"] if self.game else []

    def declaration_names(self) -> list[str]:
        """What `source` takes: the declarations' names, then the kinds a game has once."""
        named = self.game.declarations + self.game.once_declarations() if self.game else []
        return [d.name for d in named]

    def expression_names(self) -> list[str]:
        """The declared names an expression may use (a reaction is no value)."""
        return [d.name for d in self.game.declarations if d.kind != "reaction"] if self.game else []

    def ids(self, command: str) -> list[str]:
        """The numbers `unwatch`, `unbreak` or `branch` take: the watches', breakpoints' or branches' ids."""
        return [str(i) for i in {"unwatch": self.watches, "branch": self._branches}.get(command, self.breakpoints)]

    def definition_names(self) -> list[str]:
        """The script's definitions, which `why MOVE --expand NAME` opens."""
        return [d.name for d in self.game.declarations if d.kind == "define"] if self.game else []

    def builtin_names(self) -> list[str]:
        """The built-in functions and constants an expression may use (`count`, `players`)."""
        return self.game.builtin_names if self.game else []

    def field_names(self) -> list[str]:
        """What may follow a dot in an expression: card attributes, `name`, record fields."""
        return self.game.field_names if self.game else []

    def player_names(self) -> list[str]:
        st = self.state
        return [self._seat(seat) for seat in range(st.n)] if st is not None else []

    @property
    def _names(self) -> tuple:
        """The seats' names (`players 4 named N, E, S, W`), () when the script gives none."""
        return self.game.program.tables.seat_names if self.game is not None else ()

    def _seat(self, seat: int) -> str:
        """Seat `seat` as people read it: its name, or P0, P1..."""
        return interpreter.seat_label(self._names, seat)

    def option_names(self) -> list[str]:
        return [o.name for o in self.game.options] if self.game else []

    # ---- running commands
    def request_stop(self) -> bool:
        """Ctrl-C: a running `auto` or `step N` stops after the move in hand, so that every move
        made is shown and counted.  False when no such command is running: the caller then
        interrupts outright."""
        if self._moving:
            self.stop_requested = True
        return self._moving

    def _flush(self, lines: list[str]) -> list[str]:
        """Print `lines` now through `stream`, if the front end gave one (nothing is left to
        return then); else keep them for the command's output."""
        if self.stream is None or not lines:
            return lines
        self.stream("\n".join(self._block + [interpreter.printable("\n".join(lines))]))
        self._block.clear()  # a pasted block's lines so far came first
        return []

    @contextlib.contextmanager
    def _making_moves(self):
        """Around a command that makes moves one after another, each loop asking `stop_requested`."""
        self._moving, self.stop_requested = True, False
        try:
            yield
        finally:
            self._moving = False

    def execute_block(self, block: str) -> str:
        """Run a typed or pasted block line by line, stopping at the first line that fails.

        A single line runs as `execute` runs it; with several, each output follows its command
        (echoed as `> line`), and the lines not run are counted."""
        lines = lines_of(block)
        if len(lines) <= 1:
            return self.execute(lines[0] if lines else "")
        self.stop_requested = False
        self._block = out = []  # what `auto` streams follows what the block printed before it
        try:
            self._run_block(lines, out)
        finally:
            self._block = []
        return "\n".join(out)

    def _run_block(self, lines: list[str], out: list[str]) -> None:
        for i, line in enumerate(lines):
            out.append(f"> {_PASTED_PROMPT.sub('', line.strip(), count=1)}")
            try:
                text = self.execute(line)
            except KeyboardInterrupt:
                text, self.stop_requested = "interrupted; nothing more was done", True
            if text:
                out.append(text)
            if self.done:
                break
            if self.last_failed or self.stop_requested:
                left = len(lines) - i - 1
                if left:
                    why = " (Ctrl-C)" if self.stop_requested else ""
                    out.append(f"stopped at line {i + 1} of the pasted block{why}; {plural(left, 'line')} not run")
                break

    def execute(self, line: str) -> str:
        """Run one command line; return everything it prints (no trailing newline), with any
        control or invisible character shown escaped (a replay file's text may hold them)."""
        return interpreter.printable(self._execute(line))

    def too_long(self, length: int) -> str:
        """The refusal of a command line of `length` characters, past MAX_LINE (a failed command)."""
        self.failed = self.last_failed = True
        return (f"error: a command is at most {MAX_LINE:,} characters, as long as a whole script; this one "
                f"has {length:,}\n  = help: put long expressions in the script, with `define`")

    def _execute(self, line: str) -> str:
        self.last_failed = False
        if len(line) > MAX_LINE:  # refused before it is read, let alone quoted back
            return self.too_long(len(line))
        line = _PASTED_PROMPT.sub("", line.strip(), count=1)
        if not line or line.startswith("#"):
            return ""
        word, _, rest = line.partition(" ")
        name = ALIASES.get(word, word)
        if name not in BY_NAME:
            name = ALIASES.get(word.lower(), word.lower())  # `PLAY 9D`, `Help`: case is no matter
        command = BY_NAME.get(name)
        failed_before, self.failed = self.failed, False
        self.pageable = False
        try:
            if command is None:
                raise ReplError(self._unknown_command(word, line))
            if command.needs_game and self.game is None:
                raise ReplError("no game loaded; `load FILE` loads one")
            out = getattr(self, f"_cmd_{name}")(rest.strip())
        except ReplDiagnostics as err:
            self.failed = True
            return str(err)
        except ReplError as err:
            self.failed = True
            return f"error: {err}"
        except ScriptError as err:
            self.failed = True
            return err.render()
        except GameFault as err:
            self.failed = True
            return str(err)
        except RecursionError:
            self.failed = True
            return "error: the expression is nested too deeply"
        finally:
            self.last_failed = self.failed
            self.failed = failed_before or self.failed
        if isinstance(out, list):
            out = "\n".join(out)
        return out or ""

    def _unknown_command(self, word: str, line: str) -> str:
        message = f"unknown command `{word}`"
        close = difflib.get_close_matches(word, [c.name for c in COMMANDS], n=1, cutoff=0.6)
        if self.state is not None:
            try:
                move = read_move(line, [], self.move_texts(legal_only=False))
            except NoSuchMove:
                move = None
            texts = self.move_texts(legal_only=False)
            if move in texts:
                return f"{message}\n  = help: to make that move, type `play {line}`"
            if any(t == word or t.startswith(word + " ") for t in texts):
                return (f"{message}\n  = help: `{word}` is a move of this decision: moves are typed after "
                        f"`play` (`play {line}`); `moves` lists them")
        if word.lower() in SHOWN_BY:
            return f"{message}\n  = help: {SHOWN_BY[word.lower()]}"
        if close:
            return f"{message}\n  = help: did you mean `{close[0]}`? (`help` lists the commands)"
        return f"{message}\n  = help: `help` lists the commands"

    def _cmd_quit(self, rest: str):
        lost = self.unsaved_work()
        if lost is not None and self.confirm is not None and not self.confirm(f"{lost}; quit anyway?"):
            return "not quitting (`save FILE` keeps the game)"
        self.done = True
        return ""

    def unsaved_work(self) -> str | None:
        """What quitting would throw away, said (`12 steps made since the game was last saved,
        and 1 branch`); None when nothing would be lost."""
        if self._timeline is None or not self.unsaved_steps:
            return None
        branches = f", and {plural(len(self._branches), 'branch')}" if self._branches else ""
        return f"{plural(self.unsaved_steps, 'step')} made since the game was last saved{branches}"

    # ---- what the command groups share: the view's name, the status line, the cards' names
    def _view_name(self) -> str:
        p = self.perspective
        return "all" if p == "all" else "spectator" if p is None else self._seat(p)

    def _scores_text(self, st) -> str:
        if st.fault is not None:
            return "-"
        try:
            text = scores_text(st.view(self.perspective), declares_score(st))
        except GameFault:
            return "-"
        return f"hidden from {self._view_name()}" if text is None else text

    def _status_line(self) -> str:
        st = self.state
        head = f"step {self._pos}, phase {st.phase or '-'}"
        if st.fault is not None:
            return f"{head}, the game stopped with an error"
        if st.paused:
            return f"{head}, paused {self._pause_place(st)}"
        view = st.view(self.perspective)
        if st.is_over:
            return f"{head}, game over, scores {self._scores_text(st)}, winners {winners_text(view) or 'hidden'}"
        actor = st.current_player
        prompt = f": {view['prompt']}" if view["prompt"] else ""
        only = self.move_texts() if self._sees_choices(st) else []
        if len(only) == 1:  # nothing to choose: offered as the default
            prompt += f" (the only legal move: `{only[0]}`; `play` alone makes it)"
        if actor == TABLE:
            return f"{head}, table decision{prompt}"
        return f"{head}, {self._seat(actor)} to act{prompt}"

    def _pause_place(self, st) -> str:
        """`before a chance event: let roll = ... (FILE:LINE)`, or `at the start of phase NAME`."""
        span = st.next_statement
        if st.paused == "phase":
            return f"at the start of phase {st.phase}"
        return f"before a chance event: {self._statement(span).strip()}  [{span.path}:{span.line}]"

    def deck(self) -> Deck:
        """How the loaded game's cards are drawn and sorted (built once per game)."""
        if self._deck is None or self._deck[0] is not self.game:
            self._deck = (self.game, Deck.of(self.game.cards, self.game.shown_orders, self.game.face_down_zones))
        return self._deck[1]

    def _card_names(self, typed: str, words=_MOVE_CARD_WORD) -> str:
        """`typed` with each card written as `state` draws it (`9♦`, `K♥*` copied from the table)
        named as the script names it (`9D`, `KH`)."""
        names = {glyph: name for name, glyph in self.deck().glyphs.items()}
        return words.sub(lambda m: names.get(m.group(1), m.group(0)), typed)

    # ---- what the current view may see (the engine's knowledge model decides: docs/language.md)
    def _observed(self, st, step: int) -> list:
        """The events of move `step` (0: the set-up) as the current view observed them."""
        return st.observed_events(self.perspective, step)

    def _sees_choices(self, st) -> bool:
        """May the current view list and judge the decision waiting (GameState.choices_known_to:
        its own, the table's, or one whose options all lie face up, as a dummy's)?"""
        actor = st.current_player
        if self.perspective == "all" or actor == TABLE or actor == self.perspective:
            return True
        known = self._choices_known
        if known is None or known[0] is not st or known[1] != self.perspective:
            known = self._choices_known = (st, self.perspective, st.choices_known_to(self.perspective))
        return known[2]

    def _event_lines(self, st, step: int, always: bool, skip: int = 0) -> list[str]:
        """The game's log lines of move `step`, and with `always` every traced event, as the
        current view observed them when they happened (after the first `skip` of them: a step
        between pause points goes on from where the one before it stopped)."""
        lines = []
        events = [e for e in self._observed(st, step)[skip:] if e.kind != "decision" and (always or e.kind == "log")]
        for kind, text, span in grouped(events, self._statement):
            where = f"  [{span.path}:{span.line}]" if span is not None and kind != "log" else ""
            lines.append(f"    {text}{where}")
        return lines

    def _statement(self, span) -> str:
        """The source from `span` to the end of its first line."""
        source = self.game.sources.get(span.path)
        return source.line(span.line)[span.column - 1:] if source is not None else ""

    # ---- small parsers
    def _parse_seat(self, text: str) -> int:
        st = self.state
        digits = text[1:] if text[:1] in ("P", "p") else text
        seat = whole_number(digits)
        if seat is None:  # a seat's name (`players 4 named N, E, S, W`), in any case
            seat = interpreter.seat_from_text(self._names, text, st.n)
        if seat is None or seat >= st.n:
            raise ReplError(f"no player `{text}`; the players are {', '.join(self.player_names())}")
        return seat

    @staticmethod
    def _no_args(name: str, rest: str):
        if rest:
            raise ReplError(f"`{name}` takes no arguments")
