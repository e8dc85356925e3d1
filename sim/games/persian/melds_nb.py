"""Meld rules as compiled kernels: what can be melded, laid off, and whether a taken
card can still reach the table (P5, P6.1, P6.3).

Table melds live in the state array ``st`` at the O_MELD_* slots (see enums.py).
"""

import numpy as np
from numba import njit, types

from sim.games.persian.cards_nb import (
    JOKERS,
    RANK_GE1,
    RANK_LE10,
    RANK_LE11,
    RANK_MASKS,
    highest_rank,
    lowest_card,
    popcount,
    rank_range_bits,
    ranks_with,
    run_cards,
    suit_bits,
)
from sim.games.persian.enums import (
    JOKER0,
    MIN_MELD,
    MK_JOKERS,
    MK_RUN,
    MK_SET,
    MV_LAYOFF,
    MV_MELD,
    N_RANKS,
    O_MELD_KEY,
    O_MELD_KIND,
    O_MELD_MASK,
    O_BRIDGE_CARDS,
    O_JOKER_ROOM,
    O_LAYOFF_CARDS,
    O_N_MELDS,
    O_RUN_DOWN,
    O_RUN_UP,
    O_SET_RANKS,
    O_TABLE_CARDS,
    SET_MAX,
    TOP_RANK,
)


@njit(cache=True, _nrt=False)
def run_ends(meld_mask, suit):
    """(lowest rank, highest rank) of a run meld."""
    b = suit_bits(meld_mask, suit)
    return popcount((b & -b) - 1), highest_rank(b)


@njit(cache=True, _nrt=False)
def layoff_card_for(st, k, hand, low_or_high):
    """The card of ``hand`` that lays off onto meld ``k`` (P6.3), or -1.

    For runs ``low_or_high`` 0 asks for the card below the run, 1 for the card above;
    sets and joker sets have a single slot (asked with 0; 1 gives -1).
    """
    kind = st[O_MELD_KIND + k]
    mask = st[O_MELD_MASK + k]
    if kind == MK_RUN:
        suit = st[O_MELD_KEY + k]
        lo, hi = run_ends(mask, suit)
        if low_or_high == 0:
            if lo == 0:
                return -1
            c = suit * N_RANKS + lo - 1
        else:
            if hi == TOP_RANK:
                return -1
            c = suit * N_RANKS + hi + 1
        if (hand >> c) & 1:
            return c
        return -1
    if low_or_high == 1 or popcount(mask) != MIN_MELD:  # a full set has no room
        return -1
    if kind == MK_JOKERS:
        j = hand & JOKERS
        if j == 0:
            return -1
        return lowest_card(j)
    missing = RANK_MASKS[st[O_MELD_KEY + k]] & ~mask & hand
    if missing == 0:
        return -1
    return lowest_card(missing)


@njit(cache=True, _nrt=False)
def scan_table(st):
    """The table's derived facts, gathered by one pass over the melds in ``st`` (P5,
    P6.1, P6.3): (cards in melds, cards one lay-off could put down, cards two ranks
    beyond a run's end, the card just above every run, the card just below every run,
    13-bit field of the ranks with a set on the table, 1 if a joker set of three is
    on the table). ``refresh_table`` stores them in the O_TABLE_CARDS .. O_JOKER_ROOM
    slots, where everything else reads them."""
    cards = np.int64(0)
    lay = np.int64(0)
    bridges = np.int64(0)
    up = np.int64(0)
    down = np.int64(0)
    set_ranks = np.int64(0)
    joker_room = 0
    for k in range(st[O_N_MELDS]):
        mask = st[O_MELD_MASK + k]
        kind = st[O_MELD_KIND + k]
        cards |= mask
        if kind == MK_RUN:
            low = lowest_card(mask)
            high = highest_rank(mask)  # the highest card id
            if low % N_RANKS > 0:
                down |= np.int64(1) << (low - 1)
                if low % N_RANKS > 1:
                    bridges |= np.int64(1) << (low - 2)
            if high % N_RANKS < TOP_RANK:
                up |= np.int64(1) << (high + 1)
                if high % N_RANKS < TOP_RANK - 1:
                    bridges |= np.int64(1) << (high + 2)
        elif kind == MK_SET:
            set_ranks |= np.int64(1) << st[O_MELD_KEY + k]
            if popcount(mask) == MIN_MELD:  # a full set has no room
                lay |= RANK_MASKS[st[O_MELD_KEY + k]] & ~mask
        elif popcount(mask) == MIN_MELD:  # jokers
            joker_room = 1
            lay |= JOKERS & ~mask
    return cards, lay | up | down, bridges, up, down, set_ranks, joker_room


