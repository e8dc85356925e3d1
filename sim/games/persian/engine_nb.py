"""The compiled Persian Rummy deal loop: shuffles, asks strategies, checks and applies
their moves, scores (P3-P9). Many deals run in parallel on Python threads, each running
the compiled serial kernel (``sim.plugin.runs.play_on_threads``).

A deal is a pure function of (seed, deal index, strategies): its cards come from
stream 0 of the deal's counter-based generator, seat s's strategy draws from
stream 1 + s, and the dealer is ``deal % 4`` (so deals 2g and 2g+1 form game g, P9).

Speed (issue 14): every kernel on the deal path that neither allocates nor returns an
array -- here and in state_nb, melds_nb, cards_nb and the built-in strategies -- is
compiled with ``_nrt=False``: numba then emits no reference counting for the arrays
it passes, views (``st[:OBS_SIZE]``, ``moves[:n]``, ``params[seat]``) and takes
as arguments. Those atomic increments and decrements were about 40% of a greedy
deal's compiled time (``perf record`` of ``run_deals``), and on shared arrays
(``params``, ``rules``) they made the threads contend for one cache line. Only the
kernels that allocate (``_new_scratch``, ``play_deal``, ``play_deals_kernel``,
``shuffled_deck``, ``state_nb.new_state``) keep numba's runtime; a kernel without it
must never return an array (its caller would release a reference it never got).
"""

import warnings

import numpy as np
from numba import njit
from numba.core.errors import NumbaExperimentalFeatureWarning

from sim.games.persian.enums import (
    C_DEAL,
    C_DEALER,
    C_END,
    C_ERR_DECISION,
    C_ERR_N_MOVES,
    C_ERR_SEAT,
    C_ERR_VALUE,
    C_MAX_DEPTH,
    C_OUT_SEAT,
    C_TURNS,
    C_TURNS_SEAT,
    D_DRAW,
    D_PLAY,
    END_CAP,
    END_ERROR,
    END_OUT,
    EV_DECISION,
    EV_DISCARD,
    EV_END,
    EV_LAYOFF,
    EV_LEGAL,
    EV_MELD,
    EV_PASS,
    EV_STOCK,
    EV_TAKE,
    MAX_MOVES,
    MOVE_COLS,
    MV_LAYOFF,
    MV_MELD,
    MV_STOCK,
    MV_TAKE,
    N_CARDS,
    N_SEATS,
    O_DECISION,
    O_HAND,
    O_SEAT,
    O_STOCK_N,
    O_TURN,
    OBS_SIZE,
    R_TURN_CAP,
    S_HANDS,
    S_STOCK,
    ST_SIZE,
)
from sim.games.persian.state_nb import (
    GOING_ON,
    discard_moves,
    draw_moves,
    play_moves,
    reset_state,
    score_deal,
    step_discard,
    step_draw,
    step_play,
)
from sim.plugin.record_nb import event
from sim.plugin.runs import play_deals_sig
from sim.core.rng_nb import STREAM_SEAT0, STREAM_SHUFFLE, shuffle_inplace, stream_key
from sim.plugin.strategy import SEAT_FNS, SID_USER

warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)


@njit(cache=True)
def shuffled_deck(seed, deal):
    """The 56 card ids of deal ``deal`` in dealing order (stream 0 only)."""
    deck = np.empty(N_CARDS, dtype=np.int64)
    rs = np.empty(1, np.uint64)
    shuffle_deck_into(deck, rs, seed, deal)
    return deck


@njit(cache=True, _nrt=False)
def shuffle_deck_into(deck, rs, seed, deal):
    """``shuffled_deck`` written into ``deck`` (int64[56]) with ``rs`` (uint64[1]) as the
    generator state: the engine reuses both for every deal a thread plays."""
    for c in range(N_CARDS):
        deck[c] = c
    rs[0] = stream_key(seed, deal, STREAM_SHUFFLE)
    shuffle_inplace(deck, rs)


