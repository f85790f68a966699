"""What a variant changes, for its rulebook: the original's notes, then "What this variant
changes" rule by rule (issue 38, item 4).

A variant's rulebook is the game as the variant plays it; this adds what a reader who knows the
original needs: the original's own notes (how it reads its seed), and each change in a sentence
with the text as written in the variant and in the original, from the replacements and the
finer changes the loader made (replacing.Replacement, variation.Change).  The rulebook calls
`variant_sections` once; everything here reads the checked tables and the files' texts.
"""

from __future__ import annotations

import os

from cardgame.interpreter.language import nodes as n

# What a variant may add of its own, as the tables hold it: (table, the word for it).
_ADDED = (("options", "option"), ("zones", "zone"), ("vars", "variable"), ("defines", "definition"),
          ("rules", "rule"), ("procs", "procedure"), ("phases", "phase"), ("events", "event"),
          ("measures", "measure"))


def variant_sections(tables, sources: dict, path: str) -> list[str]:
    """Markdown lines: the original's notes, then what the variant changes; none for a script
    that changes nothing it includes."""
    made = sorted(tables.replacements.values(), key=lambda r: (r.keyword.path, r.keyword.line, r.keyword.column))
    changes = list(getattr(tables, "variations", ()))
    if not made and not changes:
        return []
    out = []
    originals = []
    for where in [r.original.span.path for r in made] + [c.original.span.path for c in changes]:
        if where not in originals and os.path.abspath(where) != os.path.abspath(path):
            originals.append(where)
    for original in originals:
        notes = opening_notes(sources[original].text) if original in sources else []
        if notes:
            out += [f"## Notes from the original (`{os.path.basename(original)}`)", "", *notes, ""]
    out += ["## What this variant changes", ""]
    text = _Text(sources)
    for r in made:
        out.append(f"- {_replacement(r, text)}")
    for c in changes:
        out.append(f"- {_change(c, text)}")
    added = _added(tables, path, made, {c.name for c in changes if c.action == "insert_phase"})
    if added:
        out.append(f"- It adds {_and(added)}.")
    out.append("")
    return out


def opening_notes(text: str) -> list[str]:
    """The comment at the top of a script, as Markdown paragraphs (blank comment lines part them;
    `- ` items stay items)."""
    lines = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line[1:].strip())
    out, paragraph = [], []
    for line in lines + [""]:
        if not line or line.startswith("- "):
            if paragraph:
                out.append(" ".join(paragraph))
                paragraph = []
            if line:
                paragraph = [line]
            continue
        paragraph.append(line)
    paragraphs = []
    for p in out:
        if paragraphs and p.startswith("- ") and paragraphs[-1].startswith("- "):
            paragraphs[-1] += "\n" + p
        else:
            paragraphs.append(p)
    return [x for p in paragraphs for x in (p, "")][:-1]


class _Text:
    """A node's text as written (its first line, with ` ...` when it goes on)."""

    def __init__(self, sources: dict):
        self.sources = sources

    def __call__(self, node) -> str:
        span = node.span
        source = self.sources.get(span.path)
        if source is None:
            return "..."
        first = source.line(span.line)
        end = span.end_column - 1 if span.end_line == span.line else len(first)
        written = first[span.column - 1:end].strip()
        return written + (" ..." if span.end_line != span.line else "")


def _replacement(r, text) -> str:
    new, old, where = r.decl, r.original, os.path.basename(r.original.span.path)
    if isinstance(new, n.GameDecl):
        return f"It is called *{new.title}* (the original: *{old.title}*)."
    if isinstance(new, n.PlayersDecl):
        return f"It takes {_count(new)} (the original: {_count(old)})."
    if isinstance(new, n.DefineDecl) and isinstance(old, n.DefineDecl):
        return (f"*{new.name}* is `{text(new.body)}` (the original, {where}:{old.span.line}: "
                f"`{text(old.body)}`).")
    if isinstance(new, n.RuleDecl):
        return (f"The rule *{new.name}*: “{new.doc}” (the original's, {where}:{old.span.line}: "
                f"“{old.doc}”).")
    if isinstance(new, (n.PhaseDecl, n.ProcDecl, n.EventDecl, n.ReactionDecl)):
        return (f"The {r.kind} *{new.name}* is written anew (the original's is at {where}:{old.span.line}); "
                "the rules below are the new one's.")
    return f"The {r.described} is `{text(new)}` (the original, {where}:{old.span.line}: `{text(old)}`)."


def _change(c, text) -> str:
    v = c.decl
    if c.action == "replace_step":
        return f"The step *{v.step}* of *{v.phase}* is written anew (the rules below are the new one's)."
    if c.action == "remove_step":
        return f"The step *{v.step}* of *{v.phase}* is left out."
    if c.action == "insert_step":
        return f"A step *{v.name}* is added to *{v.phase}*, {v.place} its step *{v.step}* (see *{v.phase}* below)."
    if c.action == "insert_phase":
        how = (f"every way into *{v.phase}* goes through it first" if v.place == "before"
               else f"*{v.phase}* goes on to it, and it goes on where *{v.phase}* went")
        return f"A phase *{v.name}* is played {v.place} *{v.phase}*: {how}."
    return (f"*{v.name}* has a case added: when `{text(v.when)}`, it is `{text(v.value)}`; otherwise it is as "
            "in the original.")


def _added(tables, path: str, made, inserted: set) -> list[str]:
    """The declarations of the variant's own file that replace nothing (an inserted phase is said apart)."""
    replaced = {id(r.decl) for r in made}
    found = []
    for table, word in _ADDED:
        for name, entry in getattr(tables, table).items():
            decl = entry[0] if isinstance(entry, tuple) else entry
            span = getattr(decl, "span", None)
            if span is not None and os.path.abspath(span.path) == os.path.abspath(path) and id(decl) not in replaced \
                    and not (table == "phases" and name in inserted):
                found.append((span.line, f"the {word} *{name}*"))
    for deck in tables.decks:
        if os.path.abspath(deck.span.path) == os.path.abspath(path):
            found.append((deck.span.line, f"the deck *{deck.name}*"))
    return [what for _, what in sorted(found)]


def _count(p: n.PlayersDecl) -> str:
    count = f"{p.low} players" if p.low == p.high else f"{p.low} to {p.high} players"
    return count + (f" named {', '.join(p.names)}" if p.names else "")


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
