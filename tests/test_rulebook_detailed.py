"""`cardgame rules --detailed`, the designer's reference: every shipped game's detailed rulebook
names every phase, decision, alternative, rule and option the script has; the words it finds for
what scripts write (a local zone counted, a list variable's item, a single rule, a section above
or below, brackets around an `if` or a comparison, a prohibition), and a variant's rulebook under
its options (a rule out of play, the branch an option chooses, options left by name, a computed
deal).
"""

from __future__ import annotations

import re

import pytest

from cardgame.authoring.flow import bodies, load_script, statements_of, steps
from cardgame.authoring.rulebook import rulebook
from helpers import BOORAY_HOUSE, BOSSPOKER_HOUSE, BOUNCER_TABLE, GAMES, PROHIBITION, SCRIPTS
from cardgame.interpreter.language import nodes as n
from cardgame.repl.cli import main

SHIPPED = sorted(GAMES.glob("*.cardgame"))
BOUNCER = str(GAMES / "bouncer.cardgame")


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_part_of_the_script_is_in_its_rulebook(path):
    script = load_script(str(path))
    t = script.tables
    text = rulebook(str(path), detailed=True)
    for name in t.phases:
        assert f"### Phase *{name}*" in text
    for rule in t.rules.values():
        assert f"**{rule.name}**: {rule.doc}" in text
    for opt in t.options.values():
        assert f"| *{opt.name}* |" in text and opt.doc in text
    for zone in t.zones:
        assert f"| *{zone}* |" in text
    decisions = [s.node for _, _, decl in bodies(script) for s in steps(script, statements_of(decl))
                 if s.kind == "decide"]
    for d in decisions:
        decide = d.decide if isinstance(d, n.Simultaneous) else d
        prompt = "".join(p if isinstance(p, str) else "{" + script.text(p) + "}" for p in decide.prompt)
        assert not prompt or f"“{prompt}”" in text
        for alt in decide.alternatives:
            assert f"*{alt.name}*" in text
    # every statement has words: none is quoted as code on a list line of its own
    assert not re.search(r"^\s*- `[^`]*`$", text, re.M)


def test_options_chosen_and_html(capsys):
    path = str(GAMES / "bouncer.cardgame")
    assert main(["rules", path, "--detailed", "--option", "show_upcoming=true"]) == 0
    out = capsys.readouterr().out
    assert ("It describes the game with *show_upcoming* = `true`: each of these is written as its value, "
            "and what it rules out is left out.") in out
    assert "| `false` (here: `true`) |" in out
    assert "| *points* | shared | everyone (as *show_upcoming* is `true`) |  |" in out
    assert main(["rules", path, "--detailed", "--format", "html"]) == 0
    page = capsys.readouterr().out
    assert page.startswith("<!DOCTYPE html>") and "<h1>Bouncer</h1>" in page
    assert "<li><strong>follow_suit</strong>: Follow the led suit if you can." in page
    assert page.count("<ul>") == page.count("</ul>") and page.count("<table>") == page.count("</table>")


def test_the_newer_constructs_have_words_of_their_own(tmp_path):
    """`let ... in`, several `for`s, card literals, `random(...)`, records, `list of list of T`
    and `var x: T` without a value are put into words, not quoted as code."""
    path = tmp_path / "newer.cardgame"
    path.write_text('''game "Newer"
players 2
deck d in stock {
    rank: 1, 10
    suit: C, D
    name: rank suit
}
zone stock: shared hidden
record meld { cards: list of card, points: int }  # what a laid meld scores
var best: meld
var piles: list of list of card = []
define pick = meld(cards: [1C, 10D], points: 3)
define pairs(h: list of card) = [[a, b] for a in h for b in h where a != b]
define twice(m: meld) = let p = m.points in p + p
define top_meld(ms: list of meld) = max m in ms by m.points
phase main {
    let r = random(1, 3)
    set best = meld(cards: [10C], points: r)
    end game
}
''')
    text = rulebook(str(path), detailed=True)
    assert "| *best* | the table | meld | none |  |" in text
    assert "| *piles* | the table | list of list of card | [] |  |" in text
    assert "- *meld*: *cards* (list of card), *points* (int) — what a laid meld scores" in text
    assert "- *pick*: a *meld* with cards [`1C`, `10D`], points 3" in text
    assert "- *pairs(h)*: [[*a*, *b*] for each *a* in *h* and each *b* in *h* where *a* is not *b*]" in text
    assert "- *twice(m)*: *p* + *p*, where *p* is the points of *m*" in text
    assert "- *top_meld(ms)*: the *m* in *ms* with the highest points of *m* (the first of equals)" in text
    assert "- Let *r* be a number from 1 to 3 drawn at random." in text
    assert "- Set *best* to a *meld* with cards [`10C`], points *r*." in text
    assert "`" not in text.split("## Terms")[1].replace("`1C`", "").replace("`10D`", "")


