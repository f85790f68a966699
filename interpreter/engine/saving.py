"""A state as JSON and back.

A saved state may come from anyone, so restoring checks every field against the compiled
program before anything runs: its JSON type, its range (a seat at this table, a card of this
deck, a number within ±2^62), and how the fields fit together (the decision waited on is the
one at the top frame's place in the flow, the player to act is one that decision can have, the
history is as long as the decisions made).  A refusal is E0801 naming the field, such as
`vars[3]` or `stack[0][2][1]`; nothing a damaged state holds can reach the running code.
"""

from __future__ import annotations

from ..language import limits
from ..language.rng import SEEDS, is_seed
from ..language.source import UNSEEN, Diagnostic, ScriptError
from ..language.types import (ANY, BOOL, CARD, INT, NONE, PLAYER, SYMBOL, TEAM, TEXT, ZONE, element, is_list, is_record,
                              record_name)
from ..machine.program import initial_values
from ..machine.runtime import FACE_UP, PAUSES, TABLE, VALUE_FAULTS, ScriptRuntimeError, team_layout
from ..machine.shared_log import SharedLog

FORMAT = "cardgame-state/1"
FIELDS = ("format", "script", "players", "seed", "options", "rng", "zones", "visibility", "vars", "stack",
          "waiting", "actor", "over", "capped", "paused", "history", "decisions", "cards", "work", "budget")
MAX_DEPTH = 8  # lists inside lists in a frame's locals (a simultaneous decision keeps triples)


def _jsonable(value):
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
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
        "paused": list(st.pause_point) if st.pause_point is not None else None,
        "history": list(st.history),
        "decisions": st.decisions,
        "cards": len(prog.card_names),
        "work": st.game_work,
        "budget": list(st.budget),
    }


class _Refused(Exception):
    def __init__(self, field: str, message: str):
        self.field, self.message = field, message


def _bad(message: str, hint: str = "") -> ScriptError:
    return ScriptError([Diagnostic("E0801", f"saved game rejected: {message}", None, hint=hint)])


def _is_int(v) -> bool:
    return type(v) is int


def _int(v, field: str, low: int, high: int) -> int:
    if not _is_int(v) or not low <= v <= high:
        raise _Refused(field, f"is {_show(v)}, not a whole number from {low:,} to {high:,}")
    return v


def _show(v) -> str:
    text = repr(v) if not isinstance(v, (list, dict)) else type(v).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def _list(v, field: str, length: int | None = None, most: int = limits.MAX_LIST_LENGTH) -> list:
    if type(v) is not list:
        raise _Refused(field, f"is {_show(v)}, not a list")
    if length is not None and len(v) != length:
        raise _Refused(field, f"has {len(v):,} entries where this game has {length:,}")
    if len(v) > most:
        raise _Refused(field, f"has {len(v):,} entries, over the limit of {most:,}")
    return v


def _text(v, field: str, most: int) -> str:
    if type(v) is not str:
        raise _Refused(field, f"is {_show(v)}, not a text")
    if len(v) > most:
        raise _Refused(field, f"is {len(v):,} characters long, over the limit of {most:,}")
    if UNSEEN.search(v):
        raise _Refused(field, "holds a control or invisible character")
    return v


