"""Boss Poker written by hand, the readable way (standard library only).

The same rules as games/bosspoker.cardgame (read its opening comment for how the seed's unclear
points are settled) and the same random policy: at every decision the player picks uniformly
among the legal moves.  Cards are (rank, colour) pairs; a rank is 1 for the Ace, 2..10, or
"J", "Q", "K".  Hidden information (who looks at whose card) changes nothing in the play of
random players, so the looks are not modelled; the King's choice of target still is a decision.

Option `raises`: "any_amount" (the default: a raise may go to any bet the player can cover) or
"by_ante" (a raise puts the bet up by the ante, and only that).
"""

import random
import sys
import time

COLOURS = ("r", "b", "y", "p", "o")
START_TOKENS, START_GREEN, RESERVE = 150, 3, 10


def number_ranks(players):
    """The number cards each player holds: A (1), 2..10 without the 2 (3 players) or 2 and 3 (4)."""
    excluded = {3: {2}, 4: {2, 3}}.get(players, set())
    return [r for r in range(1, 11) if r not in excluded]


def rounds_for(players):
    return {3: 9, 4: 8}.get(players, 10)


def bet_moves(bet, put, tokens, ante, by_ante):
    """The betting moves of a player who has put in `put`, holds `tokens`, facing `bet`:
    ("check",), ("call",), ("raise", to), ("all_in",), ("fold",)."""
    to_call = bet - put
    moves = []
    if bet == 0:
        moves.append(("check",))
    if to_call > 0 and tokens >= to_call:
        moves.append(("call",))
    if by_ante:
        targets = [bet + ante] if bet + ante <= put + tokens else []
    else:
        targets = range(bet + 1, put + tokens + 1)
    moves.extend(("raise", to) for to in targets)
    if to_call > 0 and tokens < to_call:
        moves.append(("all_in",))
    if to_call > 0:
        moves.append(("fold",))
    return moves


def face_moves(faces, green):
    """The face cards a player may play: a K or a Q only with a green token left."""
    return [f for f in faces if f == "J" or green > 0]


def king_targets(order, player, faces, revealed):
    """Whom a King revealed by `player` may look at: the others still in who have not revealed
    yet, or revealed a J or a K."""
    return [q for q in order if q != player and (q not in revealed or faces[q] in ("J", "K"))]


def showdown_winner(order, numbers):
    """The winner among `order` (the (interim) Boss first, then clockwise) by their number cards:
    the Ace is 11 if a 10 is shown, else 1; the first of equal cards wins."""
    ace = 11 if any(numbers[q] == 10 for q in order) else 1
    best, best_value = None, 0
    for q in order:
        value = ace if numbers[q] == 1 else numbers[q]
        if best is None or value > best_value:
            best, best_value = q, value
    return best


