"""The public engine API: load a script, start games, list, explain and apply moves."""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from operator import attrgetter

import attrs

from ..codegen.code_cache import CodeCache
from ..codegen.compiler import Compiler, compile_expression
from ..codegen.generator import TooComplex, too_complex
from ..language import limits
from ..language.builtins import BUILTINS, CHANCE, CONSTANTS, ORDER_FUNCTIONS, TEAM_NAMES
from ..language.checker import check_expression, default_value, option_allowed, option_value, option_value_ok
from ..language.loader import check_file, fail_if_errors, script_hash
from ..language.parser import parse_expression
from ..language.rng import SEEDS, is_seed, seed_state
from ..language.source import Diagnostic, ScriptError, SourceFile, Span, clipped, did_you_mean, render
from ..language.types import CARD, PLAYER, TEAM, ZONE, ZONES, list_of
from ..machine.program import Program, find_move, initial_values, render_value
from ..machine.runtime import (PAUSES, RUNTIME_FAULTS, TABLE, VALUE_FAULTS, ScriptRuntimeError, State, as_fault,
                               fault_words, resume, start, statement_span, team_layout, too_many_decisions)
from ..machine.shared_log import SharedLog
from .errors import GameFault, IllegalMove, TraceEvent, TracerFailed
from .journal import Journal
from .knowledge import (UnknownRead, attributes_read, describe, masked, masked_move_text, masked_values,
                        move_cards_unknown, refusal_message, rule_args_as_seen, rules_reading_unseen, sight,
                        unknown_names, unknown_to, viewer_name)
from .moves import Explanation, Move, apply_move, enumerate_moves, explain, listing
from .outcomes import explain_outcomes
from .seat_queries import DeferredJournal, SeatQueries


@attrs.frozen
class OptionInfo:
    name: str
    kind: str
    default: object
    allowed: str
    doc: str


@attrs.frozen
class RuleInfo:
    name: str
    doc: str
    span: Span


@attrs.frozen
class CardInfo:
    """One card of the game's decks: its name, deck and attributes (`{"rank": 9, "suit": "D"}`)."""

    name: str
    deck: str
    attrs: dict


@attrs.frozen
class DeclInfo:
    """A named declaration of the script: its kind (option, zone, var, define, rule, procedure,
    phase, event) and where it is; `replaces`: where the included declaration it replaces is
    (`replace`, docs/language.md §20), or None."""

    name: str
    kind: str
    span: Span
    replaces: Span | None = None


ONCE_KINDS = ("game", "players", "teams", "score", "winners")  # declarations a game has once, by kind


def check_seed(seed) -> None:
    """E0704 unless `seed` is one of the generator's seeds (rng.SEEDS)."""
    if not is_seed(seed):
        raise ScriptError([Diagnostic("E0704", f"a seed is a whole number from 0 to {SEEDS - 1}, not `{seed}`", None,
                                      hint="the generator's state is 64 bits: any other seed would repeat one of "
                                           "these seeds' games")])


def load(path: str, text: str | None = None) -> "Game":
    """Read, check and compile a script; raise ScriptError with every diagnostic on failure.
    `text`: the script's text when it is not read from `path` (standard input, named `<stdin>`)."""
    tables, items, sources, diags = check_file(path, text)
    fail_if_errors(diags, sources)
    cache = CodeCache(path)
    compiler = Compiler(tables, code_cache=cache)
    # What the checker accepts compiles (language/nesting.py); E0608 is a fault of ours then, said
    # as clearly as the checker would have.
    try:
        with limits.stack_room():
            try:
                program = compiler.compile()
            except (RecursionError, TooComplex):
                if not cache.held_any:
                    raise
                cache.forget()  # a kept entry Python cannot compile is damage, not the script's fault
                compiler = Compiler(tables, code_cache=cache)
                program = compiler.compile()
    except (RecursionError, TooComplex):
        err = too_complex()
        raise ScriptError([Diagnostic("E0608", err.message, None, hint=err.hint)], sources) from None
    compiler.code_cache.keep()
    return Game(path, program, compiler, sources, [d for d in diags if d.severity == "warning"])


# Games kept run to their first draw (Game._from_opening), one per players, options and budget.
_OPENINGS_KEPT = 8


