"""`random`: uniform over the legal choices at every decision (a baseline)."""

from numba import njit

from sim.rng_nb import rand_below


@njit(cache=True)
def random_decide(decision, obs, moves, n, params, rng):
    """Pick one of the ``n`` legal moves uniformly with the seat's own stream."""
    return rand_below(rng, n)
