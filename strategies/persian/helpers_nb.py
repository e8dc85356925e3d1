"""Helper kernels a strategy may call: meld finding, partial melds, move values.

All take what a seat may see: its own hand mask and the observation array (P10).
"""

import numpy as np
from numba import njit

from sim.games.persian.cards_nb import (
    CARD_VALUES,
    JOKER_VALUE,
    JOKERS,
    RANK_GE1,
    RANK_GE2,
    RANK_LE10,
    RANK_LE11,
    RANK_MASKS,
    highest_rank,
    lowest_card,
    mask_value,
    near_cards,
    popcount,
    ranks_with,
    run_cards,
    spread_ranks,
)
from sim.games.persian.enums import (
    JOKER0,
    MIN_MELD,
    MK_JOKERS,
    MK_RUN,
    MV_LAYOFF,
    MV_MELD,
    MV_PASS,
    MV_STOCK,
    N_CARDS,
    N_RANKS,
    O_LAYOFF_CARDS,
    N_SEATS,
    O_MELD_KEY,
    O_MELD_KIND,
    O_MELD_MASK,
    O_N_MELDS,
    O_RULES,
    R_FOUR_DOUBLE,
    RANK_BITS,
    SET_MAX,
    TOP_RANK,
)
from sim.games.persian.melds_nb import run_ends
from sim.games.persian.state_nb import next_seat, seat_after


@njit(cache=True, _nrt=False)
def meldable_mask(hand, obs):
    """Cards of ``hand`` that a simple plan could put on the table now.

    Sets (and joker sets) first, then runs from what is left, then lay-offs onto the
    table melds in ``obs``. A fast estimate for strategies, not an optimal packing.
    """
    return meldable_with(hand, obs, obs[O_LAYOFF_CARDS])


@njit(cache=True, _nrt=False)
def meldable_with(hand, obs, lay):
    """``meldable_mask(hand, obs)`` given ``lay`` = ``layoff_cards(obs)`` (or -1, every
    card): when no card left after the hand's own melds is in ``lay`` no lay-off can
    start, and the loop over the table melds is skipped. A strategy that asks for many
    hands at one decision (a draw's takes) gathers ``lay`` once."""
    used = spread_ranks(ranks_with(hand, MIN_MELD)) & hand  # sets (bit-parallel over the ranks)
    if popcount(hand & JOKERS) >= MIN_MELD:
        used |= hand & JOKERS
    used |= run_cards(hand & ~used & ~JOKERS)  # then whole runs of what is left
    rest = hand & ~used
    if rest & lay == 0:  # no first lay-off: the chains below could not start
        return used
    for k in range(obs[O_N_MELDS]):
        kind = obs[O_MELD_KIND + k]
        mask = obs[O_MELD_MASK + k]
        if kind == MK_RUN:  # extend down, then up, card by card (c: the run's end card so far)
            c = lowest_card(mask)
            while c % N_RANKS > 0 and (rest >> (c - 1)) & 1:
                c -= 1
                used |= np.int64(1) << c
                rest &= ~(np.int64(1) << c)
            c = highest_rank(mask)  # the highest card id
            while c % N_RANKS < TOP_RANK and (rest >> (c + 1)) & 1:
                c += 1
                used |= np.int64(1) << c
                rest &= ~(np.int64(1) << c)
        elif popcount(mask) == MIN_MELD:
            if kind == MK_JOKERS:
                j = rest & JOKERS
            else:
                j = rest & RANK_MASKS[obs[O_MELD_KEY + k]]
            if j != 0:
                low = j & -j
                used |= low
                rest &= ~low
    return used


@njit(cache=True, _nrt=False)
def partial_meld_mask(hand):
    """Cards of ``hand`` that belong to a partial meld: a pair of one rank (or of
    jokers), or two cards of one suit at most two ranks apart (a run draw)."""
    part = spread_ranks(ranks_with(hand, 2)) & hand
    if popcount(hand & JOKERS) >= 2:
        part |= hand & JOKERS
    return part | near_cards(hand)


@njit(cache=True, _nrt=False)
def move_points(obs, moves, i):
    """Table points a play move scores (P8), 0 for anything else."""
    kind = moves[i, 0]
    if kind == MV_MELD:
        m = moves[i, 1]
        v = mask_value(m)
        if moves[i, 2] != MK_RUN and popcount(m) == SET_MAX and obs[O_RULES + R_FOUR_DOUBLE] != 0:
            v *= 2
        return v
    if kind == MV_LAYOFF:
        return mask_value(np.int64(1) << moves[i, 1])
    return 0


@njit(cache=True, _nrt=False)
def find_move(moves, n, kind):
    """Index of the first move of ``kind`` among the ``n`` legal ones, or -1."""
    for i in range(n):
        if moves[i, 0] == kind:
            return i
    return -1


@njit(cache=True, _nrt=False)
def blind_draw(moves, n):
    """Index of the draw that takes no pile card: the stock, or pass on an empty stock."""
    for i in range(n):
        if moves[i, 0] == MV_STOCK or moves[i, 0] == MV_PASS:
            return i
    return 0


