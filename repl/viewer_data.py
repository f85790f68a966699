"""What a replay page shows, as data: every position of one game as each of its viewers saw it.

The positions are the REPL's steps: the start, then the position after each move (in a game that
asks no decision, each pause point; a replay saved at a pause point ends there).  Everything a
viewer's part holds is read, when the file is written, through the engine's one model of what
that viewer knows: `view` (the table), `observed_events` (what it saw happen), `explain` (the
why of the move that led here) and `move_texts` (the moves open to it).  So a seat's part names
no card that seat did not know, and a file made for one seat holds that seat's part alone, with
no seed and no move list (with those and the script, the game could be played again, hidden
cards and all).

The data is plain JSON.  Values that repeat (a pile's cards from one move to the next, a status
that every seat shares) are written once, in `pool`, and named by their place in it (Pool);
viewer_page.py packs it into the page, whose code draws it.
"""

from __future__ import annotations

import json
import os
import re

import attrs

from cardgame import interpreter
from cardgame.interpreter import HIDDEN, PAUSES, TABLE, GameFault, IllegalMove, render

from .card_faces import card_faces
from .results import declares_score, scores_text, winners_text
from .table import Deck, placed_cards, show_value
from .trace import grouped

FORMAT = "cardgame-viewer/1"
FACE_UP = "*"  # after a card's name in a zone's list: a card every seat sees in a zone that hides others
# A viewer's part of a position, in this order (each an index into the pool, or None):
PART = ("zones", "status", "vars", "move", "events", "why", "moves")


class Pool:
    """Values written once each, named by their place: a position's parts are these places."""

    def __init__(self):
        self.values: list = []
        self._places: dict = {}

    def add(self, value) -> int:
        key = json.dumps(value, sort_keys=True, separators=(",", ":"))
        place = self._places.get(key)
        if place is None:
            place = self._places[key] = len(self.values)
            self.values.append(value)
        return place


class ViewerError(Exception):
    """A game that cannot be shown: a move of the replay that cannot be played."""


@attrs.frozen
class Record:
    """The game to show: the moves made on a script, and where a replay saved at a pause point stopped."""

    game: object
    players: int
    seed: int
    options: dict
    moves: tuple
    pause: tuple | None = None  # (kind, pause_mark) after the last move
    budget: tuple = (None, None)  # work per move, per game


def viewer_name(viewer, names: tuple = ()) -> str:
    return "all" if viewer == "all" else ("spectator" if viewer is None else interpreter.seat_label(names, viewer))


def every_viewer(players: int) -> list:
    """A full record's viewers: each seat, the spectator, and the all-seeing view."""
    return list(range(players)) + [None, "all"]


def viewer_data(record: Record, viewers: list) -> dict:
    """The page's data for `viewers` (seat numbers, None for a spectator, "all"); ViewerError
    when a move cannot be played."""
    return played_data(record, viewers)[0]


def played_data(record: Record, viewers: list) -> tuple:
    """The page's data, as viewer_data, and the game's state at its end (for `replay`'s result)."""
    reader = _Reader(record, viewers)
    return reader.data(), reader.state


