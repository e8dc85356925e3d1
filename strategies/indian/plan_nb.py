"""Shared pieces of the Indian heuristics (joker_keeper, defensive, expert): one scored
discard and one rule-based draw, each weighted by the calling strategy's parameters.

Everything here reads the strategy's observation only (I9): its own hand, the wild
rank, the rules, the top discard, and the public per-seat history (``O_PICKED``: kinds
each seat took from the pile, ``O_DISCARDED``: kinds it discarded, ``O_PICKUPS``,
``O_STATUS``, ``O_TURN``).

Discard score of kind k (lower is better, the least is discarded)::

    deadwood(14 cards - k) + keep(k) + feed_weight * want(k) - safe_weight * safe(k)
        - shed_weight * value(k) * close

* ``deadwood`` is the exact I6 minimum deadwood (solver_nb), as greedy uses;
* ``keep(k)``: what keeping one copy of k is worth for the declaration (I5): ``pure_keep``
  if k is needed for the only pure run of three, ``long_keep`` if it is needed for the only
  seed of the run of four (three naturals of four consecutive positions), ``run_keep``
  per same-suit neighbour one rank away (half that two ranks away), ``set_keep`` per card of
  its rank in another suit; a duplicate copy keeps nothing (the other copy stays);
* ``want(k)``: links of k to the cards the next seat in play is publicly known to hold
  (taken from the pile and not discarded since): the same rank in another suit, the same
  suit one rank away (1) or two (1/2); a joker counts 2;
* ``safe(k)``: links of k to what that seat discarded: the same kind or rank (1), the same
  suit one rank away (1/2): it let those go, so it is unlikely to want k;
* ``close``: 1 when an opponent still in play has taken ``close_pickups`` or more cards
  from the pile (0 = never), or this seat has completed ``close_turn`` or more turns
  (0 = never), else 0.

Jokers (printed or of the wild rank) are never discarded while ``keep_jokers`` holds and
another kind is held. With every weight 0 and ``keep_jokers`` off the choice is exactly
greedy's (least deadwood; ties: the higher value, then the higher kind), and a valid
declaration is always made when one exists, with greedy's choice of discard.
"""

import numpy as np
from numba import njit, types

from sim.core.scratch_nb import stack_float64, stack_int64
from sim.games.indian.enums import (
    JOKER,
    MV_DECLARE,
    MV_DISCARD,
    MV_PILE,
    MV_STOCK,
    N_KINDS,
    N_RANKS,
    O_DISCARDED,
    O_PICKED,
    O_PICKUPS,
    O_PLAYERS,
    O_RULES,
    O_SEAT,
    O_STATUS,
    O_TOP,
    O_WILD_RANK,
    R_MAX_J_RUN,
    R_MAX_J_SET,
    R_TRIPLE_IS_RUN,
    ST_IN,
)
from sim.games.indian.cards_nb import card_value, is_joker
from sim.games.indian.solver_nb import (
    BIG,
    WS_SIZE,
    deadwood_below_less,
)
from sim.games.indian.state_nb import has_long_run_seed, has_pure_run
from sim.games.indian.memo_nb import M_DECLARES, memo_at
from strategies.indian.greedy_nb import (
    declaring_kind,
    greedy_draw,
    hand_view,
    kept_loose,
    remember_kept,
    row_of,
    row_of_kind,
    solved_14,
)


@njit(cache=True)
def held_at(h, s, p):
    """Copies held of suit ``s`` at run position ``p`` (0 = ace low, 1..13 = ranks 2..A);
    0 outside the positions."""
    if p < 0 or p > 13:
        return 0
    r = N_RANKS - 1 if p == 0 else p - 1
    return h[s * N_RANKS + r]


@njit(cache=True)
def links(h, k, near, far, same_rank, same_kind):
    """Weighted links of natural kind k to the cards counted in ``h`` (k's own copy not
    counted): ``near`` per same-suit card one position away, ``far`` two away (the ace at
    both ends), ``same_rank`` per other suit holding its rank, ``same_kind`` if h holds k."""
    s = k // N_RANKS
    r = k % N_RANKS
    t = 0.0
    for p in (r + 1, 0 if r == N_RANKS - 1 else -9):
        if p < 0:
            continue
        if held_at(h, s, p - 1) > 0:
            t += near
        if held_at(h, s, p + 1) > 0:
            t += near
        if held_at(h, s, p - 2) > 0:
            t += far
        if held_at(h, s, p + 2) > 0:
            t += far
    for u in range(4):
        if u != s and h[u * N_RANKS + r] > 0:
            t += same_rank
    if h[k] > 0:
        t += same_kind
    return t