class Table:
    """One game: tokens, green tokens, the round's pot and bets."""

    def __init__(self, players, rng, by_ante):
        self.players = players
        self.rng = rng
        self.by_ante = by_ante
        self.tokens = [START_TOKENS] * players
        self.green = [START_GREEN] * players
        self.reserve = RESERVE
        self.out = [False] * players
        self.numbers = [number_ranks(players) for _ in range(players)]
        self.decisions = 0
        self.round = 0
        self.boss = 0

    def choose(self, options):
        self.decisions += 1
        return self.rng.choice(options)

    def clockwise_from(self, seat):
        return [(seat + i) % self.players for i in range(self.players)]

    def still_in(self):
        return [q for q in range(self.players) if not self.out[q] and not self.folded[q]]

    def in_round_from(self, seat):
        return [q for q in self.clockwise_from(seat) if not self.out[q] and not self.folded[q]]

    def pay(self, p, amount):
        self.tokens[p] -= amount
        self.put[p] += amount
        self.pot += amount

    def fold(self, p):
        self.folded[p] = True
        if p == self.interim:
            self.interim = self.in_round_from(p)[0]

    def betting(self):
        self.bet = 0
        self.put = [0] * self.players
        acted = [False] * self.players

        def can_bet(q):
            return not self.out[q] and not self.folded[q] and self.tokens[q] > 0

        def needs_to_act(q):
            return can_bet(q) and (not acted[q] or self.put[q] < self.bet)

        if sum(1 for q in range(self.players) if can_bet(q)) < 2:
            return
        turn = self.interim
        while len(self.still_in()) >= 2 and any(needs_to_act(q) for q in range(self.players)):
            if needs_to_act(turn):
                p = turn
                move = self.choose(bet_moves(self.bet, self.put[p], self.tokens[p], self.ante, self.by_ante))
                if move[0] == "call":
                    self.pay(p, self.bet - self.put[p])
                elif move[0] == "raise":
                    self.pay(p, move[1] - self.put[p])
                    self.bet = move[1]
                    acted = [False] * self.players
                elif move[0] == "all_in":
                    self.pay(p, self.tokens[p])
                elif move[0] == "fold":
                    self.fold(p)
                acted[p] = True
            turn = (turn + 1) % self.players

    def take_green(self, q):
        if self.reserve > 0:
            self.reserve -= 1
            self.green[q] += 1

    def play_round(self):
        """One round; False when fewer than two players can pay the ante (the game is over)."""
        self.round += 1
        self.ante = 4 + self.round
        for q in range(self.players):
            if not self.out[q] and self.tokens[q] < self.ante:
                self.out[q] = True
        if sum(1 for q in range(self.players) if not self.out[q]) < 2:
            return False
        self.boss = next(q for q in self.clockwise_from(self.boss) if not self.out[q])
        self.interim = self.boss
        self.folded = list(self.out)
        self.pot = 0
        for q in range(self.players):
            if not self.out[q]:
                self.tokens[q] -= self.ante
                self.pot += self.ante
        committed = {}
        for q in range(self.players):
            if not self.out[q]:
                card = self.choose(self.numbers[q])
                self.numbers[q].remove(card)
                committed[q] = card
        self.betting()
        if len(self.still_in()) >= 2:
            faces = {q: self.choose(face_moves(("J", "Q", "K"), self.green[q])) for q in self.still_in()}
            order = self.in_round_from(self.interim)
            revealed = []
            for p in order:
                if faces[p] in ("K", "Q"):
                    self.green[p] -= 1
                    self.reserve += 1
                if faces[p] == "K":
                    targets = king_targets(order, p, faces, revealed)
                    if targets:
                        self.choose(targets)
                revealed.append(p)
            self.betting()
        still_in = self.still_in()
        if len(still_in) == 1:
            winner = still_in[0]
            self.tokens[winner] += self.pot
            if self.reserve > 0 and self.choose(["reveal_card", "keep_hidden"]) == "reveal_card":
                self.take_green(winner)
        else:
            order = self.in_round_from(self.interim)
            winner = showdown_winner(order, committed)
            self.take_green(winner)
            self.tokens[winner] += self.pot
        self.pot = 0
        return True


def play_game(seed, options=None, players=4):
    """One whole game between uniformly random players: (tokens by seat, decisions)."""
    options = options or {}
    if not 2 <= players <= 5:
        raise ValueError("Boss Poker takes 2 to 5 players")
    table = Table(players, random.Random(seed), options.get("raises", "any_amount") == "by_ante")
    for _ in range(rounds_for(players)):
        if not table.play_round():
            break
        # the next Boss sits clockwise from this round's Boss
        table.boss = next(q for q in table.clockwise_from((table.boss + 1) % players) if not table.out[q])
    return table.tokens, table.decisions


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    opts = {"raises": "by_ante"} if "by_ante" in sys.argv[2:] else {}
    start, total = time.perf_counter(), 0
    for s in range(n):
        total += play_game(s, opts)[1]
    elapsed = time.perf_counter() - start
    print(f"{n} games, {total} decisions in {elapsed:.2f} s: {n / elapsed:.0f} games/s, {total / elapsed:.0f} decisions/s")
