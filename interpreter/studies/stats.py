"""Summaries with 95% confidence intervals, and paired differences for comparing two variants.

Plain Python on purpose (no numpy or scipy): the numbers are small lists, and the results must
be the same on every machine, so every figure is rounded the same way.  Intervals use the normal
approximation (z = 1.96); proportions use Wilson's interval, which stays inside [0, 1] and is
sound for rates near 0 or 1 (Wilson 1927; Agresti & Coull 1998).
"""

from __future__ import annotations

import math
from collections import Counter

Z95 = 1.959963984540054

METRICS = ("fast", "full")
"""How much of each game is measured.  `fast` (simulate's default): the game is played by the
playout loop (playout.play_random) and only what the loop sees for free is kept: length,
branching factor, forced decisions, outcome, scores, measures.  `full` (lint, compare,
`simulate --metrics full`): the game goes through the API loop, which also reads the scores
after every decision (lead changes, decided at) and asks the knowledge model what the acting
seat can name (information revealed).  Both play the same game and agree on every figure both
keep (tests/test_playtest_metrics.py)."""


def _r(x: float, digits: int = 4) -> float:
    return round(float(x), digits) + 0.0  # + 0.0: a tiny negative rounds to 0, not -0


def proportion(hits: int, n: int) -> dict:
    """{"value", "ci95"} for `hits` out of `n` (Wilson score interval)."""
    if n == 0:
        return {"value": None, "ci95": None}
    p = hits / n
    denom = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / denom
    return {"value": _r(p), "ci95": [_r(max(0.0, centre - half)), _r(min(1.0, centre + half))]}


def summary(values, histogram: bool = False) -> dict:
    """{"n", "mean", "sd", "ci95", "min", "max"} (and "histogram") of numbers: a list, or a
    Counter of value -> how many times (what simulate keeps, so memory does not grow with games)."""
    counts = values if isinstance(values, Counter) else Counter(values)
    n = sum(counts.values())
    if n == 0:
        out = {"n": 0, "mean": None, "sd": None, "ci95": None, "min": None, "max": None}
        if histogram:
            out["histogram"] = []
        return out
    mean = math.fsum(v * c for v, c in counts.items()) / n
    sd = math.sqrt(math.fsum(c * (v - mean) ** 2 for v, c in counts.items()) / (n - 1)) if n > 1 else 0.0
    out = _described(n, mean, sd, min(counts), max(counts))
    if histogram:
        out["histogram"] = bins(counts)
    return out


def yes_no_summary(values, histogram: bool = False) -> dict:
    """summary() of 0/1 values (a yes/no measure), with the Wilson interval of the rate of 1s,
    as every other rate has: the normal one goes below 0 near 0 and is [0, 0] at 0 of n."""
    counts = values if isinstance(values, Counter) else Counter(values)
    out = summary(counts, histogram)
    if out["n"]:
        out["ci95"] = proportion(counts[1], out["n"])["ci95"]
    return out


def _described(n, mean, sd, low, high) -> dict:
    half = Z95 * sd / math.sqrt(n)
    return {"n": n, "mean": _r(mean), "sd": _r(sd), "ci95": [_r(mean - half), _r(mean + half)],
            "min": _number(low), "max": _number(high)}


class Moments:
    """Count, sum, sum of squares, min and max of numbers added one by one, in a fixed order (so
    a run spread over processes, whose records come back in game order, adds up the same)."""

    def __init__(self):
        self.n, self.total, self.squares, self.low, self.high = 0, 0.0, 0.0, None, None

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x
        self.low = x if self.low is None or x < self.low else self.low
        self.high = x if self.high is None or x > self.high else self.high

    def summary(self) -> dict:
        if not self.n:
            return summary([])
        mean = self.total / self.n
        var = max(0.0, (self.squares - self.total * mean) / (self.n - 1)) if self.n > 1 else 0.0
        return _described(self.n, mean, math.sqrt(var), self.low, self.high)


def _number(x):
    return int(x) if float(x).is_integer() else _r(x)


