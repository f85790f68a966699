"""One seat's window on a game: what code acting for that seat (an agent, a search player, a
bot behind a network) may know and do, and nothing more.

`state.seat(1)` is a SeatView: its answers are those of the GameState calls with `viewer=1`,
its listing is the seat's own (refused, E0710, at another seat's decision), and its moves are
SeatMoves, which carry only the text the seat may read: the Move behind one stays inside.
"""

from __future__ import annotations

import attrs

from ..language.source import Diagnostic, ScriptError
from ..machine.runtime import TABLE


@attrs.frozen(eq=False, repr=False)
class SeatMove:
    """One of a seat's moves as it may read it (`play ??` for a card it cannot see); `index`:
    its place in the seat's listing.  Give it back to `SeatView.apply`."""

    text: str
    index: int
    _move: object = attrs.field(alias="move")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"SeatMove({self.text!r}, {self.index})"

    @property
    def alt(self) -> int:
        """The index of the decision's alternative the move is one of (`play`, `pass`...): the
        seat's own decision, so it knows it (a random player's alternative-first policy reads it)."""
        return self._move.alt


class SeatView:
    """What `seat` may know of `state` and do in it (see the module's docstring)."""

    __slots__ = ("_state", "seat")

    def __init__(self, state, seat: int):
        self._state, self.seat = state, state._viewer(seat, seat_only=True)

    def __repr__(self) -> str:
        return f"SeatView({self._state.prog.seat_label(self.seat)})"

    # ---- what it knows
    @property
    def to_act(self) -> bool:
        """Whether this seat is asked the decision waiting (a table decision asks everyone)."""
        actor = self._state.current_player
        return actor == self.seat or actor == TABLE

    @property
    def current_player(self):
        return self._state.current_player

    @property
    def is_over(self) -> bool:
        return self._state.is_over

    def view(self) -> dict:
        return self._state.view(self.seat)

    def observation(self) -> dict:
        return self._state.observation(self.seat)

    def information_state(self):
        return self._state.information_state(self.seat)

    def observed_events(self, step: int | None = None) -> list:
        return self._state.observed_events(self.seat, step)

    @property
    def scores(self):
        """The scores as the seat knows them (None while they read something hidden)."""
        return self.view()["scores"]

    def evaluate(self, text: str, expect: str | None = None):
        return self._state.evaluate(text, expect, viewer=self.seat)

    def explain(self, move, expand=()):
        return self._state.explain(move._move if isinstance(move, SeatMove) else move, viewer=self.seat,
                                   expand=expand)

    def determinize(self, rng):
        """A world this seat cannot tell from the real game (GameState.determinize): the seat's
        own sample, a whole game to play out."""
        return self._state.determinize(self.seat, rng)

    # ---- what it may do
    def legal_moves(self) -> list[SeatMove]:
        """The seat's moves, in its own order (E0710 when another seat is to act)."""
        st = self._state
        moves = st.moves_for(self.seat)
        return [SeatMove(text, i, m) for i, (text, m) in enumerate(zip(st.move_texts(self.seat), moves))]

    def move_texts(self) -> list[str]:
        return self._state.move_texts(self.seat)

    def apply(self, move) -> None:
        """Make one of the seat's moves: a SeatMove of its current listing, its index in
        `legal_moves()`, or its text when exactly one move reads so."""
        listed = self.legal_moves()
        if isinstance(move, SeatMove):
            chosen = next((m for m in listed if m._move is move._move), None)
        elif type(move) is int:
            chosen = listed[move] if 0 <= move < len(listed) else None
        else:
            text = " ".join(str(move).split())
            alike = [m for m in listed if m.text == text]
            if len(alike) > 1:
                raise ScriptError([Diagnostic("E0714", f"{len(alike)} moves read `{text}`", None,
                                              hint="choose one by its SeatMove or its index in legal_moves()")])
            chosen = alike[0] if alike else None
            if chosen is None:  # refused as the seat may read it: typing a card it cannot see tells nothing
                raise self._state.illegal(text, self.seat)
        if chosen is None:
            raise ScriptError([Diagnostic("E0714", f"{move!r} is not one of {self._state.prog.seat_label(self.seat)}'s moves now", None,
                                          hint="legal_moves() lists them")])
        self._state.apply(chosen._move)
