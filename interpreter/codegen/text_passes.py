"""Passes over the lines of a generated function once it is written, each a pure function
from lines to lines that keeps what the code does and makes it cheaper to run: the state's
lists read once on their way, augmented assignments to numbers written out, an enumerator's
reads of the state taken into locals, a playout listing's count of tries, unused marks and
measures, a playout's blocks for a tracer left out, program-counter writes nobody sees.

Separate from the generator (codegen and its gen_* modules) because they read text, not the
script: like flow.py, slot_locals.py, work_locals.py and unseen_pcs.py, each can be read and
tested on lines alone.

The passes, in the order they run (traced code, the reference, gets only those marked *):

An operation (gen_assembly.Gen._fused), on the lines _expand wrote:
1. untraced* (a playout's only): its blocks for a tracer left out first, so that the passes
   after it see only the lines a playout runs (a tracer's block, which no chain of step
   charges can hold, would end one in 2).
2. flow.merge_step_charges: chains of step charges as one.  It reads the charges as _step
   writes them (`fr[1] = pc`, `st.work += STEP_COST`, the check).  A playout's operation gets
   flow.deferred_step_charges instead: its constant charges added up and checked only where
   it hands the position on, a crossing raising Redo.
3. unseen_pcs.unseen_pcs_dropped: `fr[1] = pc` writes every path overwrites, on the charges as
   2 leaves them: a dropped write is copied into the over-limit branches met on the way
   (`_over_budget`, or 2's `_steps_over`, read it).
4. drop_dead_stores*: one `fr[1]` write directly after another; then a loop back to the
   operation's start is wrapped in `while True:`, and a playout's loop whose rounds read the
   state's lists reads them once before it (state_lists_before_loop; 6 drops the reads in it).
   Last, a fast playout's operation keeps its frame slots and program counter in locals
   (frame_locals.frame_in_locals), written to the frame only where something reads it.

Every function Gen.build makes (operations, listings, expressions, rules, texts, kept calls):
5. the CHANCE_MARK lines* (assemble has read them) left out.
6. state_lists_read_once: `zones, loc, vis = ...` once where an earlier read dominates.
7. written_out: `st.work += x`, `L[k] += n`, `vis[c] &= k` as plain assignments.  After 2 and 3,
   which match `st.work += n` as written; before 8, which knows a write of a slot only as
   `L[k] = ...` (given `L[k] += 1`, it would change its local `L_k` and leave the frame's slot).
8. slot_locals.slots_in_locals: frame slots and variables read again read from locals.
9. work_locals.held_in_locals, last: the counter and its limit in locals, the body in a
   `try` that writes them back; should that one more block be too many for Python (TooComplex),
   the function is built from the lines of 8 instead.

A listing, before Gen.build (gen_listings): a playout listing's tries, then unused_dropped, then
charged_for_each, then first_charge_stored; every listing's local_reads last (the state it reads, once, into locals).
A definition (gen_defines.Gen.define_fn) is compiled by itself, through written_out only (in
a traced program too: define_fn writes the body untraced, and a call shows its result); in a
fast program, a body not kept in State.memo goes through argument_checked_first before it.
"""

from __future__ import annotations

import ast
import re

from ..language import limits

# A statement moving cards reads the state's lists into locals first.  They are the same lists
# for the whole game (only a new game or a restored one makes others), so where an earlier read
# has surely run (it dominates: every line between is indented at least as deep as it) the read
# is not repeated, and the lines after it use the locals.
STATE_LISTS = "zones, loc, vis = st.zones, st.loc, st.vis"


def state_lists_read_once(lines):
    """The fast code's reads of the state's lists, each done once on its way (see above)."""
    out, read_at = [], None  # the depth of the read in force, if any
    for line in lines:
        depth = len(line) - len(line.lstrip())
        if read_at is not None and depth < read_at:
            read_at = None
        if line.strip() == STATE_LISTS:
            if read_at is not None:
                continue
            read_at = depth
        elif read_at is not None:
            line = line.replace("st.zones[", "zones[").replace("st.loc[", "loc[").replace("st.vis[", "vis[")
        out.append(line)
    return out


def state_lists_before_loop(lines):
    """A playout operation going round its loop (`while True:` first) whose rounds read the
    state's lists: the read once, before the loop, instead of once a round.  The lists are the
    game's for the whole call (only a restore makes others, and Redo restores after the call
    has unwound), and a playout's operation goes round many times a call.  state_lists_read_once
    then drops the reads in the loop."""
    if lines[0] == "while True:" and any(line.strip() == STATE_LISTS for line in lines):
        return [STATE_LISTS] + lines
    return lines


