"""Bohei written by hand, the readable way (standard library only).

The same rules as games/bohei.cardgame, read the way its opening comment reads the seed's unclear
points (the deck, the rule area's numbered places, the table's questions, the answers to an
effect, the challenges), and the same random policy: at every decision the one asked picks
uniformly among the legal moves.  Cards are namedtuples; piles and hands are lists, bottom
first, in the order the script keeps them, so that with the engine's own shuffle and choices
this class plays the engine's very games (tests/test_baseline_tuned.py checks every decision's
moves that way).  A move is a tuple: the alternative's name, then its value if it has one.
"""

import random
import sys
import time
from collections import namedtuple

Card = namedtuple("Card", "name kind effect check trait opposite amount")

# name, copies, kind, effect, check, trait, opposite, amount: the script's deck, in order
_DECK = [
    ("Miser", 1, "rule", "limits_drawing", "engine", None, None, None),
    ("DrawDuty", 1, "rule", "forces_drawing", "engine", None, None, None),
    ("PeacePipe", 1, "rule", "forbids_challenges", "engine", None, None, None),
    ("NoSwearing", 2, "rule", "watched", "people", None, None, None),
    ("LeftHand", 1, "rule", "watched", "people", None, None, None),
    ("NoNames", 1, "rule", "watched", "people", None, None, None),
    ("HandsUp", 1, "rule", "watched", "people", None, None, None),
    ("ExtraPlace", 1, "rule", "open_place", None, None, None, None),
    ("ClosedPlace", 1, "rule", "close_place", None, None, None, None),
    ("SixWins", 1, "rule", "six_wins", None, None, None, None),
    ("EightToo", 1, "rule", "eight_too", None, None, None, None),
    ("SpecsDraw", 2, "action", "draws", None, "glasses", "discards", 2),
    ("SpecsDiscard", 1, "action", "discards", None, "glasses", "draws", 2),
    ("NoSpecsDraw", 2, "action", "draws", None, "no_glasses", "discards", 2),
    ("DogsDraw", 2, "action", "draws", None, "dog", "discards", 2),
    ("DogsDiscard", 1, "action", "discards", None, "dog", "draws", 1),
    ("NoDogDraw", 1, "action", "draws", None, "no_dog", "discards", 2),
    ("JeansGive", 2, "action", "gives_left", None, "jeans", "takes_left", 1),
    ("JeansDraw", 1, "action", "draws", None, "jeans", "discards", 2),
    ("AllDraw", 3, "action", "draws", None, "everyone", "discards", 2),
    ("AllDiscard", 1, "action", "discards", None, "everyone", "draws", 1),
    ("AllPassRight", 1, "action", "gives_right", None, "everyone", "takes_right", 1),
    ("No", 6, "nope", None, None, None, None, None),
    ("OppositeDay", 4, "opposite", None, None, None, None, None),
    ("StaringContest", 2, "duel", None, None, None, None, None),
    ("ThumbWar", 2, "duel", None, None, None, None, None),
    ("RockPaperScissors", 1, "duel", None, None, None, None, None),
    ("JokeDuel", 2, "judged", None, None, None, None, None),
    ("TongueTwister", 1, "judged", None, None, None, None, None),
    ("Humming", 2, "group", None, None, None, None, None),
    ("StraightFace", 2, "group", None, None, None, None, None),
]

# copies are named NAME.1, NAME.2, ... as the engine names them
DECK = [Card(name if copies == 1 else f"{name}.{i}", *rest)
        for name, copies, *rest in _DECK for i in range(1, copies + 1)]

TURN_CAP = 1000
CHALLENGES = ("duel", "judged", "group")
PLAYER_MOVES = {"begins", "broke", "challenge", "judge", "won", "out"}  # moves whose value is a seat


def move_text(move) -> str:
    """A move as the engine names it: `play No.1`, `broke P2`, `close 1`, `pass`."""
    name, *values = move
    if not values:
        return name
    value = values[0]
    if isinstance(value, Card):
        return f"{name} {value.name}"
    return f"{name} P{value}" if name in PLAYER_MOVES else f"{name} {value}"


