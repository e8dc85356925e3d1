"""Deals per second of a plain-Python strategy against its compiled original (issue 27).

Plays ``--deals`` Persian (or ``--game indian|gin``) deals with every seat played by each of
``--strategies`` (default: ``greedy_py``, the Python port in strategies/<game>/python_examples/
greedy_py.py, and the compiled ``greedy``; the game's python_examples are all loaded, so
``by_names``, the example on the readable view, can be named too), one thread, ``--repeats``
times each, interleaved, and prints the medians: wall-clock deals/s and deals per CPU second
(the latter is what a core gives when the machine is shared).
Usage: python benchmarks/pystrategy_speed.py [--game persian] [--deals 2000] [--repeats 3]
       [--strategies greedy_py by_names greedy]
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import statistics
import time

from sim.plugin.registry import get_game


def _time(run_deals, table, deals, seed) -> tuple[float, float]:
    w, c = time.perf_counter(), time.process_time()
    run_deals(table, deals, seed=seed, threads=1)
    return time.perf_counter() - w, time.process_time() - c


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="persian")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--strategies", nargs="+", default=["greedy_py", "greedy"])
    a = ap.parse_args()
    game = get_game(a.game)
    examples = importlib.import_module(f"strategies.{game.name}.python_examples")
    for info in pkgutil.iter_modules(examples.__path__):
        importlib.import_module(f"{examples.__name__}.{info.name}")
    run_deals = game.run_deals
    seats = game.default_players or 4
    tables = {name: [name] * seats for name in a.strategies}
    for table in tables.values():
        run_deals(table, 20, seed=1, threads=1)  # compile / load from cache first
    times: dict[str, list] = {k: [] for k in tables}
    for r in range(a.repeats):
        for name, table in tables.items():
            times[name].append(_time(run_deals, table, a.deals, 100 + r))
    for name, ts in times.items():
        wall = statistics.median(t[0] for t in ts)
        cpu = statistics.median(t[1] for t in ts)
        print(f"{game.name} {name}: {a.deals / wall:,.0f} deals/s wall, {a.deals / cpu:,.0f} deals per CPU second "
              f"(median of {a.repeats}, {a.deals} deals, 1 thread)")


if __name__ == "__main__":
    main()
