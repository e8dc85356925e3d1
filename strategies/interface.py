"""The plug-in interface: how the compiled engine calls a strategy.

A strategy is one numba function compiled with ``STRATEGY_SIG``::

    @njit(STRATEGY_SIG, cache=True)
    def my_strategy(decision, obs, moves, n_moves, params, rng):
        ...
        return index            # 0 <= index < n_moves

- ``decision``: D_DRAW, D_PLAY or D_DISCARD (sim.games.persian.enums).
- ``obs``: int64 array, what the seat may see (P10): its hand ``obs[O_HAND]`` (a card
  bitmask), the discard pile, the melds on the table, hand and stock sizes, the cards
  each seat has taken from the pile... (the O_* slots of enums.py). Read-only: it is a
  copy, and writing to it changes nothing.
- ``moves[:n_moves]``: the legal moves, rows (kind, a, b, c) as described by the MV_*
  codes of enums.py. The engine only asks when there are at least two.
- ``params``: float64 array, the strategy's parameters (from its spec).
- ``rng``: uint64[1], the seat's own random stream: use sim.rng_nb.rand_below /
  rand_float on it, never np.random (that would break reproducibility).

The engine checks the returned index; anything outside [0, n_moves) stops the deal
with an error naming the strategy, the seat, the seed, the deal and the value.
Register the function under a name with ``strategies.registry.register_strategy``.
"""

from numba import njit, types

STRATEGY_SIG = types.int64(
    types.int64,  # decision
    types.int64[::1],  # obs
    types.int64[:, ::1],  # moves
    types.int64,  # n_moves
    types.float64[::1],  # params
    types.uint64[::1],  # rng
)
STRATEGY_FN = types.FunctionType(STRATEGY_SIG)
SID_USER = -1  # the strategy id of every user strategy (built-ins have ids >= 0 in their game's dispatch)


def seat_fns_type(seats: int):
    """The numba type of the tuple of per-seat function slots of a ``seats``-seat engine."""
    return types.UniTuple(STRATEGY_FN, seats)


SEAT_FNS = seat_fns_type(4)  # Persian Rummy: four seats


@njit(STRATEGY_SIG, cache=True)
def unused_slot(decision, obs, moves, n_moves, params, rng):
    """Fills the function slot of a seat played by a built-in (never called)."""
    return -1
