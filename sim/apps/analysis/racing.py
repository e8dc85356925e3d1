"""Worlds in batches with early elimination: a race between a decision's candidates (any game).

``race`` asks a game's sampler for the scores of the surviving candidates in worlds
``[start, stop)``, batch after batch, until ``samples`` worlds or until the best
candidate is separated from every other one.

Elimination rule (a Bonferroni-adjusted paired race). After each batch, once
``min_samples`` worlds are in, let b be the surviving candidate with the highest
mean. A candidate c is eliminated when the one-sided upper confidence bound of the
paired mean difference c - b (Student-t, over the worlds both saw) is below 0 at
level ``1 - alpha / ((K - 1) * L)``, K the number of candidates raced and L the
largest number of looks (batches) the race can take. By the union bound over
candidates and looks, the chance that a candidate which is really at least as good
as the leader gets eliminated somewhere in the race is at most ``alpha``. Candidates
in ``keep`` (the move actually played) are never eliminated, but stop nothing: the
race ends when every other survivor is separated from the leader (eliminated) or
when the worlds run out.

A pilot ``top`` (the "cheap prior"): with ``top`` = M > 0 and more than M candidates,
the first batch is played by all of them and only the M best by that batch's mean
(plus ``keep``) go on; the pilot's own worlds stay in the result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from scipy import stats as sps

Sampler = Callable[[np.ndarray, int, int], np.ndarray]  # (candidate indices, start, stop) -> (stop-start, len)


@dataclass
class RaceResult:
    """Scores (world x candidate, NaN after a candidate left the race) and who is still in."""

    scores: np.ndarray
    alive: np.ndarray
    looks: int
    worlds: int
    stopped_early: bool
    pruned: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))  # left after the pilot


def _upper_bound(d: np.ndarray, level: float) -> float:
    """One-sided upper confidence bound of the mean of ``d`` at ``level`` (Student-t)."""
    n = d.size
    m = float(d.mean())
    if n < 2:
        return float("inf")
    sd = float(d.std(ddof=1))
    if sd == 0.0:
        return m
    return m + float(sps.t.ppf(level, n - 1)) * sd / np.sqrt(n)


def race(sample: Sampler, n_candidates: int, samples: int = 1000, batch: int = 100, alpha: float = 0.05,
         min_samples: int = 100, keep: tuple[int, ...] = (), top: int = 0, racing: bool = True,
         progress: Callable[[int, int], None] | None = None) -> RaceResult:
    """Run the race; see the module docstring for the rule.

    ``sample(cands, start, stop)`` returns the (stop - start, len(cands)) scores of
    candidates ``cands`` in worlds start..stop-1; it must give a candidate the same value
    in a world whatever else is asked with it. ``racing=False`` plays every candidate in
    every world.
    """
    _check_race_args(n_candidates, samples, batch, alpha)
    scores = np.full((samples, n_candidates), np.nan)
    alive = np.ones(n_candidates, dtype=bool)
    pruned = np.zeros(n_candidates, dtype=bool)
    keep_mask = np.zeros(n_candidates, dtype=bool)
    keep_mask[list(keep)] = True
    looks_max = -(-samples // batch)
    level = 1.0 - alpha / (max(1, n_candidates - 1) * looks_max)
    start, looks, early = 0, 0, False
    while start < samples:
        stop = min(samples, start + batch)
        idx = np.flatnonzero(alive)
        block = np.asarray(sample(idx, start, stop), dtype=float)
        if block.shape != (stop - start, idx.size):
            raise RuntimeError(f"sampler returned shape {block.shape}, expected {(stop - start, idx.size)}")
        scores[start:stop, idx] = block
        start = stop
        looks += 1
        if progress is not None:
            progress(start, samples)
        if looks == 1 and 0 < top < alive.sum():
            raced = _keep_top(scores[:start], alive, pruned, keep_mask, top)
            level = 1.0 - alpha / (max(1, raced - 1) * looks_max)
        if not racing or start < min_samples or alive.sum() <= 1:
            if racing and alive.sum() <= 1:
                early = start < samples
                break
            continue
        if _drop_beaten(scores[:start], alive, keep_mask, level) and start < samples:
            early = True
            break
    return RaceResult(scores[:start], alive, looks, start, early, pruned)


def _check_race_args(n_candidates: int, samples: int, batch: int, alpha: float) -> None:
    if n_candidates < 1:
        raise ValueError("no candidates to compare")
    if samples < 1 or batch < 1:
        raise ValueError(f"samples and batch must be >= 1, got {samples} and {batch}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")


def _keep_top(scores: np.ndarray, alive: np.ndarray, pruned: np.ndarray, keep_mask: np.ndarray,
              top: int) -> int:
    """After the first batch keep the ``top`` best means (and the kept candidates); the number
    still racing."""
    means = np.nanmean(scores, axis=0)
    order = [c for c in np.argsort(-means, kind="stable") if not keep_mask[c]]
    for c in order[top:]:
        alive[c] = False
        pruned[c] = True
    return int(alive.sum())


def _drop_beaten(scores: np.ndarray, alive: np.ndarray, keep_mask: np.ndarray, level: float) -> bool:
    """Drop every candidate whose paired difference to the leader is below 0 at ``level`` (the
    kept ones stay); True when every other candidate was beaten (the leader is separated)."""
    means = scores[:, alive].mean(axis=0)
    lead = int(np.flatnonzero(alive)[int(np.argmax(means))])
    separated = True
    for c in np.flatnonzero(alive):
        if c == lead:
            continue
        if _upper_bound(scores[:, c] - scores[:, lead], level) < 0.0:
            if not keep_mask[c]:
                alive[c] = False
        else:
            separated = False
    return separated
