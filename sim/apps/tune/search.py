"""The search: optuna proposes candidates, successive halving with racing decides how many
deals each one gets (sim.apps.tune.plan), every evaluation on common random numbers.

Optuna is driven through its ask-and-tell interface: a bracket asks for all its candidates
at once (TPE with the constant liar, so a batch spreads out), reports each candidate's
value at every rung it plays (``trial.report(value, step=deals)``) and ends the ones it
drops as PRUNED and its last survivors as COMPLETE with their value on the top rung's
deals. TPE ranks pruned trials by the rung they reached and then by their value there,
which is exactly a paired comparison (same deal indices at the same rung). The first
bracket starts with the baseline (the spec as given: the strategy's defaults), when it
lies inside the space, so the search always meets the defaults.

Samplers: ``tpe`` (default; multivariate), ``cmaes`` (CMA-ES through the ``cmaes``
package; bool and choice dimensions are sampled independently, pruned trials count
with their last rung's value), ``random``, ``qmc`` (scrambled Sobol). All are seeded from
the run's seed, so the same command gives the same search.
"""

from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass, field as dc_field
from typing import Callable

import numpy as np

from sim.experiment import Team
from sim.runner.results import RunInterrupted
from sim.apps.tune.evaluate import Evaluator, Scores
from sim.apps.tune.field import Field
from sim.apps.tune.plan import Plan
from sim.apps.tune.samplers import SAMPLERS
from sim.apps.tune.space import Space, TuneError


def make_sampler(name: str, seed: int, startup: int):
    import optuna

    # optuna samplers take a 32-bit seed; fold the run's 63-bit seed into one
    s = int((seed ^ (seed >> 32)) & 0x7FFFFFFF)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        if name == "tpe":
            return optuna.samplers.TPESampler(seed=s, multivariate=True, constant_liar=True, n_startup_trials=startup)
        if name == "cmaes":
            try:
                import cmaes  # noqa: F401
            except ImportError:
                raise TuneError("sampler cmaes needs the 'cmaes' package (pip install 'cmaes>=0.10')") from None
            return optuna.samplers.CmaEsSampler(seed=s, consider_pruned_trials=True, warn_independent_sampling=False,
                                                n_startup_trials=0, popsize=startup)
        if name == "random":
            return optuna.samplers.RandomSampler(seed=s)
        if name == "qmc":
            return optuna.samplers.QMCSampler(seed=s, scramble=True, warn_independent_sampling=False)
    raise TuneError(f"sampler {name!r} is not one of {', '.join(SAMPLERS)}")


@dataclass
class SearchRecord:
    """What the search did: one row per trial, one per trial and rung played, its cost."""

    trials: list[dict] = dc_field(default_factory=list)
    rungs: list[dict] = dc_field(default_factory=list)
    brackets: int = 0
    plays: int = 0
    seconds: float = 0.0
    stopped: str = "budget"


