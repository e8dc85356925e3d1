"""Indian `learned`: strength against a field of expert and speed, for the committed weights or a
training's round, with margins added to the cost of leaving expert's move (issue 25).

Usage (from the tree, PYTHONPATH = the tree)::

    python benchmarks/learned_indian.py [--state DIR/state.json [--round R]] [--margin M ...] \
        [--players 4] [--deals 4000] [--seed S] [--speed-deals 4000] [--expert-kind draw|discard]

For each margin (points added to feature 0, expert's own move, of every row the training
fitted: the model then leaves expert only where it sees a larger gain) it plays the duplicate
match of ``rummy-sim match learned expert --game indian --players N --deals D --seed S`` (A in
each seat in turn, a field of expert in the others) and prints the difference per deal with
its 95% CI; with ``--speed-deals`` also the deals/s of that model in every seat on one thread
(process CPU time, so another process's load does not count; after a warm-up run).
Without ``--state`` the weights are the committed ones (strategies/indian/learned_weights.py);
``--expert-kind`` plays expert's own move at that decision kind (what the other kind's model gains).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from sim.games.indian.engine import run_deals
from sim.studies.match import play_match
from strategies.indian import train as T
from strategies.indian.learned_nb import LEARNED_WEIGHTS


def weights_of(state: str | None, round_: int) -> np.ndarray:
    """The weights of round ``round_`` (1-based; 0: the last) of a training's state.json, or the committed ones."""
    if state is None:
        return LEARNED_WEIGHTS.copy()
    rounds = json.loads(open(state).read())["rounds"]
    return np.array(rounds[round_ - 1 if round_ else -1]["weights"])


def with_margin(w: np.ndarray, margin: float) -> np.ndarray:
    """``w`` with ``margin`` added to feature 0 of every row that is not expert's alone."""
    w = w.copy()
    for k in range(w.shape[0]):
        if w[k, 1:].any():
            w[k, 0] += margin
    return w


def speed(name: str, players: int, deals: int) -> float:
    """Deals/s of ``name`` in every seat, one thread, process CPU time (after a warm-up run)."""
    run_deals([name] * players, 200, 1, threads=1)
    t = time.process_time()
    run_deals([name] * players, deals, 2, threads=1)
    return deals / (time.process_time() - t)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--state", default=None, help="a training's state.json (default: the committed weights)")
    ap.add_argument("--round", type=int, default=0, help="its round, 1-based (default the last)")
    ap.add_argument("--margin", type=float, action="append", default=None, help="repeatable (default 0)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=4000, help="duplicate deal sets of each match")
    ap.add_argument("--seed", type=int, default=20261204)
    ap.add_argument("--speed-deals", type=int, default=0, help="also deals/s on this many deals (0: no)")
    ap.add_argument("--expert-kind", action="append", default=[], choices=T.KIND_NAMES,
                    help="play expert's own move at this decision kind (repeatable): what the other kind gains")
    args = ap.parse_args(argv)
    base = weights_of(args.state, args.round)
    for kind in args.expert_kind:
        base[T.KIND_NAMES.index(kind)] = T.EXPERT_ONLY[0]
    for m in args.margin or [0.0]:
        name = T.make_learned(with_margin(base, m), f"learned_margin_{len(T._MADE)}")
        s = play_match(name, "expert", deals=args.deals, seed=args.seed, game="indian", players=args.players,
                       keep_plays=False, threads=1).summary
        lo, hi = s["ci95"]
        line = (f"margin {m:g}{''.join(f', {k} as expert' for k in args.expert_kind)}: learned - expert field {s['mean_diff']:+.2f} [{lo:+.2f}, {hi:+.2f}] per deal, "
                f"{args.deals} deal sets, {args.players} players, seed {args.seed}")
        if args.speed_deals:
            line += f"; {speed(name, args.players, args.speed_deals):.0f} deals/s x{args.players} (1 thread, CPU)"
        print(line, flush=True)


if __name__ == "__main__":
    main()
