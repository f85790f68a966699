"""Imports inside interpreter/ run one way, from the source text up to the front ends, and no
module reaches into another's private names: each layer offers a public seam to the next."""

from __future__ import annotations

import ast

from helpers import ROOT

# Lower layers first; a module may import only from its own layer or lower ones.
LAYERS = [
    {"limits", "source", "types", "rng", "reading", "stats", "choosing", "teams", "shared_log"},
    {"nodes", "syntax_errors", "concrete"},
    {"parser", "syntax_cache", "code_cache", "builtins", "orders", "patterns", "replacing"},  # code_cache: generated functions kept between runs; replacing: a variant's `replace`s
    {"checker"},
    {"loader"},
    {"runtime", "program"},  # the state the compiled code runs on, and the compiled records
    {"enumeration"},
    {"flow", "slot_locals", "text_passes"},  # passes over generated lines: merged step charges, slots read from locals, ...
    {"work_locals", "unseen_pcs", "frame_locals"},  # the work counter in locals; program counter writes nothing reads; a playout's frame in locals
    {"memo_reads", "never_none"},  # what the definitions kept in State.memo read; what is never none
    {"gen_common", "gen_runtime"},  # what the generator's parts share; what generated code calls while it runs
    {"gen_exprs", "gen_stmts", "gen_defines", "gen_listings", "gen_assembly"},  # the parts of codegen.Gen
    {"codegen", "compiler"},
    {"verdicts"},  # reading traced evaluations, for explanations
    {"moves", "agents", "playout", "measures"},
    {"engine", "saving", "views", "knowledge"},  # saving, views and what each seat knows: the engine's, split out by job
    {"playtest", "summary", "parallel", "dist", "simulate", "lint", "compare"},  # playing many games
    {"__init__"},
]
LEVEL = {name: i for i, layer in enumerate(LAYERS) for name in layer}


def _imports(path):
    """(module imported from interpreter, names imported) for each import in the file."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module is None:
                for alias in node.names:
                    yield alias.name, ()
            else:
                yield node.module.split(".")[0], tuple(a.name for a in node.names)


def test_every_interpreter_module_has_a_layer():
    modules = {p.stem for p in (ROOT / "interpreter").glob("*.py")}
    assert modules == set(LEVEL), "add new modules to LAYERS"


def test_imports_go_down_the_layers_only():
    wrong = []
    for path in sorted((ROOT / "interpreter").glob("*.py")):
        here = LEVEL[path.stem]
        for module, _ in _imports(path):
            if LEVEL[module] > here:
                wrong.append(f"{path.stem} imports {module}")
    assert wrong == []


def test_no_module_imports_another_modules_private_names():
    wrong = []
    for path in sorted((ROOT / "interpreter").glob("*.py")):
        for module, names in _imports(path):
            wrong += [f"{path.stem} imports {module}.{name}" for name in names if name.startswith("_")]
    assert wrong == []
