"""The experiment runner's overhead over the bare engine (``rummy-sim bench --runner``).

The same deals of greedy vs random (the default game), played by the engine alone and by the
whole runner (chunks, frames, statistics, parquet chunk files and the final file). Runs alternate
E R R E ... so drifting machine load hits both; the overhead compares the fastest run of each, in
wall time and in this process's CPU time (which other processes' load barely touches).
``assemble_runner`` and ``format_runner`` do no measuring.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numba
import numpy as np

from sim.apps.bench.cells import check_deals
from sim.experiment import match
from sim.runner.chunks import play_chunk
from sim.runner.run import run_experiment

RUNNER_SPECS = ("greedy", "random")  # the pairing of the runner benchmark
RUNNER_DEALS = 1_000_000
RUNNER_QUICK_DEALS = 20_000
RUNNER_TARGET = 0.10  # the runner may cost at most 10% on top of the engine
SEED = 2026
def engine_seconds(exp, threads: int | None = None, chunked: bool = True) -> tuple[float, float]:
    """(wall, process CPU) seconds of the bare engine on every play of ``exp``, results thrown
    away: run_deals over each of the runner's chunks in turn (``chunked``, the default) or
    one call per pairing and rotation over all deal indices."""
    ranges = exp.chunks() if chunked else [(exp.first_deal, exp.last_deal)]
    w0, c0 = time.perf_counter(), time.process_time()
    for start, stop in ranges:
        idx = np.arange(start, stop, dtype=np.int64)
        for p in range(len(exp.pairings)):
            for r in range(exp.rotations(p)):
                exp.game_spec.run_deals(exp.seating(p, r).specs, idx, exp.seed, exp.rules, threads)
    return time.perf_counter() - w0, time.process_time() - c0


def runner_seconds(exp, out_dir: Path, threads: int | None = None) -> tuple[float, float, dict, int]:
    """(wall, process CPU, stage timings, file bytes) of the full runner on ``exp`` writing
    its parquet file (chunk files, final file, statistics; no progress bar)."""
    out = out_dir / "bench.parquet"
    out.unlink(missing_ok=True)
    w0, c0 = time.perf_counter(), time.process_time()
    result = run_experiment(exp, out=out, threads=threads, progress=False)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    size = out.stat().st_size
    out.unlink()
    return wall, cpu, dict(result.timings or {}), size


def memory_bytes_per_play(exp, threads: int | None = None, deals: int = 20_000) -> float:
    """In-memory size (pandas, deep) of the per-play rows of the first ``deals`` deals."""
    start = exp.first_deal
    frame = play_chunk(exp, start, min(exp.last_deal, start + deals), threads)
    return float(frame.memory_usage(deep=True).sum()) / len(frame)


def run_runner_bench(deals: int | None = None, quick: bool = False, repeats: int = 3,
                     progress: Callable[[str], None] | None = None) -> dict:
    """Engine alone vs the whole runner on ``deals`` deals (default 1,000,000), ``repeats`` runs of
    each alternating (see the module docstring); the ``bench --runner --json`` object."""
    say = progress or (lambda msg: None)
    check_deals(deals)
    n = RUNNER_QUICK_DEALS if quick else deals or RUNNER_DEALS
    exp = match(*RUNNER_SPECS, n, SEED)
    say("warm-up (compile or load the kernels) ...")
    warm = match(*RUNNER_SPECS, 2_000, SEED)
    engine_seconds(warm)
    engine, runner, timings = [], [], []
    size = 0
    with tempfile.TemporaryDirectory(prefix="rummy-bench-runner-") as tmp:
        runner_seconds(warm, Path(tmp))
        for k in range(repeats):
            for which in (("engine", "runner") if k % 2 == 0 else ("runner", "engine")):
                say(f"{which}: {n:,} deals x {exp.plays_per_deal} rotations (round {k + 1} of {repeats}) ...")
                if which == "engine":
                    engine.append(engine_seconds(exp))
                else:
                    wall, cpu, t, size = runner_seconds(exp, Path(tmp))
                    runner.append((wall, cpu))
                    timings.append(t)
    best = int(np.argmin([w for w, _ in runner]))
    return assemble_runner(n, exp.plays_per_deal, engine, runner, timings[best], size,
                           memory_bytes_per_play(exp), numba.config.NUMBA_NUM_THREADS, exp.chunk)


def assemble_runner(deals: int, plays_per_deal: int, engine: list[tuple[float, float]],
                    runner: list[tuple[float, float]], timings: dict, file_bytes: float,
                    memory_bytes_per_play: float, threads: int, chunk: int) -> dict:
    """The ``bench --runner --json`` object (no measuring: testable with made-up numbers).
    ``engine`` and ``runner`` hold (wall, cpu) seconds per run."""
    ew, ec = min(w for w, _ in engine), min(c for _, c in engine)
    rw, rc = min(w for w, _ in runner), min(c for _, c in runner)
    overhead = rw / ew - 1.0
    return {
        "deals": deals,
        "plays": deals * plays_per_deal,
        "chunk": chunk,
        "threads": threads,
        "engine_wall_s": [round(w, 3) for w, _ in engine],
        "engine_cpu_s": [round(c, 3) for _, c in engine],
        "runner_wall_s": [round(w, 3) for w, _ in runner],
        "runner_cpu_s": [round(c, 3) for _, c in runner],
        "engine_deals_per_s": round(deals / ew, 1),
        "runner_deals_per_s": round(deals / rw, 1),
        "overhead": round(overhead, 4),
        "cpu_overhead": round(rc / ec - 1.0, 4),
        "target": RUNNER_TARGET,
        "pass": bool(overhead <= RUNNER_TARGET),
        "stages_s": {k: round(v, 3) for k, v in timings.items()},
        "file_bytes_per_deal": round(file_bytes / deals, 1),
        "file_bytes_per_play": round(file_bytes / (deals * plays_per_deal), 1),
        "memory_bytes_per_play": round(memory_bytes_per_play, 1),
        "memory_bytes_per_deal": round(memory_bytes_per_play * plays_per_deal, 1),
    }


def format_runner(r: dict) -> str:
    st = r["stages_s"]

    def runs(xs: list[float]) -> str:
        return ", ".join(f"{x:.2f}" for x in xs)

    lines = [
        f"rummy-sim bench --runner: greedy vs random, {r['deals']:,} deals x {r['plays'] // r['deals']} rotations "
        f"= {r['plays']:,} plays, {r['threads']} threads, chunks of {r['chunk']:,} deals",
        f"  engine alone       {min(r['engine_wall_s']):8.2f} s wall  {r['engine_deals_per_s']:>9,.0f} deals/s"
        f"   (wall runs: {runs(r['engine_wall_s'])}; CPU {runs(r['engine_cpu_s'])})",
        f"  runner + parquet   {min(r['runner_wall_s']):8.2f} s wall  {r['runner_deals_per_s']:>9,.0f} deals/s"
        f"   (wall runs: {runs(r['runner_wall_s'])}; CPU {runs(r['runner_cpu_s'])})",
        f"  overhead           {100 * r['overhead']:+7.1f} % wall   target <= {100 * r['target']:.0f} %  "
        f"{'PASS' if r['pass'] else 'MISS'}   ({100 * r['cpu_overhead']:+.1f} % in CPU time)",
        "  runner stages (fastest run; write runs beside the engine): "
        + ", ".join(f"{k} {v:.2f} s" for k, v in st.items() if v),
        f"  results: {r['file_bytes_per_deal']:,.1f} bytes per deal on disk ({r['file_bytes_per_play']:.1f} per play), "
        f"{r['memory_bytes_per_deal']:,.1f} bytes per deal in memory ({r['memory_bytes_per_play']:.1f} per play)",
    ]
    return "\n".join(lines) + "\n"
