"""What every kernel calls, written in the kernel language (kernel_llvm): the work budget, the
game's and the agent's SplitMix64 generators, zones, the heap of lists, sorting.

This file is read as text and compiled with each script's kernel (kernel_gen.KernelGen.source);
Python never calls these functions.  They name the context's regions (S, Z, ZN, LOC, VIS, H) and
the constants each kernel defines (NC, the number of cards; the slots of S; the value
encoding of kernel_layout), and each keeps the Python engine's semantics exactly, for the same
arguments: the generators (language/rng.py) draw the same numbers, zones keep the same order
(runtime.State.move_card), and a budget runs out where runtime.State.charge says it does.
"""

# ruff: noqa: F821  (names of the kernel's regions and constants)


def charge(units):
    """State.charge: add `units` of work; past the stretch's limit the game stops."""
    w = S[WORK] + units
    S[WORK] = w
    if w > S[LIMIT]:
        bail(OVER_BUDGET)
    return 0


def begin_work():
    """State.begin_work for a stretch of play (a move, a listing, the set-up)."""
    S[WORK] = 0
    own = S[PER_MOVE] if DECIDES else S[PER_GAME]
    left = S[PER_GAME] - S[GAME_WORK]
    S[LIMIT] = own if own < left else left
    return 0


def begin_query():
    """State.begin_work(query=True): scores, winners; the per-move budget only."""
    S[WORK] = 0
    S[LIMIT] = S[PER_MOVE]
    return 0


def below(slot, n):
    """rng.below on the generator whose state is S[slot]: a draw uniform in range(n)."""
    s = S[slot] + GAMMA
    S[slot] = s
    z = (s ^ lshr(s, 30)) * MIX1
    z = (z ^ lshr(z, 27)) * MIX2
    z = z ^ lshr(z, 31)
    return umulhi(z, n)


def is_number(v):
    return v >= -MAX_INT and v <= MAX_INT


def number(v):
    """A number a script made, within limits.MAX_INT, or the game stops (State.number)."""
    if v < -MAX_INT or v > MAX_INT:
        bail(FAULT)
    return v


def power(a, b):
    """`a ^ b` (gen_runtime.power): one unit of work a multiplication; a negative power, or a
    number past the limit (reached within 63 multiplications), stops the game."""
    if b < 0:
        bail(FAULT)
        return 0
    if a == 0 or a == 1 or b == 0:
        charge(1)
        if b == 0:
            return 1
        return a
    if a == -1:
        charge(1)
        if b % 2 == 0:
            return 1
        return -1
    result = 1
    i = 0
    while i < b:
        charge(1)
        result = mul_checked(result, a)
        if result < -MAX_INT or result > MAX_INT:
            bail(FAULT)
            return 0
        i += 1
    return result


# ---- zones: Z[slot * NC + k], bottom first
def zone_size(slot):
    return ZN[slot]


def zone_top(slot):
    n = ZN[slot]
    if n == 0:
        return NONE
    return Z[slot * NC + n - 1]


def zone_bottom(slot):
    if ZN[slot] == 0:
        return NONE
    return Z[slot * NC]


def zone_item(slot, i):
    """A zone's card `i` from the bottom, counting from the top when negative; none outside."""
    n = ZN[slot]
    if i < 0:
        i += n
    if i < 0 or i >= n:
        return NONE
    return Z[slot * NC + i]


def zone_remove(card):
    """Take `card` out of the zone that holds it (list.remove: cards are unique in a zone)."""
    slot = LOC[card]
    n = ZN[slot]
    base = slot * NC
    if Z[base + n - 1] == card:
        ZN[slot] = n - 1
        return 0
    i = 0
    while Z[base + i] != card:
        i += 1
    while i < n - 1:
        Z[base + i] = Z[base + i + 1]
        i += 1
    ZN[slot] = n - 1
    return 0


def zone_append(slot, card):
    n = ZN[slot]
    Z[slot * NC + n] = card
    ZN[slot] = n + 1
    return 0


def zone_insert_bottom(slot, card):
    n = ZN[slot]
    base = slot * NC
    i = n
    while i > 0:
        Z[base + i] = Z[base + i - 1]
        i -= 1
    Z[base] = card
    ZN[slot] = n + 1
    return 0


