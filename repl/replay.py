"""Replay files: the script's hash, players, options, seed and the moves, as JSON.

A game is determined by its seed and its moves, so replaying them restores the exact position;
a game saved while paused between decisions also keeps where it paused (`pause`: the kind of
pause point and the work done up to it, `GameState.pause_mark`), so the replay stops there too;
the hash tells whether the script is the one the moves were made for.  The script's path is
written relative to the replay file, so a replay and its script can move together and be opened
from any folder (files of format 1 named it relative to the folder they were saved from).
"""

from __future__ import annotations

import json
import os

import attrs

from cardgame.interpreter import PAUSES, FileRefused, inside, limits, read_text

FORMAT = "cardgame-replay/2"
_OLD_FORMAT = "cardgame-replay/1"
OBSERVATION_FORMAT = "cardgame-observation/1"


class ReplayError(Exception):
    """A replay file that cannot be read; the message says why."""


@attrs.frozen
class Replay:
    script: str
    script_hash: str
    players: int
    seed: int
    options: dict
    moves: tuple
    relative_to_file: bool = True  # format 2; format 1 named the script from the saving folder
    pause: tuple | None = None  # (kind, mark) of a game saved at a pause point, after its moves

    def script_path(self, replay_path: str) -> str:
        """Where the script is, seen from here: beside the replay file as its path says (format
        1 named it from the folder it was saved in).

        A replay may come from someone else, so the script it names is only read when, with its
        symbolic links followed, it is a `.cardgame` file inside the replay file's folder or the
        current folder (or below either): a replay naming `/etc/passwd`, `/dev/zero` or a link
        to them is refused before anything is opened.  ReplayError says which rule failed."""
        path = self.script
        if not os.path.isabs(path):
            beside = os.path.normpath(os.path.join(os.path.dirname(replay_path), path))
            path = beside if self.relative_to_file or not os.path.exists(path) else path
        real = os.path.realpath(path)
        if not real.endswith(".cardgame"):
            raise ReplayError(f"`{replay_path}` names the script `{self.script}`, which is not a `.cardgame` "
                              "file (symbolic links followed); a replay may only load a script\n"
                              "  = help: load the script first with `load FILE`, then `open` the replay")
        if not (inside(real, os.path.dirname(os.path.abspath(replay_path))) or inside(real, os.getcwd())):
            raise ReplayError(f"`{replay_path}` names the script `{self.script}`, which lies outside both "
                              "the replay's folder and the current folder; a replay, which may come from "
                              "anyone, may only load a script from those\n"
                              "  = help: load the script first with `load FILE`, then `open` the replay")
        return path


def replay_data(game, replay_path: str, players: int, seed: int, options: dict, moves: list,
                pause: tuple | None = None) -> dict:
    """The replay of `moves`, to be written at `replay_path` (the script is named from there),
    and of the pause point after them (`pause`: its kind and `pause_mark`) if the game stands at one."""
    script = os.path.abspath(game.path)
    try:
        script = os.path.relpath(script, os.path.dirname(os.path.abspath(replay_path)))
    except ValueError:  # another drive (Windows): only the absolute path reaches it
        pass
    data = {"format": FORMAT, "script": script.replace(os.sep, "/"), "script_hash": game.hash,
            "title": game.title, "players": players, "seed": seed, "options": dict(options),
            "moves": list(moves)}
    if pause is not None:
        data["pause"] = {"at": pause[0], "work": pause[1]}
    return data


def write_replay(path: str, data: dict) -> None:
    if "\0" in path:  # open() would raise ValueError
        raise ReplayError(f"cannot write `{path}`: a path cannot hold the character NUL")
    try:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=2)
            fh.write("\n")
    except OSError as err:
        raise ReplayError(f"cannot write `{path}`: {err.strerror or err}") from None


def observation_data(game, state, viewer) -> dict:
    """A seat-safe export: what `viewer` knew at this position, and nothing it did not (no
    seed, no hidden move), so it can be handed to that player; it cannot be replayed."""
    observed = state.observation(viewer)
    return {"format": OBSERVATION_FORMAT, "script": os.path.basename(game.path), "script_hash": game.hash,
            "title": game.title, "players": state.n, "viewer": observed["viewer"], "observation": observed}


