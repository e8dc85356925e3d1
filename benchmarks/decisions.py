"""Decisions analysed per second (issue 12): one decision, every candidate, N worlds each.

    PYTHONPATH=. .venv/bin/python benchmarks/decisions.py [--worlds 1000] [--candidates 10] [--policy expert]

Finds, in deals of ``expert`` recorded with the given seed, the first decision with at
least ``--candidates`` legal moves (a discard, or failing that any decision), keeps
exactly that many candidates (the move played and the first others in engine order),
and times the play-outs of every candidate in every world without racing (the
worst case; the race only makes it faster). Prints compile/cache time, seconds per
decision and decisions/s; ``--json`` for a machine-readable line.
"""

from __future__ import annotations

import argparse
import json
import time



def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worlds", type=int, default=1000)
    ap.add_argument("--candidates", type=int, default=10)
    ap.add_argument("--policy", default="expert")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    t0 = time.perf_counter()
    from sim.games.persian import decisions as P
    from sim.games import get_game

    logs = get_game("persian").record_logs(["expert", "expert"], 20, args.seed)
    dec = None
    for phase in ("discard", "draw", "play"):
        for log in logs:
            for t in range(1, len(log["turns"]) + 1):
                try:
                    d = P.decision_from_log(log, t, phase)
                except P.AnalysisInputError:
                    continue
                if len(d.rows) >= args.candidates:
                    dec = d
                    break
            if dec:
                break
        if dec:
            break
    if dec is None:
        raise SystemExit(f"no decision with {args.candidates} legal moves in 20 deals")
    keep = [dec.played] + [i for i in range(len(dec.rows)) if i != dec.played][: args.candidates - 1]
    dec = P.PersianDecision(dec.obs, dec.rows[sorted(keep)], sorted(keep).index(dec.played), dec.rules,
                            dec.deal, dec.turn, dec.where)
    P.analyze(dec, samples=20, batch=20, policy=args.policy, racing=False, threads=args.threads)  # compile / load
    warm = time.perf_counter() - t0
    times = []
    for r in range(args.repeat):
        a = P.analyze(dec, samples=args.worlds, batch=args.worlds, policy=args.policy, racing=False, seed=r,
                      threads=args.threads)
        times.append(a.seconds)
    best = min(times)
    res = {"decision": dec.situation()["title"], "candidates": len(dec.rows), "worlds": args.worlds,
           "policy": args.policy, "playouts": len(dec.rows) * args.worlds, "seconds_per_decision": round(best, 3),
           "decisions_per_second": round(1 / best, 3), "playouts_per_second": round(len(dec.rows) * args.worlds / best),
           "startup_seconds": round(warm, 2), "target_met": best < 10.0}
    if args.json:
        print(json.dumps(res))
    else:
        for k, v in res.items():
            print(f"{k:>22}: {v}")


if __name__ == "__main__":
    main()
