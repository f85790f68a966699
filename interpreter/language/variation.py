"""A variant's finer changes: steps, inserted phases and added cases (docs/language.md §20).

`replace` (replacing.py) takes the place of a whole declaration.  The changes here reach inside
one: a named step of a phase or procedure (`step NAME { ... }`) replaced, removed, or a new step
put before or after it; a phase put before or after another; a case added to a definition.  They
run after the replacements, on the game as the included files and their replacements make it
(so a variant of a variant changes its original's version), and they are checked like
`replace`: the file must include what it changes (E0610), the step, phase or definition must
exist in an included file (E0611, with the closest name) and not in the same file (E0612), a
step is changed once per file (E0613), a case keeps the definition's parameters (E0615), a
step's name is new in its phase (E0617), and a phase put after another needs one phase to go on
to (E0618).  Types are checked by the checker on the result, in place.

Last, every `step` is replaced by its statements (its braces open no scope), so no later stage
sees a step.
"""

from __future__ import annotations

import attrs

from . import nodes as n
from .check_statements import terminates
from .replacing import Replacement, params_text, reach_of, signature
from .source import Diagnostic, Span, did_you_mean
from .types import describe, fits

_HOLDERS = (n.PhaseDecl, n.ProcDecl)  # what a step is addressed in: `phase.step`, `procedure.step`
_STATEMENT_DECLS = (n.PhaseDecl, n.ProcDecl, n.EventDecl, n.HandlerDecl, n.ReactionDecl)


@attrs.frozen
class Change:
    """One change a variant made, for the tools that say what a variant changes.

    Attributes:
        action: "replace_step", "remove_step", "insert_step", "insert_phase" or "extend_define".
        subject: what it names: "trick.winner", "settle" (the phase a phase is put beside), "ante".
        name: the new step's or phase's name; None otherwise.
        place: "before" or "after"; None otherwise.
        original: the step, phase or definition changed or placed beside, as it was.
        decl: the variant's declaration of the change (a syntax node).
    """

    action: str
    subject: str
    name: str | None
    place: str | None
    original: object
    decl: object

    @property
    def described(self) -> str:
        if self.action == "replace_step":
            return f"step `{self.subject}`"
        if self.action == "remove_step":
            return f"step `{self.subject}` (removed)"
        if self.action == "insert_step":
            return f"a step `{self.name}` {self.place} `{self.subject}`"
        if self.action == "insert_phase":
            return f"a phase `{self.name}` {self.place} `{self.subject}`"
        return f"a case of definition `{self.subject}`"


def apply(items: list, replaced: list, includes: dict, sources: dict) -> tuple[list, list, list, list[Diagnostic]]:
    """The items with every change made and every step flattened, the Replacements (their
    declarations updated), the Changes made and the diagnostics of the refused ones."""
    variations = [item for item in items if isinstance(item, n.Variation)]
    items = [item for item in items if not isinstance(item, n.Variation)]
    game = _Game(items, replaced, includes, sources)
    if variations:
        for v in sorted(variations, key=lambda v: len(game.reach.get(v.span.path, ()))):
            game.make(v)
    game.flatten()
    return game.items, game.replaced, game.changes, game.diags


def checked(diags: list[Diagnostic], changes: list[Change], tables) -> list[Diagnostic]:
    """After the checker: E0210 for a case whose value is not of its definition's type (an `if`
    joins any two types, so the checker lets it pass), and the hint of an error at a name that a
    step the variant removed or replaced used to make."""
    out = list(diags)
    for c in changes:
        if c.action != "extend_define" or tables is None:
            continue
        value, own = tables.types.get(id(c.decl.value)), tables.types.get(id(c.original.body))
        if value is not None and own is not None and not fits(own, value):
            out.append(Diagnostic("E0210", f"expected {describe(own)}, found {describe(value)}", c.decl.value.span,
                                  f"this is {describe(value)}", f"the definition `{c.subject}` gives "
                                  f"{describe(own)} ({c.original.span.short}): a case added with `extend define` "
                                  "gives a value of the same type"))
    made = {}
    for c in changes:
        if c.action in ("remove_step", "replace_step"):
            for s in c.original.body:
                if isinstance(s, n.Let):
                    made.setdefault(s.name, c)
    if made:
        out = [_blamed(d, made) for d in out]
    return out


def _blamed(diag: Diagnostic, made: dict) -> Diagnostic:
    if diag.code != "E0201" or diag.span is None:
        return diag
    name = next((name for name, c in made.items() if diag.message == f"unknown name `{name}`"), None)
    if name is None:
        return diag
    c = made[name]
    did = "removes" if c.action == "remove_step" else "replaces, and its replacement does not make it"
    return attrs.evolve(diag, hint=f"`{name}` was made by the step `{c.subject}` ({c.original.span.short}), which "
                        f"{c.decl.span.short} {did}: make `{name}` in the variant, or change the statements that "
                        "read it too")


