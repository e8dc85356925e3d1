"""Statistics for duplicate-deal strategy comparisons (strategy A vs strategy B).

Experiments play the same deal several times with the teams swapped over the seats
(and the seats rotated). The unit of analysis is the *deal set*: one number per set,
the mean over its plays of (A's team score - B's team score). Seat luck cancels
inside a set, so per-set means are far less noisy than single plays; everything here
treats deal sets as the independent observations unless a function says otherwise.

Conventions:

* ``level`` is always a confidence level (0.95 means a 95% interval, or a two-sided
  test at alpha = 0.05).
* Sample standard deviations use ``ddof=1``.
* Results meant for reports (:func:`game_rates`, :func:`summarize_match`) contain only
  plain ``float``/``int``/``list``/``None`` so ``json.dumps`` works on them; values
  that are not finite (NaN, inf) become ``None`` in :func:`summarize_match`.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import asdict, dataclass
from typing import Optional

import numpy as np
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import TTestPower
from statsmodels.stats.proportion import proportion_confint

from sim.fmt import json_ready

__all__ = [
    "MeanCI",
    "t_bounds",
    "t_interval",
    "paired_mean_ci",
    "unpaired_mean_ci",
    "variance_reduction",
    "wilson_interval",
    "game_rates",
    "cohens_d",
    "deals_needed",
    "holm_adjust",
    "paired_pvalue",
    "SPRT",
    "summarize_match",
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


# --------------------------------------------------------------------------- intervals


@dataclass(frozen=True)
class MeanCI:
    """A mean (or difference of means) with a confidence interval.

    ``se`` is the standard error of ``mean``; ``sd`` and ``n`` describe the data it came
    from (see the producing function for their exact meaning); ``df`` is the t degrees
    of freedom used and ``level`` the confidence level.
    """

    mean: float
    low: float
    high: float
    sd: float
    n: int
    se: float
    df: float = float("nan")
    level: float = 0.95

    @property
    def half_width(self) -> float:
        """Half the interval width (the +/- margin)."""
        return (self.high - self.low) / 2.0

    def to_dict(self) -> dict:
        """Plain-dict form for JSON reports."""
        return asdict(self)


def t_bounds(mean, se, df, level: float = 0.95):
    """(low, high): the Student-t interval ``mean +/- t_{(1+level)/2, df} * se`` (scipy).

    The one place the t quantile is applied; scalars give floats, arrays broadcast. A
    standard error of 0 gives ``[mean, mean]``; a missing one (NaN) gives NaN bounds.
    """
    level = _check_level(level)
    mean, se, df = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (mean, se, df)))
    pos = se > 0
    with np.errstate(invalid="ignore"):
        low, high = sps.t.interval(level, np.where(pos, df, 1.0), loc=mean, scale=np.where(pos, se, 1.0))
    low = np.where(pos, low, np.where(se == 0, mean, np.nan))
    high = np.where(pos, high, np.where(se == 0, mean, np.nan))
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def t_interval(n, mean, m2, level: float = 0.95) -> MeanCI:
    """Student-t interval of a mean from its moments: the count ``n``, the ``mean`` and the
    sum of squared deviations from it ``m2``.

    ``sd = sqrt(m2 / (n - 1))``, ``se = sd / sqrt(n)``, ``df = n - 1``, bounds from
    :func:`t_bounds`. With ``n < 2`` the bounds, ``sd`` and ``se`` are NaN (and the mean
    too when ``n`` is 0). Every mean interval of the toolkit comes from here: the streamed
    summaries (sim.aggregate), the report's per deal-set means (sim.report, from sums and
    sums of squares) and sim.charts. Scalars give floats; arrays broadcast elementwise.
    """
    n, mean, m2 = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (n, mean, m2)))
    two = n >= 2
    df = np.where(two, n - 1.0, np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        sd = np.sqrt(np.maximum(m2, 0.0) / df)
        se = sd / np.sqrt(n)
    mean = np.where(n > 0, mean, np.nan)
    low, high = t_bounds(mean, se, df, level)
    if n.ndim == 0:
        return MeanCI(mean=float(mean), low=low, high=high, sd=float(sd), n=int(n), se=float(se),
                      df=float(df), level=level)
    return MeanCI(mean=mean, low=low, high=high, sd=sd, n=n, se=se, df=df, level=level)


def paired_mean_ci(diffs: np.ndarray, level: float = 0.95) -> MeanCI:
    """Student-t interval for the mean of per-deal-set differences (A - B).

    Each deal set contributes one difference, so the sets are the independent units
    and the ordinary one-sample t interval applies: mean +/- t_{(1+level)/2, n-1} * sd/sqrt(n).
    ``sd`` is the sample sd of the differences (ddof=1) and ``n`` the number of sets.
    """
    level = _check_level(level)
    d = _as_1d(diffs, "diffs", min_n=2)
    mean = float(d.mean())
    return t_interval(d.size, mean, float(((d - mean) ** 2).sum()), level)


def unpaired_mean_ci(a_scores: np.ndarray, b_scores: np.ndarray, level: float = 0.95) -> MeanCI:
    """Welch interval for mean(A) - mean(B), ignoring that the scores share deals.

    This is what an analysis that does not exploit duplication would report; comparing
    its width with :func:`paired_mean_ci` shows how much the pairing saves.
    ``se = sqrt(var_a/n_a + var_b/n_b)`` with Welch-Satterthwaite ``df``;
    ``sd = sqrt(var_a + var_b)`` (the sd of one A score minus one independent B score,
    so ``se == sd/sqrt(n_a)`` when ``n_a == n_b``) and ``n = n_a + n_b``.
    """
    level = _check_level(level)
    a = _as_1d(a_scores, "a_scores", min_n=2)
    b = _as_1d(b_scores, "b_scores", min_n=2)
    na, nb = a.size, b.size
    va, vb = float(a.var(ddof=1)), float(b.var(ddof=1))
    mean = float(a.mean() - b.mean())
    se2 = va / na + vb / nb
    se = math.sqrt(se2)
    if se2 > 0:
        df = se2**2 / ((va / na) ** 2 / (na - 1) + (vb / nb) ** 2 / (nb - 1))
    else:  # both samples constant: the interval collapses whatever df is
        df = float(na + nb - 2)
    low, high = t_bounds(mean, se, df, level)
    return MeanCI(mean=mean, low=low, high=high, sd=math.sqrt(va + vb),
                  n=na + nb, se=se, df=float(df), level=level)


def variance_reduction(per_play_diffs: np.ndarray, set_ids: np.ndarray) -> float:
    """How many times fewer plays duplication needs for the same precision of the mean.

    Exact definition, with N plays in K deal sets, per-play differences d_i and per-set
    means m_k (the mean of d_i over the plays of set k)::

        naive = var(d_i, ddof=1) / N        # plays treated as iid draws
        dup   = var(m_k, ddof=1) / K        # sets as the independent units
        variance_reduction = naive / dup

    ``naive`` is the variance of the overall mean estimate if every play were an
    independent deal; ``dup`` is the variance of the mean of per-set means. Inside a set
    the seat swap makes the plays' differences negatively correlated (the deal's luck
    helps A in one play and B in the other), so the ratio exceeds 1; with no such shared
    component it is about 1 (exactly 1 when every set has one play). Needs K >= 2.
    Returns ``inf`` when the set means are all equal but the plays are not.
    """
    d = _as_1d(per_play_diffs, "per_play_diffs", min_n=2)
    ids = np.asarray(set_ids).ravel()
    if ids.size != d.size:
        raise ValueError(f"set_ids has {ids.size} entries for {d.size} per-play diffs")
    _, inverse = np.unique(ids, return_inverse=True)
    k = int(inverse.max()) + 1
    if k < 2:
        raise ValueError("variance_reduction needs at least 2 deal sets")
    set_means = np.bincount(inverse, weights=d, minlength=k) / np.bincount(inverse, minlength=k)
    naive = float(d.var(ddof=1)) / d.size
    dup = float(set_means.var(ddof=1)) / k
    if dup == 0.0:
        return float("nan") if naive == 0.0 else float("inf")
    return naive / dup


def wilson_interval(successes: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion (statsmodels ``method="wilson"``).

    Chosen over the Wald interval because it behaves well near 0 and 1 and for small n.
    ``successes`` may be fractional (e.g. ties counted as half a win).
    """
    level = _check_level(level)
    if n <= 0:
        raise ValueError(f"n must be positive, got {n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be in [0, n], got {successes} of {n}")
    low, high = proportion_confint(successes, n, alpha=1.0 - level, method="wilson")
    return float(low), float(high)


