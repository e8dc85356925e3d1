"""`quad_holder`: sits on three of a kind (jokers, other ranks: separate switches)
waiting for the fourth, since four melded at once count double (P8: four jokers 160
instead of 60 + 20).

Idea. A *held three* is exactly three cards of one rank in hand (or three jokers),
its kind switched on, of a rank worth at least ``min_value`` (jokers always qualify),
whose fourth card is still live (not in a meld on the table; it may be in the pile,
the stock or another hand). While it holds, it plays greedy's best play among those
that use no held card (no meld, run or lay-off takes one of them) and never discards
a held card. It gives up, and plays greedily (melding the three), when the stock is
down to ``give_up_stock`` cards or an opponent holds ``near_hand`` cards or fewer;
and when only held cards are left in its hand (putting them down goes out, where
keeping them would force a held card onto the pile).

Draws: as greedy (a take for an immediate meld, extras worth at most ``max_extra``),
but a four counts double in the value of a take, and with ``take_fourth`` a take
that brings the fourth card of a held three is considered whatever the extras are
worth (still chosen only if it is the best take by points gained minus extras).

Parameters (params array slots):
  0 ``hold_jokers``: hold three jokers for the fourth (bool).
  1 ``hold_sets``: hold three of another rank for the fourth (bool).
  2 ``give_up_stock``: meld the three once the stock has this many cards or fewer.
  3 ``near_hand``: meld the three once an opponent holds this many cards or fewer.
  4 ``take_fourth``: consider a take of the fourth card whatever the extras (bool).
  5 ``max_extra``: largest value of extra taken cards for an ordinary take (greedy's).
  6 ``min_value``: hold only ranks whose card value is at least this (2..15).
"""

import numpy as np
from numba import njit

from sim.games.persian.cards_nb import mask_value
from sim.games.persian.enums import D_DRAW, D_PLAY, MV_TAKE, O_HAND, O_STOCK_N
from strategies.persian.greedy_nb import greedy_play
from strategies.persian.hand_melds_nb import (
    fourth_cards,
    held_threes,
    highest_card,
    meld_points_with,
    partial_meld_mask,
)
from strategies.persian.moves_nb import blind_draw, discard_index, play_keeping
from strategies.persian.table_nb import layoff_cards, opponent_near_out

P_HOLD_JOKERS = 0
P_HOLD_SETS = 1
P_GIVE_UP_STOCK = 2
P_NEAR_HAND = 3
P_TAKE_FOURTH = 4
P_MAX_EXTRA = 5
P_MIN_VALUE = 6


@njit(cache=True, _nrt=False)
def quad_draw(obs, moves, n, max_extra, fourth):
    """Greedy's draw with doubled fours; a take holding a card of ``fourth`` skips the
    ``max_extra`` limit."""
    hand = obs[O_HAND]
    lay = layoff_cards(obs)  # gathered once for every take (hand_melds_nb.meldable_with)
    _, base = meld_points_with(hand, obs, lay)
    best = -1
    best_score = -1e18
    for i in range(n):
        if moves[i, 0] != MV_TAKE:
            continue
        taken = moves[i, 3]
        used, pts = meld_points_with(hand | taken, obs, lay)
        extra = mask_value(taken & ~used)
        if extra > max_extra and (taken & fourth) == 0:
            continue
        score = pts - base - extra
        if score > best_score:
            best_score = score
            best = i
    if best >= 0:
        return best
    return blind_draw(moves, n)


@njit(cache=True, _nrt=False)
def discard_keeping(obs, moves, n, keep):
    """Greedy's discard (highest card in no partial meld) among the cards not in ``keep``."""
    hand = obs[O_HAND]
    cand = hand & ~keep
    if cand == 0:
        cand = hand
    loose = cand & ~partial_meld_mask(hand)
    pick = highest_card(loose) if loose != 0 else highest_card(cand)
    return discard_index(moves, n, pick)


@njit(cache=True, _nrt=False)
def holding(obs, params):
    """The held cards right now (0 once it gives up)."""
    if obs[O_STOCK_N] <= params[P_GIVE_UP_STOCK] or opponent_near_out(obs, params[P_NEAR_HAND]):
        return np.int64(0)
    return held_threes(obs, obs[O_HAND], params[P_HOLD_JOKERS] != 0, params[P_HOLD_SETS] != 0, params[P_MIN_VALUE])


@njit(cache=True, _nrt=False)
def quad_holder_decide(decision, obs, moves, n, params, rng):
    """The strategy's choice among the ``n`` legal moves (sim.plugin.strategy.STRATEGY_SIG;
    the observation's slots are P10's).
    """
    hand = obs[O_HAND]
    if decision == D_DRAW:
        fourth = np.int64(0)
        if params[P_TAKE_FOURTH] != 0:
            three = held_threes(obs, hand, params[P_HOLD_JOKERS] != 0, params[P_HOLD_SETS] != 0, params[P_MIN_VALUE])
            fourth = fourth_cards(hand, three)
        return quad_draw(obs, moves, n, params[P_MAX_EXTRA], fourth)
    held = holding(obs, params)
    if decision == D_PLAY:
        if held == 0:
            return greedy_play(obs, moves, n)
        return play_keeping(obs, moves, n, held)
    return discard_keeping(obs, moves, n, held)
