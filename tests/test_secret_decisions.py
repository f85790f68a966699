"""Secret decisions (docs/language.md §16): `decide p secretly with SEATS` tells the move to the
chooser and the seats named, and to nobody else until the script makes it public; through the
knowledge model (logs, views, observations, information states)."""

from __future__ import annotations

from helpers import SCRIPTS

from cardgame import interpreter

SECRET = SCRIPTS / "secret_trump.cardgame"


def _after(suit: str):
    """Seed 1, P0 names `suit` face down (P2, its partner, is told), then P0 plays."""
    state = interpreter.load(str(SECRET)).new_game(players=4, seed=1, record=True)
    assert state.choice_is_hidden
    state.apply(f"name {suit}")
    assert not state.choice_is_hidden
    state.apply(state.legal_moves()[0])
    return state


def _decisions(state, viewer) -> list[str]:
    return [f"{e.actor}: {e.text}" for e in state.observed_events(viewer) if e.kind == "decision"]


def test_only_the_chooser_and_the_seats_named_are_told_the_move():
    state = _after("H")
    assert _decisions(state, 0)[0] == "0: name H" and _decisions(state, 2)[0] == "0: name H"
    assert _decisions(state, 1)[0] == "0: (a hidden choice)" and _decisions(state, 3)[0] == "0: (a hidden choice)"
    assert _decisions(state, None)[0] == "0: (a hidden choice)" and _decisions(state, "all")[0] == "0: name H"
    for seat in (1, 3, None):  # no word of it anywhere another seat reads
        seen = state.observation(seat)
        assert "name H" not in str(seen) and "'H'" not in str(seen["vars"])
        assert seen["vars"]["chosen"] == ({} if seat is None else {f"P{seat}": None})


def test_a_seat_not_told_cannot_tell_one_choice_from_another_until_it_is_revealed():
    hearts, clubs = _after("H"), _after("C")
    for seat in (1, 3):
        assert hearts.information_state(seat) == clubs.information_state(seat)
    for seat in (0, 2):
        assert hearts.information_state(seat) != clubs.information_state(seat)
    for state in (hearts, clubs):  # the first trick's other cards; then the script reveals it
        while len(state.history) < 5:
            state.apply(state.legal_moves()[0])
    logs = [[e.text for e in s.observed_events(1) if e.kind == "log"] for s in (hearts, clubs)]
    assert logs == [["trump was H"], ["trump was C"]]
    assert hearts.information_state(1) != clubs.information_state(1)


def test_telling_costs_no_work_and_plays_as_without_a_record():
    recorded, plain = _after("D"), interpreter.load(str(SECRET)).new_game(players=4, seed=1)
    plain.apply("name D")
    plain.apply(plain.legal_moves()[0])
    assert recorded.to_json() == plain.to_json()


def test_a_secret_table_decision_is_refused(tmp_path):
    from helpers import check_codes
    script = SECRET.read_text().replace("decide seat(0) secretly with partner(seat(0))", "decide table secretly")
    assert check_codes(tmp_path, script) == ["E0506"]
