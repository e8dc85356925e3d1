"""Worlds drawn from the posterior by Metropolis-Hastings chains (any game; ``--infer-method mcmc``).

Importance weights over uniform worlds (sim.apps.analysis.weighted) collapse when the other
seats' recorded choices are informative: a few worlds carry all the weight. Here the worlds
are moved towards the posterior instead. A game supplies (sim/games/<name>/infer.py):

* the start of each chain: the unseen cards' order (``pool``) of one of its uniform worlds;
* ``place`` / ``hot``: where each pool position is dealt and which places the likelihood reads
  (sim.apps.analysis.mcmc_nb: the swap proposal is symmetric and keeps every public fact);
* ``loglik(pool, key)``: the log-likelihood of the world the pool deals (the game's own
  world_loglik), ``key`` naming its random streams.

Each chain makes ``burn`` swap steps, then keeps one world every ``thin`` steps; a step
proposes a swap and accepts it with probability min(1, L(new) / L(old)). The game's likelihood
is an unbiased estimate (one random history of the past hands per world), so the chain keeps
the estimate of its current world and draws a fresh one (a new key) for each proposal: the
pseudo-marginal method, whose worlds still follow prior x likelihood exactly. A chain still at
an impossible world (likelihood 0) accepts any proposal (a walk over the prior until it
finds a possible world). The cards of the places no likelihood
reads (the stock) are shuffled afresh in every kept world (an exact draw given the hands).

The kept worlds are equal-weight. Their effective sample size ``chains_ess`` is the
multi-chain ESS of the kept worlds' log-likelihood trace (between- and within-chain variance,
autocorrelations summed by Geyer's initial monotone sequence; as Stan computes it), capped at
the number of worlds kept: how many independent posterior worlds the chains are worth for the
statistic that moves slowest when the chains stick. Kept worlds still at likelihood 0 make ESS 0.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from sim.apps.analysis.mcmc_nb import propose_swap, shuffle_cold, swappable
from sim.apps.analysis.weighted import INFER_CHAINS, INFER_METHOD, INFER_METHODS, AnalysisInputError
from sim.core.rng_nb import rand_float, stream_key

STREAM_CHAIN = 1 << 23  # chain c's proposals and acceptances: stream (seed, c, STREAM_CHAIN)
KEY_PROPOSAL = 1 << 32  # the likelihood streams of chain c's t-th proposal: key KEY_PROPOSAL + c * 2**24 + t


@dataclass
class Chains:
    """What the chains kept: pools (world x unseen card), their log-likelihoods (chain x kept)."""

    pools: np.ndarray
    loglik: np.ndarray
    accepted: float  # share of proposals accepted
    ess: float
    steps: int  # swap steps made (likelihoods computed)


def run_chains(starts: np.ndarray, start_ll: np.ndarray, place: np.ndarray, hot: np.ndarray,
               loglik: Callable[[np.ndarray, int], float], per_chain: int, burn: int, thin: int,
               seed: int) -> Chains:
    """Run one chain from each row of ``starts`` (its log-likelihood ``start_ll``), keeping
    ``per_chain`` worlds each after ``burn`` steps, one every ``thin`` steps (module docstring)."""
    if per_chain < 1 or burn < 0 or thin < 1:
        raise ValueError(f"chains need per_chain >= 1, burn >= 0, thin >= 1 (got {per_chain}, {burn}, {thin})")
    place = np.ascontiguousarray(place, dtype=np.int64)
    hot = np.ascontiguousarray(hot, dtype=np.bool_)
    moving = swappable(place, hot)
    n_c, u = starts.shape
    pools = np.empty((n_c * per_chain, u), np.int64)
    trace = np.empty((n_c, per_chain))
    accepted = 0
    idx = np.empty(u, np.int64)
    for c in range(n_c):
        rng = np.array([stream_key(np.int64(seed), np.int64(c), np.int64(STREAM_CHAIN))], np.uint64)
        cur, ll = starts[c].astype(np.int64).copy(), float(start_ll[c])
        new = np.empty(u, np.int64)
        t = 0
        for k in range(burn + per_chain * thin):
            if moving:
                propose_swap(cur, place, hot, rng, new)
                ll_new = loglik(new, KEY_PROPOSAL + c * (1 << 24) + t)
                t += 1
                if ll == -np.inf or (ll_new > -np.inf and np.log(rand_float(rng)) < ll_new - ll):
                    cur, new, ll = new, cur, ll_new
                    accepted += 1
            if k >= burn and (k - burn + 1) % thin == 0:
                j = (k - burn + 1) // thin - 1
                pools[c * per_chain + j] = cur
                shuffle_cold(pools[c * per_chain + j], place, hot, rng, idx)
                trace[c, j] = ll
    steps = n_c * (burn + per_chain * thin) if moving else 0
    return Chains(pools, trace, accepted / steps if steps else 0.0, chains_ess(trace), steps)


def chain_states(starts: list, place: np.ndarray, hot: np.ndarray, state_of: Callable[[np.ndarray], np.ndarray],
                 one_loglik: Callable[[np.ndarray, int], float], histories: int, samples: int, burn: int,
                 thin: int, seed: int) -> tuple[np.ndarray, Chains]:
    """``samples`` worlds (full states, one a row) of chains started at the pools ``starts``: a
    pool's likelihood is the mean of ``histories`` estimates ``one_loglik(state_of(pool), key)``
    (each game's world_loglik; more than one: a less noisy unbiased estimate), the chains are
    run_chains', and the last chain's extra worlds are not kept (the ESS is capped at ``samples``)."""
    chains, u = len(starts), len(starts[0])

    def loglik(p: np.ndarray, key: int) -> float:
        st = state_of(p)
        return log_mean_exp([one_loglik(st, key * histories + h) for h in range(histories)])

    start_ll = np.array([loglik(p, c) for c, p in enumerate(starts)])
    out = run_chains(np.array(starts).reshape(chains, u), start_ll, place, hot, loglik, -(-samples // chains),
                     burn, thin, seed)
    states = np.array([state_of(p).copy() for p in out.pools[:samples]])
    out.ess = min(out.ess, float(samples))
    return states, out


__all__ = ["INFER_CHAINS", "INFER_METHOD", "INFER_METHODS", "Chains", "chain_states", "chains_ess",
           "check_infer_method", "log_mean_exp", "run_chains"]


def check_infer_method(method: str, chains: tuple[int, int, int]) -> None:
    """Refuse, in one line (AnalysisInputError), an unknown ``--infer-method`` or chain sizes
    that cannot run (chains >= 1, burn-in >= 0, thinning >= 1)."""
    if method not in INFER_METHODS:
        raise AnalysisInputError(f"--infer-method must be one of {', '.join(INFER_METHODS)}, got {method!r}")
    n, burn, thin = chains
    if n < 1 or burn < 0 or thin < 1:
        raise AnalysisInputError(f"--infer-chains >= 1, --infer-burn >= 0 and --infer-thin >= 1 are needed, got "
                                 f"{n}, {burn}, {thin}")


def log_mean_exp(values) -> float:
    """log(mean(exp(values))): the log of the mean of several unbiased likelihood estimates given
    as logs (one value: itself; all -inf: -inf)."""
    v = np.asarray(values, dtype=float)
    top = float(v.max())
    if v.size == 1 or not np.isfinite(top):
        return top
    return float(top + np.log(np.mean(np.exp(v - top))))


def chains_ess(trace: np.ndarray) -> float:
    """Multi-chain effective sample size of ``trace`` (chains x draws; module docstring): 0 if a
    draw is -inf, the number of draws when the trace does not vary at all, the number of chains
    when each has fewer than 4 draws (too few to see their autocorrelation)."""
    x = np.asarray(trace, dtype=float)
    m, n = x.shape
    if not np.isfinite(x).all():
        return 0.0
    if n < 4:
        return float(m)
    xc = x - x.mean(axis=1, keepdims=True)
    acov = np.array([(xc[:, : n - t] * xc[:, t:]).sum(axis=1) / n for t in range(n)]).T  # chain x lag
    w = float((acov[:, 0] * n / (n - 1)).mean())
    b_n = float(x.mean(axis=1).var(ddof=1)) if m > 1 else 0.0
    var_plus = (n - 1) / n * w + b_n
    if var_plus <= 0.0:
        return float(m * n)
    rho = 1.0 - (w - acov.mean(axis=0)) / var_plus
    tau, prev = -1.0, np.inf
    for k in range(0, n - 1, 2):
        pair = rho[k] + rho[k + 1]
        if pair <= 0.0:
            break
        pair = min(pair, prev)  # initial monotone sequence
        tau += 2.0 * pair
        prev = pair
    return float(min(m * n, m * n / max(tau, 1e-12)))
