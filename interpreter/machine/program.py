"""The compiled program: the state machine's code objects, decision points and lookup tables.

Built once per script by compiler.py (engine.Game then attaches its source lookups) and shared,
unchanged, by every game of that script.
"""

from __future__ import annotations

import json
import re

import attrs

from ..language import nodes as n
from ..language.checker import Tables, default_value
from ..language.seating import seat_label
from ..language.source import Span
from ..language.types import ANY, BOOL, CARD, INT, PLAYER, TEAM, TEXT, ZONE, is_list, is_record, record_name


@attrs.frozen
class Move:
    """One option of the current decision; `str(move)` is its unique readable name (`play 7C`)."""

    text: str
    alt: int
    values: tuple

    def __str__(self) -> str:
        return self.text


class Several(str):
    """The type of a binder choosing several items (`xs from 3 of hand[p]`): a list type whose
    move words are the items themselves, in canonical order (`give 3C 9H QS`, see choosing.py)."""


def render_move_value(prog, typ, value, n_players: int | None = None) -> str:
    """A binder's value as it reads in a move's name (`7C`, `P2`, `3`, `discard`, `hand[P1]`)."""
    if value is None:
        return "none"
    if type(typ) is Several:
        return " ".join(render_move_value(prog, typ[5:], v, n_players) for v in value)
    if typ == CARD:  # a card a seat cannot see, in an explanation under its view, reads ??
        return prog.card_names[value] if type(value) is int else str(value)
    if typ == PLAYER:
        return prog.seat_label(value)
    if typ == INT and type(value) is int:  # a raise of any amount: a hundred numbers a listing
        return str(value)
    if typ == ZONE and n_players:
        name, owner = prog.zone_of_slot(value, n_players)
        return name if owner is None else f"{name}[{prog.seat_label(owner)}]"
    if is_record(typ) and isinstance(value, tuple):  # `lay meld(cards: [4D, 4C, 4S], points: 12)`
        return render_record(prog, typ, value, lambda t, v: render_move_value(prog, t, v, n_players))
    if isinstance(value, tuple):  # a binder over a list of lists: `keep [4D, 4C]`
        inner = typ[5:] if is_list(typ) else "any"
        return "[" + ", ".join(render_move_value(prog, inner, v, n_players) for v in value) + "]"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if typ in (TEXT, ANY) and type(value) is str and _quoted_in_moves(value):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


# A text that reads as another value in a move's name: `say "none"` is not `say none`, the value
# none; nor `say "3"` the number 3 or `say "true"` the truth value, in a list mixing the two.
_READS_AS_A_VALUE = re.compile(r"-?\d+|none|true|false")


def _quoted_in_moves(text: str) -> bool:
    """Whether a chosen text is written in quotes in a move's name: words run together (`pick
    "x y" z` is not `pick x "y z"`), an empty text, and a text that reads as another value."""
    return not text or any(c.isspace() or c == '"' for c in text) or _READS_AS_A_VALUE.fullmatch(text) is not None


def move_text(prog, name: str, types, values, n_players: int) -> str:
    """A move's name: the alternative's name, then each binder's value."""
    if len(values) == 1:  # the usual one binder, without the lists
        word = render_move_value(prog, types[0], values[0], n_players)
        return f"{name} {word}" if word else name
    words = [render_move_value(prog, t, v, n_players) for t, v in zip(types, values)]
    return " ".join([name] + [w for w in words if w])  # choosing no items adds no word


# a seat written by its number in a move's text (`give P2`, `hand[P1]`), not inside a quoted text
_SEAT_NUMBER = re.compile(r'(?<![\w"])[Pp](\d+)(?![\w"])')


