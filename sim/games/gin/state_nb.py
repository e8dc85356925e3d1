"""The Gin Rummy state and its moves as compiled kernels (G1-G8), in OpenSpiel's phases.

The state is one int64 array (enums.py: public slots O_* first, then the hidden hands and
stock S_*). ``deal_state`` lays out a deal; ``legal_moves`` writes the legal move rows of
the decision in force, in ascending OpenSpiel action order; ``apply_move`` plays one row
and returns the end code, or -1 while the hand goes on; ``score`` fills the result row.
The engine, the information check and the OpenSpiel comparison all step through these.

The deal (G1): ``deck = shuffle(0..51)`` with the deal's stream 0 (sim.core.rng_nb); the
seat ``deal % 2`` acts first (OpenSpiel's player 0) and gets ``deck[0:10]``, the other
seat ``deck[10:20]``; ``deck[20]`` is the upcard and ``deck[21:]`` the stock, top first.
So OpenSpiel's chance outcomes are ``deck`` in order, then each stock draw's card.
"""

import numpy as np
from numba import njit

from sim.core.rng_nb import STREAM_SHUFFLE, shuffle_inplace, stream_key
from sim.games.gin.enums import (
    C_DEADWOOD, C_END, C_KNOCKER, C_LAYOFFS, C_PICKUPS, C_SCORE, C_STOCK_LEFT, C_TURNS, C_UNDERCUT, R_GIN_BONUS,
    R_UNDERCUT_BONUS,
    A_KNOCK, A_MELD0, A_PASS, A_STOCK, A_UPCARD, D_DEFEND_MELD, D_DISCARD, D_DRAW, D_FIRST, D_KNOCK_DISCARD,
    D_KNOCK_MELD, D_LAYOFF, D_WALL, END_GIN, END_KNOCK, END_REPEATED, END_UPCARD_LIMIT, END_WALL, HAND_SIZE,
    MAX_DEADWOOD, MAX_LAID, MAX_UPCARD_DRAWS, MV_CARD, MV_KNOCK, MV_MELD, MV_PASS, MV_STOCK, MV_UPCARD, N_CARDS,
    O_DECISION, O_FIRST, O_FIRST_UPCARD, O_GIN, O_KNOCK_CARD, O_KNOCK_DISCARD, O_KNOCKER, O_KNOCKER_MELD_IDS,
    O_KNOWN, O_LAYOFFS, O_MELDS, O_N_LAID, O_N_LAYOFFS, O_OUT, O_PASSED, O_PICKUPS, O_PREV_UPCARD, O_REPEATED,
    O_SEAT, O_STOCK_N, O_TURN, O_UPCARD, O_UPCARD_DRAWS, R_KNOCK_CARD, R_OKLAHOMA, S_HANDS, S_STOCK, S_STOCK_POS,
    ST_SIZE, STOCK_AT_DEAL, WALL_STOCK,
)
from sim.games.gin.melds_nb import (
    MELD_MASK, card_value, deadwood10, hand_value, layoff_cards, legal_melds, os_deadwood,
)

ONE = np.int64(1)


@njit(cache=True)
def shuffled_deck(seed, deal):
    """The 52 cards of deal ``deal`` in dealing order (module docstring)."""
    deck = np.arange(N_CARDS, dtype=np.int64)
    rs = np.empty(1, np.uint64)
    rs[0] = stream_key(seed, deal, STREAM_SHUFFLE)
    shuffle_inplace(deck, rs)
    return deck


@njit(cache=True)
def deal_state(st, deck, deal, rules):
    """Lay out deal ``deal`` from its ``deck`` in ``st`` (int64[ST_SIZE]): the first upcard decision."""
    for i in range(ST_SIZE):
        st[i] = 0
    first = deal % 2
    h0 = np.int64(0)
    h1 = np.int64(0)
    for i in range(HAND_SIZE):
        h0 |= ONE << deck[i]
        h1 |= ONE << deck[HAND_SIZE + i]
    st[S_HANDS + first] = h0
    st[S_HANDS + 1 - first] = h1
    up = deck[2 * HAND_SIZE]
    st[O_UPCARD] = up
    st[O_FIRST_UPCARD] = up
    for i in range(STOCK_AT_DEAL):
        st[S_STOCK + i] = deck[2 * HAND_SIZE + 1 + i]
    st[S_STOCK_POS] = 0
    st[O_STOCK_N] = STOCK_AT_DEAL
    k = rules[R_KNOCK_CARD]
    if rules[R_OKLAHOMA]:
        k = card_value(up)
        if k == 1:
            k = 0  # an ace: gin only
    st[O_KNOCK_CARD] = k
    st[O_FIRST] = first
    st[O_SEAT] = first
    st[O_DECISION] = D_FIRST
    st[O_PREV_UPCARD] = -1
    st[O_KNOCKER] = -1
    st[O_KNOCK_DISCARD] = -1
    for j in range(MAX_LAID):
        st[O_KNOCKER_MELD_IDS + j] = -1


