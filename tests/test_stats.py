"""Tests for sim.core.stats: known values computed by hand, coverage and power checks."""

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from sim.core.intervals import MeanCI, t_bounds, t_interval, wilson_interval
from sim.core.stats import SPRT, deals_needed, holm_adjust
from stats_reference import (
    cohens_d,
    game_rates,
    paired_mean_ci,
    paired_pvalue,
    summarize_match,
    unpaired_mean_ci,
    variance_reduction,
)


# ------------------------------------------------------------------ helpers


def _duplicate_plays(rng, n_sets, plays_per_set, mu, luck_sd, noise_sd):
    """Per-play A-B diffs for duplicate deal sets.

    In each set the deal's seat luck L favours A in half the plays and B in the other
    half (teams swapped), so the diffs are mu +/- L + noise and L cancels in the set mean.
    """
    luck = rng.normal(0.0, luck_sd, n_sets)
    signs = np.tile(np.where(np.arange(plays_per_set) % 2 == 0, 1.0, -1.0), n_sets)
    set_ids = np.repeat(np.arange(n_sets), plays_per_set)
    diffs = mu + signs * luck[set_ids] + rng.normal(0.0, noise_sd, set_ids.size)
    return diffs, set_ids


# ------------------------------------------------------------------ intervals


def test_paired_ci_hand_value():
    # [1..5]: mean 3, sd sqrt(2.5) = 1.5811, se = 0.70711, t_{0.975,4} = 2.7764
    ci = paired_mean_ci(np.array([1, 2, 3, 4, 5]))
    assert isinstance(ci, MeanCI)
    assert ci.mean == pytest.approx(3.0)
    assert ci.sd == pytest.approx(1.5811, abs=1e-4)
    assert ci.se == pytest.approx(0.70711, abs=1e-4)
    assert ci.n == 5
    assert ci.high - ci.mean == pytest.approx(1.9632, abs=1e-3)
    assert ci.mean - ci.low == pytest.approx(1.9632, abs=1e-3)
    # a 90% interval is narrower: t_{0.95,4} = 2.1318 -> half-width 1.5074
    assert paired_mean_ci([1, 2, 3, 4, 5], level=0.90).half_width == pytest.approx(1.5074, abs=1e-3)


def test_paired_ci_constant_data_and_bad_input():
    ci = paired_mean_ci([2.0, 2.0, 2.0])
    assert (ci.low, ci.mean, ci.high, ci.sd) == (2.0, 2.0, 2.0, 0.0)
    with pytest.raises(ValueError):
        paired_mean_ci([1.0])
    with pytest.raises(ValueError):
        paired_mean_ci([1.0, np.nan, 3.0])
    with pytest.raises(ValueError):
        paired_mean_ci([1.0, 2.0], level=1.5)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=2, max_size=30))
def test_paired_ci_matches_scipy_ttest(xs):
    ci = paired_mean_ci(np.array(xs))
    assert ci.low <= ci.mean <= ci.high
    if ci.sd > 1e-9:
        ref = sps.ttest_1samp(xs, 0.0).confidence_interval(0.95)
        assert ci.low == pytest.approx(ref.low, rel=1e-9, abs=1e-9)
        assert ci.high == pytest.approx(ref.high, rel=1e-9, abs=1e-9)


def test_unpaired_welch_hand_value():
    # a: mean 2, var 1; b: mean 4, var 4; se^2 = 1/3 + 4/3 = 5/3
    # Welch df = (5/3)^2 / ((1/3)^2/2 + (4/3)^2/2) = 50/17 = 2.9412
    ci = unpaired_mean_ci([1, 2, 3], [2, 4, 6])
    assert ci.mean == pytest.approx(-2.0)
    assert ci.se == pytest.approx(math.sqrt(5 / 3))
    assert ci.df == pytest.approx(50 / 17)
    assert ci.half_width == pytest.approx(sps.t.ppf(0.975, 50 / 17) * math.sqrt(5 / 3))
    assert ci.n == 6
    assert ci.sd == pytest.approx(math.sqrt(5.0))


def test_coverage_of_95_ci():
    rng = np.random.default_rng(12345)
    covered = 0
    for _ in range(200):
        ci = paired_mean_ci(rng.normal(0.0, 30.0, 400))
        covered += ci.low <= 0.0 <= ci.high
    assert 0.90 <= covered / 200 <= 0.99


