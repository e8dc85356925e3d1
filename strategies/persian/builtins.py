"""The built-in strategies: names, ids, documented parameters (meaning, range, default).

Each kernel lives in its own ``strategies/persian/<name>_nb.py`` and each declaration names it
as text (``kernel=``): the plug-in layer compiles it on first use and puts it in the seat's
function slot (sim.plugin.strategy.seat_function), so the engine never contains a strategy's code
and never imports strategies/. Parameter values are data (a float64 row per seat), so trying
another value never recompiles anything.

To add a built-in strategy NAME: write ``NAME_decide(decision, obs, moves, n, params, rng)`` in
``strategies/persian/NAME_nb.py`` with ``@njit(cache=True)`` (compiled for STRATEGY_SIG on first
use) or ``@njit(STRATEGY_SIG, cache=True)``, give it the next id below and declare it here with
``kernel="strategies.persian.NAME_nb:NAME_decide"``.
"""

from sim.plugin.specs import Param, StrategyInfo

# the built-ins' strategy ids (the engine's sids; a user strategy's is SID_USER = -1)
SID_RANDOM = 0
SID_GREEDY = 1
SID_DEEP_TAKER = 2
SID_QUAD_HOLDER = 3
SID_DEFENSIVE = 4
SID_EXPERT = 5
SID_MC_SEARCH = 6
SID_LEARNED = 7

