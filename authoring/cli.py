"""The authoring commands of `cardgame`: fmt, lsp, rules and graph.

repl/cli.py registers them with `add_parsers` and `COMMANDS`; each returns an exit code (0 done,
1 a problem with the input or, for `fmt --check`, a file that needs formatting).
"""

from __future__ import annotations

import difflib
import os
import sys

from cardgame.interpreter import limits
from cardgame.interpreter.language.loader import refusal
from cardgame.interpreter.language.reading import FileRefused, read_text
from cardgame.interpreter.language.source import SourceFile, render
from cardgame.repl.option_pairs import option_pairs_or_exit


def add_parsers(sub) -> None:
    fmt = sub.add_parser("fmt", help="format scripts in the canonical layout (comments kept)")
    fmt.add_argument("files", nargs="+", metavar="FILE", help="scripts, or folders searched for *.cardgame")
    fmt.add_argument("--check", action="store_true", help="change nothing; fail if a file would change")
    fmt.add_argument("--diff", action="store_true", help="change nothing; print what would change")
    sub.add_parser("lsp", help="run the language server for editors (LSP on standard input and output)")
    rules = sub.add_parser("rules", help="write the rulebook of a script, for players")
    rules.add_argument("file", metavar="FILE")
    rules.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="describe the game with this option set (the variants table lists them all)")
    rules.add_argument("--format", choices=("md", "html"), default="md")
    graph = sub.add_parser("graph", help="draw the state machine: phases, decisions, events and reactions")
    graph.add_argument("file", metavar="FILE")
    graph.add_argument("--format", choices=("dot", "mermaid", "svg"), default="dot")


def script_files(paths: list[str]) -> list[tuple[str, str | None]]:
    """The files named, with each folder replaced by the *.cardgame files under it, sorted; each
    with the folder it was found in (None for a file named), which a link in it may not leave."""
    out = []
    for path in paths:
        if os.path.isdir(path):
            for folder, dirs, files in os.walk(path):
                dirs.sort()
                out += [(os.path.join(folder, f), path) for f in sorted(files) if f.endswith(".cardgame")]
        else:
            out.append((path, None))
    return out


def _read(path: str, folder: str | None) -> str | None:
    """The script's text with its line ends as `\n`, read as `check` reads one (a regular file
    within the length limit: `/dev/zero` or a FIFO would never end), or None with its diagnostic
    printed."""
    try:
        return read_text(path, limits.MAX_SCRIPT_BYTES, folder).replace("\r\n", "\n").replace("\r", "\n")
    except FileRefused as err:
        print(render(refusal(err, path), {}), file=sys.stderr)
        return None


def cmd_fmt(args) -> int:
    from .fmt import format_source
    status, changed, same = 0, 0, 0
    for path, folder in script_files(args.files):
        text = _read(path, folder)
        if text is None:
            status = 1
            continue
        out, diags = format_source(text, path)
        if out is None:
            print("\n\n".join(render(d, {path: SourceFile(path, text)}) for d in diags), file=sys.stderr)
            status = 1
            continue
        if out == text:
            same += 1
            continue
        changed += 1
        if args.diff:
            sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), out.splitlines(True),
                                                       f"{path} (now)", f"{path} (formatted)"))
        if args.check:
            print(f"would reformat {path}", file=sys.stderr)
            status = 1
        elif not args.diff:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(out)
            print(f"reformatted {path}", file=sys.stderr)
    verb = "would be reformatted" if args.check or args.diff else "reformatted"
    print(f"{changed} file(s) {verb}, {same} already formatted", file=sys.stderr)
    return status


def cmd_lsp(args) -> int:
    from .lsp import serve
    serve()
    return 0


def cmd_rules(args) -> int:
    from .rulebook import rulebook
    print(rulebook(args.file, option_pairs_or_exit(args.option), args.format), end="")
    return 0



def cmd_graph(args) -> int:
    from .graph import GraphvizMissing, graph
    try:
        print(graph(args.file, args.format), end="")
    except GraphvizMissing:
        print("error[E0950]: drawing SVG needs Graphviz's `dot`, which is not installed\n"
              "  = help: install Graphviz (`apt-get install graphviz`), or use `--format dot` or `--format mermaid`",
              file=sys.stderr)
        return 1
    return 0


COMMANDS = {"fmt": cmd_fmt, "lsp": cmd_lsp, "rules": cmd_rules, "graph": cmd_graph}
