"""Determinization: a world one seat cannot tell from the real game, sampled by replaying it.

A world is a whole game played again from the start: the same script, players, options and
seed, with

- *chance* the same draws, except that at each shuffle the cards the seat cannot name now are
  dealt again at random among the places the shuffle gave them (`WorldChance`): where the seat
  watched a card go, it goes there again, so it can draw or see it where it did;
- *choices* the seat's own moves made again (the same move where it knows its cards; the move
  at the same places where it chose cards it could not see), and each other seat's (or the
  table's) move chosen at random among the world's legal moves that the seat saw alike (a move
  it saw named is that move; `give ??` is any `give`; a hidden choice is any move);

and after every move the seat's observations of it (its log of the move, its own judgement of
its rules left out) must be the real ones, or the world is dropped and another tried.  A world
that comes through is one the seat cannot tell from the real game, reached by moves the rules
allowed, so it can be played on to its end like the real one: what the flow revealed (a seat
asked a decision only when it holds a card, a void shown by not following suit) holds in it.

Distribution: when the only hidden things are chance's (deals, draws), every deal of the cards
the seat cannot name consistent with everything it saw is equally likely (rejection sampling from
uniform deals).  Hidden choices are drawn uniformly among the moves the seat saw alike, step by
step, which is not the posterior of any particular opponent.  Cost: one replay of the game per
try (see docs/internals.md for figures); a world is kept only if every step matches.
"""

from __future__ import annotations

import random
import re

import attrs

from ..language.rng import below as draw_below, seed_state, shuffle as real_shuffle
from ..language.source import Diagnostic, ScriptError
from ..machine.runtime import TABLE
from .knowledge import HIDDEN, HIDDEN_CHOICE, name_pattern, seat_order

FRESH_TRIES = 8  # worlds dealt afresh before the last one is repaired (each one a whole game)
ROUNDS = 4  # fresh tries and a repair, before determinize gives up (a repair's walk can be stuck)
REPAIRS = 200  # changes a repair tries before determinize gives up
SWAPS_TRIED = 40  # exchanges tried where a world failed, before one is dealt anyway
TRIALS_PER_MOVE = 8  # moves a try may make, per move of the game, before it starts again


class WorldChance:
    """The generator of a world being sampled: the real game's draws, and at the k-th shuffle the
    cards not in `fixed[k]` (those the seat names at some time after it: it must find them where
    it did) dealt again among the places the real shuffle gave them: as `outcomes[k]` says (the
    order of those cards in those places), or at random, and then written there."""

    __slots__ = ("state", "fixed", "rng", "shuffles", "outcomes")

    def __init__(self, state: int, fixed: list, rng: random.Random, outcomes: dict | None = None):
        self.state, self.fixed, self.rng, self.shuffles = state, fixed, rng, 0
        self.outcomes = {} if outcomes is None else outcomes

    def shuffle(self, items: list) -> "WorldChance":
        self.state = real_shuffle(self.state, items)
        k = self.shuffles
        fixed = self.fixed[k] if k < len(self.fixed) else self.fixed[-1]
        self.shuffles += 1
        free = [i for i, c in enumerate(items) if not fixed >> c & 1]
        cards = self.outcomes.get(k)
        if cards is None or sorted(cards) != sorted(items[i] for i in free):
            # dealt from the cards in deck order, not in the order the real shuffle left them: the
            # world then depends on what the seat knows and on `rng` only, never on where the
            # hidden cards really lie (an agent's search must not either: tests/test_agents.py)
            cards = sorted(items[i] for i in free)
            self.rng.shuffle(cards)
            self.outcomes[k] = cards
        for i, c in zip(free, cards):
            items[i] = c
        return self

    def below(self, n: int):
        self.state, k = draw_below(self.state, n)
        return self, k

    def copy(self) -> "WorldChance":
        """A copy for a world copied to try a move (the outcomes shared: a shuffle is dealt once)."""
        other = WorldChance(self.state, self.fixed, self.rng, self.outcomes)
        other.shuffles = self.shuffles
        return other


