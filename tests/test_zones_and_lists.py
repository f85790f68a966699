"""Zones and lists (docs/language.md, "Zones and lists"): a zone stands for the list of its cards
exactly where a list is expected, and is a zone, shown by name, everywhere else.

The first tests reproduce issue 17's report (a zone passed as a `list of card` arrived as a number),
and a list item is set counting from the end (`set l[-1] += 10`) as it is read; the property test
builds random expressions over zones and lists and checks the checker's verdict and the evaluated
value against a small model of that one rule.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cardgame import interpreter

SCRIPT = '''game "Zones"
players 2
deck cards in stock {
    rank: A, K, Q
    suit: S, H
}
zone stock: shared public
zone pile: shared public
zone hand: per player public
define ident(h: list of card) = h
define kings(h: list of card) = count x in h where x.rank == K
var seen: list of card = []
var counted: int = 0
phase main {
    deal 1 from stock to hand of players
    set seen = stock
    set counted = kings(stock)
    decide seat(0) {
        close(z from [stock, pile, hand[seat(1)]])
    }
    end game
}
'''


def state(tmp_path):
    path = tmp_path / "zones.cardgame"
    path.write_text(SCRIPT)
    return interpreter.load(str(path)).new_game(seed=1)


def value(s, text):
    out, diags = s.evaluate(text)
    assert not diags, [d.message for d in diags]
    return out


def test_a_zone_passed_as_a_list_of_cards_is_its_cards(tmp_path):
    s = state(tmp_path)
    assert value(s, "ident(stock)") == value(s, "[c for c in stock]") == "[AS, AH, KS, KH]"
    assert value(s, "ident(hand[seat(0)])") == "[QH]"
    assert value(s, "kings(stock)") == "2"
    assert value(s, "seen") == "[AS, AH, KS, KH]" and value(s, "counted") == "2"


def test_a_binder_over_zones_names_them_in_move_texts(tmp_path):
    s = state(tmp_path)
    assert [str(m) for m in s.legal_moves()] == ["close stock", "close pile", "close hand[P1]"]
    s.apply("close hand[P1]")
    assert s.is_over


def test_text_shows_a_zone_by_name_and_a_list_by_its_items(tmp_path):
    s = state(tmp_path)
    assert value(s, '"from " + pile') == "from pile"
    assert value(s, '"Beat " + ident(hand[seat(1)])') == "Beat [QS]"
    assert value(s, '[stock, hand[seat(0)]]') == "[stock, hand[P0]]"


def test_mixing_a_zone_with_other_values_is_refused(tmp_path):
    s = state(tmp_path)
    for text in ("[stock, 3]", "[[stock], [AS]]", "[stock] + [AS]", "if true then stock else AS"):
        out, diags = s.evaluate(text)
        assert out is None and [d.code for d in diags] == ["E0220"], text


_NEGATIVE = '''game "From the end"
players 2
var l: list of int = [1, 2, 3]
var shown: text = ""
phase main {
    let m = [4, 5]
    set m[-2] = 7
    set l[-1] += 10
    set l[-3] = count(m) + m[0]
    set shown = "" + l + " " + m
    decide seat(0) "Go on?" {
        go {
            set l[-4] = 0
        }
        stop
    }
    end game
}
'''


def test_a_list_item_is_set_counting_from_the_end_as_it_is_read(tmp_path):
    path = tmp_path / "negative.cardgame"
    path.write_text(_NEGATIVE)
    game = interpreter.load(str(path))
    state = game.new_game(seed=1)
    assert state.view("all")["vars"]["l"] == [9, 2, 13]
    assert state.view("all")["vars"]["shown"] == "[9, 2, 13] [7, 5]"
    with pytest.raises(interpreter.GameFault) as fault:
        state.apply("go")
    assert "position -4 is outside the list (length 3)" in str(fault.value)
    assert state.fault is not None


# ---- the property: the checker's verdict and evaluation agree with the rule ----------------

ZONES = {"stock": ("AS", "AH", "KS", "KH"), "pile": (), "hand[seat(0)]": ("QH",), "hand[seat(1)]": ("QS",)}
ZONE_TEXT = {"stock": "stock", "pile": "pile", "hand[seat(0)]": "hand[P0]", "hand[seat(1)]": "hand[P1]"}
Z, C = "zone", "card"


class Refused(Exception):
    """The model's verdict: the checker must reject the expression."""


