"""Authoring tools: the formatter, the editor server, the rulebook and the state-machine graph."""
