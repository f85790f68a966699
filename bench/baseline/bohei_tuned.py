"""Bohei as fast as plain Python gets: the benchmark's "real limit" (standard library only).

The same rules and random policy as bohei.py (uniform over the legal moves at every decision),
written for speed: a card is its number in the script's deck order, its attributes are looked up
in tuples, the active rules are a bit mask worked out when the rule area changes, and no move is
ever listed: `pick(k)` draws the index of a move among the `k` legal ones, in the order the
engine lists them, and the move is read off the state.  `play` takes `pick` and `shuffle` from
its caller, so tests/test_baseline_tuned.py can drive it with the engine's own choices and
shuffles and check, at every decision, that it counts the engine's legal moves.
"""

import random

RULE, ACTION, NOPE, OPPOSITE, DUEL, JUDGED, GROUP = range(7)
# rule effects, one bit each while active
LIMITS, FORCES, FORBIDS, WATCHED, OPEN, CLOSE, SIX, EIGHT = (1 << i for i in range(8))
# action effects, and the traits they are aimed at
DRAWS, DISCARDS, GIVES_LEFT, GIVES_RIGHT, TAKES_LEFT, TAKES_RIGHT = range(6)
EVERYONE, GLASSES, NO_GLASSES, DOG, NO_DOG, JEANS = range(6)

# (copies, kind, effect, trait, opposite, amount), in the script's deck order
_DECK = ((1, RULE, LIMITS), (1, RULE, FORCES), (1, RULE, FORBIDS), (2, RULE, WATCHED), (1, RULE, WATCHED),
         (1, RULE, WATCHED), (1, RULE, WATCHED), (1, RULE, OPEN), (1, RULE, CLOSE), (1, RULE, SIX),
         (1, RULE, EIGHT),
         (2, ACTION, DRAWS, GLASSES, DISCARDS, 2), (1, ACTION, DISCARDS, GLASSES, DRAWS, 2),
         (2, ACTION, DRAWS, NO_GLASSES, DISCARDS, 2), (2, ACTION, DRAWS, DOG, DISCARDS, 2),
         (1, ACTION, DISCARDS, DOG, DRAWS, 1), (1, ACTION, DRAWS, NO_DOG, DISCARDS, 2),
         (2, ACTION, GIVES_LEFT, JEANS, TAKES_LEFT, 1), (1, ACTION, DRAWS, JEANS, DISCARDS, 2),
         (3, ACTION, DRAWS, EVERYONE, DISCARDS, 2), (1, ACTION, DISCARDS, EVERYONE, DRAWS, 1),
         (1, ACTION, GIVES_RIGHT, EVERYONE, TAKES_RIGHT, 1),
         (6, NOPE), (4, OPPOSITE), (2, DUEL), (2, DUEL), (1, DUEL), (2, JUDGED), (1, JUDGED), (2, GROUP),
         (2, GROUP))
_CARDS = [entry[1:] + (0,) * (6 - len(entry)) for entry in _DECK for _ in range(entry[0])]
KIND = tuple(c[0] for c in _CARDS)
EFFECT = tuple(c[1] for c in _CARDS)
TRAIT = tuple(c[2] for c in _CARDS)
OPPOSITE_OF = tuple(c[3] for c in _CARDS)
AMOUNT = tuple(c[4] for c in _CARDS)
PLAYABLE = tuple(k in (ACTION, DUEL, JUDGED, GROUP) for k in KIND)  # in step 3, Peace pipe aside
TURN_CAP = 1000


