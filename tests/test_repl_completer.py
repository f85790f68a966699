"""The prompt-toolkit layer: completion (Document in, completions out: every command's own words,
moves in any letter case and the cards of a move in any order, expressions, `why --expand`), the
input lexer, the toolbar (game over, paused, reverse video without colour), the Pygments lexer,
and a whole session driven through prompt-toolkit's pipe input."""

from __future__ import annotations

import pytest
from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
import threading
import time

from pygments.token import Keyword, Name, Operator, String

from helpers import GAMES, bouncer
from cardgame.repl.app import interact
from cardgame.repl.completer import ReplCompleter
from cardgame.repl.lexer import STYLE, CardgameLexer, InputLexer, highlight_output
from cardgame.repl.session import Session
from cardgame.repl.toolbar import toolbar

BOUNCER = str(GAMES / "bouncer.cardgame")


@pytest.fixture
def session():
    s = Session()
    s.start(BOUNCER, seed=1)
    return s


def complete(session, text):
    completer = ReplCompleter(session)
    return [(c.text, c.start_position) for c in completer.get_completions(Document(text, len(text)), CompleteEvent())]


def texts(session, text):
    return [t for t, _ in complete(session, text)]


def test_command_names(session):
    assert texts(session, "pl") == ["play "]  # with the space after it: Tab again lists the moves
    assert set(texts(session, "s")) == {"state ", "show ", "step ", "seat ", "source ", "save "}
    assert "quit " in texts(session, "")
    assert texts(session, "zzz") == []


def test_legal_moves_short_and_full(session):
    legal = [m.text for m in session.state.legal_moves()]
    got = texts(session, "play ")
    assert [t for t in got if " " in t] == legal
    assert [t for t in got if " " not in t] == [m.split()[1] for m in legal]
    nine = [m.split()[1] for m in legal if m.split()[1].startswith("9")]
    assert complete(session, "play 9") == [(card, -1) for card in nine]
    assert complete(session, "play play 9") == [(f"play {card}", -6) for card in nine]


def test_why_completes_every_candidate_including_illegal(session):
    session.execute("play 1")
    candidates = [m.text for m in session.state.candidate_moves()]
    assert [t for t in texts(session, "why ") if " " in t] == candidates + ["step "]  # `why step N` too
    assert len(candidates) > len(session.state.legal_moves())


def test_zone_player_rule_phase_names(session):
    assert texts(session, "show h") == ["hand"]
    assert texts(session, "show hand P") == ["P0", "P1", "P2"]
    assert texts(session, "view ") == ["P0", "P1", "P2", "spectator", "all"]
    assert texts(session, "seat ") == ["P0", "P1", "P2", "table"]
    assert texts(session, "seat P1 ") == ["human", "random", "greedy", "ismcts"]
    assert texts(session, "break ") == ["rule", "phase", "when"]
    assert complete(session, "break rule f") == [("follow_suit", -1)]
    assert texts(session, "break phase ") == ["new_hand", "trick", "score_hand"]
    assert texts(session, "source follow") == ["follow_suit"]
    assert texts(session, "trace ") == ["on", "off"]
    assert texts(session, "help un") == ["undo", "unwatch", "unbreak"]
    assert "special_bouncers=" in texts(session, "new ")


def test_expressions_complete_the_name_at_the_cursor(session):
    assert complete(session, "eval count(ha") == [("hand", -2), ("hand_size", -2), ("hand_score", -2)]
    assert complete(session, "watch total[P") == [("P0", -1), ("P1", -1), ("P2", -1)]
    assert ("total", -3) in complete(session, "break when tot")


def test_file_names(session, tmp_path):
    (tmp_path / "game1.replay").write_text("{}")
    got = texts(session, f"open {tmp_path}/gam")
    assert got == ["e1.replay"]


def test_without_a_game():
    s = Session()
    assert texts(s, "play ") == [] and texts(s, "show ") == [] and "load " in texts(s, "lo")


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


def test_pygments_lexer_tokens():
    tokens = list(CardgameLexer().get_tokens('rule r(p: player) "doc" when any x in hand[p] where x == none'))
    kinds = {text: token for token, text in tokens if text.strip()}
    assert kinds["rule"] in Keyword and kinds["r"] in Name.Function
    assert kinds["any"] in Operator.Word and kinds["doc"] in String and kinds["=="] in Operator
    assert kinds["none"] in Keyword.Constant and kinds["player"] in Keyword.Type
    assert CardgameLexer.filenames == ["*.cardgame"]
    # the whole shipped game lexes without error tokens
    from pygments.token import Error
    source = open(BOUNCER).read()
    assert not [t for t, _ in CardgameLexer().get_tokens(source) if t in Error]


