"""The plug-in interface: how a game's compiled engine calls a strategy (every game).

A strategy is one numba function compiled with ``STRATEGY_SIG``::

    @njit(STRATEGY_SIG, cache=True)
    def my_strategy(decision, obs, moves, n_moves, params, rng):
        ...
        return index            # 0 <= index < n_moves

- ``decision``: the game's decision code (Persian: D_DRAW, D_PLAY or D_DISCARD of
  sim.games.persian.enums; Indian: D_DRAW, D_DISCARD of sim.games.indian.enums).
- ``obs``: int64 array, what the seat may see (RULES.md P10 / I9): its own hand and
  the public state, in the O_* slots of the game's enums.py.
- ``moves``: exactly the ``n_moves`` legal moves, shape ``(n_moves, 4)``, rows
  (kind, a, b, c) as described by the game's MV_* codes. The engine only asks when
  there are at least two.
- ``params``: float64 array, the strategy's parameters (from its spec).
- ``rng``: uint64[1], the seat's own random stream: use sim.core.rng_nb.rand_below /
  rand_float on it, never np.random (that would break reproducibility).

What the engine guarantees a user strategy (issue 15): every argument is its own
copy, made for this decision: the observation is rebuilt from the state, the legal rows
are copied into a buffer that is cleared again after the call (nothing of an
earlier decision or another seat survives in it), the parameters are a copy of the
seat's row. Writing to them changes nothing: the engine applies its own row of the
chosen index. It checks the returned index; anything outside [0, n_moves) stops the
deal with a StrategyError naming the strategy, the seat, the seed, the deal and the
value, and the finished deals' results are kept. Built-in strategies (the package's
own code) get the same observation copy and exactly the legal rows, without the
copying: the information tests check that every built-in only reads them. In the
Indian engine a built-in's observation is followed by the seats' memo blocks
(sim/games/indian/memo_nb.py: its own solver work from its last decisions, keyed by the
exact hand); a user strategy never sees them.

Trust model: a strategy is code running in this process, with this process's
rights. The guarantees above are against accidents and honest mistakes (reading a
stale row, writing to an argument, an off-by-one index), not against deliberately
malicious code. numba does not check indices by default, so reading past the end of
an argument reads other memory: run new strategies once with ``check=True`` /
``--check-strategies`` (sim.plugin.runs.run_checked), which compiles them with
numba's bounds checks and names the strategy that indexes outside its arguments.

Register the function under a name with ``sim.plugin.specs.register_strategy``
(``game=...`` for a game other than Persian Rummy).
"""

import importlib

import numpy as np
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
SID_USER = -1  # the strategy id of every user strategy (built-ins have ids >= 0, strategies/<game>/builtins.py)


def seat_fns_type(seats: int):
    """The numba type of the tuple of per-seat function slots of a ``seats``-seat engine."""
    return types.UniTuple(STRATEGY_FN, seats)


SEAT_FNS = seat_fns_type(4)  # Persian Rummy: four seats


@njit(STRATEGY_SIG, cache=True)
def unused_slot(decision, obs, moves, n_moves, params, rng):
    """Fills the function slot of a seat played by a built-in (never called)."""
    return -1


_KERNELS: dict[str, object] = {}


def kernel_function(path: str):
    """The compiled STRATEGY_SIG kernel that ``path`` ("module:function", a built-in's
    ``StrategyInfo.kernel``) names: the module is imported and the function compiled for
    STRATEGY_SIG (or loaded from numba's cache) on first use only, so a run compiles just
    the strategies it seats. It fills a seat's function slot like a user strategy."""
    fn = _KERNELS.get(path)
    if fn is None:
        module, _, name = path.partition(":")
        fn = getattr(importlib.import_module(module), name)
        overloads = getattr(fn, "overloads", None)  # None: plain Python (NUMBA_DISABLE_JIT=1)
        if overloads is not None and tuple(STRATEGY_SIG.args) not in overloads:
            fn.compile(STRATEGY_SIG.args)  # declared without STRATEGY_SIG: compile it
        _KERNELS[path] = fn
    return fn


def seat_function(info):
    """The function a seat of strategy ``info`` (sim.plugin.specs.StrategyInfo) holds in its
    slot: a user strategy's own function, or the kernel its built-in declaration names."""
    if info.function is not None:
        return info.function
    if not info.kernel:
        raise ValueError(f"strategy {info.name}: a built-in without a kernel (StrategyInfo.kernel)")
    return kernel_function(info.kernel)


def call_from_python(fn, decision, obs, moves, n, params, rng) -> int:
    """``fn``'s choice (a STRATEGY_SIG kernel) called from Python, its arguments converted
    to exactly the signature's types (so no other specialisation is ever compiled)."""
    return int(fn(np.int64(decision), np.ascontiguousarray(obs, np.int64), np.ascontiguousarray(moves, np.int64),
                  np.int64(n), np.ascontiguousarray(params, np.float64), np.ascontiguousarray(rng, np.uint64)))
