"""Friendly syntax errors: a catalogue of known mistakes matched against the parser's state.

Lark's `match_examples` finds which known-bad snippet fails in the same parser state as the
user's script; that snippet's message is far clearer than a list of expected tokens.  The
catalogue itself, data only, is in syntax_catalogue.
"""

from __future__ import annotations

import functools
import re
import unicodedata

import lark

from .nodes import STATEMENT_WORDS
from .source import AT_POSITION_HINT, Diagnostic, Span, did_you_mean
from .syntax_catalogue import CATALOGUE, EXPR_CATALOGUE, FORMS

# Mistakes the parser only sees at the next statement: reported where the unfinished one ends.
_UNFINISHED_STATEMENT = {"E0124", "E0125", "E0137", "E0148"}
_ENDS_HERE = {"E0137": "the form ends here", "E0148": "the rule's name ends here"}

# A statement that is one word and then a name (`goto main`, `shufle stock`): no statement
# begins so unless the word is a keyword, which the parser would have read.
_STATEMENT_WORD = re.compile(r"(?:^|[{}\n])[ \t]*([A-Za-z_]\w*)[ \t]+$")
# `leader is none` after `let x =`: the value ends at `leader`, and `is` reads as a new statement.
_IS_WORD = re.compile(r"\S[ \t]+(is)(?:[ \t]+not)?[ \t]+$")
# A word alone on the line before the error (`continue`, then the next statement).
_WORD_ALONE = re.compile(r"(?:^|[{}\n])[ \t]*([A-Za-z_]\w*)[ \t]*(?:#[^\n]*)?\n\s*$")
DECLARATION_WORDS = ("game", "players", "option", "deck", "zone", "var", "define", "rule", "procedure", "phase",
                     "event", "reaction", "on", "score", "winners", "include", "teams", "measure", "record", "replace")
STATEMENT_SYNONYMS = {"goto": "`next PHASE` goes on to a phase", "print": "`log \"text\"` writes a line",
                      "continue": "there is no `continue`: put the rest of the loop's body in an `if` (`break` "
                      "leaves the loop)",
                      "pass": "a block may be empty, `{ }`: there is no `pass` statement (`pass` is only an "
                      "alternative's name, `decide p { play(...) pass }`)",
                      "exit": "`end game` ends the game, `break` leaves a loop, `return` leaves a procedure",
                      "quit": "`end game` ends the game, `break` leaves a loop, `return` leaves a procedure",
                      "switch": "choose with `if C { } elif C { } else { }`",
                      "call": "call a procedure by its name: `pay(p, 5)`", "var": "declare variables at the top "
                      "level (`var x: int = 0`); inside a block `let x = ...` makes a local"}

_TEXT_OR_COMMENT = re.compile(r'"[^"\n]*"|#[^\n]*')


# `stop.1`: a name, a dot, then the number that failed (a card copy's name typed as a literal).
_DOT_NUMBER = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\.$")


def _in_block(before: str) -> bool:
    """Inside braces (a phase's, a procedure's, ...), texts and comments not counted."""
    bare = _TEXT_OR_COMMENT.sub("", before)
    return bare.count("{") > bare.count("}")


# Characters other languages use for operators this one spells as words.
OPERATOR_WORDS = {"&": "and", "|": "or", "!": "not"}

# Readable names for the parser's terminals.
TERMINAL_NAMES = {
    "LBRACE": "`{`", "RBRACE": "`}`", "LPAR": "`(`", "RPAR": "`)`", "LSQB": "`[`", "RSQB": "`]`",
    "COLON": "`:`", "COMMA": "`,`", "DOT": "`.`", "EQUAL": "`=`", "NAME": "a name", "INT": "a number", "CARD_NAME": "a card",
    "STRING": "a text in quotes", "COMP_OP": "a comparison", "SIGN": "`-`", "__ANON_0": "`..`",
    "PLUS": "`+`", "MINUS": "`-`", "STAR": "`*`", "SLASH": "`/`", "PERCENT": "`%`",
    "QUANT": "any/all/no/count", "BEST": "max/min", "FACING": "`face up`/`face down`",
    "POSITION": "`at top`/`at bottom`", "PER_PLAYER": "`per player`", "PRIVATE": "`private`",
    "WINNER_MODE": "`highest score`/`lowest score`", "$END": "the end of the file",
    "PLACE": "`before`/`after`", "REMOVE": "`remove`", "INSERT": "`insert`", "EXTEND": "`extend`",
    "STEP_BLOCK": "`step`",
}


