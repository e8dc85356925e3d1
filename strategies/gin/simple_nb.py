"""Gin `simple`: OpenSpiel's SimpleGinRummyBot, move for move (benchmarks/vs_openspiel.py checks it).

* draw: the upcard when taking it allows a knock, or when it belongs to the best meld group
  (OpenSpiel's, melds_nb.best_group) of the 11 cards; else the stock (pass on the first upcard);
* discard: knock when it may; else the highest card left out of the best group;
* knock: that discard, then the best group's melds, last one first, then pass (with 11 cards
  all melded, the first card whose discard keeps gin, and the melds of the other 10);
* defend: no lay-offs, then its best group's melds, last one first (against gin its first
  answer is OpenSpiel's "no lay-offs" pass, which there ends the hand: no melds are laid);
* wall: knock when it may.

OpenSpiel's bot keeps the plan of its knock between calls; it is recomputed here from what the
seat sees (its hand, its laid melds and its knock discard), which gives the same moves.
"""

import numpy as np
from numba import njit

from sim.games.gin.enums import (
    D_DEFEND_MELD, D_DISCARD, D_DRAW, D_FIRST, D_KNOCK_DISCARD, D_KNOCK_MELD, D_LAYOFF, D_WALL, MV_KNOCK, MV_MELD,
    MV_PASS, MV_UPCARD, N_CARDS, O_GIN, O_HAND, O_KNOCK_CARD, O_KNOCK_DISCARD, O_MELDS, O_N_LAID, O_SEAT, O_UPCARD,
)
from sim.games.gin.melds_nb import (
    MAX_HAND_MELDS, MELD_SCRATCH, best_group, deadwood10, hand_melds, os_deadwood, top_card,
)
from sim.plugin.strategy import STRATEGY_SIG

ONE = np.int64(1)


@njit(cache=True)
def find_row(moves, n, kind, x):
    """The index of the row of ``kind`` (and ``x``, unless -1), -1 if none."""
    for i in range(n):
        if moves[i, 0] == kind and (x < 0 or moves[i, 2] == x):
            return i
    return -1


@njit(cache=True)
def bot_discard(hand, ids, sel, stack):
    """OpenSpiel's bot discard from 11 cards: the highest card outside its best group; with all 11
    melded, the first card (in card order) whose discard leaves deadwood 0."""
    n = hand_melds(hand, ids)
    v, cards, k = best_group(ids, n, np.int64(0), sel, stack)
    left = hand & ~cards
    if left != 0:
        return top_card(left)
    for c in range(N_CARDS):
        if hand >> c & 1 and deadwood10(hand & ~(ONE << c), ids, stack) == 0:
            return c
    return -1


@njit(cache=True)
def _lay_next(hand, laid, moves, n, ids, sel, stack):
    """The next meld of the plan "the best group of ``hand``, last meld first" after ``laid`` melds."""
    m = hand_melds(hand, ids)
    v, cards, k = best_group(ids, m, np.int64(0), sel, stack)
    if laid < k:
        return find_row(moves, n, MV_MELD, ids[sel[k - 1 - laid]])
    return find_row(moves, n, MV_PASS, -1)


@njit(STRATEGY_SIG, cache=True)
def simple_decide(decision, obs, moves, n, params, rng):
    ids = np.empty(MAX_HAND_MELDS, np.int64)
    sel = np.empty(16, np.int64)
    stack = np.empty(MELD_SCRATCH, np.int64)
    hand = obs[O_HAND]
    seat = obs[O_SEAT]
    k = obs[O_KNOCK_CARD]
    if decision == D_FIRST or decision == D_DRAW:
        up = obs[O_UPCARD]
        h11 = hand | (ONE << up)
        take = os_deadwood(h11, ids, sel, stack) <= k
        if not take:
            m = hand_melds(h11, ids)
            v, cards, c = best_group(ids, m, np.int64(0), sel, stack)
            take = (cards >> up) & 1 == 1
        return find_row(moves, n, MV_UPCARD, -1) if take else n - 1
    if decision == D_WALL:
        return n - 1  # the knock row when there is one, else pass
    if decision == D_DISCARD:
        if os_deadwood(hand, ids, sel, stack) <= k:
            return find_row(moves, n, MV_KNOCK, -1)
        return find_row(moves, n, 0, bot_discard(hand, ids, sel, stack))
    if decision == D_KNOCK_DISCARD:
        return find_row(moves, n, 0, bot_discard(hand, ids, sel, stack))
    if decision == D_KNOCK_MELD:
        h11 = hand | obs[O_MELDS + seat] | (ONE << obs[O_KNOCK_DISCARD])
        plan = h11
        if os_deadwood(h11, ids, sel, stack) == 0:
            plan = h11 & ~(ONE << bot_discard(h11, ids, sel, stack))
        return _lay_next(plan, obs[O_N_LAID + seat], moves, n, ids, sel, stack)
    if decision == D_LAYOFF:
        return find_row(moves, n, MV_PASS, -1)
    if decision == D_DEFEND_MELD:
        if obs[O_GIN]:
            return find_row(moves, n, MV_PASS, -1)
        return _lay_next(hand | obs[O_MELDS + seat], obs[O_N_LAID + seat], moves, n, ids, sel, stack)
    return 0
