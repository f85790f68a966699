"""The house's plan, checked: the interpreter is five stages that data flows through, each
importing only from itself and the stages below it; no module imports itself again through
others (no import circle, in the interpreter, the REPL or the authoring tools); no module reaches
into another's private names; the project is imported, and installed, as the one `cardgame`
namespace; no module grows into a room nobody can hold in mind."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from helpers import ROOT

# The interpreter's stages, lowest first (docs/internals.md draws them).
STAGES = [
    "language",  # text -> checked syntax tree: spans and diagnostics, parser, checker, loader
    "machine",   # the state machine as data: compiled records, the running state and its loop
    "codegen",   # checked tree -> the machine's code, fast and traced from one definition
    "engine",    # the public game API: moves and why, saving, what each seat knows, views
    "studies",   # many games: playouts, agents, simulate, lint, compare
]
# The repository's folders installed as `cardgame.<folder>` (pyproject.toml's package-dir).
INSTALLED = ("interpreter", "repl", "authoring", "grammar", "games")
MOST_LINES = 1_000  # a module past this is split by concern


def _modules() -> dict[str, Path]:
    """Dotted name -> file, for every module of the installed folders."""
    found = {}
    for folder in INSTALLED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = ("cardgame",) + path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path):
    """(dotted module imported, names imported, line) for each import of a module of the
    project, wherever it stands in the file (inside a function too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            names = tuple(a.name for a in node.names)
            if not node.module or target in MODULES and MODULES[target].name == "__init__.py":
                for alias in names:  # `from . import x`: x may be a module of the package
                    yield (f"{target}.{alias}" if f"{target}.{alias}" in MODULES else target), (), node.lineno
            else:
                yield target, names, node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, (), node.lineno


def _stage(name: str) -> str | None:
    parts = name.split(".")
    return parts[2] if len(parts) > 3 and parts[1] == "interpreter" else None


def test_every_interpreter_module_lives_in_a_stage_that_says_its_job():
    loose = [name for name in MODULES if name.startswith("cardgame.interpreter.") and _stage(name) is None
             and name.split(".")[2] not in STAGES]
    assert loose == [], "put each module in the stage it belongs to (STAGES)"
    for stage in STAGES:
        doc = ast.get_docstring(ast.parse((ROOT / "interpreter" / stage / "__init__.py").read_text()))
        assert doc and len(doc) > 80, f"interpreter/{stage}/__init__.py: say what the stage does"


def test_imports_go_down_the_stages_only():
    wrong = []
    for name, path in MODULES.items():
        here = _stage(name)
        if here is None:
            continue
        for target, _, line in _imports(name, path):
            there = _stage(target)
            if there is not None and STAGES.index(there) > STAGES.index(here):
                wrong.append(f"{path.relative_to(ROOT)}:{line} ({here}) imports {target} ({there})")
    assert wrong == []


def test_no_import_circle():
    graph = {name: sorted({t for t, _, _ in _imports(name, path) if t in MODULES and t != name})
             for name, path in MODULES.items()}
    circles = [sorted(c) for c in _strongly_connected(graph) if len(c) > 1]
    assert circles == []


def test_no_module_imports_another_modules_private_names():
    wrong = []
    for name, path in MODULES.items():
        for target, names, line in _imports(name, path):
            if target.startswith("cardgame."):
                wrong += [f"{path.relative_to(ROOT)}:{line} imports {target}.{n}" for n in names if n.startswith("_")]
    assert wrong == []


def test_the_project_is_imported_only_as_the_cardgame_namespace():
    """A bare `import interpreter` would find the repository's folder from its root and load
    a second copy of every module (two GameState classes); installed, it finds nothing."""
    wrong = []
    for path in sorted(ROOT.rglob("*.py")):
        if any(part.startswith(".") or part == "build" for part in path.relative_to(ROOT).parts):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            tops = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                    [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            wrong += [f"{path.relative_to(ROOT)}:{node.lineno} imports {top}" for top in tops
                      if top.split(".")[0] in INSTALLED]
    assert wrong == []


def test_the_install_the_suite_runs_on_is_the_one_namespace(tmp_path):
    """.ci/installed.py, run from outside the repository; .ci/run runs it on a normal install too."""
    done = subprocess.run([sys.executable, str(ROOT / ".ci" / "installed.py")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "ok: cardgame from" in done.stderr


def test_no_module_is_a_room_nobody_can_hold_in_mind():
    long = {f"{path.relative_to(ROOT)}: {n} lines" for path in MODULES.values()
            if (n := len(path.read_text().splitlines())) > MOST_LINES}
    assert long == set(), f"split a module by concern before it passes {MOST_LINES} lines"


def _strongly_connected(graph: dict) -> list[list[str]]:
    """Tarjan's algorithm, iteratively: the strongly connected components of `graph`."""
    index, low, on_stack, stack, components = {}, {}, set(), [], []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(graph[nxt])))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    components.append(component)
    return components