class Game:
    """A compiled script: immutable; starts and restores games."""

    def __init__(self, path, program: Program, compiler: Compiler, sources: dict[str, SourceFile], warnings):
        self.path, self.program, self.sources, self.warnings = path, program, sources, warnings
        self.hash = script_hash(sources)
        t = program.tables
        self.title = t.title or path
        self.min_players, self.max_players = t.min_players, t.max_players
        program.compiler = compiler
        program.plan_moves()
        program.source_text = self._source_text
        program.render = lambda typ, value: render_value(program, typ, value)
        self._openings: dict = {}  # (players, options, budget) -> the game run to its first draw (new_game)

    def keep_code(self) -> None:
        """Keep the functions generated since the script was loaded (playouts' operations are
        made as they first run) for the next load of this script (code_cache.py)."""
        cache = self.program.compiler.code_cache
        if cache is not None:
            cache.keep()

    def _source_text(self, span: Span) -> str:
        source = self.sources.get(span.path)
        if source is None:
            return ""
        if span.line == span.end_line:
            return source.line(span.line)[span.column - 1:span.end_column - 1]
        # an expression written over several lines reads as one line, comments dropped
        lines = [source.line(span.line)[span.column - 1:]]
        lines += [source.line(n) for n in range(span.line + 1, span.end_line)]
        lines.append(source.line(span.end_line)[:span.end_column - 1])
        return " ".join(line.partition("#")[0].strip() for line in lines if line.partition("#")[0].strip())

    @property
    def options(self) -> list[OptionInfo]:
        return [OptionInfo(o.name, o.kind, default_value(o), option_allowed(o), o.doc)
                for o in self.program.tables.options.values()]

    @property
    def rules(self) -> list[RuleInfo]:
        return [RuleInfo(r.name, r.doc, r.span) for r in self.program.tables.rules.values()]

    @property
    def cards(self) -> list[CardInfo]:
        """Every card, in the order its deck declares them (how front ends sort a hand for show)."""
        return [CardInfo(c.name, c.deck, dict(c.attrs)) for c in self.program.tables.cards]

    @property
    def shown_orders(self) -> dict:
        """Zone name -> the attributes its views list its cards by (`shown by suit, rank`); no
        attributes for a zone `shown as placed`, listed in its own order and never sorted as a hand."""
        return {z.name: tuple(a for a, _ in z.shown_by) for z in self.program.tables.zones.values()
                if z.shown_by or z.shown_as is not None}

    @property
    def face_down_zones(self) -> frozenset:
        """The zones whose cards a spectator sees only when they are turned face up (declared
        other than `public`, with no condition): where a table marks the face-up cards."""
        return frozenset(z.name for z in self.program.tables.zones.values()
                         if z.visibility != "public" and z.condition is None)

    @property
    def builtin_names(self) -> list[str]:
        """The built-in functions and constants an expression may use here (`count`, `top`,
        `players`...): no chance (only statements draw), the team ones only with teams."""
        teams = self.program.tables.teams is not None
        names = (set(BUILTINS) | set(CONSTANTS) | ORDER_FUNCTIONS) - CHANCE
        return sorted(n for n in names if teams or n not in TEAM_NAMES)

    @property
    def field_names(self) -> list[str]:
        """What may follow a dot: the cards' attributes and `name`, then the records' fields."""
        t = self.program.tables
        fields = [f for record in t.record_fields.values() for f, _ in record]
        return list(dict.fromkeys([*t.card_attrs, "name", *fields]))

    @property
    def declarations(self) -> list[DeclInfo]:
        """Every named declaration, grouped by kind, each kind in source order."""
        t = self.program.tables
        groups = (("option", t.options), ("zone", t.zones), ("var", {k: v[0] for k, v in t.vars.items()}),
                  ("define", t.defines), ("rule", t.rules), ("procedure", t.procs), ("phase", t.phases),
                  ("event", t.events), ("record", t.records),
                  ("reaction", {r.name: r for reactions in t.reactions.values() for r in reactions}))
        replaced = {key: r.original.span for key, r in t.replacements.items()}
        return [DeclInfo(name, kind, decl.span, replaced.get(id(decl))) for kind, table in groups
                for name, decl in table.items()]

    def once_declarations(self) -> list[DeclInfo]:
        """The declarations a game has once, each named by its kind (`game`, `players`, `teams`,
        `score`, `winners`), in that order: those the script has."""
        t = self.program.tables
        found = {**t.heading, "teams": t.teams, "score": t.score, "winners": t.winners}
        found = {kind: found.get(kind) for kind in ONCE_KINDS}
        replaced = {key: r.original.span for key, r in t.replacements.items()}
        return [DeclInfo(kind, kind, decl.span, replaced.get(id(decl))) for kind, decl in found.items()
                if decl is not None]

    def read_options(self, pairs: dict[str, str]) -> dict:
        """Turn NAME=TEXT option settings into typed values; ScriptError on bad ones."""
        opts = self.program.tables.options
        if not isinstance(pairs, Mapping):
            raise ScriptError([Diagnostic("E0701", f"options are a mapping of names to values, not {pairs!r}", None,
                                          hint='e.g. {"' + next(iter(opts), "name") + '": "..."}')])
        values, diags = {}, []
        for name, text in pairs.items():
            opt = opts.get(name)
            if opt is None:
                diags.append(Diagnostic("E0701", f"unknown option `{clipped(name)}`", None,
                                        hint=did_you_mean(name, opts) or _known(opts)))
                continue
            value = option_value(opt, str(text)) if not isinstance(text, (bool, int)) else text
            if value is None or not option_value_ok(opt, value):
                diags.append(Diagnostic("E0702", f"`{clipped(str(text))}` is not allowed for option `{name}`", None,
                                        hint=f"allowed: {option_allowed(opt)}"))
                continue
            values[name] = value
        if diags:
            raise ScriptError(diags)
        return values

    def budget(self, max_work: int | None = None, max_game_work: int | None = None) -> tuple[int, int]:
        """(work per move, work per game): the script's own `limit`s or the defaults, unless the
        caller sets them; ScriptError E0705 beyond the hard caps (docs/language.md §22)."""
        own = self.program.tables.limits
        chosen = {"work_per_move": own.get("work_per_move", limits.MAX_WORK_PER_MOVE) if max_work is None else max_work,
                  "work_per_game": own.get("work_per_game", limits.MAX_WORK_PER_GAME)
                  if max_game_work is None else max_game_work}
        for name, value in chosen.items():
            cap = limits.BUDGET_CAPS[name]
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= cap:
                raise ScriptError([Diagnostic("E0705", f"a {name.replace('_', ' ')} budget of {value!r} is not "
                                              f"allowed", None, hint=f"a whole number from 1 to {cap:,}")])
        return chosen["work_per_move"], chosen["work_per_game"]

    def new_game(self, players: int | None = None, seed: int = 0, options: dict | None = None,
                 tracer=None, max_work: int | None = None, max_game_work: int | None = None,
                 record: bool = False, pause_at=()) -> "GameState":
        """A new game at its first decision; `tracer` sees the set-up too (see set_tracer).
        `max_work`/`max_game_work` set the work budget per move and per game (see budget).
        `record=True` keeps each seat's observation log as the game goes (what `observation`
        reads); without it, the first `observation` replays the moves from the seed;
        `record="knowledge"` keeps only what each seat knows of where the cards are (no log).
        `pause_at` names pause points the game stops at, "chance" (before each draw) and
        "phase" (at each phase's start, the first one included): see GameState.step."""
        budget = self.budget(max_work, max_game_work)
        pause_at = pause_kinds(pause_at)
        players = self.min_players if players is None else players
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            span = ("1 player" if self.max_players == 1 else f"{self.min_players} players") \
                if self.min_players == self.max_players else f"{self.min_players} to {self.max_players} players"
            given = players if type(players) is int else f"{players!r} (a player count is a whole number)"
            raise ScriptError([Diagnostic("E0703", f"this game takes {span}, not {given}", None,
                                          hint=f"use --players {self.min_players}")])
        check_seed(seed)
        values = self.read_options(options or {})
        if tracer is None and not record and not pause_at:
            return self._from_opening(players, seed, values, budget)
        return self._started(players, seed, values, budget, tracer, record, pause_at)

    def _from_opening(self, players: int, seed: int, values: dict, budget: tuple) -> "GameState":
        """A new game nobody watches, as a copy of the same game run once up to its first draw:
        nothing before it depends on the seed, and a game paused there and resumed is the game
        run straight through (GameState.step), so `simulate`'s thousands of games do their
        set-up once (a deck sorted into hands by colour, say, before the first shuffle)."""
        key = (players, tuple(sorted(values.items())), budget)
        opening = self._openings.get(key)
        if opening is None:
            if len(self._openings) >= _OPENINGS_KEPT:
                self._openings.pop(next(iter(self._openings)))
            opening = self._openings[key] = self._started(players, 0, values, budget, None, False,
                                                          pause_kinds(("chance",)))
        st = opening.clone_bare()
        st.seed, st.rng, st.pause_at = seed, seed_state(seed), frozenset()
        if st.pause_point is not None:
            try:
                resume(st)
            except ScriptRuntimeError as err:
                st._fault(err)
        return st

    def _started(self, players, seed, values, budget, tracer, record, pause_at, chance=None,
                 only=None) -> "GameState":
        """A new game run to its first decision; `chance`: the generator to draw with in place of
        the seed's, `only`: the one seat whose observations are recorded (a world being sampled
        for it, worlds.py)."""
        prog = self.program
        st = GameState()
        st.memo, st.zmemo = {}, {}
        st.prog, st.n, st.seed, st.options = prog, players, seed, dict(values)
        st.zones = [[] for _ in range(prog.shared_zone_count + len(prog.per_player_names) * players)]
        st.loc = [0] * len(prog.card_names)
        st.vis = [0] * len(prog.card_names)
        for zone_name, cards in prog.deck_zones:
            slot = prog.zone_slot(zone_name, None, players)
            for c in cards:
                st.zones[slot].append(c)
                st.loc[c] = slot
        st.vars = initial_values(prog, values)
        st.rng = seed_state(seed) if chance is None else chance
        st.history, st.decisions = SharedLog(), 0
        st.waiting, st.actor, st.over, st.tracer, st.fault, st.legal_cache = None, None, False, None, None, None
        st.capped = False
        st.pause_at, st.pause_point = pause_at, None
        st.budget, st.game_work, st.legal_work = budget, 0, 0
        st.begin_work()
        st.stack = []
        st.game = self
        st.teams = team_layout(st)
        st.journal = Journal(st, log=record != "knowledge", only=only) if record else None
        st.set_tracer(tracer)
        try:
            rows = {"player": players, "team": st.teams.count if st.teams is not None else 0}
            for slot, init, per in prog.var_inits:
                value = init(st, [None] * prog.tables.frames["globals"])  # `all x in ...` has a local
                st.vars[slot] = [value] * rows[per] if per is not None else value
                st.memo, st.zmemo = {}, {}  # the next variable's value may read a definition of this one
            st.end_work()
            if st.journal is not None:  # what each seat knows of the variables holding cards, to start with
                st.journal.start_values(st)
            first = prog.code_info[0]
            st.stack = [[0, 0, [None] * first.size]]
            start(st)
        except ScriptRuntimeError as err:
            st._fault(err)
        return st

    def restore(self, data) -> "GameState":
        """Rebuild a state from `GameState.to_json()`; ScriptError if the data does not fit."""
        from .saving import restore_state
        return restore_state(self, data, GameState())

    def state_table(self) -> list[dict]:
        """The compiled machine: each phase, procedure and event with its decision points and
        the phases it can move to."""
        prog = self.program
        rows = []
        for index, info in enumerate(prog.code_info):
            decisions = [{"decision": d.index, "kind": d.kind, "prompt": d.prompt, "line": d.span.line,
                          "actor": "table" if d.actor_fn is None and d.kind != "reaction" else
                          ("reactors" if d.kind == "reaction" else "player"),
                          "alternatives": [a.name for a in d.alts]}
                         for d in prog.decisions if d.code == index]
            rows.append({"name": info.name, "kind": info.kind, "line": info.span.line,
                         "states": len(prog.codes[index]), "decisions": decisions,
                         "next": sorted({to for frm, to, _ in prog.transitions if frm == index})})
        return rows

    def render_diagnostic(self, diag: Diagnostic) -> str:
        return render(diag, self.sources)