# A text on the line so far whose `{` is never closed: a quote inside `{...}` ended it.
_TEXT_LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*')
_UNCLOSED_PART = re.compile(r"(?<!\\)\{[^}]*$")


def _text_cut_by_a_quote(before: str) -> int | None:
    """The offset of the quote that ended a text inside one of its `{...}` parts, if one did."""
    start = before.rfind("\n") + 1
    for m in _TEXT_LITERAL.finditer(before, start):
        if m.group().startswith('"') and _UNCLOSED_PART.search(m.group()[1:-1]):
            return m.end() - 1
    return None


# A declaration word at the start of a line, unindented, inside a block: the writer meant the top
# level, so a `}` is missing somewhere before it.
_BLOCK_LEFT_OPEN_WORDS = DECLARATION_WORDS + ("attribute", "limit")


def _indent_of_line(text: str, offset: int) -> int:
    start = text.rfind("\n", 0, offset) + 1
    return len(text[start:offset]) - len(text[start:offset].lstrip(" \t"))


def _braces(before: str) -> tuple[int | None, list[int]]:
    """Walk the braces (texts and comments not counted): the first `{` closed by a `}` that
    begins a line at another indentation than the line that opened it (that `}` was likely meant
    for an outer block, so this `{` is the one missing its own), and the `{`s still open."""
    bare = _TEXT_LITERAL.sub(lambda m: " " * len(m.group()), before)
    opened, misclosed = [], None
    for offset, char in enumerate(bare):
        if char == "{":
            opened.append(offset)
        elif char == "}" and opened:
            start = opened.pop()
            line_start = bare.rfind("\n", 0, offset) + 1
            if misclosed is None and not bare[line_start:offset].strip() and \
                    _indent_of_line(bare, offset) != _indent_of_line(bare, start):
                misclosed = start
    return misclosed, opened


def _opener(before: str, brace: int) -> tuple[str, int]:
    """The line that opened a block, up to its `{`, and its number."""
    line_start = before.rfind("\n", 0, brace) + 1
    return before[line_start:brace + 1].strip(), before.count("\n", 0, brace) + 1


def _still_open(before: str) -> str:
    """At the end of the file: the block opened last (it closes first), and how many more are open."""
    _misclosed, opened = _braces(before)
    if not opened:
        return ""
    opener, line = _opener(before, opened[-1])
    more = f", inside {len(opened) - 1} more" if len(opened) > 1 else ""
    return f": `{opener}` (line {line}{more})"


def _declaration_in_block(err, text: str, before: str, path: str):
    """E0190: `define`, `phase`, `score`, ... unindented at the start of a line while a block is
    still open; said at the `{` most likely left open, which is where the mistake is."""
    if not isinstance(err, lark.exceptions.UnexpectedToken):
        return None
    # the word itself, or the name after it (`phase auction` reads as a call of `phase` until `auction`)
    line_so_far = before[before.rfind("\n") + 1:]
    word = str(err.token) if not line_so_far else line_so_far.rstrip(" \t")
    if word not in _BLOCK_LEFT_OPEN_WORDS or (line_so_far and line_so_far == word) or not _in_block(before):
        return None
    misclosed, opened = _braces(before)
    if misclosed is None and not opened:
        return None
    brace = misclosed if misclosed is not None else opened[0]
    opener, _line = _opener(before, brace)
    return Diagnostic("E0190", f"a `{{` is still open at `{word}` on line {err.line}",
                      _span_at(text, path, brace, 1), "this `{` has no `}`",
                      f"close `{opener}` with a `}}` where its block ends: `{word}` declares something at "
                      "the top level, outside every block")


# `return x` / `return 1`: the error comes at the value, or just after a name taken for a call.
_RETURN_VALUE = re.compile(r"\breturn\s+(\S+\s*)?$")


# `1 + if x then ...`: after an operator `if` is read as a name, so the error comes just after it.
# In a block the name after it may even be taken for a new statement, so the error can come at
# `then`; the `if` is searched on the line so far.
_IF_AFTER_OPERATOR = re.compile(r"(?:[-+*/%]|[<>!=]=|[<>]|\b(?:and|or|in|not))\s*(if)\b[^\n]*$")


