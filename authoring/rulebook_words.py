"""Expressions of a checked script in words, and what the options chosen decide of them: the
reading both rulebooks share (`cardgame rules` for players and `--detailed` for designers).

One entry per construct of interpreter/nodes.py; a construct without an entry is quoted as code,
so a new construct of the language shows up verbatim until it gets words of its own.
"""

from __future__ import annotations

from cardgame.interpreter.language import nodes as n

from .flow import Script

VISIBLE = {"public": "everyone", "owner": "its owner only", "team": "its owner and their partners",
           "others": "every player but its owner", "hidden": "nobody"}

# Built-in functions in words; {0}, {1} are the arguments.
BUILTIN_WORDS = {
    "count": "the number of {0}", "empty": "{0} is empty", "sum": "the sum of {0}",
    "top": "the top card of {0}", "bottom": "the bottom card of {0}", "cards": "the cards of {0}",
    "first": "the first of {0}", "last": "the last of {0}", "reverse": "{0} in reverse order",
    "unique": "each of {0} once",
    "sorted": "{0} in increasing order", "range": "the numbers from {0} to {1}",
    "index": "the position of {1} in {0} (from 0)", "abs": "the size of {0}", "seat": "seat {0}",
    "number": "the seat number of {0}", "left_of": "the player to the left of {0}",
    "right_of": "the player to the right of {0}", "players_from": "the players in turn from {0}",
    "owner": "the owner of {0}", "zone_of": "the zone holding {0}", "face_up": "{0} is face up",
    "random": "an item of {0} drawn at random",
    "team": "the team of {0}", "members": "the players of {0}", "partners": "the partners of {0}",
    "partner": "the partner of {0}", "place": "the place of {0} in its order (from 0)",
    "subsets": "every choice of {1} of {0}",
    "disjoint_choices": "every choice of {0} that share no card",
}
BUILTIN_WORDS_2 = {"top": "the top {1} cards of {0}", "bottom": "the bottom {1} cards of {0}",
                   "first": "the first {1} of {0}", "last": "the last {1} of {0}",
                   "random": "a number from {0} to {1} drawn at random"}
COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
           ">=": "is at least", "in": "is in", "notin": "is not in"}
FIXED_OPS = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
             "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
             "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}
UNKNOWN = object()  # what `Words.fixed` says of a value the options chosen do not decide
# (left operator, operator) that read alike without brackets: `a + b - c` is `(a + b) - c`.
_CHAINS = {("+", "+"), ("+", "-"), ("-", "+"), ("-", "-"), ("*", "*")}
QUANT = {"any": "there is some {v} in {s} where {c}", "all": "for every {v} in {s}, {c}",
         "no": "there is no {v} in {s} where {c}", "count": "the number of {v} in {s} where {c}"}



