"""Game records -> the statistics `simulate --json` prints (every field is in docs/simulate.md).

Every rate is over all games of the run, so the sole-win rates of the seats (in a game with
teams, of the teams), the draw rate and the unfinished rate add up to 1; every rate and mean has a 95% confidence interval.  Records are
added as they come and only counts are kept (value -> how many games), so memory does not grow
with the number of games.
"""

from __future__ import annotations

from collections import Counter

from ..language.source import render
from .measures import compile_measures, value_list
from .records import OUTCOMES
from .stats import Moments, balance, proportion, summary, yes_no_summary

MAX_FAULT_KINDS = 20  # kinds of fault shown one by one; the rest are counted together


class Summary:
    """The statistics of a run, built one record at a time (records in game order)."""

    def __init__(self, game, players: int, seed: int, options: dict, policy: str, metrics: str = "full"):
        self.game, self.players, self.seed, self.options, self.policy = game, players, seed, options, policy
        self.metrics = metrics
        self.measures = compile_measures(game)
        self.outcomes = {o: 0 for o in OUTCOMES}
        self.sole, self.shared = [0] * players, [0] * players
        self.lost, self.sole_lost = [0] * players, [0] * players  # finished games not won; the only one not won
        self.one_loser = 0  # drawn games in which exactly one seat (team) was not among the winners
        self.scores = [Counter() for _ in range(players)]
        self.length, self.lead_changes = Counter(), Counter()
        self.decided, self.branching, self.forced, self.seen = Moments(), Moments(), Moments(), Moments()
        self.won_by_p0 = 0
        self.values = {m.name: Counter() for m in self.measures}
        self.by_seat = {m.name: [Counter() for _ in range(players)] for m in self.measures if m.per_player}
        self.teams = _layout(game, players, seed, options)  # teams.Teams, or None without teams
        count = self.teams.count if self.teams is not None else 0
        self.team_sole, self.team_shared = [0] * count, [0] * count
        self.team_lost, self.team_sole_lost = [0] * count, [0] * count
        self.team_scores = [Counter() for _ in range(count)]
        self.faults: dict = {}
        self.other_faults = 0
        self.decisions = 0
        self.longest = None  # the game with the most decisions (the first of equals): a replay to look at

    def add_all(self, records) -> None:
        for r in records:
            self.add(r)

    def add(self, r) -> None:
        self.outcomes[r.outcome] += 1
        self.decisions += r.decisions
        if self.longest is None or (r.decisions, -r.index) > (self.longest["decisions"], -self.longest["game"]):
            self.longest = {"game": r.index, "seed": r.seed, "decisions": r.decisions, "outcome": r.outcome}
        if r.outcome in ("won", "drawn"):
            if r.outcome == "won":
                for seat in r.winners:  # one seat, or the members of the one winning team
                    self.sole[seat] += 1
                if r.decided_at is not None:
                    self.decided.add(r.decided_at)
            else:
                for seat in r.winners:
                    self.shared[seat] += 1
            for seat, score in enumerate(r.scores):
                self.scores[seat][score] += 1
            self._add_losers(r)
            if self.teams is not None:
                self._add_teams(r)
            self.length[r.decisions] += 1
            if r.lead_changes is not None:  # only with the full metrics
                self.lead_changes[r.lead_changes] += 1
        if r.choices:
            self.branching.add(r.offered / r.choices)
            self.forced.add(r.forced / r.choices)
        if r.seen is not None:
            self.seen.add(r.seen)
        for m in self.measures if r.measures else ():
            for value in value_list(m, r.measures[m.name]):  # a point measure: each reading of the game
                if m.per_player:
                    for seat, v in enumerate(value):
                        self.values[m.name][v] += 1
                        self.by_seat[m.name][seat][v] += 1
                else:
                    self.values[m.name][value] += 1
        if r.fault is not None:
            self._fault(r)

    def _add_losers(self, r) -> None:
        """A finished game's losers: the seats (teams) not among its winners.  A game that all
        but one of them won (Old Maid's kind) has a sole loser, and is no draw for that one."""
        if self.teams is None:
            sides, winners, lost, sole = self.players, r.winners, self.lost, self.sole_lost
        else:
            sides, winners, lost, sole = self.teams.count, r.winning_teams, self.team_lost, self.team_sole_lost
        losers = [side for side in range(sides) if side not in winners]
        for side in losers:
            lost[side] += 1
        if len(losers) == 1 and sides > 1:
            sole[losers[0]] += 1
            self.one_loser += r.outcome == "drawn"
        if self.teams is not None:  # a seat loses with its team
            for side in range(self.players):
                self.lost[side] += self.teams.of[side] in losers
                self.sole_lost[side] += len(losers) == 1 and self.teams.of[side] in losers

    def _add_teams(self, r) -> None:
        counts = self.team_sole if r.outcome == "won" else self.team_shared
        for team in r.winning_teams:
            counts[team] += 1
        for team, seats in enumerate(self.teams.members):
            self.team_scores[team][r.scores[seats[0]]] += 1

    def _fault(self, r) -> None:
        d = r.fault
        key = (d.code, d.message, d.span)
        if key not in self.faults:
            if len(self.faults) >= MAX_FAULT_KINDS:
                self.other_faults += 1
                return
            self.faults[key] = {"count": 0, "first_game": r.index, "seed": r.seed, "diagnostic": d.to_json(),
                                "rendered": render(d, self.game.sources)}
        self.faults[key]["count"] += 1

    def result(self) -> dict:
        n, players, counts = sum(self.outcomes.values()), self.players, self.outcomes
        won = counts["won"]
        first = {"value": None, "ci95": None}
        sides = players if self.teams is None else self.teams.count
        if won and sides > 1:  # with teams: the share of seat P0's team; alone, every win is P0's
            share, fair = proportion(self.sole[0], won), 1 / sides
            first = {"value": round(share["value"] - fair, 4), "ci95": [round(x - fair, 4) for x in share["ci95"]]}
        faults = list(self.faults.values())
        if self.other_faults:
            faults.append({"count": self.other_faults, "first_game": None, "seed": None, "diagnostic": None,
                           "rendered": f"{self.other_faults} more game(s) with other kinds of fault"})
        return {
            "file": self.game.path,
            "title": self.game.title,
            "games": n,
            "players": players,
            "seed": self.seed,
            "options": {k: v for k, v in sorted(self.options.items())},
            "policy": self.policy,
            "metrics_level": self.metrics,
            "scored": self.game.program.tables.score is not None,
            # with `players 4 named N, E, S, W`: the seats' names, in seat order
            **({"seats": [self.game.program.seat_label(s) for s in range(players)]}
               if self.game.program.tables.seat_names else {}),
            "outcomes": dict(counts),
            "unfinished": counts["capped"] + counts["faulted"] + counts["limit"],
            "p_won": proportion(won, n),
            "p_draw": proportion(counts["drawn"], n),
            "p_capped": proportion(counts["capped"], n),
            "p_faulted": proportion(counts["faulted"], n),
            "p_limit": proportion(counts["limit"], n),
            "wins_by_seat": list(self.sole),
            "win_rate_by_seat": [proportion(self.sole[s], n) for s in range(players)],
            "draw_share_by_seat": [proportion(self.shared[s], n) for s in range(players)],
            "mean_score_by_seat": [summary(self.scores[s]) for s in range(players)],
            "drawn_with_one_loser": self.one_loser,
            "losses_by_seat": list(self.lost),
            "loss_rate_by_seat": [proportion(self.lost[s], n) for s in range(players)],
            "sole_losses_by_seat": list(self.sole_lost),
            "length": summary(self.length, histogram=True),
            "metrics": {
                "first_seat_advantage": first,
                "seat_balance": balance(self.sole if self.teams is None else self.team_sole),
                "loser_balance": balance(self.sole_lost if self.teams is None else self.team_sole_lost),
                "lead_changes": summary(self.lead_changes),
                "decided_at": self.decided.summary(),
                "branching_factor": self.branching.summary(),
                "forced_share": self.forced.summary(),
                "information_revealed": self.seen.summary(),
            },
            "measures": self._measures(),
            "faults": faults,
            "longest": self.longest,
            **self._team_result(n),
        }

    def _team_result(self, n: int) -> dict:
        """In a game with teams: its layout and every seat figure by team; the teams' sole-win
        rates, the draw rate and the unfinished rate add up to 1."""
        if self.teams is None:
            return {}
        count = self.teams.count
        return {
            "teams": {f"T{t}": [self.game.program.seat_label(s) for s in seats] for t, seats in enumerate(self.teams.members)},
            "wins_by_team": list(self.team_sole),
            "win_rate_by_team": [proportion(self.team_sole[t], n) for t in range(count)],
            "draw_share_by_team": [proportion(self.team_shared[t], n) for t in range(count)],
            "mean_score_by_team": [summary(self.team_scores[t]) for t in range(count)],
            "losses_by_team": list(self.team_lost),
            "loss_rate_by_team": [proportion(self.team_lost[t], n) for t in range(count)],
            "sole_losses_by_team": list(self.team_sole_lost),
        }

    def _measures(self) -> dict:
        out = {}
        for m in self.measures:
            summarise = yes_no_summary if m.yes_no else summary
            entry = summarise(self.values[m.name], histogram=True)
            if m.per_player:
                entry["by_seat"] = [summarise(c) for c in self.by_seat[m.name]]
            entry["per_player"] = m.per_player
            entry["yes_no"] = m.yes_no
            entry["line"] = m.span.line
            if m.at is not None:  # read each time the game left the phase: n counts the readings
                entry["at"] = f"end of {m.at}"
            if m.doc:
                entry["doc"] = m.doc
            out[m.name] = entry
        return out


def _layout(game, players: int, seed: int, options: dict):
    """The run's teams: fixed by the player count and options, so the same in every game."""
    if game.program.tables.teams is None:
        return None
    return game.new_game(players=players, seed=seed, options=options).teams