def flattened(items: list) -> list:
    """The items with every step replaced by its statements (for tools that read a script whose
    changes were not made, because it has errors)."""
    return [_flatten(item) if isinstance(item, _STATEMENT_DECLS) else item
            for item in items if not isinstance(item, n.Variation)]


class _Game:
    def __init__(self, items, replaced, includes, sources):
        self.items, self.replaced, self.sources = list(items), list(replaced), sources
        self.reach = {path: reach_of(path, includes) for path in sources}
        self.changes: list[Change] = []
        self.diags: list[Diagnostic] = []
        self.made: dict[tuple, n.Variation] = {}  # (holder, step) -> the change of that step

    # ---- the declarations as they stand
    def _find(self, name: str, kinds) -> object | None:
        return next((i for i in self.items if isinstance(i, kinds) and getattr(i, "name", None) == name), None)

    def _swap(self, old, new, position: int | None = None):
        """`new` takes `old`'s place (and its Replacement's, if it is one)."""
        self.items[self.items.index(old)] = new
        self.replaced = [attrs.evolve(r, decl=new) if r.decl is old else r for r in self.replaced]

    # ---- one change
    def make(self, v: n.Variation):
        here = v.span.path
        if not self.reach.get(here):
            return self._refuse("E0610", f"`{_word(v)}` in a file that includes no other", v, "nothing to change",
                                f"`{_word(v)}` changes a declaration of an included file: `include` the original "
                                "first; in the file that declares it, change it where it is written")
        if v.action == "extend_define":
            return self._extend(v)
        if v.action == "insert_phase":
            return self._insert_phase(v)
        return self._step(v)

    def _included(self, v: n.Variation, decl, what: str, span: Span) -> bool:
        """E0612 for a declaration of the variant's own file, E0611 for one of a file it does not include."""
        here = v.span.path
        if decl.span.path == here:
            self._refuse("E0612", f"{what} is declared in this same file", v, "its own declaration",
                         f"it is declared at line {decl.span.line}: change it there (`{_word(v)}` changes a "
                         "declaration of an included file)", span)
            return False
        if decl.span.path not in self.reach[here]:
            self._refuse("E0611", f"no file this one includes declares {what}", v, "nothing to change",
                         f"it is declared at {decl.span.short}, which this file does not include: a file changes "
                         "only what it includes", span)
            return False
        return True

    def _holder(self, v: n.Variation, kinds=_HOLDERS, word="phase or procedure"):
        holder = self._find(v.phase, kinds)
        if holder is None:
            known = [i.name for i in self.items if isinstance(i, kinds) and i.span.path in self.reach[v.span.path]]
            self._refuse("E0611", f"no included file declares a {word} `{v.phase}`", v, "nothing to change",
                         did_you_mean(v.phase, known) or f"the included files declare no {word} of that name",
                         self._first_name_span(v))
            return None
        kind = "phase" if isinstance(holder, n.PhaseDecl) else "procedure"
        return holder if self._included(v, holder, f"the {kind} `{v.phase}`", self._first_name_span(v)) else None

    def _step(self, v: n.Variation):
        holder = self._holder(v)
        if holder is None:
            return
        kind = "phase" if isinstance(holder, n.PhaseDecl) else "procedure"
        steps = _steps(holder.body)
        found = steps.get(v.step)
        if found is None:
            earlier = self.made.get((v.phase, v.step))
            hint = (f"it is removed at {earlier.span.short}" if earlier is not None and earlier.action == "remove_step"
                    else did_you_mean(v.step, list(steps)) if steps
                    else f"the {kind} names no steps: name the statements a variant may change in the original "
                         f"(`step NAME {{ ... }}`), or replace the whole {kind}")
            if steps and not hint:
                hint = f"its steps are {', '.join(f'`{s}`' for s in steps)}"
            return self._refuse("E0611", f"the {kind} `{v.phase}` has no step `{v.step}`", v, "no such step", hint,
                                v.path_span)
        if v.action in ("replace_step", "remove_step"):
            earlier = self.made.get((v.phase, v.step))
            if earlier is not None and (earlier.span.path == v.span.path
                                        or earlier.span.path not in self.reach[v.span.path]):
                return self._refuse("E0613", f"the step `{v.phase}.{v.step}` is changed twice", v, "changed again here",
                                    f"it is changed at {earlier.span.short} too; a game has one version of each step"
                                    + (": keep one" if earlier.span.path == v.span.path else
                                       ": keep one, or let one of the two files include the other"), v.path_span)
            self.made[(v.phase, v.step)] = v
        if v.action == "replace_step":
            new = attrs.evolve(found, body=v.body)
            body = _rebuilt(holder.body, found, (new,))
        elif v.action == "remove_step":
            body = _rebuilt(holder.body, found, ())
        else:
            if v.name in steps:
                return self._refuse("E0617", f"the {kind} `{v.phase}` already has a step `{v.name}`", v,
                                    "name taken", f"it is at {steps[v.name].span.short}: give the new step "
                                    f"another name, or `replace step {v.phase}.{v.name} {{ ... }}`", v.name_span)
            new = n.Step(v.span, v.name, v.name_span, v.body)
            body = _rebuilt(holder.body, found, (new, found) if v.place == "before" else (found, new))
        self._swap(holder, attrs.evolve(holder, body=body))
        self.changes.append(Change(v.action, f"{v.phase}.{v.step}", v.name, v.place, found, v))

    def _insert_phase(self, v: n.Variation):
        anchor = self._holder(v, n.PhaseDecl, "phase")
        if anchor is None:
            return
        if v.place == "before":
            goes_on = v.phase
            # every way into the anchor now leads into the new phase first
            for item in list(self.items):
                if isinstance(item, _STATEMENT_DECLS):
                    new = _redirect(item, v.phase, v.name)
                    if new is not item:
                        self._swap(item, new)
            at = self.items.index(self._find(v.phase, n.PhaseDecl))
        else:
            targets = sorted({s.phase for s in _nodes(anchor) if isinstance(s, n.Next)})
            if len(targets) != 1:
                went = (f"goes on to {', '.join(f'`{t}`' for t in targets[:-1])} or `{targets[-1]}`" if targets
                        else "never goes on to another phase (it only ends the game)")
                return self._refuse("E0618", f"the phase `{v.phase}` {went}", v, "no one phase after it",
                                    "a phase put after another runs where that one goes on; with "
                                    + ("several" if targets else "no") + " `next`s to follow, put it before the "
                                    "phase it should lead into: `insert phase "
                                    f"{v.name} before {targets[0] if targets else 'PHASE'} {{ ... }}`", v.path_span)
            goes_on = targets[0]
            self._swap(anchor, _redirect(anchor, goes_on, v.name, inside=True))
            at = self.items.index(self._find(v.phase, n.PhaseDecl)) + 1
        body = v.body if terminates(v.body) else v.body + (n.Next(v.span, goes_on),)
        self.items.insert(at, n.PhaseDecl(v.span, v.name, body))
        self.changes.append(Change("insert_phase", v.phase, v.name, v.place, anchor, v))

    def _extend(self, v: n.Variation):
        here = v.span.path
        current = self._find(v.name, (n.DefineDecl,))
        if current is None:
            other = next((i for i in self.items if getattr(i, "name", None) == v.name
                          and not isinstance(i, (n.MeasureDecl, n.ReactionDecl, n.LimitDecl, n.AttributeDecl))), None)
            if other is not None and other.span.path in self.reach[here]:
                word = type(other).__name__.removesuffix("Decl").lower().replace("proc", "procedure")
                return self._refuse("E0614", f"`{v.name}` is a{'n' if word[0] in 'aeiou' else ''} {word} "
                                    f"({other.span.short}), not a definition", v, "another kind",
                                    f"`extend define` adds a case to a `define`; write `replace {word} {v.name} ...` "
                                    "to change it", v.name_span)
            known = [i.name for i in self.items if isinstance(i, n.DefineDecl) and i.span.path in self.reach[here]]
            return self._refuse("E0611", f"no included file declares a definition `{v.name}`", v,
                                "nothing to extend", did_you_mean(v.name, known)
                                or "no definition of that name is included: write it as a `define`", v.name_span)
        if not self._included(v, current, f"the definition `{v.name}`", v.name_span):
            return
        if signature(v.params, True) != signature(current.params, True):
            return self._refuse("E0615", f"the case added to definition `{v.name}` takes {params_text(v.params)}; "
                                f"the definition takes {params_text(current.params)}", v, "other parameters",
                                "an added case keeps the parameters' number, types and names, since its condition "
                                f"and value are read beside the definition's own ({current.span.short})",
                                v.name_span)
        body = n.IfExpr(Span(here, v.when.span.line, v.when.span.column, v.value.span.end_line,
                             v.value.span.end_column), v.when, v.value, current.body)
        new = attrs.evolve(current, body=body)
        if not any(r.decl is current for r in self.replaced):
            self.replaced.append(Replacement("definition", v.name, current, new, v.keyword_span))
        self._swap(current, new)
        self.changes.append(Change("extend_define", v.name, None, None, current, v))

    # ---- the end: no steps left
    def flatten(self):
        for item in list(self.items):
            if isinstance(item, _STATEMENT_DECLS):
                self._unique_steps(item)
                new = _flatten(item)
                if new is not item:
                    self._swap(item, new)

    def _unique_steps(self, holder):
        seen: dict[str, n.Step] = {}
        for s in _nodes(holder):
            if isinstance(s, n.Step):
                if s.name in seen:
                    kind = "phase" if isinstance(holder, n.PhaseDecl) else "procedure"
                    first, second = sorted((seen[s.name], s), key=lambda x: (x.span.line, x.span.column))
                    self.diags.append(Diagnostic("E0617", f"two steps named `{s.name}` in {kind} `{holder.name}`",
                                                 second.name_span, "named again",
                                                 f"the first is at {first.span.short}: a variant names a step by "
                                                 f"its {kind} and its name (`{holder.name}.{s.name}`), so give "
                                                 "each step of a phase its own name"))
                seen.setdefault(s.name, s)

    # ---- reporting
    def _first_name_span(self, v: n.Variation) -> Span:
        """The `phase` of `phase.step` (or the phase an inserted phase is placed beside)."""
        p = v.path_span
        return Span(p.path, p.line, p.column, p.line, p.column + len(v.phase))

    def _refuse(self, code, message, v: n.Variation, label, hint, span: Span | None = None):
        self.diags.append(Diagnostic(code, message, span or v.keyword_span, label, hint))
        return None


