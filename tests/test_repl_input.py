"""Forgiving input, typed the way people type it: any letter case, values and cards in any order,
lists typed loosely, cards copied from the table with their suit symbols, pdb habits, a pasted
block or a line pasted with its prompt, setting commands asked without a value, the hints that
answer a slip in the REPL's own terms (the nearest move or number, the counts a move takes, the
one-line `help` of a command in any case), and replays that travel between folders."""

from __future__ import annotations

import json
import shutil

import pytest
from prompt_toolkit import PromptSession
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from helpers import GAMES, SCRIPTS, load_script, session_of
from cardgame.repl.app import interact
from cardgame.repl.cli import main
from cardgame.repl.input import NoSuchMove, nearest, read_move
from cardgame.repl.session import Session

BOUNCER = str(GAMES / "bouncer.cardgame")
BOORAY = str(GAMES / "booray.cardgame")

# Two cards chosen at once, which a rule wants in hand order: typed in any order, the legal one.
PAIR_GAME = '''game "Pairs"
players 2

deck small in pile {
    rank: 1, 2, 3
    suit: A, B
    name: rank suit
}

zone pile: shared hidden
zone hand: per player owner
zone out: shared public

rule in_order(a: card, b: card) "The first card lies before the second in the hand."
    require index(hand[seat(0)], a) < index(hand[seat(0)], b)

phase main {
    deal 3 from pile to hand of players
    decide seat(0) "Throw two cards" {
        throw(a from hand[seat(0)], b from hand[seat(0)]) requires in_order(a, b) {
            move a to out
            move b to out
        }
    }
    end game
}
'''


def bouncer(seed: int = 1) -> Session:
    s = Session()
    s.start(BOUNCER, seed=seed)
    return s


def hand(s: Session, seat: int) -> list[str]:
    return s.state.view("all")["zones"]["hand"][f"P{seat}"]


# ---- moves in any case ------------------------------------------------------------------------------

def test_a_move_in_lower_case_is_the_move():
    s = bouncer()
    card = hand(s, 0)[1]  # 7C at seed 1
    assert s.execute(f"play {card.lower()}") == f"1. P0: play {card}"
    s.execute("undo")
    assert s.execute(f"PLAY PLAY {card.lower()}") == f"1. P0: play {card}"


def test_an_illegal_move_in_lower_case_is_explained_not_misread():
    s = bouncer()
    s.execute("play 9D")
    out = s.execute("play ac")  # P1 holds AC but must follow diamonds
    assert out.startswith("error: illegal move `play AC` (P1 to act): AC's suit is C, not led (D)\n  rule follow_suit (")


def test_a_card_not_in_hand_says_where_it_is_and_the_nearest_legal_move():
    s = bouncer()
    out = s.execute("play AC")  # AC is in P1's hand, P0 is to act
    assert out == ("error: `play AC` is not a move here\n"
                   "  = help: AC is not in P0's hand; it is in P1's hand\n"
                   "  = help: did you mean `play JC`?")
    assert s.step == 0


def test_a_card_the_view_cannot_see_is_not_located_and_not_masked():
    s = bouncer()
    s.execute("view P0")
    out = s.execute("play ac")
    assert "AC is not in P0's hand" in out and "P1's hand" not in out
    assert "??" not in out  # what was typed is echoed as typed, not as a hidden card


def test_a_word_that_is_no_card_gets_the_nearest_move():
    s = bouncer()
    out = s.execute("play ZZ")
    assert out.startswith("error: `play ZZ` is not one of the choices; the `play` moves here") and "not in" not in out
    assert "did you mean" not in out  # ZZ is near no card: every move shares only its name `play`
    s.execute("play 9D")
    s.execute("view P1")
    out = s.execute("play jx")
    assert "did you mean `play JD`?" in out


BOHEI = str(GAMES / "bohei.cardgame")


def test_a_word_that_is_no_option_is_said_once():
    s = Session()
    s.start(BOHEI, seed=4)
    s.execute("play wears")  # the table: Does P0 wear glasses?
    assert s.execute("play wears") == "error: `wears` is not an option here; the options are: owns, does_not"


