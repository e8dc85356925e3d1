"""The built-in Gin Rummy strategies: names, ids, documented parameters (meaning, range,
default). ``GinGame.strategies`` (sim.plugin.game) loads ``BUILTINS``.

Each kernel lives in ``strategies/gin/<name>_nb.py`` and is reached by id through
strategies/gin/dispatch_nb.py; parameters reach it as a float64 row in the order declared here.
"""

from strategies.gin.dispatch_nb import SID_GREEDY, SID_RANDOM, SID_SIMPLE
from sim.plugin.specs import StrategyInfo

RANDOM = StrategyInfo("random", SID_RANDOM, (), "A uniformly chosen legal move at every decision "
                      "(OpenSpiel's uniform random bot).")

SIMPLE = StrategyInfo(
    "simple", SID_SIMPLE, (),
    "OpenSpiel's SimpleGinRummyBot, move for move: takes the upcard when it allows a knock or joins its "
    "best meld group, discards the highest card outside that group, knocks as soon as it may, lays its "
    "best group and never lays off.",
)

GREEDY = StrategyInfo(
    "greedy", SID_GREEDY, (),
    "Plays for the least deadwood (exact solver): takes the upcard when the best 10 of the 11 cards beat "
    "the hand, discards the card leaving the least deadwood, knocks as soon as it may, lays a best meld "
    "group and every lay-off that lowers its deadwood.",
)

BUILTINS = (RANDOM, SIMPLE, GREEDY)
