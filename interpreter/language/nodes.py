"""The syntax tree: frozen attrs nodes, each carrying the span it was parsed from.

Only interpreter/parser.py builds these; the checker and compiler read them.  Nodes compare
by identity (eq=False) so the checker can key its type table by node cheaply.
"""

from __future__ import annotations

import attrs

from .source import Span

node = attrs.frozen(eq=False)


# the words that begin a statement (a procedure named so would be called as that statement)
STATEMENT_WORDS = ("let", "set", "move", "deal", "shuffle", "reveal", "hide", "show", "if", "for", "while",
                   "repeat", "loop", "break", "decide", "simultaneously", "next", "end", "signal", "cancel",
                   "return", "log")


_FIELD_NAMES: dict = {}  # node class -> the names of its fields
_IS_NODE: dict = {}  # class -> whether it is an attrs class (a node, or a span)


def _field_names(cls) -> tuple:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(field.name for field in attrs.fields(cls))
    return names


def _is_node(cls) -> bool:
    found = _IS_NODE.get(cls)
    if found is None:
        found = _IS_NODE[cls] = attrs.has(cls)
    return found


def children(x):
    """The syntax nodes directly inside `x`, in the order of its fields (each class's fields
    are looked up once: walking a 40,000-item list asked attrs 200,000 times)."""
    is_node = _IS_NODE
    for name in _FIELD_NAMES.get(type(x)) or _field_names(type(x)):
        value = getattr(x, name)
        kind = type(value)
        found = is_node.get(kind)
        if found is None:
            found = _is_node(kind)
        if found:
            yield value
        elif kind is tuple or kind is list or isinstance(value, (tuple, list)):
            for item in value:
                if is_node.get(type(item)) or _is_node(type(item)):
                    yield item
                elif isinstance(item, tuple):  # (cond, body) pairs
                    yield from (part for part in item if _is_node(type(part)))


def walk(e):
    """Every syntax node inside `e`, `e` included."""
    stack = [e]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(children(x))


# ---- expressions ---------------------------------------------------------------------------

@node
class Literal:
    span: Span
    value: object
    kind: str  # "int", "text", "bool", "none"


@node
class Name:
    span: Span
    name: str


@node
class Attr:
    span: Span
    obj: object
    name: str
    name_span: Span


@node
class Index:
    span: Span
    obj: object
    index: object


@node
class Call:
    span: Span
    func: str
    args: tuple
    func_span: Span


@node
class Unary:
    span: Span
    op: str  # "neg", "not"
    operand: object


@node
class Binary:
    span: Span
    op: str  # + - * / % == != < <= > >= in notin and or
    left: object
    right: object


@node
class IfExpr:
    span: Span
    cond: object
    then: object
    orelse: object


@node
class Quant:
    """`any|all|no|count VAR in SOURCE where COND`."""

    span: Span
    kind: str
    var: str
    source: object
    cond: object


@node
class Pattern:
    """`groups VAR in SOURCE by KEY`: the items with equal keys together; `runs VAR in SOURCE by
    KEY least N`: one item at each of N or more consecutive keys (docs/language.md §11)."""

    span: Span
    kind: str
    var: str
    source: object
    key: object
    least: object = None


@node
class Best:
    """`max|min VAR in SOURCE by KEY`: the element with the largest (smallest) key, first on ties;
    `sorted VAR in SOURCE by KEY`: the elements by increasing key, in SOURCE's order on ties.
    A list literal as KEY is several keys, the first deciding first."""

    span: Span
    kind: str
    var: str
    source: object
    key: object


@node
class ListLit:
    span: Span
    items: tuple


@node
class Comprehension:
    """`[EXPR for VAR in SOURCE where COND]`.  Several `for` clauses nest: the outer node's
    `expr` is the inner comprehension and `flat` joins the inner lists into one."""

    span: Span
    expr: object
    var: str
    source: object
    cond: object | None
    flat: bool = False


@node
class LetExpr:
    """`let NAME = VALUE in BODY`: BODY with NAME bound to VALUE (computed once)."""

    span: Span
    name: str
    name_span: Span
    value: object
    body: object


@node
class FieldValue:
    """`points: 30` inside a record's constructor."""

    span: Span
    name: str
    name_span: Span
    value: object


@node
class RecordLit:
    """`meld(cards: [AS, AH, AD], points: 30)`: a record of type `name`, its fields named in
    any order (the checker sees that each field is given once)."""

    span: Span
    name: str
    name_span: Span
    fields: tuple  # FieldValue, as written


# ---- statements -----------------------------------------------------------------------------

@node
class Let:
    span: Span
    name: str
    value: object


@node
class Target:
    span: Span
    name: str
    index: object | None


@node
class Set:
    span: Span
    target: Target
    op: str  # "=", "+=", "-="
    value: object


@node
class Move:
    span: Span
    what: object
    dest: object
    position: str  # "top" or "bottom"
    facing: str | None  # "up", "down" or None (as the zone shows it)


