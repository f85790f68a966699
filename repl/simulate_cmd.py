"""`cardgame simulate`: many games between random players, every way a game ended counted apart,
faults shown with their diagnostic, every rate and mean with its 95% interval.

Exit code 1 when any game faulted (the first fault of each kind is printed), else 0.  The JSON
fields are documented in docs/simulate.md.
"""

from __future__ import annotations

import html
import json
import sys

from cardgame import interpreter

from .arguments import add_format
from .colour import add_color_arg
from .results import plural
from .runs import add_run_args, agents_of, backend_note, dask_client, mean, p_text, progress_bar, rate, workers_here
from .stdin_script import script_source


def register(sub, helpers) -> None:
    p = sub.add_parser("simulate", help="play many games between random players and print statistics",
                       description="Play many games between random players and print how they ended, each "
                                   "seat's wins, the length, design metrics and the script's measures, each "
                                   "with its 95% interval (docs/simulate.md). Exit status 1 when a game "
                                   "faulted; the first game of each fault is shown with the command that "
                                   "replays it.")
    helpers.game_args(p)
    add_run_args(p, helpers.positive, "how many games (default 100)", interpreter.limits.MAX_DECISIONS)
    p.add_argument("--metrics", choices=interpreter.METRICS, default="fast",
                   help="fast (the default): the playout loop, without lead changes, decided at and information "
                        "revealed; full: all design metrics, through the API loop (docs/simulate.md#metrics)")
    add_format(p, "the statistics as one JSON object (every field: docs/simulate.md)")
    p.add_argument("--plot", metavar="DIR", default=None, help="write PNG charts into DIR")
    p.add_argument("--report", metavar="FILE.html", default=None, help="write an HTML report with the charts")
    add_color_arg(p)
    p.set_defaults(handler=lambda args: run(args, helpers))


def run(args, helpers) -> int:
    if helpers.over_cap(args):
        return 2
    name, text = script_source(args.file)
    workers = workers_here(args, "simulate", text is not None)
    game = interpreter.load(name, text)
    options = game.read_options(helpers.options(args.option))
    players = args.players if args.players is not None else game.min_players
    game.new_game(players=players, seed=args.seed, options=options, max_work=args.max_work,
                  max_game_work=args.max_game_work)  # validates before any worker starts
    if workers < args.workers and args.dask is None and text is None:
        print(f"note: --workers {args.workers} is more than the {workers} CPU(s) here; using {workers}",
              file=sys.stderr)
    games = args.games or 100
    extra = {"max_decisions": args.max_decisions} if args.max_decisions else {}
    agents = agents_of(args, players)
    if agents is not None:
        extra["agents"] = agents
    with dask_client(args) as client, progress_bar(games, "simulate", args) as progress:
        stats = interpreter.simulate(game, games, players, args.seed, options, workers=workers,
                                     policy=args.policy, progress=progress, dask=client, max_work=args.max_work,
                                     max_game_work=args.max_game_work, metrics=args.metrics, backend=args.backend,
                                     **extra)
    backend_note(stats, args)
    unwritten = None
    if args.plot or args.report:
        from .plots import write_report, write_simulation_charts
        try:
            charts = write_simulation_charts(stats, args.plot)
            if args.report:
                write_report(args.report, f"{game.title}: {games} games", text_report(stats), charts,
                             report_replay(game, stats, players, options, args))
        except OSError as err:  # a folder that is a file, a report path in no folder, ...
            unwritten = f"error: cannot write `{err.filename or args.report or args.plot}`: {err.strerror or err}"
    if args.format == "json":
        print(json.dumps(stats))
    else:
        print("\n".join(text_report(stats)))
        for fault in stats["faults"]:
            where = fault["diagnostic"] or {}
            in_measure = interpreter.in_measure(game, where.get("path"), where.get("line"))
            print(f"\nfirst of {fault['count']} game(s) with this fault: game {fault['first_game']} "
                  f"(replay it with `cardgame play {args.file} --seed {fault['seed']}"
                  f"{' --players ' + str(players) if args.players else ''}`"
                  f"{interpreter.MEASURE_REPLAY if in_measure else ''}):")
            print(fault["rendered"])
    if unwritten is not None:
        print(unwritten, file=sys.stderr)
        return 1
    return 1 if stats["outcomes"]["faulted"] else 0


MAX_EMBEDDED = 3_000  # decisions: a longer game's page would be many megabytes; the report names its command


