"""Indian `greedy`: a deadwood minimiser that declares as soon as it validly can (I5, I6).

- Draw: takes the top discard when that lowers its best deadwood, i.e. when the least
  ``min_deadwood`` of the 13 cards it could keep after taking it (discarding any one of
  the 14) is below ``min_deadwood`` of its current 13; otherwise the stock. Never drops
  (unless a drop is the only legal move).
- Discard: declares, discarding kind k, when the solver's ``can_declare`` holds for the
  13 cards left (the highest-valued such k, then the highest kind); otherwise discards the kind whose removal leaves the
  least deadwood (ties: the higher-valued card, then the higher kind).

It reads only its own hand, the top discard and the rules in its observation (I9), and in
the engine its own solver work of its last decisions (sim/games/indian/memo_nb.py: the 14
cards its draw solved, the 13 its discard kept; and it tells the engine whether some
discard declares, so the first-chance note needs no search).
The hand slice of the observation copy is used as scratch (changed and restored), so no
array is allocated per decision.
"""

from numba import njit

from sim.core.bits_nb import lowest_bit_index
from sim.core.scratch_nb import stack_int64
from sim.games.indian.enums import (
    D_DRAW,
    JOKER,
    MV_DECLARE,
    MV_DISCARD,
    MV_PILE,
    MV_STOCK,
    N_KINDS,
    O_HAND,
    O_RULES,
    O_TOP,
    O_WILD_RANK,
    R_MAX_J_RUN,
    R_MAX_J_SET,
    R_TRIPLE_IS_RUN,
)
from sim.games.indian.memo_nb import (
    added_kind,
    M_D13,
    M_DECLARES,
    M_KEY13,
    M_KEY14,
    M_LOOSE13,
    M_LOOSE14,
    M_M14,
    key_matches,
    loose_mask,
    memo_at,
    store_key,
    unpack_loose,
)
from sim.plugin.strategy import STRATEGY_SIG
from sim.games.indian.cards_nb import card_value
from sim.games.indian.solver_nb import (
    BIG,
    SRC_NC,
    WS_SIZE,
    can_declare,
    deadwood_and_loose,
    deadwood_and_loose_into,
    deadwood_below,
    deadwood_below_less,
    joins_no_group,
)


@njit(cache=True)
def hand_view(obs):
    return obs[O_HAND : O_HAND + N_KINDS]


@njit(cache=True)
def best_discard(h, wild, mjr, mjs, tir, check_declare):
    """For a 14-card hand ``h`` (changed and restored): ``(kind, deadwood, declare)`` —
    the kind whose discard leaves the least min_deadwood (ties: higher value, then higher
    kind), that deadwood, and a kind whose discard leaves a valid declaration (-1 if none,
    or if ``check_declare`` is False).

    Exact branch and bound: with m = min_deadwood of all 14 cards, discarding k leaves at
    least m - value(k) (the best arrangement of the 13, plus k as deadwood, is one of the
    14), so kinds are tried by value then kind, descending, until that bound reaches the
    best deadwood found (later kinds cannot beat it, and lose its ties). A kind with a
    copy outside a best arrangement of the 14 leaves exactly m - value(k) (solver
    ``deadwood_and_loose``): no search for it, and the first such kind in the order is
    the best found before any search. The others are searched only below what would
    beat the best so far (``deadwood_below``), which is all the comparison needs."""
    loose = stack_int64(N_KINDS)
    src = stack_int64(WS_SIZE)
    m = deadwood_and_loose_into(src, h, wild, mjr, mjs, tir, loose)
    k, d = best_discard_of(h, m, loose, src, wild, mjr, mjs, tir)
    decl = -1
    if check_declare and d == 0:
        decl = declaring_kind(h, m, loose, wild, mjr, mjs, tir)
    return k, d, decl