def move_card(card, dest, bottom, up):
    """runtime.State.move_card without its charge: the card leaves its zone and lies on top (or
    at the bottom) of `dest`, face up or not."""
    zone_remove(card)
    if bottom:
        zone_insert_bottom(dest, card)
    else:
        zone_append(dest, card)
    LOC[card] = dest
    if up:
        VIS[card] = VIS[card] | FACE_UP
    else:
        VIS[card] = VIS[card] & ~FACE_UP
    return 0


def move_zone(src, dest, bottom, up):
    """Every card of `src` onto `dest` at once, in their order (a zone moved to itself keeps
    its order and changes its facing only)."""
    n = ZN[src]
    if src == dest:
        for k in range(n):
            card = Z[src * NC + k]
            if up:
                VIS[card] = VIS[card] | FACE_UP
            else:
                VIS[card] = VIS[card] & ~FACE_UP
        return 0
    m = ZN[dest]
    if bottom:
        i = m - 1
        while i >= 0:
            Z[dest * NC + i + n] = Z[dest * NC + i]
            i -= 1
        at = 0
    else:
        at = m
    for k in range(n):
        card = Z[src * NC + k]
        Z[dest * NC + at + k] = card
        LOC[card] = dest
        if up:
            VIS[card] = VIS[card] | FACE_UP
        else:
            VIS[card] = VIS[card] & ~FACE_UP
    ZN[dest] = m + n
    ZN[src] = 0
    return 0


def shuffle_zone(slot):
    """rng.shuffle of the zone's cards with the game's generator, then every card face down
    and known to nobody (the shuffle statement; its charge is the caller's)."""
    n = ZN[slot]
    base = slot * NC
    i = n - 1
    while i > 0:
        j = below(RNG, i + 1)
        x = Z[base + i]
        Z[base + i] = Z[base + j]
        Z[base + j] = x
        i -= 1
    for k in range(n):
        VIS[Z[base + k]] = 0
    return 0


def owner_of_slot(slot):
    first = SHARED_ZONES
    if slot < first:
        return NONE
    return (slot - first) % S[N]


# ---- the heap: a list is (base << LENGTH_BITS) | length, its items H[base ..]
def alloc(n):
    """n slots of the heap.  When it is full the game stops, and the block given is past the
    heap's end, so that no write meant for it lands on anything (every index is checked)."""
    top = S[HTOP]
    if top + n > S[HCAP] or n < 0:
        if S[STATUS] == 0:
            S[STATUS] = HEAP_FULL
        return S[HCAP]
    S[HTOP] = top + n
    return top


def handle(base, n):
    if n > LENGTH_MASK:
        bail(UNREPRESENTED)
    return (base << LENGTH_BITS) | n


def length(h):
    return h & LENGTH_MASK


def base_of(h):
    return h >> LENGTH_BITS


def item(h, i):
    return H[(h >> LENGTH_BITS) + i]


def list_item(h, i):
    """`L[i]` of a list (an index from the end when negative); none outside it (_item)."""
    n = h & LENGTH_MASK
    if i < 0:
        i += n
    if i < 0 or i >= n:
        return NONE
    return H[(h >> LENGTH_BITS) + i]


def shrink(h, n):
    """The list made in a block reserved for more items: its first `n`."""
    return handle(h >> LENGTH_BITS, n)


def zone_list(slot):
    """A zone's cards as a list value (a copy: later moves do not change it)."""
    n = ZN[slot]
    b = alloc(n)
    for k in range(n):
        H[b + k] = Z[slot * NC + k]
    return handle(b, n)


def zone_cards(slot):
    """A zone read where a list is expected (gen_runtime.zone_cards): its cards, paid for."""
    if slot == NONE:
        return NONE
    charge(ZN[slot])
    return zone_list(slot)


def row_list(at, n):
    """The values of a per-player (or per-team) variable, V[at ..], as a list."""
    b = alloc(n)
    for k in range(n):
        H[b + k] = V[at + k]
    return handle(b, n)


def concat(a, b):
    """List `+` (gen_runtime.concat): its length within the limit and paid for."""
    na = a & LENGTH_MASK
    nb = b & LENGTH_MASK
    if na + nb > MAX_LIST:
        bail(FAULT)
    charge(na + nb)
    out = alloc(na + nb)
    for k in range(na):
        H[out + k] = H[(a >> LENGTH_BITS) + k]
    for k in range(nb):
        H[out + na + k] = H[(b >> LENGTH_BITS) + k]
    return handle(out, na + nb)


