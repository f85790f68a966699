"""Hostile input, fourth campaign: the constructs added last (include chains and `replace`,
options on the command line, the code cache, the editor's server and `cardgame fmt`).  Each
test is one attack that once gave a traceback, a misleading diagnostic or a wrong game."""

from __future__ import annotations

import hashlib
import marshal
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardgame import interpreter
from cardgame.authoring.analysis import Analysis
from cardgame.authoring.fmt import format_source
from helpers import ROOT, played_json
from cardgame.interpreter.codegen import code_cache
from cardgame.interpreter.language import kept_files, parser
from cardgame.interpreter.language.concrete import tokens
from cardgame.repl.cli import main

WAR = ROOT / "tests" / "scripts" / "war.cardgame"


def _deep(depth: int, opening="(", closing=")") -> str:
    return "define x = " + opening * depth + "1" + closing * depth + "\n" + WAR.read_text()


# ---- brackets nested past MAX_NESTING --------------------------------------------------------

@pytest.mark.parametrize("opening, closing", [("(", ")"), ("[", "]")])
def test_brackets_nested_past_the_limit_are_e0111_for_check_fmt_and_the_editor(opening, closing, tmp_path, capsys):
    script = tmp_path / "deep.cardgame"
    script.write_text(_deep(1000, opening, closing))
    assert main(["check", str(script)]) == 1
    assert "[E0111]" in capsys.readouterr().err
    assert main(["fmt", "--check", str(script)]) == 1
    said = capsys.readouterr()
    assert "Traceback" not in said.out + said.err and "[E0111]" in said.err
    out, diags = format_source(script.read_text(), str(script))
    assert out is None and [d.code for d in diags] == ["E0111"]
    assert [d.code for d in Analysis(str(script), script.read_text()).diagnostics] == ["E0111"]


def test_brackets_at_the_limit_still_load_and_the_error_points_at_the_first_one_past_it():
    assert parser.parse_script(_deep(parser.MAX_NESTING - 2), "deep.cardgame")[1] == []
    _script, diags = parser.parse_script(_deep(parser.MAX_NESTING + 5), "deep.cardgame")
    (diag,) = diags
    assert diag.code == "E0111" and (diag.span.line, diag.span.column) == (1, len("define x = ") + parser.MAX_NESTING + 1)


def test_brackets_in_texts_and_comments_are_not_counted():
    text = WAR.read_text() + '# ' + "(" * 400 + '\ndefine y = "' + "[" * 400 + '"\n'
    _script, diags = parser.parse_script(text, "war.cardgame")
    assert diags == []


def test_deep_brackets_in_a_repl_expression_are_an_answer(capsys):
    from cardgame.repl.session import Session
    session = Session()
    session.execute(f"load {WAR}")
    said = session.execute("eval " + "(" * 1000 + "1" + ")" * 1000)
    assert "E0111" in said and "Traceback" not in said


# ---- the editor's text -----------------------------------------------------------------------

def test_a_lone_surrogate_in_the_editors_text_is_e0113():
    """LSP text arrives as JSON, where `\\ud800` alone is valid: no file can hold it."""
    text = WAR.read_text().replace('"War"', '"W\ud800r"')
    assert [d.code for d in Analysis(str(WAR), text).diagnostics] == ["E0113"]
    assert [d.code for d in format_source(text, str(WAR))[1]] == ["E0113"]


# ---- the code cache --------------------------------------------------------------------------

@pytest.fixture
def cache_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDGAME_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _played(game):
    return played_json(game, 2, 3)


def _plant(change) -> None:
    """Rewrite the code file of WAR with each entry changed by `change`, under a digest that
    matches (as a writer that knows the format would)."""
    place = kept_files.private_place(kept_files.kept_name("code-", os.path.abspath(WAR)))
    stamp = code_cache._stamp()
    raw = open(place, "rb").read()
    entries = marshal.loads(raw[len(stamp) + hashlib.sha256().digest_size:])
    data = marshal.dumps({key: change(value) for key, value in entries.items()})
    with open(place, "wb") as f:
        f.write(stamp + hashlib.sha256(data).digest() + data)


