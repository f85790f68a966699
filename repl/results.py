"""Scores and winners as the REPL and `cardgame play` write them, read from a seat's view, and
the one to act as they name it.

In a game with teams the view carries the teams (`teams`, `team_scores`, `winning_teams`), and
a result is the team's: `T0 (P0, P2) 120, T1 (P1, P3) 95`, winners `T0 (P0, P2)`.  Otherwise
each seat is listed: `P0 10, P1 5`.  None when the view hides them.  A script without a `score`
has no scores to write: NO_SCORE says so (an Old Maid ends with everybody at 0).
"""

from __future__ import annotations

from cardgame import interpreter


def plural(count: int, word: str) -> str:
    """`1 player`, `3 players`, `2 watches`: a count as people write it."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {word}" + ("es" if word.endswith(("s", "x", "z", "ch", "sh")) else "s")


def who(actor, names: tuple = ()) -> str:
    """How people name the one to act: P0.. (or the seat's name, `players 4 named N, E, S, W`), or
    `table` for a table decision.  (TABLE is read when called: `cardgame check` imports this module
    and must not load the engine.)"""
    return "table" if actor == interpreter.TABLE else interpreter.seat_label(names, actor)


NO_SCORE = "none (the script has no `score`)"


def scores_text(view, scored: bool = True) -> str | None:
    """`scored` False: the script declares no `score`, so every 0 would read as a real score."""
    if not scored:
        return NO_SCORE
    if view.get("teams") is not None:
        scores = view["team_scores"]
        if scores is None:
            return None
        return ", ".join(f"{_team(view, t)} {s}" for t, s in zip(view["teams"], scores))
    if view["scores"] is None:
        return None
    seats = view.get("seats") or []  # a view names the seats when the script does
    return ", ".join(f"{seats[i] if i < len(seats) else f'P{i}'} {s}" for i, s in enumerate(view["scores"]))


def winners_text(view) -> str | None:
    """The winners, `none` when nobody won; None when hidden."""
    if view.get("teams") is not None:
        teams = view["winning_teams"]
        return None if teams is None else (", ".join(_team(view, t) for t in teams) or "none")
    return None if view["winners"] is None else (", ".join(view["winners"]) or "none")


def _team(view, name: str) -> str:
    return f"{name} ({', '.join(view['teams'][name])})"


def declares_score(state) -> bool:
    """Whether the script of `state` declares a `score` (without one every score is 0)."""
    return state.game.program.tables.score is not None


def result_record(state, view) -> dict:
    """The result line of `play --format json` (and `replay`'s): the steps, the scores and
    winners as `view` knows them (None where it may not), whether the script's cap ended it, and
    in a game with teams the teams' figures."""
    result = {"steps": len(state.history), "scores": view["scores"], "winners": view["winners"],
              "capped": state.capped}
    if "teams" in view:
        result.update(teams=view["teams"], team_scores=view["team_scores"], winning_teams=view["winning_teams"])
    return {"result": result}
