"""The seat-facing calls of a GameState (a mixin, as the checker's parts are): views,
observations, information states, determinizations, a seat's listing and its SeatView, and the
observation log they read (made when first asked for, by replaying, where a game keeps none)."""

from __future__ import annotations

import attrs

from ..language.source import Diagnostic, ScriptError
from ..machine.runtime import PAUSES, TABLE
from .errors import GameFault, IllegalMove, TraceEvent
from .journal import Journal
from .knowledge import moves_as_seen, refusal_message, seat_order, zone_visibility
from .moves import Move
from .observations import InformationState, information_state, observation
from .seat_view import SeatView
from .views import build_view
from .worlds import determinize


@attrs.define
class DeferredJournal:
    """An observation log not kept event by event: `start`, a copy of the game with its log, and
    the moves applied since.  The log is made when first asked for, by applying those moves to a
    copy of `start` (the same moves on the same position give the same events): a search
    player's playouts from a determinization, which never ask, record nothing.  A world sampled
    for a seat (worlds.py) has `start` None and its `recipe`: the log is made by playing the
    world again from its first shuffle, with every seat's observations this time."""

    start: object  # a GameState, or None
    moves: list
    recipe: object = None

    def copy(self) -> "DeferredJournal":
        return DeferredJournal(self.start, self.moves[:], self.recipe)


