"""A fast Indian Rummy play-out for search (mc_search): a cheap policy in every seat,
the engine's own state kernels, scored for one seat.

Why a cheap policy: the Indian greedy asks the exact deadwood solver at every draw and
discard (about 45 microseconds a turn at four players), so a search that played greedy
in its play-outs could afford only a handful of them per decision. The play-out policy
here never searches; it reads the hand's counts:

* keep score of a natural card (``keep_score``): how much it belongs to a group or a
  near-group, from its neighbours in its suit (one rank away counts 2, two ranks away
  1, three cards in a row 3 more; the ace low and high) and the same rank in other
  suits (2 per suit, up to two, 3 more for a set of three); an identical copy counts
  2 when three identical cards form a pure run (I4, three decks); a second copy of a
  kind is otherwise worth at most 1 (it cannot join the same group). Jokers and
  wild-rank cards (I2) are always kept.
* draw (I3): the top discard when it is a joker or completes a group of three with
  the hand (a run of three, a set of three, or an identical triple with three decks);
  otherwise the stock. It never drops (I7).
* declare (I5): when the 14 cards pass the quick tests (a pure run, a possible run of
  four, at most one card without a partner: state_nb) the solver looks for a discard
  that leaves a valid declaration, as the engine's first-chance check does; it
  declares with the first one found (kinds in descending order).
* discard: the card with the lowest keep score (ties: the higher value, then the
  higher kind).

The play-out (``play_out``) starts at the beginning of a turn (or right after the
searching seat drew, which then discards as greedy would) and steps the deal with
state_nb's kernels (I8 reshuffle from the play-out's own stream, draws, discards,
next_turn) until a declaration, the rules' turn cap, or the end of seat ``me``'s
``horizon``-th turn of the play-out (``horizon`` <= 0: no limit). Counting the seat's own
turns makes the horizon mean the same at every table size: ``horizon=1`` lets every
other seat play once and the seat itself draw and discard once more. Its score for seat ``me``:

* a valid declaration by ``me``: what ``me`` wins, the sum of every other seat's
  loss in the deal (I6: min(max_points, min_deadwood) for seats still in; the drop or
  wrong-declaration points of seats already out, I5, I7);
* a valid declaration by another seat: minus ``me``'s loss, min(max_points, its
  min_deadwood);
* stopped at the horizon (truncated play-out): minus ``me``'s capped deadwood, as
  if another seat declared now (the solver's deadwood of its 13 cards);
* the turn cap (no winner): 0.

No array is allocated here: the caller owns the state and the scratch buffers (the
solver's own calls keep their small work arrays, as everywhere in the engine).
"""

from numba import njit

from sim.games.indian.enums import (
    JOKER,
    N_KINDS,
    N_RANKS,
    O_PILE_N,
    O_PLAYERS,
    O_RULES,
    O_SEAT,
    O_STATUS,
    O_STOCK_N,
    O_TOP,
    O_TURN,
    O_WILD_RANK,
    R_FIRST_DROP,
    R_MAX_J_RUN,
    R_MAX_J_SET,
    R_MAX_POINTS,
    R_MIDDLE_DROP,
    R_TRIPLE_IS_RUN,
    R_TURN_CAP,
    R_WRONG_DECL,
    ST_DROP_FIRST,
    ST_DROP_MIDDLE,
    ST_IN,
    ST_WRONG,
)
from sim.games.indian.solver_nb import min_deadwood
from sim.games.indian.cards_nb import card_value
from sim.games.indian.state_nb import (
    declaring_discard,
    discard,
    draw_pile,
    draw_stock,
    hand_of,
    maybe_reshuffle,
    next_turn,
)

KEEP_JOKER = 1000


@njit(cache=True)
def _held(h, s, pos):
    """1 if suit ``s`` holds the card at run position ``pos`` (0 = low ace, 1..12 = 2..K,
    13 = high ace), else 0."""
    if pos < 0 or pos > 13:
        return 0
    r = 12 if (pos == 0 or pos == 13) else pos - 1
    return 1 if h[s * N_RANKS + r] > 0 else 0


@njit(cache=True)
def _three(l1, l2, r1, r2):
    """A run of three through the card from its neighbours held (one and two positions
    to the left, to the right)."""
    return l1 + r1 == 2 or l1 + l2 == 2 or r1 + r2 == 2


@njit(cache=True)
def _run_score(h, s, pos):
    l1 = _held(h, s, pos - 1)
    l2 = _held(h, s, pos - 2)
    r1 = _held(h, s, pos + 1)
    r2 = _held(h, s, pos + 2)
    return 2 * (l1 + r1) + l2 + r2 + (3 if _three(l1, l2, r1, r2) else 0)


@njit(cache=True)
def keep_score(h, k, wild, tir):
    """How much kind ``k`` (held) belongs to a group or near-group of ``h`` (see the
    module docstring); KEEP_JOKER for jokers and wild-rank cards."""
    if k == JOKER:
        return KEEP_JOKER
    r = k % N_RANKS
    if r == wild:
        return KEEP_JOKER
    s = k // N_RANKS
    if r == 12:
        run = max(_run_score(h, s, 0), _run_score(h, s, 13))
    else:
        run = _run_score(h, s, r + 1)
    sp = 0
    for t in range(4):
        if t != s and h[t * N_RANKS + r] > 0:
            sp += 1
    score = run + 2 * min(sp, 2) + (3 if sp >= 2 else 0)
    if h[k] >= 2:
        if tir == 1:
            score += 2 + (3 if h[k] >= 3 else 0)
        elif score > 1:
            score = 1  # the second copy cannot join the same group
    return score


