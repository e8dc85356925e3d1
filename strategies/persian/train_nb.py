"""Training values of every legal move of a decision, played out from the TRUE state (issue 25).

The decision analysis (sim/games/persian/decisions_nb.play_worlds) samples the hidden cards
from the seat's view alone: the other hands come out uniform, although in real play they were
shaped by the seats' own choices, so its values favour moves that are safe only against random
hands. Training knows the deal, so ``play_stock_worlds`` keeps every hand as it truly is and
redraws only the stock order (still unknown to every seat, so a uniform shuffle is its exact
distribution): a move's mean over the worlds estimates its value against the hands the
opponents really hold. A model fitted to these values on features of the view alone (P10)
learns the expected value given what the seat sees, under the real distribution of hands.

World ``w`` draws from streams keyed by (seed, w) only, every candidate gets the same stock
and policy streams (paired comparison), nothing is shared between ``prange`` iterations.
"""

import numpy as np
from numba import njit, prange, types

from sim.core.rng_nb import shuffle_inplace, stream_key
from sim.games.persian.decisions_nb import STREAM_POLICY0, STREAM_WORLD, _play_on, _team_diff
from sim.games.persian.enums import (
    END_ERROR, MAX_MOVES, MOVE_COLS, N_RESULT_COLS, N_SEATS, O_DECISION, O_SEAT, O_STOCK_N, OBS_SIZE, S_STOCK, ST_SIZE,
)
from sim.games.persian.state_nb import GOING_ON, apply_row
from sim.plugin.strategy import SEAT_FNS

STOCK_WORLDS_SIG = types.void(
    types.int64[::1],  # state: the full state before the decision (O_DECISION set)
    types.int64[:, ::1],  # candidate move rows (kind, a, b, c)
    types.int64[::1],  # world indices
    types.int64,  # seed
    types.float64[:, ::1],  # policy parameters per seat
    SEAT_FNS,  # policy function per seat
    types.float64[:, ::1],  # out: (world, candidate) own-team minus other-team points
)


@njit(STOCK_WORLDS_SIG, cache=True, parallel=True)
def play_stock_worlds(state, cands, worlds, seed, params, fns, out):
    """Fill ``out[i, c]``: own-team minus other-team points when candidate ``c`` is played in
    ``state`` (a full state before a decision, O_DECISION set) with its stock reshuffled by world
    ``worlds[i]``, every seat then following its policy to the end of the deal; NaN when a
    policy answered illegally."""
    team = state[O_SEAT] % 2
    stock_n = state[O_STOCK_N]
    for i in prange(worlds.shape[0]):
        w = worlds[i]
        rng = np.empty(1, np.uint64)
        rng[0] = stream_key(seed, w, STREAM_WORLD)
        world = state.copy()
        shuffle_inplace(world[S_STOCK:S_STOCK + stock_n], rng)
        st = np.empty(ST_SIZE, np.int64)
        pobs = np.empty(OBS_SIZE, np.int64)
        moves = np.empty((MAX_MOVES, MOVE_COLS), np.int64)
        res = np.zeros(N_RESULT_COLS, np.int64)
        srng = np.empty((N_SEATS, 1), np.uint64)
        for c in range(cands.shape[0]):
            st[:] = world
            res[:] = 0
            for s in range(N_SEATS):
                srng[s, 0] = stream_key(seed, w, STREAM_POLICY0 + s)
            end = apply_row(st, state[O_DECISION], cands[c, 0], cands[c, 1], cands[c, 2], res)
            if end == GOING_ON:
                end = _play_on(st, fns, params, srng, pobs, moves, res)
            out[i, c] = np.nan if end == END_ERROR else np.float64(_team_diff(st, end, team, res))
