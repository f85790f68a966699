"""Reading a move the way a person types it.

A move can be named by its number in `moves` (`#4`, or plain `4` when no move here reads as a
number: with a move `bid 4` on offer, `4` is that move and `#4` the fourth listed), its whole
text (`play 9D`), or the text after its name (`9D`), in any letter case when that names one move only, and with its cards in any order
(`discard 3H 9C` for `discard 9C 3H`: a person picks cards from a hand, not from a list; other
values, such as numbers, keep their order).  A legal move is preferred to an illegal one, so
cards typed out of hand order still make the legal move.  When nothing fits, the message says
what went wrong in the table's terms ("AC is not in P0's hand") and names the nearest legal move.

Plain functions over move texts and the seat's view (dicts from `GameState.view`), so the same
rules serve `play`, `why` and the completer, and can be tested without a terminal.
"""

from __future__ import annotations

import difflib
import re

BEYOND = 10 ** 18  # more than any count a game has (steps, moves, seats, ids)


def whole_number(text: str) -> int | None:
    """The whole number `text` writes in decimal digits, or None.  One of more than 18 digits
    reads as BEYOND: larger than anything a game counts, and never given to int(), which refuses
    numbers of over 4,300 digits (a traceback) and is slow long before; `²` is a digit to
    str.isdigit() but no number to int(), so only decimal digits count."""
    if not text.isdecimal():
        return None
    return int(text) if len(text) <= 18 else BEYOND


class NoSuchMove(Exception):
    """Nothing the current decision offers fits the typed text; the message says why."""


def _tokens(text: str) -> list[str]:
    return text.split()


def words_of(text: str) -> list[str]:
    """The words of a move text without the brackets and commas of its lists and records
    (`lay [QC, QH]`: lay, QC, QH), so a card typed alone is found inside a list value."""
    return re.findall(r"[^\s\[\](),]+", text)


def _values(text: str) -> list[str]:
    """A move text's name and values, a bracketed list or a record being one value
    (`lay [QC, QH] 3`: lay, [QC, QH], 3)."""
    values, depth, start = [], 0, None
    for i, ch in enumerate(text + " "):
        if ch.isspace() and depth == 0:
            if start is not None:
                values.append(text[start:i])
                start = None
            continue
        if start is None:
            start = i
        depth += (ch in "[(") - (ch in "])")
    return values


def _tidy_lists(text: str) -> str:
    """Typed list values spaced as moves write them: `[QC,QH]` and `[ QC , QH ]` read `[QC, QH]`."""
    text = re.sub(r"\s*,\s*", ", ", text)
    return re.sub(r"\s+([\])])", r"\1", re.sub(r"([\[(])\s+", r"\1", text))


def _fits(typed: list[str], move: list[str], fold, cards: frozenset | None) -> bool:
    """Does `typed` name `move`, whole or without its name, with `fold` applied to each word?
    With `cards` (folded card names), the cards may come in any order; other words stay put."""
    a, whole = [fold(w) for w in typed], [fold(w) for w in move]
    for words in (whole, whole[1:]):
        if not words or len(words) != len(a):
            continue
        if a == words:
            return True
        # the words typed where the move has cards are those cards, in some order
        if cards is not None and all(x == y for x, y in zip(a, words) if y not in cards) and \
                sorted(x for x, y in zip(a, words) if y in cards) == sorted(y for y in words if y in cards):
            return True
    return False


def _matches(typed: list[str], moves: list[str], cards) -> list[str]:
    """The moves `typed` names, trying the strictest reading first: exact words in order, then
    cards in any order, then any letter case in order, then any case and any order."""
    pairs = [(m, _tokens(m)) for m in moves]
    exact = frozenset(cards)
    folded = frozenset(c.casefold() for c in cards)
    for fold, any_order in ((str, None), (str, exact), (str.casefold, None), (str.casefold, folded)):
        found = [m for m, words in pairs if _fits(typed, words, fold, any_order)]
        if found:
            return found
    return []


def reads_as_number(moves: list[str]) -> bool:
    """Could a bare number name one of these moves (`4` for `bid 4`)?  Then a list position
    must be written `#4`."""
    return any(len(words) == 2 and words[1].isdigit() for words in map(_tokens, moves))


def listed_position(typed: str, legal: list[str], candidates: list[str]) -> int | None:
    """The position in `moves` that `typed` writes (`#4`, or `4` when no move reads as a
    number), or None when it writes none."""
    text = " ".join(typed.split())
    position = text[1:] if text.startswith("#") else None if reads_as_number(candidates or legal) else text
    return whole_number(position) if position is not None else None


