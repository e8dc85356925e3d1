"""A built-in strategy's parameter slots come from its declared parameters (issue 8; issue
23: over every game). Every ``P_*`` constant of a kernel module is the position of the
parameter of that name in the StrategyInfo of each built-in whose kernel lives there
(``BUILTINS`` of the game's strategies module), and every declared parameter has its
constant (``_slot_name``), so reordering or inserting a parameter cannot silently make a kernel read the
wrong value. Parametrized over every registered game; what one game's strategies share
between kernels is checked in its own folder (tests/persian/test_param_slots.py)."""

from __future__ import annotations

import importlib

import pytest

from game_modules import builtins_of, kernels_of
from sim.games import game_names

GAMES = game_names()


def _slots(module) -> dict[str, int]:
    return {k: v for k, v in vars(module).items() if k.startswith("P_") and isinstance(v, int)}


def _slot_name(param: str) -> str:
    """``P_`` and the parameter's name in capitals (a name that starts with ``p_`` already,
    such as a probability ``p_drop``, is not prefixed twice: ``P_DROP``)."""
    upper = param.upper()
    return upper if upper.startswith("P_") else f"P_{upper}"


def _kernel(name: str, info) -> tuple[str, str]:
    module, function = kernels_of(name)[info.sid].split(":")
    return module, function


@pytest.mark.parametrize("name", GAMES)
def test_every_builtin_has_a_compiled_kernel(name) -> None:
    for info in builtins_of(name):
        module, function = _kernel(name, info)
        assert callable(getattr(importlib.import_module(module), function)), f"{info.name}: {module}:{function}"


@pytest.mark.parametrize("name", GAMES)
def test_kernel_slots_follow_the_declared_order(name) -> None:
    declared: dict[str, dict[str, int]] = {}  # kernel module -> P_NAME -> position
    for info in builtins_of(name):
        module, _ = _kernel(name, info)
        slots = declared.setdefault(module, {})
        for i, p in enumerate(info.params):
            key = _slot_name(p.name)
            assert slots.setdefault(key, i) == i, f"{info.name}: {p.name} at {i}, another built-in of {module} at {slots[key]}"
    for module, slots in declared.items():
        assert _slots(importlib.import_module(module)) == slots, module