def game_rates(outcomes: np.ndarray, level: float = 0.95) -> dict:
    """Win/tie/loss rates of A's games, each with a Wilson interval.

    ``outcomes`` holds one entry per game: +1 A won, 0 tie, -1 A lost (by team totals
    over the game's two deals). ``game_win_rate`` counts a tie as half a win; its
    interval is Wilson on the fractional count wins + ties/2, which is conservative
    because ties make the per-game score less variable than a pure win/loss.
    """
    level = _check_level(level)
    o = np.asarray(outcomes).ravel()
    if o.size == 0:
        raise ValueError("outcomes is empty")
    if not np.all(np.isin(o, (-1, 0, 1))):
        raise ValueError("outcomes must contain only +1 (win), 0 (tie) or -1 (loss)")
    n = int(o.size)
    wins, ties, losses = int(np.sum(o == 1)), int(np.sum(o == 0)), int(np.sum(o == -1))
    score = wins + 0.5 * ties
    return {
        "games": n,
        "wins": wins,
        "ties": ties,
        "losses": losses,
        "win_rate": wins / n,
        "win_ci": list(wilson_interval(wins, n, level)),
        "tie_rate": ties / n,
        "tie_ci": list(wilson_interval(ties, n, level)),
        "loss_rate": losses / n,
        "loss_ci": list(wilson_interval(losses, n, level)),
        "game_win_rate": score / n,
        "game_win_rate_ci": list(wilson_interval(score, n, level)),
        "level": level,
    }


