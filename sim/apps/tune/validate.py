"""The honest answer: the best candidate re-played on fresh deals (winner's curse).

The search picks the candidate with the highest value on its deals, so that value is
biased upwards (it won partly by luck on those deals). The validation plays the best,
the baseline (the strategy's defaults, as the spec was given) and any ``compare`` specs
against the whole field on deal indices of a seed the search never used, plus the best
head to head against each of them, all in one experiment on common deals. The table
gives, with paired 95% t-intervals over deal sets:

* ``field``: each spec's value against the field (mixture-weighted A - B per deal);
* ``gain``: the best minus each other spec against the field (paired: same deals);
* ``head_to_head``: the best as team A against each other spec as team B.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd

from sim.apps.tune.evaluate import Evaluator, Scores
from sim.apps.tune.field import Field
from sim.experiment import Team
from sim.plugin.specs import StrategySpec
from sim.runner.aggregate import CoMoments

_STAT = ("mean_diff", "ci_low", "ci_high", "se", "p_value")


@dataclass
class Validation:
    table: pd.DataFrame
    seed: int
    deals: int
    plays: int
    seconds: float


def validate(evaluator: Evaluator, field: Field, best: StrategySpec, baseline: StrategySpec,
             compare: Sequence[StrategySpec], deals: int, seed: int) -> Validation:
    """Play the validation (module doc) on deal indices ``0 .. deals-1`` of ``seed``."""
    t0 = time.perf_counter()
    specs = [best, baseline, *compare]
    roles = ["best", "baseline", *("compare" for _ in compare)]
    n, k = len(specs), len(field.opponents)
    teams = [Team(s, s) for s in specs]
    h2h = tuple((0, j) for j in range(1, n))
    exp = evaluator.experiment(teams, field, 0, deals, seed, extra=h2h)
    result = evaluator.run(exp)
    sets = result.totals.sets
    idx = np.arange(n * k)
    scores = Scores([str(s) for s in specs], np.asarray(field.weights, dtype=float),
                    CoMoments(sets.n, sets.mean[idx], sets.c[np.ix_(idx, idx)]))
    rows = []
    for i, s in enumerate(specs):
        c = scores.value(i)
        row = {"comparison": "field", "role": roles[i], "spec": str(s), "against": field.describe(),
               **{key: c[key] for key in _STAT}}
        for j, label in enumerate(field.labels()):
            row[f"vs {label}"] = scores.vs_opponent(i, j)["mean_diff"]
        rows.append(row)
    for i in range(1, n):
        c = scores.diff(0, i)
        rows.append({"comparison": "gain", "role": roles[i], "spec": str(specs[0]), "against": str(specs[i]),
                     **{key: c[key] for key in _STAT}})
    summary = result.summary
    for q in range(n * k, n * k + len(h2h)):
        r = summary.iloc[q]
        i = h2h[q - n * k][1]
        rows.append({"comparison": "head_to_head", "role": roles[i], "spec": str(specs[0]), "against": str(specs[i]),
                     **{key: float(r[key]) for key in _STAT}, "game_win_rate": float(r["game_win_rate"]),
                     "game_win_rate_ci_low": float(r["game_win_rate_ci_low"]),
                     "game_win_rate_ci_high": float(r["game_win_rate_ci_high"])})
    table = pd.DataFrame(rows)
    table.insert(3, "deal_sets", int(sets.n))
    return Validation(table, seed, deals, int(result.totals.play_diff.n.sum()), time.perf_counter() - t0)
