"""Decisions analysed per second (issues 12, 24): one decision, every candidate, N worlds each.

    PYTHONPATH=. .venv/bin/python benchmarks/decisions.py [--game persian|indian] [--worlds 1000]
        [--candidates 10] [--policy expert] [--repeat 3] [--threads T] [--json]

Finds, in deals of ``expert`` (at ``--players``: 2 for Persian, 4 for Indian by default)
recorded with the given seed, the first decision with at least ``--candidates`` legal moves
(a discard, or failing that any decision the game names), keeps exactly that many candidates
(the move played and the first others in engine order), and times the play-outs of every
candidate in every world without racing (the worst case; the race only makes it faster).
Prints the load (``os.getloadavg``, before and after), compile/cache time, the median and
every repeat's seconds per decision, the median process CPU seconds (all threads: the figure
that a loaded machine inflates least), decisions/s and whether the target (< 10 s, issue 24) is met;
``--json`` for a machine-readable line. The game is asked through its ``Game`` object only.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import time

#: the decision kinds tried, in order, per game (the first with enough legal moves is timed)
PHASES = {"persian": ("discard", "draw", "play"), "indian": ("discard", "draw")}
PLAYERS = {"persian": 2, "indian": 4}
TARGET_SECONDS = 10.0


def find_decision(game, support, args):
    """The first logged decision with at least ``args.candidates`` legal moves, cut to exactly that many."""
    players = args.players or PLAYERS.get(game.name, 2)
    logs = game.record_logs(["expert"] * players, 20, args.seed)
    for phase in PHASES.get(game.name, support.decisions):
        for log in logs:
            for t in range(1, len(log["turns"]) + 1):
                try:
                    d = support.decision_from_log(log, t, phase)
                except ValueError:  # every game's AnalysisInputError is one
                    continue
                if len(d.rows) >= args.candidates:
                    keep = sorted([d.played] + [i for i in range(len(d.rows)) if i != d.played][: args.candidates - 1])
                    return dataclasses.replace(d, rows=d.rows[keep], played=keep.index(d.played))
    raise SystemExit(f"no decision with {args.candidates} legal moves in 20 deals")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="persian")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--worlds", type=int, default=1000)
    ap.add_argument("--candidates", type=int, default=10)
    ap.add_argument("--policy", default="expert")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    t0 = time.perf_counter()
    import numba

    from sim.games import get_game

    game = get_game(args.game)
    support = game.decisions
    dec = find_decision(game, support, args)
    support.analyze(dec, samples=20, batch=20, policy=args.policy, racing=False, threads=args.threads)  # compile / load
    warm = time.perf_counter() - t0
    load0 = os.getloadavg()[0]
    times, cpus = [], []
    for r in range(args.repeat):
        c0 = time.process_time()
        a = support.analyze(dec, samples=args.worlds, batch=args.worlds, policy=args.policy, racing=False, seed=r,
                            threads=args.threads)
        cpus.append(time.process_time() - c0)
        times.append(a.seconds)
    med = statistics.median(times)
    res = {"game": args.game, "decision": dec.situation()["title"], "candidates": len(dec.rows),
           "worlds": args.worlds, "policy": args.policy, "playouts": len(dec.rows) * args.worlds,
           "seconds_per_decision": round(med, 3), "repeats": [round(t, 3) for t in times],
           "cpu_seconds": round(statistics.median(cpus), 3), "threads": numba.get_num_threads(),
           "decisions_per_second": round(1 / med, 3), "playouts_per_second": round(len(dec.rows) * args.worlds / med),
           "startup_seconds": round(warm, 2), "load_1min": [round(load0, 2), round(os.getloadavg()[0], 2)],
           "cpus": os.cpu_count(), "target_met": med < TARGET_SECONDS}
    if args.json:
        print(json.dumps(res))
    else:
        for k, v in res.items():
            print(f"{k:>22}: {v}")


if __name__ == "__main__":
    main()
