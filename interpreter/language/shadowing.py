"""Old scripts keep working: a script's own name spelt like a built-in shadows it, with a warning.

A release may add built-in functions, constants and forms; a script written before may already
use the word for its own definition, procedure, variable, option, zone, record or parameter.
That declaration is accepted and wins inside the script (W0411, said once at the declaration):

- a definition or procedure named like a built-in function: `team(p)` calls the script's own;
- any declaration named like a built-in constant: `teams` alone means the script's own;
- a variable, option, zone, record or parameter named like a function shadows nothing a call
  reads (`place(x)` is still the built-in: those cannot be called), but is said too, so an
  author knows the word is taken;
- a form's word (`groups`, `runs`, `sorted`, `count`, `max`, ...) is a keyword only in the form's
  shape, `WORD NAME in` (grammar/cardgame.lark), so the form and the name both keep working.

Phases, rules and events are only ever named after `next`, `requires` and `signal`, where no
built-in can stand, so they shadow nothing and nothing is said.
"""

from __future__ import annotations

from .builtins import BUILTINS, CONSTANTS, ORDER_FUNCTIONS

# The words of the forms (`count x in L where C`, `max x in L by K`, `groups x in L by K`, ...).
FORM_WORDS = {
    "any": "any x in L where CONDITION", "all": "all x in L where CONDITION", "no": "no x in L where CONDITION",
    "count": "count x in L where CONDITION", "max": "max x in L by KEY", "min": "min x in L by KEY",
    "sorted": "sorted x in L by KEY", "groups": "groups x in L by KEY", "runs": "runs x in L by KEY",
}
FUNCTIONS = frozenset(BUILTINS) | ORDER_FUNCTIONS
# The declarations whose names are read where a built-in could be: what W0411 is said for.
CALLED = frozenset({"defines", "procs"})
SAID_FOR = frozenset({"defines", "procs", "vars", "options", "zones", "records", "params"})
_WORD = {"defines": "definition", "procs": "procedure", "vars": "variable", "options": "option", "zones": "zone",
         "records": "record", "params": "parameter"}


def built_in(name: str) -> bool:
    return name in FUNCTIONS or name in CONSTANTS or name in FORM_WORDS


def shadow_warning(name: str, kind: str) -> tuple[str, str, str] | None:
    """(message, label, hint) of W0411 for a declaration of `kind` (a Tables field, or "params")
    named `name`; None when the name is no built-in's, or the kind shadows nothing."""
    if kind not in SAID_FOR or not built_in(name):
        return None
    word = _WORD[kind]
    parts, what = [], []
    if name in FUNCTIONS:
        what.append("function")
        if kind in CALLED:
            parts.append(f"`{name}(...)` calls this {word}, not the built-in")
        else:
            parts.append(f"`{name}(...)` still calls the built-in (a {word} is not called), `{name}` alone means "
                         f"this {word}")
    if name in CONSTANTS:
        what.append("constant")
        parts.append(f"`{name}` alone means this {word}, not the built-in constant")
    if name in FORM_WORDS:
        what.append("form")
        parts.append(f"the form `{FORM_WORDS[name]}` keeps working: `{name}` is the form's word only in its "
                     f"shape, `{name} NAME in`")
    if what == ["form"]:
        message = f"`{name}` is also the word of the built-in form `{FORM_WORDS[name]}`; both keep working"
        return message, "the form's word too", parts[0]
    message = f"`{name}` is also the name of a built-in {' and '.join(what)}; this {word} shadows it in this script"
    hint = "; ".join(parts) + (f"; to use the built-in, rename this {word}"
                               if kind in CALLED and name in FUNCTIONS or name in CONSTANTS else "")
    return message, f"shadows the built-in `{name}`", hint
