"""The built-in Indian Rummy strategies: names, ids, documented parameters (meaning,
range, default). ``IndianGame.strategies`` (sim.plugin.game) loads ``BUILTINS``.

Each kernel lives in ``strategies/indian/<name>_nb.py`` and each declaration names it as text
(``kernel=``): the plug-in layer compiles it on first use for the seat's function slot
(sim.plugin.strategy.seat_function), so the engine never imports strategies/. Parameters reach
a kernel as a float64 row in the order declared here; the kernels' P_* slot constants follow the
same order (a test ties them together).
"""

from dataclasses import replace

from sim.plugin.specs import Param, StrategyInfo

# the built-ins' strategy ids (the engine's sids; a user strategy's is SID_USER = -1)
SID_RANDOM = 0
SID_GREEDY = 1
SID_DROPPER = 2
SID_JOKER_KEEPER = 3
SID_DEFENSIVE = 4
SID_EXPERT = 5
SID_MC_SEARCH = 6
SID_LEARNED = 7

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
    kernel="strategies.indian.random_nb:random_decide", kind="baseline",
)

GREEDY = StrategyInfo(
    "greedy",
    SID_GREEDY,
    (),
    "Takes the top discard when keeping the best 13 of the 14 lowers its minimum deadwood, "
    "else the stock; discards the card whose removal leaves the least deadwood (ties: the "
    "higher-valued card, then the higher kind); declares as soon as it validly can; never drops.",
    kernel="strategies.indian.greedy_nb:greedy_decide", kind="heuristic",
)

# parameters shared by several strategies (one declaration, one meaning)
FIRST_DROP_DEADWOOD = Param(
    "first_drop_deadwood", 133, 0, 200, int,
    "first drop (I7, 20 points) when the dealt 13 cards' minimum deadwood is above this "
    "(the deadwood counts every card while no I5 arrangement exists)",
)
NEED_PURE = Param("need_pure", 0, 0, 1, bool, "a dealt hand without a pure run of three is weak (first drop)")
NEED_JOKER = Param("need_joker", 1, 0, 1, bool, "a dealt hand without any joker (printed or wild) is weak (first drop)")
MIDDLE_DROP_DEADWOOD = Param(
    "middle_drop_deadwood", 115, 0, 200, int,
    "middle drop (I7, 40 points) when the 13-card minimum deadwood is still above this ...",
)
MIDDLE_DROP_TURN = Param("middle_drop_turn", 19, 1, 1000, int, "... after this many of its own completed turns (discards)")
ALARM_PICKUPS = Param(
    "alarm_pickups", 0, 0, 60, int,
    "an opponent still in the deal that has taken this many cards from the discard pile "
    "(public, I9) looks close to declaring (0: never)",
)
ALARM_DEADWOOD = Param(
    "alarm_deadwood", 60, 0, 200, int,
    "middle drop at any turn, once an opponent looks close (alarm_pickups), when the 13-card "
    "minimum deadwood is above this",
)
JOKER_CREDIT = Param(
    "joker_credit", 0, 0, 80, int, "each joker held (printed or wild) raises both drop deadwood thresholds by this",
)
PURE_SAVES_UPTO = Param(
    "pure_saves_upto", 2, 0, 6, int,
    "at tables of at most this many players a jokerless dealt hand that holds a pure run of three is not "
    "weak for need_joker (0: never; notebook 06: such a hand is worth playing at 2 players, not from 3)",
)
DROP_MIN_PLAYERS = Param(
    "drop_min_players", 2, 2, 6, int, "never drop (first or middle, I7) at tables of fewer players than this",
)
KEEP_JOKERS = Param(
    "keep_jokers", 1, 0, 1, bool,
    "never discard a joker (printed or wild) while another kind is held; false: jokers go by deadwood as in greedy",
)
TAKE_JOKERS = Param("take_jokers", 1, 0, 1, bool, "take a joker (printed or wild) from the top of the discard pile")
TAKE_MELD = Param(
    "take_meld", 1, 0, 1, bool,
    "take the top discard when it makes a pure run of three or a set of three with two cards held (I4)",
)
CONNECTOR_MAX = Param(
    "connector_max", 0, 0, 10, int,
    "take the top discard when it is a same-suit neighbour (one rank away) of a held card and worth at "
    "most this many points (a strong connector; 0: never)",
)
TAKE_LOWERS = Param(
    "take_lowers", 0, 0, 1, bool, "also take the top discard whenever greedy would (it lowers the best deadwood)",
)
PURE_KEEP = Param(
    "pure_keep", 15.0, 0.0, 100.0, float,
    "points for keeping a card without which no pure run of three is left (I5 needs one)",
)
LONG_KEEP = Param(
    "long_keep", 8.0, 0.0, 100.0, float,
    "points for keeping a card without which no seed of the I5 run of four is left "
    "(three naturals of four consecutive positions of a suit)",
)
RUN_KEEP = Param(
    "run_keep", 10.0, 0.0, 40.0, float,
    "points for keeping a card per held same-suit neighbour one rank away (half that two ranks away)",
)
SET_KEEP = Param("set_keep", 4.0, 0.0, 40.0, float, "points for keeping a card per held card of its rank in another suit")
FEED_WEIGHT = Param(
    "feed_weight", 3.0, 0.0, 40.0, float,
    "points against a discard per link to a card the next seat in play took from the pile and still holds "
    "(same rank, same suit one rank away; half two ranks away; a joker counts 2)",
)
SAFE_WEIGHT = Param(
    "safe_weight", 1.0, 0.0, 40.0, float,
    "points for a discard per link to what the next seat discarded (the same kind or rank; half: same suit "
    "one rank away)",
)
SHED_WEIGHT = Param(
    "shed_weight", 0.5, 0.0, 5.0, float,
    "once an opponent looks close, a discard's own value counts (1 + this) times: high cards go first",
)

