"""The Indian Rummy position as one int64 array, and the kernels that change it (I2-I9).

``st`` (layout in enums.py): its first OBS_SIZE slots are what every player may see
(I9: the pile's contents, the cut joker, hand sizes, drops, every draw from the pile,
every discard), the rest is hidden (hands, the stock and the pile in order). Kernels
here never call strategies; engine_nb.py drives the turn loop.

Readings of the rule book made here:

* I3/I7: a drop is made instead of drawing, so it is offered at every draw decision;
  it is a *first* drop while the seat has not drawn in this deal, a *middle* drop later.
  A drop counts as a turn (for the turn cap and ``turns_played``).
* I8: the reshuffle is made at the start of a seat's turn when the stock is empty,
  before the draw decision (so also before a drop). With a one-card pile no new stock
  can be formed: only the pile's top card (or a drop) is then legal.
* I5: a wrong declarer's discard stays on the pile and its 13 cards leave play; the
  deal goes on with the next seat still in it.
"""

import numpy as np
from numba import njit

from sim.games.indian.enums import (
    D_DISCARD,
    D_DRAW,
    JOKER,
    MV_DECLARE,
    MV_DISCARD,
    MV_DROP,
    MV_PILE,
    MV_STOCK,
    N_KINDS,
    N_RANKS,
    N_RULES,
    O_CUT_JOKER,
    O_DEALER,
    O_DECISION,
    O_DISCARDED,
    O_HAND_N,
    O_HAS_DRAWN,
    O_IN_PLAY,
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
    O_TURN,
    O_WILD_RANK,
    RING,
    S_FIRST_CHANCE,
    S_HANDS,
    S_PILE,
    S_STOCK,
    ST_IN,
    MAX_SEATS,
    HAND_SIZE,
)
from sim.games.indian.cards_nb import card_value, jokers_in
from sim.games.indian.deal_nb import deal_order, reshuffle, wild_rank_of
from sim.games.indian.solver_nb import can_declare, deadwood_and_loose_below


@njit(cache=True, inline="always")
def hand_of(st, seat):
    """View of seat ``seat``'s hand counts[53] inside ``st``."""
    b = S_HANDS + seat * N_KINDS
    return st[b : b + N_KINDS]


@njit(cache=True, _nrt=False)
def init_state(st, shoe, rules, players, dealer, hands_seq, stock_buf):
    """Deal ``shoe`` into ``st`` (I2); ``hands_seq`` (int64[6, 13]) and ``stock_buf``
    (int64[>= shoe size]) are scratch, left holding the dealt order."""
    decks = rules[1]  # R_DECKS
    st[:] = 0
    first, cut, n = deal_order(shoe, decks, players, dealer, hands_seq, stock_buf)
    st[O_SEAT] = (dealer + 1) % players
    st[O_DEALER] = dealer
    st[O_PLAYERS] = players
    st[O_DECISION] = D_DRAW
    st[O_TURN] = 0
    st[O_CUT_JOKER] = cut
    st[O_WILD_RANK] = wild_rank_of(cut)
    st[O_IN_PLAY] = players
    for s in range(players):
        h = hand_of(st, s)
        for i in range(HAND_SIZE):
            h[hands_seq[s, i]] += 1
        st[O_HAND_N + s] = HAND_SIZE
        st[O_STATUS + s] = ST_IN
        st[S_FIRST_CHANCE + s] = -1
    for s in range(players, MAX_SEATS):
        st[S_FIRST_CHANCE + s] = -1
    # stock: bottom first in the state (top = last), so reverse the top-first buffer
    for i in range(n):
        st[S_STOCK + n - 1 - i] = stock_buf[i]
    st[O_STOCK_N] = n
    st[S_PILE] = first
    st[O_PILE_N] = 1
    st[O_TOP] = first
    st[O_PILE_COUNTS + first] += 1
    for i in range(N_RULES):
        st[O_RULES + i] = rules[i]


@njit(cache=True, _nrt=False)
def maybe_reshuffle(st, rs, buf):
    """I8: if the stock is empty and the pile has more than its top card, the pile except
    its top card becomes the new stock (deal_nb.reshuffle). Returns the number of cards
    moved (0 = nothing done); ``buf[:m]`` then holds the new stock, top first."""
    if st[O_STOCK_N] > 0 or st[O_PILE_N] < 2:
        return 0
    m = st[O_PILE_N] - 1
    for i in range(m):
        buf[i] = st[S_PILE + i]
    reshuffle(buf[:m], rs)
    for i in range(m):
        st[S_STOCK + m - 1 - i] = buf[i]
        st[O_PILE_COUNTS + buf[i]] -= 1
    top = st[S_PILE + m]
    st[S_PILE] = top
    st[O_PILE_N] = 1
    st[O_STOCK_N] = m
    return m