@njit(cache=True)
def best_discard_of(h, m, loose, src, wild, mjr, mjs, tir):
    """best_discard's (kind, deadwood), without its declare answer (``declaring_kind``, asked
    only when the deadwood is 0), for a hand whose min_deadwood ``m`` and loose kinds ``loose``
    (solver ``deadwood_and_loose``) are known. ``src``: the workspace of that search (solver
    ``deadwood_and_loose_into``), whose candidate groups the searches of the hand less one card
    reuse (``deadwood_below_less``); ``src[SRC_NC]`` = -2 when none were made (they are then
    made at the first such search)."""
    # start from the first loose kind in the order (its deadwood is known); a kind ahead
    # of the best so far wins with an equal deadwood, one behind it needs a smaller one,
    # so each search is bounded by what would win
    best_k = -1
    best_v = -1
    for k in range(N_KINDS - 1, -1, -1):
        if h[k] > 0 and loose[k] and card_value(k, wild) > best_v:
            best_k = k
            best_v = card_value(k, wild)
    best_d = m - best_v if best_k >= 0 else BIG
    done = False
    for v in range(10, -1, -1):
        if done:
            break
        for k in range(N_KINDS - 1, -1, -1):
            if h[k] == 0 or card_value(k, wild) != v:
                continue
            ahead = best_k < 0 or v > best_v or (v == best_v and k > best_k)
            lim = best_d + 1 if ahead else best_d
            if m - v >= lim:
                done = True  # no kind from here on can reach below its limit
                break
            if loose[k]:
                d = m - v
            else:
                # over the 14 cards' candidate groups, made once for every kind searched
                d = deadwood_below_less(src, h, k, wild, mjr, mjs, tir, lim, m - v)
            if d < lim:
                best_k = k
                best_v = v
                best_d = d
    return best_k, best_d


@njit(cache=True)
def declaring_kind(h, m, loose, wild, mjr, mjs, tir):
    """For a 14-card hand ``h`` (changed and restored) of min_deadwood ``m`` and loose kinds
    ``loose`` (solver ``deadwood_and_loose``): the first kind, by value then kind,
    descending, whose discard leaves a full valid declaration (I5), or -1.

    A valid declaration leaves deadwood 0, and discarding k leaves at least m - value(k),
    exactly that for a loose kind: only kinds worth m or more qualify, a loose one only
    when m == value(k); each goes to ``can_declare`` alone (it implies deadwood 0). Some
    discard declares only when the least deadwood after a discard is 0, so this is
    best_discard's ``declare`` answer without its search for the best discard."""
    for v in range(10, -1, -1):
        if m - v > 0:
            break
        for k in range(N_KINDS - 1, -1, -1):
            if h[k] == 0 or card_value(k, wild) != v or (loose[k] and m != v):
                continue
            h[k] -= 1
            ok = can_declare(h, wild, mjr, mjs, tir)
            h[k] += 1
            if ok:
                return k
    return -1


@njit(cache=True)
def lowers_deadwood(h, top, cur, wild, mjr, mjs, tir):
    """True when some 13 of ``h`` plus ``top`` (changed and restored) have a min_deadwood
    below ``cur``."""
    h[top] += 1
    if cannot_lower(h, top, wild, mjr, mjs, tir):
        h[top] -= 1
        return False
    loose = stack_int64(N_KINDS)
    m = deadwood_and_loose(h, wild, mjr, mjs, tir, loose)
    found = _lowers(h, top, cur, m, loose, wild, mjr, mjs, tir)
    h[top] -= 1
    return found


@njit(inline="always")
def cannot_lower(h, top, wild, mjr, mjs, tir):
    """True when taking ``top`` (held in the 14 cards ``h``) surely lowers no deadwood, known
    without a search: no card held is worth more than it and no group can hold it (solver
    ``joins_no_group``). It is then deadwood in every arrangement, so keeping it instead of
    a card k leaves D(13 - k) + value(top) >= D(13) - value(k) + value(top) >= D(13) (an
    arrangement of the 12 plus k as deadwood is one of the 13)."""
    return not holds_worth_more(h, card_value(top, wild), wild) and joins_no_group(h, top, wild, mjr, mjs, tir)


@njit(inline="always")
def holds_worth_more(h, v, wild):
    """Some card held is worth more than ``v`` points (I6)."""
    if v < 10:
        for r in range(12, -1, -1):
            if min(r + 2, 10) <= v:
                break
            if r == wild:
                continue
            for s in range(4):
                if h[s * 13 + r] > 0:
                    return True
    return False


@njit(inline="always")
def loose_worth_more(mask, v, wild):
    """Some kind of the bit mask ``mask`` is worth more than ``v`` points."""
    while mask:
        low = mask & -mask
        k = lowest_bit_index(low)
        if card_value(k, wild) > v:
            return True
        mask ^= low
    return False


