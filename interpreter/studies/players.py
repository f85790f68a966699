"""Players that choose a seat's moves through the seat's own window, and how a command names them.

The agent protocol (docs/agents.md): an agent is a class made once per seat and game as
`Agent(seed=..., **parameters)`, with

- `act(seat) -> SeatMove | int`: the move to make, given the seat's `SeatView` (the one-seat
  API: its view, observation, information state, `determinize`, `legal_moves()`); it returns one
  of `seat.legal_moves()` or its index there.  It is asked only when its seat is to act.
- optionally `analyse(seat) -> list[Choice]`: what it would play and why (the REPL's `hint`).

A SeatView gives nothing the seat may not know, so an agent cannot cheat by construction: what
it reads of the other seats' cards it reads from worlds `determinize` samples, never from the
real game.  The agents shipped here: `random` (either policy of agents.POLICIES), `greedy` (one
move ahead on the score) and `ismcts` (ismcts.py).

A spec names one: `ismcts`, `ismcts:iterations=400`, `random:policy=alternative-first`, or a
user's class `path/to/file.py:Name` (with parameters after it alike: `mine.py:Bot:depth=2`).
"""

from __future__ import annotations

import importlib.util
import os
import random

import attrs

from ..language.rng import derive
from ..language.source import Diagnostic, ScriptError
from ..machine.runtime import TABLE
from .agents import POLICIES
from .judging import Choice, margin, win_share


class RandomPlayer:
    """A random player on the seat's own listing (`policy`: one of POLICIES)."""

    PARAMETERS = {"policy": (str, "uniform", "uniform or alternative-first (docs/simulate.md, Policies)")}

    def __init__(self, seed: int, policy: str = "uniform"):
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}")
        self.rng, self.policy = random.Random(seed), policy

    def act(self, seat):
        moves = seat.legal_moves()
        if self.policy == "alternative-first":
            alts = sorted({m.alt for m in moves})
            alt = self.rng.choice(alts)
            moves = [m for m in moves if m.alt == alt]
        return self.rng.choice(moves)


class GreedyPlayer:
    """One move ahead on the score: each of the seat's moves is made in `worlds` worlds the seat
    cannot tell from the real one (determinize), and the one leaving the best score margin on
    average is chosen (a move that ends the game is worth its win share first); ties at random."""

    PARAMETERS = {"worlds": (int, 4, "worlds sampled per decision to judge the moves in")}

    def __init__(self, seed: int, worlds: int = 4):
        if worlds < 1:
            raise ValueError("worlds must be 1 or more")
        self.rng, self.worlds = random.Random(seed), worlds

    def analyse(self, seat) -> list[Choice]:
        moves = seat.legal_moves()
        totals = [0.0] * len(moves)
        for _ in range(self.worlds if len(moves) > 1 else 0):
            world = seat.determinize(self.rng)
            for i, move in enumerate(world.moves_for(seat.seat)):
                trial = world.clone_bare()
                try:
                    trial.apply(move)
                except Exception:  # noqa: BLE001 (a move the world faults on is worth nothing)
                    totals[i] -= 1e9
                    continue
                over = win_share(trial.winners, seat.seat) * 1e6 if trial.is_over else 0.0
                totals[i] += over + margin(trial, seat.seat)
        runs = self.worlds if len(moves) > 1 else 1
        return sorted((Choice(m.index, m.text, runs, totals[i] / runs) for i, m in enumerate(moves)),
                      key=lambda c: -c.value)

    def act(self, seat):
        choices = self.analyse(seat)
        best = choices[0].value
        return self.rng.choice([c.index for c in choices if c.value == best])


def _ismcts():
    from .ismcts import IsmctsPlayer
    return IsmctsPlayer


BUILT_IN = {"random": lambda: RandomPlayer, "greedy": lambda: GreedyPlayer, "ismcts": _ismcts}
"""The agents a spec may name, name -> their class (imported when first named)."""
AGENT_NAMES = tuple(BUILT_IN)


@attrs.frozen
class AgentSpec:
    """A parsed spec: a built-in `name` or a user's class `cls` in the file `path`, and its
    parameters (name, value) in the order given.  Plain values, so it travels to worker processes."""

    text: str
    name: str | None = None
    path: str | None = None
    cls: str | None = None
    params: tuple = ()

    @property
    def is_plain_random(self) -> bool:
        """A random player with the run's own generator: simulate plays it as a spec-less run."""
        return self.name == "random" and not self.params


