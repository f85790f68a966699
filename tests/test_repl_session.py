"""The REPL's session layer: every command, its errors, and that failures change nothing."""

from __future__ import annotations

import ast
import json
import re
import shutil
from pathlib import Path

import pytest

from cardgame import interpreter
from helpers import GAMES, ROOT, SCRIPTS, faulty_script, line_of, session_of
from cardgame.repl.commands import COMMANDS
from cardgame.repl.session import Session

BOUNCER = str(GAMES / "bouncer.cardgame")
FOLLOW_SUIT_LINE = line_of("bouncer.cardgame", "rule follow_suit")
PLAY_MOVE_LINE = line_of("bouncer.cardgame", "move c to played[p]")

TABLE_GAME = '''game "Challenge"
players 2

deck small in pile {
    rank: 1, 2, 3
    suit: A, B
    name: rank suit
}

zone pile: shared hidden
zone hand: per player owner

var wins: int per player = 0

phase main {
    shuffle pile
    deal 2 from pile to hand of players
    decide seat(0) "Challenge?" {
        challenge
        pass
    }
    decide table "Who won the challenge?" {
        first { set wins[seat(0)] += 1 }
        second { set wins[seat(1)] += 1 }
    }
    end game
}

score p: wins[p]
winners: highest score
'''

FAULTY_GAME = '''game "Faulty"
players 2

var x: int = 0

phase main {
    decide seat(0) "Go?" {
        go
    }
    set x = 1 / x
    end game
}
'''


def bouncer(seed: int = 1) -> Session:
    s = Session()
    out = s.start(BOUNCER, seed=seed)
    assert out.startswith("loaded Bouncer")
    return s


def snapshot(s: Session):
    """Everything a failed command must leave alone."""
    st = s.state
    return (None if st is None else json.dumps(st.to_json(), sort_keys=True), s.step, len(s._timeline or ()),
            s.perspective, s.tracing, dict(s.seats), dict(s.watches), dict(s.breakpoints), s.seed,
            dict(s.options))


def run(s: Session, line: str) -> str:
    return s.execute(line)


def fails(s: Session, line: str) -> str:
    """Run a command that must fail: it says `error` and changes nothing."""
    before = snapshot(s)
    out = s.execute(line)
    assert "error" in out.split("\n")[0], out
    assert "Traceback" not in out
    assert snapshot(s) == before, f"`{line}` changed the session"
    return out


# ---- structure ---------------------------------------------------------------------------------

def test_every_command_has_a_handler_help_and_example():
    s = Session()
    for c in COMMANDS:
        assert hasattr(s, f"_cmd_{c.name}"), c.name
        assert c.example.split()[0] == c.name
        text = s.execute(f"help {c.name}")
        assert text.startswith(c.usage) and f"example: {c.example}" in text
    listing = s.execute("help")
    assert all(c.usage in listing for c in COMMANDS)
    assert "no command" in fails(s, "help nosuch")


@pytest.mark.parametrize("script", [GAMES / "bouncer.cardgame", GAMES / "booray.cardgame", GAMES / "bohei.cardgame",
                                    GAMES / "bosspoker.cardgame", GAMES.parent / "tests" / "scripts" / "klondike.cardgame",
                                    GAMES.parent / "tests" / "scripts" / "hanabi.cardgame"])
def test_help_examples_are_built_from_the_game_loaded_and_run(script):
    for name in ("source", "show", "eval", "watch", "break", "moves", "play", "why", "new"):
        s = Session()
        s.start(str(script), seed=1)
        example = s.execute(f"help {name}").split("  example: ")[1]
        s.execute(example)
        assert not s.failed, (name, example)  # `source main`, `eval count(hand[P0])` named nothing here


def test_without_a_game_help_keeps_its_fixed_examples():
    from cardgame.repl.commands import BY_NAME
    assert Session().execute("help source").endswith(f"example: {BY_NAME['source'].example}")


