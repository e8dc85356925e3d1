"""What an experiment is: teams, pairings, seatings, deals, seed and rules of one game.

* ``types`` - :class:`Experiment`, :class:`Team`, :class:`SprtSpec`, the identity of a run;
* ``build`` - the constructors: :func:`match`, :func:`tournament`, :func:`sweep`, and the rule
  variants of a rule sweep (:func:`rule_sweep_experiments`);
* ``toml`` - experiment files (:func:`load_toml`), every field validated and named.

Nothing here plays a deal: running is sim.runner's, the kinds of study sim.studies'.
"""

from sim.experiment.build import match, parse_vary, rule_sweep_experiments, rule_variants, sweep, tournament
from sim.experiment.toml import ExperimentFile, load_toml, parse_experiment_dict
from sim.experiment.types import (
    FORMAT,
    KINDS,
    MAX_CHUNK,
    Experiment,
    ExperimentError,
    SprtSpec,
    Team,
    identity_differences,
)

__all__ = ["Experiment", "ExperimentError", "SprtSpec", "Team", "identity_differences", "FORMAT", "KINDS",
           "MAX_CHUNK", "match", "tournament", "sweep", "parse_vary", "rule_variants", "rule_sweep_experiments",
           "ExperimentFile", "load_toml", "parse_experiment_dict"]
