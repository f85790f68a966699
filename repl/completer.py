"""Tab completion: command names, then each command's own kind of argument (legal moves, zones,
rules, phases, players, options, files), read from the session."""

from __future__ import annotations

import re

from prompt_toolkit.completion import CompleteEvent, Completer, Completion, PathCompleter
from prompt_toolkit.document import Document

from .commands import ALIASES

_FILE_COMMANDS = ("load", "save", "open")


class ReplCompleter(Completer):
    def __init__(self, session):
        self.session = session
        self._paths = PathCompleter(expanduser=True)

    def get_completions(self, document: Document, complete_event: CompleteEvent):
        text = document.text_before_cursor.lstrip()
        if " " not in text:
            # a command completes with the space after it, so a second Tab goes on to its arguments
            for c in _complete(text, [f"{name} " for name in self.session.command_names()], any_case=True):
                yield Completion(c.text, start_position=c.start_position, display=c.text.rstrip())
            return
        command, _, rest = text.partition(" ")
        command = ALIASES.get(command.lower(), command.lower())  # `PLAY 9d` is `play 9d`
        rest = rest.lstrip()
        words = rest.split(" ")
        last, before = words[-1], [w for w in words[:-1] if w]
        if command in _FILE_COMMANDS:
            yield from self._file_argument(command, before, last, complete_event)
        elif command in ("play", "why"):
            yield from self._move(command, rest, before, last)
        elif command in ("eval", "watch") or (command == "break" and rest.startswith("when ")):
            yield from self._expression(rest)
        else:
            candidates = self._argument(command, before, last)
            yield from _complete(last, [c for c in candidates if c not in before], any_case=command == "moves")

    def _file_argument(self, command: str, before: list[str], last: str, complete_event):
        if command == "save" and before == ["--view"]:
            yield from _complete(last, self.session.player_names() + ["spectator"])
        elif last.startswith("-") and not before:
            yield from _complete(last, {"save": ["--view"], "open": ["--force"]}.get(command, []))
        else:
            yield from self._paths.get_completions(Document(last, len(last)), complete_event)

    def _move(self, command: str, rest: str, before: list[str], last: str):
        """A move: its whole text (which may hold spaces); else the word at the cursor, from the
        moves holding the words typed before it in any order (cards are picked so); after `why
        MOVE`, `--expand` and the definitions it opens."""
        s = self.session
        if command == "why" and before[-1:] in (["--expand"], ["-e"]):
            yield from _complete(last.rpartition(",")[2], s.definition_names())  # `-e can_follow,str<Tab>`
            return
        if command == "why" and last.startswith("-"):
            yield from _complete(last, ["--expand", "--more", "--full"])
            return
        texts = s.move_texts(legal_only=command == "play")
        # `why more`, `why step 3`: offered with the moves, to a view that may read them
        words = ["more", "full", "step "] if command == "why" and not before and texts else []
        yield from (list(_complete(rest, _move_choices(texts) + words, any_case=True))
                    or _complete(last, _next_words(before + [last], texts), any_case=True))

    def _expression(self, rest: str):
        """The name at the cursor: after a dot an attribute or field (`top(hand[P0]).r`), else
        a name of the script, a seat, a built-in or a word of the language."""
        s = self.session
        word = _IDENT.search(rest).group(0)
        if rest[:len(rest) - len(word)].endswith("."):
            yield from _complete(word, s.field_names())
        else:
            yield from _complete(word, s.expression_names() + s.player_names() + s.builtin_names()
                                 + list(_EXPRESSION_WORDS))

    def _argument(self, command: str, before: list[str], last: str) -> list[str]:
        """What may be typed as the word after `before` in the arguments of `command`."""
        s, n = self.session, len(before)
        if command == "moves":  # its options, or the words (cards, players) of the moves naming those typed
            typed = [w for w in before if not w.startswith("-")] + [last]
            return ["--all", "--full"] if last.startswith("-") else \
                _next_words(typed, s.move_texts(legal_only="--all" not in before))
        if command == "auto":
            return ["random"] if before[-1:] == ["--agent"] else ["--agent"] if n else ["end", "--agent"]
        if command == "break":
            return ["rule", "phase", "when"] if not n else \
                {"rule": s.rule_names(), "phase": s.phase_names()}.get(before[0], []) if n == 1 else []
        if command in ("unwatch", "unbreak"):
            return [] if n else s.ids(command) + ["all"]
        if command == "branch":
            return [] if n else s.ids(command)
        by_place = {  # the words each place takes: the first argument, the second
            "show": (s.zone_names, s.player_names),
            "seat": (lambda: s.player_names() + ["table"], lambda: ["human", "random", "greedy", "ismcts"]),
            "hint": (lambda: ["greedy", "ismcts"], None),
            "view": (lambda: s.player_names() + ["spectator", "all"],),
            "trace": (lambda: ["on", "off"],),
            "state": (lambda: ["all"],),
            "source": (s.declaration_names,),
            "help": (s.command_names,),
            "log": (lambda: ["-n"],),
        }
        if command in by_place:
            places = by_place[command]
            return places[n]() if n < len(places) else []
        if command == "pause":
            return ["chance", "phase", "all", "off"]
        if command == "new":
            return ["players=", "seed="] + [f"{name}=" for name in s.option_names()]
        return []


def _move_choices(texts: list[str]) -> list[str]:
    """Every move by its full text, and by the text after its name where that is unambiguous."""
    shorts: dict[str, list[str]] = {}
    for text in texts:
        tail = text.partition(" ")[2]
        if tail:
            shorts.setdefault(tail, []).append(text)
    return [tail for tail, full in shorts.items() if len(full) == 1] + texts


def _next_words(words: list[str], texts: list[str]) -> list[str]:
    """The words that may follow `words[:-1]` (typed in any order and any case) in one of the
    moves `texts`: its name first if typed, then any of its values not typed yet."""
    typed = [w.casefold() for w in words[:-1] if w]
    out: list[str] = []
    for text in texts:
        items = text.split()
        if "[" in text or "(" in text or not items:  # a list value is no word to pick
            continue
        whole = bool(typed) and typed[0] == items[0].casefold()
        left = items[1:]
        for word in typed[1:] if whole else typed:
            folded = [w.casefold() for w in left]
            if word not in folded:
                break
            del left[folded.index(word)]
        else:
            out += [w for w in left if w not in out]
    return out


_IDENT = re.compile(r"[A-Za-z_0-9]*$")
# The words of the language an expression is written with (language.md, Expressions).
_EXPRESSION_WORDS = ("and", "or", "not", "in", "where", "for", "if", "then", "else", "let", "any", "all", "no",
                     "true", "false", "none")


def _complete(typed: str, candidates: list[str], any_case: bool = False):
    """Completions replacing `typed` (the text right before the cursor) by a candidate; with
    `any_case`, one whose start it spells in any letter case, as commands and moves may be typed
    (`play qs` for `play QS`; the names of an expression keep their case)."""
    seen = set()
    fold = str.casefold if any_case else str
    for candidate in candidates:
        if candidate not in seen and fold(candidate).startswith(fold(typed)) and candidate != typed:
            seen.add(candidate)
            yield Completion(candidate, start_position=-len(typed))
