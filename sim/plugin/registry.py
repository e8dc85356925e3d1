"""The registry: every game by name, and each game's strategies.

A game is the folder ``sim/games/<name>/`` whose ``game.py`` defines ``GAME``, an instance of
:class:`sim.plugin.game.Game`: :func:`get_game` imports that module the first time the name is
asked for, so adding a game adds its folders and nothing else (no table lists the games).
Everything below the games (the experiment layers, the CLI's help) reaches a game only
through this registry and the ``Game`` object it returns; a game's strategies are loaded by
the game itself from the module it names (``Game.strategies_module``), so no layer below the
strategies imports them. :func:`register_game` adds a game built at run time.

The module-level strategy functions (``register_strategy(..., game=...)``, ``parse_spec``,
``strategy_names``) are the short forms of ``get_game(game).strategies.<method>``.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Callable

import sim
from sim.plugin.game import Game
from sim.plugin.pystrategy import python_slot
from sim.plugin.readable import readable_decide
from sim.plugin.specs import Param, StrategyInfo, StrategyRegistry, StrategySpec

DEFAULT_GAME = "persian"  # the game of every command and function that is not told another
GAMES_PACKAGE = "sim.games"
_GAMES: dict[str, Game] = {}


def _built_in_names() -> list[str]:
    """The folders of sim/games/ holding a game.py (found on disk: nothing is imported)."""
    folder = Path(sim.__file__).resolve().parent / "games"
    return sorted(p.parent.name for p in folder.glob("*/game.py"))


def register_game(game: Game) -> Game:
    """Make ``game`` available under ``game.name``."""
    if not isinstance(game, Game) or not game.name:
        raise ValueError(f"{game!r} is not a named sim.plugin.game.Game")
    _GAMES[game.name] = game
    return game


def get_game(name: str | Game | None = None) -> Game:
    """The game called ``name`` (``None``: :data:`DEFAULT_GAME`); ValueError naming the known ones."""
    if isinstance(name, Game):
        return name
    name = DEFAULT_GAME if name is None else name
    if name not in _GAMES:
        if not isinstance(name, str) or name not in _built_in_names():
            raise ValueError(f"unknown game {name!r}; known: {', '.join(game_names())}")
        # the one import by name of a game: the plug-in discovery this module exists for
        register_game(importlib.import_module(f"{GAMES_PACKAGE}.{name}.game").GAME)
    return _GAMES[name]


def game_names() -> list[str]:
    return sorted(set(_built_in_names()) | set(_GAMES))


# --- each game's strategies, by game name ---------------------------------------------------


def registry_for(game: str | Game | None = None) -> StrategyRegistry:
    """The strategy registry of ``game`` (its built-ins loaded on first use)."""
    return get_game(game).strategies


def register_strategy(name: str, function: Callable, params: tuple[Param, ...] = (), doc: str = "",
                      game: str = DEFAULT_GAME) -> StrategyInfo:
    """Register a user strategy of ``game`` compiled with ``strategies.interface.STRATEGY_SIG``."""
    return registry_for(game).register_strategy(name, function, params, doc)


def register_python_strategy(name: str, function: Callable, params: tuple[Param, ...] = (), doc: str = "",
                             game: str = DEFAULT_GAME) -> StrategyInfo:
    """Register a plain-Python strategy of ``game``: ``function(decision, obs, moves, params, rng)``
    returns the index of a row of ``moves`` (sim.plugin.pystrategy). It plays everywhere a
    built-in does, on one thread."""
    doc = doc or (function.__doc__ or "")
    return registry_for(game).register_strategy(name, python_slot(name, function), params, doc)


def register_readable_strategy(name: str, function: Callable, params: tuple[Param, ...] = (), doc: str = "",
                               game: str = DEFAULT_GAME) -> StrategyInfo:
    """Register a plain-Python strategy of ``game`` that reads names, not arrays:
    ``function(view)`` gets a sim.plugin.readable.View (the hand as card names, the pile, the
    table, hand sizes, the legal moves as Move objects, ``view.params`` by name,
    ``view.random``) and returns one of ``view.moves``. It plays everywhere a built-in does,
    on one thread, and costs more per decision than an array strategy (docs/strategies.md)."""
    g = get_game(game)
    decide = readable_decide(function, g.name, g.readable_view, tuple(params))
    return register_python_strategy(name, decide, params, doc or (function.__doc__ or ""), game)


def get_strategy(name: str, game: str = DEFAULT_GAME) -> StrategyInfo:
    return registry_for(game).get(name)


def strategy_names(game: str = DEFAULT_GAME) -> list[str]:
    return registry_for(game).names()


def parse_spec(text: str | StrategySpec, game: str = DEFAULT_GAME) -> StrategySpec:
    """Parse ``NAME`` or ``NAME:KEY=VALUE[,KEY=VALUE...]`` (a strategy of ``game``)."""
    return registry_for(game).parse_spec(text)
