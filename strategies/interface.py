"""The strategy writer's door to the plug-in interface (defined in :mod:`sim.plugin.strategy`).

``from strategies.interface import STRATEGY_SIG`` is what a user strategy imports: the
signature every strategy is compiled with, and the helpers around it. See
:mod:`sim.plugin.strategy` for what the engine guarantees a strategy and the trust model.
"""

from sim.plugin.strategy import (  # noqa: F401  (the names a strategy file imports)
    SID_USER,
    STRATEGY_FN,
    STRATEGY_SIG,
    call_from_python,
    seat_fns_type,
    unused_slot,
)
