"""Exact Indian Rummy deadwood solver, compiled with numba (RULES.md I4, I5, I6).

API (all ``@njit(cache=True)``, callable from Python and from njit code)::

    min_deadwood(counts, wild_rank, max_j_run, max_j_set, triple_is_run) -> int64
    can_declare(counts, wild_rank, max_j_run, max_j_set, triple_is_run) -> bool
    arrange(counts, wild_rank, max_j_run, max_j_set, triple_is_run,
            groups, group_len) -> int64   # number of groups written
    discard_deadwoods(counts14, wild_rank, max_j_run, max_j_set,
                      triple_is_run, out) -> None

``counts`` is ``int64[53]`` (kinds of ``cards.py``; at most 3 copies of a
natural), any hand size 1..14. ``wild_rank`` 0..12: every card of that rank
is a wild joker (I2). ``triple_is_run`` = 1 with three decks (I4).

What is computed
----------------
* Groups (I4): runs of >= 3 cards of one suit in consecutive positions, the
  ace low (A-2-3) or high (Q-K-A), never both (no wrap, K-A-2 is not a run);
  at most ``max_j_run`` jokers per run; sets of 3 or 4 cards of one rank in
  distinct suits with at most ``max_j_set`` jokers; with ``triple_is_run`` the
  identical triple (three copies of one card) as a pure run of three. Every
  group holds at least one natural card.
* Conditions (I5): >= 2 runs, >= 1 pure, >= 1 run of >= 4 cards (the identical
  triple counts as a pure run of three, never as the run of four).
* ``min_deadwood`` (I6): the smallest sum of card values outside the groups
  over all arrangements of disjoint groups meeting I5; the sum of all values
  when there is none. Not capped at 80 (scoring applies the cap).
* ``can_declare`` (I5): some arrangement uses every card and meets I5.

Readings of the rule book (where RULES.md is silent)
-----------------------------------------------------
* A joker (printed or wild-rank card) in a run may stand for any missing
  position, at the ends too (RULES gives 4-5-joker); a run may be as long as
  13 positions, never holding both aces.
* A wild-rank card standing as itself is a natural card (it keeps a run pure,
  it is the "natural card" a group needs), but it is still worth 0 points (I6).
* The identical triple must be three natural copies of one card (no joker in
  it, so it is pure); a triple of the wild-rank card standing as itself is
  allowed. Jokers cannot be added to it.
* With ``max_j_run`` / ``max_j_set`` >= 2 a group may hold a single natural
  card and jokers (JK-5H-JK), because the rules only demand one natural.
* A set holds at most 4 cards even with jokers (I4: "3 or 4 cards").

Method
------
Every card of the wild rank and every printed joker is a unit of one pool of
size ``T``. A group "costs" one unit per joker in it plus one per wild-rank
card standing as itself, and covers the values of its other natural cards.
An arrangement is feasible iff its natural cards are available (kind by kind)
and its total cost is <= T; it uses every card iff it covers every non-wild
natural card and its cost equals T exactly.

The solver lists every candidate group of the hand (every run window of every
suit with every placement of its jokers, every set, every identical triple),
ordered pure runs, impure runs, sets, and searches combinations (with
repetition, for identical cards) depth first with at most ``n // 3`` groups.
Hand state is kept as three 52-bit planes (count >= 1, >= 2, >= 3). Pruning:
no pure run left to pick -> stop; fewer than two runs or no long run and no
run left -> stop; covered value + value of the remaining cards that some later
candidate could cover <= best -> stop. Hands without any pure run candidate or
without a long run candidate return at once.
"""

import numpy as np
from numba import njit

JOKER = 52
N_KINDS = 53
MAX_GROUPS = 13

