"""Features of a (position, move) pair for the `learned` strategy (a compiled kernel).

``move_features(decision, obs, moves, i, chosen, out)`` writes N_FEATURES floats describing what
move ``i`` of the legal list leaves the deciding seat with, from what that seat may see (P10).
Only differences between the moves of one decision matter to a move-scoring model (the best
score wins), so every feature depends on the move; the position enters through products (the
deadwood times how near the end looks, P7) and through one weight vector per decision kind.

The hand after the move (``after``): a take (P6.2) adds the cards taken, a stock draw or a pass
(P6.1) leaves the hand as it is (the drawn card is unknown), a meld or lay-off (P6.3) removes its
cards, a discard (P6.5) removes the card. Card values are P4's, meld points P8's.

  0 F_EXPERT     1 when ``i`` is ``chosen`` (expert's move: the model learns corrections to it)
  1 F_POINTS     table points the move scores now (a meld or lay-off), / 100
  2 F_MELD_PTS   points ``after`` could put down now (hand_melds_nb.meld_points), / 100
  3 F_DEADWOOD   value of the cards of ``after`` outside those melds, / 100
  4 F_DEAD_END   F_DEADWOOD times the end pressure (table_nb.end_pressure, near_hand 1)
  5 F_CARDS      cards in ``after``, / 10
  6 F_JOKERS     jokers in ``after``
  7 F_TAKEN_VAL  value of the cards a take brings, / 100
  8 F_DEPTH      a take's pile depth, / 10
  9 F_PARTIAL    deadwood cards of ``after`` in a partial meld, / 10
 10 F_FEED_TABLE a discard that one lay-off puts on a table meld (P6.3)
 11 F_FEED_TAKEN a discard that makes a partial meld with a card the next seat took from the pile
 12 F_STOP       the move ends the plays (MV_STOP)
 13 F_BLIND      a draw that takes no pile card (the stock, or a pass)

tests/persian/feature_ref.py computes the same features in plain Python; tests/persian/
test_features.py checks that they agree on positions from played deals.
"""

import numpy as np
from numba import njit

from sim.games.persian.cards_nb import JOKERS, mask_value, popcount
from sim.games.persian.enums import (
    MV_DISCARD,
    MV_LAYOFF,
    MV_MELD,
    MV_PASS,
    MV_STOCK,
    MV_STOP,
    MV_TAKE,
    O_HAND,
    O_LAYOFF_CARDS,
    O_SEAT,
    O_TABLE_CARDS,
    O_TAKEN,
)
from sim.games.persian.state_nb import next_seat
from strategies.persian.feed_nb import related_cards
from strategies.persian.hand_melds_nb import meld_points, partial_meld_mask
from strategies.persian.moves_nb import move_points
from strategies.persian.table_nb import end_pressure

N_FEATURES = 14
FEATURE_NAMES = (
    "expert", "points", "meld_pts", "deadwood", "dead_end", "cards", "jokers", "taken_val", "depth",
    "partial", "feed_table", "feed_taken", "stop", "blind",
)
END_NEAR_HAND = 1  # the end pressure's near_hand (expert's default)


@njit(cache=True, _nrt=False)
def hand_after(obs, moves, i):
    """The deciding seat's hand once move ``i`` is made (a stock card unknown: not added)."""
    hand = obs[O_HAND]
    kind = moves[i, 0]
    if kind == MV_TAKE:
        return hand | moves[i, 3]
    if kind == MV_MELD:
        return hand & ~moves[i, 1]
    if kind == MV_LAYOFF or kind == MV_DISCARD:
        return hand & ~(np.int64(1) << moves[i, 1])
    return hand


@njit(cache=True, _nrt=False)
def move_features(decision, obs, moves, i, chosen):
    """The N_FEATURES features of move ``i`` as a tuple of floats (see the module docstring)."""
    kind = moves[i, 0]
    after = hand_after(obs, moves, i)
    used, pts = meld_points(after, obs)
    dead = after & ~used
    deadwood = mask_value(dead) / 100.0
    feed_table = 0.0
    feed_taken = 0.0
    if kind == MV_DISCARD:
        card = moves[i, 1]
        if (obs[O_LAYOFF_CARDS] >> card) & 1:
            feed_table = 1.0
        taken = obs[O_TAKEN + next_seat(obs[O_SEAT])] & ~obs[O_TABLE_CARDS]
        if related_cards(card) & taken != 0:
            feed_taken = 1.0
    return (
        1.0 if i == chosen else 0.0,
        move_points(obs, moves, i) / 100.0,
        pts / 100.0,
        deadwood,
        deadwood * end_pressure(obs, END_NEAR_HAND),
        popcount(after) / 10.0,
        float(popcount(after & JOKERS)),
        mask_value(moves[i, 3]) / 100.0 if kind == MV_TAKE else 0.0,
        moves[i, 1] / 10.0 if kind == MV_TAKE else 0.0,
        popcount(partial_meld_mask(dead) & dead) / 10.0,
        feed_table,
        feed_taken,
        1.0 if kind == MV_STOP else 0.0,
        1.0 if kind == MV_STOCK or kind == MV_PASS else 0.0,
    )


@njit(cache=True)
def features_into(decision, obs, moves, n, chosen, out):
    """Every legal move's features as the rows of ``out`` (n x N_FEATURES): training and tests."""
    for i in range(n):
        f = move_features(decision, obs, moves, i, chosen)
        for k in range(N_FEATURES):
            out[i, k] = f[k]
