"""Indian `random`: uniform over draws and discards, with rare drops and declarations.

At a draw decision it drops (I7) with probability ``p_drop``, else takes the stock or
the pile's top card uniformly among those legal. At a discard decision it declares
(I5) with probability ``p_declare``, discarding a uniformly chosen kind (nearly always
a wrong declaration: 80 points and out of the deal), else discards a uniformly chosen
kind. So drops and wrong declarations both occur and deals still end.
"""

from numba import njit

from sim.games.indian.enums import D_DRAW, MV_DECLARE, MV_DROP
from sim.core.rng_nb import rand_below, rand_float
from sim.plugin.strategy import STRATEGY_SIG

# parameter slots, in the order declared in strategies/indian/builtins.py
P_DROP = 0
P_DECLARE = 1


@njit(STRATEGY_SIG, cache=True)
def random_decide(decision, obs, moves, n, params, rng):
    """Index of the chosen row among the ``n`` legal moves (rows are in engine order:
    draws stock, pile, drop; discards then declarations)."""
    if decision == D_DRAW:
        # the drop row is always last at a draw decision
        if moves[n - 1, 0] == MV_DROP:
            if rand_float(rng) < params[P_DROP] or n == 1:
                return n - 1
            return rand_below(rng, n - 1)
        return rand_below(rng, n)
    # discard decision: the first half discards, the second half declarations
    d = 0
    while d < n and moves[d, 0] != MV_DECLARE:
        d += 1
    if d < n and rand_float(rng) < params[P_DECLARE]:
        return d + rand_below(rng, n - d)
    return rand_below(rng, d)
