"""The games of the toolkit, each in its own folder, registered by name.

``get_game("persian")`` returns the game's :class:`sim.games.base.Game`; the
experiment layer reaches every game through it and never imports a game package
by name. A new game adds ``sim/games/<name>/`` (with a ``game.py`` defining
``GAME``), ``strategies/<name>/`` and one line in ``_BUILT_IN`` below (or calls
:func:`register_game` at run time).
"""

from __future__ import annotations

import importlib

from sim.games.base import Game

DEFAULT_GAME = "persian"
_BUILT_IN = {
    "persian": "sim.games.persian.game",
    "indian": "sim.games.indian.game",
}
_GAMES: dict[str, Game] = {}


def register_game(game: Game) -> Game:
    """Make ``game`` available under ``game.name``."""
    if not isinstance(game, Game) or not game.name:
        raise ValueError(f"{game!r} is not a named sim.games.base.Game")
    _GAMES[game.name] = game
    return game


def get_game(name: str | Game | None = None) -> Game:
    """The registered game called ``name`` (``None``: the default, Persian Rummy)."""
    if isinstance(name, Game):
        return name
    name = DEFAULT_GAME if name is None else name
    if name not in _GAMES:
        if name not in _BUILT_IN:
            raise ValueError(f"unknown game {name!r}; known: {', '.join(game_names())}")
        register_game(importlib.import_module(_BUILT_IN[name]).GAME)
    return _GAMES[name]


def game_names() -> list[str]:
    return sorted(set(_BUILT_IN) | set(_GAMES))
