"""Cold compile and first call from the cache of a game's engine + greedy, two trees interleaved.

Usage (the figure issues 23 and 28 ask for: "cold compile not slower", "first call from the
cache < 1 s")::

    .venv/bin/python benchmarks/cold_compile.py OLD_TREE NEW_TREE [--game indian] [--rounds 3]

Each run is a fresh Python process in the tree (cwd and PYTHONPATH = the tree) with an empty
numba cache of its own that imports the game and plays one greedy deal in every seat on two
threads (what the first ``rummy-sim match greedy greedy`` of a user compiles); a second fresh
process then plays the same deal from the cache it left. Reported per run: the process CPU
seconds of the whole cold process (import included, read from the child's rusage, so time
other jobs take from the core does not count), the CPU seconds of the first call alone (the
compile), and the wall seconds of the first call in the warm process. The trees alternate
A B B A ... so drifting load hits both alike; medians and B/A ratios at the end, and every
run's cold CPU seconds (the spread). Give the same tree as A and B to see the noise: at load 4-5
two copies of one tree differed by 8% in median over 5 rounds, and even idle a tree's runs spread
by 10-20%. ``--instructions`` counts the instructions of one cold process per tree under valgrind's
callgrind instead: the same count whatever else the machine does (about 100 times slower).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

CHILD = r"""
import sys, time
from sim.games import get_game  # in every layout (the registry's own module moved)
g = get_game(sys.argv[1])
c0, w0 = time.process_time(), time.perf_counter()
g.run_deals(["greedy"] * g.default_players, 2, 0, threads=int(sys.argv[2]) if len(sys.argv) > 2 else 2)
print(time.process_time() - c0, time.perf_counter() - w0)
"""


def _child(tree: str, python: str, game: str, cache: str) -> tuple[float, float, float]:
    """(process CPU s of the whole child, CPU s of its first call, wall s of its first call)."""
    env = dict(os.environ, PYTHONPATH=tree, NUMBA_CACHE_DIR=cache)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([python, "-c", CHILD, game], cwd=tree, env=env, text=True,
                         capture_output=True, check=True).stdout.split()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return total, float(out[0]), float(out[1])


def measure(tree: str, python: str, game: str) -> tuple[float, float, float]:
    """(cold process CPU s, cold first-call CPU s, warm first-call wall s) of one fresh cache."""
    cache = tempfile.mkdtemp(prefix="cold_compile_")
    try:
        total, first_cpu, _ = _child(tree, python, game, cache)
        _, _, warm_wall = _child(tree, python, game, cache)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return total, first_cpu, warm_wall


def instructions(tree: str, python: str, game: str) -> int:
    """Instructions the whole cold process executes (valgrind's callgrind, one thread): the same
    count on a busy or an idle machine, unlike its CPU seconds. About 100 times slower than a run.
    Python's string hashing is fixed (PYTHONHASHSEED=0): with random hash seeds the set and dict
    orders numba compiles by move one tree's count by up to 2% (Indian main: 137.4 G and 140.0 G)."""
    cache = tempfile.mkdtemp(prefix="cold_compile_")
    out = os.path.join(cache, "callgrind.out")
    try:
        env = dict(os.environ, PYTHONPATH=tree, NUMBA_CACHE_DIR=os.path.join(cache, "numba"), PYTHONHASHSEED="0")
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", python, "-c", CHILD, game, "1"],
                       cwd=tree, env=env, capture_output=True, check=True)
        with open(out) as f:
            return next(int(line.split()[1]) for line in f if line.startswith("totals:"))
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="tree A (e.g. the old code)")
    ap.add_argument("b", help="tree B (e.g. the new code)")
    ap.add_argument("--game", action="append", help="game (repeatable; default persian and indian)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--instructions", action="store_true",
                    help="count the cold process's instructions under valgrind instead (one run per tree)")
    args = ap.parse_args(argv)
    if args.instructions:
        for game in args.game or ["persian", "indian"]:
            a, b = (instructions(t, args.python, game) for t in (args.a, args.b))
            print(f"{game}: A {a:,} instructions, B {b:,}, B/A {b / a:.5f}", flush=True)
        return
    print(f"A = {args.a}\nB = {args.b}\n{args.rounds} rounds, order A B B A ..., load {os.getloadavg()[0]:.2f}")
    print(f"{'game':<9}{'A cold cpu':>11}{'B cold cpu':>11}{'B/A':>7}  {'A compile':>10}{'B compile':>10}{'B/A':>7}"
          f"  {'A warm wall':>12}{'B warm wall':>12}")
    for game in args.game or ["persian", "indian"]:
        got = {"A": [], "B": []}
        for r in range(args.rounds):
            for name in (("A", "B") if r % 2 == 0 else ("B", "A")):
                got[name].append(measure(args.a if name == "A" else args.b, args.python, game))
        med = {k: [statistics.median(x[i] for x in v) for i in range(3)] for k, v in got.items()}
        a, b = med["A"], med["B"]
        print(f"{game:<9}{a[0]:11.1f}{b[0]:11.1f}{b[0] / a[0]:7.3f}  {a[1]:10.1f}{b[1]:10.1f}{b[1] / a[1]:7.3f}"
              f"  {a[2]:12.3f}{b[2]:12.3f}", flush=True)
        # the spread: on a busy machine two runs of the same tree differ by several percent (run the
        # benchmark with the same tree as A and B to see it), so read the ratio against it
        for k, v in got.items():
            cold = sorted(x[0] for x in v)
            print(f"{'':<9}{k} cold cpu of every run: " + " ".join(f"{c:.1f}" for c in cold))
    print(f"load at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
