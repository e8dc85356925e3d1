"""A built-in strategy's parameter slots come from its declared parameters: every
``P_*`` constant of its kernel module is the position of the parameter of that name in
its StrategyInfo (strategies/persian/builtins.py), so reordering or inserting a
parameter cannot silently make a kernel read the wrong value (issue 8)."""

from __future__ import annotations

import importlib

import pytest

from strategies.persian import greedy_nb
from strategies.persian.builtins import BUILTINS


def _slots(module) -> dict[str, int]:
    return {k: v for k, v in vars(module).items() if k.startswith("P_") and isinstance(v, int)}


@pytest.mark.parametrize("info", BUILTINS, ids=[i.name for i in BUILTINS])
def test_kernel_slots_follow_the_declared_order(info) -> None:
    module = importlib.import_module(f"strategies.persian.{info.name}_nb")
    declared = {f"P_{p.name.upper()}": i for i, p in enumerate(info.params)}
    assert _slots(module) == declared


def test_strategies_reading_greedys_draw_put_max_extra_in_its_slot() -> None:
    """defensive hands its own parameter row to greedy_draw, which reads max_extra at
    greedy's slot."""
    for name in ("defensive",):
        info = next(i for i in BUILTINS if i.name == name)
        assert [p.name for p in info.params].index("max_extra") == greedy_nb.P_MAX_EXTRA


def test_every_builtin_has_a_kernel_module_with_a_decide_kernel() -> None:
    for info in BUILTINS:
        module = importlib.import_module(f"strategies.persian.{info.name}_nb")
        assert hasattr(module, f"{info.name}_decide")