class SeatQueries:
    """What each viewer may know of a game: the GameState methods that read the knowledge model."""

    def move_texts(self, viewer="all", legal_only: bool = True) -> list[str]:
        """The texts of `moves_for(viewer)` as `viewer` may read them: a card it does not know is
        ??, so a seat that cannot see its own hand is offered `play ??` (several moves may then
        read alike: they are told apart by position).  ScriptError E0710 for another seat's
        decision (see moves_for)."""
        viewer = self._viewer(viewer)
        return moves_as_seen(self, viewer, self.moves_for(viewer, legal_only))

    def moves_for(self, viewer="all", legal_only: bool = True) -> list[Move]:
        """The legal moves (or the candidates) as listed to `viewer`: for "all", `legal_moves()`
        in the script's order; for a seat (or the spectator), only at its own decision or a table
        decision (or another seat's whose options everyone sees: a dummy's, GameState.choices_known_to),
        in an order that depends only on what it knows (knowledge.seat_order), and ScriptError E0710
        at any other seat's, whose moves would tell what that seat holds."""
        viewer = self._viewer(viewer)
        moves = self.legal_moves() if legal_only else self.candidate_moves()
        if viewer == "all":
            return moves
        actor = self.current_player
        if actor is not None and actor != TABLE and actor != viewer and not self.choices_known_to(viewer):
            raise ScriptError([Diagnostic("E0710", f"listing the moves {refusal_message(self.prog.seat_label(actor) + chr(39) + 's choices', viewer, prog=self.prog)}",
                                          None, hint=f"only {self.prog.seat_label(actor)} (or the all-seeing view) may list them")])
        return seat_order(self, viewer, moves)

    def seat(self, seat: int) -> "SeatView":
        """What code acting for `seat` may know and do: its view, observation, information
        state, its own moves and nothing of the others' (seat_view.py)."""
        return SeatView(self, seat)

    def illegal(self, text: str, viewer="all") -> "IllegalMove":
        """The IllegalMove refusing `text`, explained as `viewer` may read it."""
        return IllegalMove(self.explain(text, viewer=viewer))

    @property
    def hand_zones(self) -> frozenset:
        """The per-player zones whose visibility (with this game's options) is not `public`: the
        hands, as front ends draw them, even while every card in one lies face up (a dummy)."""
        return frozenset(z.name for z in self.prog.tables.zones.values()
                         if z.per_player and zone_visibility(self, z) != "public")

    def view(self, player=None) -> dict:
        """What `player` may see (None: a spectator; "all": everything); ScriptError E0707 for
        a seat that is not at this table."""
        return build_view(self, self._viewer(player))

    def _viewer(self, viewer, seat_only: bool = False):
        """`viewer` if it names someone at this table (a seat; unless `seat_only`, also None, a
        spectator, or "all"); else ScriptError E0707."""
        if type(viewer) is int and 0 <= viewer < self.n or not seat_only and (viewer is None or viewer == "all"):
            return viewer
        also = "" if seat_only else '; None is a spectator, "all" sees everything'
        raise ScriptError([Diagnostic("E0707", f"there is no seat {viewer!r} at this {self.n}-player table", None,
                                      hint=f"seats are 0 to {self.n - 1}{also}")])

    def observation(self, seat=None) -> dict:
        """JSON-able: what `seat` knows now (its view) and its observation log, each event as
        that seat saw it when it happened.  None: a spectator; "all": everything."""
        return observation(self, self._viewer(seat))

    def observed_events(self, viewer="all", step: int | None = None, since: int | None = None) -> list[TraceEvent]:
        """Every event `viewer` observed (or only those of move `step`, 0 for the set-up; or only
        those after `since`, a `log_mark` read earlier), as it observed it then, rule judgements of
        its own moves included; a move's text is the move alone, its maker in `actor`."""
        self._viewer(viewer)
        journal = self.journal_now()
        if since is not None:  # a game stepped through pause points stays at one step: read from the mark
            entries = journal.finished(self, since)
        elif step is None:
            entries = journal.finished(self)
        else:  # entries are in the order of the moves: this move's are found from the end
            entries = [e for e in journal.entries_from_step(self, step) if e.step == step]
        return [TraceEvent(e.kind, e.span, e.text(viewer, self.n), e.step, e.actor)
                for e in entries if e.text(viewer, self.n) is not None]

    @property
    def log_mark(self) -> int:
        """The place the observation log has reached: `observed_events(viewer, since=mark)` later
        gives what was observed after it, as cheaply late in a long game as early."""
        return len(self.journal_now())

    def information_state(self, seat) -> InformationState:
        """What `seat` knows, equal for two states exactly when it cannot tell them apart: a
        structured record with a compact, stable `text` and its `digest` (observations.py)."""
        return information_state(self, self._viewer(seat))

    def determinize(self, seat: int, rng):
        """A world `seat` cannot tell from this one, played from the start with the cards it cannot
        name dealt again and the other seats' choices it could not see made again, at random
        (`rng`: a random.Random or an int seed; worlds.py, docs/api.md)."""
        d, recipe = determinize(self, self._viewer(seat, seat_only=True), rng, (GameFault, IllegalMove))
        d.journal = DeferredJournal(None, [], recipe)
        d.set_tracer(None)
        return d

    def journal_now(self) -> Journal:
        """The observation log, rebuilt by replaying the moves from the seed if not kept (or
        from the copy a DeferredJournal holds)."""
        if type(self.journal) is DeferredJournal:
            recipe = self.journal.recipe
            if recipe is not None:  # a world: played again from its start, every seat recorded
                fresh = self.game._started(self.n, recipe.seed, self.options, self.budget, None, True, frozenset(),
                                           recipe.chance())
                moves = list(self.history)
            else:
                fresh, moves = self.journal.start.clone(), self.journal.moves
            for i, move in enumerate(moves):
                if recipe is not None and i == recipe.moves:
                    fresh.rng = recipe.after  # the world's own draws from where it was sampled
                try:
                    fresh.apply(move) if recipe is not None else fresh._apply_chosen(move)
                except (IllegalMove, GameFault):
                    break
            if recipe is not None and len(moves) == recipe.moves:
                fresh.rng = recipe.after
            self.journal = fresh.journal
            self.set_tracer(self.callback)
        elif self.journal is None or not self.journal.log:
            # A paused game is replayed pausing everywhere after its last move, up to the pause
            # point with the same work done (work only grows from one pause point to the next).
            pausing = PAUSES if self.pause_point is not None else ()
            fresh = self.game.new_game(players=self.n, seed=self.seed, options=self.options, record=True,
                                       max_work=self.budget[0], max_game_work=self.budget[1],
                                       pause_at=() if self.history else pausing)
            for i, move in enumerate(self.history, 1):
                fresh.pause_at = pausing if i == len(self.history) else ()
                try:
                    fresh.apply(move)
                except (IllegalMove, GameFault):
                    break
            if pausing:
                fresh.step_to_mark(self.pause_mark)
            if fresh.zones != self.zones or fresh.vis != self.vis:
                # a position its moves do not lead to (arranged by hand, a saved game edited):
                # the log is the moves', and each seat knows the cards by sight alone
                fresh.journal.know_by_sight(self)
            self.journal = fresh.journal
            self.set_tracer(self.callback)
        return self.journal
