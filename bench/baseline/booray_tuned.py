"""Boo Ray as fast as plain Python gets: the benchmark's "real limit" (standard library only).

The same rules and random policy as booray.py (uniform over the legal moves at every
decision: the dealer's convention call, declarations, cards and the go-on/stop votes), written
for speed: a card is an int (suit * 13 + rank - 2, suits C D H S), hands are lists of ints, the
card rules and the trick winner are inlined in the play loop, a draw is `int(random() * n)`,
and no object is made per move.  `legal_cards` is the same rule as a function, for
tests/test_baseline_tuned.py, which checks it against the engine's legal moves.
"""

import random

SUITS = ("C", "D", "H", "S")
ANTE = 5
MATCH_LIMIT = 100


def card_name(card: int) -> str:
    rank = card % 13 + 2
    return {11: "J", 12: "Q", 13: "K", 14: "A"}.get(rank, str(rank)) + SUITS[card // 13]


def legal_cards(hand, trick, trump):
    """The cards of `hand` that may be played to `trick` (cards, the lead first)."""
    if not trick:
        return list(hand)
    led = trick[0] // 13
    candidates = [c for c in hand if c // 13 == led]
    if not candidates:
        candidates = [c for c in hand if c // 13 == trump] or list(hand)
    if candidates[0] // 13 == trump:
        tops = [c for c in trick if c // 13 == trump]
        if tops:
            top = max(tops)
            beating = [c for c in candidates if c > top]
            if beating:
                return beating
    return candidates


def play_game(seed, options=None, players=4):
    """One whole game between uniformly random players: (money by seat, decisions)."""
    options = options or {}
    high_deals = options.get("first_dealer", "high") == "high"
    hands_limit = int(options.get("hands", 0))
    conventions = bool(options.get("conventions", False))
    if not 4 <= players <= 6:
        raise ValueError("Boo Ray takes 4 to 6 players")
    rng = random.Random(seed)
    rnd, shuffle = rng.random, rng.shuffle
    money = [0] * players
    pot = decisions = hand_number = 0
    deck = list(range(52))
    # the first dealer: everyone pulls, ties pull again from a reshuffled deck
    pulling = list(range(players))
    while len(pulling) > 1:
        shuffle(deck)
        ranks = {}
        top = 51
        for p in pulling:
            ranks[p] = deck[top] % 13
            top -= 1
        best = max(ranks.values()) if high_deals else min(ranks.values())
        pulling = [p for p in pulling if ranks[p] == best]
    dealer = pulling[0]
    while True:
        hand_number += 1
        for p in range(players):
            money[p] -= ANTE
        pot += ANTE * players
        stake = pot
        shuffle(deck)
        order = [(dealer + 1 + i) % players for i in range(players)]  # the dealer last
        hands = [[] for _ in range(players)]
        top = 51
        for _ in range(4):
            for p in order:
                hands[p].append(deck[top])
                top -= 1
        for p in order[:-1]:
            hands[p].append(deck[top])
            top -= 1
        choice = None
        if conventions:
            choice = int(rnd() * 5) - 1  # -1: turn up, else a suit
            decisions += 1
        turned = deck[top]
        hands[dealer].append(turned)
        trump = choice if choice is not None and choice >= 0 else turned // 13
        if conventions and choice >= 0:
            playing = order
        else:
            playing = []
            for p in order:
                decisions += 1
                if rnd() < 0.5:
                    playing.append(p)
        if len(playing) > 1:
            tricks = dict.fromkeys(playing, 0)
            leader = playing[0]
            count = len(playing)
            for _ in range(5):
                start = playing.index(leader)
                trick = []
                high_trump = -1  # the best trump played so far (a card), or -1
                best_led = -1
                led = -1
                winner = leader
                for i in range(count):
                    p = playing[(start + i) % count]
                    hand = hands[p]
                    if not trick:
                        card = hand.pop(int(rnd() * len(hand)))
                        led = card // 13
                    else:
                        cands = [c for c in hand if c // 13 == led]
                        if not cands:
                            cands = [c for c in hand if c // 13 == trump] or hand
                        if high_trump >= 0 and cands[0] // 13 == trump:
                            beating = [c for c in cands if c > high_trump]
                            if beating:
                                cands = beating
                        card = cands[int(rnd() * len(cands))]
                        hand.remove(card)
                    trick.append(card)
                    suit = card // 13
                    if suit == trump:
                        if card > high_trump:
                            high_trump, winner = card, p
                    elif high_trump < 0 and suit == led and card > best_led:
                        best_led, winner = card, p
                    if suit == led and card > best_led:
                        best_led = card
                decisions += count
                leader = winner
                tricks[leader] += 1
            most = max(tricks.values())
            best = [p for p in playing if tricks[p] == most]
            if len(best) == 1:
                money[best[0]] += pot
                pot = 0
            for p in playing:
                if tricks[p] == 0:
                    match = stake if stake < MATCH_LIMIT else MATCH_LIMIT
                    money[p] -= match
                    pot += match
        elif playing:
            money[playing[0]] += pot
            pot = 0
        dealer = (dealer + 1) % players
        if hands_limit and hand_number >= hands_limit:
            return money, decisions
        decisions += players
        stops = 0
        for _ in range(players):
            if rnd() < 0.5:
                stops += 1
        if stops == players:
            return money, decisions


if __name__ == "__main__":
    import sys
    import time

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    start = time.perf_counter()
    total = sum(play_game(seed, {}, players)[1] for seed in range(n))
    elapsed = time.perf_counter() - start
    print(f"{n} games in {elapsed:.3f}s: {n / elapsed:.1f} games/s, {total / elapsed:.0f} decisions/s")