def read_move(typed: str, legal: list[str], candidates: list[str], cards=(), prefer_legal=True) -> str:
    """The one move text that `typed` names (`#N`, or a bare N when no move reads as a number,
    counts among the legal moves); `cards` are the game's card names, the values that may be
    typed in any order.  Without `prefer_legal` (for `why`) a text that is exactly an illegal
    move stays that move.

    Raises NoSuchMove for a number out of range or a text that fits several moves; a text that
    fits none comes back tidied (with the move's name put in front when only one option of the
    decision takes that many values), for the engine to explain.
    """
    text = " ".join(typed.split())
    if not text:
        raise NoSuchMove("which move? for example `play 1` (`moves` lists them)")
    numbers = reads_as_number(candidates or legal)
    index = listed_position(text, legal, candidates)
    if index is not None:
        if not 1 <= index <= len(legal):
            raise NoSuchMove(f"there is no move {text}; " + (f"`moves` numbers them 1 to {len(legal)}"
                                                             if legal else "no move is legal now"))
        return legal[index - 1]
    if text in legal or (not prefer_legal and text in candidates):
        return text
    if "[" in text or "(" in text:
        text = _tidy_lists(text)
        if text in legal or (not prefer_legal and text in candidates):
            return text
    words = _tokens(text)
    found = _matches(words, legal, cards) or ([text] if text in candidates else []) or \
        _matches(words, candidates, cards)
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        shown = ", ".join(f"`{c}`" for c in found[:8]) + (", ..." if len(found) > 8 else "")
        raise NoSuchMove(f"`{text}` could be {shown}; type the whole move")
    if numbers and text.isdigit():
        raise NoSuchMove(f"no move reads `{text}`; moves here read as numbers, so a list position is "
                         f"written `#{text}` (`moves` numbers them)")
    # the values alone, a list being one value (`[5H, 5C]`): the option taking that many values
    # is put in front (the only option, or the only one taking that many when the text begins
    # with a list, which names no option), so the engine explains it as that option's move
    values = _values(text)
    names = {_values(c)[0] for c in candidates}
    taking = {_values(c)[0] for c in candidates if len(_values(c)) - 1 == len(values)}
    if len(taking) == 1 and (len(names) == 1 or values[0][:1] in "[(") and \
            values[0].casefold() not in {n.casefold() for n in names}:
        return f"{taking.pop()} {text}"
    return text


def why_not(text: str, legal: list[str], candidates: list[str], card_names, view: dict,
            actor: str | None) -> list[str]:
    """Lines saying why `text` names no move here, in the table's terms, and the nearest legal one.

    `card_names` are every card of the game (public: the decks are in the script); `view` is the
    seat's view (a card it may not see is never located); `actor` names the one to act (`P1`).
    """
    by_fold = {name.casefold(): name for name in card_names}
    words = _tokens(text)
    lines = _shape_problems(words, candidates, by_fold)
    offered = {w for c in candidates for w in words_of(c)[1:]}
    for word in words_of(text):
        card = by_fold.get(word.casefold())
        if card is None or card in offered:
            continue
        home = _zone_of_choices(candidates, words, view, set(by_fold.values()))
        where = _locate(card, view)
        if where is not None and where == home:
            break  # it is where the choices come from, left out by a condition: the engine says which
        if home is not None:
            line = f"{card} is not in {_zone_phrase(home)}"
        else:
            whose = f"{actor}'s" if actor else "the"
            line = f"{card} is not one of {whose} choices"
        if where is not None and where != home:
            line += f"; it is in {_zone_phrase(where)}"
        lines.append(line)
        break
    near = _most_cards_kept(words, legal, by_fold) or nearest(text, legal)
    if near:
        lines.append(f"did you mean `{near}`?")
    return lines


def _shape_problems(words: list[str], candidates: list[str], by_fold: dict) -> list[str]:
    """What is wrong with the move's shape whatever the cards: too many or too few values for
    its name (`pass_cards` takes 3 cards), or one card named twice."""
    same = [_values(c)[1:] for c in candidates if _tokens(c)[0] == (words[0] if words else "")]
    sizes = sorted({len(values) for values in same})
    lines = []
    typed = _values(" ".join(words))
    listed = next((v for values in same for v in values if v.startswith("[")), None)
    if same and listed is not None and len(typed) - 1 not in sizes:
        # a list value is written in brackets, as the moves show it
        lines.append(f"`{words[0]}` takes a list, written in brackets as the moves show it (`{words[0]} "
                     f"{listed}`); this names {len(typed) - 1} values")
    elif same and len(typed) - 1 not in sizes:
        card_names = set(by_fold.values())
        all_cards = all(w in card_names for values in same for w in values)
        what = "cards" if all_cards else "values"
        runs = len(sizes) > 2 and sizes == list(range(sizes[0], sizes[-1] + 1))  # 2, 3, 4, 5: `2 to 5`
        counts = f"{sizes[0]} to {sizes[-1]}" if runs else " or ".join(map(str, sizes))
        what = what if sizes != [1] else what[:-1]
        lines.append(f"`{words[0]}` takes {counts} {what}; this names {len(typed) - 1}")
    named = [by_fold[w.casefold()] for w in words[1:] if w.casefold() in by_fold]
    twice = next((card for i, card in enumerate(named) if card in named[:i]), None)
    if twice is not None:
        lines.append(f"{twice} is named twice; the cards of one move are different cards")
    return lines


