"""`learned`: plays the legal move a linear model scores best (issue 25, expert iteration).

Each move gets ``weights[decision] . move_features(...)`` (strategies/persian/features_nb.py: what
the move leaves the seat with, from what it may see, P10); the highest score is played, the
lowest index on a tie. Feature 0 marks expert's own choice, so the model is expert plus learned
corrections; a kind whose row is feature 0 alone plays expert's move without computing features.
The weights are plain float64 numbers in strategies/persian/learned_weights.py, made by
``rummy-sim train learned`` (strategies/persian/train.py); the command that made them is in that file.

``cache=True`` does not notice new weights in the imported module (/work/shared/NUMBA-NOTES.md):
clear NUMBA_CACHE_DIR after changing them, and change this file in the same commit (its stamp is
what the cache checks; weights of 2026-12-03, draw margin 1.5). Training plays candidate weights through
``make_learned(weights)``, a kernel compiled for the given numbers.
"""

import numpy as np
from numba import njit

from strategies.persian.builtins import BUILTINS
from strategies.persian.expert_nb import expert_decide
from strategies.persian.features_nb import N_FEATURES, move_features
from strategies.persian.learned_weights import WEIGHTS

EXPERT_PARAMS = np.array([p.default for p in next(b for b in BUILTINS if b.name == "expert").params],
                         dtype=np.float64)
LEARNED_WEIGHTS = np.array(WEIGHTS, dtype=np.float64).reshape(3, N_FEATURES)


@njit(cache=True, _nrt=False)
def best_scored(decision, obs, moves, n, weights, expert_params, rng):
    """Index of the move of highest ``weights[decision] . features`` (lowest index on a tie)."""
    chosen = expert_decide(decision, obs, moves, n, expert_params, rng)
    if weights[decision, 0] > 0 and not weights[decision, 1:].any():
        return chosen  # a kind left to expert: only its own move scores above 0 (no features needed)
    best = 0
    best_s = -np.inf
    for i in range(n):
        f = move_features(decision, obs, moves, i, chosen)
        s = 0.0
        for k in range(N_FEATURES):
            s += weights[decision, k] * f[k]
        if s > best_s:
            best_s = s
            best = i
    return best


@njit(cache=True, _nrt=False)
def learned_decide(decision, obs, moves, n, params, rng):
    """The strategy's choice among the ``n`` legal moves (sim.plugin.strategy.STRATEGY_SIG)."""
    return best_scored(decision, obs, moves, n, LEARNED_WEIGHTS, EXPERT_PARAMS, rng)
