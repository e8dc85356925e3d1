"""Which compiled kernel plays a built-in Indian strategy id, and the engine's seat slots.

Every strategy, built-in or user, reaches the engine the same way: as the seat's
first-class function slot (sim.plugin.strategy.STRATEGY_SIG; six slots, one per
seat), called through a function pointer. A kernel therefore compiles once, in its
own module, on its first use (or loads from numba's cache): the engine's code never
contains the strategies' code, so neither the engine's cold compile nor a kernel's
grows with the number of strategies, and a run compiles only the strategies it seats
(issue 9).

To add a built-in strategy NAME:

1. write ``NAME_decide(decision, obs, moves, n, params, rng)`` in
   ``strategies/indian/NAME_nb.py`` with ``@njit(STRATEGY_SIG, cache=True)`` (or
   ``@njit(cache=True)``: it is then compiled for STRATEGY_SIG on first use);
2. give it the next id here (``SID_NAME = 7``) and one line in ``KERNELS``;
3. declare its name and parameters in strategies/indian/builtins.py.
"""

from sim.games.indian.enums import MAX_SEATS
from sim.plugin.strategy import SID_USER, builtin_kernel, call_from_python, seat_fns_type

SID_RANDOM = 0
SID_GREEDY = 1
SID_DROPPER = 2
SID_JOKER_KEEPER = 3
SID_DEFENSIVE = 4
SID_EXPERT = 5
SID_MC_SEARCH = 6

#: strategy id -> "module:function" of its kernel (imported and compiled on first use)
KERNELS = {
    SID_RANDOM: "strategies.indian.random_nb:random_decide",
    SID_GREEDY: "strategies.indian.greedy_nb:greedy_decide",
    SID_DROPPER: "strategies.indian.dropper_nb:dropper_decide",
    SID_JOKER_KEEPER: "strategies.indian.joker_keeper_nb:joker_keeper_decide",
    SID_DEFENSIVE: "strategies.indian.defensive_nb:defensive_decide",
    SID_EXPERT: "strategies.indian.expert_nb:expert_decide",
    SID_MC_SEARCH: "strategies.indian.mc_search_nb:mc_search_decide",
}

SEAT_FNS = seat_fns_type(MAX_SEATS)
__all__ = ["SID_USER", "SID_RANDOM", "SID_GREEDY", "SID_DROPPER", "SID_JOKER_KEEPER", "SID_DEFENSIVE", "SID_EXPERT",
           "SID_MC_SEARCH", "KERNELS", "SEAT_FNS", "strategy_function", "call_strategy"]


def strategy_function(sid: int):
    """The compiled STRATEGY_SIG kernel of built-in id ``sid`` (compiled or loaded on first use)."""
    return builtin_kernel(KERNELS, int(sid), "indian")


def call_strategy(sid, fn, decision, obs, moves, n, params, rng) -> int:
    """Index of the move chosen by the seat's strategy ``fn`` (its function slot; ``sid``
    is kept for the callers' symmetry with the engine), called from Python."""
    return call_from_python(fn, decision, obs, moves, n, params, rng)
