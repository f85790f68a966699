"""What each seat knows (interpreter/knowledge.py): every leak of issue 8 reproduced and closed,
the moves that name cards their own seat cannot see (listed, typed, completed, explained, logged
and traced as `??`), a hidden card an event hands to a rule (never read for a seat that cannot
see it, and lint says a rule judges by it), and the information-state contract checked as
properties over every shipped game.

The contract (OpenSpiel's): two states have the same `information_state(seat)` exactly when the
seat cannot tell them apart.  `determinize(seat, rng)` deals the cards the seat does not know at
random, so every determinization must look the same to that seat as the real state: the same
information state, observation and (when it is to act) legal moves.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from cardgame import interpreter
from helpers import ROOT, load_game, load_text, session_of
from cardgame.interpreter import TABLE
from cardgame.interpreter.engine.knowledge import HIDDEN, HIDDEN_CHOICE, zone_visibility
from cardgame.repl.cli import main
from cardgame.repl.completer import ReplCompleter
from cardgame.repl.session import Session

SHIPPED = sorted(p.name for p in (ROOT / "games").glob("*.cardgame"))
SCRIPTS = ROOT / "tests" / "scripts"
GAMES = {name: load_game(name) for name in SHIPPED}
GAMES.update({name: interpreter.load(str(SCRIPTS / name))
              for name in ("reactions.cardgame", "commit_reveal.cardgame", "partnership.cardgame")})


def played(game, seed: int, steps: int, players=None, options=None):
    """A recorded game after up to `steps` random moves, and the cards each seat saw at every
    event on the way (an independent account of visibility, taken from the trace)."""
    holder, seen = [], {}

    def look(_event):
        for seat in range(holder[0].n):
            seen.setdefault(seat, set()).update(visible(holder[0], seat))

    # The state is made inside new_game and traced from its first set-up event: catch it there.
    original = interpreter.GameState.set_tracer

    def catch(self, callback):
        holder[:] = holder or [self]
        original(self, callback)
    interpreter.GameState.set_tracer = catch
    try:
        state = game.new_game(players=players, seed=seed, options=options, record=True, tracer=look)
    finally:
        interpreter.GameState.set_tracer = original
    look(None)
    agent = interpreter.RandomAgent(seed)
    for _ in range(steps):
        if state.is_over or state.fault is not None:
            break
        state.apply(agent.choose(state.legal_moves()))
    state.set_tracer(None)
    return state, seen


def visible(state, seat) -> set:
    """Card names `seat` sees now, straight from the rules of §7 (zone visibility, face up,
    own `owner` zones, its team's `team` zones, the other seats' `others` zones, cards shown to it)."""
    prog = state.prog
    names = set()
    for slot, cards in enumerate(state.zones):
        zone, owner = prog.zone_of_slot(slot, state.n)
        vis = zone_visibility(state, prog.tables.zones[zone])
        for c in cards:
            if (vis == "public" or state.vis[c] & state.FACE_UP or (vis == "owner" and owner == seat)
                    or (vis == "team" and state.teams.of[owner] == state.teams.of[seat])
                    or (vis == "others" and owner != seat)
                    or state.vis[c] >> seat & 1):
                names.add(prog.card_names[c])
    return names


_PATTERNS: dict = {}


def card_names_in(text: str, game) -> set:
    """Every card name written in `text` (`QD.suit` names QD)."""
    pattern = _PATTERNS.get(id(game))
    if pattern is None:
        names = sorted(game.program.card_names, key=len, reverse=True)
        pattern = _PATTERNS[id(game)] = re.compile(r"(?<![\w.])(?:" + "|".join(map(re.escape, names)) + r")(?!\w)")
    return set(pattern.findall(text))


# ---- the leaks of the issue, each reproduced first ------------------------------------------------

def bouncer_session(seed=1):
    s = Session()
    s.start(str(ROOT / "games" / "bouncer.cardgame"), seed=seed)
    return s


_HIDDEN_DEFINITIONS = """game "Hidden"
players 2
deck d in stock {
    ordered rank: 1, 2, 3, 4
    suit: C, D
}
zone stock: shared hidden
zone hand: per player owner
define theirs = [c.rank for c in hand[seat(1)]]
define best(p: player) = max c in hand[p] by c.rank
phase main {
    deal 2 from stock to hand of players
    decide seat(0) "Go?" {
        go
    }
    end game
}
"""


def test_a_hidden_definition_is_refused_with_one_message(tmp_path):
    """`eval` of a definition that reads another hand prints its E0710 and nothing on top (it
    printed `error: hidden from this view` above it); a bad expression likewise its own code."""
    path = tmp_path / "hidden.cardgame"
    path.write_text(_HIDDEN_DEFINITIONS)
    s = Session()
    s.start(str(path), seed=1)
    s.execute("view P0")
    for command in ("eval theirs", "eval best(P1)", "watch best(P1).rank", "break when theirs == [1, 2]"):
        out = s.execute(command)
        assert out.startswith("error[E0710]: ") and "which P0 cannot see" in out, command
        assert out.count("error") == 1 and s.last_failed, command
    out = s.execute("eval theirs +")
    assert out.startswith("error[E0101]: ") and out.count("error") == 1
    assert s.execute("eval best(P0).rank") in ("3", "4") and not s.last_failed


def test_eval_watch_and_break_when_refuse_reading_another_hand():
    s = bouncer_session()
    hidden = set(s.state.view("all")["zones"]["hand"]["P2"])
    s.execute("view P1")
    for command in ("eval [x.rank for x in hand[P2]]", "watch [x.rank for x in hand[P2]]",
                    "break when any x in hand[P2] where x.rank == A", "eval top(points).rank"):
        out = s.execute(command)
        assert out.startswith("error[E0710]: ") and out.count("error") == 1, command  # one message
        assert "which P1 cannot see" in out and not card_names_in(out, s.game) & hidden
    out = s.execute("eval [x.rank for x in hand[P2]]")
    assert "reads the cards of `hand[P2]` (their `rank`), which P1 cannot see" in out
    assert "reads the cards of `points`" in s.execute("eval top(points).rank")
    # sizes and one's own cards stay answerable; a card itself reads ??
    assert s.execute("eval count(hand[P2])") == "13"
    assert s.execute("eval top(hand[P2])") == HIDDEN
    assert s.execute("eval [x.rank for x in hand[P1]]").startswith("[")
    assert s.execute("watch count(points)") == "watch 1: count(points) = 12"
    assert not s.watches or "[x.rank" not in " ".join(s.watches.values())  # refused watches are not kept
    s.execute("view all")
    assert s.execute("eval top(points).rank") != ""  # the all-seeing view keeps full power


def test_why_about_another_seats_decision_is_refused():
    s = bouncer_session()
    st = s.state
    assert st.current_player == 0
    p0 = st.view("all")["zones"]["hand"]["P0"]
    s.execute("view P1")
    held, other = f"play {p0[0]}", "play " + next(c for c in st.view(1)["zones"]["hand"]["P1"])
    answers = {s.execute(f"why {text}") for text in (held, other, "99", "1")}
    assert len(answers) == 1  # the same refusal whatever is asked: nothing about P0's hand or move count
    answer = answers.pop()
    assert answer.startswith("error: `why` reads P0's choices, which P1 cannot see")
    # playing for P0 from P1's view would test P0's hand the same way
    assert "their choices are hidden from P1's view" in s.execute(f"play {p0[0]}")
    assert st.explain(held, viewer=1).legal is None


def test_why_under_ones_own_view_reads_only_what_one_knows():
    s = bouncer_session()
    s.execute("view P0")
    out = s.execute("why 1")
    assert "legal" in out and "error" not in out
    others = set(s.state.view("all")["zones"]["hand"]["P1"]) | set(s.state.view("all")["zones"]["hand"]["P2"])
    assert not card_names_in(out, s.game) & others


def booray_at_the_stop_vote():
    game = load_game("booray.cardgame")
    agent = interpreter.RandomAgent(3)
    for seed in range(40):
        state = game.new_game(seed=seed, record=True)
        while not state.is_over and state.fault is None:
            if state.choice_is_hidden and "stop" in state.prompt:
                return state
            state.apply(agent.choose(state.legal_moves()))
    raise AssertionError("no game reached the stop vote")


def test_a_simultaneous_vote_shows_no_choice_until_all_have_chosen():
    state = booray_at_the_stop_vote()
    first = state.current_player
    state.apply("stop")
    second = state.current_player
    assert second != first and state.choice_is_hidden
    log = state.observation(second)["log"]
    assert log[-1] == {"step": len(state.history), "kind": "decision", "text": HIDDEN_CHOICE,
                       "actor": f"P{first}"}
    assert "stop" not in json.dumps([e for e in log if e["step"] == len(state.history)])
    assert state.observation(first)["log"][-1]["text"] == "stop"  # one's own choice is one's own
    assert state.observation("all")["log"][-1]["text"] == "stop"
    assert state.view(second)["vars"]["stops"] == state.view("all")["vars"]["stops"]  # counted only afterwards
    # the REPL's log under the second voter's view
    s = Session()
    s.start(str(ROOT / "games" / "booray.cardgame"))
    s.game, s._timeline, s._actors, s._pos = state.game, [state], [], 0
    s.execute(f"view P{second}")
    assert "stop" not in s.execute("log").splitlines()[-1]


def test_the_vote_count_is_not_shown_before_the_last_vote():
    state = booray_at_the_stop_vote()
    voter = state.current_player
    before = state.information_state((voter + 1) % state.n)
    other = state.clone()
    state.apply("stop")
    other.apply("go_on")
    watcher = other.current_player
    if state.choice_is_hidden:  # still collecting: the watcher cannot tell the two votes apart
        assert state.information_state(watcher) == other.information_state(watcher)
    assert before != state.information_state((voter + 1) % state.n)  # that a vote was cast is public


def test_a_reaction_window_does_not_tell_who_holds_a_reaction():
    game = GAMES["reactions.cardgame"]
    state = game.new_game(seed=1, record=True)
    # P0 holds both reaction cards and is asked; then P1, who holds none, is asked too.
    assert state.current_player == 0
    state.apply("pass")
    assert state.current_player == 1 and [m.text for m in state.legal_moves()] == ["pass"]
    # P0 cannot tell this position from one where P1 held a reaction card: same information
    # state for every way of dealing what P0 does not see.
    for k in range(5):
        assert state.determinize(0, k).information_state(0) == state.information_state(0)
    assert state.view(0)["to_act"] == "P1"


def test_a_card_seen_face_up_stays_named_after_it_goes_face_down():
    game = GAMES["commit_reveal.cardgame"]
    state = game.new_game(players=3, seed=2, record=True)
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    # at the end every committed card was revealed; hide them all again and check the log keeps them
    seat = 1
    named_then = [e["text"] for e in state.observation(seat)["log"] if e["kind"] == "reveal"]
    assert named_then and all(HIDDEN not in t for t in named_then)
    bouncer = GAMES["bouncer.cardgame"]
    state, _ = played(bouncer, 4, 3)  # a whole trick: the cards were face up in `played`
    log = state.observation(2)["log"]
    trick = [e["text"] for e in log if e["kind"] == "decision"]
    assert len(trick) == 3 and all(HIDDEN not in t for t in trick)
    assert any(e["kind"] == "log" and "wins" in e["text"] and HIDDEN not in e["text"] for e in log)


def test_a_card_that_goes_face_down_where_a_seat_cannot_look_stays_named_in_its_log(tmp_path):
    script = tmp_path / "pile.cardgame"
    script.write_text('''game "Pile"
players 2
deck d in stock {
    card "A" { rank: 1 }
    card "B" { rank: 2 }
    card "C" { rank: 3 }
}
zone stock: shared hidden
zone table_cards: shared public
zone pile: shared hidden
phase main {
    move top(stock) to table_cards face up
    log "on the table: {top(table_cards)}"
    move top(table_cards) to pile
    log "into the pile: {top(pile)}"
    decide seat(0) { done }
    end game
}
''')
    state = interpreter.load(str(script)).new_game(record=True)
    log = [e["text"] for e in state.observation(1)["log"]]
    assert "on the table: C" in log and "into the pile: C" in log and "move C to pile" in log
    # the seat saw it go there: it knows it lies in the pile, in its view and its answers too (so
    # does the spectator: every seat saw it go)
    assert state.view(1)["zones"]["pile"] == ["C"] and state.view(None)["zones"]["pile"] == ["C"]
    assert state.evaluate("top(pile)", viewer=1)[0] == "C"


def test_the_all_seeing_log_shows_hidden_choices_and_a_seats_log_hides_the_others(capsys):
    game_path = str(ROOT / "games" / "bosspoker.cardgame")
    assert main(["play", game_path, "--seed", "1", "--players", "4"]) == 0
    full = capsys.readouterr().out.splitlines()
    assert full[2:4] == ["   1. P0: commit 7r   (hidden from the other seats)",
                         "   2. P1: commit 8b   (hidden from the other seats)"]
    assert not any(HIDDEN_CHOICE in line for line in full)
    assert main(["play", game_path, "--seed", "1", "--players", "4", "--view", "P1"]) == 0
    seat = capsys.readouterr().out.splitlines()
    assert seat[2:4] == [f"   1. P0: {HIDDEN_CHOICE}", "   2. P1: commit 8b"]


def test_exports_keep_full_records_but_say_so_and_a_seat_export_holds_only_what_it_knew(tmp_path, capsys):
    game_path = str(ROOT / "games" / "bosspoker.cardgame")
    assert main(["play", game_path, "--seed", "3", "--json"]) == 0
    full = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert full[0]["view"] == "all" and "hidden ones included" in full[0]["full_record"]
    hidden_moves = [r for r in full[1:-1] if r.get("hidden") and r["player"] != "P1"]
    assert hidden_moves and all(r["move"] != HIDDEN_CHOICE for r in hidden_moves)
    assert main(["play", game_path, "--seed", "3", "--json", "--view", "P1"]) == 0
    mine = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert mine[0] == {"game": "Boss Poker", "players": 2, "view": "P1"}
    for theirs, ours in zip(full[1:-1], mine[1:-1]):
        assert theirs["step"] == ours["step"]
        if theirs.get("hidden") and theirs["player"] != "P1":
            assert ours["move"] == HIDDEN_CHOICE
    s = Session()
    s.start(game_path, seed=3)
    s.execute("auto 3")
    s.execute("view P1")
    assert "a full record" in s.execute(f"save {tmp_path / 'full.replay'}")
    assert "not a replay" in s.execute(f"save --view P1 {tmp_path / 'p1.json'}")
    export = json.loads((tmp_path / "p1.json").read_text())
    assert export["viewer"] == "P1" and "seed" not in export and "moves" not in export
    assert export["observation"] == s.state.observation(1)
    p0_commit = s.state.history[0]
    assert p0_commit not in json.dumps(export["observation"]["log"])
    assert "cannot be played again" in s.execute(f"open {tmp_path / 'p1.json'}")


def test_the_all_seeing_view_says_so():
    s = bouncer_session()
    assert s.execute("view all").startswith("view: all (the all-seeing view")
    assert s.prompt_text().endswith(" [all]> ")
    s.execute("view P2")
    assert s.prompt_text().endswith(" [P2]> ")


# ---- the information-state contract, over every shipped game ---------------------------------------

def check_seat(state, seen, seat, rng):
    game = state.game
    real = state.information_state(seat)
    observed = state.observation(seat)
    d1, d2 = state.determinize(seat, rng), state.determinize(seat, rng)
    for d in (d1, d2):
        assert d.information_state(seat) == real
        assert d.observation(seat) == observed
        assert sorted(c for z in d.zones for c in z) == list(range(len(game.program.card_names)))
    if state.current_player == seat:
        moves = sorted(m.text for m in state.legal_moves())
        assert sorted(m.text for m in d1.legal_moves()) == moves == sorted(m.text for m in d2.legal_moves())
    # the observation names a card only where it lies and the seat sees it now or saw it go there,
    # or it is the one card the seat never saw (then it knows where it is by elimination)
    everything = state.view("all")["zones"]
    now = visible(state, seat)
    unseen = set(state.game.program.card_names) - now - seen[seat]
    for zone, cards in observed["zones"].items():
        groups = cards.items() if isinstance(cards, dict) else [(None, cards)]
        for owner, listed in groups:
            full = everything[zone][owner] if owner is not None else everything[zone]
            assert len(listed) == len(full)
            for shown, actual in zip(listed, full):
                assert shown == HIDDEN or (shown == actual and (actual in now or actual in seen[seat]
                                                                or unseen == {actual}))
    # and in its log, only cards it saw at some moment, each where the full log has it
    mine = state.observed_events(seat)
    assert len(mine) <= len(state.observed_events("all"))
    names = game.program.card_names
    for e in mine:
        for name in card_names_in(e.text, game):
            assert name in seen[seat] or name in json.dumps(observed["vars"]), (e, name)
    # seat-masked texts are the full texts with some card names replaced by ??
    journal = state.journal_now().finished(state)
    pattern = "|".join(re.escape(x) for x in sorted(names, key=len, reverse=True))
    for entry in journal:
        text, every = entry.text(seat, state.n), entry.text("all", state.n)
        if text is None or text == HIDDEN_CHOICE:
            continue
        shape = re.escape(text).replace(re.escape(HIDDEN), f"(?:{pattern})")
        assert re.fullmatch(shape, every), (text, every)


@given(name=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**16), steps=st.integers(0, 120),
       rng_seed=st.integers(0, 2**16))
def test_determinizations_are_indistinguishable_to_the_seat(name, seed, steps, rng_seed):
    game = GAMES[name]
    state, seen = played(game, seed, steps)
    rng = random.Random(rng_seed)
    for seat in range(state.n):
        check_seat(state, seen, seat, rng)


def _observed_by_everyone(state) -> list:
    return [(state.observation(v), [(e.kind, e.text, e.step, e.actor) for e in state.observed_events(v)])
            for v in ["all", None, *range(state.n)]]


@given(name=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**16), steps=st.integers(0, 80),
       playout=st.integers(0, 60), cut=st.integers(0, 60))
def test_a_determinization_played_on_knows_what_it_would_have_recorded(name, seed, steps, playout, cut):
    """A determinization records nothing as it is played on (a search player's playouts never ask):
    its observation log is made from its start when asked.  It must be the log recording every
    event would have kept, for every viewer, and for a copy taken on the way."""
    state, _ = played(GAMES[name], seed, steps)
    seat = seed % state.n
    deferred = state.determinize(seat, seed)
    live = deferred.clone()
    live.journal_now()  # recorded from here on, event by event
    agent, copy = interpreter.RandomAgent(seed), None
    for i in range(playout):
        moves = deferred.legal_moves()
        if not moves:  # over, or faulted (a sampled world may leave the actor without a move)
            break
        move = agent.choose(moves)
        for side in (deferred, live):
            try:
                side.apply(move.text)
            except interpreter.GameFault:
                pass
        if i == cut:
            copy = deferred.clone()
    assert _observed_by_everyone(deferred) == _observed_by_everyone(live)
    if copy is not None:
        assert copy.journal is not deferred.journal
        assert copy.information_state(seat) == copy.clone().information_state(seat)


@given(seed=st.integers(0, 2**16), steps=st.integers(0, 60))
def test_restored_and_replayed_states_know_the_same(seed, steps):
    game = GAMES["bosspoker.cardgame"]
    state, _ = played(game, seed, steps, players=3)
    restored = game.restore(json.loads(json.dumps(state.to_json())))  # no journal: replayed from the seed
    for seat in range(state.n):
        assert restored.information_state(seat) == state.information_state(seat)


def test_determinize_deals_unknown_cards_and_keeps_known_ones():
    game = GAMES["bouncer.cardgame"]
    state, _ = played(game, 7, 5)
    real = state.view("all")["zones"]
    d = state.determinize(1, 42)
    dealt = d.view("all")["zones"]
    assert dealt["hand"]["P1"] == real["hand"]["P1"] and dealt["discard"] == real["discard"]
    assert dealt["hand"]["P0"] != real["hand"]["P0"]  # 40 unknown cards: another deal
    assert d.rng != state.rng  # a fresh generator: the real one would tell the coming shuffles
    assert len(d.history) == len(state.history)


def test_determinize_resamples_other_seats_hidden_commits():
    game = GAMES["commit_reveal.cardgame"]
    state = game.new_game(players=3, seed=5, record=True)
    state.apply(state.legal_moves()[-1])  # P0 commits
    assert state.current_player == 1 and state.choice_is_hidden
    choices = {json.dumps(state.determinize(1, k).to_json()["stack"]) for k in range(12)}
    assert len(choices) > 1  # P0's commit is not carried into P1's determinizations


# ---- a fuzz of expressions under every seat's view --------------------------------------------------

def expressions(game, n: int, rng: random.Random) -> list[str]:
    """Random expressions over the game's zones: sizes, cards, attributes, quantifiers, tests."""
    prog = game.program
    zones = []
    for name, decl in prog.tables.zones.items():
        if prog.zone_index[name][0] == "shared":
            zones.append(name)
        else:
            zones += [f"{name}[P{k}]" for k in range(game.min_players)]
    attrs = sorted(a for a in prog.attr_tables if a != "name") or ["name"]
    cards = prog.card_names

    def zone():
        return rng.choice(zones)

    def card():
        return rng.choice([f"top({zone()})", f"bottom({zone()})", f"first({zone()})", f"last({zone()})",
                           rng.choice(cards)])  # a card literal (where the names are literals): where is it?

    def value():
        a = rng.choice(attrs)
        return rng.choice([f"{card()}.{a}", f"count({zone()})", f"[x.{a} for x in {zone()}]",
                           f"sum([1 for x in {zone()} where x.{a} == {card()}.{a}])", f"empty({zone()})",
                           f"any x in {zone()} where x.{a} == {card()}.{a}", f"{card()} in {zone()}",
                           f"{card()} == {card()}", f"sorted({zone()})", f"owner({card()})", f"zone_of({card()})",
                           f"{zone()}", f"reverse(cards({zone()}))", f"face_up({card()})",
                           f"count({zone()}) > count({zone()})", f"[x for x in {zone()} where x.{a} == {card()}.{a}]"])
    return [value() for _ in range(n)]


def hidden_names(state, seat) -> set:
    return set(state.game.program.card_names) - visible(state, seat)


def test_random_expressions_are_answered_from_known_facts_or_refused():
    rng = random.Random(8)
    asked = refused = 0
    for name in SHIPPED:
        game = GAMES[name]
        state, _ = played(game, 11, 25)
        texts = expressions(game, 40, rng)
        for seat in range(state.n):
            hidden = hidden_names(state, seat)
            deals = [state.determinize(seat, k) for k in range(3)]
            for text in texts:
                value, diags = state.evaluate(text, viewer=seat)
                asked += 1
                outcome = (value, [d.code for d in diags if d.severity == "error"])
                for d in deals:  # answered, refused or failed alike, however the rest is dealt
                    again = d.evaluate(text, viewer=seat)
                    assert (again[0], [x.code for x in again[1] if x.severity == "error"]) == outcome, \
                        (name, seat, text)
                if value is None:
                    assert diags, text
                    if any(d.code == "E0710" for d in diags):
                        refused += 1
                    continue
                named = card_names_in(value, game) - card_names_in(text, game)
                assert not named & hidden, (name, seat, text, value)
    assert asked >= 300 and refused >= 50


def test_the_repl_refuses_the_same_expressions_in_every_command():
    s = bouncer_session(seed=3)
    s.execute("auto 4")
    rng = random.Random(2)
    texts = expressions(s.game, 60, rng)
    for seat in range(3):
        s.execute(f"view P{seat}")
        hidden = hidden_names(s.state, seat)
        for text in texts:
            for command in (f"eval {text}", f"watch {text}", f"break when ({text}) == ({text})"):
                out = s.execute(command)
                assert not (card_names_in(out, s.game) - card_names_in(text, s.game)) & hidden, (command, out)
            s.execute("unwatch all")
            s.execute("unbreak all")
        if s.state.current_player == seat:
            for move in s.move_texts(legal_only=False):
                out = s.execute(f"why {move}")
                assert not (card_names_in(out, s.game) - set(move.split())) & hidden, (move, out)
        else:
            assert s.execute("why 1").startswith("error: `why` reads")
    s.execute("view all")
    assert s.execute("eval count(hand[P0]) >= 0") == "true"


def test_scores_prompt_and_table_decisions_under_a_view():
    state, _ = played(GAMES["bohei.cardgame"], 3, 40)
    for seat in range(state.n):
        view = state.view(seat)
        assert view["scores"] is None or len(view["scores"]) == state.n
        if state.current_player == TABLE:
            assert view["to_act"] == "table"


def test_states_a_seat_can_tell_apart_have_different_information_states():
    game = GAMES["bouncer.cardgame"]
    state = game.new_game(seed=6, record=True)
    first, second = state.clone(), state.clone()
    moves = [m.text for m in state.legal_moves()]
    first.apply(moves[0])
    second.apply(moves[-1])
    for viewer in (0, 1, 2, None):  # a card played into the public trick: everyone sees which
        assert first.information_state(viewer) != second.information_state(viewer)
    # and a seat's own hand tells two deals apart, when the other hands alone would not
    other = state.determinize(1, 3)
    assert other.information_state(1) == state.information_state(1)
    assert other.view(2)["zones"]["hand"]["P2"] != state.view(2)["zones"]["hand"]["P2"]
    assert other.information_state(2) != state.information_state(2)


DRAW_AND_PLAY = '''game "Draw and play"
players 2
deck d in stock {
    rank: 2, 3, 4, 5, 6, 7, 8, 9
    suit: C, D
}
zone stock: shared hidden
zone hand: per player owner
zone pile: shared public
var secret: int per player private = 0
phase main {
    shuffle stock
    for p in players {
        let c = top(stock)
        move c to hand[p]
        set secret[p] = c.rank
        log "{p} draws a {c.rank} ({c}); secret {secret[p]}; holds {count(hand[p])}; top {top(stock).rank}"
    }
    for p in players {
        let d = top(stock)
        decide p "Play; the stock's top is {d.rank}, mine {top(hand[p]).rank}" {
            play(x from hand[p]) {
                move x to pile
                log "{p} plays the {x.rank} ({x})"
            }
        }
    }
    end game
}
score p: 0
winners: highest score
'''


def _draw_and_play(tmp_path):
    script = tmp_path / "draw.cardgame"
    script.write_text(DRAW_AND_PLAY)
    return interpreter.load(str(script)).new_game(players=2, seed=1, record=True)


def test_a_log_line_is_read_through_each_seats_knowledge(tmp_path):
    state = _draw_and_play(tmp_path)

    def logs(viewer):
        return [e["text"] for e in state.observation(viewer)["log"] if e["kind"] == "log"]
    assert logs("all") == ["P0 draws a 6 (6D); secret 6; holds 1; top 7",
                           "P1 draws a 7 (7D); secret 7; holds 1; top 8"]
    assert logs(0) == ["P0 draws a 6 (6D); secret 6; holds 1; top ??",  # the stock is hidden from all
                       "P1 draws a ?? (??); secret ??; holds 1; top ??"]
    assert logs(1) == ["P0 draws a ?? (??); secret ??; holds 1; top ??",
                       "P1 draws a 7 (7D); secret 7; holds 1; top ??"]
    assert logs(None) == ["P0 draws a ?? (??); secret ??; holds 1; top ??",
                          "P1 draws a ?? (??); secret ??; holds 1; top ??"]
    state.apply("play 6D")  # face up on the pile: now everyone knows it, and the old line stays as read
    assert logs(1) == ["P0 draws a ?? (??); secret ??; holds 1; top ??",
                       "P1 draws a 7 (7D); secret 7; holds 1; top ??", "P0 plays the 6 (6D)"]


def test_a_prompt_hides_the_cards_of_its_locals_from_a_seat_that_cannot_see_them(tmp_path):
    state = _draw_and_play(tmp_path)
    assert state.view("all")["prompt"] == "Play; the stock's top is 8, mine 6"
    assert state.view(0)["prompt"] == "Play; the stock's top is ??, mine 6"
    assert state.view(1)["prompt"] == state.view(None)["prompt"] == "Play; the stock's top is ??, mine ??"


def test_a_visibility_read_from_the_options_follows_each_games_options():
    """Zone visibility is worked out once per player count and options (all a condition may read,
    E0730), and asked at every event a journal records: two games of one script, two settings."""
    bouncer = GAMES["bouncer.cardgame"]
    shown = bouncer.new_game(seed=1, options={"show_upcoming": True}, record=True)
    unseen = bouncer.new_game(seed=1, options={"show_upcoming": False}, record=True)
    for _ in range(2):
        assert HIDDEN not in shown.view(1)["zones"]["points"]
        assert set(unseen.view(1)["zones"]["points"]) == {HIDDEN}
        assert HIDDEN not in shown.observed_events(1)[0].text and HIDDEN in unseen.observed_events(1)[0].text


# ---- moves that name cards their own seat cannot see (a Hanabi hand) ------------------------------

# Hanabi as a newcomer first writes it: nobody sees their own hand, and a card is played by
# naming it (`play(c from hand[p])`), so the moves name cards their maker cannot see.
BLIND_HANDS = '''game "Blind hands"
players 2
deck d in stock {
    colour: R, G, B
    number: 1, 2, 3
    name: colour number
}
zone stock: shared hidden
zone hand: per player hidden
zone table: shared public
phase deal {
    move [x for x in stock where x.colour == R] to hand[seat(0)]
    move [x for x in stock where x.colour == G] to hand[seat(1)]
    for x in hand[seat(0)] {
        show x to seat(1)
    }
    for x in hand[seat(1)] {
        show x to seat(0)
    }
    next turn
}
phase turn {
    for p in players {
        decide p "Play a card you cannot see" {
            play(c from hand[p]) {
                move c to table face up
            }
            hint(n in 1..2)
        }
    }
    end game
}
'''


def test_a_seats_own_moves_do_not_name_the_cards_it_cannot_see(tmp_path):
    s = session_of(tmp_path, BLIND_HANDS, "blind.cardgame")
    s.execute("view P0")
    listed = s.execute("moves")
    # it listed `play R1`, `play R2`, `play R3`: P0's own cards, which P0 cannot see
    assert "R1" not in listed and "R2" not in listed and "R3" not in listed
    assert listed.splitlines()[1:] == ["  #1. play ??", "  #2. play ??", "  #3. play ??",
                                       "  #4. hint 1", "  #5. hint 2"]
    assert "R" not in s.execute("moves --all").replace("P0 to act", "")
    # `moves R2` and `why play R2` confirmed R2 was in P0's hand; `play play R2` played it
    assert "play" not in s.execute("moves R2").splitlines()[1]
    # R2 (in P0's hand) and B2 (in the stock) get the same answer: a card P0 cannot see
    for typed in ("why play R2", "why play B2", "play play R2", "play play B2", "play R2"):
        out = s.execute(typed)
        assert out.startswith("error") and "names a card P0 cannot see" in out, (typed, out)
        assert "legal" not in out and "hand" not in out
    assert s.execute("why play R2").replace("R2", "B2") == s.execute("why play B2")
    # G2, in P1's hand, P0 sees: it is no choice of P0's, and no `play ??` is suggested for it
    assert s.execute("play play G2") == ("error: `play G2` is not a move here\n"
                                    "  = help: G2 is not one of P0's choices; it is in P1's hand")
    assert s.execute("play play ??") == "error: 3 moves read `play ??`; choose one by its number (`moves` numbers them)"
    assert s.execute("why #1").startswith("`play ??` for P0 at step 0 (phase turn): legal")
    assert s.execute("why #4").startswith("`hint 1` for P0 at step 0 (phase turn): legal")
    assert s.execute("play") == "error: which move? for example `play 1` or `play hint 1` (`moves` lists them)"
    # by its number the move is made, and the card it played is named once it is face up
    assert s.execute("play #2") == "1. P0: play R2"


def test_a_seats_log_names_its_own_move_only_with_cards_it_knew_or_saw(tmp_path):
    path = tmp_path / "blind.cardgame"
    # the same game, the played card put back face down: P0 never learns which card it played
    path.write_text(BLIND_HANDS.replace("move c to table face up", "move c to stock"))
    state = interpreter.load(str(path)).new_game(seed=1, record=True)
    state.apply("play R2")
    assert [e["text"] for e in state.observation(0)["log"] if e["kind"] == "decision"] == ["play ??"]
    # P1 was shown P0's cards (a peek: it knows each one's place), but P0's pick among its hidden
    # cards is not seen, and the card goes face down: one of R1, R2, R3 went to the stock (issue 34)
    assert [e["text"] for e in state.observation(1)["log"] if e["kind"] == "decision"] == ["play ??"]
    assert set(state.observation(1)["knowledge"]["hand[P0]"]["possible"]) == {"R1", "R2", "R3"}
    assert [e["text"] for e in state.observation("all")["log"] if e["kind"] == "decision"] == ["play R2"]


def test_move_texts_for_a_viewer_mask_what_it_cannot_see(tmp_path):
    path = tmp_path / "blind.cardgame"
    path.write_text(BLIND_HANDS)
    state = interpreter.load(str(path)).new_game(seed=1)
    assert state.move_texts() == ["play R1", "play R2", "play R3", "hint 1", "hint 2"]
    assert state.move_texts(viewer=0) == ["play ??", "play ??", "play ??", "hint 1", "hint 2"]
    with pytest.raises(interpreter.ScriptError) as refused:  # P0's choices, asked on P1's behalf
        state.move_texts(viewer=1)
    assert refused.value.diagnostics[0].code == "E0710"
    assert state.explain("play R2", viewer=0).legal is None
    # every determinization gives the seat the same texts: they tell it nothing it does not know
    for seed in range(5):
        assert state.determinize(0, seed).move_texts(viewer=0) == state.move_texts(viewer=0)


def test_tab_completion_offers_no_move_of_a_seat_the_view_cannot_see():
    s = Session()
    s.start(str(ROOT / "games" / "bouncer.cardgame"), seed=1)
    completer = ReplCompleter(s)

    def offered(text):
        return [c.text for c in completer.get_completions(Document(text), CompleteEvent())]
    assert "9D" in offered("play ")  # the all-seeing view
    s.execute("view P1")
    # it completed P0's hidden hand: 9D, 7C, AD, ...
    assert offered("play ") == [] and offered("why ") == []
    s.execute("view P0")
    assert "9D" in offered("play ")


def test_a_move_typed_as_a_command_is_not_recognised_for_a_seat_the_view_cannot_see():
    s = Session()
    s.start(str(ROOT / "games" / "bouncer.cardgame"), seed=1)
    assert "type `play 9D`" in s.execute("9D")
    s.execute("view P1")
    # it said "to make that move, type `play 9D`": 9D is in P0's hidden hand
    assert s.execute("9D") == "error: unknown command `9D`\n  = help: `help` lists the commands"


def test_an_illegal_move_chosen_by_number_is_refused_without_naming_the_unseen_card(tmp_path):
    ruled = BLIND_HANDS.replace("play(c from hand[p]) {", "play(c from hand[p]) requires low(c) {").replace(
        "where x.colour == R]", "where x.colour == R and x.number == 2]") + \
        'rule low(c: card) "Only a 1." require c.number == 1\n'
    s = session_of(tmp_path, ruled, "blind.cardgame")
    s.execute("view P0")
    assert s.execute("moves --all").splitlines()[1] == \
        "    -  play ??  not judged here: it reads a card of the move, which P0 cannot see"
    out = s.execute("play play ??")
    # it said "illegal move `play R2`"
    assert out == "error: illegal move `play ??` (P0 to act): forbidden by `low`\n  nothing changed"
    assert "R2" not in out and s.step == 0


def test_a_traced_rule_tells_its_player_only_what_it_knows(tmp_path):
    ruled = BLIND_HANDS.replace("play(c from hand[p]) {", "play(c from hand[p]) requires low(c) {").replace(
        "move c to table face up", "move c to stock") + 'rule low(c: card) "Any number." require c.number >= 1\n'
    s = session_of(tmp_path, ruled, "blind.cardgame")
    s.execute("view P0")
    s.execute("trace on")
    out = s.execute("play #2")
    # it said "rule low: pass (c.number >= 1 is 2 >= 1 = true)": the number of a card P0 never saw
    assert out.splitlines()[1].startswith(
        "    rule low: judged; reads a card of the move, which P0 cannot see  [")
    assert "2 >= 1" not in s.execute("log") + out
    s.execute("view all")
    assert "rule low: pass (c.number >= 1 is 2 >= 1 = true)" in "\n".join(
        e.text for e in s.state.observed_events("all"))


# ---- a hidden card held by the frame of a decision (an event's parameter) ----------------------------

# P0 plays a card from its hidden hand on P1; the event's default effect lays it down, after
# P1's window. P1's rule reads the played card through the event's parameter.
HAZARD_ON_A_HIDDEN_CARD = '''game "Hazard"
players 2

deck road in stock {
    card "stop" { kind: hazard, trouble: light }
    card "right" { kind: safety, trouble: light }
    card "tank" { kind: safety, trouble: fuel }
    card "km25" { kind: distance }
}

zone stock: shared hidden
zone hand: per player owner
zone pile: per player public

event attacked(target: player, h: card) "A hazard on {target}" {
    move h to pile[target] face up
}

rule counters(x: card, h: card) "Only the safety of that trouble answers it."
    require x.kind == safety and x.trouble == h.trouble

reaction answer on attacked by q in [target] {
    safety(x from hand[q]) requires counters(x, h) {
        move x to pile[q] face up
        cancel
    }
}

phase main {
    move [stop, km25] to hand[seat(0)]
    move [right, tank] to hand[seat(1)]
    decide seat(0) "Attack" {
        attack(c from hand[seat(0)]) {
            signal attacked(seat(1), c)
        }
    }
    end game
}
'''


def _at_the_window(tmp_path):
    state = load_text(tmp_path, HAZARD_ON_A_HIDDEN_CARD).new_game(seed=1)
    state.apply("attack stop")
    assert state.current_player == 1
    return state


def test_why_under_a_seats_view_does_not_read_a_hidden_card_of_the_frame(tmp_path):
    # `why safety right` under P1's view printed `h = stop`, `h.trouble = light`: a card still in
    # P0's hidden hand, passed to the rule as an event's parameter (the masked position hid the
    # zones, not the cards the decision's frame held). P1's log reads `attack ??`.
    state = _at_the_window(tmp_path)
    assert [e["text"] for e in state.observation(1)["log"]][-1].endswith("attack ??")
    mine = state.explain("safety right", viewer=1)
    assert mine.legal is None and mine.rules == ()
    assert mine.reason == "reads `h` of `counters` (a card), which P1 cannot see"
    everything = state.explain("safety right")
    assert everything.legal is True and ("h", "stop") in everything.rules[0].values
    assert state.explain("pass", viewer=1).legal is True


def test_the_repl_refuses_why_of_a_hidden_frame_card(tmp_path):
    from cardgame.repl.session import Session
    path = tmp_path / "hazard.cardgame"
    path.write_text(HAZARD_ON_A_HIDDEN_CARD)
    s = Session()
    s.execute(f"load {path}")
    s.execute("new seed=1")
    s.execute("play attack stop")
    s.execute("view P1")
    out = s.execute("why safety right")
    assert out.splitlines()[0] == "error: `why safety right` reads `h` of `counters` (a card), which P1 cannot see"
    assert "stop" not in out


def test_lint_warns_of_a_rule_judging_by_a_hidden_frame_card(tmp_path):
    # L0250 looked at the zones a rule read, not at the cards its arguments held: the rule above
    # tells P1 the trouble of the hidden card (`safety right` legal or not), and lint said nothing.
    report = interpreter.lint(load_text(tmp_path, HAZARD_ON_A_HIDDEN_CARD), 4)
    found = [d for d in report.diagnostics if d.code == "L0250"]
    assert [d.message for d in found] == [
        "rule `counters` judges a player's own move by what that player cannot see "
        "(`h` of `counters` (a card), for P1)"]
