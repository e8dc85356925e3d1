"""Exact Indian Rummy deadwood solver, compiled with numba (RULES.md I4, I5, I6).

API (all ``@njit(cache=True)``, callable from Python and from njit code)::

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
   >= 7 cards; about 70% of random 13-card hands stop here.
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
   Hand state is three 52-bit planes (count >= 1, >= 2, >= 3).

Numba note: calls between compiled functions never pass literal constants
(numba would compile one specialisation per literal value).
"""

import numpy as np
from numba import njit, types

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


@njit(inline="always")
def _popcount(x):
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


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
    Candidates costing more than the pool are left out."""
    maxlen = min(13, n)
    jcap = min(max_j_run, pool)
    for s in range(4):
        ps = pm[s]
        if ps == 0:
            continue
        for a in range(0, 12):
            if want_pure and not (ps >> a) & 1:
                continue
            miss = 0
            npres = 0
            for b in range(a, 14):
                if (ps >> b) & 1:
                    plist[npres] = b
                    npres += 1
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
                if want_pure:
                    kmin = 0
                    kmax = 0
                else:
                    kmin = 1 if miss == 0 else 0
                    kmax = min(jcap - miss, npres - 1)
                for k in range(kmin, kmax + 1):
                    # every choice of k held positions also filled by jokers:
                    # Gosper's hack over npres-bit combinations of size k
                    comb = (1 << k) - 1
                    while comb < (1 << npres):
                        jm = wm & ~ps
                        for t in range(npres):
                            if (comb >> t) & 1:
                                jm |= 1 << plist[t]
                        nat = wm & ~jm
                        kmask = 0
                        value = 0
                        nwild = 0
                        for p in range(a, b + 1):
                            if (nat >> p) & 1:
                                r = _pos_rank(p)
                                kmask |= 1 << (s * 13 + r)
                                if r == wild_rank:
                                    nwild += 1
                                else:
                                    value += _card_value(s * 13 + r, wild_rank)
                        nj = _popcount(jm)
                        if nj + nwild <= pool:
                            nc = _push(cand, nc, kmask, -1, nj + nwild, value,
                                             1, 1 if nj == 0 else 0,
                                             1 if length >= 4 else 0,
                                             length, s, a, jm, length)
                        if k == 0:
                            break
                        c0 = comb & -comb
                        r0 = comb + c0
                        comb = (((r0 ^ comb) >> 2) // c0) | r0
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
def _gen_sets(cand, nc, counts, wild_rank, max_j_set, pool):
    """Append set candidates: every subset of the suits held of a rank plus
    jokers, 3 or 4 cards, at most ``max_j_set`` jokers, cost within the pool."""
    jcap = min(max_j_set, pool)
    for r in range(13):
        sm = 0
        for s in range(4):
            if counts[s * 13 + r] > 0:
                sm |= 1 << s
        if _popcount(sm) + jcap < 3:
            continue
        sub = sm
        while sub:
            k = _popcount(sub)
            jlo = max(0, 3 - k)
            jhi = min(jcap, 4 - k)
            for j in range(jhi, jlo - 1, -1):
                cost = j
                if r == wild_rank:
                    cost += k
                if cost > pool:
                    continue
                kmask = 0
                value = 0
                for s in range(4):
                    if (sub >> s) & 1:
                        kind = s * 13 + r
                        kmask |= 1 << kind
                        value += _card_value(kind, wild_rank)
                nc = _push(cand, nc, kmask, -1, cost, value, 0, 0, 0,
                           k + j, r, sub, j, k + j)
            sub = (sub - 1) & sm
    return nc


@njit(inline="always")
def _fits(cand, j, a1, a3, cost, pool):
    if cost + cand[j, F_COST] > pool:
        return False
    tk = cand[j, F_TRIPLE]
    if tk >= 0:
        return ((a3 >> tk) & 1) == 1
    return (cand[j, F_MASK] & ~a1) == 0


@njit(inline="always")
def _take(cand, j, a1, a2, a3):
    """The planes (count >= 1, >= 2, >= 3) after group j takes its naturals."""
    tk = cand[j, F_TRIPLE]
    if tk >= 0:
        b = ~(1 << tk)
        return a1 & b, a2 & b, a3 & b
    m = cand[j, F_MASK]
    return (a1 & ~m) | (a2 & m), (a2 & ~m) | (a3 & m), a3 & ~m


@njit(inline="always")
def _cond_possible(cand, n_runs, a1, a3, cost, pool, runs, pure, long_):
    """Can the I5 conditions still be met? (necessary test)"""
    if runs >= 2 and pure > 0 and long_ > 0:
        return True
    nfit = 0
    fp = pure > 0
    fl = long_ > 0
    for j in range(n_runs):
        if _fits(cand, j, a1, a3, cost, pool):
            nfit += 1
            if cand[j, F_PURE]:
                fp = True
            if cand[j, F_LONG]:
                fl = True
            if fp and fl and nfit >= 2:
                return True
    if not (fp and fl):
        return False
    # two runs needed: one fitting candidate may still serve twice (copies)
    return runs >= 2 or nfit >= 1


# fields of a search stack frame
S_T = 0        # index in the decision order (nord = every kind decided)
S_Q = 1        # next position in the candidate list being tried
S_FOFF = 2     # offset of the frame's list of fitting candidates
S_PHASE = 3    # 0: groups being tried; 1: deadwood branch taken
S_A1 = 4
S_A2 = 5
S_A3 = 6
S_COST = 7
S_DEAD = 8
S_RUNS = 9
S_PURE = 10
S_LONG = 11
S_G = 12       # number of groups chosen
S_LEAF = 13
S_FLEN = 14    # length of that list
NS = 15
STACK = 40     # >= groups (<= 5) + deadwood decisions (<= 14) + 1

# workspace layout (one allocation per search)
O_PM = 0
O_PLIST = O_PM + 4
O_VALS = O_PLIST + 14
O_ORDER = O_VALS + N_KINDS
O_KEY = O_ORDER + 52
O_BEST = O_KEY + 52
O_BPATH = O_BEST + 3
O_PATH = O_BPATH + STACK
O_ST = O_PATH + STACK
FL_SMALL = 64  # candidates up to which the fitting lists live in the workspace
O_FL = O_ST + STACK * NS
WS_SIZE = O_FL + STACK * FL_SMALL + 1


@njit(inline="always")
def _quick(counts, wild_rank, max_j_run, triple_is_run):
    """Hand totals and quick rejection: I5 needs a pure run (three naturals in
    a row, or an identical triple) and a run of four, so at least 7 cards.
    Returns (n, total, pool, a1, a2, a3, may_meet_I5)."""
    n = counts[JOKER]
    total = 0
    pool = counts[JOKER]
    a1 = 0
    a2 = 0
    a3 = 0
    for s in range(4):
        for r in range(13):
            k = s * 13 + r
            c = counts[k]
            if c == 0:
                continue
            n += c
            if r == wild_rank:
                pool += c
            elif r >= 8:
                total += 10 * c
            else:
                total += (r + 2) * c
            a1 |= 1 << k
            if c >= 2:
                a2 |= 1 << k
                if c >= 3:
                    a3 |= 1 << k
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


@njit(cache=True, _nrt=True)
def _search(counts, wild_rank, max_j_run, max_j_set, triple_is_run, mode, brows, ub, lb):
    """Exact search. mode 0: smallest deadwood; mode 1: a full declaration.

    Returns (deadwood or -1, declarable, n_groups); brows[:n_groups] (if it
    has room) receives the candidate rows of the arrangement found (mode 0:
    the best valid arrangement, none if no arrangement meets I5; mode 1: a
    declaration).

    Mode 0 bounds (what a caller comparing deadwoods needs, nothing more):
    ``ub``: only deadwoods below ``ub`` are of interest; the answer is exact
    when it is below ``ub``, else some value >= ``ub`` (the search prunes
    everything at or above it). ``lb``: a known lower bound; the search stops
    at the first arrangement reaching it. ``ub`` > total and ``lb`` = 0 give
    the plain exact minimum.
    """
    n, total, pool, a1, a2, a3, ok = _quick(counts, wild_rank, max_j_run, triple_is_run)
    if not ok:
        return total, False, 0
    ws = np.empty(WS_SIZE, dtype=np.int64)
    pm = ws[O_PM:O_PM + 4]
    for s in range(4):
        m = (a1 >> (s * 13)) & 0x1FFF
        pm[s] = ((m << 1) | ((m >> 12) & 1)) & 0x3FFF

    plist = ws[O_PLIST:O_PLIST + 14]
    cap = 128
    while True:
        cand = np.empty((cap, NF), dtype=np.int64)
        # (no literal constants in calls: numba would compile one copy per value)
        nc = n * 0
        nc = _gen_runs(cand, nc, counts, wild_rank, max_j_run, n, nc == 0, pm, plist, pool)
        if triple_is_run:
            nc = _gen_triples(cand, nc, counts, wild_rank)
        nc = _gen_runs(cand, nc, counts, wild_rank, max_j_run, n, nc < 0, pm, plist, pool)
        n_runs = nc
        nc = _gen_sets(cand, nc, counts, wild_rank, max_j_set, pool)
        if nc <= cap:
            break
        cap = nc
    if not _cond_possible(cand, n_runs, a1, a3, 0, pool, 0, 0, 0):
        return total, False, 0

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
    for j in range(nc):
        cover |= cand[j, F_MASK]
        if j < n_runs:
            runcover |= cand[j, F_MASK]
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
    if nc <= FL_SMALL:
        flist = ws[O_FL:O_FL + STACK * FL_SMALL + 1]
    else:
        flist = np.empty(STACK * nc + 1, dtype=np.int64)
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
            b1 = st[C, S_A1]
            b3 = st[C, S_A3]
            cost = st[C, S_COST]
            dead = st[C, S_DEAD]
            runs = st[C, S_RUNS]
            pure = st[C, S_PURE]
            long_ = st[C, S_LONG]
            # one scan of the candidates that still fit (a subset of the
            # parent's list, kept on a stack): the kinds they can cover, and
            # whether I5 can still be met
            u = 0
            fp = pure > 0
            fl = long_ > 0
            nfit = 0
            if C == 0:
                poff = 0
                plen = nc
                myoff = 0
            else:
                poff = st[C - 1, S_FOFF]
                plen = st[C - 1, S_FLEN]
                myoff = poff + plen
            cnt = 0
            qpos = 0
            for i in range(plen):
                j = i if C == 0 else flist[poff + i]
                if _fits(cand, j, b1, b3, cost, pool):
                    flist[myoff + cnt] = j
                    cnt += 1
                    if j < qmin:
                        qpos += 1
                    u |= cand[j, F_MASK]
                    if j < n_runs:
                        nfit += 1
                        if cand[j, F_PURE]:
                            fp = True
                        if cand[j, F_LONG]:
                            fl = True
            st[C, S_FOFF] = myoff
            st[C, S_FLEN] = cnt
            if not (fp and fl and (runs >= 2 or nfit >= 1)):
                keep = False
            else:
                # non-wild kinds no fitting candidate holds are deadwood now
                forced = b1 & nonwild & ~u
                if forced:
                    if mode == 1:
                        keep = False
                    else:
                        b2 = st[C, S_A2]
                        while forced:
                            low = forced & -forced
                            k = _bitindex(low)
                            dead += vals[k] * (1 + ((b2 >> k) & 1) + ((b3 >> k) & 1))
                            forced ^= low
                        forced = b1 & nonwild & ~u
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
                st[C, S_Q] = 0 if qmin < 0 else qpos
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
                        elif cost == pool:
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
        q = st[L, S_Q]
        if q < st[L, S_FLEN]:
            st[L, S_Q] = q + 1
            j = flist[st[L, S_FOFF] + q]     # fits the frame's state
            if st[L, S_LEAF]:
                if cand[j, F_MASK] & nonwild:
                    continue     # only groups without non-wild naturals now
            elif not (cand[j, F_MASK] >> order[st[L, S_T]]) & 1:
                continue         # candidates holding the kind being decided
            b1 = st[L, S_A1]
            b3 = st[L, S_A3]
            cost = st[L, S_COST]
            n1, n2, n3 = _take(cand, j, b1, st[L, S_A2], b3)
            g = st[L, S_G]
            path[g] = j
            C = L + 1
            st[C, S_T] = st[L, S_T]
            st[C, S_A1] = n1
            st[C, S_A2] = n2
            st[C, S_A3] = n3
            st[C, S_COST] = cost + cand[j, F_COST]
            st[C, S_DEAD] = st[L, S_DEAD]
            st[C, S_RUNS] = st[L, S_RUNS] + cand[j, F_RUN]
            st[C, S_PURE] = st[L, S_PURE] + cand[j, F_PURE]
            st[C, S_LONG] = st[L, S_LONG] + cand[j, F_LONG]
            st[C, S_G] = g + 1
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
            qmin = -1
            continue
        L -= 1
    if mode == 1:
        if best[1]:
            _copy_rows(cand, bpath, best[2], brows)
            return 0, True, best[2]
        return -1, False, 0
    if best[0] > total:
        return total, False, 0
    _copy_rows(cand, bpath, best[2], brows)
    return best[0], False, best[2]


@njit(inline="always")
def _copy_rows(cand, bpath, ng, brows):
    if brows.shape[0] >= ng:
        for g in range(ng):
            for f in range(NF):
                brows[g, f] = cand[bpath[g], f]


@njit(inline="always")
def _bitindex(low):
    """Index of the single set bit of ``low`` (binary search)."""
    i = 0
    if low >> 32:
        low >>= 32
        i += 32
    if low >> 16:
        low >>= 16
        i += 16
    if low >> 8:
        low >>= 8
        i += 8
    if low >> 4:
        low >>= 4
        i += 4
    if low >> 2:
        low >>= 2
        i += 2
    if low >> 1:
        i += 1
    return i


@njit(cache=True, _nrt=True)
def min_deadwood(counts, wild_rank, max_j_run=1, max_j_set=1, triple_is_run=0):
    """Smallest deadwood (I6) over arrangements meeting I5; all points if none."""
    n, total, pool, a1, a2, a3, ok = _quick(counts, wild_rank, max_j_run, triple_is_run)
    if not ok:
        return total
    brows = np.empty((0, NF), dtype=np.int64)
    dead, _, _ = _search(counts, np.int64(wild_rank), np.int64(max_j_run),
                         np.int64(max_j_set), np.int64(1 if triple_is_run else 0),
                         n * 0, brows, total + 1, n * 0)
    return dead


_I = types.int64
_HAND = types.int64[::1]


@njit(_I(_HAND, _I, _I, _I, _I, _I, _I), cache=True, _nrt=True)
def deadwood_below(counts, wild_rank, max_j_run, max_j_set, triple_is_run, ub, lb):
    """``min_deadwood`` when it is below ``ub``, else some value >= ``ub``; ``lb`` is a
    lower bound the caller knows (the search stops on reaching it). For callers that
    only compare a deadwood with a bound: the search prunes everything at or above it."""
    n, total, pool, a1, a2, a3, ok = _quick(counts, wild_rank, max_j_run, triple_is_run)
    if not ok:
        return total
    brows = np.empty((0, NF), dtype=np.int64)
    dead, _, _ = _search(counts, wild_rank, max_j_run, max_j_set, triple_is_run,
                         n * 0, brows, ub, lb)
    return dead


@njit(_I(_HAND, _I, _I, _I, _I, _HAND), cache=True, _nrt=True)
def deadwood_and_loose(counts, wild_rank, max_j_run, max_j_set, triple_is_run, loose):
    """``min_deadwood`` m of the hand, and ``loose[k]`` = 1 for the kinds k held of which
    one copy can go while m - value(k) deadwood stays (0: not known; kinds not held 0).

    Why it is exact: removing a card k never leaves less than m - value(k) (an
    arrangement of the rest, plus k as deadwood, is one of the whole hand), and a copy
    of k outside the groups of a best arrangement goes without touching them. So for
    those kinds the deadwood after discarding k is known without a search: every
    non-wild natural with a copy outside the groups; a printed joker or wild-rank card
    not standing as itself while the groups leave a pool unit spare; every card when
    the hand has no arrangement meeting I5 (no part of it has one either)."""
    rows = np.empty((MAX_GROUPS + 1, NF), dtype=np.int64)
    w = wild_rank
    n, total, pool, a1, a2, a3, ok = _quick(counts, wild_rank, max_j_run, triple_is_run)
    ng = n * 0
    m = total
    if ok:
        m, _, ng = _search(counts, wild_rank, max_j_run, max_j_set, triple_is_run, ng, rows, total + 1, ng)
    for k in range(N_KINDS):
        loose[k] = counts[k]
    cost = 0
    for g in range(ng):
        cost += rows[g, F_COST]
        tk = rows[g, F_TRIPLE]
        if tk >= 0:
            loose[tk] -= 3
        else:
            msk = rows[g, F_MASK]
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
    return m


@njit(cache=True, _nrt=True)
def can_declare(counts, wild_rank, max_j_run=1, max_j_set=1, triple_is_run=0):
    """True iff every card fits in groups meeting I5 (a valid declaration)."""
    n, total, pool, a1, a2, a3, ok = _quick(counts, wild_rank, max_j_run, triple_is_run)
    if not ok:
        return False
    brows = np.empty((0, NF), dtype=np.int64)
    _, decl, _ = _search(counts, np.int64(wild_rank), np.int64(max_j_run),
                         np.int64(max_j_set), np.int64(1 if triple_is_run else 0),
                         n * 0 + 1, brows, n * 0, n * 0)
    return decl


@njit(cache=True, _nrt=True)
def arrange(counts, wild_rank, max_j_run, max_j_set, triple_is_run, groups, group_len):
    """Write the best arrangement into ``groups`` (int64[13, 14]) / ``group_len``.

    A full declaration when the hand can declare (I5), else an arrangement with
    the smallest deadwood (I6), else no group. Runs are written in position
    order with the joker's card in the slot it fills, sets naturals first.
    Returns the number of groups.
    """
    rows = np.empty((MAX_GROUPS + 1, NF), dtype=np.int64)
    w = np.int64(wild_rank)
    mjr = np.int64(max_j_run)
    mjs = np.int64(max_j_set)
    tr = np.int64(1 if triple_is_run else 0)
    mode = w * 0 + 1
    big = mode * 0 + BIG
    dead, ok, ng = _search(counts, w, mjr, mjs, tr, mode, rows, big, mode - 1)
    if not ok:
        dead, ok, ng = _search(counts, w, mjr, mjs, tr, mode - 1, rows, big, mode - 1)
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