class _Values:
    """Checks a value against a static type of the script: what the running code may meet."""

    def __init__(self, prog, n: int, slots: int, teams: int = 0):
        self.prog, self.n, self.slots, self.teams = prog, n, slots, teams
        self.symbols = prog.tables.symbols

    def check(self, v, typ, field: str, depth: int = 0):
        """`v` frozen (lists become tuples), or _Refused."""
        if v is None:
            return None
        if typ in (None, ANY, NONE):
            return self.any(v, field, depth)
        if is_list(typ):
            items = _list(v, field)
            return tuple(self.check(x, element(typ), f"{field}[{i}]", depth + 1) for i, x in enumerate(items))
        if is_record(typ):  # a record: its fields in declaration order, each of its own type
            fields = self.prog.tables.record_fields[record_name(typ)]
            items = _list(v, field, len(fields))
            return tuple(self.check(x, ft, f"{field}.{f}", depth + 1) for (f, ft), x in zip(fields, items))
        bounds = {INT: (-limits.MAX_INT, limits.MAX_INT), CARD: (0, len(self.prog.card_names) - 1),
                  PLAYER: (0, self.n - 1), ZONE: (0, self.slots - 1), TEAM: (0, self.teams - 1)}
        if typ in bounds:
            low, high = bounds[typ]
            if not _is_int(v) or not low <= v <= high:
                raise _Refused(field, f"is {_show(v)}, not {_KIND[typ]} from {low:,} to {high:,}")
            return v
        if typ == BOOL:
            if type(v) is not bool:
                raise _Refused(field, f"is {_show(v)}, not true or false")
            return v
        if typ == TEXT:
            return _text(v, field, limits.MAX_TEXT_LENGTH)
        if typ == SYMBOL:
            if type(v) is not str or v not in self.symbols:
                raise _Refused(field, f"is {_show(v)}, not a symbol of this script")
            return v
        return self.any(v, field, depth)

    def any(self, v, field: str, depth: int):
        """A value of no known type (a frame's locals): plain JSON data within the limits."""
        if type(v) is bool or v is None:
            return v
        if _is_int(v):
            if not -limits.MAX_INT <= v <= limits.MAX_INT:
                raise _Refused(field, f"is a number beyond the limit of {limits.MAX_INT:,}")
            return v
        if type(v) is str:
            return _text(v, field, limits.MAX_TEXT_LENGTH)
        if type(v) is list:
            if depth >= MAX_DEPTH:
                raise _Refused(field, f"nests lists more than {MAX_DEPTH} deep")
            return tuple(self.any(x, f"{field}[{i}]", depth + 1) for i, x in enumerate(_list(v, field)))
        raise _Refused(field, f"is {_show(v)}, which no game value can be")


_KIND = {INT: "a number", CARD: "a card number", PLAYER: "a seat", ZONE: "a zone number", TEAM: "a team number"}


