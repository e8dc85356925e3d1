"""Tuning a strategy: the best parameters against a field, found and then proven on fresh deals.

``rummy-sim tune SPEC --param KEY=LOW..HIGH ... --vs TEAM ... --budget PLAYS`` (sim.cli.tune),
``kind = "tune"`` experiment files (sim.apps.tune.toml) and :func:`tune` in Python. Modules:
``space`` (the tuned dimensions), ``field`` (opponents and mixture weights), ``plan`` (how the
budget is spent), ``evaluate`` (candidates against the field on common deals, through
sim.runner and its backend), ``search`` (optuna + successive halving with racing),
``validate`` (the best on fresh deals vs the field and the defaults), ``report``.
docs/tuning.md explains the method and its output.

The names below load their module when first used (PEP 562), so ``rummy-sim`` starts without
optuna, the runner and the charts unless it tunes.
"""

from importlib import import_module

_WHERE = {"tune": "api", "TuneResult": "api", "command_line": "api", "derived_validation_seed": "api",
          "Field": "field", "parse_field": "field", "Plan": "plan", "make_plan": "plan",
          "SAMPLERS": "samplers", "Dimension": "space", "Space": "space", "TuneError": "space",
          "parse_space": "space"}

__all__ = ["tune", "TuneResult", "TuneError", "command_line", "derived_validation_seed", "Field", "parse_field",
           "Plan", "make_plan", "SAMPLERS", "Dimension", "Space", "parse_space"]


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{_WHERE[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
