"""`defensive`: discards with an eye on what the next opponent can use, and sheds its
high cards as the deal nears its end.

Idea. The seat after it (always an opponent, P2) sees each discard first, and can take
it alone or dig under it into the pile (P6.1). From public information only (P10) it
estimates, for every candidate discard, the points it would hand that player
("fed" points, in units of the card's value + 10):

* ``watch_table``: 1 if it can be laid off on a table meld (only cards it keeps back
  can: the plays before the discard put down every lay-off it has), and, in the hand
  estimate below, the chance that the next player holds the card bridging it to the
  end of a table run;
* ``watch_taken``: 1 if it goes with a card the next opponent took from the pile and,
  by the public record, still holds (same rank, same suit up to two ranks away, a
  joker with a joker); those cards also count as surely in that hand below;
* ``watch_pile``: 1 if it makes a meld with a pile card and a third card that is in
  the pile or known in that hand (the taker digs down to that card and melds at
  once), else ``pair_weight`` if it pairs with a pile card whose third card is still
  live (not on the table);
* ``hand_weight`` times the estimated chance that the next player can meld it with
  two cards of its own hand (each unseen card is in that hand with probability
  hand size / unseen cards).

Each discard scores

    value * (1 + shed_weight * end) - feed_weight * fed - keep_partial * [in a partial meld]

and the highest score is discarded (``end`` 0..1: how near the end looks, another seat
holding ``near_hand`` cards or fewer, a shrinking stock). With feed_weight 0,
shed_weight 0 and keep_partial >= 20 this is exactly greedy's discard. Draws and plays
are greedy's.

Parameters (params array slots):
  0 ``max_extra``: largest value of extra taken cards for a take (as greedy).
  1 ``feed_weight``: weight of fed points against the card's own value.
  2 ``watch_table``: count lay-offs on table melds (direct, or bridged) (bool).
  3 ``watch_taken``: count the next opponent's known cards (bool).
  4 ``watch_pile``: count melds the discard opens in the pile (bool).
  5 ``shed_weight``: extra weight of a card's value as the end nears.
  6 ``near_hand``: another seat with this many cards or fewer makes the end look near.
  7 ``keep_partial``: points for keeping a card that is in a partial meld.
  8 ``pair_weight``: share of a pile mark when the third card is only live.
  9 ``hand_weight``: weight of the chance that the next player melds it from its hand.
"""

import numpy as np
from numba import njit, types

from sim.games.persian.cards_nb import ALL_CARDS, CARD_VALUES, popcount
from sim.games.persian.enums import (
    D_DRAW,
    D_PLAY,
    MV_DISCARD,
    N_SEATS,
    O_HAND,
    O_HAND_SIZES,
    O_PLACED,
    O_SEAT,
    O_TAKEN,
)
from sim.games.persian.state_nb import next_seat, seat_after
from strategies.persian.greedy_nb import greedy_draw, greedy_play
from strategies.persian.feed_nb import FEED_BASE, hand_feed_chance, pile_feed_masks
from strategies.persian.hand_melds_nb import partial_meld_mask, wanted_mask
from strategies.persian.table_nb import end_pressure, pile_cards, table_facts

P_MAX_EXTRA = 0
P_FEED_WEIGHT = 1
P_WATCH_TABLE = 2
P_WATCH_TAKEN = 3
P_WATCH_PILE = 4
P_SHED_WEIGHT = 5
P_NEAR_HAND = 6
P_KEEP_PARTIAL = 7
P_PAIR_WEIGHT = 8
P_HAND_WEIGHT = 9


# an explicit signature: expert passes literal flags, a lazy kernel would compile a second copy
CAREFUL_DISCARD_SIG = types.int64(
    types.int64[::1], types.int64[:, ::1], types.int64, types.int64, types.float64, types.boolean, types.boolean,
    types.boolean, types.float64, types.float64, types.float64, types.float64, types.float64,
)


@njit(cache=True, _nrt=False)
def _bound(v, shed, feed_weight, fed, in_part, keep_partial):
    """A discard's score from its fed points: ``v * shed - feed_weight * fed``, less
    ``keep_partial`` for a card in a partial meld (these operations in this order: the
    pick, ties included, depends on the exact values)."""
    score = v * shed - feed_weight * fed
    if in_part:
        score -= keep_partial
    return score