def _word(v: n.Variation) -> str:
    return {"replace_step": "replace step", "remove_step": "remove step", "insert_step": "insert step",
            "insert_phase": "insert phase", "extend_define": "extend define"}[v.action]


def _steps(body) -> dict:
    """Every step in these statements (nested ones too), by name; the first of a name."""
    found: dict[str, n.Step] = {}
    for s in body:
        for x in _nodes(s):
            if isinstance(x, n.Step):
                found.setdefault(x.name, x)
    return found


def _nodes(x):
    """Every syntax node inside `x`, `x` included, at any depth (the bodies of `if` branches too)."""
    stack = [x]
    while stack:
        y = stack.pop()
        if isinstance(y, (tuple, list)):
            stack.extend(y)
        elif attrs.has(type(y)) and not isinstance(y, Span):
            yield y
            stack.extend(getattr(y, f.name) for f in attrs.fields(type(y)))


def _rebuilt(x, old, new: tuple):
    """`x` with the statement `old` (found by identity, at any depth) replaced by the statements `new`."""
    if isinstance(x, tuple):
        out, changed = [], False
        for item in x:
            if item is old:
                out.extend(new)
                changed = True
                continue
            y = _rebuilt(item, old, new)
            changed = changed or y is not item
            out.append(y)
        return tuple(out) if changed else x
    if attrs.has(type(x)) and not isinstance(x, Span):
        updates = {}
        for f in attrs.fields(type(x)):
            value = getattr(x, f.name)
            if isinstance(value, tuple) or (attrs.has(type(value)) and not isinstance(value, Span)):
                y = _rebuilt(value, old, new)
                if y is not value:
                    updates[f.name] = y
        return attrs.evolve(x, **updates) if updates else x
    return x