class Unmodelled(Exception):
    """Values of different kinds mixed without a zone (`[KS, [QS]]`): outside this rule."""


def L(t):  # noqa: N802 (a type constructor, as in the docs: list of T)
    return ("list", t)


def has_zone(t):
    return t == Z or (isinstance(t, tuple) and has_zone(t[1]))


def as_cards(typ, val):
    """Where a list is expected, a zone is its cards."""
    return (L(C), ZONES[val[1]]) if typ == Z else (typ, val)


def join(a, b):
    if a == b:
        return a
    if isinstance(a, tuple) and isinstance(b, tuple):
        return L(join(a[1], b[1]))
    if has_zone(a) or has_zone(b):
        raise Refused
    raise Unmodelled


def join_top(items):
    """(type, values) of several values that must be one kind (list items, if branches)."""
    if any(t == Z for t, _ in items) and any(isinstance(t, tuple) for t, _ in items):
        items = [as_cards(t, v) for t, v in items]
    typ = items[0][0]
    for t, _ in items[1:]:
        typ = join(typ, t)
    return typ, [v for _, v in items]


def expressions():
    atom = st.sampled_from([(f"{z}", (Z, ("zone", z))) for z in ZONES] +
                           [("[AS, KH]", (L(C), ("AS", "KH"))), ("[QS]", (L(C), ("QS",))), ("KS", (C, "KS"))])

    def extend(inner):
        def ident(a):
            text, (t, v) = a
            t, v = as_cards(t, v)
            if t != L(C):
                return f"ident({text})", None
            return f"ident({text})", (t, v)

        def plus(a, b):
            (ta, (t1, v1)), (tb, (t2, v2)) = a, b
            text = f"({ta} + {tb})"
            if not all(t == Z or isinstance(t, tuple) for t in (t1, t2)):
                return text, None
            (t1, v1), (t2, v2) = as_cards(t1, v1), as_cards(t2, v2)
            return text, (L(join(t1[1], t2[1])), tuple(v1) + tuple(v2))

        def cond(flag, a, b):
            (ta, x), (tb, y) = a, b
            typ, (v1, v2) = join_top([x, y])
            return f"(if {str(flag).lower()} then {ta} else {tb})", (typ, v1 if flag else v2)

        def items(a, b):
            (ta, x), (tb, y) = a, b
            typ, vals = join_top([x, y])
            return f"[{ta}, {tb}]", (L(typ), tuple(vals))

        def comp(a):
            text, (t, v) = a
            t, v = as_cards(t, v)
            if not isinstance(t, tuple):
                return f"[c for c in {text}]", None
            return f"[c for c in {text}]", (t, tuple(v))

        def lift(f, *parts):
            """A part the model refuses makes the whole refused."""
            def build(*xs):
                if any(x[1] == "skip" for x in xs):
                    return "", "skip"
                if any(x[1] is None for x in xs):
                    return f(*[(x[0], (Z, ("zone", "pile"))) for x in xs])[0], None
                try:
                    return f(*xs)
                except Unmodelled:
                    return "", "skip"
                except Refused:
                    return f(*[(x[0], (Z, ("zone", "pile"))) for x in xs])[0], None
            return st.tuples(*parts).map(lambda xs: build(*xs))

        return st.one_of(lift(ident, inner), lift(plus, inner, inner), lift(comp, inner),
                         lift(lambda a, b: cond(True, a, b), inner, inner),
                         lift(lambda a, b: cond(False, a, b), inner, inner), lift(items, inner, inner))

    return st.recursive(atom, extend, max_leaves=6)


def shown(typ, val, top=False):
    if typ == Z:
        return "[" + ", ".join(ZONES[val[1]]) + "]" if top else ZONE_TEXT[val[1]]
    if typ == C:
        return val
    return "[" + ", ".join(shown(typ[1], v) for v in val) + "]"


@settings(max_examples=150, deadline=None)
@given(expressions())
def test_the_checker_and_evaluation_follow_the_rule(tmp_path_factory, expr):
    s = _STATE.get("s") or _STATE.setdefault("s", state(tmp_path_factory.mktemp("z")))
    text, model = expr
    assume(model != "skip")
    out, diags = s.evaluate(text)
    if model is None:
        assert out is None and diags and all(d.severity == "error" for d in diags), (text, out)
        return
    assert not diags, (text, [d.message for d in diags])
    typ, val = model
    assert out == shown(typ, val, top=True), text


_STATE: dict = {}
