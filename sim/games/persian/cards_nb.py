"""Card and bitmask helpers for compiled kernels (P1, P4).

Card ids: ``suit * 13 + rank`` (suits C D H S, ranks 2..A as 0..12), jokers 52..55.
A hand or meld is an int64 mask with bit ``id`` set. Strategies may call these.
"""

import numpy as np
from numba import config, njit
from numba.cpython.unsafe.numbers import leading_zeros

from sim.core.bits_nb import popcount as _ctpop  # the CPU's population count (LLVM ctpop)
from sim.games.persian.enums import JOKER0, JOKER_MASK, N_CARDS, N_JOKERS, N_RANKS, N_SUITS, RANK_BITS, TOP_RANK

_RANK_VALUES = (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 15)  # P4: ten counts 10 [choice]
JOKER_VALUE = 20  # P4
CARD_VALUES = np.array(
    [_RANK_VALUES[c % N_RANKS] for c in range(JOKER0)] + [JOKER_VALUE] * N_JOKERS, dtype=np.int64
)
_RANK0 = sum(1 << (N_RANKS * s) for s in range(N_SUITS))  # rank 0 of every suit
RANK_MASKS = np.array([_RANK0 << r for r in range(N_RANKS)], dtype=np.int64)
SUIT_MASKS = np.array([RANK_BITS << (N_RANKS * s) for s in range(N_SUITS)], dtype=np.int64)
JOKERS = np.int64(JOKER_MASK)

def _cards_of_ranks(pred) -> np.int64:
    """Every card (no jokers) whose rank id satisfies ``pred``."""
    return np.int64(sum(1 << (N_RANKS * s + r) for s in range(N_SUITS) for r in range(N_RANKS) if pred(r)))


# mask_value's value classes (P4): ranks 2..9 (ids 0..7) count id + 2, ten to king (8..11) 10, ace 15
_LOW_RANKS = _cards_of_ranks(lambda r: r <= 7)
_RANK_BIT0 = _cards_of_ranks(lambda r: r & 1)
_RANK_BIT1 = _cards_of_ranks(lambda r: r & 2)
_RANK_BIT2 = _cards_of_ranks(lambda r: r & 4)
_TEN_RANKS = _cards_of_ranks(lambda r: 8 <= r <= 11)
_TOP_RANKS = _cards_of_ranks(lambda r: r == N_RANKS - 1)
assert all(_RANK_VALUES[r] == r + 2 for r in range(8)) and set(_RANK_VALUES[8:12]) == {10}
ALL_CARDS = np.int64((1 << N_CARDS) - 1)  # every card of the deck
# rank bits r of every suit, for bit-parallel neighbour tests over all four suits at once
_RANKS_FROM = [sum(1 << (N_RANKS * s + r) for s in range(N_SUITS) for r in range(N_RANKS) if r >= k)
               for k in range(3)]
_RANKS_UPTO = [sum(1 << (N_RANKS * s + r) for s in range(N_SUITS) for r in range(N_RANKS) if r <= k)
               for k in (N_RANKS - 3, N_RANKS - 2)]
RANK_GE1 = np.int64(_RANKS_FROM[1])  # ranks 1..12 of every suit: rank r - 1 is in the same suit
RANK_GE2 = np.int64(_RANKS_FROM[2])
RANK_LE10 = np.int64(_RANKS_UPTO[0])  # ranks 0..10 of every suit: rank r + 2 is in the same suit
RANK_LE11 = np.int64(_RANKS_UPTO[1])


if config.DISABLE_JIT:  # plain Python (the bench's JIT speed-up run): intrinsics cannot run there
    _U64 = (1 << 64) - 1

    def leading_zeros(x):  # noqa: F811
        return 64 - (int(x) & _U64).bit_length()


@njit(cache=True, _nrt=False)
def popcount(mask):
    """Number of cards in ``mask`` (the CPU's population count of its 64 bits)."""
    return _ctpop(np.int64(mask))


