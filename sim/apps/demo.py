"""`make demo` / `rummy-sim demo`: greedy against random on duplicate deals. Prints the
match table, keeps the per-play results as parquet (schema: docs/results.md) and ends
by writing the standard report (sim/present/report/) of that file."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from sim.studies.match import format_summary, play_match
from sim.present.report import write_report


def run_demo(args: argparse.Namespace) -> int:
    deals = getattr(args, "deals", 20_000)
    seed = getattr(args, "seed", 2026)
    out = Path(getattr(args, "out", "reports/demo"))
    a, b = "greedy", "random"
    out.mkdir(parents=True, exist_ok=True)
    results = out / "results.parquet"
    t0 = time.perf_counter()
    result = play_match(a, b, deals, seed, out=results, force=True, keep_plays=False, progress=False)
    elapsed = time.perf_counter() - t0
    print(format_summary(result))
    print(f"  ({result.row['plays']:,} plays in {elapsed:.1f} s, compile included)")
    report = write_report(
        results,
        out,
        title=f"Demo: {a} vs {b}",
        command=f"rummy-sim demo --deals {deals} --seed {seed}",
        elapsed=elapsed,
    )
    print(f"report written to {report}")
    return 0
