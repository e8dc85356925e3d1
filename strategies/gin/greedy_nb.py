"""Gin `greedy`: play for the least deadwood, move by move (exact solver, melds_nb).

* draw: the upcard when the best 10 of the 11 cards it makes have less deadwood than the hand
  has now; else the stock (pass on the first upcard);
* discard: knock as soon as it may (also at the wall); else the card whose discard leaves
  the least deadwood (ties: the higher value, then the higher card);
* knock: the discard that leaves the least deadwood, then a best meld group, meld by meld;
* defend: every lay-off that lowers its deadwood (the largest first), then a best group.
"""

import numpy as np
from numba import njit

from sim.games.gin.enums import (
    D_DEFEND_MELD, D_DISCARD, D_DRAW, D_FIRST, D_KNOCK_DISCARD, D_KNOCK_MELD, D_LAYOFF, D_WALL, MV_CARD, MV_KNOCK,
    MV_MELD, MV_PASS, MV_UPCARD, O_HAND, O_UPCARD,
)
from sim.games.gin.melds_nb import (
    MAX_HAND_MELDS, MELD_SCRATCH, best10_deadwood, best_group, card_value, deadwood10, hand_melds,
)
from sim.plugin.strategy import STRATEGY_SIG

ONE = np.int64(1)


@njit(cache=True)
def row_of(moves, n, kind, x):
    """The index of the row of ``kind`` (and ``x``, unless -1), -1 if none."""
    for i in range(n):
        if moves[i, 0] == kind and (x < 0 or moves[i, 2] == x):
            return i
    return -1


@njit(cache=True)
def least_deadwood_card(hand, moves, n, ids, stack):
    """The card row whose card leaves ``hand`` the least deadwood (ties: higher value, higher card)."""
    best = -1
    best_key = 1 << 30
    for i in range(n):
        if moves[i, 0] != MV_CARD:
            continue
        c = moves[i, 2]
        key = deadwood10(hand & ~(ONE << c), ids, stack) * 1024 - card_value(c) * 64 - c
        if key < best_key:
            best_key = key
            best = i
    return best


@njit(cache=True)
def lay_best_meld(hand, moves, n, ids, sel, stack):
    """The row of the first meld of a best group of ``hand``; the pass row when it holds none."""
    m = hand_melds(hand, ids)
    v, cards, k = best_group(ids, m, np.int64(0), sel, stack)
    if k > 0:
        i = row_of(moves, n, MV_MELD, ids[sel[0]])
        if i >= 0:
            return i
    return row_of(moves, n, MV_PASS, -1)


@njit(STRATEGY_SIG, cache=True)
def greedy_decide(decision, obs, moves, n, params, rng):
    ids = np.empty(MAX_HAND_MELDS, np.int64)
    sel = np.empty(16, np.int64)
    stack = np.empty(MELD_SCRATCH, np.int64)
    hand = obs[O_HAND]
    if decision == D_FIRST or decision == D_DRAW:
        up = obs[O_UPCARD]
        take = best10_deadwood(hand | (ONE << up), ids, stack) < deadwood10(hand, ids, stack)
        return row_of(moves, n, MV_UPCARD, -1) if take else n - 1
    if decision == D_WALL or decision == D_DISCARD:
        k = row_of(moves, n, MV_KNOCK, -1)
        if k >= 0 or decision == D_WALL:
            return k if k >= 0 else 0
        return least_deadwood_card(hand, moves, n, ids, stack)
    if decision == D_KNOCK_DISCARD:
        return least_deadwood_card(hand, moves, n, ids, stack)
    if decision == D_LAYOFF:
        now = deadwood10(hand, ids, stack)
        best = row_of(moves, n, MV_PASS, -1)
        gain = 0
        for i in range(n):
            if moves[i, 0] == MV_CARD:
                g = now - deadwood10(hand & ~moves[i, 3], ids, stack)
                if g > gain:
                    gain = g
                    best = i
        return best
    # D_KNOCK_MELD, D_DEFEND_MELD
    return lay_best_meld(hand, moves, n, ids, sel, stack)
