"""The compiled Indian Rummy deal loop (I2-I9): deals, asks strategies, checks and applies
their moves, records, scores. Many deals run on several threads (``sim.plugin.runs.play_on_threads``).

A deal is a pure function of (seed, deal index, rules, strategies): its cards come from
stream 0 of the deal's counter-based generator (deal_nb.py, which also continues that
stream for I8 reshuffles), seat s's strategy draws from stream STREAM_SEAT0 + s, and the
dealer is ``deal % players`` (I2).

The loop takes the steps of turn_nb.py, the ones every driver of a deal takes (the rules of
a turn, the scoring, the first-chance column live there): for each decision the legal moves
(state_nb), the seat's choice (``_decide``), the events of the move (recording mode), the
step. At ``turn_cap`` turns the deal stops as ``cap`` (no winner). A thread plays all the
deals of its slice with one set of scratch arrays (``_new_scratch``).

No reference counting on the deal path (as Persian's, docs/performance.md): the kernels that
neither allocate nor return an array (this loop, ``_decide``, the recorders, turn_nb's steps,
state_nb, deal_nb's shuffle, cards_nb) are compiled with ``_nrt=False``; the solver's
entry points, which allocate their search buffers, say ``_nrt=True`` explicitly so that being
first compiled as a callee of one of these never takes numba's runtime from them; and
``state_nb.hand_of``, which returns a view, is inlined into its callers.
"""

import warnings

import numpy as np
from numba import njit
from numba.core.errors import NumbaExperimentalFeatureWarning

from sim.games.indian.enums import (
    C_END,
    C_ERR_DECISION,
    C_ERR_N_MOVES,
    C_ERR_SEAT,
    C_ERR_VALUE,
    C_LOST,
    D_DRAW,
    END_ERROR,
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
    O_RULES,
    O_SEAT,
    O_STATUS,
    O_STOCK_N,
    O_TOP,
    O_TURN,
    O_WILD_RANK,
    OBS_SIZE,
    R_MAX_J_RUN,
    R_MAX_J_SET,
    R_TRIPLE_IS_RUN,
    R_TURN_CAP,
    S_HANDS,
    S_STOCK,
    ST_SIZE,
)
from sim.games.indian.solver_nb import arrange, can_declare
from sim.games.indian.state_nb import discard_moves, draw_moves, hand_of
from sim.games.indian.memo_nb import DECLARES_UNKNOWN, M_DECLARES, MEMO_SEAT, MEMO_SIZE, clear_memo
from sim.games.indian.turn_nb import GOING_ON, begin_turn, finish_deal, start_deal, step_discard, step_draw
from sim.plugin.record_nb import event
from sim.plugin.runs import play_deals_sig
from sim.plugin.specs import MAX_PARAMS
from sim.plugin.strategy import seat_fns_type

warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

SEAT_FNS = seat_fns_type(MAX_SEATS)  # one function slot per seat, six (I1)

MOVE_SLACK = 32  # zeroed rows past the largest move list in the strategies' scratch buffer


@njit(cache=True, _nrt=False)
def _decide(sids, params, fns, rng, st, obs, moves, mv, prm, n, decision, res, ev, ev_n, slot, record):
    """Ask the seat's strategy for one of the ``n`` legal moves; -1 if it answered illegally.

    The strategy gets fresh copies (observation with its own hand, exactly the ``n`` legal
    rows in a zeroed scratch buffer, cleared again after the call, its parameters) and its
    own generator; whatever it writes changes nothing: the engine applies its own row. A
    built-in (``sids[seat] >= 0``) also gets the seats' memo blocks after the observation
    (memo_nb: its own solver work from its last decisions, and M_DECLARES, reset here, in
    which its discard can tell the first-chance note what it found)."""
    seat = st[O_SEAT]
    obs[OBS_SIZE + seat * MEMO_SEAT + M_DECLARES] = DECLARES_UNKNOWN
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
        if sids[seat] >= 0:  # a built-in: the observation and the seats' memo blocks (memo_nb)
            idx = fns[seat](decision, obs, mv[:n], n, prm, rng[seat])
        else:  # a user strategy: exactly the observation
            idx = fns[seat](decision, obs[:OBS_SIZE], mv[:n], n, prm, rng[seat])
        # clear the strategy's rows again: nothing of this decision (another seat's
        # kinds held) survives in the scratch rows a later strategy could read past its end
        for i in range(n):
            for j in range(MOVE_COLS):
                mv[i, j] = 0
    if record >= 2:
        for i in range(n):
            event(ev, ev_n, slot, EV_LEGAL, seat, moves[i, 0], moves[i, 1], i)
        event(ev, ev_n, slot, EV_DECISION, seat, decision, n, idx)
    if idx < 0 or idx >= n:
        res[C_END] = END_ERROR
        res[C_ERR_SEAT] = seat
        res[C_ERR_DECISION] = decision
        res[C_ERR_VALUE] = idx
        res[C_ERR_N_MOVES] = n
        return -1
    return idx


