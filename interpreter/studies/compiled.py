"""Compiled playouts: a script's random games played by its kernel (codegen/kernel_gen.py), the
same games as the Python playouts, move for move and unit of work for unit of work.

`kernel_for(game)` makes (or finds, in this process or in the cache folder) the kernel of a
loaded script, or says why there is none: a construct the kernel mode does not write (its
file:line), or no compiler (llvmlite cannot be imported).  `Kernel.play_range` plays a range of
a run's games and gives playtest.GameRecord's exactly as the Python path would; a game the kernel
stops (a fault, a budget used up, a value it does not represent) is played again on the Python
path, which gives its fault's message and span.
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
from .playtest import GameRecord, game_seed, play_recorded

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
        return NoKernel(f"{err.what} is not compiled", err.where())
    layout = kl.layout(program, measures=len(gen._measure_columns()))
    ir = translate(source, layout.regions, gen.runs_long)
    key = hashlib.sha256((ir + "\0" + kernel_native.machine_key()).encode()).digest()
    place = private_place(kept_name(_PREFIX, game.hash + str(game.path)))
    obj = read_kept(place, key) if place else None
    if obj is None:
        obj = kernel_native.compile_ir(ir)
        if place:
            write_kept(place, key, obj, _PREFIX, _KEPT)
    return Kernel(game, program, gen, layout, kernel_native.Loaded(obj))


class Kernel:
    """One script's loaded kernel and what reading its results needs."""

    def __init__(self, game, program, gen, layout, loaded):
        self.game, self.program, self.layout = game, program, layout
        self.strings = gen.strings()
        self._number = {text: kl.STRINGS + i for i, text in enumerate(self.strings)}
        self._batch = loaded.function("entry_batch", 2)
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
                   budget: tuple = (None, None)) -> list[GameRecord]:
        """Records of games start..stop of a run, as playtest.play_range gives them with the
        fast metrics."""
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

    def _run(self, players, run_seed, values, opening, first, count, policy, max_decisions, budget):
        """The result rows of games first .. first + count - 1 (a status of the whole batch, such
        as a heap too small for its shared lists, is every row's)."""
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
        ctx[s + slot["STOP"]] = max_decisions
        ctx[s + slot["RUN_SEED"]] = kl.to_kernel(run_seed)
        ctx[s + slot["POLICY"]] = 0 if policy == "uniform" else 1
        ctx[s + slot["HCAP"]] = heap
        ctx[s + slot["LOG_CAP"]] = 0
        teams = opening.teams
        ctx[s + slot["TEAM_COUNT"]] = teams.count if teams is not None else 0
        if teams is not None:
            for seat, team in enumerate(teams.of):
                ctx[regions["TM"].base + seat] = team
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

    def _record(self, row, index, players, run_seed, options, values, opening, policy, max_decisions, budget):
        r = kl.RESULT
        if row[r["STATUS"]]:
            return play_recorded(self.game, players, run_seed, index, options, policy, max_decisions, None, budget,
                                 "fast")
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


def _default(program, name):
    from ..language.checker import default_value
    return default_value(program.tables.options[name])


