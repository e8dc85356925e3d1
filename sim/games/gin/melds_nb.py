"""Gin Rummy melds and deadwood as compiled bitmask kernels (G1, G4, G5).

A hand is a 52-bit mask (card ``c = suit * 13 + rank``, enums.py); its four 13-bit suit
masks give the runs by shifts and the sets by bitwise majority, with small tables for the
value of a suit's cards and its highest card.

OpenSpiel decides three things with its own meld search, and its choices are rules here
because its legal moves depend on them (RULES.md Part 3 says OpenSpiel decides):

* its meld list for a hand (``hand_melds``): sets of 3 and 4 and runs of 3, 4 and 5 (a
  longer run is two melds), in its order: the melds of each four of a kind (the four, then
  the threes without the diamond and without the club), then every three of a kind (a
  four's other two threes), then runs of 5, 4 and 3, each by suit and rank;
* its "best" meld group (``best_group``): the first group of disjoint melds, in the
  depth-first order of that list, with the largest melded value;
* its deadwood of 11 cards (``os_deadwood``): the 11 cards' best group, less the highest
  card left over. That is not always the best 10 of the 11 (``best10_deadwood`` is):
  OpenSpiel lets a player knock by its own figure.

``best10_deadwood`` and ``deadwood10`` are the exact solver (bench: hands per second).
"""

import numpy as np
from numba import njit

from sim.games.gin.enums import N_MELDS, N_RANKS

SUIT_FULL = (1 << N_RANKS) - 1


def _tables():
    """Per 13-bit suit mask: value of its cards, its highest rank (-1 empty), its lowest rank."""
    value = np.zeros(1 << N_RANKS, np.int64)
    top = np.full(1 << N_RANKS, -1, np.int64)
    low = np.full(1 << N_RANKS, -1, np.int64)
    for m in range(1, 1 << N_RANKS):
        ranks = [r for r in range(N_RANKS) if m >> r & 1]
        value[m] = sum(min(r + 1, 10) for r in ranks)
        top[m] = ranks[-1]
        low[m] = ranks[0]
    return value, top, low


def _meld_tables():
    """OpenSpiel's meld ids: 0..64 sets (rank * 5 + the missing suit, rank * 5 + 4 the four),
    65.. runs of 3, 109.. runs of 4, 149.. runs of 5 (by suit, then lowest rank)."""
    mask = np.zeros(N_MELDS, np.int64)
    extra = np.full(N_MELDS, -1, np.int64)  # a three's missing card (its only lay-off), else -1
    for r in range(N_RANKS):
        for miss in range(4):
            mask[r * 5 + miss] = sum(1 << (s * N_RANKS + r) for s in range(4) if s != miss)
            extra[r * 5 + miss] = miss * N_RANKS + r
        mask[r * 5 + 4] = sum(1 << (s * N_RANKS + r) for s in range(4))
    base = 65
    for length in (3, 4, 5):
        starts = N_RANKS - length + 1
        for s in range(4):
            for r in range(starts):
                mask[base + s * starts + r] = sum(1 << (s * N_RANKS + r + k) for k in range(length))
        base += 4 * starts
    value = np.array([sum(min(c % N_RANKS + 1, 10) for c in range(52) if int(m) >> c & 1) for m in mask], np.int64)
    return mask, value, extra


SUIT_VALUE, SUIT_TOP, SUIT_LOW = _tables()
MELD_MASK, MELD_VALUE, MELD_THREE_EXTRA = _meld_tables()
MELD_IDS_SET_END = 65  # ids below are sets
RUN_BASE = np.array([65, 109, 149], np.int64)  # first id of runs of 3, 4, 5


@njit(cache=True, inline="always")
def suit_of(hand, s):
    return (hand >> (s * N_RANKS)) & SUIT_FULL


@njit(cache=True)
def hand_value(hand):
    """The value of the cards in ``hand`` (A 1, 2-10, J Q K 10; G1)."""
    return (SUIT_VALUE[hand & SUIT_FULL] + SUIT_VALUE[(hand >> 13) & SUIT_FULL]
            + SUIT_VALUE[(hand >> 26) & SUIT_FULL] + SUIT_VALUE[(hand >> 39) & SUIT_FULL])


@njit(cache=True)
def top_card(hand):
    """OpenSpiel's highest card of ``hand`` (highest rank, then the later suit in s c d h), -1 if empty."""
    best = -1
    best_rank = -1
    for s in range(4):
        r = SUIT_TOP[(hand >> (s * N_RANKS)) & SUIT_FULL]
        if r >= best_rank and r >= 0:
            best_rank = r
            best = s * N_RANKS + r
    return best


@njit(cache=True, inline="always")
def card_value(c):
    r = c % N_RANKS + 1
    return r if r < 10 else 10


