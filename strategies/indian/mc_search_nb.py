"""Indian `mc_search`: determinized Monte Carlo search over sampled hidden worlds.

At each decision it receives only its observation (I9), never the true state:

1. The base strategy first: it asks greedy (``base=greedy``), expert with its default
   parameters (``base=expert``) or the built-in learned (``base=learned``: its committed
   weights, expert's own moves at tables under learned_nb.MIN_PLAYERS) for its move. When that move is a valid declaration
   (I5) it is played at once: a valid declaration ends the deal with the seat as the
   winner, which no other move can better. A drop (I7) by the base (expert's drop
   rules) is played at once too: play-outs scored by deadwood one turn ahead cannot
   weigh a drop fairly (see ``consider_drop``).
2. Candidates (``choose_candidates``): the base's move first, then
   - at a draw decision: the other draw (stock or the pile's top card), and the drop
     (I7) only with ``consider_drop``;
   - at a discard decision: the other discards, by a cheap prior: the play-out
     policy's keep score, lowest first (ties: higher value, then higher kind;
     strategies/indian/rollout_nb.py). Declaration rows are never candidates (greedy
     already declared when it validly could; a wrong declaration costs the most a
     deal can cost, I5).
   ``max_candidates`` > 0 keeps only that many (greedy's move always); this prior is
   the only pruning, and only there. ``max_candidates=1`` plays exactly as the base.
3. Worlds: ``worlds`` times, the hidden cards are dealt at random consistently with
   what the seat sees (sim/games/indian/determinize_nb.py: own hand, pile, every
   pickup, the cut joker, hand sizes, drops).
4. Every candidate is applied on a copy of the *same* world, and the deal is played
   on by the fast play-out policy in every seat (rollout_nb.play_out) with the *same*
   play-out random stream (common random numbers: the comparison is paired). After a
   draw candidate the seat's own discard in that world is greedy's (exact, from the
   drawn card; it declares if it validly can). A drop candidate scores its points
   (-first_drop or -middle_drop, I7) in every world. Play-outs stop at the end of
   the seat's ``horizon``-th turn of the play-out (every other seat has then played
   ``horizon`` times too) and are scored by the seat's capped solver deadwood
   (rollout_nb.play_out; 0: play to the end of the deal).
5. The candidate with the best mean score over the worlds wins (ties: the earlier
   candidate, so the base's move); the base's move is credited ``margin`` points first, so
   another candidate replaces it only when its mean is higher by more than ``margin``
   (play-outs by a fast policy one turn ahead are noisy and biased judges of a tuned
   base's move: the margin keeps the base's move unless the evidence is clear).

Randomness: only the seat's own stream ``rng`` (worlds, then one play-out seed per
world), so a decision is a function of (observation, rng state) and deals are the same
on any number of threads. A decision allocates its buffers once (``score_table``); play-
outs allocate nothing of their own.
"""

import numpy as np
from numba import njit, types

from sim.games.indian.enums import (
    D_DRAW,
    MAX_SEATS,
    MAX_SHOE,
    MV_DECLARE,
    MV_DISCARD,
    MV_DROP,
    MV_PILE,
    MV_STOCK,
    N_KINDS,
    O_DECISION,
    O_HAND,
    O_HAS_DRAWN,
    O_RULES,
    O_SEAT,
    O_WILD_RANK,
    R_FIRST_DROP,
    R_MIDDLE_DROP,
    R_MAX_J_RUN,
    R_MAX_J_SET,
    R_TRIPLE_IS_RUN,
    ST_SIZE,
)
from sim.games.indian.solver_nb import BIG
from sim.games.indian.cards_nb import card_value
from sim.games.indian.state_nb import discard, draw_pile, draw_stock, hand_of, next_turn
from sim.core.rng_nb import next_u64
from sim.games.indian.determinize_nb import determinize_into
from strategies.indian.expert_nb import expert_decide
from strategies.indian.greedy_nb import best_discard, greedy_decide
from strategies.indian.learned_nb import learned_decide
from strategies.indian.rollout_nb import keep_score, play_out
from sim.plugin.strategy import STRATEGY_SIG