@njit(cache=True)
def fast_discard(h, wild, tir):
    """The kind the play-out policy discards: lowest keep score, then higher value,
    then higher kind."""
    best = -1
    best_s = 1 << 40
    best_v = -1
    for k in range(N_KINDS - 1, -1, -1):
        if h[k] == 0:
            continue
        sc = keep_score(h, k, wild, tir)
        v = card_value(k, wild)
        if sc < best_s or (sc == best_s and v > best_v):
            best = k
            best_s = sc
            best_v = v
    return best


@njit(cache=True)
def fast_wants(h, t, wild, tir):
    """True when the play-out policy takes the top discard ``t``: a joker, or a card that
    completes a group of three with ``h`` (``h`` is changed and restored)."""
    if t == JOKER or t % N_RANKS == wild:
        return True
    r = t % N_RANKS
    s = t // N_RANKS
    if tir == 1 and h[t] >= 2:
        return True
    sp = 0
    for q in range(4):
        if q != s and h[q * N_RANKS + r] > 0:
            sp += 1
    if sp >= 2:
        return True
    lo = 0 if r == 12 else r + 1
    hi = 13 if r == 12 else r + 1
    for pos in (lo, hi):
        if _three(_held(h, s, pos - 1), _held(h, s, pos - 2), _held(h, s, pos + 1), _held(h, s, pos + 2)):
            return True
    return False


@njit(cache=True)
def play_out(st, me, horizon, rr, buf, free, own_discard, own_k, own_decl):
    """Play the deal in ``st`` on with the fast policy in every seat and return its score
    for seat ``me`` (module docstring). ``st`` is at the start of a turn, or, with
    ``own_discard`` = 1, just after ``me`` drew: ``me`` then discards as greedy would,
    given by the caller (``own_k, _, own_decl = best_discard(...)`` of ``me``'s 14 cards:
    it declares discarding ``own_decl`` when that is >= 0, else discards ``own_k``; the
    caller solves each hand once, whatever the world). ``rr`` (uint64[1]) drives the I8
    reshuffles; ``buf`` (int64[>= MAX_SHOE]) and ``free`` (int64[N_KINDS]) are scratch.

    One function on purpose: numba re-optimizes every compiled callee of the solver in
    each function that links it, so the declaration check and the scoring are written
    here rather than in helpers (fewer cold-compile seconds)."""
    wild = st[O_WILD_RANK]
    mjr = st[O_RULES + R_MAX_J_RUN]
    mjs = st[O_RULES + R_MAX_J_SET]
    tir = st[O_RULES + R_TRIPLE_IS_RUN]
    cap = st[O_RULES + R_TURN_CAP]
    maxp = st[O_RULES + R_MAX_POINTS]
    own = 0
    winner = -1
    greedy_turn = own_discard == 1
    counted = not greedy_turn  # the searched turn itself is not one of the horizon's turns
    while True:
        if greedy_turn:
            seat = me
            k = own_k
            d = own_decl
            greedy_turn = False
        else:
            if st[O_TURN] >= cap:
                return 0.0  # capped: nobody gains, the seat loses nothing more
            if horizon > 0 and own >= horizon:
                break
            seat = st[O_SEAT]
            maybe_reshuffle(st, rr, buf)
            h = hand_of(st, seat)
            if st[O_PILE_N] > 0 and (st[O_STOCK_N] == 0 or fast_wants(h, st[O_TOP], wild, tir)):
                draw_pile(st)
            elif st[O_STOCK_N] > 0:
                draw_stock(st)
            else:
                break  # nothing to draw (cannot happen with a real shoe)
            d = declaring_discard(h, wild, mjr, mjs, tir, free)  # declare (I5) when it validly can
            k = fast_discard(h, wild, tir) if d < 0 else d
        if d >= 0:
            discard(st, d)
            winner = seat
            break
        discard(st, k)
        next_turn(st)
        if seat == me:
            if counted:
                own += 1
            counted = True
    # scoring (I5, I6, I7): the seat's loss unless it declared, then the others' losses
    if winner != me:
        dw = min_deadwood(hand_of(st, me), wild, mjr, mjs, tir)
        return -float(min(maxp, dw))
    total = 0
    for s in range(st[O_PLAYERS]):
        status = st[O_STATUS + s]
        if s == me:
            continue
        if status == ST_IN:
            dw = min_deadwood(hand_of(st, s), wild, mjr, mjs, tir)
            total += min(maxp, dw)
        elif status == ST_DROP_FIRST:
            total += st[O_RULES + R_FIRST_DROP]
        elif status == ST_DROP_MIDDLE:
            total += st[O_RULES + R_MIDDLE_DROP]
        elif status == ST_WRONG:
            total += st[O_RULES + R_WRONG_DECL]
    return float(total)
