"""Rollout policies for decision analysis: strategy specs as per-seat function slots.

The play-out kernel (sim/games/persian/decisions_nb.py) calls every seat's policy through a
``sim.plugin.strategy.STRATEGY_FN`` slot, the engine's user-strategy mechanism. A
user strategy already is such a function; a built-in is reached through its own
compiled ``*_decide`` kernel (the one the engine calls through the seat's slot), compiled, or
loaded from numba's cache, for ``STRATEGY_SIG``. So the analysis kernel never links
the strategies' code and a new policy costs no recompilation of it.
"""

from __future__ import annotations

import warnings
from typing import Sequence

import numpy as np
from numba.core.errors import NumbaExperimentalFeatureWarning

from sim.plugin.strategy import STRATEGY_SIG
from sim.plugin.specs import StrategySpec


def _persian_builtin_kernels() -> dict:
    from strategies.persian import dispatch_nb as D
    from strategies.persian.deep_taker_nb import deep_taker_decide
    from strategies.persian.defensive_nb import defensive_decide
    from strategies.persian.expert_nb import expert_decide
    from strategies.persian.greedy_nb import greedy_decide
    from strategies.persian.mc_search_nb import mc_search_decide
    from strategies.persian.quad_holder_nb import quad_holder_decide
    from strategies.persian.random_nb import random_decide

    return {
        D.SID_RANDOM: random_decide,
        D.SID_GREEDY: greedy_decide,
        D.SID_DEEP_TAKER: deep_taker_decide,
        D.SID_QUAD_HOLDER: quad_holder_decide,
        D.SID_DEFENSIVE: defensive_decide,
        D.SID_EXPERT: expert_decide,
        D.SID_MC_SEARCH: mc_search_decide,
    }


warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)  # function slots, as the engine
_COMPILED: set[int] = set()


def seat_function(spec: StrategySpec, kernels: dict):
    """The STRATEGY_SIG function of ``spec`` (a user function, or the built-in's kernel)."""
    info = spec.info
    if info.function is not None:
        return info.function
    fn = kernels.get(info.sid)
    if fn is None:
        raise ValueError(f"strategy {spec}: no compiled kernel known for built-in id {info.sid}")
    if id(fn) not in _COMPILED:
        fn.compile(STRATEGY_SIG.args)  # from numba's cache when the engine compiled it already
        _COMPILED.add(id(fn))
    return fn


def persian_policy_args(specs: Sequence[str | StrategySpec] | str | StrategySpec):
    """(names per seat, parameter matrix, function tuple) of a Persian policy: one spec for every
    seat, two (team 0, team 1) or four, as a table is given (sim.games.persian.engine.Table)."""
    from sim.games.persian.engine import Table

    table = Table.of(specs)
    kernels = _persian_builtin_kernels()
    params = np.ascontiguousarray(np.stack([s.param_array() for s in table.specs]))
    fns = tuple(seat_function(s, kernels) for s in table.specs)
    return table.names(), params, fns
