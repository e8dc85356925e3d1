"""Compiled steps of the posterior sampler over hidden worlds (any game; sim.apps.analysis.mcmc).

A game describes a world by the order of its unseen cards (``pool``): its own sampler shuffles
them and deals them in that order to the hidden places (each hidden hand, the stock, ...), so
``place[i]`` (which place the i-th unseen card goes to) is fixed by public facts and a uniform
order of the pool is a uniform world. The steps here never read a card, only positions:

* ``propose_swap``: two positions i != j drawn uniformly among the ordered pairs whose places
  differ and at least one of which is *hot* (a place the likelihood reads: an opponent's hidden
  hand). The set of such pairs is fixed, so proposing the pair and proposing its reverse (the
  same two positions, the swap undone) are equally likely: a symmetric proposal, under which
  the uniform prior over pool orders is invariant and Metropolis-Hastings accepts with
  min(1, L(new) / L(old)). Every public constraint lives in ``place`` (what is public is not
  in the pool at all), so a swap keeps it, and the places' sizes never change.
* ``shuffle_cold``: the cards of the places the likelihood does not read (the stock, cards out
  of play) shuffled among themselves: given the hot hands these are uniform under the
  posterior too, so the shuffle is an exact draw of them (their order otherwise would move
  only through swaps with a hand).
"""

import numpy as np
from numba import njit

from sim.core.rng_nb import next_u64, rand_below


@njit(cache=True)
def swappable(place, hot) -> bool:
    """True when some two positions of ``place`` are in different places, one of them hot."""
    for i in range(place.shape[0]):
        for j in range(i + 1, place.shape[0]):
            if place[i] != place[j] and (hot[place[i]] or hot[place[j]]):
                return True
    return False


@njit(cache=True)
def _below(rng, n):
    """A uniform integer in [0, n) for any n < 2**31 (rand_below serves n < 2**11)."""
    if n < 2048:
        return rand_below(rng, n)
    return np.int64(next_u64(rng) % np.uint64(n))


@njit(cache=True)
def propose_swap(pool, place, hot, rng, out):
    """Write into ``out`` the pool ``pool`` with two of its cards swapped (module docstring;
    drawn with ``rng``, uint64[1]); returns the two positions (equal, -1 when no pair exists:
    check ``swappable`` first)."""
    n = pool.shape[0]
    out[:] = pool
    for _ in range(1 << 20):
        i = _below(rng, n)
        j = _below(rng, n)
        if place[i] != place[j] and (hot[place[i]] or hot[place[j]]):
            out[i] = pool[j]
            out[j] = pool[i]
            return i, j
    return -1, -1


@njit(cache=True)
def shuffle_cold(pool, place, hot, rng, idx):
    """Shuffle in place the cards of ``pool`` whose places are not hot (Fisher-Yates over
    their positions, ``idx`` scratch of pool's length)."""
    m = 0
    for i in range(pool.shape[0]):
        if not hot[place[i]]:
            idx[m] = i
            m += 1
    for a in range(m - 1, 0, -1):
        b = _below(rng, a + 1)
        t = pool[idx[a]]
        pool[idx[a]] = pool[idx[b]]
        pool[idx[b]] = t