def sublist(h, start, n):
    """Items start .. start + n - 1 of a list, as a list."""
    out = alloc(n)
    for k in range(n):
        H[out + k] = H[(h >> LENGTH_BITS) + start + k]
    return handle(out, n)


def reversed_list(h):
    n = h & LENGTH_MASK
    out = alloc(n)
    for k in range(n):
        H[out + k] = H[(h >> LENGTH_BITS) + n - 1 - k]
    return handle(out, n)


def int_range(low, high):
    """builtins._range written out: the numbers low .. high, the length checked and paid for."""
    if low == NONE or high == NONE:
        bail(FAULT)
    size = high - low + 1
    if size > MAX_LIST:
        bail(FAULT)
    if size < 0:
        size = 0
    charge(size)
    out = alloc(size)
    for k in range(size):
        H[out + k] = low + k
    return handle(out, size)


def sum_list(h):
    """builtins._sum: paid per item, none skipped, within the limit on numbers."""
    if h == NONE:
        bail(FAULT)
    n = h & LENGTH_MASK
    charge(n)
    total = 0
    for k in range(n):
        v = H[(h >> LENGTH_BITS) + k]
        if v != NONE:
            if not is_number(v):
                bail(UNREPRESENTED)
            total += v
            if total < -MAX_INT or total > MAX_INT:
                bail(UNREPRESENTED)
    return number(total)


def extreme_list(h, most):
    """builtins._extreme over a list: none skipped, paid per value kept; none when empty."""
    n = h & LENGTH_MASK
    found = NONE
    kept = 0
    for k in range(n):
        v = H[(h >> LENGTH_BITS) + k]
        if v != NONE:
            if not is_number(v):
                bail(UNREPRESENTED)
            kept += 1
            if found == NONE or (most and v > found) or (not most and v < found):
                found = v
    charge(kept)
    return found


def extreme_zone(slot, most):
    """builtins._extreme over a zone's cards (their numbers)."""
    n = ZN[slot]
    found = NONE
    for k in range(n):
        v = Z[slot * NC + k]
        if found == NONE or (most and v > found) or (not most and v < found):
            found = v
    charge(n)
    return found


def bit_length(n):
    b = 0
    while n > 0:
        n = n >> 1
        b += 1
    return b


def sort_cost(n):
    b = bit_length(n)
    return n * (b if b > 1 else 1)


def sorted_ints(h):
    """builtins._sorted: the numbers in increasing order, none left out, n log n paid."""
    if h == NONE:
        bail(FAULT)
    n = h & LENGTH_MASK
    charge(sort_cost(n))
    out = alloc(n)
    m = 0
    for k in range(n):
        v = H[(h >> LENGTH_BITS) + k]
        if v != NONE:
            if not is_number(v):
                bail(UNREPRESENTED)
            H[out + m] = v
            m += 1
    if m > 32:
        keys = alloc(2 * m)
        for k in range(m):
            H[keys + 2 * k] = 0
            H[keys + 2 * k + 1] = H[out + k]
        return sort_by_keys(out, keys, m, 1)
    for k in range(1, m):
        v = H[out + k]
        i = k
        while i > 0 and H[out + i - 1] > v:
            H[out + i] = H[out + i - 1]
            i -= 1
        H[out + i] = v
    return handle(out, m)


def key_before(keys, i, j, width):
    """Whether item i's keys sort strictly before item j's: each key a (is none, value) pair,
    compared in turn, as the tuples `sorted ... by` makes (gen_exprs._sorted_by)."""
    for k in range(width):
        a = keys + (i * width + k) * 2
        b = keys + (j * width + k) * 2
        if H[a] != H[b]:
            return H[a] < H[b]
        if H[a + 1] != H[b + 1]:
            return H[a + 1] < H[b + 1]
    return 0