def restore_state(game, data, st):
    """`st`, a blank state of `game`, made the state `data` (from dump_state) saved; ScriptError
    when the data does not fit the game."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _bad("not a cardgame state (format tag missing)")
    if data.get("script") != game.hash:
        raise _bad("it was saved from a different version of the script",
                   "load the script it was saved with, or replay the move log on this version")
    try:
        return _restore(game, data, st)
    except _Refused as err:
        raise _bad(f"`{err.field}` {err.message}", "a saved state is only ever made by GameState.to_json(); "
                   "this one was changed or damaged") from None
    except ScriptError as err:  # options that do not fit
        raise _bad(f"`options` do not fit this game: {err.diagnostics[0].message}") from None


def _restore(game, data, st):
    prog = game.program
    missing = [f for f in FIELDS if f not in data]
    if missing:
        raise _Refused(missing[0], "is missing")
    extra = sorted(set(data) - set(FIELDS), key=str)
    if extra:
        raise _Refused(str(extra[0]), "is not a field of a saved state")
    st.memo, st.zmemo = {}, {}  # definitions' values are never saved (codegen.Gen.define_fn)
    n = _int(data["players"], "players", game.min_players, game.max_players)
    st.prog, st.n, st.game = prog, n, game
    st.journal = st.callback = None  # the observation log is rebuilt from the moves when asked
    seed = data["seed"]
    if not is_seed(seed):
        raise _Refused("seed", f"is {_show(seed)}, not a whole number from 0 to {SEEDS - 1}")
    st.seed = seed
    st.rng = _int(data["rng"], "rng", 0, (1 << 64) - 1)
    ncards = len(prog.card_names)
    _int(data["cards"], "cards", ncards, ncards)
    st.budget = tuple(_restore_budget(data["budget"]))
    st.game_work = _int(data["work"], "work", 0, st.budget[1])

    options = data["options"]
    if type(options) is not dict:
        raise _Refused("options", f"is {_show(options)}, not an object")
    st.options = game.read_options({k: v for k, v in options.items()})
    if set(st.options) != set(options) or any(type(st.options[k]) is not type(options[k]) for k in options):
        raise _Refused("options", "hold a value of the wrong kind")

    slots = prog.shared_zone_count + len(prog.per_player_names) * n
    zones = _list(data["zones"], "zones", slots)
    seen = [False] * ncards
    st.zones, st.loc = [], [0] * ncards
    for s, z in enumerate(zones):
        for i, c in enumerate(_list(z, f"zones[{s}]", most=ncards)):
            if not _is_int(c) or not 0 <= c < ncards or seen[c]:
                raise _Refused(f"zones[{s}][{i}]", f"is {_show(c)}: the zones must hold each card exactly once")
            seen[c] = True
            st.loc[c] = s
        st.zones.append(list(z))
    if not all(seen):
        raise _Refused("zones", f"do not hold card {seen.index(False)} ({prog.card_names[seen.index(False)]})")
    seats = (1 << n) - 1
    st.vis = list(_list(data["visibility"], "visibility", ncards))
    for c, v in enumerate(st.vis):
        if not _is_int(v) or v < 0 or v & ~(FACE_UP | seats):
            raise _Refused(f"visibility[{c}]", f"is {_show(v)}, not face-up and seat bits of a {n}-player game")

    st.vars = initial_values(prog, st.options)  # the options, which a computed layout may read
    st.begin_work(query=True)
    st.teams = team_layout(st)  # computed again from the player count and options, never saved
    values = _Values(prog, n, slots, st.teams.count if st.teams is not None else 0)
    st.vars = _restore_vars(game, data["vars"], st.options, values)
    st.memo, st.zmemo = {}, {}  # computed with the options' starting values, before these
    st.stack = _restore_stack(prog, data["stack"], values)
    _restore_commitments(prog, st.stack, data["stack"], values)
    _restore_position(prog, st, data)
    history = _list(data["history"], "history", most=limits.MAX_DECISIONS)
    st.history = SharedLog(_text(h, f"history[{i}]", limits.MAX_HISTORY_TEXT) for i, h in enumerate(history))
    st.decisions = _int(data["decisions"], "decisions", len(history), len(history))
    st.tracer, st.fault, st.legal_cache, st.legal_work = None, None, None, 0
    st.pause_at = frozenset()  # where to pause is the caller's choice, not the game's
    st.begin_work()
    st.pause_point = _restore_pause(prog, st, data["paused"])
    return st


def _restore_budget(budget):
    budget = _list(budget, "budget", 2)
    return (_int(budget[0], "budget[0]", 1, limits.HARD_MAX_WORK_PER_MOVE),
            _int(budget[1], "budget[1]", 1, limits.HARD_MAX_WORK_PER_GAME))


def _restore_vars(game, raw, options, values: _Values) -> list:
    prog, t = game.program, game.program.tables
    raw = _list(raw, "vars", len(prog.var_slots))
    typed = {}
    for name, (_, typ) in t.vars.items():
        typed[prog.var_slots[name]] = typ
    out = list(raw)
    defaults = {prog.var_slots[name]: value for name, value in
                zip(t.options, _option_values(game, options))}
    for slot, v in enumerate(raw):
        field = f"vars[{slot}]"
        if slot in defaults:  # an option: fixed for the whole game
            if type(v) is not type(defaults[slot]) or v != defaults[slot]:
                raise _Refused(field, f"is {_show(v)}, but option `{_name_of(prog, slot)}` is "
                               f"{_show(defaults[slot])} in this game")
            continue
        if slot in prog.row_var_slots:  # one value per seat, or per team
            rows = _list(v, field, values.n if slot in prog.per_player_var_slots else values.teams)
            out[slot] = [_var_value(prog, slot, x, typed, values, f"{field}[{i}]") for i, x in enumerate(rows)]
        else:
            out[slot] = _var_value(prog, slot, v, typed, values, field)
    return out


def _var_value(prog, slot, v, typed, values: _Values, field: str):
    if v is None and slot in prog.never_none_var_slots:  # the fast code does not test it (never_none.py)
        raise _Refused(field, f"is none, which `{_name_of(prog, slot)}` never holds in this game")
    return values.check(v, typed.get(slot), field)


def _option_values(game, options):
    start = initial_values(game.program, options)
    return [start[game.program.var_slots[name]] for name in game.program.tables.options]


def _name_of(prog, slot) -> str:
    return next(name for name, s in prog.var_slots.items() if s == slot)


def _restore_stack(prog, raw, values: _Values) -> list:
    stack = []
    raw = _list(raw, "stack", most=limits.MAX_CALL_DEPTH + 1)  # the phase's frame and the calls in it
    for i, frame in enumerate(raw):
        field = f"stack[{i}]"
        frame = _list(frame, field, 3)
        code = _int(frame[0], f"{field}[0]", 0, len(prog.codes) - 1)
        if (i == 0) != (prog.code_info[code].kind == "phase"):
            raise _Refused(f"{field}[0]", "is not where the flow can be: a phase at the bottom of the stack, "
                           "procedures and events above it")
        pc = _int(frame[1], f"{field}[1]", 0, len(prog.codes[code]) - 1)
        local = _list(frame[2], f"{field}[2]", prog.code_info[code].size)
        stack.append([code, pc, [values.any(v, f"{field}[2][{j}]", 0) for j, v in enumerate(local)]])
    return stack


def _restore_commitments(prog, stack, raw, values: _Values) -> None:
    """The moves a simultaneous decision has collected so far (a frame slot its dispatch trusts):
    each a seat, one of the decision's alternatives and that alternative's values, of their types."""
    for i, (code, _pc, L) in enumerate(stack):
        for decision in prog.decisions:
            if decision.kind != "deferred" or decision.code != code:
                continue
            collected = decision.frame_slots[2]
            field = f"stack[{i}][2][{collected}]"
            entries = raw[i][2][collected]
            if entries is None:  # the simultaneous decision has not begun
                continue
            kept = []
            for k, entry in enumerate(_list(entries, field)):
                seat, alt, chosen = _list(entry, f"{field}[{k}]", 3)
                seat = values.check(seat, PLAYER, f"{field}[{k}][0]")
                bindings = decision.alts[_int(alt, f"{field}[{k}][1]", 0, len(decision.alts) - 1)].bindings
                chosen = _list(chosen, f"{field}[{k}][2]", len(bindings))
                if None in chosen:  # a listing never offers none (never_none.py counts on it)
                    raise _Refused(f"{field}[{k}][2][{chosen.index(None)}]", "is none, which no move offers")
                kept.append((seat, alt, tuple(values.check(v, b.type, f"{field}[{k}][2][{j}]")
                                              for j, (v, b) in enumerate(zip(chosen, bindings)))))
            L[collected] = tuple(kept)


def _restore_position(prog, st, data):
    """The decision waited on, the player to act and the end of the game, which must agree."""
    over, capped = data["over"], data["capped"]
    if type(over) is not bool or type(capped) is not bool:
        raise _Refused("over" if type(over) is not bool else "capped", "is not true or false")
    st.over, st.capped = over, capped
    waiting, actor = data["waiting"], data["actor"]
    if data["paused"] is not None:
        if over or waiting is not None or actor is not None:
            raise _Refused("paused", "is set, but the game is over or waits for a decision")
        st.waiting, st.actor = None, None
        return
    if over:
        if waiting is not None or actor is not None or st.stack:
            raise _Refused("over", "is true, but the state still has a place in the flow or a decision")
        st.waiting, st.actor = None, None
        return
    if capped:
        raise _Refused("capped", "is true in a game that is not over")
    if waiting is None:
        raise _Refused("waiting", "is none in a game that is not over (a state saved after a fault "
                       "cannot be restored)")
    decision = prog.decisions[_int(waiting, "waiting", 0, len(prog.decisions) - 1)]
    if not st.stack or st.stack[-1][0] != decision.code or st.stack[-1][1] != decision.pc:
        raise _Refused("waiting", f"is decision {waiting} (line {decision.span.line}), which is not at the "
                       "top frame's place in the flow")
    table = decision.actor_fn is None and decision.kind != "reaction"
    if table:
        if actor != TABLE:
            raise _Refused("actor", f"is {_show(actor)}, but decision {waiting} is the table's ({TABLE})")
    else:
        _int(actor, "actor", 0, st.n - 1)
        if decision.kind == "normal" and actor != _expected_actor(st, decision):
            raise _Refused("actor", f"is {actor}, but decision {waiting} (line {decision.span.line}) is this "
                           "position's decision of another seat")
    st.waiting, st.actor = decision, actor


def _restore_pause(prog, st, paused):
    """(kind, work of the paused stretch) of a game stopped at a pause point, or None: the
    place must be one (before a draw, or a phase's start) and the work within its budget."""
    if paused is None:
        return None
    paused = _list(paused, "paused", 2)
    kind = paused[0]
    if kind not in PAUSES:
        raise _Refused("paused[0]", f"is {_show(kind)}, not a pause point ({', '.join(PAUSES)})")
    used = _int(paused[1], "paused[1]", 0, st.work_limit)
    code, pc, _ = st.stack[-1] if st.stack else (None, None, None)
    if kind == "chance" and (code is None or pc not in prog.chance_points[code]):
        raise _Refused("paused", "is before a draw, but the top frame's place in the flow is not one")
    if kind == "phase" and (len(st.stack) != 1 or pc != 0):
        raise _Refused("paused", "is at a phase's start, but the flow is not at the start of a phase")
    return kind, used


def _expected_actor(st, decision):
    """The seat a plain decision asks, computed again on the restored position (nothing has
    changed since the decision computed it)."""
    st.begin_work(query=True)
    try:
        return decision.actor_fn(st, st.stack[-1][2])
    except (ScriptRuntimeError, *VALUE_FAULTS):
        return None
