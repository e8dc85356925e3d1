"""Importance-weighted statistics (sim/apps/analysis/weighted.py, issue 24 item 3) against plain references:
equal weights give exactly the plain Student-t interval and P(best), integer weights the mean of the
repeated values, and the candidate frame with weights None is today's frame."""

from __future__ import annotations

import numpy as np
import pytest

from sim.apps.analysis.stats import candidate_frame, p_best
from sim.apps.analysis.weighted import (AnalysisInputError, check_infer_input, ess, normalise, tremble_probability,
                                       weighted_mean_ci)
from sim.core.intervals import mean_ci


def test_equal_weights_are_the_plain_interval() -> None:
    x = np.random.default_rng(1).normal(3.0, 2.0, 57)
    w = np.full(x.size, 1 / x.size)
    assert weighted_mean_ci(x, w) == pytest.approx(mean_ci(x), rel=1e-12)
    assert ess(w) == pytest.approx(x.size)


def test_integer_weights_are_repeated_values() -> None:
    gen = np.random.default_rng(2)
    x = gen.normal(0, 1, 20)
    k = gen.integers(1, 5, 20)
    m, _, _ = weighted_mean_ci(x, k / k.sum())
    assert m == pytest.approx(np.repeat(x, k).mean(), rel=1e-12)
    assert ess(k) == pytest.approx(k.sum() ** 2 / (k * k).sum())


def test_normalise_and_impossible_worlds() -> None:
    ll = np.array([0.0, np.log(3.0), -np.inf])
    assert normalise(ll) == pytest.approx([0.25, 0.75, 0.0])
    with pytest.raises(ValueError, match="every world has likelihood 0"):
        normalise(np.full(3, -np.inf))


def test_frame_with_equal_weights_matches_the_plain_frame() -> None:
    """The same rows whether the worlds carry equal weights or none (weights None is today's code)."""
    s = np.random.default_rng(3).normal(0, 5, (40, 4)) + np.array([0.0, 1.0, 2.5, 0.5])
    plain = candidate_frame(s, list("abcd"), 1)
    eq = candidate_frame(s, list("abcd"), 1, weights=np.full(40, 1 / 40))
    assert list(plain["move"]) == list(eq["move"])
    for c in ("mean", "diff_vs_best", "diff_vs_played", "ci95_low", "ci95_high", "p_best"):
        assert np.allclose(plain[c], eq[c], atol=1e-9), c
    # a weight on one world moves the answer towards that world's values
    w = np.full(40, 0.1 / 39)
    w[int(np.argmax(s[:, 0]))] = 0.9
    pb = p_best(s, np.ones(4, bool), weights=w)
    assert pb[0] > p_best(s, np.ones(4, bool))[0]


def test_tremble_probability_of_one_recorded_choice() -> None:
    """The tremble model every game's infer.py uses: an illegal record is impossible, a forced
    move certain (the policy is not asked), else the policy's pick with 1 - tremble plus a
    uniform share tremble / n."""
    def never_asked() -> int:
        raise AssertionError("the policy was asked about a forced or impossible move")

    assert tremble_probability(np.array([], np.int64), 5, never_asked, 0.5) == 0.0
    assert tremble_probability(np.array([0]), 1, never_asked, 0.5) == 1.0
    assert tremble_probability(np.array([2]), 4, lambda: 2, 0.2) == pytest.approx(0.8 + 0.05)
    assert tremble_probability(np.array([2]), 4, lambda: 1, 0.2) == pytest.approx(0.05)
    assert tremble_probability(np.array([3]), 3, lambda: 3, 1.0) == pytest.approx(1 / 3)


def test_infer_input_checks_are_one_line() -> None:
    check_infer_input(history=object(), tremble=1.0)
    with pytest.raises(AnalysisInputError, match="--infer needs the deal's history"):
        check_infer_input(history=None, tremble=0.5)
    for bad in (0.0, -0.1, 1.5):
        with pytest.raises(AnalysisInputError, match=r"tremble must be in \(0, 1\]"):
            check_infer_input(history=object(), tremble=bad)