def play(players, pick, shuffle):
    """One game; `pick(k)` -> the index of the chosen move among k, `shuffle(pile)` in place.
    Returns the winners ([] if the game was capped)."""
    n = players
    draw = list(range(len(KIND)))
    disc = []
    hands = [[] for _ in range(n)]
    place = [None, [], [], []]  # places 1 (left), 2 (right), 3 (extra, while it exists)
    closed = []
    opens = [1, 2]
    area = 0  # the effects of the active rules
    sizes = (7,)
    missed = [False] * n
    aim = None  # aim[trait][q]: is q aimed at by actions of that trait

    def area_changed():
        nonlocal area, sizes
        area = 0
        for s in opens:
            if place[s]:
                area |= EFFECT[place[s][-1]]
        sizes = ((6 if area & SIX else 7), 8) if area & EIGHT else ((6,) if area & SIX else (7,))

    def changed(p):
        if len(hands[p]) in sizes and pick(2):  # did not call "Bohei"
            missed[p] = True

    def draw_one(p):
        if not draw:
            if not disc:
                return
            draw.extend(disc)
            disc.clear()
            shuffle(draw)
        hands[p].append(draw.pop())
        changed(p)

    def discard_one(p):
        hand = hands[p]
        if hand:
            disc.append(hand.pop(pick(len(hand))))
            changed(p)

    def give_one(giver, taker):
        hand = hands[giver]
        if hand:
            hands[taker].append(hand.pop(pick(len(hand))))
            changed(giver)
            changed(taker)

    def must(p, what, k, source):
        """An effect about to hit p (source -1: a penalty): Nö, Gegenteiltag or pass."""
        hand = hands[p]
        no = op = -1
        for j, c in enumerate(hand):
            kind = KIND[c]
            if kind == NOPE:  # Nö stops a draw or a discard, not a give
                if no < 0 and what in (DRAWS, DISCARDS):
                    no = j
            elif kind == OPPOSITE and op < 0 and source >= 0:
                op = j
        i = pick(1 + (no >= 0) + (op >= 0))
        if no >= 0:
            if i == 0:
                disc.append(hand.pop(no))
                changed(p)
                return
            i -= 1
        if op >= 0 and i == 0:
            disc.append(hand.pop(op))
            what = OPPOSITE_OF[source]
            changed(p)
        for _ in range(k):
            if what == DRAWS:
                draw_one(p)
            elif what == DISCARDS:
                discard_one(p)
            elif what == GIVES_LEFT:
                give_one(p, (p + 1) % n)
            elif what == GIVES_RIGHT:
                give_one(p, (p - 1) % n)
            elif what == TAKES_LEFT:
                give_one((p + 1) % n, p)
            else:
                give_one((p - 1) % n, p)

    def report(eligible):
        if not area & WATCHED or not eligible:
            return
        left = list(eligible)
        while left:
            if not pick(2):  # nobody
                return
            q = left.pop(pick(len(left)))
            if not pick(2):  # agreed
                must(q, DISCARDS if len(hands[q]) <= 7 else DRAWS, 1, -1)

    def put_in_force(p, c):
        before = sizes
        effect = EFFECT[c]
        if effect == OPEN:
            opens[:] = [s for s in (1, 2, 3) if s not in closed]
        elif effect == CLOSE:
            s = opens[pick(len(opens))]
            place[s].append(c)
            closed.append(s)
            opens.remove(s)
        else:
            for s in opens:
                if not place[s]:
                    place[s].append(c)
                    break
            else:  # the area is full: every open place holds an active rule, in order
                pile = place[opens[pick(len(opens))]]
                disc.append(pile[-1])
                pile[-1] = c
        area_changed()
        changed(p)
        if sizes != before:
            for i in range(1, n + 1):
                q = (p + i) % n
                size = len(hands[q])
                if q != p and size in sizes and size not in before and pick(2):
                    missed[q] = True

    def reward(w):
        # a participant of a challenge is not bound by the rules: Miser never stops these draws
        kd = min(2, len(hands[w]))
        i = pick(kd + 3)
        if i < kd:
            for _ in range(i + 1):
                discard_one(w)
        elif i < kd + 2:
            for _ in range(i - kd + 1):
                draw_one(w)

    def challenge(p, c):
        kind = KIND[c]
        if kind == GROUP:
            still_in = list(range(n))
            while len(still_in) > 1:
                i = pick(len(still_in) + 1)
                if i < len(still_in):
                    del still_in[i]
            reward(still_in[0])
            return  # everyone took part: nobody is left to report on
        rival = pick(n - 1)
        if rival >= p:
            rival += 1
        if kind == JUDGED:
            pick(n - 2)
        while True:
            i = pick(3)
            if i < 2:
                break
        reward(p if i == 0 else rival)
        report([x for x in range(n) if x != p and x != rival])

    # ---- set-up: the traits, who begins, the deal
    traits = [[False] * n for _ in range(3)]
    for p in range(n):
        for t in traits:
            t[p] = not pick(2)
    glasses, dog, jeans = traits
    aim = {EVERYONE: [True] * n, GLASSES: glasses, NO_GLASSES: [not g for g in glasses], DOG: dog,
           NO_DOG: [not d for d in dog], JEANS: jeans}
    current = starter = pick(n)
    shuffle(draw)
    for _ in range(3):
        for i in range(n):
            hands[(current + i) % n].append(draw.pop())
    # ---- turns
    for _ in range(TURN_CAP):
        p = current
        hand = hands[p]
        size = len(hand)
        if size in sizes and not missed[p]:
            return [p]
        missed[p] = False
        may_draw = not area & LIMITS or size < 6
        forced = area & FORCES and size < 4
        # Draw duty's draw may be answered with a Nö
        no = next((j for j, c in enumerate(hand) if KIND[c] == NOPE), -1) if forced else -1
        options = ([0] if may_draw else []) + ([1] if not forced else []) + ([2] if no >= 0 else [])
        chosen = options[pick(len(options))]
        if chosen == 0:
            draw_one(p)
        elif chosen == 2:
            disc.append(hand.pop(no))
            changed(p)
        rules = [j for j, c in enumerate(hand) if KIND[c] == RULE]
        if rules:
            put_in_force(p, hand.pop(rules[pick(len(rules))]))
        if area & FORBIDS:
            playable = [j for j, c in enumerate(hand) if KIND[c] == ACTION]
        else:
            playable = [j for j, c in enumerate(hand) if PLAYABLE[c]]
        i = pick(len(playable) + 1)
        if i < len(playable):
            c = hand.pop(playable[i])
            disc.append(c)
            changed(p)
            if KIND[c] == ACTION:
                targets = aim[TRAIT[c]]
                for i in range(n):
                    q = (p + i) % n
                    if targets[q]:
                        must(q, EFFECT[c], AMOUNT[c], c)
            else:
                challenge(p, c)
        current = (p + 1) % n
        if current == starter:
            report(range(n))
    return []


def play_game(seed, options=None, players=4):
    """One whole game between uniformly random players: (winners, decisions)."""
    if not 3 <= players <= 6:
        raise ValueError("Bohei takes 3 to 6 players")
    rng = random.Random(seed)
    rnd = rng.random
    decisions = 0

    def pick(k):
        nonlocal decisions
        decisions += 1
        return int(rnd() * k) if k > 1 else 0

    return play(players, pick, rng.shuffle), decisions
