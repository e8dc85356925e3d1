"""`deep_taker`: digs into the discard pile when the cards it gets are worth more than
the risk of holding them.

Idea. Every legal take from depth d brings the target and the d cards above it. For
each take down to ``max_depth`` it estimates

    gain = now + soon_weight * soon - risk_weight * end * extra

* ``now``: table points it could put down after the take minus those it could put
  down anyway (sets, runs, lay-offs from hand and taken cards; a four of a kind
  counts double under P8);
* ``soon``: value of the taken cards it cannot put down this turn that make a pair or
  a two-card run draw in its hand whose missing card is not on the table yet;
* ``extra``: value of all taken cards it cannot put down this turn;
* ``end``: 0..1, how close the deal looks to its end (another seat holding
  ``near_hand`` cards or fewer, and a shrinking stock; table_nb.end_pressure).

It takes the best take when its gain is at least ``min_gain``, else draws from the
stock (or passes on an empty stock). Plays and discards as greedy: everything it can
put down, highest-value card outside any partial meld.

Parameters (params array slots):
  0 ``max_depth``: deepest pile depth it considers (0 = top card only).
  1 ``min_gain``: least estimated gain (points) for a take.
  2 ``soon_weight``: weight of the points likely to be melded soon.
  3 ``risk_weight``: weight of the extra cards' value (times the end pressure).
  4 ``near_hand``: another seat with this many cards or fewer makes the end look near.
"""

from numba import njit

from sim.games.persian.enums import D_DRAW, D_PLAY, MV_TAKE, O_HAND
from sim.games.persian.cards_nb import mask_value
from strategies.persian.greedy_nb import greedy_discard, greedy_play
from strategies.persian.hand_melds_nb import live_partial_mask, meld_points_with
from strategies.persian.moves_nb import blind_draw
from strategies.persian.table_nb import end_pressure, table_facts

P_MAX_DEPTH = 0
P_MIN_GAIN = 1
P_SOON_WEIGHT = 2
P_RISK_WEIGHT = 3
P_NEAR_HAND = 4


@njit(cache=True, _nrt=False)
def best_take(obs, moves, n, max_depth, soon_weight, risk_weight, near_hand):
    """(index, gain) of the take with the highest estimated gain, or (-1, -inf).

    Parameters
    ----------
    obs : the seat's observation (P10)
    moves, n : the legal draw rows, ``n`` of them
    max_depth : deepest pile depth considered
    soon_weight, risk_weight, near_hand : the weights and end-pressure threshold of the gain (module docstring)
    """
    hand = obs[O_HAND]
    dead, lay, _ = table_facts(obs)  # gathered once for every take (hand_melds_nb.meldable_with)
    _, base = meld_points_with(hand, obs, lay)
    risk = risk_weight * end_pressure(obs, near_hand)
    best = -1
    best_gain = -1e18
    for i in range(n):
        if moves[i, 0] != MV_TAKE or moves[i, 1] > max_depth:
            continue
        taken = moves[i, 3]
        h2 = hand | taken
        used, pts = meld_points_with(h2, obs, lay)
        extra = taken & ~used
        soon = mask_value(extra & live_partial_mask(h2 & ~used, dead))
        gain = (pts - base) + soon_weight * soon - risk * mask_value(extra)
        if gain > best_gain:
            best_gain = gain
            best = i
    return best, best_gain


@njit(cache=True, _nrt=False)
def deep_taker_decide(decision, obs, moves, n, params, rng):
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
    if decision == D_PLAY:
        return greedy_play(obs, moves, n)
    return greedy_discard(obs, moves, n)
