"""The built-in Gin Rummy strategies: names, ids, documented parameters (meaning, range,
default). ``GinGame.strategies`` (sim.plugin.game) loads ``BUILTINS``.

Each kernel lives in ``strategies/gin/<name>_nb.py`` and each declaration names it as text
(``kernel=``), compiled on first use for the seat's function slot (sim.plugin.strategy.seat_function);
parameters reach it as a float64 row in the order declared here.
"""

from sim.plugin.specs import Param, StrategyInfo

# the built-ins' strategy ids (the engine's sids; a user strategy's is SID_USER = -1)
SID_RANDOM = 0
SID_SIMPLE = 1
SID_GREEDY = 2
SID_KNOCKER = 3
SID_EXPERT = 4
SID_MC_SEARCH = 5

RANDOM = StrategyInfo("random", SID_RANDOM, (), "A uniformly chosen legal move at every decision "
                      "(OpenSpiel's uniform random bot).", kernel="strategies.gin.random_nb:random_decide", kind="baseline")

SIMPLE = StrategyInfo(
    "simple", SID_SIMPLE, (),
    "OpenSpiel's SimpleGinRummyBot, move for move: takes the upcard when it allows a knock or joins its "
    "best meld group, discards the highest card outside that group, knocks as soon as it may, lays its "
    "best group and never lays off.",
    kernel="strategies.gin.simple_nb:simple_decide", kind="heuristic",
)

GREEDY = StrategyInfo(
    "greedy", SID_GREEDY, (),
    "Plays for the least deadwood (exact solver): takes the upcard when the best 10 of the 11 cards beat "
    "the hand, discards the card leaving the least deadwood, knocks as soon as it may, lays a best meld "
    "group and every lay-off that lowers its deadwood.",
    kernel="strategies.gin.greedy_nb:greedy_decide", kind="heuristic",
)

KNOCK_AT = Param("knock_at", 10, 0, 10, int,
                 "knock with at most this deadwood (best 10 of 11) while the stock holds more than late_stock "
                 "cards; below it, play on for gin")
LATE_KNOCK_AT = Param("late_knock_at", 10, 0, 10, int, "... and with at most this deadwood from then on")
LATE_STOCK = Param("late_stock", 10, 0, 31, int, "the stock size from which late_knock_at applies")
PICKUP_PENALTY = Param("pickup_penalty", 0.0, 0.0, 10.0, float,
                       "the knock limit drops by this for every card the opponent took from the upcard and still "
                       "holds (public, G9): the undercut risk")
KNOCK_POLICY = (KNOCK_AT, LATE_KNOCK_AT, LATE_STOCK, PICKUP_PENALTY)

KNOCKER = StrategyInfo(
    "knocker", SID_KNOCKER, KNOCK_POLICY,
    "greedy with a knock policy: knocks by deadwood and stock left (knock_at, late_knock_at, late_stock), "
    "less pickup_penalty per card the opponent took from the upcard and still holds; else plays on for gin. "
    "Defaults: greedy's policy (knock as soon as it may).",
    kernel="strategies.gin.knocker_nb:knocker_decide", kind="heuristic",
)

EXPERT = StrategyInfo(
    "expert", SID_EXPERT,
    (Param("knock_at", 10, 0, 10, int, KNOCK_AT.help), Param("late_knock_at", 10, 0, 10, int, LATE_KNOCK_AT.help),
     Param("late_stock", 10, 0, 31, int, LATE_STOCK.help),
     Param("pickup_penalty", 0.0, 0.0, 10.0, float, PICKUP_PENALTY.help),
     Param("danger", 0.0, 0.0, 30.0, float,
           "a discard of a rank the opponent has taken from the upcard, or within two ranks of such a card of "
           "its suit, counts this many deadwood points more"),
     Param("take_margin", 3, 0, 30, int, "takes the upcard only when it lowers the deadwood by at least this"),
     Param("keep", 1.0, 0.0, 30.0, float,
           "a discard counts this many deadwood points more for each card left in hand it could meld with "
           "(its rank, its suit within two ranks): it keeps the hand's chances")),
    "knocker's policy with careful discards (each card left in hand the discard could meld with costs keep "
    "points; cards that may complete the opponent's known melds cost danger points) and a margin for taking "
    "the upcard. Defaults chosen against simple on seeds 5-7 (3,000 deal sets each): knock as soon as it may, "
    "keep 1, take_margin 3 (+3.6 points a hand); danger and pickup_penalty did not help there.",
    kernel="strategies.gin.knocker_nb:expert_decide", kind="heuristic",
)

MC_SEARCH = StrategyInfo(
    "mc_search", SID_MC_SEARCH,
    (Param("samples", 32, 1, 512, int, "hidden worlds sampled per decision (the opponent's hand, the stock's order)"),
     Param("max_candidates", 4, 0, 12, int, "moves compared per decision, the base's first (0: every legal move; "
           "1: play as the base)"),
     Param("base", 1, 0, 1, str, "the base, whose move leads and who plays the play-outs in both seats: greedy, "
           "or expert at a fixed snapshot of its defaults (mc_search_nb.EXPERT_PARAMS)", choices=("greedy", "expert")),
     Param("select_z", 2.0, 0.0, 5.0, float, "how clearly a move must beat the base's (standard errors of the "
           "paired difference over the worlds; 0: the best mean wins)"),
     Param("gin_bonus", 25, 0, 100, int, "the gin bonus the play-outs score with (G7; the rules' default)"),
     Param("undercut_bonus", 25, 0, 100, int, "the undercut bonus the play-outs score with (G7; the rules' default)"),
     Param("search_knock", 0, 0, 1, bool, "knock or play on is searched too (at a discard and at the wall); off: "
           "the base's knock policy decides")),
    "Determinized Monte Carlo search (the shared mc_search structure): at each draw, discard-or-knock and wall "
    "decision it deals the hidden cards at random consistently with what it sees (sim/games/gin/determinize_nb.py), "
    "plays every candidate on in the same worlds with the base in both seats to the end of the hand, and keeps "
    "the move with the best mean points; the knock's discard, melds and lay-offs are the base's.",
    kernel="strategies.gin.mc_search_nb:mc_search_decide", kind="search",
)

BUILTINS = (RANDOM, SIMPLE, GREEDY, KNOCKER, EXPERT, MC_SEARCH)
