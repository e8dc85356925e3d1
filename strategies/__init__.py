"""Strategies of every game: one folder per game (``strategies/persian/``, ``strategies/indian/``)
with its compiled kernels (``*_nb.py``) and ``builtins.py`` (names, parameters, kernels).
``interface.py`` and ``registry.py`` are the strategy writer's door to the plug-in layer
(sim/plugin/): the signature a strategy is compiled with, ``Param`` and ``register_strategy``."""
