"""Gin `random`: a uniformly chosen legal move at every decision (OpenSpiel's uniform random bot)."""

from numba import njit

from sim.core.rng_nb import rand_below
from sim.plugin.strategy import STRATEGY_SIG


@njit(STRATEGY_SIG, cache=True)
def random_decide(decision, obs, moves, n, params, rng):
    """Index of a uniformly chosen row among the ``n`` legal moves."""
    return rand_below(rng, n)