def test_paired_narrower_than_unpaired_with_shared_luck():
    rng = np.random.default_rng(7)
    n = 500
    deal_luck = rng.normal(0.0, 40.0, n)  # both teams' scores move with the deal
    a = 100.0 + 2.0 + deal_luck + rng.normal(0.0, 10.0, n)
    b = 100.0 + deal_luck + rng.normal(0.0, 10.0, n)
    assert np.corrcoef(a, b)[0, 1] > 0.8
    paired = paired_mean_ci(a - b)
    unpaired = unpaired_mean_ci(a, b)
    assert paired.mean == pytest.approx(unpaired.mean)
    assert paired.half_width < 0.5 * unpaired.half_width

    # without a shared component the two analyses agree roughly
    a0 = 100.0 + rng.normal(0.0, 10.0, n)
    b0 = 100.0 + rng.normal(0.0, 10.0, n)
    ratio = paired_mean_ci(a0 - b0).half_width / unpaired_mean_ci(a0, b0).half_width
    assert 0.85 < ratio < 1.15


def test_variance_reduction_with_and_without_shared_luck():
    rng = np.random.default_rng(2024)
    d, ids = _duplicate_plays(rng, n_sets=2000, plays_per_set=4, mu=1.0, luck_sd=30.0, noise_sd=10.0)
    vr = variance_reduction(d, ids)
    # expected (luck^2 + noise^2) / noise^2 = 10
    assert vr > 1.0
    assert 7.0 < vr < 13.0

    d0, ids0 = _duplicate_plays(rng, n_sets=2000, plays_per_set=4, mu=1.0, luck_sd=0.0, noise_sd=10.0)
    assert variance_reduction(d0, ids0) == pytest.approx(1.0, abs=0.15)


def test_variance_reduction_definition_and_id_handling():
    d = np.array([5.0, -3.0, 2.0, 0.0, -1.0, 1.0])
    ids = np.array(["x", "x", "y", "y", "z", "z"])  # any hashable labels
    set_means = np.array([1.0, 1.0, 0.0])
    expected = (np.var(d, ddof=1) / 6) / (np.var(set_means, ddof=1) / 3)
    assert variance_reduction(d, ids) == pytest.approx(expected)
    # order of plays does not matter
    perm = np.array([3, 0, 5, 1, 4, 2])
    assert variance_reduction(d[perm], ids[perm]) == pytest.approx(expected)
    # one play per set: exactly 1
    assert variance_reduction(d, np.arange(6)) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        variance_reduction(d, ids[:5])
    with pytest.raises(ValueError):
        variance_reduction(d, np.zeros(6))


def test_wilson_hand_value():
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-3)
    assert high == pytest.approx(0.9433, abs=1e-3)
    low0, high0 = wilson_interval(0, 10)
    assert low0 == pytest.approx(0.0, abs=1e-12) and 0.0 < high0 < 0.35
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_game_rates():
    g = game_rates(np.array([1, 1, 0, -1, 1]))
    assert (g["wins"], g["ties"], g["losses"], g["games"]) == (3, 1, 1, 5)
    assert g["win_rate"] == pytest.approx(0.6)
    assert g["tie_rate"] == pytest.approx(0.2)
    assert g["loss_rate"] == pytest.approx(0.2)
    assert g["game_win_rate"] == pytest.approx(0.7)
    assert g["win_ci"] == pytest.approx(list(wilson_interval(3, 5)))
    lo, hi = g["game_win_rate_ci"]
    assert lo < 0.7 < hi
    json.dumps(g)
    with pytest.raises(ValueError):
        game_rates(np.array([1, 2, 0]))
    with pytest.raises(ValueError):
        game_rates(np.array([]))


# ------------------------------------------------------------------ tests & power


def test_cohens_d_and_pvalue():
    d = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    assert cohens_d(d) == pytest.approx(3.0 / math.sqrt(2.5))
    # t = 3 / 0.70711 = 4.2426 with 4 df -> two-sided p = 0.01324
    assert paired_pvalue(d) == pytest.approx(0.01324, abs=2e-4)
    assert paired_pvalue(np.zeros(4)) == 1.0
    assert math.isnan(cohens_d(np.zeros(4)))


