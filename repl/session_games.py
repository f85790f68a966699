"""The session's game and its files: load, new and options start a game, save and open keep one."""

from __future__ import annotations

import os
import shlex

from cardgame import interpreter
from cardgame.interpreter import PAUSES, TABLE, GameFault, IllegalMove, ScriptError

from .refusals import ReplError
from .replay import ReplayError, is_replay, observation_data, read_replay, replay_data, write_replay
from .results import plural
from .session_help import wrap
from .table import show_value
from .timeline import Timeline, after_move, after_step


def _game_line(state, seed, options) -> str:
    """`3 players, seed 1, special=true`: how a started game is announced."""
    shown = "".join(f", {k}={show_value(v)}" for k, v in options.items())
    return f"{plural(state.n, 'player')}, seed {seed}{shown}"


def _default_pausing(game) -> frozenset:
    """A game that asks no decision is stepped through its chance events and phases; others
    pause nowhere unless asked (`pause`)."""
    return frozenset() if any(row["decisions"] for row in game.state_table()) else frozenset(PAUSES)


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


class GameCommands:
    """load, new and options start a game of a script; save and open write and restore replays."""

    # ---- loading and starting
    def start(self, path: str, players: int | None = None, seed: int = 0, options: dict | None = None) -> str:
        """Load a script and start a game (the command line's FILE); errors come back as text."""
        try:
            return interpreter.printable("\n".join(self._load(path, players, seed, options or {})))
        except ScriptError as err:
            self.failed = True
            return err.render()
        except ReplError as err:
            self.failed = True
            return f"error: {err}"

    def _load(self, path, players, seed, raw_options) -> list[str]:
        if not path.endswith(".cardgame") and is_replay(path):
            raise ReplError(f"`{path}` is a replay file (saved by `save`), not a script\n"
                            f"  = help: `open {path}` restores its game")
        game = interpreter.load(path)
        options = game.read_options(raw_options)
        self.pausing = _default_pausing(game)
        state, events = self._new_state(game, players, seed, options)
        self.game, self.players, self.seed, self.options = game, state.n, seed, options
        self.seats = {seat: "random" for seat in range(state.n)}
        self.seats[TABLE] = "human"
        self.watches, self.breakpoints = {}, {}
        self._next_id = {"watch": 1, "breakpoint": 1, "branch": 1}
        if self.perspective not in ("all", None) and self.perspective >= state.n:
            self.perspective = "all"
        self._reset(state)
        header = [f"loaded {game.title} from {path}: {_game_line(state, seed, options)}"]
        return self._started(header + [game.render_diagnostic(w) for w in game.warnings], state, events)

    def _started(self, lines, state, events):
        """The lines after a game starts: its set-up events, the status, a fault if it has one."""
        lines += self._event_lines(state, 0, always=self.tracing)
        lines.append(self._status_line())
        if state.fault is not None:
            self.failed = True
            lines.append(self.game.render_diagnostic(state.fault))
        return lines

    def _new_state(self, game, players, seed, options, pause_at=None):
        events: list = []
        state = game.new_game(players=players, seed=seed, options=options, tracer=events.append, record=True,
                              pause_at=self.pausing if pause_at is None else pause_at)
        state.set_tracer(None)
        return state, events

    def _reset(self, state, timeline=None):
        """A new game's timeline (`timeline`: one already made, an opened replay's), with no
        branch and nothing made since: nothing to lose yet."""
        self._timeline = timeline or Timeline(state)
        self._pos = len(self._timeline) - 1
        self._branches, self.unsaved_steps = {}, 0

    def _cmd_load(self, rest: str):
        args = self._split(rest)
        if len(args) != 1:
            raise ReplError("usage: load FILE")
        return self._load(args[0], None, self.seed, {})

    def _cmd_new(self, rest: str):
        players, seed, raw = self.players, self.seed, {}
        for item in self._split(rest):
            key, sep, value = item.partition("=")
            if not sep or not key or not value:
                raise ReplError(f"`{item}` is not NAME=VALUE\n  = help: for example `new seed=7 players=3`")
            if key in ("players", "seed"):
                try:
                    number = int(value)
                except ValueError:
                    raise ReplError(f"{key} must be a whole number, not `{value}`") from None
                if number < 0:
                    raise ReplError(f"{key} must not be negative")
                if key == "players":
                    players = number
                else:
                    seed = number
            else:
                raw[key] = value
        low, high = self.game.min_players, self.game.max_players
        if not low <= players <= high:
            takes = ("1 player" if high == 1 else f"{low} players") if low == high else f"{low} to {high} players"
            raise ReplError(f"this game takes {takes}, not {players}\n  = help: for example "
                            f"`new players={low}`")
        options = dict(self.options)
        options.update(self.game.read_options(raw))
        state, events = self._new_state(self.game, players, seed, options)
        self.players, self.seed, self.options = state.n, seed, options
        for seat in range(state.n):
            self.seats.setdefault(seat, "random")
        self.seats = {s: a for s, a in self.seats.items() if s == TABLE or s < state.n}
        if self.perspective not in ("all", None) and self.perspective >= state.n:
            self.perspective = "all"
        self._reset(state)
        return self._started([f"new game of {self.game.title}: {_game_line(state, seed, options)}"], state, events)

    def _cmd_options(self, rest: str):
        self._no_args("options", rest)
        infos = self.game.options
        if not infos:
            return "this game has no options"
        current = {**{o.name: o.default for o in infos}, **self.options}
        width = max(len(o.name) for o in infos)
        vwidth = max(len(show_value(current[o.name])) for o in infos)
        lines = []
        for o in infos:
            lines.append(f"{o.name:<{width}}  = {show_value(current[o.name]):<{vwidth}}   "
                         f"(allowed: {o.allowed}; default {show_value(o.default)})")
            if o.doc:
                lines += wrap(o.doc, self.width, " " * (width + 4))
        return lines

    # ---- replay files
    def _cmd_save(self, rest: str):
        args = self._split(rest)
        seat, export = None, args[:1] == ["--view"]
        if export:
            if len(args) != 3:
                raise ReplError("usage: save [--view PLAYER|spectator] FILE")
            seat = None if args[1] == "spectator" else self._parse_seat(args[1])
            args = args[2:]
        elif len(args) != 1:
            raise ReplError("usage: save [--view PLAYER|spectator] FILE")
        st = self.state
        if export:  # a seat's export: only what it knew; no seed, no hidden move
            data = observation_data(self.game, st, seat)
            done = f"saved what {data['viewer']} knows at step {self._pos} to {args[0]} (not a replay)"
        else:
            pause = (st.paused, st.pause_mark) if st.paused else None
            data = replay_data(self.game, args[0], st.n, self.seed, self.options, list(st.history), pause)
            done = (f"saved {plural(len(st.history), 'move')}" + (" and the pause point it stands at" if pause else "")
                    + f" to {args[0]} (a full record: it holds every hidden move; `save --view P1 FILE` "
                    "writes only what P1 knew)")
        try:
            write_replay(args[0], data)
        except ReplayError as err:
            raise ReplError(str(err)) from None
        if not export:
            self.unsaved_steps = 0
        return done

    def _cmd_open(self, rest: str):
        args = self._split(rest)
        force = "--force" in args
        args = [a for a in args if a != "--force"]
        if len(args) != 1:
            raise ReplError("usage: open FILE [--force]")
        try:
            replay = read_replay(args[0])
        except ReplayError as err:
            raise ReplError(str(err)) from None
        game, lines = self._replay_game(args[0], replay, force)
        options = game.read_options(replay.options)
        pausing = self.pausing if game is self.game else _default_pausing(game)
        # the moves are replayed straight through; after the last one (or from the start) the game
        # runs to its next decision, or pauses everywhere to step on to the pause point the replay names
        after = frozenset(PAUSES) if replay.pause else frozenset()
        state, _ = self._new_state(game, replay.players, replay.seed, options,
                                   pause_at=frozenset() if replay.moves else after)
        timeline = Timeline(state)
        for i, move in enumerate(replay.moves, 1):
            before = timeline[-1]
            following = before.clone()
            if i == len(replay.moves):
                following.pause_at = after
            step = after_move(move, following.pause_at, False)
            try:
                following.apply(move)
            except (IllegalMove, GameFault) as err:
                if isinstance(err, GameFault) and i == len(replay.moves):
                    # the saved game stopped with an error at its last move, as `play` left it:
                    # that is the position to restore (`undo` goes back before it)
                    timeline.append(following, before.current_player, step)
                    lines.append(f"note: the game stopped with an error at move {i}, `{move}`; "
                                 f"`undo` goes back before it")
                    lines.append(str(err))
                    break
                reason = err.explanation.reason if isinstance(err, IllegalMove) else str(err)
                if not force:
                    raise ReplError(f"move {i} of `{args[0]}`, `{move}`, cannot be played: {reason}") from None
                lines.append(f"warning: stopped at move {i}, `{move}`: {reason}")
                break
            timeline.append(following, before.current_player, step)
        else:
            if replay.pause:
                lines += self._step_to_pause(args[0], replay.pause, timeline)
        self.game, self.players, self.seed, self.options = game, state.n, replay.seed, options
        self.pausing = pausing
        self.seats = {seat: self.seats.get(seat, "random") for seat in range(state.n)}
        self.seats[TABLE] = "human"
        if self.perspective not in ("all", None) and self.perspective >= state.n:
            self.perspective = "all"
        self._reset(None, timeline)
        lines.append(f"opened {args[0]}: {game.title}, {plural(state.n, 'player')}, seed {replay.seed}, "
                     f"{plural(len(self.state.history), 'move')}")
        lines.append(self._status_line())
        fault = self.state.fault
        if fault is not None and not any(line.startswith("note: the game stopped") for line in lines):
            lines.append(self.game.render_diagnostic(fault))  # a limit reached after the last move
        return lines

    def _step_to_pause(self, path: str, pause: tuple, timeline: Timeline) -> list[str]:
        """Step the replayed game on from its last move to the pause point the replay saved,
        each step a position of the timeline (as `step` makes them); a warning if it is not there."""
        kind, mark = pause
        stepping = timeline[-1].clone()

        def keep():
            timeline.append(stepping.clone(), None, after_step(PAUSES, stepping.pause_at, False))

        if stepping.step_to_mark(mark, on_step=keep) and stepping.paused == kind:
            return []
        return [f"warning: `{path}` says the game paused ({kind}) after {mark} units of work, which its moves "
                "do not reach; the game stands where they lead"]

    def _replay_game(self, path: str, replay, force: bool):
        """The game to replay `path` in: the loaded one if it is the script the moves were made
        for, else the replay's own script when that is the very version; refused otherwise."""
        game, lines = self.game, []
        if game is not None and game.hash == replay.script_hash:
            return game, lines
        unread = "it cannot be read from here"
        try:
            where = replay.script_path(path)
            own = interpreter.load(where)
        except ReplayError as err:
            if game is None:
                raise ReplError(str(err)) from None
            where, own, unread = replay.script, None, "a replay may not load it from here"
        except ScriptError:
            if game is None:
                raise
            own = None
        if own is not None and (own.hash == replay.script_hash or game is None):
            game = own
            lines.append(f"loaded {own.title} from {own.path}")
        if game.hash == replay.script_hash:
            return game, lines
        if own is not None and _same_file(where, game.path):
            message = (f"`{path}` was made for another version of {where}: the moves were made with "
                       f"hash {replay.script_hash}, the script has hash {game.hash} now")
        else:
            now = unread if own is None else f"it has hash {own.hash} now"
            message = (f"`{path}` was made for {where} (hash {replay.script_hash}; {now}), not for the "
                       f"loaded {game.path} (hash {game.hash})")
        if not force:
            raise ReplError(message + "\n  = help: load the script it was made with, or "
                            "`open FILE --force` to replay its moves as far as they are legal here")
        lines.append("warning: " + message)
        return game, lines

    @staticmethod
    def _split(rest: str) -> list[str]:
        try:
            return shlex.split(rest)
        except ValueError as err:
            raise ReplError(f"cannot read the arguments: {err}") from None
