"""Adaptive sweeps and tournaments: successive elimination with multiple comparisons with the best.

A fixed-size sweep plays every grid point on every deal, although after a few thousand
deals most points are clearly out of the running. :func:`run_adaptive` plays the same
experiment (same seed, same deal indices, so every number a point gets is the number
the fixed run would give it after as many deals) but looks at the statistics at
geometrically spaced deal counts (``first_look``, twice that, four times ..., up to the
experiment's ``deals``) and stops playing a candidate as soon as Hsu's MCB interval of
``mu_i - max_{j != i} mu_j`` lies below 0 (it is significantly worse than some other
candidate, so it is not the best). Candidates are a sweep's grid points (their A - B
against the opponent) or a tournament's teams (their margin over the full field: a
team's pairings keep being played as long as either side is still in the running, so a
surviving team's margin always covers every opponent).

Error rate: the one-sided MCB bounds are Bonferroni-adjusted over the k - 1
comparisons with the true best and over the planned looks (sim.core.stats.mcb_critical), so
the probability that the true best is ever eliminated is at most ``alpha`` (0.05), as
for the fixed run's Holm-adjusted comparisons with the best. The run stops when one
candidate is left, when (with ``delta`` > 0) every candidate left is within ``delta``
points of the best (MCB lower bound > -delta: practically equivalent), or at
``deals``. Comparisons are paired: every candidate still in the running has played
every deal so far (the survivors only shrink), so their co-moments are over the same
deal sets.

    res = run_adaptive(sim.experiment.sweep("deep_taker", [("max_depth", [0, 5, 55])], "greedy", 1_000_000))
    print(format_adaptive(res))      # status of every candidate, deals played and saved
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from sim.core import stats
from sim.core.fmt import json_ready, num
from sim.core.intervals import ci, mean_test
from sim.experiment import Experiment, ExperimentError
from sim.runner.aggregate import ChunkStats, CoMoments, Moments, Totals, team_weights
from sim.runner.run import run_study
from sim.runner.study_dir import study_outs

FIRST_LOOK = 2_000  # deal indices at the first look (then doubling)


@dataclass
class AdaptiveResult:
    """What an adaptive run found: one row per candidate (``table``), one per look (``looks``)."""

    experiment: Experiment
    table: pd.DataFrame
    looks: pd.DataFrame
    pairing_deals: np.ndarray  # deal indices each pairing played
    alpha: float
    delta: float
    stopped_by: str  # "one_left", "equivalent", "deals" or "interrupt" (Ctrl-C; continue with --resume)
    seconds: float = 0.0
    summary: pd.DataFrame = field(default_factory=pd.DataFrame)  # per pairing, at the deals it played
    runs: list = field(default_factory=list)  # per pairing: its run (sim.runner ExperimentResult; ``out`` its file)

    @property
    def plays(self) -> int:
        exp = self.experiment
        return int(sum(self.pairing_deals[p] * exp.rotations(p) for p in range(len(exp.pairings))))

    @property
    def fixed_plays(self) -> int:
        """Plays of the fixed-size run of the same experiment (every pairing, every deal)."""
        return self.experiment.deals * self.experiment.plays_per_deal

    @property
    def deals_played(self) -> int:
        """Pairing-deals played (a deal index played by one pairing, in all its rotations, counts once)."""
        return int(self.pairing_deals.sum())

    @property
    def fixed_deals(self) -> int:
        return self.experiment.deals * len(self.experiment.pairings)

    @property
    def saved_share(self) -> float:
        return 1.0 - self.plays / self.fixed_plays

    @property
    def best(self) -> str:
        t = self.table
        return str(t.loc[t["status"] == "best", "candidate"].iloc[0]) if (t["status"] == "best").any() else ""


def look_schedule(deals: int, first_look: int, deals_per_game: int) -> list[int]:
    """Deal counts at which the statistics are looked at: first_look, doubling, then ``deals``."""
    step = max(deals_per_game, first_look // deals_per_game * deals_per_game)
    out = []
    n = step
    while n < deals:
        out.append(n)
        n *= 2
    out.append(deals)
    return out


def _candidates(exp: Experiment) -> tuple[list[str], np.ndarray]:
    """Candidate labels and their (candidates x pairings) weights."""
    if exp.kind == "sweep":
        labels = [str(exp.teams[i]) for i, _ in exp.pairings]
        return labels, np.eye(len(exp.pairings))
    if exp.kind == "tournament":
        return exp.team_labels(), team_weights(exp)
    raise ExperimentError(f"an adaptive run needs a sweep or a tournament, not a {exp.kind}")


class _Live:
    """Totals of the pairings still being played (a sub-experiment over those pairings)."""

    def __init__(self, exp: Experiment, active: list[int]):
        self.full = exp
        self.active = list(active)
        self.exp = replace(exp, pairings=tuple(exp.pairings[p] for p in active), vary=exp.vary)
        self.totals = Totals(self.exp)

    def shrink(self, keep: list[int]) -> "_Live":
        """A new _Live over ``keep`` (a subset of ``active``) carrying the statistics so far."""
        pos = [self.active.index(p) for p in keep]
        new = _Live(self.full, keep)
        t, o = new.totals, self.totals
        t.sets.n = o.sets.n
        t.sets.mean = o.sets.mean[pos].copy()
        t.sets.c = o.sets.c[np.ix_(pos, pos)].copy()
        for name in ("play_diff", "a_score", "b_score"):
            src, dst = getattr(o, name), getattr(t, name)
            dst.n, dst.mean, dst.m2 = src.n[pos].copy(), src.mean[pos].copy(), src.m2[pos].copy()
        k = len(self.active)
        both = pos + [k + q for q in pos]
        t.scores.n = o.scores.n
        t.scores.mean = o.scores.mean[both].copy()
        t.scores.c = o.scores.c[np.ix_(both, both)].copy()
        t.deal_outcomes = o.deal_outcomes[pos].copy()
        t.games = o.games[pos].copy()
        t.ends = o.ends[pos].copy()
        t.figures = None if o.figures is None else o.figures[pos].copy()  # the game's own sums, per pairing
        t.chunks, t.deals = o.chunks, o.deals
        return new


def run_adaptive(exp: Experiment, *, alpha: float = 0.05, delta: float = 0.0, first_look: int = FIRST_LOOK,
                 threads: int | None = None, progress: bool | None = None, out=None, resume: bool = False,
                 force: bool = False, keep: str = "plays", backend: str = "local", scheduler=None,
                 workers: int | None = None, check_strategies: bool = False) -> AdaptiveResult:
    """Play ``exp`` (a sweep or tournament) with successive elimination (module doc).

    Every pairing is a cell of a study (sim.runner.run.run_study: the runner's one chunk loop, on
    the chunks of :func:`adaptive_plan`), and the elimination its stopping rule between chunks,
    so ``out`` (a folder: one results file per pairing, ``pairing-<p>.parquet``, each ending where
    the pairing stopped), ``resume``, ``force``, ``keep`` and ``backend`` "dask" work as for a
    match. Interrupted (Ctrl-C), ``stopped_by`` is "interrupt" and the table shows the last look.
    """
    t_start = time.perf_counter()
    if not 0 < alpha < 0.5:
        raise ExperimentError(f"alpha must be in (0, 0.5), got {alpha!r}")
    if not (math.isfinite(delta) and delta >= 0):
        raise ExperimentError(f"delta must be a non-negative number of points, got {delta!r}")
    if first_look < 2:
        raise ExperimentError(f"first look must be at least 2 deals, got {first_look!r}")
    if exp.sprt is not None:
        raise ExperimentError("an adaptive run has its own stopping rule: leave out sprt")
    labels, weights = _candidates(exp)
    if len(labels) < 2:
        raise ExperimentError("an adaptive run needs at least two candidates")
    rule = _Elimination(exp, labels, weights, alpha, delta, first_look)
    cells = [replace(exp, pairings=(pairing,)) for pairing in exp.pairings]
    names = [f"{exp.team_labels()[i]} vs {exp.team_labels()[j]}" for i, j in exp.pairings]
    outs = study_outs(out, f"adaptive {exp.kind}", "pairing", cells, names,
                      {"alpha": alpha, "delta": delta, "first_look": first_look}, resume=resume, force=force)
    study = run_study(cells, outs=outs, plan=adaptive_plan(exp, first_look), between=rule.between, threads=threads,
                      resume=resume, force=force, progress=progress, check_strategies=check_strategies,
                      backend=backend, scheduler=scheduler, workers=workers, keep=keep, desc=f"adaptive {exp.kind}")
    return rule.result(study, time.perf_counter() - t_start)


def adaptive_plan(exp: Experiment, first_look: int = FIRST_LOOK) -> list[tuple[int, int]]:
    """The chunks of an adaptive run: the experiment's chunk size, cut at every look."""
    plan, pos = [], exp.first_deal
    for n in look_schedule(exp.deals, first_look, exp.rules.deals_per_game):
        while pos < exp.first_deal + n:
            stop = min(exp.first_deal + n, pos + exp.chunk)
            plan.append((pos, stop))
            pos = stop
    return plan