def test_did_you_mean_compares_what_follows_the_moves_shared_name():
    s = bouncer(seed=4)
    s.execute("play 2C")  # P1 must follow clubs: KC, 6C
    out = s.execute("play zz")
    assert out.startswith("error: `play zz` is not one of the choices; the `play` moves here, legal or not: ")
    assert "did you mean" not in out  # it said `play KD`: `play ` is all they share
    out = s.execute("play ac")
    assert out.endswith("did you mean `play KC`?")  # one card away: same suit
    assert "did you mean" not in s.execute("play play")  # nothing typed after the name is near nothing


def test_a_card_copied_from_the_table_with_its_suit_symbol_names_the_card():
    s = bouncer()
    s.symbols = True
    assert "9♦" in s.execute("state")
    assert s.execute("moves 9♦") == s.execute("moves 9D")
    assert s.execute("why 9♦") == s.execute("why 9D")
    assert s.execute("play 9♦") == "1. P0: play 9D"  # it said `play 9♦` is not a move; did you mean `play 9S`?
    assert s.execute("play K♥*").startswith("error: `play KH` is not a move here")  # copied with its face-up mark


def test_a_number_out_of_range_is_answered_with_the_nearest_number():
    # `cut 3` (the cut takes 4 to 36) was answered "did you mean `cut 36`?" and `cut 40` "did
    # you mean `cut 4`?": numbers were compared as spelling.
    from cardgame.repl.input import nearest
    cuts = [f"cut {n}" for n in range(4, 37)]
    assert (nearest("cut 3", cuts), nearest("cut 40", cuts), nearest("cut 9", cuts)) == ("cut 4", "cut 36", "cut 9")
    assert nearest("bid 2 C", ["bid 1 C", "bid 3 D", "bid 7 C"]) == "bid 1 C"
    assert nearest("play 9x", ["play 9D", "play 7C"]) == "play 9D"


def test_several_values_in_any_order(tmp_path):
    script = tmp_path / "pairs.cardgame"
    script.write_text(PAIR_GAME)
    s = Session()
    s.start(str(script), seed=1)
    first, second = hand(s, 0)[:2]
    out = s.execute(f"play throw {second} {first}")
    assert out.split("\n")[0] == f"1. P0: throw {first} {second}"
    s.execute("undo")
    assert s.execute(f"play {second.lower()} {first.lower()}").startswith(f"1. P0: throw {first} {second}")


def test_read_move_prefers_exact_then_order_then_case():
    candidates = ["move 3 5", "move 5 3", "pick a", "pick A"]
    assert read_move("move 5 3", [], candidates) == "move 5 3"
    assert read_move("pick a", [], candidates) == "pick a"
    assert read_move("A", [], candidates) == "pick A"
    with pytest.raises(NoSuchMove, match="could be `move 3 5`, `Move 3 5`"):
        read_move("MOVE 3 5 ", [], ["move 3 5", "Move 3 5"])
    # numbers keep their order, cards need not; a legal order wins over the typed illegal one
    assert read_move("move 5 3", ["move 3 5"], candidates) == "move 5 3"
    assert read_move("give 9c 3h", ["give 3H 9C"], ["give 9C 3H", "give 3H 9C"], ["3H", "9C"]) == "give 3H 9C"
    assert read_move("give 9C 3H", ["give 3H 9C"], ["give 9C 3H", "give 3H 9C"], ["3H", "9C"],
                     prefer_legal=False) == "give 9C 3H"
    assert read_move("nothing", [], candidates) == "nothing"
    with pytest.raises(NoSuchMove, match="there is no move 3"):
        read_move("3", ["a", "b"], candidates)
    assert nearest("play 9x", ["play 9D", "play 7C"]) == "play 9D"
    assert nearest("zzzz", ["play 9D"]) is None


# A binder over a list of lists offers moves such as `lay [2C, 2D]` (docs/language.md §8).
LISTS_AS_MOVES = '''game "Lay lists"
players 2
deck small in stock {
    rank: 2, 3, 4
    suit: C, D
    name: rank suit
}
zone stock: shared hidden
zone hand: per player owner
zone table: shared public
define groups_of(h: list of card) = [[x] for x in h] + [[x, y] for x in h for y in h where x.rank == y.rank and x.suit == C and y.suit == D]
phase main {
    move [x for x in stock where x.rank != 2] to hand[seat(0)]
    move stock to hand[seat(1)]
    decide seat(0) "Lay" {
        lay(cs from groups_of(hand[seat(0)])) {
            move cs to table face up
        }
    }
    end game
}
'''


