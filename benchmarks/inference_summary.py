"""The printed summary of an inference measurement (benchmarks/inference.py for Persian,
inference_indian.py for Indian): the true hidden hands' log-likelihood gain and rank, the
effective sample sizes, and the paired value of the inferred pick over the uniform one."""

from __future__ import annotations

import numpy as np

from sim.core.intervals import mean_ci


def report(header: str, args, gains, ranks, ess_all, diffs, differ: int, failed: int, secs: float) -> None:
    """Print ``header`` and the two measured figures (issue 24, item 3) with 95% CIs."""
    m, lo, hi = mean_ci(gains)
    print(header)
    print(f"1. log-likelihood gain of the true hidden hands, inferred vs uniform: {m:.2f} nats "
          f"(95% CI {lo:.2f} to {hi:.2f}); truth's mid-rank among the worlds {np.mean(ranks):.3f} "
          f"(95% CI {mean_ci(ranks)[1]:.3f} to {mean_ci(ranks)[2]:.3f}; 0.5 = a random world); "
          f"ESS median {np.median(ess_all):.1f} (min {min(ess_all):.1f}, max {max(ess_all):.1f})")
    if diffs:
        m, lo, hi = mean_ci(diffs)
        print(f"2. inferred pick minus uniform pick, played from the true state ({args.repeats} play-outs of "
              f"{args.policy} each): {m:.2f} points per position (95% CI {lo:.2f} to {hi:.2f}) over {len(diffs)} "
              f"positions, picks differ in {differ}; inference failed (ESS < {args.ess_floor:g}) in {failed}")
    print(f"{secs:.0f} s")