@njit(cache=True, _nrt=False)
def draw_moves(st, moves):
    """Legal moves of a draw decision (I3, I7): stock, pile top, drop, in that order."""
    n = 0
    if st[O_STOCK_N] > 0:
        moves[n, 0] = MV_STOCK
        moves[n, 1] = 0
        moves[n, 2] = 0
        moves[n, 3] = 0
        n += 1
    if st[O_PILE_N] > 0:
        moves[n, 0] = MV_PILE
        moves[n, 1] = st[O_TOP]
        moves[n, 2] = 0
        moves[n, 3] = 0
        n += 1
    moves[n, 0] = MV_DROP
    moves[n, 1] = 0
    moves[n, 2] = 0
    moves[n, 3] = 0
    return n + 1


@njit(cache=True, _nrt=False)
def discard_moves(st, moves):
    """Legal moves of a discard decision (I3, I5): a discard per distinct kind held,
    ascending, then a declaration per distinct kind held, ascending."""
    h = hand_of(st, st[O_SEAT])
    n = 0
    for k in range(N_KINDS):
        if h[k] > 0:
            moves[n, 0] = MV_DISCARD
            moves[n, 1] = k
            moves[n, 2] = 0
            moves[n, 3] = 0
            n += 1
    d = n
    for i in range(d):
        moves[n, 0] = MV_DECLARE
        moves[n, 1] = moves[i, 1]
        moves[n, 2] = 0
        moves[n, 3] = 0
        n += 1
    return n


@njit(cache=True, _nrt=False)
def draw_stock(st):
    """Take the top stock card into the seat's hand; returns its kind."""
    seat = st[O_SEAT]
    n = st[O_STOCK_N] - 1
    k = st[S_STOCK + n]
    st[O_STOCK_N] = n
    st[S_HANDS + seat * N_KINDS + k] += 1
    st[O_HAND_N + seat] += 1
    st[O_HAS_DRAWN + seat] = 1
    return k


@njit(cache=True, _nrt=False)
def draw_pile(st):
    """Take the top discard into the seat's hand (public, I9); returns its kind."""
    seat = st[O_SEAT]
    n = st[O_PILE_N] - 1
    k = st[S_PILE + n]
    st[O_PILE_N] = n
    st[O_PILE_COUNTS + k] -= 1
    st[O_TOP] = st[S_PILE + n - 1] if n > 0 else -1
    st[S_HANDS + seat * N_KINDS + k] += 1
    st[O_HAND_N + seat] += 1
    st[O_HAS_DRAWN + seat] = 1
    st[O_PICKUPS + seat] += 1
    st[O_PICKED + seat * N_KINDS + k] += 1
    return k


@njit(cache=True, _nrt=False)
def discard(st, k):
    """The seat puts kind ``k`` from its hand on top of the pile (public, I9)."""
    seat = st[O_SEAT]
    st[S_HANDS + seat * N_KINDS + k] -= 1
    st[O_HAND_N + seat] -= 1
    n = st[O_PILE_N]
    st[S_PILE + n] = k
    st[O_PILE_N] = n + 1
    st[O_TOP] = k
    st[O_PILE_COUNTS + k] += 1
    st[O_DISCARDED + seat * N_KINDS + k] += 1
    j = st[O_N_DISCARDS] % RING
    st[O_RING + 2 * j] = seat
    st[O_RING + 2 * j + 1] = k
    st[O_N_DISCARDS] += 1


@njit(cache=True, _nrt=False)
def leave_deal(st, seat, status):
    """The seat leaves the deal (drop I7 or wrong declaration I5); its cards leave play."""
    st[O_STATUS + seat] = status
    st[O_HAND_N + seat] = 0
    b = S_HANDS + seat * N_KINDS
    for k in range(N_KINDS):
        st[b + k] = 0
    st[O_IN_PLAY] -= 1


@njit(cache=True, _nrt=False)
def next_turn(st):
    """Pass the turn clockwise to the next seat still in the deal (I3)."""
    players = st[O_PLAYERS]
    s = st[O_SEAT]
    for _ in range(players):
        s = (s + 1) % players
        if st[O_STATUS + s] == ST_IN:
            break
    st[O_SEAT] = s
    st[O_TURN] += 1


