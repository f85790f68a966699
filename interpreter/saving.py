"""A state as JSON and back.  Restoring checks the data so a damaged file is an error, not a crash."""

from __future__ import annotations

from .runtime import TABLE
from .source import Diagnostic, ScriptError

FORMAT = "cardgame-state/1"


def _jsonable(value):
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    return value


def _frozen(value):
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def dump_state(st) -> dict:
    prog = st.prog
    stack = []
    for code, pc, L in st.stack:
        stack.append([code, pc, [_jsonable(v) for v in L]])
    return {
        "format": FORMAT,
        "script": st.game.hash,
        "players": st.n,
        "seed": st.seed,
        "options": dict(st.options),
        "rng": st.rng,
        "zones": [list(z) for z in st.zones],
        "visibility": list(st.vis),
        "vars": [_jsonable(v) for v in st.vars],
        "stack": stack,
        "waiting": st.waiting.index if st.waiting is not None else None,
        "actor": st.actor,
        "over": st.over,
        "capped": st.capped,
        "history": list(st.history),
        "decisions": st.decisions,
        "cards": len(prog.card_names),
    }


def _bad(message: str, hint: str = "") -> ScriptError:
    return ScriptError([Diagnostic("E0801", f"saved game rejected: {message}", None, hint=hint)])


def restore_state(game, data):
    from .engine import GameState
    prog = game.program
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _bad("not a cardgame state (format tag missing)")
    if data.get("script") != game.hash:
        raise _bad("it was saved from a different version of the script",
                   "load the script it was saved with, or replay the move log on this version")
    try:
        n = data["players"]
        if not isinstance(n, int) or not game.min_players <= n <= game.max_players:
            raise _bad(f"player count {n!r} does not fit this game")
        st = GameState()
        st.prog, st.n, st.game = prog, n, game
        st.seed, st.options = int(data["seed"]), game.read_options(dict(data["options"]))
        st.rng = int(data["rng"])
        zones = [list(map(int, z)) for z in data["zones"]]
        expected_slots = prog.shared_zone_count + len(prog.per_player_names) * n
        cards = [c for z in zones for c in z]
        if len(zones) != expected_slots or sorted(cards) != list(range(len(prog.card_names))):
            raise _bad("its zones do not hold each card exactly once")
        st.zones = zones
        st.loc = [0] * len(cards)
        for slot, z in enumerate(zones):
            for c in z:
                st.loc[c] = slot
        st.vis = [int(v) for v in data["visibility"]]
        if len(st.vis) != len(cards):
            raise _bad("card visibility does not match the cards")
        values = list(data["vars"])
        if len(values) != len(prog.var_slots):
            raise _bad("its variables do not match the script")
        for i, v in enumerate(values):
            values[i] = [_frozen(x) for x in v] if i in prog.per_player_var_slots else _frozen(v)
            if i in prog.per_player_var_slots and len(values[i]) != n:
                raise _bad("a per-player variable has the wrong number of seats")
        st.vars = values
        st.stack = []
        for code, pc, L in data["stack"]:
            if not (0 <= code < len(prog.codes) and 0 <= pc < len(prog.codes[code])
                    and len(L) == prog.code_info[code].size):
                raise _bad("its position in the game flow does not exist in this script")
            st.stack.append([code, pc, [_frozen(v) for v in L]])
        waiting = data["waiting"]
        if waiting is not None and not 0 <= waiting < len(prog.decisions):
            raise _bad("it waits on a decision this script does not have")
        st.waiting = prog.decisions[waiting] if waiting is not None else None
        st.actor = data["actor"]
        if st.actor is not None and not (st.actor == TABLE or 0 <= st.actor < n):
            raise _bad("the player to act is not at the table")
        st.over = bool(data["over"])
        st.capped = bool(data.get("capped", False))
        st.history = [str(h) for h in data["history"]]
        st.decisions = int(data["decisions"])
        st.tracer, st.fault, st.legal_cache, st.work = None, None, None, 0
    except ScriptError:
        raise
    except (KeyError, TypeError, ValueError, IndexError) as err:
        raise _bad(f"a field is missing or malformed ({type(err).__name__}: {err})") from None
    return st