@node
class Deal:
    span: Span
    count: object
    source: object
    zone: str
    zone_span: Span
    players: object
    facing: str | None


@node
class Shuffle:
    span: Span
    zone: object


@node
class Reveal:
    span: Span
    what: object


@node
class Hide:
    span: Span
    what: object


@node
class ShowTo:
    span: Span
    what: object
    player: object


@node
class If:
    span: Span
    branches: tuple  # ((cond, body), ...)
    orelse: tuple | None


@node
class For:
    span: Span
    var: str
    source: object
    body: tuple


@node
class While:
    span: Span
    cond: object
    body: tuple


@node
class RepeatTimes:
    span: Span
    count: object
    body: tuple


@node
class RepeatUntil:
    span: Span
    body: tuple
    cond: object


@node
class Loop:
    span: Span
    body: tuple


@node
class Break:
    span: Span


@node
class Binder:
    span: Span
    name: str
    source: object | None  # `x from SOURCE`
    low: object | None  # `n in LOW..HIGH`
    high: object | None
    # `xs from K of SOURCE` / `xs from J..K of SOURCE`: several items at once (one move); the
    # counts are expressions, `fewest` None when only one is written (exactly `most`)
    most: object | None = None
    fewest: object | None = None
    key: str | None = None  # `distinct by ATTR`: sets whose cards have the same ATTR values are one choice
    key_span: Span | None = None
    repeats: bool = False  # `with repeats`: a multiset of the items (each chosen any number of times)

    @property
    def several(self) -> bool:
        return self.most is not None


@node
class RuleCall:
    span: Span
    name: str
    args: tuple


@node
class Alternative:
    span: Span
    name: str
    binders: tuple
    requires: tuple
    body: tuple


@node
class Decide:
    span: Span
    actor: object | None  # None: a table decision
    prompt: tuple  # text pieces and expressions, like Log.parts
    alternatives: tuple
    secret: bool = False  # `decide p secretly`: the move is known to p (and `knowers`) only
    knowers: object = None  # `secretly with EXPR`: a player or a list of players who know it too


@node
class Simultaneous:
    span: Span
    var: str
    source: object
    decide: Decide


@node
class CallStmt:
    span: Span
    name: str
    args: tuple
    name_span: Span


@node
class Next:
    span: Span
    phase: str


@node
class EndGame:
    span: Span
    capped: bool = False  # `end game capped`: a safety cap, not a real end (simulate counts it apart)


@node
class Signal:
    span: Span
    event: str
    args: tuple


@node
class Cancel:
    span: Span


@node
class Return:
    span: Span


@node
class Log:
    span: Span
    parts: tuple  # str pieces and expressions, in order


@node
class Step:
    """`step NAME { ... }`: statements a variant can replace, remove or add to by name
    (`replace step trick.winner { ... }`).  The loader (variation.py) puts its statements in its
    place once the variant's changes are made, so no later stage sees this node: its braces open
    no scope."""

    span: Span
    name: str
    name_span: Span
    body: tuple


# ---- declarations ---------------------------------------------------------------------------

@node
class TypeRef:
    """`card`, `list of card`, `list of list of card`: the element name and how many `list of`s."""

    span: Span
    name: str
    is_list: bool
    depth: int = 1  # with is_list: the number of `list of` around `name`


@node
class RecordField:
    span: Span
    name: str
    type: TypeRef


@node
class RecordDecl:
    """`record meld { cards: list of card, points: int }`: a type of value with named fields;
    a value of it is a tuple of the fields in this order."""

    span: Span
    name: str
    fields: tuple  # RecordField


@node
class Param:
    span: Span
    name: str
    type: TypeRef


@node
class GameDecl:
    span: Span
    title: str


@node
class LimitDecl:
    """`limit work_per_move N`: the game's own budget, within the hard caps (limits.py)."""

    span: Span
    name: str
    value: int
    name_span: Span


@node
class PlayersDecl:
    span: Span
    low: int
    high: int
    names: tuple = ()  # `named N, E, S, W`: each seat's name, in seat order
    name_spans: tuple = ()


@node
class Include:
    span: Span
    path: str


@node
class Replace:
    """`replace DECL`: in a script that includes another, DECL takes the place of the included
    declaration of the same name and kind (docs/language.md §20); `replace define NAME with
    option NAME: ...` (or `replace option NAME with define NAME = ...`) also changes its kind.
    The loader (replacing.py) puts DECL where the original was; no later phase sees this node."""

    span: Span
    decl: object
    keyword_span: Span  # the word `replace`
    old_kind: str | None = None  # `replace define NAME with ...`: the kind written, "define" or "option"
    old_name: str | None = None
    old_name_span: Span | None = None


