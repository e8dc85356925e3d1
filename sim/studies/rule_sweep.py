"""Rule options compared on the same deals: ``rummy-sim sweep SPEC --vary-rule KEY=V1,V2 --vs TEAM``.

One experiment per combination of the varied rule options (a match SPEC vs TEAM, or a
sweep when strategy parameters vary too), all with the same seed, deal indices and
chunks. A deal's cards depend only on (seed, deal index) (RULES.md P3), so every rule
variant plays the very same deals: the experiments are played chunk by chunk in
lockstep and the per-deal-set A - B differences of every (rule variant, grid point)
go into one co-moment matrix, which makes every comparison between rule variants a
paired one. "How much of quad_holder's edge comes from the doubling?" is then::

    rummy-sim sweep quad_holder --vary-rule four_of_a_kind_double=true,false --vs greedy --deals 100000

whose ``vs_first_rule`` column is (quad_holder - greedy with the doubling) minus
(quad_holder - greedy without it), with a paired 95% CI.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim import experiment as X
from sim.experiment.build import rule_sweep_experiments
from sim.runner.aggregate import CoMoments, Totals
from sim.core.fmt import json_ready, num, short_p
from sim.core.intervals import ci, mean_test
from sim.runner.results import ExperimentResult, StudyStep
from sim.runner.run import run_study
from sim.runner.study_dir import study_outs
from sim.core import stats


@dataclass
class RuleSweepResult:
    """The variants (one experiment each), their totals and the joint co-moments of all their pairings."""

    variants: list[dict]  # rule values of each variant, in grid order
    experiments: list[X.Experiment]
    totals: list[Totals]
    joint: CoMoments  # per deal set: A - B of every (variant, pairing), variant-major
    seconds: float = 0.0
    stopped_by: str = "deals"  # or "interrupt" (Ctrl-C: the finished chunks are kept for --resume)
    outs: list | None = None  # each variant's results file (with ``out``)

    @property
    def complete(self) -> bool:
        return self.stopped_by != "interrupt"

    @property
    def runs(self) -> list[ExperimentResult]:
        return [ExperimentResult(e, t, t.summary(), {}) for e, t in zip(self.experiments, self.totals)]

    @property
    def table(self) -> pd.DataFrame:
        return rule_sweep_table(self)


def play_rule_sweep(base: str, vary_rule, vs: str, deals: int, seed: int = 0, vary=None, rules=None,
                    threads: int | None = None, progress: bool | None = None, *, out=None, resume: bool = False,
                    force: bool = False, keep: str = "plays", backend: str = "local", scheduler=None,
                    workers: int | None = None, check_strategies: bool = False, **options) -> RuleSweepResult:
    """Play every rule variant on the same deals in lockstep (module doc), through the runner's
    chunk loop (sim.runner.run.run_study): ``out`` a folder with one results file per variant
    (``variant-<i>.parquet``, sim.runner.study_dir), ``resume``, ``force``, ``keep``, ``backend``
    "dask" as for a match. Interrupted (Ctrl-C), the result covers the finished chunks and
    ``complete`` is False."""
    t0 = time.perf_counter()
    if options.get("sprt") is not None:
        raise X.ExperimentError("--vary-rule compares variants: a sequential test (sprt) does not apply")
    options.pop("sprt", None)
    variants, exps = rule_sweep_experiments(base, vary_rule, vs, deals, seed, vary, rules, **options)
    labels = [", ".join(f"{k}={v}" for k, v in variant.items()) for variant in variants]
    outs = study_outs(out, "rule sweep", "variant", exps, labels, {}, resume=resume, force=force)
    joint = [CoMoments.empty(sum(len(e.pairings) for e in exps))]

    def between(step: StudyStep) -> None:  # every variant's per-set A - B of this chunk, paired
        diffs = [step.stats[i].set_diffs for i in range(len(exps))]
        joint[0] = joint[0].merge(CoMoments.of(np.vstack(diffs)))

    study = run_study(exps, outs=outs, between=between, threads=threads, resume=resume, force=force,
                      progress=progress, check_strategies=check_strategies, backend=backend, scheduler=scheduler,
                      workers=workers, keep=keep, desc="rule sweep")
    return RuleSweepResult(variants, exps, [r.totals for r in study.runs], joint[0], time.perf_counter() - t0,
                           study.stopped_by, [r.out for r in study.runs])


def rule_sweep_table(res: RuleSweepResult) -> pd.DataFrame:
    """One row per (rule variant, grid point): the rule values, the point's parameters, the match
    statistics against the opponent, ``vs_first_rule`` (paired difference to the same point under
    the first variant, Holm over the rows), and ``vs_best`` (to the best row of all)."""
    rows = []
    k = res.joint.mean.size
    idx = 0
    for v, e, t in zip(res.variants, res.experiments, res.totals):
        s = t.summary()
        points = [dict(zip([key for key, _ in e.vary], combo)) for combo in
                  itertools.product(*[vals for _, vals in e.vary])] if e.kind == "sweep" else [{}]
        for p in range(len(e.pairings)):
            r = s.iloc[p]
            rows.append({**{f"rule {key}": val for key, val in v.items()}, **points[p], "spec": r["a"],
                         "opponent": r["b"], **{c: r[c] for c in s.columns if c not in ("pairing", "a", "b")},
                         "_index": idx, "_point": p})
            idx += 1
    out = pd.DataFrame(rows)
    per_variant = len(res.experiments[0].pairings)
    n = res.joint.n

    def contrast(i: int, j: int) -> dict:
        w = np.zeros(k)
        w[i], w[j] = 1.0, -1.0
        means, m2s = res.joint.combination(w)
        return mean_test(n, means[0], m2s[0])

    for name, ref_of in (("vs_first_rule", lambda i: i % per_variant),
                         ("vs_best", lambda i: int(out["mean_diff"].fillna(-math.inf).to_numpy().argmax()))):
        vals = {f"{name}": [], f"{name}_ci_low": [], f"{name}_ci_high": [], f"{name}_p": []}
        for i in range(k):
            j = ref_of(i)
            c = contrast(i, j) if j != i else None
            vals[name].append(math.nan if c is None else c["mean_diff"])
            vals[f"{name}_ci_low"].append(math.nan if c is None else c["ci_low"])
            vals[f"{name}_ci_high"].append(math.nan if c is None else c["ci_high"])
            vals[f"{name}_p"].append(math.nan if c is None else c["p_value"])
        raw = [p for p in vals[f"{name}_p"] if math.isfinite(p)]
        adj = iter(stats.holm_adjust(raw)) if raw else iter(())
        vals[f"{name}_p_holm"] = [next(adj) if math.isfinite(p) else math.nan for p in vals[f"{name}_p"]]
        for key, col in vals.items():
            out[key] = col
    out["best"] = np.arange(k) == int(out["mean_diff"].fillna(-math.inf).to_numpy().argmax())
    return out.drop(columns=["_index", "_point"])


def format_rule_sweep(res: RuleSweepResult) -> str:
    t = rule_sweep_table(res)
    e0 = res.experiments[0]
    rule_keys = list(res.variants[0])
    par_keys = [k for k, _ in e0.vary] if e0.kind == "sweep" else []
    first = ", ".join(f"{k}={_text(v)}" for k, v in res.variants[0].items())
    lines = [f"rule options compared on the same deals, seed {e0.seed}: {res.joint.n:,} deal sets, "
             f"{len(res.variants)} rule variants x {len(e0.pairings)} point(s) against {t['opponent'].iloc[0]}",
             f"A - B points per deal [paired 95% CI]; vs first rule: the same point minus itself under {first} "
             "(paired, Holm-adjusted p)"]
    keys = [f"rule {k}" for k in rule_keys] + par_keys
    vw = {k: max(len(k), *(len(_text(v)) for v in t[k])) for k in keys}
    lines.append("  " + "  ".join(f"{k:>{vw[k]}}" for k in keys) + f"  {'A - B':>8}  {'95% CI':>17}  "
                 f"{'vs first rule':>13}  {'95% CI':>17}  {'p holm':>7}")
    for _, r in t.iterrows():
        cells = "  " + "  ".join(f"{_text(r[k]):>{vw[k]}}" for k in keys)
        cells += f"  {num(r['mean_diff']):>8}  {ci(r['mean_diff'], r['ci_low'], r['ci_high']).split(' ', 1)[1]:>17}  "
        if math.isfinite(r["vs_first_rule"]):
            cells += (f"{num(r['vs_first_rule']):>13}  "
                      f"{ci(r['vs_first_rule'], r['vs_first_rule_ci_low'], r['vs_first_rule_ci_high']).split(' ', 1)[1]:>17}"
                      f"  {short_p(r['vs_first_rule_p_holm']):>7}")
        else:
            cells += f"{'reference':>13}"
        lines.append(cells.rstrip())
    return "\n".join(lines)


def _text(v) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    return str(v)


def rule_sweep_json(res: RuleSweepResult) -> dict:
    e0 = res.experiments[0]
    return json_ready({"kind": "rule_sweep", "seed": e0.seed, "deals": e0.deals, "deal_sets": res.joint.n,
                       "variants": res.variants, "rows": rule_sweep_table(res).to_dict(orient="records"),
                       "experiment_hashes": [e.digest() for e in res.experiments]})


__all__ = ["RuleSweepResult", "play_rule_sweep", "rule_sweep_table",
           "format_rule_sweep", "rule_sweep_json"]
