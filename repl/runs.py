"""What `simulate`, `lint` and `compare` share on the command line: the run arguments (workers,
policy, decision limit, Dask), the progress bar, and how a rate or a mean is printed."""

from __future__ import annotations

import contextlib
import sys

from cardgame import interpreter
from cardgame.interpreter import ScriptError

from .arguments import usage_error


def add_run_args(p, positive, games_help: str, max_decisions: int) -> None:
    p.add_argument("-n", "--games", type=positive, default=None, metavar="N", help=games_help)
    p.add_argument("--workers", type=positive, default=1, metavar="N",
                   help="worker processes on this machine (default 1; more pay only with CPUs to spare: "
                        "docs/simulate.md#workers)")
    p.add_argument("--policy", choices=interpreter.POLICIES, default="uniform",
                   help="how random players choose (default uniform; docs/simulate.md#policies)")
    p.add_argument("--max-decisions", type=positive, default=None, metavar="N",
                   help=f"stop a game after N decisions and count it as stopped by the limit (default {max_decisions:,})")
    p.add_argument("--agents", default=None, metavar="A,B,...",
                   help="who plays each seat, in seat order: random, greedy, ismcts (with parameters: "
                        "ismcts:iterations=400) or path/to/file.py:Name (docs/agents.md); default: random players")
    p.add_argument("--agent", action="append", default=[], metavar="SEAT=AGENT",
                   help="the agent of one seat (P0=ismcts, P1=mybot.py:Bot); the others play as --agents says, "
                        "or at random; may be given once per seat")
    p.add_argument("--dask", default=None, metavar="ADDRESS",
                   help="run the games on a Dask cluster (scheduler address, or `local`)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar (it is off anyway when not a terminal)")
    p.add_argument("--backend", choices=interpreter.BACKENDS, default="auto",
                   help="compiled: the games as machine code; python: the Python path; auto (default): compiled "
                        "wherever the script can be (docs/simulate.md#compiled-playouts)")


def agents_of(args, players: int):
    """The agents `--agents` and `--agent` give the seats of a game of `players` (None: neither
    given, random players); E0720 for a spec that names no agent."""
    return interpreter.parse_agents([args.agents] if args.agents else [], players, args.agent)


def workers_here(args, command: str, from_stdin: bool) -> int:
    """The worker processes to run: `--workers`, capped at this machine's CPUs; one for a script
    read from standard input, which worker processes and Dask workers cannot load again (they
    load a script by its path), so `--dask` is then a usage error."""
    if from_stdin and args.dask is not None:
        usage_error(command, "`--dask` needs the script in a file: Dask workers load it by its path")
    if from_stdin and args.workers > 1:
        print(f"note: a script from standard input is played in this process: --workers {args.workers} needs "
              "the script in a file (worker processes load it by its path)", file=sys.stderr)
        return 1
    return interpreter.usable_workers(args.workers)


@contextlib.contextmanager
def dask_client(args):
    """A distributed.Client for `--dask` (closed afterwards), or None without it.  `--dask local`
    starts a LocalCluster on loopback with `--workers` worker processes (at least 2)."""
    if args.dask is None:
        yield None
        return
    try:
        import distributed  # noqa: F401  (only to tell the user what is missing)
    except ImportError:
        raise ScriptError([interpreter.Diagnostic(
            "E0905", "`--dask` needs the optional Dask packages", None,
            hint="install them with `pip install -e '.[dist]'`")]) from None
    with contextlib.ExitStack() as stack:
        try:
            client = stack.enter_context(interpreter.connect_dask(args.dask, max(2, args.workers)))
        except Exception as err:  # no scheduler there, an address Dask cannot read, TLS or UCX unset: Dask says which
            raise ScriptError([interpreter.Diagnostic(
                "E0906", f"cannot reach a Dask scheduler at `{args.dask}`: {err}", None,
                hint="give the scheduler's address as HOST:PORT (`tcp://10.0.0.5:8786`), or `local` for "
                     "worker processes on this machine")]) from None
        yield client


@contextlib.contextmanager
def progress_bar(total: int, label: str, args):
    """fn(done) that moves a progress bar with rate and ETA on stderr; a no-op when stderr is
    not a terminal or with --no-progress."""
    if args.no_progress or not sys.stderr.isatty() or total < 2:
        yield None
        return
    from tqdm import tqdm
    tqdm.monitor_interval = 0  # no monitor thread: with a thread running, worker processes are spawned, not forked
    with tqdm(total=total, desc=label, unit="game", file=sys.stderr, leave=False, dynamic_ncols=True) as bar:
        def update(done: int):
            bar.update(done - bar.n)
        yield update


def backend_note(stats, args) -> None:
    """On stderr, once: the compiled backend is missing here (llvmlite), so the run was played on
    the Python path (the JSON's `backend_reason` says it too)."""
    why = stats.get("backend_reason") or ""
    if args.backend == "auto" and why.startswith("llvmlite"):
        print(f"note: compiled playouts are not available here ({why}); playing on the Python path", file=sys.stderr)


def rate(entry) -> str:
    """`38.0% [25.9–51.9]`."""
    if entry["value"] is None:
        return "n/a"
    lo, hi = entry["ci95"]
    return f"{entry['value']:.1%} [{lo:.1%}–{hi:.1%}]"


def p_text(p: float) -> str:
    """A p-value as it is read: `0.2412`, `< 0.0001`."""
    return "< 0.0001" if p < 0.0001 else f"{p:.4g}"


def mean(entry, digits: int = 2) -> str:
    """`218.40 ± 11.76 (sd 42.43, 156–312)`."""
    if entry["mean"] is None:
        return "n/a"
    lo, hi = entry["ci95"]
    return (f"{entry['mean']:.{digits}f} ± {(hi - lo) / 2:.{digits}f} "
            f"(sd {entry['sd']:.{digits}f}, {entry['min']}–{entry['max']})")
