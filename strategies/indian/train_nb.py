"""Training values of every legal move of an Indian Rummy decision, played out from the TRUE state
(issue 25).

The decision analysis (sim/games/indian/decisions_nb.play_worlds) deals the hidden cards from
the seat's view alone (determinize_nb): the other hands come out uniform, although in real play
they were shaped by the seats' own choices (what they kept, what they took from the pile).
Training knows the deal, so ``play_stock_worlds`` keeps every hand as it truly is and redraws
only the order of the stock (unknown to every seat, so a uniform shuffle of its cards is its
exact distribution; the face-up cut joker at the bottom of the dealt stock, I2, stays where it
is: ``fixed_bottom``). A move's mean over the worlds estimates its value against the hands the
opponents really hold; a model fitted to these values on features of the view alone (I9)
learns the expected value given what the seat sees, under the real distribution of hands.

After the candidate every seat follows its policy to the end of the deal, with the analysis's
own play-out of a world (decisions_nb._play_world: the engine's turn steps, I3-I8, scored by
I5-I7), and the value is the deciding seat's net points (gain minus loss). World ``w`` draws its stock
order, its I8 reshuffles and every seat's policy stream from (seed, w) only, so every candidate
meets the same stock orders (paired comparison).
"""

import numpy as np
from numba import njit, types

from sim.core.rng_nb import shuffle_inplace, stream_key
from sim.games.indian.decisions_nb import STREAM_WORLD, _play_world
from sim.games.indian.engine_nb import SEAT_FNS
from sim.games.indian.enums import O_STOCK_N, S_STOCK, ST_SIZE

STOCK_WORLDS_SIG = types.void(
    types.int64[::1],  # state: the full true state before the decision (O_DECISION set)
    types.int64[:, ::1],  # candidate move rows (kind, a, b, c)
    types.int64[::1],  # world indices
    types.int64,  # seed
    types.int64,  # fixed_bottom: 1 while the stock's bottom card is the face-up cut joker (I2)
    types.float64[:, ::1],  # policy parameters per seat
    SEAT_FNS,  # policy function per seat (six slots)
    types.float64[:, ::1],  # out: (world, candidate) the deciding seat's net points
)


@njit(STOCK_WORLDS_SIG, cache=True, nogil=True)
def play_stock_worlds(state, cands, worlds, seed, fixed_bottom, params, fns, out):
    """Fill ``out[i, c]``: the deciding seat's net points when candidate ``c`` is played in ``state``
    with its stock reshuffled by world ``worlds[i]`` (the bottom card kept with ``fixed_bottom``),
    every seat then following its policy to the end of the deal; NaN when a policy answered
    illegally."""
    world = np.empty(ST_SIZE, np.int64)
    rng = np.empty(1, np.uint64)
    lo = S_STOCK + fixed_bottom
    hi = S_STOCK + state[O_STOCK_N]
    for i in range(worlds.shape[0]):
        w = worlds[i]
        world[:] = state
        rng[0] = stream_key(seed, w, STREAM_WORLD)
        if hi > lo:
            shuffle_inplace(world[lo:hi], rng)
        _play_world(world, w, cands, seed, params, fns, out[i])
