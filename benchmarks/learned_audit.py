"""Persian `learned` by the audit's yardstick (issue 25, item 2): points lost per take and hold decision
and strength against expert, for expert, the committed `learned` and the last round of trainings.

Usage (from the tree, PYTHONPATH = the tree)::

    python benchmarks/learned_audit.py [DIR ...] [--deals 300] [--sample 300] [--samples 400] [--seed 5] \
        [--match-deals 4000] [--match-seed 20261205] [--threads 1]

Each DIR is a training's output folder (``rummy-sim train learned ... --out DIR``): its weights.npz
becomes the user strategy ``cand_<folder name>`` (strategies/persian/train.make_learned, as a training
round is played). For every strategy it runs what ``rummy-sim audit S --decision take|hold --deals D
--sample K --samples W --seed S`` runs (the strategy in every seat and as its own play-out policy,
the same seed for every strategy) and, for the candidates and `learned`, what ``rummy-sim match S
expert --deals N --seed M`` plays, and prints one table row each: mean points lost per decision with
its 95% CI, and learned - expert per deal with its 95% CI. The defaults are the settings of expert's
committed audits (reports/decisions_expert_*) and of the brief's match.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from sim.games.persian.audit import audit
from sim.studies.match import play_match
from strategies.persian.train import make_learned


def candidates(dirs: list[str]) -> list[str]:
    """Register every training folder's weights as ``cand_<folder>`` and return the names."""
    return [make_learned(np.load(Path(d) / "weights.npz")["weights"], f"cand_{Path(d).name}") for d in dirs]


def row(name: str, args: argparse.Namespace) -> str:
    """One markdown row: take and hold points lost (95% CI), and the match against expert."""
    cells = [f"`{name}`"]
    for kind in ("take", "hold"):
        t0 = time.perf_counter()
        s = audit(name, kind, args.deals, sample=args.sample, samples=args.samples, seed=args.seed,
                  threads=args.threads).summary()
        lo, hi = s["mean_loss_ci95"]
        cells.append(f"{s['mean_loss']:.2f} [{lo:.2f}, {hi:.2f}] ({time.perf_counter() - t0:.0f} s)")
    if name == "expert" or not args.match_deals:
        cells.append("")
    else:
        m = play_match(name, "expert", deals=args.match_deals, seed=args.match_seed, threads=args.threads,
                       keep_plays=False).summary
        cells.append(f"{m['mean_diff']:+.2f} [{m['ci95'][0]:+.2f}, {m['ci95'][1]:+.2f}]")
    return "| " + " | ".join(cells) + " |"


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dirs", nargs="*", metavar="DIR")
    p.add_argument("--deals", type=int, default=300)
    p.add_argument("--sample", type=int, default=300)
    p.add_argument("--samples", type=int, default=400)
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--match-deals", type=int, default=4000)
    p.add_argument("--match-seed", type=int, default=20261205)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--only-candidates", action="store_true", help="skip the expert and learned rows")
    args = p.parse_args(argv)
    names = ([] if args.only_candidates else ["expert", "learned"]) + candidates(args.dirs)
    print(f"audit --deals {args.deals} --sample {args.sample} --samples {args.samples} --seed {args.seed}; "
          f"match --deals {args.match_deals} --seed {args.match_seed} --threads {args.threads}\n")
    print("| strategy | take: points lost per decision | hold: points lost per decision | vs expert per deal |")
    print("| --- | --- | --- | --- |")
    for name in names:
        print(row(name, args), flush=True)


if __name__ == "__main__":
    main()