def find_move(prog, decision, moves, text: str, n_players: int):
    """The move of `moves` that `text` names, exactly or with the items of a several-item
    binder in any order (`give QS 3C 9H` for `give 3C 9H QS`); None if none does.  Where the
    script names its seats (`players 4 named N, E, S, W`), a seat may be typed `P2` as well."""
    for m in moves:
        if m.text == text:
            return m
    if prog.tables.seat_names and _SEAT_NUMBER.search(text):
        named = _SEAT_NUMBER.sub(lambda w: prog.seat_label(int(w.group(1))) if int(w.group(1)) < n_players
                                 else w.group(0), text)
        if named != text:
            return find_move(prog, decision, moves, named, n_players)
    words = text.split()
    if not words:
        return None
    for m in moves:
        spec = decision.alts[m.alt]
        if spec.name != words[0] or not any(b.several for b in spec.bindings):
            continue
        rest, fits = words[1:], True
        for b, v in zip(spec.bindings, m.values):
            mine = render_move_value(prog, b.type, v, n_players).split()
            typed, rest = rest[:len(mine)], rest[len(mine):]
            if typed != mine and not (b.several and sorted(typed) == sorted(mine)):
                fits = False
                break
        if fits and not rest:
            return m
    return None


@attrs.define
class CodeInfo:
    name: str
    kind: str  # phase, procedure, event
    span: Span
    size: int
    phase: str | None


@attrs.define
class Binding:
    slot: int
    type: str
    domain: object  # fn(st, L) -> sequence, for `x from SOURCE`
    low: object  # fn(st, L) -> int, for `n in LOW..HIGH`, and the counts of `xs from LOW..HIGH of SOURCE`
    high: object  # (for `xs from K of SOURCE`, low is None: exactly K)
    several: bool = False  # `xs from LOW..HIGH of SOURCE`: a set of distinct items (choosing.py)
    repeats: bool = False  # `... with repeats`: multisets of the items (choosing.repeated)
    key: object = None  # `... distinct by ATTR`: the attribute's table (card id -> value), sets one per multiset of it


@attrs.define
class RuleUse:
    rule: "CompiledRule"
    args: tuple  # fns(st, L)
    call: n.RuleCall
    arg_types: tuple = ()  # the checker's type of each argument, to hide its cards from a seat


@attrs.define
class AltSpec:
    index: int
    name: str
    bindings: tuple
    rules: tuple
    body_pc: int
    node: n.Alternative
    reaction: int | None = None  # for reaction windows: which reaction offers it


@attrs.define
class Decision:
    """A decision point: a state of the machine that waits for a move."""

    index: int
    kind: str  # "normal", "deferred" (simultaneous), "reaction"
    prompt: str  # the prompt as written, `{...}` included
    alts: list
    code: int
    pc: int
    span: Span
    actor_fn: object = None  # None for table decisions
    frame_slots: tuple = ()  # reaction windows: (askers slot, reaction var slots)
    fast: object = None  # generated fn(st, L) -> legal moves (codegen.py); None: moves.enumerate_moves
    pick: object = None  # the same for a playout, None when the public path must list them (playout.py)
    draw: object = None  # the same as the cards whose moves they are (Gen.playout_drawer), or None
    prompt_fn: object = None  # fn(st, L) -> the prompt with its `{...}` filled in
    prompt_parts: tuple = None  # the prompt as a seat reads it (Gen.seat_text; knowledge.seat_reading)
    binds: tuple = ()  # per alternative: (pc of its body, its binders' slots); see Program.plan_moves
    sets: tuple = ()  # per alternative: (pc of its body or None if deferred, its one binder's slot or None)
    secret: bool = False  # `decide p secretly`: the move is told to the chooser (and `knowers_fn`'s seats) only
    knowers_fn: object = None  # `secretly with EXPR`: fn(st, L) -> a seat or seats who know the move too

    @property
    def hidden(self) -> bool:
        """Whether the chosen move is kept from the other seats: a simultaneous or a secret decision."""
        return self.secret or self.kind == "deferred"


@attrs.define
class CompiledRule:
    node: n.RuleDecl
    size: int
    check: object  # fn(st, R) -> bool (explanations use traced code: Compiler.traced_rule)


