"""cardgame.interpreter: a declarative card-game language, its checker and its state-machine
interpreter, in five stages that data flows through (docs/internals.md draws them):

    language/  text -> checked syntax tree (parser, checker, loader, spans and diagnostics)
    machine/   the state machine as data: compiled records, the running state, its loop
    codegen/   checked tree -> the machine's code (fast and traced, from one definition)
    engine/    the public game API: moves, why, saving, and what each seat knows
    studies/   many games: playouts, agents, simulate, lint, compare

The public API is what this module exports; the REPL and the command line use nothing else.

Each name is imported on first use (PEP 562): `cardgame check` needs the parser and the checker,
not the engine, simulate, lint or dask, and importing them all cost more than the check itself.
"""

import importlib

# exported name -> (module inside this package, name in that module; None: the module itself)
_EXPORTS = {
    "POLICIES": ("studies.agents", "POLICIES"), "RandomAgent": ("studies.agents", "RandomAgent"),
    "compare": ("studies.compare", "compare"),
    "connect_dask": ("studies.dist", "connect"),
    **{name: ("engine.game", name) for name in ("EXPRESSION_PATH", "PAUSES", "TABLE", "CardInfo", "DeclInfo",
                                                "Game", "GameFault", "GameState", "IllegalMove", "ONCE_KINDS",
                                                "OptionInfo", "RuleInfo", "TraceEvent", "load")},
    "LINT_MAX_DECISIONS": ("studies.lint", "LINT_MAX_DECISIONS"), "LintReport": ("studies.lint", "LintReport"),
    "lint": ("studies.lint", "lint"), "lint_setups": ("studies.lint", "setups"),
    "check_file": ("language.loader", "check_file"),
    **{name: ("engine.moves", name) for name in ("Expansion", "Explanation", "Move", "RuleResult")},
    **{name: ("engine.outcomes", name) for name in ("Decided", "Outcome")},
    "HIDDEN": ("engine.knowledge", "HIDDEN"),
    **{name: ("engine.seat_view", name) for name in ("SeatMove", "SeatView")},
    **{name: ("engine.observations", name) for name in ("InformationState", "ZoneKnowledge")},
    "limits": ("language.limits", None), "SEEDS": ("language.rng", "SEEDS"),
    "MEASURE_REPLAY": ("studies.measures", "MEASURE_REPLAY"), "in_measure": ("studies.measures", "in_measure"),
    "parse_expression": ("language.parser", "parse_expression"),
    "METRICS": ("studies.stats", "METRICS"),
    **{name: ("language.seating", name) for name in ("seat_from_text", "seat_label", "seat_list")},
    **{name: ("language.reading", name) for name in ("FileRefused", "inside", "read_text")},
    **{name: ("studies.simulate", name) for name in ("BACKEND_FIELDS", "TIMING_FIELDS", "simulate",
                                                     "usable_workers")},
    "BACKENDS": ("studies.backends", "BACKENDS"),
    "Rollout": ("studies.rollouts", "Rollout"), "rollouts": ("studies.rollouts", "rollouts"),
    **{name: ("studies.players", name) for name in ("AGENT_NAMES", "AgentSpec", "GreedyPlayer",
                                                    "RandomPlayer", "make_agent", "parse_agent", "parse_agents")},
    "IsmctsPlayer": ("studies.ismcts", "IsmctsPlayer"), "Encoder": ("studies.encodings", "Encoder"),
    "pettingzoo_env": ("studies.environments", "pettingzoo_env"), "openspiel_game": ("studies.openspiel", "openspiel_game"), "Choice": ("studies.judging", "Choice"),
    **{name: ("language.source", name) for name in ("Diagnostic", "ScriptError", "SourceFile", "Span", "printable",
                                                    "render")},
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    module, attr = _EXPORTS.get(name, (name, None))  # else a stage of the package, as `interpreter.engine`
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
