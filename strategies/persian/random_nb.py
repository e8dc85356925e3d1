"""`random`: uniform over the legal choices at every decision (a baseline)."""

from numba import njit

from sim.core.rng_nb import rand_below


@njit(cache=True, _nrt=False)
def random_decide(decision, obs, moves, n, params, rng):
    """Pick one of the ``n`` legal moves uniformly with the seat's own stream.

    Parameters
    ----------
    decision : D_* code of the decision (draw, play or discard)
    obs : int64[OBS_SIZE], the seat's observation (O_* slots, P10)
    moves, n : the legal move rows; rows 0..n-1 are the ``n`` legal moves
    params : float64 parameter row (P_* slots)
    rng : uint64[1], the seat's random stream

    Returns the index of the chosen move row.
    """
    return rand_below(rng, n)