def is_replay(path: str) -> bool:
    """Is `path` a replay file (one `load` is given in place of a script)?"""
    try:
        read_replay(path)
    except ReplayError:
        return False
    return True


def read_replay(path: str, text: str | None = None) -> Replay:
    """The replay file at `path`, or the replay `text` already read (standard input's, named by
    `path`); ReplayError says what is wrong with it."""
    try:
        text = read_text(path, limits.MAX_REPLAY_BYTES) if text is None else text
    except FileRefused as err:
        if err.kind == "encoding":
            raise ReplayError(f"`{path}` is not a replay file (not UTF-8 text)") from None
        raise ReplayError(f"cannot read `{path}`: {err.reason}") from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise ReplayError(f"`{path}` is not a replay file (nested too deeply)") from None
    except json.JSONDecodeError as err:
        if path.endswith(".cardgame"):
            raise ReplayError(f"`{path}` is a script, not a replay file\n  = help: `load {path}` loads a script; "
                              "`open` restores a game saved with `save`") from None
        raise ReplayError(f"`{path}` is not a replay file (not JSON: {err.msg} at line {err.lineno})") from None
    except ValueError:  # json reads a number of more than 4,300 digits as Python's int() would not
        raise ReplayError(f"`{path}` is not a replay file (a number in it is thousands of digits long)") from None
    if isinstance(data, dict) and data.get("format") == OBSERVATION_FORMAT:
        raise ReplayError(f"`{path}` is what one seat knew (`save --view`), not a replay: it has no seed "
                          "and no hidden moves, so it cannot be played again")
    if not isinstance(data, dict) or data.get("format") not in (FORMAT, _OLD_FORMAT):
        raise ReplayError(f"`{path}` is not a replay file (no `\"format\": \"{FORMAT}\"`)")
    checks = {"script": (str, "a text"), "script_hash": (str, "a text"), "players": (int, "a whole number"),
              "seed": (int, "a whole number"), "options": (dict, "an object of NAME: VALUE"),
              "moves": (list, "a list of moves")}
    for field, (kind, what) in checks.items():
        value = data.get(field)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise ReplayError(f"`{path}` is damaged: `{field}` is missing or not {what}")
    if "\0" in data["script"]:
        raise ReplayError(f"`{path}` is damaged: `script` holds the character NUL, which no path can")
    if not all(isinstance(m, str) for m in data["moves"]):
        raise ReplayError(f"`{path}` is damaged: every move must be a text")
    if len(data["moves"]) > limits.MAX_DECISIONS or any(len(m) > limits.MAX_HISTORY_TEXT for m in data["moves"]):
        # a saved state's limits: no game makes more moves or longer ones (each would be quoted back)
        raise ReplayError(f"`{path}` is damaged: more than {limits.MAX_DECISIONS:,} moves, or a move longer than "
                          f"{limits.MAX_HISTORY_TEXT:,} characters")
    if data["players"] < 1 or data["seed"] < 0:
        raise ReplayError(f"`{path}` is damaged: players or seed out of range")
    return Replay(data["script"], data["script_hash"], data["players"], data["seed"], dict(data["options"]),
                  tuple(data["moves"]), data["format"] == FORMAT, _pause(path, data))


def _pause(path: str, data: dict) -> tuple | None:
    """The pause point a replay stops at, if it names one: (kind, work done up to it)."""
    if "pause" not in data:
        return None
    pause = data["pause"]
    kinds = " or ".join(f'"{k}"' for k in PAUSES)
    if not (isinstance(pause, dict) and set(pause) == {"at", "work"} and pause["at"] in PAUSES
            and isinstance(pause["work"], int) and not isinstance(pause["work"], bool) and pause["work"] >= 0):
        raise ReplayError(f"`{path}` is damaged: `pause` is not an object "
                          f"{{\"at\": {kinds}, \"work\": a whole number}}")
    return pause["at"], pause["work"]
