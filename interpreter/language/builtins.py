"""Built-in functions: their static typing rule and their implementation, side by side.

An implementation receives the running state first, then the evaluated arguments; zones
arrive as slot numbers and are read through the state.  Each one pays for its work with
`st.charge(units)`, in proportion to the items it reads or makes (sorting: n log n), and a
number it makes stays within the limit (`st.number`), so no built-in is a way around the work
budget or the size of numbers.
"""

from __future__ import annotations

from . import limits, patterns
from .rng import below
from .types import ANY, BOOL, CARD, INT, PLAYER, TEAM, ZONE, element, fits, is_listlike, is_record, list_of


class BuiltinTypeError(Exception):
    """An argument of the wrong kind: (argument index, expected description, a hint or "")."""

    def __init__(self, index: int, expected: str, hint: str = ""):
        self.index, self.expected, self.hint = index, expected, hint


def _need(types, i, ok, expected, hint=""):
    if not ok(types[i]):
        raise BuiltinTypeError(i, expected, hint)


def _list_arg(types, i):
    _need(types, i, is_listlike, "a list or a zone")
    return types[i]


def _elem(t):
    return element(t) if t != ANY else ANY


def _seq(st, v):
    """A zone argument is read as its cards."""
    return st.zones[v] if type(v) is int else v


# name -> (min args, max args, typing function(arg types) -> result type, implementation)
BUILTINS: dict = {}


def builtin(name, low, high, typer):
    def register(impl):
        BUILTINS[name] = (low, high, typer, impl)
        return impl
    return register


@builtin("count", 1, 1, lambda t: (_list_arg(t, 0), INT)[1])
def _count(st, xs):
    return len(_seq(st, xs))


@builtin("empty", 1, 1, lambda t: (_list_arg(t, 0), BOOL)[1])
def _empty(st, xs):
    return not _seq(st, xs)


@builtin("sum", 1, 1, lambda t: (_need(t, 0, lambda x: fits(list_of(INT), x), "a list of numbers"), INT)[1])
def _sum(st, xs):
    st.charge(len(xs))
    return st.number(sum(v for v in xs if v is not None))


def _extreme_type(t):
    if len(t) == 1:
        # records have no order of their own: `max m in L by m.points` says which field orders them
        _need(t, 0, lambda x: not is_record(_elem(x)) if is_listlike(x) else True,
              "a list of numbers (for records, `max m in L by m.FIELD`)")
        # cards have no order of their own either (their deck's order is no rank): say the key
        _need(t, 0, lambda x: _elem(x) != CARD if is_listlike(x) else True, "a list of numbers")
        return _elem(_list_arg(t, 0))
    for i in range(len(t)):
        _need(t, i, lambda x: fits(INT, x), "a number")
    return INT


def _extreme(pick):
    def impl(st, *args):
        values = [v for v in (_seq(st, args[0]) if len(args) == 1 else args) if v is not None]
        st.charge(len(values))
        return pick(values) if values else None
    return impl


BUILTINS["max"] = (1, 8, _extreme_type, _extreme(max))
BUILTINS["min"] = (1, 8, _extreme_type, _extreme(min))


def _top_type(t):
    _need(t, 0, lambda x: x in (ZONE, ANY), "a zone")
    if len(t) == 2:
        _need(t, 1, lambda x: fits(INT, x), "a number")
        return list_of(CARD)
    return CARD


@builtin("top", 1, 2, _top_type)
def _top(st, zone, n=None):
    cards = st.zones[zone]
    if n is None:
        return cards[-1] if cards else None
    st.charge(min(max(n, 0), len(cards)))
    return tuple(reversed(cards[max(0, len(cards) - n):])) if n > 0 else ()


@builtin("bottom", 1, 2, _top_type)
def _bottom(st, zone, n=None):
    cards = st.zones[zone]
    if n is None:
        return cards[0] if cards else None
    st.charge(min(max(n, 0), len(cards)))
    return tuple(cards[:n]) if n > 0 else ()


@builtin("cards", 1, 1, lambda t: (_need(t, 0, lambda x: x in (ZONE, ANY), "a zone"), list_of(CARD))[1])
def _cards(st, zone):
    st.charge(len(st.zones[zone]))
    return tuple(st.zones[zone])


def _ends_type(t):
    elem = _elem(_list_arg(t, 0))
    if len(t) == 2:
        _need(t, 1, lambda x: fits(INT, x), "a number")
        return list_of(elem)
    return elem