def run_search(space: Space, field: Field, plan: Plan, evaluator: Evaluator, seed: int, sampler: str = "tpe",
               racing: float = 0.05, log: Callable[[str], None] | None = None,
               should_stop: Callable[[], bool] | None = None) -> SearchRecord:
    """Brackets of successive halving until the search budget cannot pay for another one."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    if not (isinstance(racing, (int, float)) and 0 <= racing < 1):
        raise TuneError(f"racing must be a significance level in [0, 1) (0: off), got {racing!r}")
    study = optuna.create_study(direction="maximize", sampler=make_sampler(sampler, seed, plan.candidates))
    base = space.baseline_trial()
    if base is not None:
        study.enqueue_trial(base)
    rec = SearchRecord()
    t0 = time.perf_counter()
    start_plays = evaluator.plays
    while plan.search_budget - rec.plays >= plan.bracket_plays:
        if should_stop is not None and should_stop():
            rec.stopped = "interrupt"
            break
        try:
            _bracket(study, space, field, plan, evaluator, seed, racing, rec)
        except (RunInterrupted, KeyboardInterrupt):  # Ctrl-C: keep the finished brackets
            rec.stopped = "interrupt"
            rec.plays = evaluator.plays - start_plays
            if log is not None:
                log(f"interrupted: keeping the {rec.brackets} finished bracket(s)")
            break
        rec.brackets += 1
        rec.plays = evaluator.plays - start_plays
        if log is not None:
            best = max((t for t in rec.trials if t["state"] == "complete"), key=lambda t: t["value"])
            log(f"bracket {rec.brackets}: {len(rec.trials)} trials, {rec.plays:,} of {plan.search_budget:,} search "
                f"plays; best so far {best['spec']} {best['value']:+.2f} points per deal on "
                f"{best['deals']:,} deal indices ({time.perf_counter() - t0:,.0f} s)")
    rec.seconds = time.perf_counter() - t0
    if not any(t["state"] == "complete" for t in rec.trials):
        if rec.stopped == "interrupt":
            raise KeyboardInterrupt
        raise TuneError("the search finished no bracket")
    return rec


def _bracket(study, space: Space, field: Field, plan: Plan, evaluator: Evaluator, seed: int, racing: float,
             rec: SearchRecord) -> None:
    import optuna

    number = rec.brackets
    trials = [study.ask() for _ in range(plan.candidates)]
    specs = [space.suggest(t) for t in trials]
    teams = [Team(s, s) for s in specs]
    rows = []
    base_values = space.baseline().param_array()
    for t, s in zip(trials, specs):
        row = {"trial": t.number, "bracket": number, "spec": str(s), **space.values_of(s),
               "baseline": bool((s.param_array() == base_values).all()), "rung": -1, "deals": 0}
        rows.append(row)
    active = list(range(len(trials)))
    scores: Scores | None = None
    lo = 0
    for r, hi in enumerate(plan.rung_deals):
        fresh = evaluator.scores([teams[i] for i in active], field, lo, hi, seed)
        scores = fresh if scores is None else scores.merge(fresh)
        values = scores.values()
        leader = int(np.argmax(values))
        last = r == plan.rungs - 1
        order = [int(x) for x in np.argsort(-values, kind="stable")]
        n_keep = max(1, math.ceil(len(active) / plan.eta))
        keep = set(order[:n_keep]) if not last else set()
        for pos, i in enumerate(active):
            v = scores.value(pos)
            vs_leader = scores.diff(pos, leader, level=1 - racing) if racing and pos != leader else None
            dropped_by_race = (pos in keep and vs_leader is not None and vs_leader["ci_high"] < 0)
            if dropped_by_race:
                keep.discard(pos)
            trials[i].report(float(v["mean_diff"]), step=hi)
            rung_row = {"trial": trials[i].number, "bracket": number, "rung": r, "deals": hi,
                        "spec": rows[i]["spec"], "value": v["mean_diff"], "ci_low": v["ci_low"],
                        "ci_high": v["ci_high"], "se": v["se"], "rank": order.index(pos) + 1,
                        "vs_leader": math.nan if pos == leader else scores.diff(pos, leader)["mean_diff"],
                        "promoted": pos in keep, "raced_out": dropped_by_race}
            for k, label in enumerate(field.labels()):
                rung_row[f"vs {label}"] = scores.vs_opponent(pos, k)["mean_diff"]
            rec.rungs.append(rung_row)
            rows[i].update(rung=r, deals=hi, value=v["mean_diff"], ci_low=v["ci_low"], ci_high=v["ci_high"],
                           se=v["se"])
            if r == 0:
                rows[i]["value_rung0"] = v["mean_diff"]
        if last:
            for pos, i in enumerate(active):
                study.tell(trials[i], float(values[pos]))
                rows[i]["state"] = "complete"
            break
        survivors = [i for pos, i in enumerate(active) if pos in keep]
        for pos, i in enumerate(active):
            if pos not in keep:
                study.tell(trials[i], state=optuna.trial.TrialState.PRUNED)
                rows[i]["state"] = "pruned"
        scores = scores.subset([pos for pos in range(len(active)) if pos in keep])
        active = survivors
        lo = hi
    rec.trials.extend(rows)