def _flatten(x):
    """`x` with every step replaced by its statements."""
    if isinstance(x, tuple):
        out, changed = [], False
        for item in x:
            if isinstance(item, n.Step):
                out.extend(_flatten(item.body))
                changed = True
                continue
            y = _flatten(item)
            changed = changed or y is not item
            out.append(y)
        return tuple(out) if changed else x
    if attrs.has(type(x)) and not isinstance(x, Span):
        updates = {}
        for f in attrs.fields(type(x)):
            value = getattr(x, f.name)
            if isinstance(value, tuple) or (attrs.has(type(value)) and not isinstance(value, Span)):
                y = _flatten(value)
                if y is not value:
                    updates[f.name] = y
        return attrs.evolve(x, **updates) if updates else x
    return x


def _redirect(x, old: str, new: str, inside: bool = False):
    """`x` with every `next old` made `next new`; a phase named `new` is left alone (its own
    `next old` goes on to the phase it was put before).  `inside`: `x` is the phase whose way on
    is redirected."""
    if isinstance(x, n.PhaseDecl) and x.name == new and not inside:
        return x
    if isinstance(x, n.Next):
        return attrs.evolve(x, phase=new) if x.phase == old else x
    if isinstance(x, tuple):
        out = tuple(_redirect(item, old, new, True) for item in x)
        return out if any(a is not b for a, b in zip(out, x)) else x
    if attrs.has(type(x)) and not isinstance(x, Span):
        updates = {}
        for f in attrs.fields(type(x)):
            value = getattr(x, f.name)
            if isinstance(value, tuple) or (attrs.has(type(value)) and not isinstance(value, Span)):
                y = _redirect(value, old, new, True)
                if y is not value:
                    updates[f.name] = y
        return attrs.evolve(x, **updates) if updates else x
    return x