def refuse(message: str, hint: str) -> ScriptError:
    return ScriptError([Diagnostic("E0720", message, None, hint=hint)])


AGENT_HINT = "an agent is `random`, `greedy`, `ismcts` (with parameters: `ismcts:iterations=400`) " \
             "or a class in a Python file, `path/to/file.py:Name` (docs/agents.md)"


def _value(text: str):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_agent(text: str) -> AgentSpec:
    """One agent's spec; E0720 when it names no agent, or a parameter it does not take."""
    parts = [p.strip() for p in text.strip().split(":")]
    if not parts[0]:
        raise refuse(f"`{text}` names no agent", AGENT_HINT)
    if parts[0].endswith(".py"):
        if len(parts) < 2 or not parts[1].isidentifier():
            raise refuse(f"`{text}` names a file but no class in it", "write `path/to/file.py:ClassName`")
        spec = AgentSpec(text.strip(), path=parts[0], cls=parts[1], params=_params(text, parts[2:]))
        agent_class(spec)  # the file is read now, so a bad one is refused before any game
        return spec
    if parts[0] not in BUILT_IN:
        raise refuse(f"unknown agent `{parts[0]}`", AGENT_HINT)
    spec = AgentSpec(text.strip(), name=parts[0], params=_params(text, parts[1:]))
    known = agent_class(spec).PARAMETERS
    for key, value in spec.params:
        if key not in known:
            listed = ", ".join(f"`{k}` ({doc})" for k, (_t, _d, doc) in known.items()) or "none"
            raise refuse(f"agent `{spec.name}` takes no parameter `{key}`", f"its parameters: {listed}")
        kind = known[key][0]
        if kind is int and type(value) is not int or kind is float and type(value) not in (int, float):
            raise refuse(f"`{key}={value}` is not a {'whole number' if kind is int else 'number'}",
                         f"agent `{spec.name}`'s `{key}`: {known[key][2]}")
    try:
        make_agent(spec, 0)  # a value out of range (iterations=0, policy=nonsense) is refused now
    except ValueError as err:
        raise refuse(f"`{text.strip()}`: {err}", AGENT_HINT) from None
    return spec


def _params(text: str, items: list) -> tuple:
    out = []
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip().isidentifier() or not value.strip():
            raise refuse(f"`{item}` in `{text}` is not NAME=VALUE", "parameters follow the agent's name, "
                         "each after a colon: `ismcts:iterations=400:worlds=20`")
        out.append((key.strip(), _value(value.strip())))
    return tuple(out)


def parse_agents(texts: list, players: int, assigned: list = ()) -> tuple | None:
    """The agent of each seat from `--agents A,B,C` (one per seat; `texts` may be one
    comma-separated text) and `--agent P1=SPEC` overrides (seats left out play `random`); None
    when neither is given.  E0720 for a spec that names no agent, a count that is not the
    seats', a seat that is not at the table."""
    if not texts and not assigned:
        return None
    items = [t for text in texts for t in text.split(",")] if texts else []
    if items and len(items) != players:
        raise refuse(f"{len(items)} agent{'s' if len(items) != 1 else ''} for {players} seats",
                     f"`--agents` names one agent per seat, in seat order (P0 first): {players} of them")
    specs = [parse_agent(t) for t in items] if items else [parse_agent("random")] * players
    for pair in assigned:
        seat, eq, text = pair.partition("=")
        seat = seat.strip().upper()
        if not eq or not seat.startswith("P") or not seat[1:].isdigit():
            raise refuse(f"`--agent {pair}` is not SEAT=AGENT", "write `--agent P0=ismcts` or "
                         "`--agent P1=path/to/file.py:Name`")
        if int(seat[1:]) >= players:
            raise refuse(f"`--agent {pair}`: there is no seat {seat} in a game of {players} players",
                         f"the seats are P0 to P{players - 1}")
        specs[int(seat[1:])] = parse_agent(text)
    return tuple(specs)


