"""The kernel mode of the generator: a whole script as one module of the kernel language
(kernel_llvm), which plays random games from start to end with no Python in between.

It is a third mode of the one generator.  compiler.py shapes the state machine once (the same
operations, labels, decisions and steps for every mode) and asks its generator for each line;
KernelCompiler runs that compiler with KernelGen, whose parts write the kernel's lines:
expressions (kernel_exprs), statements and the control flow's lines (kernel_stmts), decisions'
listings and the game loop (kernel_play).  Every construct's semantics is the Python modes', unit
of work for unit of work; tests/test_compiled.py plays every script both ways from the same seeds.
A construct this mode does not write raises KernelUnsupported: the script plays on the Python
path, and the reason names the construct and its file:line.
"""

from __future__ import annotations

import json
import os
import re

from ..language import limits
from ..language.rng import GAMMA, MIX1, MIX2
from ..language.types import TEXT, ZONE, element, is_record, record_name
from . import kernel_layout as kl
from .compiler import Compiler
from .gen_common import CHANCE_MARK, indent
from .kernel_builtins import KernelBuiltins
from .kernel_exprs import KEnv, KernelExpressions, KernelUnsupported
from .kernel_memo import KernelMemo
from .kernel_play import KernelPlay
from .kernel_stmts import DECIDE, KernelStatements

_LIBRARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernel_lib.py")
_STRING = re.compile(r"\bSTR_(\d+)\b")


