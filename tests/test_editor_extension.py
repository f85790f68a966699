"""The VS Code extension in editors/vscode: its manifest names files that exist and the
language server's command, and its TextMate grammar loads: valid JSON, every regex compiles,
and it tokenizes a shipped game's keywords, comments, strings and numbers as expected.

The grammar's regexes are Oniguruma's; they are written in the subset Python's `re` reads
alike (no `\\G`, `\\h`, `\\p{...}` or `(?<name>...)`), which this test keeps them to.  The
tokenizer below is the least of a TextMate engine: at each place the earliest match of the
patterns in force (the first listed on a tie), `begin`/`end` rules nesting, `include`s of the
repository and line by line, as VS Code runs a grammar.
"""

from __future__ import annotations

import json
import re

import pytest
from helpers import GAMES, ROOT

from cardgame.authoring.lsp_tokens import TOKEN_TYPES

VSCODE = ROOT / "editors" / "vscode"
GRAMMAR_PATH = VSCODE / "syntaxes" / "cardgame.tmLanguage.json"
# Oniguruma constructs Python's re reads otherwise or not at all: the grammar must not use them.
ONIGURUMA_ONLY = re.compile(r"\\[GhHAzZ]|\\p\{|\(\?<[A-Za-z]|\(\?~|\\K|\\R|\\X")
# LSP's semantic token types; the others the server uses are declared by the extension.
STANDARD_TYPES = {"namespace", "type", "class", "enum", "interface", "struct", "typeParameter", "parameter",
                  "variable", "property", "enumMember", "event", "function", "method", "macro", "keyword",
                  "modifier", "comment", "string", "number", "regexp", "operator", "decorator"}


def _grammar() -> dict:
    return json.loads(GRAMMAR_PATH.read_text())


def _rules(node):
    """Every rule of the grammar, nested ones and the repository's included."""
    if isinstance(node, dict):
        if any(k in node for k in ("match", "begin", "include", "patterns")):
            yield node
        for value in node.values():
            yield from _rules(value)
    elif isinstance(node, list):
        for value in node:
            yield from _rules(value)


def test_the_manifest_names_what_the_extension_holds():
    manifest = json.loads((VSCODE / "package.json").read_text())
    [language] = manifest["contributes"]["languages"]
    assert language["id"] == "cardgame" and language["extensions"] == [".cardgame"]
    assert (VSCODE / language["configuration"]).is_file()
    [grammar] = manifest["contributes"]["grammars"]
    assert grammar["language"] == "cardgame" and (VSCODE / grammar["path"]).resolve() == GRAMMAR_PATH
    assert grammar["scopeName"] == _grammar()["scopeName"] == "source.cardgame"
    assert (VSCODE / manifest["main"]).is_file() and manifest["activationEvents"] == ["onLanguage:cardgame"]
    settings = manifest["contributes"]["configuration"]["properties"]
    assert settings["cardgame.server.command"]["default"] == "cardgame"
    assert settings["cardgame.server.args"]["default"] == ["lsp"]
    extension = (VSCODE / manifest["main"]).read_text()
    assert 'config.get("server.command", "cardgame")' in extension and '["lsp"]' in extension
    assert 'require("vscode-languageclient/node")' in extension and "vscode-languageclient" in manifest["dependencies"]
    # the server's own token types (zone, card, option) are declared, each with a standard one to fall back to
    declared = {t["id"]: t["superType"] for t in manifest["contributes"]["semanticTokenTypes"]}
    assert set(declared) == set(TOKEN_TYPES) - STANDARD_TYPES and set(declared.values()) <= STANDARD_TYPES
    config = json.loads((VSCODE / "language-configuration.json").read_text())
    assert config["comments"] == {"lineComment": "#"}
    for key in ("increaseIndentPattern", "decreaseIndentPattern"):
        re.compile(config["indentationRules"][key])


def test_the_grammar_is_json_and_every_regex_compiles():
    grammar = _grammar()
    rules = list(_rules(grammar))
    patterns = [rule[key] for rule in rules for key in ("match", "begin", "end") if key in rule]
    assert len(patterns) > 20
    for pattern in patterns:
        assert not ONIGURUMA_ONLY.search(pattern), f"an Oniguruma-only construct: {pattern}"
        re.compile(pattern)
    for rule in rules:
        include = rule.get("include", "")
        assert include in ("", "$self") or include[1:] in grammar["repository"], include