@pytest.mark.parametrize("change", [
    lambda v: (1, 2) if isinstance(v, tuple) else v,          # lines that are not texts
    lambda v: (v,) if isinstance(v, tuple) else v,            # lines nested one level too deep
    lambda v: ("return (",) if isinstance(v, tuple) else v,   # lines Python cannot compile
    lambda v: () if isinstance(v, tuple) else v,              # no lines at all
], ids=["numbers", "nested", "syntax_error", "empty"])
def test_kept_code_of_the_wrong_shape_is_made_again_not_blamed_on_the_script(cache_folder, change):
    expected = _played(interpreter.load(str(WAR)))
    _plant(change)
    assert _played(interpreter.load(str(WAR))) == expected  # no E0608 "nested too deeply", no traceback
    assert _played(interpreter.load(str(WAR))) == expected  # and the file was made again


# ---- the language server ---------------------------------------------------------------------

def _unopened(server, path) -> tuple[str, str]:
    from pygls.uris import from_fs_path
    return server.document(from_fs_path(str(path)))


def test_a_request_for_a_document_the_editor_never_opened_reads_it_as_a_script(tmp_path):
    """pygls reads such a document whole from disk: a FIFO blocked the server for good and a
    2 GB file was read into memory; now the document is read as a script is, or is empty."""
    from pygls.workspace import Workspace

    from cardgame.authoring.lsp import build_server
    server = build_server()
    server.protocol._workspace = Workspace(None)  # what `initialize` makes
    os.mkfifo(tmp_path / "pipe.cardgame")
    big = tmp_path / "big.cardgame"
    with open(big, "wb") as fh:
        fh.truncate(2 * 1024 ** 3)  # sparse
    assert _unopened(server, tmp_path / "pipe.cardgame")[1] == ""
    assert _unopened(server, big)[1] == ""
    assert _unopened(server, tmp_path / "missing.cardgame")[1] == ""
    assert _unopened(server, WAR) == (str(WAR), WAR.read_text())
    from pygls.uris import from_fs_path
    assert server.analysis(from_fs_path(str(tmp_path / "pipe.cardgame"))).hover(1, 1) is None


# ---- REPL lines and expressions past a script's length ---------------------------------------

@pytest.mark.parametrize("line", [
    'eval "' + "a" * 5_000_000 + '"',                  # took 15 s and 2 GB, then printed 5 MB
    "eval " + " + ".join(["1"] * 400_000),            # took 69 s to reach E0111
    "show " + "z" * 1_000_000,                        # quoted back whole
])
def test_a_command_longer_than_a_script_is_refused_before_it_is_read(line):
    from cardgame.repl.session import Session
    session = Session()
    session.execute(f"load {WAR}")
    said = session.execute(line)
    assert said.startswith("error: a command is at most 131,072 characters") and len(said) < 300
    assert session.failed and session.last_failed
    assert session.execute("eval 1 + 1") == "2"


def test_an_expression_longer_than_a_script_is_e0112_in_the_api():
    state = interpreter.load(str(WAR)).new_game(players=2, seed=1)
    _value, diags = state.evaluate("1" + " + 1" * 40_000)
    assert [d.code for d in diags] == ["E0112"]


# ---- options on the command line -------------------------------------------------------------

BOORAY = ROOT / "games" / "booray.cardgame"


@pytest.mark.parametrize("value", ["5_0", "\u0663", "\uff11\uff10", "0x10", "1e1", "7.0", "9" * 30])
def test_a_number_option_takes_ascii_digits_only(value, capsys):
    """int() read `5_0` as 50 and the Arabic-Indic `٣` as 3, which no script can write."""
    assert main(["play", str(BOORAY), "--seed", "1", "--option", f"hands={value}"]) == 1
    assert "[E0702]" in capsys.readouterr().err


