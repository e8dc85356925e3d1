"""The feed-chance model: what a discard may hand the next player (helper kernels).

Two ways a discard feeds the next seat: through the pile (a take down to a pile card that
makes a meld with the discard, P6.1) and from its own hand (two of its cards, or one
bridging to a table run, that meld with the discard at once). defensive's and expert's
careful discard weigh every candidate by these; they read the deciding seat's hand and
the public slots of ``obs`` only (P10).
"""

import numpy as np
from numba import njit

from sim.games.persian.cards_nb import (
    CARD_VALUES,
    JOKERS,
    RANK_GE1,
    RANK_GE2,
    RANK_LE10,
    RANK_LE11,
    RANK_MASKS,
    lowest_card,
    popcount,
    ranks_with,
    spread_ranks,
)
from sim.games.persian.enums import (
    JOKER0,
    MK_RUN,
    N_CARDS,
    N_RANKS,
    O_MELD_KEY,
    O_MELD_KIND,
    O_MELD_MASK,
    O_N_MELDS,
    RANK_BITS,
    TOP_RANK,
)
from sim.games.persian.melds_nb import run_ends


FEED_BASE = 10.0  # what a fed card is worth to the taker beyond its own value


@njit(cache=True, _nrt=False)
def third_cards(c, p):
    """Cards that make a three-card meld with cards ``c`` and ``p`` (0 if none can)."""
    bits = (np.int64(1) << c) | (np.int64(1) << p)
    if c >= JOKER0 or p >= JOKER0:
        if c >= JOKER0 and p >= JOKER0:
            return JOKERS & ~bits
        return np.int64(0)
    rc = c % N_RANKS
    rp = p % N_RANKS
    if rc == rp:
        return RANK_MASKS[rc] & ~bits
    if c // N_RANKS != p // N_RANKS:
        return np.int64(0)
    lo = rc if rc < rp else rp
    gap = rc - rp if rc > rp else rp - rc
    base = (c // N_RANKS) * N_RANKS
    if gap == 1:
        m = np.int64(0)
        if lo >= 1:
            m |= np.int64(1) << (base + lo - 1)
        if lo + 2 <= TOP_RANK:
            m |= np.int64(1) << (base + lo + 2)
        return m
    if gap == 2:
        return np.int64(1) << (base + lo + 1)
    return np.int64(0)


@njit(cache=True, _nrt=False)
def related_cards(card):
    """Cards that make a partial meld with ``card``: the rest of its rank (the other
    jokers for a joker) and the same-suit cards up to two ranks away."""
    me = np.int64(1) << card
    if card >= JOKER0:
        return JOKERS & ~me
    rank = card % N_RANKS
    near = ((np.int64(0x1B) << rank) >> 2) & RANK_BITS  # ranks rank-2, rank-1, rank+1, rank+2
    return (RANK_MASKS[rank] & ~me) | (near << (N_RANKS * (card // N_RANKS)))


@njit(cache=True, _nrt=False)
def pile_key_feed(card, pile, known, dead, pair_weight):
    """Points a discard of ``card`` may hand the next player through the pile.

    With ``card`` on top, a take down to a pile card p that makes a partial meld with
    it is legal as soon as a third card of that meld is also taken or in the taker's
    hand. Worth ``value + 10`` when such a third card is in the pile or in ``known``
    (cards known to be in that hand): certain; ``pair_weight`` times that when the
    third card is only still live (not in ``dead``); 0 when no pile card pairs with it.
    """
    worth = CARD_VALUES[card] + FEED_BASE
    rel = pile & related_cards(card)
    best = 0.0
    while rel != 0:
        low = rel & -rel
        rel ^= low
        third = third_cards(card, lowest_card(low))
        if third & (pile | known):
            return worth
        if third & ~dead:
            best = pair_weight * worth
    return best


@njit(cache=True, _nrt=False)
def pile_feed_masks(pile, known, dead):
    """``(full, pair)``: the cards ``c`` for which ``pile_key_feed(c, pile, known, dead, w)``
    is the full ``value + 10`` (``full``) or ``w`` times it (``pair``, outside ``full``),
    every card at once, for cards in none of ``pile``, ``known`` and ``dead`` (a seat's own
    hand: careful_discard's candidates).

    Why it is the same answer. A pile card p and a third card t make a three-card meld
    with c exactly when {c, p, t} is a set (one rank; jokers), or a run window of c's suit
    ({c-2, c-1}, {c-1, c+1} or {c+1, c+2}, inside the suit's ranks; third_cards' cases).
    Full: some p is in the pile and its t (not p) in the pile or ``known``: for a set, a
    pile card of c's rank and two such cards of it (c is in neither); for a run, one
    card of a window in the pile and the other in pile | known. Pair: the same with
    "not in ``dead``" for the third card; c itself is live, so a set needs three live
    cards of c's rank (c, p and a t) with one in the pile, and the pile is never dead.
    """
    b = pile | known
    live = ~dead
    full = spread_ranks(ranks_with(pile, 1) & ranks_with(b, 2))
    pair = spread_ranks(ranks_with(pile, 1) & ranks_with(live, 3))
    if pile & JOKERS:
        if popcount(b & JOKERS) >= 2:
            full |= JOKERS
        if popcount(live & JOKERS) >= 3:
            pair |= JOKERS
    # run windows, every suit at once: x1 bit c = card c - 1 of x (rank >= 1), x2 = c - 2,
    # y1 = c + 1 (rank <= 11), y2 = c + 2 (the rank masks keep each shift inside its suit)
    a1 = (pile << 1) & RANK_GE1
    a2 = (pile << 2) & RANK_GE2
    h1 = (pile >> 1) & RANK_LE11
    h2 = (pile >> 2) & RANK_LE10
    b1 = (b << 1) & RANK_GE1
    b2 = (b << 2) & RANK_GE2
    g1 = (b >> 1) & RANK_LE11
    g2 = (b >> 2) & RANK_LE10
    full |= (a2 & b1) | (b2 & a1) | (a1 & g1) | (b1 & h1) | (h1 & g2) | (g1 & h2)
    l1 = (live << 1) & RANK_GE1
    l2 = (live << 2) & RANK_GE2
    k1 = (live >> 1) & RANK_LE11
    k2 = (live >> 2) & RANK_LE10
    pair |= (a2 & l1) | (l2 & a1) | (a1 & k1) | (l1 & h1) | (h1 & k2) | (k1 & h2)
    return full, pair & ~full


@njit(cache=True, _nrt=False)
def _chance(x, sure, maybe, q):
    """Chance that the next player holds card ``x``: 1 if in ``sure``, q if in ``maybe``."""
    if (sure >> x) & 1:
        return 1.0
    if (maybe >> x) & 1:
        return q
    return 0.0


def _same_rank_others() -> np.ndarray:
    """Row c: the three other cards of c's rank (the other jokers for a joker), lowest first."""
    t = np.zeros((N_CARDS, 3), np.int64)
    for c in range(N_CARDS):
        group = range(JOKER0, N_CARDS) if c >= JOKER0 else range(c % N_RANKS, JOKER0, N_RANKS)
        t[c] = [x for x in group if x != c]
    return t


_OTHERS = _same_rank_others()


@njit(cache=True, _nrt=False)
def _p_bit(sure_bit, maybe_bit, q):
    """``_chance`` from the card's bits of ``sure`` and ``maybe``: 1.0, q or 0.0 (the same
    values; a select, no int-to-float conversion)."""
    return 1.0 if sure_bit else (q if maybe_bit else 0.0)


@njit(cache=True, _nrt=False, inline='always')
def hand_feed_chance(card, obs, sure, maybe, q, bridge):
    """Rough chance that the next player can put ``card`` down at once with cards of its
    own hand (so it would take it from the top of the pile): two cards making a set or
    a run with it, or (when ``bridge``) one card bridging it to the end of a table run
    (a run ending two ranks away from it). Cards in ``sure``
    are known to be in that hand, cards in ``maybe`` (disjoint from ``sure``) are there
    with chance ``q`` each. The chances of the separate ways are added (capped at 1).

    Parameters
    ----------
    card : the discard considered
    obs : the seat's observation (P10)
    sure, maybe : cards surely in the next hand, cards each there with chance ``q``
    q : that chance
    bridge : also count a card bridging ``card`` to the end of a table run

    Each card's chance is a select on its bits (``_p_bit``; a neighbour outside the
    suit's ranks reads as 0 through the shifted rank masks, the three other cards of the
    rank come from a table) and the sums are the same floating-point operations in the
    same order as ever (careful_discard's pick, ties included, depends on the exact
    values). Inlined into its caller (``inline='always'``): as a called function its
    call cost more than its arithmetic.
    """
    a = _OTHERS[card, 0]
    b = _OTHERS[card, 1]
    c = _OTHERS[card, 2]
    pa = _p_bit((sure >> a) & 1, (maybe >> a) & 1, q)
    pb = _p_bit((sure >> b) & 1, (maybe >> b) & 1, q)
    pc = _p_bit((sure >> c) & 1, (maybe >> c) & 1, q)
    total = pa * pb + pa * pc + pb * pc
    if card >= JOKER0:
        return total if total < 1.0 else 1.0
    # bit ``card`` of (m << 2) & RANK_GE2 is card - 2 of m when the rank allows it, else 0
    pm2 = _p_bit((((sure << 2) & RANK_GE2) >> card) & 1, (((maybe << 2) & RANK_GE2) >> card) & 1, q)
    pm1 = _p_bit((((sure << 1) & RANK_GE1) >> card) & 1, (((maybe << 1) & RANK_GE1) >> card) & 1, q)
    pp1 = _p_bit((((sure >> 1) & RANK_LE11) >> card) & 1, (((maybe >> 1) & RANK_LE11) >> card) & 1, q)
    pp2 = _p_bit((((sure >> 2) & RANK_LE10) >> card) & 1, (((maybe >> 2) & RANK_LE10) >> card) & 1, q)
    total += pm2 * pm1 + pm1 * pp1 + pp1 * pp2
    if bridge:
        total = _bridge_chance(total, card, obs, sure, maybe, q)
    return total if total < 1.0 else 1.0


@njit(cache=True, _nrt=False)
def _bridge_chance(total, card, obs, sure, maybe, q):
    """``total`` plus, for every table run of ``card``'s suit ending two ranks from it
    (in meld order), the chance of the card between: hand_feed_chance's bridge part, a
    call of its own (rare: only for cards two ranks from a run end) so that the part
    inlined into every caller stays small."""
    rank = card % N_RANKS
    suit = card // N_RANKS
    base = suit * N_RANKS
    for k in range(obs[O_N_MELDS]):
        if obs[O_MELD_KIND + k] != MK_RUN or obs[O_MELD_KEY + k] != suit:
            continue
        lo, hi = run_ends(obs[O_MELD_MASK + k], suit)
        if rank == hi + 2:
            total += _chance(base + hi + 1, sure, maybe, q)
        elif rank == lo - 2:
            total += _chance(base + lo - 1, sure, maybe, q)
    return total
