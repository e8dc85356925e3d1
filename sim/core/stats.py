"""Statistics for duplicate-deal strategy comparisons (strategy A vs strategy B).

Experiments play the same deal several times with the teams swapped over the seats
(and the seats rotated). The unit of analysis is the *deal set*: one number per set,
the mean over its plays of (A's team score - B's team score). Seat luck averages out
inside a set; per-set means are less noisy than single plays by the measured variance
reduction (often only a few percent for different strategies); everything here
treats deal sets as the independent observations unless a function says otherwise.

Conventions:

* ``level`` is always a confidence level (0.95 means a 95% interval, or a two-sided
  test at alpha = 0.05).
* Sample standard deviations use ``ddof=1``.
* Confidence intervals (t and Wilson, computed and written) are sim.core.intervals'.
* The experiment layer computes its statistics from streamed moments
  (sim.runner.aggregate); the same statistics on raw arrays, which the tests check the
  streamed ones against, live in ``tests/stats_reference.py``.
"""

from __future__ import annotations

import math
import warnings
from typing import Optional

import numpy as np
from scipy import stats as sps
from statsmodels.stats.power import TTestPower


__all__ = [
    "deals_needed",
    "holm_adjust",
    "SPRT",
    "mcb_critical",
    "mcb_intervals",
    "mcb_worse",
]


# --------------------------------------------------------------------------- helpers


def _check_level(level: float) -> float:
    level = float(level)
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level}")
    return level


def _as_1d(x, name: str, min_n: int = 1) -> np.ndarray:
    arr = np.asarray(x, dtype=float).ravel()
    if arr.size < min_n:
        raise ValueError(f"{name} needs at least {min_n} values, got {arr.size}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return arr


# --------------------------------------------------------------------------- tests & power


def deals_needed(sd: float, margin: float, level: float = 0.95, power: float = 0.8) -> int:
    """Deal sets needed to detect a true mean difference ``margin`` (per-set sd ``sd``).

    Uses the exact noncentral-t power of the two-sided one-sample t-test at
    alpha = 1 - level (statsmodels ``TTestPower``): the smallest integer n >= 2 whose
    power is at least ``power``. For large n this is about 1-2 sets more than the normal
    approximation (z_{1-alpha/2} + z_{power})^2 sd^2 / margin^2.
    """
    level = _check_level(level)
    if not 0.0 < power < 1.0:
        raise ValueError(f"power must be in (0, 1), got {power}")
    if not (sd > 0 and math.isfinite(sd)):
        raise ValueError(f"sd must be positive and finite, got {sd}")
    if margin == 0 or not math.isfinite(margin):
        raise ValueError(f"margin must be nonzero and finite, got {margin}")
    alpha = 1.0 - level
    es = abs(float(margin)) / float(sd)
    solver = TTestPower()

    def pw(n: int) -> float:
        return float(solver.power(effect_size=es, nobs=n, alpha=alpha, alternative="two-sided"))

    z = sps.norm.ppf(1.0 - alpha / 2.0) + sps.norm.ppf(power)
    start = float("nan")
    if es < 3.0:  # the root finder does not converge for huge effects (n ~ 2 anyway)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            start = float(solver.solve_power(effect_size=es, nobs=None, alpha=alpha,
                                             power=power, alternative="two-sided"))
    n = math.ceil(start) if math.isfinite(start) else math.ceil((z / es) ** 2)
    n = max(n, 2)
    # polish to the exact smallest integer (guards against solver tolerance / fallback)
    while n > 2 and pw(n - 1) >= power:
        n -= 1
    while pw(n) < power:
        n += 1
    return int(n)


