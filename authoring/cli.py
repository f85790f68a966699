"""The authoring commands of `cardgame`: fmt, lsp, rules and graph.

repl/cli.py registers them with `add_parsers` and `COMMANDS`; each returns an exit code (0 done,
1 a problem with the input or, for `fmt --check` and `--diff`, a file that needs formatting).
"""

from __future__ import annotations

import difflib
import os
import sys

from cardgame.interpreter import limits
from cardgame.interpreter.language.loader import refusal
from cardgame.interpreter.language.reading import FileRefused, read_text
from cardgame.interpreter.language.source import ScriptError, SourceFile, render
from cardgame.repl.arguments import FILE_HELP, usage_error
from cardgame.repl.colour import add_color_arg
from cardgame.repl.option_pairs import option_pairs_or_exit
from cardgame.repl.stdin_script import NAME, STDIN, once, read_stdin, script_source


def add_parsers(sub) -> None:
    fmt = sub.add_parser("fmt", help="format scripts in the canonical layout (comments kept)",
                         description="Put scripts in the one canonical layout, comments kept, rewriting each "
                                     "file that changes (docs/editors.md). Exit status 1 when a script cannot "
                                     "be read or parsed, and with --check or --diff when a file would change.")
    fmt.add_argument("files", nargs="+", metavar="FILE",
                     help="scripts, or folders searched for *.cardgame (`-`: read one from standard input and "
                          "write it formatted to standard output)")
    fmt.add_argument("--check", action="store_true", help="change nothing; name each file that would change, "
                                                          "and exit 1 if one would")
    fmt.add_argument("--diff", action="store_true", help="change nothing; print what would change as a unified "
                                                         "diff, and exit 1 if a file would change")
    add_color_arg(fmt)
    sub.add_parser("lsp", help="run the language server for editors (LSP on standard input and output)",
                   description="Run the language server for editors: the Language Server Protocol on standard "
                               "input and output, with diagnostics as you type, hover, go to definition, "
                               "references, completion, document symbols and formatting (docs/editors.md). "
                               "An editor starts it; it takes no arguments.")
    rules = sub.add_parser("rules", help="write the rulebook of a script, for players",
                           description="Write the rulebook of a script, for players who never saw the script: "
                                       "the variants, the cards, the flow of play with every decision and the "
                                       "rules that limit it in the designer's words, winning and the terms it "
                                       "uses (docs/editors.md). --detailed reads every step as the script "
                                       "writes it, for designers.")
    rules.add_argument("file", metavar="FILE", help=FILE_HELP)
    rules.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="describe the game with this option set (the variants table lists them all)")
    rules.add_argument("--format", choices=("md", "html"), default="md",
                       help="md (the default): Markdown; html: one HTML page")
    rules.add_argument("--detailed", action="store_true",
                       help="the designer's reference: the script's notes, every step, announcement, rule "
                            "condition and definition in words")
    add_color_arg(rules)
    graph = sub.add_parser("graph", help="draw the state machine: phases, decisions, events and reactions",
                           description="Draw the state machine of a script: its phases, procedures, events, "
                                       "reactions and decisions, and the edges between them labelled with the "
                                       "conditions on the way (docs/editors.md).")
    graph.add_argument("file", metavar="FILE", help=FILE_HELP)
    graph.add_argument("--format", choices=("dot", "mermaid", "svg", "json"), default="dot",
                       help="dot (the default): Graphviz's DOT text; mermaid: a Mermaid flowchart; svg: drawn by "
                            "Graphviz's `dot`; json: {title, nodes, edges} (docs/cli.md#graph---format-json)")
    add_color_arg(graph)


def script_files(paths: list[str]) -> list[tuple[str, str | None]]:
    """The files named, with each folder replaced by the *.cardgame files under it, sorted; each
    with the folder it was found in (None for a file named), which a link in it may not leave."""
    out = []
    for path in paths:
        if path != STDIN and os.path.isdir(path):
            for folder, dirs, files in os.walk(path):
                dirs.sort()
                out += [(os.path.join(folder, f), path) for f in sorted(files) if f.endswith(".cardgame")]
        else:
            out.append((path, None))
    return out


def _read(path: str, folder: str | None) -> str | None:
    """The script's text with its line ends as `\n`, read as `check` reads one (a regular file
    within the length limit: `/dev/zero` or a FIFO would never end; `-`, standard input), or
    None with its diagnostic printed."""
    if path == STDIN:
        try:
            return read_stdin()
        except ScriptError as err:
            print(err.render(), file=sys.stderr)
            return None
    try:
        return read_text(path, limits.MAX_SCRIPT_BYTES, folder).replace("\r\n", "\n").replace("\r", "\n")
    except FileRefused as err:
        print(render(refusal(err, path), {}), file=sys.stderr)
        return None


def cmd_fmt(args) -> int:
    """Exit status 1 for a script that cannot be read or parsed, and, as black and ruff do, with
    --check or --diff for one that would change."""
    from .fmt import format_source
    if (twice := once(args.files)) is not None:
        usage_error("fmt", twice)
    status, changed, same = 0, 0, 0
    for path, folder in script_files(args.files):
        text = _read(path, folder)
        name = NAME if path == STDIN else path
        if text is None:
            status = 1
            continue
        out, diags = format_source(text, name)
        if out is None:
            print("\n\n".join(render(d, {name: SourceFile(name, text)}) for d in diags), file=sys.stderr)
            status = 1
            continue
        if path == STDIN and not (args.check or args.diff):
            sys.stdout.write(out)  # formatted or not, standard input's script goes to standard output
        if out == text:
            same += 1
            continue
        changed += 1
        if args.diff:
            sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), out.splitlines(True),
                                                       f"{name} (now)", f"{name} (formatted)"))
        if args.check or args.diff:
            if args.check:
                print(f"would reformat {name}", file=sys.stderr)
            status = 1
        elif path != STDIN:
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
    name, text = script_source(args.file)
    print(rulebook(name, option_pairs_or_exit(args.option), args.format, text, args.detailed), end="")
    return 0


def cmd_graph(args) -> int:
    from .graph import GraphvizMissing, graph
    try:
        name, text = script_source(args.file)
        print(graph(name, args.format, text), end="")
    except GraphvizMissing:
        print("error[E0950]: drawing SVG needs Graphviz's `dot`, which is not installed\n"
              "  = help: install Graphviz (`apt-get install graphviz`), or use `--format dot` or `--format mermaid`",
              file=sys.stderr)
        return 1
    return 0


COMMANDS = {"fmt": cmd_fmt, "lsp": cmd_lsp, "rules": cmd_rules, "graph": cmd_graph}
