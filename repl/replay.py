"""Replay files: the script's hash, players, options, seed and the moves, as JSON.

A game is determined by its seed and its moves, so replaying them restores the exact position;
the hash tells whether the script is the one the moves were made for.
"""

from __future__ import annotations

import json
import os

import attrs

FORMAT = "cardgame-replay/1"


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

    def script_path(self, replay_path: str) -> str:
        """The script as named in the file, or beside the replay file when not found from here."""
        if os.path.exists(self.script) or os.path.isabs(self.script):
            return self.script
        beside = os.path.join(os.path.dirname(replay_path), self.script)
        return beside if os.path.exists(beside) else self.script


def replay_data(game, players: int, seed: int, options: dict, moves: list) -> dict:
    return {"format": FORMAT, "script": game.path, "script_hash": game.hash, "title": game.title,
            "players": players, "seed": seed, "options": dict(options), "moves": list(moves)}


def read_replay(path: str) -> Replay:
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as err:
        raise ReplayError(f"cannot read `{path}`: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise ReplayError(f"`{path}` is not a replay file (not UTF-8 text)") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ReplayError(f"`{path}` is not a replay file (not JSON: {err.msg} at line {err.lineno})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReplayError(f"`{path}` is not a replay file (no `\"format\": \"{FORMAT}\"`)")
    checks = {"script": str, "script_hash": str, "players": int, "seed": int, "options": dict, "moves": list}
    for field, kind in checks.items():
        value = data.get(field)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise ReplayError(f"`{path}` is damaged: `{field}` is missing or not a {kind.__name__}")
    if not all(isinstance(m, str) for m in data["moves"]):
        raise ReplayError(f"`{path}` is damaged: every move must be a text")
    if data["players"] < 1 or data["seed"] < 0:
        raise ReplayError(f"`{path}` is damaged: players or seed out of range")
    return Replay(data["script"], data["script_hash"], data["players"], data["seed"], dict(data["options"]),
                  tuple(data["moves"]))