# candidate fields
F_MASK = 0      # 52-bit mask of the natural kinds used (one copy each)
F_TRIPLE = 1    # kind of an identical triple, else -1
F_COST = 2      # jokers + wild-rank naturals
F_VALUE = 3     # points of the non-wild naturals covered
F_RUN = 4
F_PURE = 5
F_LONG = 6
F_NCARDS = 7
F_A = 8         # runs: suit; sets: rank
F_B = 9         # runs: first position; sets: suit mask
F_C = 10        # runs: joker position mask (absolute positions); sets: jokers
F_LEN = 11
NF = 12

BIG = 1 << 40


@njit(cache=True)
def _pos_rank(p):
    """Run position 0..13 -> rank index (0 = ace low, 13 = ace high)."""
    if p == 0:
        return 12
    return p - 1


@njit(cache=True)
def _card_value(k, wild_rank):
    if k >= 52:
        return 0
    r = k % 13
    if r == wild_rank:
        return 0
    if r >= 8:
        return 10
    return r + 2


@njit(cache=True)
def _popcount(x):
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True)
def _mask_value(m, vmasks):
    """Sum of values over the set bits of a 52-bit kind mask (10 classes)."""
    s = 0
    for v in range(2, 11):
        s += v * _popcount(m & vmasks[v])
    return s


@njit(cache=True)
def _push(cand, nc, mask, triple, cost, value, is_run, is_pure, is_long,
          ncards, a, b, c, length):
    if nc == cand.shape[0]:
        bigger = np.empty((cand.shape[0] * 2, NF), dtype=np.int64)
        bigger[:nc] = cand[:nc]
        cand = bigger
    cand[nc, F_MASK] = mask
    cand[nc, F_TRIPLE] = triple
    cand[nc, F_COST] = cost
    cand[nc, F_VALUE] = value
    cand[nc, F_RUN] = is_run
    cand[nc, F_PURE] = is_pure
    cand[nc, F_LONG] = is_long
    cand[nc, F_NCARDS] = ncards
    cand[nc, F_A] = a
    cand[nc, F_B] = b
    cand[nc, F_C] = c
    cand[nc, F_LEN] = length
    return cand, nc + 1


