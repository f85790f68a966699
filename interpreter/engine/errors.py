"""What the engine API raises, and what a tracer receives: records shared by the game's calls
and the seat-facing ones (seat_queries.py), kept apart so neither imports the other."""

from __future__ import annotations

import attrs

from ..language.source import Diagnostic, Span, render
from ..machine.runtime import ScriptRuntimeError
from .moves import Explanation


class IllegalMove(Exception):
    """A move that the current decision does not allow; the state is left exactly as it was."""

    def __init__(self, explanation: Explanation):
        self.explanation = explanation
        super().__init__(str(explanation))  # `MOVE` is illegal: RULE fails at FILE:LINE: ...

    def __reduce__(self):  # unpickled (from a worker process) by its own arguments, not its text
        return type(self), (self.explanation,)


class TracerFailed(ScriptRuntimeError):
    """A tracer callback raised: the game is faulted with R0003 (the script is not to blame)."""


class GameFault(Exception):
    """The script failed while running (a limit, a division by zero...); carries a diagnostic."""

    def __init__(self, diagnostic: Diagnostic, sources: dict):
        self.diagnostic, self.sources = diagnostic, sources
        super().__init__(render(diagnostic, sources))

    def __reduce__(self):  # unpickled (from a worker process) by its own arguments, not its text
        return type(self), (self.diagnostic, self.sources)


@attrs.frozen
class TraceEvent:
    """One thing that happened while the game ran: a rule judged, an effect, a chance event.

    Attributes:
        step: moves made when it happened (0: the set-up); set in `observed_events`.
        actor: for a move (`decision`) or a rule judgement, who chose (a seat or TABLE).
    """

    kind: str
    span: Span | None
    text: str
    step: int = 0
    actor: object = None