def test_session_layer_does_not_import_prompt_toolkit_and_uses_only_the_public_api():
    for name in ("session.py", "session_games.py", "session_help.py", "session_inspect.py", "session_moves.py",
                 "session_running.py", "refusals.py", "commands.py", "replay.py"):
        tree = ast.parse((ROOT / "repl" / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                mods = [node.module or ""]
            else:
                continue
            for mod in mods:
                assert not mod.startswith("prompt_toolkit"), f"{name} imports {mod}"
    for path in (ROOT / "repl").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("cardgame.interpreter."):
                pytest.fail(f"{path.name} imports {node.module}: the REPL uses only `cardgame.interpreter`")
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("cardgame.interpreter.") for a in node.names), path.name


# ---- no game ------------------------------------------------------------------------------------

def test_without_a_game_commands_say_how_to_load_one():
    s = Session()
    assert s.prompt_text() == "cardgame> "
    for line in ("state", "moves", "play 1", "eval 1", "save x.replay", "rules"):
        assert "no game loaded; `load FILE`" in fails(s, line)
    assert s.execute("") == "" and s.execute("# a comment") == ""


def test_unknown_command_and_hints():
    s = bouncer()
    assert "unknown command `frobnicate`" in fails(s, "frobnicate")
    assert "did you mean `moves`?" in fails(s, "movs")


def test_quit():
    s = bouncer()
    assert s.execute("quit") == "" and s.done
    s2 = bouncer()
    s2.execute("exit")
    assert s2.done


# ---- load, new, options ----------------------------------------------------------------------------

def test_load_and_its_errors(tmp_path):
    s = Session()
    out = s.execute(f"load {BOUNCER}")
    assert out.startswith("loaded Bouncer") and "P0 to act" in out
    assert "cannot read" in fails(s, f"load {tmp_path / 'missing.cardgame'}")
    broken = tmp_path / "broken.cardgame"
    broken.write_text('game "x"\nplayers 2\nphase main {\n    move top(stok) to stok\n    end game\n}\n')
    out = fails(s, f"load {broken}")
    assert "error[E0201]" in out and "stok" in out
    assert s.game.title == "Bouncer"
    assert "usage: load FILE" in fails(s, "load")
    assert "cannot read the arguments" in fails(s, 'load "unclosed')


def test_new_keeps_settings_and_applies_overrides():
    s = bouncer(seed=1)
    first = s.state.to_json()
    s.execute("play 1")
    assert s.execute("new").startswith("new game of Bouncer: 3 players, seed 1")
    assert s.state.to_json() == first and s.step == 0
    out = s.execute("new seed=4 special_bouncers=true")
    assert "seed 4" in out and "special_bouncers=true" in out
    assert s.seed == 4 and s.options == {"special_bouncers": True}
    assert "special_bouncers  = true" in s.execute("options")


@pytest.mark.parametrize("line, message", [
    ("new seed", "is not NAME=VALUE"),
    ("new seed=abc", "seed must be a whole number"),
    ("new seed=-1", "seed must not be negative"),
    ("new players=9", "this game takes 3 players, not 9"),
    ("new nosuch=1", "unknown option `nosuch`"),
    ("new special_bouncers=maybe", "`maybe` is not allowed for option `special_bouncers`"),
])
def test_new_errors_change_nothing(line, message):
    s = bouncer()
    s.execute("play 1")
    assert message in fails(s, line)


def test_options_lists_values_allowed_and_defaults():
    out = bouncer().execute("options")
    assert "show_upcoming     = false   (allowed: true, false; default false)" in out
    assert "The upcoming point cards lie face up in a row." in out
    assert "takes no arguments" in fails(bouncer(), "options x")


# ---- looking at the table ----------------------------------------------------------------------------

def test_state_and_show():
    s = bouncer()
    view = s.state.view("all")
    out = s.execute("state")
    lines = out.split("\n")
    assert lines[0] == "Bouncer · step 0 · phase trick · view all · scores P0 0, P1 0, P2 0"
    assert lines[1] == "P0 to act: Play a card (13 legal moves)"
    assert "hand[P1]  13  2C 3C 9C QC KC AC  6D 7D JD KD  5S 6S 8S" in lines  # sorted, by suit
    assert "leader = P0   first_leader = P0   led = none" in lines
    assert s.execute("show prize") == "prize: 1 card: " + view["zones"]["prize"][0]
    # drawn as `state` draws the zone's row (a hand sorted, by suit), no longer in the zone's own order
    assert s.execute("show hand P2") == "hand[P2]: 13 cards: 4C 5C 10C  2D 5D 8D 10D QD  2S 4S 7S QS KS"
    assert "hand[P2]  13  4C 5C 10C  2D 5D 8D 10D QD  2S 4S 7S QS KS" in lines
    assert s.execute("show hand[P2]") == s.execute("show hand P2")
    assert len(s.execute("show won").split("\n")) == 3
    assert "unknown zone `hnd`" in fails(s, "show hnd") and "did you mean `hand`?" in fails(s, "show hnd")
    assert "no player `P7`" in fails(s, "show hand P7")
    assert "shared zone" in fails(s, "show prize P1")
    assert "usage: show ZONE" in fails(s, "show")


def test_perspective_hides_other_hands():
    s = bouncer()
    hands = s.state.view("all")["zones"]["hand"]
    assert s.execute("view P1") == "view: P1"
    out = s.execute("state")
    assert out.startswith("Bouncer · step 0 · phase trick · view P1 · ")
    assert "hand[P0]  13  hidden" in out and "hand[P2]  13  hidden" in out
    assert set(hands["P1"]) <= set(out.split())
    others = set(hands["P0"]) | set(hands["P2"])
    words = set(re.findall(r"[\w.]+", out))
    assert not others & words
    # every other way of looking masks them too
    assert not others & set(re.findall(r"[\w.]+", s.execute("eval hand")))
    assert s.execute("eval hand[P0]") == "[" + ", ".join(["??"] * 13) + "]"
    assert "their choices are hidden from P1's view" in s.execute("moves")
    assert "hand[P0]" in s.execute("show hand") and "13 cards, hidden" in s.execute("show hand P0")
    assert s.execute("view spectator") == "view: spectator"
    assert "hand[P1]  13  hidden" in s.execute("state")
    assert s.execute("view all") == "view: all (the all-seeing view: every hidden card and choice is shown)"
    assert s.prompt_text().endswith("[all]> ")
    assert set(hands["P0"]) <= set(s.execute("state").split())
    assert s.execute("view") == "view: all (the all-seeing view: every hidden card and choice is shown)"
    assert "no player `P3`" in fails(s, "view P3")


def test_trace_is_masked_outside_all():
    s = bouncer()
    s.execute("view P0")
    s.execute("trace on")
    out = s.execute("new")
    assert "deal 13 cards to each of P0, P1, P2 (hand)" in out  # one line for the deal, no names
    hands = s.state.view("all")["zones"]["hand"]
    assert not (set(hands["P1"]) | set(hands["P2"])) & set(re.findall(r"[\w.]+", out))
    s.execute("view all")
    assert "move 13 cards to points" in s.execute("new")


# ---- moves, play, why ----------------------------------------------------------------------------------

def test_moves_and_moves_all():
    s = bouncer()
    legal = [m.text for m in s.state.legal_moves()]
    out = s.execute("moves")
    assert out.split("\n")[0] == "P0 to act: Play a card"
    assert f" 1. {legal[0]}" in out and f"{len(legal)}. {legal[-1]}" in out
    s.execute("play 1")
    out = s.execute("moves --all")
    assert "forbidden by follow_suit" in out
    assert re.search(r"\d+ legal of 13", out)
    assert "usage: moves" in fails(s, "moves --bogus")


def test_moves_all_shortens_a_long_list_but_keeps_every_legal_move():
    # `moves --all` listed all 66 candidates of Klondike's first position (and explained each),
    # although a list of more than 40 shows its first 30; the legal ones came last.
    s = Session()
    s.execute(f"load {SCRIPTS / 'klondike.cardgame'}")
    s.execute("new seed=1")
    lines = s.execute("moves --all").splitlines()
    assert len(lines) == 1 + 30 + 2
    assert [line.split(". ")[1] for line in lines[1:-2] if ". " in line] == \
        ["draw", "home AD", "shift t7 5D t2", "shift t7 5D t3"]
    assert lines[-2:] == ["  ... 36 more forbidden: `moves --all --full` lists every one, `moves --all WORD` "
                          "those naming WORD", "4 legal of 66"]
    assert len(s.execute("moves --all --full").splitlines()) == 1 + 66 + 1


def test_play_by_number_short_text_and_full_text():
    s = bouncer()
    first = s.state.legal_moves()[0].text
    assert s.execute("play 1") == f"1. P0: {first}"
    second = s.state.legal_moves()[0].text
    assert s.execute(f"play {second.split()[1]}") == f"2. P1: {second}"
    third = s.state.legal_moves()[0].text
    out = s.execute(f"play {third}")
    assert out.startswith(f"3. P2: {third}")
    assert "wins" in out  # the game's own log lines follow the move
    assert s.state.history == [first, second, third]


def illegal_card(s: Session) -> str:
    legal = {m.text for m in s.state.legal_moves()}
    return next(m.text for m in s.state.candidate_moves() if m.text not in legal)


def test_illegal_move_is_explained_and_changes_nothing():
    s = bouncer()
    s.execute("play 1")
    move = illegal_card(s)
    out = fails(s, f"play {move}")
    assert f"illegal move `{move}` (P1 to act): {move[5:]}'s suit is {move[-1]}, not led (D)\n" in out  # as players say
    assert f"    c.suit == led is {move[-1]} == D = false  [{BOUNCER}:{FOLLOW_SUIT_LINE + 2}]" in out
    assert f"bouncer.cardgame:{FOLLOW_SUIT_LINE}): Follow the led suit if you can." in out
    assert f"`why {move}`" in out and "nothing changed" in out


@pytest.mark.parametrize("arg, message", [
    ("", "which move?"),
    ("99", "there is no move 99"),
    ("0", "there is no move 0"),
    ("play ZZ", "`play ZZ` is not one of the choices"),
    ("jump 9D", "`jump` is not an option here; the options are: play"),
    ("12 34 ;;", "is not an option here"),
])
def test_malformed_moves(arg, message):
    s = bouncer()
    assert message in fails(s, f"play {arg}")


def test_why_names_the_failing_rule_and_its_source_line():
    s = bouncer()
    s.execute("play 1")
    led = s.state.view("all")["vars"]["led"]
    move = illegal_card(s)
    out = s.execute(f"why {move} --full")
    lines = out.split("\n")
    assert lines[0] == f"`{move}` for P1 at step 1 (phase trick): illegal: follow_suit fails at {BOUNCER}:" \
        f"{FOLLOW_SUIT_LINE + 2}: c.suit == led is {move[-1]} == {led} = false"
    assert "rule follow_suit: FAIL - Follow the led suit if you can." in out
    assert f"  because: c.suit == led is {move[-1]} == {led} = false" in out
    assert re.search(rf"--> .*bouncer\.cardgame:{FOLLOW_SUIT_LINE}$", out, re.M)
    assert f"{FOLLOW_SUIT_LINE + 2} |     require c.suit == led" in out
    assert f"    led = {led}" in out and "    c.suit == led = false" in out
    assert s.step == 1
    legal = s.state.legal_moves()[0].text
    out = s.execute(f"why {legal} --full")
    assert f": legal: follow_suit passes at {BOUNCER}:{FOLLOW_SUIT_LINE + 2}: c.suit == led is " \
        f"{led} == {led} = true" in out and "rule follow_suit: PASS" in out
    assert s.execute("why 1 --full") == out == s.execute("why full")
    out = s.execute("why play ZZ")
    assert "illegal: `play ZZ` is not one of the choices" in out


def test_play_and_why_after_the_end_say_the_game_is_over():
    s = bouncer()
    s.execute("auto end")
    help_line = "  = help: `undo` goes back to a position before; `new` starts a new game"
    assert s.execute("play 1") == "error: the game is over: there is no move to make\n" + help_line  # `no move 1`
    assert s.execute("why 9D") == "error: the game is over: there is no move to judge\n" + help_line


def test_trace_on_and_off():
    s = bouncer()
    assert s.execute("trace on") == "trace on"
    out = s.execute("play 1")
    assert "rule follow_suit: not applicable" in out
    assert re.search(rf"move \w+ to played\[P0\]  \[.*bouncer\.cardgame:{PLAY_MOVE_LINE}\]", out)
    assert s.execute("trace off") == "trace off"
    assert s.execute("play 1").count("\n") == 0
    assert s.execute("trace") == "trace off"
    assert "usage: trace [on|off]" in fails(s, "trace maybe")


def test_step_makes_one_move_with_its_trace():
    s = bouncer()
    out = s.execute("step")
    assert out.startswith("1. P0: play ") and "to played[P0]" in out
    assert out.split("\n")[-1] == "step 1, phase trick, P1 to act: Play a card"
    assert s.step == 1
    assert "usage: step [N|phase]" in fails(s, "step 0")
    assert s.execute("step 2").split("\n")[-1].startswith("step 3, phase trick, P0 to act")


# ---- agents -------------------------------------------------------------------------------------------------

def test_auto_n_and_auto_end_are_deterministic():
    s = bouncer()
    out = s.execute("auto 5")
    assert "auto played 5 moves\n" in out and "stopped" not in out and s.step == 5
    out = s.execute("auto end")
    assert "auto stopped after" in out and "the game is over" in out and s.state.is_over
    assert re.search(r"game over, scores .* winners P\d", out)
    again = bouncer()
    again.execute("auto 5")
    again.execute("auto end")
    assert again.state.to_json() == s.state.to_json()
    s.execute("goto 3")
    s.execute("auto end")
    assert again.state.to_json() == s.state.to_json()
    assert "the game is over" in fails(s, "step")


@pytest.mark.parametrize("line, message", [
    ("auto 0", "is not a number of moves"),
    ("auto lots", "is not a number of moves"),
    ("auto 3 4", "usage: auto"),
    ("auto --agent", "`--agent` needs a name"),
    ("auto --agent smart", "unknown agent `smart`"),
])
def test_auto_errors(line, message):
    assert message in fails(bouncer(), line)


def test_seats_decide_who_auto_plays():
    s = bouncer()
    assert s.execute("seat P1 human") == "P1 is played by a person"
    out = s.execute("auto")
    assert "auto stopped after 1 move: P1 is played by a person" in out and s.step == 1
    out = s.execute("auto 2 --agent random")
    assert "auto played 2 moves" in out and s.step == 3
    assert s.execute("seat P1") == "P1 is played by a person"
    assert s.execute("seat") == ("P0 is played by the random agent\nP1 is played by a person\n"
                                 "P2 is played by the random agent\ntable is played by a person")
    s.execute("seat 1 random")
    assert "auto played 4 moves" in s.execute("auto 4")
    assert fails(s, "seat P1 robot").startswith("error: unknown agent `robot`\n  = help: an agent is `random`")
    assert "usage: seat" in fails(s, "seat P1 ismcts extra")
    assert "the table is played by a person or at random" in fails(s, "seat table ismcts")
    assert s.execute("seat P2 greedy:worlds=1") == "P2 is played by the agent `greedy:worlds=1`"
    s.execute("seat P2 random")
    assert "no player `P9`" in fails(s, "seat P9 human")


def test_table_decisions_are_asked_of_the_person(tmp_path):
    script = tmp_path / "challenge.cardgame"
    script.write_text(TABLE_GAME)
    s = Session()
    s.start(str(script), seed=1)
    out = s.execute("auto")
    assert "the table decides: Who won the challenge?" in out
    assert "1. first" in out and "auto stopped after 1 move: a table decision is yours to make" in out
    assert s.prompt_text() == "challenge 1 table [all]> "
    assert "table decision: Who won the challenge?" in s.execute("moves")
    assert "the table decides" in s.execute("step") and s.step == 1
    out = s.execute("play 2")
    assert out.startswith("2. table: second") and "game over" in out and "winners P1" in out
    s.execute("undo")
    s.execute("seat table random")
    assert "the game is over" in s.execute("auto")
    assert s.execute("moves") == "the game is over; no moves"
    assert "to make that move, type `play first`" not in s.execute("first")


def test_a_move_typed_as_a_command_gets_a_hint(tmp_path):
    script = tmp_path / "challenge.cardgame"
    script.write_text(TABLE_GAME)
    s = Session()
    s.start(str(script), seed=1)
    assert "to make that move, type `play challenge`" in fails(s, "challenge")


def test_an_alternatives_name_typed_as_a_command_says_to_type_play():
    """Before: `capture 9C` (not one of the moves, but `capture` is an alternative here) said only
    "`help` lists the commands"; `trail KC` (a whole move) already said to type `play trail KC`."""
    from cardgame.repl.session import Session
    s = Session()
    s.start(str(SCRIPTS / "cassino.cardgame"), seed=1)
    assert s.execute("capture 9C") == ("error: unknown command `capture`\n  = help: `capture` is a move of this "
                                       "decision: moves are typed after `play` (`play capture 9C`); `moves` lists them")
    assert "type `play trail KC`" in s.execute("trail KC")
    s.execute("view P0")  # P1 is to act: P0 does not see P1's moves
    assert s.execute("capture 9C") == "error: unknown command `capture`\n  = help: `help` lists the commands"


def test_a_fault_is_reported_and_undo_goes_back(tmp_path):
    script = tmp_path / "faulty.cardgame"
    script.write_text(FAULTY_GAME)
    s = Session()
    s.start(str(script))
    out = s.execute("play go")
    assert "division by zero" in out and "R0001" in out
    assert s.prompt_text().endswith(" fault [all]> ")
    assert "stopped with an error" in s.execute("state")
    assert "stopped with an error" in fails(s, "play go")
    s.execute("undo")
    assert s.state.fault is None and s.step == 0


ENDLESS = '''# A game whose end condition never holds: only the decision limit stops it.
game "Endless"
players 2
var turns: int = 0
phase main {
    decide seat(turns % 2) "Go?" {
        go {
            set turns += 1
        }
    }
    if turns < 0 {
        end game
    }
    next main
}
score p: turns
'''


def test_the_decision_limit_reached_by_auto_or_in_an_opened_replay_is_shown(monkeypatch, tmp_path):
    from cardgame.interpreter.language import limits
    monkeypatch.setattr(limits, "MAX_DECISIONS", 50)
    script = tmp_path / "endless.cardgame"
    script.write_text(ENDLESS)
    s = Session()
    s.start(str(script))
    out = s.execute("auto end")  # it said only "the game stopped with an error", and not which
    assert "50. P1: go\nerror[R0001]: the game reached 50 decisions without ending" in out and s.failed
    s.execute(f"save {tmp_path / 'limit.replay'}")
    out = Session().execute(f"open {tmp_path / 'limit.replay'}")
    assert out.endswith("step 50, phase main, the game stopped with an error\n"
                        "error[R0001]: the game reached 50 decisions without ending\n"
                        "  = help: an end condition may never be met")


# ---- time travel --------------------------------------------------------------------------------------------

def test_undo_redo_goto_return_exactly_the_earlier_states():
    s = bouncer()
    states = [s.state.to_json()]
    for _ in range(6):
        s.execute("play 1")
        states.append(s.state.to_json())
    assert s.execute("undo").startswith("undid 1 move")
    assert s.state.to_json() == states[5]
    s.execute("undo 3")
    assert s.state.to_json() == states[2] and s.step == 2
    s.execute("redo")
    assert s.state.to_json() == states[3]
    for step in (0, 6, 4, 1):
        s.execute(f"goto {step}")
        assert s.state.to_json() == states[step] and s.step == step
    log = s.execute("log")
    assert "-- undone" in log and log.count("P0:") == 2
    # a new move drops the undone ones
    s.execute("play 2")
    assert "nothing to redo" in fails(s, "redo")
    assert "there is no step 3" in fails(s, "goto 3")


@pytest.mark.parametrize("line, message", [
    ("undo 5", "only 2 moves can be undone"),
    ("undo x", "usage: undo [N]"),
    ("undo 0", "usage: undo [N]"),
    ("goto", "usage: goto STEP"),
    ("goto -1", "usage: goto STEP"),
    ("goto 9", "there is no step 9"),
    ("redo", "nothing to redo"),
    ("log all", "usage: log [-n N]"),
    ("log -n 0", "usage: log [-n N]"),
    ("log -n", "usage: log [-n N]"),
])
def test_time_travel_errors(line, message):
    s = bouncer()
    s.execute("play 1")
    s.execute("play 1")
    assert message in fails(s, line)


def test_undo_at_the_start():
    assert "nothing to undo" in fails(bouncer(), "undo")


def test_a_new_move_after_undo_keeps_the_undone_ones_as_a_branch():
    s = bouncer()
    s.execute("auto 5")
    s.execute("goto 2")
    out = s.execute("play 1")  # another move than the undone third one
    assert out.endswith("note: the 3 undone moves after step 2 are kept as branch 1 (`branch 1` goes back to them)")
    assert s.execute("redo") == "error: nothing to redo"


def test_the_undone_move_made_again_keeps_the_ones_after_it():
    s = bouncer()
    s.execute("auto 5")
    s.execute("undo 3")
    out = s.execute("auto 1")  # the random agent replays the same move at the same step
    assert "note:" not in out and s.step == 3
    assert s.execute("goto 5").startswith("step 5, ") and len(s.state.history) == 5


def test_log_numbers_the_moves():
    s = bouncer()
    assert s.execute("log") == "no moves yet"
    s.execute("auto 4")
    lines = [line for line in s.execute("log").split("\n") if not line.startswith("        ")]  # the moves alone
    history = s.state.history
    assert lines == [f"   1. P0: {history[0]}", f"   2. P1: {history[1]}", f"   3. P2: {history[2]}",
                     lines[3]] and lines[3].startswith("   4. P")


# ---- expressions ------------------------------------------------------------------------------------------------

def test_eval():
    s = bouncer()
    assert s.execute("eval count(hand[P0])") == "13"
    assert s.execute("eval total") == "[0, 0, 0]"
    assert s.execute("eval led == none") == "true"


def test_eval_quotes_the_texts_inside_a_list():
    s = bouncer()
    assert s.execute('eval ["", "a b"]') == '["", "a b"]'  # not `[, a b]`
    assert s.execute('eval [[""], ["say \\"hi\\""]]') == '[[""], ["say \\"hi\\""]]'
    assert s.execute('eval "a b"') == "a b"  # a text alone reads as itself


@pytest.mark.parametrize("expr, message", [
    ("", "which expression?"),
    ("1 +", "error[E0101]"),
    ("nosuch + 1", "unknown name `nosuch`"),
    ("count(3)", "error[E0210]"),
    ("1 / 0", "division by zero"),
    ("((((", "error[E01"),
])
def test_eval_errors(expr, message):
    out = fails(bouncer(), f"eval {expr}")
    assert message in out
    if expr and expr != "":
        assert "<expr>:1:" in out


def test_watch_and_unwatch():
    s = bouncer()
    assert s.execute("watch") == "no watches; `watch EXPR` adds one"
    assert s.execute("watch count(points)") == "watch 1: count(points) = 12"
    assert s.execute("watch total[P0]") == "watch 2: total[P0] = 0"
    assert ("count(points)", "12") in s.toolbar_items()
    assert s.execute("watch") == "1. count(points) = 12\n2. total[P0] = 0"
    assert "unknown name" in fails(s, "watch nosuch")
    assert "no watch `7`" in fails(s, "unwatch 7")
    assert s.execute("unwatch 1") == "removed watch 1"
    assert s.execute("unwatch all") == "removed 1 watch"
    assert "there are none" in fails(s, "unwatch 1")


def test_unwatch_all_counts_its_watches():
    # "removed 2 watchs"
    from cardgame.repl.session import Session
    s = Session()
    s.execute(f"load {SCRIPTS / 'skat.cardgame'}")
    s.execute("watch high_bid")
    s.execute("watch count(skat)")
    assert s.execute("unwatch all") == "removed 2 watches"


def test_breakpoints():
    s = bouncer()
    assert s.execute("break").startswith("no breakpoints")
    assert s.execute("break rule follow_suit") == "breakpoint 1: rule follow_suit"
    out = s.execute("auto")
    assert re.search(r"breakpoint: rule follow_suit forbids \d+ moves? to P\d", out)
    s.execute("unbreak all")
    assert s.execute("break phase score_hand") == "breakpoint 2: phase score_hand"
    out = s.execute("auto")
    # score_hand asks nobody anything, so the position is after it: the message says so
    assert "breakpoint: phase score_hand ran during move " in out and "the position is after it" in out
    assert "scores" in out and s.state.history
    s.execute("unbreak 2")
    assert s.execute("break when total[P0] < -50") == "breakpoint 3: when total[P0] < -50"
    out = s.execute("auto")
    assert "breakpoint: `total[P0] < -50` became true" in out
    assert int(s.execute("eval total[P0]")) < -50
    assert s.execute("break") == "3. when total[P0] < -50"


def test_a_when_breakpoint_true_already_says_it_stops_when_it_becomes_true_again():
    s = bouncer()
    assert s.execute("break when led == none") == \
        "breakpoint 1: when led == none (true now: `auto` stops when it becomes true again)"
    assert "became true" in s.execute("auto") and s.step == 3  # not at once: after the first trick
    assert s.execute("break when led != none") == "breakpoint 2: when led != none"


@pytest.mark.parametrize("line, message", [
    ("break rule nosuch", "unknown rule `nosuch`"),
    ("break phase trik", "did you mean `trick`?"),
    ("break when 1 + 1", "expected true/false, found a number"),
    ("break when (", "error[E01"),
    ("break sometimes x", "usage: break"),
    ("break rule", "usage: break"),
    ("unbreak 1", "no breakpoint `1`"),
])
def test_breakpoint_errors(line, message):
    assert message in fails(bouncer(), line)


def test_unwatch_and_unbreak_alone_give_their_usage():
    s = bouncer()
    assert s.execute("unbreak") == "error: usage: unbreak N|all (there are no breakpoints)"  # no breakpoint ``
    s.execute("watch total")
    assert s.execute("unwatch") == "error: usage: unwatch N|all (the ids in use are 1)"


# ---- the script ---------------------------------------------------------------------------------------------------

def test_rules_and_source():
    s = bouncer()
    out = s.execute("rules")
    assert re.fullmatch(rf"follow_suit  .*bouncer\.cardgame:{FOLLOW_SUIT_LINE}  Follow the led suit if you can\.", out)
    out = s.execute("source follow_suit")
    assert out.split("\n")[0] == "rule follow_suit"
    assert f"{FOLLOW_SUIT_LINE} | rule follow_suit(p: player, c: card)" in out \
        and f"{FOLLOW_SUIT_LINE + 2} |     require c.suit == led" in out
    out = s.execute("source trick")
    first = line_of("bouncer.cardgame", "phase trick")
    last = line_of("bouncer.cardgame", "# ---- scoring") - 2  # the phase's closing brace
    assert out.startswith("phase trick") and f"{first} | phase trick {{" in out and f"{last} | }}" in out
    assert "unknown declaration `folow_suit`" in fails(s, "source folow_suit")
    assert "usage: source NAME" in fails(s, "source")


REACTION_AND_RECORD = '''game "Answer"
players 2
record offer { amount: int }
var last_offer: offer
event asked(p: player) {
    set last_offer = offer(amount: 1)
}
reaction refuse on asked by q in [p] {
    say_no {
        cancel
    }
}
phase main {
    signal asked(seat(0))
    end game
}
'''


def test_source_shows_a_reaction_and_a_record(tmp_path):
    s = session_of(tmp_path, REACTION_AND_RECORD, "answer.cardgame")
    # `source refuse` said "unknown declaration `refuse`" and listed the events but not it
    assert s.execute("source refuse").splitlines()[0] == "reaction refuse"
    assert "reaction refuse on asked by q in [p] {" in s.execute("source refuse")
    assert s.execute("source offer").splitlines()[0] == "record offer"
    # completing an expression offers the record (it makes values), never the reaction
    assert "offer" in s.expression_names() and "refuse" not in s.expression_names()


def _session(name: str):
    from cardgame.repl.session import Session
    session = Session()
    assert session.start(str(SCRIPTS / f"{name}.cardgame"), seed=1).startswith("loaded")
    return session


@pytest.mark.parametrize("kind, line", [("game", 'game "Long swap"'), ("players", "players 2"),
                                        ("score", "score p: points[p]"), ("winners", "winners: highest score")])
def test_source_of_a_declaration_kind_a_game_has_once_shows_it(kind, line):
    """Before: `source players` was 'unknown declaration' with 'did you mean `played`?' style hints."""
    out = _session("long_swap").execute(f"source {kind}")
    assert out.split("\n")[0] == kind and line in out, out


def test_source_says_what_it_takes():
    session = _session("long_swap")
    assert session.execute("source teams") == "error: this script has no `teams` declaration"
    out = session.execute("source nothing")
    assert "`source` takes the name of a rule" in out and "(`game`, `players`, `score`, `winners`)" in out
    assert "did you mean `players`?" in session.execute("source player")
    assert "teams: [0, 2], [1, 3]" in _session("partnership").execute("source teams")
    assert {"players", "score", "made"} <= set(session.declaration_names())


# ---- replay files ---------------------------------------------------------------------------------------------------

def test_save_and_open_round_trip(tmp_path):
    s = bouncer(seed=3)
    s.execute("new special_bouncers=true")
    s.execute("auto 17")
    path = tmp_path / "game.replay"
    assert s.execute(f"save {path}") == (f"saved 17 moves to {path} (a full record: it holds every hidden move; "
                                         "`save --view P1 FILE` writes only what P1 knew)")
    data = json.loads(path.read_text())
    assert data["script_hash"] == s.game.hash and data["seed"] == 3 and len(data["moves"]) == 17
    assert data["options"] == {"special_bouncers": True} and data["players"] == 3
    fresh = Session()
    out = fresh.execute(f"open {path}")
    assert "opened" in out and "17 moves" in out
    assert fresh.state.to_json() == s.state.to_json()
    # undo works across the opened moves
    fresh.execute("undo 17")
    s.execute("goto 0")
    assert fresh.state.to_json() == s.state.to_json()
    # into a session that already has the game
    other = bouncer(seed=9)
    other.execute(f"open {path}")
    assert other.state.history == s._timeline[-1].history and other.seed == 3


def test_open_a_replay_for_another_version_of_the_script(tmp_path):
    script = tmp_path / "bouncer.cardgame"
    script.write_text(Path(BOUNCER).read_text())
    shutil.copytree(GAMES / "lib", tmp_path / "lib")
    s = Session()
    s.start(str(script), seed=1)
    s.execute("auto 5")
    replay = tmp_path / "old.replay"
    s.execute(f"save {replay}")
    script.write_text(Path(BOUNCER).read_text() + "\n# a changed script\n")
    t = Session()
    t.start(str(script))
    out = fails(t, f"open {replay}")
    assert f"was made for another version of {script}" in out
    assert s.game.hash in out and t.game.hash in out and "--force" in out
    out = t.execute(f"open {replay} --force")
    assert "warning: " in out and "opened" in out and t.step == 5


def test_open_and_save_errors(tmp_path):
    s = bouncer()
    s.execute("play 1")
    assert "cannot read" in fails(s, f"open {tmp_path / 'none.replay'}")
    bad = tmp_path / "bad.replay"
    bad.write_text("{not json")
    assert "not a replay file (not JSON" in fails(s, f"open {bad}")
    bad.write_text('{"format": "something else"}')
    assert "not a replay file" in fails(s, f"open {bad}")
    bad.write_bytes(b"\xff\xfe\x00")
    assert "not a replay file" in fails(s, f"open {bad}")
    good = tmp_path / "good.replay"
    s.execute(f"save {good}")
    data = json.loads(good.read_text())
    for field, value in [("moves", "play 1"), ("seed", "x"), ("players", True), ("options", [])]:
        broken = dict(data, **{field: value})
        bad.write_text(json.dumps(broken))
        assert f"`{field}` is missing" in fails(s, f"open {bad}")
    bad.write_text(json.dumps(dict(data, moves=["play ZZ"])))
    assert "move 1 of" in fails(s, f"open {bad}") and "cannot be played" in fails(s, f"open {bad}")
    assert "cannot write" in fails(s, f"save {tmp_path / 'no' / 'such' / 'dir.replay'}")
    assert "usage: save [--view PLAYER|spectator] FILE" in fails(s, "save")
    assert "usage: open FILE" in fails(s, "open")


def test_a_replay_of_a_game_that_faulted_opens_at_the_fault(tmp_path):
    # the REPL's own `save` after a move that faulted wrote a replay its `open` then refused
    script = faulty_script(tmp_path)
    s = Session()
    s.execute(f"load {script}")
    assert "division by zero" in s.execute("play boom")
    saved = tmp_path / "saved.replay"
    s.execute(f"save {saved}")
    t = Session()
    t.execute(f"load {script}")
    out = t.execute(f"open {saved}")
    assert not out.startswith("error") and "stopped with an error at move 1, `boom`" in out
    assert "division by zero" in out and "1 move" in out
    assert t.state.fault is not None and t.state.history == ["boom"]
    assert "undid 1 move" in t.execute("undo")
    assert t.state.fault is None and "boom" in t.execute("moves")
    # a fault before the last move is still refused: no move can follow one
    data = json.loads(saved.read_text())
    broken = tmp_path / "broken.replay"
    broken.write_text(json.dumps(dict(data, moves=["boom", "boom2"])))
    u = Session()
    u.execute(f"load {script}")
    out = u.execute(f"open {broken}")
    assert out.startswith("error") and "move 1 of" in out and "cannot be played" in out
    assert u.state.history == []


def test_a_damaged_replay_names_what_a_field_should_hold(tmp_path):
    script = faulty_script(tmp_path)
    s = Session()
    s.execute(f"load {script}")
    saved = tmp_path / "ok.replay"
    s.execute(f"save {saved}")
    data = json.loads(saved.read_text())
    bad = tmp_path / "bad.replay"
    for field, value, said in [("seed", 1.5, "a whole number"), ("script", 3, "a text"),
                               ("moves", "boom", "a list of moves"), ("options", [], "an object")]:
        bad.write_text(json.dumps(dict(data, **{field: value})))
        out = s.execute(f"open {bad}")
        assert f"`{field}` is missing or not {said}" in out and "not a int" not in out


def test_a_saved_game_given_as_a_script_is_named_for_what_it_is(tmp_path):
    # `cardgame check REPLAY`, `play OBSERVATION`, `repl OBSERVATION` and the REPL's `load` of a
    # seat's observation said "E0101 unexpected `{`, expected `attribute`, `deck`, ...".
    from cardgame.repl.session import Session
    s = Session()
    s.execute(f"load {SCRIPTS / 'pitch.cardgame'}")
    s.execute("new seed=1")
    s.execute("play raise 2")
    replay, seen = tmp_path / "game.json", tmp_path / "p1.json"
    s.execute(f"save {replay}")
    s.execute(f"save --view P1 {seen}")
    for path, fmt in ((replay, "cardgame-replay/2"), (seen, "cardgame-observation/1")):
        _tables, _items, _sources, diags = interpreter.check_file(str(path))
        assert [(d.code, d.message) for d in diags] == [
            ("E0640", f"`{path}` is a file saved by cardgame (`{fmt}`), not a script")]
        assert "`open FILE`" in diags[0].hint
    out = s.execute(f"load {seen}")
    assert s.last_failed and out.startswith("error[E0640]:")


def test_load_given_a_replay_and_open_given_a_script_say_which_command_reads_it(tmp_path):
    s = bouncer()
    replay = tmp_path / "first.replay"
    s.execute(f"save {replay}")
    assert s.execute(f"load {replay}") == (f"error: `{replay}` is a replay file (saved by `save`), not a script\n"
                                           f"  = help: `open {replay}` restores its game")  # was E0101 at `{`
    assert s.execute(f"open {BOUNCER}") == (f"error: `{BOUNCER}` is a script, not a replay file\n  = help: "
                                            f"`load {BOUNCER}` loads a script; `open` restores a game saved with `save`")
    fresh = Session()
    assert fresh.start(str(replay)).startswith(f"error: `{replay}` is a replay file") and fresh.failed


def test_prompt_and_toolbar():
    s = bouncer()
    assert s.prompt_text() == "bouncer 0 P0 [all]> "
    items = dict(s.toolbar_items())
    assert items["game"] == "Bouncer" and items["phase"] == "trick" and items["to act"] == "P0"
    assert items["scores"] == "P0 0, P1 0, P2 0"
    s.execute("play 1")
    assert s.prompt_text() == "bouncer 1 P1 [all]> "


def test_piped_session_exit_status(tmp_path):
    import io

    from cardgame.repl.app import run_piped
    s = bouncer()
    out = io.StringIO()
    assert run_piped(s, "hello", io.StringIO("moves\nplay 1\nquit\nplay 1\n"), out) == 0
    text = out.getvalue()
    assert text.startswith("hello\nP0 to act") and s.step == 1
    out = io.StringIO()
    assert run_piped(bouncer(), "", io.StringIO("nonsense\n"), out) == 1
    assert out.getvalue().startswith("error: unknown command")


def test_ctrl_c_stops_a_running_auto_between_moves(monkeypatch):
    s = bouncer()
    real = s._apply
    calls = []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(*args, **kwargs)
    monkeypatch.setattr(s, "_apply", interrupted)
    out = s.execute("auto end")
    assert "auto stopped after 3 moves: interrupted (Ctrl-C)" in out
    assert s.step == 3 and len(s.state.history) == 3


def test_a_fault_while_setting_up_is_shown(tmp_path):
    script = tmp_path / "setup.cardgame"
    script.write_text(FAULTY_GAME.replace('    decide seat(0) "Go?" {\n        go\n    }\n', ""))
    s = Session()
    out = s.start(str(script))  # a game without decisions starts paused: the fault comes as it runs
    assert out.endswith("paused at the start of phase main") and not s.failed
    out = s.execute("run")
    assert "the game stopped with an error" in out and "division by zero" in out and s.failed


def test_open_without_a_game_loads_the_replays_script(tmp_path):
    s = bouncer()
    s.execute("auto 3")
    path = tmp_path / "three.replay"
    s.execute(f"save {path}")
    fresh = Session()
    out = fresh.execute(f"open {path}")
    assert out.startswith("loaded Bouncer") and fresh.state.to_json() == s.state.to_json()
    data = json.loads(path.read_text())
    path.write_text(json.dumps(dict(data, script=str(tmp_path / "gone.cardgame"))))
    assert "cannot read" in fails(Session(), f"open {path}")
