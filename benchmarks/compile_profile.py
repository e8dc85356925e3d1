"""Where a game's cold numba compile goes, function by function (issue 9).

Usage (a fresh, empty numba cache, or nothing is compiled)::

    rm -rf /tmp/cc && NUMBA_CACHE_DIR=/tmp/cc PYTHONPATH=. .venv/bin/python benchmarks/compile_profile.py indian

It plays one greedy deal (the engine and greedy compile), then compiles every other
built-in strategy's kernel (the kernel each StrategyInfo names), and prints, per
compiled function: how many specialisations numba compiled ("n"), the process CPU
seconds spent compiling it without its callees ("excl"), the part of that spent
optimising and code-generating its final LLVM module, which holds every callee it links
("llvm"), and the seconds including its callees ("incl"). CPU time, so other jobs on
the machine inflate it less than wall time.
"""

from __future__ import annotations

import collections
import sys
import time

from numba.core import codegen
from numba.core import event as ev

clock = time.process_time
_stack: list[list] = []
incl: dict[str, float] = collections.defaultdict(float)
excl: dict[str, float] = collections.defaultdict(float)
llvm: dict[str, float] = collections.defaultdict(float)
count: collections.Counter = collections.Counter()


class _Timer(ev.Listener):
    """Inclusive and exclusive CPU time of every numba:compile event (nested: callees)."""

    def on_start(self, event):
        d = event.data["dispatcher"]
        _stack.append([f"{d.py_func.__module__.split('.')[-1]}.{d.py_func.__qualname__}", clock(), 0.0])

    def on_end(self, event):
        name, t0, child = _stack.pop()
        dt = clock() - t0
        incl[name] += dt
        excl[name] += dt - child
        count[name] += 1
        if _stack:
            _stack[-1][2] += dt


_finalize = codegen.CPUCodeLibrary.finalize


def _timed_finalize(self):
    """CodeLibrary.finalize (link the callees, optimise, make machine code), timed."""
    t0 = clock()
    try:
        return _finalize(self)
    finally:
        llvm[_stack[-1][0] if _stack else "<top>"] += clock() - t0


def main(games: list[str]) -> None:
    ev.register("numba:compile", _Timer())
    codegen.CPUCodeLibrary.finalize = _timed_finalize
    from sim.games import get_game
    from sim.plugin.strategy import seat_function

    t_start = clock()
    for name in games:
        g = get_game(name)
        t0 = clock()
        g.run_deals(["greedy"] * g.default_players, 1, 0)
        t1 = clock()
        print(f"## {name}: engine + greedy (one deal) {t1 - t0:.1f} s CPU", flush=True)
        for strategy in g.strategies.names():
            seat_function(g.strategies.get(strategy))
        print(f"## {name}: the other built-ins {clock() - t1:.1f} s CPU", flush=True)
    print(f"## total {clock() - t_start:.1f} s CPU")
    print(f"{'function':55s} {'n':>3s} {'excl':>7s} {'llvm':>7s} {'incl':>7s}")
    for k in sorted(excl, key=lambda k: -excl[k]):
        if excl[k] >= 0.15:
            print(f"{k:55s} {count[k]:3d} {excl[k]:7.2f} {llvm[k]:7.2f} {incl[k]:7.2f}")
    print(f"sum of exclusive compile time {sum(excl.values()):.1f} s, of it final-module LLVM {sum(llvm.values()):.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:] or ["persian", "indian"])
