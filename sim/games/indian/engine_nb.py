"""The compiled Indian Rummy deal loop (I2-I9): deals, asks strategies, checks and applies
their moves, scores. Many deals run on several threads (``play_deals``).

A deal is a pure function of (seed, deal index, rules, strategies): its cards come from
stream 0 of the deal's counter-based generator (deal_nb.py, which also continues that
stream for I8 reshuffles), seat s's strategy draws from stream STREAM_SEAT0 + s, and the
dealer is ``deal % players`` (I2).

Turn (I3): the seat left of the dealer starts; each turn is a draw decision (stock, the
pile's top card, or drop, I7) and, unless it dropped, a discard decision (discard a
kind, or declare discarding a kind, I5). A valid declaration ends the deal (I6 scoring);
a wrong one costs ``wrong_declaration`` and the seat leaves; when one seat is left it
wins (``last_player``); at ``turn_cap`` turns the deal stops as ``cap`` (no winner).

Scoring (I6, I7): a valid declaration makes every other seat still in the deal lose
``min(max_points, min_deadwood(its 13 cards))``; dropped seats lose first_drop or
middle_drop, wrong declarers wrong_declaration; the winner gains the sum of every other
seat's loss (zero-sum). At the cap nobody gains and the losses already made stand.

Each seat's "first chance" column is the turn at which it first held 14 cards from
which some 13 form a valid declaration (whether or not it declared), -1 if never.
"""

import warnings

import numpy as np
from numba import njit, types
from numba.core.errors import NumbaExperimentalFeatureWarning

from sim.games.indian.deal_nb import shuffle_shoe
from sim.games.indian.enums import (
    C_DEADWOOD,
    C_DEAL,
    C_DEALER,
    C_DROP,
    C_END,
    C_ERR_DECISION,
    C_ERR_N_MOVES,
    C_ERR_SEAT,
    C_ERR_VALUE,
    C_FIRST_CHANCE,
    C_GAIN,
    C_JOKERS,
    C_LOST,
    C_PICKUPS,
    C_PLAYERS,
    C_TURNS,
    C_TURNS_SEAT,
    C_WINNER,
    C_WRONG,
    D_DISCARD,
    D_DRAW,
    END_CAP,
    END_DECLARE,
    END_ERROR,
    END_LAST_PLAYER,
    EV_CARD,
    EV_DECISION,
    EV_DECLARE,
    EV_DISCARD,
    EV_DROP,
    EV_END,
    EV_GROUP,
    EV_LEGAL,
    EV_PILE,
    EV_RESHUFFLE,
    EV_STOCK,
    GROUP_WIDTH,
    HAND_SIZE,
    MAX_GROUPS,
    MAX_MOVES,
    MAX_SEATS,
    MAX_SHOE,
    MOVE_COLS,
    MV_DECLARE,
    MV_DROP,
    MV_STOCK,
    N_KINDS,
    O_DECISION,
    O_HAND,
    O_HAS_DRAWN,
    O_IN_PLAY,
    O_PICKUPS,
    O_SEAT,
    O_STATUS,
    O_TURN,
    O_WILD_RANK,
    OBS_SIZE,
    R_DECKS,
    R_FIRST_DROP,
    R_MAX_J_RUN,
    R_MAX_J_SET,
    R_MAX_POINTS,
    R_MIDDLE_DROP,
    R_PLAYERS,
    R_TRIPLE_IS_RUN,
    R_TURN_CAP,
    R_WRONG_DECL,
    S_FIRST_CHANCE,
    S_HANDS,
    ST_DROP_FIRST,
    ST_DROP_MIDDLE,
    ST_IN,
    ST_SIZE,
    ST_WRONG,
)
from sim.games.indian.cards_nb import jokers_in
from sim.games.indian.solver_nb import arrange, can_declare, min_deadwood
from sim.games.indian.state_nb import (
    declaring_discard,
    discard,
    discard_moves,
    draw_moves,
    draw_pile,
    draw_stock,
    hand_of,
    init_state,
    leave_deal,
    maybe_reshuffle,
    next_turn,
)
from sim.plugin.runs import play_on_threads
from sim.core.rng_nb import STREAM_SEAT0, stream_key
from strategies.indian.dispatch_nb import SEAT_FNS
from sim.plugin.specs import MAX_PARAMS

warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

MOVE_SLACK = 32  # zeroed rows past the largest move list in the strategies' scratch buffer


EVENT_SIG = types.void(types.int64[:, :, ::1], types.int64[::1], types.int64, types.int64, types.int64,
                       types.int64, types.int64, types.int64)


@njit(EVENT_SIG, cache=True)
def _event(ev, ev_n, slot, kind, seat, a, b, c):
    """Append one event row for deal ``slot`` (recording mode); marks overflow with -1."""
    i = ev_n[slot]
    if i < 0:
        return
    if i >= ev.shape[1]:
        ev_n[slot] = -1
        return
    ev[slot, i, 0] = kind
    ev[slot, i, 1] = seat
    ev[slot, i, 2] = a
    ev[slot, i, 3] = b
    ev[slot, i, 4] = c
    ev_n[slot] = i + 1


@njit(cache=True)
def _decide(sids, params, fns, rng, st, obs, moves, mv, prm, n, decision, res, ev, ev_n, slot, record):
    """Ask the seat's strategy for one of the ``n`` legal moves; -1 if it answered illegally.

    The strategy gets fresh copies (observation with its own hand, exactly the ``n`` legal
    rows in a zeroed scratch buffer, cleared again after the call, its parameters) and its
    own generator; whatever it writes changes nothing: the engine applies its own row."""
    seat = st[O_SEAT]
    if n == 1:
        idx = 0  # a forced move needs no decision
    else:
        # element loops, not slice assignments: an array-to-array slice assignment makes numba
        # compile its shape-mismatch error message (string formatting, seconds of cold compile)
        for j in range(O_HAND):
            obs[j] = st[j]
        b = S_HANDS + seat * N_KINDS
        for j in range(N_KINDS):
            obs[O_HAND + j] = st[b + j]
        obs[O_DECISION] = decision
        for i in range(n):
            for j in range(MOVE_COLS):
                mv[i, j] = moves[i, j]
        np_ = params.shape[1]
        for j in range(prm.shape[0]):
            prm[j] = params[seat, j] if j < np_ else 0.0
        idx = fns[seat](decision, obs, mv[:n], n, prm, rng[seat])  # the seat's strategy (dispatch_nb)
        # clear the strategy's rows again: nothing of this decision (another seat's
        # kinds held) survives in the scratch rows a later strategy could read past its end
        for i in range(n):
            for j in range(MOVE_COLS):
                mv[i, j] = 0
    if record >= 2:
        for i in range(n):
            _event(ev, ev_n, slot, EV_LEGAL, seat, moves[i, 0], moves[i, 1], i)
        _event(ev, ev_n, slot, EV_DECISION, seat, decision, n, idx)
    if idx < 0 or idx >= n:
        res[C_END] = END_ERROR
        res[C_ERR_SEAT] = seat
        res[C_ERR_DECISION] = decision
        res[C_ERR_VALUE] = idx
        res[C_ERR_N_MOVES] = n
        return -1
    return idx


