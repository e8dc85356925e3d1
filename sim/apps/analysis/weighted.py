"""Importance-weighted worlds (any game): weights from log-likelihoods, effective sample size, weighted means.

When the worlds of a decision analysis are sampled uniformly but should follow a posterior
(``--infer POLICY``: worlds in proportion to how likely the other seats' recorded choices were
under POLICY), each world w carries a log-likelihood ``loglik[w]``; its normalised importance
weight is ``exp(loglik[w] - max) / sum(...)`` (self-normalised importance sampling).

* ``ess(w) = 1 / sum(w**2)`` for normalised weights (Kish's effective sample size): the number
  of uniform worlds the weighted sample is worth. All worlds equal: ESS = worlds.
* ``weighted_mean_ci(x, w)``: the weighted mean and a Student-t interval with ESS - 1 degrees of
  freedom and the self-normalised estimator's variance ``sum(w**2 (x - m)**2)``, scaled by
  ``ESS / (ESS - 1)`` so that equal weights give exactly the plain interval (sim.core.intervals).
* ``weighted_p_best``: the Bayesian bootstrap over worlds with each Dirichlet(1, ..., 1) draw
  multiplied by the importance weights.
* ``tremble_probability``: the likelihood of one recorded choice under the tremble model that
  every game's ``infer.py`` uses; ``check_infer_input``: the inputs every game's ``--infer`` refuses.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from sim.core.intervals import t_interval

INFER_METHODS = ("weights", "mcmc")  # --infer-method: importance weights over uniform worlds, or chains (mcmc.py)
INFER_METHOD = "weights"  # the default (existing answers stay as they were)
INFER_CHAINS = (20, 200, 10)  # --infer-chains, --infer-burn, --infer-thin: chains, burn-in steps, thinning


def normalise(loglik: np.ndarray) -> np.ndarray:
    """Normalised weights from log-likelihoods (-inf: an impossible world, weight 0).
    ValueError when every world is impossible."""
    ll = np.asarray(loglik, dtype=float)
    top = ll.max() if ll.size else -np.inf
    if not np.isfinite(top):
        raise ValueError("every world has likelihood 0: no world explains the recorded choices")
    w = np.exp(ll - top)
    return w / w.sum()


def ess(w: np.ndarray) -> float:
    """Kish's effective sample size of weights ``w`` (normalised or not)."""
    w = np.asarray(w, dtype=float)
    s = w.sum()
    return float(s * s / (w * w).sum()) if s > 0 else 0.0


def weighted_mean_ci(x: np.ndarray, w: np.ndarray, level: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high) of ``x`` under weights ``w`` (NaN values left out, the rest renormalised)."""
    x = np.asarray(x, dtype=float).ravel()
    w = np.asarray(w, dtype=float).ravel()
    ok = np.isfinite(x) & (w > 0)
    if not ok.any():
        return math.nan, math.nan, math.nan
    x, w = x[ok], w[ok] / w[ok].sum()
    m = float(w @ x)
    n_e = ess(w)
    m2 = n_e * n_e * float((w * w) @ ((x - m) ** 2))  # t_interval's se = sqrt(m2 / (n-1)) / sqrt(n)
    ci = t_interval(n_e, m, m2, level)
    return ci.mean, float(ci.low), float(ci.high)


def weighted_p_best(x: np.ndarray, w: np.ndarray, draws: int = 4000, seed: int = 0) -> np.ndarray:
    """Per column of ``x`` (worlds x candidates, no NaN), the probability of the highest weighted
    mean: Dirichlet(1, ..., 1) draws over the worlds times the importance weights ``w``."""
    n = x.shape[0]
    gen = np.random.default_rng(seed)
    wins = np.zeros(x.shape[1])
    left = draws
    while left > 0:
        b = min(left, max(1, 2_000_000 // n))
        g = gen.dirichlet(np.ones(n), size=b) * w[None, :]
        means = (g @ x) / g.sum(axis=1, keepdims=True)
        top = means.max(axis=1, keepdims=True)
        is_top = np.isclose(means, top, rtol=0, atol=1e-9)
        wins += (is_top / is_top.sum(axis=1, keepdims=True)).sum(axis=0)
        left -= b
    return wins / draws


def posterior(loglik: np.ndarray, floor: float) -> tuple[np.ndarray | None, float, int]:
    """(normalised weights or None, ESS, possible worlds) of worlds with log-likelihoods ``loglik``;
    the weights are None when the ESS is below ``floor`` (the inference failed: the caller says so
    and does not fall back to uniform worlds)."""
    ll = np.asarray(loglik, dtype=float)
    possible = int(np.isfinite(ll).sum())
    w = normalise(ll) if possible else None
    n_eff = ess(w) if w is not None else 0.0
    return (w if n_eff >= floor else None), n_eff, possible


class AnalysisInputError(ValueError):
    """Bad input for a decision analysis (a deal, turn or decision that does not exist, a forced one)."""


def check_infer_input(history, tremble: float) -> None:
    """Refuse, in one line, an ``--infer`` without a deal history or with a tremble outside (0, 1]."""
    if history is None:
        raise AnalysisInputError("--infer needs the deal's history (a deal log): a position records no earlier "
                                 "choices of the other seats")
    if not 0.0 < tremble <= 1.0:
        raise AnalysisInputError(f"tremble must be in (0, 1], got {tremble}")


def tremble_probability(hits: np.ndarray, n: int, policy_pick: Callable[[], int], tremble: float) -> float:
    """P(the recorded move) when a seat plays the policy's pick with probability 1 - tremble and
    a uniform legal move otherwise: 0 if the move is not among the ``n`` legal rows (``hits``,
    its row indices), 1 if it was the only one (the policy is not asked), else
    ``(1 - tremble) * [policy_pick() == hits[0]] + tremble / n``."""
    if hits.size == 0:
        return 0.0
    if n == 1:
        return 1.0
    return (1.0 - tremble) * (policy_pick() == hits[0]) + tremble / n
