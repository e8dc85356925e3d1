"""`greedy`: take from the pile only for an immediate meld with cheap extras, put
down everything it can, discard its highest card outside any partial meld.

Parameters (params array slots):
  0 ``max_extra``: largest total value of the extra taken cards (those above the
    target that it cannot put down this turn) it accepts for a discard-pile take.
"""

import numpy as np
from numba import njit

from sim.games.persian.cards_nb import mask_value
from sim.games.persian.enums import (
    D_DRAW,
    D_PLAY,
    JOKER0,
    MV_DISCARD,
    MV_TAKE,
    O_HAND,
)
from strategies.persian.hand_melds_nb import highest_card, meldable_with, partial_meld_mask
from strategies.persian.moves_nb import blind_draw, move_points
from strategies.persian.table_nb import layoff_cards

P_MAX_EXTRA = 0


@njit(cache=True, _nrt=False, inline="always")
def greedy_draw(obs, moves, n, params):
    """The best cheap take (gain in meldable points minus extra cards), else stock/pass."""
    hand = obs[O_HAND]
    lay = layoff_cards(obs)  # gathered once for every take (meldable_with)
    base = mask_value(meldable_with(hand, obs, lay))
    best = -1
    best_score = -1e18
    for i in range(n):
        if moves[i, 0] != MV_TAKE:
            continue
        taken = moves[i, 3]
        h2 = hand | taken
        used = meldable_with(h2, obs, lay)
        extra = mask_value(taken & ~used)
        if extra > params[P_MAX_EXTRA]:
            continue
        score = mask_value(used) - base - extra
        if score > best_score:
            best_score = score
            best = i
    if best >= 0:
        return best
    return blind_draw(moves, n)


@njit(cache=True, _nrt=False, inline="always")
def greedy_play(obs, moves, n):
    """The play worth most points; stop only when nothing else is legal."""
    best = -1
    best_v = -1
    for i in range(n):
        v = move_points(obs, moves, i)
        if v > best_v and v > 0:
            best_v = v
            best = i
    if best >= 0:
        return best
    return 0  # only stop is left


@njit(cache=True, _nrt=False, inline="always")
def greedy_discard(obs, moves, n):
    """Highest-value card in no partial meld; if every card is in one, the highest card."""
    hand = obs[O_HAND]
    loose = hand & ~partial_meld_mask(hand)
    pick = highest_card(loose) if loose != 0 else highest_card(hand)
    card_bit = np.int64(1) << pick
    for i in range(n):
        c = moves[i, 1]
        if moves[i, 0] == MV_DISCARD and ((np.int64(1) << c) == card_bit or (c >= JOKER0 and pick >= JOKER0)):
            return i
    return 0


@njit(cache=True, _nrt=False)
def greedy_decide(decision, obs, moves, n, params, rng):
    """The strategy's choice among the ``n`` legal moves (sim.plugin.strategy.STRATEGY_SIG;
    the observation's slots are P10's).
    """
    if decision == D_DRAW:
        return greedy_draw(obs, moves, n, params)
    if decision == D_PLAY:
        return greedy_play(obs, moves, n)
    return greedy_discard(obs, moves, n)
