"""`cardgame rules`, the players' rulebook: prose a player reads once and plays from.

The committed rulebooks of the shipped games are what the scripts generate; a small script's
rulebook is pinned word for word (the designer's texts first, names from their comments,
conditions as sentences, cards and numbers as players say them, announcements and the script's
notes left to `--detailed`); every shipped game's rulebook keeps every phase, option, rule,
zone, prompt and choice and is at most 60% as long as the detailed one; every test script gives
one; options chosen are read as their values.

Regenerate the committed ones on purpose with `UPDATE_GOLDEN=1 python -m pytest tests/test_rulebook.py`.
"""

from __future__ import annotations

import os
import re

import pytest

from cardgame.authoring.flow import bodies, load_script, statements_of, steps
from cardgame.authoring.rulebook import rulebook
from helpers import BOORAY_HOUSE, GAMES, ROOT, SCRIPTS
from cardgame.interpreter.language import nodes as n
from cardgame.repl.cli import main

COMMITTED = {"bouncer.cardgame": "bouncer.md", "booray.cardgame": "booray.md",
             "bosspoker.cardgame": "bosspoker.md", "bohei.cardgame": "bohei.md"}
SHIPPED = sorted(GAMES.glob("*.cardgame"))
BOUNCER = str(GAMES / "bouncer.cardgame")
PLAIN = '''# The opening notes: how this script reads its seed (for designers only).
game "Plain Words"
players 2..4

option open_hands: bool = false "Everyone plays with their hand face up."

deck standard in stock {
    ordered rank: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A
    suit: C, D, H, S
    name: rank suit
}

zone stock: shared hidden
zone hand: per player public if open_hands else owner
zone table: per player public  # the card each player has out
zone pile: shared public

var points: int per player = 0
var tokens: int per player = 5  # what a player may still bet
var leader: player = seat(0)
var rounds_left: int = 3

define bonus = 10
# A card's worth: its place in the order, aces high.
define worth(c: card) = place(c.rank)
define is_heart(c: card) = c.suit == H
define unused(c: card) = c.rank == 2

rule follow(p: player, c: card) "Follow suit if you can."
    when any x in table[leader] where true
    require c.suit == top(table[leader]).suit or not (any x in hand[p] where x.suit == top(table[leader]).suit)
rule no_ace_of_spades(c: card)
    when c == AS
    require false

phase deal {
    shuffle stock
    deal 3 from stock to hand of players_from(leader)
    log "dealt"
    next play
}

phase play {
    for p in players_from(leader) {
        decide p "Play a card" {
            play(c from hand[p]) requires follow(p, c), no_ace_of_spades(c) {
                move c to table[p]
            }
        }
    }
    let winner = max q in players by worth(top(table[q]))
    if is_heart(top(table[winner])) {
        log "a heart"
    }
    if rounds_left == 1 {
        log "last round"
    } else {
        set points[winner] += bonus
    }
    for p in players {
        move table[p] to pile
        move hand[p] to pile
    }
    for p in players {
        set tokens[p] -= 1
        set points[p] += 1
    }
    set rounds_left -= 1
    if rounds_left <= 0 {
        end game
    }
    next deal
}

score p: points[p]
winners: highest score
'''
PLAIN_BOOK = '''# Plain Words

*This rulebook was generated from `{name}` by `cardgame rules`; `--detailed` has every step.*

2 to 4 players, seated P0, P1, ... clockwise, each on the left of the one before.

## Variants

- Everyone plays with their hand face up. (*open hands*: off unless chosen.)

## Cards

52 cards, one of each rank (2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A, lowest to highest) in each suit (♣, ♦, ♥, ♠), named like 2♣; they start in the *stock*.

On the table — face down: *stock*; open: *pile*.

Each player has — seen by its owner: *hand* (open if *open hands*); open: *table* (the card each player has out).

Each player keeps: *tokens*, starting at 5 (what a player may still bet).

The table keeps: *leader*, starting at P0; *rounds left*, starting at 3.

## Play

Play starts with Deal; each part then goes on to the next unless it says otherwise.

### Deal

- Shuffle the *stock*.
- Deal 3 cards from the *stock* to each player's *hand*, starting with the *leader*.

### Play

- Each player *p* in turn from the *leader* chooses (“Play a card”):
  - *play* *c* from *p*'s *hand* (**Follow suit if you can.**; **no ace of spades**), move *c* to *p*'s *table*.
- Let *winner* be the player *q* with the highest *worth*(the top card of *q*'s *table*) (the first of equals).
- Unless the *rounds left* is 1, add *bonus* (10) to *winner*'s *points*.
- Move each player's *table* and *hand* to the *pile*.
- For each player:
  - Subtract 1 from their *tokens*.
  - Add 1 to their *points*.
- Subtract 1 from the *rounds left*.
- If the *rounds left* is 0 or less, **the game ends**.
- Go on to Deal.

## Rules

A choice that names a rule is allowed only when it keeps the rule.

- **no ace of spades**: when *c* is A♠, the choice is not allowed.

## Winning

A player's score is their *points*.

When the game ends, the highest score wins; equal scores share the win.

## Terms

- *worth*(*c*): A card's worth: its place in the order, aces high. The place of *c*'s rank in its order (from 0).
'''