@njit(cache=True, inline="always", _nrt=False)
def record_draw(ev, ev_n, slot, st, kind):
    """Record the draw the seat to move is about to make: EV_STOCK or EV_PILE with the card."""
    seat = st[O_SEAT]
    if kind == MV_STOCK:
        event(ev, ev_n, slot, EV_STOCK, seat, st[S_STOCK + st[O_STOCK_N] - 1], 0, 0)
    else:
        event(ev, ev_n, slot, EV_PILE, seat, st[O_TOP], 0, 0)


@njit(cache=True, inline="always", _nrt=False)
def record_declaration(ev, ev_n, slot, st, k, groups, group_len, left):
    """Record the declaration the seat to move is about to make, discarding ``k`` (I5):
    EV_DECLARE (valid or not, the number of groups) and one EV_GROUP per card shown, in the
    groups the solver arranges (``arrange``); cards outside every group (a wrong
    declaration) form one last group. ``groups``, ``group_len``, ``left`` are scratch."""
    seat = st[O_SEAT]
    h = hand_of(st, seat)
    wild = st[O_WILD_RANK]
    mjr = st[O_RULES + R_MAX_J_RUN]
    mjs = st[O_RULES + R_MAX_J_SET]
    tir = st[O_RULES + R_TRIPLE_IS_RUN]
    h[k] -= 1  # the 13 cards shown (restored below)
    valid = can_declare(h, wild, mjr, mjs, tir)
    ng = arrange(h, wild, mjr, mjs, tir, groups, group_len)
    for q in range(N_KINDS):
        left[q] = h[q]
    h[k] += 1
    for g in range(ng):
        for i in range(group_len[g]):
            left[groups[g, i]] -= 1
    extra = 0
    for q in range(N_KINDS):
        if left[q] > 0:
            extra = 1
            break
    event(ev, ev_n, slot, EV_DECLARE, seat, k, 1 if valid else 0, ng + extra)
    for g in range(ng):
        for i in range(group_len[g]):
            event(ev, ev_n, slot, EV_GROUP, seat, g, groups[g, i], 0)
    if extra:
        for q in range(N_KINDS):
            for _ in range(left[q]):
                event(ev, ev_n, slot, EV_GROUP, seat, ng, q, 0)


@njit(cache=True)
def _new_scratch():
    """The arrays a deal needs, reused deal after deal by a thread: (state, shoe, shuffle
    stream, seat streams, dealt hands, stock / reshuffle buffer, first-chance scratch,
    observation copy, legal moves, the strategies' move copies (zeroed, with MOVE_SLACK
    zero rows after any move list), parameter copy, declaration groups, group lengths,
    cards outside the groups)."""
    return (np.empty(ST_SIZE, np.int64), np.empty(MAX_SHOE, np.int64), np.empty(1, np.uint64),
            np.empty((MAX_SEATS, 1), np.uint64), np.empty((MAX_SEATS, HAND_SIZE), np.int64),
            np.empty(MAX_SHOE, np.int64), np.empty(N_KINDS, np.int64), np.empty(OBS_SIZE + MEMO_SIZE, np.int64),
            np.empty((MAX_MOVES, MOVE_COLS), np.int64), np.zeros((MAX_MOVES + MOVE_SLACK, MOVE_COLS), np.int64),
            np.empty(MAX_PARAMS, np.float64), np.empty((MAX_GROUPS, GROUP_WIDTH), np.int64),
            np.empty(MAX_GROUPS, np.int64), np.empty(N_KINDS, np.int64))