@njit(cache=True, _nrt=False)
def lowest_card(mask):
    """Id of the lowest card in a non-empty ``mask``."""
    return popcount((mask & -mask) - 1)


@njit(cache=True, _nrt=False)
def bit(card):
    """The one-card mask of ``card``."""
    return np.int64(1) << card


@njit(cache=True, _nrt=False)
def card_value(card):
    """P4 value of one card."""
    return CARD_VALUES[card]


@njit(cache=True, _nrt=False)
def mask_value(mask):
    """Sum of P4 values of the cards in ``mask``: per value class, the class's value times
    its number of cards (population counts, no loop over the cards). Ranks 2..9 count
    ``rank id + 2``, summed as 2 per card plus the bit planes of the rank id."""
    low = mask & _LOW_RANKS
    return (2 * popcount(low) + popcount(low & _RANK_BIT0) + 2 * popcount(low & _RANK_BIT1)
            + 4 * popcount(low & _RANK_BIT2) + 10 * popcount(mask & _TEN_RANKS)
            + _RANK_VALUES[TOP_RANK] * popcount(mask & _TOP_RANKS) + JOKER_VALUE * popcount(mask & JOKERS))


@njit(cache=True, _nrt=False)
def suit_bits(mask, suit):
    """The 13 rank bits of ``suit`` in ``mask`` (bit r = rank r present)."""
    return (mask >> (N_RANKS * suit)) & RANK_BITS


@njit(cache=True, _nrt=False)
def rank_range_bits(lo, hi):
    """Rank bits lo..hi inclusive (empty when lo > hi)."""
    if lo > hi:
        return np.int64(0)
    return ((np.int64(1) << (hi + 1)) - 1) ^ ((np.int64(1) << lo) - 1)


@njit(cache=True, _nrt=False)
def highest_rank(bits13):
    """Highest set bit of a non-empty 13-bit rank field."""
    return np.int64(63 - leading_zeros(np.int64(bits13)))



@njit(cache=True, _nrt=False)
def spread_ranks(ranks13):
    """Every card (no jokers) of the ranks set in the 13-bit field ``ranks13``."""
    return ranks13 | (ranks13 << N_RANKS) | (ranks13 << (2 * N_RANKS)) | (ranks13 << (3 * N_RANKS))


@njit(cache=True, _nrt=False)
def ranks_with(mask, k):
    """13-bit field of the ranks with at least ``k`` (1, 2, 3 or 4) cards in ``mask``: the
    four suits' rank fields combined bit-parallel (no loop over ranks); ``k`` = 1: the
    ranks with any card."""
    s0 = mask & RANK_BITS
    s1 = (mask >> N_RANKS) & RANK_BITS
    s2 = (mask >> (2 * N_RANKS)) & RANK_BITS
    s3 = (mask >> (3 * N_RANKS)) & RANK_BITS
    if k <= 1:
        return s0 | s1 | s2 | s3
    if k == 2:
        return (s0 & (s1 | s2 | s3)) | (s1 & (s2 | s3)) | (s2 & s3)
    if k == 3:
        return (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)
    return s0 & s1 & s2 & s3


@njit(cache=True, _nrt=False)
def run_cards(mask):
    """The cards of ``mask`` (jokers ignored) in a same-suit run of three or more
    consecutive ranks, every suit at once."""
    r3 = mask & (mask >> 1) & (mask >> 2) & RANK_LE10  # bit r: ranks r, r + 1, r + 2 held
    return r3 | (r3 << 1) | (r3 << 2)


@njit(cache=True, _nrt=False)
def near_cards(mask):
    """The cards of ``mask`` (jokers ignored) with another card of their suit at most two
    ranks away, every suit at once."""
    m = mask & ~JOKERS
    nb = ((m >> 1) & RANK_LE11) | ((m >> 2) & RANK_LE10) | ((m << 1) & RANK_GE1) | ((m << 2) & RANK_GE2)
    return m & nb
