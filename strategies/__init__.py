"""Strategies of every game: one folder per game (``strategies/persian/``,
``strategies/indian/``) with its compiled kernels and ``builtins.py``; the plug-in interface
all games share (``interface.py``) and the per-game registries (``registry.py``)."""