@attrs.define
class Program:
    tables: Tables
    codes: list = attrs.Factory(list)
    chance_points: list = attrs.Factory(list)  # per code: the pcs of operations that draw (pause points)
    code_info: list = attrs.Factory(list)
    decisions: list = attrs.Factory(list)
    rules: dict = attrs.Factory(dict)
    phase_code: dict = attrs.Factory(dict)
    var_slots: dict = attrs.Factory(dict)  # name -> slot in State.vars (options first)
    per_player_var_slots: tuple = ()
    per_team_var_slots: tuple = ()
    row_var_slots: tuple = ()  # both: slots holding one value per seat or per team (copied as lists)
    never_none_var_slots: frozenset = frozenset()  # variables never none (never_none.py): restore refuses none
    card_var_slots: dict = attrs.Factory(dict)  # slot -> (var, type) of the public variables that may hold cards
    shared_zone_count: int = 0
    zone_index: dict = attrs.Factory(dict)  # name -> (shared slot) or (per-player ordinal)
    card_names: list = attrs.Factory(list)
    card_by_name: dict = attrs.Factory(dict)
    attr_tables: dict = attrs.Factory(dict)
    display_keys: dict = attrs.Factory(dict)  # zone name -> card id -> its sort key (`shown by`)
    var_inits: list = attrs.Factory(list)  # (slot, fn, "player" / "team" / None: one value per what)
    score_fn: object = None
    winners_fn: object = None
    teams_fn: object = None  # fn(st, seat) -> the seat's team number, for `teams p: EXPR`
    deck_zones: list = attrs.Factory(list)  # (zone name, [card ids])
    transitions: list = attrs.Factory(list)  # (from code index, to phase name, span) for each `next`
    op_spans: dict = attrs.Factory(dict)  # code index -> span of the statement at each pc
    statement_spans: list = attrs.Factory(list)  # the spans gen_common.SPAN_MARK lines name
    marked_lines: dict = attrs.Factory(dict)  # generated file name -> ((line, statement_spans index), ...)
    zone_conditions: dict = attrs.Factory(dict)  # zone name -> fn(st, L) -> bool
    visibility_tables: dict = attrs.Factory(dict)  # (players, options) -> knowledge.slot_visibility's table
    zone_labels: dict = attrs.Factory(dict)  # players -> each slot's `zone[P1]` (knowledge.zone_labels)
    unknown_places: tuple = None  # per card, the Unknown a masked position reads for where it lies (knowledge.py)
    compiler: object = None  # for traced re-evaluation in explanations
    explain_cache: dict = attrs.Factory(dict)  # rule name -> what explanations show of it (moves.py)
    source_text: object = None  # fn(span) -> the source it covers
    render: object = None  # fn(type, value) -> text
    _playout_codes: list | None = None  # see playout_codes

    @property
    def playout_codes(self) -> list:
        """The operations playouts run (codegen.Gen.playout_codes), each made when it first
        runs: most programs loaded are never played out."""
        if self._playout_codes is None:
            self._playout_codes = self.compiler.gen.playout_codes()
        return self._playout_codes

    def make_playout_codes(self) -> None:
        """Every playout operation made now, not as it first runs (bench.opcodes counts what
        playing costs, and making them is loading)."""
        table = self.playout_codes
        for code, ops in enumerate(table):
            for pc, op in enumerate(ops):
                if getattr(op, "unmade", False):
                    self.compiler.gen.make_playout_op(table, code, pc)

    def plan_moves(self):
        """Work out, once, where applying each decision's moves writes (moves.apply_move reads it
        at every move): each alternative's body and the slots of its binders."""
        for decision in self.decisions:
            decision.binds = tuple((spec.body_pc, tuple(b.slot for b in spec.bindings)) for spec in decision.alts)
            deferred = decision.kind == "deferred"  # its moves are collected, not run: no body yet
            decision.sets = tuple((None, None) if deferred else (pc, slots[0] if len(slots) == 1 else None)
                                  for pc, slots in decision.binds)

    def zone_slot(self, name: str, owner: int | None, n_players: int) -> int:
        kind, k = self.zone_index[name]
        return k if kind == "shared" else self.shared_zone_count + k * n_players + owner

    def zone_of_slot(self, slot: int, n_players: int) -> tuple[str, int | None]:
        if slot < self.shared_zone_count:
            return self.shared_names[slot], None
        k, owner = divmod(slot - self.shared_zone_count, n_players)
        return self.per_player_names[k], owner

    def seat_label(self, k: int) -> str:
        """How people read seat k: its name (`players 4 named N, E, S, W`), else `P{k}`."""
        return seat_label(self.tables.seat_names, k)

    @property
    def shared_names(self):
        return [z for z, (kind, _) in self.zone_index.items() if kind == "shared"]

    @property
    def per_player_names(self):
        return [z for z, (kind, _) in self.zone_index.items() if kind == "per_player"]