@njit(cache=True, inline="always")
def _row(moves, n, kind, action, x, mask):
    moves[n, 0] = kind
    moves[n, 1] = action
    moves[n, 2] = x
    moves[n, 3] = mask
    return n + 1


@njit(cache=True)
def _cards(moves, n, cards):
    """A card row for every card of the mask ``cards``, ascending."""
    for c in range(N_CARDS):
        if cards >> c & 1:
            n = _row(moves, n, MV_CARD, c, c, ONE << c)
    return n


@njit(cache=True)
def legal_moves(st, moves, ids, stack, tmp):
    """The legal move rows (kind, action, x, mask) of the decision in force, in ascending
    action order (as OpenSpiel lists them); their count. ``ids``, ``stack``, ``tmp``: scratch."""
    d = st[O_DECISION]
    seat = st[O_SEAT]
    hand = st[S_HANDS + seat]
    k = st[O_KNOCK_CARD]
    n = 0
    if d == D_FIRST:
        if st[O_PASSED] and st[O_PASSED + 1]:
            return _row(moves, 0, MV_STOCK, A_STOCK, -1, 0)
        n = _row(moves, 0, MV_UPCARD, A_UPCARD, st[O_UPCARD], ONE << st[O_UPCARD])
        return _row(moves, n, MV_PASS, A_PASS, -1, 0)
    if d == D_DRAW:
        n = _row(moves, 0, MV_UPCARD, A_UPCARD, st[O_UPCARD], ONE << st[O_UPCARD])
        return _row(moves, n, MV_STOCK, A_STOCK, -1, 0)
    if d == D_DISCARD:
        n = _cards(moves, 0, hand)
        if os_deadwood(hand, ids, tmp, stack) <= k:
            n = _row(moves, n, MV_KNOCK, A_KNOCK, -1, 0)
        return n
    if d == D_WALL:
        n = _row(moves, 0, MV_PASS, A_PASS, -1, 0)
        if os_deadwood(hand | (ONE << st[O_UPCARD]), ids, tmp, stack) <= k:
            n = _row(moves, n, MV_KNOCK, A_KNOCK, -1, 0)
        return n
    if d == D_KNOCK_DISCARD:
        for c in range(N_CARDS):
            if hand >> c & 1 and deadwood10(hand & ~(ONE << c), ids, stack) <= k:
                n = _row(moves, n, MV_CARD, c, c, ONE << c)
        return n
    if d == D_KNOCK_MELD or d == D_DEFEND_MELD:
        limit = k if d == D_KNOCK_MELD else MAX_DEADWOOD
        if d == D_DEFEND_MELD or hand_value(hand) <= k:
            n = _row(moves, 0, MV_PASS, A_PASS, -1, 0)
        m = legal_melds(hand, limit, ids, stack, tmp)
        for j in range(m):
            n = _row(moves, n, MV_MELD, A_MELD0 + tmp[j], tmp[j], MELD_MASK[tmp[j]])
        return n
    # D_LAYOFF
    knocker = st[O_KNOCKER]
    offs = layoff_cards(st[O_KNOCKER_MELD_IDS:O_KNOCKER_MELD_IDS + MAX_LAID], st[O_N_LAID + knocker],
                        st[O_LAYOFFS])
    n = _cards(moves, 0, hand & offs)
    return _row(moves, n, MV_PASS, A_PASS, -1, 0)


@njit(cache=True, inline="always")
def _take_upcard(st, seat):
    up = st[O_UPCARD]
    st[S_HANDS + seat] |= ONE << up
    st[O_KNOWN + seat] |= ONE << up
    st[O_PICKUPS + seat] += 1
    st[O_UPCARD] = -1


@njit(cache=True, inline="always")
def _draw_stock(st, seat):
    """The upcard leaves play (G3); the stock's top card goes to ``seat``. Returns that card."""
    up = st[O_UPCARD]
    st[O_PREV_UPCARD] = up
    if up >= 0:
        st[O_OUT] |= ONE << up
    st[O_UPCARD] = -1
    c = st[S_STOCK + st[S_STOCK_POS]]
    st[S_STOCK_POS] += 1
    st[O_STOCK_N] -= 1
    st[S_HANDS + seat] |= ONE << c
    return c


@njit(cache=True, inline="always")
def _lose(st, seat, cards):
    st[S_HANDS + seat] &= ~cards
    st[O_KNOWN + seat] &= ~cards