class _Elimination:
    """The stopping rule between chunks: the live pairings' statistics, the looks, the candidates'
    status; :meth:`between` returns the pairings to stop playing."""

    def __init__(self, exp: Experiment, labels: list[str], weights: np.ndarray, alpha: float, delta: float,
                 first_look: int):
        self.exp, self.labels, self.weights, self.alpha, self.delta = exp, labels, weights, alpha, delta
        self.schedule = [exp.first_deal + n for n in look_schedule(exp.deals, first_look, exp.rules.deals_per_game)]
        self.alive = list(range(len(labels)))
        self.live = _Live(exp, list(range(len(exp.pairings))))
        self.pairing_deals = np.zeros(len(exp.pairings), dtype=np.int64)
        self.frozen: dict[int, dict] = {}
        self.status: dict[int, dict] = {}
        self.looks: list[dict] = []
        self.stopped_by = "deals"

    def between(self, step) -> list[int]:
        live = self.live
        live.totals.add(join_stats(live.exp, [step.stats[p] for p in live.active]))
        self.pairing_deals[live.active] += step.stop - step.start
        if step.stop not in self.schedule:
            return []
        exp, labels, weights = self.exp, self.labels, self.weights
        means, lows, highs, worse, crit = _mcb(live, weights, self.alive, self.alpha, len(self.schedule))
        out = [c for c, w in zip(self.alive, worse) if w]
        n = live.totals.sets.n
        self.looks.append({"deals": n, "candidates": len(self.alive), "eliminated": len(out),
                           "names": ", ".join(labels[c] for c in out), "critical_value": crit,
                           "plays_so_far": int(sum(self.pairing_deals[p] * exp.rotations(p)
                                                   for p in range(len(exp.pairings))))})
        for c, m, lo, hi, w in zip(self.alive, means, lows, highs, worse):
            self.status[c] = {"deals": n, "estimate": m, "mcb_low": lo, "mcb_high": hi, "eliminated": bool(w)}
            if w:
                self.status[c]["eliminated_at"] = n
                self.status[c].update(_own_interval(live, weights[c]))
        self.alive = [c for c in self.alive if c not in out]
        if len(self.alive) <= 1:
            self.stopped_by = "one_left"
            return list(live.active)
        if self.delta > 0 and all(self.status[c]["mcb_low"] > -self.delta for c in self.alive):
            self.stopped_by = "equivalent"
            return list(live.active)
        if step.stop == self.schedule[-1]:
            return list(live.active)
        keep = [p for p in live.active if np.any(weights[self.alive][:, p] != 0)]
        if len(keep) == len(live.active):
            return []
        summ = live.totals.summary()
        for q, p in enumerate(live.active):
            if p not in keep:
                self.frozen[p] = summ.iloc[q].to_dict()
        self.live = live.shrink(keep)
        return [p for p in live.active if p not in keep]

    def result(self, study, seconds: float) -> AdaptiveResult:
        exp, live, status = self.exp, self.live, self.status
        stopped_by = "interrupt" if study.stopped_by == "interrupt" else self.stopped_by
        if not self.looks:  # interrupted before the first look: every candidate as it stands
            self.status = status = {c: {"deals": live.totals.sets.n, "estimate": math.nan, "mcb_low": math.nan,
                                        "mcb_high": math.nan, "eliminated": False} for c in self.alive}
        for c in self.alive:
            status[c].update(_own_interval(live, self.weights[c]))
        summ = live.totals.summary()
        frozen = dict(self.frozen)
        for q, p in enumerate(live.active):
            frozen[p] = summ.iloc[q].to_dict()
        summary = pd.DataFrame([{**frozen[p], "pairing": p} for p in range(len(exp.pairings))])
        table = _table(exp, self.labels, status, self.alive, stopped_by)
        return AdaptiveResult(exp, table, pd.DataFrame(self.looks), self.pairing_deals, self.alpha, self.delta,
                              stopped_by, seconds, summary, study.runs)