def report_replay(game, stats, players: int, options: dict, args) -> tuple[str, str] | None:
    """The game `--report` lets one step through, with every seat's view: the first game that
    faulted, else the longest; (heading, HTML).  None for a run of no game."""
    from .table import show_value
    from .viewer_data import Record, every_viewer, viewer_data
    from .viewer_page import viewer_fragment
    faulted = next((f for f in stats["faults"] if f["seed"] is not None), None)
    chosen = ({"game": faulted["first_game"], "seed": faulted["seed"], "why": "the first game that faulted"}
              if faulted else stats["longest"] and dict(stats["longest"], why="the longest game"))
    if not chosen:
        return None
    seed = chosen["seed"]
    heading = f"Game {chosen['game']}, {chosen['why']} (game seed {seed})"
    flags = "".join(f" --option {k}={show_value(v)}" for k, v in sorted(options.items()))
    command = (f"<code>{html.escape(f'cardgame play {args.file} --players {players} --seed {seed}{flags} --html GAME.html')}"
               "</code>" if args.policy == "uniform" else f"a game played with the policy {args.policy}")
    budget = (args.max_work, args.max_game_work)
    moves = _moves_of(game, players, seed, options, args.policy, budget, min(args.max_decisions or MAX_EMBEDDED + 1,
                                                                             MAX_EMBEDDED + 1))
    if len(moves) > MAX_EMBEDDED:
        return heading, (f"<p>It has more than {MAX_EMBEDDED:,} decisions, too many to embed here; "
                         f"{command} writes it as a page of its own.</p>")
    data = viewer_data(Record(game, players, seed, options, moves, budget=budget), every_viewer(players))
    return heading, f"<p>Step through it below; {command} writes it as a page of its own.</p>\n" + viewer_fragment(data)


def _moves_of(game, players: int, seed: int, options: dict, policy: str, budget: tuple, most: int) -> tuple:
    """The moves of the run's game with this seed, as simulate played it (playtest.play_recorded)."""
    state = game.new_game(players=players, seed=seed, options=options, max_work=budget[0], max_game_work=budget[1])
    agent = interpreter.RandomAgent.for_game(seed, policy)
    while not state.is_over and state.fault is None and state.decisions < most:
        moves = state.legal_moves()
        if not moves:
            break
        try:
            state.apply(agent.choose(moves))
        except interpreter.GameFault:
            break
    return tuple(state.history)


_NOT_MEASURED = "not measured (--metrics full)"
_NO_SCORE = "none (the script has no `score`)"


def _led(entry, full: bool, scored: bool) -> str:
    """A figure about who leads on score: measured only in full, and only with a `score`."""
    if not scored:
        return "not measured (the script has no `score`: nobody leads)"
    return mean(entry) if full else _NOT_MEASURED


def text_report(stats) -> list[str]:
    """The statistics as the lines `simulate` prints (and the HTML report shows)."""
    o = stats["outcomes"]
    shown = ", ".join(f"{k}={v}" for k, v in stats["options"].items())
    lines = [f"{stats['title']}: {plural(stats['games'], 'game')}, {plural(stats['players'], 'player')}, seed {stats['seed']}, "
             + (f"agents {', '.join(stats['agents'])}" if stats.get("agents") else f"policy {stats['policy']}")
             + (f", {shown}" if shown else ""),
             f"ended: won {o['won']}, drawn {o['drawn']}{_one_loser(stats)}, capped {o['capped']}, "
             f"faulted {o['faulted']}, stopped by the decision limit {o['limit']}",
             "seat   sole wins [95% CI]        in a draw     lost      mean score" if "teams" not in stats else
             "seat   team's wins [95% CI]      in a draw     lost      mean score (a seat wins with its team)"]
    scored = stats["scored"]
    seats = stats.get("seats") or [f"P{s}" for s in range(stats["players"])]  # named, when the script names them
    for seat in range(stats["players"]):
        lines.append(f"{seats[seat]:<6} {rate(stats['win_rate_by_seat'][seat]):<25} "
                     f"{stats['draw_share_by_seat'][seat]['value'] or 0:>9.1%}  "
                     f"{stats['loss_rate_by_seat'][seat]['value'] or 0:>7.1%}      "
                     f"{mean(stats['mean_score_by_seat'][seat]) if scored else _NO_SCORE}")
    lines += _team_lines(stats)
    m = stats["metrics"]
    full = stats["metrics_level"] == "full"
    lines += [f"P(draw): {rate(stats['p_draw'])}   P(capped): {rate(stats['p_capped'])}   "
              f"P(faulted): {rate(stats['p_faulted'])}",
              f"length (decisions, finished games): {mean(stats['length'])}",
              f"first-seat advantage: {_signed(m['first_seat_advantage'], 'teams' in stats, stats['players'])}",
              balance_text(m["seat_balance"], stats.get("teams"), stats["players"]),
              *_loser_lines(stats),
              f"lead changes: {_led(m['lead_changes'], full, scored)}",
              f"decided at (share of the game): {_led(m['decided_at'], full, scored)}",
              f"branching factor: {mean(m['branching_factor'])}",
              f"forced decisions: {mean(m['forced_share'])}",
              f"information revealed: {mean(m['information_revealed']) if full else _NOT_MEASURED}"]
    if "backend" in stats:
        lines.append("played by the compiled code" if stats["backend"] == "compiled" else
                     f"played on the Python path ({stats['backend_reason']})")
    for name, entry in stats["measures"].items():
        lines.append(measure_text(name, entry))
    lines.append(f"{stats['games_per_second']} games/s, {stats['decisions_per_second']} decisions/s")
    return lines