@pytest.mark.parametrize("value, read", [("7", 7), ("+7", 7), ("-0", 0), ("07", 7), (" 7 ", 7)])
def test_plain_numbers_still_read(value, read):
    game = interpreter.load(str(BOORAY))
    assert game.read_options({"hands": value}) == {"hands": read}


def test_a_long_option_name_or_value_is_quoted_back_clipped(capsys):
    assert main(["play", str(BOORAY), "--option", "hands=" + "9" * 5000, "--option", "x" * 5000 + "=1"]) == 1
    err = capsys.readouterr().err
    assert "[E0701]" in err and "[E0702]" in err and "(5,000 characters)" in err and len(err) < 600


# ---- starting values and zone conditions ------------------------------------------------------

def test_a_starting_value_with_a_quantifier_or_comprehension_has_its_locals(tmp_path):
    """They ran with an empty list of locals: an IndexError traceback at the start of every game."""
    script = tmp_path / "starts.cardgame"
    script.write_text(WAR.read_text().replace(
        "var rounds: int = 0",
        "var rounds: int = 0\nvar flag: bool = all x in range(0, 3) where x >= 0\n"
        "var doubled: list of int = [x * 2 for x in range(0, 3)]\n"
        "var biggest: int = max x in [4, 9, 2] by x"))
    state = interpreter.load(str(script)).new_game(players=2, seed=1)
    assert state.fault is None
    assert [state.evaluate(name)[0] for name in ("flag", "doubled", "biggest")] == ["true", "[0, 2, 4, 6]", "9"]  # range includes its end


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


# ---- texts as the items of a move ------------------------------------------------------------

TEXT_ITEMS = """game "Words"
players 2

phase main {
    decide seat(0) "Say something" {
        lay(ts from 1..2 of ["a b", "a", "b", ""])
        pick(a from ["x y", "x"], b from ["z", "y z"])
        say(e from ["", "q"], f from ["q", ""])
    }
    end game
}
"""


def test_texts_whose_words_run_together_still_name_one_move_each(tmp_path):
    """`pick "x y" z` and `pick x "y z"` both read `pick x y z`, so one of the two legal moves
    was silently dropped from the listing (11 moves of 19 were lost or merged)."""
    script = tmp_path / "words.cardgame"
    script.write_text(TEXT_ITEMS)
    state = interpreter.load(str(script)).new_game(players=2, seed=1)
    texts = [m.text for m in state.legal_moves()]
    assert texts == ['lay ""', 'lay a', 'lay "a b"', 'lay b', 'lay "" a', 'lay "" "a b"', 'lay "" b', 'lay a "a b"',
                     'lay a b', 'lay "a b" b', 'pick "x y" z', 'pick "x y" "y z"', 'pick x z', 'pick x "y z"',
                     'say "" q', 'say "" ""', 'say q q', 'say q ""']
    state.apply('pick x "y z"')
    assert state.history == ['pick x "y z"']


# ---- chance in a log line ----------------------------------------------------------------------

ROLL_LOG = """game "Roll log"
players 2

var total: int = 0

phase main {
    log "you rolled {DRAW}"
    set total = random(1, 1000000)
    decide seat(0) "Keep?" {
        keep
    }
    end game
}

score p: total
winners: highest score
"""


def test_a_draw_in_a_log_line_is_e0218_and_a_drawn_value_logged_plays_the_same_watched_or_not(tmp_path):
    """The `{random(1, 6)}` of a log line drew only when a tracer listened: seed 5 gave 752308
    under `cardgame play` and 386769 unwatched (simulate, the API)."""
    script = tmp_path / "roll.cardgame"
    script.write_text(ROLL_LOG.replace("DRAW", "random(1, 6)"))
    _tables, _items, _sources, diags = interpreter.check_file(str(script))
    assert [d.code for d in diags] == ["E0218"]
    script.write_text(ROLL_LOG.replace("DRAW", "total").replace("    log", "    set total = random(1, 6)\n    log"))
    game = interpreter.load(str(script))
    heard = []
    watched = game.new_game(players=2, seed=5, tracer=heard.append)
    unwatched = game.new_game(players=2, seed=5)
    assert heard and watched.to_json() == unwatched.to_json()