_ACES = RANK_MASKS[TOP_RANK]
_TENS = RANK_MASKS[8] | RANK_MASKS[9] | RANK_MASKS[10] | RANK_MASKS[11]  # ten, jack, queen, king: 10 each (P4)
assert all(CARD_VALUES[r] == 10 for r in (8, 9, 10, 11)) and CARD_VALUES[TOP_RANK] > 10
assert all(CARD_VALUES[r] < CARD_VALUES[r + 1] for r in range(8))


@njit(cache=True, _nrt=False)
def highest_card(mask):
    """The highest-valued card of a non-empty ``mask`` (ties: the highest id): a joker,
    else an ace, else a ten to king, else a card of the highest rank held (P4's value
    classes, highest first; within a class the highest id)."""
    if mask & JOKERS:
        return highest_rank(mask)  # highest_rank: the highest set bit, here a card id
    if mask & _ACES:
        return highest_rank(mask & _ACES)
    if mask & _TENS:
        return highest_rank(mask & _TENS)
    return highest_rank(mask & RANK_MASKS[highest_rank(ranks_with(mask, 1))])


# ---- shared by deep_taker, quad_holder, defensive and expert -------------------------
# Everything below reads only the deciding seat's hand and the public slots of ``obs``
# (P10): the table melds, the discard pile, hand and stock sizes.

from sim.games.persian.enums import (  # noqa: E402
    MV_DISCARD,
    O_BRIDGE_CARDS,
    O_TABLE_CARDS,
    O_HAND,
    O_HAND_SIZES,
    O_PILE,
    O_PILE_N,
    O_SEAT,
    O_STOCK_N,
    STOCK_SIZE,
)

FEED_BASE = 10.0  # what a fed card is worth to the taker beyond its own value


@njit(cache=True, _nrt=False)
def table_cards(obs):
    """Every card in a meld on the table (the engine's derived slot O_TABLE_CARDS)."""
    return obs[O_TABLE_CARDS]


@njit(cache=True, _nrt=False)
def pile_cards(obs):
    """Every card in the discard pile."""
    m = np.int64(0)
    for i in range(obs[O_PILE_N]):
        m |= np.int64(1) << obs[O_PILE + i]
    return m


@njit(cache=True, _nrt=False)
def meld_points(hand, obs):
    """(cards, points) of ``meldable_mask(hand, obs)``, a set of four of one rank (or
    four jokers) counted double when the rule option is on (P8)."""
    return meld_points_with(hand, obs, obs[O_LAYOFF_CARDS])


@njit(cache=True, _nrt=False)
def meld_points_with(hand, obs, lay):
    """``meld_points(hand, obs)`` given ``lay`` = ``layoff_cards(obs)`` (see ``meldable_with``)."""
    used = meldable_with(hand, obs, lay)
    pts = mask_value(used)
    if obs[O_RULES + R_FOUR_DOUBLE] != 0:
        pts += mask_value(spread_ranks(ranks_with(used, SET_MAX)))  # every four of one rank once more
        if popcount(used & JOKERS) == SET_MAX:
            pts += SET_MAX * JOKER_VALUE
    return used, pts


@njit(cache=True, _nrt=False)
def live_partial_mask(rest, dead):
    """Cards of ``rest`` in a pair of one rank (or of jokers) or a two-card run draw
    (adjacent, or one rank apart) whose completing card is not in ``dead`` nor ``rest``."""
    free = ~dead & ~rest
    pairs = ranks_with(rest, 2) & ~ranks_with(rest, 3) & ranks_with(free & ~JOKERS, 1)  # 2 held, one to come
    part = spread_ranks(pairs) & rest
    if popcount(rest & JOKERS) == 2 and (JOKERS & free) != 0:
        part |= rest & JOKERS
    # run draws, every suit at once (the masks keep each shift inside its suit)
    adj = rest & (rest >> 1) & RANK_LE11  # card c: c and c + 1 held
    adj &= ((free << 1) & RANK_GE1) | ((free >> 2) & RANK_LE10)  # c - 1 or c + 2 still to come
    gap = rest & (rest >> 2) & ~(rest >> 1) & (free >> 1) & RANK_LE10  # c and c + 2 held, c + 1 to come
    return part | adj | (adj << 1) | gap | (gap << 2)


@njit(cache=True, _nrt=False)
def layoff_cards(obs):
    """Every card that one lay-off could put on a table meld right now (P6.3; the
    engine's derived slot O_LAYOFF_CARDS)."""
    return obs[O_LAYOFF_CARDS]


@njit(cache=True, _nrt=False)
def bridge_cards(obs):
    """Every card two ranks beyond the end of a table run (same suit): the cards for
    which ``hand_feed_chance(..., bridge=True)`` counts a bridging card. For any other
    card that count adds nothing, so a caller may pass ``bridge=False`` for it (the
    engine's derived slot O_BRIDGE_CARDS)."""
    return obs[O_BRIDGE_CARDS]


