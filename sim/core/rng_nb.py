"""Counter-based random streams for compiled kernels (SplitMix64).

Every deal derives its generators from ``(seed, deal index, stream)`` alone, so a
deal's cards never depend on which strategies play it or on how many threads run
(the basis of paired comparisons). Stream 0 shuffles the deck; stream 1 + seat
feeds that seat's strategy. A generator state is one uint64 in a 1-element array.
"""

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_DEAL_MUL = np.uint64(0xD1B54A32D192ED03)
_STREAM_MUL = np.uint64(0x8CB92BA72F3D8DD7)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_S53 = np.uint64(53)

STREAM_SHUFFLE = 0
STREAM_SEAT0 = 1  # seat s uses stream STREAM_SEAT0 + s


@njit(cache=True)
def mix64(z):
    """SplitMix64 finaliser: a bijective scramble of one uint64."""
    z = np.uint64(z)
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def stream_key(seed, deal, stream):
    """Starting state of stream ``stream`` of deal ``deal`` under ``seed``."""
    k = mix64(np.uint64(seed) + GOLDEN)
    k = mix64(k ^ (np.uint64(deal) * _DEAL_MUL))
    k = mix64(k ^ (np.uint64(stream + 1) * _STREAM_MUL))
    return k


@njit(cache=True)
def next_u64(state):
    """Advance the generator in ``state`` (uint64[1]) and return 64 random bits."""
    state[0] = state[0] + GOLDEN
    return mix64(state[0])


@njit(cache=True)
def rand_below(state, n):
    """A uniform integer in [0, n) for 0 < n < 2**11 (bias below 2**-42)."""
    r = next_u64(state) >> _S11
    return np.int64((r * np.uint64(n)) >> _S53)


@njit(cache=True)
def rand_float(state):
    """A uniform float in [0, 1)."""
    return np.float64(next_u64(state) >> _S11) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def shuffle_inplace(arr, state):
    """Fisher-Yates shuffle of ``arr`` driven by ``state``."""
    for i in range(arr.shape[0] - 1, 0, -1):
        j = rand_below(state, i + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t
