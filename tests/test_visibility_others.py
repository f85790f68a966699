"""The zone visibility `others` (every seat sees the cards but the zone's owner: a Hanabi hand, an
Indian poker card) read through the one knowledge model, and `shown as placed` (a zone drawn in its
own order, never sorted as a hand); a visibility chosen by a condition of options and constants (one
that reads the game is E0730).  The game below deals without shuffling, so every hand is known: P0
holds B3 B2, P1 holds B1 G3, P2 holds G2 G1, and R1 R2 R3 stay in the stock."""

from __future__ import annotations

import json
import random

import pytest

from cardgame import interpreter
from cardgame.authoring.analysis import Analysis
from cardgame.authoring.rulebook import rulebook
from helpers import ROOT, WAR
from cardgame.interpreter.language.checker import VISIBILITIES
from cardgame.repl.cli import main
from cardgame.repl.lexer import ZONE_WORDS, CardgameLexer
from cardgame.repl.session import Session
from cardgame.repl.table import Deck, render, snapshot

HIDDEN = interpreter.HIDDEN

FOREHEADS = '''game "Foreheads"
players 3
option open_cards: bool = false "Every card is seen by everyone."
deck d in stock {
    colour: R, G, B
    number: 1, 2, 3
    name: colour number
}
zone stock: shared hidden
zone hand: per player public if open_cards else others shown as placed
zone pile: shared hidden
zone table: shared public
phase deal {
    for p in players {
        repeat 2 times {
            let c = top(stock)
            move c to hand[p]
            log "{p} draws {c}"
        }
    }
    next turn
}
phase turn {
    for p in players {
        decide p "Play, bury, peek or flip" {
            play(c from hand[p]) {
                move c to table face up
                log "{p} plays {c}"
            }
            bury(i in 0 .. count(hand[p]) - 1) {
                let c = hand[p][i]
                move c to pile
                log "{p} buries {c}"
            }
            peek(i in 0 .. count(hand[p]) - 1) {
                show hand[p][i] to p
            }
            flip(i in 0 .. count(hand[p]) - 1) {
                reveal hand[p][i]
            }
        }
    }
    end game
}
'''

EVERY_HAND = {"P0": ["B3", "B2"], "P1": ["B1", "G3"], "P2": ["G2", "G1"]}


@pytest.fixture(scope="module")
def path(tmp_path_factory):
    found = tmp_path_factory.mktemp("others") / "foreheads.cardgame"
    found.write_text(FOREHEADS)
    return found


@pytest.fixture(scope="module")
def game(path):
    return interpreter.load(str(path))


def _hands(state, viewer) -> dict:
    return state.view(viewer)["zones"]["hand"]


def _texts(state, viewer, kind=None) -> list:
    return [e["text"] for e in state.observation(viewer)["log"] if kind is None or e["kind"] == kind]


def _session(path, *commands) -> Session:
    s = Session()
    s.execute(f"load {path}")
    for command in commands:
        s.execute(command)
    return s


# ---- what each viewer sees ------------------------------------------------------------------------

def test_every_seat_sees_the_others_hands_and_only_how_many_cards_it_holds(game):
    state = game.new_game(seed=1)
    assert _hands(state, "all") == EVERY_HAND
    assert _hands(state, 0) == {"P0": [HIDDEN, HIDDEN], "P1": ["B1", "G3"], "P2": ["G2", "G1"]}
    assert _hands(state, 1) == {"P0": ["B3", "B2"], "P1": [HIDDEN, HIDDEN], "P2": ["G2", "G1"]}
    assert _hands(state, 2) == {"P0": ["B3", "B2"], "P1": ["B1", "G3"], "P2": [HIDDEN, HIDDEN]}
    # the spectator sees what every seat sees: not a card its owner cannot see
    assert _hands(state, None) == {seat: [HIDDEN, HIDDEN] for seat in ("P0", "P1", "P2")}
    assert state.view(None)["zones"]["stock"] == [HIDDEN] * 3


def test_with_the_option_the_hands_are_public_to_everyone(game):
    state = game.new_game(seed=1, options={"open_cards": True})
    for viewer in (0, 1, 2, None):
        assert _hands(state, viewer) == EVERY_HAND


