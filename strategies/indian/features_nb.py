"""Features of (position, legal move) for Indian Rummy's `learned` strategy (a compiled kernel).

``features_into(decision, obs, moves, n, chosen, out)`` writes N_FEATURES floats per legal move
(row ``i`` of ``out`` for move ``i``) describing what the move leaves the deciding seat with,
from what that seat may see (I9). A move-scoring model compares the moves of one decision
only, so every feature depends on the move; the position enters through products (the
deadwood times the seat's own turns, times the opponents' pickups) and through one weight
row per decision kind (draw, discard).

The 13 cards kept (``kept``): a stock draw (I3) keeps the hand as it is (the card drawn is
unknown); a take of the pile's top (I3) keeps the best 13 of the 14 (greedy_nb.best_discard:
least deadwood, ties the higher value then the higher kind); a discard (I3) keeps the 14
minus the card; a drop (I7) keeps nothing (every hand feature 0). Deadwood is the exact I6
minimum (solver_nb) capped at the rules' max_points (80: I6 never charges a loser more, and the
cap lets the solver stop early on a hand far from any arrangement); card values are I6's
(cards_nb.card_value).

  0 F_EXPERT      1 when ``i`` is ``chosen`` (expert's move: the model learns corrections to it)
  1 F_DEAD        deadwood of ``kept`` (at most max_points), / 100
  2 F_DEAD_TURN   F_DEAD times the seat's completed turns / 10 (late, deadwood costs more)
  3 F_DEAD_PICK   F_DEAD times the most pile pickups of an opponent in play / 4 (I9: a
                  collecting opponent may declare soon)
  4 F_PURE        ``kept`` holds a pure run of three (I5 needs one; state_nb.has_pure_run)
  5 F_SEED        ``kept`` holds a seed of the I5 run of four (state_nb.has_long_run_seed)
  6 F_JOKERS      jokers (printed or wild, I2) in ``kept``
  7 F_PILE        the move takes the pile's top (shows the table a card the seat wants, I9)
  8 F_CARD_VAL    the card taken (pile) or discarded: its I6 value / 10
  9 F_DROP        the move is the drop (I7)
 10 F_DROP_MID    the drop is a middle drop (the seat has drawn: 40 points, not 20)
 11 F_DROP_TURN   F_DROP times the seat's completed turns / 10
 12 F_DROP_PICK   F_DROP times the most pile pickups of an opponent in play / 4
 13 F_DROP_SEATS  F_DROP times the seats still in the deal / 6 (more losers' tables)
 14 F_FEED        a discard's links to the cards the next seat in play took from the pile and
                  still holds (plan_nb.want_and_safe_of: same rank, same suit near; a joker 2)
 15 F_SAFE        a discard's links to what that seat discarded (it let those go)
 16 F_RUN_LINKS   the card's same-suit neighbours in the rest of the hand (1 one rank away,
                  1/2 two away): a discard breaks them, a take builds on them
 17 F_SET_LINKS   the card's rank held in other suits in the rest of the hand
 18 F_STOCK_LOW   F_DEAD times (1 - stock size / 60): the stock running out (I8) is late too

A declare row (I5) has every feature 0: the strategy declares exactly when expert does (a
valid declaration wins the deal; expert takes every one) and never otherwise, so its rows are
never scored. tests/indian/feature_ref.py computes the same features in plain Python;
tests/indian/test_learned.py checks that they agree on decisions from played deals.
"""

import numpy as np
from numba import njit, types

from sim.games.indian.cards_nb import card_value, is_joker, jokers_in
from sim.games.indian.enums import (
    D_DRAW,
    MV_DISCARD,
    MV_DROP,
    MV_PILE,
    MV_STOCK,
    O_HAS_DRAWN,
    O_IN_PLAY,
    O_PICKUPS,
    O_PLAYERS,
    O_RULES,
    O_SEAT,
    O_STATUS,
    O_STOCK_N,
    O_TOP,
    O_WILD_RANK,
    R_MAX_J_RUN,
    R_MAX_J_SET,
    R_MAX_POINTS,
    R_TRIPLE_IS_RUN,
    ST_IN,
)
from sim.games.indian.solver_nb import deadwood_and_loose, deadwood_below
from sim.games.indian.state_nb import has_long_run_seed, has_pure_run
from strategies.indian.greedy_nb import best_discard, hand_view
from strategies.indian.plan_nb import links, next_seat_in_play, seat_history, turns_done, want_and_safe_of

N_FEATURES = 19
FEATURE_NAMES = (
    "expert", "dead", "dead_turn", "dead_pick", "pure", "seed", "jokers", "pile", "card_val", "drop",
    "drop_mid", "drop_turn", "drop_pick", "drop_seats", "feed", "safe", "run_links", "set_links", "stock_low",
)
STOCK_SCALE = 60.0  # F_STOCK_LOW's full stock (a 4-player three-deck shoe leaves 109 cards; capped at 0)


@njit(cache=True, _nrt=False)
def max_pickups(obs):
    """The most cards an opponent still in the deal has taken from the pile (I9: public)."""
    seat = obs[O_SEAT]
    best = 0
    for s in range(obs[O_PLAYERS]):
        if s != seat and obs[O_STATUS + s] == ST_IN and obs[O_PICKUPS + s] > best:
            best = obs[O_PICKUPS + s]
    return best