DROPPER = StrategyInfo(
    "dropper",
    SID_DROPPER,
    (FIRST_DROP_DEADWOOD, NEED_PURE, NEED_JOKER, MIDDLE_DROP_DEADWOOD, MIDDLE_DROP_TURN, ALARM_PICKUPS,
     ALARM_DEADWOOD, JOKER_CREDIT, PURE_SAVES_UPTO, DROP_MIN_PLAYERS),
    "Greedy, plus a first drop when the dealt hand is weak (deadwood above "
    "first_drop_deadwood, or no pure run with need_pure, or no joker with need_joker) and a "
    "middle drop when its deadwood is still above middle_drop_deadwood after "
    "middle_drop_turn of its turns, or above alarm_deadwood once an opponent has taken "
    "alarm_pickups cards from the pile; each joker held raises the thresholds by joker_credit. "
    "By table size: a pure run saves a jokerless hand at up to pure_saves_upto players, and "
    "no drop at fewer than drop_min_players.",
    kernel="strategies.indian.dropper_nb:dropper_decide", kind="heuristic",
)

JOKER_KEEPER = StrategyInfo(
    "joker_keeper",
    SID_JOKER_KEEPER,
    (KEEP_JOKERS, TAKE_JOKERS, TAKE_MELD, CONNECTOR_MAX, TAKE_LOWERS, PURE_KEEP, LONG_KEEP, RUN_KEEP, SET_KEEP),
    "Keeps its jokers and builds towards the declaration: discards the card with the least "
    "deadwood plus what it is worth kept (the only pure run, the seed of the run of four, "
    "connectors); takes the top discard only for a joker, a meld or a strong connector. "
    "Declares as soon as it validly can; never drops.",
    kernel="strategies.indian.joker_keeper_nb:joker_keeper_decide", kind="heuristic",
)

DEFENSIVE = StrategyInfo(
    "defensive",
    SID_DEFENSIVE,
    (
        FEED_WEIGHT,
        SAFE_WEIGHT,
        replace(SHED_WEIGHT, default=0.0,
                help=SHED_WEIGHT.help + " (0, the tuned default: never; it then never looks close and keeps building)"),
        Param(
            "close_pickups", 3, 0, 60, int,
            "an opponent still in the deal that has taken this many cards from the pile looks close (0: never; "
            "only with shed_weight > 0)",
        ),
        Param("close_turn", 10, 0, 1000, int,
              "after this many of its own completed turns an opponent looks close (0: never; only with "
              "shed_weight > 0)"),
        Param(
            "run_keep", 10.0, 0.0, 40.0, float,
            "until an opponent looks close: points for keeping a card per held same-suit neighbour one rank "
            "away (half that two ranks away); then 0",
        ),
    ),
    "Greedy's draws; discards the card with the least deadwood plus its run connectors "
    "(until an opponent looks close) plus what it would feed the "
    "next seat (links to its pickups still held) minus what that seat let go (links to its "
    "discards), shedding high cards once an opponent looks close (with shed_weight > 0; off by "
    "default: tuned). Declares as soon as it validly can; never drops.",
    kernel="strategies.indian.defensive_nb:defensive_decide", kind="heuristic",
)