# An augmented assignment to an attribute or an item duplicates its target on the stack (COPY,
# SWAP): `st.work += x` is one instruction more than `st.work = st.work + (x)`, `vis[c] &= k` two
# more than `vis[c] = vis[c] & k`.  Both read the target before evaluating the right side, so
# they are the same statement; only targets that hold a number are rewritten (`+=` on a list
# extends it in place).
_AUGMENTED = re.compile(r"^(\s*)(st\.work (\+)|L\[\d+\] ([-+])(?== \d+$)|(?:st\.)?vis\[\w+\] ([&|]))= (.+)$")
_SIMPLE = re.compile(r"^(?:-?\d+|[\w.]+(?:\[\w+\])?)$")


# a definition's result whose first step is to test an argument for none (`not out[q] and ...`)
_FIRST_TEST = r"^return [(]*(?:not [(]*)*\((st\.vars\[\d+\]\[({args})\]) if \2 is not None else (_fail\(K\d+, S\d+\))\)"


def argument_checked_first(body, args=()):
    """A definition's last line `return EXPR` whose evaluation starts by testing argument `aK`
    (or, written at a call site, one of the argument codes `args`) for none (reading a
    variable's row at it): the test before it, and the same tests of it in EXPR left out.  An
    argument is never written, so once it passed the first test it passes them all, and a
    none fails the first one, as before; so are the tests in EXPR of an argument the lines
    before it test so (a definition written in place inside this one).  (No loop in EXPR: a
    generator's items are evaluated after its source.)"""
    names = "|".join(re.escape(a) for a in args) if args else r"a\d+"
    if " for " in body[-1]:
        return body
    tested = [m.group(1) for line, after in zip(body, body[1:]) if after.startswith("    _fail(")
              and (m := re.match(rf"^if ({names}) is None:$", line))]
    m = re.match(_FIRST_TEST.format(args=names), body[-1])
    head = body[:-1] if m is None else body[:-1] + [f"if {m.group(2)} is None:", f"    {m.group(3)}"]
    last = body[-1]
    for arg in set(tested + ([m.group(2)] if m else [])):
        arg = re.escape(arg)
        last = re.sub(rf"\((st\.vars\[\d+\]\[{arg}\]) if {arg} is not None else _fail\(K\d+, S\d+\)\)", r"(\1)", last)
    return head + [last]


def written_out(lines):
    """The fast code's augmented assignments to numbers, each as the plain assignment."""
    out = []
    for line in lines:
        m = _AUGMENTED.match(line)
        if m is None:
            out.append(line)
            continue
        pad, target, op, value = m.group(1), m.group(2)[:-2], m.group(3) or m.group(4) or m.group(5), m.group(6)
        out.append(f"{pad}{target} = {target} {op} {value if _SIMPLE.match(value) else f'({value})'}")
    return out


_STATE_READ = re.compile(r"st\.vars\[(\d+)\](?!\s*=[^=])|st\.zones(?![\[\w]*\s*=[^=])")


def local_reads(lines):
    """An enumerator changes nothing, so the variables and zones it reads are read once, into
    locals, at its start (`st.vars[k]` -> `V_k`, `st.zones` -> `Z_`)."""
    found, out = set(), []
    for line in lines:
        def local(m):
            name = f"V_{m.group(1)}" if m.group(1) else "Z_"
            found.add((name, m.group(0)))
            return name
        out.append(_STATE_READ.sub(local, line))
    return [f"{name} = {read}" for name, read in sorted(found)] + out


def tries(lines, static: int):
    """A playout listing's count of the moves tried, against the decision's cap.  Alternatives
    without binders add one each, known when it is written (`static`); the count only grows, so
    it passes the cap iff the final count does, and a listing that gives up at a domain's check
    instead of at the end gives the same answer (None).  With one domain counted, outside any
    loop, the count is that domain's length.  A zone's cards are counted as the whole deck:
    a listing that gives up for a count past the cap that is not so is only listed again by
    the public path, the exact way."""
    adds = [i for i, line in enumerate(lines) if line.lstrip().startswith("tried += ")]
    if len(adds) > 1 or adds and _inside_loop(lines, adds[0]):
        return [f"tried = {static}" if line == "tried = 0" else line for line in lines]
    lines = [line for line in lines if line != "tried = 0"]
    if not adds:
        return (["return None"] if static > limits.MAX_MOVES_PER_DECISION else []) + lines
    i, = (i for i, line in enumerate(lines) if line.lstrip().startswith("tried += "))
    pad, counted = lines[i][:len(lines[i]) - len(lines[i].lstrip())], lines[i].lstrip()[len("tried += "):]
    assert lines[i + 1] == pad + "if tried > _limits.MAX_MOVES_PER_DECISION:"
    return lines[:i] + [f"{pad}if {counted} > {limits.MAX_MOVES_PER_DECISION - static}:"] + lines[i + 2:]