@njit(cache=True, _nrt=False)
def _play_deal_in(seed, deal, rules, sids, params, fns, res, ev, ev_n, slot, record,
                  st, shoe, rs, rng, hands_seq, buf, free, obs, moves, mv, prm, groups, group_len, left):
    """Play deal ``deal`` to its end and write its result row ``res``, with the scratch
    arrays of ``_new_scratch`` (all overwritten but ``mv``, which stays zero between calls).

    ``record`` 0: no events; 1: the moves made (for deal logs); 2: also every legal
    move list before each decision (for checking against the reference rules). A
    strategy's illegal answer abandons the deal (``_decide`` writes the error columns).
    """
    start_deal(seed, deal, rules, st, shoe, rs, rng, hands_seq, buf, res)
    clear_memo(obs)
    cap = rules[R_TURN_CAP]
    end = GOING_ON
    while st[O_TURN] < cap:
        seat = st[O_SEAT]
        m = begin_turn(st, rs, buf, res)
        if m > 0 and record >= 1:
            event(ev, ev_n, slot, EV_RESHUFFLE, seat, m, 0, 0)
            for i in range(m):
                event(ev, ev_n, slot, EV_CARD, seat, buf[i], 0, 0)
        # draw or drop (I3, I7); the decision read back from the state: a literal argument
        # would compile _decide twice
        n = draw_moves(st, moves)
        idx = _decide(sids, params, fns, rng, st, obs, moves, mv, prm, n, st[O_DECISION], res, ev, ev_n, slot, record)
        if idx < 0:
            return
        kind = moves[idx, 0]
        if record >= 1 and kind != MV_DROP:
            record_draw(ev, ev_n, slot, st, kind)
        end = step_draw(st, kind, res)
        if record >= 1 and kind == MV_DROP:
            event(ev, ev_n, slot, EV_DROP, seat, st[O_STATUS + seat], res[C_LOST + seat], 0)
        if end != GOING_ON:
            break
        if st[O_DECISION] == D_DRAW:  # dropped: the next seat's turn
            continue
        # discard or declare (I3, I5)
        n = discard_moves(st, moves)
        idx = _decide(sids, params, fns, rng, st, obs, moves, mv, prm, n, st[O_DECISION], res, ev, ev_n, slot, record)
        if idx < 0:
            return
        kind = moves[idx, 0]
        k = moves[idx, 1]
        if record >= 1:
            if kind == MV_DECLARE:
                record_declaration(ev, ev_n, slot, st, k, groups, group_len, left)
            else:
                event(ev, ev_n, slot, EV_DISCARD, seat, k, 0, 0)
        end = step_discard(st, kind, k, res, free, obs[OBS_SIZE + seat * MEMO_SEAT + M_DECLARES])
        if end != GOING_ON:
            break
    winner = finish_deal(st, end, res, obs)
    if record >= 1:
        event(ev, ev_n, slot, EV_END, winner, res[C_END], 0, 0)


@njit(cache=True)
def play_deal(seed, deal, rules, sids, params, fns, res, ev, ev_n, slot, record):
    """Play one deal with scratch arrays of its own (``_play_deal_in``)."""
    st, shoe, rs, rng, hands_seq, buf, free, obs, moves, mv, prm, groups, group_len, left = _new_scratch()
    _play_deal_in(seed, deal, rules, sids, params, fns, res, ev, ev_n, slot, record,
                  st, shoe, rs, rng, hands_seq, buf, free, obs, moves, mv, prm, groups, group_len, left)


PLAY_DEALS_SIG = play_deals_sig(SEAT_FNS)


@njit(PLAY_DEALS_SIG, cache=True, nogil=True)
def play_deals_kernel(seed, deals, rules, sids, params, fns, res, ev, ev_n, record):
    """Play every deal in ``deals`` in order on the calling thread, one result row each
    (row i, and event slot i when recording), with one set of scratch arrays for all of
    them. It releases the GIL, so several Python threads run it at once on separate
    slices (``sim.plugin.runs.play_on_threads``)."""
    st, shoe, rs, rng, hands_seq, buf, free, obs, moves, mv, prm, groups, group_len, left = _new_scratch()
    for i in range(deals.shape[0]):
        slot = np.int64(i) if record > 0 else np.int64(0)
        _play_deal_in(seed, deals[i], rules, sids, params, fns, res[i], ev, ev_n, slot, record,
                      st, shoe, rs, rng, hands_seq, buf, free, obs, moves, mv, prm, groups, group_len, left)