def join_stats(exp: Experiment, cells: list[ChunkStats]) -> ChunkStats:
    """One chunk's statistics of ``exp`` from those of its pairings played one by one (each a
    one-pairing experiment): the same numbers as the chunk of ``exp`` itself, the co-moments
    formed from the stacked per-set differences and scores (ChunkStats.set_scores)."""
    def cat(name: str) -> Moments:
        return Moments(*(np.concatenate([getattr(getattr(c, name), f) for c in cells]) for f in ("n", "mean", "m2")))

    diffs = np.vstack([c.set_diffs for c in cells])
    figures = None if any(c.figures is None for c in cells) else np.concatenate([c.figures for c in cells])
    scores = None
    if all(c.set_scores is not None for c in cells):  # A's per-set scores of every pairing, then B's
        scores = CoMoments.of(np.vstack([c.set_scores[0] for c in cells] + [c.set_scores[1] for c in cells]))
    return ChunkStats(cells[0].start, cells[0].stop, CoMoments.of(diffs), cat("play_diff"), cat("a_score"),
                      cat("b_score"), np.vstack([c.games for c in cells]), np.vstack([c.ends for c in cells]), diffs,
                      scores, np.vstack([c.deal_outcomes for c in cells]), figures)


def _mcb(live: _Live, weights: np.ndarray, alive: list[int], alpha: float, looks: int):
    """Estimates, MCB bounds and the significantly-worse flags of the candidates ``alive``
    from the live co-moments."""
    w = weights[np.ix_(alive, live.active)]
    sets = live.totals.sets
    n = sets.n
    means = w @ sets.mean
    cov = w @ sets.c @ w.T / max(n - 1, 1) / max(n, 1)  # covariance of the candidates' mean estimates
    var = np.diag(cov)
    se = np.sqrt(np.maximum(var[:, None] + var[None, :] - 2 * cov, 0.0))
    crit = stats.mcb_critical(len(weights), n - 1, alpha, looks)
    lows, highs = stats.mcb_intervals(means, se, crit)
    return means, lows, highs, stats.mcb_worse(means, se, crit), crit