# `move c to z faceup`: the one word reads as the start of a procedure call, so the parser
# fails at the next statement; the word is just before the error.
_INCLUDE_WORD = re.compile(r"\b(include)\s*$")
# `move c to pile at n`: `at` is only read as `at top` or `at bottom`, so any other word (a
# position, `the`, `random`) left `at` a procedure's name and the parser failed after it
# (`face up at bottom` is E0156, the two parts in the wrong order).
_MOVE_AT = re.compile(r"\bmove\b[^\n{}]*\bto\b[^\n{}]*(?<!\bup)(?<!\bdown)[ \t]+at[ \t]*$")

_FACE_WORD = re.compile(r"\b(face_?up|face_?down|faceUp|faceDown|facedown|faceup)[ \t]*(?:#[^\n]*)?\s*$")

# `1 < a < 3`: a second comparison inside one expression (comparisons do not chain). The part of
# the text since the expression began (a bracket, a comma, a keyword that starts a condition).
_COMPARISONS = ("TEQ", "NE", "LT", "LE", "GT", "GE", "EQEQ", "NOTEQ", "LESSTHAN", "MORETHAN")
_EXPRESSION_START = re.compile(r"(?:[([{,]|\b(?:and|or|not|where|then|else|if|when|require|in|by|"
                               r"let|set|while|until)\b|(?<![=!<>])=(?!=))")
_COMPARISON = re.compile(r"==|!=|<=|>=|<|>|\bnot\s+in\b|\bin\b")


def _chained_comparison(before: str, found: str) -> bool:
    if found.strip("`") not in ("<", "<=", ">", ">=", "==", "!="):
        return False
    line = before.rsplit("\n", 1)[-1]
    starts = [m.end() for m in _EXPRESSION_START.finditer(line)]
    tail = line[starts[-1]:] if starts else line
    return bool(re.search(r"==|!=|<=|>=|<|>", tail))


_HIDE_STATEMENT = re.compile(r"(?:^|[{;\s])hide\s+[^\n{}]*$")
_SHOW_STATEMENT = re.compile(r"(?:^|[{;\s])show\s+[^\n{}]*\sto\s+[^\n{}]*$")


_DECLARATION_KEYWORDS = DECLARATION_WORDS + ("attribute", "limit")

# `replace defin x = 1`, `replace var x with ...`: the words after `replace` on the line so far.
_REPLACE_HEAD = re.compile(r"(?:^|\n)[ \t]*replace(?:[ \t]+(\w+)[ \t]+\w+)?[ \t]*$")


def _replace_misuse(head, word: str, span, found: str) -> Diagnostic:
    """A `replace` followed by no declaration word, or a `with` after a kind it cannot change."""
    if head.group(1) is None:
        close = did_you_mean(word, [w for w in _DECLARATION_KEYWORDS if w not in ("replace", "include", "on")])
        return Diagnostic("E0101", f"unexpected {found}", span, "a declaration is expected after `replace`",
                          (close + " " if close.startswith("did you mean") else "") + "`replace` is followed by the "
                          "declaration that takes the place of the included one: `replace define NAME = ...`, "
                          "`replace players 4`")
    return Diagnostic("E0101", f"unexpected {found}", span, f"not after `replace {head.group(1)} NAME`",
                      "`replace define NAME with option NAME: ...` and `replace option NAME with define NAME = ...` "
                      "are the only changes of kind (a constant to an option and back); other declarations are "
                      f"replaced by their own kind: `replace {head.group(1)} ...` written out whole")


def _glued_keyword(text: str, path: str, parser: lark.Lark, start: str):
    """A keyword the parser read off the front of a longer word (`variable` as `var` and
    `iable`, `only` as `on` and `ly`): where only keywords may come (between declarations), the
    rest of the word is read as the next token, and the error shows later and elsewhere.  The
    text is lexed again as the parser reads it, to find such a word; None if there is none."""
    state = parser.parse_interactive(text, start=start)
    previous = None
    try:
        for token in state.lexer_thread.lex(state.parser_state):
            if previous is not None and token.start_pos == previous.end_pos and \
                    (text[token.start_pos - 1] + text[token.start_pos]).replace("_", "a").isalnum():
                return _glued(text, path, previous)
            state.feed_token(token)
            previous = token
    except lark.exceptions.UnexpectedInput:
        return None
    return None