@njit(cache=True)
def hand_melds(hand, out):
    """Write the meld ids of ``hand`` in OpenSpiel's order (module docstring) into ``out``; their count."""
    s0 = suit_of(hand, 0)
    s1 = suit_of(hand, 1)
    s2 = suit_of(hand, 2)
    s3 = suit_of(hand, 3)
    four = s0 & s1 & s2 & s3
    three = (s0 & s1 & s2) | (s0 & s1 & s3) | (s0 & s2 & s3) | (s1 & s2 & s3)
    n = 0
    if four:
        for r in range(N_RANKS):
            if four >> r & 1:
                out[n] = r * 5 + 4
                out[n + 1] = r * 5 + 2
                out[n + 2] = r * 5 + 1
                n += 3
    if three:
        for r in range(N_RANKS):
            if three >> r & 1:
                if four >> r & 1:
                    out[n] = r * 5 + 3
                    out[n + 1] = r * 5
                    n += 2
                else:
                    miss = 0
                    if not s1 >> r & 1:
                        miss = 1
                    elif not s2 >> r & 1:
                        miss = 2
                    elif not s3 >> r & 1:
                        miss = 3
                    out[n] = r * 5 + miss
                    n += 1
    for li in range(2, -1, -1):  # runs of 5, 4, 3
        length = li + 3
        starts = N_RANKS - length + 1
        for s in range(4):
            m = suit_of(hand, s)
            run = m & (m >> 1) & (m >> 2)
            if length >= 4:
                run &= m >> 3
            if length == 5:
                run &= m >> 4
            run &= (1 << starts) - 1
            while run:
                r = SUIT_LOW[run]
                out[n] = RUN_BASE[li] + s * starts + r
                n += 1
                run &= run - 1
    return n


@njit(cache=True)
def best_group(ids, n, used0, sel, stack):
    """OpenSpiel's best meld group among the ``n`` melds ``ids`` (in its order) avoiding the
    cards ``used0``: the first group, depth first, with the largest melded value.

    Returns (melded value, its cards, count) and writes the group's list positions to ``sel``
    (in the order OpenSpiel lists the group). ``stack``: int64[>= 3 * (n + 1)] scratch."""
    best = 0
    best_cards = np.int64(0)
    n_best = 0
    if n == 0:
        return best, best_cards, n_best
    # stack rows: next candidate, cards used, value, the meld taken to get here
    # suffix unions of the melds' cards bound what a branch can still add: a branch that cannot
    # beat the best so far strictly is skipped, which never changes the first best group
    suf = stack[4 * (n + 2):]
    suf[n] = 0
    for i in range(n - 1, -1, -1):
        suf[i] = suf[i + 1] | MELD_MASK[ids[i]]
    stack[0] = 0
    stack[1] = used0
    stack[2] = 0
    depth = 0
    while depth >= 0:
        b = depth * 4
        i = stack[b]
        used = stack[b + 1]
        while i < n and (MELD_MASK[ids[i]] & used) != 0:
            i += 1
        if i >= n or stack[b + 2] + hand_value(suf[i] & ~used) <= best:
            depth -= 1
            continue
        stack[b] = i + 1
        v = stack[b + 2] + MELD_VALUE[ids[i]]
        nb = b + 4
        stack[nb] = i + 1
        stack[nb + 1] = used | MELD_MASK[ids[i]]
        stack[nb + 2] = v
        stack[nb + 3] = i
        depth += 1
        if v > best:
            best = v
            best_cards = stack[nb + 1] & ~used0
            n_best = depth
            for k in range(depth):
                sel[k] = stack[(k + 1) * 4 + 3]
    return best, best_cards, n_best


@njit(cache=True)
def max_melded(ids, n, used0, stack):
    """The largest melded value of disjoint melds among ``ids[:n]`` avoiding ``used0`` (order-free, pruned)."""
    best = 0
    if n == 0:
        return 0
    # suffix unions of the melds' cards bound what a branch can still add
    suf = stack[4 * (n + 2):]
    suf[n] = 0
    for i in range(n - 1, -1, -1):
        suf[i] = suf[i + 1] | MELD_MASK[ids[i]]
    stack[0] = 0
    stack[1] = used0
    stack[2] = 0
    depth = 0
    while depth >= 0:
        b = depth * 4
        i = stack[b]
        used = stack[b + 1]
        while i < n and (MELD_MASK[ids[i]] & used) != 0:
            i += 1
        if i >= n or stack[b + 2] + hand_value(suf[i] & ~used) <= best:
            depth -= 1
            continue
        stack[b] = i + 1
        v = stack[b + 2] + MELD_VALUE[ids[i]]
        nb = b + 4
        stack[nb] = i + 1
        stack[nb + 1] = used | MELD_MASK[ids[i]]
        stack[nb + 2] = v
        depth += 1
        if v > best:
            best = v
    return best


