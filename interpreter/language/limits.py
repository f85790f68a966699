"""Limits that stop hostile or runaway scripts with a clear error instead of a hang (scripts are
untrusted).  docs/language.md §22 lists each one with its default, its hard cap and its diagnostic."""

import contextlib
import sys

# ---- reading and loading a script: fixed
MAX_SCRIPT_BYTES = 131_072  # bytes of one script with all its includes (checking takes ~1 s)
MAX_INCLUDES = 64  # files one game is read from
MAX_CARDS = 10_000  # cards in all decks together
MAX_BINDER_RANGE = 10_000  # values of a decision binder `n in LOW..HIGH` with constant bounds
MAX_REPLAY_BYTES = 16 * 1024 * 1024  # a replay file
# how deep the code written for one expression may nest (nesting.py: Python's own limits are 20
# blocks and 100 levels of indentation, part of them taken by what surrounds the expression)
MAX_LOOP_NESTING = 8  # loops (quantifiers, comprehensions, `... by`) and built-in calls, one inside another
MAX_BRANCH_NESTING = 32  # branches (`if`'s sides, `and`/`or`'s right side) and loops (two each)

# Python's stack while a script is checked or compiled: the checker and the code generator follow
# an expression by recursion, a few frames a level, and the generator may follow a definition's
# body where it is called (gen_defines._inline_define): room for MAX_NESTING twice over.
STACK_ROOM = 12_000


@contextlib.contextmanager
def stack_room():
    """Python's recursion limit at least STACK_ROOM while the block runs (Python's own default,
    1,000, is reached by a sum of 150 terms calling a definition of 150 levels)."""
    before = sys.getrecursionlimit()
    if before < STACK_ROOM:
        sys.setrecursionlimit(STACK_ROOM)
    try:
        yield
    finally:
        if before < STACK_ROOM:
            sys.setrecursionlimit(before)


# ---- running a game: fixed
MAX_CALL_DEPTH = 200  # nested procedure calls and event signals
MAX_DEFINE_DEPTH = 200  # nested calls of recursive definitions (each also costs work)
MAX_LIST_LENGTH = 100_000  # elements in one list value
MAX_TEXT_LENGTH = 10_000  # characters in one text value
MAX_INT = 2 ** 62  # magnitude of any number
MAX_MOVES_PER_DECISION = 10_000  # options one decision may offer
MAX_DECISIONS = 100_000  # decisions in one game before `play`/`simulate` give up on it
MAX_HISTORY_TEXT = 1_000  # characters of one move's text in a saved state

# ---- the work budget: defaults a game may raise (`limit ...`) and a user may set (--max-work),
# never beyond the hard caps.  One unit is about one simple operation: a statement costs
# STEP_COST, a list item visited, a card moved or shuffled, a character rendered costs 1.
# About 3 million units run in a second here; the shipped games use at most ~2,300 units in
# one move and ~710,000 in a whole game (docs/language.md §22).
MAX_WORK_PER_MOVE = 1_000_000  # everything one move does, up to the next decision (~0.3 s)
HARD_MAX_WORK_PER_MOVE = 50_000_000
MAX_WORK_PER_GAME = 5_000_000  # everything one game does, from set-up to its end (~1.5 s)
HARD_MAX_WORK_PER_GAME = 2_000_000_000
STEP_COST = 5  # one statement run; so a move runs at most 200,000 statements by default
BUDGET_CAPS = {"work_per_move": HARD_MAX_WORK_PER_MOVE, "work_per_game": HARD_MAX_WORK_PER_GAME}

# ---- simulate: fixed
MAX_GAMES = 10_000_000  # games one `simulate` plays
