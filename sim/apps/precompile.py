"""Compile every registered game's kernels into the numba cache, one process per game: the
engine, every built-in strategy and, where the game has it, its decision analysis.

`make test` runs this before pytest so the test workers load compiled kernels from the
cache instead of each compiling them. numba compiles on one core, so the games compile in
parallel processes, at most one per core at a time: on 2 cores the first two start at once
and the third starts when one ends, so the longest game (Indian, ~2 min cold) never shares
its core with two others.

    python -m sim.apps.precompile            # every game
    python -m sim.apps.precompile persian    # just these
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

from sim.plugin.registry import game_names, get_game
from sim.plugin.strategy import seat_function

_ONE_GAME = "import sys; from sim.apps.precompile import compile_game; compile_game(sys.argv[1])"


def compile_game(name: str) -> None:
    """Compile (or load from the cache) one game's engine and every built-in strategy's kernel
    (each compiles on its own: the kernel its declaration names, sim.plugin.strategy.seat_function)."""
    g = get_game(name)
    g.run_deals(["greedy"] * g.default_players, 1, 0)
    for strategy in g.strategies.names():
        seat_function(g.strategies.get(strategy))
    warm_decisions(g)


def warm_decisions(g) -> None:
    """Compile the game's decision-analysis kernels too, when it has them (Game.decisions): one
    decision of a recorded deal analysed on a few worlds. The analysis tests of both workers then
    load them instead of each compiling them."""
    support = g.decisions
    if support is None:
        return
    log = g.record_logs(["greedy"] * g.default_players, 1, 0)[0]
    for turn in range(1, 60):
        try:
            dec = support.decision_from_log(log, turn, support.decisions[0])
        except ValueError:  # no such decision that turn, or a forced one
            continue
        support.analyze(dec, samples=4, batch=4, racing=False)
        return


def _cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def precompile(names: list[str], slots: int | None = None) -> int:
    """Compile each game in its own process, at most ``slots`` (default: one per core) at a
    time; 0 when every one succeeded."""
    slots = slots or _cores()
    t0 = time.perf_counter()
    waiting = list(names)
    running: dict[str, subprocess.Popen] = {}
    failed: list[str] = []
    while waiting or running:
        while waiting and len(running) < slots:
            name = waiting.pop(0)
            running[name] = subprocess.Popen([sys.executable, "-c", _ONE_GAME, name])
        done = [name for name, proc in running.items() if proc.poll() is not None]
        for name in done:
            if running.pop(name).returncode != 0:
                failed.append(name)
        if not done:
            time.sleep(0.05)
    took = time.perf_counter() - t0
    if failed:
        print(f"precompile: compiling {', '.join(failed)} failed (see above)", file=sys.stderr)
        return 1
    print(f"precompile: {', '.join(names)} compiled or loaded from the cache in {took:.1f} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    names = list(argv if argv is not None else sys.argv[1:]) or list(game_names())
    unknown = sorted(set(names) - set(game_names()))
    if unknown:
        print(f"precompile: unknown game(s) {', '.join(unknown)}; known: {', '.join(game_names())}",
              file=sys.stderr)
        return 2
    return precompile(names)


if __name__ == "__main__":
    sys.exit(main())