@builtin("first", 1, 2, _ends_type)
def _first(st, xs, n=None):
    xs = _seq(st, xs)
    if n is not None:
        st.charge(min(max(n, 0), len(xs)))
        return tuple(xs[:max(0, n)])
    return xs[0] if xs else None


@builtin("last", 1, 2, _ends_type)
def _last(st, xs, n=None):
    xs = _seq(st, xs)
    if n is not None:
        st.charge(min(max(n, 0), len(xs)))
        return tuple(xs[max(0, len(xs) - n):]) if n > 0 else ()
    return xs[-1] if xs else None


@builtin("reverse", 1, 1, lambda t: list_of(_elem(_list_arg(t, 0))))
def _reverse(st, xs):
    xs = _seq(st, xs)
    st.charge(len(xs))
    return tuple(reversed(xs))


@builtin("unique", 1, 1, lambda t: list_of(_elem(_list_arg(t, 0))))
def _unique(st, xs):
    """Each item once, where it first appears: `unique([c.rank for c in hand[p]])`, the ranks held."""
    xs = _seq(st, xs)
    st.charge(len(xs))
    return tuple(dict.fromkeys(xs))  # every value is hashable: numbers, names, none, tuples


@builtin("sorted", 1, 1, lambda t: (_need(t, 0, lambda x: fits(list_of(INT), x), "a list of numbers"), list_of(INT))[1])
def _sorted(st, xs):
    st.charge(len(xs) * max(1, len(xs).bit_length()))
    return tuple(sorted(v for v in xs if v is not None))


def _range_type(t):
    _need(t, 0, lambda x: fits(INT, x), "a number")
    _need(t, 1, lambda x: fits(INT, x), "a number")
    return list_of(INT)


@builtin("range", 2, 2, _range_type)
def _range(st, low, high):
    st.check_length(high - low + 1)
    return tuple(range(low, high + 1))


@builtin("index", 2, 2, lambda t: (_list_arg(t, 0), INT)[1])
def _index(st, xs, value):
    xs = _seq(st, xs)
    st.charge(len(xs))
    return xs.index(value) if value in xs else None


@builtin("abs", 1, 1, lambda t: (_need(t, 0, lambda x: fits(INT, x), "a number"), INT)[1])
def _abs(st, x):
    return abs(x)


def _player_arg(t):
    _need(t, 0, lambda x: fits(PLAYER, x), "a player")
    return PLAYER


@builtin("left_of", 1, 1, _player_arg)
def _left_of(st, p):
    return (p + 1) % st.n


@builtin("right_of", 1, 1, _player_arg)
def _right_of(st, p):
    return (p - 1) % st.n


@builtin("players_from", 1, 1, lambda t: (_player_arg(t), list_of(PLAYER))[1])
def _players_from(st, p):
    n = st.n
    st.charge(n)
    return tuple((p + i) % n for i in range(n))


@builtin("seat", 1, 1, lambda t: (_need(t, 0, lambda x: fits(INT, x), "a number"), PLAYER)[1])
def _seat(st, i):
    return i % st.n


@builtin("number", 1, 1, lambda t: (_need(t, 0, lambda x: fits(PLAYER, x) or fits(TEAM, x), "a player or a team"),
                                    INT)[1])
def _number(st, p):
    return p


# ---- teams (docs/language.md, "Teams"); the checker allows them only in a game with teams
def _team_arg(t):
    _need(t, 0, lambda x: fits(TEAM, x), "a team")
    return TEAM


@builtin("team", 1, 1, lambda t: (_player_arg(t), TEAM)[1])
def _team(st, p):
    return st.teams.of[p]


@builtin("members", 1, 1, lambda t: (_team_arg(t), list_of(PLAYER))[1])
def _members(st, team):
    seats = st.teams.members[team]
    st.charge(len(seats))
    return seats


@builtin("partners", 1, 1, lambda t: (_player_arg(t), list_of(PLAYER))[1])
def _partners(st, p):
    st.charge(st.n)
    return st.teams.partners(p)


@builtin("partner", 1, 1, _player_arg)
def _partner(st, p):
    st.charge(st.n)
    others = st.teams.partners(p)
    return others[0] if others else None


# Built-ins whose value depends on where cards lie or how they face, beyond their arguments
# (a zone argument is read through its slot): memo_reads.py counts them as reading every zone.
READS_WHERE = frozenset({"owner", "zone_of", "face_up"})


@builtin("owner", 1, 1, lambda t: (_need(t, 0, lambda x: fits(CARD, x), "a card"), PLAYER)[1])
def _owner(st, card):
    return None if card is None else st.owner_of_slot(st.loc[card])