def _own_interval(live: _Live, w: np.ndarray) -> dict:
    """The candidate's own estimate (A - B or margin over the field) with its 95% t-interval."""
    wl = w[live.active]
    means, m2s = live.totals.sets.combination(wl)
    c = mean_test(live.totals.sets.n, means[0], m2s[0])
    return {"mean": c["mean_diff"], "ci_low": c["ci_low"], "ci_high": c["ci_high"]}


def _table(exp: Experiment, labels: list[str], status: dict, alive: list[int], stopped_by: str) -> pd.DataFrame:
    rows = []
    for c, lab in enumerate(labels):
        s = status[c]
        if s.get("eliminated"):
            st = "eliminated"
        elif len(alive) == 1:
            st = "best"
        else:
            st = "in the running"
        row = {"candidate": lab, "status": st, "deals": int(s.get("eliminated_at", s["deals"])),
               "mean": s["mean"], "ci_low": s["ci_low"], "ci_high": s["ci_high"],
               "mcb_low": s["mcb_low"], "mcb_high": s["mcb_high"]}
        rows.append(row)
    t = pd.DataFrame(rows)
    if exp.kind == "sweep":
        keys = [k for k, _ in exp.vary]
        grid = pd.DataFrame(list(itertools.product(*[v for _, v in exp.vary])), columns=keys)
        t = pd.concat([grid, t], axis=1)
    return t


