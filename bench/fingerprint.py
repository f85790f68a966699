"""A fingerprint of every game the engine can play from this checkout, to show that a change
to the engine changed no game.

Every script in games/, tests/scripts/ and bench/scripts/ (and the shipped games' option and
player variants) is played from four seeds twice: by the playouts (what `simulate` runs) and
through the public loop (`legal_moves()`, a random choice, `apply()`).  One line per game:
decisions, work, scores or fault, and a hash of the saved end state (move log included).
Two checkouts play the same games exactly when their fingerprints are equal:

    python -m bench.fingerprint before.txt           # on the reference commit
    python -m bench.fingerprint after.txt && diff before.txt after.txt
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("games", "tests/scripts", "bench/scripts")
SEEDS = 4
VARIANTS = {  # script stem -> extra (players, options) settings beside the script's defaults
    "bouncer": [(None, {"special_bouncers": True})],
    "booray": [(5, {}), (6, {})],
    "bosspoker": [(None, {"raises": "by_ante"})],
    "bohei": [(4, {})],
}


def _digest(state) -> str:
    return hashlib.sha256(json.dumps(state.to_json(), sort_keys=True, default=repr).encode()).hexdigest()[:16]


def _ending(state) -> str:
    if state.fault is not None:
        return f"fault {getattr(state.fault, 'code', state.fault)}"
    try:
        return f"scores {state.scores}"
    except Exception as exc:  # a script whose scoring faults: the fault is part of the game
        return f"scores fault {type(exc).__name__}"


def _api_game(game, players, seed, options):
    from cardgame.interpreter.studies.agents import RandomAgent
    state = game.new_game(players=players, seed=seed, options=options)
    agent = RandomAgent.for_game(seed)
    while not state.is_over and state.fault is None:
        moves = state.legal_moves()
        if not moves:
            break
        state.apply(agent.choose(moves))
    return state


def _lines(path: Path):
    from cardgame import interpreter
    from cardgame.interpreter.language.rng import derive
    from cardgame.interpreter.studies.simulate import play_one
    name = path.relative_to(ROOT).as_posix()
    try:
        game = interpreter.load(str(path))
    except Exception as exc:  # scripts meant to be refused: the refusal is their fingerprint
        yield f"{name} refused {type(exc).__name__}"
        return
    for players, raw in [(None, {})] + VARIANTS.get(path.stem, []):
        seats = players if players is not None else game.min_players
        options = game.read_options(raw)
        for i in range(SEEDS):
            seed = derive(7, i)
            tag = f"{name} {seats}p {sorted(raw.items())} seed#{i}"
            for way, play in (("playout", lambda: play_one(game, seats, seed, options)[0]),
                              ("api", lambda: _api_game(game, seats, seed, options))):
                try:
                    state = play()
                except Exception as exc:
                    yield f"{tag} {way} raised {type(exc).__name__}"
                    continue
                yield (f"{tag} {way} decisions {state.decisions} work {state.game_work} "
                       f"{_ending(state)} state {_digest(state)}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fingerprint", description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="file to write the fingerprint to (- for standard output)")
    args = parser.parse_args(argv)
    lines = [line for folder in FOLDERS for path in sorted((ROOT / folder).glob("*.cardgame"))
             for line in _lines(path)]
    text = "\n".join(lines) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text)
        print(f"{len(lines)} games written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