@njit(cache=True, _nrt=False)
def loose_cards(h, wild_rank, triple_is_run, max_j_run, max_j_set):
    """A quick necessary test for "some 13 of these 14 cards can be declared" (I4, I5).

    With at most one joker per group every natural card (not of the wild rank) shares its
    group with another card that is not acting as a joker: one of the same rank in another
    suit, or of the same suit within two ranks (ace low or high), or an identical card when
    three identical cards form a run. Returns ``(n, k)``: the number of cards with no such
    partner (counted up to 2) and the kind of the last one found. A declaration needs
    ``n <= 1``, and when ``n == 1`` it must discard kind k. With more jokers per group
    allowed the test is skipped (returns (0, -1))."""
    if max_j_run > 1 or max_j_set > 1:
        return 0, -1
    loose = 0
    last = -1
    for k in range(JOKER):
        c = h[k]
        if c == 0:
            continue
        r = k % N_RANKS
        if r == wild_rank:
            continue
        s = k // N_RANKS
        ok = False
        if triple_is_run == 1 and c >= 2:
            ok = True
        if not ok:
            for t in range(4):
                if t != s and h[t * N_RANKS + r] > 0:
                    ok = True
                    break
        if not ok:
            base = s * N_RANKS
            for d in (-2, -1, 1, 2):
                q = r + d
                if 0 <= q < N_RANKS and h[base + q] > 0:
                    ok = True
                    break
                # the ace (rank 12) also stands below the 2 (A-2-3)
                if r == 12 and (d == 1 or d == 2) and h[base + d - 1] > 0:
                    ok = True
                    break
            if not ok and r <= 1 and h[base + 12] > 0:
                ok = True  # a 2 or a 3 with an ace (A-2-3)
        if not ok:
            loose += c
            last = k
            if loose >= 2:
                return loose, last
    return loose, last


@njit(cache=True, _nrt=False)
def has_pure_run(h, triple_is_run):
    """Three consecutive cards of one suit (ace low or high; wild-rank cards as their
    natural selves), or with three decks three identical cards: a pure run (I4)."""
    for s in range(4):
        b = s * N_RANKS
        if h[b + 12] > 0 and h[b] > 0 and h[b + 1] > 0:
            return True
        for r in range(N_RANKS - 2):
            if h[b + r] > 0 and h[b + r + 1] > 0 and h[b + r + 2] > 0:
                return True
    if triple_is_run == 1:
        for k in range(JOKER):
            if h[k] >= 3:
                return True
    return False


@njit(cache=True, _nrt=False)
def has_long_run_seed(h, wild_rank, max_j_run):
    """A quick necessary test for the I5 run of four or more: with at most one joker per
    run, some four consecutive positions of one suit (ace low or high) hold at least three
    natural cards, and a joker (printed or wild) when only three. Skipped (True) when runs
    may hold more jokers."""
    if max_j_run > 1:
        return True
    jokers = jokers_in(h, wild_rank)
    for s in range(4):
        b = s * N_RANKS
        for a in range(11):  # window of positions a..a+3; position 0 = low ace, 13 = high ace
            cnt = 0
            for p in range(a, a + 4):
                r = 12 if p == 0 else p - 1
                if h[b + r] > 0:
                    cnt += 1
            if cnt == 4 or (cnt == 3 and jokers > 0 and max_j_run > 0):
                return True
    return False


@njit(cache=True, _nrt=False)
def declaring_discard(h, wild, mjr, mjs, tir, free):
    """The highest kind whose discard leaves a valid declaration (I5) of the other 13 of the
    14 cards in ``h``, or -1: quick necessary tests first (a pure run, a seed of the run of
    four, at most one loose card, which must then be the discard), then the solver.
    Discarding k leaves a deadwood of at least m14 - value(k), and a valid declaration
    leaves 0 (its groups hold every card): only kinds worth m14 or more qualify; a copy of
    k outside a best arrangement of the 14 leaves exactly m14 - value(k), so such a kind
    qualifies only when that is 0. A qualifying kind's 13 cards go to ``can_declare``
    alone (a valid declaration implies deadwood 0, so no deadwood search first).
    ``h`` is changed and restored; ``free`` (int64[N_KINDS]) is scratch."""
    if not has_pure_run(h, tir) or not has_long_run_seed(h, wild, mjr):
        return -1
    n_loose, loose = loose_cards(h, wild, tir, mjr, mjs)
    if n_loose >= 2:
        return -1
    if n_loose == 1:  # only the loose card can be the discard
        h[loose] -= 1
        ok = can_declare(h, wild, mjr, mjs, tir)
        h[loose] += 1
        return loose if ok else -1
    # only kinds worth m14 or more can qualify: the search is needed below the top value
    vmax = 0
    for k in range(N_KINDS):
        if h[k] > 0:
            vmax = max(vmax, card_value(k, wild))
    m14 = deadwood_and_loose_below(h, wild, mjr, mjs, tir, vmax + 1, free)
    if m14 > vmax:
        return -1
    for k in range(N_KINDS - 1, -1, -1):
        v = card_value(k, wild)
        if h[k] == 0 or v < m14 or (free[k] and m14 != v):
            continue
        h[k] -= 1
        ok = can_declare(h, wild, mjr, mjs, tir)
        h[k] += 1
        if ok:
            return k
    return -1