@njit(cache=True, _nrt=False)
def refresh_table(st):
    """Store ``scan_table(st)`` in the derived table slots of ``st`` (O_TABLE_CARDS ..
    O_JOKER_ROOM). Called whenever the melds change (a new deal, a meld put down or
    extended, a position built by hand): every reader of those slots relies on it."""
    cards, lay, bridges, up, down, set_ranks, joker_room = scan_table(st)
    st[O_TABLE_CARDS] = cards
    st[O_LAYOFF_CARDS] = lay
    st[O_BRIDGE_CARDS] = bridges
    st[O_RUN_UP] = up
    st[O_RUN_DOWN] = down
    st[O_SET_RANKS] = set_ranks
    st[O_JOKER_ROOM] = joker_room


@njit(cache=True, _nrt=False)
def table_reach(st):
    """What the table melds offer a taken card (P6.1), read from the derived slots:
    (13-bit field of the ranks with a set on the table, whether a joker set of three
    is on the table, the card just above every table run, the card just below every
    table run). ``placeable`` combines it with a hand: ``draw_moves`` checks every
    pile depth against it instead of looping over the melds per depth."""
    return st[O_SET_RANKS], st[O_JOKER_ROOM] != 0, st[O_RUN_UP], st[O_RUN_DOWN]


@njit(cache=True, _nrt=False)
def scan_reach(st):
    """``table_reach`` gathered from the melds themselves (for a state whose melds were
    just changed in place without ``refresh_table``, as ``_target_survives`` tries a play)."""
    _, _, _, up, down, set_ranks, joker_room = scan_table(st)
    return set_ranks, joker_room != 0, up, down


@njit(cache=True, _nrt=False)
def placeable(set_ranks, joker_room, up, down, hand, target):
    """``target_placeable`` from a ``table_reach`` gathering: can ``target`` (in ``hand``)
    go on the table this turn (P6.1)? A set or run of three or more in ``hand`` holding
    it, a table set of its rank, or a chain of ``hand`` cards from the end of a table
    run up to it (every suit at once, bit-parallel)."""
    if target >= JOKER0:
        return joker_room or popcount(hand & JOKERS) >= MIN_MELD
    rank = target % N_RANKS
    if (set_ranks >> rank) & 1 or popcount(hand & RANK_MASKS[rank]) >= MIN_MELD:
        return True
    # every other way (a run in hand, a chain from a run's end) needs a same-suit neighbour of
    # the target in hand or a table run ending next to it: most pile cards stop here
    side = ((hand << 1) & RANK_GE1) | ((hand >> 1) & RANK_LE11) | up | down
    if (side >> target) & 1 == 0:
        return False
    if (run_cards(hand) >> target) & 1:
        return True
    reach = up & hand  # a chain of hand cards climbing from a run's upper end
    while reach != 0 and (reach >> target) & 1 == 0:
        nxt = reach | ((reach << 1) & hand & RANK_GE1)
        if nxt == reach:
            break
        reach = nxt
    if (reach >> target) & 1:
        return True
    reach = down & hand  # ... or descending from its lower end
    while reach != 0 and (reach >> target) & 1 == 0:
        nxt = reach | ((reach >> 1) & hand & RANK_LE11)
        if nxt == reach:
            break
        reach = nxt
    return (reach >> target) & 1 == 1


@njit(cache=True, _nrt=False)
def target_placeable(st, hand, target):
    """Can ``target`` (in ``hand``) go on the table this turn? (P6.1)

    True when it completes a new meld from ``hand`` or reaches a table meld by a chain
    of lay-offs from ``hand``. A joker target is satisfied by any joker placed.
    """
    set_ranks, joker_room, up, down = scan_reach(st)
    return placeable(set_ranks, joker_room, up, down, hand, target)


# an explicit signature: called with literal move kinds, a lazy kernel compiled once per call site
@njit(types.int64(types.int64[:, ::1], types.int64, types.int64, types.int64, types.int64, types.int64),
      cache=True, _nrt=False)
