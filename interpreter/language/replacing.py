"""`replace DECL`: a variant's declarations taking the place of its original's.

A script that includes another (directly or through other includes) may write `replace` before
a top-level declaration; that declaration then stands where the included one of the same name
and kind stood (so a replaced phase keeps its place in the order of phases), and every use,
in the original's files too, means it.  This runs between reading the files and checking them:
the checker, the compiler and every tool after them see one declaration per name, the one the
game is played with.  What a replacement may not do (change a definition's parameters, replace
a deck, replace twice, replace what no included file declares) is reported here, E0610-E0616.
"""

from __future__ import annotations

import re

import attrs

from . import nodes as n
from .source import Diagnostic, SourceFile, Span, did_you_mean

# Declarations that share one namespace (E0301): the word for each, and the keyword that writes it.
NAMED = {n.OptionDecl: "option", n.ZoneDecl: "zone", n.VarDecl: "variable", n.DefineDecl: "definition",
         n.RuleDecl: "rule", n.ProcDecl: "procedure", n.PhaseDecl: "phase", n.EventDecl: "event",
         n.RecordDecl: "record"}
# Named declarations with a namespace of their own.
OWN = {n.SymbolsDecl: "symbols", n.MeasureDecl: "measure", n.ReactionDecl: "reaction", n.LimitDecl: "limit", n.AttributeDecl: "attribute",
       n.DeckDecl: "deck"}
# Declarations a game has once.
SINGLE = {n.GameDecl: "game", n.PlayersDecl: "players", n.ScoreDecl: "score", n.WinnersDecl: "winners",
          n.TeamsDecl: "teams", n.EndWhen: "end game when"}
KEYWORD = {"option": "option", "zone": "zone", "variable": "var", "definition": "define", "rule": "rule",
           "procedure": "procedure", "phase": "phase", "event": "event", "record": "record", "measure": "measure",
           "reaction": "reaction", "limit": "limit", "attribute": "attribute", "deck": "deck", "game": "game",
           "players": "players", "score": "score", "winners": "winners", "teams": "teams",
           "end game when": "end game when", "symbols": "symbols"}
_ARTICLE = {"option": "an option", "event": "an event", "attribute": "an attribute"}

# What cannot be replaced, and what to do instead (E0616).
REFUSED = {
    n.DeckDecl: ("a deck", "moves and saved games name the cards, so a variant plays with its original's cards: "
                 "change what they are worth with `replace attribute ...` or the definitions that read them, and "
                 "for more cards declare a deck of another name beside it (`deck more in stock { ... }`)"),
    n.RecordDecl: ("a record", "a record is a type the original's declarations are checked against: declare a record "
                   "of another name and replace the declarations that use it"),
    n.Include: ("an include", "`replace` takes a declaration: write the `include` without it"),
    n.HandlerDecl: ("an `on` handler", "an event may have several `on` handlers, and they have no names: add another "
                    "`on EVENT { ... }` without `replace` (it runs beside the original's), or replace the procedure "
                    "or the event the original's handler reads"),
}
# Kinds a `replace ... with` may change into each other: both read as a constant, bare.
_CONSTANTS = {"definition", "option"}


@attrs.frozen
class Replacement:
    """One declaration replaced.

    Attributes:
        kind: what the replacement is ("definition", "players", ...), as NAMED, OWN and SINGLE say.
        name: its name; None for a declaration a game has once (`players`).
        original: the included declaration it replaces (never in the checked items).
        decl: the replacement, in the original's place among the checked items.
        keyword: the span of its word `replace`.
        between: replacements it overrides in turn (a variant of a variant), innermost first.
    """

    kind: str
    name: str | None
    original: object
    decl: object
    keyword: Span
    between: tuple = ()

    @property
    def described(self) -> str:
        """`definition `ante`` or `players`: how hovers, rulebooks and the REPL name it."""
        return _subject(self.kind, self.name)


