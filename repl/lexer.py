"""Syntax highlighting of the cardgame language: a Pygments lexer for `.cardgame` text, the
prompt-toolkit lexer of the input line, and highlighting of source excerpts in the output."""

from __future__ import annotations

import re

from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.lexers import Lexer
from prompt_toolkit.styles import Style
from pygments.lexer import RegexLexer, bygroups, include, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text

from .commands import ALIASES

KEYWORDS = (
    "game", "players", "include", "option", "deck", "zone", "shared", "var", "define", "rule", "when",
    "require", "requires", "procedure", "phase", "event", "reaction", "on", "by", "score", "winners",
    "let", "set", "move", "to", "deal", "from", "of", "shuffle", "reveal", "hide", "show", "if", "elif",
    "else", "then", "for", "in", "while", "repeat", "times", "until", "loop", "break", "decide",
    "simultaneously", "table", "next", "end", "signal", "cancel", "return", "log", "where", "at", "face",
    "private", "per", "one", "list", "name", "highest", "lowest", "teams", "ordered", "attribute", "shown",
    "record", "measure", "limit", "capped", "least", "as", "replace", "with", "step", "before", "after",
    "symbols",
)
OPERATOR_WORDS = ("and", "or", "not", "any", "all", "no", "count", "max", "min", "sorted", "groups", "runs")
CONSTANTS = ("true", "false", "none")
TYPES = ("int", "bool", "text", "symbol", "player", "zone", "card")
# Words of a zone's declaration that are no grammar keywords (the checker's VISIBILITIES, and
# `shown as placed`): highlighted there only, since elsewhere they are ordinary names.
ZONE_WORDS = ("public", "owner", "team", "others", "hidden", "placed")


