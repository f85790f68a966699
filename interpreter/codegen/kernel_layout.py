"""How a compiled playout holds a game: every value one 64-bit integer, the whole position one
array of them (the context), and where in it each part lives.

Values: numbers are themselves (within limits.MAX_INT); `none` is the most negative integer;
true and false are 1 and 0; cards, players, teams and zones are their numbers, as in the
Python engine; a symbol or a constant text is a number above every number (STRINGS + its place in
the script's table of texts, so a symbol and a text that read alike are equal, as Python's strings
are); a text computed while playing is COMPUTED + its length (all its work depends on); a list or
a record is a handle, (its first slot in the heap << LENGTH_BITS) | its length, its items in the
heap.  Lists are values: nothing changes one once it is made, so handles are shared freely.

The context: S, the scalars (the work, the generators' states, the stack's depth, ...); the zones
(Z: each slot's cards, bottom first; ZN: how many), each card's zone (LOC) and visibility (VIS),
the variables (V, a per-player or per-team one a row of MP), the frames (FL: per depth, code,
program counter and locals), a decision's listing (MV), the batch's results (RES), and the heap
(H, last, as long as the driver made it).
"""

from __future__ import annotations

import attrs

from ..language import limits
from .kernel_llvm import STATUS, Region

NONE = -(1 << 63)
MAX_INT = limits.MAX_INT
STRINGS = MAX_INT + 1  # a text or symbol: STRINGS + its number
COMPUTED = MAX_INT + (1 << 61)  # a text made while playing: COMPUTED + its length
LENGTH_BITS = 20
LENGTH_MASK = (1 << LENGTH_BITS) - 1
FACE_UP = 1 << 62

# ---- the scalars: S[...]
SCALARS = ("RESERVED", "STATUS", "WORK", "LIMIT", "GAME_WORK", "RNG", "AGENT", "N", "DEPTH", "WAITING", "ACTOR",
           "OVER", "CAPPED", "DECISIONS", "HTOP", "PER_MOVE", "PER_GAME", "STOP", "OFFERED", "FORCED",
           "PLAYERS", "HBASE", "TEAM_COUNT", "TEAMS", "LOGGING", "LOG_TOP", "QUERY_WORK", "GAME",
           "HCAP", "RUN_SEED", "FIRST_GAME", "POLICY", "PLAYERS_FROM", "MEMBERS", "PARTNERS", "LOG_CAP",
           "CURSOR", "BLOCKS", "PAUSING", "PAUSED", "OPENED", "MEMO")
SLOT = {name: i for i, name in enumerate(SCALARS)}
assert SLOT["STATUS"] == STATUS
S_SIZE = 64

# ---- why a game stopped in the kernel (S[STATUS]); the Python path plays such a game instead
BAILS = {
    1: "an index out of its range (a fault of the compiled code, never of the script)",
    2: "a division by zero",
    3: "a fault of the script",
    4: "a work budget used up",
    5: "the heap is full",
    6: "a value the compiled code does not represent",
    7: "a decision with no legal move",
    8: "the limit on decisions reached",
    9: "a decision offering more moves than allowed",
    10: "the move log is full",
}
BAILS_BY_NAME = {"BOUNDS": 1, "FAULT": 3, "OVER_BUDGET": 4, "HEAP_FULL": 5, "UNREPRESENTED": 6, "DEAD_END": 7,
                 "TOO_MANY_DECISIONS": 8, "TOO_MANY_MOVES": 9, "LOG_FULL": 10}
HEAP_FULL = BAILS_BY_NAME["HEAP_FULL"]

# ---- a game's result in RES: its row
RESULT_FIELDS = ("STATUS", "OVER", "CAPPED", "DECISIONS", "OFFERED", "FORCED", "GAME_WORK", "WINNERS",
                 "WINNING_TEAMS", "RNG", "AGENT", "HEAP")
RESULT = {name: i for i, name in enumerate(RESULT_FIELDS)}


@attrs.frozen
class Layout:
    """Where everything lives in the context of one script's kernel: the regions, the sizes the
    kernel was made for, each variable's place in V (`var_base`), and a result row's size."""

    cards: int  # NC
    slots: int  # zone slots for the most players
    most_players: int  # MP
    frame: int  # FS: code, program counter, locals
    depth: int  # frames at most
    move_width: int  # MW: alternative, then each binder's value
    var_base: tuple  # var slot -> its first place in V
    var_size: int
    measures: int  # result columns for measures (a per-player one takes MP)
    batch: int  # games per call at most
    log: int  # logged decisions at most
    regions: dict = attrs.field(eq=False, repr=False)

    @property
    def result_width(self) -> int:
        return len(RESULT_FIELDS) + self.most_players + self.measures

    @property
    def fixed_size(self) -> int:
        """The context's slots before the heap."""
        return self.regions["H"].base


def layout(program, measures: int, batch: int = 256, log: int = 1 << 16) -> Layout:
    """The layout of `program`'s kernel (Program, as the kernel mode of the compiler made it)."""
    t = program.tables
    mp = max(1, int(t.max_players or 1))
    cards = max(1, len(program.card_names))
    slots = program.shared_zone_count + len(program.per_player_names) * mp
    var_base, at = [], 0
    rows = set(program.row_var_slots)
    for slot in range(len(program.var_slots)):
        var_base.append(at)
        at += mp if slot in rows else 1
    frame = 2 + max([info.size for info in program.code_info] + [int(t.frames.get("globals", 0)), 1])
    depth = limits.MAX_CALL_DEPTH + 2
    width = 1 + max([len(spec.bindings) for d in program.decisions for spec in d.alts] + [0])
    alts = max([len(d.alts) for d in program.decisions] + [0])
    sizes = [("S", S_SIZE), ("Z", max(1, slots) * cards), ("ZN", max(1, slots)), ("LOC", cards), ("VIS", cards),
             ("V", max(1, at)), ("VINIT", max(1, at)), ("FL", depth * frame),
             ("MV", (limits.MAX_MOVES_PER_DECISION + 1) * width), ("BK", 5 * max(1, alts)), ("TM", mp),
             ("RES", batch * (len(RESULT_FIELDS) + mp + measures)), ("LOG", log * (1 + width)),
             ("SNAP", 16 + max(1, slots) * (cards + 1) + 2 * cards + max(1, at) + depth * frame),
             ("MEMO_KEPT", 128)]
    regions, base = {}, 0
    for name, size in sizes:
        regions[name] = Region(base, size)
        base += size
    regions["H"] = Region(base, SLOT["HCAP"], dynamic=True)
    return Layout(cards, slots, mp, frame, depth, width, tuple(var_base), at, measures, batch, log, regions)


def to_kernel(value: int) -> int:
    """A generator's state (0 .. 2**64 - 1) as the kernel's signed integer."""
    return value - (1 << 64) if value >= 1 << 63 else value


def from_kernel(value: int) -> int:
    return value + (1 << 64) if value < 0 else value