class KernelGen(KernelExpressions, KernelBuiltins, KernelMemo, KernelStatements, KernelPlay):
    """The kernel mode of the generator for one compiler (see the module's docstring)."""

    traced = False

    def __init__(self, compiler):
        self.c = compiler
        self._count = 0
        self._strings: dict[str, str] = {}  # text -> its provisional constant, STR_k
        self._tables: dict[str, tuple] = {}  # name -> its items, as K constants
        self._functions: list[str] = []
        self._defines: dict[str, str] = {}
        self._equality: dict[str, str] = {}
        self._places: dict[str, str] = {}
        self._heap: list[str] = []  # the heap's first slots: constant lists' items
        self._lists: dict[tuple, str] = {}
        self._codes: dict[int, str] = {}  # code index -> its function
        self._var_base = None
        self.listings: dict[int, tuple] = {}  # decision index -> (listing function, apply function)
        self.seat_fns: dict[str, tuple] = {}  # "score", "teams" -> (function, frame size, slot)
        self.inits: list = []
        self.measures: list = []
        self._memo: dict = {}  # (definition, constant arguments) -> the function reading its entry (kernel_memo)
        self._kept_reads: list = []  # entry k -> what its definition reads (memo_reads.Reads)
        for symbol in sorted(self.t.symbols):  # every symbol has a number, also an option's value no rule names
            self.string(symbol)

    @property
    def t(self):
        return self.c.t

    @property
    def p(self):
        return self.c.p

    # ---- names, tables, constants
    def tmp(self, prefix="t") -> str:
        self._count += 1
        return f"{prefix}{self._count}"

    def table(self, name: str, items: tuple) -> str:
        found = self._tables.setdefault(name, items)
        assert found == items, name
        return name

    def constant_list(self, items: tuple) -> str:
        """The handle of a constant list, its items in the heap's first slots."""
        found = self._lists.get(items)
        if found is None:
            base = len(self._heap)
            self._heap.extend(items)
            found = self._lists[items] = str((base << kl.LENGTH_BITS) | len(items))
        return found

    @property
    def shared_zones(self) -> int:
        return self.p.shared_zone_count

    def var_base(self, slot: int) -> int:
        if self._var_base is None:
            rows, at, bases = set(self.p.row_var_slots), 0, []
            for k in range(len(self.p.var_slots)):
                bases.append(at)
                at += self.most_players if k in rows else 1
            self._var_base = bases
        return self._var_base[slot]

    @property
    def most_players(self) -> int:
        return max(1, int(self.t.max_players or 1))

    def card_name_lengths(self) -> str:
        return self.table("CARD_NAME_LENGTH", tuple(str(len(name)) for name in self.p.card_names))

    # ---- texts: a log line's and a prompt's parts are work (gen_runtime.render_text)
    def text_lines(self, pieces) -> list[str]:
        """The lines making a text's `{...}` parts as the Python modes' text_lines do, each
        part's value shown as render_value writes it: refused past the text limit, then
        charged its length.  The text itself is nobody's in a kernel: only its work and its
        faults are kept."""
        lines = []
        for part in pieces:
            if isinstance(part, str):
                continue
            pl, code = self.held(*self.lower_in_frame(part))
            size = self.tmp("w")
            lines += pl + [f"{size} = {self.rendered_length(code, self.typ(part), part.span)}",
                           f"if {size} > MAX_TEXT:", "    bail(FAULT)", f"charge({size})"]
        return lines

    prompt_lines = text_lines

    def render_length_fn(self, typ: str, span) -> str:
        """A function of a zone, list or record value giving how many characters render_value
        writes for it ("none", a zone's name, `[a, b]`, `name(field: value, ...)`, a text in a
        list or record quoted as JSON); past the text limit it stops counting (the part
        faults whatever the rest)."""
        key = ("render", typ)
        name = self._equality.get(key)
        if name is not None:
            return name
        name = self._equality[key] = f"rl_{len(self._equality)}"
        body = ["if v == NONE:", "    return 4"]
        if typ == ZONE:
            shared = tuple(str(len(z)) for z in self.p.shared_names) or ("0",)
            own = tuple(str(len(z)) for z in self.p.per_player_names) or ("0",)
            body += ["if v < SHARED_ZONES:", f"    return {self.table('ZONE_NAME_LENGTH', shared)}[v]",
                     "k = (v - SHARED_ZONES) // S[N]",
                     f"return {self.table('OWN_ZONE_NAME_LENGTH', own)}[k] + 3 + digits((v - SHARED_ZONES) % S[N])"]
            self.function(f"{name}(v)", body)
            return name
        if is_record(typ):
            fields = self.t.record_fields[record_name(typ)]
            total = len(record_name(typ)) + 2 + sum(len(f) + 2 for f, _ in fields) + 2 * max(0, len(fields) - 1)
            body += [f"total = {total}"]
            for i, (_, ft) in enumerate(fields):
                body += [f"x = item(v, {i})", f"total += {self._item_length('x', ft, span)}",
                         "if total > MAX_TEXT:", "    return total"]
        else:
            body += ["n = length(v)", "total = 2 if n == 0 else 2 * n", "for k in range(n):",
                     "    x = item(v, k)", f"    total += {self._item_length('x', element(typ), span)}",
                     "    if total > MAX_TEXT:", "        return total"]
        self.function(f"{name}(v)", body + ["return total"])
        return name

    def _item_length(self, code: str, typ: str, span) -> str:
        """An item's characters inside a list or record: a text quoted (json.dumps)."""
        if typ != TEXT:
            return self.rendered_length(code, typ, span)
        return f"quoted_length({code})"  # QUOTED_LENGTH: made with the strings' numbers in source()

    def function(self, head: str, body: list[str]) -> None:
        body = [line for line in body if line.strip() != CHANCE_MARK]
        self._functions.append(f"def {head}:\n" + "\n".join(indent(body or ["pass"])) + "\n")

    def equality_fn(self, typ: str) -> str:
        """A function comparing two lists (or records) of type `typ` item by item, as tuples compare."""
        name = self._equality.get(typ)
        if name is not None:
            return name
        name = self._equality[typ] = f"eq_{len(self._equality)}"
        fields = [ft for _, ft in self.t.record_fields[record_name(typ)]] if is_record(typ) else None
        x, y, k = "x", "y", "k"
        body = ["if a == b:", "    return 1", "if a == NONE or b == NONE:", "    return 0",
                "if length(a) != length(b):", "    return 0"]
        if fields is None:
            _, same = self.equal(x, y, element(typ), element(typ), None, charged=False)
            body += [f"for {k} in range(length(a)):", f"    {x} = item(a, {k})", f"    {y} = item(b, {k})",
                     f"    if not {same}:", "        return 0"]
        else:
            for i, ft in enumerate(fields):
                _, same = self.equal(f"item(a, {i})", f"item(b, {i})", ft, ft, None, charged=False)
                body += [f"if not {same}:", "    return 0"]
        self.function(f"{name}(a, b)", body + ["return 1"])
        return name

    def place_fn(self, order: str, positions: dict) -> str:
        """A function giving a value's place in the order of `order` (none for none; a value
        with no place there is a fault: gen_runtime.OrderPlaces)."""
        name = self._places.get(order)
        if name is None:
            name = self._places[order] = f"place_{order}"
            body = ["if v == NONE:", "    return NONE"]
            for value, place in positions.items():
                body += [f"if v == {self.value(value)}:", f"    return {place}"]
            self.function(f"{name}(v)", body + ["bail(FAULT)", "return NONE"])
        return name

    # ---- definitions and rules
    def define_fn(self, name: str) -> str:
        """The kernel function of a definition: its parameters as arguments (and its call
        depth first, for one that may call itself)."""
        found = self._defines.get(name)
        if found is not None:
            return found
        define = self.t.defines[name]
        fn = self._defines[name] = f"d_{name}"
        params = [self.t.slots[id(p)] for p in define.params or ()]
        recursive = name in self.t.recursive
        env = KEnv(False, {slot: f"a{slot}" for slot in params}, depth="dd" if recursive else None)
        lines, code = self.lower(define.body, env)
        if recursive:
            lines = [f"if dd > {limits.MAX_DEFINE_DEPTH}:", "    bail(FAULT)"] + lines
        args = (["dd"] if recursive else []) + [f"a{slot}" for slot in params]
        self.function(f"{fn}({', '.join(args)})", lines + [f"return {code}"])
        return fn

    def rule_fn(self, rule):
        """A function of a rule's arguments: 1 when it allows the move (its `when` false, or
        its `require` true), else 0; and its two halves apart, `_when` and `_require`, for a
        listing that computes the `when` once (KernelPlay._candidate)."""
        params = [self.t.slots[id(p)] for p in rule.params]
        env = KEnv(False, {slot: f"a{slot}" for slot in params})
        head = ", ".join(f"a{s}" for s in params)
        name = f"rule_{rule.name}"
        rl, require = self.held(*self.lower(rule.require, env))
        self.function(f"{name}_require({head})",
                      rl + [f"return 1 if {self.truth(require, self.typ(rule.require), rule.span)} else 0"])
        if rule.when is None:
            self.function(f"{name}({head})", [f"return {name}_require({head})"])
            return name
        wl, when = self.held(*self.lower(rule.when, env))
        self.function(f"{name}_when({head})",
                      wl + [f"return 1 if {self.truth(when, self.typ(rule.when), rule.span)} else 0"])
        self.function(f"{name}({head})", [f"if not {name}_when({head}):", "    return 1",
                                          f"return {name}_require({head})"])
        return name

    def expr_fn(self, e):
        """A function of the frame base giving `e`'s value in that frame."""
        lines, code = self.lower(e, KEnv(True))
        name = self.tmp("e_")
        self.function(f"{name}(fb)", lines + [f"return {code}"])
        return name

    seq_fn = expr_fn  # a zone walks as its slot, a list as its handle: the listing reads the binder's type

    def text_fn(self, pieces):
        return None  # prompts and logs are for people: nobody reads a kernel's game

    def seat_text(self, pieces):
        return None

    def enter_frame(self, code, parts):
        pass

    def leave_frame(self):
        pass

    # ---- operations
    def assemble(self, items, code: int):
        """The function of code `code`: a loop over its program counter, each operation's
        lines with `@GOTO pc` (the step charged, on at pc) and `@RETURN` (the step charged, back
        to the run loop) written out."""
        body = ["fb = S[DEPTH] * FS", "while True:", "    pc = FL[fb + 1]"]
        for pc, (kind, payload) in enumerate(items):
            lines = [x for part in payload for x in part] + [f"@GOTO {pc + 1}"] if kind == "simple" else payload(pc)
            body.append(f"    {'if' if pc == 0 else 'elif'} pc == {pc}:")
            if any(line.strip() == CHANCE_MARK for line in lines):  # a game's opening stops before its first draw
                body += ["        if S[PAUSING]:", "            S[PAUSED] = 1", "            return 0"]
            body += indent(self._steps(lines), 2)
        body += ["    else:" if items else "    if True:", "        bail(BOUNDS)", "        return 0"]
        name = self._codes[code] = f"code_{code}"
        self.function(f"{name}()", body)
        return name, frozenset()

    @staticmethod
    def _steps(lines) -> list[str]:
        out = []
        for line in lines:
            text = line.lstrip()
            pad = line[:len(line) - len(text)]
            if text.startswith("@GOTO "):
                out += [f"{pad}FL[fb + 1] = {text.split()[1]}", f"{pad}charge({limits.STEP_COST})", f"{pad}continue"]
            elif text == "@RETURN":
                out += [f"{pad}charge({limits.STEP_COST})", f"{pad}return 0"]
            elif text.startswith(DECIDE) or text.startswith("#@span"):
                continue
            else:
                out.append(line)
        return out

    def playout_enumerator(self, decision):
        return None

    def playout_drawer(self, decision):
        return None

    # ---- the module
    def source(self) -> str:
        """The whole kernel module: constants, tables, the library, the generated functions."""
        ranked = sorted(self._strings)  # texts numbered in their order: `several` lists sort by it
        number = {self._strings[text]: kl.STRINGS + i for i, text in enumerate(ranked)}
        resolve = (lambda code: str(number[code]) if code in number else str(kl.NONE) if code == "NONE" else code)
        scalars = {name: kl.SLOT[name] for name in kl.SCALARS}
        scalars.update({
            "NONE": kl.NONE, "MAX_INT": kl.MAX_INT, "STRINGS": kl.STRINGS, "COMPUTED": kl.COMPUTED,
            "LENGTH_BITS": kl.LENGTH_BITS, "LENGTH_MASK": kl.LENGTH_MASK, "FACE_UP": kl.FACE_UP,
            "MAX_LIST": limits.MAX_LIST_LENGTH, "MAX_TEXT": limits.MAX_TEXT_LENGTH,
            "GAMMA": kl.to_kernel(GAMMA), "MIX1": kl.to_kernel(MIX1), "MIX2": kl.to_kernel(MIX2),
            "NC": max(1, len(self.p.card_names)), "FS": self.frame_size, "MP": self.most_players,
            "SHARED_ZONES": self.shared_zones, "DECIDES": int(bool(self.p.decisions)),
            "MW": self.move_width, "CONST_HEAP": len(self._heap),
        })
        scalars.update({name: code for name, code in kl.BAILS_BY_NAME.items()})
        kept, kept_tables = self.memo_constants(self.shared_zones + len(self.p.per_player_names) * self.most_players)
        scalars.update(kept)
        self._tables.update(kept_tables)
        self.table("STRING_LENGTH", tuple(str(len(text)) for text in ranked) or ("0",))
        self._tables["QUOTED_LENGTH"] = tuple(str(len(json.dumps(text, ensure_ascii=False))) for text in ranked) \
            or ("0",)
        tables = dict(self._tables)
        tables["HEAP_CONSTANTS"] = tuple(resolve(x) for x in self._heap) or ("0",)
        lines = [f"{name} = {value}" for name, value in scalars.items()]
        lines += [f"{name} = ({', '.join(resolve(x) for x in items)},)" if items else f"{name} = ()"
                  for name, items in tables.items()]
        with open(_LIBRARY, encoding="utf-8") as f:
            library = f.read()
        text = "\n".join(lines) + "\n\n" + library + "\n\n" + "\n\n".join(self._functions)
        return _STRING.sub(lambda m: str(number[m.group(0)]), text)

    @staticmethod
    def runs_long(name: str) -> bool:
        """Whether a call of `name` may run long after a fault (kernel_llvm.translate's `checked`):
        a definition (they may call themselves, or call each other a power of two times) and the
        library's recursive walk.  Every other function's loops end, and each loop's top reads
        the status."""
        return name.startswith(("d_", "kept_", "call_")) or name == "walk_choices"

    def strings(self) -> list[str]:
        """The script's texts and symbols in the order the kernel numbers them."""
        return sorted(self._strings)