def determinize(st, seat: int, rng, faults: tuple):
    """A world `seat` cannot tell from `st`, as the module's docstring says (GameState.determinize);
    `faults`: what applying a move raises when the world cannot make it."""
    if isinstance(rng, int):
        rng = random.Random(rng)
    elif not callable(getattr(rng, "shuffle", None)):
        raise TypeError(f"determinize draws with a random.Random or an int seed, not {rng!r}")
    if st.pause_point is not None:
        raise ScriptError([Diagnostic("E0712", "determinize needs a game waiting for a decision; this one is paused",
                                      None, hint="`step` or `run` it on to its next decision first")])
    sampler = _Sampler(st, seat, rng, faults)
    found = (None,)
    for _ in range(ROUNDS):
        for _ in range(FRESH_TRIES):
            found = sampler.try_once({})
            if found[0] is not None:
                break
        else:
            found = sampler.repair(found)
        if found[0] is not None:
            break
    world, outcomes = found[0], found[1]
    if world is None:
        raise ScriptError([Diagnostic("E0713", f"no world {st.prog.seat_label(seat)} cannot tell from this one was found", None,
                                      hint="what the seat saw leaves few deals possible; docs/api.md says how "
                                      "worlds are drawn")])
    world.rng = seed_state(rng.getrandbits(64))
    world.seed = 0  # not a replay: the sampled shuffles are not the seed's
    return world, WorldRecipe(st.seed, sampler.fixed, outcomes, len(world.history), world.rng)


@attrs.frozen
class WorldRecipe:
    """How a world was dealt: the real seed, and each shuffle's cards in their sampled places, up
    to its `moves`-th move; from there on, the generator `after`.  With the world's moves,
    enough to play it again (its full log is made so, when asked for)."""

    seed: int
    fixed: list
    outcomes: dict
    moves: int
    after: int

    def chance(self) -> WorldChance:
        return WorldChance(seed_state(self.seed), self.fixed, random.Random(0), self.outcomes)