def test_a_team_game_says_who_plays_together_and_that_teams_score(tmp_path):
    path = tmp_path / "teams.cardgame"
    path.write_text('''game "Partners"
players 4
teams: [0, 2], [1, 3]
deck standard in stock {
    rank: 1, 2, 3
    suit: C, D, H, S
    name: rank suit
}
zone stock: shared hidden
zone hand: per player team
var tricks: int per team = 0
phase main {
    deal 3 from stock to hand of players
    for p in players {
        decide p "Pass cards" {
            give(cs from 2 of hand[p]) {
                move cs to hand[partner(p)]
                set tricks[team(p)] += 1
            }
        }
    }
    end game
}
score t: tricks[t]
''')
    text = rulebook(str(path), detailed=True)
    assert "The players play in teams, which win or lose together (T0: P0, P2; T1: P1, P3)." in text
    assert "| *hand* | one per player | its owner and their partners |  |" in text
    assert "| *tricks* | each team | int | 0 |  |" in text
    assert "*give*, choosing *cs*, 2 different ones of *hand* of *p*:" in text
    assert "The score of a team *t* is *tricks* of *t*." in text
    assert "the teams with the highest score win" in text


def test_the_rulebook_counts_the_cards_of_a_zone_held_in_a_local(capsys):
    # `count(r)` for a local `r` holding a row read "the number of *r*"; for `hand[p]` it reads
    # "the number of cards in ...".
    assert main(["rules", "--detailed", str(SCRIPTS / "six_nimmt.cardgame")]) == 0
    book = capsys.readouterr().out
    assert "Otherwise, if the number of cards in *r* is 5:" in book and "the number of *r*" not in book


def test_the_rulebook_reads_a_list_variable_a_single_rule_and_where_a_section_is():
    # "allowed by the rules **beats**" for one rule; "Do *went_out*(...) (see below)" for a
    # procedure written above; "*last_finish* of 0" for item 0 of a list variable, as if per
    # player; "1 different ones of"; "every *x* in ... has *x* is in *cs*"; "in groups of equal";
    # an event without a body was an empty section without its prompt.
    book = rulebook(str(SCRIPTS / "president.cardgame"), detailed=True)
    for said in ("allowed by the rule **beats**", "Do *went_out*(*turn*) (see above)",
                 "Let *president* be item 0 of *last_finish*.", "choosing *cs*, one (in a list) of *hand* of *vice*",
                 "requires that for every *x* in *hand* of *p*, *x* is in *cs* or for every *y* in *cs*, "
                 "the rank of *y* is at least the rank of *x*",
                 "[*s* for each *g* in the *x* in *hand* of *p* grouped by the rank of *x* and",
                 "Those who may answer it are asked “{p} played {top_count} {top_rank}: bomb?”.",
                 "It does nothing of its own: what happens is in its answers."):
        assert said in book, said
    assert "allowed by the rules **beats**" not in book and "(see below)" not in book.split("### Phase *trick*")[1]


