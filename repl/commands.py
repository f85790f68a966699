"""The REPL's commands as data: usage, one-line summary, an example and details, for `help`
and for completion.  The session dispatches on these names."""

from __future__ import annotations

import attrs


@attrs.frozen
class Command:
    name: str
    usage: str
    summary: str
    example: str
    details: str = ""
    needs_game: bool = True


COMMANDS: tuple[Command, ...] = (
    Command("help", "help [COMMAND]", "list the commands, or explain one", "help why", needs_game=False),
    Command("load", "load FILE", "load a script and start a new game of it", "load games/mygame.cardgame",
            "The new game keeps the session's seed; players and options go back to the script's defaults.",
            needs_game=False),
    Command("new", "new [players=N] [seed=S] [NAME=VALUE...]", "start a new game of the loaded script",
            "new seed=7 players=4",
            "Settings not given keep their current values, so `new` alone restarts the same game."),
    Command("options", "options", "the script's options: current value, allowed values, default", "options"),
    Command("state", "state [all]", "the table as the current view sees it: the decision and the cards in play, "
            "zones, variables", "state",
            "Hands are sorted in the script's order (or as the script shows them: `shown by`, `shown as placed`); "
            "other zones list their cards bottom first, so the top "
            "card is the last one. A card turned face up where cards lie face down is marked *; cards the view "
            "may not see are counted, at the end of a hand (+2 hidden) or in their places in a pile "
            "((6 hidden) 9S*); empty zones are folded into one line. A card with a `title` or `text` is drawn "
            "as it. Variables named `_...` are the script's bookkeeping: counted, not shown, unless `state all`."),
    Command("show", "show ZONE [PLAYER]", "the cards in one zone (every seat's, for a per-player zone)",
            "show hand P1"),
    Command("moves", "moves [WORD...] [--all] [--full]", "the numbered legal moves; --all adds the illegal ones "
            "and the rule that forbids each", "moves QS",
            "Words keep the moves naming each of them (`moves 2H QS`: the passes with both cards), numbered as in "
            "the whole list. Three or more moves in a row that differ only in a number counting up are one row "
            "(`#2-#13. raise 134..145`). A list longer than 40 rows shows its first 30 and how many more (with "
            "--all, every legal move and forbidden ones up to 30 lines); --full shows every move on its own line."),
    Command("play", "play MOVE|NUMBER|#NUMBER", "make a move: its text, the text after its name, or its number in "
            "`moves`", "play 9D",
            "An illegal move is explained and changes nothing; `play` alone makes the only legal move, when "
            "there is one. The cards of a move may be typed in any order "
            "(`play QS 3C 9H`). `#4` is always the fourth listed move; a plain `4` is too, unless a move here "
            "reads as a number (`bid 4`): then `4` is that move, and `moves` numbers the list #1, #2, ..."),
    Command("why", "why MOVE|more|full|step N [--full] [--expand NAME]...",
            "why a move is legal or not, in a few lines; why a step's outcome came out as it did",
            "why play AC",
            "The short answer is the verdict as players say it (6H does not beat 8H) and the rules that "
            "decided it. `why more` then lists every rule's verdict, `why full` adds their source lines and "
            "the values they looked at (a quantifier shows the item that decided it); a long answer is paged "
            "at a terminal. --expand NAME (or -e NAME) opens each call of the definition NAME with its "
            "arguments. `why step N` shows what decided the lines step N logged: the expression behind each "
            "value, and for a best-of (max ... by) every item with its key, the chosen one marked."),
    Command("trace", "trace [on|off]", "print the rules, effects and chance events of every move applied; "
            "alone, say whether tracing is on", "trace on"),
    Command("step", "step [N|phase]", "one step of the game, shown with everything it caused: from a pause "
            "point, on to the next one (a chance event or a phase's start); at a decision, one random move",
            "step 10",
            "N steps at once, stopped by breakpoints as `auto` is; `step phase` goes on to the next phase's start "
            "without stopping at chance events. A seat played by a person gets no random move: its only legal "
            "move is made, else `step` says to `play` it. "
            "A game that asks no decision starts paused at its first phase and pauses before every draw "
            "(`pause` changes where). A table decision is never made for you: `play` it yourself."),
    Command("run", "run", "from a pause point, run straight on to the next decision or the end, showing "
            "its log lines", "run", "With `trace on` it shows every event, as `step` does."),
    Command("pause", "pause [chance] [phase] | all | off", "where the game stops between decisions: before "
            "chance events, at phase starts; alone, say where", "pause all",
            "On for a game that asks no decision, off for others; it applies from the next move or step, and "
            "to `new`. `auto` never pauses."),
    Command("auto", "auto [N|end] [--agent random]", "let the seats' agents play N moves, or to the end",
            "auto 10",
            "Without N, auto plays until something needs you. It stops at a seat played by a person (making "
            "their move only when it is the only legal one), at a "
            "table decision, at a breakpoint, at the end of the game, on Ctrl-C, or after 5000 moves (`auto` again goes "
            "on). `--agent random` plays every seat at random for this run."),
    Command("seat", "seat [P [human|random|AGENT]]", "who plays seat P (or `table`) when auto-playing; alone, "
            "list every seat", "seat P1 ismcts",
            "Every seat starts random; table decisions start with a person (human). AGENT is an agent as "
            "`simulate --agents` takes it: `greedy`, `ismcts`, `ismcts:iterations=100`, `path/to/file.py:Name` "
            "(docs/agents.md)."),
    Command("hint", "hint [AGENT]", "what an agent would play for the seat to act, and why (its visits and "
            "values)", "hint ismcts:iterations=100",
            "The agent is the seat's own (`seat P1 ismcts`), else ismcts; it searches only what that seat "
            "knows, so the view must see the seat's choices."),
    Command("undo", "undo [N]", "take back the last N moves (default 1)", "undo 2",
            "Undone moves can be brought back with `redo` or `goto`; a new move made then keeps them as a "
            "branch (`branch`)."),
    Command("redo", "redo", "play the next undone move again", "redo",
            "It shows what the move caused, as `play` does: the log lines, and every event with `trace on`."),
    Command("branch", "branch [N]", "go back to a line of play left by a move made after `undo`; alone, list the "
            "branches", "branch 1",
            "A move made after `undo` (other than the undone one) keeps the undone moves as a branch. `branch N` "
            "goes to the step where that branch leaves the current line, its moves ahead (`redo`, `goto`); the "
            "line left is kept as a branch in turn."),
    Command("goto", "goto STEP", "go to the position after STEP steps, the number in the prompt (0 is the "
            "start)", "goto 0", "A step is a move, or a `step` between pause points."),
    Command("log", "log [-n N]", "the moves played, numbered, with the lines each logged (a trick's winner) "
            "and the phases entered, and any undone moves after them; -n N: the last N", "log -n 5",
            "`why step N` says what decided a step's lines."),
    Command("view", "view [PLAYER|spectator|all]", "see the table as one seat, a spectator, or everything; "
            "alone, name the current view",
            "view P1",
            "`all` is the all-seeing view. Under a seat's view every command shows only what that seat "
            "knows: unseen cards are ??, the log keeps the cards it saw, and `eval`, `watch`, `break when` "
            "and `why` refuse what would read hidden things."),
    Command("eval", "eval EXPR", "evaluate an expression of the language on the current position",
            "eval count(hand[P0])",
            "The expression sees variables, options, zones, definitions and constants; P0, P1... name "
            "the seats (p0, p1 too, unless the script uses those names)."),
    Command("watch", "watch [EXPR]", "keep an expression's value in the toolbar; alone, list the watches",
            "watch total[P0]",
            "Values are drawn as the table draws them: a zone as its row of `state`, a per-player variable as "
            "P0 0 · P1 5, cards with suit symbols at a terminal."),
    Command("unwatch", "unwatch N|all", "remove a watch by its number (the others keep theirs)", "unwatch 1"),
    Command("break", "break [rule NAME|phase NAME|when EXPR]", "make `auto` stop there; alone, list the "
            "breakpoints", "break when total[P0] < -20",
            "rule NAME: stop at a decision where that rule forbids a move. phase NAME: stop when the game "
            "enters that phase. when EXPR: stop when the expression becomes true."),
    Command("unbreak", "unbreak N|all", "remove a breakpoint by its number (the others keep theirs)",
            "unbreak all"),
    Command("rules", "rules", "every named rule with its location and description", "rules"),
    Command("source", "source NAME", "the source lines of a rule, phase, definition, procedure, event, reaction, "
            "record, zone, variable or option",
            "source main"),
    Command("save", "save [--view PLAYER|spectator] FILE", "save a replay: script hash, players, options, seed "
            "and the moves so far (a full record, hidden moves included)",
            "save game1.replay",
            "`save --view P1 FILE` writes instead only what P1 knows (its view and log, no seed, no hidden "
            "move): safe to hand to that player, but not a replay."),
    Command("open", "open FILE [--force]", "restore the exact position saved in a replay file",
            "open game1.replay",
            "A replay made for another version of the script is refused; --force replays its moves as far "
            "as they are legal. With no game loaded, the replay's script is loaded.", needs_game=False),
    Command("quit", "quit", "leave the REPL (Ctrl-D does too)", "quit",
            "At a terminal it asks first when steps made since the game was started, opened or saved would "
            "be lost.", needs_game=False),
)

BY_NAME = {c.name: c for c in COMMANDS}
# Short names, for the habits of pdb and gdb users: n(ext)/s(tep) make one move, c(ontinue)
# runs on to the next stop, b(reak)/cl(ear) set and remove breakpoints, p(rint) evaluates,
# w(here) shows the table, l(ist) the moves.
ALIASES = {"exit": "quit", "q": "quit", "?": "help", "h": "help", "n": "step", "next": "step", "s": "step",
           "c": "auto", "continue": "auto", "b": "break", "cl": "unbreak", "p": "eval", "w": "state",
           "l": "moves"}
# Words a newcomer types for what another command shows: the unknown command's hint names it.
SHOWN_BY = {"scores": "`state` shows the scores (the status line too)", "score": "`state` shows the scores",
            "hand": "`show ZONE` shows one zone (`show hand`), `state` every zone", "table": "`state` draws the table",
            "board": "`state` draws the table", "legal": "`moves` lists the legal moves",
            "history": "`log` lists the moves played", "restart": "`new` starts the game again",
            "reset": "`new` starts the game again", "back": "`undo` takes back a move",
            "winner": "`state` names the winners once the game is over",
            "winners": "`state` names the winners once the game is over"}