def render_value(prog: Program, typ: str, value, n_players: int | None = None) -> str:
    """A value as people read it: card names, players as P0.., zones by name, lists in brackets."""
    if value is None:
        return "none"
    if typ == CARD and type(value) is int:
        return prog.card_names[value]
    if typ == PLAYER and type(value) is int:
        return prog.seat_label(value)
    if typ == TEAM and type(value) is int:
        return f"T{value}"
    if typ == BOOL or type(value) is bool:
        return "true" if value else "false"
    if typ == ZONE and type(value) is int and n_players:
        name, owner = prog.zone_of_slot(value, n_players)
        return name if owner is None else f"{name}[{prog.seat_label(owner)}]"
    if is_record(typ) and isinstance(value, (tuple, list)):
        return render_record(prog, typ, value, lambda t, v: render_value(prog, t, v, n_players))
    if isinstance(value, (tuple, list)):
        inner = typ[5:] if is_list(typ) else "any"
        return "[" + ", ".join(_quoted(v) if inner == TEXT and type(v) is str else render_value(prog, inner, v, n_players)
                               for v in value) + "]"
    return str(value)


def _quoted(text: str) -> str:
    """A text inside a list or record, as the script writes it: `["", "a b"]` cannot read as `[, a b]`."""
    return json.dumps(text, ensure_ascii=False)


def render_record(prog, typ, value, render) -> str:
    """`meld(kind: "run", cards: [4D, 5D, 6D])`: a record as its constructor writes it, each field
    shown by `render(field type, field value)`; a text field is quoted, so it cannot read as a
    symbol."""
    name = record_name(typ)
    fields = prog.tables.record_fields.get(name, ())

    def field(ft, v):
        return _quoted(v) if ft == TEXT and type(v) is str else render(ft, v)

    return f"{name}(" + ", ".join(f"{f}: {field(ft, v)}" for (f, ft), v in zip(fields, value)) + ")"


def values_inside(prog, typ, value):
    """(type, value) of every value inside `value`, itself included, found by its type: the cards
    a record or a list holds, for the knowledge model."""
    stack = [(typ, value)]
    while stack:
        typ, value = stack.pop()
        yield typ, value
        if not isinstance(value, (tuple, list)):
            continue
        if is_record(typ):
            fields = prog.tables.record_fields.get(record_name(typ), ())
            stack.extend((ft, v) for (_, ft), v in zip(fields, value))
        elif is_list(typ):
            stack.extend((typ[5:], v) for v in value)


def holds_cards(tables, typ) -> bool:
    """Whether values of `typ` may hold cards: a card, a list of them, a record with a card in a
    field (the knowledge model masks such values for seats that do not know the cards)."""
    seen = set()
    stack = [typ]
    while stack:
        t = stack.pop()
        if t == CARD:
            return True
        if t is None or t in seen:
            continue
        seen.add(t)
        if is_list(t):
            stack.append(t[5:])
        elif is_record(t):
            stack.extend(ft for _, ft in tables.record_fields.get(record_name(t), ()))
    return False


def initial_values(prog: Program, options: dict) -> list:
    values = [None] * len(prog.var_slots)
    for name, opt in prog.tables.options.items():
        values[prog.var_slots[name]] = options.get(name, default_value(opt))
    return values