def test_a_card_shown_to_its_owner_or_turned_face_up_is_seen_as_for_every_zone(game):
    state = game.new_game(seed=1)
    state.apply("peek 1")  # `show hand[P0][1] to P0`: the owner sees it, nobody else learns more
    assert _hands(state, 0)["P0"] == [HIDDEN, "B2"]
    assert _hands(state, 1)["P0"] == ["B3", "B2"] and _hands(state, None)["P0"] == [HIDDEN, HIDDEN]
    state.apply("flip 0")  # P1 reveals B1: face up, everyone sees it, the spectator and P1 too
    for viewer in (0, 1, 2, None):
        assert _hands(state, viewer)["P1"][0] == "B1"
    assert _hands(state, 1)["P1"] == ["B1", HIDDEN] and _hands(state, None)["P1"] == ["B1", HIDDEN]


def test_log_lines_are_masked_per_seat(game):
    state = game.new_game(seed=1, record=True)
    draws = {viewer: [t for t in _texts(state, viewer, "log")] for viewer in (0, 1, None, "all")}
    assert draws["all"] == ["P0 draws B3", "P0 draws B2", "P1 draws B1", "P1 draws G3", "P2 draws G2",
                            "P2 draws G1"]
    assert draws[0] == ["P0 draws ??", "P0 draws ??", "P1 draws B1", "P1 draws G3", "P2 draws G2", "P2 draws G1"]
    assert draws[1] == ["P0 draws B3", "P0 draws B2", "P1 draws ??", "P1 draws ??", "P2 draws G2", "P2 draws G1"]
    assert draws[None] == [f"P{seat} draws ??" for seat in (0, 0, 1, 1, 2, 2)]
    assert [t for t in _texts(state, 0, "move")][:3] == ["move ?? to hand[P0]", "move ?? to hand[P0]",
                                                         "move B1 to hand[P1]"]


def test_a_card_buried_from_an_others_hand_stays_known_to_the_seats_that_saw_it(game):
    state = game.new_game(seed=1, record=True)
    state.apply("bury 0")  # P0 buries B3, which P1 and P2 saw and P0 never did
    assert _texts(state, "all")[-3:] == ["bury 0", "move B3 to pile", "P0 buries B3"]
    assert _texts(state, 0)[-3:] == ["bury 0", "move ?? to pile", "P0 buries ??"]
    for seat in (1, 2):
        assert _texts(state, seat)[-3:] == ["bury 0", "move B3 to pile", "P0 buries B3"]
        assert state.view(seat)["zones"]["pile"] == ["B3"]  # they saw it go there: they know it is there
    assert state.view(0)["zones"]["pile"] == state.view(None)["zones"]["pile"] == [HIDDEN]
    assert _texts(state, None)[-3:] == ["bury 0", "move ?? to pile", "P0 buries ??"]
    # what each seat remembers: the seats that saw B3 go keep it in the pile on every world they
    # cannot tell from this one; the owner does not know it, but this game deals without shuffling,
    # so the only world there is is this one (a determinization replays the game: worlds.py)
    b3 = game.program.card_by_name["B3"]
    pile = game.program.zone_slot("pile", None, 3)
    for seed in range(8):
        for seat in (0, 1, 2):
            assert state.determinize(seat, seed).to_json()["zones"][pile] == [b3]


def test_a_card_played_face_up_from_an_others_hand_is_named_to_everyone(game):
    state = game.new_game(seed=1, record=True)
    state.apply("play B2")
    for viewer in (0, 1, 2, None):
        assert _texts(state, viewer)[-3:] == ["play B2", "move B2 to table", "P0 plays B2"]


def test_determinize_deals_only_what_the_seat_does_not_see(game):
    state = game.new_game(seed=1, record=True)
    stock = {"R1", "R2", "R3"}
    for seed in range(10):
        for seat in (0, 1, 2):
            d = state.determinize(seat, random.Random(seed))
            hands = _hands(d, "all")
            own = hands.pop(f"P{seat}")
            assert hands == {k: v for k, v in EVERY_HAND.items() if k != f"P{seat}"}  # the others' hands kept
            assert set(own) <= stock | set(EVERY_HAND[f"P{seat}"])
            assert d.information_state(seat) == state.information_state(seat)
            if seat == state.current_player:
                assert d.move_texts(seat) == state.move_texts(seat)


def test_information_state_tells_a_swap_in_a_seats_own_hand_only_to_the_others(game):
    from helpers import arrange
    start = game.new_game(seed=1)
    dealt = {"hand": {0: ["B3", "B2"], 1: ["B1", "G3"], 2: ["G2", "G1"]}}
    swapped = {"hand": {0: ["R1", "B2"], 1: ["B1", "G3"], 2: ["G2", "G1"]}}
    one, other = arrange(start, dealt, "stock"), arrange(start, swapped, "stock")
    assert one.information_state(0) == other.information_state(0)
    assert one.information_state(1) != other.information_state(1)
    assert one.information_state(None) == other.information_state(None)


