"""The games of the toolkit, one folder each: ``persian/`` (RULES.md Part 1), ``indian/`` (Part 2).

A game's folder holds its rules as compiled kernels (``enums.py``, ``*_nb.py``), its engine's
Python face (``engine.py``), deal logs and their replay, what a seat may see, its report
sections and figures, and ``game.py``: ``GAME``, the game on the contract of
:mod:`sim.plugin.game`, found by the registry (:mod:`sim.plugin.registry`) from the folder's
name. ``get_game`` and friends are the registry's, named here for short imports.
"""

from sim.plugin.registry import DEFAULT_GAME, game_names, get_game, register_game

__all__ = ["DEFAULT_GAME", "game_names", "get_game", "register_game"]