@njit(cache=True)
def _gen_runs(cand, nc, counts, wild_rank, max_j_run, n, want_pure):
    """Append run candidates: pure ones (want_pure) or impure ones."""
    maxlen = min(13, n)
    for s in range(4):
        pm = 0
        for p in range(14):
            if counts[s * 13 + _pos_rank(p)] > 0:
                pm |= 1 << p
        if pm == 0:
            continue
        for length in range(maxlen, 2, -1):
            for a in range(0, 15 - length):
                wm = ((1 << length) - 1) << a
                present = pm & wm
                npres = _popcount(present)
                miss = length - npres
                if miss > max_j_run or npres == 0:
                    continue
                if want_pure:
                    if miss > 0:
                        continue
                    kmax = 0
                else:
                    kmax = min(max_j_run - miss, npres - 1)
                # positions present in the window
                plist = np.empty(14, dtype=np.int64)
                m = 0
                for p in range(a, a + length):
                    if (present >> p) & 1:
                        plist[m] = p
                        m += 1
                kmin = 0
                if not want_pure and miss == 0:
                    kmin = 1
                for k in range(kmin, kmax + 1):
                    # Gosper's hack over m-bit combinations of size k
                    if k == 0:
                        comb = 0
                    else:
                        comb = (1 << k) - 1
                    while comb < (1 << m):
                        jm = wm & ~pm
                        for t in range(m):
                            if (comb >> t) & 1:
                                jm |= 1 << plist[t]
                        nat = wm & ~jm
                        kmask = 0
                        value = 0
                        nwild = 0
                        for p in range(a, a + length):
                            if (nat >> p) & 1:
                                kind = s * 13 + _pos_rank(p)
                                kmask |= 1 << kind
                                if _pos_rank(p) == wild_rank:
                                    nwild += 1
                                else:
                                    value += _card_value(kind, wild_rank)
                        nj = _popcount(jm)
                        cand, nc = _push(cand, nc, kmask, -1, nj + nwild, value,
                                         1, 1 if nj == 0 else 0,
                                         1 if length >= 4 else 0,
                                         length, s, a, jm, length)
                        if k == 0:
                            break
                        # next combination
                        c0 = comb & -comb
                        r0 = comb + c0
                        comb = (((r0 ^ comb) >> 2) // c0) | r0
    return cand, nc


@njit(cache=True)
def _gen_triples(cand, nc, counts, wild_rank):
    for kind in range(52):
        if counts[kind] >= 3:
            if kind % 13 == wild_rank:
                cand, nc = _push(cand, nc, 1 << kind, kind, 3, 0, 1, 1, 0,
                                 3, kind // 13, kind % 13, 0, 3)
            else:
                cand, nc = _push(cand, nc, 1 << kind, kind, 0,
                                 3 * _card_value(kind, wild_rank), 1, 1, 0,
                                 3, kind // 13, kind % 13, 0, 3)
    return cand, nc


@njit(cache=True)
def _gen_sets(cand, nc, counts, wild_rank, max_j_set):
    for r in range(13):
        sm = 0
        for s in range(4):
            if counts[s * 13 + r] > 0:
                sm |= 1 << s
        if sm == 0:
            continue
        for sub in range(15, 0, -1):
            if sub & ~sm:
                continue
            k = _popcount(sub)
            jlo = max(0, 3 - k)
            jhi = min(max_j_set, 4 - k)
            for j in range(jhi, jlo - 1, -1):
                kmask = 0
                value = 0
                for s in range(4):
                    if (sub >> s) & 1:
                        kind = s * 13 + r
                        kmask |= 1 << kind
                        value += _card_value(kind, wild_rank)
                cost = j
                if r == wild_rank:
                    cost += k
                cand, nc = _push(cand, nc, kmask, -1, cost, value, 0, 0, 0,
                                 k + j, r, sub, j, k + j)
    return cand, nc


@njit(cache=True)
def _candidates(counts, wild_rank, max_j_run, max_j_set, triple_is_run, n):
    """All candidate groups; returns (cand, n_cand, n_pure, n_runs)."""
    cand = np.empty((256, NF), dtype=np.int64)
    nc = 0
    cand, nc = _gen_runs(cand, nc, counts, wild_rank, max_j_run, n, True)
    if triple_is_run:
        cand, nc = _gen_triples(cand, nc, counts, wild_rank)
    n_pure = nc
    if n_pure == 0:
        return cand, nc, n_pure, nc
    cand, nc = _gen_runs(cand, nc, counts, wild_rank, max_j_run, n, False)
    n_runs = nc
    cand, nc = _gen_sets(cand, nc, counts, wild_rank, max_j_set)
    return cand, nc, n_pure, n_runs


@njit(cache=True)
def _search(counts, wild_rank, max_j_run, max_j_set, triple_is_run, mode, path_out):
    """Depth-first search over candidate groups.

    mode 0: minimise deadwood (stop at 0); mode 1: look for a full declaration.
    Returns (deadwood or -1, declarable, n_groups, cand) and fills path_out
    with the candidate indices of the best arrangement found.
    """
    n = 0
    total = 0
    pool = counts[JOKER]
    ge1 = 0
    ge2 = 0
    ge3 = 0
    for k in range(52):
        c = counts[k]
        n += c
        if k % 13 == wild_rank:
            pool += c
        else:
            total += c * _card_value(k, wild_rank)
        if c >= 1:
            ge1 |= 1 << k
        if c >= 2:
            ge2 |= 1 << k
        if c >= 3:
            ge3 |= 1 << k
    n += counts[JOKER]
    cand, nc, n_pure, n_runs = _candidates(counts, wild_rank, max_j_run,
                                           max_j_set, triple_is_run, n)
    if n_pure == 0:
        return total, False, 0, cand
    has_long = False
    for i in range(n_runs):
        if cand[i, F_LONG]:
            has_long = True
            break
    if not has_long:
        return total, False, 0, cand

    vmasks = np.zeros(11, dtype=np.int64)
    for k in range(52):
        if k % 13 != wild_rank:
            vmasks[_card_value(k, wild_rank)] |= 1 << k
    suf = np.zeros(nc + 1, dtype=np.int64)
    for i in range(nc - 1, -1, -1):
        suf[i] = suf[i + 1] | cand[i, F_MASK]

    maxd = n // 3
    if maxd > MAX_GROUPS:
        maxd = MAX_GROUPS
    D = maxd + 1
    s1 = np.empty(D, dtype=np.int64)
    s2 = np.empty(D, dtype=np.int64)
    s3 = np.empty(D, dtype=np.int64)
    scost = np.empty(D, dtype=np.int64)
    sval = np.empty(D, dtype=np.int64)
    sruns = np.empty(D, dtype=np.int64)
    spure = np.empty(D, dtype=np.int64)
    slong = np.empty(D, dtype=np.int64)
    snext = np.empty(D, dtype=np.int64)
    path = np.empty(D, dtype=np.int64)

    best_val = -1          # covered value of the best valid arrangement
    best_len = 0
    found = False
    s1[0] = ge1
    s2[0] = ge2
    s3[0] = ge3
    scost[0] = 0
    sval[0] = 0
    sruns[0] = 0
    spure[0] = 0
    slong[0] = 0
    snext[0] = 0
    d = 0
    while d >= 0:
        i = snext[d]
        stop = i >= nc or d >= maxd
        if not stop:
            if spure[d] == 0 and i >= n_pure:
                stop = True
            elif (sruns[d] < 2 or slong[d] == 0) and i >= n_runs:
                stop = True
            else:
                u = suf[i]
                ub = (_mask_value(s1[d] & u, vmasks) + _mask_value(s2[d] & u, vmasks)
                      + _mask_value(s3[d] & u, vmasks))
                if mode == 0:
                    if sval[d] + ub <= best_val:
                        stop = True
                else:
                    if sval[d] + ub < total:
                        stop = True
        if stop:
            d -= 1
            continue
        snext[d] = i + 1
        cost = scost[d] + cand[i, F_COST]
        if cost > pool:
            continue
        a1 = s1[d]
        a2 = s2[d]
        a3 = s3[d]
        tk = cand[i, F_TRIPLE]
        if tk >= 0:
            if not (a3 >> tk) & 1:
                continue
            b = ~(1 << tk)
            n1 = a1 & b
            n2 = a2 & b
            n3 = a3 & b
        else:
            m = cand[i, F_MASK]
            if m & ~a1:
                continue
            n1 = (a1 & ~m) | (a2 & m)
            n2 = (a2 & ~m) | (a3 & m)
            n3 = a3 & ~m
        e = d + 1
        s1[e] = n1
        s2[e] = n2
        s3[e] = n3
        scost[e] = cost
        sval[e] = sval[d] + cand[i, F_VALUE]
        sruns[e] = sruns[d] + cand[i, F_RUN]
        spure[e] = spure[d] + cand[i, F_PURE]
        slong[e] = slong[d] + cand[i, F_LONG]
        snext[e] = i
        path[d] = i
        if sruns[e] >= 2 and spure[e] >= 1 and slong[e] >= 1:
            if mode == 0:
                if sval[e] > best_val:
                    best_val = sval[e]
                    best_len = e
                    for t in range(e):
                        path_out[t] = path[t]
                    if best_val == total:
                        break
            else:
                if sval[e] == total and cost == pool:
                    found = True
                    best_val = total
                    best_len = e
                    for t in range(e):
                        path_out[t] = path[t]
                    break
        d = e
    if mode == 0:
        if best_val < 0:
            return total, False, 0, cand
        return total - best_val, False, best_len, cand
    if found:
        return 0, True, best_len, cand
    return -1, False, 0, cand


@njit(cache=True)
def min_deadwood(counts, wild_rank, max_j_run=1, max_j_set=1, triple_is_run=0):
    """Smallest deadwood (I6) over arrangements meeting I5; all points if none."""
    path = np.empty(MAX_GROUPS + 1, dtype=np.int64)
    dead, _, _, _ = _search(counts, wild_rank, max_j_run, max_j_set,
                            triple_is_run, 0, path)
    return dead


@njit(cache=True)
def can_declare(counts, wild_rank, max_j_run=1, max_j_set=1, triple_is_run=0):
    """True iff every card fits in groups meeting I5 (a valid declaration)."""
    path = np.empty(MAX_GROUPS + 1, dtype=np.int64)
    _, ok, _, _ = _search(counts, wild_rank, max_j_run, max_j_set,
                          triple_is_run, 1, path)
    return ok


@njit(cache=True)
def arrange(counts, wild_rank, max_j_run, max_j_set, triple_is_run, groups, group_len):
    """Write the best arrangement into ``groups`` (int64[13, 14]) / ``group_len``.

    A full declaration when the hand can declare (I5), else an arrangement with
    the smallest deadwood (I6), else no group. Runs are written in position
    order with the joker's card in the slot it fills, sets naturals first.
    Returns the number of groups.
    """
    path = np.empty(MAX_GROUPS + 1, dtype=np.int64)
    dead, ok, ng, cand = _search(counts, wild_rank, max_j_run, max_j_set,
                                 triple_is_run, 1, path)
    if not ok:
        dead, ok, ng, cand = _search(counts, wild_rank, max_j_run, max_j_set,
                                     triple_is_run, 0, path)
    # the pool cards left for joker slots: printed jokers first, then the
    # wild-rank cards not standing as themselves
    left = np.zeros(N_KINDS, dtype=np.int64)
    left[JOKER] = counts[JOKER]
    for s in range(4):
        left[s * 13 + wild_rank] = counts[s * 13 + wild_rank]
    for g in range(ng):
        i = path[g]
        if cand[i, F_TRIPLE] >= 0:
            tk = cand[i, F_TRIPLE]
            if tk % 13 == wild_rank:
                left[tk] -= 3
        else:
            m = cand[i, F_MASK]
            for s in range(4):
                kind = s * 13 + wild_rank
                if (m >> kind) & 1:
                    left[kind] -= 1
    for g in range(ng):
        i = path[g]
        ln = 0
        if cand[i, F_TRIPLE] >= 0:
            tk = cand[i, F_TRIPLE]
            for t in range(3):
                groups[g, t] = tk
            ln = 3
        elif cand[i, F_RUN]:
            s = cand[i, F_A]
            a = cand[i, F_B]
            jm = cand[i, F_C]
            for p in range(a, a + cand[i, F_LEN]):
                if (jm >> p) & 1:
                    groups[g, ln] = _take_joker(left)
                else:
                    groups[g, ln] = s * 13 + _pos_rank(p)
                ln += 1
        else:
            r = cand[i, F_A]
            sub = cand[i, F_B]
            for s in range(4):
                if (sub >> s) & 1:
                    groups[g, ln] = s * 13 + r
                    ln += 1
            for t in range(cand[i, F_C]):
                groups[g, ln] = _take_joker(left)
                ln += 1
        group_len[g] = ln
    return ng


@njit(cache=True)
def _take_joker(left):
    if left[JOKER] > 0:
        left[JOKER] -= 1
        return JOKER
    for k in range(52):
        if left[k] > 0:
            left[k] -= 1
            return k
    return -1


@njit(cache=True)
def discard_deadwoods(counts14, wild_rank, max_j_run, max_j_set, triple_is_run, out):
    """out[k] = min_deadwood after discarding one card of kind k; BIG if not held."""
    c = counts14.copy()
    for k in range(N_KINDS):
        if counts14[k] == 0:
            out[k] = BIG
            continue
        c[k] -= 1
        out[k] = min_deadwood(c, wild_rank, max_j_run, max_j_set, triple_is_run)
        c[k] += 1
