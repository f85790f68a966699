"""The built-in functions in the kernel mode: each one as language/builtins.py implements it for
these argument types, its work paid the same way and its faults at the same arguments (a fault
stops the game in the kernel; the Python path then plays it).  Their loops live in kernel_lib.
"""

from __future__ import annotations

from ..language.types import BOOL, CARD, INT, PLAYER, SYMBOL, TEAM, ZONE, element, is_list
from .kernel_exprs import KernelUnsupported

_SCALARS = (INT, CARD, PLAYER, TEAM, SYMBOL, BOOL, ZONE)


class KernelBuiltins:
    """Built-in calls of the kernel mode: a part of KernelGen."""

    def builtin(self, e, env):
        f = e.func
        lines, codes = self.lower_all(e.args, env)
        held = []
        for code in codes:
            lines, code = self.held(lines, code)
            held.append(code)
        types = [self.typ(a) for a in e.args]
        zone = [t == ZONE and id(a) not in self.t.coerced for t, a in zip(types, e.args)]
        method = getattr(self, "_b_" + f, None)
        if method is None:
            raise KernelUnsupported(f"the built-in `{f}`", e.span)
        more, code = method(held, types, zone, e)
        return lines + more, code

    @staticmethod
    def _present(*codes) -> list[str]:
        """A fault when any of `codes` is none (a built-in's TypeError, in Python)."""
        return [f"if {' or '.join(f'{c} == NONE' for c in codes)}:", "    bail(FAULT)"]

    def _b_count(self, a, types, zone, e):
        if zone[0]:
            return self._present(a[0]), f"ZN[{a[0]}]"
        return self._present(a[0]), f"length({a[0]})"

    def _b_empty(self, a, types, zone, e):
        if zone[0]:
            return self._present(a[0]), f"(ZN[{a[0]}] == 0)"
        return [], f"(length({a[0]}) == 0)"

    def _b_sum(self, a, types, zone, e):
        return [], f"sum_list({a[0]})"

    def _extreme(self, a, types, zone, most: int):
        if len(a) == 1:
            if zone[0]:
                return self._present(a[0]), f"extreme_zone({a[0]}, {most})"
            return [], f"extreme_list({a[0]}, {most})"
        out, kept = self.tmp("r"), self.tmp("n")
        lines = [f"{out} = NONE", f"{kept} = 0"]
        for x in a:
            better = ">" if most else "<"
            lines += [f"if {x} != NONE:", f"    if not is_number({x}):", "        bail(UNREPRESENTED)",
                      f"    {kept} += 1", f"    if {out} == NONE or {x} {better} {out}:", f"        {out} = {x}"]
        return lines + [f"charge({kept})"], out

    def _b_max(self, a, types, zone, e):
        return self._extreme(a, types, zone, 1)

    def _b_min(self, a, types, zone, e):
        return self._extreme(a, types, zone, 0)

    def _b_top(self, a, types, zone, e):
        return self._end(a, "top")

    def _b_bottom(self, a, types, zone, e):
        return self._end(a, "bottom")

    def _end(self, a, which):
        lines = self._present(a[0])
        if len(a) == 1:
            return lines, f"zone_{which}({a[0]})"
        out = self.tmp()
        return lines + self._present(a[1]) + [f"{out} = zone_ends({a[0]}, {a[1]}, {int(which == 'top')})"], out

    def _b_cards(self, a, types, zone, e):
        return self._present(a[0]) + [f"charge(ZN[{a[0]}])"], f"zone_list({a[0]})"

    def _b_first(self, a, types, zone, e):
        return self._ends(a, zone, first=True)

    def _b_last(self, a, types, zone, e):
        return self._ends(a, zone, first=False)

    def _ends(self, a, zone, first: bool):
        xs = a[0]
        if len(a) == 1:
            if zone[0]:
                return self._present(xs), f"zone_item({xs}, {0 if first else -1})"
            return [], f"list_item({xs}, {0 if first else -1})"
        lines = self._present(xs, a[1])
        out = self.tmp()
        if zone[0]:
            lines += [f"{xs} = zone_list({xs})"]
        return lines + [f"{out} = list_ends({xs}, {a[1]}, {int(first)})"], out

    def _b_reverse(self, a, types, zone, e):
        lines = self._present(a[0])
        if zone[0]:
            return lines + [f"charge(ZN[{a[0]}])"], f"reversed_list(zone_list({a[0]}))"
        return lines + [f"charge(length({a[0]}))"], f"reversed_list({a[0]})"

    def _b_unique(self, a, types, zone, e):
        xs = a[0]
        lines = self._present(xs)
        if zone[0]:
            return lines + [f"charge(ZN[{xs}])"], f"zone_list({xs})"  # a zone's cards are distinct
        elem = element(types[0])
        x, y, out, m, i, j, seen = (self.tmp(p) for p in ("x", "y", "b", "m", "i", "j", "s"))
        _, same = self.equal(x, y, elem, elem, e, charged=False)
        return lines + [f"charge(length({xs}))", f"{out} = alloc(length({xs}))", f"{m} = 0",
                        f"for {i} in range(length({xs})):", f"    {x} = item({xs}, {i})", f"    {seen} = 0",
                        f"    for {j} in range({m}):", f"        {y} = H[{out} + {j}]", f"        if {same}:",
                        f"            {seen} = 1", "            break", f"    if not {seen}:",
                        f"        H[{out} + {m}] = {x}", f"        {m} += 1"], f"handle({out}, {m})"

    def _b_sorted(self, a, types, zone, e):
        return [], f"sorted_ints({a[0]})"

    def _b_range(self, a, types, zone, e):
        return [], f"int_range({a[0]}, {a[1]})"

    def _b_index(self, a, types, zone, e):
        xs, v = a
        lines = self._present(xs)
        if zone[0]:
            return lines + [f"charge(ZN[{xs}])"], f"zone_index({xs}, {v})"
        elem = element(types[0]) if is_list(types[0]) else "any"
        x, i, out = self.tmp("x"), self.tmp("i"), self.tmp("r")
        _, same = self.equal(x, v, elem, types[1], e, charged=False)
        return lines + [f"charge(length({xs}))", f"{out} = NONE", f"for {i} in range(length({xs})):",
                        f"    {x} = item({xs}, {i})", f"    if {same}:", f"        {out} = {i}", "        break"], out

    def _b_abs(self, a, types, zone, e):
        return self._present(a[0]) + [f"if not is_number({a[0]}):", "    bail(FAULT)"], \
            f"({a[0]} if {a[0]} >= 0 else -{a[0]})"

    def _b_left_of(self, a, types, zone, e):
        return self._present(a[0]), f"(({a[0]} + 1) % S[N])"

    def _b_right_of(self, a, types, zone, e):
        return self._present(a[0]), f"(({a[0]} - 1) % S[N])"

    def _b_seat(self, a, types, zone, e):
        return self._present(a[0]) + [f"if not is_number({a[0]}):", "    bail(FAULT)"], f"({a[0]} % S[N])"

    def _b_number(self, a, types, zone, e):
        return [], a[0]

    def _b_players_from(self, a, types, zone, e):
        return self._present(a[0]) + ["charge(S[N])"], f"item(S[PLAYERS_FROM], {a[0]} % S[N])"

    def _b_team(self, a, types, zone, e):
        return self._seat_checked(a[0]), f"TM[{a[0]}]"

    def _seat_checked(self, p) -> list[str]:
        return [f"if {p} == NONE or {p} < 0 or {p} >= S[N]:", "    bail(FAULT)"]

    def _b_members(self, a, types, zone, e):
        t = a[0]
        return [f"if {t} == NONE or {t} < 0 or {t} >= S[TEAM_COUNT]:", "    bail(FAULT)",
                f"charge(length(item(S[MEMBERS], {t})))"], f"item(S[MEMBERS], {t})"

    def _b_partners(self, a, types, zone, e):
        return self._seat_checked(a[0]) + ["charge(S[N])"], f"item(S[PARTNERS], {a[0]})"

    def _b_partner(self, a, types, zone, e):
        return self._seat_checked(a[0]) + ["charge(S[N])"], f"list_item(item(S[PARTNERS], {a[0]}), 0)"

    def _b_owner(self, a, types, zone, e):
        return [], f"(NONE if {a[0]} == NONE else owner_of_slot(LOC[{a[0]}]))"

    def _b_zone_of(self, a, types, zone, e):
        return [], f"(NONE if {a[0]} == NONE else LOC[{a[0]}])"

    def _b_subsets(self, a, types, zone, e):
        xs = f"zone_list({a[0]})" if zone[0] else a[0]
        lines = self._present(a[0]) if zone[0] else []
        return lines, f"subsets_of({xs}, {a[1]})"

    def _b_disjoint_choices(self, a, types, zone, e):
        inner = element(types[0]) if is_list(types[0]) else "any"
        if not is_list(inner) or element(inner) not in _SCALARS:
            raise KernelUnsupported("`disjoint_choices` of lists of lists", e.span)
        return [], f"disjoint_of({a[0]})"

    def _b_face_up(self, a, types, zone, e):
        return [], f"(0 if {a[0]} == NONE else (VIS[{a[0]}] & FACE_UP) != 0)"