def test_deals_needed_monotone_and_normal_approx():
    sd = 30.0
    z = sps.norm.ppf(0.975) + sps.norm.ppf(0.8)
    margins = [0.5, 1.0, 2.0, 4.0]
    ns = [deals_needed(sd, m) for m in margins]
    assert all(a > b for a, b in zip(ns, ns[1:]))
    for m, n in zip(margins, ns):
        approx = (z * sd / m) ** 2
        assert n == pytest.approx(approx, rel=0.05)
        assert n >= approx  # the t-test needs a little more than the z approximation
    # sd=30, margin=1: about 7064 by the normal approximation
    assert 7000 < deals_needed(30.0, 1.0) < 7100
    # a negative margin is the same problem
    assert deals_needed(30.0, -2.0) == deals_needed(30.0, 2.0)
    # huge effects still return the minimum usable sample
    assert deals_needed(1.0, 1000.0) == 2
    # higher power or higher level needs more deal sets
    assert deals_needed(30.0, 2.0, power=0.9) > deals_needed(30.0, 2.0)
    assert deals_needed(30.0, 2.0, level=0.99) > deals_needed(30.0, 2.0)


def test_deals_needed_achieves_power_by_simulation():
    # the t-test at n = deals_needed should reject about 80% of the time
    rng = np.random.default_rng(99)
    n = deals_needed(10.0, 5.0)
    x = rng.normal(5.0, 10.0, size=(4000, n))
    t = x.mean(axis=1) / (x.std(axis=1, ddof=1) / math.sqrt(n))
    rejected = np.abs(t) > sps.t.ppf(0.975, n - 1)
    assert 0.77 < rejected.mean() < 0.88


def test_holm_hand_example():
    # sorted: 0.005*4=0.02, 0.01*3=0.03, 0.03*2=0.06, 0.04*1=0.04 -> running max 0.06
    adj = holm_adjust([0.01, 0.04, 0.03, 0.005])
    np.testing.assert_allclose(adj, [0.03, 0.06, 0.06, 0.02])
    np.testing.assert_allclose(holm_adjust([0.5, 0.9]), [1.0, 1.0])


def test_holm_equals_statsmodels_bit_for_bit(monkeypatch):
    """sim.core.stats writes Holm out (statsmodels' runs a full gc.collect per call): the same
    numbers, ties, ones, zeros and single p-values included. The reference's gc.collect is
    skipped here (it frees nothing the arithmetic needs and cost 17 s of the suite)."""
    import gc

    from statsmodels.stats.multitest import multipletests

    monkeypatch.setattr(gc, "collect", lambda *args: 0)
    rng = np.random.default_rng(7)
    cases = [[0.3], [0.0, 1.0, 0.5], [0.01, 0.01, 0.01], [0.2, 0.05, 0.2, 0.05, 0.9]]
    cases += [rng.random(n) ** 3 for n in range(1, 40)]
    cases += [np.round(rng.random(25), 1) for _ in range(20)]  # many ties
    for p in cases:
        np.testing.assert_array_equal(holm_adjust(p), multipletests(np.asarray(p, float), method="holm")[1])


# ------------------------------------------------------------------ SPRT


def _run_sprt(test, rng, mu, sd=30.0, batch=50, max_batches=200):
    for _ in range(max_batches):
        result = test.update(rng.normal(mu, sd, batch))
        if result != "continue":
            return result
    return result


def test_sprt_bounds_and_llr_formula():
    s = SPRT(delta=2.0, sigma=4.0, min_n=2)
    assert s.lower == pytest.approx(math.log(0.05 / 0.95))
    assert s.upper == pytest.approx(math.log(0.95 / 0.05))
    assert s.update(np.array([1.0, 3.0])) == "continue"
    # llr = (delta * S - n delta^2 / 2) / sigma^2 = (2*4 - 2*2) / 16 = 0.25
    assert s.llr == pytest.approx(0.25)
    assert s.n == 2


@pytest.mark.parametrize("delta", [3.0, -3.0])
def test_sprt_accepts_h1_when_mean_is_delta(delta):
    rng = np.random.default_rng(11)
    s = SPRT(delta=delta)
    assert _run_sprt(s, rng, mu=delta) == "accept_h1"
    assert s.llr >= s.upper
    assert s.n < 200 * 50
    with pytest.raises(RuntimeError):
        s.update(np.zeros(5))


