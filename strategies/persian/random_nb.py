"""`random`: uniform over the legal choices at every decision (a baseline)."""

from numba import njit

from sim.core.rng_nb import rand_below


@njit(cache=True, _nrt=False)
def random_decide(decision, obs, moves, n, params, rng):
    """Pick one of the ``n`` legal moves uniformly with the seat's own stream.

    Arguments and result: sim.plugin.strategy.STRATEGY_SIG (P10's observation slots).
    """
    return rand_below(rng, n)
