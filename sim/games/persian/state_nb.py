"""The Persian Rummy rules as compiled kernels: deal, legal moves, moves, scoring (P3-P8).

A position is one int64 array ``st`` (layout in enums.py): its first OBS_SIZE slots
are what every player may see (P10), the rest (hands, stock) is hidden. Kernels here
never call strategies. ``legal_moves`` and ``apply_row`` are the one way to step a
deal: the play-outs of search strategies (strategies/persian/rollout_nb.py) and
``Position`` use them, and the engine's deal loop (engine_nb.play_deal) calls the
per-phase generators and steps they are made of (``draw_moves``/``step_draw`` ...;
``apply_row`` only picks the step of its phase), so every path applies a move with
the same code. ``score_deal`` is the one scoring of a finished deal.
"""

import numpy as np
from numba import njit

from sim.games.persian.cards_nb import (
    JOKERS,
    bit,
    card_value,
    lowest_card,
    mask_value,
    popcount,
)
from sim.games.persian.enums import (
    C_CARDS_TAKEN,
    C_DISCARDS,
    C_FED,
    C_FOURS,
    C_HAND,
    C_HAND_PTS,
    C_JOKER_FOURS,
    C_LAYOFF_OPP,
    C_MAX_DEPTH,
    C_TABLE_SEAT,
    C_TAKE_DEPTH,
    C_TAKES,
    C_TOTAL,
    C_BONUS,
    C_TABLE,
    D_DISCARD,
    D_DRAW,
    D_PLAY,
    END_OUT,
    END_PASSES,
    HAND_SIZE,
    JOKER0,
    MK_JOKERS,
    MK_RUN,
    MOVE_COLS,
    MV_DISCARD,
    MV_MELD,
    MV_PASS,
    MV_STOCK,
    MV_STOP,
    MV_TAKE,
    N_RULES,
    N_SEATS,
    N_TEAMS,
    O_DEALER,
    O_DECISION,
    O_HAND_SIZES,
    O_LAST_DISCARD,
    O_LAST_DISCARDER,
    O_MELD_KEY,
    O_MELD_KIND,
    O_MELD_MASK,
    O_MELD_OWNER,
    O_N_MELDS,
    O_PASSES,
    O_PILE,
    O_PILE_N,
    O_PLACED,
    O_RULES,
    O_SEAT,
    O_STOCK_N,
    O_TAKEN,
    O_TARGET,
    O_TEAM_TABLE,
    O_TURN,
    R_FOUR_DOUBLE,
    R_LAST_CARD,
    R_OUT_BONUS,
    LAST_CARD_DISCARD,
    S_HANDS,
    S_STOCK,
    SET_MAX,
    ST_SIZE,
    STOCK_SIZE,
)
from sim.games.persian.melds_nb import (
    _push,
    layoff_moves,
    meld_kind_key,
    new_meld_moves,
    placeable,
    refresh_table,
    table_reach,
    target_placeable,
)


GOING_ON = -1  # apply_row: the deal goes on


@njit(cache=True, _nrt=False)
def team_of(seat):
    """The team of ``seat``: partners sit opposite, seats s and s + 2 (P2)."""
    return seat % N_TEAMS


@njit(cache=True, _nrt=False)
def next_seat(seat):
    """The seat after ``seat``, clockwise (P6)."""
    return (seat + 1) % N_SEATS


@njit(cache=True, _nrt=False)
def seat_after(seat, k):
    """The seat ``k`` places after ``seat``, clockwise (k = N_SEATS - 1: the seat before)."""
    return (seat + k) % N_SEATS


@njit(cache=True)
def new_state(deck, dealer, rules):
    """A fresh deal from a shuffled 56-card ``deck`` (P3).

    Seat s gets deck[7s:7s+7]; deck[28] starts the discard pile; the other 27 cards
    are the stock with deck[29] on top. Seat dealer+1 moves first.
    """
    st = np.empty(ST_SIZE, np.int64)
    reset_state(st, deck, dealer, rules)
    return st