class _Reader:
    """Plays the record's moves once, reading each position through every viewer as it goes."""

    def __init__(self, record: Record, viewers: list):
        self.record, self.viewers, self.game = record, viewers, record.game
        self.full = "all" in viewers
        self.pool = Pool()
        self.folder = os.path.dirname(os.path.abspath(self.game.path))
        self.sources: dict = {}
        self.names: set = set()  # every card name the data holds, for its faces
        self.pattern = _name_pattern([c.name for c in self.game.cards])
        self.deck = Deck.of(self.game.cards, self.game.shown_orders, self.game.face_down_zones)
        self.positions: list = []
        self.state = None  # the game at its end, once played
        self.mark = 0  # the observation log read so far: a position shows what was observed since

    def data(self) -> dict:
        state = self.state = self._play()
        slots = self._slots()
        out = {"format": FORMAT, "title": self.game.title, "script": os.path.basename(self.game.path),
               "script_hash": self.game.hash, "players": state.n, "options": _options(self.record.options),
               "full": self.full, "viewers": [viewer_name(v, self.game.program.tables.seat_names) for v in self.viewers]}
        if self.full:  # the seed and the moves replay the game: a full record only
            out["seed"] = self.record.seed
            out["moves"] = list(self.record.moves)
        out.update(zones=slots, faces=card_faces(self.game.cards, sorted(self.names)), sources=self.sources,
                   pool=self.pool.values, positions=self.positions)
        return out

    # ---- playing
    def _play(self):
        record, game = self.record, self.game
        asks = any(row["decisions"] for row in game.state_table())
        after = frozenset(PAUSES) if record.pause or not asks else frozenset()
        state = game.new_game(players=record.players, seed=record.seed, options=record.options, record=True,
                              max_work=record.budget[0], max_game_work=record.budget[1],
                              pause_at=frozenset() if record.moves else after)
        self._slots_of = _zone_slots(state.view(self.viewers[0]))  # every view names every zone and seat
        self.hands = state.hand_zones
        self._add(state, None, {})
        for i, text in enumerate(record.moves, 1):
            if i == len(record.moves):
                state.pause_at = after
            whys = self._whys(state, text, i)
            try:
                state.apply(text)
            except IllegalMove as err:
                raise ViewerError(f"move {i}, `{text}`, cannot be played: {err.explanation.reason}") from None
            except GameFault:
                if i < len(record.moves):
                    raise ViewerError(f"move {i}, `{text}`, stopped the game with an error, so move {i + 1} "
                                      "cannot be played") from None
            self._add(state, text, whys)
        if record.pause is not None and state.fault is None:
            state.step_to_mark(record.pause[1], on_step=lambda: self._add(state, None, {}))
        elif after and state.fault is None:
            while state.paused:
                try:
                    state.step()
                except GameFault:
                    pass
                self._add(state, None, {})
        return state

    def _whys(self, state, text: str, i: int) -> dict:
        """The why of the move about to be made, as each viewer may know it."""
        try:
            move = state.parse_move(text)
        except IllegalMove as err:
            raise ViewerError(f"move {i}, `{text}`, cannot be played: {err.explanation.reason}") from None
        hidden = state.choice_is_hidden
        return {viewer: self._why(state.explain(move, viewer=viewer), hidden and viewer == "all")
                for viewer in self.viewers}

    # ---- one position
    def _add(self, state, move: str | None, whys: dict) -> None:
        spectator = state.view(None)
        parts = []
        for viewer in self.viewers:
            view = spectator if viewer is None else state.view(viewer)
            new = state.observed_events(viewer, since=self.mark)
            decision = next((e for e in new if e.kind == "decision"), None) if move is not None else None
            part = {"zones": self._zones(view, spectator), "status": self._status(state, view),
                    "vars": self._vars(view), "move": self._move(decision),
                    "events": self._events([e for e in new if e is not decision]),
                    "why": whys.get(viewer), "moves": self._moves(state, viewer)}
            parts.append([None if part[k] is None else self.pool.add(part[k]) for k in PART])
        self.mark = state.log_mark
        self.positions.append([len(state.history), state.paused, parts])

    def _zones(self, view, spectator) -> list:
        """One list per zone slot: the cards in the order they are drawn (a hand's known cards
        sorted, its unseen ones last), each `??` unseen, marked face up where all see it."""
        lists = []
        for name, seat in self._slots_of:
            cards, seen = view["zones"][name], spectator["zones"][name]
            if seat is not None:
                cards, seen = cards[seat], seen[seat]
            hand = self._is_hand(name, seat)
            placed = placed_cards(cards, seen, self.deck, hand, name in self.deck.face_down)
            drawn = [c + FACE_UP if up else c for c, up in placed]
            if hand:
                drawn += [HIDDEN] * cards.count(HIDDEN)
            self.names.update(c for c in cards if c != HIDDEN)
            lists.append(self.pool.add(drawn))
        return lists

    def _status(self, state, view) -> dict:
        status = {"phase": view["phase"], "to_act": view["to_act"], "prompt": view["prompt"],
                  "over": view["over"], "capped": state.capped and view["over"],
                  "scores": None if state.fault is not None else scores_text(view, declares_score(state)),
                  "winners": winners_text(view) if view["over"] else None,
                  "winning_seats": view["winners"] if view["over"] else None}
        if state.paused:
            status["paused"] = state.paused
            status["line"] = state.next_statement.line if state.next_statement is not None else None
        if state.fault is not None:
            status["fault"] = self._rendered(state.fault)
        return self._texts(status)

    def _vars(self, view) -> dict:
        """The variables: the table's, then each seat's (a per-player variable's value by seat)."""
        table, seats = [], {}
        for name, value in view["vars"].items():
            if isinstance(value, dict) and value and all(re.fullmatch(r"P\d+", k) or k in self.game.program.tables.seat_names for k in value):
                for seat, v in value.items():
                    seats.setdefault(seat, []).append([name, show_value(v)])
            else:
                table.append([name, show_value(value)])
        return self._texts({"table": table, "seats": seats})

    def _move(self, decision):
        if decision is None:
            return None
        who = "table" if decision.actor == TABLE else self.game.program.seat_label(decision.actor)
        return self._texts([who, decision.text])

    def _events(self, events) -> list:
        """What the viewer saw happen, one statement's many cards told in one line (as `trace`)."""
        return self._texts([[kind, text, *self._span(span)] for kind, text, span in grouped(events, self._statement)])

    def _statement(self, span) -> str:
        source = self.game.sources.get(span.path)
        return "" if source is None else source.line(span.line)[span.column - 1:]

    def _moves(self, state, viewer):
        """The moves open at this position, for the viewer who may see them (the one to act,
        everyone at a table decision, the all-seeing view); None for the others."""
        actor = state.current_player
        if actor is None or not (viewer == "all" or actor in (viewer, TABLE)):
            return None
        return self._texts(state.move_texts(viewer))

    def _why(self, explanation, hidden: bool) -> dict:
        rules = [{"name": r.name, "doc": r.doc, "status": r.status, "verdict": r.verdict, "span": self._span(r.span, True),
                  "values": [list(v) for v in r.values], "witnesses": [list(w) for w in r.witnesses]}
                 for r in explanation.rules]
        # not `explanation.move`: that is the move's full text, which a seat refused the why of may not see
        verdict = explanation.verdict
        for r in explanation.rules:  # its files named as everywhere in the page, from the script's folder
            if r.where is not None:
                verdict = verdict.replace(f" at {r.where.path}:", f" at {self._file(r.where.path)}:")
        why = {"legal": explanation.legal, "verdict": verdict, "rules": rules}
        if hidden:
            why["hidden"] = True
        return self._texts(why)

    # ---- texts, spans and sources
    def _texts(self, value):
        """`value` as it is: the card names in its texts noted for the faces."""
        if isinstance(value, str):
            self.names.update(self.pattern.findall(value) if self.pattern else ())
        elif isinstance(value, dict):
            for v in value.values():
                self._texts(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                self._texts(v)
        return value

    def _span(self, span, whole: bool = False) -> list:
        """[file, line] (with `whole`, [file, first line, last line]), its lines kept in `sources`;
        the file named from the script's folder, so the page is the same from any folder."""
        if span is None:
            return []
        source = self.game.sources.get(span.path)
        last = span.line
        if whole:
            last = span.end_line if span.end_column > 1 or span.end_line == span.line else span.end_line - 1
        name = self._file(span.path)
        if source is not None:
            kept = self.sources.setdefault(name, {})
            for n in range(span.line, last + 1):
                kept[str(n)] = source.line(n)
        return [name, span.line, last] if whole else [name, span.line]

    def _file(self, path: str) -> str:
        return os.path.relpath(os.path.abspath(path), self.folder).replace(os.sep, "/")

    def _rendered(self, diagnostic) -> str:
        """A fault as `play` prints it, its file named from the script's folder."""
        span = diagnostic.span
        if span is None:
            return render(diagnostic, {})
        name = self._file(span.path)
        sources = {name: attrs.evolve(self.game.sources[span.path], path=name)} if span.path in self.game.sources else {}
        return render(attrs.evolve(diagnostic, span=attrs.evolve(span, path=name)), sources)

    # ---- the layout
    def _is_hand(self, name: str, seat) -> bool:
        """Drawn as a hand (as the REPL's `state` draws it): known cards sorted, unseen ones last."""
        return seat is not None and name in self.hands and name not in self.deck.shown

    def _slots(self) -> list:
        """Each zone slot: [zone, seat or None, how it is drawn: hand, placed or pile]."""
        return [[name, seat, "hand" if self._is_hand(name, seat) else "placed" if name in self.deck.placed else "pile"]
                for name, seat in self._slots_of]


def _zone_slots(view) -> list:
    """(zone, seat name or None) for every zone slot, in the order views list them."""
    slots = []
    for name, cards in view["zones"].items():
        if isinstance(cards, dict):
            slots += [(name, seat) for seat in cards]
        else:
            slots.append((name, None))
    return slots


def _options(options: dict) -> dict:
    return {name: show_value(value) for name, value in sorted(options.items())}


def _name_pattern(names: list):
    """A card's name as a word of a text (as the engine reads them: not inside another word)."""
    if not names:
        return None
    return re.compile(r"(?<![\w.])(?:" + "|".join(re.escape(x) for x in sorted(names, key=len, reverse=True))
                      + r")(?![\w.])")
