"""Stage 1, the language: script text -> a checked syntax tree.

Reading files safely (reading), spans and the one channel of diagnostics (source), the budgets
that stop runaway scripts (limits), the parser and its friendly syntax errors, the syntax tree
(nodes), the built-in functions (typing rule and implementation side by side), declared orders,
card patterns, teams, the seeded random generator every stage draws from (rng), `include` and
`replace`, and the checker that resolves every name and types every expression (checker and its
parts).  loader.check_file is the stage's door: a path in, Tables and diagnostics out.

Nothing here imports a later stage.
"""
