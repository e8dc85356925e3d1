"""A user strategy for Gin Rummy: ``gin_hunter``, greedy that knocks only with little deadwood.

Greedy (strategies/gin/greedy_nb.py) knocks as soon as the rules let it (G4: deadwood at
most the knock card). ``gin_hunter`` plays greedy's moves but, offered a knock, knocks only
when the discard greedy would make leaves at most ``max_deadwood`` points (0: gin only) and
otherwise discards that card and plays on. Against greedy on duplicate deals it prices
waiting for gin (the gin bonus and no undercut) against the hands lost while waiting.

Registering it is the whole of its use: ``--load strategies/gin/examples/gin_hunter.py``
(or ``import strategies.gin.examples.gin_hunter``), then ``"gin_hunter"`` and
``"gin_hunter:max_deadwood=5"`` are strategy specs of the ``gin`` game. Like every user
strategy it is one function compiled with the engine's signature (``STRATEGY_SIG``): the
engine calls it without being recompiled.
"""

import numpy as np
from numba import njit

from sim.games.gin.enums import D_DISCARD, MV_CARD, MV_KNOCK, O_HAND
from sim.games.gin.melds_nb import MAX_HAND_MELDS, MELD_SCRATCH, deadwood10
from strategies.gin.greedy_nb import greedy_decide, least_deadwood_card
from strategies.interface import STRATEGY_SIG
from strategies.registry import Param, register_strategy


@njit(STRATEGY_SIG, cache=True)
def gin_hunter_decide(decision, obs, moves, n, params, rng):
    """Greedy's move, except a knock that would leave more than ``params[0]`` deadwood."""
    i = greedy_decide(decision, obs, moves, n, params, rng)
    if decision != D_DISCARD or moves[i, 0] != MV_KNOCK:
        return i
    ids = np.empty(MAX_HAND_MELDS, np.int64)
    stack = np.empty(MELD_SCRATCH, np.int64)
    hand = obs[O_HAND]
    j = least_deadwood_card(hand, moves, n, ids, stack)  # the card greedy's knock would discard
    if j < 0 or moves[j, 0] != MV_CARD:
        return i
    left = deadwood10(hand & ~(np.int64(1) << moves[j, 2]), ids, stack)
    return i if left <= params[0] else j


register_strategy(
    "gin_hunter", gin_hunter_decide,
    params=(Param("max_deadwood", 0, 0, 10, int, "knock only when the deadwood left is at most this (0: gin)"),),
    doc="Example user strategy: greedy that knocks only with at most max_deadwood deadwood (default: gin only)",
    game="gin")
