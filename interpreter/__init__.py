"""cardgame: a declarative card-game language, its checker and its state-machine interpreter.

The public API is what this module exports; the REPL and the command line use nothing else.

Each name is imported on first use (PEP 562): `cardgame check` needs the parser and the checker,
not the engine, simulate, lint or dask, and importing them all cost more than the check itself.
"""

import importlib
import sys
import types

# exported name -> (module inside this package, name in that module; None: the module itself)
_EXPORTS = {
    "POLICIES": ("agents", "POLICIES"), "RandomAgent": ("agents", "RandomAgent"),
    "compare": ("compare", "compare"),
    "connect_dask": ("dist", "connect"),
    **{name: ("engine", name) for name in ("EXPRESSION_PATH", "PAUSES", "TABLE", "CardInfo", "DeclInfo", "Game",
                                           "GameFault", "GameState", "IllegalMove", "ONCE_KINDS", "OptionInfo", "RuleInfo",
                                           "TraceEvent", "load")},
    "LINT_MAX_DECISIONS": ("lint", "LINT_MAX_DECISIONS"), "LintReport": ("lint", "LintReport"),
    "lint": ("lint", "lint"), "lint_setups": ("lint", "setups"),
    "check_file": ("loader", "check_file"),
    **{name: ("moves", name) for name in ("Expansion", "Explanation", "Move", "RuleResult")},
    "HIDDEN": ("knowledge", "HIDDEN"),
    "limits": ("limits", None),
    "parse_expression": ("parser", "parse_expression"),
    "METRICS": ("stats", "METRICS"),
    **{name: ("reading", name) for name in ("FileRefused", "inside", "read_text")},
    **{name: ("simulate", name) for name in ("TIMING_FIELDS", "simulate", "usable_workers")},
    **{name: ("source", name) for name in ("Diagnostic", "ScriptError", "SourceFile", "Span", "printable", "render")},
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    module, attr = _EXPORTS.get(name, (name, None))  # else a module of the package, as `interpreter.dist`
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        found = importlib.import_module(f"{__name__}.{module}")
    except ModuleNotFoundError as err:
        if err.name != f"{__name__}.{module}":
            raise
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = found if attr is None else getattr(found, attr)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))


class _Package(types.ModuleType):
    """`compare`, `lint` and `simulate` are both modules of this package and the functions it
    exports: importing such a module (`from interpreter.simulate import ...`) makes Python set it
    as the package's attribute, so the function is kept there instead, as an eager import would."""

    def __setattr__(self, name, value):
        if isinstance(value, types.ModuleType) and _EXPORTS.get(name) == (name, name):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
