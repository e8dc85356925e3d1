"""Statistics of a duplicate match computed from raw arrays: the reference that the
streamed statistics of sim.runner.aggregate (moments accumulated chunk by chunk) are tested
against. Test code only (issue 8: statistics used only by tests live with the tests).
"""

from __future__ import annotations

import math
from typing import Optional

import numpy as np
from scipy import stats as sps

from sim.core.fmt import json_ready
from sim.core.intervals import MeanCI, t_bounds, t_interval, wilson_interval
from sim.core.stats import _as_1d, _check_level, deals_needed


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

def cohens_d(diffs: np.ndarray) -> float:
    """Paired effect size mean(diffs)/sd(diffs) (ddof=1), a scale-free strength measure.

    Returns nan when all differences are 0 and +/-inf when they are equal but nonzero.
    """
    d = _as_1d(diffs, "diffs", min_n=2)
    mean, sd = float(d.mean()), float(d.std(ddof=1))
    if sd == 0.0:
        return float("nan") if mean == 0.0 else math.copysign(math.inf, mean)
    return mean / sd

def paired_pvalue(diffs: np.ndarray) -> float:
    """Two-sided p-value of the one-sample t-test of mean(diffs) == 0 (scipy).

    For constant data (sd 0) returns 1.0 if all differences are 0, else 0.0.
    """
    d = _as_1d(diffs, "diffs", min_n=2)
    if float(d.std(ddof=1)) == 0.0:
        return 1.0 if float(d.mean()) == 0.0 else 0.0
    return float(sps.ttest_1samp(d, 0.0).pvalue)

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
