"""``rummy-sim bench --backend dask``: the Dask backend against a local run (issue 11).

The same match (greedy vs random, default chunks, result file written) is run for each kept
form (``--keep plays``: the per-play file, 25 MB of rows per 100,000-deal chunk; ``--keep
summary``: a few kilobytes per chunk) locally on one numba thread, then on LocalClusters of 1
and 2 single-threaded worker processes on this machine, started as ``--backend dask`` starts
them (sim.runner.dask_backend.local_cluster). Fairness: nothing of a cluster's start counts;
before its clock starts every worker has loaded its kernels (a tiny chunk run on each worker)
and a small run has gone through the whole path (task, chunk file, gathering, final file), and
the local run gets the same warm-up. The clock covers ``run_experiment`` from call to return,
the same for all three (final file written and closed).

Reported per kept form: deals/s of each, the speed-up of two workers over one (target >= 1.8x),
the Dask run's overhead over the local one with the same single thread of play (target <= 10%
at 1,000,000 deals), that overhead per chunk, the CPU seconds of the workers and of the client
process (the client, and a LocalCluster's scheduler, run in it) in total and per chunk, and the
machine's load average: on a shared machine other processes' work shows in the wall times, far
less in the CPU seconds.
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable

from sim.experiment import match
from sim.runner.dask_backend import QUIET_CONFIG, DaskChunks, chunk_task, local_cluster  # dask itself: when used
from sim.runner.keep import compute_chunk
from sim.runner.run import run_experiment

DASK_DEALS = 1_000_000
DASK_QUICK_DEALS = 20_000
QUICK_CHUNK = 2_000  # --quick: ten chunks, so two workers have something to share
SPECS = ("greedy", "random")
SEED = 2026
TARGET_SPEEDUP = 1.8
TARGET_OVERHEAD = 0.10
KEEPS = ("plays", "summary")


def _timed_run(exp, out: Path, client=None, **options) -> tuple[float, float, float, dict]:
    """(wall, this process's CPU, the workers' CPU, stage timings) seconds of one run."""
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
    t0 = time.perf_counter()
    exp = json.loads(exp_json)
    chunk_task(exp_json, exp["first_deal"], exp["first_deal"] + exp["deals"])
    return time.perf_counter() - t0


def _round_trip(client, exp, repeats: int = 15) -> float:
    """Median seconds of one tiny chunk (2 deals) through the cluster minus the same chunk here."""
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


def _record(block: dict, name: str, n: int, chunks: int, wall: float, cpu: float, wcpu: float | None,
            timings: dict) -> None:
    block[f"{name}_wall_s"] = round(wall, 3)
    block[f"{name}_deals_per_s"] = round(n / wall, 1)
    block[f"{name}_client_cpu_s" if wcpu is not None else f"{name}_cpu_s"] = round(cpu, 3)
    block[f"{name}_client_cpu_per_chunk_s" if wcpu is not None else f"{name}_cpu_per_chunk_s"] = round(cpu / chunks, 4)
    if wcpu is not None:
        block[f"{name}_workers_cpu_s"] = round(wcpu, 3)
        block[f"{name}_gather_wait_s"] = round(timings.get("gather_wait", 0.0), 3)
        block[f"{name}_chunk_files_by_workers"] = timings.get("worker_write", 0.0) > 0.0


def _on_cluster(workers: int, exp, warm, small, out: Path, blocks: dict, result: dict, say) -> None:
    """The runs on a LocalCluster of ``workers``: started and warmed up off the clock (its start
    time kept in ``result``), then ``exp`` once per kept form into ``blocks``."""
    n, chunks = exp.deals, len(exp.chunks())
    say(f"dask, {workers} worker(s): starting a LocalCluster")
    t0 = time.perf_counter()
    cluster, client = local_cluster(workers, timeout=120.0, silence_logs=40)
    try:
        client.wait_for_workers(workers, timeout=120)
        client.run(_warm_worker, json.dumps(warm.to_dict()))  # every worker loads its kernels now
        for keep in blocks:
            _timed_run(small, out, client, keep=keep)  # the whole path once, clock not running
        result[f"dask{workers}_startup_s"] = round(time.perf_counter() - t0, 3)
        if workers == 1:
            result["tiny_chunk_round_trip_s"] = round(_round_trip(client, exp), 4)
        for keep in blocks:
            say(f"dask, {workers} worker(s), --keep {keep}: {n:,} deals")
            wall, cpu, wcpu, t = _timed_run(exp, out, client, keep=keep)
            _record(blocks[keep], f"dask{workers}", n, chunks, wall, cpu, wcpu, t)
    finally:
        client.close()
        cluster.close()


def _compare(r: dict, chunks: int) -> dict:
    """A kept form's block with its ratios and targets added (speed-up, overheads, CPU)."""
    r["speedup_2_vs_1"] = round(r["dask1_wall_s"] / r["dask2_wall_s"], 3)
    r["overhead_vs_local"] = round(r["dask1_wall_s"] / r["local_wall_s"] - 1.0, 4)
    r["overhead_per_chunk_s"] = round((r["dask1_wall_s"] - r["local_wall_s"]) / chunks, 4)
    # load-independent view: CPU seconds spent (workers + client) against the local run's
    r["cpu_overhead_vs_local"] = round((r["dask1_workers_cpu_s"] + r["dask1_client_cpu_s"]) / r["local_cpu_s"]
                                       - 1.0, 4)
    r["workers_cpu_2_vs_1"] = round(r["dask2_workers_cpu_s"] / max(r["dask1_workers_cpu_s"], 1e-9), 3)
    r["targets"] = {"speedup_2_vs_1>=1.8": r["speedup_2_vs_1"] >= TARGET_SPEEDUP,
                    "overhead_vs_local<=10%": r["overhead_vs_local"] <= TARGET_OVERHEAD}
    return r