def bins(counts: Counter, most: int = 20) -> list[dict]:
    """Up to `most` equal bins [low, high) covering the values (value -> count); whole numbers
    get whole-number bins.  Each is {"low", "high", "count"}; the last bin includes its high end,
    and so does every whole-number bin."""
    low, high = min(counts), max(counts)
    whole = all(float(v).is_integer() for v in counts)
    if low == high:
        return [{"low": _number(low), "high": _number(high), "count": sum(counts.values())}]
    width = max(1, math.ceil((high - low + 1) / most)) if whole else (high - low) / most
    edges = [low + i * width for i in range(most + 1)]
    while len(edges) > 2 and edges[-2] > high:
        edges.pop()
    out = [0] * (len(edges) - 1)
    for v, c in counts.items():
        out[min(int((v - low) // width), len(out) - 1)] += c
    return [{"low": _number(edges[i]), "high": _number(edges[i + 1] - (1 if whole else 0)), "count": c}
            for i, c in enumerate(out)]


def paired_difference(a: list, b: list) -> dict:
    """Mean of b - a over pairs (the same seed on both sides), its 95% interval, and whether the
    interval excludes 0.  Identical sides give a difference of exactly 0, never significant."""
    diffs = [y - x for x, y in zip(a, b)]
    n = len(diffs)
    if n == 0:
        return {"difference": None, "ci95": None, "significant": False, "p": None}
    mean = math.fsum(diffs) / n
    sd = math.sqrt(math.fsum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n)
    lo, hi = _possible(mean - half, mean + half, a + b)
    # every pair differing by the same amount (a measure an option fixes) excludes 0 as surely
    # as any interval can; identical sides differ by exactly 0 and never are
    significant = (lo > 0 or hi < 0) and (sd > 0 or n > 1)
    p = _p_value(mean, sd / math.sqrt(n)) if sd > 0 else (0.0 if significant else None)
    return {"difference": _r(mean), "ci95": [_r(lo), _r(hi)], "significant": significant, "p": p}


def _p_value(difference: float, se: float) -> float:
    """The two-sided p-value of a difference with this standard error (normal approximation)."""
    return math.erfc(abs(difference) / se / math.sqrt(2))


def holm(p_values: list) -> list:
    """Which of these p-values (None: no test) stay significant at 5% taken together: Holm's
    step-down correction (Holm 1979), which keeps the chance of any false finding among them at
    5%.  The smallest must be under 0.05 / m, the next under 0.05 / (m - 1), ... until one is not."""
    tested = sorted((p, k) for k, p in enumerate(p_values) if p is not None)
    out = [False] * len(p_values)
    for rank, (p, k) in enumerate(tested):
        if p >= 0.05 / (len(tested) - rank):
            break
        out[k] = True
    return out


def _possible(lo: float, hi: float, values: list) -> tuple[float, float]:
    """An interval of a difference of two means, cut to the differences the values allow: means
    of values between v and w differ by at most w - v (a difference of rates stays in [-1, 1])."""
    spread = max(values) - min(values)
    return max(lo, -spread), min(hi, spread)


def unpaired_difference(a: list, b: list) -> dict:
    """Difference of means b - a for samples that are not paired (e.g. measured on a different
    subset of games on each side): Welch's standard error, normal interval."""
    if len(a) < 2 or len(b) < 2:
        return {"difference": None, "ci95": None, "significant": False, "p": None}
    ma, mb = math.fsum(a) / len(a), math.fsum(b) / len(b)
    va = math.fsum((x - ma) ** 2 for x in a) / (len(a) - 1)
    vb = math.fsum((x - mb) ** 2 for x in b) / (len(b) - 1)
    se = math.sqrt(va / len(a) + vb / len(b))
    d = mb - ma
    lo, hi = _possible(d - Z95 * se, d + Z95 * se, a + b)
    return {"difference": _r(d), "ci95": [_r(lo), _r(hi)], "significant": se > 0 and (lo > 0 or hi < 0),
            "p": _p_value(d, se) if se > 0 else None}


def balance(wins: list) -> dict:
    """Whether seats (or teams) win equal shares of the won games: Pearson's chi-square test of
    the sole wins `wins` (one count each) against equal shares.  {"chi2", "df", "p_value"}, nulls
    with fewer than two sides or no game won.  Every side counts, not only the first seat's."""
    won, sides = sum(wins), len(wins)
    if sides < 2 or won == 0:
        return {"chi2": None, "df": None, "p_value": None}
    expected = won / sides
    chi2 = math.fsum((w - expected) ** 2 for w in wins) / expected
    return {"chi2": _r(chi2), "df": sides - 1, "p_value": _r(_upper_gamma(0.5 * (sides - 1), 0.5 * chi2))}


def _upper_gamma(a: float, x: float) -> float:
    """Q(a, x), the regularized upper incomplete gamma function (so a chi-square's p-value is
    Q(df / 2, chi2 / 2)): a series below a + 1, a continued fraction above (Numerical Recipes 6.2)."""
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:  # P(a, x) = e^-x x^a / Gamma(a) * sum x^n / (a (a+1) ... (a+n))
        term = total = 1 / a
        k = a
        while abs(term) > abs(total) * 1e-15:
            k += 1
            term *= x / k
            total += term
        return max(0.0, 1 - total * math.exp(log_front))
    b, c, d = x + 1 - a, 1 / 1e-300, 1 / (x + 1 - a)
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return math.exp(log_front) * h
