"""Compiled play-outs for analysing one Indian Rummy decision (sim/games/indian/decisions.py).

``play_worlds`` takes the deciding seat's observation (I9) and a list of candidate move
rows (a draw decision's stock / pile / drop, a discard decision's discards and
declarations), and for each world index samples the hidden cards from that observation
alone (``sample_world``: determinize_nb, the sampler Indian mc_search uses), applies every
candidate on a copy of the same world and plays the deal out with a policy in every seat,
stepping with the engine's own steps (turn_nb: I8 reshuffles, draws, drops, discards,
declarations, the I5-I7 scoring) except the first-chance note after a draw (a solver call
that only fills a result column no score reads; ``_draw``). A candidate's score in a world is the deciding seat's
net points of the deal: what it gained (I6, it declared) minus what it lost.

Randomness is counter-based (sim/core/rng_nb.py) and keyed by ``(seed, world)`` only:
world ``w`` is the same whichever slice, thread or candidate list asks for it, and every
candidate in world ``w`` gets the same policy and reshuffle streams (common random
numbers, so the candidates are compared paired).

``sample_world`` is the one place a world is drawn: an importance weighting of the worlds
(issue 24, item 3) wraps it or reweights the rows of ``out`` per world.

The policies are called through per-seat function slots (sim.plugin.strategy, the
engine's mechanism), so this module links the rules kernels and the sampler only. The
kernel is serial and releases the GIL; ``play_worlds`` runs it on Python threads over
slices of the worlds (as the engine runs deals), with no parallel region to compile.
"""

import functools
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np
from numba import njit, types

from sim.core.rng_nb import shuffle_inplace, stream_key
from sim.games.indian.determinize_nb import deal_into, unseen_into
from sim.games.indian.engine_nb import MOVE_SLACK, SEAT_FNS
from sim.games.indian.enums import (
    C_GAIN,
    C_LOST,
    D_DRAW,
    END_ERROR,
    MAX_MOVES,
    MAX_SEATS,
    MAX_SHOE,
    MOVE_COLS,
    MV_DECLARE,
    MV_DROP,
    N_KINDS,
    N_RESULT_COLS,
    O_DECISION,
    O_HAND,
    O_RULES,
    O_SEAT,
    O_TURN,
    OBS_SIZE,
    R_TURN_CAP,
    S_HANDS,
    ST_SIZE,
)
from sim.games.indian.state_nb import discard_moves, draw_moves
from sim.games.indian.turn_nb import GOING_ON, begin_turn, discard_declares, finish_deal, settle_discard, step_draw
from sim.plugin.specs import MAX_PARAMS

STREAM_WORLD = 1000  # the sampled hidden cards of world w
STREAM_RESHUFFLE = 1001  # the I8 reshuffles of world w's play-outs
STREAM_POLICY0 = 1002  # seat s's policy stream in world w: STREAM_POLICY0 + s


@njit(cache=True)
def world_pool(obs, seed, w, known, avail, pool):
    """The unseen cards of ``obs``'s seat in world ``w``'s order (keyed by ``seed``): written into
    ``pool``, returns (how many, whether the cut joker is the stock's bottom card); ``known``
    gets the known copies (determinize_nb.unseen_into), ``avail`` is scratch. ``deal_into``
    deals them: the world ``sample_world`` draws (and the start of a posterior chain)."""
    rng = np.empty(1, np.uint64)
    rng[0] = stream_key(seed, w, STREAM_WORLD)
    u, fixed = unseen_into(obs, known, avail, pool)
    shuffle_inplace(pool[:u], rng)
    return u, fixed