@njit(cache=True)
def play_deal(seed, deal, rules, sids, params, fns, res, ev, ev_n, slot, record):
    """Play deal ``deal`` to its end and write its result row ``res``.

    ``record`` 0: no events; 1: the moves made (for deal logs); 2: also every legal
    move list before each decision (for checking against the reference rules).
    """
    players = rules[R_PLAYERS]
    decks = rules[R_DECKS]
    mjr = rules[R_MAX_J_RUN]
    mjs = rules[R_MAX_J_SET]
    tir = rules[R_TRIPLE_IS_RUN]
    dealer = deal % players
    # per-deal scratch (nothing is allocated per decision)
    rs = np.empty(1, np.uint64)
    shoe = shuffle_shoe(seed, deal, decks, rs)
    st = np.empty(ST_SIZE, np.int64)
    hands_seq = np.empty((MAX_SEATS, HAND_SIZE), np.int64)
    buf = np.empty(MAX_SHOE, np.int64)
    free = np.empty(N_KINDS, np.int64)  # scratch of state_nb.declaring_discard
    init_state(st, shoe, rules, players, dealer, hands_seq, buf)
    wild = st[O_WILD_RANK]
    rng = np.empty((MAX_SEATS, 1), np.uint64)
    for s in range(players):
        rng[s, 0] = stream_key(seed, deal, STREAM_SEAT0 + s)
    obs = np.empty(OBS_SIZE, np.int64)
    moves = np.empty((MAX_MOVES, MOVE_COLS), np.int64)
    mv = np.zeros((MAX_MOVES + MOVE_SLACK, MOVE_COLS), np.int64)  # zero slack rows after any n
    prm = np.empty(MAX_PARAMS, np.float64)
    groups = np.empty((MAX_GROUPS, GROUP_WIDTH), np.int64)
    group_len = np.empty(MAX_GROUPS, np.int64)
    left = np.empty(N_KINDS, np.int64)

    res[:] = 0
    res[C_DEAL] = deal
    res[C_DEALER] = dealer
    res[C_PLAYERS] = players
    res[C_WINNER] = -1
    res[C_ERR_SEAT] = -1
    res[C_ERR_DECISION] = -1
    cap = rules[R_TURN_CAP]
    end = END_CAP
    winner = -1
    while st[O_TURN] < cap:
        seat = st[O_SEAT]
        res[C_TURNS_SEAT + seat] += 1
        # I8: reshuffle the pile into a new stock before the draw
        m = maybe_reshuffle(st, rs, buf)
        if m > 0 and record >= 1:
            _event(ev, ev_n, slot, EV_RESHUFFLE, seat, m, 0, 0)
            for i in range(m):
                _event(ev, ev_n, slot, EV_CARD, seat, buf[i], 0, 0)
        # draw or drop (I3, I7)
        st[O_DECISION] = D_DRAW
        n = draw_moves(st, moves)
        # (the decision read back from the state: a literal argument would compile _decide twice)
        idx = _decide(sids, params, fns, rng, st, obs, moves, mv, prm, n, st[O_DECISION], res, ev, ev_n, slot, record)
        if idx < 0:
            return
        kind = moves[idx, 0]
        if kind == MV_DROP:
            h = hand_of(st, seat)
            res[C_JOKERS + seat] = jokers_in(h, wild)
            if st[O_HAS_DRAWN + seat] == 0:
                loss = rules[R_FIRST_DROP]
                status = ST_DROP_FIRST
            else:
                loss = rules[R_MIDDLE_DROP]
                status = ST_DROP_MIDDLE
            res[C_LOST + seat] = loss
            res[C_DROP + seat] = status  # 1 first, 2 middle
            if record >= 1:
                _event(ev, ev_n, slot, EV_DROP, seat, status, loss, 0)
            leave_deal(st, seat, status)
            if st[O_IN_PLAY] == 1:
                end = END_LAST_PLAYER
                break
            next_turn(st)
            continue
        if kind == MV_STOCK:
            k = draw_stock(st)
            if record >= 1:
                _event(ev, ev_n, slot, EV_STOCK, seat, k, 0, 0)
        else:
            k = draw_pile(st)
            if record >= 1:
                _event(ev, ev_n, slot, EV_PILE, seat, k, 0, 0)
        h = hand_of(st, seat)
        if st[S_FIRST_CHANCE + seat] < 0:
            if declaring_discard(h, wild, mjr, mjs, tir, free) >= 0:  # I5: a valid declaration exists
                st[S_FIRST_CHANCE + seat] = st[O_TURN]
        # discard or declare (I3, I5)
        st[O_DECISION] = D_DISCARD
        n = discard_moves(st, moves)
        idx = _decide(sids, params, fns, rng, st, obs, moves, mv, prm, n, st[O_DECISION], res, ev, ev_n, slot, record)
        if idx < 0:
            return
        kind = moves[idx, 0]
        k = moves[idx, 1]
        discard(st, k)
        if kind == MV_DECLARE:
            valid = can_declare(h, wild, mjr, mjs, tir)
            if record >= 1:
                ng = arrange(h, wild, mjr, mjs, tir, groups, group_len)
                for q in range(N_KINDS):
                    left[q] = h[q]
                for g in range(ng):
                    for i in range(group_len[g]):
                        left[groups[g, i]] -= 1
                extra = 0
                for q in range(N_KINDS):
                    if left[q] > 0:
                        extra = 1
                        break
                _event(ev, ev_n, slot, EV_DECLARE, seat, k, 1 if valid else 0, ng + extra)
                for g in range(ng):
                    for i in range(group_len[g]):
                        _event(ev, ev_n, slot, EV_GROUP, seat, g, groups[g, i], 0)
                if extra:
                    for q in range(N_KINDS):
                        for _ in range(left[q]):
                            _event(ev, ev_n, slot, EV_GROUP, seat, ng, q, 0)
            if valid:
                end = END_DECLARE
                winner = seat
                break
            # I5: a wrong declaration; the deal goes on without this seat
            res[C_JOKERS + seat] = jokers_in(h, wild)
            res[C_LOST + seat] = rules[R_WRONG_DECL]
            res[C_WRONG + seat] = 1
            leave_deal(st, seat, ST_WRONG)
            if st[O_IN_PLAY] == 1:
                end = END_LAST_PLAYER
                break
        elif record >= 1:
            _event(ev, ev_n, slot, EV_DISCARD, seat, k, 0, 0)
        next_turn(st)

    if end == END_LAST_PLAYER:
        for s in range(players):
            if st[O_STATUS + s] == ST_IN:
                winner = s
    res[C_END] = end
    res[C_WINNER] = winner
    res[C_TURNS] = st[O_TURN] + (0 if end == END_CAP else 1)
    total = 0
    maxp = rules[R_MAX_POINTS]
    for s in range(players):
        res[C_PICKUPS + s] = st[O_PICKUPS + s]
        res[C_FIRST_CHANCE + s] = st[S_FIRST_CHANCE + s]
        if st[O_STATUS + s] == ST_IN:
            h = hand_of(st, s)
            dw = min_deadwood(h, wild, mjr, mjs, tir)
            res[C_DEADWOOD + s] = dw
            res[C_JOKERS + s] = jokers_in(h, wild)
            if end == END_DECLARE and s != winner:
                res[C_LOST + s] = dw if dw < maxp else maxp
        else:
            res[C_DEADWOOD + s] = -1
        total += res[C_LOST + s]
    if winner >= 0:
        res[C_GAIN + winner] = total
    if record >= 1:
        _event(ev, ev_n, slot, EV_END, winner, end, 0, 0)


