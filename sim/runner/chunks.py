"""One chunk of an experiment: the per-play rows of a deal range, and its statistics.

A chunk is a pure function of (experiment, deal range), so any process or machine can
compute it.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from sim.runner.aggregate import ChunkStats, chunk_stats
from sim.experiment import Experiment
from sim.runner.frames import Block, Schema, plays_frame


def play_chunk(exp: Experiment, start: int, stop: int, threads: int | None = None,
               schema: Schema | None = None, timings: dict | None = None, check: bool = False) -> pd.DataFrame:
    """Per-play rows of deals ``start .. stop-1``: pairing by pairing, rotation by rotation.

    ``timings`` (optional) accumulates seconds under "engine" and "frames"; ``check`` plays
    user strategies bounds-checked (``--check-strategies``: slower, the same rows)."""
    if not (exp.first_deal <= start < stop <= exp.last_deal):
        raise ValueError(f"deal range {start}..{stop} is outside the experiment's {exp.first_deal}..{exp.last_deal}")
    idx = np.arange(start, stop, dtype=np.int64)
    blocks = []
    t0 = time.perf_counter()
    game = exp.game_spec
    for p in range(len(exp.pairings)):
        for r in range(exp.rotations(p)):
            specs = exp.seating(p, r).specs
            blocks.append(Block(p, r, game.run_deals(specs, idx, exp.seed, exp.rules, threads, check=check).results))
    t1 = time.perf_counter()
    frame = plays_frame(schema or Schema(exp), blocks)
    if timings is not None:
        timings["engine"] = timings.get("engine", 0.0) + t1 - t0
        timings["frames"] = timings.get("frames", 0.0) + time.perf_counter() - t1
    return frame


def stats_of_frame(exp: Experiment, start: int, stop: int, plays: pd.DataFrame) -> ChunkStats:
    """The chunk's statistics from its per-play rows (at least the columns ``stats_columns(exp)``)."""
    cs = chunk_stats(exp, start, stop, plays["pairing"].to_numpy(), plays["rotation"].to_numpy(),
                     plays["deal"].to_numpy(), plays["a_total"].to_numpy(), plays["b_total"].to_numpy(),
                     plays["end"].cat.codes.to_numpy())
    cs.figures = exp.game_spec.chunk_figures(exp, plays)  # the game's own figures (None for most games)
    return cs