def glued_word(text: str, path: str, at: int) -> Diagnostic:
    """The diagnostic of a word read as a keyword and the token after it, which starts at `at`
    (`definex = 1` parses as `define x = 1`: between declarations only keywords are read)."""
    start = at
    while start and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    return _glued(text, path, lark.Token("KEYWORD", text[start:at], start_pos=start))


def _glued(text: str, path: str, keyword) -> Diagnostic:
    word = re.match(r"\w+", text[keyword.start_pos:]).group(0)
    kw = str(keyword)
    span = _span_at(text, path, keyword.start_pos, len(word))
    label = f"read as `{kw}` and `{word[len(kw):]}`"
    line_start = text.rfind("\n", 0, keyword.start_pos) + 1
    if not text[line_start:keyword.start_pos].strip() and kw in _DECLARATION_KEYWORDS:
        return Diagnostic("E0107", f"`{word}` is no declaration word", span, label,
                          f"did you mean `{kw}`? a declaration begins with one of: " + ", ".join(_DECLARATION_KEYWORDS))
    return Diagnostic("E0101", f"unexpected `{word}`", span, label,
                      f"only a keyword may come here, and `{word}` is none: what is written before it is complete")


# A zone's declaration complete up to its visibility (`zone hand: per player owner`), or up to
# `shown`, and then a word it does not take (`unsorted`, `shown in order`).
_ZONE_TAIL = re.compile(r"^\s*zone\s+\w+\s*:\s*(?:shared|per\s+player)\s+\w+(?:\s+if\s.*\selse\s+\w+)?"
                        r"(?:\s+shown)?\s+$")
_SET_ONE_INDEX = re.compile(r"(?:^|[{;\s])set\s+\w+\s*\[[^\]\n]*\]\s*$")


def _statement_misuse(before: str, found: str):
    """(code, message, hint) for `hide X from P`, `show X to P, Q` and `set v[p][i] = ...`: what a
    newcomer writes to hide cards from one player, show them to several or change an item of a
    player's list, which the statements do not do."""
    line = before[before.rfind("\n") + 1:]
    if found == "`from`" and _HIDE_STATEMENT.search(line):
        return ("E0157", "`hide` turns cards face down for everyone: it has no `from`",
                "`hide X` makes every player forget the cards; one player cannot be made to forget alone, "
                "so to keep cards from a player, never `show` them to that player")
    if found == "`[`" and _SET_ONE_INDEX.search(line):
        return ("E0159", "`set` changes one value: a variable, `v[p]` or `l[i]`, not an item inside an item",
                "lists are values: make the new list and set it whole, as "
                "`set told[q] = [if j == i then x else told[q][j] for j in range(0, count(told[q]) - 1)]`")
    if found == "`,`" and _SHOW_STATEMENT.search(line):
        return ("E0158", "`show` lets one player see: it names one player after `to`",
                "for several, write `for q in PLAYERS { show X to q }`; `reveal X` shows the whole table")
    if _ZONE_TAIL.search(line):
        return ("E0180", "a zone's declaration ends with its visibility, then how views order its cards",
                "after the visibility only `shown by ATTR, ...` (sorted by card attributes) or `shown as placed` "
                "(the zone's own order, never sorted as a hand) may follow: "
                "`zone hand: per player others shown as placed`")
    return None


_SINGLE_EQUALS = {"=": ("`=` assigns; to compare use `==`", "write `==` to compare two values"),
                  "=>": ("`=>` is not an operator", "write `>=` for \"at least\""),
                  "=<": ("`=<` is not an operator", "write `<=` for \"at most\"")}


def _single_equals(err, text: str) -> str | None:
    """`=`, `=>` or `=<` where a finished value may be compared (`if x[p] = 0`, `a => b`):
    what was written, when the parser wanted a comparison there and no `=` could go."""
    if not isinstance(err, lark.exceptions.UnexpectedToken) or str(err.token) != "=":
        return None
    expected = set(getattr(err, "expected", ()) or ())
    if "COMP_OP" not in expected or "EQUAL" in expected:
        return None
    after = text[err.token.end_pos:err.token.end_pos + 1]
    return "=" + after if after in ("<", ">") else "="


_QUANTIFIER_WORDS = ("any", "all", "no", "count")