@njit(CAREFUL_DISCARD_SIG, cache=True, _nrt=False)
def careful_discard(obs, moves, n, keep, feed_weight, watch_table, watch_taken, watch_pile, shed_weight,
                    near_hand, keep_partial, pair_weight, hand_weight):
    """The discard with the best score (see the module docstring); never a ``keep``
    card unless every card is one.

    Parameters
    ----------
    obs : the seat's observation (P10)
    moves, n : the legal discard rows, ``n`` of them
    keep : mask of cards never discarded unless every card is one
    feed_weight, watch_table, watch_taken, watch_pile, shed_weight, near_hand, keep_partial, pair_weight, hand_weight :
        as the parameters of the same names (module docstring)
    """
    hand = obs[O_HAND]
    seat = obs[O_SEAT]
    nxt = next_seat(seat)
    pile = pile_cards(obs)
    dead, table_lay, bridges = table_facts(obs)  # one pass over the melds
    placed = np.int64(0)
    for s in range(N_SEATS):
        placed |= obs[O_PLACED + s]
    # cards a seat took from the pile and that are in no meld, not back in the pile and not in
    # this hand: by the public record still in that seat's hand (P10)
    held_elsewhere = ~placed & ~pile & ~hand
    known = obs[O_TAKEN + nxt] & held_elsewhere
    lay = table_lay if watch_table else np.int64(0)
    if not watch_table:
        bridges = np.int64(0)  # hand_feed_chance counts bridges only when watching the table
    want = wanted_mask(known) if watch_taken else np.int64(0)
    # the next player's hand: ``sure`` cards for certain, each ``maybe`` card with chance q
    sure = known if watch_taken else np.int64(0)
    others_known = (obs[O_TAKEN + seat_after(seat, 2)] | obs[O_TAKEN + seat_after(seat, 3)]) & held_elsewhere & ~known
    maybe = ALL_CARDS & ~hand & ~dead & ~pile & ~others_known & ~sure
    q = 0.0
    n_maybe = popcount(maybe)
    if n_maybe > 0:
        q = min(max((obs[O_HAND_SIZES + nxt] - popcount(sure)) / n_maybe, 0.0), 1.0)
    part = partial_meld_mask(hand)
    # pile_key_feed of every card at once: the full worth for ``pile_full``, pair_weight times
    # it for ``pile_pair``, else 0 (the candidates are hand cards, as pile_feed_masks needs)
    pile_full, pile_pair = pile_feed_masks(pile, known, dead) if watch_pile else (np.int64(0), np.int64(0))
    shed = 1.0 + shed_weight * end_pressure(obs, near_hand)
    only_keep = (hand & ~keep) == 0
    # The pick: the highest score at least -1e18, ties to the highest row. The rows are
    # visited from the last (high cards first), so a tie keeps the first found. Every
    # candidate is scored in full, with selects rather than branches: with the pile feed
    # read from two masks and hand_feed_chance inlined (~13 ns), scoring a card costs
    # less than the mispredicted branches of the earlier bound that skipped some of them
    # (the pick is the same: that bound only ever skipped cards that could not win).
    best = -1
    best_score = -1e18
    for i in range(n - 1, -1, -1):
        c = moves[i, 1]
        b = np.int64(1) << c
        if moves[i, 0] != MV_DISCARD or ((b & keep) != 0 and not only_keep):
            continue
        v = CARD_VALUES[c]
        worth = v + FEED_BASE
        feeds = (1.0 if b & lay else 0.0) + (1.0 if b & want else 0.0)  # 0, 1 or 2, exactly
        fed = feeds * worth
        # pile_key_feed's value; adding its 0.0 changes nothing (fed is never -0.0)
        fed += worth if b & pile_full else (pair_weight * worth if b & pile_pair else 0.0)
        if hand_weight > 0.0:
            fed += hand_weight * hand_feed_chance(c, obs, sure, maybe, q, (b & bridges) != 0) * worth
        score = _bound(v, shed, feed_weight, fed, (b & part) != 0, keep_partial)
        # bitwise, not ``or``/``and``: no branch, so the next candidates' arithmetic overlaps
        better = (score > best_score) | ((best < 0) & (score >= best_score))
        best_score = score if better else best_score
        best = i if better else best
    if best < 0:
        return 0
    return best


@njit(cache=True, _nrt=False)
def defensive_decide(decision, obs, moves, n, params, rng):
    """The strategy's choice among the ``n`` legal moves (sim.plugin.strategy.STRATEGY_SIG;
    the observation's slots are P10's).
    """
    if decision == D_DRAW:
        return greedy_draw(obs, moves, n, params)  # reads params[0] = max_extra, as greedy
    if decision == D_PLAY:
        return greedy_play(obs, moves, n)
    return careful_discard(
        obs, moves, n, np.int64(0), params[P_FEED_WEIGHT], params[P_WATCH_TABLE] != 0, params[P_WATCH_TAKEN] != 0,
        params[P_WATCH_PILE] != 0, params[P_SHED_WEIGHT], params[P_NEAR_HAND], params[P_KEEP_PARTIAL],
        params[P_PAIR_WEIGHT], params[P_HAND_WEIGHT],
    )