def test_list_valued_moves_are_found_by_their_cards_and_typed_loosely(tmp_path):
    s = session_of(tmp_path, LISTS_AS_MOVES, "lists.cardgame")
    moves = s.execute("moves")
    assert "lay [4D, 4C]" not in moves and "lay [4C, 4D]" in moves
    # `moves 4C` found nothing: the words of `lay [4C, 4D]` were `[4C,` and `4D]`
    assert "lay [4C]" in s.execute("moves 4c") and "lay [4C, 4D]" in s.execute("moves 4C 4D")
    # a list typed without the space after its comma, or with spaces inside its brackets
    assert "legal" in s.execute("why lay [4C,4D]").splitlines()[0]
    assert s.execute("play lay [ 4c , 4d ]").startswith("1. P0: lay [4C, 4D]")


def test_a_list_move_typed_without_brackets_says_to_write_the_brackets(tmp_path):
    s = session_of(tmp_path, LISTS_AS_MOVES, "lists.cardgame")
    out = s.execute("why lay 4C 4D")
    # it said "4C is not one of P0's choices; it is in P0's hand"
    assert "not one of P0's choices" not in out
    assert "`lay` takes a list, written in brackets as the moves show it" in out
    assert "did you mean `lay [4C, 4D]`?" in out
    # a card inside a list that the seat does not hold is located, as a card alone is
    out = s.execute("why lay [2C]")
    assert "2C is not in P0's hand; it is in P1's hand" in out


def test_a_list_typed_in_another_order_is_explained_as_that_options_move():
    # `play [5H, 5C]` (cards held, in another order than the offered `[5C, 5H]`) said "`[5H,` is
    # not an option here": the typed list was split at its space and read as an option's name.
    from cardgame.repl.session import Session
    s = Session()
    s.execute(f"load {SCRIPTS / 'president.cardgame'}")
    s.execute("new players=4 seed=9")
    hand = s.state.view("all")["zones"]["hand"]["P3"]
    assert {"5C", "5H"} <= set(hand)
    out = s.execute("play [5H, 5C]")
    assert s.last_failed
    assert out.startswith("error: `play [5H, 5C]` is not one of the choices")  # said once (i14-terminal T7)
    assert "did you mean `play [5C, 5H]`?" in out
    explained = s.state.explain("[5H, 5C]")
    assert explained.legal is False and explained.reason == \
        "`[5H, 5C]` names no option: a move begins with its option's name, one of play, pass"


def test_moves_filtered_by_a_card_with_copies_keeps_every_copy():
    # `moves 10D` in pinochle (cards `10Da`, `10Db`) said "no legal move names 10D".
    from cardgame.repl.input import copies_of
    from cardgame.repl.session_moves import _names_all
    cards = load_script("pinochle").cards
    copies = {"10d": copies_of("10d", cards), "ks": copies_of("KS", cards)}
    assert copies == {"10d": {"10da", "10db"}, "ks": {"ksa", "ksb"}}
    offered = ["play 10Da", "play KSa", "play 10Db", "play 10Ha"]
    assert [m for m in offered if _names_all(m, ["10d"], copies)] == ["play 10Da", "play 10Db"]
    assert [m for m in offered if _names_all(m, ["10da"], copies)] == ["play 10Da"]


# ---- a pasted block ------------------------------------------------------------------------------------

def test_a_pasted_block_runs_line_by_line_and_stops_at_the_first_error():
    s = bouncer()
    out = s.execute_block("play 1\nplay 1\r\nplay nonsense\nplay 1\n")
    lines = out.split("\n")
    assert lines[0] == "> play 1" and lines[1] == "1. P0: play 9D"
    assert lines[2] == "> play 1" and lines[3].startswith("2. P1: play ")
    assert lines[4] == "> play nonsense" and lines[5].startswith("error: ")
    assert lines[-1] == "stopped at line 3 of the pasted block; 1 line not run"
    assert s.step == 2 and s.failed
    one = bouncer()
    assert one.execute_block("moves") == one.execute("moves")  # a single line is not echoed