def agent_specs(agents, players: int) -> tuple | None:
    """`agents` (None, or one spec per seat: texts or AgentSpecs) as AgentSpecs; E0720 as parse_agents."""
    if agents is None:
        return None
    agents = list(agents)
    if len(agents) != players:
        raise refuse(f"{len(agents)} agent{'s' if len(agents) != 1 else ''} for {players} seats",
                     f"name one agent per seat, in seat order (P0 first): {players} of them")
    return tuple(a if isinstance(a, AgentSpec) else parse_agent(a) for a in agents)


_FILES: dict = {}


def agent_class(spec: AgentSpec):
    """The class a spec names: a built-in, or the user's, read from its file once per process."""
    if spec.name is not None:
        return BUILT_IN[spec.name]()
    path = os.path.abspath(spec.path)
    module = _FILES.get(path)
    if module is None:
        if not os.path.isfile(path):
            raise refuse(f"cannot read the agent file `{spec.path}`: no such file", AGENT_HINT)
        try:
            loader_spec = importlib.util.spec_from_file_location(f"cardgame_agent_{len(_FILES)}", path)
            module = importlib.util.module_from_spec(loader_spec)
            loader_spec.loader.exec_module(module)
        except Exception as err:  # noqa: BLE001 (the user's file: its error is reported, not raised through)
            raise refuse(f"the agent file `{spec.path}` failed to load: {type(err).__name__}: {err}",
                         "run it with `python FILE` to see the whole error") from None
        _FILES[path] = module
    found = getattr(module, spec.cls, None)
    if not isinstance(found, type) or not callable(getattr(found, "act", None)):
        raise refuse(f"`{spec.path}` has no agent class `{spec.cls}`" if found is None
                     else f"`{spec.cls}` in `{spec.path}` is not an agent class (it needs an `act(seat)` method)",
                     "an agent is a class made as Name(seed=..., **parameters) whose act(seat) returns one of "
                     "seat.legal_moves() (docs/agents.md)")
    return found


def make_agent(spec: AgentSpec, seed: int):
    """A new agent for one seat of one game, seeded `seed`."""
    cls = agent_class(spec)
    try:
        return cls(seed=seed, **dict(spec.params))
    except TypeError as err:
        if spec.name is not None:
            raise
        raise refuse(f"`{spec.text}` could not be made: {err}", "its class is made as Name(seed=..., **parameters) "
                     "(docs/agents.md)") from None


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent at `seat` in the game with seed `game_seed`: its own stream, apart from
    the game's chance (`derive(seed, 0)`...) and its random players' (`derive(seed, 1)`)."""
    return derive(derive(game_seed, 2), seat)


class Seated:
    """The agents of one game, seat by seat: `choose(state, moves)` picks the move at a decision,
    by the run's random player (`fallback`, playing on the real listing as every simulate game
    does) for a table decision and a seat whose spec is plain `random`, else by the seat's agent
    through its SeatView."""

    def __init__(self, specs: tuple, game_seed: int, fallback):
        self.fallback = fallback
        self.agents = [None if s.is_plain_random else make_agent(s, agent_seed(game_seed, i))
                       for i, s in enumerate(specs)]
        self.specs = specs

    def choose(self, state, moves):
        actor = state.current_player
        agent = self.agents[actor] if actor is not None and actor != TABLE else None
        if agent is None:
            return self.fallback.choose(moves)
        seat = state.seat(actor)
        try:
            picked = agent.act(seat)
        except ScriptError:
            raise
        except Exception as err:  # noqa: BLE001 (the user's agent failed: say which, without a traceback)
            raise ScriptError([Diagnostic("E0721", f"agent `{self.specs[actor].text}` (P{actor}) failed: "
                                          f"{type(err).__name__}: {err}", None,
                                          hint="its act(seat) must return one of seat.legal_moves() or its index")]) \
                from None
        return _real_move(state, actor, picked, self.specs[actor].text)


def _real_move(state, actor: int, picked, text: str):
    listed = state.moves_for(actor)
    index = picked if type(picked) is int else getattr(picked, "index", None)
    if index is None or not 0 <= index < len(listed) or not isinstance(picked, int) and \
            getattr(picked, "text", None) != state.move_texts(actor)[index]:
        raise ScriptError([Diagnostic("E0721", f"agent `{text}` (P{actor}) chose {picked!r}, not one of its moves",
                                      None, hint="act(seat) returns one of seat.legal_moves() or its index")])
    return listed[index]
