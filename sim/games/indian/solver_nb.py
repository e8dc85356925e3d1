"""Exact Indian Rummy deadwood solver, compiled with numba (RULES.md I4, I5, I6).

API (all ``@njit``, callable from Python and from njit code; ``min_deadwood``,
``can_declare``, ``deadwood_below`` and ``deadwood_and_loose`` are inlined into their
callers, around the one compiled entry ``_solve``, so that only it links the search)::

    min_deadwood(counts, wild_rank, max_j_run, max_j_set, triple_is_run) -> int64
    can_declare(counts, wild_rank, max_j_run, max_j_set, triple_is_run) -> bool
    arrange(counts, wild_rank, max_j_run, max_j_set, triple_is_run,
            groups, group_len) -> int64   # number of groups written
    discard_deadwoods(counts14, wild_rank, max_j_run, max_j_set,
                      triple_is_run, out) -> None
    deadwood_below(counts, wild_rank, max_j_run, max_j_set, triple_is_run,
                   ub, lb) -> int64   # exact below ub, else >= ub
    deadwood_and_loose(counts, wild_rank, max_j_run, max_j_set,
                       triple_is_run, loose) -> int64   # + kinds free to go
    deadwood_and_loose_below(counts, wild_rank, max_j_run, max_j_set,
                             triple_is_run, ub, loose) -> int64   # the same below ub

``counts`` is ``int64[53]`` (kinds of ``cards.py``; at most 3 copies of a
natural), any hand size 1..14. ``wild_rank`` 0..12: every card of that rank
is a wild joker (I2); -1 means no wild rank (printed jokers only).
``triple_is_run`` = 1 with three decks (I4). ``max_j_run`` / ``max_j_set``
are the I4 options (default 1).

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
* The pure run may itself be the run of four (a pure 4-run plus any other run
  meets I5); sets never count as runs.
* A joker may stand in a run where the player also holds that natural card
  (the natural then serves elsewhere, e.g. in a set).
* For ``min_deadwood`` the groups need not use every card; jokers and
  wild-rank cards left outside count 0, so deadwood 0 does not imply
  ``can_declare`` (e.g. a joker that fits in no group, I4 at most one per
  group).

Method
------
Every card of the wild rank and every printed joker is a unit of one pool of
size ``T``. A group "costs" one unit per joker in it plus one per wild-rank
card standing as itself, and covers the values of its other natural cards.
An arrangement is feasible iff its natural cards are available (kind by kind)
and its total cost is <= T; it uses every card iff it covers every non-wild
natural card and its cost equals T exactly.

1. Quick rejection (no allocation): I5 needs a pure run (three naturals in a
   row of one suit, or an identical triple) and a possible run of four, hence
   >= 7 cards; about 70% of random 13-card hands stop here. Then
   (``_two_runs``) a pure run and a second run disjoint from it, one of the two of
   four cards or more, in windows of the planes: of the hands the first test lets
   through, about 60% have no arrangement meeting I5, and 88-89% of those stop here
   (random 13- and 14-card hands, 2 and 3 decks). For a bounded
   question (``deadwood_below``, ``can_declare``) the cards no group can hold
   (``_partnerless``: no natural near enough in the suit, no other suit of the
   rank) answer it when their points reach the bound, or any is held at all.
2. Candidate groups: every run window of every suit with every placement of
   its jokers (a joker may also stand where a natural is held, leaving that
   natural free for another group), every set (suit subset + jokers), every
   identical triple; ordered pure runs, impure runs, sets. Candidates costing
   more than the pool are left out.
3. Exact depth-first search (explicit stack: numba does not cache recursive
   functions safely) over the non-wild natural kinds, run kinds first, then
   by value: one copy of kind x joins a candidate holding x, or every copy
   left of x is deadwood. At each node one scan of the candidates that still
   fit gives (a) the kinds some fitting candidate could still cover -- the
   others are deadwood at once, and the search stops when that deadwood
   reaches the best found; (b) whether a pure run, a run of four and two runs
   can still be had. When every non-wild kind is decided, groups of wild-rank
   naturals and jokers only may be added (for I5 or to use every card).
   Hand state is three 52-bit planes (count >= 1, >= 2, >= 3); the candidates
   that still fit are a bitset per frame (the parent's, less the candidates of
   the kinds a step used up and those costing more than the pool left), so the
   scan of (a) and (b) is a few word operations per kind.

Numba notes: calls between compiled functions never pass literal constants
(numba would compile one specialisation per literal value). The search's workspace
(candidates, bitsets, stack frames: ``WS_SIZE`` words) lives on ``_solve``'s stack
(``sim.core.scratch_nb.stack_int64``), so a solver call allocates nothing and counts no
references; the rare hand with more than ``CAP0`` candidates is searched again in a
workspace of its own (``_search_heap``, which ``arrange`` always uses).
"""

import numpy as np
from numba import njit

from sim.core.bits_nb import lowest_bit_index, popcount
from sim.core.scratch_nb import stack_int64
from sim.games.indian.cards_nb import card_value as _card_value  # the one I6 definition

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

#: "no bound" / "not held" deadwood, above any real one (the one definition: greedy_nb, plan_nb and
#: mc_search_nb import it)
BIG = 1 << 40


@njit(inline="always")
def _pos_rank(p):
    """Run position 0..13 -> rank index (0 = ace low, 13 = ace high)."""
    if p == 0:
        return 12
    return p - 1


_popcount = popcount             # number of set bits (one CPU instruction)
_bitindex = lowest_bit_index     # index of the single set bit of a power of two (one instruction)


@njit(inline="always")
def _push(cand, nc, mask, triple, cost, value, is_run, is_pure, is_long,
          ncards, a, b, c, length):
    """Write candidate nc if there is room (the caller retries with a bigger
    buffer when the count overflows); returns nc + 1."""
    if nc < cand.shape[0]:
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
    return nc + 1