def test_a_block_pasted_into_prompt_toolkit_runs_each_line():
    s = bouncer()
    outputs = []
    with create_pipe_input() as pipe:
        prompt = PromptSession(input=pipe, output=DummyOutput())
        # a terminal wraps a paste in bracketed-paste marks; the newlines arrive inside one input
        pipe.send_text("\x1b[200~play 1\nplay 1\nlog\x1b[201~\r")
        pipe.send_text("\x04")
        assert interact(s, prompt, output=outputs.append) == 0
    assert len(outputs) == 1
    assert outputs[0].split("\n")[0] == "> play 1" and "> log" in outputs[0]
    assert "   2. P1: play " in outputs[0] and s.step == 2


def test_a_line_pasted_with_its_prompt_runs_the_command_after_it():
    s = bouncer()
    assert s.execute("> moves") == bouncer().execute("moves")  # as the docs write a session
    assert s.execute("bouncer 0 P0 [all]> play 1") == "1. P0: play 9D"  # copied from the terminal
    assert s.execute("bouncer 1 P1 [P1]>") == "" and not s.failed  # a bare prompt is an empty line
    out = s.execute_block("bouncer 1 P1 [all]> play 1\nbouncer 2 P2 [all]> log")
    assert out.split("\n")[0] == "> play 1" and "   2. P1: play " in out
    assert s.execute("P0 to act: Play a card").startswith("error: unknown command `P0`")  # output stays no command


# ---- pdb habits and settings asked without a value -------------------------------------------------

@pytest.mark.parametrize("alias, command", [
    ("n", "step"), ("s", "step"), ("c 3", "auto 3"), ("w", "state"), ("l", "moves"), ("p 1 + 2", "eval 1 + 2"),
    ("b rule follow_suit", "break rule follow_suit"), ("h undo", "help undo"),
])
def test_pdb_style_short_names(alias, command):
    assert bouncer().execute(alias) == bouncer().execute(command)


def test_q_quits_and_cl_clears_a_breakpoint():
    s = bouncer()
    s.execute("b phase score_hand")
    assert s.execute("cl 1") == "removed breakpoint 1"
    s.execute("q")
    assert s.done
    assert "short names: " in bouncer().execute("help") and "`n`" in bouncer().execute("help step")


def test_setting_commands_alone_show_the_setting():
    s = bouncer()
    assert s.execute("trace") == "trace off"
    s.execute("trace on")
    assert s.execute("trace") == "trace on"
    assert s.execute("view") == "view: all (the all-seeing view: every hidden card and choice is shown)"
    s.execute("view P2")
    assert s.execute("view") == "view: P2"
    assert s.execute("seat table") == "table is played by a person"
    assert s.execute("watch") == "no watches; `watch EXPR` adds one"
    assert s.execute("break").startswith("no breakpoints")
    assert s.execute("options").startswith("show_upcoming")


# ---- stable ids ---------------------------------------------------------------------------------------

def test_watch_and_breakpoint_ids_do_not_shift_after_a_delete():
    s = bouncer()
    s.execute("watch count(points)")
    s.execute("watch total[P0]")
    s.execute("watch led")
    assert s.execute("unwatch 1") == "removed watch 1"
    assert s.execute("watch") == "2. total[P0] = 0\n3. led = none"
    assert s.execute("watch count(stock)") == "watch 4: count(stock) = 0"
    assert "the ids in use are 2, 3, 4" in s.execute("unwatch 1")
    s.execute("break phase trick")
    s.execute("break when led == D")
    s.execute("unbreak 1")
    assert s.execute("break") == "2. when led == D"


# ---- log -n, auto's messages ---------------------------------------------------------------------------

def test_log_last_n():
    s = bouncer()
    s.execute("auto 6")
    history = s.state.history
    assert s.execute("log -n 2") == f"  ... 4 earlier moves (`log` lists them all)\n" \
        f"   5. P1: {history[4]}\n   6. P2: {history[5]}\n        P0 wins 10H with AS\n        point card: JH"
    assert s.execute("log -n 10") == s.execute("log")