def _inside_loop(lines, i: int) -> bool:
    depth = len(lines[i]) - len(lines[i].lstrip())
    for line in reversed(lines[:i]):
        d = len(line) - len(line.lstrip())
        if d < depth:
            if line.lstrip().startswith(("for ", "while ")):
                return True
            depth = d
    return False


def unused_dropped(lines):
    """Without a range standing as its numbers, a playout listing needs no `blocks`/`extra`;
    a candidate-independent value computed before the candidates needs no `_UNSET` mark."""
    text = "\n".join(lines)
    if "blocks.append" not in text:
        lines = [line for line in lines if line not in ("extra = 0", "blocks = None", "if blocks is not None:",
                                                         "    return _Blocks(out, blocks, extra, st)")]
    return [line for line in lines if not (line.endswith(" = _UNSET") and not _unset_read(line, text))]


def _unset_read(line: str, text: str) -> bool:
    """Whether the name a line marks `_UNSET` is tested against the mark (`is _UNSET`, or a loop
    variable's write-back `is not _UNSET`, which must see the mark when the loop ran no round)."""
    name = line.split(" = ")[0].strip()
    return f"{name} is _UNSET" in text or f"{name} is not _UNSET" in text


_MEASURED = re.compile(r"^(?P<pad>\s*)(?P<hw>hw\d+) = st\.work - (?P<t>t\d+)$")


def charged_for_each(lines):
    """A playout listing's work of a `when` measured once and charged for the other candidates
    (_rule_passes: `hw = st.work - t`, `st.work += hw * (len(c) - 1)`) in one line where
    nothing else reads the measure: `st.work = t + (st.work - t) * len(c)`, the same number."""
    text = "\n".join(lines)
    out, skip = [], False
    for i, line in enumerate(lines):
        if skip:
            skip = False
            continue
        m = _MEASURED.match(line)
        if m and i + 1 < len(lines):
            pad, hw, t = m["pad"], m["hw"], m["t"]
            after = lines[i + 1]
            if after.startswith(f"{pad}st.work += {hw} * (len(") and after.endswith(") - 1)") and \
                    len(re.findall(rf"\b{hw}\b", text)) == 2:
                c = after[len(f"{pad}st.work += {hw} * (len("):-len(") - 1)")]
                out.append(f"{pad}st.work = {t} + (st.work - {t}) * len({c})")
                skip = True
                continue
        out.append(line)
    return out


_ADDED = re.compile(r"^st\.work \+= (?P<units>.+)$")
_HANDS_ON = re.compile(r"\bst\b(?!\.(?:zones|vars|n)\b(?!\())")  # anything of the state but a read of its data


def first_charge_stored(lines):
    """A playout listing's `st.work = 0` and its first charge (`st.work += X`) as one store,
    `st.work = X`, where only top-level lines that read nothing of the work and hand the state
    to nothing come between.  A fault between leaves the count as it was, which nobody reads:
    a listing that faults is listed again the exact way (which zeroes it), or the decision
    drawn in place gives up and puts the stretch's count back."""
    if not lines or lines[0] != "st.work = 0":
        return lines
    for i, line in enumerate(lines[1:], 1):
        m = _ADDED.match(line)
        if m:
            return lines[1:i] + [f"st.work = {m['units']}"] + lines[i + 1:]
        if line[:1].isspace() or line.endswith(":") or _HANDS_ON.search(line):
            return lines
    return lines


def untraced(lines):
    """A playout's lines without the blocks written for a tracer (`if st.tracer is not None:`
    and what is indented under it; of `if st.tracer is None: A else: B`, A alone):
    playout.play_random leaves a game with a tracer to the public path.  A block left empty by
    it gets a `pass`."""
    lines = _untraced_branches(lines)
    out, skip = [], None
    for line in lines:
        depth = len(line) - len(line.lstrip())
        if skip is not None:
            if depth > skip:
                continue
            assert not line.lstrip().startswith(("else:", "elif ")), "a tracer's block has no else"
            skip = None
        if line.lstrip() == "if st.tracer is not None:":
            skip = depth
            continue
        out.append(line)
    kept = []
    for i, line in enumerate(out):
        kept.append(line)
        depth = len(line) - len(line.lstrip())
        if line.endswith(":") and (i + 1 == len(out) or len(out[i + 1]) - len(out[i + 1].lstrip()) <= depth):
            kept.append(line[:depth] + "    pass")
    return kept