@njit(cache=True)
def apply_move(st, kind, x, mask):
    """Play the move row (kind, -, x, mask) for the deciding seat. Returns the end code, or -1."""
    d = st[O_DECISION]
    seat = st[O_SEAT]
    if d == D_FIRST or d == D_DRAW:
        if kind == MV_PASS:  # G2: pass on the first upcard
            st[O_PASSED + seat] = 1
            st[O_SEAT] = 1 - seat
            return -1
        if kind == MV_UPCARD:
            if d == D_DRAW:
                st[O_UPCARD_DRAWS] += 1
                if st[O_UPCARD_DRAWS] == MAX_UPCARD_DRAWS:
                    return END_UPCARD_LIMIT  # G8: the draw is not made
            st[O_PREV_UPCARD] = st[O_UPCARD]
            _take_upcard(st, seat)
        else:
            _draw_stock(st, seat)
        st[O_DECISION] = D_DISCARD
        return -1
    if d == D_DISCARD:
        if kind == MV_KNOCK:
            st[O_KNOCKER] = seat
            st[O_DECISION] = D_KNOCK_DISCARD
            return -1
        _lose(st, seat, ONE << x)
        st[O_UPCARD] = x
        st[O_TURN] += 1
        st[O_SEAT] = 1 - seat
        if x == st[O_PREV_UPCARD]:  # G8: the upcard just drawn, discarded again
            if st[O_REPEATED]:
                return END_REPEATED
            st[O_REPEATED] = 1
        else:
            st[O_REPEATED] = 0
        st[O_DECISION] = D_WALL if st[O_STOCK_N] == WALL_STOCK else D_DRAW
        return -1
    if d == D_WALL:
        if kind == MV_PASS:
            return END_WALL
        _take_upcard(st, seat)
        st[O_KNOCKER] = seat
        st[O_DECISION] = D_KNOCK_DISCARD
        return -1
    if d == D_KNOCK_DISCARD:
        _lose(st, seat, ONE << x)
        st[O_OUT] |= ONE << x
        st[O_KNOCK_DISCARD] = x
        st[O_TURN] += 1
        st[O_DECISION] = D_KNOCK_MELD
        return -1
    if d == D_KNOCK_MELD or d == D_DEFEND_MELD:
        if kind == MV_MELD:
            _lose(st, seat, mask)
            st[O_MELDS + seat] |= mask
            if d == D_KNOCK_MELD:
                st[O_KNOCKER_MELD_IDS + st[O_N_LAID + seat]] = x
            st[O_N_LAID + seat] += 1
            return -1
        if d == D_DEFEND_MELD:
            return END_GIN if st[O_GIN] else END_KNOCK
        st[O_SEAT] = 1 - seat
        if st[S_HANDS + seat] == 0:  # gin: no lay-offs (G5)
            st[O_GIN] = 1
            st[O_DECISION] = D_DEFEND_MELD
        else:
            st[O_DECISION] = D_LAYOFF
        return -1
    # D_LAYOFF
    if kind == MV_PASS:
        st[O_DECISION] = D_DEFEND_MELD
        return -1
    _lose(st, seat, mask)
    st[O_LAYOFFS] |= mask
    st[O_N_LAYOFFS] += 1
    return -1


@njit(cache=True)
def score(st, end, rules, res, ids, stack):
    """G7: the knocker scores the defender's deadwood less its own (+ the gin bonus); an undercut
    costs the undercut bonus; a hand without a knock scores 0. Fills the result row's end columns."""
    knocker = st[O_KNOCKER] if end == END_KNOCK or end == END_GIN else -1
    res[C_END] = end
    res[C_KNOCKER] = knocker
    res[C_TURNS] = st[O_TURN]
    res[C_STOCK_LEFT] = st[O_STOCK_N]
    for s in range(2):
        res[C_PICKUPS + s] = st[O_PICKUPS + s]
        res[C_SCORE + s] = 0
        res[C_LAYOFFS + s] = 0
    if knocker < 0:
        for s in range(2):
            res[C_DEADWOOD + s] = deadwood10(st[S_HANDS + s], ids, stack)
        return
    other = 1 - knocker
    kd = hand_value(st[S_HANDS + knocker])
    dd = hand_value(st[S_HANDS + other])
    res[C_DEADWOOD + knocker] = kd
    res[C_DEADWOOD + other] = dd
    res[C_LAYOFFS + other] = st[O_N_LAYOFFS]
    pts = dd - kd
    if kd == 0:
        pts += rules[R_GIN_BONUS]
    if pts < 0:
        pts -= rules[R_UNDERCUT_BONUS]
        res[C_UNDERCUT] = 1
    res[C_SCORE + knocker] = pts
    res[C_SCORE + other] = -pts