# --------------------------------------------------------------------------- tests & power


def cohens_d(diffs: np.ndarray) -> float:
    """Paired effect size mean(diffs)/sd(diffs) (ddof=1), a scale-free strength measure.

    Returns nan when all differences are 0 and +/-inf when they are equal but nonzero.
    """
    d = _as_1d(diffs, "diffs", min_n=2)
    mean, sd = float(d.mean()), float(d.std(ddof=1))
    if sd == 0.0:
        return float("nan") if mean == 0.0 else math.copysign(math.inf, mean)
    return mean / sd


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
    comparisons), via statsmodels ``multipletests(method="holm")``, in input order."""
    p = _as_1d(pvalues, "pvalues", min_n=1)
    if np.any((p < 0) | (p > 1)):
        raise ValueError("p-values must lie in [0, 1]")
    return np.asarray(multipletests(p, method="holm")[1], dtype=float)


def paired_pvalue(diffs: np.ndarray) -> float:
    """Two-sided p-value of the one-sample t-test of mean(diffs) == 0 (scipy).

    For constant data (sd 0) returns 1.0 if all differences are 0, else 0.0.
    """
    d = _as_1d(diffs, "diffs", min_n=2)
    if float(d.std(ddof=1)) == 0.0:
        return 1.0 if float(d.mean()) == 0.0 else 0.0
    return float(sps.ttest_1samp(d, 0.0).pvalue)


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


# --------------------------------------------------------------------------- summary


def summarize_match(diffs_per_set: np.ndarray, per_play_diffs: Optional[np.ndarray] = None,
                    set_ids: Optional[np.ndarray] = None,
                    game_outcomes: Optional[np.ndarray] = None,
                    margin: float = 1.0) -> dict:
    """One JSON-ready summary of an A-vs-B duplicate match.

    Keys: deal_sets, mean_diff, ci95 [low, high], se, sd, effect_size (Cohen's d),
    p_value (paired t-test), variance_reduction (None without per-play data),
    deals_needed_1pt (deal sets for 80% power to detect ``margin`` points, default 1,
    at the observed sd; None if sd is 0), and from ``game_outcomes`` (None if absent):
    games, game_win_rate, game_win_rate_ci95, win_rate, tie_rate, loss_rate.
    Non-finite numbers are reported as None.
    """
    ci = paired_mean_ci(diffs_per_set, 0.95)
    out: dict = {
        "deal_sets": int(ci.n),
        "mean_diff": ci.mean,
        "ci95": [ci.low, ci.high],
        "se": ci.se,
        "sd": ci.sd,
        "effect_size": cohens_d(diffs_per_set),
        "p_value": paired_pvalue(diffs_per_set),
        "variance_reduction": None,
        "deals_needed_1pt": deals_needed(ci.sd, margin) if ci.sd > 0 else None,
    }
    if per_play_diffs is not None and set_ids is not None:
        out["variance_reduction"] = variance_reduction(per_play_diffs, set_ids)
    if game_outcomes is not None and np.asarray(game_outcomes).size:
        g = game_rates(game_outcomes, 0.95)
        out.update({
            "games": g["games"],
            "game_win_rate": g["game_win_rate"],
            "game_win_rate_ci95": g["game_win_rate_ci"],
            "win_rate": g["win_rate"],
            "tie_rate": g["tie_rate"],
            "loss_rate": g["loss_rate"],
        })
    else:
        out.update({"games": 0, "game_win_rate": None, "game_win_rate_ci95": None,
                    "win_rate": None, "tie_rate": None, "loss_rate": None})
    return json_ready(out)