def sort_by_keys(items, keys, n, width):
    """A stable merge sort of n item positions (H[items ..]) by their keys (H[keys ..]); the
    sorted items as a new list."""
    order = alloc(n)
    spare = alloc(n)
    for k in range(n):
        H[order + k] = k
    run = 1
    while run < n:
        lo = 0
        while lo < n:
            mid = lo + run
            if mid > n:
                mid = n
            hi = lo + 2 * run
            if hi > n:
                hi = n
            i = lo
            j = mid
            at = lo
            while i < mid or j < hi:
                if j >= hi or (i < mid and not key_before(keys, H[order + j], H[order + i], width)):
                    H[spare + at] = H[order + i]
                    i += 1
                else:
                    H[spare + at] = H[order + j]
                    j += 1
                at += 1
            lo = hi
        for k in range(n):
            H[order + k] = H[spare + k]
        run = run * 2
    out = alloc(n)
    for k in range(n):
        H[out + k] = H[items + H[order + k]]
    return handle(out, n)


def digits(v):
    """How many characters `str(v)` has for a number."""
    if v < 0:
        return 1 + digits(-v)
    d = 1
    while v >= 10:
        v = v // 10
        d += 1
    return d


def text_length(v):
    """The characters of a text or symbol value, as written into a text."""
    if v == NONE:
        return 4
    if v >= COMPUTED:
        return v - COMPUTED
    if v >= STRINGS:
        return STRING_LENGTH[v - STRINGS]
    return digits(v)


def quoted_length(v):
    """The characters of a text inside a list or record (quoted as JSON): a text made while
    playing is known only by its length, not its characters, so the Python path shows it."""
    if v == NONE:
        return 4
    if v >= COMPUTED:
        bail(UNREPRESENTED)
        return 0
    if v >= STRINGS:
        return QUOTED_LENGTH[v - STRINGS]
    return digits(v)


def text_equal(a, b):
    """`==` of two values that may be texts made while playing: only their lengths are known,
    so two of the same length that may be equal or not stop the game (the Python path plays it)."""
    if a == NONE or b == NONE:
        return a == b
    if a < COMPUTED and b < COMPUTED:
        return a == b
    if text_length(a) != text_length(b):
        return 0
    bail(UNREPRESENTED)
    return 0


def zone_ends(slot, n, top):
    """builtins._top and _bottom with a count: the top n cards, the topmost first (or the bottom n,
    the bottommost first), paid per card taken."""
    if not is_number(n):
        bail(FAULT)
    size = ZN[slot]
    take = n if n < size else size
    if take < 0:
        take = 0
    charge(take)
    out = alloc(take)
    for k in range(take):
        if top:
            H[out + k] = Z[slot * NC + size - 1 - k]
        else:
            H[out + k] = Z[slot * NC + k]
    return handle(out, take)


def list_ends(h, n, first):
    """builtins._first and _last with a count: the first (last) n items, in the list's order."""
    if not is_number(n):
        bail(FAULT)
    size = h & LENGTH_MASK
    take = n if n < size else size
    if take < 0:
        take = 0
    charge(take)
    if first:
        return sublist(h, 0, take)
    return sublist(h, size - take, take)


def zone_index(slot, v):
    """builtins._index over a zone: the card's position from the bottom, none if not there."""
    for k in range(ZN[slot]):
        if Z[slot * NC + k] == v:
            return k
    return NONE


def unique_scalars(h):
    """Each value once, where it first appears (`dict.fromkeys` of numbers, players, cards)."""
    if h == NONE:
        bail(FAULT)
    n = h & LENGTH_MASK
    out = alloc(n)
    m = 0
    for k in range(n):
        v = H[(h >> LENGTH_BITS) + k]
        seen = 0
        for j in range(m):
            if H[out + j] == v:
                seen = 1
                break
        if not seen:
            H[out + m] = v
            m += 1
    return handle(out, m)


def offered(entry, reaction):
    """Whether an event's asker (a record: seat, then the reactions offered) is offered `reaction`."""
    for k in range(1, entry & LENGTH_MASK):
        if H[(entry >> LENGTH_BITS) + k] == reaction:
            return 1
    return 0


def concat_one(h, x):
    """A list with one more item at its end (a tuple `+ (x,)`: nothing paid)."""
    n = h & LENGTH_MASK
    out = alloc(n + 1)
    for k in range(n):
        H[out + k] = H[(h >> LENGTH_BITS) + k]
    H[out + n] = x
    return handle(out, n + 1)


