"""The two properties of issue 34, over every shipped game and every script in tests/scripts.

*Indistinguishability*: a seat S's observation, information state, log, view, listing, answers
and table are functions of what S observed.  A second history is made that differs from a random
game only in what S could not observe (other deals of the cards S never saw, other choices S
could not tell apart), with the same observable moves; wherever the two histories look the same
to S, by an account of observability written here from the rules of §7 alone (what S sees
where, as it happens; never the knowledge model), everything S is told must be the same.

*Determinization*: every world `determinize` returns has the real information state, the same
decision waiting with moves to make, and can be played to its end.  Where hidden information comes
only from chance, small scripts show the worlds uniform over the deals consistent with what the
seat saw (a chi-square test).

Bounded in CI (a couple of examples per script, tests/conftest.py's profile); HYPOTHESIS_PROFILE=soak
runs many more.
"""

from __future__ import annotations

import os
import random
import re

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from cardgame import interpreter
from cardgame.interpreter.engine.knowledge import slot_visibility, zone_seen
from cardgame.interpreter.engine.worlds import WorldChance
from cardgame.interpreter.language.rng import seed_state
from cardgame.repl.table import Deck, render, snapshot
from helpers import PLAYED_SCRIPTS, ROOT

SOAK = os.environ.get("HYPOTHESIS_PROFILE") == "soak"
PER_SCRIPT = settings(max_examples=40 if SOAK else 2, deadline=None,
                      suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SCRIPTS = [pytest.param(p, id=str(p.relative_to(ROOT))) for p in PLAYED_SCRIPTS]
_GAMES: dict = {}


def game_of(path):
    if path not in _GAMES:
        _GAMES[path] = interpreter.load(str(path))
    return _GAMES[path]


# ---- an account of what a seat observes, from the rules alone -----------------------------------

class Observed:
    """What `seat` observes of a game, event by event, worked out from the all-seeing trace and
    the rules of visibility (a zone the seat looks into, a card face up, a card shown to it at
    that moment): per event, its kind, the statement that made it, the zones a card left and
    went to, and a card's name only where the seat sees it then.  Texts (logs, variables) are
    kept whole but for the names of cards it does not see: an account that says too much only
    makes two histories look different sooner, never hides a leak."""

    def __init__(self, state, seat):
        self.state, self.seat, self.tokens = state, seat, []
        self.loc, self.vis = state.loc[:], state.vis[:]
        prog = state.prog
        self.names, self.by_name = prog.card_names, prog.card_by_name
        self.pattern = re.compile(r"(?<![\w.])(?:" + "|".join(map(re.escape, sorted(self.names, key=len, reverse=True)))
                                  + r")(?![\w.])") if self.names else None
        self.ever = {c for c in range(len(state.loc)) if self.sees(c)}
        self.hidden = False

    def sees(self, card, loc=None, vis=None) -> bool:
        st = self.state
        loc, vis = loc or st.loc, vis or st.vis
        return bool(vis[card] & st.FACE_UP) or zone_seen(slot_visibility(st), loc[card], self.seat)

    def masked(self, text: str) -> str:
        if self.pattern is None:
            return text
        return self.pattern.sub(lambda m: m.group(0) if self.sees(self.by_name[m.group(0)]) else "??", text)

    def _card(self, text: str):
        found = self.pattern.search(text) if self.pattern else None
        return None if found is None else self.by_name[found.group(0)]

    def __call__(self, event) -> None:
        st, kind, span = self.state, event.kind, str(event.span)
        if kind in ("move", "reveal", "hide", "peek"):
            card = self._card(event.text)
            before = self.sees(card, self.loc, self.vis)
            seen = before or self.sees(card) or kind == "peek" and event.text.endswith(f" to P{self.seat}")
            bottom = kind == "move" and st.zones[st.loc[card]][0] == card and len(st.zones[st.loc[card]]) > 1
            self.tokens.append((kind, span, self.loc[card], st.loc[card], bottom, self.names[card] if seen else None))
            if seen:
                self.ever.add(card)
        elif kind == "decision":  # another seat's simultaneous choice shows only that it was made
            self.tokens.append((kind, span, "hidden" if self.hidden else self.masked(event.text)))
        elif kind != "rule":
            self.tokens.append((kind, span, self.masked(event.text)))
        self.ever |= {c for c in range(len(st.loc)) if self.sees(c)}
        self.loc, self.vis = st.loc[:], st.vis[:]

    def before_move(self, state) -> None:
        """Told before each move (and at the end): whether it is another seat's hidden choice; at
        the seat's own decisions (and the table's) it reads its listing, its moves as it sees them."""
        self.hidden = state.choice_is_hidden and state.current_player != self.seat
        if state.current_player in (self.seat, interpreter.TABLE):
            self.tokens.append(("listing", sorted(self.masked(m.text) for m in state.legal_moves())))

    def decision_token(self, state, move) -> str:
        """How a move reads to the seat before it is made (its cards named where the seat sees them)."""
        if state.choice_is_hidden and state.current_player != self.seat:
            return "hidden"
        return self.masked(move.text)


def followed(game, players, seed, seat, chance=None):
    """A recorded game, every event of it (its set-up included) followed by an Observed account
    of `seat`: (state, account)."""
    holder = []
    original = interpreter.GameState.set_tracer

    def catch(self, callback):
        if not holder:
            holder.append(self)
            holder.append(Observed(self, seat))
        original(self, callback)

    def listen(event):
        holder[1](event)
    interpreter.GameState.set_tracer = catch
    try:
        state = game._started(players, seed, {}, game.budget(), listen, True, frozenset(), chance)
    finally:
        interpreter.GameState.set_tracer = original
    return state, holder[1]


# ---- indistinguishability -------------------------------------------------------------------------

def seat_outputs(state, seat, deck) -> tuple:
    """Everything the engine tells `seat`: view, observation (log and knowledge), information
    state, its events, its listing when it is to act, a few answers, and the REPL's table."""
    outputs = [state.view(seat), state.observation(seat), state.information_state(seat).text,
               [(e.kind, e.text, e.step, e.actor) for e in state.observed_events(seat) if e.kind != "rule"]]
    actor = state.current_player
    if actor == seat or actor == interpreter.TABLE:
        outputs.append(state.move_texts(seat))
    for text in _questions(state):
        value, diags = state.evaluate(text, viewer=seat)
        outputs.append((value, [d.message for d in diags]))
    outputs.append(render(snapshot(state, seat, actor in (seat, interpreter.TABLE), None), deck, 100, False))
    return tuple(repr(o) for o in outputs)


def _questions(state) -> list:
    prog = state.prog
    zones = [name if kind == "shared" else f"{name}[P0]" for name, (kind, _) in prog.zone_index.items()]
    out = [f"{fn}({z})" for z in zones[:4] for fn in ("count", "top", "cards")]
    if prog.card_names:
        out += [f"{prog.card_names[i % len(prog.card_names)]} in {z}" for i, z in enumerate(zones[:4])]
    return out


def _random_moves(game, players, seed, steps) -> list:
    agent = interpreter.RandomAgent(seed)
    state = game.new_game(players=players, seed=seed)
    moves = []
    for _ in range(steps):
        if state.is_over or state.fault is not None:
            break
        move = agent.choose(state.legal_moves())
        moves.append(move.text)
        state.apply(move)
    return moves


@pytest.mark.parametrize("path", SCRIPTS)
@PER_SCRIPT
@given(seed=st.integers(0, 2**16), steps=st.integers(0, 60), which=st.integers(0, 7), choice_seed=st.integers(0, 99))
@example(seed=4, steps=28, which=1, choice_seed=88)  # Skull: a disc drawn at random from P0's hand was named to P1
def test_a_seat_is_told_the_same_in_histories_it_cannot_tell_apart(path, seed, steps, which, choice_seed):
    game = game_of(path)
    players = game.min_players
    seat = which % players
    moves = _random_moves(game, players, seed, steps)
    # the cards the seat ever sees in this history: the other history deals only the others anew
    probe, seen = followed(game, players, seed, seat)
    seen.before_move(probe)
    for move in moves:
        probe.apply(move)
        seen.before_move(probe)
    fixed = sum(1 << c for c in seen.ever)
    rng = random.Random(choice_seed)
    one, first = followed(game, players, seed, seat)
    two, second = followed(game, players, seed, seat, WorldChance(seed_state(seed), [fixed], rng))
    deck = Deck.of(game.cards, game.shown_orders, game.face_down_zones)
    first.before_move(one)
    second.before_move(two)
    if first.tokens != second.tokens:
        return  # a deal the seat would see (a card it saw before a shuffle, say): not this property's
    assert seat_outputs(one, seat, deck) == seat_outputs(two, seat, deck)
    for move in moves:
        if one.waiting is None or two.waiting is None:
            break
        mine = next(m for m in one.legal_moves() if m.text == move)
        if one.current_player == seat:
            alike = [m for m in two.legal_moves() if m.text == move]
        else:
            token = first.decision_token(one, mine)
            alike = [m for m in two.legal_moves() if second.decision_token(two, m) == token]
        if not alike:
            break
        other = next((m for m in alike if m.text == move), None)
        if other is None or rng.random() < 0.5:
            other = rng.choice(alike)  # another choice the seat cannot tell from this one
        try:
            one.apply(mine)
            two.apply(other)
        except (interpreter.IllegalMove, interpreter.GameFault):
            break
        first.before_move(one)
        second.before_move(two)
        if first.tokens != second.tokens:
            break  # from here on the seat could tell the histories apart
        assert seat_outputs(one, seat, deck) == seat_outputs(two, seat, deck), (move, other.text)


# ---- determinization --------------------------------------------------------------------------------

@pytest.mark.parametrize("path", SCRIPTS)
@PER_SCRIPT
@given(seed=st.integers(0, 2**16), steps=st.integers(0, 80), which=st.integers(0, 7), rng_seed=st.integers(0, 2**16),
       playout=st.integers(0, 2**16))
def test_every_world_has_the_real_information_state_and_plays_to_its_end(path, seed, steps, which, rng_seed, playout):
    game = game_of(path)
    players = game.min_players
    state = game.new_game(players=players, seed=seed, record=True)
    agent = interpreter.RandomAgent(seed)
    for _ in range(steps):
        if state.is_over or state.fault is not None or state.pause_point is not None:
            break
        state.apply(agent.choose(state.legal_moves()))
    if state.pause_point is not None or state.fault is not None:
        return
    seat = which % players
    world = state.determinize(seat, random.Random(rng_seed))
    assert world.information_state(seat) == state.information_state(seat)
    assert world.current_player == state.current_player and world.is_over == state.is_over
    if state.current_player in (seat, interpreter.TABLE):
        assert world.move_texts(seat) == state.move_texts(seat)
    if not state.is_over:
        assert world.legal_moves()
    player = interpreter.RandomAgent(playout)
    for _ in range(interpreter.limits.MAX_DECISIONS):
        if world.is_over:
            break
        assert world.fault is None, world.fault
        moves = world.legal_moves()
        assert moves, world.fault
        world.apply(player.choose(moves))
    assert world.is_over and world.fault is None


# ---- uniform worlds where only chance hides things -------------------------------------------------

DEALT = '''game "Dealt"
players 2
deck d in stock {
    card "A" { rank: 1 }
    card "B" { rank: 2 }
    card "C" { rank: 3 }
    card "D" { rank: 4 }
    card "E" { rank: 5 }
}
zone stock: shared hidden
zone hand: per player owner
zone table: shared public
phase main {
    shuffle stock
    deal 1 from stock to hand of players
    move top(stock) to hand[seat(1)]
    move top(stock) to table face up
    decide seat(0) "Go on?" {
        go
    }
    end game
}
'''


def _chi_square(counts, expected) -> float:
    return sum((c - expected) ** 2 / expected for c in counts)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_worlds_are_uniform_over_the_deals_the_seat_cannot_tell_apart(tmp_path, seed):
    """P0 holds one card and sees one on the table; P1 holds two, the stock one: the 3 cards P0
    does not see lie in 3! = 6 ways, each as likely, in the worlds drawn for P0 (chi-square, 5
    degrees of freedom, 0.1% level: 20.5; the draws are the same every run)."""
    path = tmp_path / "dealt.cardgame"
    path.write_text(DEALT)
    state = interpreter.load(str(path)).new_game(seed=seed, record=True)
    prog = state.prog
    unseen = [prog.zone_slot("hand", 1, 2), prog.zone_slot("stock", None, 2)]
    counts: dict = {}
    samples = 600
    for k in range(samples):
        world = state.determinize(0, random.Random(k))
        assert world.information_state(0) == state.information_state(0)
        key = tuple(tuple(world.zones[slot]) for slot in unseen)
        counts[key] = counts.get(key, 0) + 1
    hidden = sorted(set(range(5)) - set(state.zones[prog.zone_slot("hand", 0, 2)]) -
                    set(state.zones[prog.zone_slot("table", None, 2)]))
    assert len(hidden) == 3 and len(counts) == 6  # every arrangement of the three appears
    assert _chi_square(list(counts.values()), samples / 6) < 20.5, counts
