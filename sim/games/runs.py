"""What every game's engine wrapper shares: seeds, deal indices, threads, strategy errors.

A game's ``engine.py`` validates its input with these, runs its compiled
``play_deals`` and raises :class:`StrategyError` when a strategy answered illegally.
"""

from __future__ import annotations

import os

import numba
import numpy as np

MAX_SEED = 2**63 - 1


class StrategyError(ValueError):
    """A strategy returned an illegal move. ``results`` keeps every finished deal."""

    def __init__(self, message: str, results: np.ndarray):
        super().__init__(message)
        self.results = results


def check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"seed {seed!r} is not an integer")
    if not 0 <= int(seed) <= MAX_SEED:
        raise ValueError(f"seed {seed} is outside [0, 2**63 - 1]")
    return int(seed)


def deal_indices(deals) -> np.ndarray:
    """Deal indices from a count, a range or an array (validated, int64)."""
    if isinstance(deals, (int, np.integer)) and not isinstance(deals, bool):
        if deals <= 0:
            raise ValueError(f"number of deals must be positive, got {deals}")
        return np.arange(int(deals), dtype=np.int64)
    arr = np.ascontiguousarray(np.asarray(deals, dtype=np.int64))
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError("deals must be a positive count or a non-empty 1-D list of deal indices")
    if (arr < 0).any():
        raise ValueError("deal indices must be non-negative")
    return arr


def set_threads(threads: int | None) -> int:
    """Use ``threads`` numba threads (None: all cores); returns the count in force."""
    top = numba.config.NUMBA_NUM_THREADS
    if threads is None:
        threads = top
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
        raise ValueError(f"threads must be a positive integer, got {threads!r}")
    threads = min(int(threads), top)
    if os.environ.get("NUMBA_DISABLE_JIT") != "1":
        numba.set_num_threads(threads)
    return threads


