"""What the two profile scripts (profile_persian.py, profile_indian.py) share around their
game-specific profiled deal loops: running that loop and the engine on the same deals,
turning the tick sums into each part's share and CPU ns per deal, and timing the
runner's per-play frame."""

from __future__ import annotations

import time
from typing import Callable

import numpy as np

from benchmarks.cycles import timer_cost


def measure_parts(profiled_deals, engine_rows: Callable[[int], np.ndarray], label: str, seed: int, deals: int,
                  rules, sids, params, fns, n_cols: int, parts: tuple[str, ...], warm: int) -> dict:
    """Play deals 0..deals-1 with the timed loop ``profiled_deals`` and with the engine
    (``engine_rows(n)``: the engine's result rows of deals 0..n-1 on one thread), both
    warmed first on ``warm`` deals; raise if the two disagree (the loop must play the
    engine's deals). Returns the engine's rows (``rows``), the segment counts per part
    (``cnt``), the timer's own cost in ticks, the process CPU seconds of both runs and
    ``parts``: per part its share of the ticks (timer cost subtracted) and that share of
    the engine's CPU time per deal in ns."""
    idx = np.arange(deals, dtype=np.int64)
    n_parts = len(parts)
    warm = min(deals, warm)
    profiled_deals(seed, idx[:warm], rules, sids, params, fns, np.zeros((warm, n_cols), np.int64),
                   np.zeros(n_parts, np.uint64), np.zeros(n_parts, np.int64))
    engine_rows(warm)
    res = np.zeros((deals, n_cols), np.int64)
    acc = np.zeros(n_parts, np.uint64)
    cnt = np.zeros(n_parts, np.int64)
    overhead = int(timer_cost(100_000))
    c0 = time.process_time()
    profiled_deals(seed, idx, rules, sids, params, fns, res, acc, cnt)
    cpu = time.process_time() - c0
    c0 = time.process_time()
    rows = engine_rows(deals)
    engine_cpu = time.process_time() - c0
    if not np.array_equal(res, rows):
        raise AssertionError(f"the profiled loop played {label} differently from the engine")
    ticks = np.maximum(acc.astype(np.float64) - overhead * cnt, 0.0)
    share = ticks / ticks.sum()
    return {"rows": rows, "cnt": cnt, "timer_overhead_ticks": overhead, "profiled_cpu_s": cpu,
            "engine_cpu_s": engine_cpu,
            "parts": {p: {"share": float(share[k]), "ns_per_deal": float(share[k] * 1e9 * engine_cpu / deals)}
                      for k, p in enumerate(parts)}}


def frame_seconds_per_deal(spec: str, deals: int, seed: int, game: str, players: int) -> float:
    """Process CPU seconds per deal of building the runner's per-play frame (``spec`` in
    every seat of ``game``) from the engine's raw rows."""
    from sim.experiment import match
    from sim.runner.frames import Block, Schema, plays_frame
    from sim.games import get_game

    exp = match(spec, spec, deals, seed, game=game, players=players)
    raw = get_game(game).run_deals([spec] * players, deals, seed, threads=1).results
    schema = Schema(exp)
    plays_frame(schema, [Block(0, 0, raw[:100])])
    c0 = time.process_time()
    plays_frame(schema, [Block(0, 0, raw)])
    return (time.process_time() - c0) / deals
