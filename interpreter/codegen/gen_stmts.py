"""Plain statements (those that do not change the control flow: let, set, move, deal, log,
reveal/hide/show, shuffle) as lines of Python run in an operation's frame, each change of
what a kept definition reads preceded by its forgetting (Gen.forget).

Separate from expression lowering (which it calls for every value) and from assembly (which
places these lines in operations): this is where the state changes.
"""

from __future__ import annotations

from ..language import limits, nodes as n
from ..language.types import CARD, ZONE
from ..machine.program import holds_cards
from ..machine.runtime import FACE_UP
from .gen_common import ATOM, CHANCE_MARK, INT_LITERAL, indent, times_n
from .text_passes import STATE_LISTS


class Statements:
    """Lowering of plain statements (see the module's docstring): a part of Gen (codegen.py), whose
    methods use the state Gen.__init__ sets up and the other parts' methods, as one object."""

    # ---- plain statements
    def _stmt(self, s, fn):
        env = self._frame_env()
        t = self.t
        match s:
            case n.Let():
                lines, value = self.lower(s.value, env, fn)
                return lines + [f"L[{t.slots[id(s)]}] = {value}"]
            case n.Set():
                return self._set(s, env, fn)
            case n.Move():
                return self._move(s, env, fn)
            case n.Deal():
                return self._deal(s, env, fn)
            case n.Log():
                # The line is made whether anyone listens or not: its work is the game's and a
                # part that fails (a none, the text limit, the budget) faults the game, the same
                # in a playout, which shows nothing, as in `cardgame play`.  Each seat reads the
                # line through the knowledge model: its parts are handed on, to be evaluated
                # again on what the seat knows (knowledge.Journal), with the frame, within the
                # work the line took here.
                lines, text = self.text_lines(s.parts)
                parts = self.const(self.seat_text(s.parts), "LP")
                emit = f"st.emit('log', text={text}, span={self.span(s.span)}, parts={parts}, frame=L, work={{}})"
                if not lines:  # nothing to compute: no work, nothing to fail
                    return ["if st.tracer is not None:", "    " + emit.format(0)]
                work = fn.tmp("w")
                return [f"{work} = st.work"] + lines + ["if st.tracer is not None:",
                                                        "    " + emit.format(f"st.work - {work}")]
            case n.Reveal() | n.Hide() | n.ShowTo():
                return self._visibility(s, env, fn)
            case n.Shuffle():
                lines, zone = self.lower(s.zone, env, fn)
                slot, cards, c = fn.tmp(), fn.tmp(), fn.tmp("c")
                return lines + [CHANCE_MARK, f"{slot} = {zone}", f"{cards} = st.zones[{slot}]"] + \
                    self.charge(f"len({cards})", s.span) + [
                                *self.forget(zones=[slot], facing=True),
                                f"st.rng = _shuffle(st.rng, {cards})", "vis = st.vis",
                                f"for {c} in {cards}:", f"    vis[{c}] = 0", "if st.tracer is not None:",
                                f"    st.emit('chance', what='shuffle', zone={slot}, span={self.const(s.span, 'S')})"]
        return None

    def _visibility(self, s, env, fn):
        """`reveal` (everyone sees), `hide` (nobody), `show ... to` (one more player knows)."""
        typ = self.t.types[id(s.what)]
        lines, what = self.lower(s.what, env, fn)
        cards, c = fn.tmp(), fn.tmp("c")
        span = self.span(s.span)
        if typ == ZONE:
            lines += [f"{cards} = tuple(st.zones[{what}])"]
        else:
            lines += [f"{cards} = _cards(st, {typ == CARD}, {what})"]
        lines += self.forget(facing=True)
        if isinstance(s, n.Reveal):
            return lines + [f"for {c} in {cards}:", f"    st.vis[{c}] |= {FACE_UP}",
                            f"    st.emit('reveal', card={c}, span={span})"]
        if isinstance(s, n.Hide):
            return lines + [f"for {c} in {cards}:", f"    st.vis[{c}] = 0", "    if st.tracer is not None:",
                            f"        st.emit('hide', card={c}, span={span})"]
        pl, player = self.lower(s.player, env, fn)
        seat = fn.tmp()
        msg = self.const("`show ... to` needs a player, found none")
        return pl + [f"{seat} = {player}", f"if {seat} is None:", f"    _fail({msg}, {span})"] + lines + \
            [f"for {c} in {cards}:", f"    st.vis[{c}] |= 1 << {seat}",
             f"    st.emit('peek', card={c}, player={seat}, span={span})"]

    def _set(self, s, env, fn):
        t, p = self.t, self.p
        target = s.target
        kind, detail = t.resolved[id(target)]
        op, span = s.op, self.const(s.span, "S")
        assert op in ("=", "+=", "-=") and kind in ("local", "global"), (op, kind)
        lines = []

        def combine(old: str, new: str, value_nonnull: bool = False, old_nonnull: bool = False) -> list[str]:
            """Lines leaving the combined value in `res`."""
            if op == "=":
                return [f"{res} = {new}"]
            msg = self.const(f"`{op}` on a variable that holds none")
            hint = self.const("give the variable a starting number")
            big = self.const(f"a number grew beyond the limit of {limits.MAX_INT}")
            sign = "+" if op == "+=" else "-"
            unset = [x for x, known in ((o, old_nonnull), (v, value_nonnull)) if not known or self.traced]
            check = [f"if {' or '.join(f'{x} is None' for x in unset)}:", f"    _fail({msg}, {span}, {hint})"]
            return [f"{o} = {old}", f"{v} = {new}"] + (check if unset else []) + [
                    f"{res} = {o} {sign} {v}",
                    f"if not {-limits.MAX_INT} <= {res} <= {limits.MAX_INT}:", f"    _fail({big}, {span})"]

        res, o, v = fn.tmp(), fn.tmp(), fn.tmp()
        seat = ""
        if kind == "global" and op == "=" and not t.vars[detail][0].private and holds_cards(t, t.vars[detail][1]):
            # each seat works out the value it can from what it knows (knowledge.seat_value)
            seat = f", seat={self.const(self.seat_value(s.value), 'SV')}, frame=L"
        trace = ["if st.tracer is not None:",
                 f"    st.emit('set', name={self._value(detail)}, value={{shown}}, index={{index}}, span={span}{seat})"]
        if target.index is not None and not (kind == "global" and t.vars[detail][0].indexed):
            # one element of a list: the list is copied, changed and stored back
            where = f"L[{detail}]" if kind == "local" else f"st.vars[{p.var_slots[detail]}]"
            seq, i = fn.tmp(), fn.tmp()
            il, idx = self.lower(target.index, env, fn)
            vl, value = self.lower(s.value, env, fn)
            outside = self.const("position {} is outside the list (length {})")
            lines = [f"{seq} = list({where})"] + il + [
                f"{i} = {idx}", f"if {i} is None or not -len({seq}) <= {i} < len({seq}):",
                f"    _fail({outside}.format({i}, len({seq})), {span})",
                f"if {i} < 0:", f"    {i} += len({seq})"]  # from the end, as `l[-1]` reads
            if op == "=":
                lines += vl + [f"{seq}[{i}] = {value}"]
            else:
                lines += [f"{o} = {seq}[{i}]"] + vl + [f"{v} = {value}"] + combine(o, v)[2:] + [f"{seq}[{i}] = {res}"]
            lines += ([] if kind == "local" else self.forget(detail)) + [f"{where} = tuple({seq})"]
            return lines if kind == "local" else lines + [trace[0], trace[1].format(shown=f"{seq}[{i}]", index=i)]
        if kind == "local":
            vl, value = self.lower(s.value, env, fn)
            if op == "=":
                return vl + [f"L[{detail}] = {value}"]
            # the old value is read before the new one is computed
            return [f"{o} = L[{detail}]"] + vl + [f"{v} = {value}"] + \
                combine(o, v, self._nonnull(value, env))[2:] + [f"L[{detail}] = {res}"]
        slot = p.var_slots[detail]
        name = detail
        if target.index is None:
            vl, value = self.lower(s.value, env, fn)
            if op == "=":
                lines = vl + self.forget(name) + [f"st.vars[{slot}] = {value}"]
            else:
                lines = [f"{o} = st.vars[{slot}]"] + vl + [f"{v} = {value}"] + \
                    combine(o, v, self._nonnull(value, env), self._var_kept(slot))[2:] + \
                    self.forget(name) + [f"st.vars[{slot}] = {res}"]
            return lines + [trace[0], trace[1].format(shown=f"st.vars[{slot}]", index=None)]
        # per-player variable
        il, idx = self.lower(target.index, env, fn)
        seat = fn.tmp()
        msg = self.const(f"`{name}[...]` needs {'a player' if t.vars[name][0].per_player else 'a team'}, found none")
        row = fn.tmp()
        check = [] if self._nonnull(idx, env) and not self.traced else [f"if {seat} is None:", f"    _fail({msg}, {span})"]
        lines = il + [f"{seat} = {idx}"] + check + [f"{row} = st.vars[{slot}]"]
        vl, value = self.lower(s.value, env, fn)
        if op == "=":
            lines += vl + self.forget(name) + [f"{row}[{seat}] = {value}"]
        else:
            lines += [f"{o} = {row}[{seat}]"] + vl + [f"{v} = {value}"] + \
                combine(o, v, self._nonnull(value, env), self._var_kept(slot))[2:] + \
                self.forget(name) + [f"{row}[{seat}] = {res}"]
        return lines + [trace[0], trace[1].format(shown=f"{row}[{seat}]", index=seat)]

    def _move_card(self, card: str, dest: str, bottom: bool, facing, fn) -> list[str]:
        """State.move_card written inline (each card is in exactly one zone, once)."""
        src = fn.tmp("z")
        lines = [f"{src} = zones[loc[{card}]]",
                 f"if {src}[-1] == {card}:", f"    {src}.pop()", "else:", f"    {src}.remove({card})",
                 f"zones[{dest}].insert(0, {card})" if bottom else f"zones[{dest}].append({card})",
                 f"loc[{card}] = {dest}"]
        lines.append(f"vis[{card}] |= {FACE_UP}" if facing == "up" else f"vis[{card}] &= {~FACE_UP}")
        return lines

    def _move(self, s, env, fn):
        t = self.t
        span = self.const(s.span, "S")
        dl, dest = self.lower(s.dest, env, fn)
        d = fn.tmp()
        msg = self.const("`move` needs a zone to move to, found none")
        if (INT_LITERAL.match(dest) or dest in self._nonnull_codes) and not dl:
            if ATOM.match(dest):
                d, lines = dest, []
            else:
                lines = [f"{d} = {dest}"]
        else:
            lines = dl + [f"{d} = {dest}", f"if {d} is None:", f"    _fail({msg}, {span})"]
        typ = t.types[id(s.what)]
        wl, what = self.lower(s.what, env, fn)
        card = fn.tmp("c")
        bottom = s.position == "bottom"
        order = "reversed" if bottom else ""  # under a pile, the list keeps its order
        lines.append(STATE_LISTS)
        flags = (", bottom=True" if bottom else "") + (", placed=True" if self._by_place(s.what, typ) else "")
        move = self._move_card(card, d, bottom, s.facing, fn) + \
            ["if st.tracer is not None:", f"    st.emit('move', card={card}, to={d}, span={span}{flags})"]
        if typ == CARD:
            forget = self.forget(zones=[d, f"loc[{card}]"], facing=True)  # where it goes, where it was
            if self._nonnull(what, env) and not self.traced:
                return lines + wl + [f"{card} = {what}"] + forget + move
            return lines + wl + [f"{card} = {what}", f"if {card} is not None:"] + indent(forget + move)
        if typ == ZONE:
            # Untraced, a whole zone moves at once: same final zones, locations and facing.
            src, moved = fn.tmp(), fn.tmp()
            place = f"zones[{d}][0:0] = {moved}" if bottom else f"zones[{d}].extend({moved})"
            vis = f"vis[{card}] |= {FACE_UP}" if s.facing == "up" else f"vis[{card}] &= {~FACE_UP}"
            return lines + wl + [f"{src} = {what}"] + self.charge(f"len(zones[{src}])", s.span) + \
                self.forget(zones=[src, d], facing=True) + [
                    "if st.tracer is None:",
                    f"    {moved} = tuple(zones[{src}])",
                    f"    if {src} != {d}:", f"        {place}", f"        zones[{src}].clear()",
                    f"        for {card} in {moved}:", f"            loc[{card}] = {d}",
                    f"            {vis}",
                    "    else:", f"        for {card} in {moved}:", f"            {vis}",
                    "else:", f"    for {card} in {order}(tuple(zones[{src}])):"] + indent(move, 2)
        cards = fn.tmp()
        # a list is a tuple (a value: moving its cards does not change it); its nones are skipped
        return lines + wl + [f"{cards} = {what}", f"if {cards} is not None:"] + \
            indent(self.charge(f"len({cards})", s.span) + self.forget(zones=[d], facing=True, anywhere=True)) + [
                             f"    if type({cards}) is not tuple or None in {cards}:",
                             f"        {cards} = tuple([x for x in {cards} if x is not None])",
                             "    if st.tracer is None:",  # asked once, not at every card
                             f"        for {card} in {order}({cards}):"] + indent(move[:-2], 3) + [
                             "    else:", f"        for {card} in {order}({cards}):"] + indent(move[:-2] + [move[-1].strip()], 3)

    def _by_place(self, what, typ) -> bool:
        """Whether a `move` takes its cards by their places, which everyone knows (a whole zone,
        `top(z)`, `bottom(z, n)`, `cards(z)`, `first`/`last` of a zone, `z[0]`): then a seat that
        knows the card at that place follows it (knowledge.Journal); a card chosen any other way
        (a decision's binder, a `let`, a filter) is followed only by who sees it."""
        if typ == ZONE:
            return True
        zone_arg = isinstance(what, n.Call) and what.args and self.t.types.get(id(what.args[0])) == ZONE
        if isinstance(what, n.Call) and what.func in ("top", "bottom", "cards", "first", "last") and zone_arg:
            return True
        if isinstance(what, n.Index) and self.t.types.get(id(what.obj)) == ZONE:
            index = what.index
            if isinstance(index, n.Unary) and index.op == "neg":
                index = index.operand
            return isinstance(index, n.Literal) and index.kind == "int"
        return False

    def _deal(self, s, env, fn):
        p = self.p
        kind, k = p.zone_index[s.zone]
        if kind != "per_player":
            raise AssertionError("deal into a shared zone")  # the checker rejects it
        first, span = p.shared_zone_count, self.const(s.span, "S")
        lines, (players, source, count) = self.lower_all((s.players, s.source, s.count), env, fn)
        seats, src, pile, seat, dest, card, rounds, held = (fn.tmp() for _ in range(8))
        hint = self.const("deal fewer cards, or refill the zone first")
        vis = f"vis[{card}] |= {FACE_UP}" if s.facing == "up" else f"vis[{card}] &= {~FACE_UP}"
        bad = self.const("`deal` needs a count of 0 or more cards, found {}")
        bad_hint = self.const("compute a count of 0 or more, e.g. `max(0, N)`")
        return lines + [
            f"{seats} = {players}", f"{src} = {source}", f"{rounds} = {count}",
            f"if {rounds} is None or {rounds} < 0:",
            f"    _fail({bad}.format('none' if {rounds} is None else {rounds}), {span}, {bad_hint})",
            # paid up front: every round, even one that deals to nobody
        ] + self.charge(f"max(0, {rounds}) * max(1, len({seats}))", s.span) + [
            # the cards go to per-player zones: read only where any zone might be (memo_reads.py)
            *self.forget(zones=[src], facing=True), STATE_LISTS] + self._deal_at_once(s, seats, src, rounds, vis, card, fn, [
            f"{held} = len(zones[{src}])",
            f"for _ in range({rounds}):",
            f"    for {seat} in {seats}:",
            f"        {pile} = zones[{src}]",
            f"        if not {pile}:",
            f"            _fail(_deal_short(st, {src}, {rounds}, len({seats}), {held}), {span}, {hint})",
            f"        {dest} = {first} + {times_n(k)}{seat}",
            f"        {card} = {pile}.pop()",
            f"        zones[{dest}].append({card})",
            f"        loc[{card}] = {dest}",
            f"        {vis}",
            "        if st.tracer is not None:",
            f"            st.emit('move', card={card}, to={dest}, span={span}, placed=True)",
        ])

    def _deal_at_once(self, s, seats, src, rounds, vis, card, fn, one_by_one):
        """A deal's lines: fast code with no tracer listening takes all the cards at once when
        the pile holds them and each seat is dealt to once a round (seat i gets the i-th card
        of each round from the top, in order, as dealing card by card gives it); otherwise, and
        in traced code, card by card (`one_by_one`)."""
        if self.traced:
            return one_by_one
        first, k = self.p.shared_zone_count, self.p.zone_index[s.zone][1]
        count, need, pile, dealt, i, seat, dest, got = (fn.tmp() for _ in range(8))
        return [
            f"{count} = len({seats})", f"{need} = {rounds} * {count}", f"{pile} = zones[{src}]",
            f"if st.tracer is None and 0 < {need} <= len({pile}) and None not in {seats} and "
            f"len(set({seats})) == {count} and {src} - {first} - {times_n(k)}0 not in {seats}:",
            f"    {dealt} = {pile}[-{need}:]", f"    {dealt}.reverse()", f"    del {pile}[-{need}:]",
            f"    for {i}, {seat} in enumerate({seats}):",
            f"        {dest} = {first} + {times_n(k)}{seat}", f"        {got} = {dealt}[{i}::{count}]",
            f"        zones[{dest}].extend({got})",
            f"        for {card} in {got}:", f"            loc[{card}] = {dest}", f"            {vis}",
            "else:"] + indent(one_by_one)