@njit(cache=True, _nrt=False)
def reset_state(st, deck, dealer, rules):
    """Overwrite ``st`` (int64[ST_SIZE]) with the fresh deal of ``new_state``: the
    engine reuses one state array for every deal a thread plays (no allocation).
    The derived table slots (O_TABLE_CARDS ..) are 0: no melds yet."""
    st[:] = 0
    for s in range(N_SEATS):
        h = np.int64(0)
        for i in range(HAND_SIZE):
            h |= bit(deck[HAND_SIZE * s + i])
        st[S_HANDS + s] = h
        st[O_HAND_SIZES + s] = HAND_SIZE
    st[O_PILE] = deck[N_SEATS * HAND_SIZE]
    st[O_PILE_N] = 1
    first_stock = N_SEATS * HAND_SIZE + 1
    for i in range(STOCK_SIZE):  # stored bottom first: the last deck card is the bottom
        st[S_STOCK + i] = deck[first_stock + STOCK_SIZE - 1 - i]
    st[O_STOCK_N] = STOCK_SIZE
    st[O_TARGET] = -1
    st[O_LAST_DISCARD] = -1
    st[O_LAST_DISCARDER] = -1
    st[O_DEALER] = dealer
    st[O_SEAT] = next_seat(dealer)
    st[O_DECISION] = D_DRAW
    for r in range(N_RULES):
        st[O_RULES + r] = rules[r]


@njit(cache=True, _nrt=False)
def pile_mask(st, depth):
    """Mask of the top ``depth`` + 1 cards of the discard pile."""
    m = np.int64(0)
    top = O_PILE + st[O_PILE_N] - 1
    for i in range(depth + 1):
        m |= bit(st[top - i])
    return m


@njit(cache=True, _nrt=False, inline="always")
def draw_moves(st, moves):
    """Legal draws for the seat to move (P6.1, P6.2); returns how many."""
    seat = st[O_SEAT]
    hand = st[S_HANDS + seat]
    n = 0
    if st[O_STOCK_N] > 0:
        n = _push(moves, n, MV_STOCK, 0, 0, 0)
    taken = np.int64(0)
    top = O_PILE + st[O_PILE_N] - 1
    set_ranks, joker_room, up, down = table_reach(st)  # the table, gathered once for every depth
    for depth in range(st[O_PILE_N]):
        target = st[top - depth]
        taken |= bit(target)
        if placeable(set_ranks, joker_room, up, down, hand | taken, target):
            n = _push(moves, n, MV_TAKE, depth, target, taken)
    if st[O_STOCK_N] == 0:
        n = _push(moves, n, MV_PASS, 0, 0, 0)
    return n


@njit(cache=True, _nrt=False)
def _places_target(target, move_kind, a):
    """Does this play put the pending target (any joker for a joker target) down?"""
    if move_kind == MV_MELD:
        if target >= JOKER0:
            return a & JOKERS != 0
        return (a >> target) & 1 == 1
    if target >= JOKER0:
        return a >= JOKER0
    return a == target


@njit(cache=True, _nrt=False, inline="always")
def play_moves(st, moves):
    """Legal plays for the seat to move (P6.3), plus stop when no target is pending.

    While a discard-pile target is pending, a play is offered only if afterwards the
    target is on the table or can still get there (P6.1): no play may strand it.
    """
    seat = st[O_SEAT]
    hand = st[S_HANDS + seat]
    n = new_meld_moves(hand, moves, 0)
    n = layoff_moves(st, hand, moves, n)
    target = st[O_TARGET]
    if target < 0:
        return _push(moves, n, MV_STOP, 0, 0, 0)
    kept = 0
    for i in range(n):
        kind = moves[i, 0]
        a = moves[i, 1]
        ok = _places_target(target, kind, a)
        if not ok:
            ok = _target_survives(st, hand, target, kind, a, moves[i, 2])
        if ok:
            for c in range(MOVE_COLS):
                moves[kept, c] = moves[i, c]
            kept += 1
    return kept


@njit(cache=True, _nrt=False)
def _target_survives(st, hand, target, kind, a, b):
    """Is ``target`` still placeable after this play? (tries it on ``st``, then undoes it)

    Parameters
    ----------
    st : the state (tried on and restored)
    hand : the mover's hand
    target : the pending discard-pile card
    kind, a, b : the play (MV_MELD with meld mask ``a``, or MV_LAYOFF of card ``a`` onto meld ``b``)
    """
    nm = st[O_N_MELDS]
    if kind == MV_MELD:
        mk, key = meld_kind_key(a)
        st[O_MELD_MASK + nm] = a
        st[O_MELD_KIND + nm] = mk
        st[O_MELD_KEY + nm] = key
        st[O_N_MELDS] = nm + 1
        ok = target_placeable(st, hand & ~a, target)
        st[O_N_MELDS] = nm
        st[O_MELD_MASK + nm] = 0
        st[O_MELD_KIND + nm] = 0  # leave no trace of the hidden hand in public slots (P10)
        st[O_MELD_KEY + nm] = 0
        return ok
    old = st[O_MELD_MASK + b]
    st[O_MELD_MASK + b] = old | bit(a)
    ok = target_placeable(st, hand & ~bit(a), target)
    st[O_MELD_MASK + b] = old
    return ok


