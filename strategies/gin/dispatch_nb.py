"""Which compiled kernel plays a built-in Gin Rummy strategy id, and the engine's two seat slots.

As in the other games, every strategy reaches the engine as its seat's function slot
(sim.plugin.strategy.STRATEGY_SIG), so the engine never contains a strategy's code.
"""

from sim.plugin.strategy import SID_USER, builtin_kernel, call_from_python, seat_fns_type

SID_RANDOM = 0
SID_SIMPLE = 1
SID_GREEDY = 2
SID_KNOCKER = 3
SID_EXPERT = 4

#: strategy id -> "module:function" of its kernel (imported and compiled on first use)
KERNELS = {
    SID_RANDOM: "strategies.gin.random_nb:random_decide",
    SID_SIMPLE: "strategies.gin.simple_nb:simple_decide",
    SID_GREEDY: "strategies.gin.greedy_nb:greedy_decide",
    SID_KNOCKER: "strategies.gin.knocker_nb:knocker_decide",
    SID_EXPERT: "strategies.gin.knocker_nb:expert_decide",
}

SEAT_FNS = seat_fns_type(2)
__all__ = ["SID_USER", "SID_RANDOM", "SID_SIMPLE", "SID_GREEDY", "SID_KNOCKER", "SID_EXPERT", "KERNELS", "SEAT_FNS", "strategy_function",
           "call_strategy"]


def strategy_function(sid: int):
    """The compiled STRATEGY_SIG kernel of built-in id ``sid`` (compiled or loaded on first use)."""
    return builtin_kernel(KERNELS, int(sid), "gin")


def call_strategy(sid, fn, decision, obs, moves, n, params, rng) -> int:
    """Index of the move chosen by the seat's strategy ``fn``, called from Python."""
    return call_from_python(fn, decision, obs, moves, n, params, rng)