def _push(moves, n, kind, a, b, c):
    """Write move row ``n`` = (kind, a, b, c); returns ``n + 1``.

    Parameters
    ----------
    moves : the move rows (MAX_MOVES x MOVE_COLS)
    n : the row to write
    kind, a, b, c : the row (MV_* kind and its three values, enums.py)
    """
    moves[n, 0] = kind
    moves[n, 1] = a
    moves[n, 2] = b
    moves[n, 3] = c
    return n + 1


@njit(cache=True, _nrt=False)
def new_meld_moves(hand, moves, n):
    """Append every new meld that ``hand`` can put down (P5); returns the new count.

    Jokers are interchangeable, so a joker set is offered once per size (3 or 4).
    Order: sets by rank (a four followed by its threes), joker sets, then runs by suit,
    lowest rank and length. Only the ranks with three or more cards and the ranks that
    start three in a row of one suit are visited (bit fields, not a loop over all ranks).
    """
    ranks = ranks_with(hand, MIN_MELD)
    while ranks != 0:
        rank = lowest_card(ranks)
        ranks &= ranks - 1
        m = hand & RANK_MASKS[rank]
        n = _push(moves, n, MV_MELD, m, MK_SET, rank)
        if popcount(m) == SET_MAX:
            rest = m
            while rest != 0:
                low = rest & -rest
                n = _push(moves, n, MV_MELD, m ^ low, MK_SET, rank)
                rest ^= low
    j = hand & JOKERS
    cj = popcount(j)
    if cj >= MIN_MELD:
        three = j ^ (np.int64(1) << (JOKER0 + SET_MAX - 1)) if cj == SET_MAX else j  # leave out the last joker
        n = _push(moves, n, MV_MELD, three, MK_JOKERS, -1)
        if cj == SET_MAX:
            n = _push(moves, n, MV_MELD, j, MK_JOKERS, -1)
    starts = hand & (hand >> 1) & (hand >> 2) & RANK_LE10  # card c: c, c + 1, c + 2 held (one suit)
    while starts != 0:
        lo = lowest_card(starts)
        starts &= starts - 1
        suit = lo // N_RANKS
        hi = lo + MIN_MELD - 1
        while True:
            n = _push(moves, n, MV_MELD, rank_range_bits(lo, hi), MK_RUN, suit)
            if hi % N_RANKS == TOP_RANK or (hand >> (hi + 1)) & 1 == 0:
                break
            hi += 1
    return n


@njit(cache=True, _nrt=False)
def layoff_moves(st, hand, moves, n):
    """Append every lay-off of a ``hand`` card onto a table meld (P6.3): per meld, the
    card below a run then the card above it (``layoff_card_for``'s sides 0 and 1), or
    the card that completes a set of three (the lowest such card; any joker for jokers).
    None when no hand card is among the table's lay-off cards (O_LAYOFF_CARDS)."""
    if hand & st[O_LAYOFF_CARDS] == 0:
        return n
    for k in range(st[O_N_MELDS]):
        mask = st[O_MELD_MASK + k]
        kind = st[O_MELD_KIND + k]
        if kind == MK_RUN:
            low = lowest_card(mask)
            if low % N_RANKS > 0 and (hand >> (low - 1)) & 1:
                n = _push(moves, n, MV_LAYOFF, low - 1, k, 0)
            high = highest_rank(mask)  # the highest card id
            if high % N_RANKS < TOP_RANK and (hand >> (high + 1)) & 1:
                n = _push(moves, n, MV_LAYOFF, high + 1, k, 0)
        elif popcount(mask) == MIN_MELD:  # a full set has no room
            if kind == MK_JOKERS:
                fits = hand & JOKERS
            else:
                fits = RANK_MASKS[st[O_MELD_KEY + k]] & ~mask & hand
            if fits != 0:
                n = _push(moves, n, MV_LAYOFF, lowest_card(fits), k, 0)
    return n


@njit(cache=True, _nrt=False)
def meld_kind_key(mask):
    """(kind, key) of a valid meld mask: set/rank, jokers/-1 or run/suit."""
    if mask & JOKERS:
        return MK_JOKERS, -1
    low = lowest_card(mask)
    if popcount(mask & RANK_MASKS[low % N_RANKS]) == popcount(mask):
        return MK_SET, low % N_RANKS
    return MK_RUN, low // N_RANKS