class Words:
    """`words(e)`: an expression of the script in words, with the options `chosen` written as
    their values and what they decide left out."""

    def __init__(self, script: Script, chosen: dict):
        self.s, self.t, self.chosen = script, script.tables, chosen

    # ---- what the options chosen decide
    def fixed(self, e, seen=()):
        """The value of `e` when the options chosen decide it alone (literals, those options and
        definitions of them, with `not`, `and`, `or`, comparisons and arithmetic), else UNKNOWN."""
        match e:
            case n.Literal(kind="int" | "bool"):
                return e.value
            case n.Name():
                kind = self.t.resolved.get(id(e), ("", ""))[0]
                if kind == "option":
                    return self.chosen.get(e.name, UNKNOWN)
                if kind == "symbol":
                    return e.name
                if kind == "define" and e.name not in seen:
                    return self.fixed(self.t.defines[e.name].body, seen + (e.name,))
            case n.Unary(op="not"):
                value = self.fixed(e.operand, seen)
                return UNKNOWN if value is UNKNOWN else not value
            case n.Binary(op="and" | "or"):
                left, right = self.fixed(e.left, seen), self.fixed(e.right, seen)
                decisive = e.op == "or"  # true decides an `or`, false an `and`, whatever the other side
                if decisive in (left, right) and bool in (type(left), type(right)):
                    return decisive
                return UNKNOWN if UNKNOWN in (left, right) else (left and right if e.op == "and" else left or right)
            case n.Binary() if e.op in FIXED_OPS:
                left, right = self.fixed(e.left, seen), self.fixed(e.right, seen)
                if UNKNOWN not in (left, right) and type(left) is type(right):
                    return FIXED_OPS[e.op](left, right)
            case n.IfExpr():
                cond = self.fixed(e.cond, seen)
                if type(cond) is bool:
                    return self.fixed(e.then if cond else e.orelse, seen)
        return UNKNOWN

    def mentions_chosen(self, e, seen=()) -> bool:
        """Does `e` read an option chosen, itself or through a definition without parameters?"""
        for node in n.walk(e):
            if isinstance(node, n.Name):
                kind = self.t.resolved.get(id(node), ("", ""))[0]
                if kind == "option" and node.name in self.chosen:
                    return True
                if kind == "define" and node.name not in seen and \
                        self.mentions_chosen(self.t.defines[node.name].body, seen + (node.name,)):
                    return True
        return False

    def never_applies(self, rule_name: str) -> bool:
        """Does the rule's `when` fail whatever happens, with the options chosen?"""
        rule = self.t.rules.get(rule_name)
        return rule is not None and rule.when is not None and self.fixed(rule.when) is False

    def branches_left(self, s: n.If) -> list:
        """The branches of an `if` the options chosen leave: [(condition, body)], None for an
        `else` (or a branch the options make sure to be taken, which ends the list)."""
        out = []
        for cond, body in s.branches:
            value = self.fixed(cond)
            if value is True:
                return out + [(None, body)]
            if value is not False:
                out.append((cond, body))
        return out + ([(None, s.orelse)] if s.orelse is not None else [])

    # ---- expressions
    def unfixed(self, e) -> str:
        """`e` in words as the script writes it, every option by its name."""
        chosen, self.chosen = self.chosen, {}
        try:
            return self.words(e)
        finally:
            self.chosen = chosen

    def words(self, e) -> str:
        """`e` in words; with options chosen, each is written as its value and what they decide is
        left out (`false and X` is false, `true and X` is X)."""
        w = self.words
        if self.chosen and self.mentions_chosen(e):
            value = self.fixed(e)
            if value is not UNKNOWN:
                return self.value_words(value)
            match e:
                case n.IfExpr() if type(self.fixed(e.cond)) is bool:
                    return w(e.then if self.fixed(e.cond) else e.orelse)
                case n.Binary(op="and" | "or"):
                    kept = [side for side in (e.left, e.right) if self.fixed(side) is UNKNOWN]
                    if len(kept) == 1:  # the other side is true (of an `and`) or false (of an `or`)
                        return w(kept[0])
        return self.phrase(e)

    def value_words(self, value) -> str:
        """A value the options chosen decide, as a literal or a symbol is written."""
        return value_words(value)

    def phrase(self, e) -> str:
        """`e` in words, construct by construct (`words` has already applied the options chosen)."""
        w, t = self.words, self.t
        match e:
            case n.Literal(kind="text"):
                return f"“{e.value}”"
            case n.Literal():
                return {True: "true", False: "false", None: "none"}.get(e.value, str(e.value)) \
                    if not isinstance(e.value, int) or isinstance(e.value, bool) else str(e.value)
            case n.Name():
                kind = t.resolved.get(id(e), ("", ""))[0]
                if kind in ("symbol", "card"):  # a card literal is written as the card's name
                    return f"`{e.name}`"
                if kind == "constant":
                    return {"players": "the players", "player_count": "the number of players"}.get(e.name, e.name)
                return f"*{e.name}*"
            case n.Attr():
                return f"the {e.name} of {w(e.obj)}"
            case n.Index():
                kind, name = t.resolved.get(id(e.obj), ("", ""))
                if kind == "zones" or kind == "global" and name in t.vars and t.vars[name][0].indexed:
                    return f"{w(e.obj)} of {w(e.index)}"
                return f"item {self._argument(e.index)} of {w(e.obj)}"
            case n.Call() if e.func in t.defines:
                return f"*{e.func}*({', '.join(w(a) for a in e.args)})"
            case n.Call():
                table = BUILTIN_WORDS_2 if len(e.args) == 2 and e.func in BUILTIN_WORDS_2 else BUILTIN_WORDS
                if e.func in ("max", "min") and len(e.args) == 2:
                    return f"the {'larger' if e.func == 'max' else 'smaller'} of {w(e.args[0])} and {w(e.args[1])}"
                if e.func in ("max", "min") and len(e.args) > 2:
                    return f"the {'largest' if e.func == 'max' else 'smallest'} of " + ", ".join(w(a) for a in e.args)
                if e.func in ("max", "min"):
                    return f"the {'largest' if e.func == 'max' else 'smallest'} of {w(e.args[0])}"
                if e.func == "count" and len(e.args) == 1 and self._is_zone(e.args[0]):
                    return f"the number of cards in {w(e.args[0])}"
                if e.func in table:
                    wrap = self._operand if len(e.args) < 2 else self._argument
                    return table[e.func].format(*(wrap(a) for a in e.args))
            case n.Unary(op="not", operand=n.Call(func="empty" | "face_up", args=(arg,))) \
                    if e.operand.func not in t.defines:
                return f"{self._operand(arg)} is " + ("not empty" if e.operand.func == "empty" else "face down")
            case n.Unary(op="not"):
                return f"not ({w(e.operand)})" if compound(e.operand) else f"not {w(e.operand)}"
            case n.Unary():
                return f"-{self._operand(e.operand)}"
            case n.Binary(op="and" | "or"):
                return f"{self._junct(e.left, e.op)} {e.op} {self._junct(e.right, e.op)}"
            case n.Binary() if e.op in COMPARE:  # `(a in b) == c`: a comparison compared is bracketed
                return f"{self._compared(e.left)} {COMPARE[e.op]} {self._compared(e.right)}"
            case n.Binary(op="/"):
                return f"{self._operand(e.left)} divided by {self._operand(e.right)} (rounded down)"
            case n.Binary(op="^"):
                return f"{self._operand(e.left)} to the power {self._operand(e.right)}"
            case n.Binary(op="%"):
                return f"the remainder of {self._operand(e.left)} divided by {self._operand(e.right)}"
            case n.Binary():  # `a + b + c` reads so; `a - (b + c)` keeps its brackets
                chained = isinstance(e.left, n.Binary) and (e.left.op, e.op) in _CHAINS
                left = w(e.left) if chained else self._operand(e.left)
                return f"{left} {e.op} {self._operand(e.right)}"
            case n.IfExpr():  # an `if` inside the value or the condition is bracketed, so the chain of
                # `otherwise`s reads as the `else if`s written, not as one more branch of it
                inner = lambda x: f"({w(x)})" if isinstance(x, n.IfExpr) else w(x)  # noqa: E731
                return f"{inner(e.then)} if {inner(e.cond)}, otherwise {w(e.orelse)}"
            case n.Quant():
                return QUANT[e.kind].format(v=f"*{e.var}*", s=w(e.source), c=w(e.cond))
            case n.Best():
                keys = e.key.items if isinstance(e.key, n.ListLit) and e.key.items else (e.key,)
                key = ", then ".join(w(k) for k in keys)
                if e.kind == "sorted":
                    return f"the items *{e.var}* of {w(e.source)} in increasing order of {key}"
                most = "highest" if e.kind == "max" else "lowest"
                key = ", then ".join(f"({w(k)})" if isinstance(k, n.IfExpr) else without_the(w(k))
                                     for k in keys)  # `the highest rank of x`
                return f"the {self.member(e.var, e.source)} with the {most} {key} (the first of equals)"
            case n.Pattern(kind="groups"):
                return f"the *{e.var}* in {w(e.source)} grouped by {w(e.key)}"
            case n.Pattern():
                shortest = f" (at least {w(e.least)})" if e.least is not None else ""
                return f"every run{shortest} of *{e.var}* in {w(e.source)} with {w(e.key)} in a row, one of each"
            case n.ListLit():
                return "[" + ", ".join(w(x) for x in e.items) + "]"
            case n.Comprehension():
                fors, inner = [], e
                while inner.flat:  # `for a in A for b in B`: one list, each b of each a
                    fors.append(inner)
                    inner = inner.expr
                fors.append(inner)
                where = f" where {w(inner.cond)}" if inner.cond is not None else ""
                each = " and ".join(f"each *{c.var}* in {w(c.source)}" for c in fors)
                return f"[{w(inner.expr)} for {each}{where}]"
            case n.LetExpr():
                return f"{w(e.body)}, where *{e.name}* is {w(e.value)}"
            case n.RecordLit():
                fields = ", ".join(f"{f.name} {w(f.value)}" for f in e.fields)
                return f"a *{e.name}* with {fields}"
        return f"`{self.s.text(e)}`"

    def member(self, var: str, source) -> str:
        """`var` as one of `source`: *q* in the players."""
        return f"*{var}* in {self.words(source)}"

    def _is_zone(self, e) -> bool:
        """A zone, named or held (a local, a parameter, `zone_of(c)`)."""
        resolved = self.t.resolved
        if self.t.types.get(id(e)) == "zone":
            return True
        if isinstance(e, n.Index):
            return resolved.get(id(e.obj), ("",))[0] == "zones"
        return isinstance(e, n.Name) and resolved.get(id(e), ("",))[0] == "zone"

    def _operand(self, e) -> str:
        return f"({self.words(e)})" if isinstance(e, (n.Binary, n.IfExpr, n.Quant)) else self.words(e)

    def _argument(self, e) -> str:
        """One of several arguments: in parentheses unless it is a single word."""
        return f"({self.words(e)})" if isinstance(e, (n.Binary, n.IfExpr, n.Quant, n.Call, n.Best, n.Pattern)) \
            else self.words(e)

    def _compared(self, e) -> str:
        """A side of a comparison: bracketed when it is a comparison or an `if` itself."""
        bracket = isinstance(e, n.IfExpr) or isinstance(e, n.Binary) and e.op in COMPARE
        return f"({self.words(e)})" if bracket else self.words(e)

    def _junct(self, e, op: str) -> str:
        mixed = isinstance(e, n.Binary) and e.op in ("and", "or") and e.op != op
        return f"({self.words(e)})" if mixed or isinstance(e, n.IfExpr) else self.words(e)



def value_words(value) -> str:
    """A value the options chosen decide, as the rulebook writes a literal or a symbol."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if isinstance(value, int) else f"`{value}`"


def without_the(words: str) -> str:
    return words[4:] if words.startswith("the ") else words


def type_ref(ref: n.TypeRef) -> str:
    """`list of list of card`: a written type, each `list of` kept."""
    return "list of " * (ref.depth if ref.is_list else 0) + ref.name


def compound(e) -> bool:
    return isinstance(e, (n.Binary, n.IfExpr, n.Quant))


def value_text(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, tuple) and len(v) == 2 and v[0] == "text":
        return f"“{v[1]}”"
    return str(v)



def joined(parts: list) -> str:
    """`a`, `a and b`, `a, b and c`."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]

