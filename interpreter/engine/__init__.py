"""Stage 4, the engine: the public game API over the machine.

game.Game loads a script and starts, restores and replays games; game.GameState is a running
game (legal moves, apply, step, clone, to_json).  moves applies and explains moves (why a move is
legal or not, rule by rule, with verdicts), saving turns a state into JSON and back, knowledge
is the one model of what each seat knows, and views draws a seat's, a spectator's or the whole
table's view through it.

It imports the language, machine and codegen stages.
"""
