"""Indian Rummy determinization: a complete state sampled from one seat's observation (I9).

A search strategy may not look at hidden cards, so it deals them at random, keeping
every fact the observation makes public (the O_* slots only; the true state is never
an input). What a seat's view leaves open is the game's knowledge, so this lives with the
game; mc_search (strategies/indian/mc_search_nb.py) uses it:

* the seat's own hand (``obs[O_HAND]``, 13 or 14 cards) stays as it is;
* the discard pile's contents (``O_PILE_COUNTS``) and its top card (``O_TOP``);
* every pickup from the pile: seat o holds at least ``PICKED[o][k] - DISCARDED[o][k]``
  copies of kind k (a card enters a hand from the deal, the stock or the pile and
  leaves it only by a discard, so this many picked copies cannot have left). These
  *known* copies stay in o's hand in every sampled world;
* the cut joker (I2), face up at the bottom of the stock while the stock is still the
  dealt one (no I8 reshuffle yet): it stays the bottom card;
* hand sizes, the stock size, who is still in the deal (drops, wrong declarations).

Every other card of the shoe (``decks`` copies of each natural kind, ``N_JOKERS``
printed jokers) is *unseen*: in an opponent's hand, in the stock, or out of play (the
hands of players who dropped or declared wrongly left play unseen, I5, I7). The unseen cards, listed by kind (a function of the observation
only), are shuffled with the caller's generator (``sim.core.rng_nb.shuffle_inplace``) and
dealt: each opponent still in the deal, in seat order, gets its hand size minus its
known copies; then the stock (top first down to the cut joker's place); whatever is
left is out of play. So every deal of the unseen cards consistent with the counts is
equally likely; no other inference (e.g. from cards an opponent passed over) is made.

The pile's order below its top card is not in the observation beyond the last RING
discards (``O_RING``). It matters only once the top card is taken in a play-out and the
one below becomes the top. **[documented approximation]** The pile is rebuilt top
down: the top card, then the ring's discards from the newest back, each kept while the
pile still holds an unplaced copy of its kind, then any remaining cards (older than
the ring, or the first face-up card) in kind order at the bottom. With no pickups in
between this is the true order.
"""

import numpy as np
from numba import njit

from sim.games.indian.enums import (
    D_DISCARD,
    HAND_SIZE,
    JOKER,
    MAX_SEATS,
    MAX_SHOE,
    N_KINDS,
    O_CUT_JOKER,
    O_DECISION,
    O_DISCARDED,
    O_HAND,
    O_HAND_N,
    O_N_DISCARDS,
    O_PICKED,
    O_PICKUPS,
    O_PILE_COUNTS,
    O_PILE_N,
    O_PLAYERS,
    O_RING,
    O_RULES,
    O_SEAT,
    O_STATUS,
    O_STOCK_N,
    O_TOP,
    OBS_SIZE,
    R_DECKS,
    R_N_JOKERS,
    RING,
    S_FIRST_CHANCE,
    S_HANDS,
    S_PILE,
    S_STOCK,
    ST_IN,
    ST_SIZE,
)
from sim.core.rng_nb import shuffle_inplace


@njit(cache=True)
def original_stock(obs):
    """True while the stock is still the dealt one (no I8 reshuffle yet), so its bottom
    card is the face-up cut joker (I2). Every draw is a stock draw or a pickup, and every
    completed draw was followed by a discard (or a declaration, also a discard)."""
    players = obs[O_PLAYERS]
    decks = obs[O_RULES + R_DECKS]
    dealt = 54 * decks - HAND_SIZE * players - 1
    draws = obs[O_N_DISCARDS] + (1 if obs[O_DECISION] == D_DISCARD else 0)
    for s in range(players):
        draws -= obs[O_PICKUPS + s]
    return draws + obs[O_STOCK_N] == dealt


@njit(cache=True)
def known_copies(obs, known, avail):
    """Fill ``known[s * N_KINDS + k]`` with the copies of kind k seat s publicly holds
    (opponents still in the deal: picked minus discarded, never below 0) and ``avail``
    with the unseen copies of each kind; returns whether the cut joker is the stock's
    bottom card. Known copies are clipped to what is unseen (a hand-built observation
    never yields an impossible world)."""
    seat = obs[O_SEAT]
    players = obs[O_PLAYERS]
    decks = obs[O_RULES + R_DECKS]
    for k in range(JOKER):
        avail[k] = decks
    avail[JOKER] = obs[O_RULES + R_N_JOKERS]
    for k in range(N_KINDS):
        avail[k] -= obs[O_HAND + k] + obs[O_PILE_COUNTS + k]
    fixed = obs[O_STOCK_N] > 0 and original_stock(obs)
    if fixed:
        avail[obs[O_CUT_JOKER]] -= 1
    for k in range(N_KINDS):
        avail[k] = max(avail[k], 0)
    for s in range(MAX_SEATS):
        b = s * N_KINDS
        room = obs[O_HAND_N + s]
        for k in range(N_KINDS):
            known[b + k] = 0
        if s == seat or s >= players or obs[O_STATUS + s] != ST_IN:
            continue
        for k in range(N_KINDS):
            c = obs[O_PICKED + b + k] - obs[O_DISCARDED + b + k]
            c = min(c, avail[k])
            c = min(c, room)
            if c > 0:
                known[b + k] = c
                avail[k] -= c
                room -= c
    return fixed