@njit(cache=True, _nrt=False)
def _ask_user(fn, decision, st, obs, moves, n, prm, rng, smoves, sparams):
    """A user strategy's choice: it gets copies only (P10 and the plug-in promise): ``obs``
    rebuilt from the state's public prefix (with its own hand, set by the caller),
    exactly the ``n`` legal rows in ``smoves`` (cleared again after the call, so no
    decision's rows survive into the next), a copy of its parameter row ``prm``.
    Whatever it writes into them changes nothing: the engine applies its own row.
    Kept out of ``_decide`` so the built-ins' path stays small.

    Parameters
    ----------
    fn : the seat's user strategy function (sim.plugin.strategy.STRATEGY_SIG)
    decision : D_* code
    st : the state (its first OBS_SIZE slots are copied into ``obs``)
    obs : int64[OBS_SIZE], the observation copy
    moves, n : the engine's legal moves (rows 0..n-1)
    prm, rng : the seat's parameter row and random stream
    smoves, sparams : scratch buffers for the copies of the rows and of ``prm``
    """
    # element loops, not slice assignments: an array-to-array slice assignment makes numba
    # compile its shape-mismatch error message (string formatting, seconds of cold compile)
    for j in range(OBS_SIZE):
        obs[j] = st[j]
    for i in range(n):
        for j in range(MOVE_COLS):
            smoves[i, j] = moves[i, j]
    for j in range(sparams.shape[0]):
        sparams[j] = prm[j]
    view = smoves[:n]
    idx = fn(decision, obs, view, n, sparams, rng)
    view[:] = 0
    return idx


@njit(cache=True, _nrt=False, inline="always")
def _decide(sids, params, fns, rng, st, obs, moves, n, decision, res, ev, ev_n, slot, record, smoves, sparams):
    """Ask the seat's strategy for one of the ``n`` legal moves; -1 if it answered illegally.

    Parameters
    ----------
    sids, params, fns, rng : the seats' strategy ids, parameter rows, strategy functions, random streams
    st : the full state, in phase ``decision`` (``st[O_DECISION] == decision``)
    obs : scratch for a user strategy's observation copy
    moves, n : the engine's legal moves (rows 0..n-1); the strategy never sees this buffer
    decision : D_* code
    res, ev, ev_n, slot, record : the deal's result row and event recording (see play_deal)
    smoves, sparams : scratch buffers for a user strategy's own copies

    The observation is the state's public prefix ``st[:OBS_SIZE]`` with ``O_HAND`` set
    to the seat's own hand for the call (and cleared again after it): everything past
    OBS_SIZE (hands, stock) is outside it (P10). A user strategy gets copies of it,
    of the rows and of its parameters (``_ask_user``). A built-in (the package's own,
    audited code) gets the prefix itself, exactly the ``n`` legal rows and its
    parameter row without the copying (copying the 167-slot observation at every
    decision cost a fast strategy about a tenth of its time); the information test
    checks that no built-in writes to them.
    """
    seat = st[O_SEAT]
    if n == 1:
        idx = 0  # a forced move needs no decision
    else:
        st[O_HAND] = st[S_HANDS + seat]
        sid = sids[seat]
        if sid == SID_USER:  # user code: its own copies, cleared again after the call (issue 15)
            idx = _ask_user(fns[seat], decision, st, obs, moves, n, params[seat], rng[seat], smoves, sparams)
        else:  # a built-in: the public prefix, exactly the legal rows and its parameters, which it only reads
            idx = fns[seat](decision, st[:OBS_SIZE], moves[:n], n, params[seat], rng[seat])
        st[O_HAND] = 0
    if record >= 2:
        for i in range(n):
            event(ev, ev_n, slot, EV_LEGAL, seat, moves[i, 0], moves[i, 1], moves[i, 2])
        event(ev, ev_n, slot, EV_DECISION, seat, decision, n, idx)
    if idx < 0 or idx >= n:
        res[C_END] = END_ERROR
        res[C_ERR_SEAT] = seat
        res[C_ERR_DECISION] = decision
        res[C_ERR_VALUE] = idx
        res[C_ERR_N_MOVES] = n
        return -1
    return idx