def kind_of(item) -> str | None:
    """The word for a declaration's kind, or None for what is no declaration a `replace` may name."""
    t = type(item)
    return NAMED.get(t) or OWN.get(t) or SINGLE.get(t)


def key_of(item) -> tuple | None:
    """What identifies a declaration among those a replacement could take the place of."""
    t = type(item)
    if t in NAMED:
        return ("names", item.name)
    if t in OWN:
        return (OWN[t], item.name)
    if t in SINGLE:
        return (SINGLE[t], None)
    return None


def resolve(items: list, includes: dict, sources: dict[str, SourceFile]) -> tuple[list, list, list[Diagnostic]]:
    """The items with every replacement in its original's place (and no `replace` left), the
    Replacements made, and the diagnostics of the refused ones (whose originals stay).
    `includes` maps each file to the files it includes itself."""
    wrappers = [item for item in items if isinstance(item, n.Replace)]
    if not wrappers:
        return items, [], []
    return _Resolver(items, includes, sources).run(wrappers)


class _Resolver:
    def __init__(self, items, includes, sources):
        self.items, self.sources, self.diags = items, sources, []
        self.reach = {path: reach_of(path, includes) for path in sources}
        self.originals: dict[tuple, object] = {}  # key -> its first declaration not written with `replace`
        for item in items:
            key = key_of(item)
            if key is not None:
                self.originals.setdefault(key, item)
        self.accepted: dict[tuple, list] = {}  # key -> [(Replace node, original)], innermost first

    def run(self, wrappers):
        # a file's replacements before those of the files that include it: a variant of a
        # variant replaces the replacement
        for wrapper in sorted(wrappers, key=lambda w: len(self.reach.get(w.span.path, ()))):
            found = self._target(wrapper)
            if found is not None:
                self.accepted.setdefault(found[0], []).append((wrapper, found[1]))
        final: dict[int, Replacement] = {}
        for (_space, name), chain in self.accepted.items():
            wrapper, original = chain[-1]
            final[id(original)] = Replacement(kind_of(wrapper.decl), name, original, wrapper.decl,
                                              wrapper.keyword_span, tuple(w.decl for w, _ in chain[:-1]))
        out = []
        for item in self.items:
            if isinstance(item, n.Replace):
                continue
            out.append(final[id(item)].decl if id(item) in final else item)
        made = sorted(final.values(), key=lambda r: (r.keyword.path, r.keyword.line, r.keyword.column))
        return out, made, self.diags

    # ---- one replacement
    def _target(self, wrapper: n.Replace):
        """(key, original) of the declaration `wrapper` replaces, or None with a diagnostic."""
        decl, here = wrapper.decl, wrapper.span.path
        if type(decl) in REFUSED:
            what, hint = REFUSED[type(decl)]
            return self._refuse("E0616", f"{what} cannot be replaced", wrapper, "not replaceable", hint)
        if not self.reach.get(here):
            return self._refuse("E0610", "`replace` in a file that includes no other", wrapper, "nothing to replace",
                                "`replace` takes the place of a declaration of an included file: `include` the "
                                "original first; a declaration of this file itself is changed where it is written")
        name = wrapper.old_name if wrapper.old_kind is not None else getattr(decl, "name", None)
        key = ("names", name) if wrapper.old_kind is not None else key_of(decl)
        original = self.originals.get(key)
        if original is None or original.span.path not in self.reach[here]:
            return self._unknown(wrapper, key, original)
        earlier = self.accepted.get(key, [])
        for before, _ in earlier:
            if before.span.path == here or before.span.path not in self.reach[here]:
                return self._twice(wrapper, before)
        current = earlier[-1][0].decl if earlier else original  # what this file sees: the latest version
        if not self._same_kind(wrapper, current) or not self._samesignature(wrapper, current):
            return None
        return key, original

    def _unknown(self, wrapper: n.Replace, key: tuple, original):
        decl, here = wrapper.decl, wrapper.span.path
        kind = kind_of(decl) if wrapper.old_kind is None else _KIND_OF_KEYWORD[wrapper.old_kind]
        what = _described(kind, key[1])
        if original is not None and original.span.path == here:
            return self._refuse("E0612", f"{_subject(kind, key[1])} is declared in this same file", wrapper,
                                "its own declaration", f"it is declared at line {original.span.line}: change that "
                                "declaration itself (`replace` takes the place of a declaration of an included file)")
        if original is not None:
            return self._refuse("E0611", f"no file this one includes declares {what}", wrapper, "nothing to replace",
                                f"it is declared at {_place(original)}, which this file does not include: a file "
                                "replaces only what it includes")
        if key[1] is None:
            hint = f"the included files declare no `{key[0]}`: write it without `replace`"
        else:
            known = [k[1] for k, item in self.originals.items()
                     if k[0] == key[0] and item.span.path in self.reach[here]
                     and (key[0] != "names" or kind_of(item) == kind)]
            hint = did_you_mean(key[1], known) or f"no {kind} of that name is included: write it without `replace`"
        return self._refuse("E0611", f"no included file declares {what}", wrapper, "nothing to replace", hint)

    def _same_kind(self, wrapper: n.Replace, original) -> bool:
        """E0614 unless the replacement is of the original's kind, or `replace define NAME with
        option NAME ...` (or the other way) changes a constant into an option."""
        decl, old, new = wrapper.decl, kind_of(original), kind_of(wrapper.decl)
        name = getattr(original, "name", None)
        where = f"`{name}` is {_ARTICLE.get(old, 'a ' + old)} ({_place(original)})"
        if wrapper.old_kind is None:
            if old == new:
                return True
            hint = (f"a replacement keeps the kind; to turn the constant into an option write `replace define {name} "
                    f"with option {name}: ...`" if (old, new) == ("definition", "option") and _constant(original)
                    else f"a replacement keeps the kind; to fix the option's value write `replace option {name} with "
                    f"define {name} = VALUE`" if (old, new) == ("option", "definition") and _constant(decl)
                    else f"write `replace {KEYWORD[old]} {name} ...`, or give the {new} another name without `replace`")
            self._refuse("E0614", f"{where}, not {_ARTICLE.get(new, 'a ' + new)}", wrapper, "another kind", hint)
            return False
        written = _KIND_OF_KEYWORD[wrapper.old_kind]
        if old != written:
            self._refuse("E0614", f"{where}, not {_ARTICLE.get(written, 'a ' + written)}", wrapper, "another kind",
                         f"write `replace {KEYWORD[old]} {name} ...`")
            return False
        if getattr(decl, "name", None) != name:
            self._refuse("E0614", f"the replacement of `{name}` declares `{getattr(decl, 'name', KEYWORD[new])}`",
                         wrapper, "another name", f"a replacement keeps the name: `replace {wrapper.old_kind} {name} "
                         f"with {KEYWORD.get(new, new)} {name} ...`")
            return False
        if new in _CONSTANTS and _constant(original) and _constant(decl):
            return True
        self._refuse("E0614", f"{_subject(old, name)}{_with_parameters(original)} cannot become "
                     f"{_ARTICLE.get(new, 'a ' + new)}{_with_parameters(decl)}", wrapper, "another kind",
                     "`replace define NAME with option NAME: ...` and `replace option NAME with define NAME = VALUE` "
                     "change a value read bare (`ante`) between a constant and an option, so the original's uses read "
                     "the same; declare anything else under a new name")
        return False

    def _samesignature(self, wrapper: n.Replace, original) -> bool:
        """E0615 for a definition, rule, procedure or event whose parameters differ from the
        original's: its calls in the original are written for those."""
        decl = wrapper.decl
        if type(decl) is not type(original) or not hasattr(decl, "params"):
            return True
        names = isinstance(decl, n.EventDecl)  # handlers and reactions read an event's parameters by name
        if signature(decl.params, names) == signature(original.params, names):
            return True
        kind = kind_of(decl)
        self._refuse("E0615", f"the replacement of {kind} `{decl.name}` takes {params_text(decl.params)}; the original "
                     f"takes {params_text(original.params)}", wrapper, "other parameters",
                     f"a replacement keeps the parameters' number{', types and names' if names else ' and types'}, "
                     f"since the original's {'signals, handlers and reactions' if names else 'uses'} stay as written "
                     f"({_place(original)}): declare what needs other parameters under a new name")
        return False

    def _twice(self, wrapper: n.Replace, earlier: n.Replace):
        kind = kind_of(wrapper.decl) if wrapper.old_kind is None else _KIND_OF_KEYWORD[wrapper.old_kind]
        name = wrapper.old_name or getattr(wrapper.decl, "name", None)
        sibling = earlier.span.path != wrapper.span.path
        return self._refuse("E0613", f"{_subject(kind, name)} is replaced twice", wrapper, "replaced again here",
                            f"it is replaced at {_place(earlier)} too; a game has one version of each declaration"
                            + (": keep one replacement, or let one of the two files include the other (the "
                               "including file's replacement then comes last)" if sibling else ": keep one"))

    # ---- reporting
    def _refuse(self, code, message, wrapper: n.Replace, label, hint):
        self.diags.append(Diagnostic(code, message, self._head(wrapper), label, hint))
        return None

    def _head(self, wrapper: n.Replace) -> Span:
        """`replace define ante`: from the word `replace` to the name (or kind word) it replaces."""
        start, decl = wrapper.keyword_span, wrapper.decl
        if wrapper.old_name_span is not None:
            end = wrapper.old_name_span
            return Span(start.path, start.line, start.column, end.end_line, end.end_column)
        source = self.sources.get(start.path)
        line = source.line(decl.span.line) if source is not None else ""
        word = re.match(r"\w*", line[decl.span.column - 1:]).group(0)
        end = decl.span.column + len(word)
        name = getattr(decl, "name", None)
        found = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])").search(line, end - 1) \
            if name else None
        if found is not None:
            end = found.end() + 1
        return Span(start.path, start.line, start.column, decl.span.line, end)


