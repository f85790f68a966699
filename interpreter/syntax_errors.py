"""Friendly syntax errors: a catalogue of known mistakes matched against the parser's state.

Lark's `match_examples` finds which known-bad snippet fails in the same parser state as the
user's script; that snippet's message is far clearer than a list of expected tokens.
"""

from __future__ import annotations

import functools

import lark

from .source import Diagnostic, Span

# (code, message, hint) -> snippets that fail in the same way.
CATALOGUE = {
    ("E0102", "`=` assigns; to compare use `==`", "write `==` to compare two values"): [
        'phase p { if x = 1 { } }',
        'phase p { while x = 1 { } }',
        'rule r(p: player) require x = 1',
    ],
    ("E0103", "an assignment needs `set` (or `let` for a new local name)",
     "write `set NAME = VALUE`, or `let NAME = VALUE` to introduce a local"): [
        'phase p { x = 1 }',
        'phase p { x += 1 }',
        'phase p { x[1] = 1 }',
    ],
    ("E0105", "this language uses `elif`, not `else if`", "write `elif CONDITION { ... }`"): [
        'phase p { if x { } else if y { } }',
    ],
    ("E0106", "blocks are written with braces, not a colon", "write `{ ... }` around the block"): [
        'phase p { if x: }',
        'phase p { while x: }',
        'phase p { if true: }',
        'phase p { while true: }',
        'phase p { if x == 1: }',
        'phase p { for c in x: }',
        'phase p: ',
        'procedure f(): ',
    ],
    ("E0107", "a declaration is expected here",
     "top-level items are: game, players, option, deck, zone, var, define, rule, procedure, "
     "phase, event, reaction, on, score, winners, include"): [
        'move x to y',
        'set x = 1',
        'if x { }',
        'foo',
        'players 2 move x to y',
        'players 2 set x = 1',
        'players 2 if x { }',
        'players 2 for x in y { }',
        'players 2 decide x { a }',
        'players 2 end game',
        'players 2 next p',
        'players 2 log "x"',
        'players 2 let x = 1',
    ],
    ("E0108", "a rule needs `require CONDITION`", "write `rule NAME(params) when COND require COND`"): [
        'rule r(p: player) when x',
        'rule r(p: player) "doc"',
        'rule r(p: player) { }',
    ],
    ("E0109", "a parameter needs a type", "write `NAME: TYPE`, e.g. `p: player`"): [
        'rule r(p) require x',
        'procedure f(p) { }',
        'define f(x) = 1',
    ],
    ("E0110", "an alternative's bindings go in parentheses",
     "write `play(c from hand[p])` or `raise(n in 1..10)`"): [
        'phase p { decide x { play c from y } }',
        'phase p { decide x { play c from y[x] } }',
        'phase p { decide x { play c in 1..2 } }',
    ],
}

# Readable names for the parser's terminals.
TERMINAL_NAMES = {
    "LBRACE": "`{`", "RBRACE": "`}`", "LPAR": "`(`", "RPAR": "`)`", "LSQB": "`[`", "RSQB": "`]`",
    "COLON": "`:`", "COMMA": "`,`", "DOT": "`.`", "EQUAL": "`=`", "NAME": "a name", "INT": "a number", "CARD_NAME": "a card",
    "STRING": "a text in quotes", "COMP_OP": "a comparison", "SIGN": "`-`", "__ANON_0": "`..`",
    "PLUS": "`+`", "MINUS": "`-`", "STAR": "`*`", "SLASH": "`/`", "PERCENT": "`%`",
    "QUANT": "any/all/no/count", "BEST": "max/min", "FACING": "`face up`/`face down`",
    "POSITION": "`at top`/`at bottom`", "PER_PLAYER": "`per player`", "PRIVATE": "`private`",
    "WINNER_MODE": "`highest score`/`lowest score`", "$END": "the end of the file",
}


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
    for entry, snippets in CATALOGUE.items():
        for snippet in snippets:
            try:
                parser.parse(snippet, start=start)
            except lark.exceptions.UnexpectedInput as err:
                keys.setdefault(_state_key(err), entry)
    return keys


def _match_catalogue(err, parser, start):
    return _catalogue_keys(parser, start).get(_state_key(err))


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
    known = _match_catalogue(err, parser, start)
    if known:
        code, message, hint = known
        return Diagnostic(code, message, span, f"unexpected {found}", hint)
    expected = getattr(err, "expected", None) or getattr(err, "allowed", None) or set()
    hint = ""
    if "RBRACE" in expected and found == "end of file":
        hint = "a `{` was opened and never closed"
    if expected:
        label = f"expected {_expected_list(expected, parser)}"
    else:
        label = "not valid here"
    return Diagnostic("E0101", f"unexpected {found}", span, label, hint)