@pytest.mark.parametrize("delta", [3.0, -3.0])
def test_sprt_accepts_h0_when_mean_is_zero(delta):
    rng = np.random.default_rng(12)
    s = SPRT(delta=delta)
    assert _run_sprt(s, rng, mu=0.0) == "accept_h0"
    assert s.llr <= s.lower
    assert s.n < 200 * 50


def test_sprt_error_rates_roughly_nominal():
    rng = np.random.default_rng(5)
    reps = 150
    false_h1 = sum(_run_sprt(SPRT(delta=3.0), rng, mu=0.0) == "accept_h1" for _ in range(reps))
    false_h0 = sum(_run_sprt(SPRT(delta=3.0), rng, mu=3.0) == "accept_h0" for _ in range(reps))
    assert false_h1 / reps < 0.12
    assert false_h0 / reps < 0.12


def test_sprt_rejects_bad_arguments():
    with pytest.raises(ValueError):
        SPRT(delta=0.0)
    with pytest.raises(ValueError):
        SPRT(delta=1.0, alpha=0.6, beta=0.6)


# ------------------------------------------------------------------ summary


def test_summarize_match_is_json_ready():
    rng = np.random.default_rng(3)
    d, ids = _duplicate_plays(rng, n_sets=300, plays_per_set=4, mu=2.0, luck_sd=30.0, noise_sd=10.0)
    per_set = np.array([d[ids == k].mean() for k in range(300)])
    outcomes = rng.choice([-1, 0, 1], size=150, p=[0.4, 0.1, 0.5])
    s = summarize_match(per_set, d, ids, outcomes)
    text = json.dumps(s, allow_nan=False)
    assert json.loads(text) == s
    for key in ("deal_sets", "mean_diff", "ci95", "sd", "effect_size", "p_value",
                "game_win_rate", "game_win_rate_ci95", "variance_reduction", "deals_needed_1pt"):
        assert key in s
    assert s["deal_sets"] == 300
    assert s["mean_diff"] == pytest.approx(per_set.mean())
    assert s["ci95"][0] < s["mean_diff"] < s["ci95"][1]
    assert s["variance_reduction"] > 1.0
    assert s["deals_needed_1pt"] == deals_needed(per_set.std(ddof=1), 1.0)
    assert type(s["deals_needed_1pt"]) is int and type(s["deal_sets"]) is int
    assert s["game_win_rate_ci95"][0] < s["game_win_rate"] < s["game_win_rate_ci95"][1]

    bare = summarize_match(per_set)
    assert bare["variance_reduction"] is None and bare["game_win_rate"] is None
    json.dumps(bare, allow_nan=False)


# ------------------------------------------------------------------ t-intervals from moments


def test_t_interval_from_moments_equals_the_raw_values_and_scipy():
    rng = np.random.default_rng(11)
    x = rng.normal(3.0, 7.0, 250)
    m = x.mean()
    ci = t_interval(x.size, m, ((x - m) ** 2).sum())
    ref = sps.ttest_1samp(x, 0.0).confidence_interval(0.95)
    assert (ci.low, ci.high) == pytest.approx((ref.low, ref.high), rel=1e-12)
    assert ci.sd == pytest.approx(x.std(ddof=1)) and ci.se == pytest.approx(x.std(ddof=1) / math.sqrt(x.size))
    raw = paired_mean_ci(x)
    assert (raw.low, raw.high) == (ci.low, ci.high)


def test_t_interval_edge_cases_and_arrays():
    assert math.isnan(t_interval(0, 5.0, 0.0).mean) and math.isnan(t_interval(0, 5.0, 0.0).low)
    one = t_interval(1, 5.0, 0.0)
    assert one.mean == 5.0 and math.isnan(one.low) and math.isnan(one.high) and math.isnan(one.se)
    flat = t_interval(10, 2.0, 0.0)
    assert (flat.low, flat.high, flat.se) == (2.0, 2.0, 0.0)
    n, mean, m2 = np.array([0.0, 1, 2, 30, 30]), np.array([1.0, 2, 3, 4, -1]), np.array([0.0, 0, 4, 9, 0])
    arr = t_interval(n, mean, m2)
    for k in range(n.size):
        one = t_interval(n[k], mean[k], m2[k])
        assert np.array_equal([arr.low[k], arr.high[k]], [one.low, one.high], equal_nan=True)
    assert t_bounds(1.0, 0.5, 9) == pytest.approx(tuple(sps.t.interval(0.95, 9, loc=1.0, scale=0.5)))


