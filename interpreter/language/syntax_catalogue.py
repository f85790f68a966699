"""The known syntax mistakes as snippets that fail where a script making them does; syntax_errors matches them."""

# What may follow a statement: where a statement is left unfinished, the parser fails at the next.
_NEXT_STATEMENT = ('}', 'move a to b }', 'for q in z { } }', 'set a = 1 }', 'if a { } }', 'log "x" }',
                   'shuffle a }', 'deal 1 from a to b of c }', 'let a = 1 }', 'decide a { b } }', 'next q }',
                   'end game }', 'loop { } }', 'while a { } }')

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
    ("E0122", "`in` chooses a number from a range; a binder over a list or zone uses `from`",
     "write `ask(q from players)` to choose an item, `lay(cs from 2 of hand[p])` for several at once, or "
     "`bid(n in 1..10)` for a number"): [
        'phase p { decide x { ask(q in y) } }',
        'phase p { decide x { ask(q in y, r from z) } }',
        'phase p { decide x { ask(q in y[x]) } }',
        'phase p { decide x { ask(q in y[x], r from z) } }',
        'phase p { decide x { ask(q in f(x)) } }',
        'phase p { decide x { ask(q in f(x), r from z) } }',
        'phase p { decide x { ask(q in [a for a in y]) } }',
        'phase p { decide x { ask(q in [a for a in y], r from z) } }',
        *(f'phase p {{ decide x {{ ask(q in {k} of y{after}) }} }}' for k in ("2", "1..2", "a", "a..b")
          for after in ("", "[x]")),
    ],
    ("E0138", "`from` chooses an item of a list or zone; a number from a range uses `in`",
     "write `bid(n in 1..10)` for a number, or `give(cs from 1..3 of hand[p])` for several items"): [
        *(f'phase p {{ decide x {{ ask(n from {low}..{high}{after}) }} }}'
          for low in ("1", "y") for high in ("3", "y", "f(y)", "y + 1", "y[1]", "y.z", "(y)")
          for after in ("", ", r from z")),
    ],
    ("E0107", "`include` is a declaration: it goes at the top level, outside any block",
     "put `include \"FILE\"` beside the other declarations; its definitions and procedures "
     "can then be used in any block"): [
        *(f'{block} {{ {before}include "x" }}'
          for block in ("phase p", "procedure q()", "phase p { if x", "phase p { for y in z")
          for before in ("", "let y = 1 ", "set y = 1 ", 'log "y" ', "move y to z ", "shuffle y ", "f() ",
                         "if y { } ", "decide y { a } ", "set y += 1 ", "let y = [1] ", "let y = f(1) ",
                         "let y = z[1] ", "let y = z.w ", "deal 1 from a to b of c ")),
    ],
    ("E0123", "a zone is `shared` or `per player`: there are no per-team zones",
     "declare it `per player` and read a team's cards through its members, "
     "e.g. `sum([count(won[q]) for q in members(t)])`"): [
        'zone z: per team public',
        'zone z: per team hidden',
        'zone z: per team owner',
        'zone z: per team',
    ],
    ("E0124", "`deal` deals to each player of a list: `to ZONE of PLAYERS`",
     "write `deal 2 from stock to hand of players`; to put cards on a shared zone, "
     "`move top(stock, 2) to ZONE`"): [
        *(f'phase p {{ deal 1 from x to y {after}' for after in _NEXT_STATEMENT),
        'phase p { deal 1 from x to y face up }',
        'phase p { deal 1 from x to y[z] }',
    ],
    ("E0125", "a `for` loop's body goes in braces after it",
     "put the statements to repeat inside: `for p in players { move hand[p] to discard }`"): [
        *(f'phase p {{ for q in z {after}' for after in _NEXT_STATEMENT),
        *(f'phase p {{ move x to y for q in z {after}' for after in _NEXT_STATEMENT),
        'phase p { set x = 1 for q in z }',
    ],
    ("E0126", "a statement's `if` takes a block, not `then`",
     "write `if CONDITION { ... }`; `if C then A else B` is the form that gives a value"): [
        'phase p { if x then { } }',
        'phase p { if x == 1 then { } }',
        'phase p { if x then end game }',
    ],
    ("E0127", "`face up` and `face down` are two words", "write `move c to played[p] face up`"): [
        'phase p { move x to y face-up }',
        'phase p { move x to y face-down }',
        'phase p { move x to y face_up }',
        'phase p { move x to y[z] face_up }',
        'phase p { move x to y[z] face-up }',
    ],
    ("E0128", "`log` is a statement: its text follows without parentheses", 'write `log "P1 wins {pot}"`'): [
        'phase p { log("x") }',
        'phase p { log(x) }',
    ],
    ("E0650", "`log` takes a text in quotes, not a name or an expression",
     'write the values inside the text, in braces: `log "{t}"`, `log "{p} scores {points[p]}"`'): [
        'phase p { log total }',
        'phase p { log x }',
        'phase p { log total.name }',
        'phase p { log 5 }',
        'phase p { log -total }',
        'phase p { log [total] }',
        'phase p { log none }',
        'phase p { log true }',
    ],
    ("E0129", "a `for` loop walks a list; a range of numbers is `range(LOW, HIGH)`",
     "write `for i in range(1, 3) { ... }` (`1..3` is for a decision's binder: `bid(n in 1..3)`)"): [
        'phase p { for i in 1..3 { } }',
        'phase p { for i in x..y { } }',
    ],
    ("E0130", "`repeat` needs `times`", "write `repeat 3 times { ... }`"): [
        'phase p { repeat 3 { } }',
        'phase p { repeat x { } }',
        'phase p { repeat count(x) { } }',
    ],
    ("E0131", "there is no `++` or `--`", "write `set x += 1` (or `-= 1`)"): [
        'phase p { set x = x++ }',
        'phase p { set x++ }',
        'phase p { x++ }',
        'phase p { set x[p]++ }',
    ],
    ("E0147", "only `+=` and `-=` change a number in place: there is no `*=`, `/=` or `%=`",
     "write `set x = x * 2` (or `/`, `%`)"): [
        'phase p { set x *= 2 }',
        'phase p { set x /= 2 }',
        'phase p { set x %= 2 }',
        'phase p { set x[p] *= 2 }',
    ],
    ("E0148", "`requires` names rules, not a condition",
     'declare the condition as a rule, `rule suited(c: card) "Play a club." require c.suit == C`, and '
     'name it with its arguments: `play(c from hand[p]) requires suited(c) { ... }`'): [
        'phase p { decide a { b(c from d) requires c.suit == C { } } }',
        'phase p { decide a { b(c from d) requires c.suit == C } }',
        'phase p { decide a { b requires x == 1 { } } }',
        'phase p { decide a { b requires not x { } } }',
    ],
    ("E0148", "a rule named by `requires` takes its arguments in brackets",
     "write `requires nothing_to_call()` for a rule without parameters, `requires suited(c)` "
     "with them"): [
        'phase p { decide a { b requires x { } } }',
        'phase p { decide a { b requires x } }',
        'phase p { decide a { b requires x c } }',
        'phase p { decide a { b requires x, y() { } } }',
    ],
    ("E0581", "a reaction or handler names its event alone: the event's parameters are named already",
     "write `reaction NAME on EVENT by q in PLAYERS { ... }` or `on EVENT { ... }`; the body reads the "
     "event's parameters by the names the `event` declares"): [
        'reaction r on e(a) by q in x { }',
        'reaction r on e(a, b) by q in x { }',
        'reaction r on e() by q in x { }',
        'on e(a) { }',
        'on e(a, b) { }',
        'on e() { }',
    ],
    ("E0582", "`by` names the players who may answer as `q in PLAYERS`",
     "write `by q in [target]` for one player or `by q in players` for all; in the body, `q` is the "
     "player answering"): [
        'reaction r on e by x { }',
        'reaction r on e by f(x) { }',
        'reaction r on e by [x] { }',
        'reaction r on e by x[y] { }',
    ],
    ("E0149", "a `log` line is one text: its values go inside it, in braces",
     'write `log "n is {n}"`; `+` joins texts only in an expression, such as a procedure\'s argument'): [
        'phase p { log "x" + y }',
        'phase p { log "x" + "y" }',
        'phase p { log "x", y }',
    ],
    ("E0150", "a rule's `when` comes before its `require`",
     'write `rule NAME(PARAMS) "description" when CONDITION require REQUIREMENT`'): [
        'rule r(c: card) "x" require a when b',
        'rule r(c: card) require a when b',
        'rule r() "x" require a when b',
    ],
    ("E0151", "`private` comes after `per player` (or `per team`)",
     "write `var NAME: TYPE per player private = START`"): [
        'var x: int private per player = 0',
        'var x: int private per player',
        'var x: int private per team = 0',
    ],
    ("E0152", "`reveal` turns cards face up for everyone: it has no `to`",
     "to let one player see, write `show X to P` (a private peek); `reveal X` shows the whole table"): [
        'phase p { reveal x to y }',
        'phase p { reveal top(x) to y }',
        'phase p { reveal x[y] to z }',
    ],
    ("E0153", "a quantifier is written without brackets",
     "write `count x in L where CONDITION` (or `any`, `all`, `no`); `count(L)` is a list's length"): [
        'define d = count(x in y where z)',
        'define d = count(x in y[z] where z)',
        'define d = count(x in f(y) where z)',
    ],
    ("E0154", "a comprehension keeps items with `where`, not `if`",
     "write `[x.rank for x in hand[p] where x.suit == H]`"): [
        'define d = [x for x in y if z]',
        'define d = [x for x in y[z] if z]',
        'define d = [x for x in f(y) if z]',
        'define d = [x for x in y for w in z if q]',
    ],
    ("E0156", "`at bottom` (or `at top`) comes before `face up` or `face down`",
     "write `move c to pile at bottom face up`"): [
        'phase p { move x to y face up at bottom }',
        'phase p { move x to y face down at bottom }',
        'phase p { move x to y face up at top }',
        'phase p { move x to y[z] face up at bottom }',
    ],
    ("E0191", "`x N` makes copies of one explicit card, not of a deck",
     "for copies of every card, add a dimension that tells them apart and name the cards by it: `copy: a, b` "
     "with `name: rank suit copy` makes `9Ca` and `9Cb`; `card \"label\" x 3 { ... }` copies one card"): [
        'deck d in s x 2 { }',
        'deck d x 2 in s { }',
    ],
    ("E0172", "a deck lists its values one by one",
     "write `value: 1, 2, 3, 4, 5`: a deck's values are written out, not as a range (`1..104`), list or call"): [
        'deck d in s { v: 1..3 }',
        'deck d in s { v: a, 1..3 }',
        'deck d in s { ordered v: 1..3 }',
        'deck d in s { v: -1..3 }',
        'deck d in s { v: range(1, 3) }',
        'deck d in s { v: [1, 2] }',
        'deck d in s { ordered v: [1, 2] }',
    ],
    ("E0173", "`where` filters a list only inside a comprehension or a quantifier",
     "walk a filtered list: `for q in [x for x in players where x != p] { ... }`"): [
        'phase p { for x in y where z { } }',
        'phase p { for x in f(y) where z { } }',
        'phase p { for x in y[z] where z { } }',
        'phase p { for x in [y] where z { } }',
        'phase p { for x in (y) where z { } }',
        'phase p { simultaneously for x in y where z { } }',
        'phase p { simultaneously for x in f(y) where z { } }',
        'phase p { simultaneously for x in y[z] where z { } }',
    ],
    ("E0173", "`where` filters a list only inside a comprehension or a quantifier",
     "ask a filtered list: `reaction NAME on EVENT by q in [x for x in players where x != p] { ... }`"): [
        'reaction r on e by q in y where z { }',
        'reaction r on e by q in f(y) where z { }',
        'reaction r on e by q in y[z] where z { }',
    ],
    ("E0173", "`where` filters a list only inside a comprehension or a quantifier",
     "give the binder a filtered list: `play(c from [x for x in hand[p] where x.suit == led])`"): [
        'phase p { decide a { b(c from d where e) } }',
        'phase p { decide a { b(c from d[e] where e) } }',
        'phase p { decide a { b(c from f(d) where e) } }',
        'phase p { decide a { b(c from 2 of d where e) } }',
        'phase p { decide a { b(c from 2 of d[e] where e) } }',
    ],
    ("E0174", "a zone is one pile for the table, or one per player",
     "declare each pile (`zone t1: shared hidden`, `zone t2: shared hidden`, ...) and list them "
     "(`define piles = [t1, t2]`): `for t in piles`, a binder `t from piles` and `move c to t` use them"): [
        'zone z[7]: shared hidden',
        'zone z: 7 shared hidden',
        'zone z: per pile hidden',
        'zone z: per row hidden',
    ],
    ("E0177", "a deck's attribute lists at least one value after its `:`",
     "write its values on the same line, `suit: C, D, H, S`; a line `suit:` alone reads the next line's "
     "first word as its value"): [
        'deck d in z { a: }',
        'deck d in z { a: b: c }',
        'deck d in z { ordered a: }',
    ],
    ("E0179", "a count here is a whole number, never negative",
     "`players` takes 1 to 64 (`players 2..5`), a `limit` 1 or more, and `card \"LABEL\" x N` 1 or more copies"): [
        'players -',
        'players 2..-',
        'limit a -',
        'deck d in z { card "a" x -',
    ],
    ("E0176", "a zone takes one `shown` clause: `shown as placed` and `shown by` exclude each other",
     "`shown as placed` lists the cards in the zone's own order (never sorted as a hand); `shown by KEY, ...` "
     "sorts the view by those keys: keep one (several keys go in one `shown by`, `shown by suit, rank`)"): [
        'zone z: per player hidden shown as placed shown',
        'zone z: shared hidden shown by a shown',
        'zone z: shared hidden shown by a, b shown',
    ],
    ("E0132", "`A if C else B` is written `if C then A else B`",
     "write `set x = if C then A else B`"): [
        'phase p { set x = a if b else c }',
        'phase p { set x = f(a) if b else c }',
        'phase p { let x = a if b else c }',
        'define d = a if b else c',
    ],
    ("E0118", "a comprehension goes in brackets", "write `sum([x for x in L])`: the brackets make the list"): [
        'define d = sum(x for x in y)',
        'define d = sum(1 for x in y)',
        'define d = f(1, x for x in y)',
    ],
    ("E0119", "`score` needs a name for the player it scores", "write `score p: EXPRESSION` (p is each player in turn)"): [
        'score: 1',
    ],
    ("E0120", "the value of `let ... in` is a sum; a comparison or `and`/`or` needs brackets",
     "write `let NAME = (VALUE) in BODY`"): [
        'define d = let x = a == b in x',
        'define d = let x = a < b in x',
        'define d = let x = a and b in x',
        'define d = let x = a or b in x',
    ],
    ("E0192", "`one of (...)` is the type of an option, not of a variable",
     "a variable holding a word is declared `symbol` (`var strain: symbol = C`), or by the card attribute it "
     "holds (`var trump: suit`); the words themselves must be values of a deck's attribute or of an option's "
     "`one of (...)` (language.md §6): for other named states use numbers, or decision alternatives"): [
        'var v: one of (a, b) = a',
        'var v: one of (a, b)',
        'var v: one of (a, b) per player = a',
    ],
    ("E0193", "a function is called with its value inside the brackets, not after a dot",
     "write `count(hand[p])`, `top(stock)`, `sum(xs)`: a dot reads a card's attribute (`c.suit`) or a record's "
     "field; the functions are listed in language.md §11"): [
        'define d = a.b()',
        'define d = a.b(1)',
        'define d = a[1].b()',
        'define d = f(a).b()',
        'phase p { let x = a.b() }',
        'phase p { if a.b() { } }',
    ],
    ("E0145", "a definition or procedure does not declare a result type",
     "write `define NAME(PARAMS) = EXPRESSION`: the result's type is the expression's"): [
        'define f(x: int): int = 1',
        'define f(x: int): bool = 1',
        'define f: int = 1',
        'define f(x: int) -> int = 1',
        'define f -> int = 1',
        'procedure f(x: int): int { }',
        'procedure f(x: int) -> int { }',
    ],
    ("E0146", "`LOW..HIGH` is not a list: the numbers from LOW to HIGH are `range(LOW, HIGH)`",
     "write `[x for x in range(1, 3)]` or `range(1, n)`; `1..3` is written only in a decision's "
     "binder (`bid(n in 1..3)`), `players 2..5` and an option's bounds"): [
        'define d = [x for x in 1..3]',
        'define d = [x for x in y..z]',
        'define d = [x for x in f(y)..z]',
        'define d = 1..3',
        'define d = x..y',
        'define d = f(1..3)',
        'define d = f(x, 1..3)',
        'define d = [1..3]',
        'define d = any x in 1..3 where x',
        'define d = x in 1..3',
        'phase p { set x = 1..3 }',
        'phase p { set x = [y for y in 1..3] }',
    ],
}