def derive(seed, index):
    """rng.derive: an independent seed for game `index` of a run."""
    s = seed * 1099511628211 + index + GAMMA
    z = (s ^ lshr(s, 30)) * MIX1
    z = (z ^ lshr(z, 27)) * MIX2
    return z ^ lshr(z, 31)


# ---- choosing several items, and the card patterns (machine/choosing.py, language/patterns.py)
def comb_capped(n, k, cap):
    """C(n, k), or `cap` when it is `cap` or more (C(n - k + i, i) grows with i)."""
    if k < 0 or k > n:
        return 0
    c = 1
    for i in range(1, k + 1):
        c = c * (n - k + i) // i
        if c >= cap:
            return cap
    return c


def count_subsets(n, fewest, most, enough):
    """choosing.count: how many subsets of n items have fewest..most items, the counting
    stopped past `enough` (the sum so far, as Python's loop stops)."""
    if fewest == NONE or most == NONE:
        return 0
    low = fewest if fewest > 0 else 0
    high = most if most < n else n
    total = 0
    for k in range(low, high + 1):
        total += comb_capped(n, k, 1099511627776)
        if total > enough:
            break
    return total


def distinct_sorted(h):
    """choosing.distinct: the different items (none left out) in canonical order: numbers,
    cards and players upwards, then symbols and texts in alphabetical order (their numbers)."""
    n = h & LENGTH_MASK
    out = alloc(n)
    m = 0
    for k in range(n):
        v = H[(h >> LENGTH_BITS) + k]
        if v == NONE:
            continue
        if v >= COMPUTED:
            bail(UNREPRESENTED)
        i = m
        seen = 0
        while i > 0 and H[out + i - 1] >= v:
            if H[out + i - 1] == v:
                seen = 1
                break
            i -= 1
        if seen:
            continue
        j = m
        while j > i:
            H[out + j] = H[out + j - 1]
            j -= 1
        H[out + i] = v
        m += 1
    return handle(out, m)


def subsets_of(h, k):
    """builtins._subsets: every choice of k items of the list, in order, k <= 0 the one empty
    choice, each choice paid max(1, k); more choices than a list may hold is a fault."""
    if h == NONE or k == NONE or not is_number(k):
        bail(FAULT)
    n = h & LENGTH_MASK
    if k < 0:
        k = 0
    total = comb_capped(n, k, MAX_LIST + 1)
    if total > MAX_LIST:
        bail(FAULT)
    out = alloc(total)
    at = alloc(k)
    for i in range(k):
        H[at + i] = i
    for c in range(total):
        charge(k if k > 1 else 1)
        b = alloc(k)
        for i in range(k):
            H[b + i] = H[(h >> LENGTH_BITS) + H[at + i]]
        H[out + c] = handle(b, k)
        i = k - 1
        while i >= 0 and H[at + i] == n - k + i:
            i -= 1
        if i >= 0:
            H[at + i] += 1
            for j in range(i + 1, k):
                H[at + j] = H[at + j - 1] + 1
    return handle(out, total)


def groups_of(items, keys):
    """patterns.groups: the items with equal keys together, in the order the keys first appear."""
    n = items & LENGTH_MASK
    charge(n)
    found = alloc(n)
    counts = alloc(n)
    m = 0
    for i in range(n):
        k = item(keys, i)
        if k == NONE:
            continue
        if k >= COMPUTED:
            bail(UNREPRESENTED)
        j = 0
        while j < m and H[found + j] != k:
            j += 1
        if j == m:
            H[found + m] = k
            H[counts + m] = 0
            m += 1
        H[counts + j] += 1
    out = alloc(m)
    for j in range(m):
        g = alloc(H[counts + j])
        c = 0
        for i in range(n):
            if item(keys, i) == H[found + j]:
                H[g + c] = item(items, i)
                c += 1
        H[out + j] = handle(g, c)
    return handle(out, m)