@njit(cache=True)
def rebuild_pile(obs, st, rem):
    """Write the pile into ``st[S_PILE:]`` bottom first (see the module docstring);
    ``rem`` (int64[N_KINDS]) is scratch."""
    n = obs[O_PILE_N]
    if n == 0:
        return
    for k in range(N_KINDS):
        rem[k] = obs[O_PILE_COUNTS + k]
    pos = n - 1
    top = obs[O_TOP]
    st[S_PILE + pos] = top
    rem[top] -= 1
    nd = obs[O_N_DISCARDS]
    j = nd - 1
    while j >= 0 and j >= nd - RING and pos > 0:
        k = obs[O_RING + 2 * (j % RING) + 1]
        if rem[k] > 0:
            pos -= 1
            st[S_PILE + pos] = k
            rem[k] -= 1
        j -= 1
    for k in range(N_KINDS):
        while rem[k] > 0 and pos > 0:
            pos -= 1
            st[S_PILE + pos] = k
            rem[k] -= 1


@njit(cache=True)
def unseen_into(obs, known, avail, pool):
    """Write the unseen cards, listed by kind, into ``pool`` (>= MAX_SHOE) and the known copies
    into ``known`` (known_copies); returns (how many, whether the cut joker is the stock's
    bottom card). A function of the observation only."""
    fixed = known_copies(obs, known, avail)
    u = 0
    for k in range(N_KINDS):
        for _ in range(avail[k]):
            pool[u] = k
            u += 1
    return u, fixed


@njit(cache=True)
def deal_into(obs, pool, u, fixed, st, known, avail):
    """Fill ``st`` (ST_SIZE) with the world that deals the unseen cards ``pool[:u]`` in their
    order (module docstring: each opponent still in the deal, in seat order, its hand size minus
    its known copies, then the stock top first, the rest out of play); ``known`` as unseen_into
    left it, ``avail`` scratch. Returns how many unseen cards went out of play."""
    seat = obs[O_SEAT]
    players = obs[O_PLAYERS]
    for i in range(OBS_SIZE):
        st[i] = obs[i]
    for i in range(OBS_SIZE, ST_SIZE):
        st[i] = 0
    p = 0
    for s in range(players):
        b = S_HANDS + s * N_KINDS
        if s == seat:
            for k in range(N_KINDS):
                st[b + k] = obs[O_HAND + k]
            continue
        if obs[O_STATUS + s] != ST_IN:
            continue
        have = 0
        for k in range(N_KINDS):
            st[b + k] = known[s * N_KINDS + k]
            have += known[s * N_KINDS + k]
        need = obs[O_HAND_N + s] - have
        while need > 0 and p < u:
            st[b + pool[p]] += 1
            p += 1
            need -= 1
    stock_n = obs[O_STOCK_N]
    first = 0
    if fixed:
        st[S_STOCK] = obs[O_CUT_JOKER]
        first = 1
    for i in range(stock_n - 1, first - 1, -1):  # the top (last slot) first
        if p < u:
            st[S_STOCK + i] = pool[p]
            p += 1
    rebuild_pile(obs, st, avail)
    for s in range(MAX_SEATS):
        st[S_FIRST_CHANCE + s] = -1
    for k in range(N_KINDS):
        st[O_HAND + k] = 0  # as in the engine's state: the own hand lives in S_HANDS
    return u - p


@njit(cache=True)
def pool_places(obs, known, u, fixed, place):
    """Fill ``place[i]`` with where deal_into puts the unseen card ``pool[i]``: the opponent's
    seat, MAX_SEATS for the stock, MAX_SEATS + 1 out of play (``known``, ``fixed`` as
    unseen_into gave them; a function of the observation: the places' sizes are public). The
    hidden places a swap of two unseen cards moves between (infer.chain_worlds)."""
    seat = obs[O_SEAT]
    p = 0
    for s in range(obs[O_PLAYERS]):
        if s == seat or obs[O_STATUS + s] != ST_IN:
            continue
        need = obs[O_HAND_N + s]
        for k in range(N_KINDS):
            need -= known[s * N_KINDS + k]
        while need > 0 and p < u:
            place[p] = s
            p += 1
            need -= 1
    stock = obs[O_STOCK_N] - (1 if fixed else 0)  # the cut joker's place is public
    while p < u:
        place[p] = MAX_SEATS if stock > 0 else MAX_SEATS + 1
        stock -= 1
        p += 1


@njit(cache=True)
def determinize_into(obs, rng, st, known, avail, pool):
    """Fill ``st`` (ST_SIZE) with one world consistent with ``obs``, drawn with ``rng``
    (uint64[1], advanced). Scratch: ``known`` (MAX_SEATS * N_KINDS), ``avail``
    (N_KINDS), ``pool`` (>= MAX_SHOE). The public slots are copied from ``obs``, the
    own hand goes to its seat's hand, the hidden slots are sampled (the unseen cards
    shuffled, then dealt by deal_into). Returns how many unseen cards went out of play."""
    u, fixed = unseen_into(obs, known, avail, pool)
    shuffle_inplace(pool[:u], rng)
    return deal_into(obs, pool, u, fixed, st, known, avail)


@njit(cache=True)
def determinize(obs, rng):
    """A fresh full state (ST_SIZE) sampled from what ``obs``'s seat may see."""
    st = np.zeros(ST_SIZE, np.int64)
    known = np.zeros(MAX_SEATS * N_KINDS, np.int64)
    avail = np.zeros(N_KINDS, np.int64)
    pool = np.zeros(MAX_SHOE, np.int64)
    determinize_into(obs, rng, st, known, avail, pool)
    return st