@njit(cache=True)
def _lowers(h, top, cur, m, loose, wild, mjr, mjs, tir):
    """lowers_deadwood for the 14 cards ``h`` (``top`` included, changed and restored)
    of min_deadwood ``m`` and loose kinds ``loose`` (solver ``deadwood_and_loose``).
    Discarding k leaves at least m - value(k), exactly that for a loose kind (as in
    best_discard); the other kinds are searched only below ``cur``."""
    for k in range(N_KINDS):
        if h[k] > 0 and loose[k] and k != top and m - card_value(k, wild) < cur:
            return True
    for v in range(10, -1, -1):
        if m - v >= cur:
            break
        for k in range(N_KINDS):
            if h[k] == 0 or loose[k] or card_value(k, wild) != v or k == top:
                continue
            h[k] -= 1
            d = deadwood_below(h, wild, mjr, mjs, tir, cur, m - v)
            h[k] += 1
            if d < cur:
                return True
    return False


@njit(cache=True)
def row_of(moves, n, kind, a):
    """Index of the legal move (kind, a), or -1."""
    for i in range(n):
        if moves[i, 0] == kind and moves[i, 1] == a:
            return i
    return -1


@njit(cache=True)
def row_of_kind(moves, n, kind):
    for i in range(n):
        if moves[i, 0] == kind:
            return i
    return -1


@njit(cache=True)
def greedy_draw(obs, moves, n):
    """The greedy draw: the pile's top card if it lowers the best deadwood, else the stock."""
    i_stock = row_of_kind(moves, n, MV_STOCK)
    i_pile = row_of_kind(moves, n, MV_PILE)
    if i_pile < 0:
        return i_stock if i_stock >= 0 else n - 1
    if i_stock < 0:
        return i_pile
    wild = obs[O_WILD_RANK]
    mjr = obs[O_RULES + R_MAX_J_RUN]
    mjs = obs[O_RULES + R_MAX_J_SET]
    tir = obs[O_RULES + R_TRIPLE_IS_RUN]
    h = hand_view(obs)
    # the 14 cards with the pile's top first: their best arrangement also gives the
    # current deadwood when the top card lies outside it (removing it leaves m - value)
    top = obs[O_TOP]
    vt = card_value(top, wild)
    at = memo_at(obs)
    h[top] += 1
    if joins_no_group(h, top, wild, mjr, mjs, tir):
        # the top would be deadwood in every arrangement (cannot_lower): only a card worth
        # more can make room for it, and a loose one of the 13 kept (M_LOOSE13: discarding it
        # leaves D13 - value) surely does: D13 - value(k) + value(top) < D13
        if not holds_worth_more(h, vt, wild):
            h[top] -= 1
            return i_stock
        if at >= 0 and obs[at + M_LOOSE13] >= 0 and loose_worth_more(obs[at + M_LOOSE13], vt, wild):
            h[top] -= 1
            if key_matches(obs, at + M_KEY13, h):
                return i_pile
            h[top] += 1
    loose = stack_int64(N_KINDS)
    m = deadwood_and_loose(h, wild, mjr, mjs, tir, loose)
    if at >= 0:  # the discard finds these 14 cards solved if the top is taken (memo_nb)
        store_key(obs, at + M_KEY14, h)
        obs[at + M_M14] = m
        obs[at + M_LOOSE14] = loose_mask(h, loose)
    if loose[top]:
        cur = m - vt
    else:
        h[top] -= 1
        if at >= 0 and key_matches(obs, at + M_KEY13, h):
            cur = obs[at + M_D13]  # the 13 cards the last discard kept, solved by it
        else:
            cur = deadwood_below(h, wild, mjr, mjs, tir, BIG, m - vt)
        h[top] += 1
    found = _lowers(h, top, cur, m, loose, wild, mjr, mjs, tir)
    h[top] -= 1
    return i_pile if found else i_stock


