"""Two variants (two option sets, or two scripts) played on the same seeds, every figure side by
side with its difference and whether the difference is significant.

Game i has the same seed on both sides, so figures known for every game are compared pairwise
(the mean of the per-game differences and its 95% interval: the shared seed cancels much of the
luck); figures known only for some games (a winner's lead, a measure) are compared unpaired.
A figure only one side has (a measure only a variant declares, a seat only the larger table has)
is shown with the other side absent.  The two sides may play different player counts: every
figure is then compared unpaired, and the first seat's advantage (its wins beyond an equal share)
compares across counts.  Notes say which figures changed with the components (the deck, the
moves listed, the seats) rather than only with play."""

from __future__ import annotations

from ..language import limits
from .backends import COMPARE_REASON, python_only
from .measures import compile_measures
from .players import agent_specs, refuse
from .simulate import play_games
from .stats import balance, holm, paired_difference, unpaired_difference


def sole_loser(r, players: int):
    """The one seat (with teams: the one team) a drawn game's winners leave out, or None: the
    loser of a game all the others win (Old Maid's kind), which is no tie for that one."""
    if r.outcome != "drawn":
        return None
    sides = range(max(r.teams) + 1) if r.teams is not None else range(players)
    won = r.winning_teams if r.teams is not None else r.winners
    losers = [side for side in sides if side not in won]
    return losers[0] if len(losers) == 1 else None


def per_game_figures(game, records, players: int, losers: bool = False) -> dict:
    """figure name -> one value per game (None where the figure does not exist for that game).
    `losers`: also each seat's (team's) sole losses in drawn games with one loser."""
    seat_label = game.program.seat_label
    figures = {
        "length (decisions)": [r.decisions for r in records],
        "won": [int(r.outcome == "won") for r in records],
        "drawn": [int(r.outcome == "drawn") for r in records],
        "capped": [int(r.outcome == "capped") for r in records],
        "faulted": [int(r.outcome == "faulted") for r in records],
        "stopped by the limit": [int(r.outcome == "limit") for r in records],
    }
    for seat in range(players):  # with teams, a seat wins with its team
        figures[f"{seat_label(seat)} wins"] = [int(r.outcome == "won" and seat in r.winners) for r in records]
    # P0's wins beyond an equal share of the won games: 0 when the first seat has no edge, at any count
    figures["first seat advantage"] = [int(r.outcome == "won" and 0 in r.winners) - int(r.outcome == "won") / players
                                       for r in records]
    teams = next((r.teams for r in records if r.teams is not None), None)
    for team in range(max(teams) + 1 if teams else 0):
        figures[f"T{team} wins"] = [int(r.outcome == "won" and r.winning_teams == (team,)) for r in records]
    if losers:
        figures["drawn with one loser"] = [int(sole_loser(r, players) is not None) for r in records]
        for side in range(max(teams) + 1 if teams else players):
            figures[(f"T{side}" if teams else seat_label(side)) + " sole losses"] = [int(sole_loser(r, players) == side)
                                                                     for r in records]
    if game.program.tables.score is not None:  # without one every score is 0 and nobody leads
        for seat in range(players):
            figures[f"{seat_label(seat)} score"] = [r.scores[seat] if r.outcome in ("won", "drawn") else None for r in records]
        figures["lead changes"] = [r.lead_changes if r.outcome in ("won", "drawn") else None for r in records]
        figures["decided at"] = [r.decided_at for r in records]
    figures["branching factor"] = [r.offered / r.choices if r.choices else None for r in records]
    figures["forced share"] = [r.forced / r.choices if r.choices else None for r in records]
    figures["information revealed"] = [r.seen for r in records]
    for m in compile_measures(game):
        if m.at is not None:  # read at a point of the flow: each game's mean reading (None without one)
            for seat in range(players) if m.per_player else (None,):
                shown = f"measure {m.name}" + (f"[{seat_label(seat)}]" if seat is not None else "")
                figures[shown] = [_mean_reading([v[seat] if seat is not None else v for v in r.measures[m.name]])
                                  if r.measures else None for r in records]
        elif m.per_player:
            for seat in range(players):
                figures[f"measure {m.name}[{seat_label(seat)}]"] = [r.measures[m.name][seat] if r.measures else None
                                                         for r in records]
        else:
            figures[f"measure {m.name}"] = [r.measures[m.name] if r.measures else None for r in records]
    return figures


def _mean(values):
    known = [v for v in values if v is not None]
    return round(sum(known) / len(known), 4) if known else None


