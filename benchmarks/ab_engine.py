"""Interleaved A/B speed comparison of a game's engine in two source trees.

Usage (from anywhere; each tree runs with its own code and its own numba cache)::

    /work/main/.venv/bin/python benchmarks/ab_engine.py OLD_TREE NEW_TREE \
        [--game persian|indian] [--players 4] [--spec greedy --spec random] [--threads 1 2] \
        [--deals 100000] [--rounds 5]

One long-lived worker process per tree (cwd and PYTHONPATH = the tree) plays the same
deals on request; the runs alternate A B B A A B ... so drifting load from other
processes on a shared machine hits both trees alike. Every run reports its process
CPU time (all threads of the worker) and its wall time; the summary gives the median
of each and the B/A ratio. Process CPU time is the figure to trust on a busy machine:
it does not grow when another process takes the core away (it may grow a little
when worker threads spin while waiting).

Both the old layout (``sim.persian.engine``) and the game-package layout
(``sim.games.persian.engine``) are found. ``--game indian`` plays Indian Rummy
(``sim.games.indian.engine``) with the spec in every one of ``--players`` seats.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

WORKER = r"""
import sys, time, zlib
game, players = sys.argv[1], int(sys.argv[2])
if game == "indian":
    from sim.games.indian.engine import run_deals as _run
    run_deals = lambda spec, n, seed, threads: _run([spec] * players, n, seed, threads=threads)
else:
    try:
        from sim.games.persian.engine import run_deals
    except ImportError:
        from sim.persian.engine import run_deals
run_deals("greedy", 10, 1, threads=1)
print("ready", flush=True)
for line in sys.stdin:
    spec, threads, deals, seed = line.split()
    threads, deals, seed = int(threads), int(deals), int(seed)
    run_deals(spec, min(1000, deals), seed, threads=threads)  # warm this spec and thread count
    c0, w0 = time.process_time(), time.perf_counter()
    run = run_deals(spec, deals, seed, threads=threads)
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    print(cpu, wall, zlib.crc32(run.results.tobytes()), flush=True)
"""


class Worker:
    """A Python process in ``tree`` that plays deals on request."""

    def __init__(self, tree: str, python: str, game: str = "persian", players: int = 4):
        env = dict(os.environ)
        env["PYTHONPATH"] = tree
        env.pop("NUMBA_CACHE_DIR", None)
        self.tree = tree
        self.proc = subprocess.Popen([python, "-c", WORKER, game, str(players)], cwd=tree, env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        line = self.proc.stdout.readline()
        if line.strip() != "ready":
            raise RuntimeError(f"worker in {tree} failed to start")

    def run(self, spec: str, threads: int, deals: int, seed: int) -> tuple[float, float, int]:
        self.proc.stdin.write(f"{spec} {threads} {deals} {seed}\n")
        self.proc.stdin.flush()
        cpu, wall, check = self.proc.stdout.readline().split()
        return float(cpu), float(wall), int(check)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="tree A (e.g. the old code)")
    ap.add_argument("b", help="tree B (e.g. the new code)")
    ap.add_argument("--game", choices=("persian", "indian"), default="persian")
    ap.add_argument("--players", type=int, default=4, help="Indian: seats at the table")
    ap.add_argument("--spec", action="append", help="strategy spec for every seat (repeatable)")
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--python", default=sys.executable)
    args = ap.parse_args(argv)
    specs = args.spec or ["greedy", "random"]
    workers = {"A": Worker(args.a, args.python, args.game, args.players),
               "B": Worker(args.b, args.python, args.game, args.players)}
    try:
        print(f"A = {args.a}\nB = {args.b}\n{args.deals:,} deals per run, {args.rounds} rounds, order A B B A ...")
        print(f"{'spec':<12}{'thr':>4}  {'A cpu s':>8} {'B cpu s':>8} {'B/A cpu':>8}  "
              f"{'A wall':>7} {'B wall':>7} {'B/A wall':>8}  {'A deals/s':>10} {'B deals/s':>10}")
        for spec in specs:
            for th in args.threads:
                got = {"A": [], "B": []}
                checks = set()
                for r in range(args.rounds):
                    for name in (("A", "B") if r % 2 == 0 else ("B", "A")):
                        cpu, wall, check = workers[name].run(spec, th, args.deals, args.seed)
                        got[name].append((cpu, wall))
                        checks.add(check)
                med = {k: (statistics.median(c for c, _ in v), statistics.median(w for _, w in v))
                       for k, v in got.items()}
                same = "" if len(checks) == 1 else "  RESULTS DIFFER"
                print(f"{spec:<12}{th:>4}  {med['A'][0]:8.3f} {med['B'][0]:8.3f} {med['B'][0] / med['A'][0]:8.3f}  "
                      f"{med['A'][1]:7.3f} {med['B'][1]:7.3f} {med['B'][1] / med['A'][1]:8.3f}  "
                      f"{args.deals / med['A'][1]:10,.0f} {args.deals / med['B'][1]:10,.0f}{same}", flush=True)
    finally:
        for w in workers.values():
            w.close()


if __name__ == "__main__":
    main()