@node
class Variation:
    """A variant's finer change (docs/language.md §20), made by the loader (variation.py):
    - "replace_step": the step `phase.step` gets `body`;
    - "remove_step": the step `phase.step` goes;
    - "insert_step": a step `name` with `body` goes `place` ("before"/"after") `phase.step`;
    - "insert_phase": a phase `name` with `body` runs `place` the phase `phase` (step is None);
    - "extend_define": the definition `name` (`params` as the original's) gives `value` when
      `when` holds, and what it gave before otherwise.
    No later stage sees this node."""

    span: Span
    action: str
    keyword_span: Span  # the first word: `replace`, `remove`, `insert` or `extend`
    phase: str | None = None  # the phase (or procedure) named
    step: str | None = None  # the step named
    path_span: Span | None = None  # where `phase.step` (or the phase of insert phase) is written
    name: str | None = None  # a new step's or phase's name; an extended definition's name
    name_span: Span | None = None
    place: str | None = None  # "before" / "after"
    body: tuple = ()
    params: tuple | None = None
    when: object | None = None
    value: object | None = None


@node
class OptionDecl:
    span: Span
    name: str
    kind: str  # "bool", "int", "choice"
    low: int | None
    high: int | None
    choices: tuple
    default: object
    doc: str
    type_span: Span


@node
class CardSpec:
    span: Span
    label: str
    copies: int
    attrs: tuple  # ((name, value), ...)


@node
class AttributeDecl:
    """`attribute points from rank: J = 10, A = 11`: a number attribute found from another one."""

    span: Span
    name: str
    source: str
    source_span: Span
    pairs: tuple  # ((value of source, number, span), ...)


@node
class DeckDecl:
    span: Span
    name: str
    zone: str
    zone_span: Span
    dimensions: tuple  # ((attribute, (values...)), ...)
    name_parts: tuple
    cards: tuple
    ordered: tuple = ()  # ((attribute, span of its line), ...): dimensions declared `ordered`
    dimension_lines: tuple = ()  # ((attribute, span of its line), ...): every dimension


@node
class ZoneDecl:
    span: Span
    name: str
    per_player: bool
    visibility: str
    condition: object | None
    otherwise: str | None
    shown_by: tuple = ()  # ((attribute, span), ...): the order views list its cards in
    shown_as: tuple | None = None  # (word, span) of `shown as placed`: views keep the zone's order


@node
class VarDecl:
    span: Span
    name: str
    type: TypeRef | None
    per_player: bool
    private: bool
    init: object
    written_init: bool = True  # False: `var x: T` without `= VALUE`, init is a made-up `none`
    per_team: bool = False  # `per team`: one value per team, indexed by a team

    @property
    def indexed(self) -> bool:
        """One value per player or per team, read and set as `v[p]` / `v[t]`."""
        return self.per_player or self.per_team


@node
class DefineDecl:
    span: Span
    name: str
    params: tuple
    body: object


@node
class RuleDecl:
    span: Span
    name: str
    params: tuple
    doc: str
    when: object | None
    require: object

    @property
    def prohibits(self) -> bool:
        """`when CASE require false`: a rule written to forbid every move it applies to."""
        r = self.require
        return self.when is not None and isinstance(r, Literal) and r.kind == "bool" and r.value is False


@node
class ProcDecl:
    span: Span
    name: str
    params: tuple
    body: tuple


@node
class PhaseDecl:
    span: Span
    name: str
    body: tuple


@node
class EventDecl:
    span: Span
    name: str
    params: tuple
    body: tuple
    prompt: tuple = ()  # the reaction window's prompt: text pieces and expressions, like Decide.prompt


@node
class ReactionDecl:
    span: Span
    name: str
    event: str
    event_span: Span
    var: str
    by: object
    alternatives: tuple


@node
class HandlerDecl:
    span: Span
    event: str
    body: tuple


@node
class ScoreDecl:
    span: Span
    var: str
    expr: object


@node
class WinnersDecl:
    span: Span
    mode: str | None  # "highest", "lowest", or None with an expression
    expr: object | None


@node
class TeamsDecl:
    """`teams: [0, 2], [1, 3]` (fixed: the seats of each team) or `teams p: EXPR` (computed: the
    team number of each seat, read at set-up)."""

    span: Span
    seats: tuple  # fixed: ((0, 2), (1, 3)); computed: ()
    seat_spans: tuple  # the span of each seat number, in the order of `seats` flattened
    var: str | None  # computed: the seat's name
    expr: object | None


@node
class MeasureDecl:
    span: Span
    name: str
    var: str | None  # the player parameter of a per-player measure
    expr: object
    doc: str
    at: str | None = None  # `at end of PHASE`: read each time the game leaves PHASE, not at the end
    at_span: Span | None = None


@node
class SymbolsDecl:
    """`symbols NAME: WORD, ...`: free symbols, a type of their own, compared in order when `ordered`."""
    span: Span
    name: str
    values: tuple  # the words, as written
    ordered: bool
    value_spans: tuple


@node
class EndWhen:
    """`end game when CONDITION`: the game ends as soon as CONDITION holds."""
    span: Span
    cond: object


@node
class Script:
    path: str
    items: tuple