class _Sampler:
    """What one determinization compares its tries with: the seat's observations of the real game,
    step by step, and what it may not change (the cards it named after each shuffle)."""

    def __init__(self, st, seat, rng, faults):
        journal = st.journal_now()
        entries = journal.finished(st)
        self.st, self.seat, self.rng, self.faults = st, seat, rng, faults
        self.observed = _observations(entries, seat, st.n)
        self.fixed = _fixed_at_shuffles(entries, journal, seat)
        self.moves = list(st.history)
        self.listings, self.own = _seat_listings(st, seat, faults)
        self.real = st.information_state(seat)
        self.later = _named_from_steps(entries, journal, seat, len(self.moves))
        self.names = name_pattern(st.prog)

    def try_once(self, outcomes: dict) -> tuple:
        """One world played from the start, the shuffles dealt as `outcomes` says (at random where
        it says nothing, and then written there): a random depth-first search over the moves the
        seat saw alike (a step none of whose moves shows what the seat saw goes back to the step
        before), within a budget of moves tried.  (the world or None, outcomes, the furthest step
        reached, the world there)."""
        st, seat = self.st, self.seat
        chance = WorldChance(seed_state(st.seed), self.fixed, self.rng, outcomes)
        world = st.game._started(st.n, st.seed, st.options, st.budget, None, True, frozenset(), chance, only=seat)
        if world.fault is not None or _step_observed(world, seat, 0) != _at(self.observed, 0):
            return None, outcomes, 0, world
        frames = []  # per step entered: (the world before it, its moves not tried yet)
        budget = TRIALS_PER_MOVE * len(self.moves) + TRIALS_PER_MOVE
        step, furthest = 1, (1, world)
        while step <= len(self.moves):
            if len(frames) < step:
                frames.append((world, self._candidates(world, step)))
            before, left = frames[-1]
            if step > furthest[0]:
                furthest = (step, before)
            world = None
            while left and budget:
                budget -= 1
                world = self._after(before, left.pop(), step)
                if world is not None:
                    break
            if world is None:
                frames.pop()
                if not frames or not budget:
                    return None, outcomes, *furthest
                step -= 1  # the step before tries its next move
                continue
            step += 1
        last = len(self.moves) + 1
        if world.information_state(seat) != self.real or st.waiting is not None and not world.legal_moves() \
                or last in self.listings and world.move_texts(seat) != self.listings[last]:
            return None, outcomes, last, world
        return world, outcomes, len(self.moves) + 2, world

    def repair(self, found) -> tuple:
        """Worlds that keep failing (what the seat saw leaves few deals possible: a seat asked for
        a rank it must hold, a card captured by one of a given value, a clue that points at a
        place): from the last try, exchange two cards of one shuffle's deal, and keep the change
        when the world goes as far or further.  The exchange is looked for where the world
        failed: two cards whose exchange there lets that step be seen as the seat saw it (the
        whole game is then played again to check it); else any two.  A walk through the deals
        towards one the whole game fits, from a random one."""
        _world, outcomes, reached, there = found
        for _ in range(REPAIRS):
            if not outcomes:
                break
            k, x, y = self._fixing_swap(there, reached, outcomes) or self._any_swap(outcomes)
            if x is None:
                continue
            changed = {key: cards[:] for key, cards in outcomes.items()}
            cards = changed[k]
            i, j = cards.index(x), cards.index(y)
            cards[i], cards[j] = y, x
            tried = self.try_once(changed)
            if tried[0] is not None:
                return tried
            if tried[2] >= reached:
                _world, outcomes, reached, there = tried
        return None, outcomes, reached, there

    def _any_swap(self, outcomes) -> tuple:
        k = self.rng.choice(sorted(outcomes))
        cards = outcomes[k]
        if len(cards) < 2:
            return k, None, None
        x, y = self.rng.sample(cards, 2)
        return k, x, y

    def _fixing_swap(self, there, step, outcomes):
        """(shuffle, card, card) whose exchange in `there` (the world before the step that failed)
        lets the step be seen as the seat saw it, among a few pairs tried; None if none does."""
        if step > len(self.moves) or there.waiting is None:
            return None
        dealt = [(k, cards) for k, cards in outcomes.items() if len(cards) > 1]
        for _ in range(SWAPS_TRIED):
            k, cards = self.rng.choice(dealt)
            x, y = self.rng.sample(cards, 2)
            if there.loc[x] == there.loc[y]:
                continue
            trial = _relabeled(there, x, y)
            for move in self._candidates(trial, step)[:3]:
                if self._after(trial, move, step) is not None:
                    return k, x, y
        return None

    def _candidates(self, world, step) -> list:
        """The world's moves at `step` the seat would have seen as it saw the real one, shuffled."""
        seen = _at(self.observed, step)
        decision = next((o for o in seen if o[0] == "decision"), None)
        if decision is None or world.waiting is None or world.current_player != decision[2]:
            return []
        _kind, text, actor, _detail = decision
        legal = world.legal_moves()
        if step in self.listings and world.move_texts(self.seat) != self.listings[step]:
            return []  # the seat was told other moves
        if actor == self.seat:
            if step in self.own:  # it chose by place among cards it could not see: the move at that place
                ours = seat_order(world, self.seat, legal)
                return [ours[self.own[step]]] if self.own[step] < len(ours) else []
            return [m for m in legal if m.text == self.moves[step - 1]]
        if text == HIDDEN_CHOICE:
            candidates = legal[:]
        else:
            pattern = _pattern(world, text)
            candidates = [m for m in legal if pattern.fullmatch(m.text)]
        # a card the seat names from this step on must be moved by the world's move exactly when
        # the real move moved it: it sees it where the real move put it (Hearts: the three cards
        # passed to it were the three chosen, though the choice was hidden)
        later = self.later[step]
        if later:
            must = self._cards(self.moves[step - 1]) & later
            candidates = [m for m in candidates if self._cards(m.text) & later == must]
        self.rng.shuffle(candidates)
        return candidates

    def _cards(self, text: str) -> int:
        """A bitmask of the cards a move's text names."""
        out = 0
        if self.names is not None:
            by_name = self.st.prog.card_by_name
            for name in self.names.findall(text):
                out |= 1 << by_name[name]
        return out

    def _after(self, before, move, step):
        """A copy of `before` with `move` made, if the seat would have seen the step as it saw
        the real one."""
        trial = before.clone()
        if type(before.rng) is WorldChance:
            trial.rng = before.rng.copy()
        try:
            trial.apply(move)
        except self.faults:  # a world where the move faults is not one the seat saw
            return None
        return trial if _step_observed(trial, self.seat, step) == _at(self.observed, step) else None