def test_auto_says_what_it_did_once():
    s = bouncer()
    out = s.execute("auto 5")
    assert "auto played 5 moves" in out and "played 5 moves: played" not in out
    s.execute("seat P0 human")
    assert "auto stopped after 1 move: P0 is played by a person" in s.execute("auto")


# ---- hints that fit the REPL ---------------------------------------------------------------------------

def test_hints_name_repl_commands():
    s = bouncer()
    assert "which move? for example `why 1` or `why play 9D`" in s.execute("why")
    assert "which move? for example `play 1` or `play play 9D`" in s.execute("play")
    out = Session()
    out.start(BOORAY, seed=1)
    text = out.execute("new players=7")
    assert "this game takes 4 to 6 players, not 7" in text and "`new players=4`" in text
    assert "--players" not in text
    assert "for example `source follow_suit`" in s.execute("source")
    assert "main" not in s.execute("source")
    assert "for example `eval count(stock)`" in s.execute("eval")


def test_help_fits_the_width_without_breaking_words():
    s = bouncer()
    for width in (60, 80, 140):
        s.width = width
        text = s.execute("help")
        assert all(len(line) <= width for line in text.split("\n")), width
        words = set(" ".join(c.summary for c in __import__("cardgame.repl.commands").repl.commands.COMMANDS).split())
        assert words <= set(text.split())  # every word of every summary is there whole


def test_help_reads_a_command_in_any_case_and_suggests_the_nearest():
    s = bouncer()
    assert s.execute("help PLAY") == s.execute("help play")  # `PLAY 9d` runs; `help PLAY` said no command
    assert s.execute("help mvoes") == "error: no command `mvoes`\n  = help: did you mean `help moves`? `help` lists them all"
    assert s.execute("help zzz") == "error: no command `zzz`\n  = help: `help` lists them all"


def test_options_line_up():
    s = bouncer()
    lines = [line for line in s.execute("options").split("\n") if "(allowed" in line]
    assert len({line.index("(allowed") for line in lines}) == 1


# ---- replays that travel -------------------------------------------------------------------------------

def test_a_replay_names_its_script_from_where_it_lies_and_opens_from_anywhere(tmp_path, monkeypatch):
    project = tmp_path / "project"
    shutil.copytree(GAMES, project / "games", ignore=shutil.ignore_patterns("__pycache__"))
    s = Session()
    s.start(str(project / "games" / "bouncer.cardgame"), seed=1)
    s.execute("auto 4")
    path = project / "four.replay"
    monkeypatch.chdir(project / "games")
    s.execute(f"save {path}")
    data = json.loads(path.read_text())
    assert data["format"] == "cardgame-replay/2" and data["script"] == "games/bouncer.cardgame"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    fresh = Session()
    out = fresh.execute(f"open {path}")
    assert out.startswith("loaded Bouncer") and fresh.state.to_json() == s.state.to_json()


def test_open_loads_the_replays_own_script_over_the_loaded_one(tmp_path):
    b = Session()
    b.start(BOORAY, seed=2)
    b.execute("auto 3")
    path = tmp_path / "booray.replay"
    b.execute(f"save {path}")
    s = bouncer()
    out = s.execute(f"open {path}")
    assert out.startswith("loaded Boo Ray from ") and s.game.title == "Boo Ray"
    assert s.state.to_json() == b.state.to_json()


def test_a_refusal_names_both_scripts(tmp_path):
    b = Session()
    b.start(BOORAY, seed=2)
    b.execute("auto 3")
    path = tmp_path / "booray.replay"
    b.execute(f"save {path}")
    data = json.loads(path.read_text())
    path.write_text(json.dumps(dict(data, script="gone/booray.cardgame")))
    s = bouncer()
    out = s.execute(f"open {path}")
    assert out.startswith("error: ")
    assert "was made for " in out and "gone/booray.cardgame" in out and "it cannot be read from here" in out
    assert f"not for the loaded {BOUNCER}" in out and s.game.hash in out and data["script_hash"] in out
    assert "another version" not in out


def test_an_old_replay_names_its_script_from_the_saving_folder(tmp_path, monkeypatch):
    s = bouncer()
    s.execute("auto 2")
    path = tmp_path / "old.replay"
    s.execute(f"save {path}")
    data = json.loads(path.read_text())
    monkeypatch.chdir(GAMES.parent)
    path.write_text(json.dumps(dict(data, format="cardgame-replay/1", script="games/bouncer.cardgame")))
    fresh = Session()
    assert fresh.execute(f"open {path}").startswith("loaded Bouncer from games/bouncer.cardgame")


