"""Calls the strategy that sits in a seat, from inside the compiled Indian engine.

Built-ins are chosen by integer id in a branch; a user strategy (SID_USER) is called
through the seat's first-class function slot (strategies.interface.STRATEGY_SIG), one
slot per seat of a six-seat tuple, so the engine compiles once for any table.
"""

from numba import njit

from sim.games.indian.enums import MAX_SEATS
from strategies.indian.defensive_nb import defensive_decide
from strategies.indian.dropper_nb import dropper_decide
from strategies.indian.expert_nb import expert_decide
from strategies.indian.greedy_nb import greedy_decide
from strategies.indian.joker_keeper_nb import joker_keeper_decide
from strategies.indian.mc_search_nb import mc_search_decide
from strategies.indian.random_nb import random_decide
from strategies.interface import SID_USER, seat_fns_type

SID_RANDOM = 0
SID_GREEDY = 1
SID_DROPPER = 2
SID_JOKER_KEEPER = 3
SID_DEFENSIVE = 4
SID_EXPERT = 5
SID_MC_SEARCH = 6

SEAT_FNS = seat_fns_type(MAX_SEATS)
__all__ = [
    "SID_USER",
    "SID_RANDOM",
    "SID_GREEDY",
    "SID_DROPPER",
    "SID_JOKER_KEEPER",
    "SID_DEFENSIVE",
    "SID_EXPERT",
    "SID_MC_SEARCH",
    "SEAT_FNS",
    "call_strategy",
]


@njit(cache=True)
def call_strategy(sid, user_fn, decision, obs, moves, n, params, rng):
    """Index of the move chosen by strategy ``sid`` (or ``user_fn``) among ``n``."""
    if sid == SID_GREEDY:
        return greedy_decide(decision, obs, moves, n, params, rng)
    if sid == SID_DROPPER:
        return dropper_decide(decision, obs, moves, n, params, rng)
    if sid == SID_RANDOM:
        return random_decide(decision, obs, moves, n, params, rng)
    if sid == SID_JOKER_KEEPER:
        return joker_keeper_decide(decision, obs, moves, n, params, rng)
    if sid == SID_DEFENSIVE:
        return defensive_decide(decision, obs, moves, n, params, rng)
    if sid == SID_EXPERT:
        return expert_decide(decision, obs, moves, n, params, rng)
    if sid == SID_MC_SEARCH:
        return mc_search_decide(decision, obs, moves, n, params, rng)
    return user_fn(decision, obs, moves, n, params, rng)
