"""Calls the strategy that sits in a seat, from inside the compiled engine.

Built-ins are chosen by integer id in a branch (inlined, cache-friendly); a user
strategy (id USER) is called through the seat's first-class function slot, whose
type is fixed by strategies.interface.STRATEGY_SIG so the engine compiles once.
"""

from numba import njit

from strategies.interface import SID_USER  # noqa: F401  (user strategies: the function slot)

from strategies.persian.deep_taker_nb import deep_taker_decide
from strategies.persian.defensive_nb import defensive_decide
from strategies.persian.expert_nb import expert_decide
from strategies.persian.greedy_nb import greedy_decide
from strategies.persian.mc_search_nb import mc_search_decide
from strategies.persian.quad_holder_nb import quad_holder_decide
from strategies.persian.random_nb import random_decide

SID_RANDOM = 0
SID_GREEDY = 1
SID_DEEP_TAKER = 2
SID_QUAD_HOLDER = 3
SID_DEFENSIVE = 4
SID_EXPERT = 5
SID_MC_SEARCH = 6


@njit(cache=True)
def call_strategy(sid, user_fn, decision, obs, moves, n, params, rng):
    """Index of the move chosen by strategy ``sid`` (or ``user_fn``) among ``n``.

    Parameters
    ----------
    sid : the seat's strategy id (SID_*, or SID_USER for ``user_fn``)
    user_fn : the seat's user strategy function (strategies.interface.STRATEGY_SIG)
    decision : D_* code of the decision (draw, play or discard)
    obs : int64[OBS_SIZE], the seat's observation (O_* slots, P10)
    moves, n : the legal move rows; rows 0..n-1 are the ``n`` legal moves
    params : float64 parameter row (P_* slots)
    rng : uint64[1], the seat's random stream
    """
    if sid == SID_GREEDY:
        return greedy_decide(decision, obs, moves, n, params, rng)
    if sid == SID_EXPERT:
        return expert_decide(decision, obs, moves, n, params, rng)
    if sid == SID_DEEP_TAKER:
        return deep_taker_decide(decision, obs, moves, n, params, rng)
    if sid == SID_QUAD_HOLDER:
        return quad_holder_decide(decision, obs, moves, n, params, rng)
    if sid == SID_DEFENSIVE:
        return defensive_decide(decision, obs, moves, n, params, rng)
    if sid == SID_MC_SEARCH:
        return mc_search_decide(decision, obs, moves, n, params, rng)
    if sid == SID_RANDOM:
        return random_decide(decision, obs, moves, n, params, rng)
    return user_fn(decision, obs, moves, n, params, rng)
