"""The optuna samplers ``rummy-sim tune --sampler`` offers (sim.apps.tune.search builds them).

A module of its own so the command line lists them without importing optuna or the runner.
"""

SAMPLERS = ("tpe", "cmaes", "random", "qmc")