_KIND_OF_KEYWORD = {"define": "definition", "option": "option"}


def reach_of(path: str, includes: dict) -> frozenset:
    """Every file `path` includes, directly or through others."""
    seen, stack = set(), list(includes.get(path, ()))
    while stack:
        p = stack.pop()
        if p not in seen:
            seen.add(p)
            stack.extend(includes.get(p, ()))
    seen.discard(path)
    return frozenset(seen)


def _with_parameters(decl) -> str:
    return " with parameters" if isinstance(decl, n.DefineDecl) and decl.params is not None else ""


def _constant(decl) -> bool:
    """An option, or a definition without parameters: a value read bare, like `ante`."""
    return isinstance(decl, n.OptionDecl) or (isinstance(decl, n.DefineDecl) and decl.params is None)


def signature(params, names: bool):
    if params is None:
        return None
    return tuple(((p.name,) if names else ()) + (p.type.name, p.type.is_list, p.type.depth) for p in params)


def params_text(params) -> str:
    if params is None:
        return "no parameters (it is written without brackets)"
    if not params:
        return "no parameters, `()`"
    return "(" + ", ".join(f"{p.name}: {'list of ' * (p.type.depth if p.type.is_list else 0)}{p.type.name}"
                           for p in params) + ")"


def _described(kind: str, name: str | None) -> str:
    return f"{_ARTICLE.get(kind, 'a ' + kind)} `{name}`" if name is not None else f"`{kind}`"


def _subject(kind: str, name: str | None) -> str:
    return f"{kind} `{name}`" if name is not None else f"`{kind}`"


def _place(item) -> str:
    return item.span.short
