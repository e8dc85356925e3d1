"""The compiled Gin Rummy deal loop (G1-G8): deals, asks strategies, checks and applies their
moves, scores. Many deals run on several threads (``sim.plugin.runs.play_on_threads``).

A hand is a pure function of (seed, deal index, rules, strategies): its cards come from
stream 0 of the deal's counter-based generator (state_nb.shuffled_deck), seat s's strategy
draws from stream STREAM_SEAT0 + s, and seat ``deal % 2`` acts first (OpenSpiel's player 0).
Each decision with two or more legal moves asks the seat's strategy (a forced move is made
without asking); the engine applies its own copy of the chosen row (state_nb.apply_move).

Recording: level 1 writes one EV_ACTION row per move made (OpenSpiel's action id, the
decision, and the card a stock draw brought), level 2 also every legal action before each
move (EV_LEGAL), which is what benchmarks/vs_openspiel.py compares with OpenSpiel.
"""

import warnings

import numpy as np
from numba import njit
from numba.core.errors import NumbaExperimentalFeatureWarning

from sim.core.rng_nb import STREAM_SEAT0, stream_key
from sim.games.gin.enums import (
    C_DEAL, C_END, C_ERR_DECISION, C_ERR_N_MOVES, C_ERR_SEAT, C_ERR_VALUE, C_FIRST, C_KNOCK_CARD, END_ERROR,
    EV_ACTION, EV_END, EV_LEGAL, MAX_MOVES, MOVE_COLS, MV_STOCK, O_DECISION, O_HAND, O_KNOCK_CARD, O_KNOCKER,
    O_FIRST, O_SEAT, OBS_SIZE, S_HANDS, S_STOCK, S_STOCK_POS, ST_SIZE,
)
from sim.games.gin.melds_nb import MAX_HAND_MELDS, MELD_SCRATCH
from sim.games.gin.state_nb import apply_move, deal_state, legal_moves, score, shuffled_deck
from sim.plugin.record_nb import event
from sim.plugin.runs import play_deals_sig
from sim.plugin.specs import MAX_PARAMS
from sim.plugin.strategy import seat_fns_type

warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

SEAT_FNS = seat_fns_type(2)  # the two seats' function slots (G1)

MOVE_SLACK = 32  # zeroed rows past the largest move list in the strategies' scratch buffer


@njit(cache=True)
def play_deal(seed, deal, rules, sids, params, fns, res, ev, ev_n, slot, record):
    """Play deal ``deal`` to its end and write its result row ``res`` (record: module docstring)."""
    st = np.empty(ST_SIZE, np.int64)
    deal_state(st, shuffled_deck(seed, deal), deal, rules)
    rng = np.empty((2, 1), np.uint64)
    for s in range(2):
        rng[s, 0] = stream_key(seed, deal, STREAM_SEAT0 + s)
    obs = np.empty(OBS_SIZE, np.int64)
    moves = np.empty((MAX_MOVES, MOVE_COLS), np.int64)
    mv = np.zeros((MAX_MOVES + MOVE_SLACK, MOVE_COLS), np.int64)
    prm = np.empty(MAX_PARAMS, np.float64)
    ids = np.empty(MAX_HAND_MELDS, np.int64)
    tmp = np.empty(MAX_HAND_MELDS, np.int64)
    stack = np.empty(MELD_SCRATCH, np.int64)
    for j in range(res.shape[0]):
        res[j] = 0
    res[C_DEAL] = deal
    res[C_FIRST] = st[O_FIRST]
    res[C_KNOCK_CARD] = st[O_KNOCK_CARD]
    res[C_ERR_SEAT] = -1
    res[C_ERR_DECISION] = -1
    end = -1
    while end < 0:
        seat = st[O_SEAT]
        decision = st[O_DECISION]
        n = legal_moves(st, moves, ids, stack, tmp)
        idx = 0
        if n > 1:  # a forced move needs no decision
            for j in range(OBS_SIZE):
                obs[j] = st[j]
            obs[O_HAND] = st[S_HANDS + seat]
            for i in range(n):
                for j in range(MOVE_COLS):
                    mv[i, j] = moves[i, j]
            np_ = params.shape[1]
            for j in range(prm.shape[0]):
                prm[j] = params[seat, j] if j < np_ else 0.0
            idx = fns[seat](decision, obs, mv[:n], n, prm, rng[seat])
            for i in range(n):
                for j in range(MOVE_COLS):
                    mv[i, j] = 0
            if idx < 0 or idx >= n:
                res[C_END] = END_ERROR
                res[C_ERR_SEAT] = seat
                res[C_ERR_DECISION] = decision
                res[C_ERR_VALUE] = idx
                res[C_ERR_N_MOVES] = n
                return
        if record >= 2:
            for i in range(n):
                event(ev, ev_n, slot, EV_LEGAL, seat, moves[i, 1], decision, 0)
        if record >= 1:
            drawn = st[S_STOCK + st[S_STOCK_POS]] if moves[idx, 0] == MV_STOCK else -1
            event(ev, ev_n, slot, EV_ACTION, seat, moves[idx, 1], decision, drawn)
        end = apply_move(st, moves[idx, 0], moves[idx, 2], moves[idx, 3])
    score(st, end, rules, res, ids, stack)
    if record >= 1:
        event(ev, ev_n, slot, EV_END, st[O_KNOCKER] if end <= 1 else -1, end, 0, 0)


PLAY_DEALS_SIG = play_deals_sig(SEAT_FNS)


@njit(PLAY_DEALS_SIG, cache=True, nogil=True)
def play_deals_kernel(seed, deals, rules, sids, params, fns, res, ev, ev_n, record):
    """Play every deal in ``deals`` in order on the calling thread, one result row each (row i,
    and event slot i when recording). It releases the GIL (``sim.plugin.runs.play_on_threads`` runs it on threads)."""
    for i in range(deals.shape[0]):
        slot = np.int64(i) if record > 0 else np.int64(0)
        play_deal(seed, deals[i], rules, sids, params, fns, res[i], ev, ev_n, slot, record)
