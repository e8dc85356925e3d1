"""Speed of `mc_search` (issue 14): deals per second of mc_search x4 at its default
settings, in process CPU time and wall time, repeated.

Run from the repository root of the code to measure (the one on PYTHONPATH):

    PYTHONPATH=$PWD python benchmarks/mc_search_bench.py --deals 12 --repeats 3 --threads 1

On a shared machine the process CPU time is the steadier figure: on one thread
``deals / cpu_s`` is what one core does; ``deals / wall_s`` on all threads is what a user
sees. A warm-up call (2 deals, not timed) compiles or loads the kernels first. ``--spec``
measures another table (e.g. ``mc_search:samples=8``); ``--analyse W`` instead times
``analyse_decision`` (one decision: every legal move in each of W worlds, the worlds in
parallel over ``--threads``) at the first discard with at least 6 legal moves of a greedy
deal.
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


def analyse(spec: str, worlds: int, threads: int, repeats: int, seed: int) -> dict:
    """Time ``analyse_decision`` on one discard decision (see the module docstring)."""
    from sim.games.persian.engine_nb import shuffled_deck
    from sim.games.persian.position import Position
    from sim.games.persian.rules import RuleOptions
    from sim.games.persian.state_nb import new_state
    from strategies.persian.greedy_nb import greedy_decide
    from strategies.persian.mc_search_nb import P_SAMPLES, analyse_decision
    from sim.plugin.registry import parse_spec

    numba.set_num_threads(threads)
    rules = RuleOptions()
    pos = Position.from_deal(seed, 0, rules)
    pos.st = new_state(shuffled_deck(seed, 0), 0, rules.to_array())
    rng = np.zeros(1, np.uint64)
    phases = ("draw", "play", "discard")
    while True:
        rows = pos.legal_rows()
        if pos.phase == "discard" and len(rows) >= 6:
            break
        if pos.phase == "over":
            raise SystemExit("no discard with 6 legal moves in deal 0: try another --seed")
        i = greedy_decide(phases.index(pos.phase), pos.observation(), rows, len(rows), np.array([30.0]), rng)
        pos.apply_row(rows[int(i)])
    params = parse_spec(spec).param_array()
    params[P_SAMPLES] = worlds
    obs = pos.observation()
    analyse_decision(obs, 2, rows, len(rows), params, seed, 0)  # compile or load
    walls, cpus = [], []
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        analyse_decision(obs, 2, rows, len(rows), params, seed, 0)
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    n = worlds * len(rows)
    return {"analyse_worlds": worlds, "moves": len(rows), "playouts": n, "threads": threads,
            "wall_s": [round(w, 3) for w in walls], "cpu_s": [round(c, 3) for c in cpus],
            "playouts_per_s_wall": round(n / min(walls)), "seconds_per_decision": round(min(walls), 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spec", default="mc_search", help="strategy spec in every seat (default: mc_search)")
    ap.add_argument("--deals", type=int, default=12, help="deals per timed run")
    ap.add_argument("--repeats", type=int, default=3, help="timed runs (the same deals each time)")
    ap.add_argument("--threads", type=int, default=1, help="numba threads")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--analyse", type=int, default=0, metavar="W",
                    help="time analyse_decision with W worlds at one decision instead")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    if args.deals <= 0 or args.repeats <= 0 or args.threads <= 0 or args.analyse < 0:
        ap.error("--deals, --repeats and --threads must be positive (--analyse >= 0)")
    if args.analyse:
        out = analyse(args.spec, args.analyse, args.threads, args.repeats, args.seed)
        print(json.dumps(out) if args.json else "\n".join(f"{k:>22}: {v}" for k, v in out.items()))
        return
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
