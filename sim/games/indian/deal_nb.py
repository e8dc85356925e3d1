"""The Indian Rummy deal (I1, I2) and the I8 reshuffle, as compiled kernels.

A deal is a pure function of (seed, deal index, players, decks):

* the shoe: physical ids ``0 .. decks*54 - 1`` (``decks * 52`` naturals, then
  ``2 * decks`` printed jokers, I1), shuffled by ``shuffle_inplace`` with the state
  ``stream_key(seed, deal, STREAM_SHUFFLE)``; physical id p is kind ``p % 52`` if
  ``p < decks * 52``, else 52 (JOKER);
* dealer = ``deal % players`` (I2: the deal rotates clockwise);
* shoe card ``i * players + j`` (i = 0..12, j = 0..players-1) goes to seat
  ``(dealer + 1 + j) % players``; card ``13 * players`` starts the discard pile;
  card ``13 * players + 1`` is the cut joker, face up at the bottom of the stock; the
  stock is the remaining cards in shoe order (top first) with the cut joker last;
* I8: when the stock is empty before a draw, the pile except its top card, listed
  bottom first (oldest discard first), is shuffled by ``shuffle_inplace`` with the
  same stream-0 state, continued after the shoe shuffle (and any earlier reshuffle);
  the new stock, top first, is that shuffled list in index order.
"""

import numpy as np
from numba import njit

from sim.games.indian.enums import ACE_RANK, HAND_SIZE, JOKER, N_RANKS
from sim.core.rng_nb import STREAM_SHUFFLE, shuffle_inplace, stream_key


@njit(cache=True, _nrt=False)
def shoe_kind(p, decks):
    """Kind (0..52) of physical card ``p`` in a shoe of ``decks`` decks."""
    if p < decks * 52:
        return p % 52
    return JOKER


@njit(cache=True, _nrt=False)
def shuffle_shoe_into(shoe, rs, seed, deal, decks):
    """Shuffle deal ``deal``'s shoe into ``shoe[:n]`` (int64[>= n]; n = decks * 54, returned)
    and leave the stream-0 generator in ``rs`` (uint64[1]) ready for the I8 reshuffles of
    the same deal: the engine reuses both arrays for every deal a thread plays."""
    n = decks * 54
    for p in range(n):
        shoe[p] = p
    rs[0] = stream_key(seed, deal, STREAM_SHUFFLE)
    shuffle_inplace(shoe[:n], rs)
    return n


@njit(cache=True)
def shuffle_shoe(seed, deal, decks, rs):
    """The shuffled shoe of deal ``deal`` (a new array); leaves the stream-0 generator in
    ``rs`` (uint64[1]) ready for the I8 reshuffles of the same deal."""
    shoe = np.empty(decks * 54, dtype=np.int64)
    shuffle_shoe_into(shoe, rs, seed, deal, decks)
    return shoe


@njit(cache=True)
def shuffled_shoe(seed, deal, decks):
    """The physical ids of deal ``deal``'s shoe in dealing order (I2)."""
    rs = np.empty(1, np.uint64)
    return shuffle_shoe(seed, deal, decks, rs)


@njit(cache=True, _nrt=False)
def wild_rank_of(cut_kind):
    """Rank index of the wild jokers: the cut joker's rank, aces for a printed joker (I2)."""
    if cut_kind == JOKER:
        return ACE_RANK
    return cut_kind % N_RANKS


@njit(cache=True, _nrt=False)
def deal_order(shoe, decks, players, dealer, hands, stock):
    """Deal ``shoe`` (physical ids) as I2 says.

    Writes ``hands[s, i]``: the kind of the i-th card dealt to seat s (int64[>=players, 13]),
    and ``stock[:n]``: the stock's kinds, top first, the cut joker last. Returns
    ``(first discard kind, cut joker kind, n)``.
    """
    for i in range(HAND_SIZE):
        for j in range(players):
            hands[(dealer + 1 + j) % players, i] = shoe_kind(shoe[i * players + j], decks)
    k = HAND_SIZE * players
    first = shoe_kind(shoe[k], decks)
    cut = shoe_kind(shoe[k + 1], decks)
    n = 0
    for p in range(k + 2, shoe.shape[0]):
        stock[n] = shoe_kind(shoe[p], decks)
        n += 1
    stock[n] = cut
    return first, cut, n + 1


@njit(cache=True, _nrt=False)
def reshuffle(cards, rs):
    """I8: ``cards`` = the pile except its top card, bottom first, shuffled in place with the
    deal's continued stream-0 generator ``rs``; afterwards ``cards`` is the new stock, top first."""
    shuffle_inplace(cards, rs)
