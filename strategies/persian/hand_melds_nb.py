"""What a seat's own hand can meld, and what its cards are worth (helper kernels).

Meld finding (sets and runs: P5, lay-offs onto the table: P6.3), partial melds and the live ones,
the points a hand would put down (P8), the highest-valued card (P4), cards that go with
known ones, and the threes a four-waiting player holds back. Each takes what a seat may
see (P10): its own hand mask and the observation array.
"""

import numpy as np
from numba import njit

from sim.games.persian.cards_nb import (
    CARD_VALUES,
    JOKER_VALUE,
    JOKERS,
    RANK_GE1,
    RANK_GE2,
    RANK_LE10,
    RANK_LE11,
    RANK_MASKS,
    highest_rank,
    lowest_card,
    mask_value,
    near_cards,
    popcount,
    ranks_with,
    run_cards,
    spread_ranks,
)
from sim.games.persian.enums import (
    MIN_MELD,
    MK_JOKERS,
    MK_RUN,
    N_RANKS,
    O_LAYOFF_CARDS,
    O_MELD_KEY,
    O_MELD_KIND,
    O_MELD_MASK,
    O_N_MELDS,
    O_RULES,
    R_FOUR_DOUBLE,
    SET_MAX,
    TOP_RANK,
)
from strategies.persian.table_nb import table_cards


@njit(cache=True, _nrt=False)
def meldable_mask(hand, obs):
    """Cards of ``hand`` that a simple plan could put on the table now.

    Sets (and joker sets) first, then runs from what is left, then lay-offs onto the
    table melds in ``obs``. A fast estimate for strategies, not an optimal packing.
    """
    return meldable_with(hand, obs, obs[O_LAYOFF_CARDS])


@njit(cache=True, _nrt=False)
def meldable_with(hand, obs, lay):
    """``meldable_mask(hand, obs)`` given ``lay`` = ``layoff_cards(obs)`` (or -1, every
    card): when no card left after the hand's own melds is in ``lay`` no lay-off can
    start, and the loop over the table melds is skipped. A strategy that asks for many
    hands at one decision (a draw's takes) gathers ``lay`` once."""
    used = spread_ranks(ranks_with(hand, MIN_MELD)) & hand  # sets (bit-parallel over the ranks)
    if popcount(hand & JOKERS) >= MIN_MELD:
        used |= hand & JOKERS
    used |= run_cards(hand & ~used & ~JOKERS)  # then whole runs of what is left
    rest = hand & ~used
    if rest & lay == 0:  # no first lay-off: the chains below could not start
        return used
    for k in range(obs[O_N_MELDS]):
        kind = obs[O_MELD_KIND + k]
        mask = obs[O_MELD_MASK + k]
        if kind == MK_RUN:  # extend down, then up, card by card (c: the run's end card so far)
            c = lowest_card(mask)
            while c % N_RANKS > 0 and (rest >> (c - 1)) & 1:
                c -= 1
                used |= np.int64(1) << c
                rest &= ~(np.int64(1) << c)
            c = highest_rank(mask)  # the highest card id
            while c % N_RANKS < TOP_RANK and (rest >> (c + 1)) & 1:
                c += 1
                used |= np.int64(1) << c
                rest &= ~(np.int64(1) << c)
        elif popcount(mask) == MIN_MELD:
            if kind == MK_JOKERS:
                j = rest & JOKERS
            else:
                j = rest & RANK_MASKS[obs[O_MELD_KEY + k]]
            if j != 0:
                low = j & -j
                used |= low
                rest &= ~low
    return used


@njit(cache=True, _nrt=False)
def partial_meld_mask(hand):
    """Cards of ``hand`` that belong to a partial meld: a pair of one rank (or of
    jokers), or two cards of one suit at most two ranks apart (a run draw)."""
    part = spread_ranks(ranks_with(hand, 2)) & hand
    if popcount(hand & JOKERS) >= 2:
        part |= hand & JOKERS
    return part | near_cards(hand)


@njit(cache=True, _nrt=False)
def live_partial_mask(rest, dead):
    """Cards of ``rest`` in a pair of one rank (or of jokers) or a two-card run draw
    (adjacent, or one rank apart) whose completing card is not in ``dead`` nor ``rest``."""
    free = ~dead & ~rest
    pairs = ranks_with(rest, 2) & ~ranks_with(rest, 3) & ranks_with(free & ~JOKERS, 1)  # 2 held, one to come
    part = spread_ranks(pairs) & rest
    if popcount(rest & JOKERS) == 2 and (JOKERS & free) != 0:
        part |= rest & JOKERS
    # run draws, every suit at once (the masks keep each shift inside its suit)
    adj = rest & (rest >> 1) & RANK_LE11  # card c: c and c + 1 held
    adj &= ((free << 1) & RANK_GE1) | ((free >> 2) & RANK_LE10)  # c - 1 or c + 2 still to come
    gap = rest & (rest >> 2) & ~(rest >> 1) & (free >> 1) & RANK_LE10  # c and c + 2 held, c + 1 to come
    return part | adj | (adj << 1) | gap | (gap << 2)