EXPRESSION_PATH = "<expr>"


def pause_kinds(kinds) -> frozenset:
    """The pause points named in `kinds` (see runtime.PAUSES); ScriptError E0711 otherwise."""
    chosen = (kinds,) if isinstance(kinds, str) else tuple(kinds)
    wrong = [k for k in chosen if k not in PAUSES]
    if wrong:
        raise ScriptError([Diagnostic("E0711", f"`{wrong[0]}` is not a pause point", None,
                                      hint="the pause points are " + " and ".join(f'"{k}"' for k in PAUSES))])
    return frozenset(chosen)


def _known(opts) -> str:
    return ("options: " + ", ".join(opts)) if opts else "this game declares no options"


class GameState(SeatQueries, State):
    """A running game.  Plain data underneath: clone, save and restore are exact."""

    __slots__ = ("game", "journal", "callback", "__weakref__")  # its tracer refers to it weakly

    # ---- reading
    @property
    def current_player(self) -> int | None:
        """The seat to act, TABLE (-1) for a table decision, None when the game is over."""
        if self.over or self.waiting is None:
            return None
        return self.actor

    @property
    def phase(self) -> str | None:
        return self.prog.code_info[self.stack[0][0]].name if self.stack else None

    # read at every decision of an API loop: a getter in C, no Python call
    is_over = property(attrgetter("over"), doc="Whether the game has ended (a faulted game has not: see `fault`).")

    @property
    def paused(self) -> str | None:
        """Where a game asked to pause (`pause_at`) stands: "chance" (before a draw), "phase"
        (at a phase's start), or None (at a decision, over, or never asked)."""
        return self.pause_point[0] if self.pause_point is not None else None

    @property
    def pause_mark(self) -> int | None:
        """How far a paused game has run between its decisions: the work done up to its pause
        point (None when not paused).  Work grows from one pause point to the next, so the
        moves and this mark say exactly where the game stands (`step_to_mark`)."""
        return self.game_work + self.pause_point[1] if self.pause_point is not None else None

    def step_to_mark(self, mark: int, on_step=None) -> bool:
        """Step a game that pauses everywhere (`pause_at` both kinds) on to the pause point at
        `mark` (a `pause_mark` of the same moves), calling `on_step()` after each step; True
        when it stands there.  A game faulting on the way stops there (False)."""
        while self.pause_point is not None and self.pause_mark < mark:
            try:
                self.step(until=PAUSES)
            except GameFault:
                return False
            if on_step is not None:
                on_step()
        return self.pause_mark == mark

    @property
    def next_statement(self) -> Span | None:
        """Where a paused game goes on: the span of the statement it runs next."""
        return statement_span(self) if self.pause_point is not None else None

    def step(self, until=None) -> None:
        """Go on from a pause to the next pause point of the kinds `until` names (default: the
        state's `pause_at`; () runs to the next decision or the end).  The game is exactly the
        game run without pauses.  ScriptError E0712 on a game that is not paused; GameFault
        (the state faulted) when the script fails on the way."""
        if self.pause_point is None:
            where = "is over" if self.over else "stopped with a fault" if self.fault is not None else \
                "waits for a decision"
            raise ScriptError([Diagnostic("E0712", f"the game is not paused: it {where}", None,
                                          hint="only a game started with `pause_at` stops between decisions; "
                                          "moves go on with `apply`")])
        if type(self.journal) is DeferredJournal:  # its moves alone would not lead to this pause point
            self.journal_now()
        asked = self.pause_at
        if until is not None:
            self.pause_at = pause_kinds(until)
        try:
            resume(self)
        except RUNTIME_FAULTS as exc:
            self._fault(as_fault(self, exc))
            raise GameFault(self.fault, self.game.sources) from None
        finally:
            self.pause_at = asked

    @property
    def prompt(self) -> str:
        """The current decision's prompt, with its `{...}` filled in."""
        decision = self.waiting
        if decision is None:
            return ""
        if decision.prompt_fn is None:
            return decision.prompt
        try:
            self.begin_work(query=True)
            return decision.prompt_fn(self, self.stack[-1][2])
        except RUNTIME_FAULTS:
            return decision.prompt

    @property
    def scores(self) -> list[int]:
        """Each seat's score; in a game with teams, the score of the seat's team."""
        teams = self.teams
        if teams is None:
            return self._read_scores(self.n)
        by_team = self._read_scores(teams.count)
        return [by_team[team] for team in teams.of]

    @property
    def team_scores(self) -> list[int] | None:
        """Each team's score (`score t: ...` reads a team); None in a game without teams."""
        return None if self.teams is None else self._read_scores(self.teams.count)

    def _read_scores(self, count: int) -> list[int]:
        fn = self.prog.score_fn
        if fn is None:
            return [0] * count
        self.begin_work(query=True)
        try:
            return [fn(self, who) or 0 for who in range(count)]
        except RUNTIME_FAULTS as exc:
            raise GameFault(self._diagnostic(as_fault(self, exc)), self.game.sources) from None

    @property
    def winners(self) -> list[int]:
        """The winning seats of a finished game (in a game with teams, every member of a
        winning team); GameFault when the `winners:` expression fails."""
        teams = self.teams
        if teams is None:
            return self._winning(self.n, lambda: self.scores)
        return sorted(seat for team in self.winning_teams for seat in teams.members[team])

    @property
    def winning_teams(self) -> list[int] | None:
        """The winning teams of a finished game; None in a game without teams."""
        if self.teams is None:
            return None
        return self._winning(self.teams.count, lambda: self.team_scores)

    def _winning(self, count: int, scores) -> list[int]:
        """Who of 0..count-1 (seats, or teams) won: the `winners:` expression, or the best score."""
        if not self.over or self.fault is not None:
            return []
        decl = self.prog.tables.winners
        if decl is not None and decl.expr is not None:
            self.begin_work(query=True)
            try:
                found = self.prog.winners_fn(self) or ()
                return sorted({p for p in found if p is not None and 0 <= p < count})
            except RUNTIME_FAULTS as exc:
                raise GameFault(self._diagnostic(as_fault(self, exc)), self.game.sources) from None
        values = scores()
        best = min(values) if decl is not None and decl.mode == "lowest" else max(values)
        return [who for who, s in enumerate(values) if s == best]

    def evaluate(self, text: str, expect: str | None = None, viewer="all") -> tuple[str | None, list[Diagnostic]]:
        """Evaluate one expression of the language on this state: (value text or None, diagnostics).

        The expression sees what a rule sees (variables, options, zones, symbols, constants and
        definitions), and P0, P1... for the seats (T0, T1... for the teams); it cannot change anything.  `expect="bool"` also requires true/false.
        Under a seat's view (`viewer` a seat, or None for a spectator) it is answered from what
        that viewer knows, or refused (E0710) when it reads anything else; unseen cards read `??`.
        Diagnostics point into the path EXPRESSION_PATH; render them with a SourceFile of `text`.
        """
        self._viewer(viewer)
        node, diags = parse_expression(str(text), EXPRESSION_PATH)
        if node is None:
            return None, diags
        # P0, P1... name the seats, as values are shown, unless the script uses those names.
        t = self.prog.tables
        taken = set(t.vars) | set(t.options) | set(t.zones) | set(t.defines) | t.symbols
        # a seat's own name too (`players 4 named N, E, S, W`), unless a card or symbol is so named
        seats = {f"P{seat}": seat for seat in range(self.n)}
        seats.update({name: seat for seat, name in enumerate(t.seat_names[:self.n])})
        taken |= set(self.prog.card_by_name)
        seat_names = {name: PLAYER for name in seats if name not in taken}
        if self.teams is not None:  # and T0, T1... the teams
            seat_names.update({f"T{t}": TEAM for t in range(self.teams.count) if f"T{t}" not in taken})
        checked = check_expression(t, node, seat_names, expect)
        if any(d.severity == "error" for d in checked.diagnostics):
            return None, checked.diagnostics
        typ = checked.type
        try:
            fn = compile_expression(self.prog, checked.tables, node)
        except TooComplex as err:
            return None, [Diagnostic("R0002", err.message, node.span, "while evaluating this", err.hint)]
        except RecursionError:
            return None, [Diagnostic("R0002", "the expression is nested too deeply to evaluate", node.span,
                                     "while evaluating this", "split it with `let` or `define` in the script")]
        frame_values = [None] * checked.frame_size
        for name, slot in checked.names.items():
            frame_values[slot] = seats[name] if name in seats else int(name[1:])
        on = self if viewer == "all" else masked(self, viewer)
        on.begin_work(query=True)
        try:
            value = fn(on, frame_values)
            shown = self._value_text(on, typ, value)
        except UnknownRead as unknown:
            message = refusal_message(unknown.what, viewer, attributes_read(node), self.prog)
            return None, [Diagnostic("E0710", f"`{text}` {message}", node.span,
                                     "not known to this view",
                                     "sizes (`count(...)`) and what this seat sees stay answerable; "
                                     "`view all` sees everything")]
        except ScriptRuntimeError as err:
            return None, [Diagnostic("R0002", err.message, err.span, "while evaluating this", err.hint)]
        except VALUE_FAULTS as exc:
            return None, [Diagnostic("R0002", f"a value of the wrong kind ({fault_words(exc)})", node.span, "while evaluating this")]
        return shown, checked.diagnostics

    @staticmethod
    def _value_text(on, typ, value) -> str:
        if typ == ZONE and type(value) is int:  # a zone reads as the cards in it, bottom first
            typ, value = list_of(CARD), tuple(on.zones[value])
        elif typ == ZONES and type(value) is int:
            name = on.prog.per_player_names[value]  # a zone family reads as one list per seat
            typ = list_of(list_of(CARD))
            value = tuple(tuple(on.zones[on.prog.zone_slot(name, seat, on.n)]) for seat in range(on.n))
        return render_value(on.prog, typ, value, on.n)

    # ---- moves
    def legal_moves(self) -> list[Move]:
        """The current decision's legal moves, in the script's order (a new list at each call:
        the caller may change it); [] when the game is over or faulted."""
        moves = self.legal_cache  # set only while a decision waits (never on a faulted state)
        if moves is None:
            decision = self.waiting
            if decision is None:  # over, faulted or paused (nothing else leaves no decision waiting)
                return []
            try:
                moves = listing(self, decision)
            except RUNTIME_FAULTS as exc:
                self._fault(as_fault(self, exc))
                return []
        if not moves:
            # A dead end, however the listing came to be kept (here, or by the engine's own
            # calls before this one: a playout that gives a dead end up to the public path lists
            # the decision first), faults the game at the decision, so every path ends alike.
            chooser = "the table" if self.actor == TABLE else self.prog.seat_label(self.actor)
            self._fault(ScriptRuntimeError(
                "this decision has no legal move, so the game cannot go on", self.waiting.span,
                f"{chooser} had nothing to choose here; every decision needs an option that is always "
                "allowed (e.g. `pass`), or rules that leave at least one" + self._dead_end()))
            return []
        return list(moves)

    def _dead_end(self) -> str:
        """What each alternative of the decision waiting offered: nothing (its binders had no
        value) or only moves its rules forbade."""
        try:
            offered = {m.alt for m in enumerate_moves(self, legal_only=False)}
        except RUNTIME_FAULTS:
            return ""
        said = []
        for spec in self.waiting.alts:
            if spec.index not in offered:
                binders = ", ".join(f"`{self.prog.source_text(b.span)}`" for b in spec.node.binders)
                said.append(f"`{spec.name}` had nothing to choose from ({binders})" if binders else
                            f"`{spec.name}` was not offered")
            else:
                rules = ", ".join(dict.fromkeys(f"`{u.rule.node.name}`" for u in spec.rules))
                said.append(f"the rules of `{spec.name}` ({rules}) forbade every move")
        return ": here " + "; ".join(said) if said else ""

    @property
    def choice_is_hidden(self) -> bool:
        """The current decision is a simultaneous commit or a secret decision: its move must not be
        shown to others."""
        return self.waiting is not None and self.waiting.hidden

    def candidate_moves(self) -> list[Move]:
        if self.fault is not None or self.over or self.pause_point is not None:
            return []
        try:
            return enumerate_moves(self, legal_only=False)
        except RUNTIME_FAULTS:
            return []

    def parse_move(self, text: str) -> Move:
        text = " ".join(str(text).split())
        found = find_move(self.prog, self.waiting, self.candidate_moves(), text, self.n) if self.waiting else None
        if found is not None:
            return found
        raise IllegalMove(self.explain(text))

    def explain(self, move, viewer="all", expand=()) -> Explanation:
        """Why `move` is legal or not, rule by rule.  Under a seat's view, only about that seat's
        own (or the table's) decision, and only from what it knows: else `legal` is None and
        `reason` says what the explanation would have read.  A move naming cards the seat does not
        know is judged with those cards unknown when it is a Move of this decision (chosen by its
        place in the listing) and refused when it is a text (typing the card's name would ask
        whether it is there).  `expand` names definitions whose calls are evaluated again inside
        with their arguments (Expansion records on each rule)."""
        text = str(move) if not isinstance(move, str) else " ".join(move.split())
        if self._viewer(viewer) == "all":
            return self._explained(lambda: explain(self, text, tuple(expand)), text)
        actor = self.current_player
        if actor is not None and actor != TABLE and actor != viewer and not self.choices_known_to(viewer):
            return Explanation(text, None, refusal_message(f"{self.prog.seat_label(actor)}'s choices", viewer, prog=self.prog), ())
        chosen = move if isinstance(move, Move) and self.waiting is not None else None
        unknown = unknown_to(self, viewer)
        args_seen = lambda use, args: rule_args_as_seen(use, args, unknown)  # noqa: E731
        if chosen is not None and move_cards_unknown(self, chosen, unknown):
            seen = Move(masked_move_text(self, self.waiting, chosen, unknown), chosen.alt,
                        masked_values(self, chosen, unknown))
            return self._explained(lambda: explain(masked(self, viewer), seen.text, tuple(expand), seen, args_seen),
                                   seen.text, viewer)
        if unknown_names(self, viewer, text) and self._moves_hide_cards(unknown):
            return Explanation(text, None, f"names a card {viewer_name(viewer, self.prog)} cannot see; among moves that name "
                               "cards it cannot see, a move is chosen by its number", ())
        return self._explained(lambda: explain(masked(self, viewer), text, tuple(expand), seen=args_seen), text, viewer)

    def choices_known_to(self, viewer) -> bool:
        """May `viewer` read the decision waiting: its own or the table's, or another seat's whose
        every option and rule read only what everyone sees now, as a spectator does (the declarer
        playing from a dummy's face-up hand)?  Listing or judging any other seat's choices would
        tell what it holds, or what it may do with cards only some seats see (a hand held to the
        others, as in Foreheads, is no dummy)."""
        actor = self.current_player
        if viewer == "all" or actor is None or actor == TABLE or actor == viewer:
            return True
        self._viewer(viewer)
        candidates = self.candidate_moves()
        try:
            seen = enumerate_moves(masked(self, None, sight(self, None)), legal_only=False)
        except (UnknownRead, *RUNTIME_FAULTS):  # the options themselves are read from what not everyone sees
            return False
        if [m.text for m in seen] != [m.text for m in candidates]:
            return False
        judge = rules_reading_unseen(self, None)
        return not any(judge(move) for move in candidates)

    def explain_outcomes(self, move=None, viewer="all", pause_at=()) -> list:
        """What decided the outcomes of the step from this position: `move` applied (a text), or
        with None the game stepped on from its pause point, stopping at `pause_at` as the step
        did.  One Outcome per line the step logged, each with the values it reads and what
        decided them (outcomes.py): `why step 18`, "why did P3 win that trick?"."""
        viewer, pause_at = self._viewer(viewer), pause_kinds(pause_at)

        def make(trial):
            trial.pause_at = pause_at
            try:
                trial.step(until=pause_at) if move is None else trial.apply(move)
            except (GameFault, IllegalMove):  # the lines logged before it still tell
                pass
        return explain_outcomes(self, make, viewer)

    def _explained(self, judge, text: str, viewer="all") -> Explanation:
        """`judge()`, or why it could not judge: what it read that `viewer` cannot see, or a fault."""
        try:
            try:
                return judge()
            except UnknownRead as unknown:
                return Explanation(text, None, refusal_message(unknown.what, viewer, prog=self.prog), ())
        except RUNTIME_FAULTS as exc:
            return Explanation(text, False, f"the rules could not be evaluated: {as_fault(self, exc).message}", ())

    def _moves_hide_cards(self, unknown) -> bool:
        """Does some move of this decision name a card `unknown(card)`?"""
        return self.waiting is not None and any(move_cards_unknown(self, m, unknown) for m in self.candidate_moves())

    def apply(self, move) -> None:
        """Apply a legal move in place; IllegalMove (state untouched) otherwise."""
        for m in self.legal_cache or ():  # a move from legal_moves() is one of the very objects listed
            if m is move:
                break
        else:
            move = self._legal_one(move)
        self._apply_chosen(move)

    def _legal_one(self, move) -> Move:
        """The legal move `move` names (a Move not from this listing, or a text), listing the
        moves first if they are not listed; IllegalMove or GameFault otherwise."""
        legal = self.legal_cache
        if legal is None:
            if self.fault is None:
                legal = self.legal_moves()  # a listing that fails faults the game
            if self.fault is not None:
                raise GameFault(self.fault, self.game.sources)
            if any(m is move for m in legal):
                return move
        text = " ".join(str(move).split())
        chosen = find_move(self.prog, self.waiting, legal, text, self.n) if legal else None
        if chosen is None:
            raise IllegalMove(self.explain(text))
        return chosen

    def _apply_chosen(self, chosen: Move, trace_rules: bool = True) -> None:
        """Apply a move known to be in the legal list (simulate's loop calls this directly);
        `trace_rules=False` spares a tracer the `rule` events (lint watches the rest)."""
        if type(self.journal) is DeferredJournal:
            if self.pause_at:  # a pause inside the move would not be where the moves alone lead
                self.journal_now()
            else:
                self.journal.moves.append(chosen)
        try:
            if self.callback is not None and trace_rules:
                self._trace_rules(chosen)
            apply_move(self, chosen)
        except RUNTIME_FAULTS as exc:
            self._fault(as_fault(self, exc))
            raise GameFault(self.fault, self.game.sources) from None
        if self.decisions >= limits.MAX_DECISIONS and not self.over:
            self._fault(too_many_decisions())

    def _trace_rules(self, move: Move):
        """A `rule` event per rule the move names; `seen`: the line its maker reads, judged on
        what it knows (a rule that read a card it cannot see would tell it the card), for the
        observation log only: judging it reads the maker's memory, which would start a log (and
        its cost at every event after) in a game that keeps none."""
        actor = self.current_player
        keeps_log = type(self.journal) is Journal
        mine = self.explain(move, viewer=actor) if keeps_log and actor is not None and actor != TABLE else None
        judged = {r.name: r for r in mine.rules} if mine is not None else {}
        for result in self.explain(move).rules:
            seen = judged.get(result.name)
            line = None if mine is None else f"rule {result.name}: " + (
                f"{seen.status} ({seen.verdict})" if seen is not None else f"judged; {mine.reason}")
            self.emit("rule", name=result.name, status=result.status, values=result.verdict, span=result.span,
                      **({"seen": line} if line is not None else {}))

    # ---- copies and saving
    def clone(self) -> "GameState":
        """An independent copy (its observation log included; no tracer)."""
        other = self.clone_bare()
        other.journal = self.journal.copy() if self.journal is not None else None
        other.set_tracer(None)
        return other

    def clone_bare(self) -> "GameState":
        """A copy of the position only: no observation log, no tracer."""
        other = GameState()
        self.copy_into(other)
        other.game, other.journal, other.callback = self.game, None, None
        return other

    def to_json(self) -> dict:
        from .saving import dump_state
        return dump_state(self)

    # ---- tracing
    def set_tracer(self, callback) -> None:
        """`callback(TraceEvent)` for every rule judged, effect applied and chance resolved."""
        self.callback = callback
        journal = self.journal if type(self.journal) is not DeferredJournal else None
        if callback is None and journal is None:
            self.tracer = None
            return

        state = weakref.ref(self)  # the state holds its sink: a strong reference would be a cycle,
        # which keeps every recorded state (and its whole observation log) until a full collection

        def sink(kind, data):
            st = state()
            if journal is not None:
                journal.record(st, kind, data)
            if callback is not None:
                try:
                    callback(TraceEvent(kind, data.get("span"), describe(st, kind, data)))
                except Exception as exc:  # the caller's code: reported as R0003, never raised raw
                    raise TracerFailed(f"the tracer raised {type(exc).__name__}: {exc}", data.get("span"),
                                       "the tracer is the caller's function; the game stopped at this event") from None
        self.tracer = sink

    # ---- faults
    def _diagnostic(self, err: ScriptRuntimeError) -> Diagnostic:
        code = "R0003" if isinstance(err, TracerFailed) else "R0001"
        return Diagnostic(code, err.message, err.span, "while running this", err.hint)

    def _fault(self, err: ScriptRuntimeError):
        self.fault = self._diagnostic(err)
        self.waiting = self.actor = self.legal_cache = None


__all__ = ["Game", "GameState", "IllegalMove", "GameFault", "ScriptError", "load", "TABLE", "Move", "Explanation"]
