"""`replace DECL` (docs/language.md §20, "Variants: replace"): a variant includes its original and
replaces declarations whole.  Each kind of declaration replaced and what the game then does, uses
in the original's own bodies meaning the replacement, a replaced phase keeping its place, options
replaced and given on the command line, a variant of a variant, the replay of a variant refused
once its original changes, and the tools (editor, fmt, rules, lint, REPL `source`).  The
refusals are golden diagnostics (tests/golden/diagnostics/replace_*)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardgame import interpreter
from cardgame.authoring.analysis import Analysis
from cardgame.authoring.fmt import format_source, same_script
from cardgame.authoring.rulebook import rulebook
from helpers import GAMES, ROOT, moves
from cardgame.interpreter.studies.agents import RandomAgent
from cardgame.interpreter.studies.measures import compile_measures, read_all
from cardgame.repl.cli import main
from cardgame.repl.session import Session

BASE = '''# The original: a small game every variant below includes.
game "Base"
players 2

option target: int in 1..9 = 5 "Points that win."
option mode: one of (calm, wild) = calm "How the game goes."

deck small in stock {
    rank: 1, 2, 3
    suit: C, H
    name: rank suit
}
attribute worth from rank: 1 = 1, 2 = 2, 3 = 3
zone stock: shared hidden
zone hand: per player owner
zone pile: shared public

var points: int per player = 0
var turns: int = 0

define step = 1
define value(c: card) = c.worth * step

rule highest_first(p: player, c: card) "Play your highest card first."
    require all x in hand[p] where x.worth <= c.worth

procedure award(p: player, c: card) {
    set points[p] += value(c)
}

event played(p: player, c: card) {
    log "{p} played {c}"
}

phase deal {
    shuffle stock
    deal 3 from stock to hand of players
    next turn
}

phase turn {
    for p in players {
        decide p "Play a card" {
            play(c from hand[p]) requires highest_first(p, c) {
                move c to pile face up
                award(p, c)
                signal played(p, c)
            }
        }
    }
    set turns += 1
    if any p in players where points[p] >= target or empty(hand[p]) {
        end game
    }
    next turn
}

score p: points[p]
winners: highest score
measure length: turns "Turns played"
limit work_per_move 1000000
'''


def _variant(tmp_path: Path, text: str, name: str = "variant.cardgame") -> str:
    (tmp_path / "base.cardgame").write_text(BASE)
    path = tmp_path / name
    path.write_text('include "base.cardgame"\n' + text)
    return str(path)


def _load(tmp_path, text) -> interpreter.Game:
    return interpreter.load(_variant(tmp_path, text))


def _first_play(game, seed=1, **options):
    """The game after P0's first card: (the state, the card P0 played)."""
    state = game.new_game(seed=seed, options=options or None)
    card = sorted(moves(state))[0].split()[1]
    state.apply(f"play {card}")
    return state, card


def _worth(card: str) -> int:
    return int(card[:-1])


def test_the_base_game_as_the_variants_find_it(tmp_path):
    state, card = _first_play(_load(tmp_path, ""))
    assert state.scores == [_worth(card), 0]


# ---- each kind of declaration replaced --------------------------------------------------------

def test_game_title(tmp_path):
    assert _load(tmp_path, 'replace game "Base, my way"\n').title == "Base, my way"


def test_players(tmp_path):
    game = _load(tmp_path, "replace players 2..3\n")
    assert (game.min_players, game.max_players) == (2, 3)
    assert len(game.new_game(players=3, seed=1).view("all")["zones"]["hand"]) == 3