def test_save_and_restore_keep_what_each_seat_knows(game, path, tmp_path):
    state = game.new_game(seed=1, record=True)
    for move in ("peek 1", "bury 0", "flip 1"):
        state.apply(move)
    restored = game.restore(json.loads(json.dumps(state.to_json())))
    for viewer in (0, 1, 2, None, "all"):
        assert restored.information_state(viewer) == state.information_state(viewer)
    s = _session(path, "play peek 1", "play bury 0", "play flip 1", f"save {tmp_path / 'game.replay'}")
    again = _session(path)  # a replay opens a script only from its own folder: this one is loaded
    assert "opened" in again.execute(f"open {tmp_path / 'game.replay'}")
    for viewer in (0, 1, 2, None):
        assert again.state.observation(viewer) == s.state.observation(viewer)


# ---- a seat's own moves among cards it cannot see ---------------------------------------------------

def test_the_owner_chooses_among_cards_it_cannot_see_and_why_is_refused_as_for_hidden_cards(game, path):
    state = game.new_game(seed=1)
    assert state.move_texts() == ["play B3", "play B2", "bury 0", "bury 1", "peek 0", "peek 1", "flip 0", "flip 1"]
    assert state.move_texts(viewer=0)[:3] == ["play ??", "play ??", "bury 0"]
    assert state.explain("play B3", viewer=0).legal is None
    s = _session(path, "view P0")
    assert s.execute("moves").splitlines()[1:4] == ["  #1. play ??", "  #2. play ??", "  #3. bury 0"]
    # B3 (in P0's hand) and R1 (in the stock) get the same answer: a card P0 cannot see
    for typed in ("why play B3", "why play R1", "play play B3"):
        out = s.execute(typed)
        assert out.startswith("error") and "names a card P0 cannot see" in out, (typed, out)
    assert s.execute("why play B3").replace("B3", "R1") == s.execute("why play R1")
    assert s.execute("why #1").startswith("`play ??` for P0 at step 0 (phase turn): legal")
    assert s.execute("eval hand[P0]") == "[??, ??]" and s.execute("eval count(hand[P0])") == "2"
    assert s.execute("show hand").splitlines() == ["hand[P0]: 2 cards, hidden", "hand[P1]: 2 cards: B1 G3",
                                                   "hand[P2]: 2 cards: G2 G1"]
    assert "which P0 cannot see" in s.execute("eval top(hand[P0]).colour")
    s.execute("view P1")  # P1 sees P0's hand, but not P0's choices
    assert s.execute("eval top(hand[P0]).colour") == "B"
    assert s.execute("why #1") == "error: `why` reads P0's choices, which P1 cannot see\n  = help: `view P0` or `view all` may ask"


def test_a_partner_is_one_of_the_others(tmp_path):
    path = tmp_path / "partners.cardgame"
    path.write_text(FOREHEADS.replace("players 3", "players 4\nteams: [0, 2], [1, 3]"))
    state = interpreter.load(str(path)).new_game(seed=1)
    assert _hands(state, 2)["P0"] == ["B3", "B2"] and _hands(state, 1)["P0"] == ["B3", "B2"]
    assert _hands(state, 2)["P2"] == [HIDDEN, HIDDEN] and _hands(state, 0)["P0"] == [HIDDEN, HIDDEN]


def test_play_view_prints_what_the_seat_knew(path, capsys):
    assert main(["play", str(path), "--seed", "1", "--view", "P1"]) == 0
    out = capsys.readouterr().out
    assert "P0 draws B3" in out and "P1 draws B1" not in out and "P1 draws ??" in out


# ---- shown as placed --------------------------------------------------------------------------------

def test_the_table_keeps_a_placed_hand_in_its_order_with_unseen_cards_in_their_places(game):
    state = game.new_game(seed=1)
    deck = Deck.of(game.cards, game.shown_orders)
    assert game.shown_orders == {"hand": ()}
    drawn = render(snapshot(state, "all", True), deck)
    assert "hand[P1]  2  B1 G3" in drawn and "hand[P2]  2  G2 G1" in drawn  # not sorted: G1 stays last
    for move in ("peek 1", "bury 0", "peek 1"):  # P0 is shown B2, P1 buries B1, P2 is shown G1
        state.apply(move)
    assert "hand[P0]  2  ?? B2" in render(snapshot(state, 0, False), deck)
    theirs = render(snapshot(state, 2, False), deck)
    assert "hand[P2]  2  ?? G1" in theirs and "hand[P1]  1  G3" in theirs and "hand[P0]  2  B3 B2" in theirs
    assert "(hand shown as placed; other zones bottom card first, top card last)" in theirs
    assert "hand[P0]  2  hidden" in render(snapshot(state, None, False), deck)


