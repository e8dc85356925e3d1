"""Determinization: a full Gin Rummy state built from one seat's observation (G9).

A search strategy may not look at the hidden cards (the opponent's hand, the stock), so
it samples them. What a seat's view leaves open is the game's knowledge, so this lives
with the game (as sim/games/persian|indian/determinize_nb.py); strategies/gin/mc_search_nb.py
uses it.

What the seat sees before a knock (the O_* slots only; the true state is never an input):
its own hand, the upcard, the cards out of play (``O_OUT``, the discard pile under the
upcard), the stock size, and ``O_KNOWN``: the cards the opponent took from the upcard and
still holds (public). Every other card is either in the opponent's hand, which holds
HAND_SIZE cards before the knock (G3: a seat discards at once after it draws, so the
opponent of the deciding seat always holds 10), or in the stock.

The unseen pool (every card not in the seat's hand, not out of play, not the upcard, not
known to be the opponent's, not laid) is put in card order (a function of the observation
only), shuffled with the caller's generator (``sim.core.rng_nb.shuffle_inplace``), and
dealt: the opponent gets HAND_SIZE minus its known cards, the stock the rest, top first.
The draws taken from the generator depend only on the observation, so two states a seat
cannot tell apart give the same worlds for the same generator state. No further inference
(e.g. from upcards the opponent declined) is made: every deal consistent with the counts
is equally likely.
"""

import numpy as np
from numba import njit

from sim.core.rng_nb import shuffle_inplace
from sim.games.gin.enums import (
    HAND_SIZE, N_CARDS, O_HAND, O_KNOWN, O_LAYOFFS, O_MELDS, O_OUT, O_SEAT, O_STOCK_N, O_UPCARD, OBS_SIZE,
    S_HANDS, S_STOCK, S_STOCK_POS, ST_SIZE,
)

ONE = np.int64(1)
ALL_CARDS = (ONE << N_CARDS) - 1


@njit(cache=True)
def unseen_cards(obs):
    """The cards the deciding seat cannot place (bitmask): in the opponent's hand or the stock."""
    me = obs[O_SEAT]
    seen = obs[O_HAND] | obs[O_OUT] | obs[O_KNOWN + 1 - me] | obs[O_MELDS] | obs[O_MELDS + 1] | obs[O_LAYOFFS]
    if obs[O_UPCARD] >= 0:
        seen |= ONE << obs[O_UPCARD]
    return ALL_CARDS & ~seen


@njit(cache=True)
def determinize_into(obs, rng, world, pool):
    """Write into ``world`` (int64[ST_SIZE]) a state the seat cannot tell from the true one
    (module docstring). ``pool``: int64[N_CARDS] scratch; ``rng``: the caller's stream.

    Returns False (``world`` unusable, ``rng`` untouched) when the counts do not add up,
    i.e. the decision is not one before the knock."""
    me = obs[O_SEAT]
    known = obs[O_KNOWN + 1 - me]
    free = unseen_cards(obs)
    k = 0
    for c in range(N_CARDS):
        if free >> c & 1:
            pool[k] = c
            k += 1
    hidden = np.int64(HAND_SIZE)
    for c in range(N_CARDS):
        if known >> c & 1:
            hidden -= 1
    stock_n = obs[O_STOCK_N]
    if hidden < 0 or hidden + stock_n != k:
        return False
    shuffle_inplace(pool[:k], rng)
    for i in range(ST_SIZE):
        world[i] = 0
    for i in range(OBS_SIZE):
        world[i] = obs[i]
    world[O_HAND] = 0  # a state keeps the hands in S_HANDS (the engine fills O_HAND per observation)
    opp = known
    for i in range(hidden):
        opp |= ONE << pool[i]
    world[S_HANDS + me] = obs[O_HAND]
    world[S_HANDS + 1 - me] = opp
    world[S_STOCK_POS] = 0
    for i in range(stock_n):
        world[S_STOCK + i] = pool[hidden + i]
    return True
