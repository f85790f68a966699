"""The session's `help`, with its examples fitted to the loaded game: a group of commands of its own."""

from __future__ import annotations

import difflib

from cardgame.interpreter import HIDDEN

from .commands import ALIASES, BY_NAME, COMMANDS
from .input import words_of
from .refusals import ReplError


def wrap(text: str, width: int, indent: str, first: str | None = None) -> list[str]:
    """`text` broken between words to fit `width`; the first line starts with `first` (default
    `indent`), the others with `indent`. A word longer than the line stays whole."""
    lines, line = [], first if first is not None else indent
    fresh = True
    for word in text.split():
        if not fresh and len(line) + 1 + len(word) > width:
            lines.append(line)
            line, fresh = indent, True
        line += word if fresh else " " + word
        fresh = False
    lines.append(line)
    return lines


class HelpCommands:
    """`help`: the command table read out, and examples built from the loaded game's names."""

    def _cmd_help(self, rest: str):
        if rest:
            command = BY_NAME.get(ALIASES.get(rest, rest)) or BY_NAME.get(ALIASES.get(rest.lower(), rest.lower()))
            if command is None:
                close = difflib.get_close_matches(rest.lower(), list(BY_NAME), n=1, cutoff=0.6)
                hint = f"did you mean `help {close[0]}`? " if close else ""
                raise ReplError(f"no command `{rest}`\n  = help: {hint}`help` lists them all")
            lines = [f"{command.usage}"] + wrap(f"{command.summary}.", self.width, "  ")
            if command.details:
                lines += wrap(command.details, self.width, "  ")
            shorts = [a for a, full in ALIASES.items() if full == command.name]
            if shorts:
                lines += wrap("also: " + ", ".join(f"`{a}`" for a in shorts), self.width, "  ")
            lines.append(f"  example: {self._example(command)}")
            return lines
        width = max(len(c.usage) for c in COMMANDS)
        lines = ["commands (`help COMMAND` for details and an example):"]
        # Side by side when the summaries keep room to read; else each under its usage.
        side = self.width - width - 4 >= 40
        for c in COMMANDS:
            if side:
                lines += wrap(c.summary, self.width, " " * (width + 4), f"  {c.usage:<{width}}  ")
            else:
                lines += [f"  {c.usage}"] + wrap(c.summary, self.width, "      ")
        shorts: dict = {}
        for alias, full in ALIASES.items():
            shorts.setdefault(full, []).append(alias)
        lines += wrap("short names: " + "; ".join(f"{'/'.join(a)} {full}" for full, a in shorts.items()),
                      self.width, "  ", "")
        return lines

    def _example(self, command) -> str:
        """`help`'s example: with a game loaded, built from its names and its moves where the
        fixed one names what this game may not have (`source main`, `eval count(hand[P0])`)."""
        if self.state is None:
            return command.example
        builders = {"source": self._example_source, "show": self._example_show, "eval": self._example_eval,
                    "watch": self._example_watch, "break": self._example_break, "moves": self._example_moves,
                    "play": self._example_play, "why": self._example_why, "new": self._example_new}
        built = builders[command.name]() if command.name in builders else None
        return f"{command.name} {built}" if built else command.example

    def _example_zone(self) -> tuple[str, bool] | None:
        """The first zone holding cards now (else the first zone), and whether it is per player."""
        zones = self.state.view(self.perspective)["zones"]
        holding = [name for name, cards in zones.items() if (any(cards.values()) if isinstance(cards, dict) else cards)]
        name = next(iter(holding + list(zones)), None)
        return name and (name, isinstance(zones[name], dict))

    def _example_source(self):
        names = self.rule_names() or self.phase_names()
        return names[0] if names else None

    def _example_show(self):
        zone = self._example_zone()
        return zone and (f"{zone[0]} {self.player_names()[-1]}" if zone[1] else zone[0])

    def _example_eval(self):
        zone = self._example_zone()
        if zone is None:
            return self._example_value()
        return f"count({zone[0]}[P0])" if zone[1] else f"count({zone[0]})"

    def _example_value(self):
        """A variable as an expression reads it (`total[P0]` for a per-player one)."""
        variables = self.state.view(self.perspective)["vars"]
        name = next(iter(variables), None)
        return name and (f"{name}[P0]" if isinstance(variables[name], dict) else name)

    def _example_watch(self):
        return self._example_value()

    def _example_break(self):
        return f"rule {self.rule_names()[0]}" if self.rule_names() else \
            f"phase {self.phase_names()[0]}" if self.phase_names() else None

    def _example_moves(self):
        """A card the moves name, else another of their words (`P1`), else a move's name."""
        cards, moves = {c.name for c in self.game.cards}, [words_of(m) for m in self.move_texts()]
        words = [w for m in moves for w in m[1:] if w != HIDDEN]
        return next((w for w in words if w in cards), None) or next(iter(words), None) or \
            next((m[0] for m in moves), None)

    def _example_play(self):
        legal = [m for m in self.move_texts() if HIDDEN not in m]
        if not legal:
            return None
        tail = legal[0].partition(" ")[2]
        return tail if tail and sum(m.partition(" ")[2] == tail for m in legal) == 1 else legal[0]

    def _example_why(self):
        legal = set(self.move_texts())
        forbidden = [m for m in self.move_texts(legal_only=False) if m not in legal and HIDDEN not in m]
        return forbidden[0] if forbidden else self._example_play()

    def _example_new(self):
        return f"seed=7 players={self.game.max_players}"
