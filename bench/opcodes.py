"""`python -m bench.opcodes`: Python bytecode instructions per decision, per benchmark row.

Timings on a shared machine vary by tens of percent from run to run; the number of bytecode
instructions the interpreter executes for the same games does not.  This counts them exactly
(`sys.settrace` opcode events) over the first games of each row of `bench/configs.py`, for the
engine's playouts (what `simulate` runs) and for the tuned baseline where the row has one, and
lists the functions that execute most of them.  `--api` counts the public loop instead
(`legal_moves()`, the agent's choice, `apply()`: bench/harness.py's `_api_game`), the same games.  It is a measurement, not a target: an
instruction is not a fixed cost (a call or an allocation costs more than a load), so a change
is judged by its timings too, but this is the figure that says which change removed what.

    python -m bench.opcodes                   # every row, 20 games each
    python -m bench.opcodes --only bohei -n 5 --top 15
    python -m bench.opcodes --api -n 10       # the public API's loop instead of the playouts
    python -m bench.opcodes --kinds -n 10     # and what the instructions serve (budgets, visibility, ...)
"""

from __future__ import annotations

import argparse
import collections
import json
import sys

from . import opcode_kinds
from .configs import CONFIGS
from .harness import ROOT, _api_game, _baseline_player, available


def _counting(counts: collections.Counter):
    """A trace function that adds every opcode event to counts[(file, function, line)]."""
    def on_call(frame, event, arg):
        frame.f_trace_opcodes = True
        code = frame.f_code

        def on_opcode(frame, event, arg):
            if event == "opcode":
                counts[code.co_filename, code.co_name, frame.f_lineno] += 1
            return on_opcode
        return on_opcode
    return on_call


def _by_function(counts: collections.Counter) -> collections.Counter:
    functions: collections.Counter = collections.Counter()
    for (_, name, _), n in counts.items():
        functions[name] += n
    return functions


def _count(fn) -> tuple[collections.Counter, object]:
    counts: collections.Counter = collections.Counter()
    sys.settrace(_counting(counts))
    try:
        result = fn()
    finally:
        sys.settrace(None)
    return counts, result


def measure(cfg, games: int, seed: int = 1, api: bool = False) -> dict:
    """Opcodes per decision of the engine's playouts, or with `api` of its public loop (and of
    the tuned baseline) on `games` games."""
    from cardgame import interpreter
    from cardgame.interpreter.language.rng import derive
    from cardgame.interpreter.studies.simulate import play_one

    game = interpreter.load(str(ROOT / cfg.script))
    game.program.make_playout_codes()  # made as they first run, else: part of loading, not counted with the games
    players = cfg.players if cfg.players is not None else game.min_players
    options = game.read_options(dict(cfg.options))

    def playouts():
        return sum(play_one(game, players, derive(seed, i), options)[0].decisions for i in range(games))

    def api_games():
        return sum(_api_game(interpreter, game, players, derive(seed, i), options).decisions for i in range(games))

    counts, decisions = _count(api_games if api else playouts)
    per = 1 / max(decisions, 1)
    generated = opcode_kinds.generated_lines(game.program.compiler.gen.sources)
    row = {"config": cfg.name, "games": games, "decisions": decisions,
           "engine": sum(counts.values()) * per,
           "functions": [(name, n * per) for name, n in _by_function(counts).most_common()],
           "kinds": {kind: n * per for kind, n in opcode_kinds.by_kind(counts, generated).items()}}
    if cfg.tuned is not None:
        play = _baseline_player(cfg, cfg.tuned)
        tuned, tuned_decisions = _count(lambda: sum(play(seed * 1_000_003 + i)[1] for i in range(games)))
        row["tuned"] = sum(tuned.values()) / max(tuned_decisions, 1)
        row["tuned_without_model"] = row["tuned"] / (row["engine"] - sum(
            row["kinds"].get(kind, 0) for kind in opcode_kinds.MODEL))
    return row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.opcodes", description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=20, help="games per row (default 20)")
    parser.add_argument("--only", default=None, help="only rows whose name contains this text")
    parser.add_argument("--top", type=int, default=0, help="also list the N functions executing most")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument("--api", action="store_true", help="count the public API's loop, not the playouts")
    parser.add_argument("--kinds", action="store_true",
                        help="also split each row by what the instructions serve (bench/opcode_kinds.py)")
    args = parser.parse_args(argv)
    rows = []
    for cfg in CONFIGS:
        if (args.only and args.only not in cfg.name) or not available(cfg)[0]:
            continue
        row = measure(cfg, args.n, api=args.api)
        rows.append(row)
        if not args.json:
            side = "api   " if args.api else "engine"
            tuned = f"{row['tuned']:8.1f}" if "tuned" in row else "       -"
            ratio = f"{row['tuned'] / row['engine']:6.3f}x" if "tuned" in row else "      -"
            print(f"{cfg.name:<24} {side} {row['engine']:8.1f}  tuned {tuned}  tuned/{side.strip()} {ratio}"
                  f"  ({row['decisions']} decisions)", flush=True)
            for name, per in row["functions"][:args.top]:
                print(f"    {per:8.1f}  {name}")
            if args.kinds:
                for kind, per in row["kinds"].items():
                    print(f"    {per:8.1f}  {100 * per / row['engine']:5.1f}%  {kind}")
                if "tuned_without_model" in row:
                    print(f"    tuned/{side.strip()} without {', '.join(opcode_kinds.MODEL)}: "
                          f"{row['tuned_without_model']:.3f}x")
    if args.json:
        print(json.dumps({"rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