def measure_text(name: str, entry) -> str:
    """A measure's line: a yes/no one as the rate of yes with its Wilson interval, as every
    other rate is shown; any other as a mean."""
    at = entry.get("at")  # read at a point of the flow: over every reading of every game
    if not entry["yes_no"]:
        tags = ", ".join(([f"at {at}, {entry['n']:,} readings"] if at else []) +
                         (["per player"] if entry["per_player"] else []))
        return f"measure {name}{f' ({tags})' if tags else ''}: {mean(entry)}"
    tags = ", ".join(([f"at {at}"] if at else []) + (["per player"] if entry["per_player"] else []) + ["yes/no"])
    if entry["mean"] is None:
        return f"measure {name} ({tags}): n/a (no game was read)"
    lo, hi = entry["ci95"]
    counted = f"{entry['n']:,} " + ("readings" + (" (one per seat)" if entry["per_player"] else "") if at else
                                     "values (one per seat and game)" if entry["per_player"] else "games")
    return f"measure {name} ({tags}): yes in {entry['mean']:.1%} [{lo:.1%}–{hi:.1%}] of {counted}"


def _team_lines(stats) -> list[str]:
    """In a game with teams: a seat wins with its team, and the teams' rates add up with the draws."""
    if "teams" not in stats:
        return []
    lines = ["team   seats        sole wins [95% CI]        in a draw     lost      mean score"]
    for t, (name, seats) in enumerate(stats["teams"].items()):
        lines.append(f"{name:<6} {', '.join(seats):<12} {rate(stats['win_rate_by_team'][t]):<25} "
                     f"{stats['draw_share_by_team'][t]['value'] or 0:>9.1%}  "
                     f"{stats['loss_rate_by_team'][t]['value'] or 0:>7.1%}      "
                     f"{mean(stats['mean_score_by_team'][t])}")
    return lines


def _one_loser(stats) -> str:
    """How many of the drawn games all but one seat (team) won: a loser's game, not a tie."""
    n = stats["drawn_with_one_loser"]
    return f" ({n} of them with one loser, all the others winning)" if n else ""


def _loser_lines(stats) -> list[str]:
    """Where some drawn games had one loser (Old Maid's kind of game): the sole losses of each
    seat (team), and whether the seats lose equal shares of the games with one loser."""
    if not stats["drawn_with_one_loser"]:
        return []
    teams = stats.get("teams")
    who = "team" if teams else "seat"
    names = list(teams) if teams else stats.get("seats") or [f"P{s}" for s in range(stats["players"])]
    counts = stats["sole_losses_by_team"] if teams else stats["sole_losses_by_seat"]
    entry = stats["metrics"]["loser_balance"]
    line = f"sole losses by {who}: " + ", ".join(f"{name} {n}" for name, n in zip(names, counts))
    if entry["p_value"] is None:
        return [line]
    p = entry["p_value"]
    verdict = (f"the {who}s lose unequal shares of the games with one loser" if p < 0.05 else
               f"no sign that the {who}s lose unequal shares of the games with one loser")
    return [line, f"loser balance: chi-square {entry['chi2']:.2f} ({entry['df']} df), p = {p_text(p)}: {verdict}"]


def _signed(entry, teams: bool = False, players: int = 2) -> str:
    if entry["value"] is None:
        return "n/a (one player)" if players == 1 else "n/a (no game was won)"
    lo, hi = entry["ci95"]
    whose = "the team of seat P0" if teams else "seat P0"
    return f"{entry['value']:+.1%} [{lo:+.1%}, {hi:+.1%}] ({whose}'s share of the won games minus a fair share)"


def balance_text(entry, teams: dict | None, players: int) -> str:
    """The seat balance line: do the seats (teams) win equal shares of the won games?"""
    who = "team" if teams else "seat"
    if len(teams) < 2 if teams else players < 2:
        return f"{who} balance: n/a (one {'team' if teams else 'player'})"
    if entry["p_value"] is None:
        return f"{who} balance: n/a (no game was won)"
    p = entry["p_value"]
    verdict = (f"the {who}s win unequal shares of the won games" if p < 0.05 else
               f"no sign that the {who}s win unequal shares of the won games")
    return f"{who} balance: chi-square {entry['chi2']:.2f} ({entry['df']} df), p = {p_text(p)}: {verdict}"