# The same mistakes inside one expression (the REPL's `eval`); a script's snippets would match
# unrelated parser states there.
EXPR_CATALOGUE = {
    ("E0102", "`=` assigns; to compare use `==`", "write `==` to compare two values"): [
        'x = 1', 'x.y = 1', 'x[1] = 1',
    ],
    ("E0193", "a function is called with its value inside the brackets, not after a dot",
     "write `count(hand[p])`, `top(stock)`, `sum(xs)`: a dot reads a card's attribute (`c.suit`) or a record's "
     "field; the functions are listed in language.md §11"): [
        'a.b()', 'a.b(1)', 'a[1].b()', 'f(a).b()',
    ],
    ("E0118", "a comprehension goes in brackets", "write `sum([x for x in L])`: the brackets make the list"): [
        'sum(x for x in y)', 'sum(1 for x in y)', 'f(1, x for x in y)',
    ],
    ("E0120", "the value of `let ... in` is a sum; a comparison or `and`/`or` needs brackets",
     "write `let NAME = (VALUE) in BODY`"): [
        'let x = a == b in x', 'let x = a < b in x', 'let x = a and b in x', 'let x = a or b in x',
    ],
    ("E0146", "`LOW..HIGH` is not a list: the numbers from LOW to HIGH are `range(LOW, HIGH)`",
     "write `[x for x in range(1, 3)]` or `range(1, n)`; `1..3` is written only in a decision's "
     "binder (`bid(n in 1..3)`), `players 2..5` and an option's bounds"): [
        '[x for x in 1..3]', '[x for x in y..z]', '1..3', 'x..y', 'f(1..3)', 'f(x, 1..3)', '[1..3]',
        'any x in 1..3 where x', 'x in 1..3',
    ],
    ("E0153", "a quantifier is written without brackets",
     "write `count x in L where CONDITION` (or `any`, `all`, `no`); `count(L)` is a list's length"): [
        'count(x in y where z)', 'count(x in y[z] where z)',
    ],
    ("E0154", "a comprehension keeps items with `where`, not `if`",
     "write `[x.rank for x in hand[p] where x.suit == H]`"): [
        '[x for x in y if z]', '[x for x in y[z] if z]',
    ],
}

# A form over a list left without its next word (`groups x in L` without `by KEY`): after the
# list the parser is in one state whatever comes next (a `)`, the end of the line, `where`), so
# the state alone picks the entry.  (code, message, hint) -> a snippet per start that ends there.
FORMS = {
    ("E0137", "expected `by` and a key after `groups x in L`",
     "write `groups x in L by KEY`, e.g. `groups x in hand[p] by x.rank`"): 'groups x in y',
    ("E0137", "expected `by` and a key after `runs x in L`",
     "write `runs x in L by KEY least N`, e.g. `runs x in hand[p] by x.rank least 3`"): 'runs x in y',
    ("E0137", "expected `by` and a key after `max x in L`, `min x in L` or `sorted x in L`",
     "write `max x in L by KEY` (or `min`, `sorted`), e.g. `sorted x in hand[p] by x.rank`"): 'sorted x in y',
    ("E0137", "expected `where` and a condition after `count x in L` (or `any`, `all`, `no`)",
     "write `count x in L where CONDITION`, e.g. `count x in hand[p] where x.suit == H`; "
     "for a list's length, `count(L)`"): 'count x in y',
}
