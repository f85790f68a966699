"""Test helpers: load shipped games and the scripts of tests/scripts/, arrange scenario positions
through saved-state JSON, and the small scripts, sessions, checks and cache-file tools that tests
in several files share."""

from __future__ import annotations

from pathlib import Path

from cardgame import interpreter

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
SCRIPTS = ROOT / "tests" / "scripts"
WAR = SCRIPTS / "war.cardgame"  # a small whole game the hostile tests change here and there
# the designer's variants of the shipped games (tests/scripts/variants/), as the command line takes them
VARIANTS = SCRIPTS / "variants"
BOUNCER_TABLE = str(VARIANTS / "bouncer_table.cardgame")
BOORAY_HOUSE = str(VARIANTS / "booray_house.cardgame")
BOSSPOKER_HOUSE = str(VARIANTS / "bosspoker_house.cardgame")
BOHEI_SHORT = str(VARIANTS / "bohei_short.cardgame")
BOHEI_MEASURED = str(VARIANTS / "bohei_measured.cardgame")
# every whole game the tests play both ways: the shipped ones, and tests/scripts with its
# folders (variants/, ...) but not the files scripts include (lib/)
PLAYED_SCRIPTS = sorted(GAMES.glob("*.cardgame")) + sorted(
    p for p in SCRIPTS.rglob("*.cardgame") if "lib" not in p.parent.parts)


def load_game(name: str) -> interpreter.Game:
    return interpreter.load(str(GAMES / name))


def load_script(name: str) -> interpreter.Game:
    """A game of tests/scripts/ by its name, `euchre` or `euchre.cardgame`."""
    return interpreter.load(str(SCRIPTS / (name if name.endswith(".cardgame") else f"{name}.cardgame")))


def arrange(state: interpreter.GameState, layout: dict, rest: str) -> interpreter.GameState:
    """A copy of `state` with cards placed as `layout` says; every other card goes to zone `rest`.

    layout maps a shared zone name to card names (bottom first), or a per-player zone name to
    {seat: [card names]}.
    """
    game = state.game
    prog = game.program
    data = state.to_json()
    by_name = prog.card_by_name
    zones = [[] for _ in data["zones"]]
    placed = set()
    for zone, spec in layout.items():
        items = spec.items() if isinstance(spec, dict) else [(None, spec)]
        for owner, names in items:
            slot = prog.zone_slot(zone, owner, state.n)
            for name in names:
                zones[slot].append(by_name[name])
                placed.add(by_name[name])
    rest_slot = prog.zone_slot(rest, None, state.n)
    zones[rest_slot].extend(c for c in range(len(prog.card_names)) if c not in placed)
    data["zones"] = zones
    data["visibility"] = [0] * len(prog.card_names)
    return game.restore(data)


def played_json(game, players: int, seed: int) -> dict:
    """The saved state a whole game between random players ends in: two equal ones are one game."""
    return play_out(game.new_game(players=players, seed=seed), interpreter.RandomAgent(seed), 10_000).to_json()


def play_out(state: interpreter.GameState, agent, max_decisions: int) -> interpreter.GameState:
    """Play `state` on through the public calls only (legal_moves, the agent, apply) until it ends,
    faults, offers nothing or reaches `max_decisions`."""
    while not state.is_over and state.fault is None and state.decisions < max_decisions:
        moves = state.legal_moves()
        if not moves:
            break
        try:
            state.apply(agent.choose(moves))
        except interpreter.GameFault:
            break
    return state


def with_vars(state: interpreter.GameState, **values) -> interpreter.GameState:
    """A copy of `state` with script variables changed (per-player ones as {seat: value})."""
    prog = state.game.program
    data = state.to_json()
    for name, value in values.items():
        slot = prog.var_slots[name]
        if isinstance(value, dict):
            row = list(data["vars"][slot])
            for s, x in value.items():
                row[s] = x
            value = row
        data["vars"][slot] = value
    return state.game.restore(data)


def line_of(script: str, start: str) -> int:
    """The line number of the first line of games/SCRIPT that starts with `start`."""
    lines = (GAMES / script).read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.strip().startswith(start))


def moves(state) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def card_count(state) -> int:
    return sum(len(z) for z in state.zones)


def ends_at_the_fewest_and_the_most_players(game, games: int = 12, capped_ends: bool = False) -> None:
    """Random games at the script's fewest and most players all end: won or drawn (or ended by
    the script's own `end game capped`, where the script allows it), never faulted."""
    from cardgame.interpreter.studies.simulate import simulate
    for players in sorted({game.min_players, game.max_players}):
        stats = simulate(game, games, players, 5, {})
        o = stats["outcomes"]
        ended = o["won"] + o["drawn"] + (o["capped"] if capped_ends else 0)
        assert ended == games and not o["faulted"], (players, o, stats["faults"])


# ---- small scripts that tests in several files write out ------------------------------------------

# Two seats, each with a move that divides by zero: the game faults at the move that made it.
FAULTS_AT_ONCE = '''game "Faulty"
players 2
var n: int = 0
phase main {
    decide seat(0) "Pick" {
        safe
        boom {
            set n = 1 / n
        }
    }
    decide seat(1) "Pick" {
        boom2 {
            set n = 1 / n
        }
    }
    end game
}
'''


def faulty_script(tmp_path) -> str:
    """FAULTS_AT_ONCE written to tmp_path/faulty.cardgame: its path."""
    path = tmp_path / "faulty.cardgame"
    path.write_text(FAULTS_AT_ONCE)
    return str(path)


# A game of one player, who goes on or stops.
PATIENCE = '''game "Patience"
players 1
var turns: int = 0
phase main {
    decide seat(0) "Go on?" {
        go {
            set turns += 1
        }
        stop {
            end game
        }
    }
    next main
}
'''


