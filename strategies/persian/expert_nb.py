"""`expert`: deep_taker's draws, quad_holder's holding and defensive's discards in one
player, with defaults tuned by duplicate matches (docs/strategies.md, "expert").

Idea.
* Draw: the take with the highest estimated gain (deep_taker: points put down now,
  four of a kind doubled, plus soon-to-meld extras, minus the extras' value weighted
  by how near the end looks), taken when the gain is at least ``min_gain``; the
  fourth card of a held three shows up in that gain through the doubling.
* Plays: everything it can, highest points first, except that it holds three jokers
  (``hold_jokers``) or three of another rank worth at least ``min_value``
  (``hold_sets``) while the fourth is live, until the stock is down to
  ``give_up_stock`` or an opponent holds ``hold_near_hand`` cards or fewer
  (quad_holder).
* Discard: defensive's score (fed points through lay-offs, the next opponent's known
  cards, pile melds and its likely hand; shedding high cards near the end, keeping
  partial melds), always watching the taken cards and the pile; held cards are kept.

Parameters (params array slots):
  0 ``max_depth``       1 ``min_gain``       2 ``soon_weight``   3 ``risk_weight``
  4 ``near_hand``       5 ``hold_jokers``    6 ``hold_sets``     7 ``give_up_stock``
  8 ``hold_near_hand``  9 ``min_value``     10 ``feed_weight``  11 ``shed_weight``
 12 ``keep_partial``   13 ``pair_weight``   14 ``hand_weight``  15 ``watch_table``
(meanings as in deep_taker, quad_holder and defensive; near_hand is the end-pressure
threshold of the draw and discard estimates, hold_near_hand quad_holder's near_hand).
"""

import numpy as np
from numba import njit

from sim.games.persian.enums import D_DRAW, D_PLAY, O_HAND, O_STOCK_N
from strategies.persian.deep_taker_nb import best_take
from strategies.persian.defensive_nb import careful_discard
from strategies.persian.greedy_nb import greedy_play
from strategies.persian.hand_melds_nb import held_threes
from strategies.persian.moves_nb import blind_draw, play_keeping
from strategies.persian.table_nb import opponent_near_out

P_MAX_DEPTH = 0
P_MIN_GAIN = 1
P_SOON_WEIGHT = 2
P_RISK_WEIGHT = 3
P_NEAR_HAND = 4
P_HOLD_JOKERS = 5
P_HOLD_SETS = 6
P_GIVE_UP_STOCK = 7
P_HOLD_NEAR_HAND = 8
P_MIN_VALUE = 9
P_FEED_WEIGHT = 10
P_SHED_WEIGHT = 11
P_KEEP_PARTIAL = 12
P_PAIR_WEIGHT = 13
P_HAND_WEIGHT = 14
P_WATCH_TABLE = 15


@njit(cache=True, _nrt=False)
def expert_held(obs, params):
    """The three-of-a-kind cards it keeps back right now (0 once it gives up)."""
    if obs[O_STOCK_N] <= params[P_GIVE_UP_STOCK] or opponent_near_out(obs, params[P_HOLD_NEAR_HAND]):
        return np.int64(0)
    return held_threes(obs, obs[O_HAND], params[P_HOLD_JOKERS] != 0, params[P_HOLD_SETS] != 0, params[P_MIN_VALUE])


@njit(cache=True, _nrt=False)
def expert_decide(decision, obs, moves, n, params, rng):
    """The strategy's choice among the ``n`` legal moves (sim.plugin.strategy.STRATEGY_SIG;
    the observation's slots are P10's).
    """
    if decision == D_DRAW:
        i, gain = best_take(
            obs, moves, n, params[P_MAX_DEPTH], params[P_SOON_WEIGHT], params[P_RISK_WEIGHT], params[P_NEAR_HAND]
        )
        if i >= 0 and gain >= params[P_MIN_GAIN]:
            return i
        return blind_draw(moves, n)
    held = expert_held(obs, params)
    if decision == D_PLAY:
        if held == 0:
            return greedy_play(obs, moves, n)
        return play_keeping(obs, moves, n, held)
    return careful_discard(
        obs, moves, n, held, params[P_FEED_WEIGHT], params[P_WATCH_TABLE] != 0, True, True,
        params[P_SHED_WEIGHT], params[P_NEAR_HAND], params[P_KEEP_PARTIAL], params[P_PAIR_WEIGHT],
        params[P_HAND_WEIGHT],
    )
