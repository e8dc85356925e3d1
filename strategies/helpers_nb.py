"""Helper kernels a strategy may call: meld finding, partial melds, move values.

All take what a seat may see: its own hand mask and the observation array (P10).
"""

import numpy as np
from numba import njit

from sim.persian.cards_nb import (
    JOKERS,
    RANK_MASKS,
    lowest_card,
    mask_value,
    popcount,
    suit_bits,
)
from sim.persian.enums import (
    MK_JOKERS,
    MK_RUN,
    MV_LAYOFF,
    MV_MELD,
    O_MELD_KEY,
    O_MELD_KIND,
    O_MELD_MASK,
    O_N_MELDS,
    O_RULES,
    R_FOUR_DOUBLE,
)
from sim.persian.melds_nb import run_ends


@njit(cache=True)
def meldable_mask(hand, obs):
    """Cards of ``hand`` that a simple plan could put on the table now.

    Sets (and joker sets) first, then runs from what is left, then lay-offs onto the
    table melds in ``obs``. A fast estimate for strategies, not an optimal packing.
    """
    used = np.int64(0)
    for rank in range(13):
        m = hand & RANK_MASKS[rank]
        if popcount(m) >= 3:
            used |= m
    if popcount(hand & JOKERS) >= 3:
        used |= hand & JOKERS
    rest = hand & ~used
    for suit in range(4):
        b = suit_bits(rest, suit)
        lo = 0
        while lo < 13:
            if (b >> lo) & 1 == 0:
                lo += 1
                continue
            hi = lo
            while hi < 12 and (b >> (hi + 1)) & 1:
                hi += 1
            if hi - lo >= 2:
                used |= (((np.int64(1) << (hi + 1)) - 1) ^ ((np.int64(1) << lo) - 1)) << (13 * suit)
            lo = hi + 1
    rest = hand & ~used
    for k in range(obs[O_N_MELDS]):
        kind = obs[O_MELD_KIND + k]
        mask = obs[O_MELD_MASK + k]
        if kind == MK_RUN:
            suit = obs[O_MELD_KEY + k]
            lo, hi = run_ends(mask, suit)
            c = suit * 13 + lo - 1
            while lo > 0 and (rest >> c) & 1:
                used |= np.int64(1) << c
                rest &= ~(np.int64(1) << c)
                lo -= 1
                c -= 1
            c = suit * 13 + hi + 1
            while hi < 12 and (rest >> c) & 1:
                used |= np.int64(1) << c
                rest &= ~(np.int64(1) << c)
                hi += 1
                c += 1
        elif popcount(mask) == 3:
            if kind == MK_JOKERS:
                j = rest & JOKERS
            else:
                j = rest & RANK_MASKS[obs[O_MELD_KEY + k]]
            if j != 0:
                low = j & -j
                used |= low
                rest &= ~low
    return used


@njit(cache=True)
def partial_meld_mask(hand):
    """Cards of ``hand`` that belong to a partial meld: a pair of one rank (or of
    jokers), or two cards of one suit at most two ranks apart (a run draw)."""
    part = np.int64(0)
    for rank in range(13):
        m = hand & RANK_MASKS[rank]
        if popcount(m) >= 2:
            part |= m
    if popcount(hand & JOKERS) >= 2:
        part |= hand & JOKERS
    for suit in range(4):
        b = suit_bits(hand, suit)
        near = b & ((b >> 1) | (b << 1) | (b >> 2) | (b << 2))
        part |= (near & 0x1FFF) << (13 * suit)
    return part


@njit(cache=True)
def move_points(obs, moves, i):
    """Table points a play move scores (P8), 0 for anything else."""
    kind = moves[i, 0]
    if kind == MV_MELD:
        m = moves[i, 1]
        v = mask_value(m)
        if moves[i, 2] != MK_RUN and popcount(m) == 4 and obs[O_RULES + R_FOUR_DOUBLE] != 0:
            v *= 2
        return v
    if kind == MV_LAYOFF:
        return mask_value(np.int64(1) << moves[i, 1])
    return 0


@njit(cache=True)
def find_move(moves, n, kind):
    """Index of the first move of ``kind`` among the ``n`` legal ones, or -1."""
    for i in range(n):
        if moves[i, 0] == kind:
            return i
    return -1


@njit(cache=True)
def highest_card(mask):
    """The highest-valued card of a non-empty ``mask`` (ties: the highest id)."""
    best = -1
    best_v = -1
    m = mask
    while m != 0:
        low = m & -m
        c = lowest_card(low)
        v = mask_value(low)
        if v >= best_v:
            best_v = v
            best = c
        m ^= low
    return best

