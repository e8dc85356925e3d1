"""Gin `knocker` and `expert`: greedy play with a knock policy (named parameters, builtins.py).

The knock policy: with best-10 deadwood d after the draw and a legal knock, knock when
``d <= limit``, where the limit is ``knock_at`` while the stock holds more than ``late_stock``
cards and ``late_knock_at`` from then on, less ``pickup_penalty`` for every card the opponent
took from the upcard and still holds (public, G9: each one likely sits in a meld, so its
deadwood is lower and an undercut likelier). Below the limit it plays on for gin. At the wall
it knocks by the same limit (else the hand is a draw).

``expert`` also discards with care: each card left in hand the discard could meld with costs
``keep`` points, and a card of a rank the opponent has taken, or within two
ranks of a card of its suit it has taken, counts ``danger`` points more (it may complete the
opponent's meld), and it takes the upcard only when that lowers its deadwood by at least
``take_margin``.
"""

import numpy as np
from numba import njit

from sim.games.gin.enums import (
    D_DEFEND_MELD, D_DISCARD, D_DRAW, D_FIRST, D_KNOCK_DISCARD, D_LAYOFF, D_WALL, MV_CARD, MV_KNOCK, MV_PASS,
    MV_UPCARD, N_RANKS, O_HAND, O_KNOWN, O_SEAT, O_STOCK_N, O_UPCARD,
)
from sim.games.gin.melds_nb import MAX_HAND_MELDS, MELD_SCRATCH, best10_deadwood, card_value, deadwood10, popcount
from sim.plugin.strategy import STRATEGY_SIG
from strategies.gin.greedy_nb import lay_best_meld, least_deadwood_card, row_of

ONE = np.int64(1)

# parameter slots, in the order declared in strategies/gin/builtins.py
P_KNOCK_AT = 0
P_LATE_KNOCK_AT = 1
P_LATE_STOCK = 2
P_PICKUP_PENALTY = 3
P_DANGER = 4  # expert only
P_TAKE_MARGIN = 5  # expert only
P_KEEP = 6  # expert only


@njit(cache=True)
def knock_limit(obs, params):
    """The most deadwood the policy knocks with in this state (module docstring)."""
    limit = params[P_KNOCK_AT] if obs[O_STOCK_N] > params[P_LATE_STOCK] else params[P_LATE_KNOCK_AT]
    return limit - params[P_PICKUP_PENALTY] * popcount(obs[O_KNOWN + 1 - obs[O_SEAT]])


@njit(cache=True)
def danger(c, known):
    """1 when card ``c`` may complete a meld of the opponent's known cards ``known``, else 0."""
    r = c % N_RANKS
    s = c // N_RANKS
    for t in range(4):
        if t != s and known >> (t * N_RANKS + r) & 1:
            return 1
    for d in (-2, -1, 1, 2):
        q = r + d
        if 0 <= q < N_RANKS and known >> (s * N_RANKS + q) & 1:
            return 1
    return 0


@njit(cache=True)
def links(c, hand):
    """How many cards of ``hand`` could make a meld with ``c``: its rank's, and its suit's within two ranks."""
    r = c % N_RANKS
    s = c // N_RANKS
    k = 0
    for t in range(4):
        if t != s and hand >> (t * N_RANKS + r) & 1:
            k += 1
    for d in (-2, -1, 1, 2):
        q = r + d
        if 0 <= q < N_RANKS and hand >> (s * N_RANKS + q) & 1:
            k += 1
    return k


@njit(cache=True)
def careful_discard(hand, known, weight, keep, moves, n, ids, stack):
    """The card row whose discard leaves the least deadwood, plus ``weight`` for a dangerous card and
    ``keep`` for each card of the hand it could meld with."""
    best = -1
    best_key = 1e18
    for i in range(n):
        if moves[i, 0] != MV_CARD:
            continue
        c = moves[i, 2]
        rest = hand & ~(ONE << c)
        key = (deadwood10(rest, ids, stack) + weight * danger(c, known) + keep * links(c, rest)) * 1024.0 \
            - card_value(c) * 64.0 - c
        if key < best_key:
            best_key = key
            best = i
    return best


@njit(cache=True)
def policy_decide(decision, obs, moves, n, params, careful):
    ids = np.empty(MAX_HAND_MELDS, np.int64)
    sel = np.empty(16, np.int64)
    stack = np.empty(MELD_SCRATCH, np.int64)
    hand = obs[O_HAND]
    known = obs[O_KNOWN + 1 - obs[O_SEAT]]
    if decision == D_FIRST or decision == D_DRAW:
        up = obs[O_UPCARD]
        margin = params[P_TAKE_MARGIN] if careful else 1.0
        gain = deadwood10(hand, ids, stack) - best10_deadwood(hand | (ONE << up), ids, stack)
        return row_of(moves, n, MV_UPCARD, -1) if gain >= margin and gain > 0 else n - 1
    if decision == D_WALL or decision == D_DISCARD:
        k = row_of(moves, n, MV_KNOCK, -1)
        if k >= 0:
            h = hand | (ONE << obs[O_UPCARD]) if decision == D_WALL else hand
            if best10_deadwood(h, ids, stack) <= knock_limit(obs, params):
                return k
        if decision == D_WALL:
            return row_of(moves, n, MV_PASS, -1)
        if careful:
            return careful_discard(hand, known, params[P_DANGER], params[P_KEEP], moves, n, ids, stack)
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
    return lay_best_meld(hand, moves, n, ids, sel, stack)


@njit(STRATEGY_SIG, cache=True)
def knocker_decide(decision, obs, moves, n, params, rng):
    return policy_decide(decision, obs, moves, n, params, False)


@njit(STRATEGY_SIG, cache=True)
def expert_decide(decision, obs, moves, n, params, rng):
    return policy_decide(decision, obs, moves, n, params, True)
