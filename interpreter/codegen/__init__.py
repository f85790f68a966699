"""Stage 3, the code generator: a checked syntax tree -> the machine's code.

compiler.Compiler walks the checked program into the state machine's operations; generator.Gen
and its parts (gen_exprs, gen_stmts, gen_defines, gen_listings, gen_assembly) write each language
construct once, as Python, in its fast and traced modes; gen_runtime is what that code calls
while it runs.  The analyses (memo_reads, never_none, flow) and passes (text_passes,
slot_locals, work_locals, frame_locals, unseen_pcs) shape the generated functions; code_cache
keeps them between runs.

It imports the language and machine stages.
"""
