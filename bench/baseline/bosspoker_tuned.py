"""Boss Poker as fast as plain Python gets: the benchmark's "real limit" (standard library only).

The same rules and random policy as bosspoker.py (uniform over the legal moves at every
decision: the committed number card, each betting move, the face card, the King's target and
the lone survivor's reveal), written for speed: a number card is its rank (1 for the Ace,
2..10), a face card 11 (J), 12 (Q) or 13 (K); the betting moves are never listed: a draw
picks an index among check / call / the raise targets / all in / fold, counted from the state;
a draw is `int(random() * n)` and no object is made per move.  `bet_move_count` and
`bet_move_at` are that rule as functions, for tests/test_baseline_tuned.py, which checks them
against the engine's legal moves.
"""

import random

J, Q, K = 11, 12, 13


def bet_move_count(bet, put, tokens, ante, by_ante):
    """How many betting moves there are (check, call, raises, all in, fold)."""
    to_call = bet - put
    if by_ante:
        n = 1 if bet + ante <= put + tokens else 0
    else:
        n = put + tokens - bet
        if n < 0:
            n = 0
    if to_call > 0:
        return n + 2  # call or all in, and fold
    return n + 1 if bet == 0 else n


def bet_move_at(i, bet, put, tokens, ante, by_ante):
    """The i-th betting move in bet_move_count's order: ("check"|"call"|"all_in"|"fold", None)
    or ("raise", to)."""
    to_call = bet - put
    if to_call <= 0 and bet == 0:
        if i == 0:
            return "check", None
        i -= 1
    elif to_call > 0 and tokens >= to_call:
        if i == 0:
            return "call", None
        i -= 1
    raises = bet_move_count(bet, put, tokens, ante, by_ante) - (2 if to_call > 0 else (1 if bet == 0 else 0))
    if i < raises:
        return "raise", (bet + ante if by_ante else bet + 1 + i)
    i -= raises
    if to_call > 0 and tokens < to_call and i == 0:
        return "all_in", None
    return "fold", None


def play_game(seed, options=None, players=4):
    """One whole game between uniformly random players: (tokens by seat, decisions)."""
    options = options or {}
    if not 2 <= players <= 5:
        raise ValueError("Boss Poker takes 2 to 5 players")
    by_ante = options.get("raises", "any_amount") == "by_ante"
    rnd = random.Random(seed).random
    excluded = (2,) if players == 3 else (2, 3) if players == 4 else ()
    ranks = [r for r in range(1, 11) if r not in excluded]
    numbers = [list(ranks) for _ in range(players)]
    rounds = 9 if players == 3 else 8 if players == 4 else 10
    tokens = [150] * players
    green = [3] * players
    reserve = 10
    out = [False] * players
    seats = range(players)
    decisions = 0
    boss = 0
    committed = [0] * players
    face = [0] * players
    for rnd_no in range(1, rounds + 1):
        ante = 4 + rnd_no
        ingame = 0
        for q in seats:
            if not out[q]:
                if tokens[q] < ante:
                    out[q] = True
                else:
                    ingame += 1
        if ingame < 2:
            break
        while out[boss]:
            boss = (boss + 1) % players
        interim = boss
        folded = list(out)
        pot = 0
        for q in seats:
            if not out[q]:
                tokens[q] -= ante
                pot += ante
                hand = numbers[q]
                committed[q] = hand.pop(int(rnd() * len(hand)))
        decisions += ingame
        left = ingame  # players still in this round
        for second in (False, True):
            if second:
                # face play: everyone still in at once, then the reveal from the (interim) Boss
                for q in seats:
                    if not folded[q]:
                        face[q] = J + int(rnd() * 3) if green[q] > 0 else J
                decisions += left
                order = [(interim + i) % players for i in seats]
                order = [q for q in order if not folded[q]]
                for k, p in enumerate(order):
                    f = face[p]
                    if f != J:
                        green[p] -= 1
                        reserve += 1
                        if f == K:
                            n = 0
                            for j, q in enumerate(order):
                                if q != p and (j > k or face[q] != Q):
                                    n += 1
                            if n:
                                rnd()  # the look changes nothing a random player reads
                                decisions += 1
            # one betting round
            bettors = 0
            for q in seats:
                if not folded[q] and tokens[q] > 0:
                    bettors += 1
            if bettors < 2:
                continue
            bet = 0
            put = [0] * players
            acted = [False] * players
            turn = interim
            while left >= 2:
                if folded[turn] or tokens[turn] <= 0 or (acted[turn] and put[turn] >= bet):
                    for q in seats:
                        if not folded[q] and tokens[q] > 0 and (not acted[q] or put[q] < bet):
                            break
                    else:
                        break
                    turn = (turn + 1) % players
                    continue
                p = turn
                have, given = tokens[p], put[p]
                to_call = bet - given
                if by_ante:
                    raises = 1 if bet + ante <= given + have else 0
                else:
                    raises = given + have - bet
                    if raises < 0:
                        raises = 0
                n = raises + (2 if to_call > 0 else 1 if bet == 0 else 0)
                i = int(rnd() * n)
                decisions += 1
                if to_call > 0:
                    if i == n - 1:  # fold
                        folded[p] = True
                        left -= 1
                        if p == interim:
                            while folded[interim]:
                                interim = (interim + 1) % players
                    elif i == 0:  # call, or all in when the call costs more than p has
                        amount = to_call if have >= to_call else have
                        tokens[p] = have - amount
                        put[p] = given + amount
                        pot += amount
                    else:
                        to = bet + ante if by_ante else bet + i
                        tokens[p] = have - (to - given)
                        put[p] = to
                        pot += to - given
                        bet = to
                        acted = [False] * players
                elif bet == 0 and i == 0:
                    pass  # check
                else:
                    to = bet + ante if by_ante else bet + 1 + i - (1 if bet == 0 else 0)
                    tokens[p] = have - (to - given)
                    put[p] = to
                    pot += to - given
                    bet = to
                    acted = [False] * players
                acted[p] = True
                turn = (turn + 1) % players
            if left < 2:
                break
        if left == 1:
            for winner in seats:
                if not folded[winner]:
                    break
            tokens[winner] += pot
            if reserve > 0:
                decisions += 1
                if rnd() < 0.5:  # reveal the card and take a green token
                    reserve -= 1
                    green[winner] += 1
        else:
            ace = 1
            for q in seats:
                if not folded[q] and committed[q] == 10:
                    ace = 11
                    break
            best = -1
            for i in seats:
                q = (interim + i) % players
                if not folded[q]:
                    v = committed[q]
                    if v == 1:
                        v = ace
                    if v > best:
                        best, winner = v, q
            if reserve > 0:
                reserve -= 1
                green[winner] += 1
            tokens[winner] += pot
        boss = (boss + 1) % players
        while out[boss]:
            boss = (boss + 1) % players
    return tokens, decisions
