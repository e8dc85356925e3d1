"""Indian `learned`: plays the legal move a linear model scores best (issue 25, expert iteration).

Each draw (I3 stock or pile top, I7 drop) and each discard (I3) gets ``weights[decision] .
features`` (strategies/indian/features_nb.py: what the move leaves the seat with, from what it
may see, I9); the highest score is played, the lowest index on a tie. A declaration (I5) is
forced: when expert declares (it takes every valid declaration, which wins the deal) so does
learned, and it never declares otherwise (a declare row is never scored). Feature 0 marks
expert's own move, so the model is expert plus learned corrections; a kind whose row is
feature 0 alone plays expert's move without computing features.

The weights are plain float64 numbers in strategies/indian/learned_weights.py, made by
``rummy-sim train learned --game indian`` (strategies/indian/train.py). ``cache=True`` does not
notice new weights in the imported module (/work/shared/NUMBA-NOTES.md): clear NUMBA_CACHE_DIR
after changing them, and change this file in the same commit (its stamp is what the cache
checks; weights of 2026-12-04, round 1 of seed 25). Training plays candidate weights through
``train.make_learned(weights)``, a kernel compiled for the given numbers (at any table size).
The built-in plays expert's own moves at tables of fewer than MIN_PLAYERS (3) seats: the committed
model, fitted at 4, lost to expert heads-up.
"""

import numpy as np
from numba import njit, types

from sim.games.indian.enums import MAX_MOVES, MV_DECLARE, O_PLAYERS
from sim.plugin.strategy import STRATEGY_SIG
from strategies.indian.builtins import EXPERT
from strategies.indian.expert_nb import expert_decide
from strategies.indian.features_nb import N_FEATURES, features_into
from strategies.indian.learned_weights import WEIGHTS

N_KINDS = 2  # draw, discard (the D_* codes)
EXPERT_PARAMS = np.array([p.default for p in EXPERT.params], dtype=np.float64)
LEARNED_WEIGHTS = np.array(WEIGHTS, dtype=np.float64).reshape(N_KINDS, N_FEATURES)
EXPERT_WEIGHTS = np.array([[1.0] + [0.0] * (N_FEATURES - 1)] * N_KINDS)  # every kind: expert's own move
# the committed model was fitted at 4 players; heads-up it lost to expert (-1.82 [-2.95, -0.69] per
# deal, 4,000 deal sets, seed 20261207) while it gained at 3 to 6, so at fewer seats it plays expert
MIN_PLAYERS = 3

# one explicit signature (the weights and expert's parameters are module or closure constants, so
# read-only): a lazy kernel would compile a copy per array kind, each linking the solver
BEST_SIG = types.int64(types.int64, types.int64[::1], types.int64[:, ::1], types.int64,
                       types.Array(types.float64, 2, "C", readonly=True),
                       types.Array(types.float64, 1, "C", readonly=True), types.uint64[::1])


@njit(BEST_SIG, cache=True)
def best_scored(decision, obs, moves, n, weights, expert_params, rng):
    """Index of the move of highest ``weights[decision] . features`` (lowest index on a tie);
    expert's move when it declares or when the kind's row is feature 0 alone."""
    ep = np.empty(expert_params.shape[0], np.float64)  # expert_decide takes a writable row
    ep[:] = expert_params
    chosen = expert_decide(decision, obs, moves, n, ep, rng)
    if moves[chosen, 0] == MV_DECLARE:
        return chosen  # I5: a valid declaration wins the deal; forced
    if weights[decision, 0] > 0 and not weights[decision, 1:].any():
        return chosen  # a kind left to expert: only its own move scores above 0 (no features needed)
    f = np.empty((MAX_MOVES, N_FEATURES), np.float64)
    features_into(decision, obs, moves, n, chosen, f)
    best = chosen
    best_s = -np.inf
    for i in range(n):
        if moves[i, 0] == MV_DECLARE:
            continue  # never a declaration expert does not make (a wrong one costs 80, I5)
        s = 0.0
        for k in range(N_FEATURES):
            s += weights[decision, k] * f[i, k]
        if s > best_s:
            best_s = s
            best = i
    return best


@njit(STRATEGY_SIG, cache=True)
def learned_decide(decision, obs, moves, n, params, rng):
    """The strategy's choice among the ``n`` legal moves (sim.plugin.strategy.STRATEGY_SIG): the
    committed model at tables of MIN_PLAYERS or more, expert's move at smaller ones."""
    w = LEARNED_WEIGHTS if obs[O_PLAYERS] >= MIN_PLAYERS else EXPERT_WEIGHTS
    return best_scored(decision, obs, moves, n, w, EXPERT_PARAMS, rng)