# ------------------------------------------------------------------ text and JSON (sim.core.fmt)


def test_formatters():
    from sim.core.fmt import format_p, num, pct, short_p
    from sim.core.intervals import ci, ci_text

    assert num(1.234) == "+1.23" and num(1234.5, ",.0f") == "1,234" and num(7, ",d") == "7"
    assert num(None) == num(float("nan")) == num(math.inf) == num("x") == "n/a"
    assert pct(0.1234) == "12.3%" and pct(None) == "n/a"
    assert format_p(0.0312) == "p = 0.031" and format_p(1e-15) == "p < 1e-12" and format_p(math.nan) == "n/a"
    assert short_p(0.0312) == "0.031" and short_p(0.0) == "<1e-12" and short_p(None) == "n/a"
    assert ci_text(-1.0, 2.0) == "[-1.00, +2.00]" and ci(0.5, 0.25, math.nan, ".3f") == "0.500 [0.250, n/a]"


def test_json_ready_is_strict_json():
    from sim.core.fmt import json_ready

    value = {"a": np.int16(3), 1: (np.float32(0.5), math.nan), "b": np.array([[1, 2]]), "c": np.bool_(True),
             "d": [math.inf, None, "s", 2]}
    out = json_ready(value)
    assert out == {"a": 3, "1": [0.5, None], "b": [[1, 2]], "c": True, "d": [None, None, "s", 2]}
    assert type(out["a"]) is int and type(out["c"]) is bool
    json.dumps(out, allow_nan=False)


# ------------------------------------------------------------------ sim.core.intervals: every interval helper


def test_interval_helpers_agree_with_the_raw_values():
    from sim.core.intervals import mean_ci, mean_test, moments_ci, wilson

    rng = np.random.default_rng(5)
    x = rng.normal(-2.0, 9.0, 120)
    ref = paired_mean_ci(x)
    assert mean_ci(x) == (ref.mean, ref.low, ref.high)
    # NaN and inf are left out of a mean's interval; none left: all NaN
    assert mean_ci(np.r_[x, np.nan, np.inf]) == mean_ci(x)
    assert all(math.isnan(v) for v in mean_ci([np.nan]))
    # from streamed sums and from moments: the same interval
    m, lo, hi = moments_ci(x.size, x.sum(), (x * x).sum())
    assert (m, lo, hi) == pytest.approx((ref.mean, ref.low, ref.high), rel=1e-12)
    t = mean_test(x.size, x.mean(), ((x - x.mean()) ** 2).sum())
    assert (t["ci_low"], t["ci_high"]) == (ref.low, ref.high)
    assert t["p_value"] == pytest.approx(paired_pvalue(x), rel=1e-10)
    assert t["effect_size"] == pytest.approx(x.mean() / x.std(ddof=1))
    assert mean_test(5, 0.0, 0.0)["p_value"] == 1.0 and mean_test(5, 2.0, 0.0)["effect_size"] == math.inf
    assert math.isnan(mean_test(1, 2.0, 0.0)["p_value"])
    assert wilson(8, 10) == (0.8, *wilson_interval(8, 10)) and all(math.isnan(v) for v in wilson(0, 0))


def test_interval_text():
    from sim.core.intervals import bounds, estimate_text, pct_ci, pct_ci_text, row_pct_ci

    assert estimate_text(1.5, 1.0, 2.0) == "+1.50 [+1.00, +2.00]"
    assert estimate_text(1.5, math.nan, math.nan) == "+1.50" and estimate_text(1.5, None, None, ".1f") == "1.5"
    assert estimate_text(None, 1.0, 2.0) == estimate_text(math.nan, 1.0, 2.0) == "n/a"
    assert pct_ci_text(0.1, 0.125) == "[10.0%, 12.5%]" and pct_ci(0.11, 0.1, 0.125) == "11.0% [10.0%, 12.5%]"
    row = {"win": 0.5, "win_ci_low": 0.25, "win_ci_high": 0.75}
    assert bounds(row, "win") == [0.25, 0.75] and row_pct_ci(row, "win") == "50.0% [25.0%, 75.0%]"
