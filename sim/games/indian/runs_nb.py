"""Can a hand meet I5 at all? An exact necessary test on bit masks, before any search.

The deadwood solver (``solver_nb``) asks this first: about 60% of the random hands that
pass its old quick test (a pure run and a seed of a run of four) have no arrangement
meeting I5, and proving that by the search cost it as much as solving a hand.

Why the test is necessary (RULES.md I4, I5): an arrangement meeting I5 holds a pure run
X and a run of four or more L, and at least two runs. If L is not X take Y = L, else Y
is any other run: X and Y are disjoint runs (in card copies), X pure, and
``|X| + |Y| >= 7`` (both hold 3 cards at least, one of them 4). Y holds at most
``jcap = min(max_j_run, pool)`` jokers, which stand on positions of its window (where the
player may also hold the natural card), so Y's window lacks at most ``jcap`` of the
positions still held once X took its cards. The test looks for such a pair and ignores
what wild-rank cards standing as themselves cost from the pool (a relaxation: it may let
a hand through that the search then finds hopeless, never the other way round). When it
fails, no arrangement meets I5: every solver answer is then "all cards are deadwood".

Positions of a suit are 14 bits: bit 0 the ace low, bits 1..12 ranks 2..K, bit 13 the
ace high (one card, two places). A run window holds at most 13 positions, never both
aces.
"""

import numpy as np
from numba import njit

N_POS = 14
#: masks of 14 positions
N_MASKS = 1 << N_POS


def _build_tables():
    """``LONGEST[j, mask]``: the longest window of at most 13 positions that lacks at most
    ``j`` of ``mask``'s positions and holds at least one of them (0 when none is 3 long),
    for j = 0, 1, 2; numpy over all 16,384 masks at once (a few milliseconds)."""
    masks = np.arange(N_MASKS, dtype=np.int64)
    ones = np.zeros(N_MASKS, dtype=np.int64)
    for b in range(N_POS):
        ones += (masks >> b) & 1
    out = np.zeros((3, N_MASKS), dtype=np.int8)
    for length in range(3, 14):
        for a in range(N_POS - length + 1):
            win = ((1 << length) - 1) << a
            held = ones[masks & win]
            for j in range(3):
                ok = (held >= length - j) & (held >= 1)
                out[j, ok] = length
    return out


LONGEST = _build_tables()


@njit(inline="always")
def suit_positions(plane, s):
    """The 14 position bits of suit ``s`` in a 52-bit plane (ace at both ends)."""
    m = (plane >> (s * 13)) & 0x1FFF
    return ((m << 1) | ((m >> 12) & 1)) & 0x3FFF


@njit(inline="always")
def _popcount(x):
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(inline="always")
def _same_suit_pair(ps, ps2, jcap, tab):
    """Two disjoint runs in one suit: a pure window X of ``ps`` and a window of what is
    left with at most ``jcap`` positions missing, 7 positions together."""
    for a in range(N_POS - 2):
        if not (ps >> a) & 1:
            continue
        b = a
        while b + 1 < N_POS and b - a + 1 < 13 and (ps >> (b + 1)) & 1:
            b += 1
            if b - a + 1 < 3:
                continue
            xw = ((1 << (b - a + 1)) - 1) << a
            rem = ps & ~(xw & ~ps2)
            if (xw & 0x2001) and not (ps2 & 1):
                rem &= ~0x2001      # X took the only ace (it stands at both ends)
            y = tab[rem]
            if y >= 3 and y + b - a + 1 >= 7:
                return True
    return False


@njit(inline="always")
def may_meet_i5(a1, a2, a3, pool, max_j_run, triple_is_run):
    """False only when no arrangement of disjoint groups meets I5 (see the module
    docstring); planes ``a1, a2, a3``: kinds held at least once, twice, three times."""
    jcap = min(max_j_run, pool)
    if jcap > 2:
        return True
    tab = LONGEST[jcap]
    pure_best = 0      # longest pure run of any suit
    r1 = 0             # the two longest runs of different suits with jcap jokers
    r1s = -1
    r2 = 0
    for s in range(4):
        ps = suit_positions(a1, s)
        y = tab[ps]
        if y > r1:
            r2 = r1
            r1 = y
            r1s = s
        elif y > r2:
            r2 = y
    for s in range(4):
        ps = suit_positions(a1, s)
        p = LONGEST[0][ps]
        if p < 3:
            continue
        if p > pure_best:
            pure_best = p
        other = r2 if s == r1s else r1
        if other >= 3 and p + other >= 7:
            return True
        ps2 = suit_positions(a2, s)
        if _popcount(ps & 0x1FFE) + _popcount(ps2 & 0x1FFE) + _popcount(ps & 1) \
                + _popcount(ps2 & 1) + jcap >= 7:
            if _same_suit_pair(ps, ps2, jcap, tab):
                return True
    if triple_is_run != 0 and a3 != 0:
        # an identical triple with a run of four, or a pure run of four with a triple
        if r1 >= 4 or pure_best >= 4:
            return True
    return False
