"""Picking from the engine's list of legal moves (helper kernels).

A move is a row ``(kind, card or mask, meld kind)`` of the ``moves`` array; ``n`` of them
are legal. These find a move by kind or card, score a play (P8) and choose the best play
that keeps some cards back.
"""

import numpy as np
from numba import njit

from sim.games.persian.cards_nb import mask_value, popcount
from sim.games.persian.enums import (
    JOKER0,
    MK_RUN,
    MV_DISCARD,
    MV_LAYOFF,
    MV_MELD,
    MV_PASS,
    MV_STOCK,
    O_HAND,
    O_RULES,
    R_FOUR_DOUBLE,
    SET_MAX,
)


@njit(cache=True, _nrt=False)
def move_points(obs, moves, i):
    """Table points a play move scores (P8), 0 for anything else."""
    kind = moves[i, 0]
    if kind == MV_MELD:
        m = moves[i, 1]
        v = mask_value(m)
        if moves[i, 2] != MK_RUN and popcount(m) == SET_MAX and obs[O_RULES + R_FOUR_DOUBLE] != 0:
            v *= 2
        return v
    if kind == MV_LAYOFF:
        return mask_value(np.int64(1) << moves[i, 1])
    return 0


@njit(cache=True, _nrt=False)
def find_move(moves, n, kind):
    """Index of the first move of ``kind`` among the ``n`` legal ones, or -1."""
    for i in range(n):
        if moves[i, 0] == kind:
            return i
    return -1


@njit(cache=True, _nrt=False)
def blind_draw(moves, n):
    """Index of the draw that takes no pile card: the stock, or pass on an empty stock."""
    for i in range(n):
        if moves[i, 0] == MV_STOCK or moves[i, 0] == MV_PASS:
            return i
    return 0


@njit(cache=True, _nrt=False)
def discard_index(moves, n, card):
    """Index of the discard of ``card`` (any joker stands for a joker), or 0."""
    for i in range(n):
        c = moves[i, 1]
        if moves[i, 0] == MV_DISCARD and (c == card or (c >= JOKER0 and card >= JOKER0)):
            return i
    return 0


@njit(cache=True, _nrt=False)
def play_keeping(obs, moves, n, held):
    """The play worth most points among those that use no ``held`` card; when there is
    none: stop if a card outside ``held`` is left to discard, else the best play (the
    hand is only held cards: putting them down goes out)."""
    hand = obs[O_HAND]
    best = -1
    best_v = 0
    any_best = -1
    any_v = 0
    stop = -1
    for i in range(n):
        kind = moves[i, 0]
        if kind == MV_MELD:
            cards = moves[i, 1]
        elif kind == MV_LAYOFF:
            cards = np.int64(1) << moves[i, 1]
        else:
            stop = i
            continue
        v = move_points(obs, moves, i)
        if v > any_v:
            any_v = v
            any_best = i
        if cards & held == 0 and v > best_v:
            best_v = v
            best = i
    if best >= 0:
        return best
    if stop >= 0 and (hand & ~held) != 0:
        return stop
    if any_best >= 0:
        return any_best
    return 0 if stop < 0 else stop
