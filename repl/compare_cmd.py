"""`cardgame compare FILE --option a=1 --option a=2` (or `compare A B`): two variants on the same
seeds, every figure side by side with its difference, its 95% interval and whether it is
significant (docs/simulate.md#compare)."""

from __future__ import annotations

import json

import attrs

from cardgame import interpreter
from cardgame.interpreter import Diagnostic, ScriptError

from .arguments import SEED_HELP, add_format, usage_error
from .colour import add_color_arg
from .results import plural
from .runs import add_run_args, agents_of, dask_client, p_text, progress_bar, workers_here
from .stdin_script import STDIN, once, script_source


def register(sub, helpers) -> None:
    p = sub.add_parser("compare", help="play two variants on the same seeds and compare every figure",
                       description="Play two variants on the same seeds and compare every figure side by side: "
                                   "its difference, 95% interval and whether it is significant, alone and "
                                   "taken together (docs/simulate.md#compare). The variants are one script "
                                   "with an option named twice (`--option a=1 --option a=2`), or two scripts.")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="one script (two option sets) or two scripts (`-`: one read from standard input)")
    p.add_argument("--players", type=helpers.positive, action="append", default=None, metavar="N",
                   help="named once: the player count of both sides (default: the fewest the first script "
                        "allows); named twice: A's count, then B's")
    p.add_argument("--seed", type=helpers.seed, default=0, metavar="S", help=SEED_HELP)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="named once: both sides (of two scripts, only the one declaring it when the other does "
                        "not); named twice: the first value for A, the second for B")
    add_run_args(p, helpers.positive, "how many games each side plays (default 200)",
                 interpreter.limits.MAX_DECISIONS)
    add_format(p, "one JSON object: {a, b, games, players, players_b, rows, notes, balance, loser_balance, "
                  "drawn_with_one_loser, same_moves} (docs/simulate.md#compare)", "a table of the figures")
    add_color_arg(p)
    p.set_defaults(handler=lambda args: run(args, helpers))


def split_options(pairs: list[str], helpers) -> tuple[dict, dict, set]:
    """(options of A, options of B, the names given twice) from the `--option` list (see
    register)."""
    a, b, seen = {}, {}, {}
    for pair in pairs:
        (name, value), = helpers.options([pair]).items()
        seen[name] = seen.get(name, 0) + 1
        if seen[name] == 1:
            a[name] = b[name] = value
        elif seen[name] == 2:
            b[name] = value
        else:
            _usage(f"`--option {name}=...` is given more than twice; give it once for both sides "
                   "or twice (A, then B)")
    return a, b, {name for name, times in seen.items() if times == 2}


def own_options(game_a, game_b, raw_a: dict, raw_b: dict, twice: set) -> tuple[dict, dict]:
    """Two scripts: an option named once that only one of them declares is that script's alone
    (a variant's new option against the original); one neither declares is refused, naming both."""
    declared_a, declared_b = game_a.program.tables.options, game_b.program.tables.options
    a, b = dict(raw_a), dict(raw_b)
    for name in raw_a:
        if name in declared_a and name in declared_b:
            continue
        if name not in declared_a and name not in declared_b:
            known = sorted(set(declared_a) | set(declared_b))
            raise ScriptError([Diagnostic(
                "E0701", f"unknown option `{name}`: neither {game_a.path} nor {game_b.path} declares it", None,
                hint=f"known: {', '.join(known)}" if known else "neither script declares an option")])
        owner = game_a if name in declared_a else game_b
        if name in twice:
            _usage(f"`--option {name}` is given twice (for A, then B), but only {owner.path} declares it; "
                   f"give it once: it is then set for {owner.path} alone")
        (b if owner is game_a else a).pop(name)
    return a, b


def naming_the_script(path: str, read):
    """`read()`, with the script named in any error it raises (two scripts: which one?)."""
    try:
        return read()
    except ScriptError as err:
        raise ScriptError([attrs.evolve(d, message=f"{d.message} (in {path})") for d in err.diagnostics],
                          err.sources) from None


def _usage(message: str):
    usage_error("compare", message)