@pytest.mark.parametrize("script, book", COMMITTED.items())
def test_committed_rulebooks_are_up_to_date(script, book):
    expected = ROOT / "docs" / "rulebooks" / book
    text = rulebook(str(GAMES / script))
    if os.environ.get("UPDATE_GOLDEN"):
        expected.write_text(text, encoding="utf-8")
    assert expected.read_text(encoding="utf-8") == text, \
        f"docs/rulebooks/{book} is out of date: run UPDATE_GOLDEN=1 python -m pytest tests/test_rulebook.py"




def test_a_small_scripts_rulebook_word_for_word(tmp_path):
    """Options by their descriptions; the cards with suit symbols; zones grouped by who sees
    them, with their comments; only the values worth saying; no opening notes, no announcement
    and no step that only announces (`if ... { log ... }`); a loop over the players that only
    touches their own things as "each player's" or "their", and one that only asks its player
    to choose as "each player ... chooses"; moves to one place at once; a phase's last `next` to
    the phase after it left out; an `else` whose `if` only announces as "unless"; a described
    rule by its description where a choice names it, an undescribed one with its condition; a
    constant with its value; a definition by its comment, then its formula, and only those named."""
    path = tmp_path / "plain.cardgame"
    path.write_text(PLAIN)
    assert rulebook(str(path)) == PLAIN_BOOK.format(name="plain.cardgame")


def test_options_chosen_are_read_as_their_values(tmp_path, capsys):
    path = tmp_path / "plain.cardgame"
    path.write_text(PLAIN)
    assert main(["rules", str(path), "--option", "open_hands=true"]) == 0
    book = capsys.readouterr().out
    assert "- Everyone plays with their hand face up. (*open hands*: on in this book.)" in book
    assert "Each player has — open: *hand* and *table* (the card each player has out)." in book
    assert main(["rules", BOORAY_HOUSE, "--option", "overtrump=false", "--option", "ante=25"]) == 0
    book = capsys.readouterr().out
    assert ("*play* *c* from *p*'s *hand* (**Follow the led suit if you can.**; **Out of the led suit, play a "
            "trump if you have one.**):") in book and "**Playing a trump" not in book
    assert "Subtract 25 from their *money*." in book
    assert main(["rules", BOUNCER, "--option", "special_bouncers=true"]) == 0
    assert "- *hand score*(*p*): *special score*(*p*).\n" in capsys.readouterr().out


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_game_keeps_every_part_of_its_script(path):
    script = load_script(str(path))
    t = script.tables
    text = rulebook(str(path))
    for name in t.phases:
        assert f"### {name.replace('_', ' ').capitalize()}\n" in text
    for rule in t.rules.values():
        assert f"**{rule.doc}**" in text if rule.doc else f"**{rule.name.replace('_', ' ')}**" in text
    for opt in t.options.values():
        assert f"*{opt.name.replace('_', ' ')}*" in text and opt.doc in text
    for zone in t.zones:
        assert f"*{zone.replace('_', ' ')}*" in text
    decisions = [s.node for _, _, decl in bodies(script) for s in steps(script, statements_of(decl))
                 if s.kind == "decide"]
    for d in decisions:
        decide = d.decide if isinstance(d, n.Simultaneous) else d
        for piece in decide.prompt:
            assert not isinstance(piece, str) or piece in text
        for alt in decide.alternatives:
            assert f"*{alt.name.replace('_', ' ')}*" in text
    assert "How this script reads" not in text  # the opening notes are the designer's


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_the_players_rulebook_is_much_shorter_than_the_detailed_one(path):
    assert len(rulebook(str(path)).split()) <= 0.6 * len(rulebook(str(path), detailed=True).split())


@pytest.mark.parametrize("path", sorted(SCRIPTS.glob("*.cardgame")), ids=lambda p: p.name)
def test_every_script_gives_both_rulebooks_with_words_for_every_step(path):
    for detailed in (False, True):
        text = rulebook(str(path), detailed=detailed)
        assert text.startswith("# ") and "## Play" in text or "## How a game goes" in text
        assert not re.search(r"^\s*- `[^`]*`$", text, re.M), "a step quoted as code: it has no words"


def test_detailed_and_html_from_the_command_line(capsys):
    assert main(["rules", BOUNCER, "--detailed"]) == 0
    detailed = capsys.readouterr().out
    assert "## Notes from the script" in detailed and "- *trick_winner*: the *q* in the players" in detailed
    assert main(["rules", BOUNCER, "--format", "html"]) == 0
    page = capsys.readouterr().out
    assert page.startswith("<!DOCTYPE html>") and "<h1>Bouncer</h1>" in page
    assert "(<strong>Follow the led suit if you can.</strong>)" in page
    assert page.count("<ul>") == page.count("</ul>") and page.count("<table>") == page.count("</table>")


def test_an_unknown_option_is_a_diagnostic(capsys):
    assert main(["rules", str(GAMES / "bouncer.cardgame"), "--option", "show=true"]) == 1
    err = capsys.readouterr().err
    assert "error[E0701]: unknown option `show`" in err and "known: show_upcoming, special_bouncers" in err


def test_who_wins_a_tie_is_said_as_players_say_it():
    """A best-of over the players in turn keeps the first of equals: over the reverse order, the
    last in turn wins a tie (Bouncer: of equal ranks, the card played last)."""
    assert ("- *trick winner*: The player *q* with the highest *card strength*(*q*); "
            "of equals, the one last in turn from the *leader*.\n") in rulebook(BOUNCER)
