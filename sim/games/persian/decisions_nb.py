"""Compiled play-outs for analysing one Persian Rummy decision (sim/games/persian/decisions.py).

``play_worlds`` takes the deciding seat's observation (P10) and a list of candidate
move rows, and for each world index samples the hidden cards from that observation
alone (sim/games/persian/determinize_nb.determinize_into, the sampler mc_search
uses), applies every candidate on a copy of the same world and plays the deal out
with a policy in every seat, stepping with the rules kernels the engine uses
(state_nb.legal_moves / apply_row / score_deal).

Randomness is counter-based (sim/core/rng_nb.py) and keyed by ``(seed, world)`` only:
world ``w`` is the same whichever batch, thread or candidate list asks for it, and
every candidate in world ``w`` gets the same policy streams (common random numbers,
so candidates are compared paired). Nothing is shared between ``prange``
iterations: each world has its own state copies, scratch buffers and streams.

The policies are called through per-seat function slots (sim.plugin.strategy
STRATEGY_FN, the engine's user-strategy mechanism), built-ins included, so this
module links only the rules kernels and the sampler: its cold compile stays small,
and the strategies' own machine code is the one the engine already compiled.
"""

import functools

import numpy as np
from numba import njit, prange, types

from sim.games.persian.enums import (
    C_TOTAL,
    D_DRAW,
    MAX_MOVES,
    MOVE_COLS,
    N_CARDS,
    N_RESULT_COLS,
    N_RULES,
    N_SEATS,
    O_DEALER,
    O_DECISION,
    O_HAND,
    O_RULES,
    O_SEAT,
    O_TURN,
    OBS_SIZE,
    R_TURN_CAP,
    S_HANDS,
    ST_SIZE,
    END_CAP,
    END_ERROR,
    END_OUT,
)
from sim.games.persian.state_nb import GOING_ON, apply_row, legal_moves, new_state, score_deal
from sim.core.rng_nb import shuffle_inplace, stream_key
from sim.plugin.strategy import SEAT_FNS
from sim.games.persian.determinize_nb import deal_into, unseen_pool

STREAM_WORLD = 1000  # the sampled hidden cards of world w
STREAM_POLICY0 = 1001  # seat s's policy stream in world w: STREAM_POLICY0 + s
STREAM_NEXT_DEAL0 = 1010  # the cards of the k-th later deal of the game (horizon "game"): STREAM_NEXT_DEAL0 + k
STREAM_LATER_POLICY0 = 1 << 20  # seat s's policy stream in the k-th later deal: STREAM_LATER_POLICY0 + 4k + s


@njit(cache=True)
def _play_on(st, fns, params, srng, obs, moves, res):
    """Play the deal in ``st`` from phase ``st[O_DECISION]`` to its end, every seat asking
    its function slot (forced moves are played without asking, as in the engine); the
    P7 turn cap applies before a draw. Returns END_OUT, END_PASSES, END_CAP, or END_ERROR
    when a policy answered outside its legal moves."""
    cap = st[O_RULES + R_TURN_CAP]
    while True:
        decision = st[O_DECISION]
        if decision == D_DRAW and st[O_TURN] >= cap:
            return END_CAP
        n = legal_moves(st, decision, moves)
        idx = 0
        if n > 1:
            seat = st[O_SEAT]
            obs[:] = st[:OBS_SIZE]
            obs[O_HAND] = st[S_HANDS + seat]
            obs[O_DECISION] = decision
            idx = fns[seat](decision, obs, moves[:n], n, params[seat], srng[seat])
            if idx < 0 or idx >= n:
                return END_ERROR
        elif n == 0:  # cannot happen in a legal position
            return END_ERROR
        end = apply_row(st, decision, moves[idx, 0], moves[idx, 1], moves[idx, 2], res)
        if end != GOING_ON:
            return end


@njit(cache=True)
def _team_diff(st, end, team, res):
    """Own team minus other team deal score (P8) of a finished deal."""
    out_seat = st[O_SEAT] if end == END_OUT else -1
    score_deal(st, end, out_seat, res)
    return res[C_TOTAL + team] - res[C_TOTAL + 1 - team]


@njit(cache=True)
def world_pool(obs, seed, w, known, pool):
    """The unseen cards of ``obs``'s seat in world ``w``'s order (keyed by ``seed``), written into
    ``pool``; returns how many (``known`` gets the known holdings: determinize_nb.unseen_pool).
    ``deal_into`` deals them: the world ``play_worlds`` plays (and the start of a posterior chain)."""
    rng = np.empty(1, np.uint64)
    rng[0] = stream_key(seed, w, STREAM_WORLD)
    n = unseen_pool(obs, known, pool)
    shuffle_inplace(pool[:n], rng)
    return n