def _open_call(before: str) -> str:
    """The word right before the innermost bracket still open at the end of `before` (`all` in
    `all(x.suit == S for`), or ''."""
    depth = 0
    for i in range(len(before) - 1, -1, -1):
        if before[i] in ")]":
            depth += 1
        elif before[i] in "([":
            if depth == 0:
                word = re.search(r"(\w+)\s*$", before[:i]) if before[i] == "(" else None
                return word.group(1) if word else ""
            depth -= 1
    return ""


def _widened(span: Span, width: int) -> Span:
    """The span on its line, `width` characters wide."""
    return Span(span.path, span.line, span.column, span.line, span.column + width)


def _span_at(text: str, path: str, offset: int, width: int) -> Span:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Span(path, line, column, line, column + max(1, width))


def _pretty(terminal: str, parser: lark.Lark) -> str:
    if terminal in TERMINAL_NAMES:
        return TERMINAL_NAMES[terminal]
    try:
        pattern = parser.get_terminal(terminal).pattern
    except KeyError:
        return terminal
    if pattern.type == "str":
        return f"`{pattern.value}`"
    return terminal.lower()


def _expected_list(expected, parser) -> str:
    # A card literal is also a name to a reader: `a name` already says it.
    names = sorted({_pretty(t, parser) for t in expected if t != "CARD_NAME" or "NAME" not in expected})
    if len(names) > 8:
        names = names[:8] + ["..."]
    return ", ".join(names)


def _state_key(err):
    state = getattr(err, "state", None)
    token = getattr(err, "token", None)
    return (getattr(state, "position", state), getattr(token, "type", None))


@functools.cache
def _catalogue_keys(parser: lark.Lark, start: str) -> dict:
    """Parser state -> catalogue entry, found by parsing each known-bad snippet once.

    Lark's `match_examples` also compares the depth of the parser stack, so a mistake deep in a
    real script would not match the short snippet; the state and the offending token suffice.
    """
    keys = {}
    for entry, snippets in (CATALOGUE if start == "start" else EXPR_CATALOGUE).items():
        for snippet in snippets:
            try:
                parser.parse(snippet, start=start)
            except lark.exceptions.UnexpectedInput as err:
                keys.setdefault(_state_key(err), entry)
    for entry, snippet in FORMS.items():
        try:
            parser.parse(f"define d = {snippet}" if start == "start" else snippet, start=start)
        except lark.exceptions.UnexpectedInput as err:
            keys.setdefault(_state_key(err)[0], entry)  # any next token
    return keys


def _statement_word_called(before: str, text: str, found: str):
    """(word, offset) when the failing line calls a procedure the script declares under a statement
    word's name (`procedure move() {...}`, then `move()`): the call parses as the statement.
    Read with splits, not a backtracking pattern, so a long line stays linear."""
    end = len(before.rstrip())
    start = before.rfind("\n", 0, end) + 1
    line = before[start:end]
    if "(" not in line and found != "`(`":
        return None
    head = line.split("(", 1)[0]
    cut = max(head.rfind("{"), head.rfind("}")) + 1
    word = head[cut:].strip()
    if word not in STATEMENT_WORDS or word == "log":  # `log(...)`: E0128
        return None
    if re.search(rf"^[ \t]*procedure[ \t]+{word}\b", text, re.M) is None:
        return None
    return word, start + head.index(word, cut)


def _match_catalogue(err, parser, start):
    keys = _catalogue_keys(parser, start)
    key = _state_key(err)
    return keys.get(key) or keys.get(key[0])


# signs people type for the language's own, and what the language writes for them
_ASCII_FOR = {"≤": "<=", "≥": ">=", "≠": "!=", "−": "-", "–": "-", "—": "-", "×": "*", "÷": "/",
              "“": '"', "”": '"', "„": '"', "‘": '"', "’": '"'}


def _not_ascii(char: str, span: Span) -> Diagnostic:
    """E0139: a character outside ASCII where only names, numbers and signs go (texts and
    comments hold any): named by its code, since `а` (Cyrillic) and `a` look the same."""
    name = unicodedata.name(char, "")
    plain = _ASCII_FOR.get(char) or unicodedata.normalize("NFKC", char)  # `ｘ` is `x`, `０` is `0`
    hint = (f"write `{plain}`" if plain.isascii() and plain.strip() else
            "names, numbers and signs are written in ASCII (a letter from another alphabet can look like "
            "a Latin one); other characters belong in texts and comments")
    return Diagnostic("E0139", f"`{char}` (U+{ord(char):04X}{' ' + name if name else ''}) is not a character of the "
                      "language", span, "not ASCII", hint)