def _relabeled(world, x: int, y: int):
    """A copy of `world` with cards `x` and `y` exchanged where they lie (and in what its viewers
    know of them): to try an exchange before dealing it again (the frame's and the variables'
    values are left as they are: what this copy shows is only a guess, checked by a replay)."""
    w = world.clone()
    if type(w.rng) is WorldChance:
        w.rng = w.rng.copy()

    def swap(c):
        return y if c == x else x if c == y else c
    for cards in w.zones:
        if x in cards or y in cards:
            cards[:] = [swap(c) for c in cards]
    for table in (w.loc, w.vis, w.journal._loc, w.journal._vis):
        table[x], table[y] = table[y], table[x]
    w.journal.relabel(x, y)
    w.legal_cache = None
    return w


def _fixed_at_shuffles(entries, journal, seat) -> list:
    """Per shuffle of the real game, the cards `seat` named at some time after it (where the
    shuffle put them is where the seat found them), and last the cards it names now."""
    now = journal.mind(seat).named()
    out, later = [], now
    for e in reversed(entries):
        if e.named:
            later |= e.named[seat]
        if e.detail[:1] == ("shuffle",):
            out.append(later)
    out.reverse()
    return out + [now]


def _named_from_steps(entries, journal, seat, steps) -> list:
    """Per step, the cards `seat` names in that step's events or after (or names now)."""
    by_step = [0] * (steps + 2)
    for e in entries:
        if e.named and e.step < len(by_step):
            by_step[e.step] |= e.named[seat]
    out, later = [0] * (steps + 2), journal.mind(seat).named()
    for step in range(steps + 1, -1, -1):
        later |= by_step[step]
        out[step] = later
    return out


def _observations(entries, seat, n) -> list:
    """Per step, what `seat` observed of it: (kind, text, actor, detail) of each entry it saw,
    its judgements of its own rules left out (a tracer's, not the game's)."""
    out = []
    for e in entries:
        text = e.text(seat, n)
        if text is None or e.kind == "rule":
            continue
        while len(out) <= e.step:
            out.append([])
        out[e.step].append((e.kind, text, e.actor, e.detail))
    return out


def _step_observed(world, seat, step) -> list:
    entries = world.journal.entries_from_step(world, step)
    return [(e.kind, e.text(seat, world.n), e.actor, e.detail) for e in entries
            if e.step == step and e.kind != "rule" and e.text(seat, world.n) is not None]


def _at(observed, step) -> list:
    return observed[step] if step < len(observed) else []


def _seat_listings(st, seat, faults) -> tuple:
    """What `seat` was told at each of its decisions (and the table's) in the real game: step ->
    its listing as it read it (a world must have told it the same: legal moves can depend on
    cards it cannot see), and step -> the place in that listing of the move it made where the
    move named a card it could not see (it chose by place; a world's move is the one there).
    Found by playing the real game again, recording what that seat observes only."""
    listings, places = {}, {}
    again = st.game._started(st.n, st.seed, st.options, st.budget, None, True, frozenset(), only=seat)
    for step, move in enumerate(list(st.history) + [None], 1):
        if again.current_player in (seat, TABLE) and again.pause_point is None:
            listed = again.moves_for(seat)
            texts = again.move_texts(seat)
            listings[step] = texts
            if move is not None and HIDDEN in texts[[m.text for m in listed].index(move)]:
                places[step] = [m.text for m in listed].index(move)
        if move is None:
            break
        try:
            again.apply(move)
        except faults:
            break
    return listings, places


_PATTERNS: dict = {}


def _pattern(world, text: str):
    """A move text as the seat saw it, each ?? standing for any card name."""
    key = (id(world.prog), text)
    found = _PATTERNS.get(key)
    if found is None:
        names = name_pattern(world.prog)
        any_card = names.pattern if names is not None else r"\S+"
        wildcard = "(?:" + any_card + ")"
        found = re.compile(wildcard.join(re.escape(part) for part in text.split(HIDDEN)))
        if len(_PATTERNS) > 10_000:
            _PATTERNS.clear()
        _PATTERNS[key] = found
    return found

