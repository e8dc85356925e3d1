"""Where the contract tests find a registered game's modules, from its ``Game`` object alone
(no game named): its enums module beside its ``game.py``, its built-in strategies
(``Game.strategies_module``, which declares ``BUILTINS``, each naming its kernel) and the
game's own test folder."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

from sim.games import get_game

TESTS_DIR = Path(__file__).resolve().parents[1]


def enums_of(name: str):
    """The game's ``enums`` module (its slot constants and ``LAYOUTS``)."""
    package = type(get_game(name)).__module__.rsplit(".", 1)[0]
    return importlib.import_module(f"{package}.enums")


def engine_of(name: str):
    """The game's ``engine`` module (its Python ``run_deals``, which takes ``max_events``)."""
    package = type(get_game(name)).__module__.rsplit(".", 1)[0]
    return importlib.import_module(f"{package}.engine")


def builtins_of(name: str) -> tuple:
    """The game's built-in strategies (``BUILTINS`` of its strategies module)."""
    return tuple(importlib.import_module(get_game(name).strategies_module).BUILTINS)


def kernels_of(name: str) -> dict[int, str]:
    """strategy id -> ``"module:function"`` of its compiled kernel (each built-in's ``StrategyInfo.kernel``)."""
    return {info.sid: info.kernel for info in builtins_of(name)}


def game_test_module(name: str, file: str):
    """``tests/<name>/<file>`` imported by path under a name of its own (every game's
    folder may hold a file of that name), or None when the game has none."""
    path = TESTS_DIR / name / file
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location(f"_{name}_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
