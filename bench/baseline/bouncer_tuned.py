"""Bouncer as fast as plain Python gets: the benchmark's "real limit" (standard library only).

The same rules and random policy as bouncer.py (uniform over the legal cards at every
decision), written for speed instead of reading: a card is an int (suit * 13 + rank - 2), a
hand a list of ints, the follow-suit rule and the trick winner are inlined in the play loop,
a draw is `int(random() * n)`, and no object is made per move.  `legal_cards` is the same
rule as a function, for tests/test_baseline_tuned.py, which checks it against the engine's
legal moves along real games.
"""

import random

PLAYERS = 3
SUITS = ("D", "S", "C")
LOSING_TOTAL = -100
PENALTY = 25
JACK, QUEEN, KING, ACE = 11, 12, 13, 14
VALUE = {r: (11 if r == ACE else r) for r in range(2, 15)}
BOUNCER = {JACK, QUEEN, KING}


def card_name(card: int) -> str:
    """The engine's name of a tuned card (2D, 10S, QC, AD)."""
    rank = card % 13 + 2
    return {11: "J", 12: "Q", 13: "K", 14: "A"}.get(rank, str(rank)) + SUITS[card // 13]


def legal_cards(hand, led):
    """The cards of `hand` that may be played; `led` is the led suit (0..2) or None."""
    if led is not None:
        follow = [c for c in hand if c // 13 == led]
        if follow:
            return follow
    return list(hand)


def score(won, special):
    """A hand's score from the point ranks won, in the order won (see bouncer.score_hand)."""
    if not special:
        values = sorted([VALUE[r] for r in won if r not in BOUNCER], reverse=True)
        bouncers = len(won) - len(values)
        spare = bouncers - len(values)
        return -sum(values[bouncers:]) - (PENALTY * spare if spare > 0 else 0)
    numeric = [i for i, r in enumerate(won) if r not in BOUNCER]
    bounced, unused = set(), 0
    for i, r in enumerate(won):
        if r not in BOUNCER:
            continue
        target = None
        if numeric and r == KING:
            best = max(VALUE[won[j]] for j in numeric)
            target = next(j for j in numeric if VALUE[won[j]] == best)
        elif numeric and r == JACK:
            low = min(VALUE[won[j]] for j in numeric)
            target = next(j for j in numeric if VALUE[won[j]] == low)
        elif r == QUEEN and i > 0 and won[i - 1] not in BOUNCER:
            target = i - 1
        if target is None or target in bounced:
            unused += 1
        else:
            bounced.add(target)
    return -sum(VALUE[won[j]] for j in numeric if j not in bounced) - PENALTY * unused


def play_game(seed, options=None):
    """One whole game between uniformly random players: (scores by seat, decisions)."""
    special = bool((options or {}).get("special_bouncers", False))
    rng = random.Random(seed)
    rnd, shuffle = rng.random, rng.shuffle
    totals = [0, 0, 0]
    decisions = 0
    first = 0
    deck = list(range(39))
    nxt = (1, 2, 0)
    while True:
        shuffle(deck)
        hands = [deck[0:13], deck[13:26], deck[26:39]]
        points = list(range(2, 15))
        shuffle(points)
        won = [[], [], []]
        leader = first
        for _ in range(13):
            prize = points.pop()
            hand = hands[leader]
            card = hand.pop(int(rnd() * len(hand)))
            led = card // 13
            best = card % 13
            winner = seat = leader
            for _ in (1, 2):
                seat = nxt[seat]
                hand = hands[seat]
                follow = [c for c in hand if c // 13 == led]
                if follow:
                    card = follow[int(rnd() * len(follow))]
                    hand.remove(card)
                else:
                    card = hand.pop(int(rnd() * len(hand)))
                if card % 13 >= best:  # equal ranks: the card played last wins
                    best = card % 13
                    winner = seat
            won[winner].append(prize)
            leader = winner
        decisions += 39
        for p in range(3):
            totals[p] += score(won[p], special)
        first = nxt[first]
        if min(totals) <= LOSING_TOTAL:
            return totals, decisions


if __name__ == "__main__":
    import sys
    import time

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    start = time.perf_counter()
    total = sum(play_game(seed, {"special_bouncers": len(sys.argv) > 2})[1] for seed in range(n))
    elapsed = time.perf_counter() - start
    print(f"{n} games in {elapsed:.3f}s: {n / elapsed:.1f} games/s, {total / elapsed:.0f} decisions/s")
