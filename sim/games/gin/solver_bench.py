"""Speed of the Gin Rummy deadwood solvers (issue 26): hands solved per second on one core.

``solver_hands_per_second(n_hands, size, seed)`` deals ``n_hands`` random hands of ``size``
cards (10: ``deadwood10``, the exact smallest deadwood; 11: ``best10_deadwood``, the exact
best 10 of 11, and ``os_deadwood``, OpenSpiel's figure the engine knocks by) and times the
solver over all of them in one compiled loop on one thread, after a warm-up pass.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from sim.games.gin.melds_nb import MAX_HAND_MELDS, MELD_SCRATCH, best10_deadwood, deadwood10, os_deadwood

SOLVERS = ("deadwood10", "best10", "openspiel11")


def random_hands(n_hands: int, size: int, seed: int = 1) -> np.ndarray:
    """int64 bitmasks of ``n_hands`` random hands of ``size`` cards."""
    rng = np.random.default_rng(seed)
    keys = rng.random((n_hands, 52))
    idx = np.argpartition(keys, size, axis=1)[:, :size]
    return (np.int64(1) << idx.astype(np.int64)).sum(axis=1).astype(np.int64)


@njit(cache=True)
def _solve_all(hands, which):
    ids = np.empty(MAX_HAND_MELDS, np.int64)
    sel = np.empty(16, np.int64)
    stack = np.empty(MELD_SCRATCH, np.int64)
    s = 0
    for i in range(hands.shape[0]):
        if which == 0:
            s += deadwood10(hands[i], ids, stack)
        elif which == 1:
            s += best10_deadwood(hands[i], ids, stack)
        else:
            s += os_deadwood(hands[i], ids, sel, stack)
    return s


def solver_hands_per_second(n_hands: int = 1_000_000, solver: str = "best10", seed: int = 1) -> float:
    """Hands per second of ``solver`` (one of SOLVERS) on random hands, one thread."""
    which = SOLVERS.index(solver)
    hands = random_hands(n_hands, 10 if which == 0 else 11, seed)
    _solve_all(hands[:2000], which)  # warm-up: compile or load, caches
    t0 = time.process_time()
    _solve_all(hands, which)
    return n_hands / (time.process_time() - t0)


if __name__ == "__main__":  # pragma: no cover
    for name in SOLVERS:
        print(f"{name}: {solver_hands_per_second(solver=name):,.0f} hands/s")
