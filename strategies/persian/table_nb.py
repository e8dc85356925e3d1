"""The public facts of the table a seat reads (helper kernels).

Everything here reads only the public slots of ``obs`` (P10): the table melds and the
facts the engine derives from them, the discard pile, hand and stock sizes.
"""

import numpy as np
from numba import njit

from sim.games.persian.enums import (
    N_SEATS,
    O_BRIDGE_CARDS,
    O_HAND_SIZES,
    O_LAYOFF_CARDS,
    O_PILE,
    O_PILE_N,
    O_SEAT,
    O_STOCK_N,
    O_TABLE_CARDS,
    STOCK_SIZE,
)
from sim.games.persian.state_nb import next_seat, seat_after


@njit(cache=True, _nrt=False)
def table_cards(obs):
    """Every card in a meld on the table (the engine's derived slot O_TABLE_CARDS)."""
    return obs[O_TABLE_CARDS]


@njit(cache=True, _nrt=False)
def pile_cards(obs):
    """Every card in the discard pile."""
    m = np.int64(0)
    for i in range(obs[O_PILE_N]):
        m |= np.int64(1) << obs[O_PILE + i]
    return m


@njit(cache=True, _nrt=False)
def layoff_cards(obs):
    """Every card that one lay-off could put on a table meld right now (P6.3; the
    engine's derived slot O_LAYOFF_CARDS)."""
    return obs[O_LAYOFF_CARDS]


@njit(cache=True, _nrt=False)
def bridge_cards(obs):
    """Every card two ranks beyond the end of a table run (same suit): the cards for
    which ``hand_feed_chance(..., bridge=True)`` counts a bridging card. For any other
    card that count adds nothing, so a caller may pass ``bridge=False`` for it (the
    engine's derived slot O_BRIDGE_CARDS)."""
    return obs[O_BRIDGE_CARDS]


@njit(cache=True, _nrt=False)
def table_facts(obs):
    """(``table_cards(obs)``, ``layoff_cards(obs)``, ``bridge_cards(obs)``): the
    engine's derived table slots, no pass over the melds."""
    return obs[O_TABLE_CARDS], obs[O_LAYOFF_CARDS], obs[O_BRIDGE_CARDS]


@njit(cache=True, _nrt=False)
def end_pressure(obs, near_hand):
    """How close the deal looks to its end, 0..1: the larger of a hand part (another
    seat holding ``near_hand`` cards or fewer: 1/(near_hand+1) per card below
    near_hand + 1) and a stock part ((1 - stock/27) squared)."""
    seat = obs[O_SEAT]
    smallest = 99
    for k in range(1, N_SEATS):
        h = obs[O_HAND_SIZES + seat_after(seat, k)]
        if h < smallest:
            smallest = h
    p_hand = 0.0
    if smallest <= near_hand:
        p_hand = (near_hand + 1.0 - smallest) / (near_hand + 1.0)
    f = 1.0 - obs[O_STOCK_N] / STOCK_SIZE
    p_stock = f * f
    return p_hand if p_hand > p_stock else p_stock


@njit(cache=True, _nrt=False)
def opponent_near_out(obs, near_hand):
    """Does an opponent (seat + 1 or seat + 3) hold ``near_hand`` cards or fewer?"""
    seat = obs[O_SEAT]
    return (obs[O_HAND_SIZES + next_seat(seat)] <= near_hand
            or obs[O_HAND_SIZES + seat_after(seat, N_SEATS - 1)] <= near_hand)