def test_every_word_of_the_grammar_is_highlighted():
    """A keyword added to the grammar must reach the REPL's highlighting too."""
    import re
    from pathlib import Path
    from cardgame.repl.lexer import CONSTANTS, KEYWORDS, OPERATOR_WORDS, TYPES
    grammar = re.sub(r"//.*", "", (Path(__file__).parent.parent / "grammar" / "cardgame.lark").read_text())
    words = set(re.findall(r'"([a-z_]+)"', grammar)) | set(re.findall(r"/\(?([a-z_|]+)\)?\\b/", grammar))
    words = {w for group in words for w in group.split("|")} - {"x"}  # `card "X" x 4`: a count, not a word
    assert words - set(KEYWORDS + OPERATOR_WORDS + CONSTANTS + TYPES) == set()


def test_input_lexer_highlights_expressions():
    line = InputLexer().lex_document(Document("eval count(hand[P0]) + 1"))(0)
    styles = dict((text, style) for style, text in line)
    assert styles["eval"] == "class:command" and "pygments.name.function" in styles["count"]
    line = InputLexer().lex_document(Document("play 9D"))(0)
    assert line == [("class:command", "play"), ("", " 9D")]


def test_a_move_position_typed_after_why_is_not_drawn_as_a_comment():
    from prompt_toolkit.document import Document

    from cardgame.repl.lexer import InputLexer
    line = InputLexer().lex_document(Document("why #2"))(0)
    assert line == [("class:command", "why"), ("", " #2")]  # `#2` was grey italic, as a comment
    styles = dict((text, style) for style, text in InputLexer().lex_document(Document("p count(hand[P0])"))(0))
    assert "pygments.name.function" in styles["count"]  # `p` is `eval`
    styles = dict((text, style) for style, text in InputLexer().lex_document(Document("b when led == none"))(0))
    assert styles["when"] == "class:pygments.keyword" and "constant" in styles["none"]


def test_output_highlighting_styles_source_excerpts():
    fragments = highlight_output("rule x\n51 | rule follow_suit(p: player)\nerror: bad")
    assert ("class:gutter", "51 | ") in fragments
    assert ("class:pygments.keyword.declaration", "rule") in fragments
    assert ("class:error", "error:") in fragments
    assert "".join(t for _, t in fragments) == "rule x\n51 | rule follow_suit(p: player)\nerror: bad\n"


def test_toolbar_shows_phase_actor_scores_and_watches(session):
    session.execute("watch count(points)")
    text = "".join(t for _, t in toolbar(session, width=160))
    assert "Bouncer" in text and "phase trick" in text and "to act P0" in text
    assert "scores P0 0, P1 0, P2 0" in text and "count(points) 12" in text
    assert STYLE.get_attrs_for_style_str("class:bottom-toolbar.value").bold


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


def test_without_colour_the_toolbar_is_drawn_in_reverse_video(monkeypatch):
    from cardgame.repl.app import terminal_style
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("PROMPT_TOOLKIT_COLOR_DEPTH", raising=False)
    assert not terminal_style().get_attrs_for_style_str("class:bottom-toolbar").reverse
    monkeypatch.setenv("NO_COLOR", "1")  # it kept `noreverse` and lost its background: a line like the output
    style = terminal_style()
    assert all(style.get_attrs_for_style_str(f"class:{name}").reverse
               for name in ("bottom-toolbar", "bottom-toolbar.label", "bottom-toolbar.value"))


def test_a_session_through_prompt_toolkit_pipe_input(session):
    outputs = []
    with create_pipe_input() as pipe:
        prompt = PromptSession(input=pipe, output=DummyOutput(), completer=ReplCompleter(session),
                               lexer=InputLexer(), bottom_toolbar=lambda: toolbar(session), style=STYLE,
                               complete_while_typing=False)
        # Tab completes `mov` to `moves` (completion runs in the background, so the rest of the
        # input waits a moment); Ctrl-C cancels a half-typed line; Ctrl-D quits.
        pipe.send_text("mov")

        def rest():
            time.sleep(0.3)
            pipe.send_text("\t")
            time.sleep(0.3)
            pipe.send_text("\rplay 1\rhalf typed\x03why 1\rundo\r\x04")
        feeder = threading.Thread(target=rest)
        feeder.start()
        assert interact(session, prompt, output=outputs.append) == 0
    assert outputs[0].startswith("P0 to act: Play a card")
    assert outputs[1].startswith("1. P0: play ")
    assert "follow_suit (" in outputs[2]  # `why 1`, in a few lines
    assert outputs[3].startswith("undid 1 move")
    assert len(outputs) == 4 and session.step == 0
    assert not any("unknown command" in o for o in outputs)


def test_quit_ends_the_pipe_session(session):
    outputs = []
    with create_pipe_input() as pipe:
        prompt = PromptSession(input=pipe, output=DummyOutput())
        pipe.send_text("quit\r")
        assert interact(session, prompt, output=outputs.append) == 0
    assert session.done
