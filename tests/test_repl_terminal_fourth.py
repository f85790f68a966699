"""A person stepping through games at the REPL in a real terminal (campaign four): Ctrl-C, Tab,
the toolbar, the table, help and the messages that answer typing, as such a person meets them."""

from __future__ import annotations

import json
import signal

import pytest
from prompt_toolkit import PromptSession
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from helpers import GAMES
from cardgame.repl.app import interact
from cardgame.repl.session import Session

BOUNCER = str(GAMES / "bouncer.cardgame")


def bouncer(seed: int = 1) -> Session:
    s = Session()
    s.start(BOUNCER, seed=seed)
    return s


def _ctrl_c_at_move(session: Session, monkeypatch, at: int):
    """Ctrl-C (a real SIGINT) while the agent chooses move number `at` of a run."""
    real, calls = session._agent_move, []

    def choose(st):
        calls.append(1)
        if len(calls) == at:
            signal.raise_signal(signal.SIGINT)
        return real(st)
    monkeypatch.setattr(session, "_agent_move", choose)


def _interact(session: Session, *lines: str) -> list[str]:
    outputs = []
    with create_pipe_input() as pipe:
        prompt = PromptSession(input=pipe, output=DummyOutput())
        for line in lines:
            pipe.send_text(line + "\r")
        pipe.send_text("\x04")
        assert interact(session, prompt, output=outputs.append) == 0
    return outputs


# ---- Ctrl-C during `auto end`: the move in hand is made, shown and counted -------------------------

def test_ctrl_c_during_auto_stops_after_the_move_in_hand_and_shows_every_move(monkeypatch):
    s = bouncer()
    _ctrl_c_at_move(s, monkeypatch, 5)
    out = "\n".join(_interact(s, "auto end"))  # each move printed as it was made
    lines = out.split("\n")
    assert [line.split(".")[0] for line in lines if line[:1].isdigit()] == ["1", "2", "3", "4", "5"]
    assert "auto stopped after 5 moves: interrupted (Ctrl-C)" in lines
    assert lines[-1].startswith("step 5, ") and s.step == 5 and len(s.state.history) == 5


def test_ctrl_c_during_step_n_stops_it_between_two_steps(monkeypatch):
    s = bouncer()
    _ctrl_c_at_move(s, monkeypatch, 3)
    out = "\n".join(_interact(s, "step 10"))
    assert "stopped after 3 steps of 10: interrupted (Ctrl-C)" in out
    assert s.step == 3 and out.count(": play ") == 3


def test_ctrl_c_in_a_pasted_block_stops_the_block_after_the_interrupted_line(monkeypatch):
    s = bouncer()
    _ctrl_c_at_move(s, monkeypatch, 2)
    out = "\n".join(_interact(s, "\x1b[200~auto end\nplay 1\nlog\x1b[201~"))
    assert "auto stopped after 2 moves: interrupted (Ctrl-C)" in out
    assert out.endswith("stopped at line 1 of the pasted block (Ctrl-C); 2 lines not run")
    assert s.step == 2