@njit(cache=True)
def os_deadwood(hand, ids, sel, stack):
    """OpenSpiel's deadwood of ``hand`` (module docstring): the best group's leftover value,
    less its highest leftover card when the hand holds 11 cards."""
    n = hand_melds(hand, ids)
    v, cards, k = best_group(ids, n, np.int64(0), sel, stack)
    left = hand & ~cards
    dw = hand_value(hand) - v
    if left != 0 and popcount(hand) == 11:
        dw -= card_value(top_card(left))
    return dw


@njit(cache=True, inline="always")
def popcount(x):
    x = np.uint64(x)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def deadwood10(hand, ids, stack):
    """The exact smallest deadwood of ``hand`` with every card counted (10 cards, or any size)."""
    n = hand_melds(hand, ids)
    return hand_value(hand) - max_melded(ids, n, np.int64(0), stack)


@njit(cache=True)
def best10_deadwood(hand, ids, stack):
    """The exact smallest deadwood of the best 10 of the 11 cards ``hand`` (one card discarded, G4):
    the largest melded value plus the highest card left over, over groups leaving a card over."""
    n = hand_melds(hand, ids)
    total = hand_value(hand)
    best = card_value(top_card(hand))
    if n == 0:
        return total - best
    suf = stack[4 * (n + 2):]
    suf[n] = 0
    for i in range(n - 1, -1, -1):
        suf[i] = suf[i + 1] | MELD_MASK[ids[i]]
    stack[0] = 0
    stack[1] = 0
    stack[2] = 0
    depth = 0
    while depth >= 0:
        b = depth * 4
        i = stack[b]
        used = stack[b + 1]
        while i < n and (MELD_MASK[ids[i]] & used) != 0:
            i += 1
        if i >= n or stack[b + 2] + hand_value(suf[i] & ~used) + 10 <= best:
            depth -= 1
            continue
        stack[b] = i + 1
        cards = used | MELD_MASK[ids[i]]
        v = stack[b + 2] + MELD_VALUE[ids[i]]
        nb = b + 4
        stack[nb] = i + 1
        stack[nb + 1] = cards
        stack[nb + 2] = v
        depth += 1
        left = hand & ~cards
        if left != 0:
            x = v + card_value(top_card(left))
            if x > best:
                best = x
    return total - best


MELD_SCRATCH = 512  # int64 scratch for the searches (a hand has at most ~50 melds)
MAX_HAND_MELDS = 96


@njit(cache=True)
def legal_melds(hand, knock, ids, stack, out):
    """OpenSpiel's melds a player may lay from ``hand`` (G4/G5): each meld of some group that leaves
    at most ``knock`` deadwood. Writes them to ``out`` in ascending id order; their count."""
    n = hand_melds(hand, ids)
    if n == 0:
        return 0
    need = hand_value(hand) - knock
    k = 0
    for j in range(n):
        m = ids[j]
        if MELD_VALUE[m] + max_melded(ids, n, MELD_MASK[m], stack) >= need:
            # insertion in ascending id order
            p = k
            while p > 0 and out[p - 1] > m:
                out[p] = out[p - 1]
                p -= 1
            out[p] = m
            k += 1
    return k


@njit(cache=True)
def layoff_cards(knocker_ids, n_ids, layoffs):
    """OpenSpiel's lay-off cards onto the knocker's melds ``knocker_ids[:n_ids]`` after the lay-offs
    ``layoffs`` (a mask), as a mask (G5): a three's missing card; a run's two neighbours, where a run
    counts the lay-offs made next to its own laid ends (so a run grows by at most two cards a side)."""
    out = np.int64(0)
    for j in range(n_ids):
        m = knocker_ids[j]
        if m < MELD_IDS_SET_END:
            if m % 5 != 4:
                out |= np.int64(1) << MELD_THREE_EXTRA[m]
            continue
        run = MELD_MASK[m]
        ext = run | (layoffs & _run_ends(run))
        out |= _run_ends(ext)
    return out


@njit(cache=True, inline="always")
def _run_ends(run):
    """The cards just below and above a run (a mask within one suit), where they exist."""
    for s in range(4):
        m = (run >> (s * N_RANKS)) & SUIT_FULL
        if m:
            e = np.int64(0)
            lo = SUIT_LOW[m]
            hi = SUIT_TOP[m]
            if lo > 0:
                e |= np.int64(1) << (s * N_RANKS + lo - 1)
            if hi < N_RANKS - 1:
                e |= np.int64(1) << (s * N_RANKS + hi + 1)
            return e
    return np.int64(0)