def bouncer(seed: int = 1):
    """A REPL session with Bouncer started at `seed`."""
    from cardgame.repl.session import Session
    s = Session()
    s.start(str(GAMES / "bouncer.cardgame"), seed=seed)
    return s


def session_of(tmp_path, text: str, name: str):
    """A REPL session with the script `text`, written to tmp_path/NAME, loaded."""
    from cardgame.repl.session import Session
    path = tmp_path / name
    path.write_text(text)
    s = Session()
    s.execute(f"load {path}")
    return s


def check_text(tmp_path, text: str, name: str = "script.cardgame") -> list:
    """The diagnostics `cardgame check` gives for the script `text`, written to tmp_path/NAME."""
    path = tmp_path / name
    path.write_text(text)
    return interpreter.check_file(str(path))[3]


def check_codes(tmp_path, text: str, name: str = "script.cardgame") -> list[str]:
    """The codes of check_text's diagnostics."""
    return [d.code for d in check_text(tmp_path, text, name)]


def load_text(tmp_path, text: str, name: str = "game.cardgame") -> interpreter.Game:
    """The game of the script `text`, written to tmp_path/NAME and loaded."""
    path = tmp_path / name
    path.write_text(text)
    return interpreter.load(str(path))


# Three seats asked at once to pick a card; P1 was dealt nothing.
EMPTY_HANDED = '''game "Empty handed"
players 3
deck d in stock {
    rank: 1, 2, 3, 4
}
zone stock: shared hidden
zone hand: per player owner
zone pile: shared public
phase main {
    deal 1 from stock to hand of [seat(0), seat(2)]
    simultaneously for p in players {
        decide p "Pick a card" {
            pick(c from hand[p]) {
                move c to pile
            }
        }
    }
    end game
}
'''


def value_of(state, expression: str, viewer="all") -> str:
    """The value of `expression` on `state`, as `eval` shows it; no diagnostic allowed."""
    value, diags = state.evaluate(expression, viewer=viewer)
    assert not diags, diags
    return value


# A rule written as a prohibition (`when CASE require false`) beside one that forbids every move
# it applies to with a real requirement.
PROHIBITION = '''game "Keep the ace"
players 2

deck d in stock {
    rank: 7, 8, A
    suit: C, S
    name: rank suit
}

zone stock: shared hidden
zone hand: per player owner
zone played: shared public

rule keep_the_ace(c: card) "The ace of clubs stays in hand while a club is on the table."
    when c == AC and any x in played where x.suit == C
    require false

rule no_seven_late(c: card) "No seven after the first card."
    when c.rank == 7 and count(played) > 0
    require c.rank != 7

phase main {
    shuffle stock
    deal 3 from stock to hand of players
    repeat 3 times {
        for p in players {
            decide p "Play" {
                play(c from hand[p]) requires keep_the_ace(c), no_seven_late(c) {
                    move c to played face up
                }
                pass
            }
        }
    }
    end game
}
'''


# ---- cache files ---------------------------------------------------------------------------------

def damage(path, old: bytes, new: bytes) -> None:
    """Damage that still unpickles or unmarshals: one text inside the data changed."""
    data = path.read_bytes()
    assert len(old) == len(new) and old in data
    path.write_bytes(data.replace(old, new, 1))


def kept_file(folder, prefix: str):
    """The one file of the cache folder whose name starts with `prefix`."""
    (path,) = [p for p in folder.iterdir() if p.name.startswith(prefix)]
    return path


# ---- HTML replays ---------------------------------------------------------------------------------

def page_data(text: str) -> dict:
    """The data an HTML replay holds, read back from its `<script type="application/gzip">`."""
    import re

    from cardgame.repl.viewer_page import unpacked
    found = re.search(r'<script type="application/gzip" class="cg-data">(.*?)</script>', text, re.S)
    return unpacked(found.group(1))


def engine_zones(view: dict) -> dict:
    """(zone, seat or None) -> (the card names a view shows, sorted; how many it hides)."""
    out = {}
    for name, cards in view["zones"].items():
        for seat, listed in (cards.items() if isinstance(cards, dict) else [(None, cards)]):
            out[name, seat] = (sorted(c for c in listed if c != interpreter.HIDDEN), listed.count(interpreter.HIDDEN))
    return out


def replay_positions(game, players: int, seed: int, moves):
    """The engine's own state at each position an HTML replay of `moves` shows: the start, after
    each move, then each pause point of a game that asks no decision (one state, stepped on)."""
    asks = any(row["decisions"] for row in game.state_table())
    state = game.new_game(players=players, seed=seed, pause_at=() if asks or moves else interpreter.PAUSES)
    yield state
    for text in moves:
        try:
            state.apply(text)
        except interpreter.GameFault:
            pass
        yield state
    while state.paused and state.fault is None:
        try:
            state.step()
        except interpreter.GameFault:
            pass
        yield state


def cards_never_known(game, players: int, seed: int, moves, seat: int) -> list[str]:
    """The cards `seat` never knew in the game of `moves`: in its view, its log or its moves at no
    position.  A page written for that seat must name none of them."""
    import re
    known = set()
    for at in replay_positions(game, players, seed, moves):
        for shown, _hidden in engine_zones(at.view(seat)).values():
            known.update(shown)
        known.update(word for e in at.observed_events(seat) for word in re.findall(r"[\w.]+", e.text))
        if at.current_player == seat:
            known.update(word for m in at.move_texts(seat) for word in m.split())
    return [c.name for c in game.cards if c.name not in known]


def names_in(text: str, names: list[str]) -> list[str]:
    """Those of `names` that `text` holds as words (as the engine reads card names in a text)."""
    import re
    return [c for c in names if re.search(rf"(?<![\w.]){re.escape(c)}(?![\w.])", text)]
