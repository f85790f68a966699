"""Stage 2, the machine: the state machine as plain data, and the loop that runs it.

The compiled program's records (program: code objects, decision points, lookup tables), the
running state (runtime.State: zones, cards, variables, frames, the program counter, the work
counter) and the loop that advances it to the next decision, listing a decision's moves
(enumeration, choosing), and the shared history copies of a state hold in common.  This is what
generated code runs on: codegen writes against it, the engine wraps it.

It imports only the language stage.
"""