@njit(cache=True)
def sample_world(obs, seed, w, st, known, avail, pool):
    """World ``w`` of an analysis keyed by ``seed``: the hidden cards of ``obs``'s seat dealt
    uniformly among the hidden hands and the stock, consistent with every public fact (I9;
    determinize_nb.determinize_into, in two steps: world_pool, deal_into), written into ``st``.
    Scratch: ``known``, ``avail``, ``pool``."""
    u, fixed = world_pool(obs, seed, w, known, avail, pool)
    deal_into(obs, pool, u, fixed, st, known, avail)
    st[O_DECISION] = obs[O_DECISION]


@njit(cache=True)
def _ask(fns, params, srng, st, obs, moves, mv, prm, n):
    """The seat to move's policy choice among the ``n`` legal ``moves`` (the engine's copies:
    its observation with its own hand, a zeroed move buffer, its parameters); -1 if illegal."""
    if n == 1:
        return 0
    seat = st[O_SEAT]
    for j in range(O_HAND):
        obs[j] = st[j]
    for j in range(N_KINDS):  # the own hand closes the observation (O_HAND + N_KINDS == OBS_SIZE)
        obs[O_HAND + j] = st[S_HANDS + seat * N_KINDS + j]
    for i in range(n):
        for j in range(MOVE_COLS):
            mv[i, j] = moves[i, j]
    np_ = params.shape[1]
    for j in range(prm.shape[0]):
        prm[j] = params[seat, j] if j < np_ else 0.0
    idx = fns[seat](st[O_DECISION], obs, mv[:n], n, prm, srng[seat])
    for i in range(n):
        for j in range(MOVE_COLS):
            mv[i, j] = 0
    if idx < 0 or idx >= n:
        return -1
    return idx


@njit(cache=True)
def _net_after(st, cand, fns, params, srng, rs, buf, obs, moves, mv, prm, res):
    """Play candidate row ``cand`` at the decision of ``st``, then the deal to its end with the
    policies (the turn cap checked before each turn, as the engine does); the deciding seat's
    net points (gain minus loss), or NaN when a policy answered illegally."""
    me = st[O_SEAT]
    cap = st[O_RULES + R_TURN_CAP]
    first = True
    drawing = st[O_DECISION] == D_DRAW  # the phase, followed here: next_turn leaves O_DECISION as it was
    end = GOING_ON
    while True:
        if drawing:
            if not first:
                if st[O_TURN] >= cap:
                    break
                begin_turn(st, rs, buf, res)
            n = draw_moves(st, moves)
            kind = cand[0]
            if not first:
                idx = _ask(fns, params, srng, st, obs, moves, mv, prm, n)
                if idx < 0:
                    return np.nan
                kind = moves[idx, 0]
            end = step_draw(st, kind, res)
            drawing = kind == MV_DROP  # a drop passes the turn (I7); a draw leaves the discard to decide
        else:
            n = discard_moves(st, moves)
            kind = cand[0]
            k = cand[1]
            if not first:
                idx = _ask(fns, params, srng, st, obs, moves, mv, prm, n)
                if idx < 0:
                    return np.nan
                kind = moves[idx, 0]
                k = moves[idx, 1]
            # the engine's discard step without its first-chance note (turn_nb.step_discard):
            # that solver call only fills the result row's ``first_chance`` column
            # (S_FIRST_CHANCE, outside every observation), which no score reads
            end = settle_discard(st, kind, k, kind == MV_DECLARE and discard_declares(st, k), res)
            drawing = True
        first = False
        if end != GOING_ON:
            break
    if end == END_ERROR:
        return np.nan
    finish_deal(st, end, res, obs)
    return np.float64(res[C_GAIN + me] - res[C_LOST + me])


PLAY_WORLDS_SIG = types.void(
    types.int64[::1],  # obs: the deciding seat's observation (O_* slots)
    types.int64[:, ::1],  # candidate move rows (kind, a, b, c)
    types.int64[::1],  # world indices
    types.int64,  # seed
    types.float64[:, ::1],  # policy parameters per seat
    SEAT_FNS,  # policy function per seat (six slots)
    types.float64[:, ::1],  # out: (world, candidate) the deciding seat's net points
)


