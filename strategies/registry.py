"""The strategy writer's door to the registries (defined in :mod:`sim.plugin.specs` and
:mod:`sim.plugin.registry`).

``from strategies.registry import Param, register_strategy`` is what a user strategy file
imports to declare its parameters and register itself under a name (``game=...`` for a game
other than Persian Rummy).
"""

from sim.plugin.registry import (  # noqa: F401  (the names a strategy file imports)
    get_strategy,
    parse_spec,
    register_strategy,
    registry_for,
    strategy_names,
)
from sim.plugin.specs import MAX_PARAMS, Param, StrategyInfo, StrategySpec, spec_with  # noqa: F401