@njit(cache=True, _nrt=False)
def table_facts(obs):
    """(``table_cards(obs)``, ``layoff_cards(obs)``, ``bridge_cards(obs)``): the
    engine's derived table slots, no pass over the melds."""
    return obs[O_TABLE_CARDS], obs[O_LAYOFF_CARDS], obs[O_BRIDGE_CARDS]


@njit(cache=True, _nrt=False)
def wanted_mask(known):
    """Cards that go with ``known``: the same rank, a same-suit card up to two ranks
    away, and the other jokers when ``known`` holds a joker."""
    if known == 0:
        return np.int64(0)
    k = known & ~JOKERS
    w = spread_ranks(ranks_with(k, 1))  # the same ranks
    w |= ((k << 1) & RANK_GE1) | ((k >> 1) & RANK_LE11) | ((k << 2) & RANK_GE2) | ((k >> 2) & RANK_LE10)
    if known & JOKERS:
        w |= JOKERS
    return w & ~known


@njit(cache=True, _nrt=False)
def end_pressure(obs, near_hand):
    """How close the deal looks to its end, 0..1: the larger of a hand part (another
    seat holding ``near_hand`` cards or fewer: 1/(near_hand+1) per card below
    near_hand + 1) and a stock part ((1 - stock/27) squared)."""
    seat = obs[O_SEAT]
    smallest = 99
    for k in range(1, N_SEATS):
        h = obs[O_HAND_SIZES + seat_after(seat, k)]
        if h < smallest:
            smallest = h
    p_hand = 0.0
    if smallest <= near_hand:
        p_hand = (near_hand + 1.0 - smallest) / (near_hand + 1.0)
    f = 1.0 - obs[O_STOCK_N] / STOCK_SIZE
    p_stock = f * f
    return p_hand if p_hand > p_stock else p_stock


@njit(cache=True, _nrt=False)
def opponent_near_out(obs, near_hand):
    """Does an opponent (seat + 1 or seat + 3) hold ``near_hand`` cards or fewer?"""
    seat = obs[O_SEAT]
    return (obs[O_HAND_SIZES + next_seat(seat)] <= near_hand
            or obs[O_HAND_SIZES + seat_after(seat, N_SEATS - 1)] <= near_hand)


@njit(cache=True, _nrt=False)
def discard_index(moves, n, card):
    """Index of the discard of ``card`` (any joker stands for a joker), or 0."""
    for i in range(n):
        c = moves[i, 1]
        if moves[i, 0] == MV_DISCARD and (c == card or (c >= JOKER0 and card >= JOKER0)):
            return i
    return 0


@njit(cache=True, _nrt=False)
def held_threes(obs, hand, hold_jokers, hold_sets, min_value):
    """Sets of exactly three (jokers when ``hold_jokers``, other ranks worth at least
    ``min_value`` when ``hold_sets``) whose fourth card is not on the table: the cards a
    four-waiting player keeps back. The table is read only when the hand has such a
    three (most hands have none: expert asks at every play and discard)."""
    j = hand & JOKERS
    jokers = hold_jokers and popcount(j) == SET_MAX - 1
    threes = ranks_with(hand, SET_MAX - 1) & ~ranks_with(hand, SET_MAX) if hold_sets else np.int64(0)
    if not jokers and threes == 0:
        return np.int64(0)
    dead = table_cards(obs)
    held = np.int64(0)
    if jokers and (JOKERS & ~hand & ~dead) != 0:
        held |= j
    while threes != 0:  # the ranks with exactly three cards in hand
        rank = lowest_card(threes)
        threes &= threes - 1
        if CARD_VALUES[rank] >= min_value and (RANK_MASKS[rank] & ~hand & ~dead) != 0:
            held |= hand & RANK_MASKS[rank]
    return held


@njit(cache=True, _nrt=False)
def fourth_cards(hand, held):
    """The missing fourth card of every held three (any joker for jokers)."""
    m = spread_ranks(ranks_with(held & ~JOKERS, 1)) & ~hand
    if held & JOKERS:
        m |= JOKERS & ~hand
    return m


@njit(cache=True, _nrt=False)
def play_keeping(obs, moves, n, held):
    """The play worth most points among those that use no ``held`` card; when there is
    none: stop if a card outside ``held`` is left to discard, else the best play (the
    hand is only held cards: putting them down goes out)."""
    hand = obs[O_HAND]
    best = -1
    best_v = 0
    any_best = -1
    any_v = 0
    stop = -1
    for i in range(n):
        kind = moves[i, 0]
        if kind == MV_MELD:
            cards = moves[i, 1]
        elif kind == MV_LAYOFF:
            cards = np.int64(1) << moves[i, 1]
        else:
            stop = i
            continue
        v = move_points(obs, moves, i)
        if v > any_v:
            any_v = v
            any_best = i
        if cards & held == 0 and v > best_v:
            best_v = v
            best = i
    if best >= 0:
        return best
    if stop >= 0 and (hand & ~held) != 0:
        return stop
    if any_best >= 0:
        return any_best
    return 0 if stop < 0 else stop


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
