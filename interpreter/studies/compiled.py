"""Compiled playouts: a script's random games played by its kernel (codegen/kernel_gen.py), the
same games as the Python playouts, move for move and unit of work for unit of work.

`kernel_for(game)` makes (or finds, in this process or in the cache folder) the kernel of a
loaded script, or says why there is none: a construct the kernel mode does not write (its
file:line), or no compiler (llvmlite cannot be imported).  `Kernel.play_range` plays a range of
a run's games and gives playtest.GameRecord's exactly as the Python path would; a game the kernel
stops (a fault, a budget used up, a value it does not represent) is played again on the Python
path, which gives its fault's message and span.  `Kernel.rollouts` plays rollouts from a
position made in Python (studies/rollouts.rollouts): the position is written into the context
(Kernel._load) and every rollout starts from a copy the kernel keeps of it.
"""

from __future__ import annotations

import ctypes
import hashlib
import weakref

from ..codegen import kernel_layout as kl
from ..codegen.kernel_gen import KernelUnsupported, kernel_source
from ..codegen.kernel_llvm import translate
from ..engine.game import Game
from ..language import limits
from ..language.kept_files import kept_name, private_place, read_kept, write_kept
from ..language.types import BOOL, element, is_list, is_record, record_name
from ..machine.program import Several
from .records import GameRecord, game_seed

_HEAP = 1 << 18  # heap slots a context starts with; a game that fills it is played again with more
_MOST_HEAP = 1 << 24  # 128 MB: a game needing more is played on the Python path
_KEPT = 32  # kernels kept in the cache folder
_PREFIX = "kernel-"
_kernels: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


class NoKernel(Exception):
    """Why a script has no compiled playouts: `reason` in words, `where` its file:line or ""."""

    def __init__(self, reason: str, where: str = ""):
        super().__init__(f"{reason} at {where}" if where else reason)
        self.reason, self.where = reason, where


def kernel_for(game: Game) -> "Kernel":
    """The script's kernel, made once per Game (NoKernel when there can be none)."""
    found = _kernels.get(game)
    if found is None:
        found = _kernels[game] = _make(game)
    if isinstance(found, NoKernel):
        raise found
    return found


def _make(game: Game):
    from ..codegen import kernel_native
    reason = kernel_native.available()
    if reason is not None:
        return NoKernel(reason)
    try:
        source, program, gen = kernel_source(game.program.tables)
    except KernelUnsupported as err:
        return NoKernel(f"{err.what} is not compiled", err.where() if err.span is not None else "")
    layout = kl.layout(program, measures=len(gen._measure_columns()))
    # the object code follows from the kernel's source, where everything lives in the context,
    # the translator and the machine: a kernel found in the cache is not translated again (the
    # translation is most of a warm start)
    regions = repr(sorted(layout.regions.items()))
    key = hashlib.sha256("\0".join((source, regions, _translator(), kernel_native.machine_key())).encode()).digest()
    place = private_place(kept_name(_PREFIX, game.hash + str(game.path)))
    obj = read_kept(place, key) if place else None
    if obj is None:
        obj = kernel_native.compile_ir(translate(source, layout.regions, gen.runs_long))
        if place:
            write_kept(place, key, obj, _PREFIX, _KEPT)
    return Kernel(game, program, gen, layout, kernel_native.Loaded(obj))


_TRANSLATOR: list = []


def _translator() -> str:
    """A digest of the code that turns a kernel's source into IR (kernel_llvm, and kernel_gen's
    runs_long): part of a kept kernel's key, so a change of the translator compiles again."""
    if not _TRANSLATOR:
        from ..codegen import kernel_gen, kernel_llvm
        digest = hashlib.sha256()
        for module in (kernel_llvm, kernel_gen):
            with open(module.__file__, "rb") as f:
                digest.update(f.read())
        _TRANSLATOR.append(digest.hexdigest())
    return _TRANSLATOR[0]