def _untraced_branches(lines):
    """`if st.tracer is None: A else: B` (a statement asking once whether a tracer listens) as
    A; `if st.tracer is None and TEST:` as `if TEST:`."""
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        if line.strip() != "if st.tracer is None:":
            out.append(line.replace("if st.tracer is None and ", "if ", 1))
            i += 1
            continue
        depth = len(line) - len(line.lstrip())
        end = _block_end(lines, i + 1, depth)
        out.extend(_untraced_branches([x[:depth] + x[depth + 4:] for x in lines[i + 1:end]]))
        if end < len(lines) and lines[end] == line[:depth] + "else:":
            end = _block_end(lines, end + 1, depth)
        i = end
    return out


def _block_end(lines, start, depth):
    """The index of the first line from `start` indented no deeper than `depth`."""
    while start < len(lines) and len(lines[start]) - len(lines[start].lstrip()) > depth:
        start += 1
    return start


def drop_dead_stores(lines):
    """`fr[1] = a` directly followed by `fr[1] = b` at the same depth: the first is never seen."""
    out = []
    for line in lines:
        if out and line.lstrip().startswith("fr[1] = ") and out[-1].lstrip().startswith("fr[1] = ") \
                and len(line) - len(line.lstrip()) == len(out[-1]) - len(out[-1].lstrip()):
            out[-1] = line
        else:
            out.append(line)
    return out


# A playout listing's value shared between uses (gen_listings.Gen._shared_call): each use reads
# `(dc if dc is not _UNSET else (dc := CALL))`.  Where one use surely runs before the others (a
# line of the function's own level, evaluating that use whatever the values), the later ones
# need no test: they read `dc`; and where that use is the first, it is `(dc := CALL)`, and the
# `dc = _UNSET` before it goes.
_SHARED_USE = "({0} if {0} is not _UNSET else ({0} := "
_HEADER = re.compile(r"^(?:if|for|while) .*:$")


def shared_values_read_plain(lines: list[str], names) -> list[str]:
    """`lines` (a function's body, its own level unindented) with the uses of each shared value
    in `names` after its first sure computation reading it directly (see above)."""
    for name in names:
        lines = _read_plain(lines, name)
    return lines


def _read_plain(lines: list[str], name: str) -> list[str]:
    use = _SHARED_USE.format(name)
    first = next((i for i, line in enumerate(lines) if not line[:1].isspace() and use in line
                  and _surely_evaluated(line, line.find(use))), None)
    if first is None:
        return lines
    line = lines[first]
    at = line.find(use)
    out = lines[:first]
    word = re.compile(rf"\b{name}\b")
    if not any(word.search(x) for x in out if x != f"{name} = _UNSET"):  # the first use: it computes the value
        end = _matching(line, at)
        line = line[:at] + f"({name} := " + line[at + len(use):end - 1] + line[end:]
        out = [x for x in out if x != f"{name} = _UNSET"]
    out.append(line)
    for x in lines[first + 1:]:
        while (k := x.find(use)) >= 0:
            x = x[:k] + name + x[_matching(x, k):]
        out.append(x)
    return out


def _matching(line: str, start: int) -> int:
    """The index after the parenthesis closing the one at `start`."""
    depth = 0
    for k in range(start, len(line)):
        c = line[k]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return k + 1
    raise ValueError(line)


def _surely_evaluated(line: str, at: int) -> bool:
    """Whether the expression starting at `at` in the statement `line` is evaluated whenever the
    statement runs (not behind `and`, `or`, a conditional expression's branch, a comparison after
    the first or a comprehension)."""
    text = line + "\n    pass" if _HEADER.match(line) else line
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return False
    stmt = tree.body[0]
    offset = len(line[:at].encode()) + 1  # the node starts inside its parenthesis
    target = next((node for node in ast.walk(stmt) if isinstance(node, ast.IfExp) and node.lineno == 1
                   and node.col_offset == offset), None)
    if target is None:
        return False
    parents = {id(child): node for node in ast.walk(stmt) for child in ast.iter_child_nodes(node)}
    node = target
    while node is not stmt:
        parent = parents[id(node)]
        if isinstance(parent, ast.BoolOp) and node is not parent.values[0]:
            return False
        if isinstance(parent, ast.IfExp) and node is not parent.test:
            return False
        if isinstance(parent, ast.Compare) and node is not parent.left and node is not parent.comparators[0]:
            return False
        if isinstance(parent, (ast.comprehension, ast.Lambda, ast.ListComp, ast.SetComp, ast.GeneratorExp,
                               ast.DictComp)):
            return False
        if isinstance(parent, (ast.If, ast.While)) and node is not parent.test:
            return False
        if isinstance(parent, ast.For) and node is not parent.iter:
            return False
        node = parent
    return isinstance(stmt, (ast.Assign, ast.Expr, ast.If, ast.For, ast.While, ast.Return, ast.AugAssign))
