"""What generated code calls while a game runs: faults (the budget's among them), values
written into texts within the text limit, `end game`, the small readers of zones and lists,
moves and a playout's listing of them (make_move, _Blocks), places in a declared order,
a zone read as a list, list and text `+`; and namespace(), the globals each generated
function starts with.

Separate from the generator because it is the other side of it: this code runs while games
are played, the generator's while a script is loaded, and none of it writes code.
"""

from __future__ import annotations

import builtins
import itertools

from ..language import limits
from ..language.builtins import by_pattern
from ..language.rng import shuffle as _shuffle
from ..language.types import TEXT
from ..machine import choosing
from ..machine.enumeration import enumerate_moves
from ..machine.program import Move, move_text, render_value
from ..machine.runtime import RUNTIME_FAULTS, Redo, ScriptRuntimeError, over_budget as runtime_over_budget
from .flow import steps_over

UNSET = object()  # "not computed yet" / "loop never ran"
MAX_CACHED_MOVES = 20_000  # per alternative; beyond it, moves are built each time


def fail(message: str, span, hint: str = ""):
    raise ScriptRuntimeError(message, span, hint)


def over_budget(st, span):
    raise runtime_over_budget(st, span)


def render_text(st, typ, value, span):
    """A value written into a text (a log line, a prompt, text `+`): refused before it is made
    when it would pass the text limit, and charged for its length."""
    if isinstance(value, tuple) and _items_over(value, limits.MAX_TEXT_LENGTH // 2):
        raise ScriptRuntimeError(f"a text grew beyond {limits.MAX_TEXT_LENGTH} characters", span,
                                 "a list this long cannot be shown; show its count or a part")
    text = render_value(st.prog, typ, value, st.n)
    if len(text) > limits.MAX_TEXT_LENGTH:
        raise ScriptRuntimeError(f"a text grew beyond {limits.MAX_TEXT_LENGTH} characters", span)
    st.work += len(text)
    if st.work > st.work_limit:
        over_budget(st, span)
    return text


def _items_over(value, most: int) -> bool:
    """Whether nested tuples hold more than `most` items in all (each takes a character or more
    to show), found without walking more than `most` of them."""
    stack, seen = [value], 0
    while stack:
        for item in stack.pop():
            seen += 1
            if seen > most:
                return True
            if isinstance(item, tuple):
                stack.append(item)
    return False


def op_end(st, fr):
    """`end game` (and the end of a phase that forgot its `next`)."""
    st.over = True
    st.stack.clear()
    st.actor = None
    if st.tracer is not None:
        st.emit("end")


def _cards(st, typ_is_card, value):
    """The cards a `reveal`, `hide` or `show` names: one card, a list, or none."""
    if typ_is_card:
        return () if value is None else (value,)
    return tuple(c for c in value if c is not None) if value is not None else ()


def _no_trace(node, typ, value):
    """The traced code's sink when no explanation is listening."""


def _seq_any(st, v):
    return st.zones[v] if type(v) is int else (v or ())


def _item(s, i):
    if i is None or not -len(s) <= i < len(s):
        return None
    return s[i]


def _offers(st, decision):
    askers, pos = decision.frame_slots[0], decision.frame_slots[1]
    L = st.stack[-1][2]
    return set(L[askers][L[pos] - 1][1])


def _enumerate_generic(st):
    return enumerate_moves(st, legal_only=True)


def make_move(prog, spec, types, values, n_players=None):
    return Move(move_text(prog, spec.name, types, values, n_players), spec.index, values)


def distinct(values) -> bool:
    """Whether a binder's values are all different and none is none: then each gives a move of
    its own, in order (what the listing would make of them one by one)."""
    if type(values) is range:
        return True
    seen = set(values)
    return len(seen) == len(values) and None not in seen


class _Blocks:
    """A playout's listing in which a binder over a plain range, with no rule to pass, stands as
    the range itself (a bet of any amount offers a hundred raises): the same moves in the same
    order as the full listing, each made only when drawn.  `blocks`: (index of the range's first
    move in the whole listing, the range, (cache, program, alternative, types))."""

    __slots__ = ("moves", "blocks", "count", "n")

    def __init__(self, moves, blocks, extra, st):
        self.moves, self.blocks, self.count, self.n = moves, blocks, len(moves) + extra, st.n

    def __len__(self):
        return self.count

    def __getitem__(self, i):
        listed = i  # the index in `moves`, once the ranges before it are taken off
        for start, values, made in self.blocks:
            if i < start:
                break
            if i < start + len(values):
                value = values[i - start]
                move = made[0].get(value)
                return self._made(value, made) if move is None else move
            listed -= len(values)
        return self.moves[listed]

    def whole(self) -> list:
        """Every move, in order, as one list (the API keeps the listing: enumeration.legal_moves):
        a range's moves looked up all at once, the few not made yet made one by one."""
        out, listed = [], 0
        for start, values, made in self.blocks:
            before = start - len(out)  # the listed moves before the range
            out += self.moves[listed:listed + before]
            listed += before
            moves = list(map(made[0].get, values))
            if not all(moves):  # (a Move is always true)
                moves = [self._made(v, made) if m is None else m for v, m in zip(values, moves)]
            out += moves
        out += self.moves[listed:]
        return out

    def _made(self, value, made):
        """The move of a range's `value`, made, and kept in its cache while that has room."""
        cache, prog, spec, types = made
        move = make_move(prog, spec, types, (value,), self.n)
        if len(cache) < MAX_CACHED_MOVES and type(value) is int:
            cache[value] = move
        return move


class OrderPlaces:
    """The place of a value in a declared order, for values only known while running (a
    variable, a list item); a value outside the order faults in the language's words."""

    def __init__(self, order: str, positions: dict):
        self.order, self.positions = order, positions

    def __call__(self, value, span):
        if value is None:
            return None
        place = self.positions.get(value)
        if place is None:
            fail(f"{render_value(None, 'any', value)} has no place in the order of `{self.order}`", span)
        return place


def zone_cards(st, slot):
    """A zone read as the list of its cards (a copy: later moves do not change it)."""
    if slot is None:
        return None
    cards = st.zones[slot]
    st.charge(len(cards))
    return tuple(cards)


def concat(st, a, b):
    a, b = a or (), b or ()
    st.check_length(len(a) + len(b))
    return tuple(a) + tuple(b)


def text_plus(st, ltype, rtype, left, right, span):
    a = render_text(st, ltype, left, span)
    b = render_text(st, rtype, right, span)
    if len(a) + len(b) > limits.MAX_TEXT_LENGTH:
        raise ScriptRuntimeError(f"a text grew beyond {limits.MAX_TEXT_LENGTH} characters", span)
    return a + b


def texts_plus(st, left, right, span):
    """`text_plus(st, TEXT, TEXT, ...)` as it goes for two texts, each of which renders as
    itself (a text variable built in a playout, a question put together); a none, or a side
    already past the limit, goes the general way, which faults where it would."""
    most = limits.MAX_TEXT_LENGTH
    if type(left) is not str or type(right) is not str or len(left) > most or len(right) > most:
        return text_plus(st, TEXT, TEXT, left, right, span)
    st.work += len(left)
    if st.work > st.work_limit:
        over_budget(st, span)
    st.work += len(right)
    if st.work > st.work_limit:
        over_budget(st, span)
    if len(left) + len(right) > most:
        raise ScriptRuntimeError(f"a text grew beyond {most} characters", span)
    return left + right


def zone_name(st, slot):
    return st.prog.zone_of_slot(slot, st.n)[0]


def deal_short(st, slot, rounds: int, seats: int, held: int) -> str:
    """The fault of a `deal` its pile cannot feed: how many cards it needed, and how many lay there."""
    each = f"{rounds} card{'s' if rounds != 1 else ''} to each of {seats} player{'s' if seats != 1 else ''}"
    return (f"`deal` ran out of cards in `{zone_name(st, slot)}`: {each} is {rounds * seats}, "
            f"and it held {held}")


def namespace() -> dict:
    """The globals every generated function of one Gen starts with: the helpers above, by the
    names the generated code calls them."""
    return {"__builtins__": builtins, "_fail": fail, "_over_budget": over_budget, "_deal_short": deal_short,
            "_steps_over": steps_over,
            "_UNSET": UNSET, "_seq": _seq_any, "_item": _item, "_offers": _offers, "_mk": make_move,
            "_generic": _enumerate_generic, "ScriptRuntimeError": ScriptRuntimeError, "_limits": limits,
            "_shuffle": _shuffle, "_op_end": op_end, "_cards": _cards,
            "_rv": render_text, "_trace": _no_trace, "_Blocks": _Blocks,
            "_choose_distinct": choosing.distinct, "_choose_count": choosing.count,
            "_choose_subsets": choosing.subsets, "_combinations": itertools.combinations,
            "_choose_groups": choosing.groups, "_choose_count_keyed": choosing.count_keyed,
            "_choose_keyed": choosing.keyed_subsets, "_choose_repeated": choosing.repeated,
            "_choose_count_repeated": choosing.count_repeated,
            "_pattern": by_pattern, "_RUNTIME_FAULTS": RUNTIME_FAULTS, "_Redo": Redo}


def power(st, a, b, span):
    """`a ^ b`: one unit of work a multiplication, and a fault for a negative power or a number
    past the limit (found before it is made: a power grows past it within 63 steps)."""
    if b < 0:
        raise ScriptRuntimeError(f"`^` needs a power of 0 or more, found {b}", span,
                                 "numbers are whole: there are no fractions")
    if a in (0, 1) or b == 0:
        st.charge(1)
        return 1 if b == 0 else a
    if a == -1:
        st.charge(1)
        return 1 if b % 2 == 0 else -1
    result = 1
    for _ in range(b):
        st.charge(1)
        result *= a
        if result > limits.MAX_INT or result < -limits.MAX_INT:
            raise ScriptRuntimeError(f"a number grew beyond the limit of {limits.MAX_INT}", span)
    return result