# ---- hints over thousands of look-alike names --------------------------------------------------

def test_did_you_mean_hints_share_a_budget_per_check():
    """2,500 unknown names among 2,500 look-alike ones: every hint compared the name with every
    declared one (difflib), 152 s for an 88 KB script; now at most SUGGESTION_WORK comparisons."""
    from cardgame.interpreter.language import source
    text = "".join(f"define name_{i:05d}_q = name_{i + 1:05d}_x\n" for i in range(600)) + WAR.read_text()
    compared = []
    real = source.difflib.get_close_matches
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(source.difflib, "get_close_matches",
                      lambda name, candidates, **kw: compared.append(len(candidates)) or real(name, candidates, **kw))
        _tables, _items, _sources, diags = interpreter.check_file(str(WAR), text)
    assert len(diags) == 600 and {d.code for d in diags} == {"E0201"}
    assert sum(compared) <= source.SUGGESTION_WORK < 600 * 600
    assert diags[0].hint.startswith("did you mean")  # the first ones still get their hint


# ---- cardgame fmt past the script length -------------------------------------------------------

def _long_one_liners(phases=1100) -> str:
    """A script just under the length cap, its phases written on few lines: formatted, it grows
    past the cap."""
    lines = ['game "Chain"', "players 2", "var k: int = 0"]
    for i in range(phases):
        following = f"p{(i + 1) % phases}"
        lines.append(f'phase p{i} {{\nset k += 1\nif k > 3000 {{ end game }}\ndecide seat(0) "go" {{ a {{ next {following} }} '
                     f'b {{ next p{(i * 7) % phases} }} }}\n}}')
    return "\n".join(lines) + "\n"


def test_a_script_that_formatting_would_take_past_the_length_cap_is_e0731_and_left_alone(tmp_path, capsys):
    """The formatted text (210 KB) could not be read back, so the check that fmt keeps the
    meaning failed: a FormatError traceback."""
    script = tmp_path / "chain.cardgame"
    script.write_text(_long_one_liners())
    before = script.read_text()
    assert main(["fmt", str(script)]) == 1
    said = capsys.readouterr()
    assert "Traceback" not in said.err and "[E0731]" in said.err and "0 file(s) reformatted" in said.err
    assert script.read_text() == before


def test_formatting_that_would_change_the_meaning_is_e0732_not_a_traceback(monkeypatch, tmp_path, capsys):
    from cardgame.authoring import fmt
    monkeypatch.setattr(fmt, "same_script", lambda before, after, path="": False)  # a formatter bug, simulated
    script = tmp_path / "war.cardgame"
    script.write_text(WAR.read_text().replace("    ", "  "))
    assert main(["fmt", str(script)]) == 1
    said = capsys.readouterr()
    assert "Traceback" not in said.err and "[E0732]" in said.err
    assert script.read_text() == WAR.read_text().replace("    ", "  ")


class _EndlessLine:
    """Standard input holding `eval 1`, a line of `size` characters, then `eval 2`, made as it is
    read: a reader that asked for the whole long line at once would hold all of it."""

    def __init__(self, size: int):
        self.parts, self.left, self.asked = ["eval 1\n"], size, []

    def readline(self, most: int = -1) -> str:
        self.asked.append(most)
        if self.parts:
            return self.parts.pop()
        if self.left:
            piece = min(self.left, most)
            self.left -= piece
            return "a" * piece + ("\n" if not self.left else "")
        text, self._done = ("eval 2\n", True) if not getattr(self, "_done", False) else ("", True)
        return text


