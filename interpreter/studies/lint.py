"""`cardgame lint`: play a script many times with random players and report, at source
locations, what static checking cannot see: faults, games that never end or only end by the
script's own cap, rules that never forbid anything (or forbid every time they apply), rules
that judge a player's own move by what that player cannot see,
alternatives never offered or never legal, decisions never asked or always forced, phases,
procedures, events and reactions never reached, cards that never leave their starting zone, and
measures that never vary.

Every finding comes from play, so it is a fact about the games played, not a proof: the report
says how many games, setups and decisions it rests on.  Observations are plain counters that add
up across processes, so `--workers` and `--dask` give the same report as one process.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import attrs

from ..engine.game import Game, check_seed
from ..engine.knowledge import rules_reading_unseen
from ..engine.moves import rule_statuses
from ..language.nodes import Call, Name, walk
from ..language.rng import Random, derive
from ..language.source import Diagnostic
from ..machine.runtime import RUNTIME_FAULTS, TABLE
from .backends import LINT_REASON, python_only
from .measures import MEASURE_REPLAY, compile_measures, in_measure, value_list
from .parallel import map_jobs, worker_game
from .players import AgentSpec, parse_agent, refuse
from .playtest import play_recorded
from .records import OUTCOMES, game_seed
from .stats import proportion

LINT_MAX_DECISIONS = 10_000  # a game still going after this many decisions "never ends"
EXPLAINED_PER_DECISION = 4  # candidate moves whose rules are judged one by one, at most, per decision
WIDE_RANGE = 10  # an int option with more values than this is not tried at its highest value


def setups(game: Game, fixed: dict) -> list[tuple[int, dict]]:
    """(players, options) for every player count and every combination of option values that
    can change play, `fixed` options held.  bool: both; choice: every value; int: lowest, default,
    highest (for a range wider than WIDE_RANGE: lowest, default, lowest + 1).  Over 32
    combinations, each option is varied alone around the defaults instead."""
    values = {}
    for opt in game.options:
        if opt.name in fixed:
            continue
        decl = game.program.tables.options[opt.name]
        if opt.kind == "bool":
            values[opt.name] = [opt.default, not opt.default]
        elif opt.kind == "choice":
            values[opt.name] = [opt.default] + [c for c in decl.choices if c != opt.default]
        else:
            low, high = decl.low, decl.high
            top = high if high - low <= WIDE_RANGE else low + 1
            values[opt.name] = list(dict.fromkeys([opt.default, low, top]))
    names = list(values)
    combos = [dict(zip(names, combo)) for combo in itertools.product(*(values[k] for k in names))]
    if len(combos) > 32:
        base = {k: v[0] for k, v in values.items()}
        combos = [base] + [dict(base, **{k: v}) for k in names for v in values[k][1:]]
    return [(players, dict(fixed, **combo)) for players in range(game.min_players, game.max_players + 1)
            for combo in combos]


@attrs.define
class Observations:
    """Counters from played games; `merge` adds another process's counters."""

    rules: Counter = attrs.Factory(Counter)  # (rule, status) -> moves judged so
    unseen: Counter = attrs.Factory(Counter)  # (rule, what it read, seat) -> the seat's own moves judged so
    offered: Counter = attrs.Factory(Counter)  # (decision, alternative) -> decisions offering it
    legal: Counter = attrs.Factory(Counter)  # (decision, alternative) -> decisions where it was legal
    asked: Counter = attrs.Factory(Counter)  # decision -> times asked
    forced: Counter = attrs.Factory(Counter)  # decision -> times with exactly one legal move
    reached: Counter = attrs.Factory(Counter)  # code index (phase, procedure, event) -> games reaching it
    moved: Counter = attrs.Factory(Counter)  # card -> games in which it left its starting zone
    capped_at: Counter = attrs.Factory(Counter)  # span of an `end game capped` -> games it ended
    limit_at: Counter = attrs.Factory(Counter)  # decision waiting when the limit stopped a game -> games
    games: int = 0
    decisions: int = 0

    def merge(self, other: "Observations") -> None:
        for field in attrs.fields(Observations):
            mine = getattr(self, field.name)
            if isinstance(mine, Counter):
                mine.update(getattr(other, field.name))
        self.games += other.games
        self.decisions += other.decisions