def runs_of(items, positions, least):
    """patterns.runs: one item at each of `least` or more consecutive positions, by start
    position, then length, then the choice of items (the first position varying slowest)."""
    if least == NONE:
        bail(FAULT)
    n = items & LENGTH_MASK
    charge(n)
    places = alloc(n)
    m = 0
    for i in range(n):
        p = item(positions, i)
        if p == NONE:
            continue
        if not is_number(p):
            bail(FAULT)
        j = m
        seen = 0
        while j > 0 and H[places + j - 1] >= p:
            if H[places + j - 1] == p:
                seen = 1
                break
            j -= 1
        if seen:
            continue
        k = m
        while k > j:
            H[places + k] = H[places + k - 1]
            k -= 1
        H[places + j] = p
        m += 1
    if least < 1:
        least = 1
    total = 0
    for s in range(m):
        product = 1
        length = 0
        while s + length < m and H[places + s + length] == H[places + s] + length:
            product = product * count_at(items, positions, H[places + s + length])
            length += 1
            if length >= least:
                total += product
            if total > MAX_LIST:
                bail(FAULT)
    out = alloc(total)
    c = 0
    odometer = alloc(m + 1)
    for s in range(m):
        length = 0
        while s + length < m and H[places + s + length] == H[places + s] + length:
            length += 1
            if length >= least:
                for i in range(length):
                    H[odometer + i] = 0
                while True:
                    charge(length)
                    b = alloc(length)
                    for i in range(length):
                        H[b + i] = nth_at(items, positions, H[places + s + i], H[odometer + i])
                    H[out + c] = handle(b, length)
                    c += 1
                    i = length - 1
                    while i >= 0 and H[odometer + i] + 1 >= count_at(items, positions, H[places + s + i]):
                        H[odometer + i] = 0
                        i -= 1
                    if i < 0:
                        break
                    H[odometer + i] += 1
    return handle(out, total)


def count_at(items, positions, p):
    c = 0
    for i in range(items & LENGTH_MASK):
        if item(positions, i) == p:
            c += 1
    return c


def nth_at(items, positions, p, nth):
    for i in range(items & LENGTH_MASK):
        if item(positions, i) == p:
            if nth == 0:
                return item(items, i)
            nth -= 1
    return NONE


def repeats_within(g):
    """Whether a group holds some item twice (patterns.disjoint_choices leaves it out)."""
    n = g & LENGTH_MASK
    for i in range(n):
        for j in range(i + 1, n):
            if item(g, i) == item(g, j):
                return 1
    return 0


def shares_item(a, b):
    for i in range(a & LENGTH_MASK):
        for j in range(b & LENGTH_MASK):
            if item(a, i) == item(b, j):
                return 1
    return 0


def fits_choice(groups, path, depth, g):
    """Whether group g shares no item with the groups chosen so far (H[path .. path + depth])."""
    for i in range(depth):
        if shares_item(item(groups, H[path + i]), item(groups, g)):
            return 0
    return 1


def disjoint_of(groups):
    """patterns.disjoint_choices: every choice of groups sharing no item, the empty choice first,
    depth first in the groups' order; each choice paid for with the groups looked at after it."""
    if groups == NONE:
        bail(FAULT)
    g = groups & LENGTH_MASK
    total = 1
    for i in range(g):
        total += length(item(groups, i))
    charge(total)
    bad = alloc(g)
    for i in range(g):
        H[bad + i] = repeats_within(item(groups, i))
    path = alloc(g + 1)
    made = walk_choices(groups, bad, path, 0, 0)  # count them first: more than a list holds is a fault
    if made > MAX_LIST:
        bail(FAULT)
    out = alloc(made)
    S[CURSOR] = out
    walk_choices(groups, bad, path, 0, 1)
    return handle(out, made)


def walk_choices(groups, bad, path, depth, fill):
    """The choices below the one in H[path .. path + depth] (it included), in order: counted, or
    (`fill`) paid for and written at S[CURSOR] on.  Returns how many."""
    g = groups & LENGTH_MASK
    start = H[path + depth - 1] + 1 if depth > 0 else 0
    made = 1
    if fill:
        charge(depth + g - start)
        b = alloc(depth)
        for i in range(depth):
            H[b + i] = item(groups, H[path + i])
        H[S[CURSOR]] = handle(b, depth)
        S[CURSOR] += 1
    for i in range(start, g):
        if not H[bad + i] and fits_choice(groups, path, depth, i):
            H[path + depth] = i
            made += walk_choices(groups, bad, path, depth + 1, fill)
            if made > MAX_LIST:
                return made
    return made
