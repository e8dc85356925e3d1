"""The Indian Rummy card facts as compiled kernels (I2, I6): the one definition of what a
card counts and of what is a joker, which the solver, the engine's state kernels, the
strategies and the Python tables (cards.CARD_VALUES) all use.

A kind ``k`` is ``suit * 13 + rank`` (rank 0..12 = 2..A) or 52, the printed joker
(cards.py). ``wild_rank`` is the deal's wild rank (deal_nb.wild_rank_of); -1 means none.
The two small kernels are inlined where they are called (``inline="always"``): the
solver calls ``card_value`` in its innermost loops.
"""

from numba import njit

from sim.games.indian.enums import JOKER, N_RANKS, N_SUITS


@njit(cache=True, inline="always")
def card_value(k, wild_rank):
    """I6 points of kind ``k``: A K Q J T count 10, 2-9 face value, the printed joker and
    every card of the wild rank 0."""
    if k >= JOKER:
        return 0
    r = k % N_RANKS
    if r == wild_rank:
        return 0
    if r >= 8:
        return 10
    return r + 2


@njit(cache=True, inline="always")
def is_joker(k, wild_rank):
    """A printed joker or a card of the wild rank (I2)."""
    return k == JOKER or k % N_RANKS == wild_rank


@njit(cache=True, _nrt=False)
def jokers_in(h, wild_rank):
    """Printed jokers plus cards of the wild rank in counts ``h`` (int64[53])."""
    n = h[JOKER]
    if wild_rank >= 0:
        for s in range(N_SUITS):
            n += h[s * N_RANKS + wild_rank]
    return n


@njit(cache=True, _nrt=False)
def hand_points(h, wild_rank):
    """The I6 points of every card in counts ``h``: what a hand loses with no valid
    arrangement (before the cap)."""
    total = 0
    for k in range(JOKER):
        if h[k] > 0:
            total += h[k] * card_value(k, wild_rank)
    return total
