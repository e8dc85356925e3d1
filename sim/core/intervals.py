"""Confidence intervals, computed and written as text: one definition each, for every table,
report, notebook and tuning run of the toolkit.

Computing (``level`` is the confidence level; 0.95 gives a 95% interval):

* :func:`t_bounds` - the Student-t bounds ``mean +/- t * se`` (the one place the t quantile is applied);
* :func:`t_interval` - a mean's interval from its moments (count, mean, sum of squared deviations),
  as a :class:`MeanCI`; :func:`mean_test` - the same with its two-sided p-value and effect size,
  as the summary frame's columns (``mean_diff``, ``ci_low``, ``ci_high``, ``se``, ``sd``, ``p_value``,
  ``effect_size``);
* :func:`mean_ci` - ``(mean, low, high)`` of values, :func:`moments_ci` - of streamed sums (count,
  sum, sum of squares);
* :func:`wilson_interval` - a proportion's Wilson bounds; :func:`wilson` - ``(share, low, high)``.

Writing: :func:`ci_text` ``[low, high]``, :func:`ci` ``mean [low, high]``, :func:`estimate_text`
(the mean alone when it has no interval), :func:`pct_ci_text` / :func:`pct_ci` for shares, and
:func:`bounds` / :func:`row_pct_ci` for a row holding ``KEY``, ``KEY_ci_low`` and ``KEY_ci_high``.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from sim.core.fmt import NA, _finite, num, pct


def _check_level(level: float) -> float:
    level = float(level)
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level}")
    return level


# --- computing ---------------------------------------------------------------------------------------


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

    Scalars give floats, arrays broadcast. A standard error of 0 gives ``[mean, mean]``; a
    missing one (NaN) gives NaN bounds.
    """
    level = _check_level(level)
    mean, se, df = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (mean, se, df)))
    pos = se > 0
    from scipy import stats as sps  # here: scipy.stats costs ~0.7 s to import, which every command paid

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
    too when ``n`` is 0). Every mean interval of the toolkit comes from here. Scalars give
    floats; arrays broadcast elementwise.
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


def mean_test(n: float, mean: float, m2: float, level: float = 0.95) -> dict:
    """:func:`t_interval` of a mean from its moments with the two-sided p-value of mean 0 (scipy)
    and the effect size mean / sd, under the summary frame's column names (docs/results.md);
    identical to paired_mean_ci / paired_pvalue of tests/stats_reference.py on the raw values."""
    n = int(n)
    ci = t_interval(n, mean, m2, level)
    out = {"mean_diff": ci.mean, "ci_low": ci.low, "ci_high": ci.high, "se": ci.se, "sd": ci.sd,
           "p_value": math.nan, "effect_size": math.nan}
    if n < 2:
        return out
    if ci.se > 0:
        from scipy import stats as sps

        out["p_value"] = float(2.0 * sps.t.sf(abs(mean) / ci.se, n - 1))
        out["effect_size"] = float(mean) / ci.sd
    else:
        out["p_value"] = 1.0 if mean == 0 else 0.0
        out["effect_size"] = math.nan if mean == 0 else math.copysign(math.inf, mean)
    return out


def mean_ci(x, level: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high): Student-t interval of the mean of independent values ``x`` (values that
    are NaN or infinite are left out; all NaN for none)."""
    x = np.asarray(x, dtype=float).ravel()
    x = x[np.isfinite(x)]
    if x.size == 0:
        return math.nan, math.nan, math.nan
    m = float(x.mean())
    ci = t_interval(x.size, m, float(((x - m) ** 2).sum()), level)
    return ci.mean, ci.low, ci.high


def moments_ci(n: float, total: float, total_sq: float, level: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high) from a count, a sum and a sum of squares (streamed values)."""
    if n <= 0:
        return math.nan, math.nan, math.nan
    m = total / n
    ci = t_interval(n, m, total_sq - n * m * m, level)
    return ci.mean, ci.low, ci.high


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
    from statsmodels.stats.proportion import proportion_confint  # here, like scipy.stats above

    low, high = proportion_confint(successes, n, alpha=1.0 - level, method="wilson")
    return float(low), float(high)


def wilson(k: float, n: float, level: float = 0.95) -> tuple[float, float, float]:
    """(share, low, high) with a Wilson interval; all NaN when ``n`` is 0."""
    if n <= 0:
        return math.nan, math.nan, math.nan
    lo, hi = wilson_interval(k, int(n), level)
    return k / n, lo, hi


# --- writing -----------------------------------------------------------------------------------------


def ci_text(low, high, fmt: str = "+.2f") -> str:
    """An interval: ``[low, high]`` (``n/a`` for a missing bound)."""
    return f"[{num(low, fmt)}, {num(high, fmt)}]"


def ci(mean, low, high, fmt: str = "+.2f") -> str:
    """An estimate with its interval: ``mean [low, high]``."""
    return f"{num(mean, fmt)} {ci_text(low, high, fmt)}"


def estimate_text(mean, low, high, fmt: str = "+.2f") -> str:
    """``mean [low, high]``; the mean alone when it has no interval (a missing low bound), and
    ``n/a`` when the mean is missing."""
    if not _finite(mean):
        return NA
    if not _finite(low):
        return format(mean, fmt)
    return ci(mean, low, high, fmt)


def pct_ci_text(low, high) -> str:
    """The interval of a share as percentages: ``[12.3%, 14.0%]``."""
    return f"[{pct(low)}, {pct(high)}]"


def pct_ci(share, low, high) -> str:
    """A share with its interval as percentages: ``13.1% [12.3%, 14.0%]``."""
    return f"{pct(share)} {pct_ci_text(low, high)}"


def bounds(row, key: str) -> list:
    """``[low, high]`` of ``key`` in a row (a mapping with ``KEY_ci_low`` and ``KEY_ci_high``)."""
    return [row[f"{key}_ci_low"], row[f"{key}_ci_high"]]


def row_pct_ci(row, key: str) -> str:
    """:func:`pct_ci` of ``key`` in a row holding ``KEY``, ``KEY_ci_low`` and ``KEY_ci_high``."""
    return pct_ci(row[key], *bounds(row, key))


__all__ = ["MeanCI", "t_bounds", "t_interval", "mean_test", "mean_ci", "moments_ci", "wilson_interval", "wilson",
           "ci_text", "ci", "estimate_text", "pct_ci_text", "pct_ci", "bounds", "row_pct_ci"]