def holm_adjust(pvalues) -> np.ndarray:
    """Holm step-down adjusted p-values (family-wise error control over several
    comparisons), in input order: the i-th smallest of m p-values times (m - i), made
    non-decreasing in that order, capped at 1.

    The same arithmetic as statsmodels ``multipletests(method="holm")`` (tests/test_stats.py
    checks equality), written out because that function runs a full ``gc.collect()`` on every
    call: ~75 ms in a process holding numba and pandas, a fifth of a small match's run time."""
    p = _as_1d(pvalues, "pvalues", min_n=1)
    if np.any((p < 0) | (p > 1)):
        raise ValueError("p-values must lie in [0, 1]")
    order = np.argsort(p)
    stepped = np.maximum.accumulate(p[order] * np.arange(len(p), 0, -1))
    adjusted = np.empty_like(stepped)
    adjusted[order] = np.minimum(stepped, 1.0)
    return adjusted


# --------------------------------------------------------------------------- SPRT


class SPRT:
    """Wald sequential probability ratio test for the mean per-deal-set difference.

    H0: mu = 0 versus H1: mu = delta (delta may be negative), deal-set means assumed
    Gaussian. With a known sd sigma the log-likelihood ratio after n sets with sum S is::

        llr = (delta * S - n * delta**2 / 2) / sigma**2

    Approximation: sigma is unknown, so after every batch the llr is recomputed from all
    data so far with sigma**2 replaced by the running sample variance (ddof=1) - a
    plug-in, not an exact sequential t-test, so the error rates are only approximately
    alpha and beta (slightly liberal early, when the variance estimate is poor; hence
    no decision is taken before ``min_n`` sets). Pass ``sigma`` to use a known sd.

    Decisions are taken only after whole batches: "accept_h1" once ``llr >= upper``,
    "accept_h0" once ``llr <= lower`` with Wald's bounds
    ``lower = log(beta/(1-alpha))`` and ``upper = log((1-beta)/alpha)``; else
    "continue". After a decision the test is finished and further updates raise.
    """

    def __init__(self, delta: float, alpha: float = 0.05, beta: float = 0.05,
                 sigma: Optional[float] = None, min_n: int = 10) -> None:
        if delta == 0 or not math.isfinite(delta):
            raise ValueError(f"delta must be nonzero and finite, got {delta}")
        if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
            raise ValueError("need 0 < alpha, beta and alpha + beta < 1")
        if sigma is not None and not (sigma > 0 and math.isfinite(sigma)):
            raise ValueError(f"sigma must be positive and finite, got {sigma}")
        self.delta = float(delta)
        self.alpha = float(alpha)
        self.beta = float(beta)
        self.sigma = None if sigma is None else float(sigma)
        self.min_n = max(int(min_n), 2)
        self.lower = math.log(self.beta / (1.0 - self.alpha))
        self.upper = math.log((1.0 - self.beta) / self.alpha)
        self.n = 0
        self.llr = 0.0
        self.decision = "continue"
        self._mean = 0.0  # running mean and sum of squared deviations (Chan et al. merge)
        self._m2 = 0.0

    @property
    def mean(self) -> float:
        """Mean of all deal-set differences seen so far."""
        return self._mean if self.n else float("nan")

    @property
    def variance(self) -> float:
        """Variance used in the llr: sigma**2 if given, else the running sample variance."""
        if self.sigma is not None:
            return self.sigma**2
        return self._m2 / (self.n - 1) if self.n >= 2 else float("nan")

    def update(self, batch: np.ndarray) -> str:
        """Add a batch of per-deal-set differences; return the current decision."""
        if self.decision != "continue":
            raise RuntimeError(f"SPRT already stopped with {self.decision!r}")
        x = _as_1d(batch, "batch", min_n=0)
        if x.size:
            nb = x.size
            bmean = float(x.mean())
            bm2 = float(np.sum((x - bmean) ** 2))
            tot = self.n + nb
            dlt = bmean - self._mean
            self._m2 += bm2 + dlt * dlt * self.n * nb / tot
            self._mean += dlt * nb / tot
            self.n = tot
        if self.n < self.min_n:
            return self.decision
        var = self.variance
        total = self._mean * self.n
        if var > 0:
            self.llr = (self.delta * total - self.n * self.delta**2 / 2.0) / var
        else:  # constant data: evidence is decisive towards whichever mean is nearer
            dist0, dist1 = abs(self._mean), abs(self._mean - self.delta)
            self.llr = math.inf if dist1 < dist0 else (-math.inf if dist0 < dist1 else 0.0)
        if self.llr >= self.upper:
            self.decision = "accept_h1"
        elif self.llr <= self.lower:
            self.decision = "accept_h0"
        return self.decision