@njit(cache=True, _nrt=False)
def _record_move(ev, ev_n, slot, st, decision, moves, idx):
    """Record the move ``moves[idx]`` the seat to move is about to make (recording mode;
    a stop is not an event). Called before the move is applied: a stock draw records
    the card on top of the stock.

    Parameters
    ----------
    ev, ev_n, slot : the event buffer, the event counts, this deal's row in both
    st : the state before the move
    decision : D_* code of the decision
    moves, idx : the legal move rows and the index of the chosen one
    """
    seat = st[O_SEAT]
    kind = moves[idx, 0]
    if decision == D_DRAW:
        if kind == MV_STOCK:
            event(ev, ev_n, slot, EV_STOCK, seat, st[S_STOCK + st[O_STOCK_N] - 1], 0, 0)
        elif kind == MV_TAKE:
            event(ev, ev_n, slot, EV_TAKE, seat, moves[idx, 1], moves[idx, 3], 0)
        else:
            event(ev, ev_n, slot, EV_PASS, seat, 0, 0, 0)
    elif decision == D_PLAY:
        if kind == MV_MELD:
            event(ev, ev_n, slot, EV_MELD, seat, moves[idx, 1], 0, 0)
        elif kind == MV_LAYOFF:
            event(ev, ev_n, slot, EV_LAYOFF, seat, moves[idx, 1], moves[idx, 2], 0)
    else:
        event(ev, ev_n, slot, EV_DISCARD, seat, moves[idx, 1], 0, 0)


@njit(cache=True)
def play_deal(seed, deal, rules, sids, params, fns, res, ev, ev_n, slot, record):
    """Play deal ``deal`` to its end and write its result row ``res`` (P3-P8).

    Every decision goes the same way: the legal moves of the phase (the generators
    behind state_nb.legal_moves), the seat's choice (``_decide``), the chosen row
    applied by the step of its phase (state_nb.step_draw / step_play / step_discard,
    the steps state_nb.apply_row is made of; they also move the deal to its next
    phase: ``st[O_DECISION]``), until a seat goes out, four passes, or the turn cap
    (P7) before a draw. The loop is unrolled by phase and calls each phase's step
    directly (the generic apply_row behind one call site cost random x4 about 5%).
    Allocates its scratch arrays; ``play_deals_kernel`` uses one set for all the
    deals of its slice (``_play_deal_in``).

    Parameters
    ----------
    seed, deal : the run's seed and the deal index (cards, dealer ``deal % 4`` and streams follow from them)
    rules : int64[N_RULES], the rule options (R_*)
    sids, params, fns : per seat, the strategy id, its parameter row and its function slot (user strategies)
    res : int64[N_RESULT_COLS], the deal's result row (C_*), overwritten
    ev, ev_n, slot : the event buffer, the event counts, and this deal's row in both (recording mode)
    record : 0: no events; 1: the moves made (for deal logs); 2: also every legal move
        list before each decision (for checking against the reference rules)
    """
    st, deck, rs, rng, obs, moves, smoves, sparams = _new_scratch(sids, params)
    _play_deal_in(seed, deal, rules, sids, params, fns, res, ev, ev_n, slot, record,
                  st, deck, rs, rng, obs, moves, smoves, sparams)


@njit(cache=True)
def _new_scratch(sids, params):
    """The arrays one deal needs, reused deal after deal: (state, deck, shuffle stream,
    seat streams, user observation, legal moves, user moves copy, user parameters copy).
    The user moves copy is zeroed (nothing of another deal is ever in it: ``_ask_user``
    clears it after each call) and full-sized only when a user strategy sits at the table."""
    users = 0
    for s in range(N_SEATS):
        users += sids[s] == SID_USER
    return (np.empty(ST_SIZE, np.int64), np.empty(N_CARDS, np.int64), np.empty(1, np.uint64),
            np.empty((N_SEATS, 1), np.uint64), np.empty(OBS_SIZE, np.int64),
            np.empty((MAX_MOVES, MOVE_COLS), np.int64),
            np.zeros((MAX_MOVES if users else 1, MOVE_COLS), np.int64), np.empty(params.shape[1], np.float64))