def test_cardgame_play_saves_a_replay_the_repl_opens(tmp_path, capsys):
    from cardgame.repl.cli import main
    path = tmp_path / "game.replay"
    assert main(["play", BOUNCER, "--seed", "4", "--save", str(path)]) == 0
    played = [line.split(": ", 1)[1] for line in capsys.readouterr().out.split("\n") if line[:5].strip().endswith(".")]
    s = Session()
    out = s.execute(f"open {path}")
    assert "game over" in out and s.state.history == played
    assert main(["play", BOUNCER, "--save", str(tmp_path / "no" / "such.replay")]) == 1
    assert "cannot write" in capsys.readouterr().err


def test_a_script_has_one_hash_however_its_path_is_written(tmp_path, monkeypatch):
    # a script outside games/ including the shipped deck: its files were hashed in the order of
    # their path texts, so `game.cardgame` and `/tmp/.../game.cardgame` gave two hashes, and a
    # replay saved by `cardgame play game.cardgame --save` was refused from any other folder
    from cardgame import interpreter
    script = tmp_path / "game.cardgame"
    script.write_text('game "Deck"\nplayers 2\ninclude "lib/standard_deck.cardgame"\nzone stock: shared hidden\n'
                      'zone hand: per player owner\nphase main {\n    shuffle stock\n'
                      '    deal 1 from stock to hand of players\n    decide seat(0) {\n        a\n        b\n    }\n'
                      '    end game\n}\n')
    (tmp_path / "far").mkdir()
    monkeypatch.chdir(tmp_path)
    relative, absolute = interpreter.load("game.cardgame"), interpreter.load(str(script))
    assert relative.hash == absolute.hash == interpreter.load("far/../game.cardgame").hash
    assert main(["play", "game.cardgame", "--seed", "2", "--save", "far/game.replay"]) == 0
    monkeypatch.chdir(tmp_path / "far")
    s = Session()
    s.execute(f"load {script}")  # the absolute path this time
    out = s.execute(f"open {tmp_path / 'far' / 'game.replay'}")
    assert not out.startswith("error") and "opened" in out and s.state.is_over


PASS_CHOOSE = str(GAMES.parent / "bench" / "scripts" / "pass_choose.cardgame")


@pytest.mark.parametrize("typed, reason", [
    ("pass_cards 2H 3S 2C", "2C is not in P0's hand; it is in P3's hand"),
    ("pass_cards 2H 3S", "`pass_cards` takes 3 cards; this names 2"),
    ("pass_cards 2H 3S 4C 5C", "`pass_cards` takes 3 cards; this names 4"),
    ("pass_cards 2H 2H 3S", "2H is named twice; the cards of one move are different cards"),
])
def test_a_several_card_move_that_is_wrong_says_how_and_keeps_the_cards_typed(typed, reason):
    s = Session()
    s.start(PASS_CHOOSE, seed=1)
    assert s.execute(f"play {typed}").splitlines()[1:] == [
        f"  = help: {reason}", "  = help: did you mean `pass_cards 2H 3S 4C`?"]  # keeps 2H and 3S
    assert s.step == 0


def test_a_move_typed_with_too_many_cards_names_the_counts_as_a_range():
    # "`take` takes 2 or 3 or 4 or 5 cards; this names 6"
    s = Session()
    s.execute(f"load {SCRIPTS / 'scopa.cardgame'}")
    s.execute("new seed=5")
    assert "`take` takes 2 to 5 cards; this names 6" in s.execute("why take 4clubs Qcups 5coins 5swords Qswords 3coins")


def test_words_for_what_another_command_shows_name_that_command():
    s = bouncer()
    assert s.execute("scores") == "error: unknown command `scores`\n  = help: `state` shows the scores (the status line too)"
    assert s.execute("history").endswith("= help: `log` lists the moves played")
    assert s.execute("Restart").endswith("= help: `new` starts the game again")
    assert s.execute("sorce rules").endswith("did you mean `source`? (`help` lists the commands)")
