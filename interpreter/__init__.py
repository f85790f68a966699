"""cardgame: a declarative card-game language, its checker and its state-machine interpreter.

The public API is what this module exports; the REPL and the command line use nothing else.
"""

from .agents import POLICIES, RandomAgent
from .compare import compare
from .dist import connect as connect_dask
from .engine import (EXPRESSION_PATH, PAUSES, TABLE, CardInfo, DeclInfo, Game, GameFault, GameState, IllegalMove, OptionInfo,
                     RuleInfo, TraceEvent, load)
from .lint import LINT_MAX_DECISIONS, LintReport, lint, setups as lint_setups
from .loader import check_file
from .moves import Expansion, Explanation, Move, RuleResult
from . import limits
from .parser import parse_expression
from .playtest import METRICS
from .reading import FileRefused, inside, read_text
from .simulate import TIMING_FIELDS, simulate, usable_workers
from .source import Diagnostic, ScriptError, SourceFile, Span, printable, render

__all__ = [
    "EXPRESSION_PATH", "PAUSES", "TABLE", "CardInfo", "DeclInfo", "Diagnostic", "Expansion", "Explanation", "FileRefused", "Game",
    "GameFault", "GameState",
    "IllegalMove", "Move", "OptionInfo", "RandomAgent", "RuleInfo", "RuleResult", "ScriptError", "SourceFile", "Span", "TraceEvent",
    "check_file", "inside", "limits", "load", "parse_expression", "printable", "read_text", "render", "simulate", "usable_workers",
    "POLICIES", "LINT_MAX_DECISIONS", "LintReport", "TIMING_FIELDS", "compare", "connect_dask", "lint", "lint_setups",
    "METRICS",
]