def _most_cards_kept(words: list[str], legal: list[str], by_fold: dict) -> str | None:
    """For a move naming several cards, the legal move of that name keeping most of them (the
    first listed of equals): one card wrong is one card to change, whatever the spelling."""
    typed = {by_fold[w.casefold()] for w in words[1:] if w.casefold() in by_fold}
    if len(typed) < 2:
        return None
    best, kept = None, 0
    for move in legal:
        values = words_of(move)
        shared = len(typed.intersection(values[1:]))
        if values[0] == words[0] and shared > kept:
            best, kept = move, shared
    return best


def copies_of(word: str, cards) -> set[str]:
    """The cards (lower case) that `word` names but for their last part, the value that tells
    copies apart (`10D` for `10Da`, `10Db`; `Nope` for `Nope.1`, `Nope.2`); `cards`: Game.cards."""
    folded, found = word.casefold(), set()
    for card in cards:
        name = card.name.casefold()
        rest = name[len(folded):]
        if name.startswith(folded) and rest and \
                (rest in {str(v).casefold() for v in card.attrs.values()} or (rest[0] == "." and rest[1:].isdigit())):
            found.add(name)
    return found


def nearest(text: str, legal: list[str]) -> str | None:
    """The legal move whose text is closest to `text` (whole or after its name), if any is close:
    where they differ only in numbers, the nearest in value (`cut 3` -> `cut 4`, not `cut 36`). A
    text naming a move of this name is compared after the name only: the name every such move
    shares would make any typo look close to them all (`play zz` is not near `play KD`)."""
    if not legal:
        return None
    by_value = _nearest_in_value(text, legal)
    if by_value is not None:
        return by_value
    name, _, tail = text.partition(" ")
    same = [move for move in legal if move.partition(" ")[0].casefold() == name.casefold()]
    if same:
        tails = {move.partition(" ")[2].casefold(): move for move in same}
        close = difflib.get_close_matches(tail.casefold(), list(tails), n=1, cutoff=0.5)
        return tails[close[0]] if close else None
    forms = {}
    for move in legal:
        forms.setdefault(move.casefold(), move)
        tail = move.partition(" ")[2]
        if tail:
            forms.setdefault(tail.casefold(), move)
    close = difflib.get_close_matches(text.casefold(), list(forms), n=1, cutoff=0.5)
    return forms[close[0]] if close else None


def _nearest_in_value(text: str, legal: list[str]) -> str | None:
    """The legal move that reads as `text` (whole or after its name) but for its numbers, with
    the numbers nearest; None when no move differs from it only in numbers."""
    typed = text.casefold().split()
    best, best_distance = None, None
    for move in legal:
        for form in (move.casefold().split(), move.casefold().split()[1:]):
            if len(form) != len(typed) or not any(_is_int(w) for w in typed):
                continue
            if any(_is_int(a) != _is_int(b) or (not _is_int(a) and a != b) for a, b in zip(typed, form)):
                continue
            distance = sum(abs(int(a) - int(b)) for a, b in zip(typed, form) if _is_int(a))
            if best_distance is None or distance < best_distance:
                best, best_distance = move, distance
    return best


def _is_int(word: str) -> bool:
    return word.lstrip("-").isdigit()


def _zone_of_choices(candidates: list[str], words: list[str], view: dict, card_names: set) -> str | None:
    """The one zone (`hand[P0]`) all the cards offered by moves of this name lie in, if one (a
    card the seat cannot see, `??` in its moves, lies nowhere it may say)."""
    name = words[0] if len(words) > 1 else None
    cards = {w for c in candidates for w in words_of(c)[1:]
             if w in card_names and (name is None or _tokens(c)[0].casefold() == name.casefold())}
    homes = {_locate(card, view) for card in cards}
    homes.discard(None)
    return homes.pop() if len(homes) == 1 else None


def _locate(card: str, view: dict) -> str | None:
    for name, cards in view["zones"].items():
        if isinstance(cards, dict):
            for seat, seat_cards in cards.items():
                if card in seat_cards:
                    return f"{name}[{seat}]"
        elif card in cards:
            return name
    return None


def _zone_phrase(zone: str) -> str:
    """`hand[P0]` reads "P0's hand"; a shared zone reads as its name."""
    name, bracket, seat = zone.partition("[")
    return f"{seat[:-1]}'s {name}" if bracket else f"`{name}`"


def lines_of(block: str) -> list[str]:
    """The command lines of a typed or pasted block: one per line, blank lines dropped."""
    return [line for line in block.replace("\r\n", "\n").replace("\r", "\n").split("\n") if line.strip()]