def test_a_piped_line_of_a_gigabyte_is_read_in_pieces_and_refused(capsys):
    import io

    from cardgame.repl.app import run_piped
    from cardgame.repl.session import MAX_LINE, Session
    session = Session()
    session.execute(f"load {WAR}")
    stdin, out = _EndlessLine(10 ** 9), io.StringIO()
    assert run_piped(session, "", stdin, out) == 1
    said = out.getvalue().splitlines()
    assert said[0] == "1" and said[-1] == "2"
    assert "this one has 1,000,000,001" in out.getvalue()  # the newline counted, as in a typed line
    assert max(stdin.asked) == MAX_LINE + 1


# ---- cardgame fmt on hostile layout (generated) -------------------------------------------------

FMT_SCRIPTS = [ROOT / "tests" / "scripts" / name for name in
               ("records.cardgame", "war.cardgame", "variants/booray_house.cardgame", "hanabi.cardgame")]
GAPS = ["\n", "  ", "\t", "\n\n\n", " # c\n", "\n# c {\n", " #\n", " # ((((\n", '\n    # x "y\n', " # é ♠\n", "\r\n"]


@given(st.data())
def test_fmt_of_comments_and_breaks_between_any_tokens_keeps_the_script_and_is_idempotent(data):
    path = data.draw(st.sampled_from(FMT_SCRIPTS))
    text = path.read_text()
    tree, _ = parser.parse_concrete(text, str(path))
    ends = sorted({token.end for token in tokens(tree)})
    cuts = data.draw(st.lists(st.sampled_from(ends), min_size=1, max_size=6, unique=True))
    for cut in sorted(cuts, reverse=True):
        text = text[:cut] + data.draw(st.sampled_from(GAPS)) + text[cut:]
    text = text.replace("\r\n", "\n")  # as `cardgame fmt` reads a file
    out, diags = format_source(text, str(path))
    assert diags == [] and out is not None
    assert format_source(out, str(path)) == (out, [])
    assert out.count("#") == text.count("#")


# ---- include paths -------------------------------------------------------------------------------

@pytest.mark.parametrize("written, says, hint", [
    ("d/../war.cardgame", "goes up a folder (`..`)", 'include "war.cardgame"'),      # said: leaves the folder
    ("../../../etc/passwd", "leaves the script's folder", None),
    ("a" * 5000 + ".cardgame", "...(5,009 characters)", None),                         # quoted whole
])
def test_an_include_path_is_named_for_what_it_does_and_quoted_clipped(written, says, hint, tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "war.cardgame").write_text(WAR.read_text())
    script = tmp_path / "v.cardgame"
    script.write_text(f'include "{written}"\n')
    _tables, _items, _sources, diags = interpreter.check_file(str(script))
    (diag,) = diags
    assert says in diag.message and len(diag.message) < 120
    assert hint is None or hint in diag.hint


# ---- include and replace attacks that are refused as they should be (kept so they stay so) -------