class CardgameLexer(RegexLexer):
    """Pygments lexer for scripts of the cardgame language (`*.cardgame`)."""

    name = "Cardgame"
    aliases = ["cardgame"]
    filenames = ["*.cardgame"]

    tokens = {
        "root": [
            (r"\s+", Text),
            (r"#.*?$", Comment.Single),
            (r'"', String, "string"),
            (r"(zone)(\s+)([A-Za-z_]\w*)", bygroups(Keyword.Declaration, Text, Name.Function), "zone"),
            (r"(rule|phase|procedure|define|event|option|var|deck)(\s+)([A-Za-z_]\w*)",
             bygroups(Keyword.Declaration, Text, Name.Function)),
            (words(CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (words(OPERATOR_WORDS, suffix=r"(?=\()"), Name.Function),  # count(...), max(...)
            (words(OPERATOR_WORDS, suffix=r"\b"), Operator.Word),
            (words(KEYWORDS, suffix=r"\b"), Keyword),
            (words(TYPES, suffix=r"\b"), Keyword.Type),
            (r"P\d+\b", Name.Constant),
            (r"[A-Za-z_]\w*(?=\s*\()", Name.Function),
            (r"[A-Za-z_]\w*", Name),
            (r"\d+", Number.Integer),
            (r"==|!=|<=|>=|\+=|-=|\.\.|[-+*/%<>=]", Operator),
            (r"[()\[\]{},.:]", Punctuation),
            (r".", Text),
        ],
        "zone": [  # the rest of a zone's declaration line
            (r"\n", Text, "#pop"),
            (r"[ \t]+", Text),
            (words(ZONE_WORDS, suffix=r"\b"), Keyword.Pseudo),
            include("root"),
        ],
        "string": [
            (r'\\.', String.Escape),
            (r"\{[^}\n]*\}", String.Interpol),
            (r'"', String, "#pop"),
            (r'[^"\\{]+', String),
            (r"\{", String),
        ],
    }


_PYGMENTS = CardgameLexer()

STYLE = Style.from_dict({
    "pygments.keyword": "#5f87d7 bold",
    "pygments.keyword.declaration": "#5f87d7 bold",
    "pygments.keyword.constant": "#af5fd7",
    "pygments.keyword.type": "#00afaf",
    "pygments.operator.word": "#d75f5f bold",
    "pygments.operator": "#d75f5f",
    "pygments.name.function": "#d7af00",
    "pygments.name.constant": "#af5fd7",
    "pygments.number": "#af5fd7",
    "pygments.string": "#5faf5f",
    "pygments.comment": "#808080 italic",
    "command": "bold",
    "error": "#d70000 bold",
    "gutter": "#808080",
    "card.red": "#d70000",  # ♥ ♦ cards; ♣ ♠ keep the terminal's own colour
    "verdict.pass": "#5faf5f bold",
    "verdict.fail": "#d70000 bold",
    "verdict.skip": "#d7af00 bold",
    "bottom-toolbar": "noreverse bg:#303030 #d0d0d0",
    "bottom-toolbar.label": "#808080",
    "bottom-toolbar.value": "#ffffff bold",
})


def _token_style(token) -> str:
    return "class:pygments." + ".".join(str(token).split(".")[1:]).lower()


def code_fragments(code: str) -> list[tuple[str, str]]:
    """(style, text) fragments of a piece of cardgame source."""
    out = []
    for token, text in _PYGMENTS.get_tokens(code):
        out.append((_token_style(token), text))
    if out and out[-1][1].endswith("\n") and not code.endswith("\n"):
        out[-1] = (out[-1][0], out[-1][1][:-1])  # Pygments adds a final newline
    return out


# Commands whose argument is an expression of the language (or a declaration's name). A move
# (`play`, `why`) is no expression: its `#2` is a position, not a comment.
_CODE_COMMANDS = ("eval", "watch", "source")
_EXCERPT = re.compile(r"^(\s*\d+ \| )(.*)$")
# `rule NAME: PASS`, and a why's first line `...: legal: ...` / `...: illegal: ...`
_VERDICT = re.compile(r"^(rule \S+: )(PASS|FAIL|SKIP)\b|^(`[^`]*`[^:]*: )(legal|illegal)(?=: )")
_RED_CARD = re.compile(r"(\S*[♥♦]\*?)")  # a card drawn with a red suit symbol
_VERDICT_STYLE = {"PASS": "pass", "legal": "pass", "FAIL": "fail", "illegal": "fail", "SKIP": "skip"}


class InputLexer(Lexer):
    """The input line: the command word in bold, an expression argument highlighted."""

    def lex_document(self, document: Document):
        lines = document.lines

        def get_line(i):
            line = lines[i] if i < len(lines) else ""
            word, space, rest = line.partition(" ")
            fragments = [("class:command", word)]
            command = ALIASES.get(word.lower(), word.lower())  # `p` is `eval`, `EVAL` too
            if space:
                if command == "break" and rest.startswith("when "):
                    fragments += [("", " "), ("class:pygments.keyword", "when")]
                    fragments += code_fragments(rest[4:])
                elif command in _CODE_COMMANDS:
                    fragments.append(("", " "))
                    fragments += code_fragments(rest)
                else:
                    fragments.append(("", space + rest))
            return fragments
        return get_line


def highlight_output(text: str) -> FormattedText:
    """The session's output with source excerpts (`51 | rule ...`) and error headers styled."""
    out: list[tuple[str, str]] = []
    for line in text.split("\n"):
        match = _EXCERPT.match(line)
        verdict = _VERDICT.match(line)
        if match:
            out.append(("class:gutter", match.group(1)))
            out += code_fragments(match.group(2))
        elif verdict:
            head, word = (verdict.group(1), verdict.group(2)) if verdict.group(2) else (verdict.group(3),
                                                                                       verdict.group(4))
            out += [("", head), (f"class:verdict.{_VERDICT_STYLE[word]}", word), ("", line[len(head) + len(word):])]
        elif line.startswith("error"):
            head, sep, tail = line.partition(":")
            out += [("class:error", head + sep), ("", tail)]
        else:
            for i, piece in enumerate(_RED_CARD.split(line)):
                if piece:
                    out.append(("class:card.red" if i % 2 else "", piece))
        out.append(("", "\n"))
    return FormattedText(out)
