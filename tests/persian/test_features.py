"""The `learned` strategy's features and fit (issue 25): the kernel agrees with the plain-Python
reference, the scorer plays what its weights prefer, and training's fit is reproducible."""

import numpy as np
import pytest

from sim.games.persian import enums as E
from sim.games.persian.decisions import decisions_in
from sim.games.persian.recording import record_logs
from strategies.persian.features_nb import N_FEATURES
from strategies.persian.learned_nb import EXPERT_PARAMS, best_scored
from strategies.persian.train import decision_features, fit
from tests.persian.feature_ref import move_features as ref_features


@pytest.fixture(scope="module")
def decisions():
    """Unforced decisions of every kind from a few played deals (random and expert seats)."""
    logs = record_logs("random", 3, seed=5) + record_logs("expert", 3, seed=6)
    return [d for log in logs for d in decisions_in(log)]


def test_kernel_features_equal_the_reference(decisions):
    kinds = set()
    for dec in decisions:
        x, chosen = decision_features(dec.obs, dec.rows)
        for i, row in enumerate(dec.rows):
            assert np.allclose(x[i], ref_features(dec.obs, row, i, chosen)), (dec.where, i, row)
        kinds.add(dec.decision)
    assert kinds == {E.D_DRAW, E.D_PLAY, E.D_DISCARD}


def test_scorer_plays_the_move_its_weights_prefer(decisions):
    """A weight only on points scored now (play decisions): the meld or lay-off worth most is played."""
    w = np.zeros((3, N_FEATURES))
    w[E.D_PLAY, 1] = 1.0
    seen = 0
    for dec in decisions:
        if dec.decision != E.D_PLAY:
            continue
        x, _ = decision_features(dec.obs, dec.rows)
        obs = np.ascontiguousarray(dec.obs)
        rows = np.ascontiguousarray(dec.rows)
        i = best_scored(np.int64(E.D_PLAY), obs, rows, np.int64(len(rows)), w, EXPERT_PARAMS,
                        np.zeros(1, np.uint64))
        assert x[i, 1] == x[:, 1].max() and i == int(np.argmax(x[:, 1]))
        seen += 1
    assert seen > 0


def test_fit_recovers_an_obviously_best_move_and_is_reproducible(decisions):
    """Values that are the points scored now: the fit weighs points positively and its scores pick the
    move scoring most where it is ahead by 10 points or more; the same data give the same weights."""
    data = []
    for dec in decisions:
        x, _ = decision_features(dec.obs, dec.rows)
        v = 100.0 * x[:, 1]
        data.append((dec.decision, x - x.mean(axis=0), v - v.mean()))
    w = fit(data)
    assert w[E.D_PLAY, 1] > 50
    assert np.array_equal(w, fit(data))
    clear = 0
    for d, x, v in data:
        if d == E.D_PLAY and np.sort(v)[-1] - np.sort(v)[-2] >= 10:  # obviously best: ahead by 10 points
            clear += 1
            assert v[np.argmax(x @ w[E.D_PLAY])] == v.max()
    assert clear > 0
