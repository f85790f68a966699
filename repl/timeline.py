"""The positions a session's game went through, step by step, for `undo`, `redo` and `goto`.

A position is a whole game state, and its history and observation log grow with every move:
keeping every position of a game of N moves takes memory in N squared (10,000 moves took
1.8 GB; a replay of 100,000 moves, as `cardgame play --save` writes for a game stopped by the
decision limit, far more than a machine has).  So a Timeline keeps the positions made last and
checkpoints, spaced wider as the game grows so that they stay few; any other position is made
again when asked for, from the nearest checkpoint before it, by the steps that made it.  A game
is its seed and its moves (and a pause point its work done), so the position made again is the
very position that was there.
"""

from __future__ import annotations

from cardgame.interpreter import GameFault

KEEP_LAST = 32  # the positions made last stay: undoing a few steps remakes nothing
MOST_CHECKPOINTS = 128  # more, and the spacing between checkpoints doubles


def after_move(text: str, pause_at, traced: bool):
    """The step that makes a move: `text` applied to a copy of the position before, pausing at
    `pause_at`; `traced`: whether it was made with a tracer (which adds the rules judged to the
    observation log), so that the position made again is the same."""
    return _made_by(lambda state: state.apply(text), pause_at, traced)


def after_step(until, pause_at, traced: bool):
    """The step that goes on from a pause point to the next one `until` names (see after_move)."""
    return _made_by(lambda state: state.step(until=until), pause_at, traced)


def _made_by(act, pause_at, traced: bool):
    """The step that does `act(state)` on a copy of the position before (see after_move)."""
    def make(before):
        state = before.clone()
        state.pause_at = pause_at
        if traced:
            state.set_tracer(_ignore)
        try:
            act(state)
        except GameFault:  # a move that faulted: the position is the game stopped at its error
            pass
        state.set_tracer(None)
        return state
    return make


def _ignore(event) -> None:
    pass


class Timeline:
    """Positions 0 (the start) to len - 1.

    Attributes:
        actors: actors[i] is who made the move of step i + 1 (None: a step between pauses).
    """

    def __init__(self, first):
        self._states: list = [first]  # None where a position is not kept
        self._steps: list = [None]  # _steps[i] makes position i from position i - 1
        self.actors: list = []
        self._spacing = 16
        self._asked = (0, first)  # the last position made again, asked again at each prompt

    def __len__(self) -> int:
        return len(self._states)

    def __getitem__(self, i: int):
        i = i + len(self._states) if i < 0 else i
        state = self._states[i]
        if state is not None:
            return state
        if self._asked[0] == i:
            return self._asked[1]
        kept = i
        while self._states[kept] is None:
            kept -= 1
        state = self._states[kept]
        for k in range(kept + 1, i + 1):
            state = self._steps[k](state)
        self._asked = (i, state)
        return state

    def append(self, state, actor, step) -> None:
        """Add the position after the last one, made from it by `step` (after_move, after_step)."""
        self._states.append(state)
        self._steps.append(step)
        self.actors.append(actor)
        self._thin()

    def prefix(self, length: int) -> "Timeline":
        """A new timeline of positions 0 to length - 1 of this one (the same position objects
        and steps), which goes on its own way: this one stays whole, a branch to come back to."""
        other = Timeline.__new__(Timeline)
        other._states, other._steps = self._states[:length], self._steps[:length]
        other.actors, other._spacing = self.actors[:length - 1], self._spacing
        other._asked = self._asked if self._asked[0] < length else (0, self._states[0])
        return other

    def shared(self, other: "Timeline") -> int:
        """How many first positions this timeline and `other` have in common (made by the same steps)."""
        count = 1  # the start
        for mine, theirs in zip(self._steps[1:], other._steps[1:]):
            if mine is not theirs:
                break
            count += 1
        return count

    def truncate(self, length: int) -> None:
        """Keep positions 0 to length - 1 only (a new step is made from there)."""
        del self._states[length:]
        del self._steps[length:]
        del self.actors[length - 1:]
        if self._asked[0] >= length:
            self._asked = (0, self._states[0])

    def _thin(self) -> None:
        """The position that is no longer among the last KEEP_LAST is forgotten unless it is a
        checkpoint; with too many checkpoints, every other one is forgotten."""
        last = len(self._states) - 1
        old = last - KEEP_LAST
        if old > 0 and old % self._spacing:
            self._states[old] = None
        if old // self._spacing > MOST_CHECKPOINTS:
            self._spacing *= 2
            for i in range(self._spacing // 2, old + 1, self._spacing):
                self._states[i] = None
