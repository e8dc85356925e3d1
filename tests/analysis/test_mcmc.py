"""The posterior sampler over hidden worlds (sim.apps.analysis.mcmc, mcmc_nb; issue 24, item 3).

* The chains' stationary distribution is prior x likelihood: on a tiny enumerable world set (4
  unseen cards dealt to a 2-card hand, a 1-card hand and a 1-card stock: 12 equally likely
  worlds a priori) the kept worlds' frequencies match uniform x L by a chi-square test (fixed
  seed), L a made-up likelihood of the two hands; a chain started at an impossible world
  (L = 0) gets there too; a pseudo-marginal likelihood (an unbiased random estimate, fresh per
  key) gives the same distribution.
* A swap moves two cards between two different places, at least one of them hot (read by the
  likelihood); the cold places (the stock) are shuffled, never swapped with each other.
* The chains' ESS: about the draws for independent draws, far fewer for sticky chains, 0 when
  a kept world is impossible; a bad method or chain size is refused in one line.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from sim.apps.analysis.mcmc import chains_ess, check_infer_method, log_mean_exp, run_chains
from sim.apps.analysis.mcmc_nb import propose_swap, shuffle_cold
from sim.apps.analysis.weighted import AnalysisInputError

PLACE = np.array([0, 0, 1, 2])  # pool positions 0, 1: hand A; 2: hand B; 3: the stock
HOT = np.array([True, True, False])
VALUE = np.array([0.0, 1.0, 2.5, 0.3])  # made-up per-card strengths


def world(pool: np.ndarray) -> tuple[frozenset, int]:
    """The hands a pool deals: hand A's set of cards, hand B's card (the stock is the rest)."""
    return frozenset(int(c) for c in pool[:2]), int(pool[2])


def loglik_of(pool: np.ndarray) -> float:
    """A likelihood of the hands only: hand A likes strong cards, hand B weak ones; A holding
    card 0 and card 3 together is impossible."""
    a, b = world(pool)
    if a == {0, 3}:
        return -np.inf
    return float(sum(VALUE[c] for c in a) - 0.8 * VALUE[b])


def expected() -> dict:
    """Prior (uniform over the 12 worlds) x likelihood, normalised."""
    worlds = {world(np.array(p)) for p in itertools.permutations(range(4))}
    assert len(worlds) == 12
    w = {k: np.exp(loglik_of(np.array([*sorted(k[0]), k[1], 0]))) for k in worlds}
    total = sum(w.values())
    return {k: v / total for k, v in w.items()}


def frequencies(starts, loglik, seed=3, per_chain=3000):
    ch = run_chains(starts, np.array([loglik(p, i) for i, p in enumerate(starts)]), PLACE, HOT, loglik,
                    per_chain=per_chain, burn=50, thin=2, seed=seed)
    counts: dict = {}
    for p in ch.pools:
        counts[world(p)] = counts.get(world(p), 0) + 1
    return counts, len(ch.pools), ch


def chi_square(counts: dict, n: int) -> float:
    return sum((counts.get(k, 0) - n * p) ** 2 / (n * p) for k, p in expected().items() if p > 0)


def test_stationary_distribution_is_prior_times_likelihood() -> None:
    """chi-square over 12 worlds (10 possible, 9 degrees of freedom; 99.9% point 27.9); the chains are
    thinned, not independent, so the bound is loose but a wrong acceptance (or a proposal that
    is not symmetric) gives hundreds."""
    starts = np.array([[1, 2, 0, 3], [0, 3, 1, 2], [2, 3, 0, 1], [3, 1, 2, 0]])  # chain 1 starts impossible
    counts, n, ch = frequencies(starts, lambda p, key: loglik_of(p))
    assert world(starts[1]) not in counts or counts[world(starts[1])] == 0
    assert chi_square(counts, n) < 27.9, (counts, expected())
    assert 0.0 < ch.accepted < 1.0


def test_pseudo_marginal_likelihood_keeps_the_distribution() -> None:
    """An unbiased estimate of L (L times a mean-one random factor drawn from the key) in place
    of L: the chains still visit worlds in proportion to prior x L."""
    def noisy(p, key):
        ll = loglik_of(p)
        factor = np.random.default_rng([9, key]).choice([0.5, 1.5])
        return ll + np.log(factor) if ll > -np.inf else ll
    starts = np.array([[1, 2, 0, 3], [2, 3, 0, 1], [3, 1, 2, 0], [0, 1, 2, 3]])
    counts, n, _ = frequencies(starts, noisy, seed=4)
    assert chi_square(counts, n) < 27.9, (counts, expected())


def test_seed_reproduces_the_chain() -> None:
    starts = np.array([[1, 2, 0, 3], [2, 3, 0, 1]])
    a = frequencies(starts, lambda p, key: loglik_of(p), seed=5, per_chain=50)[2]
    b = frequencies(starts, lambda p, key: loglik_of(p), seed=5, per_chain=50)[2]
    c = frequencies(starts, lambda p, key: loglik_of(p), seed=6, per_chain=50)[2]
    assert np.array_equal(a.pools, b.pools) and not np.array_equal(a.pools, c.pools)


def test_a_swap_crosses_places_and_touches_a_hot_one() -> None:
    place = np.array([0, 0, 0, 1, 2, 2, 2, 3])
    hot = np.array([True, True, False, False])  # 2, 3: cold (e.g. stock, out of play)
    pool = np.arange(8)
    out = np.empty(8, np.int64)
    rng = np.array([np.uint64(11)])
    seen = set()
    for _ in range(2000):
        i, j = propose_swap(pool, place, hot, rng, out)
        assert place[i] != place[j] and (hot[place[i]] or hot[place[j]])
        assert out[i] == pool[j] and out[j] == pool[i] and np.sum(out != pool) == 2
        seen.add((min(i, j), max(i, j)))
    # every allowed unordered pair turns up: 3 x 5 (hand 0 with the rest) + 1 x 4 (hand 1 with the cold)
    assert len(seen) == 19


def test_cold_shuffle_leaves_hot_places() -> None:
    place = np.array([0, 0, 1, 2, 2, 2])
    hot = np.array([True, True, False])
    rng = np.array([np.uint64(3)])
    idx = np.empty(6, np.int64)
    orders = set()
    for _ in range(200):
        pool = np.arange(6)
        shuffle_cold(pool, place, hot, rng, idx)
        assert list(pool[:3]) == [0, 1, 2] and sorted(pool[3:]) == [3, 4, 5]
        orders.add(tuple(pool[3:]))
    assert len(orders) == 6


def test_chains_ess() -> None:
    gen = np.random.default_rng(1)
    iid = gen.normal(size=(4, 500))
    assert 1500 < chains_ess(iid) <= 2000
    ar = np.zeros((4, 500))
    for t in range(1, 500):
        ar[:, t] = 0.95 * ar[:, t - 1] + gen.normal(size=4)
    assert chains_ess(ar) < 200
    stuck = np.repeat(gen.normal(size=(4, 1)), 500, axis=1)  # every chain stuck at its own value
    assert chains_ess(stuck) < 10
    assert chains_ess(np.array([[0.0, -np.inf, 1.0, 2.0]])) == 0.0
    assert chains_ess(gen.normal(size=(5, 3))) == 5.0  # too short to see autocorrelation: one per chain


def test_bad_method_or_chain_sizes_one_line() -> None:
    with pytest.raises(AnalysisInputError, match="--infer-method must be one of weights, mcmc, got 'gibbs'"):
        check_infer_method("gibbs", (20, 200, 10))
    with pytest.raises(AnalysisInputError, match="--infer-thin >= 1 are needed, got 20, 200, 0"):
        check_infer_method("mcmc", (20, 200, 0))


def test_log_mean_exp() -> None:
    assert log_mean_exp([-3.5]) == -3.5
    assert log_mean_exp([np.log(1.0), np.log(3.0)]) == pytest.approx(np.log(2.0))
    assert log_mean_exp([-np.inf, np.log(4.0)]) == pytest.approx(np.log(2.0))
    assert log_mean_exp([-np.inf, -np.inf]) == -np.inf