def compare(game_a, options_a: dict, game_b, options_b: dict, games: int, players: int, seed: int = 0,
            policy: str = "uniform", max_decisions: int = limits.MAX_DECISIONS, workers: int = 1, dask=None,
            progress=None, players_b: int | None = None, backend: str = "auto", agents=None) -> dict:
    """Play both sides on the same seeds (`players_b`: B's player count, when it is not A's);
    rows for every figure of either side, the other side absent where it lacks it.  On the Python
    path whatever `backend` (backends.COMPARE_REASON; "compiled" is refused).  `agents`: one spec
    per seat, both sides played by them (docs/agents.md); needs one player count."""
    ran, why = python_only(backend, COMPARE_REASON)
    players_b = players if players_b is None else players_b
    if agents is not None and players_b != players:
        raise refuse("agents play both sides seat by seat: both need the same player count",
                     "give one --players to both sides, or compare without --agents")
    agents = agent_specs(agents, players)

    def side(game, options, offset, count):
        tick = None if progress is None else (lambda done: progress(offset + done))
        return play_games(game, games, count, seed, options, workers, policy, max_decisions, tick, dask,
                          metrics="full", agents=agents)  # lead changes and the rest are compared too
    records_a, records_b = side(game_a, options_a, 0, players), side(game_b, options_b, games, players_b)
    losers = any(sole_loser(r, players) is not None for r in records_a) or \
        any(sole_loser(r, players_b) is not None for r in records_b)
    a = per_game_figures(game_a, records_a, players, losers)
    b = per_game_figures(game_b, records_b, players_b, losers)
    rows = []
    for name in list(a) + [k for k in b if k not in a]:
        if name not in a or name not in b:
            rows.append({"figure": name, "a": _mean(a[name]) if name in a else None,
                         "b": _mean(b[name]) if name in b else None, "difference": None, "ci95": None, "p": None,
                         "significant": False, "test": "absent", "absent": "a" if name not in a else "b"})
            continue
        va, vb = a[name], b[name]
        if players == players_b and all((x is None) == (y is None) for x, y in zip(va, vb)):  # known for the same games
            test = "paired"
            result = paired_difference([x for x in va if x is not None], [y for y in vb if y is not None])
        else:
            test = "unpaired"
            result = unpaired_difference([v for v in va if v is not None], [v for v in vb if v is not None])
        rows.append({"figure": name, "a": _mean(va), "b": _mean(vb), **result, "test": test})
    for row, together in zip(rows, holm([row["p"] for row in rows])):
        row["significant_together"] = together
        row["p"] = None if row["p"] is None else round(row["p"], 4) + 0.0
    return {"a": {"file": game_a.path, "options": options_a}, "b": {"file": game_b.path, "options": options_b},
            "games": games, "players": players, "players_b": players_b, "seed": seed, "policy": policy,
            "agents": [a.text for a in agents] if agents is not None else None,
            "backend": ran, "backend_reason": why, "rows": rows,
            "notes": component_notes(game_a, game_b, players, players_b),
            "balance": {"a": seat_balance(records_a, players), "b": seat_balance(records_b, players_b)},
            "loser_balance": {"a": loser_balance(records_a, players), "b": loser_balance(records_b, players_b)},
            "drawn_with_one_loser": losers,
            "same_moves": sum(x.moves_digest is not None and x.moves_digest == y.moves_digest
                              for x, y in zip(records_a, records_b))}


def component_notes(game_a, game_b, players_a: int, players_b: int) -> list[str]:
    """Which figures changed because the components did (the deck, the moves a decision lists, the
    seats), rather than only because play did."""
    notes = []
    cards_a, cards_b = len(game_a.program.card_names), len(game_b.program.card_names)
    if cards_a != cards_b:
        notes.append(f"The decks differ (A {cards_a} cards, B {cards_b}): `information revealed` counts the cards "
                     "turned up or shown, so it changes with the deck, not only with play.")
    listed_a, listed_b = _moves_listed(game_a), _moves_listed(game_b)
    if listed_a != listed_b:
        only_b, only_a = sorted(listed_b - listed_a), sorted(listed_a - listed_b)
        which = "; ".join(part for part in (
            f"only B lists {', '.join(f'`{m}`' for m in only_b)}" if only_b else "",
            f"only A lists {', '.join(f'`{m}`' for m in only_a)}" if only_a else "") if part)
        notes.append(f"The moves the decisions list differ ({which}): `branching factor` and `forced share` count "
                     "the moves listed, so they change with the listing, not only with play.")
    if players_a != players_b:
        notes.append(f"A seats {players_a} players and B {players_b}: every figure is compared unpaired; a seat only "
                     "one side has is absent on the other; `first seat advantage` (P0's wins beyond an equal share "
                     "of the won games) compares across the counts, and the win rates of the seats do not.")
    return notes


def _moves_listed(game) -> set:
    """The alternatives of every decision, by name: what a decision may list."""
    return {alt.name for d in game.program.decisions for alt in d.alts}


def seat_balance(records, players: int) -> dict:
    """stats.balance of the sole wins of each seat (with teams: each team) over the won games."""
    teams = next((r.teams for r in records if r.teams is not None), None)
    wins = [0] * (max(teams) + 1 if teams else players)
    for r in records:
        if r.outcome == "won":
            for side in (r.winning_teams if teams else r.winners):
                wins[side] += 1
    out = balance(wins)
    return dict(out, teams=teams is not None)


def loser_balance(records, players: int) -> dict:
    """stats.balance of the sole losses of each seat (with teams: each team) over the finished
    games with one loser, as simulate's loser_balance: Old Maid's kind, where nobody wins alone."""
    teams = next((r.teams for r in records if r.teams is not None), None)
    sides = max(teams) + 1 if teams else players
    lost = [0] * sides
    for r in records:
        if r.outcome in ("won", "drawn"):
            won = r.winning_teams if teams else r.winners
            losers = [side for side in range(sides) if side not in won]
            if len(losers) == 1 and sides > 1:
                lost[losers[0]] += 1
    return dict(balance(lost), teams=teams is not None)


def _mean_reading(values: list):
    """The mean of one game's readings of a point measure; None when it had none."""
    return sum(values) / len(values) if values else None
