"""cardgame: a declarative card-game language, its checker and its state-machine interpreter.

The public API is what this module exports; the REPL and the command line use nothing else.
"""

from .agents import RandomAgent
from .engine import (EXPRESSION_PATH, TABLE, DeclInfo, Game, GameFault, GameState, IllegalMove, OptionInfo,
                     RuleInfo, TraceEvent, load)
from .loader import check_file
from .moves import Explanation, Move, RuleResult
from .parser import parse_expression
from .simulate import simulate
from .source import Diagnostic, ScriptError, SourceFile, Span, render

__all__ = [
    "EXPRESSION_PATH", "TABLE", "DeclInfo", "Diagnostic", "Explanation", "Game", "GameFault", "GameState",
    "IllegalMove", "Move", "OptionInfo", "RandomAgent", "RuleInfo", "RuleResult", "ScriptError", "SourceFile", "Span", "TraceEvent",
    "check_file", "load", "parse_expression", "render", "simulate",
]
