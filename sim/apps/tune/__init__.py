"""Tuning a strategy: the best parameters against a field, found and then proven on fresh deals.

``rummy-sim tune SPEC --param KEY=LOW..HIGH ... --vs TEAM ... --budget PLAYS`` (sim.cli.tune),
``kind = "tune"`` experiment files (sim.apps.tune.toml) and :func:`tune` in Python. Modules:
``space`` (the tuned dimensions), ``field`` (opponents and mixture weights), ``plan`` (how the
budget is spent), ``evaluate`` (candidates against the field on common deals, through
sim.runner and its backend), ``search`` (optuna + successive halving with racing),
``validate`` (the best on fresh deals vs the field and the defaults), ``report``.
docs/tuning.md explains the method and its output.
"""

from sim.apps.tune.api import TuneResult, command_line, derived_validation_seed, tune
from sim.apps.tune.field import Field, parse_field
from sim.apps.tune.plan import Plan, make_plan
from sim.apps.tune.search import SAMPLERS
from sim.apps.tune.space import Dimension, Space, TuneError, parse_space

__all__ = ["tune", "TuneResult", "TuneError", "command_line", "derived_validation_seed", "Field", "parse_field",
           "Plan", "make_plan", "SAMPLERS", "Dimension", "Space", "parse_space"]