class KernelCompiler(Compiler):
    """compiler.py's Compiler with the kernel mode's generator: the same machine, in kernel lines."""

    def __init__(self, tables):
        super().__init__(tables)
        self.gen = KernelGen(self)

    def _seat_fn(self, decl):
        name = self.expr(decl.expr)
        self.gen.seat_fns["score" if decl is self.t.score else "teams"] = \
            (name, self.t.frames[id(decl)], self.t.slots[id(decl)])
        return name

    def compile(self):
        program = super().compile()
        program.plan_moves()
        gen, t = self.gen, self.t
        gen.inits = [(slot, fn, rows) for slot, fn, rows in program.var_inits]
        if t.winners is not None and t.winners.expr is not None:
            gen.seat_fns["winners"] = (self.expr(t.winners.expr), t.frames[id(t.winners)], None)
        gen.measures = [(self.expr(decl.expr), max(1, t.frames[id(decl)]), t.slots.get(id(decl)), decl.var is not None)
                        for decl in t.measures.values()]
        gen.play_functions()
        return program


def kernel_source(tables) -> tuple:
    """(kernel module text, the Program its compiler made, its generator); KernelUnsupported
    when the script uses a construct the kernel mode does not write."""
    for measure in tables.measures.values():
        if getattr(measure, "at", None) is not None:  # read at each end of a phase: the kernel reads at the end only
            raise KernelUnsupported("a measure taken at a point of the flow", getattr(measure, "span", None))
    if tables.seat_names:  # a text's seats are written P0.. by the kernel, and charged by their length
        raise KernelUnsupported("seat names (`players N named ...`)")
    compiler = KernelCompiler(tables)
    program = compiler.compile()
    return compiler.gen.source(), program, compiler.gen


__all__ = ["KernelUnsupported", "kernel_source", "KernelCompiler"]
