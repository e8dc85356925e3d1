"""A user strategy for Indian Rummy: ``stock_only``, greedy that never draws from the pile.

It asks greedy (strategies/indian/greedy_nb.py) for its move and, when greedy would take
the top of the discard pile, draws from the stock instead (if the stock can be drawn
from); every other decision is greedy's. Played against a field of greedy on duplicate
deals it prices greedy's pickups: greedy minus stock_only is what drawing from the pile
is worth to greedy, net of what the pickups tell the other players (I9 makes every
pickup public). notebooks/07_indian_field.ipynb uses it.

Registering it is the whole of its use: ``import strategies.indian.examples.stock_only``
(or ``--load strategies/indian/examples/stock_only.py``), then ``"stock_only"`` is a
strategy name of the ``indian`` game. It is a small function compiled with the engine's
signature, so the engine itself is not recompiled; it links greedy's cached kernel.
"""

from numba import njit

from sim.games.indian.enums import D_DRAW, MV_PILE, MV_STOCK
from strategies.indian.greedy_nb import greedy_decide, row_of_kind
from strategies.interface import STRATEGY_SIG
from strategies.registry import register_strategy


@njit(STRATEGY_SIG, cache=True)
def stock_only_decide(decision, obs, moves, n, params, rng):
    """Greedy's move, with a draw from the stock wherever greedy would take the pile's top."""
    i = greedy_decide(decision, obs, moves, n, params, rng)
    if decision == D_DRAW and moves[i, 0] == MV_PILE:
        j = row_of_kind(moves, n, MV_STOCK)
        if j >= 0:
            return j
    return i


register_strategy("stock_only", stock_only_decide, doc="greedy that never draws from the discard pile "
                  "(draws from the stock where greedy would take the pile's top)", game="indian")