# --------------------------------------------------------------------------- MCB / elimination


def mcb_critical(k: int, df: float, alpha: float = 0.05, looks: int = 1) -> float:
    """One-sided critical value of Hsu's multiple comparisons with the best (MCB) for ``k``
    candidates, Bonferroni-adjusted over the ``k - 1`` comparisons with the (unknown) true
    best and over ``looks`` interim analyses: the Student-t quantile at
    ``1 - alpha / ((k - 1) * looks)`` with ``df`` degrees of freedom.

    Hsu's intervals cover every ``mu_i - max_{j != i} mu_j`` at once whenever the one-sided
    bounds of the k - 1 differences *to the true best* hold, so only those comparisons
    need adjusting; Bonferroni instead of Dunnett's exact quantile because the
    correlations of the differences (a sweep's points share deals) are not equal, which
    makes it conservative, never liberal. The union over looks keeps the error rate of
    a procedure that looks ``looks`` times and eliminates at any of them (successive
    elimination): P(the true best is ever eliminated) <= alpha.
    """
    if k < 2:
        return math.nan
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    if looks < 1:
        raise ValueError(f"looks must be at least 1, got {looks}")
    q = 1.0 - alpha / ((k - 1) * looks)
    return float(sps.t.ppf(q, df)) if math.isfinite(df) else float(sps.norm.ppf(q))


def mcb_intervals(mean, se_diff, crit: float) -> tuple[np.ndarray, np.ndarray]:
    """Hsu's constrained MCB intervals [low, high] of ``mu_i - max_{j != i} mu_j``.

    ``mean`` (k,): the candidates' estimates; ``se_diff`` (k, k): the standard error of
    ``mean[i] - mean[j]`` (paired: from the co-moments of the same deal sets);
    ``crit``: :func:`mcb_critical`. ``high[i] == 0`` means candidate i is significantly
    worse than some other (not the best: eliminate it); ``low[i] == 0`` means i is
    significantly better than every other (the best); ``low[i] > -delta`` means i is
    within ``delta`` of the best.
    """
    m = np.asarray(mean, dtype=float)
    se = np.asarray(se_diff, dtype=float)
    k = m.size
    if se.shape != (k, k):
        raise ValueError(f"se_diff must be ({k}, {k}), got {se.shape}")
    if k == 1:
        return np.zeros(1), np.zeros(1)
    d = m[:, None] - m[None, :]
    off = ~np.eye(k, dtype=bool)
    lo = np.where(off, d - crit * se, np.inf).min(axis=1)
    hi = np.where(off, d + crit * se, np.inf).min(axis=1)
    return np.minimum(lo, 0.0), np.maximum(hi, 0.0)


def mcb_worse(mean, se_diff, crit: float) -> np.ndarray:
    """Which candidates are significantly worse than some other: the unclipped MCB upper
    bound ``min_{j != i} (mean[i] - mean[j] + crit * se[i, j])`` is below 0.

    Not ``high == 0`` of :func:`mcb_intervals`: two candidates with exactly the same
    results (difference 0, standard error 0: e.g. sweep points that never change a
    decision) have a clipped high of 0 without being worse than anything; eliminating
    both would leave the run without its best.
    """
    m = np.asarray(mean, dtype=float)
    se = np.asarray(se_diff, dtype=float)
    k = m.size
    if k == 1:
        return np.zeros(1, dtype=bool)
    d = m[:, None] - m[None, :]
    off = ~np.eye(k, dtype=bool)
    return np.where(off, d + crit * se, np.inf).min(axis=1) < 0.0


# --------------------------------------------------------------------------- summary