@njit(cache=True, _nrt=False)
def hand_row(out, i, h, dead, turn, pick, low, wild, mjr, tir):
    """The hand features (F_DEAD .. F_JOKERS, F_STOCK_LOW) of row ``i`` for the 13 kept cards ``h``
    (``dead``: their deadwood, already capped)."""
    d = dead / 100.0
    out[i, 1] = d
    out[i, 2] = d * turn
    out[i, 3] = d * pick
    out[i, 4] = 1.0 if has_pure_run(h, tir) else 0.0
    out[i, 5] = 1.0 if has_long_run_seed(h, wild, mjr) else 0.0
    out[i, 6] = float(jokers_in(h, wild))
    out[i, 18] = d * low


@njit(cache=True, _nrt=False)
def card_links(out, i, h, k, wild):
    """F_RUN_LINKS and F_SET_LINKS of card ``k`` against the cards ``h`` (0 for a joker)."""
    if is_joker(k, wild):
        return
    out[i, 16] = links(h, k, 1.0, 0.5, 0.0, 0.0)
    out[i, 17] = links(h, k, 0.0, 0.0, 1.0, 0.0)


@njit(cache=True)
def draw_features(obs, moves, n, turn, pick, low, out):
    """Rows of a draw decision (13 cards held): the stock, the pile's top, the drop."""
    wild = obs[O_WILD_RANK]
    mjr = obs[O_RULES + R_MAX_J_RUN]
    mjs = obs[O_RULES + R_MAX_J_SET]
    tir = obs[O_RULES + R_TRIPLE_IS_RUN]
    cap = obs[O_RULES + R_MAX_POINTS]
    h = hand_view(obs)
    for i in range(n):
        kind = moves[i, 0]
        if kind == MV_STOCK:
            d = min(deadwood_below(h, wild, mjr, mjs, tir, cap + 1, 0), cap)
            hand_row(out, i, h, d, turn, pick, low, wild, mjr, tir)
        elif kind == MV_PILE:
            t = obs[O_TOP]
            card_links(out, i, h, t, wild)
            out[i, 7] = 1.0
            out[i, 8] = card_value(t, wild) / 10.0
            h[t] += 1
            k, d, _ = best_discard(h, wild, mjr, mjs, tir, False)
            h[k] -= 1
            hand_row(out, i, h, min(d, cap), turn, pick, low, wild, mjr, tir)
            h[k] += 1
            h[t] -= 1
        elif kind == MV_DROP:
            out[i, 9] = 1.0
            out[i, 10] = 1.0 if obs[O_HAS_DRAWN + obs[O_SEAT]] != 0 else 0.0
            out[i, 11] = turn
            out[i, 12] = pick
            out[i, 13] = obs[O_IN_PLAY] / 6.0


@njit(cache=True)
def discard_features(obs, moves, n, turn, pick, low, out):
    """Rows of a discard decision (14 cards held): each discard; declare rows stay 0."""
    wild = obs[O_WILD_RANK]
    mjr = obs[O_RULES + R_MAX_J_RUN]
    mjs = obs[O_RULES + R_MAX_J_SET]
    tir = obs[O_RULES + R_TRIPLE_IS_RUN]
    cap = obs[O_RULES + R_MAX_POINTS]
    h = hand_view(obs)
    loose = np.empty(h.shape[0], np.int64)
    m = deadwood_and_loose(h, wild, mjr, mjs, tir, loose)
    nx = next_seat_in_play(obs)
    # seat nx's public history once a decision (not once per discard row)
    known = np.empty(h.shape[0], np.int64)
    gone = np.empty(h.shape[0], np.int64)
    if nx != obs[O_SEAT]:
        seat_history(obs, nx, known, gone)
    for i in range(n):
        if moves[i, 0] != MV_DISCARD:
            continue
        k = moves[i, 1]
        v = card_value(k, wild)
        h[k] -= 1
        if loose[k] or m - v >= cap:
            d = m - v  # exact for a loose kind; a lower bound at or above the cap otherwise
        else:
            d = deadwood_below(h, wild, mjr, mjs, tir, cap + 1, m - v)
        hand_row(out, i, h, min(d, cap), turn, pick, low, wild, mjr, tir)
        card_links(out, i, h, k, wild)
        h[k] += 1
        out[i, 8] = v / 10.0
        if nx != obs[O_SEAT]:
            want, safe = want_and_safe_of(known, gone, k, wild)
            out[i, 14] = want
            out[i, 15] = safe


FEATURES_SIG = types.void(types.int64, types.int64[::1], types.int64[:, ::1], types.int64, types.int64,
                          types.float64[:, ::1])


@njit(FEATURES_SIG, cache=True)
def features_into(decision, obs, moves, n, chosen, out):
    """Every legal move's features as the rows of ``out`` (n x N_FEATURES, overwritten); the hand
    slice of ``obs`` is scratch (changed and restored), as in greedy_nb."""
    out[:n] = 0.0
    turn = turns_done(obs) / 10.0
    pick = max_pickups(obs) / 4.0
    low = max(0.0, 1.0 - obs[O_STOCK_N] / STOCK_SCALE)
    if decision == D_DRAW:
        draw_features(obs, moves, n, turn, pick, low, out)
    else:
        discard_features(obs, moves, n, turn, pick, low, out)
    if 0 <= chosen < n:
        out[chosen, 0] = 1.0