@njit(cache=True, _nrt=False, inline="always")
def discard_moves(st, moves):
    """Every card in hand may be discarded (P6.5); one joker stands for all."""
    hand = st[S_HANDS + st[O_SEAT]]
    n = 0
    m = hand & ~JOKERS
    while m != 0:
        low = m & -m
        n = _push(moves, n, MV_DISCARD, lowest_card(low), 0, 0)
        m ^= low
    if hand & JOKERS:
        n = _push(moves, n, MV_DISCARD, lowest_card(hand & JOKERS), 0, 0)
    return n


@njit(cache=True, _nrt=False)
def apply_draw(st, kind, a, res):
    """Apply a draw move; returns True when it was a pass."""
    seat = st[O_SEAT]
    fed_card = st[O_LAST_DISCARD]
    fed_by = st[O_LAST_DISCARDER]
    st[O_LAST_DISCARD] = -1
    st[O_LAST_DISCARDER] = -1
    if kind == MV_PASS:
        st[O_PASSES] += 1
        return True
    st[O_PASSES] = 0
    if kind == MV_STOCK:
        n = st[O_STOCK_N] - 1
        card = st[S_STOCK + n]
        st[O_STOCK_N] = n
        st[S_HANDS + seat] |= bit(card)
        st[O_HAND_SIZES + seat] += 1
        return False
    depth = a
    taken = pile_mask(st, depth)
    top = O_PILE + st[O_PILE_N] - 1
    target = st[top - depth]
    for i in range(depth + 1):
        st[top - i] = 0
    st[O_PILE_N] -= depth + 1
    st[S_HANDS + seat] |= taken
    st[O_HAND_SIZES + seat] += depth + 1
    st[O_TAKEN + seat] |= taken
    st[O_TARGET] = target
    res[C_TAKES + seat] += 1
    res[C_TAKE_DEPTH + seat] += depth
    if depth > res[C_MAX_DEPTH + seat]:
        res[C_MAX_DEPTH + seat] = depth
    res[C_CARDS_TAKEN + seat] += depth + 1
    if fed_card >= 0 and (taken >> fed_card) & 1:
        res[C_FED + fed_by] += 1
    return False


@njit(cache=True, _nrt=False)
def apply_play(st, kind, a, b, res):
    """Apply a meld or lay-off (P6.3) and score it (P8); returns True when the hand is empty (P6.4)."""
    seat = st[O_SEAT]
    team = team_of(seat)
    if kind == MV_MELD:
        mk, key = meld_kind_key(a)
        nm = st[O_N_MELDS]
        st[O_MELD_MASK + nm] = a
        st[O_MELD_KIND + nm] = mk
        st[O_MELD_KEY + nm] = key
        st[O_MELD_OWNER + nm] = seat
        st[O_N_MELDS] = nm + 1
        placed = a
        points = mask_value(a)
        if mk != MK_RUN and popcount(a) == SET_MAX:
            if st[O_RULES + R_FOUR_DOUBLE] != 0:
                points *= 2  # P8: four of a kind as one new meld counts double
            if mk == MK_JOKERS:
                res[C_JOKER_FOURS + seat] += 1
            else:
                res[C_FOURS + seat] += 1
    else:
        placed = bit(a)
        st[O_MELD_MASK + b] |= placed
        points = card_value(a)
        if team_of(st[O_MELD_OWNER + b]) != team:
            res[C_LAYOFF_OPP + seat] += points
    refresh_table(st)  # the derived table slots follow the melds
    target = st[O_TARGET]
    if target >= 0:
        if target >= JOKER0:
            if placed & JOKERS:
                st[O_TARGET] = -1
        elif (placed >> target) & 1:
            st[O_TARGET] = -1
    st[S_HANDS + seat] &= ~placed
    st[O_HAND_SIZES + seat] -= popcount(placed)
    st[O_PLACED + seat] |= placed
    st[O_TEAM_TABLE + team] += points
    res[C_TABLE_SEAT + seat] += points
    return st[S_HANDS + seat] == 0


