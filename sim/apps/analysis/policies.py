"""Rollout policies for decision analysis: strategy specs as per-seat function slots.

The play-out kernel (sim/games/persian/decisions_nb.py) calls every seat's policy through a
``sim.plugin.strategy.STRATEGY_FN`` slot, the engine's user-strategy mechanism: a user
strategy's own function, or the compiled kernel a built-in's declaration names
(sim.plugin.strategy.seat_function, compiled or loaded from numba's cache on first use). So
the analysis kernel never links the strategies' code and a new policy costs no
recompilation of it.
"""

from __future__ import annotations

import warnings
from typing import Sequence

from numba.core.errors import NumbaExperimentalFeatureWarning

from sim.plugin.specs import StrategySpec

warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)  # function slots, as the engine


def persian_policy_args(specs: Sequence[str | StrategySpec] | str | StrategySpec):
    """(names per seat, parameter matrix, function tuple) of a Persian policy: one spec for every
    seat, two (team 0, team 1) or four, as a table is given (sim.games.persian.engine.Table)."""
    from sim.games.persian.engine import Table

    table = Table.of(specs)
    _, params, fns = table.kernel_args()
    return table.names(), params, fns
