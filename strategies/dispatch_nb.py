"""Calls the strategy that sits in a seat, from inside the compiled engine.

Built-ins are chosen by integer id in a branch (inlined, cache-friendly); a user
strategy (id USER) is called through the seat's first-class function slot, whose
type is fixed by strategies.interface.STRATEGY_SIG so the engine compiles once.
"""

from numba import njit

from strategies.greedy_nb import greedy_decide
from strategies.random_nb import random_decide

SID_USER = -1
SID_RANDOM = 0
SID_GREEDY = 1


@njit(cache=True)
def call_strategy(sid, user_fn, decision, obs, moves, n, params, rng):
    """Index of the move chosen by strategy ``sid`` (or ``user_fn``) among ``n``."""
    if sid == SID_GREEDY:
        return greedy_decide(decision, obs, moves, n, params, rng)
    if sid == SID_RANDOM:
        return random_decide(decision, obs, moves, n, params, rng)
    return user_fn(decision, obs, moves, n, params, rng)
