"""Persian's kernels that read another built-in's slots: defensive hands its own parameter
row to greedy_draw, which reads max_extra at greedy's slot. That every kernel's ``P_*``
constants follow its declared parameters is checked for every game by
tests/contract/test_param_slots.py."""

from __future__ import annotations

from strategies.persian import greedy_nb
from strategies.persian.builtins import BUILTINS


def test_strategies_reading_greedys_draw_put_max_extra_in_its_slot() -> None:
    for name in ("defensive",):
        info = next(i for i in BUILTINS if i.name == name)
        assert [p.name for p in info.params].index("max_extra") == greedy_nb.P_MAX_EXTRA