@builtin("zone_of", 1, 1, lambda t: (_need(t, 0, lambda x: fits(CARD, x), "a card"), ZONE)[1])
def _zone_of(st, card):
    return None if card is None else st.loc[card]


def _visible_type(t):
    _need(t, 0, lambda x: fits(CARD, x), "a card")
    return BOOL


@builtin("face_up", 1, 1, _visible_type)
def _face_up(st, card):
    """False for none (the top of an empty pile), as none flows through the other card
    built-ins (docs/language.md §10)."""
    return card is not None and bool(st.vis[card] & st.FACE_UP)


def _random_type(t):
    if len(t) == 1:
        return _elem(_list_arg(t, 0))
    for i in range(2):
        _need(t, i, lambda x: fits(INT, x), "a number")
    return INT


@builtin("random", 1, 2, _random_type)
def _random(st, *args):
    """One draw from the game's generator: an item of a non-empty list or zone, or a number
    from low to high (low <= high).  Codegen checks those and emits the chance event."""
    st.charge(1)
    if len(args) == 1:
        items = _seq(st, args[0])
        st.rng, k = below(st.rng, len(items))
        return items[k]
    low, high = args
    st.rng, k = below(st.rng, high - low + 1)
    return low + k


# ---- card patterns (docs/language.md §11 "Card patterns"; the algorithms: patterns.py)
# `groups ... by` and `runs ... by` are forms of the grammar; their lists are made here too.


def _lists_of_items(t):
    return list_of(list_of(_elem(_list_arg(t, 0))))


def _subsets_type(t):
    _need(t, 1, lambda x: fits(INT, x), "a number (how many items)")
    return _lists_of_items(t)


def _choices_type(t):
    _need(t, 0, lambda x: x != ZONE and fits(list_of(list_of(ANY)), x), "a list of lists (the groups)",
          "make the groups first: a list of lists of cards, such as `subsets(h, 2)`")
    return list_of(t[0] if t[0] != ANY else list_of(list_of(ANY)))


def _pattern(st, name, make, narrower=""):
    """Run one pattern, its faults in the language's words."""
    try:
        return make()
    except patterns.TooMany as err:
        many = f"{err.count:,}" if err.count is not None else f"more than {limits.MAX_LIST_LENGTH:,}"
        st.refuse(f"`{name}` would make {many} lists, over the limit of {limits.MAX_LIST_LENGTH:,} values in one list",
                  f"narrow its input first: {narrower}")


@builtin("subsets", 2, 2, _subsets_type)
def _subsets(st, xs, k):
    return _pattern(st, "subsets", lambda: patterns.subsets(_seq(st, xs), k, st.charge, limits.MAX_LIST_LENGTH),
                    "fewer items")


@builtin("disjoint_choices", 1, 1, _choices_type)
def _disjoint_choices(st, group_list):
    return _pattern(st, "disjoint_choices", lambda: patterns.disjoint_choices(group_list, st.charge,
                                                                              limits.MAX_LIST_LENGTH),
                    "fewer groups, or larger ones")


def by_pattern(st, kind, items, keys, least):
    """`groups x in L by KEY` and `runs x in L by KEY least N`, once the loop of the generated
    code has read every item's key (codegen.Gen._x_Pattern)."""
    if kind == "groups":
        return patterns.groups(items, keys, st.charge)
    if least is None:
        st.refuse("`runs ... least N` needs a number, found none")
    return _pattern(st, "runs", lambda: patterns.runs(items, keys, least, st.charge, limits.MAX_LIST_LENGTH),
                    "a longer shortest run (`least`), or fewer items")


# Built-ins whose faults (`st.refuse`, the work budget) point at their call rather than its statement.
REFUSING = frozenset({"subsets", "disjoint_choices"})

# Built-ins that draw from the game's generator: only statements may call them.
CHANCE = frozenset({"random"})
# `place(c.rank)`: a value's place in its attribute's declared order, from 0.  Only the checker
# knows which order a value follows, so the checker types it and the code generator writes it.
# It is not reserved: a script's own definition of the name comes first (scripts written before).
ORDER_FUNCTIONS = frozenset({"place"})

# Names that read the table without arguments.
CONSTANTS = {
    "players": (list_of(PLAYER), lambda st: tuple(range(st.n))),
    "player_count": (INT, lambda st: st.n),
    "teams": (list_of(TEAM), lambda st: tuple(range(st.teams.count))),
    "team_count": (INT, lambda st: st.teams.count),
}

# Built-ins and constants that need a `teams` declaration.
TEAM_NAMES = frozenset({"team", "members", "partners", "partner", "teams", "team_count"})