@njit(cache=True)
def keep_value(h, k, wild, mjr, tir, pure_keep, long_keep, run_keep, set_keep):
    """keep(k) of the module docstring for the 14-card hand ``h`` (changed and restored)."""
    if is_joker(k, wild):
        return 0.0
    v = 0.0
    if pure_keep != 0.0 or long_keep != 0.0:
        pure = has_pure_run(h, tir)
        seed = has_long_run_seed(h, wild, mjr)
        h[k] -= 1
        if pure and not has_pure_run(h, tir):
            v += pure_keep
        if seed and not has_long_run_seed(h, wild, mjr):
            v += long_keep
        h[k] += 1
    if h[k] == 1 and (run_keep != 0.0 or set_keep != 0.0):
        h[k] -= 1
        v += links(h, k, run_keep, 0.5 * run_keep, set_keep, 0.0)
        h[k] += 1
    return v


@njit(cache=True)
def next_seat_in_play(obs):
    """The next seat after this one that is still in the deal (itself if none)."""
    seat = obs[O_SEAT]
    players = obs[O_PLAYERS]
    s = seat
    for _ in range(players - 1):
        s = (s + 1) % players
        if obs[O_STATUS + s] == ST_IN:
            return s
    return seat


@njit(cache=True)
def seat_history(obs, nx, known, gone):
    """Fill ``known`` (the naturals seat ``nx`` is publicly known to hold: taken from the pile
    and not discarded since) and ``gone`` (the naturals it discarded), int64[N_KINDS] each."""
    pk = O_PICKED + nx * N_KINDS
    dk = O_DISCARDED + nx * N_KINDS
    for x in range(JOKER):
        known[x] = max(obs[pk + x] - obs[dk + x], 0)
        gone[x] = obs[dk + x]
    known[JOKER] = 0
    gone[JOKER] = 0


@njit(cache=True)
def want_and_safe_of(known, gone, k, wild):
    """(want(k), safe(k)) of the module docstring from seat_history's ``known`` and ``gone``."""
    if is_joker(k, wild):
        return 2.0, 0.0
    want = links(known, k, 1.0, 0.5, 1.0, 0.5)
    safe = links(gone, k, 0.5, 0.0, 1.0, 1.0)
    return want, safe


@njit(cache=True)
def is_close(obs, close_pickups, close_turn, done):
    """``close`` of the module docstring; ``done`` = this seat's completed turns."""
    if close_turn > 0 and done >= close_turn:
        return True
    if close_pickups > 0:
        seat = obs[O_SEAT]
        for s in range(obs[O_PLAYERS]):
            if s != seat and obs[O_STATUS + s] == ST_IN and obs[O_PICKUPS + s] >= close_pickups:
                return True
    return False


@njit(cache=True)
def turns_done(obs):
    """This seat's completed turns (its discards so far)."""
    b = O_DISCARDED + obs[O_SEAT] * N_KINDS
    done = 0
    for k in range(N_KINDS):
        done += obs[b + k]
    return done


# explicit signatures: the strategies pass literal flags and weights, and a lazy kernel
# compiled a copy per combination (three of plan_discard, seconds of cold compile each)
PLAN_DISCARD_SIG = types.int64(
    types.int64[::1], types.int64[:, ::1], types.int64, types.boolean, types.float64, types.float64, types.float64,
    types.float64, types.float64, types.float64, types.float64, types.boolean,
)
PLAN_DRAW_SIG = types.int64(
    types.int64[::1], types.int64[:, ::1], types.int64, types.boolean, types.boolean, types.float64, types.boolean,
)


