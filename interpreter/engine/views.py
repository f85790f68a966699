"""Per-player views: what one seat, a spectator, or the whole table may see, as data.

Every field is read through the knowledge model (knowledge.py): a card is named only where the
viewer sees it, and scores, winners and the prompt are computed from the viewer's knowledge
(None, or the prompt as written, while they would depend on something hidden).
"""

from __future__ import annotations

from ..language.types import is_record, record_name
from ..machine.program import render_value
from ..machine.runtime import TABLE
from .knowledge import (HIDDEN, UnknownRead, iter_bits, known_var, masked, mind_of, prompt_for, scores_for, sees_at,
                        slot_visibility, unknown_to, viewer_name)


def build_view(st, viewer) -> dict:
    prog = st.prog
    names = prog.card_names
    zones, known_in, sight = {}, {}, {}
    mind = None if viewer == "all" else mind_of(st, viewer)
    unknown = unknown_to(st, viewer, mind)  # the cards it can name where they lie
    only = None if mind is None else mind.only_here()
    table = slot_visibility(st)
    for slot, cards in enumerate(st.zones):
        name, owner = prog.zone_of_slot(slot, st.n)
        listed = [HIDDEN if unknown(c) else names[c] for c in cards]
        seen = [names[c] if sees_at(table, st.vis, st.loc, viewer, c) else HIDDEN for c in cards]
        keys = prog.display_keys.get(name)
        if keys is not None:
            listed = shown_in_order(cards, listed, keys, names)
            seen = shown_in_order(cards, seen, keys, names)
        unplaced = [] if mind is None else [names[c] for c in iter_bits(only[slot]) if unknown(c)]
        if owner is None:
            zones[name], known_in[name], sight[name] = listed, unplaced, seen
        else:
            seat = prog.seat_label(owner)
            zones.setdefault(name, {})[seat] = listed
            known_in.setdefault(name, {})[seat] = unplaced
            sight.setdefault(name, {})[seat] = seen
    variables = {}
    for name, (var, typ) in prog.tables.vars.items():
        slot = prog.var_slots[name]
        value = st.vars[slot] if mind is None or slot not in prog.card_var_slots else known_var(st, viewer, slot, mind)
        if var.per_player:
            variables[name] = {prog.seat_label(seat): _plain(st, typ, v) for seat, v in enumerate(value)
                               if not var.private or viewer in ("all", seat)}
        elif var.per_team:  # a private one is shown to the team's members
            variables[name] = {f"T{team}": _plain(st, typ, v) for team, v in enumerate(value)
                               if not var.private or viewer == "all" or
                               (viewer is not None and st.teams.of[viewer] == team)}
        elif not var.private or viewer == "all":
            variables[name] = _plain(st, typ, value)
    actor = st.current_player
    return {
        "game": st.game.title,
        "viewer": viewer_name(viewer, prog),
        "step": len(st.history),
        "phase": st.phase,
        "to_act": None if actor is None else ("table" if actor == TABLE else prog.seat_label(actor)),
        "prompt": prompt_for(st, viewer),
        "zones": zones,
        "known_in": known_in,
        "sight": sight,
        "vars": variables,
        "scores": scores_for(st, viewer),
        "over": st.over,
        "winners": _winners(st, viewer),
        **_teams(st, viewer),
        # with `players 4 named N, E, S, W`, the seats' names in seat order (the keys above)
        **({"seats": [prog.seat_label(k) for k in range(st.n)]} if prog.tables.seat_names else {}),
    }


def _teams(st, viewer) -> dict:
    """In a game with teams: each team's seats, its score and the winning teams."""
    if st.teams is None:
        return {}
    try:
        on = st if viewer == "all" else masked(st, viewer)
        scores = None if st.fault is not None else [int(s) for s in on.team_scores]
        winning = [f"T{t}" for t in on.winning_teams]
    except UnknownRead:
        scores = winning = None
    return {"teams": {f"T{t}": [st.prog.seat_label(s) for s in seats] for t, seats in enumerate(st.teams.members)},
            "team_scores": scores, "winning_teams": winning}


def shown_in_order(cards, listed, keys, names) -> list:
    """A zone `shown by` some attributes: the cards the viewer sees, sorted by them (the zone's
    order on ties), in the places those cards take; unseen cards keep their places, so the order
    shown tells a seat nothing about cards it cannot see."""
    seen = [i for i, text in enumerate(listed) if text != HIDDEN]
    ordered_cards = sorted((cards[i] for i in seen), key=keys.__getitem__)
    out = list(listed)
    for i, c in zip(seen, ordered_cards):
        out[i] = names[c]
    return out


def _winners(st, viewer):
    try:
        winners = st.winners if viewer == "all" else masked(st, viewer).winners
    except UnknownRead:
        return None
    return [st.prog.seat_label(w) for w in winners]


def _plain(st, typ, value):
    """JSON-friendly: numbers, booleans and none stay; cards, players and lists are named."""
    if value is None or type(value) in (bool, str) or (type(value) is int and typ not in ("card", "player", "zone", "team")):
        return value
    if isinstance(value, (tuple, list)) and is_record(typ):  # {"cards": ["4D", ...], "points": 12}
        fields = st.prog.tables.record_fields.get(record_name(typ), ())
        return {f: _plain(st, ft, v) for (f, ft), v in zip(fields, value)}
    if isinstance(value, (tuple, list)):
        inner = typ[5:] if typ.startswith("list:") else "any"
        return [_plain(st, inner, v) for v in value]
    return render_value(st.prog, typ, value)