@njit(cache=True, _nrt=False)
def meld_points(hand, obs):
    """(cards, points) of ``meldable_mask(hand, obs)``, a set of four of one rank (or
    four jokers) counted double when the rule option is on (P8)."""
    return meld_points_with(hand, obs, obs[O_LAYOFF_CARDS])


@njit(cache=True, _nrt=False)
def meld_points_with(hand, obs, lay):
    """``meld_points(hand, obs)`` given ``lay`` = ``layoff_cards(obs)`` (see ``meldable_with``)."""
    used = meldable_with(hand, obs, lay)
    pts = mask_value(used)
    if obs[O_RULES + R_FOUR_DOUBLE] != 0:
        pts += mask_value(spread_ranks(ranks_with(used, SET_MAX)))  # every four of one rank once more
        if popcount(used & JOKERS) == SET_MAX:
            pts += SET_MAX * JOKER_VALUE
    return used, pts


@njit(cache=True, _nrt=False)
def wanted_mask(known):
    """Cards that go with ``known``: the same rank, a same-suit card up to two ranks
    away, and the other jokers when ``known`` holds a joker."""
    if known == 0:
        return np.int64(0)
    k = known & ~JOKERS
    w = spread_ranks(ranks_with(k, 1))  # the same ranks
    w |= ((k << 1) & RANK_GE1) | ((k >> 1) & RANK_LE11) | ((k << 2) & RANK_GE2) | ((k >> 2) & RANK_LE10)
    if known & JOKERS:
        w |= JOKERS
    return w & ~known


_ACES = RANK_MASKS[TOP_RANK]


_TENS = RANK_MASKS[8] | RANK_MASKS[9] | RANK_MASKS[10] | RANK_MASKS[11]  # ten, jack, queen, king: 10 each (P4)


assert all(CARD_VALUES[r] == 10 for r in (8, 9, 10, 11)) and CARD_VALUES[TOP_RANK] > 10


assert all(CARD_VALUES[r] < CARD_VALUES[r + 1] for r in range(8))


@njit(cache=True, _nrt=False)
def highest_card(mask):
    """The highest-valued card of a non-empty ``mask`` (ties: the highest id): a joker,
    else an ace, else a ten to king, else a card of the highest rank held (P4's value
    classes, highest first; within a class the highest id)."""
    if mask & JOKERS:
        return highest_rank(mask)  # highest_rank: the highest set bit, here a card id
    if mask & _ACES:
        return highest_rank(mask & _ACES)
    if mask & _TENS:
        return highest_rank(mask & _TENS)
    return highest_rank(mask & RANK_MASKS[highest_rank(ranks_with(mask, 1))])


@njit(cache=True, _nrt=False)
def held_threes(obs, hand, hold_jokers, hold_sets, min_value):
    """Sets of exactly three (jokers when ``hold_jokers``, other ranks worth at least
    ``min_value`` when ``hold_sets``) whose fourth card is not on the table: the cards a
    four-waiting player keeps back. The table is read only when the hand has such a
    three (most hands have none: expert asks at every play and discard)."""
    j = hand & JOKERS
    jokers = hold_jokers and popcount(j) == SET_MAX - 1
    threes = ranks_with(hand, SET_MAX - 1) & ~ranks_with(hand, SET_MAX) if hold_sets else np.int64(0)
    if not jokers and threes == 0:
        return np.int64(0)
    dead = table_cards(obs)
    held = np.int64(0)
    if jokers and (JOKERS & ~hand & ~dead) != 0:
        held |= j
    while threes != 0:  # the ranks with exactly three cards in hand
        rank = lowest_card(threes)
        threes &= threes - 1
        if CARD_VALUES[rank] >= min_value and (RANK_MASKS[rank] & ~hand & ~dead) != 0:
            held |= hand & RANK_MASKS[rank]
    return held


@njit(cache=True, _nrt=False)
def fourth_cards(hand, held):
    """The missing fourth card of every held three (any joker for jokers)."""
    m = spread_ranks(ranks_with(held & ~JOKERS, 1)) & ~hand
    if held & JOKERS:
        m |= JOKERS & ~hand
    return m