def test_without_shown_as_placed_a_hand_is_drawn_sorted(tmp_path):
    path = tmp_path / "sorted.cardgame"
    path.write_text(FOREHEADS.replace(" shown as placed", ""))
    game = interpreter.load(str(path))
    drawn = render(snapshot(game.new_game(seed=1), "all", True), Deck.of(game.cards, game.shown_orders))
    assert "hand[P0]  2  B2  B3" in drawn and "(hands sorted" in " ".join(drawn)  # by number, then colour


def test_play_table_and_repl_state_keep_the_order(path, capsys):
    assert main(["play", str(path), "--seed", "1", "--table", "--ascii", "--view", "P2"]) == 0
    out = capsys.readouterr().out
    assert "hand[P1]  2  B1 G3" in out
    s = _session(path, "view P0", "play peek 1")
    assert "hand[P0]  2  ?? B2" in s.execute("state").splitlines()


# ---- the tools know the words -----------------------------------------------------------------------

def test_the_rulebook_says_who_sees_the_hands_and_how_they_are_shown(path):
    text = rulebook(str(path), detailed=True)
    assert ("| *hand* | one per player | everyone if *open_cards*, else every player but its owner | "
            "Kept in the order its cards were placed, never sorted. |") in text
    assert ("Each player has — seen by all but its owner: *hand* (open if *open cards*; kept in the order placed, "
            "never sorted).") in rulebook(str(path))


def test_the_editor_hovers_and_completes_visibilities(path):
    analysis = Analysis(str(path), FOREHEADS)
    line = FOREHEADS.split("\n").index("zone hand: per player public if open_cards else others shown as placed") + 1
    row = FOREHEADS.split("\n")[line - 1]
    hover = analysis.hover(line, row.index("others") + 1)
    assert hover == f"```cardgame\nothers\n```\nvisibility `others`: {VISIBILITIES['others']}"
    assert "never sorted" in analysis.hover(line, row.index("placed") + 1)
    assert analysis.definition(line, row.index("others") + 1) is None
    fresh = Analysis(str(path), "zone hand: per player ")
    assert [label for label, kind, _ in fresh.completions(1, 23)] == list(VISIBILITIES)
    assert {kind for _, kind, _ in fresh.completions(1, 23)} == {"visibility"}
    shown = Analysis(str(path), "zone hand: per player others shown as ")
    assert [label for label, _, _ in shown.completions(1, 39)] == ["placed"]


def test_highlighting_knows_the_zone_words():
    from pygments.token import Keyword, Name
    assert set(ZONE_WORDS) == set(VISIBILITIES) | {"placed"}
    kinds = {text: token for token, text in CardgameLexer().get_tokens(
        "zone hand: per player others shown as placed\nvar others = 1\n") if text.strip()}
    assert kinds["placed"] in Keyword and kinds["as"] in Keyword
    tokens = [(token, text) for token, text in CardgameLexer().get_tokens("zone hand: per player others\nlet others = 1\n")]
    assert tokens[[t for _, t in tokens].index("others")][0] in Keyword.Pseudo
    later = [token for token, text in tokens if text == "others"][1]
    assert later in Name


def test_hanabi_reads_its_hands_through_others(tmp_path):
    text = (ROOT / "tests" / "scripts" / "hanabi.cardgame").read_text()
    assert "zone hand: per player others shown as placed" in text and "show " not in text


@pytest.mark.parametrize("condition", [
    "all x in range(0, 99999) where all y in range(0, 99999) where x + y >= 0",  # IndexError, then 10^10 steps a view
    "sum(range(0, 99999)) > 0",                                                 # 100,000 unbudgeted units a view
    "top(stock).rank == 2",                                                     # a fault when the stock is empty
    "tied",
])
def test_a_zone_condition_that_reads_the_game_is_e0730(condition):
    text = WAR.read_text().replace("zone hand: per player hidden", f"zone hand: per player public if {condition} else others")
    _tables, _items, _sources, diags = interpreter.check_file(str(WAR), text)
    assert [d.code for d in diags] == ["E0730"]


def test_a_zone_condition_of_options_and_constants_still_works():
    text = WAR.read_text().replace("zone hand: per player hidden", "zone hand: per player public if not (1 > 2) "
                                   "and player_count in [2, 3] else others")
    _tables, _items, _sources, diags = interpreter.check_file(str(WAR), text)
    assert diags == []