def _expert_default(p: Param, value: float) -> Param:
    """``p`` with expert's own (tuned) default."""
    return replace(p, default=value)


EXPERT = StrategyInfo(
    "expert",
    SID_EXPERT,
    (
        FIRST_DROP_DEADWOOD,
        NEED_PURE,
        NEED_JOKER,
        MIDDLE_DROP_DEADWOOD,
        MIDDLE_DROP_TURN,
        ALARM_PICKUPS,
        ALARM_DEADWOOD,
        CONNECTOR_MAX,
        TAKE_LOWERS,
        PURE_KEEP,
        LONG_KEEP,
        RUN_KEEP,
        SET_KEEP,
        _expert_default(FEED_WEIGHT, 2.0),
        _expert_default(SAFE_WEIGHT, 0.0),
        SHED_WEIGHT,
        PURE_SAVES_UPTO,
        DROP_MIN_PLAYERS,
    ),
    "dropper's drops (with its table-size gates), joker_keeper's draws and hand building (jokers kept and taken, melds "
    "taken) and defensive's discards; an opponent looks close after alarm_pickups pickups "
    "or middle_drop_turn of its own turns.",
    kernel="strategies.indian.expert_nb:expert_decide", kind="heuristic",
)

MC_SEARCH = StrategyInfo(
    "mc_search",
    SID_MC_SEARCH,
    (
        Param("worlds", 32, 1, 10_000, int,
              "hidden worlds sampled per decision from what I9 makes public; every candidate is played "
              "out in each of the same worlds"),
        Param("horizon", 1, 0, 1_000, int,
              "play-outs stop after this many more turns of the seat itself (every other seat plays as "
              "often) and are scored by the seat's capped solver deadwood (0: played to the end)"),
        Param("max_candidates", 4, 0, 32, int,
              "moves searched per decision: the base's, then the others by the play-out policy's keep "
              "score, lowest first (0: every legal draw / discard; 1: plays as the base)"),
        Param("consider_drop", 0, 0, 1, bool, "the drop (I7) is a candidate at draw decisions"),
        Param("base", 1, 0, 2, str,
              "whose move leads the candidates and is played when it declares or drops: greedy, "
              "expert at a fixed snapshot of its tuned defaults (mc_search_nb.EXPERT_PARAMS), or the "
              "built-in learned",
              choices=("greedy", "expert", "learned")),
        Param("margin", 8.0, 0.0, 1000.0, float,
              "points credited to the base's move: another candidate replaces it only when its mean "
              "play-out score is higher by more than this"),
    ),
    "Determinized Monte Carlo search: deals the hidden cards at random consistently with "
    "what I9 makes public (own hand, discards, every pickup, the cut joker, hand sizes, "
    "drops), plays the base's (expert's or greedy's) move and the other candidates out in "
    "the same sampled worlds "
    "with a fast solver-free policy (common random numbers), and picks the best mean "
    "points (the base's move credited margin points); plays the base's declarations and drops "
    "at once. strategies/indian/mc_search_nb.py.",
    kernel="strategies.indian.mc_search_nb:mc_search_decide", kind="search",
)

LEARNED = StrategyInfo(
    "learned",
    SID_LEARNED,
    (),
    "Learned: expert, except where a linear model over features of each move "
    "(strategies/indian/features_nb.py: deadwood kept, pure run, jokers, drop costs, what the next "
    "seat took; expert's own choice one of them) picks the draw, drop or discard; it declares "
    "exactly when expert does. Weights fitted to the values of every legal move played out from the "
    "true hands (rummy-sim train learned --game indian; learned_weights.py).",
    kernel="strategies.indian.learned_nb:learned_decide", kind="learned",
)

BUILTINS = (RANDOM, GREEDY, DROPPER, JOKER_KEEPER, DEFENSIVE, EXPERT, MC_SEARCH, LEARNED)
