"""Meld rules as compiled kernels: what can be melded, laid off, and whether a taken
card can still reach the table (P5, P6.1, P6.3).

Table melds live in the state array ``st`` at the O_MELD_* slots (see enums.py).
"""

import numpy as np
from numba import njit, types

from sim.games.persian.cards_nb import (
    JOKERS,
    RANK_MASKS,
    lowest_card,
    popcount,
    rank_range_bits,
    suit_bits,
    highest_rank,
)
from sim.games.persian.enums import (
    JOKER0,
    MIN_MELD,
    MK_JOKERS,
    MK_RUN,
    MK_SET,
    MV_LAYOFF,
    MV_MELD,
    N_RANKS,
    N_SUITS,
    O_MELD_KEY,
    O_MELD_KIND,
    O_MELD_MASK,
    O_N_MELDS,
    SET_MAX,
    TOP_RANK,
)


@njit(cache=True, _nrt=False)
def run_ends(meld_mask, suit):
    """(lowest rank, highest rank) of a run meld."""
    b = suit_bits(meld_mask, suit)
    return popcount((b & -b) - 1), highest_rank(b)


@njit(cache=True, _nrt=False)
def layoff_card_for(st, k, hand, low_or_high):
    """The card of ``hand`` that lays off onto meld ``k`` (P6.3), or -1.

    For runs ``low_or_high`` 0 asks for the card below the run, 1 for the card above;
    sets and joker sets have a single slot (asked with 0; 1 gives -1).
    """
    kind = st[O_MELD_KIND + k]
    mask = st[O_MELD_MASK + k]
    if kind == MK_RUN:
        suit = st[O_MELD_KEY + k]
        lo, hi = run_ends(mask, suit)
        if low_or_high == 0:
            if lo == 0:
                return -1
            c = suit * N_RANKS + lo - 1
        else:
            if hi == TOP_RANK:
                return -1
            c = suit * N_RANKS + hi + 1
        if (hand >> c) & 1:
            return c
        return -1
    if low_or_high == 1 or popcount(mask) != MIN_MELD:  # a full set has no room
        return -1
    if kind == MK_JOKERS:
        j = hand & JOKERS
        if j == 0:
            return -1
        return lowest_card(j)
    missing = RANK_MASKS[st[O_MELD_KEY + k]] & ~mask & hand
    if missing == 0:
        return -1
    return lowest_card(missing)


@njit(cache=True, _nrt=False)
def target_placeable(st, hand, target):
    """Can ``target`` (in ``hand``) go on the table this turn? (P6.1)

    True when it completes a new meld from ``hand`` or reaches a table meld by a chain
    of lay-offs from ``hand``. A joker target is satisfied by any joker placed.
    """
    n_melds = st[O_N_MELDS]
    if target >= JOKER0:
        if popcount(hand & JOKERS) >= MIN_MELD:
            return True
        for k in range(n_melds):
            if st[O_MELD_KIND + k] == MK_JOKERS and popcount(st[O_MELD_MASK + k]) == MIN_MELD:
                return True
        return False
    rank = target % N_RANKS
    suit = target // N_RANKS
    if popcount(hand & RANK_MASKS[rank]) >= MIN_MELD:
        return True
    b = suit_bits(hand, suit)
    lo = rank
    while lo > 0 and (b >> (lo - 1)) & 1:
        lo -= 1
    hi = rank
    while hi < TOP_RANK and (b >> (hi + 1)) & 1:
        hi += 1
    if hi - lo >= MIN_MELD - 1:
        return True
    for k in range(n_melds):
        kind = st[O_MELD_KIND + k]
        if kind == MK_SET:
            if st[O_MELD_KEY + k] == rank:
                return True  # one deck: a set of this rank on the table has room for it
        elif kind == MK_RUN and st[O_MELD_KEY + k] == suit:
            rlo, rhi = run_ends(st[O_MELD_MASK + k], suit)
            if rank > rhi:
                need = rank_range_bits(rhi + 1, rank - 1)
            else:
                need = rank_range_bits(rank + 1, rlo - 1)
            if b & need == need:
                return True
    return False


# an explicit signature: called with literal move kinds, a lazy kernel compiled once per call site
@njit(types.int64(types.int64[:, ::1], types.int64, types.int64, types.int64, types.int64, types.int64),
      cache=True, _nrt=False)
def _push(moves, n, kind, a, b, c):
    """Write move row ``n`` = (kind, a, b, c); returns ``n + 1``.

    Parameters
    ----------
    moves : the move rows (MAX_MOVES x MOVE_COLS)
    n : the row to write
    kind, a, b, c : the row (MV_* kind and its three values, enums.py)
    """
    moves[n, 0] = kind
    moves[n, 1] = a
    moves[n, 2] = b
    moves[n, 3] = c
    return n + 1


@njit(cache=True, _nrt=False)
def new_meld_moves(hand, moves, n):
    """Append every new meld that ``hand`` can put down (P5); returns the new count.

    Jokers are interchangeable, so a joker set is offered once per size (3 or 4).
    """
    for rank in range(N_RANKS):
        m = hand & RANK_MASKS[rank]
        c = popcount(m)
        if c >= MIN_MELD:
            n = _push(moves, n, MV_MELD, m, MK_SET, rank)
            if c == SET_MAX:
                rest = m
                while rest != 0:
                    low = rest & -rest
                    n = _push(moves, n, MV_MELD, m ^ low, MK_SET, rank)
                    rest ^= low
    j = hand & JOKERS
    cj = popcount(j)
    if cj >= MIN_MELD:
        three = j ^ (np.int64(1) << (JOKER0 + SET_MAX - 1)) if cj == SET_MAX else j  # leave out the last joker
        n = _push(moves, n, MV_MELD, three, MK_JOKERS, -1)
        if cj == SET_MAX:
            n = _push(moves, n, MV_MELD, j, MK_JOKERS, -1)
    for suit in range(N_SUITS):
        b = suit_bits(hand, suit)
        for lo in range(N_RANKS - MIN_MELD + 1):  # lowest rank of a run
            if (b >> lo) & 1 == 0:
                continue
            hi = lo
            while hi < TOP_RANK and (b >> (hi + 1)) & 1:
                hi += 1
                if hi - lo >= MIN_MELD - 1:
                    n = _push(moves, n, MV_MELD, rank_range_bits(lo, hi) << (N_RANKS * suit), MK_RUN, suit)
    return n


@njit(cache=True, _nrt=False)
def layoff_moves(st, hand, moves, n):
    """Append every lay-off of a ``hand`` card onto a table meld (P6.3)."""
    for k in range(st[O_N_MELDS]):
        for side in range(2):
            c = layoff_card_for(st, k, hand, side)
            if c >= 0:
                n = _push(moves, n, MV_LAYOFF, c, k, 0)
    return n


@njit(cache=True, _nrt=False)
def meld_kind_key(mask):
    """(kind, key) of a valid meld mask: set/rank, jokers/-1 or run/suit."""
    if mask & JOKERS:
        return MK_JOKERS, -1
    low = lowest_card(mask)
    if popcount(mask & RANK_MASKS[low % N_RANKS]) == popcount(mask):
        return MK_SET, low % N_RANKS
    return MK_RUN, low // N_RANKS
