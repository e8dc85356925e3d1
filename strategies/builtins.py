"""The built-in strategies: names, ids, documented parameters (meaning, range, default).

Each kernel lives in its own ``strategies/<name>_nb.py``; the engine reaches it by id
through strategies/dispatch_nb.py. Parameter values are data (a float64 row per
seat), so trying another value never recompiles anything.
"""

from strategies.dispatch_nb import SID_GREEDY, SID_RANDOM
from strategies.registry import Param, StrategyInfo, register

register(StrategyInfo("random", SID_RANDOM, (), "Uniform over the legal choices at every decision."))

register(
    StrategyInfo(
        "greedy",
        SID_GREEDY,
        (
            Param(
                "max_extra", 30, 0, 400, int,
                "largest total value of taken cards above the target that it cannot put down this turn",
            ),
        ),
        "Takes from the pile for an immediate meld when the cards above are cheap, puts down "
        "everything it can, discards its highest card in no partial meld.",
    )
)