def run(args, helpers) -> int:
    if len(args.files) > 2:
        _usage("compare takes one script (and two option sets) or two scripts")
    if args.players is not None and len(args.players) > 2:
        _usage("`--players` is given more than twice; give it once for both sides or twice (A, then B)")
    if (repeated := once(args.files)) is not None:
        _usage(repeated)
    raw_a, raw_b, twice = split_options(args.option, helpers)
    workers = workers_here(args, "compare", STDIN in args.files)
    game_a = interpreter.load(*script_source(args.files[0]))
    game_b = interpreter.load(*script_source(args.files[-1])) if len(args.files) == 2 else game_a
    players = args.players[0] if args.players is not None else game_a.min_players
    players_b = args.players[-1] if args.players is not None else players
    if len(args.files) == 1 and raw_a == raw_b and players == players_b:
        _usage("nothing to compare: name an option twice (`--option a=1 --option a=2`), `--players` twice, or give "
               "two scripts")
    two_scripts = len(args.files) == 2
    if two_scripts:
        raw_a, raw_b = own_options(game_a, game_b, raw_a, raw_b, twice)
    sides = []
    for game, raw, count in ((game_a, raw_a, players), (game_b, raw_b, players_b)):
        def read(game=game, raw=raw, count=count):
            options = game.read_options(raw)
            game.new_game(players=count, seed=args.seed, options=options)  # validates before any worker starts
            return options
        sides.append(naming_the_script(game.path, read) if two_scripts else read())
    options_a, options_b = sides
    games = args.games or 200
    extra = {"max_decisions": args.max_decisions} if args.max_decisions else {}
    agents = agents_of(args, players)
    if agents is not None:
        extra["agents"] = agents
    with dask_client(args) as client, progress_bar(2 * games, "compare", args) as progress:
        result = interpreter.compare(game_a, options_a, game_b, options_b, games, players, args.seed, args.policy,
                                     workers=workers, dask=client, progress=progress, players_b=players_b,
                                     backend=args.backend, **extra)
    if args.format == "json":
        print(json.dumps(result))
        return 0
    print(f"A: {_side(result['a'])}\nB: {_side(result['b'])}")
    seats = plural(players, 'player') if players == players_b else f"{players} players (A) and {players_b} (B)"
    played = f"agents {', '.join(result['agents'])}" if result.get("agents") else f"policy {args.policy}"
    print(f"{plural(games, 'game')} each, the same seeds (from {args.seed}), {seats}, {played}")
    print(f"{'figure':<28} {'A':>10} {'B':>10} {'B - A':>10}  95% interval           significant")
    for row in result["rows"]:
        if row["test"] == "absent":
            a = "absent" if row["absent"] == "a" else _num(row["a"])
            b = "absent" if row["absent"] == "b" else _num(row["b"])
            print(f"{row['figure']:<28} {a:>10} {b:>10} {'':>10}  {'':<22} n/a (only {'B' if row['absent'] == 'a' else 'A'} has it)")
            continue
        ci = "n/a" if row["ci95"] is None else f"[{row['ci95'][0]:.4g}, {row['ci95'][1]:.4g}]"
        print(f"{row['figure']:<28} {_num(row['a']):>10} {_num(row['b']):>10} {_num(row['difference']):>10}  "
              f"{ci:<22} {'YES' if row['significant'] else 'no'}{'' if row['test'] == 'paired' else ' (unpaired)'}")
    print("\n".join(chance_note(result["rows"])))
    for note in result["notes"]:
        print(note)
    same = result["same_moves"]
    if same == games:
        print(f"The two sides made the same moves in all {plural(games, 'game')}: the change never changed what "
              "a random player could do or chose (it may still matter to players who choose by what they know).")
    elif same:
        print(f"The two sides made the same moves in {same} of {plural(games, 'game')}.")
    balance = result["balance"]
    print(f"{'team' if balance['a']['teams'] else 'seat'} balance (do they win equal shares of the won games?): "
          f"A {_balance(balance['a'])}; B {_balance(balance['b'])}")
    if result["drawn_with_one_loser"]:  # games nobody won alone: who lost them is the test that tells
        losers = result["loser_balance"]
        print(f"{'team' if losers['a']['teams'] else 'seat'} loser balance (do they lose equal shares of the "
              f"games with one loser?): A {_balance(losers['a'], 'no game had one loser')}; "
              f"B {_balance(losers['b'], 'no game had one loser')}")
    return 0


def _balance(entry, none: str = "no game was won") -> str:
    if entry["p_value"] is None:
        return f"n/a ({none})"
    return f"chi-square {entry['chi2']:.2f} ({entry['df']} df), p = {p_text(entry['p_value'])}"


def chance_note(rows) -> list[str]:
    """What the YES column means taken together: at 95%, about one figure in 20 that the change
    does not touch still looks significant, so the figures that stay significant under Holm's
    correction for all the figures tested are named apart from the others."""
    tested = [row for row in rows if row["p"] is not None]
    alone = [row["figure"] for row in rows if row["significant"]]
    together = [row["figure"] for row in rows if row["significant_together"]]
    if not tested:
        return ["no figure differs: each had the same value on both sides in every game"]
    if not alone:
        return [f"no figure differs significantly ({plural(len(tested), 'figure')} tested)"]
    one = len(alone) == 1
    if len(together) == len(alone):
        kept = "it still does." if one else f"all {len(alone)} still do."
    elif not together:
        kept = "none still does."
    else:
        kept = f"{len(together)} still {'does' if len(together) == 1 else 'do'}: {', '.join(together)}."
    lines = [f"{len(alone)} of {plural(len(tested), 'figure')} tested {'differs' if one else 'differ'} significantly, "
             f"each on its own; taken together (Holm's correction for {len(tested)}), {kept}"]
    chance = [figure for figure in alone if figure not in together]
    if chance:
        lines.append(f"The others ({', '.join(chance)}) may be chance: at 95%, about one figure in 20 that "
                     "a change does not affect still looks significant.")
    return lines


def _side(side) -> str:
    shown = ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in side["options"].items())
    return side["file"] + (f" with {shown}" if shown else "")


def _num(x) -> str:
    return "n/a" if x is None else f"{x:.4g}"
