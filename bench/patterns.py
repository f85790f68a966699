"""`python -m bench.patterns`: the card patterns of games/lib/patterns.cardgame on realistic
hands, against the same patterns written in the language alone (bench/scripts/
lang_patterns.cardgame), their limits on a whole deck, and a gin-rummy-like game that works out
the least deadwood of 11 hands every turn (bench/scripts/gin.cardgame), both ways.

    python -m bench.patterns            # a table
    python -m bench.patterns --json     # the same figures as JSON
    python -m bench.patterns --hands 50

For each pattern and hand size (10 and 13 cards, random deals) it reports the work units one
evaluation uses (docs/language.md §22) and the microseconds it takes, as the median over the
hands.  A pattern counts as fast enough in the language when a rummy-style game could evaluate
it for every card of a 13-card hand each turn (14 evaluations) within 1% of the per-move budget
(10,000 units each at most) and 1 ms each; docs/language.md §11 and notes give the decision.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from cardgame import interpreter
from cardgame.interpreter.studies.agents import RandomAgent
from cardgame.interpreter.language.checker import check_expression
from cardgame.interpreter.codegen.compiler import compile_expression
from cardgame.interpreter.language.parser import parse_expression
from cardgame.interpreter.language.rng import derive
from cardgame.interpreter.language.types import PLAYER

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "bench" / "scripts"

# (pattern, in the language alone, with the library and its built-ins); {h} is the hand.
PAIRS = [
    ("group by rank", "lang_same_rank({h})", "same_rank({h})"),
    ("3-subsets", "lang_subsets({h}, 3)", "subsets({h}, 3)"),
    ("5-subsets", "lang_subsets({h}, 5)", "subsets({h}, 5)"),
    ("straights (5+)", "lang_straights({h}, aces_low, 5)", "straights_in({h}, aces_low, 5)"),
    ("suit runs (3+)", "lang_suit_runs({h}, aces_low, 3)", "suit_runs_in({h}, aces_low, 3)"),
    ("melds", "lang_melds({h})", "melds({h})"),
    ("layouts of melds", "count(lang_layouts({m}, []))", "count(layouts({m}))"),  # {m}: melds(hand), made first
    ("least deadwood", "lang_deadwood({h})", "deadwood({h})"),
]
# (what, expression on the whole deck): each must end with a clear fault, quickly.
LIMITS = [
    ("subsets(deck, 5)", "subsets(stock, 5)"),
    ("straights(deck, 1)", "straights(stock, 1)"),
    ("layouts of every pair", "layouts(of_a_kind(stock, 2) + of_a_kind(stock, 2))"),
    ("lang_subsets(deck, 5)", "lang_subsets(stock, 5)"),
    ("lang_same_rank(deck)", "count(lang_same_rank(stock))"),
]


def load() -> interpreter.Game:
    """The gin script (its `lib/...` includes come from the shipped library)."""
    return interpreter.load(str(SCRIPTS / "gin.cardgame"))


def compiled(state, text: str):
    """A function running `text` on `state` once: (value, work units)."""
    node, diags = parse_expression(text, "<bench>")
    assert node is not None, diags
    checked = check_expression(state.prog.tables, node, {f"P{i}": PLAYER for i in range(state.n)})
    assert not [d for d in checked.diagnostics if d.severity == "error"], (text, checked.diagnostics)
    fn = compile_expression(state.prog, checked.tables, node)
    frame = [None] * checked.frame_size
    for name, slot in checked.names.items():
        frame[slot] = int(name[1:])

    def run():
        state.begin_work(query=True)
        return fn(state, frame), state.work
    return run


def measure(state, text: str, repeat: int = 5):
    """(work units, microseconds) of one evaluation, the best of `repeat` for the time."""
    run = compiled(state, text)
    value, work = run()
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - t)
    return value, work, best * 1e6


# A meld-rich hand: the first cards of a shuffled deck of the ranks A to 5 only.
RICH = "first([x for x in cards(stock) where index(aces_low, x.rank) < 5], 13)"


def hands(game, size, count: int):
    """(state, hand expression): the top `size` cards of a shuffled stock, or RICH."""
    for seed in range(1, count + 1):
        yield game.new_game(seed=seed), RICH if size == "rich" else f"first(cards(stock), {size})"


def bench_pairs(game, count: int) -> list[dict]:
    rows = []
    for size in (10, 13, "rich"):
        for name, lang, lib in PAIRS:
            figures = {"lang": ([], []), "lib": ([], [])}
            for state, hand in hands(game, size, count):
                given = f"melds({hand})" if "{m}" in lang else hand
                _, hand_work, hand_us = measure(state, given)  # making the input is not the pattern's
                values = []
                for key, text in (("lang", lang), ("lib", lib)):
                    value, work, us = measure(state, text.format(h=hand, m=given))
                    figures[key][0].append(work - hand_work)
                    figures[key][1].append(max(0.0, us - hand_us))
                    values.append(value)
                if name in ("group by rank", "3-subsets", "5-subsets", "least deadwood", "straights (5+)", "layouts of melds"):
                    assert values[0] == values[1], (name, values)  # the same value both ways
            row = {"pattern": name, "cards": size}
            for key, (works, times) in figures.items():
                row[f"{key}_units"] = statistics.median(works)
                row[f"{key}_max_units"] = max(works)
                row[f"{key}_us"] = round(statistics.median(times), 1)
            rows.append(row)
    return rows


def bench_limits(game) -> list[dict]:
    rows = []
    for name, text in LIMITS:
        full = game.new_game(seed=1)
        t = time.perf_counter()
        value, diags = full.evaluate(text.replace("stock", "cards(stock) + hand[P0] + hand[P1] + discard"))
        rows.append({"what": name, "seconds": round(time.perf_counter() - t, 3),
                     "result": value if value is not None else diags[0].message})
    return rows


def bench_game(game, count: int) -> list[dict]:
    """Random games of gin, the deadwood from the library or in the language alone: games/s,
    decisions/s and the most work one move used (listing included)."""
    rows = []
    for in_language in (False, True):
        decisions, most, seconds = 0, 0, 0.0
        for seed in range(1, count + 1):
            state = game.new_game(seed=seed, options={"in_language": in_language})
            agent = RandomAgent(derive(seed, 1))
            t = time.perf_counter()
            while not state.is_over:
                before = state.game_work
                state.apply(agent.choose(state.legal_moves()))
                most = max(most, state.game_work - before)
                decisions += 1
            seconds += time.perf_counter() - t
        rows.append({"deadwood": "in the language" if in_language else "library", "games": count,
                     "games_per_s": round(count / seconds, 2), "decisions_per_s": round(decisions / seconds),
                     "most_work_per_move": most})
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.patterns", description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--hands", type=int, default=30, help="random hands per row (default 30)")
    parser.add_argument("--games", type=int, default=10, help="games of gin each way (default 10)")
    args = parser.parse_args(argv)
    game = load()
    report = {"pairs": bench_pairs(game, args.hands), "limits": bench_limits(game),
              "game": bench_game(game, args.games)}
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    print(f"{'pattern':<16} {'cards':>5} | {'language units':>14} {'us':>8} | {'library units':>13} {'us':>8}")
    for r in report["pairs"]:
        print(f"{r['pattern']:<16} {str(r['cards']):>5} | {r['lang_units']:>14,.0f} {r['lang_us']:>8} | "
              f"{r['lib_units']:>13,.0f} {r['lib_us']:>8}")
    print()
    for r in report["limits"]:
        print(f"{r['what']:<32} {r['seconds']:>6} s  {str(r['result'])[:90]}")
    print()
    for r in report["game"]:
        print(f"gin, deadwood {r['deadwood']:<16} {r['games_per_s']:>7} games/s {r['decisions_per_s']:>7} "
              f"decisions/s, at most {r['most_work_per_move']:,} units in one move")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