# parameter slots, in the order declared in strategies/indian/builtins.py
P_WORLDS = 0
P_HORIZON = 1
P_MAX_CANDIDATES = 2
P_CONSIDER_DROP = 3
P_BASE = 4
P_MARGIN = 5

BASE_GREEDY = 0
BASE_EXPERT = 1
BASE_LEARNED = 2
# base=expert plays expert with these parameters: its tuned defaults (strategies/indian/builtins.py
# EXPERT, in its slot order) as of issue 10's ladder work, a fixed snapshot so that a later retuning of
# expert does not silently change mc_search (a test checks that it equals expert's defaults; change
# both together)
EXPERT_PARAMS = np.array([133.0, 0.0, 1.0, 115.0, 19.0, 0.0, 60.0, 0.0, 0.0, 15.0, 8.0, 10.0, 4.0, 2.0, 0.0, 0.5,
                          2.0, 2.0])


@njit(cache=True)
def choose_candidates(decision, obs, moves, n, first, max_cand, consider_drop, cand):
    """Write the candidate move rows into ``cand`` (``first``, greedy's, leads); returns
    how many (module docstring, 2)."""
    cand[0] = first
    nc = 1
    limit = n if max_cand <= 0 else max_cand
    if decision == D_DRAW:
        for i in range(n):
            if nc >= limit:
                break
            kind = moves[i, 0]
            if i == first or (kind == MV_DROP and not consider_drop):
                continue
            cand[nc] = i
            nc += 1
        return nc
    h = obs[O_HAND : O_HAND + N_KINDS]
    wild = obs[O_WILD_RANK]
    tir = obs[O_RULES + R_TRIPLE_IS_RUN]
    while nc < limit:
        best = -1
        best_s = BIG
        best_v = -1
        for i in range(n):
            if moves[i, 0] != MV_DISCARD:
                continue
            done = False
            for c in range(nc):
                if cand[c] == i:
                    done = True
                    break
            if done:
                continue
            k = moves[i, 1]
            sc = keep_score(h, k, wild, tir)
            v = card_value(k, wild)
            if sc < best_s or (sc == best_s and (v > best_v or (v == best_v and k > moves[best, 1]))):
                best = i
                best_s = sc
                best_v = v
        if best < 0:
            break
        cand[nc] = best
        nc += 1
    return nc


SCORE_TABLE_SIG = types.void(
    types.int64,  # decision
    types.int64[::1],  # obs
    types.int64[:, ::1],  # moves
    types.int64[::1],  # candidate rows
    types.int64,  # how many candidates
    types.int64,  # horizon: the seat's own play-out turns (0: to the end)
    types.uint64[::1],  # rng (advanced)
    types.float64[:, ::1],  # table[worlds, candidates], written
)


