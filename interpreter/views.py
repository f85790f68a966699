"""Per-player views: what one seat, a spectator, or the whole table may see."""

from __future__ import annotations

from .program import render_value
from .runtime import FACE_UP, TABLE

HIDDEN = "??"


def zone_visibility(st, zone) -> str:
    """A zone's visibility in this game (it may depend on the options)."""
    if zone.condition is None:
        return zone.visibility
    return zone.visibility if st.prog.zone_conditions[zone.name](st, []) else zone.otherwise


def build_view(st, viewer) -> dict:
    prog = st.prog
    names = prog.card_names
    zones = {}
    vis_of = {z.name: zone_visibility(st, z) for z in prog.tables.zones.values()}
    for slot, cards in enumerate(st.zones):
        name, owner = prog.zone_of_slot(slot, st.n)
        vis = vis_of[name]

        def shown(c):
            if viewer == "all" or vis == "public" or st.vis[c] & FACE_UP:
                return names[c]
            if viewer is not None and viewer != "all" and ((vis == "owner" and owner == viewer)
                                                          or st.vis[c] & (1 << viewer)):
                return names[c]
            return HIDDEN
        listed = [shown(c) for c in cards]
        if owner is None:
            zones[name] = listed
        else:
            zones.setdefault(name, {})[f"P{owner}"] = listed
    variables = {}
    for name, (var, typ) in prog.tables.vars.items():
        value = st.vars[prog.var_slots[name]]
        if var.per_player:
            variables[name] = {f"P{seat}": _plain(st, typ, v) for seat, v in enumerate(value)
                               if not var.private or viewer in ("all", seat)}
        elif not var.private or viewer == "all":
            variables[name] = _plain(st, typ, value)
    actor = st.current_player
    return {
        "game": st.game.title,
        "viewer": "all" if viewer == "all" else (f"P{viewer}" if viewer is not None else "spectator"),
        "step": len(st.history),
        "phase": st.phase,
        "to_act": None if actor is None else ("table" if actor == TABLE else f"P{actor}"),
        "zones": zones,
        "vars": variables,
        "scores": st.scores if st.fault is None else [],
        "over": st.over,
        "winners": [f"P{w}" for w in st.winners],
    }


def _plain(st, typ, value):
    """JSON-friendly: numbers, booleans and none stay; cards, players and lists are named."""
    if value is None or type(value) in (bool, str) or (type(value) is int and typ not in ("card", "player", "zone")):
        return value
    if isinstance(value, (tuple, list)):
        inner = typ[5:] if typ.startswith("list:") else "any"
        return [_plain(st, inner, v) for v in value]
    return render_value(st.prog, typ, value)