V = 'include "war.cardgame"\n'
HELD = {
    "self": ({"v.cardgame": 'include "v.cardgame"\n'}, "E0602"),
    "cycle_of_three": ({"v.cardgame": 'include "b.cardgame"\n', "b.cardgame": 'include "c.cardgame"\n',
                        "c.cardgame": 'include "v.cardgame"\n'}, "E0602"),
    "chain_of_seventy": ({**{f"f{i}.cardgame": f'include "f{i + 1}.cardgame"\n' for i in range(70)},
                          "v.cardgame": 'include "f0.cardgame"\n'}, "E0603"),
    "folder_named_like_a_script": ({"d.cardgame/x": "", "v.cardgame": 'include "d.cardgame"\n'}, "E0605"),
    "binary": ({"b.cardgame": bytes(range(256)) * 4, "v.cardgame": 'include "b.cardgame"\n'}, "E0601"),
    "utf16": ({"b.cardgame": "var z: int = 0\n".encode("utf-16"), "v.cardgame": 'include "b.cardgame"\n'}, "E0601"),
    "byte_order_mark_inside": ({"b.cardgame": b"var z: int = 0\n\xef\xbb\xbf\n", "v.cardgame": 'include "b.cardgame"\n'},
                               "E0113"),
    "symlink_to_itself": ({"v.cardgame": 'include "l.cardgame"\n', "l.cardgame": "->l.cardgame"}, "E0601"),
    "include_inside_a_phase": ({"v.cardgame": WAR.read_text().replace("    shuffle stock\n", '    include "x.cardgame"\n', 1)},
                               "E0107"),
    "replace_twice_in_one_file": ({"v.cardgame": V + 'replace game "A"\nreplace game "B"\n'}, "E0613"),
    "two_siblings_replace_one": ({"a.cardgame": V + 'replace game "A"\n', "b.cardgame": V + 'replace game "B"\n',
                                  "v.cardgame": 'include "a.cardgame"\ninclude "b.cardgame"\n'}, "E0613"),
    "replace_a_deck": ({"v.cardgame": V + "replace deck standard in stock {\n    rank: 2\n    suit: C\n}\n"}, "E0616"),
    "replace_an_include": ({"v.cardgame": 'replace include "war.cardgame"\n'}, "E0616"),
    "replace_what_no_include_declares": ({"v.cardgame": V + "replace phase nothere {\n    end game\n}\n"}, "E0611"),
    "replace_with_a_phase": ({"v.cardgame": V + "replace define tied with phase tied {\n    end game\n}\n"}, "E0614"),
    "replace_players_by_a_billion": ({"v.cardgame": V + "replace players 1000000000\n"}, "E0402"),
}


@pytest.mark.parametrize("name", list(HELD))
def test_include_and_replace_attacks_are_refused_with_their_code(name, tmp_path):
    files, code = HELD[name]
    (tmp_path / "war.cardgame").write_text(WAR.read_text())
    for relative, content in files.items():
        place = tmp_path / relative
        place.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str) and content.startswith("->"):
            os.symlink(tmp_path / content[2:], place)
        elif isinstance(content, bytes):
            place.write_bytes(content)
        else:
            place.write_text(content)
    _tables, _items, _sources, diags = interpreter.check_file(str(tmp_path / "v.cardgame"))
    assert code in {d.code for d in diags}, [d.code for d in diags]


def test_a_fifo_or_a_folder_in_place_of_a_cache_file_is_passed_over(cache_folder):
    """The cache read its file with open(): a FIFO planted under a cache file's name blocked
    every later load of the script."""
    expected = _played(interpreter.load(str(WAR)))
    for prefix in ("code-", "tree-"):
        place = kept_files.private_place(kept_files.kept_name(prefix, os.path.abspath(WAR)))
        os.remove(place)
        os.mkfifo(place, 0o600)
    assert _played(interpreter.load(str(WAR))) == expected


def test_a_byte_order_mark_opening_a_file_is_skipped(tmp_path):
    """Some editors (Windows Notepad) open every UTF-8 file with a byte-order mark: it is not part
    of the text, at the start of a script, of an included file or of a replay."""
    (tmp_path / "war.cardgame").write_bytes(b"\xef\xbb\xbf" + WAR.read_bytes())
    (tmp_path / "v.cardgame").write_bytes(b"\xef\xbb\xbf" + V.encode() + b'replace game "With marks"\n')
    _tables, _items, _sources, diags = interpreter.check_file(str(tmp_path / "v.cardgame"))
    assert [d for d in diags if d.severity == "error"] == []
    game = interpreter.load(str(tmp_path / "v.cardgame"))
    assert game.title == "With marks" and not game.program.tables.zones.keys() - interpreter.load(str(WAR)).program.tables.zones.keys()