@njit(PLAN_DISCARD_SIG, cache=True)
def plan_discard(obs, moves, n, keep_jokers, pure_keep, long_keep, run_keep, set_keep,
                 feed_weight, safe_weight, shed_weight, close):
    """Index of the chosen discard or declaration row (see the module docstring)."""
    wild = obs[O_WILD_RANK]
    mjr = obs[O_RULES + R_MAX_J_RUN]
    mjs = obs[O_RULES + R_MAX_J_SET]
    tir = obs[O_RULES + R_TRIPLE_IS_RUN]
    h = hand_view(obs)
    loose = stack_int64(N_KINDS)
    src = stack_int64(WS_SIZE)
    at = memo_at(obs)
    m = solved_14(obs, at, h, wild, mjr, mjs, tir, loose, src)
    decl = -1
    if m <= 10:
        # some discard may leave 0 deadwood: a valid declaration wins the deal (I5, I6)
        decl = declaring_kind(h, m, loose, wild, mjr, mjs, tir)
    if at >= 0:
        # discarding k leaves at least m - value(k) > 0 when m > 10: no discard declares
        obs[at + M_DECLARES] = 1 if decl >= 0 else 0
    if decl >= 0:
        i = row_of(moves, n, MV_DECLARE, decl)
        if i >= 0:
            if at >= 0:  # the 13 declared: deadwood 0 (what the deal's scoring asks, memo_nb)
                remember_kept(obs, at, h, decl, 0, -1)
            return i
    only_jokers = True
    for k in range(N_KINDS):
        if h[k] > 0 and not is_joker(k, wild):
            only_jokers = False
    nx = next_seat_in_play(obs)
    defend = (feed_weight != 0.0 or safe_weight != 0.0) and nx != obs[O_SEAT]
    extra = stack_float64(N_KINDS)
    extra[:] = 0.0
    # seat nx's public history once a decision (not once per kind held)
    known = stack_int64(N_KINDS)
    gone = stack_int64(N_KINDS)
    if defend:
        seat_history(obs, nx, known, gone)
    for k in range(N_KINDS):
        if h[k] == 0:
            continue
        v = card_value(k, wild)
        e = keep_value(h, k, wild, mjr, tir, pure_keep, long_keep, run_keep, set_keep)
        if defend:
            want, safe = want_and_safe_of(known, gone, k, wild)
            e += feed_weight * want - safe_weight * safe
        if close:
            e -= shed_weight * v
        extra[k] = e
    best_k = -1
    best_c = 0.0
    best_v = -1
    best_d = 0
    # loose kinds first (their deadwood is known), then the others searched only below
    # what would beat the best so far
    for phase in range(2):
        for k in range(N_KINDS - 1, -1, -1):
            if h[k] == 0 or (loose[k] != 0) != (phase == 0):
                continue
            if keep_jokers and not only_jokers and is_joker(k, wild):
                continue
            v = card_value(k, wild)
            lb = m - v
            if loose[k]:
                d = lb
                c = lb + extra[k]
            else:
                if best_k >= 0:
                    # d must satisfy d + extra < best_c (or equal with a better tie-break)
                    lim = best_c - extra[k]
                    ub = np.int64(np.floor(lim)) + 1
                    if ub <= lb:
                        continue
                else:
                    ub = BIG
                # over the 14 cards' candidate groups, made once for every kind searched
                d = deadwood_below_less(src, h, k, wild, mjr, mjs, tir, ub, lb)
                c = d + extra[k]
            if best_k < 0 or c < best_c or (c == best_c and (v > best_v or (v == best_v and k > best_k))):
                best_k = k
                best_c = c
                best_v = v
                best_d = d  # exact: below its bound ub whenever it wins
    if at >= 0 and best_k >= 0:
        remember_kept(obs, at, h, best_k, best_d, kept_loose(h, best_k, loose, wild))
    i = row_of(moves, n, MV_DISCARD, best_k)
    return i if i >= 0 else 0


@njit(cache=True)
def makes_meld(h, t, tir):
    """True when top card ``t`` (a natural, not held) makes a pure run of three or a set
    of three with two cards held, or (three decks) the identical triple (I4)."""
    s = t // N_RANKS
    r = t % N_RANKS
    if tir == 1 and h[t] == 2:
        return True
    if h[t] > 0:
        return False
    for p in (r + 1, 0 if r == N_RANKS - 1 else -9):
        if p < 0:
            continue
        a2 = held_at(h, s, p - 2) > 0
        a1 = held_at(h, s, p - 1) > 0
        b1 = held_at(h, s, p + 1) > 0
        b2 = held_at(h, s, p + 2) > 0
        if (a2 and a1) or (a1 and b1) or (b1 and b2):
            return True
    others = 0
    for u in range(4):
        if u != s and h[u * N_RANKS + r] > 0:
            others += 1
    return others >= 2


@njit(PLAN_DRAW_SIG, cache=True)
def plan_draw(obs, moves, n, take_jokers, take_meld, connector_max, take_lowers):
    """Index of the chosen draw row: the top discard when it is a joker (``take_jokers``),
    makes a meld with two held cards (``take_meld``), or is a same-suit neighbour of a held
    card worth at most ``connector_max`` points (a strong connector; 0 never), or, with
    ``take_lowers``, whenever greedy would take it (it lowers the best deadwood); else the
    stock."""
    i_stock = row_of_kind(moves, n, MV_STOCK)
    i_pile = row_of_kind(moves, n, MV_PILE)
    if i_pile < 0:
        return i_stock if i_stock >= 0 else n - 1
    if i_stock < 0:
        return i_pile
    t = obs[O_TOP]
    wild = obs[O_WILD_RANK]
    h = hand_view(obs)
    if is_joker(t, wild):
        if take_jokers:
            return i_pile
    else:
        if take_meld and makes_meld(h, t, obs[O_RULES + R_TRIPLE_IS_RUN]):
            return i_pile
        if connector_max > 0 and h[t] == 0 and card_value(t, wild) <= connector_max:
            if links(h, t, 1.0, 0.0, 0.0, 0.0) > 0:
                return i_pile
    if take_lowers:
        return greedy_draw(obs, moves, n)
    return i_stock
