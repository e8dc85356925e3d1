"""Every deals/s cell measured ``repeat`` times round robin, and the median of its runs.

The runs go round robin (every cell once, then every cell again), so load that drifts during
the bench hits all cells alike. A cell's figure is the median of its runs; the runs, their
minimum and maximum are kept beside it (``spread``: the ``deals_per_s*`` keys of the JSON).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

import numpy as np

from sim.apps.bench.machine import load_average

Key = Hashable


def check_repeat(repeat: int) -> int:
    """``repeat`` if it is a positive integer (runs per deals/s cell), else a ValueError."""
    if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat <= 0:
        raise ValueError(f"--repeat must be a positive integer, got {repeat}")
    return repeat


def round_robin(cells: Sequence[tuple[Key, str, Callable[[], float]]], repeat: int,
                progress: Callable[[str], None] | None = None,
                loads: list[float | None] | None = None) -> dict[Key, list[float]]:
    """Run every cell ``(key, label, measure)`` once, then every cell again, ``repeat`` rounds
    in all; return each key's results in the order measured. Interleaving the runs of one
    cell with those of the others spreads drifting machine load over every cell alike.
    ``loads``, if given, gets the 1-minute load average at the start of each round."""
    say = progress or (lambda msg: None)
    runs: dict[Key, list[float]] = {key: [] for key, _, _ in cells}
    for r in range(check_repeat(repeat)):
        if loads is not None:
            loads.append(load_average())
        for key, label, measure in cells:
            say(label + (f" (round {r + 1} of {repeat})" if repeat > 1 else "") + " ...")
            runs[key].append(float(measure()))
    return runs


def nest(runs: dict[tuple, list[float]]) -> dict:
    """``{(a, b, c): runs}`` -> ``{a: {b: {c: runs}}}`` (keys as given, insertion order kept)."""
    out: dict = {}
    for key, values in runs.items():
        node = out
        for k in key[:-1]:
            node = node.setdefault(k, {})
        node[key[-1]] = values
    return out


def _runs(leaf: float | Sequence[float]) -> list[float]:
    """A cell's runs: one number is one run."""
    return [float(leaf)] if isinstance(leaf, (int, float)) else [float(x) for x in leaf]


def _map_leaves(tree: dict, fn: Callable[[list[float]], object]) -> dict:
    return {k: _map_leaves(v, fn) if isinstance(v, dict) else fn(_runs(v)) for k, v in tree.items()}


def spread(speeds: dict) -> dict:
    """The four deals/s keys of the bench JSON from a tree of cells (nested dicts whose
    leaves are a cell's runs, or one number for a single run): ``deals_per_s`` the median
    of each cell (the figure the targets use), ``deals_per_s_min`` / ``_max`` its extremes,
    ``deals_per_s_runs`` every run in the order measured; plus ``repeat``, the most runs
    of any cell. Figures rounded to 0.1 deals/s (0.01 below 100 deals/s: the searches)."""
    def r1(x: float) -> float:
        return round(float(x), 1 if abs(x) >= 100 else 2)

    counts: list[int] = []
    _map_leaves(speeds, lambda xs: counts.append(len(xs)))
    return {
        "deals_per_s": _map_leaves(speeds, lambda xs: r1(np.median(xs))),
        "deals_per_s_min": _map_leaves(speeds, lambda xs: r1(min(xs))),
        "deals_per_s_max": _map_leaves(speeds, lambda xs: r1(max(xs))),
        "deals_per_s_runs": _map_leaves(speeds, lambda xs: [r1(x) for x in xs]),
        "repeat": max(counts, default=1),
    }