def run_dask_bench(deals: int | None = None, quick: bool = False,
                   progress: Callable[[str], None] | None = None, keeps: tuple[str, ...] = KEEPS) -> dict:
    """Measure (see module doc); returns the ``bench --backend dask --json`` object."""
    say = progress or (lambda msg: None)
    n = DASK_QUICK_DEALS if quick else deals or DASK_DEALS
    exp = match(*SPECS, n, SEED, chunk=QUICK_CHUNK if quick else 0)
    warm = exp.with_deals(2 * exp.rules.deals_per_game)
    small = match(*SPECS, 400, SEED + 1, chunk=100)  # four tiny chunks through the whole path
    chunks = len(exp.chunks())
    load_before = os.getloadavg()
    result: dict = {"deals": n, "chunks": chunks, "chunk_deals": exp.chunk, "plays_per_deal": exp.plays_per_deal,
                    "cpu_count": os.cpu_count(), "keeps": list(keeps), "dask_config": QUIET_CONFIG}
    blocks: dict[str, dict] = {keep: {} for keep in keeps}
    with tempfile.TemporaryDirectory(prefix="rummy-bench-dask-") as tmp:
        out = Path(tmp) / "bench.parquet"
        _timed_run(warm, out, threads=1)
        _timed_run(small, out, threads=1)
        for keep in keeps:
            say(f"local, 1 thread, --keep {keep}: {n:,} deals")
            wall, cpu, _, t = _timed_run(exp, out, threads=1, keep=keep)
            _record(blocks[keep], "local", n, chunks, wall, cpu, None, t)
        for workers in (1, 2):
            _on_cluster(workers, exp, warm, small, out, blocks, result, say)
    for keep, r in blocks.items():
        result[keep] = _compare(r, chunks)
    result["load_average_before"] = [round(x, 2) for x in load_before]
    result["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    return result


def format_dask(r: dict) -> str:
    """The human-readable table of :func:`run_dask_bench`'s result."""
    ok = {True: "met", False: "NOT met"}
    lines = [f"Dask backend, greedy vs random, {r['deals']:,} deals in {r['chunks']} chunks of {r['chunk_deals']:,} "
             f"({r['plays_per_deal']} plays per deal), result file written; LocalClusters of single-threaded "
             f"workers (cluster start {r['dask1_startup_s']:.1f} s / {r['dask2_startup_s']:.1f} s with warm-up, "
             f"not counted); a tiny chunk's round trip {1000 * r['tiny_chunk_round_trip_s']:.1f} ms"]
    for keep in r["keeps"]:
        b = r[keep]
        lines += [
            f"--keep {keep}:",
            f"  local, 1 numba thread      {b['local_deals_per_s']:>10,.0f} deals/s  ({b['local_wall_s']:.1f} s, "
            f"CPU {b['local_cpu_s']:.1f} s)",
            f"  dask, 1 worker x 1 thread  {b['dask1_deals_per_s']:>10,.0f} deals/s  ({b['dask1_wall_s']:.1f} s, "
            f"CPU {b['dask1_workers_cpu_s']:.1f} s worker + {b['dask1_client_cpu_s']:.2f} s client)",
            f"  dask, 2 workers x 1 thread {b['dask2_deals_per_s']:>10,.0f} deals/s  ({b['dask2_wall_s']:.1f} s, "
            f"CPU {b['dask2_workers_cpu_s']:.1f} s workers + {b['dask2_client_cpu_s']:.2f} s client)",
            f"  2 workers vs 1: {b['speedup_2_vs_1']:.2f}x (target >= {TARGET_SPEEDUP}x: "
            f"{ok[b['targets']['speedup_2_vs_1>=1.8']]}); workers' CPU x{b['workers_cpu_2_vs_1']:.3f} of one "
            "worker's for the same deals",
            f"  dask (1 worker) vs local: {100 * b['overhead_vs_local']:+.1f}% (target <= {100 * TARGET_OVERHEAD:.0f}%:"
            f" {ok[b['targets']['overhead_vs_local<=10%']]}), {b['overhead_per_chunk_s']:+.3f} s per chunk; "
            f"CPU {100 * b['cpu_overhead_vs_local']:+.1f}%",
            f"  client CPU per chunk: {1000 * b['dask1_client_cpu_per_chunk_s']:.0f} ms (1 worker), "
            f"{1000 * b['dask2_client_cpu_per_chunk_s']:.0f} ms (2 workers); local run "
            f"{1000 * b['local_cpu_per_chunk_s']:.0f} ms (play included); chunk files written by the workers: "
            f"{'yes' if b['dask1_chunk_files_by_workers'] else 'no'}",
        ]
    lines.append(f"load average before {r['load_average_before']}, after {r['load_average_after']} "
                 f"on {r['cpu_count']} cores (other processes' work shows in every figure)")
    return "\n".join(lines) + "\n"