@njit(SCORE_TABLE_SIG, cache=True)
def score_table(decision, obs, moves, cand, nc, horizon, rng, table):
    """``table[w, c]``: the seat's play-out score of candidate ``cand[c]`` in sampled world
    w, for ``table.shape[0]`` worlds drawn from ``rng``. Every candidate starts from a copy
    of the same world with the same play-out seed (common random numbers). A draw
    candidate is followed by greedy's discard; a drop scores its points (I7).

    The candidates are applied here rather than in a helper: every compiled function
    that links the play-out re-optimizes the solver inside it (cold compile)."""
    world = np.empty(ST_SIZE, np.int64)
    sim = np.empty(ST_SIZE, np.int64)
    known = np.empty(MAX_SEATS * N_KINDS, np.int64)
    avail = np.empty(N_KINDS, np.int64)
    pool = np.empty(MAX_SHOE, np.int64)
    buf = np.empty(MAX_SHOE, np.int64)
    free = np.empty(N_KINDS, np.int64)
    rr = np.empty(1, np.uint64)
    # greedy's discard after a draw candidate depends only on the kind drawn (the seat's own
    # hand is the same in every world): solved once per kind, -2 until then
    after_k = np.empty(N_KINDS, np.int64)
    after_decl = np.empty(N_KINDS, np.int64)
    after_k[:] = -2
    me = obs[O_SEAT]
    wild = obs[O_WILD_RANK]
    mjr = obs[O_RULES + R_MAX_J_RUN]
    mjs = obs[O_RULES + R_MAX_J_SET]
    tir = obs[O_RULES + R_TRIPLE_IS_RUN]
    drop_points = obs[O_RULES + (R_FIRST_DROP if obs[O_HAS_DRAWN + me] == 0 else R_MIDDLE_DROP)]
    for w in range(table.shape[0]):
        determinize_into(obs, rng, world, known, avail, pool)
        world[O_DECISION] = decision
        rseed = next_u64(rng)
        for c in range(nc):
            kind = moves[cand[c], 0]
            if kind == MV_DROP:  # I7: the drop's points, whatever the world
                table[w, c] = -float(drop_points)
                continue
            sim[:] = world
            rr[0] = rseed
            if kind == MV_STOCK or kind == MV_PILE:
                if kind == MV_STOCK:
                    draw_stock(sim)
                else:
                    draw_pile(sim)
                h = hand_of(sim, me)
                got = 0
                for q in range(N_KINDS):
                    if h[q] > obs[O_HAND + q]:
                        got = q
                if after_k[got] == -2:
                    k, _, decl = best_discard(h, wild, mjr, mjs, tir, True)
                    after_k[got] = k
                    after_decl[got] = decl
                # greedy's discard first
                table[w, c] = play_out(sim, me, horizon, rr, buf, free, 1, after_k[got], after_decl[got])
            else:
                discard(sim, moves[cand[c], 1])
                next_turn(sim)
                table[w, c] = play_out(sim, me, horizon, rr, buf, free, 0, -1, -1)


@njit(STRATEGY_SIG, cache=True)
def mc_search_decide(decision, obs, moves, n, params, rng):
    """Index of the candidate with the best mean play-out score over sampled worlds.

    Parameters: ``params[P_WORLDS]`` worlds per decision, ``params[P_HORIZON]``
    the seat's own play-out turns (0: to the end), ``params[P_MAX_CANDIDATES]`` (0: every legal
    discard / draw), ``params[P_CONSIDER_DROP]`` (1: the drop is a candidate), ``params[P_BASE]``
    (BASE_GREEDY, BASE_EXPERT or BASE_LEARNED: whose move leads), ``params[P_MARGIN]`` (points
    credited to the base's move)."""
    base = np.int64(params[P_BASE])
    if base == BASE_EXPERT:
        eparams = np.empty(EXPERT_PARAMS.shape[0], np.float64)
        eparams[:] = EXPERT_PARAMS
        first = expert_decide(decision, obs, moves, n, eparams, rng)
    elif base == BASE_LEARNED:
        first = learned_decide(decision, obs, moves, n, params, rng)
    else:
        first = greedy_decide(decision, obs, moves, n, params, rng)
    if n <= 1 or moves[first, 0] == MV_DECLARE or moves[first, 0] == MV_DROP:
        return first
    worlds = max(1, np.int64(params[P_WORLDS]))
    cand = np.empty(n, np.int64)
    nc = choose_candidates(decision, obs, moves, n, first, np.int64(params[P_MAX_CANDIDATES]),
                           params[P_CONSIDER_DROP] != 0.0, cand)
    if nc == 1:
        return first
    table = np.empty((worlds, nc), np.float64)
    score_table(decision, obs, moves, cand, nc, np.int64(params[P_HORIZON]), rng, table)
    best = 0
    best_s = -np.inf
    for c in range(nc):
        s = params[P_MARGIN] * worlds if c == 0 else 0.0  # the base's move first (module docstring, 5)
        for w in range(worlds):
            s += table[w, c]
        if s > best_s:
            best_s = s
            best = c
    return cand[best]
