"""The built-in Indian Rummy strategies: names, ids, documented parameters (meaning,
range, default). ``strategies.registry.registry_for("indian")`` loads ``BUILTINS``.

Each kernel lives in ``strategies/indian/<name>_nb.py`` and is reached by id through
strategies/indian/dispatch_nb.py. Parameters reach a kernel as a float64 row in the
order declared here; the kernels' P_* slot constants follow the same order (a test
ties them together).
"""

from strategies.indian.dispatch_nb import SID_DROPPER, SID_GREEDY, SID_RANDOM
from strategies.registry import Param, StrategyInfo

RANDOM = StrategyInfo(
    "random",
    SID_RANDOM,
    (
        Param(
            "p_drop", 0.01, 0.0, 1.0, float,
            "probability of dropping (I7) at a draw decision; otherwise stock or pile top, uniformly",
        ),
        Param(
            "p_declare", 0.02, 0.0, 1.0, float,
            "probability of declaring (I5, nearly always wrong: 80 points) at a discard decision, "
            "discarding a uniformly chosen kind; otherwise a uniform discard",
        ),
    ),
    "Uniform over draws and discards; drops with probability p_drop at a draw decision and "
    "declares with probability p_declare at a discard decision, so drops and wrong "
    "declarations occur and deals end.",
)

GREEDY = StrategyInfo(
    "greedy",
    SID_GREEDY,
    (),
    "Takes the top discard when keeping the best 13 of the 14 lowers its minimum deadwood, "
    "else the stock; discards the card whose removal leaves the least deadwood (ties: the "
    "higher-valued card, then the higher kind); declares as soon as it validly can; never drops.",
)

DROPPER = StrategyInfo(
    "dropper",
    SID_DROPPER,
    (
        Param(
            "first_drop_deadwood", 80, 0, 200, int,
            "first drop (I7, 20 points) when the dealt 13 cards' minimum deadwood is above this "
            "(the deadwood counts every card while no I5 arrangement exists)",
        ),
        Param("need_pure", 1, 0, 1, bool, "a dealt hand without a pure run of three is weak (first drop)"),
        Param("need_joker", 0, 0, 1, bool, "a dealt hand without any joker (printed or wild) is weak (first drop)"),
        Param(
            "middle_drop_deadwood", 60, 0, 200, int,
            "middle drop (I7, 40 points) when the 13-card minimum deadwood is still above this ...",
        ),
        Param(
            "middle_drop_turn", 8, 1, 1000, int,
            "... after this many of its own completed turns (discards)",
        ),
    ),
    "Greedy, plus a first drop when the dealt hand is weak (deadwood above "
    "first_drop_deadwood, or no pure run with need_pure, or no joker with need_joker) and a "
    "middle drop when its deadwood is still above middle_drop_deadwood after "
    "middle_drop_turn of its turns.",
)

BUILTINS = (RANDOM, GREEDY, DROPPER)
