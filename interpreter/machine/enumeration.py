"""A decision's moves: every assignment of its binders, filtered by its named rules.

This is the generic enumeration, over the compiled binders and rules; each decision also has a
generated enumerator (codegen.py) that computes the same list faster.  It sits below the
engine API so that compiled code (a reaction window asking whether anyone has a choice) and
the generated enumerators (which fall back to it past the move cap) can call it.
"""

from __future__ import annotations

from ..language import limits
from . import choosing
from .program import Move, move_text
from .runtime import RUNTIME_FAULTS, ScriptRuntimeError


def _current_offers(st, decision):
    if decision.kind != "reaction":
        return None
    askers, pos = decision.frame_slots[0], decision.frame_slots[1]
    L = st.stack[-1][2]
    return set(L[askers][L[pos] - 1][1])


class _TooManyMoves(Exception):
    """A last binder's sets alone pass the decision's cap (enumerate_moves says so)."""


def _combos(st, L, bindings, i=0):
    """Every assignment of the binders, later domains seeing earlier values."""
    if i == len(bindings):
        yield ()
        return
    b = bindings[i]
    if b.several:
        items = b.domain(st, L)
        st.charge(len(items))
        items = choosing.distinct(items)
        fewest = b.low(st, L) if b.low is not None else None
        most = b.high(st, L)
        if b.low is None:
            fewest = most
        if b.key is not None:  # `distinct by ATTR`: one set per multiset of keys
            items = choosing.groups(items, b.key)
            sets = choosing.count_keyed([len(g) for g in items], fewest, most)
        elif b.repeats:  # `with repeats`: multisets of the items
            sets = choosing.count_repeated(len(items), fewest, most)
        else:
            sets = choosing.count(len(items), fewest, most)
        if i == len(bindings) - 1 and sets > limits.MAX_MOVES_PER_DECISION:
            # its sets are moves, each a try: more than the decision's cap is its fault, at once
            st.charge(limits.MAX_MOVES_PER_DECISION + 1)
            raise _TooManyMoves
        st.charge(sets)  # every subset, paid before the first is made
        domain = choosing.keyed_subsets(items, fewest, most) if b.key is not None else \
            choosing.repeated(items, fewest, most) if b.repeats else choosing.subsets(items, fewest, most)
    elif b.domain is not None:
        domain = b.domain(st, L)
        st.charge(len(domain))
    else:
        low, high = b.low(st, L), b.high(st, L)
        domain = range(low, high + 1) if low is not None and high is not None else ()
        st.charge(max(0, high - low + 1) if domain else 0)  # paid first: an inner domain may be empty
    for value in domain:
        if value is None:
            continue
        L[b.slot] = value
        for rest in _combos(st, L, bindings, i + 1):
            yield (value,) + rest


def _rules_pass(st, L, spec) -> bool:
    for use in spec.rules:
        args = [a(st, L) for a in use.args]
        size = use.rule.size
        if size > len(args):
            args.extend([None] * (size - len(args)))
        if not use.rule.check(st, args):
            return False
    return True


def _too_many_moves_hint(decision) -> str:
    if any(b.several for spec in decision.alts for b in spec.bindings):
        return ("sets of several items multiply fast: ask for the items one at a time instead, a decision "
                "in a `loop` (`add(c from hand[p])` / `done`; docs/language.md, Choosing several items)")
    return "narrow the ranges of its alternatives"


def enumerate_moves(st, legal_only: bool) -> list[Move]:
    decision = st.waiting
    if decision is None:
        return []
    prog = st.prog
    L = st.stack[-1][2]
    st.begin_work()
    offers = _current_offers(st, decision)
    slots = [b.slot for spec in decision.alts for b in spec.bindings]
    saved = [L[s] for s in slots]
    out, seen, tried = [], set(), 0
    try:
        for spec in decision.alts:
            if spec.reaction is not None and spec.reaction not in offers:
                continue
            types = [b.type for b in spec.bindings]
            for values in _combos(st, L, spec.bindings):
                tried += 1
                if tried > limits.MAX_MOVES_PER_DECISION:
                    raise _TooManyMoves
                for b, v in zip(spec.bindings, values):
                    L[b.slot] = v
                if legal_only and spec.rules and not _rules_pass(st, L, spec):
                    continue
                text = move_text(prog, spec.name, types, values, st.n)
                if text not in seen:
                    seen.add(text)
                    out.append(Move(text, spec.index, values))
    except _TooManyMoves:
        raise ScriptRuntimeError(f"this decision offers more than {limits.MAX_MOVES_PER_DECISION:,} moves",
                                 decision.span, _too_many_moves_hint(decision)) from None
    finally:
        for s, v in zip(slots, saved):
            L[s] = v
    return out


def legal_moves(st) -> list[Move]:
    """The legal moves, computed once per decision (see listing)."""
    moves = st.legal_cache
    return listing(st, st.waiting) if moves is None else moves


def listing(st, decision) -> list[Move]:
    """The legal moves of `decision`, the one waiting (st.legal_cache is None), listed and kept;
    their cost is kept in `legal_work` and charged to the game when a move is applied, so the
    game's work does not depend on how often anyone looked at the moves (or whether a restored
    state had them cached)."""
    pick = None if decision is None else decision.pick  # a playout listing: fast code's
    if pick is None:
        moves = _exact(st, decision)
    else:
        per_move, per_game = st.budget  # st.begin_work(), written out: this runs at every decision
        left = per_game - st.game_work
        st.work_limit = per_move if per_move < left else left
        # The playout listing (codegen.Gen.playout_enumerator) first: it changes nothing but
        # st.work and gives the exact listing's moves and work whenever it answers, so the
        # exact enumerator only runs where it gives up (past the budget or the move cap, or
        # faulting), and faults there the same way.
        try:
            moves = pick(st, st.stack[-1][2])
        except RUNTIME_FAULTS:
            moves = None
        if moves is None:
            moves = decision.fast(st, st.stack[-1][2])  # (it zeroes st.work, like the listing it replaces)
        elif type(moves) is not list:
            moves = moves.whole()  # a listing whose ranges stand as ranges (gen_runtime._Blocks), made whole
    st.legal_cache = moves
    st.legal_work = st.work
    return moves


def _exact(st, decision) -> list[Move]:
    """The listing of a decision without a playout listing: its exact enumerator (fast code),
    else the generic enumeration (traced code)."""
    if decision is None or decision.fast is None:
        return enumerate_moves(st, legal_only=True)
    st.begin_work()
    return decision.fast(st, st.stack[-1][2])