BUILTINS: tuple[StrategyInfo, ...] = (
    StrategyInfo("random", SID_RANDOM, (), "Uniform over the legal choices at every decision.",
                 kernel="strategies.persian.random_nb:random_decide", kind="baseline"),
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
        kernel="strategies.persian.greedy_nb:greedy_decide", kind="heuristic",
    ),

    # ---- deep_taker (strategies/persian/deep_taker_nb.py) ----
    StrategyInfo(
        "deep_taker",
        SID_DEEP_TAKER,
        (
            Param("max_depth", 55, 0, 55, int, "deepest discard-pile depth it considers (0 = the top card only)"),
            Param(
                "min_gain", -20.0, -100.0, 200.0, float,
                "least estimated gain (points) for a take; lower takes more often and deeper",
            ),
            Param(
                "soon_weight", 1.0, 0.0, 2.0, float,
                "weight of taken cards it cannot put down now that pair or make a run draw with its hand",
            ),
            Param(
                "risk_weight", 0.5, 0.0, 5.0, float,
                "weight of the value of taken cards it cannot put down now, times how near the end looks (0..1)",
            ),
            Param("near_hand", 2, 0, 7, int, "another seat with this many cards or fewer makes the end look near"),
        ),
        "Takes from the discard pile down to max_depth when the estimated gain (points put down now and "
        "soon, from the target and the cards above it) minus the risk of the extra cards (their value, "
        "weighted by how near the end of the deal looks) is at least min_gain; plays and discards as greedy.",
        kernel="strategies.persian.deep_taker_nb:deep_taker_decide", kind="heuristic",
    ),

    # ---- quad_holder (strategies/persian/quad_holder_nb.py) ----
    StrategyInfo(
        "quad_holder",
        SID_QUAD_HOLDER,
        (
            Param("hold_jokers", 1, 0, 1, bool, "hold three jokers back for the fourth (four melded at once: 160)"),
            Param("hold_sets", 1, 0, 1, bool, "hold three of another rank back for the fourth (four count double)"),
            Param("give_up_stock", 2, 0, 27, int, "meld the held three once the stock has this many cards or fewer"),
            Param("near_hand", 1, 0, 7, int, "meld the held three once an opponent holds this many cards or fewer"),
            Param(
                "take_fourth", 1, 0, 1, bool,
                "consider a discard-pile take that brings the fourth card whatever the cards above it are worth",
            ),
            Param(
                "max_extra", 30, 0, 400, int,
                "largest value of taken cards it cannot put down this turn, for any other take (as greedy)",
            ),
            Param("min_value", 2, 2, 15, int, "hold only ranks whose card value is at least this (jokers: 20)"),
        ),
        "Holds three jokers and/or three of a rank, while the fourth is not on the table, to meld all four at "
        "once; takes the fourth from the pile; melds the three when the stock runs low or an opponent is "
        "close to going out. Otherwise plays as greedy.",
        kernel="strategies.persian.quad_holder_nb:quad_holder_decide", kind="heuristic",
    ),

    # ---- defensive (strategies/persian/defensive_nb.py) ----
    StrategyInfo(
        "defensive",
        SID_DEFENSIVE,
        (
            Param(
                "max_extra", 30, 0, 400, int,
                "largest total value of taken cards above the target that it cannot put down this turn",
            ),
            Param(
                "feed_weight", 5.0, 0.0, 20.0, float,
                "weight of the points a discard may hand the next player (in units of its value + 10) "
                "against its own value",
            ),
            Param(
                "watch_table", 1, 0, 1, bool,
                "count discards that lay off on a table meld (directly, or bridged by a card of the next hand)",
            ),
            Param(
                "watch_taken", 1, 0, 1, bool,
                "count discards that go with cards the next opponent took from the pile and still holds",
            ),
            Param("watch_pile", 1, 0, 1, bool, "count discards that open a meld with pile cards (a deep take)"),
            Param("shed_weight", 3.0, 0.0, 5.0, float, "extra weight of a card's value as the end nears"),
            Param("near_hand", 3, 0, 7, int, "another seat with this many cards or fewer makes the end look near"),
            Param("keep_partial", 10.0, 0.0, 100.0, float, "points for keeping a card that is in a partial meld"),
            Param(
                "pair_weight", 0.5, 0.0, 1.0, float,
                "with watch_pile: share of a pile mark when the meld's third card is only still live",
            ),
            Param(
                "hand_weight", 8.0, 0.0, 20.0, float,
                "weight of the estimated chance that the next player can meld the discard with its own hand",
            ),
        ),
        "Discards avoiding what the next opponent can use (lay-offs on table melds, cards going with what it "
        "took from the pile, melds it would open in the pile, melds its hand likely makes) and sheds high "
        "cards as the deal nears its end; draws and plays as greedy.",
        kernel="strategies.persian.defensive_nb:defensive_decide", kind="heuristic",
    ),

    # ---- expert (strategies/persian/expert_nb.py) ----
    StrategyInfo(
        "expert",
        SID_EXPERT,
        (
            Param("max_depth", 55, 0, 55, int, "deepest discard-pile depth it considers"),
            Param("min_gain", -30.0, -100.0, 200.0, float, "least estimated gain (points) for a take"),
            Param("soon_weight", 0.5, 0.0, 2.0, float, "weight of taken cards likely to be melded soon"),
            Param("risk_weight", 0.5, 0.0, 5.0, float, "weight of the extra taken cards' value times the end pressure"),
            Param("near_hand", 1, 0, 7, int, "another seat with this many cards or fewer makes the end look near"),
            Param("hold_jokers", 1, 0, 1, bool, "hold three jokers back for the fourth"),
            Param("hold_sets", 1, 0, 1, bool, "hold three of another rank back for the fourth"),
            Param("give_up_stock", 0, 0, 27, int, "meld a held three once the stock has this many cards or fewer"),
            Param("hold_near_hand", 0, 0, 7, int, "meld a held three once an opponent holds this many cards or fewer"),
            Param("min_value", 2, 2, 15, int, "hold only ranks whose card value is at least this"),
            Param(
                "feed_weight", 12.0, 0.0, 20.0, float, "penalty per feeding mark on a discard (card value + 10 units)",
            ),
            Param("shed_weight", 3.0, 0.0, 5.0, float, "extra weight of a discard's value as the end nears"),
            Param("keep_partial", 0.0, 0.0, 100.0, float, "points for keeping a card that is in a partial meld"),
            Param(
                "pair_weight", 0.5, 0.0, 1.0, float,
                "fraction of a feeding mark for a discard pairing with a pile card",
            ),
            Param(
                "hand_weight", 2.0, 0.0, 20.0, float,
                "weight of the estimated chance that the next player can meld the discard from its own hand",
            ),
            Param("watch_table", 0, 0, 1, bool, "count lay-offs on table melds (direct or bridged) as feeding"),
        ),
        "deep_taker's draws, quad_holder's holding and defensive's discards combined, defaults tuned by "
        "duplicate matches against greedy and the single heuristics (docs/strategies.md).",
        kernel="strategies.persian.expert_nb:expert_decide", kind="heuristic",
    ),

    # ---- mc_search (strategies/persian/mc_search_nb.py) ----
    StrategyInfo(
        "mc_search",
        SID_MC_SEARCH,
        (
            Param("samples", 6, 1, 2000, int, "sampled worlds per decision (every candidate is played out in each)"),
            Param(
                "rollout_policy", 0, 0, 1, str, "policy of every seat in the play-outs",
                choices=("greedy", "random"),
            ),
            Param(
                "max_candidates", 2, 0, 512, int,
                "moves searched per decision, best by a cheap prior (expert's own order with base=expert, after "
                "learned's move with base=learned; "
                "the stock, a pass and stop are always kept; 0: every legal move)",
            ),
            Param("rollout_turns", 200, 0, 100_000, int, "play-outs stop after this many more turns (0: no limit)"),
            Param("rollout_max_extra", 30, 0, 400, int, "max_extra of the greedy play-out policy"),
            Param(
                "race_z", 2.5, 0.0, 10.0, float,
                "racing: a candidate leaves the search once its paired mean is this many standard errors "
                "below the leader's (0: every candidate is played out in every world)",
            ),
            Param("race_min", 6, 2, 2000, int, "racing: worlds every candidate is played in before any leaves"),
            Param(
                "base", 1, 0, 2, str, "whose move leads the candidates and wins exact ties",
                choices=("greedy", "expert", "learned"),
            ),
            Param(
                "select_z", 1.0, 0.0, 10.0, float,
                "play another move than the base's only when its paired mean is ahead by more than this many "
                "standard errors (0: the best mean)",
            ),
        ),
        "Determinized Monte Carlo search: samples the hidden cards consistently with what the seat "
        "sees, plays expert's move and its runner-up out with a fast policy in the same sampled worlds "
        "and leaves expert's move only for one clearly ahead. Slow next to the heuristics (a few hundred "
        "deals a second): a yardstick for them.",
        kernel="strategies.persian.mc_search_nb:mc_search_decide", kind="search",
    ),

    # ---- learned (strategies/persian/learned_nb.py, weights in learned_weights.py) ----
    StrategyInfo(
        "learned",
        SID_LEARNED,
        (),
        "Learned: expert, except at the draw, where a linear model over features of each move "
        "(strategies/persian/features_nb.py, expert's own choice one of them) picks the move; its weights were "
        "fitted to the values of every legal move played out from the true hands (rummy-sim train learned, "
        "two rounds of expert iteration, then a 1.5-point margin for leaving expert's draw; learned_weights.py). "
        "Against expert on fresh duplicate deals: +8.3 [+8.0, +8.6] points per deal (160,000 deal sets, "
        "seed 20261209).",
        kernel="strategies.persian.learned_nb:learned_decide", kind="learned",
    ),
)