@njit(cache=True)
def greedy_discard(obs, moves, n):
    """The greedy discard: declare if it validly can, else the least-deadwood discard."""
    wild = obs[O_WILD_RANK]
    mjr = obs[O_RULES + R_MAX_J_RUN]
    mjs = obs[O_RULES + R_MAX_J_SET]
    tir = obs[O_RULES + R_TRIPLE_IS_RUN]
    h = hand_view(obs)
    loose = stack_int64(N_KINDS)
    src = stack_int64(WS_SIZE)
    at = memo_at(obs)
    m = solved_14(obs, at, h, wild, mjr, mjs, tir, loose, src)
    k, d = best_discard_of(h, m, loose, src, wild, mjr, mjs, tir)
    decl = declaring_kind(h, m, loose, wild, mjr, mjs, tir) if d == 0 else -1
    if at >= 0:
        # some discard declares only if the least deadwood left is 0, and then decl says which
        obs[at + M_DECLARES] = 1 if decl >= 0 else 0
    if decl >= 0:
        i = row_of(moves, n, MV_DECLARE, decl)
        if i >= 0:
            if at >= 0:  # the 13 declared: deadwood 0 (what the deal's scoring asks, memo_nb)
                remember_kept(obs, at, h, decl, 0, -1)
            return i
    if at >= 0:
        remember_kept(obs, at, h, k, d, kept_loose(h, k, loose, wild))
    i = row_of(moves, n, MV_DISCARD, k)
    return i if i >= 0 else 0


@njit(cache=True, inline="always")
def solved_14(obs, at, h, wild, mjr, mjs, tir, loose, src):
    """min_deadwood of the 14 cards ``h`` held at a discard decision, ``loose`` filled with
    their loose kinds (solver deadwood_and_loose): from the seat's memo when its draw solved
    these cards (it took the pile's top; memo_nb), else solved here in the workspace ``src``
    (solver deadwood_and_loose_into; ``src[SRC_NC]`` = -2 when taken from the memo)."""
    if at >= 0 and key_matches(obs, at + M_KEY14, h):
        unpack_loose(obs[at + M_LOOSE14], loose)
        src[SRC_NC] = -2
        return obs[at + M_M14]
    if at >= 0 and obs[at + M_LOOSE13] >= 0:
        # the 13 kept plus a card c no group can hold: c is deadwood in every arrangement, so
        # the 13's best arrangement is one of the 14, min_deadwood D13 + value(c), loose kinds
        # the 13's and c
        c = added_kind(obs, at + M_KEY13, h)
        if c >= 0 and joins_no_group(h, c, wild, mjr, mjs, tir):
            unpack_loose(obs[at + M_LOOSE13] | (1 << c), loose)
            src[SRC_NC] = -2
            return obs[at + M_D13] + card_value(c, wild)
    return deadwood_and_loose_into(src, h, wild, mjr, mjs, tir, loose)


@njit(cache=True, inline="always")
def remember_kept(obs, at, h, k, d, lmask):
    """Note in the seat's memo that the 13 cards ``h`` keeps after discarding ``k`` have
    min_deadwood ``d`` (the next draw's current deadwood, memo_nb) and the loose kinds
    ``lmask`` (``kept_loose``; -1: not known)."""
    h[k] -= 1
    store_key(obs, at + M_KEY13, h)
    h[k] += 1
    obs[at + M_D13] = d
    obs[at + M_LOOSE13] = lmask


@njit(cache=True, inline="always")
def kept_loose(h, k, loose, wild):
    """The loose kinds (bit mask) of the 13 cards left when the 14 ``h``, of loose kinds
    ``loose`` in an arrangement A of least deadwood, discard ``k``; -1 when not known. A loose
    natural k leaves A an arrangement of least deadwood of the 13 (it lost value(k), the
    least it can), whose loose kinds are the 14's but k (a second copy of k outside A is
    left out: not known is allowed); a joker or wild card going changes the spare pool of A."""
    if not loose[k] or k == JOKER or k % 13 == wild:
        return -1
    return loose_mask(h, loose) & ~(1 << k)


# greedy_decide takes its two steps inlined (the same Python functions, inlined by numba): every
# compiled function that links the solver re-optimises it in its own final LLVM module, so two
# modules fewer take ~5% off the cold compile of engine + greedy (benchmarks/cold_compile.py
# --instructions); defensive and the planners still call the shared compiled greedy_draw.
# Never compiled on their own, so nothing of theirs is cached.
# (under NUMBA_DISABLE_JIT=1 njit returns the plain function, which has no py_func)
_greedy_draw_inlined = njit(inline="always")(getattr(greedy_draw, "py_func", greedy_draw))
_greedy_discard_inlined = njit(inline="always")(getattr(greedy_discard, "py_func", greedy_discard))


@njit(STRATEGY_SIG, cache=True)
def greedy_decide(decision, obs, moves, n, params, rng):
    if decision == D_DRAW:
        return _greedy_draw_inlined(obs, moves, n)
    return _greedy_discard_inlined(obs, moves, n)
