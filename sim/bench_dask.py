"""``rummy-sim bench --backend dask``: the Dask backend against a local run (issue 11).

The same match (greedy vs random, default chunks, per-play file written) is run locally on
one numba thread, then on LocalClusters of 1 and 2 single-threaded worker processes on this
machine (each cluster started, and its workers' kernels loaded from the numba cache by a
tiny warm-up chunk, before the clock starts). Reported: deals/s of each, the speed-up of two
workers over one (target >= 1.8x), the Dask run's overhead over the local one with the same
single thread of play (target <= 10% at 1,000,000 deals), that overhead per chunk, and the
round trip of a tiny chunk (scheduling and transfer without play). The machine's load average
is reported with the figures: on a shared machine other processes' work shows up in them, so
the CPU seconds of the workers and of the client (which the load barely changes) are given too.
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable

DASK_DEALS = 1_000_000
DASK_QUICK_DEALS = 20_000
QUICK_CHUNK = 2_000  # --quick: ten chunks, so two workers have something to share
SPECS = ("greedy", "random")
SEED = 2026
TARGET_SPEEDUP = 1.8
TARGET_OVERHEAD = 0.10


def _timed_run(exp, out: Path, client=None, **options) -> tuple[float, float, float, dict]:
    """(wall, this process's CPU, the workers' CPU, stage timings) seconds of one run."""
    from sim.runner import run_experiment

    out.unlink(missing_ok=True)
    before = client.run(time.process_time) if client is not None else {}
    t0, c0 = time.perf_counter(), time.process_time()
    if client is not None:
        options = {**options, "backend": "dask", "scheduler": client}
    result = run_experiment(exp, out=out, progress=False, **options)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    after = client.run(time.process_time) if client is not None else {}
    workers_cpu = sum(after[w] - before[w] for w in after if w in before)
    out.unlink()
    return wall, cpu, workers_cpu, dict(result.timings or {})


def _warm_worker(exp_json: str) -> float:
    """Run on each worker: play a tiny chunk, so its kernels are loaded (from the numba cache)."""
    from sim.runner.dask_backend import chunk_task

    t0 = time.perf_counter()
    exp = json.loads(exp_json)
    chunk_task(exp_json, exp["first_deal"], exp["first_deal"] + exp["deals"])
    return time.perf_counter() - t0


def _round_trip(client, exp, repeats: int = 15) -> float:
    """Median seconds of one tiny chunk (2 deals) through the cluster minus the same chunk here."""
    from sim.runner.dask_backend import DaskChunks
    from sim.runner.keep import compute_chunk

    start, stop = exp.first_deal, exp.first_deal + 2 * exp.rules.deals_per_game
    remote, here = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        chunks = DaskChunks(exp.with_deals(stop - start), [(start, stop)], scheduler=client)
        try:
            chunks.get(start, stop)
        finally:
            chunks.close()
        remote.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        compute_chunk(exp, start, stop, threads=1)
        here.append(time.perf_counter() - t0)
    return statistics.median(remote) - statistics.median(here)


def run_dask_bench(deals: int | None = None, quick: bool = False,
                   progress: Callable[[str], None] | None = None) -> dict:
    """Measure (see module doc); returns the ``bench --backend dask --json`` object."""
    from distributed import Client, LocalCluster

    from sim.experiment import match

    say = progress or (lambda msg: None)
    n = DASK_QUICK_DEALS if quick else deals or DASK_DEALS
    exp = match(*SPECS, n, SEED, chunk=QUICK_CHUNK if quick else 0)
    warm = exp.with_deals(2 * exp.rules.deals_per_game)
    load_before = os.getloadavg()
    result: dict = {"deals": n, "chunks": len(exp.chunks()), "chunk_deals": exp.chunk,
                    "plays_per_deal": exp.plays_per_deal, "cpu_count": os.cpu_count()}
    with tempfile.TemporaryDirectory(prefix="rummy-bench-dask-") as tmp:
        out = Path(tmp) / "bench.parquet"
        _timed_run(warm, out, threads=1)
        say(f"local, 1 thread: {n:,} deals")
        local_wall, local_cpu, _, _ = _timed_run(exp, out, threads=1)
        result["local_wall_s"] = round(local_wall, 3)
        result["local_cpu_s"] = round(local_cpu, 3)
        result["local_deals_per_s"] = round(n / local_wall, 1)
        for workers in (1, 2):
            say(f"dask, {workers} worker(s): starting a LocalCluster")
            t0 = time.perf_counter()
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                                   silence_logs=40)
            client = Client(cluster)
            try:
                client.wait_for_workers(workers, timeout=120)
                client.run(_warm_worker, json.dumps(warm.to_dict()))  # every worker loads its kernels now
                result[f"dask{workers}_startup_s"] = round(time.perf_counter() - t0, 3)
                if workers == 1:
                    result["tiny_chunk_round_trip_s"] = round(_round_trip(client, exp), 4)
                say(f"dask, {workers} worker(s): {n:,} deals")
                wall, cpu, wcpu, t = _timed_run(exp, out, client)
                result[f"dask{workers}_wall_s"] = round(wall, 3)
                result[f"dask{workers}_client_cpu_s"] = round(cpu, 3)
                result[f"dask{workers}_workers_cpu_s"] = round(wcpu, 3)
                result[f"dask{workers}_deals_per_s"] = round(n / wall, 1)
                result[f"dask{workers}_gather_wait_s"] = round(t.get("gather_wait", 0.0), 3)
            finally:
                client.close()
                cluster.close()
    result["speedup_2_vs_1"] = round(result["dask1_wall_s"] / result["dask2_wall_s"], 3)
    result["overhead_vs_local"] = round(result["dask1_wall_s"] / local_wall - 1.0, 4)
    result["overhead_per_chunk_s"] = round((result["dask1_wall_s"] - local_wall) / result["chunks"], 4)
    # load-independent view: CPU seconds spent (workers + client) against the local run's
    result["cpu_overhead_vs_local"] = round(
        (result["dask1_workers_cpu_s"] + result["dask1_client_cpu_s"]) / local_cpu - 1.0, 4)
    result["cpu_per_deal_2_vs_1"] = round(result["dask2_workers_cpu_s"] / max(result["dask1_workers_cpu_s"], 1e-9), 3)
    result["load_average_before"] = [round(x, 2) for x in load_before]
    result["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    result["targets"] = {"speedup_2_vs_1>=1.8": result["speedup_2_vs_1"] >= TARGET_SPEEDUP,
                         "overhead_vs_local<=10%": result["overhead_vs_local"] <= TARGET_OVERHEAD}
    return result


def format_dask(r: dict) -> str:
    """The human-readable table of :func:`run_dask_bench`'s result."""
    ok = {True: "met", False: "NOT met"}
    lines = [
        f"Dask backend, greedy vs random, {r['deals']:,} deals in {r['chunks']} chunks of {r['chunk_deals']:,} "
        f"({r['plays_per_deal']} plays per deal), per-play file written",
        f"  local, 1 numba thread      {r['local_deals_per_s']:>10,.0f} deals/s  ({r['local_wall_s']:.1f} s)",
        f"  dask, 1 worker x 1 thread  {r['dask1_deals_per_s']:>10,.0f} deals/s  ({r['dask1_wall_s']:.1f} s; "
        f"cluster start + kernels from cache {r['dask1_startup_s']:.1f} s, not counted)",
        f"  dask, 2 workers x 1 thread {r['dask2_deals_per_s']:>10,.0f} deals/s  ({r['dask2_wall_s']:.1f} s)",
        f"  2 workers vs 1: {r['speedup_2_vs_1']:.2f}x (target >= {TARGET_SPEEDUP}x: "
        f"{ok[r['targets']['speedup_2_vs_1>=1.8']]})",
        f"  dask (1 worker) vs local: {100 * r['overhead_vs_local']:+.1f}% (target <= {100 * TARGET_OVERHEAD:.0f}%: "
        f"{ok[r['targets']['overhead_vs_local<=10%']]}), {r['overhead_per_chunk_s']:+.3f} s per chunk; "
        f"a tiny chunk's round trip {1000 * r['tiny_chunk_round_trip_s']:.1f} ms",
        f"  CPU seconds: local {r['local_cpu_s']:.1f}; dask 1 worker {r['dask1_workers_cpu_s']:.1f} on the worker + "
        f"{r['dask1_client_cpu_s']:.1f} on the client ({100 * r['cpu_overhead_vs_local']:+.1f}%); 2 workers "
        f"{r['dask2_workers_cpu_s']:.1f} + {r['dask2_client_cpu_s']:.1f} (workers' CPU x{r['cpu_per_deal_2_vs_1']:.2f} "
        "of one worker's for the same deals)",
        f"  load average before {r['load_average_before']}, after {r['load_average_after']} "
        f"on {r['cpu_count']} cores (other processes' work shows in every figure)",
    ]
    return "\n".join(lines) + "\n"
