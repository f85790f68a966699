"""Bouncer, written by hand in plain Python (standard library only).

This is the baseline the benchmark compares the card-game engine against:
same rules, same random policy (one ``random.Random(seed)`` for shuffling and
for the players, each player picking uniformly among its legal cards).

Rules in brief:
  * 3 players; the hand deck is diamonds, spades and clubs (39 cards,
    ranks 2..14 with aces high), 13 cards each.
  * The 13 hearts form a separate point deck; one is revealed per trick.
  * Follow the led suit if you can.  The highest rank wins regardless of
    suit; on equal ranks the card played last wins.  The winner takes the
    revealed point card and leads the next trick.
  * After 13 tricks each player scores the point cards they collected
    (see ``score_hand``).  The game ends once some total is <= -100.
"""

import random

NUM_PLAYERS = 3
HAND_SUITS = ("D", "S", "C")          # diamonds, spades, clubs
RANKS = range(2, 15)                  # 11=J, 12=Q, 13=K, 14=A
TRICKS_PER_HAND = 13
LOSING_TOTAL = -100
BOUNCER_PENALTY = 25

JACK, QUEEN, KING, ACE = 11, 12, 13, 14
BOUNCERS = (JACK, QUEEN, KING)


def point_value(rank):
    """Value of a numeric heart: 2..10 at face value, the ace is worth 11."""
    return 11 if rank == ACE else rank


def is_bouncer(rank):
    return rank in BOUNCERS


# --------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------

def score_plain(collected):
    """Plain variant: each bouncer cancels the highest remaining numeric card.

    ``collected`` is the list of heart ranks a player took this hand.
    """
    values = sorted((point_value(r) for r in collected if not is_bouncer(r)),
                    reverse=True)
    bouncers = sum(1 for r in collected if is_bouncer(r))
    remaining = values[bouncers:]              # the highest ones are cancelled
    unused = max(0, bouncers - len(values))
    return -sum(remaining) - BOUNCER_PENALTY * unused


def score_special(collected):
    """Special variant: K bounces the highest, J the lowest, Q the card just before it.

    Bouncers are processed in collection order.  A bouncer with no target, or
    whose target was already bounced, costs BOUNCER_PENALTY instead.
    Ties on value go to the earliest collected card.
    """
    # Positions (indices into ``collected``) of the numeric cards.
    numeric = [i for i, r in enumerate(collected) if not is_bouncer(r)]
    bounced = set()
    unused = 0

    for i, rank in enumerate(collected):
        if not is_bouncer(rank):
            continue
        target = None
        if rank == KING and numeric:
            best = max(point_value(collected[j]) for j in numeric)
            target = next(j for j in numeric if point_value(collected[j]) == best)
        elif rank == JACK and numeric:
            low = min(point_value(collected[j]) for j in numeric)
            target = next(j for j in numeric if point_value(collected[j]) == low)
        elif rank == QUEEN and i > 0 and not is_bouncer(collected[i - 1]):
            target = i - 1

        if target is None or target in bounced:
            unused += 1
        else:
            bounced.add(target)

    kept = sum(point_value(collected[j]) for j in numeric if j not in bounced)
    return -kept - BOUNCER_PENALTY * unused


def score_hand(collected, special_bouncers=False):
    if special_bouncers:
        return score_special(collected)
    return score_plain(collected)


# --------------------------------------------------------------------------
# Playing
# --------------------------------------------------------------------------

def new_hand_deck():
    """The 39 playable cards as (suit, rank) tuples."""
    return [(suit, rank) for suit in HAND_SUITS for rank in RANKS]


def legal_moves(hand, led_suit):
    """Cards from ``hand`` that may be played; ``led_suit`` is None when leading."""
    if led_suit is not None:
        following = [card for card in hand if card[0] == led_suit]
        if following:
            return following
    return list(hand)


def trick_winner(plays):
    """``plays`` is a list of (seat, card) in play order; return the winning seat.

    Highest rank wins regardless of suit; on a tie the card played last wins.
    """
    winner, best_rank = None, -1
    for seat, (_suit, rank) in plays:
        if rank >= best_rank:                 # >= so a later equal card wins
            winner, best_rank = seat, rank
    return winner


def play_hand(rng, first_leader, special_bouncers):
    """Deal and play one hand of 13 tricks.

    Returns (hand scores by seat, number of cards played).
    """
    deck = new_hand_deck()
    rng.shuffle(deck)
    hands = [deck[p * 13:(p + 1) * 13] for p in range(NUM_PLAYERS)]

    point_deck = list(RANKS)                  # the 13 hearts
    rng.shuffle(point_deck)

    collected = [[] for _ in range(NUM_PLAYERS)]
    leader = first_leader
    decisions = 0

    for _trick in range(TRICKS_PER_HAND):
        point_card = point_deck.pop()         # reveal the top point card
        plays = []
        led_suit = None
        for offset in range(NUM_PLAYERS):
            seat = (leader + offset) % NUM_PLAYERS
            card = rng.choice(legal_moves(hands[seat], led_suit))
            hands[seat].remove(card)
            decisions += 1
            if led_suit is None:
                led_suit = card[0]
            plays.append((seat, card))
        leader = trick_winner(plays)
        collected[leader].append(point_card)

    scores = [score_hand(c, special_bouncers) for c in collected]
    return scores, decisions


def play_game(seed, options=None):
    """Play one whole game between uniformly random players; return (scores by seat, number of decisions)."""
    options = options or {}
    special_bouncers = bool(options.get("special_bouncers", False))
    # options["show_upcoming"] only changes what players can see; random
    # players ignore information, so it has no effect here.

    rng = random.Random(seed)
    totals = [0] * NUM_PLAYERS
    decisions = 0
    hand_number = 0

    while True:
        scores, played = play_hand(rng, hand_number % NUM_PLAYERS, special_bouncers)
        decisions += played
        for seat in range(NUM_PLAYERS):
            totals[seat] += scores[seat]
        hand_number += 1
        if min(totals) <= LOSING_TOTAL:
            return totals, decisions


if __name__ == "__main__":
    import sys
    import time

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    special = len(sys.argv) > 2 and sys.argv[2] == "special"
    start = time.perf_counter()
    total_decisions = 0
    for seed in range(n):
        _, d = play_game(seed, {"special_bouncers": special})
        total_decisions += d
    elapsed = time.perf_counter() - start
    print(f"{n} games in {elapsed:.3f}s: {n / elapsed:.1f} games/s, "
          f"{total_decisions / elapsed:.0f} decisions/s")
