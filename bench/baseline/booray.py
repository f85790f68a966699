"""Boo Ray, written by hand in plain Python (standard library only).

This is the baseline the benchmark compares the card-game engine against: the same rules as
games/booray.cardgame and the same random policy (one ``random.Random(seed)`` for shuffling
and for the players, who pick uniformly among their legal moves at every decision: the
dealer's convention call, declarations, cards and the go-on/stop votes).

Rules in brief (the script's opening comment gives the reasons):
  * 4 to 6 players, 52 cards, aces high.  Money in cents, starting at 0 (net winnings).
  * First dealer: everyone pulls a card from the shuffled deck; the high (or low, option
    ``first_dealer``) rank deals; tied players pull again from a reshuffled deck.  The deal
    then rotates to the dealer's left after every hand.
  * Every hand everyone antes 5 cents.  5 cards each from the dealer's left; the dealer's last
    card is turned up and its suit is trump.  With option ``conventions`` the dealer may first
    name trump instead (5 choices: turn up, or one of 4 suits); then everyone plays.
  * Otherwise players declare in turn from the dealer's left (play or pass).  Nobody: the pot
    stays.  One player: he takes the pot without play.
  * Tricks: follow suit; else trump if able; a trump must beat the highest trump in the trick
    if able.  Highest trump wins, else highest of the led suit; the winner leads.
  * A single player with most tricks takes the pot; a tie leaves it.  Each declared player
    with no trick pays min(pot as it was for the hand, 100) into the pot.
  * After each hand everyone votes go on / stop; all stop ends the game.  Option ``hands``
    (> 0) ends the game, without a vote, after that many hands.
"""

import random

SUITS = ("C", "D", "H", "S")
RANKS = range(2, 15)                  # 11=J, 12=Q, 13=K, 14=A
ANTE = 5
MATCH_LIMIT = 100
CARDS_PER_HAND = 5


def new_deck():
    """The 52 cards as (suit, rank) tuples."""
    return [(suit, rank) for suit in SUITS for rank in RANKS]


def legal_cards(hand, trick, trump):
    """Cards from ``hand`` that may be played to ``trick`` (a list of cards, the lead first)."""
    if not trick:
        return list(hand)
    led = trick[0][0]
    following = [c for c in hand if c[0] == led]
    if following:
        candidates = following
    else:
        trumps = [c for c in hand if c[0] == trump]
        candidates = trumps if trumps else list(hand)
    # Whoever plays a trump (led trumps included) must beat the trumps in the trick if able.
    if candidates and candidates[0][0] == trump:
        top = max((c[1] for c in trick if c[0] == trump), default=None)
        if top is not None:
            beating = [c for c in candidates if c[1] > top]
            if beating:
                return beating
    return candidates


def trick_winner(plays, trump):
    """``plays`` is a list of (seat, card) in play order; return the winning seat."""
    led = plays[0][1][0]
    trumps = [(card[1], seat) for seat, card in plays if card[0] == trump]
    if trumps:
        return max(trumps)[1]
    return max((card[1], seat) for seat, card in plays if card[0] == led)[1]


def pull_for_deal(rng, players, high_deals):
    """Everyone pulls; ties pull again from a reshuffled deck.  Returns the first dealer."""
    pulling = list(range(players))
    while len(pulling) > 1:
        deck = new_deck()
        rng.shuffle(deck)
        ranks = {p: deck.pop()[1] for p in pulling}
        best = max(ranks.values()) if high_deals else min(ranks.values())
        pulling = [p for p in pulling if ranks[p] == best]
    return pulling[0]


def play_hand(rng, players, dealer, money, pot, conventions):
    """Ante, deal, declare and play one hand.  Returns (new pot, decisions)."""
    decisions = 0
    for p in range(players):
        money[p] -= ANTE
    pot += ANTE * players
    stake = pot

    deck = new_deck()
    rng.shuffle(deck)
    order = [(dealer + 1 + i) % players for i in range(players)]   # the dealer last
    hands = {p: [] for p in range(players)}
    for _round in range(CARDS_PER_HAND - 1):
        for p in order:
            hands[p].append(deck.pop())
    for p in order[:-1]:
        hands[p].append(deck.pop())

    trump = None
    if conventions:
        choice = rng.choice([None] + list(SUITS))        # turn up, or name a suit
        decisions += 1
        trump = choice
    turned = deck.pop()
    hands[dealer].append(turned)
    if trump is None:
        trump = turned[0]

    if conventions and choice is not None:
        playing = list(order)
    else:
        playing = []
        for p in order:
            decisions += 1
            if rng.choice(("play_hand", "pass")) == "play_hand":
                playing.append(p)
        if not playing:
            return pot, decisions
        if len(playing) == 1:
            money[playing[0]] += pot
            return 0, decisions

    tricks = {p: 0 for p in playing}
    leader = playing[0]
    for _trick in range(CARDS_PER_HAND):
        start = playing.index(leader)
        plays, cards = [], []
        for p in playing[start:] + playing[:start]:
            card = rng.choice(legal_cards(hands[p], cards, trump))
            hands[p].remove(card)
            decisions += 1
            plays.append((p, card))
            cards.append(card)
        leader = trick_winner(plays, trump)
        tricks[leader] += 1

    most = max(tricks.values())
    best = [p for p in playing if tricks[p] == most]
    if len(best) == 1:
        money[best[0]] += pot
        pot = 0
    for p in playing:
        if tricks[p] == 0:
            match = min(stake, MATCH_LIMIT)
            money[p] -= match
            pot += match
    return pot, decisions


def play_game(seed, options=None, players=4):
    """Play one whole game between uniformly random players; return (money by seat, decisions)."""
    options = options or {}
    high_deals = options.get("first_dealer", "high") == "high"
    hands_limit = int(options.get("hands", 0))
    conventions = bool(options.get("conventions", False))
    if not 4 <= players <= 6:
        raise ValueError("Boo Ray takes 4 to 6 players")

    rng = random.Random(seed)
    money = [0] * players
    pot = 0
    decisions = 0
    dealer = pull_for_deal(rng, players, high_deals)
    hand_number = 0
    while True:
        hand_number += 1
        pot, made = play_hand(rng, players, dealer, money, pot, conventions)
        decisions += made
        dealer = (dealer + 1) % players
        if hands_limit and hand_number >= hands_limit:
            return money, decisions
        stops = 0
        for _p in range(players):
            decisions += 1
            if rng.choice(("go_on", "stop")) == "stop":
                stops += 1
        if stops == players:
            return money, decisions


if __name__ == "__main__":
    import sys
    import time

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    conventions = len(sys.argv) > 3 and sys.argv[3] == "conventions"
    start = time.perf_counter()
    total_decisions = 0
    for seed in range(n):
        _, d = play_game(seed, {"conventions": conventions}, players)
        total_decisions += d
    elapsed = time.perf_counter() - start
    print(f"{n} games in {elapsed:.3f}s: {n / elapsed:.1f} games/s, "
          f"{total_decisions / elapsed:.0f} decisions/s")