@njit(cache=True, _nrt=False)
def _gen_runs(cand, nc, counts, wild_rank, max_j_run, n, want_pure, pm, plist, pool):
    """Append run candidates of every suit: pure ones (want_pure) or impure ones.

    A window of positions a..b is a run when at most ``max_j_run`` positions
    lack a natural card; the jokers fill those and, in the impure variants,
    may also stand where a natural is held (that natural then stays free).
    Candidates costing more than the pool are left out. The window's kinds,
    points and wild-rank naturals grow with b; a joker standing on a held
    position takes that position's share off."""
    maxlen = min(13, n)
    jcap = min(max_j_run, pool)
    for s in range(4):
        ps = pm[s]
        if ps == 0:
            continue
        for a in range(0, 12):
            # every window from a (3 positions at least) holds a, a + 1, a + 2: with
            # fewer naturals there than 3 - jokers allowed, none is a run
            if _popcount((ps >> a) & 7) + (0 if want_pure else jcap) < 3:
                continue
            miss = 0
            npres = 0
            kmask = 0
            value = 0
            nwild = 0
            for b in range(a, 14):
                if (ps >> b) & 1:
                    plist[npres] = b
                    npres += 1
                    r = _pos_rank(b)
                    kmask |= np.int64(1) << (s * 13 + r)
                    if r == wild_rank:
                        nwild += 1
                    else:
                        value += min(r + 2, 10)
                else:
                    miss += 1
                    if want_pure or miss > jcap:
                        break
                length = b - a + 1
                if length > maxlen:
                    break
                if length < 3 or npres == 0:
                    continue
                wm = ((1 << length) - 1) << a
                is_long = 1 if length >= 4 else 0
                if want_pure:
                    nc = _push(cand, nc, kmask, -1, nwild, value, 1, 1, is_long,
                               length, s, a, 0, length)
                    continue
                gaps = wm & ~ps
                for k in range(1 if miss == 0 else 0, min(jcap - miss, npres - 1) + 1):
                    # every choice of k held positions also filled by jokers:
                    # Gosper's hack over npres-bit combinations of size k
                    comb = (1 << k) - 1
                    while comb < (1 << npres):
                        jm = gaps
                        km = kmask
                        val = value
                        nw = nwild
                        for t in range(npres):
                            if (comb >> t) & 1:
                                p = plist[t]
                                jm |= 1 << p
                                r = _pos_rank(p)
                                km &= ~(np.int64(1) << (s * 13 + r))
                                if r == wild_rank:
                                    nw -= 1
                                else:
                                    val -= min(r + 2, 10)
                        nj = miss + k
                        if nj + nw <= pool:
                            nc = _push(cand, nc, km, -1, nj + nw, val, 1, 1 if nj == 0 else 0,
                                       is_long, length, s, a, jm, length)
                        if k == 0:
                            break
                        c0 = comb & -comb
                        r0 = comb + c0
                        comb = ((r0 ^ comb) >> (2 + _bitindex(c0))) | r0   # c0 is a power of two
    return nc


