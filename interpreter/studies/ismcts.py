"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley and Whitehouse
2012), acting for one seat through its SeatView.

Each iteration plays in a world the seat cannot tell from the real game (`seat.determinize`):
it walks down one tree shared by all the worlds, choosing at each node by UCB among the moves the
world offers there (a move's `available` count grows each time it could have been chosen, as
ISMCTS asks), adds one node, plays the world out at random (`rollouts`, the playout loop) and
credits every node on the way with each seat's win share.  The real game is never read: the
worlds come from the seat's own knowledge, and the root's moves are the seat's own listing (the
same in every world, by determinize's contract), so the agent's choice depends only on what its
seat knows and on its seed (tests/test_agents.py exchanges hidden cards to check it).

Below the root a move is known by its text in the world (another seat's `play 7C` is the move
of a card that seat may hold in some worlds and not in others).  A table decision is played at
random.  Sampling a world replays the game (docs/api.md, determinize) and costs far more than an
iteration, so `worlds` (at most `iterations`) worlds are sampled per decision and the iterations
take them in turn; `worlds=iterations` samples one per iteration.
"""

from __future__ import annotations

import math
import random
import time

from ..engine.game import GameFault, IllegalMove
from ..engine.knowledge import HIDDEN
from ..language.source import ScriptError
from ..machine.runtime import TABLE
from .judging import Choice, leaders, win_share
from .rollouts import rollouts

_FAULTS = (GameFault, IllegalMove)


class _Node:
    __slots__ = ("children", "visits", "available", "reward", "actor")

    def __init__(self, actor):
        self.children: dict = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0  # the win share, summed over visits, of the seat that chose the move into it
        self.actor = actor


class IsmctsPlayer:
    """ISMCTS for one seat (see the module's docstring).  Parameters: `iterations` per decision;
    `time`, seconds per decision (0: no limit; the search stops at whichever comes first, and a
    timed search is no longer reproducible from the seed); `worlds`, determinizations sampled per
    decision (0: one per iteration, up to 20); `c`, the UCB exploration constant; `horizon`, the
    decisions a playout makes at most (0: to the end; a playout cut short is won by the seats
    ahead on the score there)."""

    PARAMETERS = {
        "iterations": (int, 200, "search iterations per decision"),
        "time": (float, 0.0, "seconds per decision at most (0: no limit; not reproducible)"),
        "worlds": (int, 0, "worlds sampled per decision (0: min(iterations, 20))"),
        "c": (float, 0.7, "UCB exploration constant"),
        "horizon": (int, 0, "decisions per playout at most (0: to the end)"),
    }

    def __init__(self, seed: int, iterations: int = 200, time: float = 0.0, worlds: int = 0, c: float = 0.7,
                 horizon: int = 0):
        if iterations < 1:
            raise ValueError("iterations must be 1 or more")
        if time < 0 or worlds < 0 or c < 0 or horizon < 0:
            raise ValueError("time, worlds, c and horizon must not be negative")
        self.rng = random.Random(seed)
        self.iterations, self.time, self.c, self.horizon = iterations, float(time), float(c), horizon
        self.worlds = worlds or min(iterations, 20)

    def act(self, seat):
        return self.analyse(seat)[0].index

    def analyse(self, seat) -> list[Choice]:
        """The seat's moves, most visited first, with their visits and mean win share."""
        moves = seat.legal_moves()
        if len(moves) == 1:
            return [Choice(0, moves[0].text, 0, 0.0)]
        root = self.search(seat, len(moves))
        found = []
        for m in moves:
            child = root.children.get(m.index)
            visits = child.visits if child is not None else 0
            found.append(Choice(m.index, m.text, visits, round(child.reward / visits, 4) if visits else 0.0))
        found.sort(key=lambda ch: (-ch.visits, -ch.value, ch.index))
        return found

    def search(self, seat, count: int) -> _Node:
        me, rng = seat.seat, self.rng
        root = _Node(me)
        worlds: list = []
        texts = [m.text for m in seat.legal_moves()]
        by_text = len(set(texts)) == len(texts) and not any(HIDDEN in t for t in texts)
        deadline = time.perf_counter() + self.time if self.time else None
        for it in range(self.iterations):
            if deadline is not None and it and time.perf_counter() > deadline:
                break
            if len(worlds) < self.worlds:
                try:
                    world = seat.determinize(rng)
                except ScriptError:  # no world found this time (E0713): search the ones there are
                    if not worlds:
                        raise
                    self.worlds = len(worlds)
                    world = None
                if world is not None:  # the seat's listing in the world: the same texts, in the same order
                    if by_text:
                        named = {m.text: m for m in world.legal_moves()}
                        worlds.append((world, [named[t] for t in texts]))
                    else:  # cards it cannot see: the world's own listing for it (which replays its log)
                        worlds.append((world, world.moves_for(me)))
            world, listing = worlds[it % len(worlds)]
            self._iterate(root, world.clone_bare(), listing, me, rng)
        return root

    def _iterate(self, root: _Node, world, listing: list, me: int, rng) -> None:
        path = [root]
        node = root
        keys = list(range(len(listing)))
        moves = listing
        expanded = False
        while True:
            actor = world.current_player
            if actor == TABLE:  # the table's decision: at random, outside the tree
                move = rng.choice(world.legal_moves())
            else:
                untried = [i for i, k in enumerate(keys) if k not in node.children]
                for k in keys:
                    child = node.children.get(k)
                    if child is not None:
                        child.available += 1
                if untried:
                    i = rng.choice(untried)
                    child = node.children[keys[i]] = _Node(actor)
                    child.available = 1
                    expanded = True
                else:
                    i = self._select(node, keys)
                    child = node.children[keys[i]]
                move = moves[i]
                node = child
                path.append(node)
            try:
                world.apply(move)
            except _FAULTS:
                break
            if world.is_over or expanded or world.fault is not None:
                break
            if world.current_player is None:
                break
            moves = world.legal_moves()
            if not moves:
                break
            keys = [m.text for m in moves]
        shares = self._outcome(world, rng, self.horizon)
        for n in path[1:]:
            n.visits += 1
            n.reward += shares[n.actor] if shares is not None else 0.0
        root.visits += 1

    def _select(self, node: _Node, keys: list) -> int:
        best, chosen, c = -1.0, 0, self.c
        for i, k in enumerate(keys):
            child = node.children[k]
            value = child.reward / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
            if value > best:
                best, chosen = value, i
        return chosen

    @staticmethod
    def _outcome(world, rng, horizon: int) -> list | None:
        """Each seat's win share at the end of a random playout from `world` (None: no end), or,
        where the playout is cut at `horizon` decisions, of the seats ahead there."""
        if world.fault is not None:
            return None
        if not world.is_over:
            if horizon:
                result = rollouts(world, 1, seed=rng.getrandbits(64), max_decisions=horizon)[0]
            else:
                result = rollouts(world, 1, seed=rng.getrandbits(64))[0]
            winners = result.winners
            if winners is None and result.outcome == "limit" and result.standing is not None:
                winners = leaders(world, result.standing)
        else:
            winners = world.winners
        if winners is None:
            return None
        return [win_share(winners, s) for s in range(world.n)]