PLAY_DEALS_SIG = types.void(
    types.int64,  # seed
    types.int64[::1],  # deal indices
    types.int64[::1],  # rules
    types.int64[::1],  # strategy id per seat
    types.float64[:, ::1],  # parameters per seat
    SEAT_FNS,  # user strategy function per seat (6 slots)
    types.int64[:, ::1],  # results, one row per deal
    types.int64[:, :, ::1],  # events per deal (recording)
    types.int64[::1],  # event count per deal
    types.int64,  # record level
)


@njit(PLAY_DEALS_SIG, cache=True, nogil=True)
def play_deals_kernel(seed, deals, rules, sids, params, fns, res, ev, ev_n, record):
    """Play every deal in ``deals`` in order on the calling thread, one result row each
    (row i, and event slot i when recording). It releases the GIL, so several Python
    threads run it at once on separate slices (``play_deals``)."""
    for i in range(deals.shape[0]):
        slot = np.int64(i) if record > 0 else np.int64(0)
        play_deal(seed, deals[i], rules, sids, params, fns, res[i], ev, ev_n, slot, record)


def play_deals(seed, deals, rules, sids, params, fns, res, ev, ev_n, record):
    """Play every deal in ``deals`` on ``numba.get_num_threads()`` threads, one result row
    each. Bit-identical for any thread count: a deal only touches its own row, its own
    event slot and its own random streams, so how the deals are sliced changes nothing.

    Python threads run the compiled serial kernel on slices of the deals (it releases
    the GIL). One serial kernel serves the parallel runs and the checked runs
    (``play_deals_serial``), and there is no parallel region to compile: the engine's
    cold compile is about half what a ``prange`` kernel cost (issue 9)."""
    play_on_threads(play_deals_kernel, seed, deals, rules, sids, params, fns, res, ev, ev_n, record)


def play_deals_serial():
    """The compiled serial kernel (for checking user strategies deal by deal: an exception
    raised inside a strategy reaches Python as itself)."""
    return play_deals_kernel
