"""Saved states mutated field by field (types, ranges, references): restore() either refuses with
E0801, or gives a state that behaves exactly as a genuine one: its legal moves and the result
of applying each are those of the state rebuilt from its own JSON and of its clone, and nothing
but a documented exception ever comes out."""

from __future__ import annotations

import copy
import json

from hypothesis import event, given
from hypothesis import strategies as st

from cardgame import interpreter
from helpers import GAMES, ROOT

GAMES_USED = [interpreter.load(str(GAMES / name)) for name in ("booray.cardgame", "bouncer.cardgame")] + \
    [interpreter.load(str(ROOT / "tests" / "scripts" / name)) for name in ("reactions.cardgame", "commit_reveal.cardgame")]

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 70), st.sampled_from([2 ** 62, 2 ** 62 + 1, -2 ** 64, 2 ** 64, 10 ** 400]),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=5),
    st.sampled_from(["P1", "\x1b[2J", "hearts", "\u200b"]),
    st.lists(st.integers(-2, 60), max_size=4), st.just([[[[[[[[[[1]]]]]]]]]]), st.just({}), st.just({"a": 1}),
)


def genuine(data_draw):
    game = data_draw(st.sampled_from(GAMES_USED))
    seed = data_draw(st.integers(0, 10_000))
    steps = data_draw(st.integers(0, 60))
    state = game.new_game(players=data_draw(st.integers(game.min_players, game.max_players)), seed=seed)
    agent = interpreter.RandomAgent(seed)
    for _ in range(steps):
        moves = state.legal_moves()
        if state.is_over or not moves:
            break
        state.apply(agent.choose(moves))
    return game, state


def paths(value, prefix=()):
    """Every place in the JSON of a state: (path, value)."""
    yield prefix, value
    if isinstance(value, dict):
        for key in value:
            yield from paths(value[key], prefix + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value[:40]):
            yield from paths(item, prefix + (i,))


def mutate(data, path, draw):
    """`data` with the value at `path` replaced: by junk, a neighbour of a number, another
    genuine value of the same field, or removed."""
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    old = parent[key]
    kind = draw(st.sampled_from(["junk", "nudge", "drop", "swap"]))
    if kind == "nudge" and type(old) is int:
        parent[key] = old + draw(st.sampled_from([-1, 1, -2 ** 62, 2 ** 62]))
    elif kind == "drop" and isinstance(parent, dict):
        del parent[key]
    elif kind == "swap" and isinstance(parent, list) and len(parent) > 1:
        other = draw(st.integers(0, len(parent) - 1))
        parent[key], parent[other] = parent[other], old
    else:
        parent[key] = draw(JUNK)


def behaviour(state):
    """What a state does next: its legal moves and, for the first few, the state each leads to."""
    try:
        moves = [m.text for m in state.legal_moves()]
    except interpreter.GameFault:
        moves = None
    after = []
    for text in (moves or [])[:3]:
        following = state.clone()
        try:
            following.apply(text)
            after.append(json.dumps(following.to_json(), sort_keys=True))
        except interpreter.GameFault as err:
            after.append(("fault", err.diagnostic.message))
    return moves, state.fault and state.fault.message, after


@given(st.data())
def test_a_mutated_state_is_refused_or_behaves_like_a_genuine_one(data):
    game, state = genuine(data.draw)
    saved = json.loads(json.dumps(state.to_json()))
    where = data.draw(st.sampled_from([p for p, _ in paths(saved) if p]))
    damaged = copy.deepcopy(saved)
    mutate(damaged, where, data.draw)
    try:
        restored = game.restore(damaged)
    except interpreter.ScriptError as err:
        assert [d.code for d in err.diagnostics] == ["E0801"]
        event("refused")
        return
    event("restored")
    again = game.restore(json.loads(json.dumps(restored.to_json())))  # as if saved and read back
    assert behaviour(restored.clone()) == behaviour(again.clone()) == behaviour(restored)
    if restored.to_json() == state.to_json():
        assert behaviour(game.restore(saved)) == behaviour(state.clone())


@given(st.data())
def test_a_genuine_state_restores_exactly(data):
    game, state = genuine(data.draw)
    restored = game.restore(json.loads(json.dumps(state.to_json())))
    assert restored.to_json() == state.to_json()
    assert behaviour(restored) == behaviour(state.clone())