def test_the_rulebook_brackets_an_if_inside_an_if_and_a_comparison_compared():
    # `if null_game then (if c.suit == led then c.null_power else none) else if ...` read "the
    # null_power of c if the suit of c is led, otherwise none if null_game, otherwise ...": one
    # chain, another rule. Boss Poker's shipped rulebook said so of an ace's value.
    book = rulebook(str(SCRIPTS / "skat.cardgame"), detailed=True)
    assert "- *strength(c)*: (the null_power of *c* if the suit of *c* is *led*, otherwise none) if *null_game*, " \
        "otherwise 100 + the jack_power of *c*" in book
    assert "otherwise (`J` if *grand_game*, otherwise *trump*) if the rank of *c* is `J`" in book
    assert "if (the first of *seq* is in *mine*) is *holding*, otherwise 0" in book
    assert "- *value(c)*: (11 if *ten_shown*, otherwise 1) if the rank of *c* is `A`, otherwise the rank of *c*" in \
        rulebook(str(GAMES / "bosspoker.cardgame"), detailed=True)


def test_the_rulebook_reads_a_sum_without_nested_brackets_and_brackets_an_if_key():
    book = rulebook(str(SCRIPTS / "pinochle.cardgame"), detailed=True)
    assert "- *meld_points(h)*: (15 * *runs_held*(*h*)) + (4 * (*marriages*(*h*, *trump*) - *runs_held*(*h*))) + " in book
    assert "with the highest (1 if the suit of the top card of *played* of *q* is *trump*, otherwise 0), then rank" in book


def test_the_rulebook_says_a_prohibition_forbids_the_choice(tmp_path):
    # `cardgame rules` wrote a `when CASE require false` rule as "requires that false".
    path = tmp_path / "keep.cardgame"
    path.write_text(PROHIBITION)
    lines = rulebook(str(path), detailed=True).splitlines()
    start = lines.index("- **keep_the_ace**: The ace of clubs stays in hand while a club is on the table.")
    assert lines[start + 2] == "  - then the choice is not allowed"
    assert "  - requires that the rank of *c* is not 7" in lines


def _rulebook(capsys, path, *options) -> str:
    args = [a for option in options for a in ("--option", option)]
    assert main(["rules", "--detailed", path, *args]) == 0
    return capsys.readouterr().out


def test_the_rulebook_of_booray_without_overtrump_leaves_the_rule_out_of_play(capsys):
    text = _rulebook(capsys, BOORAY_HOUSE, "overtrump=false", "ante=25")
    assert ("    - *play*, choosing *c* from *hand* of *p*; allowed by the rules **follow_suit** (“Follow the led "
            "suit if you can.”), **must_trump** (“Out of the led suit, play a trump if you have one.”):") in text
    assert ("  - does not apply in this game: it applies only when *overtrump* and the suit of *c* is *trump* and "
            "(*led* is *trump* or not *can_follow*(*p*)) and *can_overtrump*(*p*)") in text
    assert "  - Subtract 25 from *money* of *q*.\n  - Add 25 to *pot*." in text
    with_it = _rulebook(capsys, BOORAY_HOUSE, "overtrump=true")
    assert ("  - applies when the suit of *c* is *trump* and (*led* is *trump* or not *can_follow*(*p*)) and "
            "*can_overtrump*(*p*)") in with_it
    assert "**must_overtrump** (“Playing a trump" in with_it


def test_the_rulebook_keeps_only_the_branch_the_options_choose(capsys):
    assert "- *hand_score(p)*: *special_score*(*p*)\n" in _rulebook(capsys, BOUNCER, "special_bouncers=true")
    text = _rulebook(capsys, BOSSPOKER_HOUSE, "peeking=false")
    assert "Show *number_of*(*q*) to *p*." not in text and "keeps {p} from looking" not in text
    assert "Show *number_of*(*q*) to *p*." in _rulebook(capsys, BOSSPOKER_HOUSE)


def test_the_rulebook_without_options_writes_every_option_by_its_name(capsys):
    text = _rulebook(capsys, BOSSPOKER_HOUSE)
    assert "if *raises* is `any_amount`, otherwise" in text and "If *q* is not none and *peeking*:" in text


def test_the_rulebook_says_a_computed_deal_and_a_division_in_words(capsys):
    text = _rulebook(capsys, BOUNCER_TABLE)
    assert ("- Deal (39 divided by the number of players (rounded down)) cards from *stock* to the *hand* of each "
            "of the players in turn from *first_leader*, one card at a time.") in text
