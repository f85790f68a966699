"""Which backend plays a run's games: the script's kernel (compiled.py) or the Python path.

`auto` plays compiled wherever the script can be (a construct the kernel mode does not write, the
full metrics, or no compiler here leave it to the Python path, and the reason is reported);
`compiled` insists (E0907 when it cannot); `python` never compiles.  Both backends give the same
records for the same seeds, so the choice changes only the speed.
"""

from __future__ import annotations

from ..language.source import Diagnostic, ScriptError

BACKENDS = ("auto", "compiled", "python")
FULL_METRICS = "the full metrics (lead changes, decided at, information revealed) are measured on the Python path"


def choose_backend(game, requested: str, metrics: str = "fast") -> tuple[str, str | None]:
    """("compiled", None), or ("python", why), for a run of `game`; the kernel is made (or read
    from the cache folder) here, before any worker starts."""
    if requested not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, not {requested!r}")
    if requested == "python":
        return "python", "--backend python"
    why = None
    if metrics != "fast":
        why = FULL_METRICS
    else:
        from .compiled import NoKernel, kernel_for
        try:
            kernel_for(game)
        except NoKernel as err:
            why = str(err)
    if why is None:
        return "compiled", None
    if requested == "compiled":
        raise ScriptError([Diagnostic("E0907", f"`--backend compiled` cannot play this script: {why}", None,
                                      hint="`--backend auto` plays it on the Python path")])
    return "python", why


LINT_REASON = "lint observes every rule, decision and value as its games go (rules judged one by one), " \
              "which the Python path records (interpreter/studies/lint.py)"
AGENTS_REASON = "agents other than random players choose through the engine API, on the Python path " \
                "(interpreter/studies/players.py)"
COMPARE_REASON = "compare compares the full metrics too (lead changes, decided at, information revealed), " \
                 "measured on the Python path (interpreter/studies/compare.py)"


def python_only(requested: str, why: str) -> tuple[str, str]:
    """("python", why) for a command whose figures need the Python path; `--backend compiled`
    refuses it (E0907), as it refuses a script the kernel mode cannot write."""
    if requested not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, not {requested!r}")
    if requested == "compiled":
        raise ScriptError([Diagnostic("E0907", f"`--backend compiled` cannot play this run: {why}", None,
                                      hint="`--backend auto` plays it on the Python path")])
    return "python", ("--backend python" if requested == "python" else why)