@njit(cache=True, _nrt=False)
def _play_deal_in(seed, deal, rules, sids, params, fns, res, ev, ev_n, slot, record,
                  st, deck, rs, rng, obs, moves, smoves, sparams):
    """``play_deal`` with its scratch arrays given (``_new_scratch``; all overwritten).

    Parameters
    ----------
    seed, deal, rules, sids, params, fns, res, ev, ev_n, slot, record : as ``play_deal``
    st, deck, rs, rng, obs, moves, smoves, sparams : the scratch arrays of ``_new_scratch``
    """
    dealer = deal % N_SEATS
    shuffle_deck_into(deck, rs, seed, deal)
    reset_state(st, deck, dealer, rules)
    for s in range(N_SEATS):
        rng[s, 0] = stream_key(seed, deal, STREAM_SEAT0 + s)
    res[:] = 0
    res[C_DEAL] = deal
    res[C_DEALER] = dealer
    res[C_OUT_SEAT] = -1
    res[C_ERR_SEAT] = -1
    for s in range(N_SEATS):
        res[C_MAX_DEPTH + s] = -1
    cap = rules[R_TURN_CAP]
    end = GOING_ON
    while st[O_TURN] < cap:
        res[C_TURNS_SEAT + st[O_SEAT]] += 1
        # draw (P6.1, P6.2)
        n = draw_moves(st, moves)
        idx = _decide(sids, params, fns, rng, st, obs, moves, n, st[O_DECISION], res, ev, ev_n, slot, record, smoves, sparams)
        if idx < 0:
            return
        if record >= 1:
            _record_move(ev, ev_n, slot, st, st[O_DECISION], moves, idx)
        end = step_draw(st, moves[idx, 0], moves[idx, 1], res)
        if end != GOING_ON:
            break
        if st[O_DECISION] == D_DRAW:  # passed: the next seat draws
            continue
        # plays (P6.3, P6.4), until stop
        while st[O_DECISION] == D_PLAY:
            n = play_moves(st, moves)
            idx = _decide(sids, params, fns, rng, st, obs, moves, n, st[O_DECISION], res, ev, ev_n, slot, record,
                          smoves, sparams)
            if idx < 0:
                return
            if record >= 1:
                _record_move(ev, ev_n, slot, st, st[O_DECISION], moves, idx)
            end = step_play(st, moves[idx, 0], moves[idx, 1], moves[idx, 2], res)
            if end != GOING_ON:
                break
        if end != GOING_ON:
            break
        # discard (P6.5)
        n = discard_moves(st, moves)
        idx = _decide(sids, params, fns, rng, st, obs, moves, n, st[O_DECISION], res, ev, ev_n, slot, record,
                      smoves, sparams)
        if idx < 0:
            return
        if record >= 1:
            _record_move(ev, ev_n, slot, st, st[O_DECISION], moves, idx)
        end = step_discard(st, moves[idx, 1], res)
        if end != GOING_ON:
            break
    if end == GOING_ON:  # P7: the turn cap, reached before a draw
        end = END_CAP
    out_seat = st[O_SEAT] if end == END_OUT else -1
    res[C_END] = end
    res[C_OUT_SEAT] = out_seat
    res[C_TURNS] = st[O_TURN] + (0 if end == END_CAP else 1)
    score_deal(st, end, out_seat, res)
    if record >= 1:
        event(ev, ev_n, slot, EV_END, out_seat, end, 0, 0)


PLAY_DEALS_SIG = play_deals_sig(SEAT_FNS)


@njit(PLAY_DEALS_SIG, cache=True, nogil=True)
def play_deals_kernel(seed, deals, rules, sids, params, fns, res, ev, ev_n, record):
    """Play every deal in ``deals`` in order on the calling thread, one result row each
    (row i, and event slot i when recording), with one set of scratch arrays for all of
    them. It releases the GIL, so several Python threads run it at once on separate
    slices (``sim.plugin.runs.play_on_threads``).

    Parameters
    ----------
    seed : the run's seed
    deals : the deal indices to play
    rules : the rule options (R_*)
    sids, params, fns : per seat, the strategy id, its parameter row and its function slot
    res : int64[len(deals), N_RESULT_COLS], one result row per deal (filled)
    ev, ev_n : events per deal and their counts (recording mode; one dummy row otherwise)
    record : recording level, 0, 1 or 2 (see play_deal)
    """
    st, deck, rs, rng, obs, moves, smoves, sparams = _new_scratch(sids, params)
    for i in range(deals.shape[0]):
        slot = np.int64(i) if record > 0 else np.int64(0)
        _play_deal_in(seed, deals[i], rules, sids, params, fns, res[i], ev, ev_n, slot, record,
                      st, deck, rs, rng, obs, moves, smoves, sparams)
