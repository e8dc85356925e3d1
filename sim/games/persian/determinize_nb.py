"""Determinization: a complete deal state built from one seat's observation (P10).

A search strategy may not look at the hidden cards, so it samples them: every card
the seat cannot place is dealt at random to the hands it cannot see and to the
stock, keeping every public fact the observation gives. What a seat's view leaves
open is the game's knowledge, so this lives with the game: mc_search
(strategies/persian/mc_search_nb.py) and decision analysis (decisions_nb.py) use it.

What the seat sees (the O_* slots only; the true state is never an input):

* its own hand (``obs[O_HAND]``), the discard pile and the melds on the table;
* every hand size and the stock size;
* ``O_TAKEN``: every card each seat has taken from the pile. A card that seat o
  took and that is now neither in the pile, on the table nor in the deciding
  seat's hand is still in o's hand (a card leaves a hand only to the table or to
  the pile, and leaves the pile only when someone takes it), so it stays with o in
  every sampled world.

  Ambiguity **[documented choice]**: when such a card appears in the O_TAKEN masks
  of two or more *other* seats (one took it, discarded it, another took it...) and
  is in neither the pile nor on the table, the observation alone cannot say who
  holds it now (O_TAKEN is a mask, not an ordered history). The card is then
  treated as unknown: it joins the pool of unseen cards dealt at random (it may
  even land in the stock in a sampled world). This is rare and only slightly
  widens the sampled set of worlds. The deciding seat's own O_TAKEN never matters:
  if it took a card it no longer holds, the card is on the table, in the pile or
  was taken again by someone else.

The unseen pool is all 56 cards minus the own hand, the pile, the table and the
publicly known cards above. It is put in card-id order (a function of the
observation only), shuffled with the caller's generator (``sim.core.rng_nb.shuffle_inplace``,
the deck's Fisher-Yates), and dealt: each other seat gets as many as its hand size minus
its known cards (seats in order), the rest is the stock (bottom first). The draws
consumed from the generator depend only on the observation, so two states a seat
cannot tell apart give the same sampled worlds for the same generator state.

No further inference (e.g. from the cards an opponent declined to take) is made:
every deal of the unseen cards consistent with the counts is equally likely.
"""

import numpy as np
from numba import njit

from sim.games.persian.cards_nb import ALL_CARDS, bit, lowest_card, popcount
from sim.games.persian.enums import (
    N_CARDS,
    N_SEATS,
    O_HAND,
    O_HAND_SIZES,
    O_PILE_N,
    O_SEAT,
    O_STOCK_N,
    O_TAKEN,
    O_TABLE_CARDS,
    OBS_SIZE,
    S_HANDS,
    S_STOCK,
    ST_SIZE,
    STOCK_SIZE,
)
from sim.games.persian.state_nb import pile_mask
from sim.core.rng_nb import shuffle_inplace


@njit(cache=True)
def known_holdings(obs, known):
    """Fill ``known[s]`` with the cards seat s publicly holds (its O_TAKEN cards not
    seen elsewhere, ambiguous ones dropped); the deciding seat gets its own hand.
    Returns the mask of every card whose place the seat knows (own hand, pile,
    table, known holdings)."""
    seat = obs[O_SEAT]
    own = obs[O_HAND]
    seen = own | pile_mask(obs, obs[O_PILE_N] - 1) | obs[O_TABLE_CARDS]  # own hand, the whole pile, the table
    once = np.int64(0)
    twice = np.int64(0)
    for o in range(N_SEATS):
        if o == seat:
            continue
        cand = obs[O_TAKEN + o] & ~seen
        twice |= once & cand
        once |= cand
    placed = seen
    for o in range(N_SEATS):
        if o == seat:
            known[o] = own
            continue
        k = obs[O_TAKEN + o] & ~seen & ~twice
        # never more known cards than the hand holds (cannot happen in a real deal;
        # keeps a hand-built observation from producing an impossible world)
        while popcount(k) > obs[O_HAND_SIZES + o]:
            k &= k - 1
        known[o] = k
        placed |= k
    return placed


@njit(cache=True)
def unseen_pool(obs, known, pool):
    """Write the unseen cards (card-id order) into ``pool``; returns how many."""
    placed = known_holdings(obs, known)
    rest = ALL_CARDS & ~placed
    n = 0
    while rest != 0:
        low = rest & -rest
        pool[n] = lowest_card(low)
        n += 1
        rest ^= low
    return n


@njit(cache=True)
def deal_into(obs, pool, n, st, known):
    """Fill ``st`` (ST_SIZE) with the world that deals the unseen cards ``pool[:n]`` in their
    order (module docstring: each other seat its hand size minus its known cards, seats in
    order, then the stock bottom first); ``known`` as unseen_pool left it."""
    seat = obs[O_SEAT]
    for i in range(OBS_SIZE):
        st[i] = obs[i]
    p = 0
    for o in range(N_SEATS):
        h = known[o]
        if o != seat:
            need = obs[O_HAND_SIZES + o] - popcount(h)
            for _ in range(need):
                if p < n:
                    h |= bit(pool[p])
                    p += 1
        st[S_HANDS + o] = h
    stock_n = obs[O_STOCK_N]
    for i in range(STOCK_SIZE):
        st[S_STOCK + i] = 0
    for i in range(stock_n):
        if p < n:
            st[S_STOCK + i] = pool[p]
            p += 1
    return st


@njit(cache=True)
def pool_places(obs, known, n, place):
    """Fill ``place[i]`` with where deal_into puts the unseen card ``pool[i]``: the other seat
    o, or N_SEATS for the stock (``known`` as unseen_pool left it; a function of the
    observation: the places' sizes are public). The hidden places a swap of two unseen cards
    moves between."""
    seat = obs[O_SEAT]
    p = 0
    for o in range(N_SEATS):
        if o == seat:
            continue
        need = obs[O_HAND_SIZES + o] - popcount(known[o])
        for _ in range(need):
            if p < n:
                place[p] = o
                p += 1
    while p < n:
        place[p] = N_SEATS
        p += 1


@njit(cache=True)
def determinize_into(obs, rng, st, known, pool):
    """Fill ``st`` (ST_SIZE) with one world consistent with ``obs``, drawn with ``rng``.

    ``known`` (N_SEATS) and ``pool`` (N_CARDS) are scratch arrays. The public slots
    are copied from ``obs``; the hidden slots (hands, stock) are sampled: the unseen
    cards shuffled, then dealt by deal_into.
    """
    n = unseen_pool(obs, known, pool)
    shuffle_inplace(pool[:n], rng)
    return deal_into(obs, pool, n, st, known)


@njit(cache=True)
def determinize(obs, rng):
    """A fresh full state (ST_SIZE) sampled from what ``obs``'s seat may see."""
    st = np.zeros(ST_SIZE, np.int64)
    known = np.zeros(N_SEATS, np.int64)
    pool = np.zeros(N_CARDS, np.int64)
    return determinize_into(obs, rng, st, known, pool)
