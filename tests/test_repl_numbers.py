"""Issue 17's trap: at the REPL a number may be a move's text (`bid 4`) or a list position.
`#4` is always the position, and lists number their moves so; a bare `4` is the position only
where no move reads as a number."""

from __future__ import annotations

import pytest

from cardgame.repl.input import NoSuchMove, read_move, reads_as_number
from cardgame.repl.session import Session

from helpers import GAMES, SCRIPTS

BIDS = '''game "Bids"
players 2
var said: int = 0
phase main {
    decide seat(0) "Bid or pass" {
        bid(n in 2..6)
        pass
    }
    decide seat(1) "Anything" {
        yes
        no
    }
    end game
}
score p: said
'''


def session(tmp_path):
    path = tmp_path / "bids.cardgame"
    path.write_text(BIDS)
    s = Session()
    s.start(str(path), seed=1)
    return s


def test_a_bare_number_is_the_move_that_reads_so(tmp_path):
    s = session(tmp_path)
    assert s.execute("moves").splitlines()[1:] == ["  #1-#5. bid 2..6", "     #6. pass"]  # a run, on one line
    assert s.execute("moves --full").splitlines()[1:] == [
        "  #1. bid 2", "  #2. bid 3", "  #3. bid 4", "  #4. bid 5", "  #5. bid 6", "  #6. pass"]
    assert s.execute("play 4") == "1. P0: bid 4"
    s.execute("undo")
    assert s.execute("play #4").splitlines()[0] == "1. P0: bid 5"  # then a note: the undone `bid 4` is dropped
    s.execute("undo")
    out = s.execute("play 9")
    assert out == "error: no move reads `9`; moves here read as numbers, so a list position is written `#9` " \
                  "(`moves` numbers them)"
    assert s.execute("why 3").splitlines()[0].startswith("`bid 3` for P0")
    assert s.execute("play #7").startswith("error: there is no move #7; `moves` numbers them 1 to 6")


def test_where_no_move_reads_as_a_number_plain_positions_still_work(tmp_path):
    s = session(tmp_path)
    s.execute("play pass")
    assert s.execute("moves").splitlines()[1:] == ["  1. yes", "  2. no"]
    assert s.execute("play 2").splitlines()[0] == "2. P1: no"
    s.execute("undo")
    assert s.execute("play #1").splitlines()[0] == "2. P1: yes"


def test_read_move_numbers():
    bids = ["bid 2", "bid 3", "pass"]
    assert reads_as_number(bids) and not reads_as_number(["pick 1 2", "pass"])
    assert read_move("3", bids, bids) == "bid 3"
    assert read_move("#3", bids, bids) == "pass"
    with pytest.raises(NoSuchMove, match="written `#1`"):
        read_move("1", bids, bids)
    assert read_move("1", ["pick 1 2", "pass"], ["pick 1 2", "pass"]) == "pick 1 2"


def test_moves_all_numbers_positions_with_a_hash_where_moves_read_as_numbers():
    # 6 nimmt!'s moves are `play 12`, ...: `moves` numbered them `#1`, but `moves --all` `1.`,
    # while `play 1` is refused ("no move reads `1`").
    s = Session()
    s.execute(f"load {SCRIPTS / 'six_nimmt.cardgame'}")
    s.execute("new seed=3")
    listed = s.execute("moves --all").splitlines()[1:3]
    assert listed == s.execute("moves").splitlines()[1:3] == ["   #1. play 12", "   #2. play 63"]


def test_positions_written_with_a_hash_keep_it_beside_the_number():
    s = Session()
    s.start(str(GAMES.parent / "tests" / "scripts" / "hanabi.cardgame"), seed=4)
    listed = s.execute("moves --full").split("\n")
    assert listed[1] == "   #1. play 0" and listed[10] == "  #10. clue_number P1 1"  # it read `  # 1. play 0`