@njit(cache=True, _nrt=False)
def _gen_triples(cand, nc, counts, wild_rank):
    for kind in range(52):
        if counts[kind] >= 3:
            if kind % 13 == wild_rank:
                nc = _push(cand, nc, 1 << kind, kind, 3, 0, 1, 1, 0,
                                 3, kind // 13, kind % 13, 0, 3)
            else:
                nc = _push(cand, nc, 1 << kind, kind, 0,
                                 3 * _card_value(kind, wild_rank), 1, 1, 0,
                                 3, kind // 13, kind % 13, 0, 3)
    return nc


@njit(cache=True, _nrt=False)
def _gen_sets(cand, nc, a1, wild_rank, max_j_set, pool):
    """Append set candidates: every subset of the suits held of a rank plus
    jokers, 3 or 4 cards, at most ``max_j_set`` jokers, cost within the pool.
    Only the ranks held in enough suits (3 less the jokers allowed) are visited."""
    jcap = min(max_j_set, pool)
    s0 = a1 & 0x1FFF
    s1 = (a1 >> 13) & 0x1FFF
    s2 = (a1 >> 26) & 0x1FFF
    s3 = (a1 >> 39) & 0x1FFF
    need = 3 - jcap
    if need <= 1:
        ranks = s0 | s1 | s2 | s3
    elif need == 2:
        ranks = (s0 & (s1 | s2 | s3)) | (s1 & (s2 | s3)) | (s2 & s3)
    else:
        ranks = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    while ranks:
        low = ranks & -ranks
        r = _bitindex(low)
        ranks ^= low
        sm = ((s0 >> r) & 1) | (((s1 >> r) & 1) << 1) | (((s2 >> r) & 1) << 2) | (((s3 >> r) & 1) << 3)
        v = 0 if r == wild_rank else min(r + 2, 10)
        sub = sm
        while sub:
            k = _popcount(sub)
            jlo = max(0, 3 - k)
            jhi = min(jcap, 4 - k)
            kmask = 0
            for x in range(4):
                if (sub >> x) & 1:
                    kmask |= np.int64(1) << (x * 13 + r)
            for j in range(jhi, jlo - 1, -1):
                cost = j
                if r == wild_rank:
                    cost += k
                if cost > pool:
                    continue
                nc = _push(cand, nc, kmask, -1, cost, k * v, 0, 0, 0,
                           k + j, r, sub, j, k + j)
            sub = (sub - 1) & sm
    return nc


@njit(inline="always")
def _take(cand, j, a1, a2, a3):
    """The planes (count >= 1, >= 2, >= 3) after group j takes its naturals."""
    tk = cand[j, F_TRIPLE]
    if tk >= 0:
        b = ~(1 << tk)
        return a1 & b, a2 & b, a3 & b
    m = cand[j, F_MASK]
    return (a1 & ~m) | (a2 & m), (a2 & ~m) | (a3 & m), a3 & ~m


# fields of a search stack frame
S_T = 0        # index in the decision order (nord = every kind decided)
S_Q = 1        # next candidate index to try
S_PHASE = 2    # 0: groups being tried; 1: deadwood branch taken
S_A1 = 3
S_A2 = 4
S_A3 = 5
S_COST = 6
S_DEAD = 7
S_RUNS = 8
S_PURE = 9
S_LONG = 10
S_G = 11       # number of groups chosen
S_LEAF = 12
NS = 13
STACK = 40     # >= groups (<= 5) + deadwood decisions (<= 14) + 1

# workspace layout (on the stack of ``_solve``; one allocation of their own for the rare hands
# with more than CAP0 candidates, ``_search_heap``)
O_PM = 0
O_PLIST = O_PM + 4
O_VALS = O_PLIST + 14
O_ORDER = O_VALS + N_KINDS
O_KEY = O_ORDER + 52
O_BEST = O_KEY + 52
O_BPATH = O_BEST + 3
O_PATH = O_BPATH + STACK
O_ST = O_PATH + STACK
CAP0 = 128     # candidates the stack workspace has room for
O_NC = O_ST + STACK * NS       # the candidates made and the runs among them (``_gen``; -2: none made)
O_CAND = O_NC + 2              # cap * NF candidate fields, then the bitsets
SRC_NC = O_NC                  # for the callers of ``deadwood_and_loose_into``

# candidate bitsets (rows of W = ceil(candidates / 64) words, in the workspace after the candidates):
# which candidates hold a kind, which cost at most c, which are runs / pure / long / free of
# non-wild naturals, and each stack frame's candidates that still fit
B_HAS = 0                  # 52 rows: candidates holding kind k (identical triples of k too)
B_HAS3 = B_HAS + 52        # 52 rows: the identical triple of kind k
B_COST = B_HAS3 + 52       # 15 rows: candidates costing at most c (the pool is <= 14 cards)
B_RUN = B_COST + 15
B_PURE = B_RUN + 1
B_LONG = B_PURE + 1
B_FREE = B_LONG + 1        # candidates without non-wild naturals (jokers and wild-rank cards)
B_FIT = B_FREE + 1         # STACK rows
B_ROWS = B_FIT + STACK


@njit(inline="always")
def _workspace_size(cap):
    """Words of a workspace with room for ``cap`` candidates and their bitsets."""
    return O_CAND + cap * NF + B_ROWS * ((cap + 63) >> 6)


WS_SIZE = O_CAND + CAP0 * NF + B_ROWS * ((CAP0 + 63) >> 6)   # _workspace_size(CAP0)


@njit(inline="always")
def _quick(counts, wild_rank, max_j_run, triple_is_run):
    """Hand totals and quick rejection: I5 needs a pure run (three naturals in
    a row, or an identical triple) and a run of four, so at least 7 cards.
    Returns (n, total, pool, a1, a2, a3, may_meet_I5)."""
    # one pass without branches on the counts (a kind is held or not at random, so
    # branches on it mispredict): planes, cards, points of the naturals
    n = counts[JOKER]
    total = n * 0
    a1 = n * 0     # (not the literal 0: the planes would type as Literal[int](0) in one
    a2 = n * 0     # caller's returned tuple, and _search would compile a second time)
    a3 = n * 0
    for r in range(13):
        v = min(r + 2, 10)
        for s in range(4):
            k = s * 13 + r
            c = counts[k]
            bit = np.int64(1) << k
            n += c
            total += v * c
            a1 |= bit * (c >= 1)
            a2 |= bit * (c >= 2)
            a3 |= bit * (c >= 3)
    pool = counts[JOKER]
    if 0 <= wild_rank < 13:
        cw = 0
        for s in range(4):
            cw += counts[s * 13 + wild_rank]
        pool += cw
        total -= min(wild_rank + 2, 10) * cw
    has_pure = triple_is_run != 0 and a3 != 0
    has_long = False
    for s in range(4):
        m = (a1 >> (s * 13)) & 0x1FFF
        ps = ((m << 1) | ((m >> 12) & 1)) & 0x3FFF   # ace low at 0, high at 13
        x1 = ps >> 1
        x2 = ps >> 2
        x3 = ps >> 3
        if ps & x1 & x2:
            has_pure = True
        if ps & x1 & x2 & x3:
            has_long = True
        elif max_j_run >= 1 and pool >= 1 and ((ps & x1 & x2) | (ps & x1 & x3) | (ps & x2 & x3) | (x1 & x2 & x3)):
            has_long = True
        elif max_j_run >= 2 and pool >= 2 and ps != 0:
            has_long = True
    return n, total, pool, a1, a2, a3, has_pure and has_long and n >= 7


@njit(inline="always")
def _set_bit(bits, row, W, j):
    bits[row * W + (j >> 6)] |= np.int64(1) << (j & 63)


@njit(inline="always")
def _meets(bits, fo, row, W):
    """Does the fitting set at offset ``fo`` share a candidate with bitset ``row``?"""
    ro = row * W
    for w in range(W):
        if bits[fo + w] & bits[ro + w]:
            return True
    return False


@njit(inline="always")
def _next_in(bits, fo, row, W, q):
    """The first candidate >= q in both the fitting set at ``fo`` and bitset ``row``, or -1."""
    w = q >> 6
    ro = row * W
    first = True
    while w < W:
        x = bits[fo + w] & bits[ro + w]
        if first:
            x &= np.int64(-1) << (q & 63)
            first = False
        if x:
            return w * 64 + _bitindex(x & -x)
        w += 1
    return -1


@njit(inline="always")
def _drop_kinds(bits, co, W, gone, base):
    """Remove from the fitting set at ``co`` the candidates of bitset rows base + k, k in ``gone``."""
    while gone:
        low = gone & -gone
        ko = (base + _bitindex(low)) * W
        for w in range(W):
            bits[co + w] &= ~bits[ko + w]
        gone ^= low


@njit(cache=True, _nrt=False)
def _fill_bits(bits, W, cand, nc, n_runs, nonwild, pool):
    """The bitset rows B_HAS .. B_FREE of the candidates, and the root frame's fitting set
    (every candidate: each one's naturals are held and its cost is within the pool)."""
    for i in range(B_FIT * W + W):
        bits[i] = 0
    for j in range(nc):
        tk = cand[j, F_TRIPLE]
        if tk >= 0:
            _set_bit(bits, B_HAS + tk, W, j)
            _set_bit(bits, B_HAS3 + tk, W, j)
        else:
            m = cand[j, F_MASK]
            while m:
                low = m & -m
                _set_bit(bits, B_HAS + _bitindex(low), W, j)
                m ^= low
        for c in range(cand[j, F_COST], pool + 1):
            _set_bit(bits, B_COST + c, W, j)
        if j < n_runs:
            _set_bit(bits, B_RUN, W, j)
            if cand[j, F_PURE]:
                _set_bit(bits, B_PURE, W, j)
            if cand[j, F_LONG]:
                _set_bit(bits, B_LONG, W, j)
        if cand[j, F_MASK] & nonwild == 0:
            _set_bit(bits, B_FREE, W, j)
        _set_bit(bits, B_FIT, W, j)


@njit(cache=True, _nrt=False)
def _search(ws, cap, counts, wild_rank, max_j_run, max_j_set, triple_is_run, mode, want, out, ub, lb,
            quick):
    """Exact search. mode 0: smallest deadwood; mode 1: a full declaration.

    ``ws``: a workspace of ``_workspace_size(cap)`` words (no allocation here, so no
    reference counting); a hand with more than ``cap`` candidates returns
    (total, False, -candidates) at once (a negative group count: no deadwood or bound
    value can be mistaken for it), for the caller to retry with room for them.

    ``quick``: ``_quick``'s answer for the hand (the caller has it already).
    Returns (deadwood or -1, declarable, n_groups). ``want`` 1: ``out`` (flat,
    if it has room) receives the candidate rows (NF fields each) of the
    arrangement found (mode 0: the best valid arrangement, none if no
    arrangement meets I5; mode 1: a declaration); ``want`` 2: ``out[k]`` = 1 for
    the kinds of which one copy can go leaving deadwood - value(k)
    (``_write_loose``); ``want`` 0: ``out`` is not touched.

    Mode 0 bounds (what a caller comparing deadwoods needs, nothing more):
    ``ub``: only deadwoods below ``ub`` are of interest; the answer is exact
    when it is below ``ub``, else some value >= ``ub`` (the search prunes
    everything at or above it). ``lb``: a known lower bound; the search stops
    at the first arrangement reaching it. ``ub`` > total and ``lb`` = 0 give
    the plain exact minimum.

    Each frame keeps the candidates that still fit as a bitset: a child's set is its
    parent's less the candidates of the kinds the step used up and those costing more
    than the pool has left, so no frame rescans the candidates one by one.
    """
    n, total, pool, a1, a2, a3, ok = quick
    if not ok:
        _no_groups(counts, want, out)
        return total, False, 0
    nc, n_runs = _gen(ws, cap, counts, wild_rank, max_j_run, max_j_set, triple_is_run, quick)
    if nc > cap:
        return total, False, -nc
    return _search_cands(ws, cap, nc, n_runs, counts, wild_rank, max_j_run, max_j_set, triple_is_run, mode,
                         want, out, ub, lb, quick)


@njit(inline="always")
def _gen(ws, cap, counts, wild_rank, max_j_run, max_j_set, triple_is_run, quick):
    """The hand's candidate groups into the workspace, runs first: (candidates, runs among
    them); more candidates than ``cap`` when they did not fit."""
    n, total, pool, a1, a2, a3, ok = quick
    pm = ws[O_PM:O_PM + 4]
    for s in range(4):
        m = (a1 >> (s * 13)) & 0x1FFF
        pm[s] = ((m << 1) | ((m >> 12) & 1)) & 0x3FFF

    plist = ws[O_PLIST:O_PLIST + 14]
    cand = ws[O_CAND:O_CAND + cap * NF].reshape((cap, NF))
    # (no literal constants in calls: numba would compile one copy per value)
    nc = n * 0
    nc = _gen_runs(cand, nc, counts, wild_rank, max_j_run, n, nc == 0, pm, plist, pool)
    if triple_is_run:
        nc = _gen_triples(cand, nc, counts, wild_rank)
    nc = _gen_runs(cand, nc, counts, wild_rank, max_j_run, n, nc < 0, pm, plist, pool)
    n_runs = nc
    nc = _gen_sets(cand, nc, a1, wild_rank, max_j_set, pool)
    ws[O_NC] = nc
    ws[O_NC + 1] = n_runs
    return nc, n_runs


@njit(cache=True, _nrt=False)
def _search_cands(ws, cap, nc, n_runs, counts, wild_rank, max_j_run, max_j_set, triple_is_run, mode, want, out,
                  ub, lb, quick):
    """``_search`` over the ``nc`` candidates in the workspace (the first ``n_runs`` of them runs).
    Compiled once, called by ``_search`` and ``deadwood_below_less``: inlined into both, its typing
    and lowering took ~13 s more of the cold compile of engine + greedy (benchmarks/compile_profile.py),
    for no measured speed."""
    n, total, pool, a1, a2, a3, ok = quick
    cand = ws[O_CAND:O_CAND + cap * NF].reshape((cap, NF))

    # decision order: non-wild kinds held and coverable; first those some run
    # candidate holds (the I5 skeleton is settled early, which lets the
    # condition test prune), then by value. Kinds no candidate holds are
    # deadwood from the start and leave the planes.
    vals = ws[O_VALS:O_VALS + N_KINDS]
    nonwild = a1
    if 0 <= wild_rank < 13:
        for s in range(4):
            nonwild &= ~(1 << (s * 13 + wild_rank))
    cover = 0
    runcover = 0
    any_pure = 0
    any_long = 0
    for j in range(nc):
        cover |= cand[j, F_MASK]
        if j < n_runs:
            runcover |= cand[j, F_MASK]
            any_pure |= cand[j, F_PURE]
            any_long |= cand[j, F_LONG]
    if not (any_pure and any_long):
        # I5 needs a pure run and a run of four among the candidates
        _no_groups(counts, want, out)
        return total, False, 0
    order = ws[O_ORDER:O_ORDER + 52]
    key = ws[O_KEY:O_KEY + 52]
    nord = 0
    dead0 = 0
    for k in range(52):
        if not (nonwild >> k) & 1:
            continue
        v = _card_value(k, wild_rank)
        vals[k] = v
        if not (cover >> k) & 1:
            dead0 += counts[k] * v
            continue
        kk = v * 64 + k
        if (runcover >> k) & 1:
            kk += 4096
        i = nord
        while i > 0 and key[i - 1] < kk:
            order[i] = order[i - 1]
            key[i] = key[i - 1]
            i -= 1
        order[i] = k
        key[i] = kk
        nord += 1
    if mode == 1 and dead0 > 0:
        return -1, False, 0
    gone = nonwild & ~cover
    a1 &= ~gone
    a2 &= ~gone
    a3 &= ~gone
    W = (nc + 63) >> 6
    bits = ws[O_CAND + cap * NF:O_CAND + cap * NF + B_ROWS * W]
    _fill_bits(bits, W, cand, nc, n_runs, nonwild, pool)
    best = ws[O_BEST:O_BEST + 3]
    best[1] = 0
    best[2] = 0
    bpath = ws[O_BPATH:O_BPATH + STACK]
    best[0] = total + 1 if ub > total else ub
    # Depth-first search with an explicit stack (numba does not cache
    # recursive functions safely). Non-wild natural kinds are decided one by
    # one in ``order``: one copy of kind x joins a candidate group holding x
    # (further copies of x only take candidates at or after that one, so no
    # arrangement is met twice), or every copy left of x is deadwood (mode 0
    # only). Once all are decided, groups without non-wild naturals
    # may be added for the conditions or to use every card.
    st = ws[O_ST:O_ST + STACK * NS].reshape((STACK, NS))
    path = ws[O_PATH:O_PATH + STACK]
    st[0, S_T] = 0
    st[0, S_A1] = a1
    st[0, S_A2] = a2
    st[0, S_A3] = a3
    st[0, S_COST] = 0
    st[0, S_DEAD] = dead0
    st[0, S_RUNS] = 0
    st[0, S_PURE] = 0
    st[0, S_LONG] = 0
    st[0, S_G] = 0
    L = -1
    C = 0          # frame waiting to be entered, -1 if none
    qmin = -1
    stop = False
    while not stop:
        if C >= 0:
            # enter frame C: prune, skip decided kinds, evaluate a leaf
            keep = True
            fo = (B_FIT + C) * W
            b1 = st[C, S_A1]
            b3 = st[C, S_A3]
            dead = st[C, S_DEAD]
            runs = st[C, S_RUNS]
            pure = st[C, S_PURE]
            long_ = st[C, S_LONG]
            # can I5 still be met by the runs that fit?
            fp = pure > 0 or _meets(bits, fo, B_PURE, W)
            fl = long_ > 0 or _meets(bits, fo, B_LONG, W)
            if not (fp and fl and (runs >= 2 or _meets(bits, fo, B_RUN, W))):
                keep = False
            else:
                # non-wild kinds no fitting candidate holds are deadwood now
                forced = 0
                rest = b1 & nonwild
                while rest:
                    low = rest & -rest
                    if not _meets(bits, fo, B_HAS + _bitindex(low), W):
                        forced |= low
                    rest ^= low
                if forced:
                    if mode == 1:
                        keep = False
                    else:
                        b2 = st[C, S_A2]
                        f = forced
                        while f:
                            low = f & -f
                            k = _bitindex(low)
                            dead += vals[k] * (1 + ((b2 >> k) & 1) + ((b3 >> k) & 1))
                            f ^= low
                        b1 &= ~forced
                        st[C, S_A1] = b1
                        st[C, S_A2] = b2 & ~forced
                        b3 &= ~forced
                        st[C, S_A3] = b3
                        st[C, S_DEAD] = dead
                if mode == 0 and dead >= best[0]:
                    keep = False
            if keep:
                t = st[C, S_T]
                while t < nord and not ((b1 >> order[t]) & 1):
                    t += 1
                    qmin = -1
                st[C, S_T] = t
                st[C, S_PHASE] = 0
                st[C, S_Q] = 0 if qmin < 0 else qmin
                if t < nord:
                    st[C, S_LEAF] = 0
                else:
                    st[C, S_LEAF] = 1
                    g = st[C, S_G]
                    if runs >= 2 and pure > 0 and long_ > 0:
                        if mode == 0:
                            best[0] = dead
                            best[2] = g
                            for i in range(g):
                                bpath[i] = path[i]
                            keep = False
                            stop = dead <= lb
                        elif st[C, S_COST] == pool:
                            best[0] = 0
                            best[1] = 1
                            best[2] = g
                            for i in range(g):
                                bpath[i] = path[i]
                            keep = False
                            stop = True
            if keep:
                L = C
            C = -1
            continue
        if L < 0:
            break
        lo = (B_FIT + L) * W
        if st[L, S_LEAF]:
            j = _next_in(bits, lo, B_FREE, W, st[L, S_Q])   # only groups without non-wild naturals now
        else:
            j = _next_in(bits, lo, B_HAS + order[st[L, S_T]], W, st[L, S_Q])  # those holding the kind
        if j >= 0:
            st[L, S_Q] = j + 1
            b1 = st[L, S_A1]
            b3 = st[L, S_A3]
            cost = st[L, S_COST] + cand[j, F_COST]
            n1, n2, n3 = _take(cand, j, b1, st[L, S_A2], b3)
            g = st[L, S_G]
            path[g] = j
            C = L + 1
            st[C, S_T] = st[L, S_T]
            st[C, S_A1] = n1
            st[C, S_A2] = n2
            st[C, S_A3] = n3
            st[C, S_COST] = cost
            st[C, S_DEAD] = st[L, S_DEAD]
            st[C, S_RUNS] = st[L, S_RUNS] + cand[j, F_RUN]
            st[C, S_PURE] = st[L, S_PURE] + cand[j, F_PURE]
            st[C, S_LONG] = st[L, S_LONG] + cand[j, F_LONG]
            st[C, S_G] = g + 1
            # the child's fitting set: the parent's, within the pool left, less the
            # candidates of the kinds used up (and the identical triples broken)
            co = (B_FIT + C) * W
            ko = (B_COST + pool - cost) * W
            for w in range(W):
                bits[co + w] = bits[lo + w] & bits[ko + w]
            _drop_kinds(bits, co, W, b1 & ~n1, B_HAS)
            _drop_kinds(bits, co, W, b3 & ~n3 & n1, B_HAS3)
            qmin = j
            continue
        if mode == 0 and st[L, S_LEAF] == 0 and st[L, S_PHASE] == 0:
            # every copy left of x is deadwood
            st[L, S_PHASE] = 1
            x = order[st[L, S_T]]
            b1 = st[L, S_A1]
            b2 = st[L, S_A2]
            b3 = st[L, S_A3]
            c = ((b1 >> x) & 1) + ((b2 >> x) & 1) + ((b3 >> x) & 1)
            b = ~(1 << x)
            C = L + 1
            st[C, S_T] = st[L, S_T] + 1
            st[C, S_A1] = b1 & b
            st[C, S_A2] = b2 & b
            st[C, S_A3] = b3 & b
            st[C, S_COST] = st[L, S_COST]
            st[C, S_DEAD] = st[L, S_DEAD] + c * vals[x]
            st[C, S_RUNS] = st[L, S_RUNS]
            st[C, S_PURE] = st[L, S_PURE]
            st[C, S_LONG] = st[L, S_LONG]
            st[C, S_G] = st[L, S_G]
            co = (B_FIT + C) * W
            for w in range(W):
                bits[co + w] = bits[lo + w]
            _drop_kinds(bits, co, W, 1 << x, B_HAS)
            qmin = -1
            continue
        L -= 1
    if mode == 1:
        if best[1]:
            _copy_rows(cand, bpath, best[2], want, out)
            return 0, True, best[2]
        return -1, False, 0
    if best[0] > total:
        _no_groups(counts, want, out)
        return total, False, 0
    _copy_rows(cand, bpath, best[2], want, out)
    if want == 2:
        _write_loose(out, counts, cand, bpath, best[2], pool, wild_rank)
    return best[0], False, best[2]


@njit(cache=True, _nrt=True)
def _search_heap(cap, counts, wild_rank, max_j_run, max_j_set, triple_is_run, mode, want, out, ub,
                 lb, quick):
    """``_search`` in a workspace of its own, with room for ``cap`` candidates or, when the
    hand has more, for all of them (one allocation, once in some thousands of hands)."""
    while True:
        ws = np.empty(_workspace_size(cap), dtype=np.int64)
        dead, ok, ng = _search(ws, cap, counts, wild_rank, max_j_run, max_j_set, triple_is_run, mode,
                               want, out, ub, lb, quick)
        if ng >= 0:
            return dead, ok, ng
        cap = -ng


@njit(cache=True, _nrt=False)
def _copy_rows(cand, bpath, ng, want, out):
    if want == 1 and out.shape[0] >= ng * NF:
        for g in range(ng):
            for f in range(NF):
                out[g * NF + f] = cand[bpath[g], f]


@njit(cache=True, _nrt=False)
def _no_groups(counts, want, out):
    """``out`` when no arrangement meets I5: every card held may go (want 2)."""
    if want == 2:
        for k in range(N_KINDS):
            out[k] = 1 if counts[k] > 0 else 0


@njit(cache=True, _nrt=False)
def _write_loose(loose, counts, cand, bpath, ng, pool, w):
    """``loose[k]`` = 1 for the kinds k held of which one copy can go while the
    deadwood m of the best arrangement (groups ``bpath[:ng]``) loses value(k).

    Why it is exact: removing a card k never leaves less than m - value(k) (an
    arrangement of the rest, plus k as deadwood, is one of the whole hand), and a copy
    of k outside the groups of a best arrangement goes without touching them. So for
    those kinds the deadwood after discarding k is known without a search: every
    non-wild natural with a copy outside the groups; a printed joker or wild-rank card
    not standing as itself while the groups leave a pool unit spare."""
    for k in range(N_KINDS):
        loose[k] = counts[k]
    cost = 0
    for g in range(ng):
        j = bpath[g]
        cost += cand[j, F_COST]
        tk = cand[j, F_TRIPLE]
        if tk >= 0:
            loose[tk] -= 3
        else:
            msk = cand[j, F_MASK]
            while msk:
                low = msk & -msk
                loose[_bitindex(low)] -= 1
                msk ^= low
    spare = ng == 0 or cost < pool
    for k in range(N_KINDS):
        if loose[k] > 0:
            if k == JOKER or k % 13 == w:
                loose[k] = 1 if spare else 0
            else:
                loose[k] = 1
        else:
            loose[k] = 0


@njit(inline="always")
def _partnerless(a1, a3, pool, wild_rank, max_j_run, max_j_set, triple_is_run):
    """The non-wild natural kinds held that no group of I4 can hold, whatever the rest
    of the arrangement (a necessary test, no candidates needed): a run needs another
    natural of its suit within two positions (with a joker) or a natural on each side of
    a pure three; a set another suit of its rank (with a joker) or two more; an identical
    triple three copies. With two jokers allowed in a group any card can join one."""
    if pool >= 2 and (max_j_run >= 2 or max_j_set >= 2):
        return a1 * 0
    jr = pool >= 1 and max_j_run >= 1
    js = pool >= 1 and max_j_set >= 1
    partner = a3 if triple_is_run else a3 * 0
    for s in range(4):
        m = (a1 >> (s * 13)) & 0x1FFF
        ps = ((m << 1) | ((m >> 12) & 1)) & 0x3FFF   # ace low at 0, high at 13
        l1 = ps << 1
        r1 = ps >> 1
        if jr:
            near = l1 | r1 | (ps << 2) | (ps >> 2)
        else:
            near = (l1 & (ps << 2)) | (l1 & r1) | (r1 & (ps >> 2))
        pp = ps & near & 0x3FFF
        partner |= (((pp >> 1) | ((pp & 1) << 12)) & 0x1FFF) << (s * 13)
    need = 2 if js else 3
    rank_mask = (1 << 0) | (1 << 13) | (1 << 26) | (1 << 39)
    for r in range(13):
        held = a1 & (rank_mask << r)
        if _popcount(held) >= need:
            partner |= held
    lonely = a1 & ~partner
    if 0 <= wild_rank < 13:
        lonely &= ~(rank_mask << wild_rank)
    return lonely


@njit(inline="always")
def _suit_positions(a1, s):
    """Run positions 0..13 of the suit-``s`` kinds in plane ``a1`` (the ace at 0 and 13)."""
    m = (a1 >> (s * 13)) & 0x1FFF
    return ((m << 1) | ((m >> 12) & 1)) & 0x3FFF


@njit(inline="always")
def _window_kinds(s, window):
    """The kinds of suit ``s`` at the run positions of ``window`` (a 14-bit position mask)."""
    return (((window >> 1) & 0x1FFF) | ((window & 1) << 12)) << (s * 13)


@njit(inline="always")
def _has_run(a1, long_, joker):
    """Some suit of plane ``a1`` holds a window of 3 (``long_``: 4) positions lacking at most
    ``joker`` (0 or 1) naturals: a run of I4 once a joker fills the gap. A relaxation (a
    window running off the ace-high end, or a gap with no joker left after other groups,
    is accepted too), so False is exact: no such run."""
    for s in range(4):
        x0 = _suit_positions(a1, s)
        x1 = x0 >> 1
        x2 = x0 >> 2
        if long_:
            x3 = x0 >> 3
            if joker:
                hit = (x0 & x1 & (x2 | x3)) | (x2 & x3 & (x0 | x1))
            else:
                hit = x0 & x1 & x2 & x3
        elif joker:
            hit = (x0 & (x1 | x2)) | (x1 & x2)
        else:
            hit = x0 & x1 & x2
        if hit:
            return True
    return False


@njit(inline="always")
def _two_runs(a1, a2, a3, pool, max_j_run, triple_is_run):
    """Necessary test for I5 beyond ``_quick``: a pure run P and a second run Q disjoint from
    it (kind by kind, copies counted), one of the two of four cards or more. Any arrangement
    meeting I5 holds such a pair in windows of 3 and 4 (its pure run and its run of four,
    or, when the pure run is the long one, it and any other run), so False means no
    arrangement meets I5. With two jokers allowed per run and two in the pool, True."""
    joker = min(max_j_run, pool)
    if joker >= 2:
        return True
    for s in range(4):
        ps = _suit_positions(a1, s)
        starts = ps & (ps >> 1) & (ps >> 2)
        while starts:
            low = starts & -starts
            starts ^= low
            m = _window_kinds(s, low * 7)
            b1 = (a1 & ~m) | (a2 & m)
            if _has_run(b1, True, joker):       # P of three, Q of four
                return True
            if (ps >> 3) & low:                 # P of four, Q of three
                m = _window_kinds(s, low * 15)
                b1 = (a1 & ~m) | (a2 & m)
                if _has_run(b1, False, joker):
                    return True
                if triple_is_run and a3 & ~m:   # Q the identical triple (a pure run of three)
                    return True
    if triple_is_run:
        triples = a3
        while triples:                          # P an identical triple, Q a run of four
            low = triples & -triples
            triples ^= low
            if _has_run(a1 & ~low, True, joker):
                return True
    return False


@njit(cache=True, _nrt=False)
def _solve(counts, wild_rank, max_j_run, max_j_set, triple_is_run, mode, ub, lb, out):
    """The one compiled entry of the public solver functions (each inlined into its
    caller, so only this function links the search). mode 0: ``deadwood_below``; 1:
    ``can_declare`` (1 or 0); 2: ``deadwood_and_loose`` (``out`` the loose kinds; in
    modes 0 and 1 ``out`` is not touched).

    Before any candidate is made, kinds no group can hold (``_partnerless``) answer the
    calls that ask about a bound: a declaration needs every card in a group, and their
    points alone may reach ``ub``."""
    ws = stack_int64(WS_SIZE)
    return _solve_in(ws, counts, wild_rank, max_j_run, max_j_set, triple_is_run, mode, ub, lb, out)


@njit(cache=True, _nrt=False)
def deadwood_and_loose_into(src, counts, wild_rank, max_j_run, max_j_set, triple_is_run, loose):
    """``deadwood_and_loose`` searched in the workspace ``src`` (int64[WS_SIZE]), which keeps the
    hand's candidate groups for ``deadwood_below_less`` (``src[SRC_NC]``: how many, -2 when the
    search stopped before making them, more than CAP0 when they did not fit)."""
    src[O_NC] = -2
    zero = counts[JOKER] * 0
    return _solve_in(src, counts, wild_rank, max_j_run, max_j_set, triple_is_run, zero + 2, zero + BIG, zero,
                     loose)


@njit(inline="always")
def _solve_in(ws, counts, wild_rank, max_j_run, max_j_set, triple_is_run, mode, ub, lb, out):
    """``_solve`` in the workspace ``ws``."""
    quick = _quick(counts, wild_rank, max_j_run, triple_is_run)
    n, total, pool, a1, a2, a3, ok = quick
    if not ok:
        if mode == 2:
            _no_groups(counts, mode, out)
        return 0 if mode == 1 else total
    if not _two_runs(a1, a2, a3, pool, max_j_run, triple_is_run):
        # no arrangement meets I5: what the search answers then (all points, or the bound
        # when it is at most that, with every card free to go)
        if mode == 2:
            _no_groups(counts, mode, out)
        if mode == 1:
            return 0
        return total if ub > total else ub
    if mode == 1 or ub <= total:
        lonely = _partnerless(a1, a3, pool, wild_rank, max_j_run, max_j_set, triple_is_run)
        if lonely:
            if mode == 1:
                return 0
            if _forced_points(lonely, counts, wild_rank) >= ub:
                return ub      # what the search returns when nothing is below ub
    smode = 1 if mode == 1 else 0
    want = 2 if mode == 2 else 0
    dead, decl, nc = _search(ws, counts[JOKER] * 0 + CAP0, counts, wild_rank, max_j_run, max_j_set,
                             triple_is_run, smode, want, out, ub, lb, quick)
    if nc < 0:
        dead, decl, _ = _search_heap(-nc, counts, wild_rank, max_j_run, max_j_set, triple_is_run,
                                     smode, want, out, ub, lb, quick)
    if mode == 1:
        return 1 if decl else 0
    return dead


@njit(inline="always")
def min_deadwood(counts, wild_rank, max_j_run=1, max_j_set=1, triple_is_run=0):
    """Smallest deadwood (I6) over arrangements meeting I5; all points if none."""
    zero = counts[JOKER] * 0
    return _solve(counts, zero + wild_rank, zero + max_j_run, zero + max_j_set,
                  zero + (1 if triple_is_run else 0), zero, zero + BIG, zero, counts)


@njit(inline="always")
def deadwood_below(counts, wild_rank, max_j_run, max_j_set, triple_is_run, ub, lb):
    """``min_deadwood`` when it is below ``ub``, else some value >= ``ub``; ``lb`` is a
    lower bound the caller knows (the search stops on reaching it). For callers that
    only compare a deadwood with a bound: the search prunes everything at or above it."""
    zero = counts[JOKER] * 0
    return _solve(counts, zero + wild_rank, zero + max_j_run, zero + max_j_set,
                  zero + triple_is_run, zero, zero + ub, zero + lb, counts)


@njit(inline="always")
def deadwood_and_loose(counts, wild_rank, max_j_run, max_j_set, triple_is_run, loose):
    """``min_deadwood`` m of the hand, and ``loose[k]`` = 1 for the kinds k held of which
    one copy can go while m - value(k) deadwood stays (0: not known; kinds not held 0).
    Exact (``_write_loose`` says why); every card when the hand has no arrangement
    meeting I5 (no part of it has one either)."""
    zero = counts[JOKER] * 0
    return _solve(counts, zero + wild_rank, zero + max_j_run, zero + max_j_set,
                  zero + triple_is_run, zero + 2, zero + BIG, zero, loose)


@njit(inline="always")
def deadwood_and_loose_below(counts, wild_rank, max_j_run, max_j_set, triple_is_run, ub, loose):
    """``deadwood_and_loose`` for a caller that needs it only below ``ub``: exact, with
    ``loose``, when min_deadwood is below ``ub``; else some value >= ``ub`` and ``loose``
    means nothing. The search prunes everything at or above ``ub``."""
    zero = counts[JOKER] * 0
    return _solve(counts, zero + wild_rank, zero + max_j_run, zero + max_j_set,
                  zero + triple_is_run, zero + 2, zero + ub, zero, loose)


@njit(inline="always")
def joins_no_group(counts, k, wild_rank, max_j_run, max_j_set, triple_is_run):
    """True when the card of kind ``k`` held in ``counts`` can be in no group of I4 made of
    cards of ``counts``: it is then deadwood in every arrangement of ``counts`` and of any
    part of it that keeps it. The same test as ``_partnerless`` for one kind, reading only
    the counts near it (its suit two positions either side, its rank, the jokers): a
    non-wild natural with no natural of its suit within two positions (with a joker) or on
    both sides of a pure three, no other suit of its rank (with a joker) or two, no
    identical triple."""
    if k >= JOKER or k % 13 == wild_rank:
        return False
    pool = counts[JOKER]
    if 0 <= wild_rank < 13:
        for s in range(4):
            pool += counts[s * 13 + wild_rank]
    if pool >= 2 and (max_j_run >= 2 or max_j_set >= 2):
        return False
    if triple_is_run and counts[k] >= 3:
        return False
    jr = pool >= 1 and max_j_run >= 1
    js = pool >= 1 and max_j_set >= 1
    s0 = (k // 13) * 13
    r = k % 13
    suits = 0
    for s in range(4):
        if counts[s * 13 + r] > 0:
            suits += 1
    if suits >= (2 if js else 3):
        return False
    # its run positions: rank r at r + 1, the ace also at 0 (ace low); position p holds rank p - 1,
    # position 0 the ace
    for p in (r + 1, 0 if r == 12 else -1):
        if p < 0:
            continue
        near = 0  # bit i: position p - 2 + i held (i = 0, 1, 3, 4)
        for i in (0, 1, 3, 4):
            q = p - 2 + i
            if 0 <= q <= 13 and counts[s0 + (12 if q == 0 else q - 1)] > 0:
                near |= 1 << i
        if jr:
            if near:
                return False
        elif (near & 3) == 3 or (near & 10) == 10 or (near & 24) == 24:
            return False
    return True


@njit(inline="always")
def can_declare(counts, wild_rank, max_j_run=1, max_j_set=1, triple_is_run=0):
    """True iff every card fits in groups meeting I5 (a valid declaration)."""
    zero = counts[JOKER] * 0
    return _solve(counts, zero + wild_rank, zero + max_j_run, zero + max_j_set,
                  zero + (1 if triple_is_run else 0), zero + 1, zero, zero, counts) == 1


@njit(inline="always")
def _filter_less(src, nc_src, n_runs_src, k, counts13, pool13, cand):
    """Of the candidate groups ``src`` of a hand (the first ``n_runs_src`` runs), those the hand
    less one card of kind ``k`` (``counts13``, pool ``pool13``) still has: every group needing no
    copy of k it lacks (a natural none of which is left, an identical triple of a kind of which
    two are left) and costing at most its pool. They are exactly the groups its own generation
    makes (the generators keep every group the cards allow), in the 14-card order; written to
    ``cand``: (count, runs)."""
    gone = 0
    triple = -1
    if k < JOKER:
        if counts13[k] == 0:
            gone = np.int64(1) << k
        elif counts13[k] == 2:
            triple = k
    nc = counts13[JOKER] * 0  # (not the literal 0: _search_cands would compile a second time)
    n_runs = nc
    for j in range(nc_src):
        if (src[j, F_MASK] & gone) != 0 or src[j, F_COST] > pool13:
            continue
        if triple >= 0 and src[j, F_TRIPLE] == triple:
            continue
        for f in range(NF):
            cand[nc, f] = src[j, f]
        if j < n_runs_src:
            n_runs += 1
        nc += 1
    return nc, n_runs


@njit(cache=True, _nrt=False)
def candidates_of(src, counts, wild_rank, max_j_run, max_j_set, triple_is_run):
    """Fill ``src`` (int64[WS_SIZE]) with the hand's candidate groups for ``deadwood_below_less``:
    ``src[SRC_NC]`` their number (the runs among them after it), or -1 when the hand cannot meet
    I5 by the quick test or has more than CAP0 of them (each search then makes its own)."""
    quick = _quick(counts, wild_rank, max_j_run, triple_is_run)
    src[O_NC] = -1
    if quick[6]:
        cap = counts[JOKER] * 0 + CAP0
        nc, _ = _gen(src, cap, counts, wild_rank, max_j_run, max_j_set, triple_is_run, quick)
        if nc > cap:
            src[O_NC] = -1


@njit(cache=True, _nrt=False)
def deadwood_below_less(src, counts, k, wild_rank, max_j_run, max_j_set, triple_is_run, ub, lb):
    """``deadwood_below`` of the hand ``counts`` less one card of kind ``k`` (``counts`` changed
    and restored), searched over the hand's own candidate groups in ``src`` (left there by
    ``deadwood_and_loose_into``, or made here at the first call when ``src[SRC_NC]`` is -2),
    filtered, instead of generating them again: greedy's and the planners' discard ask this for
    several kinds of one 14-card hand. The same pre-tests as ``_solve``, the same search, the
    same answers; when the hand's candidates are not at hand (``src[SRC_NC]`` -1 or more than
    CAP0) it is ``deadwood_below`` itself."""
    if src[O_NC] == -2:
        candidates_of(src, counts, wild_rank, max_j_run, max_j_set, triple_is_run)
    nc_src = src[O_NC]
    counts[k] -= 1
    zero = counts[JOKER] * 0
    if nc_src < 0 or nc_src > CAP0:
        res = _solve(counts, zero + wild_rank, zero + max_j_run, zero + max_j_set, zero + triple_is_run, zero,
                     zero + ub, zero + lb, counts)
        counts[k] += 1
        return res
    quick = _quick(counts, wild_rank, max_j_run, triple_is_run)
    n, total, pool, a1, a2, a3, ok = quick
    if not ok:
        res = total
    elif not _two_runs(a1, a2, a3, pool, max_j_run, triple_is_run):
        res = total if ub > total else ub
    elif ub <= total and _forced_points(
            _partnerless(a1, a3, pool, wild_rank, max_j_run, max_j_set, triple_is_run), counts, wild_rank) >= ub:
        res = ub
    else:
        ws = stack_int64(WS_SIZE)
        cap = zero + CAP0
        cand_src = src[O_CAND:O_CAND + cap * NF].reshape((cap, NF))
        cand = ws[O_CAND:O_CAND + cap * NF].reshape((cap, NF))
        nc, n_runs = _filter_less(cand_src, nc_src, src[O_NC + 1], k, counts, pool, cand)
        res, _, _ = _search_cands(ws, cap, nc, n_runs, counts, wild_rank, max_j_run, max_j_set,
                                  triple_is_run, zero, zero, counts, ub, lb, quick)
    counts[k] += 1
    return res


@njit(inline="always")
def _forced_points(lonely, counts, wild_rank):
    """The points of the kinds in the bit set ``lonely`` (``_partnerless``: deadwood in every
    arrangement), every copy held."""
    forced = 0
    while lonely:
        low = lonely & -lonely
        q = _bitindex(low)
        forced += counts[q] * _card_value(q, wild_rank)
        lonely ^= low
    return forced


@njit(cache=True, _nrt=True)
def arrange(counts, wild_rank, max_j_run, max_j_set, triple_is_run, groups, group_len):
    """Write the best arrangement into ``groups`` (int64[13, 14]) / ``group_len``.

    A full declaration when the hand can declare (I5), else an arrangement with
    the smallest deadwood (I6), else no group. Runs are written in position
    order with the joker's card in the slot it fills, sets naturals first.
    Returns the number of groups.
    """
    flat = np.empty((MAX_GROUPS + 1) * NF, dtype=np.int64)
    w = np.int64(wild_rank)
    mjr = np.int64(max_j_run)
    mjs = np.int64(max_j_set)
    tr = np.int64(1 if triple_is_run else 0)
    mode = w * 0 + 1
    big = mode * 0 + BIG
    quick = _quick(counts, w, mjr, tr)
    cap = mode * 0 + CAP0
    dead, ok, ng = _search_heap(cap, counts, w, mjr, mjs, tr, mode, mode, flat, big, mode - 1, quick)
    if not ok:
        dead, ok, ng = _search_heap(cap, counts, w, mjr, mjs, tr, mode - 1, mode, flat, big, mode - 1,
                                    quick)
    rows = flat.reshape((MAX_GROUPS + 1, NF))
    # the pool cards left for joker slots: printed jokers first, then the
    # wild-rank cards not standing as themselves
    left = np.zeros(N_KINDS, dtype=np.int64)
    left[JOKER] = counts[JOKER]
    if 0 <= w < 13:
        for s in range(4):
            left[s * 13 + w] = counts[s * 13 + w]
    for g in range(ng):
        if rows[g, F_TRIPLE] >= 0:
            tk = rows[g, F_TRIPLE]
            if tk % 13 == wild_rank:
                left[tk] -= 3
        else:
            m = rows[g, F_MASK]
            if 0 <= w < 13:
                for s in range(4):
                    kind = s * 13 + w
                    if (m >> kind) & 1:
                        left[kind] -= 1
    for g in range(ng):
        ln = 0
        if rows[g, F_TRIPLE] >= 0:
            tk = rows[g, F_TRIPLE]
            for t in range(3):
                groups[g, t] = tk
            ln = 3
        elif rows[g, F_RUN]:
            s = rows[g, F_A]
            a = rows[g, F_B]
            jm = rows[g, F_C]
            for p in range(a, a + rows[g, F_LEN]):
                if (jm >> p) & 1:
                    groups[g, ln] = _take_joker(left)
                else:
                    groups[g, ln] = s * 13 + _pos_rank(p)
                ln += 1
        else:
            r = rows[g, F_A]
            sub = rows[g, F_B]
            for s in range(4):
                if (sub >> s) & 1:
                    groups[g, ln] = s * 13 + r
                    ln += 1
            for t in range(rows[g, F_C]):
                groups[g, ln] = _take_joker(left)
                ln += 1
        group_len[g] = ln
    return ng


@njit(cache=True, _nrt=False)
def _take_joker(left):
    if left[JOKER] > 0:
        left[JOKER] -= 1
        return JOKER
    for k in range(52):
        if left[k] > 0:
            left[k] -= 1
            return k
    return -1


@njit(cache=True, _nrt=True)
def discard_deadwoods(counts14, wild_rank, max_j_run, max_j_set, triple_is_run, out):
    """out[k] = min_deadwood of the hand after discarding one card of kind k
    (what a greedy player compares every turn); BIG for kinds not held.

    Shared work: when the whole hand cannot meet I5 by the quick test, no
    13-card part of it can (removing a card never creates a run), so every
    entry is its total minus the discarded card's value."""
    n, total, pool, a1, a2, a3, ok = _quick(counts14, wild_rank, max_j_run, triple_is_run)
    c = counts14.copy()
    for k in range(N_KINDS):
        if counts14[k] == 0:
            out[k] = BIG
        elif not ok:
            out[k] = total - _card_value(k, wild_rank)
        else:
            c[k] -= 1
            out[k] = min_deadwood(c, wild_rank, max_j_run, max_j_set, triple_is_run)
            c[k] += 1
