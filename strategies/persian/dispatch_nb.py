"""Which compiled kernel plays a built-in Persian strategy id, and how the engine calls it.

Every strategy, built-in or user, reaches the engine the same way: as the seat's
first-class function slot (sim.plugin.strategy.STRATEGY_SIG), called through a
function pointer. A kernel therefore compiles once, in its own module, on its first
use (or loads from numba's cache): the engine's code never contains the strategies'
code, so neither the engine's cold compile nor a kernel's grows with the number of
strategies, and a run compiles only the strategies it seats (issue 9).

To add a built-in strategy NAME:

1. write ``NAME_decide(decision, obs, moves, n, params, rng)`` in
   ``strategies/persian/NAME_nb.py`` with ``@njit(cache=True)`` (compiled for
   STRATEGY_SIG on first use) or ``@njit(STRATEGY_SIG, cache=True)``;
2. give it the next id here (``SID_NAME = 7``) and one line in ``KERNELS``;
3. declare its name and parameters in strategies/persian/builtins.py.
"""

from sim.plugin.strategy import SID_USER, builtin_kernel, call_from_python

SID_RANDOM = 0
SID_GREEDY = 1
SID_DEEP_TAKER = 2
SID_QUAD_HOLDER = 3
SID_DEFENSIVE = 4
SID_EXPERT = 5
SID_MC_SEARCH = 6

#: strategy id -> "module:function" of its kernel (imported and compiled on first use)
KERNELS = {
    SID_RANDOM: "strategies.persian.random_nb:random_decide",
    SID_GREEDY: "strategies.persian.greedy_nb:greedy_decide",
    SID_DEEP_TAKER: "strategies.persian.deep_taker_nb:deep_taker_decide",
    SID_QUAD_HOLDER: "strategies.persian.quad_holder_nb:quad_holder_decide",
    SID_DEFENSIVE: "strategies.persian.defensive_nb:defensive_decide",
    SID_EXPERT: "strategies.persian.expert_nb:expert_decide",
    SID_MC_SEARCH: "strategies.persian.mc_search_nb:mc_search_decide",
}
__all__ = ["SID_USER", "KERNELS", "strategy_function", "call_strategy"]


def strategy_function(sid: int):
    """The compiled STRATEGY_SIG kernel of built-in id ``sid`` (compiled or loaded on first use)."""
    return builtin_kernel(KERNELS, int(sid), "persian")


def call_strategy(sid, fn, decision, obs, moves, n, params, rng) -> int:
    """Index of the move chosen by the seat's strategy ``fn`` (its function slot; ``sid``
    is kept for the callers' symmetry with the engine), called from Python (tests,
    decision states) on exactly the arguments the engine would give it."""
    return call_from_python(fn, decision, obs, moves, n, params, rng)