@njit(cache=True, _nrt=False)
def apply_discard(st, card, res):
    """Put ``card`` on the discard pile (P6.5); returns True when that ends the deal
    (the hand is now empty and rule option last_card = discard)."""
    seat = st[O_SEAT]
    st[O_LAST_DISCARD] = card
    st[O_LAST_DISCARDER] = seat
    res[C_DISCARDS + seat] += 1
    st[S_HANDS + seat] &= ~bit(card)
    st[O_HAND_SIZES + seat] -= 1
    st[O_PILE + st[O_PILE_N]] = card
    st[O_PILE_N] += 1
    return st[S_HANDS + seat] == 0 and st[O_RULES + R_LAST_CARD] == LAST_CARD_DISCARD


@njit(cache=True, _nrt=False)
def next_turn(st):
    """Pass the turn clockwise."""
    st[O_SEAT] = next_seat(st[O_SEAT])
    st[O_TURN] += 1
    st[O_DECISION] = D_DRAW


@njit(cache=True, _nrt=False)
def score_deal(st, end, out_seat, res):
    """Fill the P8 score columns of ``res``: table, hand penalty, out bonus, total per team."""
    for team in range(N_TEAMS):
        hand_pts = 0
        for s in range(team, N_SEATS, N_TEAMS):
            v = mask_value(st[S_HANDS + s])
            res[C_HAND_PTS + s] = v
            hand_pts += v
        bonus = 0
        if end == END_OUT and team_of(out_seat) == team:
            bonus = st[O_RULES + R_OUT_BONUS]
        res[C_TABLE + team] = st[O_TEAM_TABLE + team]
        res[C_HAND + team] = hand_pts
        res[C_BONUS + team] = bonus
        res[C_TOTAL + team] = st[O_TEAM_TABLE + team] - hand_pts + bonus


@njit(cache=True, _nrt=False)
def legal_moves(st, decision, moves):
    """Write the legal moves of the seat to move at ``decision`` (D_*) into ``moves``;
    returns how many (engine order)."""
    if decision == D_DRAW:
        return draw_moves(st, moves)
    if decision == D_PLAY:
        return play_moves(st, moves)
    return discard_moves(st, moves)


@njit(cache=True, _nrt=False, inline="always")
def step_draw(st, kind, a, res):
    """``apply_row`` at a draw (D_DRAW): the engine calls it directly at its draw site."""
    if apply_draw(st, kind, a, res):
        if st[O_PASSES] >= N_SEATS:  # P7: every seat passed in a row
            return END_PASSES
        next_turn(st)
        return GOING_ON
    st[O_DECISION] = D_PLAY
    return GOING_ON


@njit(cache=True, _nrt=False, inline="always")
def step_play(st, kind, a, b, res):
    """``apply_row`` at a play (D_PLAY): a meld or lay-off, or stop (on to the discard)."""
    if kind == MV_STOP:
        st[O_DECISION] = D_DISCARD
        return GOING_ON
    if apply_play(st, kind, a, b, res):
        return END_OUT
    return GOING_ON


@njit(cache=True, _nrt=False, inline="always")
def step_discard(st, card, res):
    """``apply_row`` at a discard (D_DISCARD): the card onto the pile, then the next seat."""
    if apply_discard(st, card, res):
        return END_OUT
    next_turn(st)
    return GOING_ON


@njit(cache=True, _nrt=False)
def apply_row(st, decision, kind, a, b, res):
    """Apply the chosen legal move ``(kind, a, b)`` (the first three columns of its
    move row) at ``decision`` and move the deal on: ``st[O_DECISION]`` becomes the next
    phase (a draw leads to the plays, stop to the discard, a discard or a pass to the
    next seat's draw). Counters go to the result row ``res``.

    Returns GOING_ON, END_OUT (the mover went out, P6.4/P6.5: ``st[O_SEAT]`` is still
    the mover) or END_PASSES (four passes in a row on an empty stock, P7). The turn
    cap (P7) is the caller's: it applies before a draw.

    Parameters
    ----------
    st : the state, changed in place
    decision : D_* code of the decision the move answers (the phase ``st`` is in)
    kind, a, b : the first three columns of the chosen legal move row (MV_* kind and its values)
    res : int64[N_RESULT_COLS], the deal's result row (the counters are added to it)
    """
    if decision == D_DRAW:
        return step_draw(st, kind, a, res)
    if decision == D_PLAY:
        return step_play(st, kind, a, b, res)
    return step_discard(st, a, res)