def format_adaptive(res: AdaptiveResult) -> str:
    """Text summary: every candidate's status, estimate and MCB interval; deals played and saved."""
    exp = res.experiment
    what = "grid points" if exp.kind == "sweep" else "teams"
    unit = "A - B vs the opponent" if exp.kind == "sweep" else "margin over the field"
    lines = [f"adaptive {exp.kind} (successive elimination, MCB, alpha {res.alpha:g}"
             + (f", equivalence within {res.delta:g} pts" if res.delta > 0 else "")
             + f"), seed {exp.seed}: {len(res.table)} {what}, up to {exp.deals:,} deals each",
             f"{unit}, points per deal [95% CI] at the deals the candidate played; MCB: its difference to the best "
             "of the others (simultaneous, over all looks)"]
    t = res.table
    w = max(len(str(x)) for x in t["candidate"])
    for _, r in t.iterrows():
        lines.append(f"  {str(r['candidate']):<{w}}  {r['status']:<15} {int(r['deals']):>10,} deals  "
                     f"{ci(r['mean'], r['ci_low'], r['ci_high']):>26}   MCB [{num(r['mcb_low'])}, "
                     f"{num(r['mcb_high'])}]")
    why = {"one_left": "one candidate left", "equivalent": f"every candidate left is within {res.delta:g} points of "
           "the best", "deals": f"the deal limit ({exp.deals:,})",
           "interrupt": "interrupted (continue with --resume)"}[res.stopped_by]
    lines.append(f"stopped: {why}. Played {res.plays:,} plays ({res.deals_played:,} pairing-deals) instead of "
                 f"{res.fixed_plays:,} for the fixed-size run: {100 * res.saved_share:.1f}% saved.")
    if not res.summary.empty:  # the game's own figures per pairing, as a fixed run prints them (Indian Rummy)
        # (without the fixed run's note on its "games won" columns, which this output does not have)
        game_lines = [ln for ln in exp.game_spec.pairings_lines(res.summary, exp.players)
                      if not ln.lstrip().startswith("note: above")]
        if game_lines:
            lines += [*game_lines, "  (each pairing at the deals it played: "
                      + ", ".join(f"{a} vs {b} {int(n):,}" for a, b, n in
                                  zip(res.summary["a"], res.summary["b"], res.summary["deal_sets"])) + ")"]
    return "\n".join(lines)


def adaptive_json(res: AdaptiveResult) -> dict:
    return json_ready({
        "kind": f"adaptive_{res.experiment.kind}", "seed": res.experiment.seed, "deals": res.experiment.deals,
        "alpha": res.alpha, "delta": res.delta, "stopped_by": res.stopped_by,
        "candidates": res.table.to_dict(orient="records"), "looks": res.looks.to_dict(orient="records"),
        "pairings": res.summary.to_dict(orient="records"),  # per pairing at the deals it played
        "plays": res.plays, "fixed_plays": res.fixed_plays, "pairing_deals": res.deals_played,
        "fixed_pairing_deals": res.fixed_deals, "saved_share": res.saved_share,
        "experiment_hash": res.experiment.digest(), "seconds": round(res.seconds, 3),
    })


__all__ = ["AdaptiveResult", "run_adaptive", "look_schedule", "format_adaptive", "adaptive_json", "FIRST_LOOK"]
