"""The Gin Rummy race of issue 26 (``vs_openspiel.py --speed``): hands per CPU second, one core.

Every engine runs in this one process pinned to one core (``os.sched_setaffinity``), one after
the other, and is timed by the process's CPU time (``time.process_time``), so other load on
the machine slows the wall clock but not the figure; each is warmed first (rummy-sim's kernels
compiled, OpenSpiel's game loaded) and timed over ``hands`` hands, best of ``repeat`` runs.

* rummy-sim: ``simple`` x2 and ``random`` x2 on one thread (sim.games.gin.engine.run_deals).
* OpenSpiel: its C++ ``evaluate_bots`` with two SimpleGinRummyBots, and with two uniform random
  bots, one call a hand, each from a clone of one fresh state (building a state costs ~60
  clones: the clone is OpenSpiel's faster path).
* RLCard: ``gin-rummy`` with two RandomAgents (``env.run``), when rlcard is installed.
"""

from __future__ import annotations

import os
import time

import numpy as np


def _best(fn, hands: int, repeat: int) -> float:
    """Hands per CPU second of ``fn(hands)``, best of ``repeat`` runs."""
    best = 0.0
    for _ in range(repeat):
        t = time.process_time()
        fn(hands)
        dt = time.process_time() - t
        best = max(best, hands / dt if dt > 0 else float("inf"))
    return best


def _rummy_sim(specs):
    from sim.games.gin.engine import run_deals

    def play(hands):
        run_deals(list(specs), np.arange(hands, dtype=np.int64), 1, threads=1)
    return play


def _openspiel(kind: str):
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    fresh = game.new_initial_state()
    if kind == "simple":
        bots = [pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), p) for p in range(2)]
    else:
        bots = [pyspiel.make_uniform_random_bot(p, 17 + p) for p in range(2)]

    def play(hands):
        for h in range(hands):
            pyspiel.evaluate_bots(fresh.clone(), bots, h)
    return play


def _rlcard():
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("gin-rummy", config={"seed": 1})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def play(hands):
        for _ in range(hands):
            env.run(is_training=False)
    return play


def run_speed(args) -> int:
    """Print the race's table (module docstring); returns 0."""
    core = sorted(os.sched_getaffinity(0))[-1]
    os.sched_setaffinity(0, {core})
    hands = args.hands or 20_000
    repeat = max(1, getattr(args, "repeat", 3) or 3)
    slow = max(200, hands // 20)  # the peers take minutes at rummy-sim's hand counts
    rows = []
    for name, fn, n in (("rummy-sim simple x2", _rummy_sim(("simple", "simple")), hands),
                        ("rummy-sim random x2", _rummy_sim(("random", "random")), hands),
                        ("OpenSpiel evaluate_bots, SimpleGinRummyBot x2", _openspiel("simple"), slow),
                        ("OpenSpiel evaluate_bots, uniform random x2", _openspiel("random"), slow),
                        ("RLCard gin-rummy, RandomAgent x2", _rlcard(), slow // 4)):
        if fn is None:
            rows.append((name, None, 0))
            continue
        fn(min(n, 50))  # warm: compile, load, first calls
        rows.append((name, _best(fn, n, repeat), n))
    sim_simple, sim_random, os_simple, os_random, rl = (r[1] for r in rows)
    print(f"Gin Rummy hands per CPU second, one core (cpu {core}), best of {repeat}; load {os.getloadavg()[0]:.1f}")
    print(f"{'engine':48} {'hands':>8} {'hands/s':>12}")
    for name, rate, n in rows:
        print(f"{name:48} {n:>8,} {rate:>12,.0f}" if rate else f"{name:48} {'-':>8} {'not installed':>12}")
    print(f"simple x2 / OpenSpiel's bots: {sim_simple / os_simple:,.0f}x (target >= 30x)")
    print(f"random x2 / OpenSpiel's random bots: {sim_random / os_random:,.0f}x")
    if rl:
        print(f"random x2 / RLCard's random agents: {sim_random / rl:,.0f}x")
    return 0
