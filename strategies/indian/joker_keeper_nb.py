"""Indian `joker_keeper`: keeps its jokers and builds towards the declaration (I4, I5).

* Draw: the top discard only when it is a joker (``take_jokers``), makes a pure run of
  three or a set with two cards held (``take_meld``), or is a same-suit neighbour of a
  held card worth at most ``connector_max`` points; with ``take_lowers`` also whenever
  greedy would take it. Otherwise the stock. Never drops.
* Discard: declares whenever it validly can (greedy's choice); otherwise the card with the
  least ``deadwood + keep`` (strategies/indian/plan_nb.py): jokers (printed or wild) are
  never discarded while ``keep_jokers`` holds, the only pure run of three is worth
  ``pure_keep``, the only seed of the run of four ``long_keep``, connectors ``run_keep``
  and ``set_keep`` per link.
"""

from numba import njit

from sim.games.indian.enums import D_DRAW
from strategies.indian.plan_nb import plan_discard, plan_draw
from sim.plugin.strategy import STRATEGY_SIG

# parameter slots, in the order declared in strategies/indian/builtins.py
P_KEEP_JOKERS = 0
P_TAKE_JOKERS = 1
P_TAKE_MELD = 2
P_CONNECTOR_MAX = 3
P_TAKE_LOWERS = 4
P_PURE_KEEP = 5
P_LONG_KEEP = 6
P_RUN_KEEP = 7
P_SET_KEEP = 8


@njit(STRATEGY_SIG, cache=True)
def joker_keeper_decide(decision, obs, moves, n, params, rng):
    if decision == D_DRAW:
        return plan_draw(obs, moves, n, params[P_TAKE_JOKERS] != 0.0, params[P_TAKE_MELD] != 0.0,
                         params[P_CONNECTOR_MAX], params[P_TAKE_LOWERS] != 0.0)
    return plan_discard(obs, moves, n, params[P_KEEP_JOKERS] != 0.0, params[P_PURE_KEEP], params[P_LONG_KEEP],
                        params[P_RUN_KEEP], params[P_SET_KEEP], 0.0, 0.0, 0.0, False)