@njit(cache=True)
def _play_world(world, w, cands, seed, params, fns, out_row):
    """Fill ``out_row[c]``: the deciding seat's net points when candidate ``c`` is played in the
    full state ``world`` (world index ``w`` keys its play-out streams) and the deal played out."""
    st = np.empty(ST_SIZE, np.int64)
    buf = np.empty(MAX_SHOE, np.int64)
    pobs = np.empty(OBS_SIZE, np.int64)
    moves = np.empty((MAX_MOVES, MOVE_COLS), np.int64)
    mv = np.zeros((MAX_MOVES + MOVE_SLACK, MOVE_COLS), np.int64)
    prm = np.empty(MAX_PARAMS, np.float64)
    res = np.zeros(N_RESULT_COLS, np.int64)
    rs = np.empty(1, np.uint64)
    srng = np.empty((MAX_SEATS, 1), np.uint64)
    for c in range(cands.shape[0]):
        st[:] = world
        res[:] = 0
        rs[0] = stream_key(seed, w, STREAM_RESHUFFLE)
        for s in range(MAX_SEATS):
            srng[s, 0] = stream_key(seed, w, STREAM_POLICY0 + s)
        out_row[c] = _net_after(st, cands[c], fns, params, srng, rs, buf, pobs, moves, mv, prm, res)


@njit(PLAY_WORLDS_SIG, cache=True, nogil=True)
def play_worlds_kernel(obs, cands, worlds, seed, params, fns, out):
    """Fill ``out[i, c]``: the deciding seat's net points of the deal when candidate ``c`` is
    played in world ``worlds[i]`` and every seat then follows its policy (NaN: a policy
    answered illegally). ``obs`` is the only input the worlds depend on."""
    world = np.empty(ST_SIZE, np.int64)
    known = np.empty(MAX_SEATS * N_KINDS, np.int64)
    avail = np.empty(N_KINDS, np.int64)
    pool = np.empty(MAX_SHOE, np.int64)
    for i in range(worlds.shape[0]):
        sample_world(obs, seed, worlds[i], world, known, avail, pool)
        _play_world(world, worlds[i], cands, seed, params, fns, out[i])


PLAY_STATES_SIG = types.void(types.int64[:, ::1], types.int64[:, ::1], types.int64[::1], types.int64,
                             types.float64[:, ::1], SEAT_FNS, types.float64[:, ::1])


def _play_states(cands, states, worlds, seed, params, fns, out):
    for i in range(states.shape[0]):
        _play_world(states[i], worlds[i], cands, seed, params, fns, out[i])


@functools.cache
def _play_states_kernel():
    """The compiled kernel of play_states, built on first use (no import pays its compile)."""
    return njit(PLAY_STATES_SIG, cache=True, nogil=True)(_play_states)


def play_states(cands, states, worlds, seed, params, fns, out) -> None:
    """``play_worlds_kernel`` over given full states: ``states[i]``, its play-out streams keyed
    by world index ``worlds[i]``; e.g. the worlds of a posterior chain (sim.apps.analysis.mcmc).
    Serial (one thread)."""
    _play_states_kernel()(cands, states, worlds, np.int64(seed), params, fns, out)


def play_worlds(obs, cands, worlds, seed, params, fns, out) -> None:
    """``play_worlds_kernel`` on ``numba.get_num_threads()`` Python threads, each on a slice of
    the worlds (a world's row depends on (seed, world) only: the same for any slicing)."""
    n = worlds.shape[0]
    threads = min(numba.get_num_threads(), n)
    if threads <= 1:
        play_worlds_kernel(obs, cands, worlds, seed, params, fns, out)
        return
    size = -(-n // threads)

    def work(a):
        b = min(a + size, n)
        play_worlds_kernel(obs, cands, worlds[a:b], seed, params, fns, out[a:b])

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(work, range(0, n, size)))