@njit(cache=True)
def _play_world(world, w, obs, decision, cands, seed, params, fns, later_deals, out_row):
    """Fill ``out_row[c]`` for the full state ``world`` (world index ``w`` keys its streams), as
    ``play_worlds`` describes."""
    team = obs[O_SEAT] % 2
    rng = np.empty(1, np.uint64)
    st = np.empty(ST_SIZE, np.int64)
    pobs = np.empty(OBS_SIZE, np.int64)
    moves = np.empty((MAX_MOVES, MOVE_COLS), np.int64)
    res = np.zeros(N_RESULT_COLS, np.int64)
    srng = np.empty((N_SEATS, 1), np.uint64)
    rules = np.empty(N_RULES, np.int64)
    for r in range(N_RULES):
        rules[r] = obs[O_RULES + r]
    for c in range(cands.shape[0]):
        st[:] = world
        res[:] = 0
        for s in range(N_SEATS):
            srng[s, 0] = stream_key(seed, w, STREAM_POLICY0 + s)
        end = apply_row(st, decision, cands[c, 0], cands[c, 1], cands[c, 2], res)
        if end == GOING_ON:
            end = _play_on(st, fns, params, srng, pobs, moves, res)
        if end == END_ERROR:
            out_row[c] = np.nan
            continue
        total = _team_diff(st, end, team, res)
        for k in range(later_deals):
            deck = np.arange(N_CARDS, dtype=np.int64)
            rng[0] = stream_key(seed, w, STREAM_NEXT_DEAL0 + k)
            shuffle_inplace(deck, rng)
            nxt = new_state(deck, (obs[O_DEALER] + 1 + k) % N_SEATS, rules)
            for s in range(N_SEATS):  # fresh policy streams: the later deal is common to every candidate
                srng[s, 0] = stream_key(seed, w, STREAM_LATER_POLICY0 + N_SEATS * k + s)
            end = _play_on(nxt, fns, params, srng, pobs, moves, res)
            if end == END_ERROR:
                break
            total += _team_diff(nxt, end, team, res)
        out_row[c] = np.nan if end == END_ERROR else np.float64(total)


PLAY_WORLDS_SIG = types.void(
    types.int64[::1],  # obs: the deciding seat's observation (O_* slots)
    types.int64,  # decision (D_*)
    types.int64[:, ::1],  # candidate move rows (kind, a, b, c)
    types.int64[::1],  # world indices
    types.int64,  # seed
    types.float64[:, ::1],  # policy parameters per seat
    SEAT_FNS,  # policy function per seat
    types.int64,  # later deals of the game to play after this one (0: the deal only)
    types.float64[:, ::1],  # out: (world, candidate) own-team minus other-team points
)


@njit(PLAY_WORLDS_SIG, cache=True, parallel=True)
def play_worlds(obs, decision, cands, worlds, seed, params, fns, later_deals, out):
    """Fill ``out[i, c]``: own-team minus other-team points when candidate ``c`` is played in
    world ``worlds[i]`` and every seat then follows its policy to the end of the deal (and of
    ``later_deals`` further fresh deals, dealer moving on, P9). NaN: a policy answered
    illegally in that play-out.

    Parameters
    ----------
    obs : int64[OBS_SIZE], the deciding seat's observation; the only input the worlds depend on
    decision : D_* code of the decision analysed
    cands : (C, MOVE_COLS) legal move rows of that decision
    worlds : world indices; world w draws from streams keyed by (seed, w) only
    seed : the analysis seed
    params, fns : per seat, the policy's parameter row and function slot (STRATEGY_SIG)
    later_deals : how many more deals of the game to play after this one
    out : float64[len(worlds), C], filled
    """
    for i in prange(worlds.shape[0]):
        world = np.empty(ST_SIZE, np.int64)
        known = np.empty(N_SEATS, np.int64)
        pool = np.empty(N_CARDS, np.int64)
        n = world_pool(obs, seed, worlds[i], known, pool)
        deal_into(obs, pool, n, world, known)
        world[O_DECISION] = decision
        _play_world(world, worlds[i], obs, decision, cands, seed, params, fns, later_deals, out[i])


PLAY_STATES_SIG = types.void(types.int64[::1], types.int64, types.int64[:, ::1], types.int64[:, ::1],
                             types.int64[::1], types.int64, types.float64[:, ::1], SEAT_FNS, types.int64,
                             types.float64[:, ::1])


def _play_states(obs, decision, cands, states, worlds, seed, params, fns, later_deals, out):
    for i in prange(states.shape[0]):
        _play_world(states[i], worlds[i], obs, decision, cands, seed, params, fns, later_deals, out[i])


@functools.cache
def _play_states_kernel():
    """The compiled kernel of play_states, built on first use (no import pays its compile)."""
    return njit(PLAY_STATES_SIG, cache=True, parallel=True)(_play_states)


def play_states(obs, decision, cands, states, worlds, seed, params, fns, later_deals, out) -> None:
    """``play_worlds`` over given full states: ``states[i]``, its play-out streams keyed by world
    index ``worlds[i]``; e.g. the worlds of a posterior chain (sim.apps.analysis.mcmc)."""
    _play_states_kernel()(obs, np.int64(decision), cands, states, worlds, np.int64(seed), params, fns,
                          np.int64(later_deals), out)
