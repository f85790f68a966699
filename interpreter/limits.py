"""Limits that stop runaway scripts with a clear error instead of a hang (scripts are untrusted)."""

MAX_STEPS_PER_MOVE = 1_000_000  # statements run between two decisions
MAX_CALL_DEPTH = 200  # nested procedure calls and event signals
MAX_LIST_LENGTH = 100_000  # elements in one list value
MAX_TEXT_LENGTH = 10_000  # characters in one text value
MAX_INT = 2 ** 62  # magnitude of any number
MAX_WORK_PER_MOVE = 5_000_000  # list elements visited by quantifiers and comprehensions per move
MAX_MOVES_PER_DECISION = 10_000  # options one decision may offer
MAX_DECISIONS = 100_000  # decisions in one game before `play`/`simulate` give up on it