def test_option_range_and_default_and_the_command_line(tmp_path, capsys):
    path = _variant(tmp_path, 'replace option target: int in 1..20 = 12 "Points that win, a longer game."\n')
    game = interpreter.load(path)
    (target, mode) = game.options
    assert (target.name, target.default, target.allowed, target.doc) == ("target", 12, "1..20",
                                                                          "Points that win, a longer game.")
    assert mode.name == "mode"  # the replaced option keeps its place in the list
    assert game.read_options({"target": "15"}) == {"target": 15}
    with pytest.raises(interpreter.ScriptError) as err:
        game.read_options({"target": "25"})
    assert err.value.diagnostics[0].code == "E0702" and "1..20" in err.value.diagnostics[0].hint
    assert main(["simulate", path, "-n", "3", "--option", "target=15", "--json", "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["options"] == {"target": 15}
    assert main(["simulate", path, "-n", "3", "--option", "target=25", "--no-progress"]) != 0
    assert "`25` is not allowed for option `target`" in capsys.readouterr().err


def test_option_choices(tmp_path):
    game = _load(tmp_path, 'replace option mode: one of (calm, wild, mad) = mad "How the game goes."\n')
    mode = game.options[1]
    assert (mode.default, mode.allowed) == ("mad", "calm, wild, mad")


def test_zone_visibility(tmp_path):
    shown = _load(tmp_path, "replace zone hand: per player public\n").new_game(seed=1).view(0)["zones"]["hand"]["P1"]
    hidden = _load(tmp_path, "").new_game(seed=1).view(0)["zones"]["hand"]["P1"]
    assert hidden == ["??"] * 3 and "??" not in shown and len(shown) == 3


def test_var_start_value(tmp_path):
    state, card = _first_play(_load(tmp_path, "replace var points: int per player = 10\n"))
    assert state.scores == [10 + _worth(card), 10]


def test_define_is_read_by_the_originals_own_bodies(tmp_path):
    """`value` (the original's) reads `step`, `award` (the original's) reads `value`: both mean the
    replacement now."""
    state, card = _first_play(_load(tmp_path, "replace define step = 3\n"))
    assert state.scores == [3 * _worth(card), 0]


def test_rule(tmp_path):
    game = _load(tmp_path, 'replace rule highest_first(p: player, c: card) "Play your lowest card first."\n'
                           "    require all x in hand[p] where x.worth >= c.worth\n")
    state = game.new_game(seed=1)
    hand = state.view(0)["zones"]["hand"]["P0"]
    lowest = min(_worth(c) for c in hand)
    assert moves(state) == {f"play {c}" for c in hand if _worth(c) == lowest}
    assert state.explain(f"play {max(hand, key=_worth)}").rules[0].name == "highest_first"


def test_procedure(tmp_path):
    state, _card = _first_play(_load(tmp_path, "replace procedure award(who: player, c: card) {\n"
                                                "    set points[who] += 10\n}\n"))
    assert state.scores == [10, 0]


def test_event(tmp_path):
    state, card = _first_play(_load(tmp_path, "replace event played(p: player, c: card) {\n"
                                               "    set points[p] += 100\n}\n"))
    assert state.scores == [100 + _worth(card), 0]


def test_attribute(tmp_path):
    state, card = _first_play(_load(tmp_path, "replace attribute worth from rank: 1 = 10, 2 = 20, 3 = 30\n"))
    assert state.scores == [10 * _worth(card), 0]


def test_score_and_winners(tmp_path):
    game = _load(tmp_path, "replace score p: 0 - points[p]\nreplace winners: lowest score\n")
    state, card = _first_play(game)
    assert state.scores == [-_worth(card), 0]
    while not state.is_over:
        state.apply(RandomAgent(0).choose(state.legal_moves()))
    low = min(state.scores)
    assert state.winners == [s for s, score in enumerate(state.scores) if score == low]


def test_measure_and_limit(tmp_path):
    game = _load(tmp_path, 'replace measure length: 10 * turns "Turns played, times ten"\n'
                           "replace limit work_per_move 2000000\n")
    state = game.new_game(seed=1)
    while not state.is_over:
        state.apply(RandomAgent(0).choose(state.legal_moves()))
    assert read_all(compile_measures(game), state) == {"length": 10 * state.view("all")["vars"]["turns"]}
    assert game.budget()[0] == 2000000


def test_reaction(tmp_path):
    """Bohei without Gegenteiltag: the reaction to `must` offers Nö alone."""
    path = tmp_path / "no_opposites.cardgame"
    path.write_text('include "bohei.cardgame"\nreplace reaction answer on must by q in [p] {\n'
                    "    play_no requires holds(q, nope) {\n        cancel\n    }\n}\n")
    tables, _items, _sources, diags = interpreter.check_file(str(path))
    assert [d.code for d in diags if d.severity == "error"] == []
    (reaction,) = tables.reactions["must"]
    assert [a.name for a in reaction.alternatives] == ["play_no"] and reaction.span.path == str(path)


# ---- where a replacement stands ---------------------------------------------------------------

def test_a_replaced_phase_keeps_its_place_and_the_first_phase_starts_the_game(tmp_path):
    """The replacement is written last, after a phase of the variant's own: `deal` still starts."""
    game = _load(tmp_path, "phase bonus_round {\n    next turn\n}\n"
                           "replace phase deal {\n    shuffle stock\n    deal 2 from stock to hand of players\n"
                           "    next turn\n}\n")
    assert list(game.program.tables.phases)[:2] == ["deal", "turn"]
    state = game.new_game(seed=1)
    assert [len(h) for h in state.view("all")["zones"]["hand"].values()] == [2, 2]


def test_replace_may_come_before_the_include(tmp_path):
    (tmp_path / "base.cardgame").write_text(BASE)
    path = tmp_path / "early.cardgame"
    path.write_text('replace define step = 3\ninclude "base.cardgame"\n')
    state, card = _first_play(interpreter.load(str(path)))
    assert state.scores == [3 * _worth(card), 0]


def test_a_constant_becomes_an_option_and_an_option_a_constant(tmp_path):
    game = _load(tmp_path, 'replace define step with option step: int in 1..4 = 2 "Worth of a rank."\n'
                           "replace option target with define target = 2\n")
    assert [o.name for o in game.options] == ["mode", "step"]
    state, card = _first_play(game, step=4)
    assert state.scores == [4 * _worth(card), 0]
    with pytest.raises(interpreter.ScriptError) as err:
        game.read_options({"target": "3"})
    assert err.value.diagnostics[0].code == "E0701"


def test_a_variant_of_a_variant_replaces_the_replacement(tmp_path):
    _variant(tmp_path, "replace define step = 2\nreplace game \"Middle\"\n", "middle.cardgame")
    outer = tmp_path / "outer.cardgame"
    outer.write_text('include "middle.cardgame"\nreplace define step = 5\n')
    game = interpreter.load(str(outer))
    state, card = _first_play(game)
    assert state.scores == [5 * _worth(card), 0] and game.title == "Middle"
    (replaced,) = [r for r in game.program.tables.replacements.values() if r.name == "step"]
    assert [Path(d.span.path).name for d in (replaced.original, *replaced.between, replaced.decl)] == \
        ["base.cardgame", "middle.cardgame", "outer.cardgame"]


def test_the_generated_program_is_the_originals_when_a_replacement_is_the_same_text(tmp_path):
    """The code generator sees only the resolved declarations: a replacement written exactly as
    the original plays the original's games move for move."""
    original = tmp_path / "base.cardgame"
    original.write_text(BASE)
    same = _load(tmp_path, "replace define value(c: card) = c.worth * step\nreplace phase deal {\n"
                           "    shuffle stock\n    deal 3 from stock to hand of players\n    next turn\n}\n")
    base = interpreter.load(str(original))
    for seed in range(4):
        a, b = base.new_game(seed=seed), same.new_game(seed=seed)
        agent_a, agent_b = RandomAgent(seed), RandomAgent(seed)
        while not a.is_over:
            assert a.legal_moves() == b.legal_moves()
            a.apply(agent_a.choose(a.legal_moves()))
            b.apply(agent_b.choose(b.legal_moves()))
        assert b.is_over and a.history == b.history and a.scores == b.scores


# ---- the shipped games' variants are includes, no longer copies ---------------------------------

@pytest.mark.parametrize("variant, original", [
    ("booray_house", "booray"), ("bosspoker_house", "bosspoker"), ("bouncer_table", "bouncer"),
    ("bohei_short", "bohei")])
def test_a_designer_variant_includes_its_shipped_game_and_replaces_what_differs(variant, original):
    path = ROOT / "tests" / "scripts" / "variants" / f"{variant}.cardgame"
    game = interpreter.load(str(path))
    replaced = game.program.tables.replacements.values()
    assert replaced and {Path(r.original.span.path).resolve() for r in replaced} == \
        {(GAMES / f"{original}.cardgame").resolve()}
    assert len(path.read_text().splitlines()) < len((GAMES / f"{original}.cardgame").read_text().splitlines())


# ---- replays ----------------------------------------------------------------------------------

def test_a_replay_of_a_variant_is_refused_once_its_original_changes(tmp_path):
    path = _variant(tmp_path, "replace define step = 2\n")
    s = Session()
    s.start(path, seed=1)
    s.execute("auto 3")
    replay = tmp_path / "variant.replay"
    s.execute(f"save {replay}")
    same = Session()
    same.start(path)
    assert "opened" in same.execute(f"open {replay}")
    (tmp_path / "base.cardgame").write_text(BASE.replace("define step = 1", "define step = 1  # fixed"))
    changed = Session()
    changed.start(path)
    out = changed.execute(f"open {replay}")
    assert out.startswith("error") and f"was made for another version of {path}" in out and "--force" in out
    assert changed.step == 0


# ---- the tools --------------------------------------------------------------------------------

def _analysis(tmp_path, text) -> tuple[Analysis, str]:
    path = _variant(tmp_path, text)
    return Analysis(path, Path(path).read_text()), Path(path).read_text()


def test_editor_definition_hover_and_completion(tmp_path):
    analysis, text = _analysis(tmp_path, "replace define step = 2\ndefine twice = step * 2\n")
    use = text.splitlines().index("define twice = step * 2") + 1
    decl = analysis.definition(use, text.splitlines()[use - 1].index("step") + 2)
    assert (Path(decl.name_span.path).name, decl.name_span.line, decl.name_span.column) == ("variant.cardgame", 2, 16)
    hover = analysis.hover(2, 17)
    assert "replaces the definition declared at base.cardgame:21: `define step = 1`" in hover
    assert "replaces the definition declared at base.cardgame:21" in analysis.hover(2, 2)  # the word `replace`
    assert ("replace", "keyword", "keyword") in analysis.completions(4, 1)


def test_editor_references_reach_the_originals_uses_of_a_replacement(tmp_path):
    """From a variant, the uses of a replaced name in the original's file mean the replacement:
    they are listed; the replaced declaration itself is not (it is not played)."""
    analysis, text = _analysis(tmp_path, "replace define step = 2\ndefine twice = step * 2\n")
    decl = analysis.definition(2, 17)
    found = sorted((Path(s.path).name, s.line, s.column) for s in analysis.references(decl))
    base_lines = BASE.splitlines()
    use = next(i for i, line in enumerate(base_lines, 1) if line.startswith("define value"))
    assert found == [("base.cardgame", use, base_lines[use - 1].index("step") + 1),
                     ("variant.cardgame", 2, 16), ("variant.cardgame", 3, 16)]


def test_fmt_keeps_replace_and_lays_out_the_declaration_as_alone(tmp_path):
    text = ('include "base.cardgame"\nreplace   define step=2\nreplace rule highest_first(p: player, c: card) '
            '"Lowest." when true require all x in hand[p] where x.worth >= c.worth\n'
            "replace phase deal { shuffle stock deal 2 from stock to hand of players next turn }\n"
            "replace define step with option step: int in 1..3 = 2\n")
    formatted, diags = format_source(text)
    assert diags == [] and same_script(text, formatted)
    assert formatted == ('include "base.cardgame"\nreplace define step = 2\n'
                         'replace rule highest_first(p: player, c: card) "Lowest."\n    when true\n'
                         "    require all x in hand[p] where x.worth >= c.worth\n"
                         "replace phase deal {\n    shuffle stock\n    deal 2 from stock to hand of players\n"
                         "    next turn\n}\nreplace define step with option step: int in 1..3 = 2\n")
    assert format_source(formatted)[0] == formatted


def test_the_rulebook_describes_the_variant_as_played(tmp_path):
    path = _variant(tmp_path, 'replace game "Base, doubled"\n# Each rank counts twice.\nreplace define step = 2\n'
                              "replace players 2..3\n")
    text = rulebook(path, detailed=True)
    assert text.startswith("# Base, doubled\n")
    assert ("This game is a variant of `base.cardgame`: it replaces `game`, definition `step` and `players`. "
            "Everything below is the game as the variant plays it.") in text
    assert "2 to 3 players" in text and "- *step*: 2 — Each rank counts twice." in text
    text = rulebook(path)
    assert text.startswith("# Base, doubled\n")
    assert "A variant of `base.cardgame`: it replaces `game`, definition `step` and `players`." in text
    assert "2 to 3 players" in text and "- *step*: 2 — Each rank counts twice." in text


def test_lint_points_at_the_replacement(tmp_path):
    path = _variant(tmp_path, 'replace rule highest_first(p: player, c: card) "Never."\n'
                              "    when turns < 0\n    require c.worth > 5\n")
    report = interpreter.lint(interpreter.load(path), 3)
    (finding,) = [d for d in report.diagnostics if d.code == "L0201"]
    assert Path(finding.span.path).name == "variant.cardgame" and finding.span.line == 2


def test_repl_source_shows_the_replacement_and_where_the_original_is(tmp_path):
    path = _variant(tmp_path, "replace define step = 2\n")
    s = Session()
    s.start(path, seed=1)
    out = s.execute("source step")
    lines = out.splitlines() if isinstance(out, str) else out
    assert lines[0] == "define step"
    assert lines[1] == f"(replaces the original at {tmp_path / 'base.cardgame'}:21)"
    assert any("replace define step = 2" in line for line in lines)
    decl = next(d for d in s.game.declarations if d.name == "step")
    assert decl.replaces.line == 21 and decl.span.path == path


# ---- `replace` as a word ------------------------------------------------------------------------

def test_replace_is_still_a_name_where_no_declaration_can_begin(tmp_path):
    """The word is a keyword where a declaration may begin; a name elsewhere (a procedure named
    so cannot be called after a value: golden replace_named_procedure)."""
    path = tmp_path / "names.cardgame"
    path.write_text("players 2\ndefine replace_count = 1\nprocedure replace(n: int) {\n    log \"{n}\"\n}\n"
                    "phase only {\n    replace(1)\n    let replace = 2\n    log \"{replace}\"\n    end game\n}\n")
    _t, _i, _s, diags = interpreter.check_file(str(path))
    assert [d.code for d in diags if d.severity == "error"] == []
