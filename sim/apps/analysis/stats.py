"""Paired statistics over sampled worlds: one decision's candidates compared (any game).

Input is a matrix ``scores[world, candidate]`` of play-out results (own side minus the
others, in points) where every candidate was played in the same worlds, so the rows
are paired. A candidate eliminated early by the race (sim/apps/analysis/racing.py) has NaN
after its last world; the worlds it did see are a prefix of every other candidate's.

* ``mean`` and ``ci95``: Student-t interval of the candidate's mean (sim.core.stats).
* ``diff_vs_best`` / ``diff_vs_played``: paired differences (candidate minus the best
  / minus the move actually played) over the worlds both saw, with Student-t CIs of
  the mean difference. The best is the highest mean among the candidates still in
  the race at the end.
* ``p_best``: the probability of being best, by the Bayesian bootstrap over worlds
  (Dirichlet(1, ..., 1) weights on the worlds every remaining candidate saw; the
  share of draws in which the candidate has the highest weighted mean). An eliminated
  candidate gets 0: its paired difference to the then-best was significantly
  negative at the race's multiplicity-adjusted level.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.apps.analysis.weighted import weighted_mean_ci, weighted_p_best
from sim.core.intervals import mean_ci

ROW_KEYS = ("move", "mean", "ci95", "diff_vs_best", "diff_vs_best_ci95", "p_best", "samples")


def seen(scores: np.ndarray) -> np.ndarray:
    """Worlds each candidate was played in (its samples): the length of its non-NaN prefix."""
    ok = ~np.isnan(scores)
    return ok.sum(axis=0)


def _mean_ci(x: np.ndarray, level: float, weights: np.ndarray | None):
    return mean_ci(x, level) if weights is None else weighted_mean_ci(x, weights[: x.size], level)


def paired_diff(scores: np.ndarray, a: int, b: int, level: float = 0.95,
                weights: np.ndarray | None = None) -> tuple[float, float, float, int]:
    """(mean, low, high, n) of candidate ``a`` minus candidate ``b`` over the worlds both saw
    (``weights``: the worlds' importance weights, sim.apps.analysis.weighted)."""
    n = int(min(seen(scores[:, [a]])[0], seen(scores[:, [b]])[0]))
    if a == b:
        return 0.0, 0.0, 0.0, n
    m, lo, hi = _mean_ci(scores[:n, a] - scores[:n, b], level, weights)
    return m, lo, hi, n


def p_best(scores: np.ndarray, alive: np.ndarray, draws: int = 4000, seed: int = 0,
           weights: np.ndarray | None = None) -> np.ndarray:
    """Probability of being best for each candidate (Bayesian bootstrap over the worlds every
    ``alive`` candidate saw, times the worlds' importance ``weights`` if given; 0 for the
    others). Ties in a draw are shared equally."""
    k = scores.shape[1]
    out = np.zeros(k)
    idx = np.flatnonzero(alive)
    if idx.size == 1:
        out[idx] = 1.0
        return out
    n = int(seen(scores[:, idx]).min())
    if n == 0:
        out[idx] = 1.0 / idx.size
        return out
    x = scores[:n, idx]
    if weights is not None:
        out[idx] = weighted_p_best(x, np.asarray(weights[:n], dtype=float), draws, seed)
        return out
    gen = np.random.default_rng(seed)
    wins = np.zeros(idx.size)
    left = draws
    while left > 0:  # in blocks: draws x worlds weights stay small
        b = min(left, max(1, 2_000_000 // n))
        w = gen.dirichlet(np.ones(n), size=b)
        means = w @ x
        top = means.max(axis=1, keepdims=True)
        is_top = np.isclose(means, top, rtol=0, atol=1e-9)
        wins += (is_top / is_top.sum(axis=1, keepdims=True)).sum(axis=0)
        left -= b
    out[idx] = wins / draws
    return out


def best_index(scores: np.ndarray, alive: np.ndarray, played: int | None = None,
               weights: np.ndarray | None = None) -> int:
    """The remaining candidate with the highest (weighted) mean: the move played if it ties with
    the highest in every world it saw (moves leading to the same play-outs), else the first of equals."""
    n_seen = seen(scores)
    if weights is None:
        means = np.array([np.nanmean(scores[:, c]) if n_seen[c] else -np.inf for c in range(scores.shape[1])])
    else:
        means = np.array([weighted_mean_ci(scores[: n_seen[c], c], weights[: n_seen[c]])[0] if n_seen[c]
                          else -np.inf for c in range(scores.shape[1])])
    means[~alive] = -np.inf
    best = int(np.argmax(means))
    if played is not None and alive[played] and played != best:
        n = int(min(seen(scores[:, [played]])[0], seen(scores[:, [best]])[0]))
        if n and np.array_equal(scores[:n, played], scores[:n, best]):
            return int(played)
    return best


def candidate_frame(scores: np.ndarray, labels: list[str], played: int | None, alive: np.ndarray | None = None,
                    level: float = 0.95, draws: int = 4000, seed: int = 0,
                    weights: np.ndarray | None = None) -> pd.DataFrame:
    """One row per candidate, best first: the columns of ROW_KEYS, plus ``ci95_low/high``,
    ``diff_vs_played`` with its CI, ``played`` and ``best`` flags and ``dropped_after``
    (worlds seen when the race eliminated it, else NaN). ``weights`` (one per world, normalised):
    every mean, CI, paired difference and P(best) is importance-weighted; None: plain."""
    scores = np.asarray(scores, dtype=float)
    k = scores.shape[1]
    if len(labels) != k:
        raise ValueError(f"{len(labels)} labels for {k} candidates")
    if alive is None:
        alive = np.ones(k, dtype=bool)
    n_seen = seen(scores)
    if weights is not None:
        weights = np.asarray(weights, dtype=float)
        if weights.shape != (scores.shape[0],):
            raise ValueError(f"{weights.shape} weights for {scores.shape[0]} worlds")
    best = best_index(scores, alive, played, weights)
    pb = p_best(scores, alive, draws, seed, weights)
    rows = []
    for c in range(k):
        m, lo, hi = _mean_ci(scores[: n_seen[c], c], level, weights)
        d, dlo, dhi, _ = paired_diff(scores, c, best, level, weights)
        row = {"move": labels[c], "mean": m, "ci95": [lo, hi], "diff_vs_best": d, "diff_vs_best_ci95": [dlo, dhi],
               "p_best": float(pb[c]), "samples": int(n_seen[c])}
        if played is not None:
            p, plo, phi, _ = paired_diff(scores, c, played, level, weights)
            row.update(diff_vs_played=p, diff_vs_played_ci95=[plo, phi])
        row.update(played=(c == played), best=(c == best),
                   dropped_after=float("nan") if alive[c] else float(n_seen[c]))
        rows.append(row)
    df = pd.DataFrame(rows)
    df["ci95_low"] = [r[0] for r in df["ci95"]]
    df["ci95_high"] = [r[1] for r in df["ci95"]]
    order = np.lexsort((-df["mean"].to_numpy(), ~df["best"].to_numpy(), ~alive))
    return df.iloc[order].reset_index(drop=True)
