"""One game between random players, watched: how it ended, and what designers measure of it.

`simulate`, `lint` and `compare` all play through `play_recorded`, so a game means the same
thing in each of them: game `index` of a run with seed S is played with the game seed
`derive(S, index)` and the agent `RandomAgent.for_game(that seed, policy)`, exactly as
`cardgame play --seed derive(S, index)` plays it.
"""

from __future__ import annotations

import hashlib

import attrs

from ..engine.game import Game, GameFault
from ..engine.journal import Journal
from ..language import limits
from ..language.source import Diagnostic
from ..machine.runtime import TABLE, ScriptRuntimeError
from .agents import RandomAgent
from .measures import PointReadings, compile_measures, read_all
from .players import Seated
from .playout import play_out, public_moves
from .records import GameRecord, game_seed

INFO_EVERY = 32  # information revealed is sampled at every 32nd decision: a look at every card costs ~10 moves

def play_recorded(game: Game, players: int, run_seed: int, index: int, options: dict, policy: str = "uniform",
                  max_decisions: int = limits.MAX_DECISIONS, observer=None, budget: tuple = (None, None),
                  metrics: str = "full", agents: tuple | None = None) -> GameRecord:
    """Play game `index` of a run to its end and record it.  `observer`, if given, sees the trace
    (`on_event(event)`, set-up included), every decision (`at_decision(state, moves)`, before the
    choice) and the end (`finish(state, record)`).  `budget`: (work per move, per game).
    `metrics`: one of METRICS; without the full metrics, lead_changes, decided_at and seen are None.
    `agents`: one players.AgentSpec per seat (None: every seat the random player); a seat whose
    agent is not plain `random` chooses through its SeatView, with its own seeded generator."""
    seed = game_seed(run_seed, index)
    if agents is not None and all(a.is_plain_random for a in agents):
        agents = None  # the random players' own game, exactly
    tracer = observer.on_event if observer is not None else None
    # full metrics ask what the acting seat knows: each seat's knowledge is kept (not its log)
    # searching agents sample worlds from each seat's log: it is kept as the game goes
    record = True if agents is not None else "knowledge" if metrics == "full" else False
    measures = compile_measures(game)  # those read at a point of the flow pause the game at each phase
    points = PointReadings(measures) if any(m.at is not None for m in measures) else None
    state = game.new_game(players=players, seed=seed, options=options, tracer=tracer, max_work=budget[0],
                          max_game_work=budget[1], record=record, pause_at=("phase",) if points is not None else ())
    if points is not None:
        points.settle(state, GameFault)
    agent = RandomAgent.for_game(seed, policy)
    if agents is not None:
        agent = Seated(agents, seed, agent)
    if metrics == "fast" and observer is None and policy == "uniform" and agents is None and points is None:
        tally = [0, 0, 0]
        play_out(state, agent, max_decisions, tally)
        return _record(game, state, index, seed, max_decisions, None, None, 0, *tally, None)
    full = metrics == "full"
    leads = full and game.program.tables.score is not None  # without a `score` nobody ever leads
    lowest = game.program.tables.winners is not None and game.program.tables.winners.mode == "lowest"
    leader, leads_from, changes, last = None, 0, 0, None  # leader now, since when; last sole leader
    choices = offered = forced = 0
    seen_sum, seen_n = 0.0, 0
    cards = len(game.program.card_names) if full else 0
    while not state.over and state.fault is None and state.decisions < max_decisions:
        moves = public_moves(state)
        if not moves:
            break
        choices += 1
        offered += len(moves)
        forced += len(moves) == 1
        if cards and state.decisions % INFO_EVERY == 0 and state.actor is not None and state.actor != TABLE:
            seen_sum += seen_share(state, cards)
            seen_n += 1
        if observer is not None:
            observer.at_decision(state, moves)
        try:
            state._apply_chosen(agent.choose(state, moves) if agents is not None else agent.choose(moves),
                                trace_rules=False)
        except GameFault:
            break
        if points is not None:
            points.settle(state, GameFault)
        if not leads:
            continue
        now = _sole_leader(state, lowest)
        if now != leader:  # a new stretch with one seat (or nobody) ahead
            leader, leads_from = now, state.decisions
        if now is not None:
            if last not in (None, now):
                changes += 1
            last = now
    record = _record(game, state, index, seed, max_decisions, changes if leads else None, leader, leads_from,
                     choices, offered, forced, seen_sum / seen_n if seen_n else None, points)
    if full:
        record = attrs.evolve(record, moves_digest=hashlib.blake2b("\n".join(state.history).encode(),
                                                                    digest_size=16).hexdigest())
    if observer is not None:
        observer.finish(state, record)
    return record


def _record(game, state, index, seed, max_decisions, changes, leader, leads_from, choices, offered, forced, seen,
            points=None):
    scores = winners = teams = None
    measures: dict = {}
    fault = state.fault
    if fault is None and state.over:
        try:
            scores, winners = tuple(state.scores), tuple(state.winners)
            teams = tuple(state.winning_teams) if state.teams is not None else None
            measures = read_all(compile_measures(game), state, points)
        except GameFault as err:
            fault = err.diagnostic
        except ScriptRuntimeError as err:
            fault = Diagnostic("R0001", err.message, err.span, "while running this", err.hint)
    if not state.over and state.decisions >= max_decisions:
        outcome, fault = "limit", None
    elif fault is not None or not state.over:
        outcome, scores, winners, teams, measures = "faulted", None, None, None, {}
    elif state.capped:
        outcome = "capped"
    else:
        outcome = "won" if len(teams if teams is not None else winners) == 1 else "drawn"
    decided = None
    if outcome == "won" and leader == (teams or winners)[0] and state.decisions:
        decided = round(leads_from / state.decisions, 4)
    return GameRecord(index, seed, state.n, dict(state.options), outcome, state.decisions, scores, winners, measures, fault, changes,
                      decided, choices, offered, forced, None if seen is None else round(seen, 4),
                      state.teams.of if state.teams is not None else None, teams)


def _sole_leader(state, lowest: bool):
    """The one seat (in a game with teams: the one team) ahead on score, or None (a tie, or a
    score that cannot be read yet)."""
    try:
        scores = state.scores if state.teams is None else state.team_scores
    except GameFault:
        return None
    best = min(scores) if lowest else max(scores)
    if scores.count(best) != 1:
        return None
    return scores.index(best)


def seen_share(state, cards: int) -> float:
    """The share of all cards the acting seat can name now: those it sees, and those it knows lie
    where they are (laid away, passed, watched go face down: the knowledge model's possibilities)."""
    journal = state.journal if type(state.journal) is Journal else state.journal_now()
    return journal.mind(state.actor).named().bit_count() / cards


def play_range(game: Game, players: int, run_seed: int, options: dict, start: int, stop: int,
               policy: str = "uniform", max_decisions: int = limits.MAX_DECISIONS,
               budget: tuple = (None, None), metrics: str = "full", agents: tuple | None = None) -> list[GameRecord]:
    return [play_recorded(game, players, run_seed, i, options, policy, max_decisions, None, budget, metrics, agents)
            for i in range(start, stop)]
