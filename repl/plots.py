"""`simulate --plot DIR` and `--report FILE.html`: PNG charts of a run's statistics (matplotlib,
drawn off-screen) and one HTML page that bundles them with the text report."""

from __future__ import annotations

import base64
import html
import os
import tempfile


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")  # files only: no window, no display needed
    import matplotlib.pyplot as plt
    return plt


def _histogram(plt, bins, title, xlabel, path, ylabel="games"):
    """Bars over the bins; whole-number bins (high included) are centred on their numbers."""
    from matplotlib.ticker import MaxNLocator
    fig, ax = plt.subplots(figsize=(7, 4))
    whole = all(isinstance(b["low"], int) and isinstance(b["high"], int) for b in bins)
    lefts = [b["low"] - 0.5 if whole else b["low"] for b in bins]
    widths = [(b["high"] - b["low"] + 1) if whole else max(1e-9, b["high"] - b["low"]) for b in bins]
    ax.bar(lefts, [b["count"] for b in bins], width=widths, align="edge", color="#4c72b0", edgecolor="white")
    if whole:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_simulation_charts(stats: dict, folder: str | None) -> list[tuple[str, str]]:
    """Write the charts into `folder` (a temporary one when None); [(title, path)]."""
    plt = _pyplot()
    folder = folder or tempfile.mkdtemp(prefix="cardgame-plots-")
    os.makedirs(folder, exist_ok=True)
    charts = []
    n, title = stats["games"], stats["title"]
    path = os.path.join(folder, "length.png")
    _histogram(plt, stats["length"]["histogram"], f"{title}: game length ({stats['length']['n']} finished games)",
               "decisions per game", path)
    charts.append(("Game length", path))

    # with teams, a win is a team's: the bars are the teams' (their rates add up with the rest to 1)
    sides = list(stats["teams"]) if "teams" in stats else stats.get("seats") or [f"P{s}" for s in range(stats["players"])]
    labels = [f"{side} wins" for side in sides] + ["draw", "unfinished"]
    entries = (stats["win_rate_by_team"] if "teams" in stats else stats["win_rate_by_seat"]) + [stats["p_draw"]]
    unfinished = stats["unfinished"]
    values = [e["value"] or 0 for e in entries] + [unfinished / n]
    lows = [e["value"] - e["ci95"][0] if e["ci95"] else 0 for e in entries] + [0]
    highs = [e["ci95"][1] - e["value"] if e["ci95"] else 0 for e in entries] + [0]
    fig, ax = plt.subplots(figsize=(7, 4))
    colors = ["#4c72b0"] * len(sides) + ["#dd8452", "#c44e52"]
    ax.bar(labels, values, yerr=[lows, highs], capsize=6, color=colors)
    ax.axhline(stats["p_won"]["value"] / len(sides) if stats["p_won"]["value"] else 0,
               color="grey", linestyle="--", linewidth=1, label="fair share of the won games")
    ax.set_ylim(0, 1)
    ax.set_ylabel(f"share of all {n} games")
    ax.set_title(f"{title}: win rate by {'team' if 'teams' in stats else 'seat'}, with 95% intervals")
    ax.legend(loc="upper right")
    fig.tight_layout()
    path = os.path.join(folder, "outcomes.png")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    charts.append(("Win rate by seat", path))

    for name, entry in stats["measures"].items():
        if not entry["histogram"]:
            continue
        path = os.path.join(folder, f"measure_{name}.png")
        what = "every seat's values" if entry["per_player"] else "one value per game"
        _histogram(plt, entry["histogram"], f"{title}: measure {name} ({what})", entry.get("doc") or name, path,
                   "seats x games" if entry["per_player"] else "games")
        charts.append((f"Measure {name}", path))
    return charts


def write_report(path: str, heading: str, lines: list[str], charts: list[tuple[str, str]],
                 replay: tuple[str, str] | None = None) -> None:
    """One self-contained HTML page: the text report, then each chart embedded as a PNG, then
    `replay` (its heading and HTML: one game in the replay viewer), if given."""
    parts = [f"<!doctype html>\n<html><head><meta charset='utf-8'><title>{html.escape(heading)}</title>"
             "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}pre{background:#f6f6f6;"
             "padding:1em}</style></head><body>", f"<h1>{html.escape(heading)}</h1>",
             f"<pre>{html.escape(chr(10).join(lines))}</pre>"]
    for title, png in charts:
        with open(png, "rb") as f:
            data = base64.b64encode(f.read()).decode("ascii")
        parts.append(f"<h2>{html.escape(title)}</h2><img alt='{html.escape(title)}' src='data:image/png;base64,{data}'>")
    if replay is not None:
        parts.append(f"<h2>{html.escape(replay[0])}</h2>\n{replay[1]}")
    parts.append("</body></html>\n")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(parts))