def explain_syntax_error(err: lark.exceptions.UnexpectedInput, text: str, path: str,
                         parser: lark.Lark, start: str = "start") -> Diagnostic:
    line, column = max(1, err.line), max(1, err.column)
    width = 1
    if isinstance(err, lark.exceptions.UnexpectedToken) and err.token.type == "$END":
        found = "end of file"
        lines = text.rstrip().splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
    elif isinstance(err, lark.exceptions.UnexpectedToken):
        width = max(1, len(str(err.token)))
        found = f"`{err.token}`"
    elif isinstance(err, lark.exceptions.UnexpectedCharacters):
        found = f"`{text[err.pos_in_stream]}`" if err.pos_in_stream < len(text) else "end of file"
    else:
        found = "end of file"
        lines = text.rstrip().splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
    span = Span(path, line, column, line, column + width)
    before = text[:getattr(err, "pos_in_stream", None) or 0] if not found == "end of file" else text
    if isinstance(err, lark.exceptions.UnexpectedCharacters) and found.strip("`") in OPERATOR_WORDS:
        char = found.strip("`")
        word = OPERATOR_WORDS[char]
        written = "!=" if char == "!" else char * 2
        return Diagnostic("E0115", f"`{written if char != '!' else char}` is not an operator here",
                          span, f"unexpected {found}",
                          f"write `{word}`" + (" (`!=` is \"not equal\")" if char == "!" else ""))
    if isinstance(err, lark.exceptions.UnexpectedCharacters) and found != "end of file" and not found.isascii():
        return _not_ascii(found.strip("`"), span)
    cut = _text_cut_by_a_quote(before) if isinstance(err, lark.exceptions.UnexpectedInput) else None
    if cut is not None:
        return Diagnostic("E0135", "a text cannot be written inside the `{...}` of another text",
                          _span_at(text, path, cut, 1), "this quote ends the outer text",
                          'name the inner text with a definition (`define suffix = if alone then " alone" else ""`) '
                          "and write `{suffix}` in the text")
    is_word = _IS_WORD.search(before) if isinstance(err, lark.exceptions.UnexpectedToken) else None
    if isinstance(err, lark.exceptions.UnexpectedToken) and str(err.token) == "is" or is_word:
        # `x is none`: `is` fails at once, or (after a complete statement) reads as a procedure's name
        where = _span_at(text, path, is_word.start(1), 2) if is_word and str(err.token) != "is" else span
        return Diagnostic("E0194", "`is` is not a comparison here", where, "unexpected `is`",
                          "compare with `==` and `!=`: `x == none`, `x != none`")
    offset = getattr(err, "pos_in_stream", 0) or 0
    if found == "`/`" and text.startswith("//", offset):
        return Diagnostic("E0101", "unexpected `//`", _widened(span, 2), "not a comment",
                          "a comment begins with `#` and runs to the end of the line")
    if found in ("`/`", "`*`") and text[offset - 1:offset] == found[1]:
        return Diagnostic("E0101", f"unexpected `{found[1] * 2}`", _span_at(text, path, offset - 1, 2),
                          "not an operator", "`/` divides, rounding down: there is no `//` (a comment begins "
                          "with `#`)" if found == "`/`" else "there is no power operator `**`: multiply (`x * x`)")
    if found == "`;`":
        return Diagnostic("E0101", "unexpected `;`", span, "no separator here",
                          "statements need no separator: each begins on its own line, without `;`")
    if found == "`(`" and re.search(r"\bfor[ \t]*$", before):
        return Diagnostic("E0101", "unexpected `(`", span, "no brackets here",
                          "a `for` loop is written without brackets: `for q in players { ... }`")
    if found == "`?`":
        return Diagnostic("E0101", "unexpected `?`", span, "not an operator",
                          "there is no `C ? A : B`: write `if C then A else B`")
    dotted = _DOT_NUMBER.search(before) if found.strip("`").isdigit() else None
    if dotted:
        written = f"{dotted.group(1)}.{found.strip('`')}"
        return Diagnostic("E0580", f"`{written}` is not a value: a `.` is followed by an attribute's name",
                          _span_at(text, path, dotted.start(1), len(written)), "not a name after `.`",
                          f"a card copy (`card \"{dotted.group(1)}\" x 2` makes `{dotted.group(1)}.1` and "
                          f"`{dotted.group(1)}.2`) has no literal: find it by its name, `c.name == \"{written}\"`, "
                          f"or by its attributes; an item of a list is `{dotted.group(1)}[{found.strip('`')}]`")
    left_open = _declaration_in_block(err, text, before, path) if start == "start" else None
    if left_open is not None:
        return left_open
    stray_if = _IF_AFTER_OPERATOR.search(before)
    if stray_if:
        return Diagnostic("E0116", "an `if ... then ... else ...` after an operator needs parentheses",
                          _span_at(text, path, stray_if.start(1), 2), "this `if` needs parentheses",
                          "write `a + (if x then 1 else 0)`: the parentheses say where the `else` part ends")
    returned = _RETURN_VALUE.search(before)
    if returned:
        if returned.group(1):
            span = _span_at(text, path, returned.start(1), len(returned.group(1).strip()))
        return Diagnostic("E0117", "`return` takes no value", span, "a value after `return`",
                          "`return` leaves a procedure; to compute a value write a `define` "
                          "(`define NAME(params) = EXPRESSION`)")
    if isinstance(err, lark.exceptions.UnexpectedCharacters) and found == '`"`':
        # a quote the lexer cannot read as a text: nothing closes it on its line
        return Diagnostic("E0155", "this text is never closed", span, "no `\"` closes it on this line",
                          'end the text with `"` on the same line: a text does not span lines (`\\n` writes '
                          'a new line, `\\"` a quote inside it)')
    if isinstance(err, lark.exceptions.UnexpectedCharacters) and found == "`'`":
        return Diagnostic("E0133", "texts are written in double quotes", span, "unexpected `'`",
                          'write `log "hello"`')
    if found != "end of file" and _MOVE_AT.search(before):
        return Diagnostic("E0170", "`at` in a `move` takes `top` or `bottom`", span, "not `top` or `bottom`",
                          AT_POSITION_HINT)
    alone = _WORD_ALONE.search(before)
    if alone and isinstance(err, lark.exceptions.UnexpectedToken) and set(getattr(err, "expected", ())) == {"LPAR"} \
            and _in_block(before) and alone.group(1) not in STATEMENT_WORDS:
        # a word alone on its line (`continue`) reads as a procedure's name until the next line
        name = alone.group(1)
        hint = STATEMENT_SYNONYMS.get(name) or did_you_mean(name, STATEMENT_WORDS) or \
            f"a procedure is called with brackets, `{name}()`; a statement begins with a word such as `move`, " \
            "`set`, `let`, `log` or `next`"
        return Diagnostic("E0134", f"`{name}` does not begin a statement",
                          _span_at(text, path, alone.start(1), len(name)), "not a statement", hint)
    word = _STATEMENT_WORD.search(before)
    if word and isinstance(err, lark.exceptions.UnexpectedToken) and err.token.type == "NAME" and _in_block(before) \
            and word.group(1) not in STATEMENT_WORDS:  # a keyword with a wrong word after it is said below
        name = word.group(1)
        hint = STATEMENT_SYNONYMS.get(name) or did_you_mean(name, STATEMENT_WORDS) or \
            "a statement begins with a word such as `move`, `set`, `let`, `log` or `next`, or calls a procedure: `NAME(ARGS)`"
        return Diagnostic("E0134", f"`{name}` does not begin a statement",
                          _span_at(text, path, word.start(1), len(name)), "not a statement", hint)
    replaced = _REPLACE_HEAD.search(before) if isinstance(err, lark.exceptions.UnexpectedToken) \
        and (err.token.type == "NAME" or str(err.token) == "with") and not _in_block(before) else None
    if replaced and (replaced.group(1) is None) == (str(err.token) != "with"):
        return _replace_misuse(replaced, str(err.token), span, found)
    if (isinstance(err, lark.exceptions.UnexpectedToken) and err.token.type == "NAME" and start == "start"
            and not _in_block(before) and before[len(before.rstrip(" \t")) - 1:].startswith("\n")
            and (close := did_you_mean(str(err.token), DECLARATION_WORDS)).startswith("did you mean")):
        return Diagnostic("E0107", "a declaration is expected here", span, f"unexpected {found}", close)
    face = _FACE_WORD.search(before)
    if face and isinstance(err, lark.exceptions.UnexpectedToken) and _in_block(before):
        word = face.group(1)
        return Diagnostic("E0127", "`face up` and `face down` are two words",
                          _span_at(text, path, face.start(1), len(word)), f"`{word}` is not a word of `move`",
                          f"write `{'face down' if 'own' in word else 'face up'}`: `move c to played[p] face up`")
    if isinstance(err, lark.exceptions.UnexpectedToken) and _chained_comparison(before, found):
        return Diagnostic("E0101", f"unexpected {found}", span, "a second comparison",
                          "comparisons do not chain: write `a < b and b < c`")
    glued = _glued_keyword(text, path, parser, start) if isinstance(err, lark.exceptions.UnexpectedInput) else None
    if glued is not None:
        return glued
    misuse = _statement_misuse(before, found) if isinstance(err, lark.exceptions.UnexpectedToken) else None
    if misuse is not None:
        code, message, hint = misuse
        return Diagnostic(code, message, span, f"unexpected {found}", hint)
    if isinstance(err, lark.exceptions.UnexpectedToken) and _in_block(before) \
            and str(err.token) in _DECLARATION_KEYWORDS and text[err.token.end_pos:].lstrip().startswith("("):
        word = str(err.token)
        return Diagnostic("E0101", f"unexpected {found}", span, "a word that begins a declaration",
                          f"`{word}` begins a top-level declaration, so after a statement that ends in a value it is "
                          f"read as one, never as a call of a procedure named `{word}`: rename the procedure where "
                          f"it is declared and where it is called (`{word}_cards`, say)")
    single = _single_equals(err, text)
    if single is not None:
        message, hint = _SINGLE_EQUALS[single]
        return Diagnostic("E0102", message, _widened(span, len(single)), f"unexpected `{single}`", hint)
    tail = before[-64:]  # a number's digits end here: no need to search, or backtrack, further back
    whole = re.search(r"\b\d+\.$", tail) if isinstance(err, lark.exceptions.UnexpectedToken) \
        and err.token.type in ("INT", "NUMBER") else None
    if whole:
        written = whole.group(0) + str(err.token)
        return Diagnostic("E0101", f"`{written}` is not a whole number",
                          _span_at(text, path, len(before) - len(tail) + whole.start(), len(written)),
                          "a fraction",
                          "numbers are whole: there are no fractions; count in the smallest unit (cents, "
                          "half points as 1) and divide, rounding down, with `/`")
    called = _statement_word_called(before, text, found)
    if called is not None:
        word, at = called
        return Diagnostic("E0652", f"`{word}(...)` reads as the `{word}` statement, not as a call of the procedure "
                          f"`{word}`", _span_at(text, path, at, len(word)), "a statement word",
                          f"a procedure cannot be named after a statement word: rename it where it is declared and "
                          f"where it is called (`{word}_cards`, say)")
    known = _match_catalogue(err, parser, start)
    if known and known[0] == "E0118" and _open_call(before) in _QUANTIFIER_WORDS:
        word = _open_call(before)
        return Diagnostic("E0153", "a quantifier is written without brackets", span, f"unexpected {found}",
                          f"write `{word} x in L where CONDITION` for Python's `{word}(CONDITION for x in L)`")
    if known:
        code, message, hint = known
        unfinished = before.rstrip()
        if code in _UNFINISHED_STATEMENT and "\n" in before[len(unfinished):]:
            # the parser fails at the next line's first word; the mistake is where this line ends
            return Diagnostic(code, message, _span_at(text, path, len(unfinished) - 1, 1),
                              _ENDS_HERE.get(code, "the statement ends here"), hint)
        word = _INCLUDE_WORD.search(before) if message.startswith("`include`") else None
        if word:  # the parser stopped at the path; the mistake is the word before it
            return Diagnostic(code, message, _span_at(text, path, word.start(1), 7), "an include inside a block", hint)
        return Diagnostic(code, message, span, f"unexpected {found}", hint)
    expected = getattr(err, "expected", None) or getattr(err, "allowed", None) or set()
    hint = ""
    if "RBRACE" in expected and found == "end of file":
        hint = "a `{` was opened and never closed" + _still_open(before)
    if expected:
        label = f"expected {_expected_list(expected, parser)}"
    else:
        label = "not valid here"
    return Diagnostic("E0101", f"unexpected {found}", span, label, hint)
