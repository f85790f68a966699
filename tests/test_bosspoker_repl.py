"""A scripted REPL session of Boss Poker: a King's peek shows in the peeker's view only.

The session is a list of command lines run one by one, as `cardgame repl` runs piped input;
the same lines are also piped through the real command, which must accept every one of them.
"""

from __future__ import annotations

import os
import subprocess
import sys

from helpers import GAMES, ROOT
from cardgame.repl.session import Session

BOSSPOKER = str(GAMES / "bosspoker.cardgame")

# Everyone commits, checks and plays a face card; P0 reveals a King and looks at P2's card.
TO_THE_PEEK = ["play commit 7r", "play commit 9b", "play commit 10y", "play check", "play check", "play check",
               "play face Kr", "play face Jb", "play face Jy"]


def session() -> Session:
    s = Session()
    assert s.start(BOSSPOKER, players=3).startswith("loaded Boss Poker")
    for line in TO_THE_PEEK:
        assert "error" not in s.execute(line)
    return s


def committed_lines(s: Session, view: str) -> list[str]:
    assert s.execute(f"view {view}") == f"view: {view}"
    return s.execute("show committed").splitlines()


def test_only_the_peeker_sees_the_peeked_card():
    s = session()
    s.execute("view P1")  # whom P0's King may look at reads only the revealed faces: P1 may ask
    assert s.execute("moves").splitlines()[1:] == ["  1. look_at P1", "  2. look_at P2"]
    s.execute("view all")
    assert s.execute("moves").splitlines()[1:] == ["  1. look_at P1", "  2. look_at P2"]
    out = s.execute("play look_at P2")
    assert "P0's King targets P2" in out and "P0 looks at P2's number card" in out
    assert "10y" not in out
    assert committed_lines(s, "P0") == ["committed[P0]: 1 card: 7r", "committed[P1]: 1 card, hidden",
                                        "committed[P2]: 1 card: 10y"]
    assert committed_lines(s, "P1") == ["committed[P0]: 1 card, hidden", "committed[P1]: 1 card: 9b",
                                        "committed[P2]: 1 card, hidden"]
    assert committed_lines(s, "P2") == ["committed[P0]: 1 card, hidden", "committed[P1]: 1 card, hidden",
                                        "committed[P2]: 1 card: 10y"]
    assert committed_lines(s, "spectator") == ["committed[P0]: 1 card, hidden", "committed[P1]: 1 card, hidden",
                                               "committed[P2]: 1 card, hidden"]
    for view, seen in (("P0", "[10y]"), ("P1", "[??]"), ("spectator", "[??]")):
        s.execute(f"view {view}")
        assert s.execute("eval committed[P2]") == seen
        assert ("10y" in s.execute("state")) == (view == "P0")


def test_the_peeked_card_stays_known_to_the_peeker_only_after_it_folds():
    s = session()
    s.execute("play look_at P2")
    # second betting: P0 raises, P1 calls, P2 folds: its card goes face down to its kept pile
    for line in ("play raise 5", "play call"):
        assert "error" not in s.execute(line)
    assert "P2 folds" in s.execute("play fold")
    for view, seen in (("P0", "kept[P2]: 1 card: 10y"), ("P1", "kept[P2]: 1 card, hidden"),
                       ("P2", "kept[P2]: 1 card: 10y"), ("spectator", "kept[P2]: 1 card, hidden")):
        s.execute(f"view {view}")
        assert s.execute("show kept P2") == seen


def test_the_same_session_piped_through_cardgame_repl():
    lines = TO_THE_PEEK + ["play look_at P2", "view P0", "show committed P2", "view P1", "show committed P2"]
    code = "import sys; from cardgame.repl.cli import main; sys.exit(main(sys.argv[1:]))"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-c", code, "repl", BOSSPOKER, "--players", "3"],
                          input="".join(line + "\n" for line in lines), capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout.splitlines()
    assert out[-4:] == ["view: P0", "committed[P2]: 1 card: 10y", "view: P1", "committed[P2]: 1 card, hidden"]