class Table:
    """One game.  `choose(moves)` picks one of the listed moves, `shuffle(pile)` shuffles in place."""

    def __init__(self, players, choose, shuffle):
        self.n = players
        self.pick, self.shuffle = choose, shuffle
        self.draw_pile = list(DECK)
        self.discard_pile = []
        self.hands = [[] for _ in range(players)]
        self.places = {1: [], 2: [], 3: []}  # left, right and (while it exists) extra
        self.extension = []
        self.closed = []
        self.effects = set()  # of the active rules, worked out again whenever the area changes
        self.watched = False
        self.sizes = [7]  # the winning numbers of cards
        self.glasses = [False] * players
        self.dog = [False] * players
        self.jeans = [False] * players
        self.missed_call = [False] * players
        self.in_challenge = [False] * players
        self.current = self.starter = 0
        self.champion = None
        self.capped = False
        self.turns = 0
        self.decisions = 0

    def choose(self, moves):
        self.decisions += 1
        return self.pick(moves)

    def players_from(self, p):
        return [(p + i) % self.n for i in range(self.n)]

    def left_of(self, p):
        return (p + 1) % self.n

    def right_of(self, p):
        return (p - 1) % self.n

    # ---- the rule area
    def open_places(self):
        return [s for s in ([1, 2] if not self.extension else [1, 2, 3]) if s not in self.closed]

    def active_rules(self):
        return [self.places[s][-1] for s in self.open_places() if self.places[s]]

    def area_changed(self):
        self.effects = {r.effect for r in self.active_rules()}
        self.watched = any(r.check == "people" for r in self.active_rules())  # rules only people can watch
        self.sizes = [6 if "six_wins" in self.effects else 7] + ([8] if "eight_too" in self.effects else [])

    def active(self, effect):
        return effect in self.effects

    def free_places(self):
        return [s for s in self.open_places() if not self.places[s]]

    # ---- the rules the engine checks (a rule does not bind a challenge's participants)
    def may_draw(self, p):
        return not self.active("limits_drawing") or self.in_challenge[p] or len(self.hands[p]) < 6

    def may_skip_drawing(self, p):
        return not self.active("forces_drawing") or self.in_challenge[p] or len(self.hands[p]) >= 4

    def may_play(self, p, card):
        if card.kind in ("nope", "opposite", "rule"):
            return False
        return not self.active("forbids_challenges") or self.in_challenge[p] or card.kind not in CHALLENGES

    def aimed_at(self, q, trait):
        return {"everyone": True, "glasses": self.glasses[q], "no_glasses": not self.glasses[q],
                "dog": self.dog[q], "no_dog": not self.dog[q], "jeans": self.jeans[q]}[trait]

    # ---- hands
    def ask_bohei(self, p):
        if self.choose([("called",), ("did_not",)]) == ("did_not",):
            self.missed_call[p] = True

    def changed(self, p):
        if len(self.hands[p]) in self.sizes:
            self.ask_bohei(p)

    def move_card(self, card, source, dest):
        source.remove(card)
        dest.append(card)

    def draw_one(self, p):
        if not self.draw_pile and self.discard_pile:
            self.draw_pile.extend(self.discard_pile)
            self.discard_pile.clear()
            self.shuffle(self.draw_pile)
        if not self.draw_pile:
            return
        self.hands[p].append(self.draw_pile.pop())
        self.changed(p)

    def discard_one(self, p):
        hand = self.hands[p]
        if not hand:
            return
        _, card = self.choose([("discard", c) for c in hand])
        self.move_card(card, hand, self.discard_pile)
        self.changed(p)

    def give_one(self, giver, taker):
        hand = self.hands[giver]
        if not hand:
            return
        _, card = self.choose([("give", c) for c in hand])
        self.move_card(card, hand, self.hands[taker])
        self.changed(giver)
        self.changed(taker)

    def carry_out(self, p, what, n):
        for _ in range(n):
            if what == "draws":
                self.draw_one(p)
            elif what == "discards":
                self.discard_one(p)
            elif what == "gives_left":
                self.give_one(p, self.left_of(p))
            elif what == "gives_right":
                self.give_one(p, self.right_of(p))
            elif what == "takes_left":
                self.give_one(self.left_of(p), p)
            else:
                self.give_one(self.right_of(p), p)

    def first_of_kind(self, p, kind):
        return next((c for c in self.hands[p] if c.kind == kind), None)

    def must(self, p, what, n, source):
        """An effect about to hit `p`: p answers with Nö, Gegenteiltag (action cards only) or passes."""
        moves = []
        if self.first_of_kind(p, "nope") and what in ("draws", "discards"):  # not a give
            moves.append(("play_no",))
        if self.first_of_kind(p, "opposite") and source is not None:
            moves.append(("play_opposite",))
        moves.append(("pass",))
        answer = self.choose(moves)[0]
        if answer == "play_no":
            self.move_card(self.first_of_kind(p, "nope"), self.hands[p], self.discard_pile)
            self.changed(p)
            return
        if answer == "play_opposite":
            self.move_card(self.first_of_kind(p, "opposite"), self.hands[p], self.discard_pile)
            what = source.opposite
            self.changed(p)
        self.carry_out(p, what, n)

    def penalty(self, q):
        self.must(q, "discards" if len(self.hands[q]) <= 7 else "draws", 1, None)

    def report_breaks(self, eligible):
        """The table reports rule breaks: anyone? who? agreed? and again, until nobody."""
        if not self.watched or not eligible:
            return
        left = list(eligible)
        while left:
            if self.choose([("nobody",), ("somebody",)]) == ("nobody",):
                return
            _, q = self.choose([("broke", x) for x in left])
            left.remove(q)
            if self.choose([("agreed",), ("not_agreed",)]) == ("agreed",):
                self.penalty(q)

    # ---- the rule area
    def zone_of(self, card):
        return next(pile for pile in self.places.values() if card in pile)

    def put_in_force(self, p, card):
        before = self.sizes
        self.hands[p].remove(card)
        if card.effect == "open_place":
            self.extension.append(card)
        elif card.effect == "close_place":
            _, s = self.choose([("close", s) for s in self.open_places()])
            self.places[s].append(card)
            self.closed.append(s)
        elif not self.free_places():
            _, old = self.choose([("cover", r) for r in self.active_rules()])
            place = self.zone_of(old)
            place.append(card)
            self.move_card(old, place, self.discard_pile)
        else:
            self.places[self.free_places()[0]].append(card)
        self.area_changed()
        self.changed(p)
        sizes = self.sizes
        if sizes != before:
            for q in self.players_from(self.left_of(p)):
                size = len(self.hands[q])
                if q != p and size in sizes and size not in before:
                    self.ask_bohei(q)

    # ---- challenges
    def reward(self, w):
        moves = [("discard", k) for k in range(1, min(2, len(self.hands[w])) + 1)]
        if self.may_draw(w):
            moves += [("draw", 1), ("draw", 2)]
        moves.append(("neither",))
        move = self.choose(moves)
        if move[0] == "discard":
            for _ in range(move[1]):
                self.discard_one(w)
        elif move[0] == "draw":
            for _ in range(move[1]):
                self.draw_one(w)

    def one_on_one(self, p, card):
        _, rival = self.choose([("challenge", q) for q in range(self.n) if q != p])
        if card.kind == "judged":
            self.choose([("judge", q) for q in range(self.n) if q != p and q != rival])
        self.in_challenge[p] = self.in_challenge[rival] = True
        while True:
            move = self.choose([("won", p), ("won", rival), ("replay",)])
            if move[0] == "won":
                break
        self.reward(move[1])

    def group_challenge(self):
        self.in_challenge = [True] * self.n
        still_in = list(range(self.n))
        while len(still_in) > 1:
            move = self.choose([("out", q) for q in still_in] + [("again",)])
            if move[0] == "out":
                still_in.remove(move[1])
        self.reward(still_in[0])

    def challenge(self, p, card):
        if card.kind == "group":
            self.group_challenge()
        else:
            self.one_on_one(p, card)
        outside = [x for x in range(self.n) if not self.in_challenge[x]]
        self.in_challenge = [False] * self.n
        self.report_breaks(outside)

    def act(self, p, card):
        for q in self.players_from(p):
            if self.aimed_at(q, card.trait):
                self.must(q, card.effect, card.amount, card)

    # ---- the game
    def setup(self):
        for p in range(self.n):
            for traits, yes in ((self.glasses, "wears"), (self.dog, "owns"), (self.jeans, "wears")):
                if self.choose([(yes,), ("does_not",)]) == (yes,):
                    traits[p] = True
        _, self.current = self.choose([("begins", q) for q in range(self.n)])
        self.starter = self.current
        self.shuffle(self.draw_pile)
        for _ in range(3):
            for q in self.players_from(self.current):
                self.hands[q].append(self.draw_pile.pop())

    def turn(self):
        """One turn; False when the game is over."""
        self.turns += 1
        if self.turns > TURN_CAP:
            self.capped = True
            return False
        p = self.current
        hand = self.hands[p]
        if len(hand) in self.sizes and not self.missed_call[p]:
            self.champion = p
            return False
        self.missed_call[p] = False
        moves = ([("draw",)] if self.may_draw(p) else []) + ([("no_draw",)] if self.may_skip_drawing(p) else [])
        if not self.may_skip_drawing(p) and self.first_of_kind(p, "nope"):  # Nö answers Draw duty
            moves.append(("play_no",))
        chosen = self.choose(moves)
        if chosen == ("draw",):
            self.draw_one(p)
        elif chosen == ("play_no",):
            self.move_card(self.first_of_kind(p, "nope"), self.hands[p], self.discard_pile)
            self.changed(p)
        rules = [c for c in hand if c.kind == "rule"]
        if rules:
            _, card = self.choose([("activate", c) for c in rules])
            self.put_in_force(p, card)
        move = self.choose([("play", c) for c in hand if self.may_play(p, c)] + [("neither",)])
        if move[0] == "play":
            card = move[1]
            self.move_card(card, hand, self.discard_pile)
            self.changed(p)
            if card.kind == "action":
                self.act(p, card)
            else:
                self.challenge(p, card)
        if self.left_of(self.current) == self.starter:
            self.report_breaks(list(range(self.n)))
        self.current = self.left_of(self.current)
        return True


def play_game(seed, options=None, players=4):
    """One whole game between uniformly random players: (winners, decisions)."""
    if not 3 <= players <= 6:
        raise ValueError("Bohei takes 3 to 6 players")
    rng = random.Random(seed)
    table = Table(players, rng.choice, rng.shuffle)
    table.setup()
    while table.turn():
        pass
    return ([] if table.champion is None else [table.champion]), table.decisions


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    start, total = time.perf_counter(), 0
    for s in range(n):
        total += play_game(s)[1]
    elapsed = time.perf_counter() - start
    print(f"{n} games, {total} decisions in {elapsed:.2f} s: {n / elapsed:.0f} games/s, {total / elapsed:.0f} decisions/s")