class _Watcher:
    """Watches one game for the lint: every trace event, every decision, and the end."""

    def __init__(self, game: Game, places: dict, obs: Observations, seed: int, settled: set):
        self.game, self.places, self.obs, self.settled = game, places, obs, settled
        self.rng = Random(derive(seed, 2))  # which candidate moves to judge: its own stream
        self.codes: set = set()
        self.start = None
        self.moved: set = set()
        self.last_decision = None

    def on_event(self, event):
        span = event.span
        if span is not None:
            code = self.places.get((span.path, span.line))
            if code is not None:
                self.codes.add(code)
        if event.kind == "end" and span is not None:
            self.obs.capped_at[span] += 1

    def _cards(self, st):
        if self.start is None:
            self.start = start_slots(self.game, st.n)
        start = self.start
        for card, slot in enumerate(st.loc):
            if slot != start[card]:
                self.moved.add(card)

    def at_decision(self, st, moves):
        obs, decision = self.obs, st.waiting
        d = decision.index
        self.last_decision = d
        obs.asked[d] += 1
        obs.decisions += 1
        for frame in st.stack:
            self.codes.add(frame[0])
        self._cards(st)
        if len(moves) == 1:
            obs.forced[d] += 1
        legal_alts = {m.alt for m in moves}
        for a in legal_alts:
            obs.legal[(d, a)] += 1
            obs.offered[(d, a)] += 1
        settled = self.settled
        open_alts = [spec.index for spec in decision.alts if (d, spec.index) not in settled]
        open_rules = {u.rule.node.name for spec in decision.alts for u in spec.rules} - settled
        if not open_alts and not open_rules:
            return
        candidates = st.candidate_moves()
        for a in {m.alt for m in candidates} - legal_alts:
            obs.offered[(d, a)] += 1
        settled.update((d, a) for a in legal_alts)
        if not open_rules:
            return
        legal_texts = {m.text for m in moves}
        judged = [m for m in candidates if any(u.rule.node.name in open_rules for u in decision.alts[m.alt].rules)]
        picks = self._sample([m for m in judged if m.text not in legal_texts], EXPLAINED_PER_DECISION // 2)
        picks += self._sample([m for m in judged if m.text in legal_texts], EXPLAINED_PER_DECISION - len(picks))
        rules = obs.rules
        actor = st.current_player
        unseen = rules_reading_unseen(st, actor) if picks and actor != TABLE else None
        for move in picks:
            for name, status in _statuses(st, move):
                rules[(name, status)] += 1
                if rules[(name, "pass")] and rules[(name, "fail")]:
                    settled.add(name)
            if unseen is not None:  # what a seat's own legal moves tell it
                for name, what in unseen(move):
                    obs.unseen[(name, what, actor)] += 1

    def _sample(self, items, k):
        picked = []
        while items and len(picked) < k:
            picked.append(items.pop(self.rng.below(len(items))))
        return picked

    def finish(self, st, record):
        self._cards(st)
        obs = self.obs
        obs.games += 1
        for code in self.codes:
            obs.reached[code] += 1
        for card in self.moved:
            obs.moved[card] += 1
        if record.outcome == "limit" and self.last_decision is not None:
            obs.limit_at[self.last_decision] += 1


def _statuses(st, move) -> list:
    """(rule, status) for each rule judging `move`, as `explain` finds them (a rule that faults
    judges nothing: explain says the rules could not be evaluated)."""
    try:
        return rule_statuses(st, move)
    except RUNTIME_FAULTS:
        return []


def start_slots(game: Game, players: int) -> list:
    """The zone slot each card starts in (its deck's zone)."""
    prog = game.program
    slots = [None] * len(prog.card_names)
    for zone, cards in prog.deck_zones:
        slot = prog.zone_slot(zone, None, players)
        for c in cards:
            slots[c] = slot
    return slots


def code_places(game: Game) -> dict:
    """(path, line) -> the code index (phase, procedure, event) whose declaration covers that
    line; a handler's or a reaction's lines count for their event."""
    prog, t = game.program, game.program.tables
    index = {(info.kind, info.name): k for k, info in enumerate(prog.code_info)}
    owners = [(d.span, index[("phase", name)]) for name, d in t.phases.items()]
    owners += [(d.span, index[("procedure", name)]) for name, d in t.procs.items()]
    owners += [(d.span, index[("event", name)]) for name, d in t.events.items()]
    for event, decls in list(t.handlers.items()) + list(t.reactions.items()):
        if ("event", event) in index:
            owners += [(d.span, index[("event", event)]) for d in decls]
    places = {}
    for span, code in owners:
        for line in range(span.line, span.end_line + 1):
            places[(span.path, line)] = code
    return places


def lint_range(game: Game, jobs: list, policy: str, max_decisions: int, agents: tuple | None = None
               ) -> tuple[list, Observations]:
    """Play every (players, options, run seed, index) of `jobs`: (records, observations)."""
    obs = Observations()
    settled: set = set()  # what earlier games already showed (a rule that both passed and failed...)
    places = code_places(game)
    records = []
    for players, options, run_seed, index in jobs:
        watcher = _Watcher(game, places, obs, game_seed(run_seed, index), settled)
        records.append(play_recorded(game, players, run_seed, index, options, policy, max_decisions, watcher,
                                     agents=agents))
    return records, obs


CHUNK = 16  # games per lint job; what one game teaches the next (`settled`) stays inside a job,
# so the report does not depend on how jobs are spread over processes


def lint_jobs(game: Game, games: int, seed: int, fixed: dict) -> list[list]:
    """The games of a lint run, cut into jobs of at most CHUNK games of one setup each.  Setup k
    plays run seed derive(seed, k), games 0..games-1."""
    out = []
    for k, (players, options) in enumerate(setups(game, fixed)):
        run_seed = derive(seed, k)
        for lo in range(0, games, CHUNK):
            out.append([(players, options, run_seed, i) for i in range(lo, min(games, lo + CHUNK))])
    return out


def untried_highest(game: Game, records: list) -> str:
    """For a finding that something never happened: the int options the games never played at
    their highest value (a wide range is tried low, see `setups`), since that may be why."""
    tried: dict = {}
    for r in records:
        for name, value in r.options.items():
            tried.setdefault(name, set()).add(value)
    notes = []
    for opt in game.options:
        high = game.program.tables.options[opt.name].high if opt.kind == "int" else None
        # one value only: held by `--option` (lint itself tries every int option at two or more)
        if high is not None and len(tried.get(opt.name, ())) > 1 and high not in tried[opt.name]:
            shown = " and ".join(", ".join(map(str, sorted(tried[opt.name]))).rsplit(", ", 1))
            notes.append(f"`{opt.name}` only at {shown}: `--option {opt.name}={high}` plays its highest")
    return f" (the games played {'; '.join(notes)})" if notes else ""


def options_read(game: Game, expr) -> list[str]:
    """The options `expr` reads, itself or through the definitions it calls, in source order."""
    t = game.program.tables
    found, seen, todo = {}, set(), [expr]
    while todo:
        for node in walk(todo.pop()):
            if isinstance(node, Name) and node.name in t.options:
                found[node.name] = node.span
            called = node.func if isinstance(node, Call) else node.name if isinstance(node, Name) else None
            if called in t.defines and called not in seen:  # a definition without parameters is a Name
                seen.add(called)
                todo.append(t.defines[called].body)
    return sorted(found, key=lambda name: (found[name].path, found[name].line, found[name].column))


def held_options(game: Game, expr, records: list) -> str:
    """For a `when` that never held: the options it reads that every game played at one value."""
    if expr is None:
        return ""
    held = []
    for name in options_read(game, expr):
        values = {r.options.get(name, game.program.tables.options[name].default) for r in records}
        if len(values) == 1:
            held.append(f"`{name}` was {_text(values.pop())} in every game")
    return f" ({'; '.join(held)}: try `--option` with another value)" if held else ""


def _only_with(seated: set, counts: list) -> str:
    """`, only with 4 players`: the player counts a fault came at, when not every count played."""
    if len(counts) < 2 or len(seated) == len(counts):
        return ""
    listed = sorted(seated)
    words = ", ".join(str(k) for k in listed[:-1]) + (" or " if len(listed) > 1 else "") + str(listed[-1])
    return f", only with {words} players"


def findings(game: Game, obs: Observations, records: list, max_decisions: int) -> list[Diagnostic]:
    """The lint's diagnostics, in source order (faults first within a line)."""
    prog, t = game.program, game.program.tables
    out: list[Diagnostic] = []
    games = obs.games
    untried = untried_highest(game, records)

    def warn(code, message, span, label="", hint=""):
        out.append(Diagnostic(code, message, span, label, hint, severity="warning"))

    faults: dict = {}
    for r in records:
        if r.fault is not None:
            key = (r.fault.message, r.fault.span)
            first = faults.setdefault(key, [r, 0, set()])
            first[1] += 1
            first[2].add(r.players)
    counts = sorted({r.players for r in records})
    for (message, span), (r, count, seated) in faults.items():
        d = r.fault
        out.append(Diagnostic(d.code, d.message, d.span, d.label or "while running this",
                              f"{count} of {games} games faulted here{_only_with(seated, counts)}; the first is "
                              f"game {r.index} of its setup: "
                              f"replay it with `{replay_command(game, r)}`"
                              + (MEASURE_REPLAY if d.span and in_measure(game, d.span.path, d.span.line) else "")
                              + (f" ({d.hint})" if d.hint else "")))
    for span, count in sorted(obs.capped_at.items(), key=lambda item: (item[0].line, item[0].column)):
        warn("L0102", f"{count} of {games} games were stopped by this cap", span, "the script's own cap",
             "a capped game has no real winner: simulate counts it apart; raise the cap or help the game end")
    for d, count in sorted(obs.limit_at.items()):
        warn("L0101", f"{count} of {games} games were still going after {max_decisions:,} decisions",
             prog.decisions[d].span, "the last decision asked", "an end condition may never be met; "
             "`end game capped` marks a deliberate cap")
    for name, rule in t.rules.items():
        passed, failed = obs.rules[(name, "pass")], obs.rules[(name, "fail")]
        judged = passed + failed + obs.rules[(name, "not applicable")]
        if not judged:
            continue  # never judged: an alternative never offered says why
        if not failed and not passed:
            warn("L0201", f"rule `{name}` never applied", rule.span,
                 f"its `when` was false for all {judged:,} moves judged",
                 "it may be dead (its `when` never holds), or the games never met the case"
                 + held_options(game, rule.when, records))
        elif not failed:
            warn("L0201", f"rule `{name}` never forbade a move", rule.span,
                 f"applied to {passed:,} of {judged:,} moves judged, forbade none",
                 "it may be dead (its `require` always holds where it applies), or the games never met the case")
        elif not passed and not rule.prohibits:
            warn("L0202", f"rule `{name}` forbade every move it applied to", rule.span,
                 f"forbade {failed} moves, allowed none",
                 "its alternatives can only be played where its `when` is false" if rule.when is not None else
                 "it has no `when`, so its `require` never held in these games: the alternatives that name it were "
                 "never legal (or the games never met the case)")
    read: dict = {}
    for (name, what, seat), count in sorted(obs.unseen.items(), key=lambda item: (item[0][0], item[0][2], item[0][1])):
        first = read.setdefault(name, [what, seat, 0])
        first[2] += count
    for name, (what, seat, count) in read.items():
        warn("L0250", f"rule `{name}` judges a player's own move by what that player cannot see ({what}, for {prog.seat_label(seat)})",
             t.rules[name].span, f"read it judging {count} moves",
             "whether a move is legal tells its player what the rule read: judge by what the player sees, "
             "or make the hidden part an effect in the move's body")
    reached = set(obs.reached)
    faulted_at = {span for _, span in faults}
    for decision in prog.decisions:
        d = decision.index
        if decision.code not in reached:
            continue  # the phase, procedure or event is reported instead
        if not obs.asked[d]:
            if decision.kind != "reaction" and decision.span not in faulted_at:  # asked, with no legal move
                warn("L0303", "this decision was never asked", decision.span, "never reached in play",
                     "the branch around it may never be taken" + untried)
            for spec in decision.alts:
                if decision.kind == "reaction" and spec.reaction is not None:
                    warn("L0302", f"reaction alternative `{spec.name}` was never legal", spec.node.span,
                         "never offered", "no player could ever answer the event this way")
            continue
        for spec in decision.alts:
            if spec.name == "pass" and decision.kind == "reaction" and spec.reaction is None:
                continue
            if not obs.offered[(d, spec.index)]:
                warn("L0301", f"alternative `{spec.name}` was never offered", spec.node.span,
                     f"no value for its binders in {obs.asked[d]} decisions",
                     "its lists or ranges were always empty" + untried)
            elif not obs.legal[(d, spec.index)]:
                warn("L0302", f"alternative `{spec.name}` was never legal", spec.node.span,
                     f"offered, always forbidden by its rules in {obs.asked[d]} decisions",
                     "a rule it requires never allows it")
        if decision.kind != "reaction" and obs.forced[d] == obs.asked[d] and obs.asked[d] > 1:
            warn("L0304", f"this decision always had exactly one legal move ({obs.asked[d]} times)", decision.span,
                 "forced", "maybe it is not a decision; the engine could make the move itself")
    kinds = {"phase": "L0401", "procedure": "L0404", "event": "L0402"}
    for k, info in enumerate(prog.code_info):
        if k not in reached:
            if info.kind == "phase" and k == 0:
                continue
            warn(kinds[info.kind], f"{info.kind} `{info.name}` was never reached", info.span, "never ran in play",
                 "nothing that leads here happened in the games played" + untried)
    for name, reactions in t.reactions.items():
        decision = next((d for d in prog.decisions if d.kind == "reaction" and prog.code_info[d.code].name == name), None)
        if decision is None:
            continue
        for k, r in enumerate(reactions):
            if not any(obs.legal[(decision.index, s.index)] for s in decision.alts if s.reaction == k):
                if decision.code in reached and obs.asked[decision.index]:
                    warn("L0403", f"reaction `{r.name}` was never offered to anyone", r.span, "never legal",
                         "no player it lists ever had a legal answer when the event happened")
    if games:
        for zone, cards in prog.deck_zones:
            still = [c for c in cards if not obs.moved[c]]
            if still:
                names = ", ".join(prog.card_names[c] for c in still[:8]) + (", ..." if len(still) > 8 else "")
                deck = next((d for d in t.decks if d.zone == zone), None)
                warn("L0501", f"{len(still)} card(s) never left their starting zone `{zone}`: {names}",
                     deck.span if deck is not None else None, "these cards never moved",
                     "they took no part in the games played; remove them or deal them" + untried)
    sampled = [r for r in records if r.measures]
    for m in compile_measures(game):
        values = {v for r in sampled for value in value_list(m, r.measures[m.name])
                  for v in (value if m.per_player else (value,))}
        if len(sampled) > 1 and len(values) == 1:
            value = values.pop()
            shown = ("true" if value else "false") if m.yes_no else value
            warn("L0601", f"measure `{m.name}` was {shown} in every game", m.span,
                 f"never varied in {len(sampled):,} games", rare_value_hint(len(sampled)))
    out.sort(key=lambda d: (d.span.path, d.span.line, d.span.column) if d.span is not None else ("", 0, 0))
    return out


def rare_value_hint(games: int) -> str:
    """L0601's help: a value seen in none of `games` games may be rare, not impossible; how rare
    it can still be (the Wilson upper bound at 0 of n), and what a 1-in-X event needs (about 3X
    games to show once with 95% chance: (1 - 1/X)^3X is about e^-3 = 0.05)."""
    upper = proportion(0, games)["ci95"][1]
    shown = math.floor(1 / (1 - 0.05 ** (1 / games)))  # the rarest 1 in X that shows with 95% chance
    return (f"another value may be rare rather than impossible: in none of {games:,} games, its rate may still "
            f"be up to {upper * 100:.2g}% (the 95% Wilson upper bound); {games:,} games show a value that comes "
            f"up 1 game in {shown:,} with 95% chance, and one of 1 in X needs about 3X games (`-n` plays more "
            f"of each setup). A value that cannot change tells nothing: measure something that does")


def replay_command(game: Game, record) -> str:
    """The `cardgame play` command line that replays one recorded game."""
    options = "".join(f" --option {k}={_text(v)}" for k, v in sorted(record.options.items()))
    return f"cardgame play {game.path} --seed {record.seed} --players {record.players}{options}"


def _text(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def run_lint_job(job):
    """One lint job in any process: (path or Game, games, policy, max_decisions, agents) -> (records,
    observations)."""
    path_or_game, games, policy, max_decisions, agents = job
    game = worker_game(path_or_game) if isinstance(path_or_game, str) else path_or_game
    return lint_range(game, games, policy, max_decisions, agents)


@attrs.frozen
class LintReport:
    """What `lint` found, and what it rests on."""

    diagnostics: list
    setups: int
    games: int
    decisions: int
    outcomes: dict
    backend: str = "python"
    backend_reason: str | None = None


def lint(game: Game, games: int = 50, seed: int = 0, fixed: dict | None = None, policy: str = "uniform",
         max_decisions: int = LINT_MAX_DECISIONS, workers: int = 1, dask=None, progress=None,
         backend: str = "auto", agents=None) -> LintReport:
    """Play `games` games of every setup (see `setups`) and report what they showed; on the
    Python path whatever `backend` (backends.LINT_REASON; "compiled" is refused).  `agents`: one
    spec per seat: only the setups with that many players are played."""
    ran, why = python_only(backend, LINT_REASON)
    check_seed(seed)
    chunks = lint_jobs(game, games, seed, fixed or {})
    local = dask is None and workers <= 1
    if agents is not None:
        agents = tuple(a if isinstance(a, AgentSpec) else parse_agent(a) for a in agents)
        counts = sorted({players for players, _options in setups(game, fixed or {})})
        if len(agents) not in counts:
            raise refuse(f"{len(agents)} agents for a game of {', '.join(map(str, counts))} players",
                         "lint with agents plays the setups of one player count: one agent per seat")
        chunks = [[job for job in chunk if job[0] == len(agents)] for chunk in chunks]
        chunks = [chunk for chunk in chunks if chunk]
    jobs = [((game if local else game.path), chunk, policy, max_decisions, agents) for chunk in chunks]
    results = map_jobs(run_lint_job, jobs, game.path, workers, dask, progress, size=lambda result: len(result[0]),
                       game=game)
    obs, records = Observations(), []
    for part_records, part_obs in results:
        records += part_records
        obs.merge(part_obs)
    outcomes = Counter(r.outcome for r in records)
    return LintReport(findings(game, obs, records, max_decisions), len(setups(game, fixed or {})), len(records),
                      obs.decisions, {o: outcomes[o] for o in OUTCOMES}, ran, why)