class _Tokenizer:
    """Line-by-line TextMate tokenizing: (text, scopes) pieces of each line."""

    def __init__(self, grammar: dict):
        self.grammar = grammar
        self.stack: list[tuple[dict, re.Pattern]] = []  # begin/end rules open, with their end

    def _patterns(self, rules: list) -> list:
        out = []
        for rule in rules:
            if "include" in rule:
                include = rule["include"]
                target = self.grammar if include == "$self" else self.grammar["repository"][include[1:]]
                out += self._patterns([target] if "match" in target or "begin" in target else target["patterns"])
            elif "match" in rule or "begin" in rule:
                out.append(rule)
            else:
                out += self._patterns(rule.get("patterns", []))
        return out

    def line(self, text: str) -> list[tuple[str, tuple]]:
        out, pos = [], 0
        while pos <= len(text):
            scopes = tuple(r["name"] for r, _ in self.stack if "name" in r)
            inner = self._patterns(self.stack[-1][0].get("patterns", []) if self.stack else self.grammar["patterns"])
            best = None
            if self.stack:
                end = self.stack[-1][1].search(text, pos)
                if end is not None:
                    best = (end.start(), -1, end, None)
            for order, rule in enumerate(inner):
                m = re.compile(rule.get("match") or rule["begin"]).search(text, pos)
                if m is not None and (best is None or m.start() < best[0]):
                    best = (m.start(), order, m, rule)
            if best is None:
                if pos < len(text):
                    out.append((text[pos:], scopes))
                break
            start, _order, m, rule = best
            if start > pos:
                out.append((text[pos:start], scopes))
            if rule is None:  # the end of the innermost begin/end rule
                if m.group():
                    ending = self.stack[-1][0].get("endCaptures", {}).get("0", {}).get("name")
                    out.append((m.group(), scopes + ((ending,) if ending else ())))
                self.stack.pop()
            elif "match" in rule:
                captures = rule.get("captures", {})
                if captures:
                    at = m.start()
                    for i in range(1, (m.lastindex or 0) + 1):
                        if m.group(i) is None:
                            continue
                        if m.start(i) > at:
                            out.append((text[at:m.start(i)], scopes + (rule.get("name"),) if rule.get("name") else scopes))
                        out.append((m.group(i), scopes + tuple(n for n in (rule.get("name"), captures.get(str(i), {}).get("name")) if n)))
                        at = m.end(i)
                    if at < m.end():
                        out.append((text[at:m.end()], scopes))
                else:
                    out.append((m.group(), scopes + ((rule["name"],) if "name" in rule else ())))
            else:
                self.stack.append((rule, re.compile(rule["end"])))
                opening = rule.get("beginCaptures", {}).get("0", {}).get("name")
                out.append((m.group(), scopes + tuple(n for n in (rule.get("name"), opening) if n)))
            if m.end() == pos and (rule is None or "match" in rule):
                if pos >= len(text):
                    break
                out.append((text[pos], scopes))
                pos += 1
            else:
                pos = m.end()
            if pos >= len(text) and not self.stack:
                break
        return out


def _tokens(text: str) -> list[tuple[int, str, tuple]]:
    tokenizer = _Tokenizer(_grammar())
    return [(row, piece, scopes) for row, line in enumerate(text.split("\n"), 1)
            for piece, scopes in tokenizer.line(line) if piece.strip()]


def _scope_of(found, row: int, piece: str) -> tuple:
    return next(scopes for r, p, scopes in found if r == row and p == piece)


@pytest.mark.parametrize("game", ["bouncer.cardgame", "booray.cardgame"])
def test_the_grammar_tokenizes_a_shipped_game(game):
    text = (GAMES / game).read_text()
    found = _tokens(text)
    lines = text.split("\n")
    for row, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("#"):  # a comment line is one comment
            assert [(p, s) for r, p, s in found if r == row] == [(line.lstrip(), ("comment.line.number-sign.cardgame",))]
        for m in re.finditer(r"^\s*(phase|define|rule|procedure|zone|var|option|deck|event|record)\s+(\w+)", line):
            assert _scope_of(found, row, m.group(1)) == ("keyword.other.declaration.cardgame",)
            assert _scope_of(found, row, m.group(2)) == ("entity.name.function.cardgame",)
        for word in re.findall(r"^\s*(if|for|while|let|set|move|deal|shuffle|next|decide|log)\b", line):
            assert _scope_of(found, row, word) == ("keyword.control.cardgame",), (row, word)
    strings = [(r, p, s) for r, p, s in found if "string.quoted.double.cardgame" in s]
    assert strings and all(s[0] == "string.quoted.double.cardgame" for _r, _p, s in strings)
    # a text's `{...}` holds an expression; a `#` inside a text is not a comment
    if game == "bouncer.cardgame":
        row = next(i for i, line in enumerate(lines, 1) if line.strip().startswith('log "{winner} wins'))
        assert _scope_of(found, row, "winner") == ("string.quoted.double.cardgame", "meta.interpolation.cardgame",
                                                   "variable.other.cardgame")
        assert _scope_of(found, row, "top") == ("string.quoted.double.cardgame", "meta.interpolation.cardgame",
                                                "support.function.builtin.cardgame")
        assert _scope_of(found, row, " wins ") == ("string.quoted.double.cardgame",)
        numbers = [p for r, p, s in found if s == ("constant.numeric.integer.cardgame",)]
        assert "100" in numbers and "25" in numbers
    trailing = _tokens('zone prize: shared public  # "a # in a comment"\nlog "a # in a text"')
    assert trailing[-1] == (2, '"', ("string.quoted.double.cardgame", "punctuation.definition.string.end.cardgame"))
    assert (1, '# "a # in a comment"', ("comment.line.number-sign.cardgame",)) in trailing
