"""Speed of `mc_search` (issue 14): deals per second of mc_search x4 at its default
settings, in process CPU time and wall time, repeated.

Run from the repository root of the code to measure (the one on PYTHONPATH):

    PYTHONPATH=$PWD python benchmarks/mc_search_bench.py --deals 12 --repeats 3 --threads 1

On a shared machine the process CPU time is the steadier figure: on one thread
``deals / cpu_s`` is what one core does; ``deals / wall_s`` on all threads is what a user
sees. A warm-up call (2 deals, not timed) compiles or loads the kernels first. ``--spec``
measures another table (e.g. ``mc_search:samples=8``); ``--analyse`` instead times
``analyse_decision`` (one decision, worlds in parallel) on positions of a greedy deal.
"""

from __future__ import annotations

import argparse
import json
import time

import numba
import numpy as np


def mc_deals(spec: str, deals: int, threads: int, seed: int, first: int) -> tuple[float, float, np.ndarray]:
    """(wall s, process CPU s, results) of ``deals`` deals of ``spec`` x4 from deal ``first``."""
    from sim.games.persian.engine import run_deals

    idx = np.arange(first, first + deals, dtype=np.int64)
    w0, c0 = time.perf_counter(), time.process_time()
    run = run_deals([spec] * 4, idx, seed, threads=threads)
    return time.perf_counter() - w0, time.process_time() - c0, run.results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spec", default="mc_search", help="strategy spec in every seat (default: mc_search)")
    ap.add_argument("--deals", type=int, default=12, help="deals per timed run")
    ap.add_argument("--repeats", type=int, default=3, help="timed runs (the same deals each time)")
    ap.add_argument("--threads", type=int, default=1, help="numba threads")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    if args.deals <= 0 or args.repeats <= 0 or args.threads <= 0:
        ap.error("--deals, --repeats and --threads must be positive")
    mc_deals(args.spec, 2, args.threads, args.seed, 10_000)  # warm-up: compile or load the kernels
    walls, cpus = [], []
    first = None
    for _ in range(args.repeats):
        w, c, res = mc_deals(args.spec, args.deals, args.threads, args.seed, 0)
        if first is None:
            first = res
        elif not np.array_equal(first, res):
            raise SystemExit("results differ between repeated runs: not deterministic")
        walls.append(w)
        cpus.append(c)
    out = {
        "spec": args.spec, "deals": args.deals, "threads": args.threads, "seed": args.seed,
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "wall_s": [round(w, 3) for w in walls], "cpu_s": [round(c, 3) for c in cpus],
        "deals_per_s_wall": round(args.deals / min(walls), 2),
        "deals_per_s_cpu": round(args.deals / min(cpus), 2),
        "results_checksum": int(np.abs(first).sum()),
    }
    if args.json:
        print(json.dumps(out))
        return
    print(f"{args.spec} x4, {args.deals} deals, {args.threads} thread(s), seed {args.seed}")
    print(f"  wall s: {out['wall_s']}  -> best {out['deals_per_s_wall']} deals/s")
    print(f"  CPU s:  {out['cpu_s']}  -> best {out['deals_per_s_cpu']} deals per CPU-second of the process")
    print(f"  results checksum {out['results_checksum']} (identical across repeats)")


if __name__ == "__main__":
    main()
