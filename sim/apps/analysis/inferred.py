"""The worlds ``--infer POLICY`` gives a decision analysis (any game): importance weights or chains.

A game's decisions.py says what its inference reads (:class:`Evidence`: the policy, how many
recorded choices of the other seats, in words) and hands over two functions of its infer.py:
``loglik()`` (the log-likelihood of uniform worlds 0..samples-1) and ``chains(n, burn, thin)``
(equal-weight worlds from Metropolis-Hastings chains and their ``Chains``). Here, once for every
game: the timing, the effective-sample-size floor below which the inference fails (one line, no
fallback to uniform worlds) and the description every answer carries (``inference``, its text
and the sampler words of ``worlds_are``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from sim.apps.analysis.weighted import AnalysisInputError, posterior

MCMC_SAMPLER = "; then moved by Metropolis-Hastings chains towards the other seats' recorded choices (worlds_are)"
WEIGHTED_SAMPLER = "; then weighted by the other seats' recorded choices (worlds_are)"


@dataclass(frozen=True)
class Evidence:
    """What an inference reads, for its messages: ``where`` (the decision), ``policy`` (its name),
    ``choices`` recorded choices of the other seats, ``what`` they are in words (e.g. "draws and
    discards"), the ``tremble`` and a ``note`` after it (e.g. "; seats out of the deal not read")."""

    where: str
    policy: str
    choices: int
    what: str
    tremble: float
    note: str = ""


def sampler_words(inference: dict) -> str:
    """The words ``worlds_are`` adds for an inference: weighted or moved by chains."""
    return MCMC_SAMPLER if inference.get("method") == "mcmc" else WEIGHTED_SAMPLER


def by_weights(ev: Evidence, samples: int, ess_floor: float,
               loglik: Callable[[], np.ndarray]) -> tuple[np.ndarray, dict]:
    """(normalised weights, description) of worlds 0..samples-1 weighted by ``loglik()``;
    AnalysisInputError when their ESS is below ``ess_floor``."""
    t0 = time.perf_counter()
    ll = loglik()
    secs = time.perf_counter() - t0
    weights, n_eff, possible = posterior(ll, ess_floor)
    if weights is None:
        raise AnalysisInputError(f"{ev.where}: inference failed: effective sample size {n_eff:.1f} of {samples} "
                                 f"worlds ({possible} possible) is below the floor {ess_floor:g}; give more "
                                 "--samples, a larger --tremble or no --infer (no fallback to uniform worlds)")
    text = (f"worlds weighted by {ev.policy}'s likelihood of the other seats' {ev.choices} recorded {ev.what} "
            f"(tremble {ev.tremble:g}{ev.note}), ESS {n_eff:.1f} of {samples}")
    return weights, {"policy": ev.policy, "tremble": ev.tremble, "choices": ev.choices, "ess": n_eff,
                     "worlds": samples, "possible_worlds": possible, "ess_floor": ess_floor,
                     "seconds": round(secs, 3), "text": text}


def by_chains(ev: Evidence, samples: int, ess_floor: float, chains: tuple[int, int, int],
              run: Callable[[int, int, int], tuple]) -> tuple[np.ndarray, dict]:
    """(worlds, description): ``samples`` equal-weight worlds of ``run(n_chains, burn, thin)``
    (the game's chain_worlds: states and their Chains); AnalysisInputError when their ESS is
    below ``ess_floor``."""
    n_chains, burn, thin = min(chains[0], samples), chains[1], chains[2]
    t0 = time.perf_counter()
    states, ch = run(n_chains, burn, thin)
    secs = time.perf_counter() - t0
    if ch.ess < ess_floor:
        raise AnalysisInputError(f"{ev.where}: inference failed: effective sample size {ch.ess:.1f} of {samples} "
                                 f"chain worlds is below the floor {ess_floor:g} (acceptance {ch.accepted:.2f}); "
                                 "give more --infer-thin or --infer-burn, a larger --tremble or no --infer (no "
                                 "fallback to uniform worlds)")
    text = (f"worlds drawn from {ev.policy}'s posterior given the other seats' {ev.choices} recorded {ev.what} "
            f"(tremble {ev.tremble:g}{ev.note}) by {n_chains} Metropolis-Hastings chains (burn-in {burn}, "
            f"thinning {thin}, acceptance {ch.accepted:.2f}), ESS {ch.ess:.1f} of {samples}")
    return states, {"policy": ev.policy, "tremble": ev.tremble, "choices": ev.choices, "method": "mcmc",
                    "ess": ch.ess, "worlds": samples, "chains": n_chains, "burn": burn, "thin": thin,
                    "acceptance": round(ch.accepted, 4), "steps": ch.steps, "ess_floor": ess_floor,
                    "seconds": round(secs, 3), "text": text}