class Kernel:
    """One script's loaded kernel and what reading its results needs."""

    def __init__(self, game, program, gen, layout, loaded):
        self.game, self.program, self.layout = game, program, layout
        self.strings = gen.strings()
        self._number = {text: kl.STRINGS + i for i, text in enumerate(self.strings)}
        self._batch = loaded.function("entry_batch", 2)
        self._shared = loaded.function("entry_shared", 0)
        self._keep = loaded.function("entry_keep", 0)
        self._from = loaded.function("entry_from", 2)
        # frame slots whose values the two paths hold in other shapes, by code: an event's askers
        # (Python: (seat, reactions) pairs; kernel: records [seat, reaction, ...]) and the moves a
        # simultaneous decision collected ((seat, alternative, values); [seat, alternative, value, ...])
        self._shaped: dict = {}
        for d in program.decisions:
            if d.kind == "reaction":
                self._shaped.setdefault(d.code, {})[d.frame_slots[0]] = "askers"
            elif d.kind == "deferred":
                self._shaped.setdefault(d.code, {})[d.frame_slots[2]] = "collected"
        self._loaded = loaded
        self._heap = _HEAP
        self._ctx = None
        t = game.program.tables
        self.measures = [(d.name, d.var is not None) for d in t.measures.values()]

    # ---- values
    def encode(self, value) -> int:
        if value is None:
            return kl.NONE
        if type(value) is bool:
            return int(value)
        if type(value) is int:
            return value
        if type(value) is str and value in self._number:
            return self._number[value]
        raise NoKernel(f"an option's value {value!r} the kernel does not represent")

    def decode(self, value: int, typ, heap):
        """A kernel value as the Python engine holds it (for moves' texts)."""
        if value == kl.NONE:
            return None
        if type(typ) is Several or is_list(typ) or is_record(typ):
            base, n = value >> kl.LENGTH_BITS, value & kl.LENGTH_MASK
            if is_record(typ):
                fields = self.game.program.tables.record_fields[record_name(typ)]
                return tuple(self.decode(heap[base + i], ft, heap) for i, (_, ft) in enumerate(fields))
            inner = element(str(typ)[5:] if type(typ) is Several else typ) if not type(typ) is Several else str(typ)[10:]
            return tuple(self.decode(heap[base + i], inner, heap) for i in range(n))
        if typ == BOOL:
            return bool(value)
        if value >= kl.COMPUTED:
            raise ValueError("a text made while playing has no text in the kernel")
        if value >= kl.STRINGS:
            return self.strings[value - kl.STRINGS]
        return value

    # ---- playing
    def _context(self, heap: int):
        size = self.layout.fixed_size + heap
        if self._ctx is None or len(self._ctx) != size:
            self._ctx = (ctypes.c_int64 * size)()
        return self._ctx

    def play_range(self, players: int, run_seed: int, options: dict, start: int, stop: int,
                   policy: str = "uniform", max_decisions: int = limits.MAX_DECISIONS,
                   budget: tuple = (None, None)) -> list[GameRecord | None]:
        """Records of games start..stop of a run, as playtest.play_range gives them with the
        fast metrics; None for a game the kernel stopped (a fault, a budget), which the caller
        plays again on the Python path for its message and span."""
        values = self.game.read_options(options)
        budget = self.game.budget(*budget)
        rows, opening = self.rows(players, run_seed, values, start, stop, policy, max_decisions, budget)
        return [self._record(row, start + g, players, run_seed, options, values, opening, policy, max_decisions, budget)
                for g, row in enumerate(rows)]

    def rows(self, players: int, run_seed: int, values: dict, start: int, stop: int, policy: str,
             max_decisions: int, budget: tuple) -> tuple[list, object]:
        """(the kernel's result row of each game start..stop, a state at the set-up): a row's
        fields are kernel_layout.RESULT_FIELDS, then the scores and the measures.  A game that
        filled the heap is played again with a larger one, up to _MOST_HEAP."""
        game = self.game
        opening = game.new_game(players=players, seed=0, options=values, max_work=budget[0],
                                max_game_work=budget[1])  # checks the set-up; gives the teams
        out: list = []
        index = start
        while index < stop:
            count = min(stop - index, self.layout.batch)
            batch_heap = self._heap
            rows = self._run(players, run_seed, values, opening, index, count, policy, max_decisions, budget)
            for g, row in enumerate(rows):
                made_with = batch_heap
                while row[kl.RESULT["STATUS"]] == kl.HEAP_FULL and (made_with < self._heap or self._heap < _MOST_HEAP):
                    if made_with == self._heap:  # the game needs a larger heap: it and the next batches get one
                        self._heap *= 4
                    made_with = self._heap
                    row = self._run(players, run_seed, values, opening, index + g, 1, policy, max_decisions, budget)[0]
                out.append(row)
            index += count
        return out, opening

    def _scalars(self, players, run_seed, teams, policy, stop, budget):
        """A fresh context for a run: its scalars (the others 0) and the teams' table."""
        lay = self.layout
        heap = self._heap
        ctx = self._context(heap)
        regions = lay.regions
        s = regions["S"].base
        for k in range(kl.S_SIZE):
            ctx[s + k] = 0
        slot = kl.SLOT
        ctx[s + slot["N"]] = players
        ctx[s + slot["PER_MOVE"]], ctx[s + slot["PER_GAME"]] = budget
        ctx[s + slot["STOP"]] = stop
        ctx[s + slot["RUN_SEED"]] = kl.to_kernel(run_seed)
        ctx[s + slot["POLICY"]] = 0 if policy == "uniform" else 1
        ctx[s + slot["HCAP"]] = heap
        ctx[s + slot["LOG_CAP"]] = 0
        ctx[s + slot["TEAM_COUNT"]] = teams.count if teams is not None else 0
        if teams is not None:
            for seat, team in enumerate(teams.of):
                ctx[regions["TM"].base + seat] = team
        return ctx

    def _run(self, players, run_seed, values, opening, first, count, policy, max_decisions, budget):
        """The result rows of games first .. first + count - 1 (a status of the whole batch, such
        as a heap too small for its shared lists, is every row's)."""
        lay = self.layout
        regions = lay.regions
        s, slot = regions["S"].base, kl.SLOT
        ctx = self._scalars(players, run_seed, opening.teams, policy, max_decisions, budget)
        start = regions["VINIT"].base
        for var_slot, base in enumerate(lay.var_base):
            ctx[start + base] = kl.NONE
        for name, opt_slot in self.program.var_slots.items():
            if name in self.program.tables.options:
                ctx[start + lay.var_base[opt_slot]] = self.encode(values.get(name, _default(self.program, name)))
        self._batch(ctypes.addressof(ctx), first, count)
        status = ctx[s + slot["STATUS"]]
        width = lay.result_width
        base = regions["RES"].base
        rows = []
        for g in range(count):
            at = base + g * width
            row = ctx[at:at + width]
            if status:  # the batch's own set-up stopped: every game goes the Python way
                row[kl.RESULT["STATUS"]] = status
            rows.append(row)
        return rows

    # ---- rollouts from a position made in Python (studies/rollouts.rollouts)
    def rollouts(self, state, n: int, seed: int, policy: str, max_decisions: int) -> list:
        """Rollout i = 0..n-1 from `state` as (scores, length, outcome), as studies/rollouts plays
        it on the Python path (game i's chance stream and player from `seed`); None for one the
        kernel stopped (a fault, a budget used up, a value it does not hold), which the caller
        plays on the Python path.  NoKernel when the position cannot be written (see _load)."""
        out: list = []
        index, loaded = 0, False
        status_at = kl.RESULT["STATUS"]
        while index < n:
            if not loaded:
                self._load(state, seed, policy, max_decisions)
                loaded = True
            count = min(n - index, self.layout.batch)
            done = self._from(ctypes.addressof(self._ctx), index, count)
            rows = self._result_rows(done + (done < count))
            out += [self._rollout(row, state) for row in rows[:done]]
            index += done
            if done < count:  # the kernel stopped this game: its regions may hold anything now
                loaded = False
                if rows[done][status_at] == kl.HEAP_FULL and self._heap < _MOST_HEAP:
                    self._heap *= 4  # played again with a larger heap
                    continue
                out.append(None)
                index += 1
        return out

    def check_position(self, state) -> None:
        """NoKernel when rollouts from `state` cannot start in the kernel (see _load)."""
        self._load(state, 0, "uniform", 1)

    def _result_rows(self, count: int) -> list:
        width, base, ctx = self.layout.result_width, self.layout.regions["RES"].base, self._ctx
        return [ctx[base + g * width:base + (g + 1) * width] for g in range(count)]

    def _load(self, state, seed: int, policy: str, max_decisions: int) -> None:
        """Write `state` (a GameState at a decision or at its end) into a fresh context and keep
        it as the position every game of entry_from starts from: the zones, each card's place
        and facing, the variables, the frames (code, program counter, locals), the scalars of
        the run; lists and records in the heap above the shared lists.  NoKernel when it cannot
        be: a game faulted, paused or past a decision limit, a value the kernel does not hold."""
        if state.fault is not None or state.pause_point is not None:
            raise NoKernel("a faulted or paused position is not compiled")
        if state.waiting is None and not state.over:
            raise NoKernel("a position with no decision pending is not compiled")
        lay, regions, slot = self.layout, self.layout.regions, kl.SLOT
        ctx = self._scalars(state.n, seed, state.teams, policy, state.decisions + max_decisions, state.budget)
        address = ctypes.addressof(ctx)
        self._shared(address)
        s, h = regions["S"].base, regions["H"].base
        top, cap, number = ctx[s + slot["HTOP"]], self._heap, self._number

        def put(value) -> int:
            nonlocal top
            kind = type(value)
            if kind is int:
                return value
            if value is None:
                return kl.NONE
            if kind is bool:
                return int(value)
            if kind is str:
                found = number.get(value)
                return found if found is not None else kl.COMPUTED + len(value)
            if kind is tuple or kind is list:
                size = len(value)
                if top + size > cap or size > kl.LENGTH_MASK:
                    raise _HeapFull()
                at = top
                top += size
                for i, item in enumerate(value):
                    ctx[h + at + i] = put(item)
                return (at << kl.LENGTH_BITS) | size
            raise NoKernel(f"a value {value!r} the kernel does not represent")

        def shaped(kind: str, value):
            if kind == "askers" and type(value) is tuple and all(type(e) is tuple and len(e) == 2 for e in value):
                return put(tuple((seat, *offers) for seat, offers in value))
            if kind == "collected" and type(value) is tuple and all(type(e) is tuple and len(e) == 3 for e in value):
                pad = (None,) * (lay.move_width - 1)
                return put(tuple((seat, alt, *(tuple(values) + pad)[:lay.move_width - 1]) for seat, alt, values in value))
            return put(value)

        try:
            nc, z, zn = lay.cards, regions["Z"].base, regions["ZN"].base
            for k, cards in enumerate(state.zones):
                ctx[zn + k] = len(cards)
                for i, card in enumerate(cards):
                    ctx[z + k * nc + i] = card
            loc, vis = regions["LOC"].base, regions["VIS"].base
            for card, place in enumerate(state.loc):
                ctx[loc + card] = place
                ctx[vis + card] = state.vis[card]
            v, rows = regions["V"].base, self.program.row_var_slots
            for var, base in enumerate(lay.var_base):
                if var in rows:
                    for k, value in enumerate(state.vars[var]):
                        ctx[v + base + k] = put(value)
                else:
                    ctx[v + base] = put(state.vars[var])
            fl, fs = regions["FL"].base, lay.frame
            if len(state.stack) > lay.depth:
                raise NoKernel("a position deeper in calls than the kernel holds")
            for depth, (code, pc, local) in enumerate(state.stack):
                at = fl + depth * fs
                ctx[at], ctx[at + 1] = code, pc
                special = self._shaped.get(code, {})
                for i in range(fs - 2):
                    value = local[i] if i < len(local) else None
                    ctx[at + 2 + i] = shaped(special[i], value) if i in special else put(value)
        except _HeapFull:
            if self._heap >= _MOST_HEAP:
                raise NoKernel("a position holding more lists than the kernel's heap") from None
            self._heap *= 4
            return self._load(state, seed, policy, max_decisions)
        for name, value in (("GAME_WORK", state.game_work), ("DEPTH", len(state.stack) - 1),
                            ("WAITING", state.waiting.index if state.waiting is not None else -1),
                            ("ACTOR", put(state.actor)), ("OVER", int(bool(state.over))),
                            ("CAPPED", int(bool(state.capped))), ("DECISIONS", state.decisions), ("HTOP", top)):
            ctx[s + slot[name]] = value
        self._keep(address)

    def _rollout(self, row, state) -> tuple | None:
        r = kl.RESULT
        length = row[r["DECISIONS"]] - state.decisions
        if not row[r["OVER"]]:
            return None  # the scores where it stopped (a Rollout's standing) are not kept: the Python path's
        first, players = len(kl.RESULT_FIELDS), state.n
        scores = tuple(row[first:first + players])
        winners = tuple(s for s in range(players) if row[r["WINNERS"]] >> s & 1)
        if row[r["CAPPED"]]:
            return scores, length, "capped", winners, scores
        mask = row[r["WINNING_TEAMS"] if state.teams is not None else r["WINNERS"]]
        return scores, length, "won" if bin(mask).count("1") == 1 else "drawn", winners, scores

    def _record(self, row, index, players, run_seed, options, values, opening, policy, max_decisions, budget):
        r = kl.RESULT
        if row[r["STATUS"]]:
            return None  # the kernel stopped it: the caller plays it again on the Python path
        seed = game_seed(run_seed, index)
        teams = opening.teams
        decisions, over = row[r["DECISIONS"]], row[r["OVER"]]
        scores = winners = winning = None
        measures: dict = {}
        if not over and decisions >= max_decisions:
            outcome = "limit"
        else:
            mp = self.layout.most_players
            first = len(kl.RESULT_FIELDS)
            scores = tuple(row[first:first + players])
            winners = tuple(s for s in range(players) if row[r["WINNERS"]] >> s & 1)
            if teams is not None:
                winning = tuple(t for t in range(teams.count) if row[r["WINNING_TEAMS"]] >> t & 1)
            column = first + mp
            for name, per_player in self.measures:
                if per_player:
                    measures[name] = tuple(row[column:column + players])
                    column += mp
                else:
                    measures[name] = row[column]
                    column += 1
            if row[r["CAPPED"]]:
                outcome = "capped"
            else:
                outcome = "won" if len(winning if winning is not None else winners) == 1 else "drawn"
        return GameRecord(index, seed, players, dict(values), outcome, decisions, scores, winners, measures, None, None,
                          None, decisions, row[r["OFFERED"]], row[r["FORCED"]], None,
                          teams.of if teams is not None else None, winning)


class _HeapFull(Exception):
    """A position's lists need a larger heap than the context has."""


def _default(program, name):
    from ..language.checker import default_value
    return default_value(program.tables.options[name])


