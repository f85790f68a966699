"""What a REPL command raises when it cannot be carried out: a module of its own, so that every
command group of the session raises it without importing the session."""

from __future__ import annotations


class ReplError(Exception):
    """A command that cannot be carried out; the message is shown and nothing changes."""


class ReplDiagnostics(ReplError):
    """A refusal whose message is rendered diagnostics (`error[E0710]: ...`), each saying what
    went wrong on its own: shown as it is, with no `error:` line above it."""