def test_ctrl_c_outside_a_run_of_moves_interrupts_the_command_and_the_prompt_goes_on(monkeypatch):
    s = bouncer()
    monkeypatch.setattr(s, "_cmd_moves", lambda rest: signal.raise_signal(signal.SIGINT))
    outputs = _interact(s, "moves", "play 1")
    assert outputs == ["interrupted; nothing more was done", "1. P0: play 9D"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored after each command


# ---- Tab ----------------------------------------------------------------------------------------------

def complete(session: Session, text: str) -> list[tuple[str, int]]:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from cardgame.repl.completer import ReplCompleter
    found = ReplCompleter(session).get_completions(Document(text, len(text)), CompleteEvent())
    return [(c.text, c.start_position) for c in found]


def test_a_command_completes_with_its_space_so_a_second_tab_lists_the_moves():
    s = bouncer()
    assert complete(s, "pl") == [("play ", -2)]
    assert complete(s, "play") == [("play ", -4)]  # typed whole: Tab adds the space
    legal = [m.text.split()[1] for m in s.state.legal_moves()]
    assert [t for t, _ in complete(s, "play ") if " " not in t] == legal


def test_moves_complete_whatever_the_letter_case_typed():
    s = bouncer()  # P0 holds AD and AS (seed 1)
    assert complete(s, "play a") == [("AD", -1), ("AS", -1)]
    assert complete(s, "PLAY play j") == [("play JS", -6), ("play JC", -6)]


HEARTS = str(GAMES.parent / "tests" / "scripts" / "hearts.cardgame")


def test_the_cards_of_a_several_card_move_complete_in_any_order():
    s = Session()
    s.start(HEARTS, seed=4)  # P0 passes 3 of 3H 3S 4C 4D 4S 5S 6H 6S 7D 7H 10H JH JS: 286 moves
    hand = ["3H", "3S", "4C", "4D", "4S", "5S", "6H", "6S", "7D", "7H", "10H", "JH", "JS"]
    assert complete(s, "play JS ") == [(card, 0) for card in hand if card != "JS"]
    assert complete(s, "play js 10h j") == [("JH", -1)]
    assert complete(s, "play pass_cards 7h 3") == [("3H", -1), ("3S", -1)]
    assert complete(s, "play js") == [("JS", -2)]
    assert s.execute("play js 10h jh") == "1. P0: pass_cards 10H JH JS"


# ---- typos in moves ---------------------------------------------------------------------------------

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


# ---- the toolbar and `auto` when no one is to act -----------------------------------------------------

DICE = str(GAMES.parent / "tests" / "scripts" / "dice_race.cardgame")


def _toolbar_text(session: Session, width: int = 200) -> str:
    from cardgame.repl.toolbar import toolbar
    return "".join(text for _, text in toolbar(session, width))


def test_the_toolbar_says_game_over_and_paused_not_to_act_over():
    s = Session()
    s.start(DICE, seed=3)
    assert "│ paused  │" in _toolbar_text(s) and "to act" not in _toolbar_text(s)
    out = s.execute("auto")
    assert "│ game over  │ scores P0 19, P1 30" in _toolbar_text(s) and "to act" not in _toolbar_text(s)
    assert "auto ran on from the pause point with no move to make and stopped: the game is over" in out
    assert "0 moves" not in out  # it ran the whole game: `auto stopped after 0 moves` read as if nothing ran
    s = bouncer()
    assert "│ to act P0  │" in _toolbar_text(s)


# ---- the table: face-up marks and unseen cards in a pile ----------------------------------------------

KLONDIKE = str(GAMES.parent / "tests" / "scripts" / "klondike.cardgame")


def _rows(out: str, *names: str) -> list[str]:
    return [line for line in out.split("\n") if line.split(" ")[0] in names]


def test_a_face_up_card_in_a_pile_declared_hidden_is_marked_even_alone():
    s = Session()
    s.start(KLONDIKE, seed=4)  # the piles t1..t7 are `shared hidden`, each top card revealed
    out = s.execute("state")
    assert _rows(out, "t1", "t2") == ["t1      1  6H*", "t2      2  QD 6C*"]  # t1 read `6H`, as if face down
    s.execute("view P0")
    assert _rows(s.execute("state"), "t1", "t2", "t7") == ["t1      1  6H*", "t2      2  (1 hidden) 6C*",
                                                         "t7      7  (6 hidden) 9S*"]  # `9S* +6 hidden`


def test_a_public_zone_marks_nothing_and_a_hand_still_counts_its_hidden_cards_at_the_end():
    s = Session()
    s.start(KLONDIKE, seed=4)
    s.execute("auto 30")
    assert _rows(s.execute("state"), "fd", "fs") == ["fd      1  AD", "fs      1  AS"]
    s = Session()
    s.start(str(GAMES / "booray.cardgame"), seed=4)  # the dealer's turned-up trump card stays in its hand
    s.execute("auto 3")
    s.execute("view P0")
    assert "hand[P1]   5  KH* +4 hidden" in s.execute("state")


# ---- reading the typed line: `#N` positions, short names ----------------------------------------------

def test_a_move_position_typed_after_why_is_not_drawn_as_a_comment():
    from prompt_toolkit.document import Document

    from cardgame.repl.lexer import InputLexer
    line = InputLexer().lex_document(Document("why #2"))(0)
    assert line == [("class:command", "why"), ("", " #2")]  # `#2` was grey italic, as a comment
    styles = dict((text, style) for style, text in InputLexer().lex_document(Document("p count(hand[P0])"))(0))
    assert "pygments.name.function" in styles["count"]  # `p` is `eval`
    styles = dict((text, style) for style, text in InputLexer().lex_document(Document("b when led == none"))(0))
    assert styles["when"] == "class:pygments.keyword" and "constant" in styles["none"]


def test_positions_written_with_a_hash_keep_it_beside_the_number():
    s = Session()
    s.start(str(GAMES.parent / "tests" / "scripts" / "hanabi.cardgame"), seed=4)
    listed = s.execute("moves").split("\n")
    assert listed[1] == "   #1. play 0" and listed[10] == "  #10. clue_number P1 1"  # it read `  # 1. play 0`


# ---- help ---------------------------------------------------------------------------------------------

def test_help_reads_a_command_in_any_case_and_suggests_the_nearest():
    s = bouncer()
    assert s.execute("help PLAY") == s.execute("help play")  # `PLAY 9d` runs; `help PLAY` said no command
    assert s.execute("help mvoes") == "error: no command `mvoes`\n  = help: did you mean `help moves`? `help` lists them all"
    assert s.execute("help zzz") == "error: no command `zzz`\n  = help: `help` lists them all"


# ---- load and open, each given the other's file --------------------------------------------------------

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


def test_expressions_complete_built_ins_words_and_after_a_dot_the_attributes():
    s = Session()
    s.start(str(GAMES / "bosspoker.cardgame"), seed=4)
    assert complete(s, "eval count(hand[P1]) + cou") == [("count", -3)]  # built-ins were never offered
    assert complete(s, "eval top(committed[P1]).r") == [("rank", -1)]  # it offered raise_targets, round_end...
    assert [t for t, _ in complete(s, "eval top(committed[P1]).")] == ["rank", "colour", "name"]
    assert complete(s, "eval any c in shown[P0] wh") == [("where", -2)]
    assert ("player_count", -6) in complete(s, "watch player")
    assert "random" not in [t for t, _ in complete(s, "eval ra")]  # only statements draw
    assert "team" not in [t for t, _ in complete(s, "eval te")]  # no teams in this game


def test_the_expression_words_offered_are_words_of_the_language():
    from cardgame.repl.completer import _EXPRESSION_WORDS
    from cardgame.repl.lexer import CONSTANTS, KEYWORDS, OPERATOR_WORDS
    assert set(_EXPRESSION_WORDS) <= set(KEYWORDS + OPERATOR_WORDS + CONSTANTS)


# ---- lines pasted with their prompt ---------------------------------------------------------------------

def test_a_line_pasted_with_its_prompt_runs_the_command_after_it():
    s = bouncer()
    assert s.execute("> moves") == bouncer().execute("moves")  # as the docs write a session
    assert s.execute("bouncer 0 P0 [all]> play 1") == "1. P0: play 9D"  # copied from the terminal
    assert s.execute("bouncer 1 P1 [P1]>") == "" and not s.failed  # a bare prompt is an empty line
    out = s.execute_block("bouncer 1 P1 [all]> play 1\nbouncer 2 P2 [all]> log")
    assert out.split("\n")[0] == "> play 1" and "   2. P1: play " in out
    assert s.execute("P0 to act: Play a card").startswith("error: unknown command `P0`")  # output stays no command


def test_why_completes_expand_and_the_definitions_it_opens():
    s = Session()
    s.start(str(GAMES / "booray.cardgame"), seed=3)
    s.execute("auto 5 --agent random")
    assert complete(s, "why play 6H --ex") == [("--expand", -4)]
    assert complete(s, "why play 6H --expand can_") == [("can_follow", -4), ("can_overtrump", -4)]  # nothing before
    assert complete(s, "why play 6H -e can_follow,hol") == [("holds_trump", -3)]
    assert complete(s, "why 6") == [("6H", -1)]


def test_every_command_completes_its_own_words():
    s = bouncer()  # P0: 9D 7C AD 9S 6C 3D AS 8C JS JC 3S 10S 4D
    s.execute("watch total")
    s.execute("watch led")
    s.execute("break rule follow_suit")
    words = {line: [t for t, _ in complete(s, line)] for line in (
        "pause ", "unwatch ", "unbreak ", "auto 5 --agent ", "auto 5 --", "save --", "save --view ", "log ",
        "moves --a", "moves a", "moves AD ", "new seed=3 pl", "open -")}
    assert words == {  # each offered nothing before
        "pause ": ["chance", "phase", "all", "off"], "unwatch ": ["1", "2", "all"], "unbreak ": ["1", "all"],
        "auto 5 --agent ": ["random"], "auto 5 --": ["--agent"], "save --": ["--view"],
        "save --view ": ["P0", "P1", "P2", "spectator"], "log ": ["-n"], "moves --a": ["--all"],
        "moves a": ["AD", "AS"], "moves AD ": [], "new seed=3 pl": ["players="], "open -": ["--force"]}


# ---- cards copied from the table, with their suit symbols ------------------------------------------------

def test_a_card_copied_from_the_table_with_its_suit_symbol_names_the_card():
    s = bouncer()
    s.symbols = True
    assert "9♦" in s.execute("state")
    assert s.execute("moves 9♦") == s.execute("moves 9D")
    assert s.execute("why 9♦") == s.execute("why 9D")
    assert s.execute("play 9♦") == "1. P0: play 9D"  # it said `play 9♦` is not a move; did you mean `play 9S`?
    assert s.execute("play K♥*").startswith("error: `play KH` is not a move here")  # copied with its face-up mark


def test_an_expression_may_name_a_card_with_its_suit_symbol_outside_texts():
    s = bouncer()  # the prize is QH (seed 1)
    assert s.execute("eval top(prize)==Q♥") == "true"  # E0139: `♥` is not a character of the language
    assert s.execute("watch Q♥ in hand[P0]") == "watch 1: QH in hand[P0] = false"
    assert s.execute("break when top(prize) != Q♥") == "breakpoint 1: when top(prize) != QH"
    assert s.execute('eval "Q♥"') == "Q♥"  # a text keeps what it says


# ---- without colour ----------------------------------------------------------------------------------------

def test_without_colour_the_toolbar_is_drawn_in_reverse_video(monkeypatch):
    from cardgame.repl.app import terminal_style
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("PROMPT_TOOLKIT_COLOR_DEPTH", raising=False)
    assert not terminal_style().get_attrs_for_style_str("class:bottom-toolbar").reverse
    monkeypatch.setenv("NO_COLOR", "1")  # it kept `noreverse` and lost its background: a line like the output
    style = terminal_style()
    assert all(style.get_attrs_for_style_str(f"class:{name}").reverse
               for name in ("bottom-toolbar", "bottom-toolbar.label", "bottom-toolbar.value"))


def test_a_when_breakpoint_true_already_says_it_stops_when_it_becomes_true_again():
    s = bouncer()
    assert s.execute("break when led == none") == \
        "breakpoint 1: when led == none (true now: `auto` stops when it becomes true again)"
    assert "became true" in s.execute("auto") and s.step == 3  # not at once: after the first trick
    assert s.execute("break when led != none") == "breakpoint 2: when led != none"


def test_play_and_why_after_the_end_say_the_game_is_over():
    s = bouncer()
    s.execute("auto end")
    help_line = "  = help: `undo` goes back to a position before; `new` starts a new game"
    assert s.execute("play 1") == "error: the game is over: there is no move to make\n" + help_line  # `no move 1`
    assert s.execute("why 9D") == "error: the game is over: there is no move to judge\n" + help_line


def test_unwatch_and_unbreak_alone_give_their_usage():
    s = bouncer()
    assert s.execute("unbreak") == "error: usage: unbreak N|all (there are no breakpoints)"  # no breakpoint ``
    s.execute("watch total")
    assert s.execute("unwatch") == "error: usage: unwatch N|all (the ids in use are 1)"


# ---- undo, then a move --------------------------------------------------------------------------------------

def test_a_new_move_after_undo_says_how_many_undone_moves_it_drops():
    s = bouncer()
    s.execute("auto 5")
    s.execute("goto 2")
    out = s.execute("play 1")  # another move than the undone third one
    assert out.endswith("note: 3 undone moves dropped: a new one was made at step 2")  # they went silently
    assert s.execute("redo") == "error: nothing to redo"


def test_the_undone_move_made_again_keeps_the_ones_after_it():
    s = bouncer()
    s.execute("auto 5")
    s.execute("undo 3")
    out = s.execute("auto 1")  # the random agent replays the same move at the same step
    assert "note:" not in out and s.step == 3
    assert s.execute("goto 5").startswith("step 5, ") and len(s.state.history) == 5


# ---- help's examples run in the game loaded ------------------------------------------------------------

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


# ---- a run of moves is bounded: every position is kept for undo ------------------------------------------

def test_auto_and_step_stop_after_the_most_steps_one_run_makes(monkeypatch):
    from cardgame.repl import session_running
    monkeypatch.setattr(session_running, "MOST_STEPS_PER_RUN", 3)  # 5000 in use: `auto end` of a game that
    s = bouncer()                                                        # never ends ran for minutes, silent
    out = s.execute("auto end")
    assert "auto stopped after 3 moves: one run makes at most 3 steps; `auto` again goes on" in out
    assert s.step == 3 and not s.failed
    out = s.execute("step 10")
    assert "stopped after 3 steps of 10: one run makes at most 3 steps" in out and s.step == 6
    assert "auto played 2 moves" in s.execute("auto 2")


# ---- a long game: few positions kept, the others made again exactly --------------------------------------

def _positions(s: Session, steps, events: bool = True) -> list:
    """What each position shows: its saved data, the log and the table as P1 sees them, and with
    `events` every event P1 observed (a game played with a tracer also holds the rules judged)."""
    out = []
    for step in steps:
        s.execute(f"goto {step}")
        s.execute("view P1")
        seen = (s.execute("log"), s.execute("state"), [str(e) for e in s.state.observed_events(1)] if events else [])
        s.execute("view all")
        out.append((json.dumps(s.state.to_json(), sort_keys=True), seen))
    return out


@pytest.mark.parametrize("script, commands", [
    (BOUNCER, ["auto end"]),  # moves (each position's observation log, with the rules judged, made again too)
    (DICE, ["step 9", "undo 2", "step 3", "run"]),  # steps between pause points
    (BOUNCER, ["pause all", "new", "step 40", "auto 30"]),  # both
])
def test_positions_not_kept_are_made_again_exactly(monkeypatch, script, commands):
    from cardgame.repl import timeline
    monkeypatch.setattr(timeline, "KEEP_LAST", 10 ** 9)
    kept_all = Session()
    kept_all.start(script, seed=1)
    for command in commands:
        kept_all.execute(command)
    monkeypatch.setattr(timeline, "KEEP_LAST", 2)
    monkeypatch.setattr(timeline, "MOST_CHECKPOINTS", 2)
    few = Session()
    few.start(script, seed=1)
    for command in commands:
        few.execute(command)
    length = len(kept_all._timeline)
    assert len(few._timeline) == length and length > 10
    assert sum(state is not None for state in few._timeline._states) <= 2 + 2 + 2
    steps = sorted({0, 1, 5, length // 3, length // 2, length - 3, length - 1})
    assert _positions(few, steps) == _positions(kept_all, steps)


def test_a_replay_opened_with_few_positions_kept_undoes_and_redoes_exactly(monkeypatch, tmp_path):
    from cardgame.repl import timeline
    s = bouncer()
    s.execute("auto 120")
    path = tmp_path / "long.replay"
    s.execute(f"save {path}")
    monkeypatch.setattr(timeline, "KEEP_LAST", 2)
    monkeypatch.setattr(timeline, "MOST_CHECKPOINTS", 2)
    opened = Session()
    opened.execute(f"open {path}")
    steps = [0, 33, 77, 119, 120]
    assert _positions(opened, steps, events=False) == _positions(s, steps, events=False)
    opened.execute("goto 50")
    opened.execute("redo")  # from a position made again
    s.execute("goto 51")
    assert opened.state.to_json() == s.state.to_json()


def test_a_recorded_game_state_is_freed_without_waiting_for_the_garbage_collector():
    import gc
    import weakref

    from cardgame import interpreter
    state = interpreter.load(BOUNCER).new_game(seed=1, record=True)
    state.set_tracer(lambda event: None)
    state.apply(state.legal_moves()[0].text)
    gone = weakref.ref(state)
    gc.disable()
    try:
        del state  # its tracer referred to it: a cycle, kept (with its whole log) until a full collection
        assert gone() is None
    finally:
        gc.enable()


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
